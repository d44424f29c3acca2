"""What every verb of the `preuve` command shares: its settings, its index, the
options several verbs take, how a PreuveError is shown, and the ingest report."""

from __future__ import annotations

import collections
import json
import sys
import time
from pathlib import PurePosixPath

import click

from preuve.errors import PreuveError, environmental
from preuve.index import (
    DEFAULT_INDEX,
    Index,
    require_index,
    shown_location,
)
from preuve.ingest import ROUTINE_SKIPS
from preuve.ingest.base import CHUNKING_STRATEGIES, ChunkSettings
from preuve.ingest.limits import DEFAULT_MAX_PAGES
from preuve.ingest.walk import UNSUPPORTED
from preuve.registry import (
    PluginError,
    comparable_methods,
    embedders,
    generators,
    kinds,
    methods,
)
from preuve.settings import Settings

try:  # the choices and help below list plugins' entries too: load them now
    METHODS = methods.names()
    COMPARABLE = comparable_methods()  # no cross-encoder needed
    for _registry in (kinds, embedders, generators):
        _registry.names()
except PluginError as _exc:
    sys.exit(f"preuve: {_exc}")


def command_settings(**flags) -> Settings:
    """This command's settings: its flags (None: not given) over those read at start."""
    root = click.get_current_context().find_root()
    if not isinstance(root.obj, Settings):  # a command invoked on its own (tests)
        root.obj = Settings.load()
    settings = root.obj.with_(**flags)
    root.meta["preuve.index"] = settings.index  # what an error names (Commands)
    return settings


def index_option(f):
    return click.option(
        "--index", "index_path", default=None, metavar="PATH",
        help="Index: a SQLite file (default ./.preuve/index.sqlite) or a PostgreSQL URL "
             "postgresql://user@host:port/db (or $PREUVE_INDEX).",
    )(f)


def embedder_option(f):
    return click.option(
        "--embedder", default=None, metavar="NAME",
        help=f"Embedding model: {', '.join(embedders.names())} (the first is the default), "
             "or none (keywords only). An index keeps the one it was built with "
             "(or $PREUVE_EMBEDDER).")(f)


