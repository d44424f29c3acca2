"""The `preuve` command; `--json` everywhere.

Each verb calls `preuve.Index` (the one door to an index): ingest, status, search, where,
forget, ask, chat, calibrate, eval, migrate, diff and feedback through its methods and
helpers; `serve` and `mcp` start the HTTP and MCP servers, which use it too. A
`PreuveError` is shown as one line, `Error: <message>`, and exits with its code
(`preuve.errors`: 2 invalid input, 3 not found, 4 conflict, 5 upstream service); anything
else is a bug and shows a traceback.

Settings: the command's flags, over `--settings FILE`, over the `PREUVE_*` variables
(`preuve.settings.Settings`, read once when the command starts); choices and lists of names
come from `preuve.registry`.

One module per group of verbs, each verb added to the group below; what they share (the
index and settings of a command, common options, the error mapping) is in `_common.py`:

    indexing     ingest, watch, status, forget, migrate
    finding      search, where, diff
    answering    ask, chat, calibrate
    evaluating   eval
    feedback     feedback list|export|review
    servers      serve, mcp
"""

from __future__ import annotations

import click

from preuve.cli import answering, evaluating, feedback, finding, indexing, servers
from preuve.cli._common import Commands, Failed
from preuve.errors import PreuveError
from preuve.settings import Settings

__all__ = ["cli"]


@click.group(cls=Commands)
@click.version_option(package_name="preuve")
@click.option("--settings", "settings_file", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False),
              help="YAML file of settings (the keys of preuve.settings.Settings: index, "
                   "embedder, llm_base_url, ...), over the PREUVE_* variables.")
@click.option("--index", "index_path", default=None, metavar="PATH",
              help="The index every verb uses, as each verb's own --index (which wins): "
                   "`preuve --index X.sqlite ask …` as `preuve ask … --index X.sqlite`.")
@click.pass_context
def cli(ctx, settings_file, index_path):
    """preuve: answers over your own documents and code, with verified citations."""
    try:
        ctx.obj = Settings.load(config=settings_file).with_(index=index_path)
    except PreuveError as exc:  # a bad setting is invalid input, exit 2
        raise Failed(exc) from None
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


for _command in (indexing.ingest, indexing.watch, indexing.status, indexing.forget,
                 indexing.migrate, finding.search, finding.where, finding.diff,
                 answering.ask, answering.chat, answering.calibrate, evaluating.eval_,
                 feedback.feedback, servers.serve, servers.mcp):
    cli.add_command(_command)
