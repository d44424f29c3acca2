"""`preuve feedback`: list, export and review what readers said of answers."""

from __future__ import annotations

import textwrap

import click

from preuve.cli._common import (
    command_settings,
    index_option,
    json_option,
    open_index,
    print_json,
)
from preuve.feedback import VERDICTS as FEEDBACK_VERDICTS


@click.group()
def feedback():
    """Feedback readers gave on answers (the web page, the HTTP API, MCP): list it,
    export it, review it, and turn reviewed items into evaluation questions."""


def _feedback_filters(f):
    for option in reversed([
        click.option("--verdict", "verdicts", multiple=True,
                     type=click.Choice(FEEDBACK_VERDICTS), help="Only this verdict (repeatable)."),
        click.option("--since", default=None, metavar="DATE", help="Given on or after DATE."),
        click.option("--until", default=None, metavar="DATE", help="Given on or before DATE."),
        click.option("--audience", "given_by", multiple=True, metavar="LABEL",
                     help="Only feedback given by callers of this audience (repeatable)."),
        click.option("--reviewed/--unreviewed", default=None,
                     help="Only items you reviewed / have not reviewed yet."),
    ]):
        f = option(f)
    return f


def _operator_only() -> None:
    """Feedback holds every caller's questions: only the operator reads it, never a shell
    that $PREUVE_AUDIENCE limits to an audience."""
    audience = command_settings().audience
    if audience is not None:
        raise click.UsageError(f"feedback is read by the operator only; this shell reads as "
                               f"audience {audience!r} ($PREUVE_AUDIENCE)")


def _feedback_items(index, verdicts, since, until, given_by, reviewed) -> list[dict]:
    _operator_only()
    return index.feedback.list(verdicts=verdicts, since=since, until=until,
                               given_by=given_by, reviewed=reviewed)


@feedback.command(name="list")
@_feedback_filters
@index_option
@json_option
def feedback_list(verdicts, since, until, given_by, reviewed, index_path, as_json):
    """Feedback, newest first (the operator reads every caller's)."""
    with open_index(index_path) as index:
        items = _feedback_items(index, verdicts, since, until, given_by, reviewed)
    if as_json:
        return print_json(items)
    if not items:
        click.echo("no feedback")
    for item in items:
        cited = ", ".join(c["label"] for c in item["citations"]) or "no citation"
        reviewed_mark = " · reviewed" if item["reviewed_at"] else ""
        click.echo(f"#{item['id']} {item['created_at'][:16]} {item['verdict'].upper()} "
                   f"({item['audience'] or 'operator'}, {item['channel']}){reviewed_mark}")
        click.echo(f"  Q: {item['question']}")
        click.echo(f"  A: {textwrap.shorten(item['answer'] or '(refused)', 160)} [{cited}]")
        if item["comment"]:
            click.echo(f"  comment: {item['comment']}")


@feedback.command(name="export")
@_feedback_filters
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json",
              show_default=True)
@click.option("-o", "--output", default=None, type=click.Path(dir_okay=False),
              help="Write to this file instead of the standard output.")
@click.option("--to-eval", "to_eval", default=None, type=click.Path(dir_okay=False),
              metavar="QUESTIONS.yaml",
              help="Write the reviewed items as evaluation questions (the reference format "
                   "of `preuve eval`) to this file instead.")
@index_option
def feedback_export(verdicts, since, until, given_by, reviewed, fmt, output, to_eval,
                    index_path):
    """Export feedback as JSON or CSV, or the reviewed items as evaluation questions."""
    with open_index(index_path) as index:
        items = _feedback_items(index, verdicts, since, until, given_by, reviewed)
        if to_eval:
            questions, skipped = index.feedback.to_eval(items)
            text = index.feedback.eval_yaml(questions)
        else:
            text = index.feedback.export(items, fmt)
    if to_eval:
        with open(to_eval, "w", encoding="utf-8") as out:
            out.write(text)
        click.echo(f"{len(questions)} questions written to {to_eval}")
        for line in skipped:
            click.echo(f"  left out: {line}", err=True)
    elif output:
        with open(output, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        click.echo(f"{len(items)} items written to {output}", err=True)
    else:
        click.echo(text, nl=False)


@feedback.command(name="review")
@click.argument("feedback_id", type=int)
@click.option("--source", "sources", multiple=True, metavar="LOCATION",
              help="Where the right answer is: path:START-END, path:LINE, file.pdf p. N, or a "
                   "path (repeatable).")
@click.option("--fact", "facts", multiple=True, metavar="TEXT",
              help="What a right answer states (repeatable).")
@click.option("--refuse", is_flag=True, help="Nothing in the documents answers it.")
@click.option("--note", default="", help="A note of yours.")
@index_option
@json_option
def feedback_review(feedback_id, sources, facts, refuse, note, index_path, as_json):
    """Review one item: give the correct source (or --refuse) so that it becomes an
    evaluation question (`preuve feedback export --to-eval`)."""
    _operator_only()
    with open_index(index_path) as index:
        item = index.feedback.review(feedback_id, relevant=sources, facts=facts,
                                     refuse=refuse, note=note)
    if as_json:
        return print_json(item)
    click.echo(f"feedback {feedback_id} reviewed")
