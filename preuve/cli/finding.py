"""Verbs that find passages without generating: search, where, diff."""

from __future__ import annotations

import textwrap

import click

from preuve.cli._common import (
    METHODS,
    command_settings,
    embedder_option,
    filter_options,
    index_option,
    json_option,
    open_index,
    print_json,
    reranker_option,
)
from preuve.models import QUERY_LIMIT, Hit, within_limit
from preuve.registry import (
    kinds,
)
from preuve.retrieve.rerank import load_reranker


@click.command()
@click.argument("query")
@click.option("--method", type=click.Choice(METHODS), default=None,
              help="Retrieval method (default: hybrid if the index has vectors, else bm25).")
@click.option("-k", "k", default=5, show_default=True, help="Number of results.")
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help=f"Only these kinds: {', '.join(kinds.names())}.")
@click.option("--candidates", type=int, default=None,
              help="Candidates per method before fusion (default 20).")
@click.option("--explain", is_flag=True, help="Show each hit's rank and score in every method.")
@click.option("--navigation", is_flag=True,
              help="Include tables of contents, indexes and link lists (left out by default).")
@filter_options
@index_option
@embedder_option
@reranker_option
@json_option
def search(query, method, k, kinds, candidates, explain, navigation, as_of, audience, paths,
           index_path, embedder, reranker, as_json):
    """Passages for QUERY, best first, each with its citation label."""
    within_limit(query, QUERY_LIMIT, "query")
    audience = command_settings(audience=audience).audience
    reranker = load_reranker(command_settings(reranker=reranker).reranker)
    with open_index(index_path, embedder, reranker=reranker) as index:
        hits = index.search(query, method=method, k=k, as_of=as_of, audience=audience,
                            paths=paths, kinds=kinds, candidates=candidates,
                            navigation=navigation)
        if explain:
            index.explain(query, hits, method, as_of=as_of, audience=audience, paths=paths,
                          kinds=kinds, navigation=navigation)
    _print_hits(hits, as_json, "no results", lambda hit: _describe(hit, explain))


def _print_hits(hits: list[Hit], as_json: bool, none: str, line) -> None:
    """The hits as JSON, or one `line(hit)` each (`none` when there are none)."""
    if as_json:
        print_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo(none)
    for hit in hits:
        click.echo(line(hit))


def _describe(hit: Hit, explain: bool = False) -> str:
    where = hit.heading or " > ".join(filter(None, [hit.title, hit.symbol]))
    snippet = hit.preview(160)
    head = click.style(f"{hit.rank:>2}. {hit.shown_label}", bold=True)
    line = f"{head}  [{hit.score:.3f}]  {where}\n    {snippet}"
    if explain:
        parts = [f"{name} #{d['rank']} ({d['score']})" if d.get("rank") else f"{name} —"
                 for name, d in hit.scores.items()]
        line += "\n    why: " + ", ".join(parts)
    return line


@click.command()
@click.argument("subject")
@click.option("-k", "k", default=10, show_default=True, help="Number of locations.")
@click.option("--method", type=click.Choice(METHODS), default=None,
              help="Retrieval method (default: hybrid if the index has vectors, else bm25; "
                   "bm25 calls no model).")
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="Only definitions of this kind: function (methods too), method, class "
                   "(structs, interfaces, traits too), constant, key, table, target...")
@click.option("--lang", "languages", multiple=True, metavar="LANG",
              help="Only files in this language: go, rust, typescript (ts), python, yaml...")
@filter_options
@index_option
@embedder_option
@json_option
def where(subject, k, method, kinds, languages, as_of, audience, paths, index_path, embedder,
          as_json):
    """Code locations for SUBJECT: `path:line  kind name`, no generation model involved."""
    within_limit(subject, QUERY_LIMIT, "subject")
    audience = command_settings(audience=audience).audience
    with open_index(index_path, embedder) as index:
        hits = index.where(subject, k=k, as_of=as_of, audience=audience, paths=paths,
                           method=method, kinds=kinds, languages=languages)
    _print_hits(hits, as_json, "no code location found", _location)


def _location(hit: Hit) -> str:
    name = (f"{hit.symbol_kind} {hit.symbol}" if hit.symbol
            else f"lines {hit.start_line}-{hit.end_line}")
    return f"{hit.path}:{hit.start_line}  {name}"


@click.command()
@click.argument("target", metavar="PATH")
@click.option("--from", "since", default=None, metavar="DATE",
              help="The version in force that day (default: the one before --to's).")
@click.option("--to", "until", default="today", show_default=True, metavar="DATE|today|none",
              help="The version in force that day (none: the latest).")
@click.option("--audience", default=None, metavar="LABEL",
              help="Only versions this audience may read (default: the operator, or "
                   "$PREUVE_AUDIENCE).")
@click.option("--width", default=None, type=int, help="Columns of the side-by-side view.")
@index_option
@json_option
def diff(target, since, until, audience, width, index_path, as_json):
    """What changed in a document between two of its effective-dated versions: the
    changed passages side by side, each with its citation in both versions. PATH is the
    path (or doc_id) of any of its versions."""
    audience = command_settings(audience=audience).audience
    with open_index(index_path) as index:
        result = index.versions.diff(target, since=since, until=until, audience=audience)
    if as_json:
        return print_json(result.to_dict())
    old, new = result.old, result.new
    click.echo(f"{old.path} (version {old.version or '-'}, from {old.effective_from or '-'}) "
               f"-> {new.path} (version {new.version or '-'}, from "
               f"{new.effective_from or '-'}): {len(result.changes)} changed passages")
    column = max(30, ((width or _terminal_width()) - 3) // 2)
    for change in result.changes:
        left = [u.label for u in change.old] or ["(none)"]
        right = [u.label for u in change.new] or ["(none)"]
        click.echo(f"\n{change.kind.upper()} {change.heading}".rstrip())
        _side_by_side([", ".join(left)] + _wrapped(change.old, column),
                      [", ".join(right)] + _wrapped(change.new, column), column)


def _terminal_width() -> int:
    import shutil

    return shutil.get_terminal_size((160, 24)).columns


def _wrapped(units, column: int) -> list[str]:
    lines = []
    for unit in units:
        lines += textwrap.wrap(" ".join(unit.text.split()), column) or [""]
    return lines


def _side_by_side(left: list[str], right: list[str], column: int) -> None:
    for n in range(max(len(left), len(right))):
        a = left[n] if n < len(left) else ""
        b = right[n] if n < len(right) else ""
        click.echo(f"{a[:column]:<{column}} | {b[:column]}".rstrip())
