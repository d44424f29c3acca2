from preuve.cli import cli

cli()