def reranker_option(f):
    return click.option(
        "--reranker", default=None, metavar="FOLDER",
        help="Cross-encoder for --method rerank: a folder with model.onnx + tokenizer.json, "
             "or NAME:ARGUMENT for a reranker a plugin adds (or $PREUVE_RERANKER).")(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(f)


def filter_options(f):
    for option in reversed([
        click.option("--as-of", default="today", show_default=True, metavar="DATE|today|none",
                     help="Only versions in force that day."),
        click.option("--audience", default=None, metavar="LABEL",
                     help="Only what this audience may read (e.g. public, staff). "
                          "Default: everything (the operator), or $PREUVE_AUDIENCE."),
        click.option("--path", "paths", multiple=True, metavar="PREFIX",
                     help="Only documents under this path prefix (repeatable)."),
    ]):
        f = option(f)
    return f


class Failed(click.ClickException):
    """A PreuveError as click shows it: `Error: <message>`, exit code from the error."""

    def __init__(self, error: PreuveError):
        super().__init__(str(error))
        self.exit_code = error.exit_code


class Commands(click.Group):
    """The command group; it maps every PreuveError once, for all commands."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PreuveError as exc:
            raise Failed(exc) from None
        except Exception as exc:  # a full disk, a database gone: one line, not a traceback
            where = shown_location(ctx.meta.get("preuve.index") or DEFAULT_INDEX)
            failure = environmental(exc, where)
            if failure is None:
                raise
            raise Failed(failure) from None


def open_index(index_path, embedder=False, *, create: bool = False, **kwargs) -> Index:
    """The command's index: --index, else $PREUVE_INDEX, else the default; with the
    embedder asked for (--embedder, else $PREUVE_EMBEDDER) when the command has the option.
    Only a command that `create`s (ingest) makes a new one: the others refuse a location
    where there is none (exit 3, the command to build one), so that a typo in --index
    answers "no index there", not "I don't know" from an empty index made on the spot."""
    settings = command_settings(index=index_path)
    if not create:
        require_index(settings.index)
    if embedder is not False:
        settings = settings.with_(embedder=embedder)
        kwargs["embedder"] = settings.embedder
    return Index(settings.index, settings=settings, **kwargs)


def print_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def chunking_options(f):
    for option in reversed([
        click.option("--chunking", type=click.Choice(CHUNKING_STRATEGIES), default=None,
                     help="How prose is cut (default structure; recorded in the index)."),
        click.option("--chunk-words", type=int, default=None,
                     help="Chunk size in words (default 180)."),
        click.option("--chunk-overlap", type=int, default=None,
                     help="Words shared by consecutive chunks (default 30)."),
    ]):
        f = option(f)
    return f

def ingest_options(f):
    """The options `ingest`, `watch` and `serve --watch` share (what `Index.ingest` takes)."""
    f = chunking_options(f)
    for option in reversed([
        click.option("--access", default=None, metavar="LABEL",
                     help="Access label for files that declare none (else: operator only)."),
        click.option("--max-mb", type=float, default=50.0, show_default=True,
                     help="Files larger than this are refused."),
        click.option("--max-pages", type=int, default=DEFAULT_MAX_PAGES, show_default=True,
                     help="PDFs with more pages than this are refused."),
        click.option("--untracked", is_flag=True,
                     help="In a git work tree, also the files git does not track but does "
                          "not ignore (default: tracked files only)."),
    ]):
        f = option(f)
    return f


def ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                   chunk_overlap) -> dict:
    return {"access": access, "max_bytes": int(max_mb * 1024 * 1024), "max_pages": max_pages,
            "untracked": untracked,
            "settings": ChunkSettings.asked(chunking, chunk_words, chunk_overlap)}

def print_report(report, as_json: bool, prefix: str = "") -> None:
    """An ingest's report: one summary line and its problems, or JSON."""
    if as_json:
        print_json(report.to_dict())
        return
    unsupported = collections.Counter(
        PurePosixPath(p.path).suffix.lower() or PurePosixPath(p.path).name
        for p in report.skipped if p.reason == UNSUPPORTED)
    common = sorted(unsupported.items(), key=lambda item: (-item[1], item[0]))
    kinds_seen = ", ".join(f"{suffix} {n}" for suffix, n in common[:3]) + (
        ", ..." if len(unsupported) > 3 else "")
    total = sum(unsupported.values())
    click.echo(
        f"{prefix}{len(report.added)} added, {len(report.updated)} updated, "
        f"{len(report.removed)} removed, {report.unchanged} unchanged, "
        f"{report.chunks} chunks written, {report.embedded} passages embedded"
        # vectors are cached by the text embedded: a passage met before is not embedded again
        + (f" ({report.chunks - report.embedded} had the text of one already embedded)"
           if 0 < report.embedded < report.chunks else "")
        + (f", {total} skipped (unsupported type: {kinds_seen})" if total else "")
    )
    if total and not (report.added or report.updated or report.unchanged):
        click.echo("note: preuve reads none of these files; it reads "
                   + "; ".join(kind.help for _, kind in kinds.items()), err=True)
    for problem in report.skipped:  # e.g. links, which are not followed
        if problem.reason not in ROUTINE_SKIPS:
            click.echo(f"skipped: {problem.path}: {problem.reason}", err=True)
    for problem in report.failed:
        click.echo(f"error: {problem.path}: {problem.reason}", err=True)
    for problem in report.cited_alike:
        click.echo(f"note: {problem.path}: {problem.reason}, cited with the same path; "
                   "ingest their common folder to tell them apart", err=True)

def print_batch(batch, as_json: bool) -> None:
    """One line (or one JSON line) per batch of the watcher."""
    if as_json:
        click.echo(json.dumps({"changed": batch.changed, "whole": batch.whole,
                               "error": batch.error or None,
                               "report": batch.report.to_dict() if batch.report else None},
                              ensure_ascii=False, default=str))
        return
    when = time.strftime("%H:%M:%S", time.localtime(batch.finished_at))
    if batch.error:
        click.echo(f"{when} error: {batch.error}", err=True)
        return
    what = "all" if batch.whole else f"{len(batch.changed)} changed"
    print_report(batch.report, False, prefix=f"{when} ({what}) ")
