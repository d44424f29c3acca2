"""The `preuve` command; `--json` everywhere.

Each verb calls `preuve.Index` (the one door to an index): ingest, status, search, where,
forget, ask, chat, calibrate, eval, migrate, diff and feedback through its methods and
helpers;
`serve` and `mcp` start the HTTP and MCP servers, which use it too. A `PreuveError` is shown as one
line, `Error: <message>`, and exits with its code (`preuve.errors`: 2 invalid input,
3 not found, 4 conflict, 5 upstream service); anything else is a bug and shows a traceback.

Settings: the command's flags, over `--settings FILE`, over the `PREUVE_*` variables
(`preuve.settings.Settings`, read once when the command starts); choices and lists of names
come from `preuve.registry`.
"""

from __future__ import annotations

import json
import sys
import textwrap
import time

import click

from preuve.errors import PreuveError, environmental
from preuve.extras import needs
from preuve.feedback import VERDICTS as FEEDBACK_VERDICTS
from preuve.index import (
    DEFAULT_INDEX,
    Index,
    copy_index,
    index_exists,
    require_index,
    shown_location,
)
from preuve.ingest import ROUTINE_SKIPS
from preuve.ingest.base import CHUNKING_STRATEGIES, ChunkSettings
from preuve.ingest.limits import DEFAULT_MAX_PAGES
from preuve.ingest.walk import UNSUPPORTED
from preuve.models import ASK_K, QUERY_LIMIT, QUESTION_LIMIT, Hit, within_limit
from preuve.registry import (
    PluginError,
    comparable_methods,
    embedders,
    generators,
    kinds,
    methods,
)
from preuve.retrieve.rerank import load_reranker
from preuve.settings import Settings
from preuve.watch import LONGEST, QUIET, Watcher

try:  # the choices and help below list plugins' entries too: load them now
    METHODS = methods.names()
    COMPARABLE = comparable_methods()  # no cross-encoder needed
    for _registry in (kinds, embedders, generators):
        _registry.names()
except PluginError as _exc:
    sys.exit(f"preuve: {_exc}")


def _settings(**flags) -> Settings:
    """This command's settings: its flags (None: not given) over those read at start."""
    root = click.get_current_context().find_root()
    if not isinstance(root.obj, Settings):  # a command invoked on its own (tests)
        root.obj = Settings.load()
    settings = root.obj.with_(**flags)
    root.meta["preuve.index"] = settings.index  # what an error names (_Commands)
    return settings


def _index_option(f):
    return click.option(
        "--index", "index_path", default=None, metavar="PATH",
        help="Index: a SQLite file (default ./.preuve/index.sqlite) or a PostgreSQL URL "
             "postgresql://user@host:port/db (or $PREUVE_INDEX).",
    )(f)


def _embedder_option(f):
    return click.option(
        "--embedder", default=None, metavar="NAME",
        help=f"Embedding model: {', '.join(embedders.names())} (the first is the default), "
             "or none (keywords only). An index keeps the one it was built with "
             "(or $PREUVE_EMBEDDER).")(f)


def _reranker_option(f):
    return click.option(
        "--reranker", default=None, metavar="FOLDER",
        help="Cross-encoder for --method rerank: a folder with model.onnx + tokenizer.json, "
             "or NAME:ARGUMENT for a reranker a plugin adds (or $PREUVE_RERANKER).")(f)


def _json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(f)


def _filter_options(f):
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


class _Failed(click.ClickException):
    """A PreuveError as click shows it: `Error: <message>`, exit code from the error."""

    def __init__(self, error: PreuveError):
        super().__init__(str(error))
        self.exit_code = error.exit_code


class _Commands(click.Group):
    """The command group; it maps every PreuveError once, for all commands."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PreuveError as exc:
            raise _Failed(exc) from None
        except Exception as exc:  # a full disk, a database gone: one line, not a traceback
            where = shown_location(ctx.meta.get("preuve.index") or DEFAULT_INDEX)
            failure = environmental(exc, where)
            if failure is None:
                raise
            raise _Failed(failure) from None


def _index(index_path, embedder=False, *, create: bool = False, **kwargs) -> Index:
    """The command's index: --index, else $PREUVE_INDEX, else the default; with the
    embedder asked for (--embedder, else $PREUVE_EMBEDDER) when the command has the option.
    Only a command that `create`s (ingest) makes a new one: the others refuse a location
    where there is none (exit 3, the command to build one), so that a typo in --index
    answers "no index there", not "I don't know" from an empty index made on the spot."""
    settings = _settings(index=index_path)
    if not create:
        require_index(settings.index)
    if embedder is not False:
        settings = settings.with_(embedder=embedder)
        kwargs["embedder"] = settings.embedder
    return Index(settings.index, settings=settings, **kwargs)


def _print_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _chunking_options(f):
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


@click.group(cls=_Commands)
@click.version_option(package_name="preuve")
@click.option("--settings", "settings_file", default=None, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False),
              help="YAML file of settings (the keys of preuve.settings.Settings: index, "
                   "embedder, llm_base_url, ...), over the PREUVE_* variables.")
@click.pass_context
def cli(ctx, settings_file):
    """preuve: answers over your own documents and code, with verified citations."""
    try:
        ctx.obj = Settings.load(config=settings_file)
    except PreuveError as exc:  # a bad setting is invalid input, exit 2
        raise _Failed(exc) from None
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


def _ingest_options(f):
    """The options `ingest`, `watch` and `serve --watch` share (what `Index.ingest` takes)."""
    f = _chunking_options(f)
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


def _ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                   chunk_overlap) -> dict:
    return {"access": access, "max_bytes": int(max_mb * 1024 * 1024), "max_pages": max_pages,
            "untracked": untracked,
            "settings": ChunkSettings.asked(chunking, chunk_words, chunk_overlap)}


def _print_report(report, as_json: bool, prefix: str = "") -> None:
    """An ingest's report: one summary line and its problems, or JSON."""
    if as_json:
        _print_json(report.to_dict())
        return
    unsupported = sum(p.reason == UNSUPPORTED for p in report.skipped)
    click.echo(
        f"{prefix}{len(report.added)} added, {len(report.updated)} updated, "
        f"{len(report.removed)} removed, {report.unchanged} unchanged, "
        f"{report.chunks} chunks written, {report.embedded} passages embedded"
        + (f", {unsupported} skipped (unsupported type)" if unsupported else "")
    )
    for problem in report.skipped:  # e.g. links, which are not followed
        if problem.reason not in ROUTINE_SKIPS:
            click.echo(f"skipped: {problem.path}: {problem.reason}", err=True)
    for problem in report.failed:
        click.echo(f"error: {problem.path}: {problem.reason}", err=True)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@_ingest_options
@_index_option
@_embedder_option
@_json_option
def ingest(paths, access, max_mb, max_pages, untracked, chunking, chunk_words, chunk_overlap,
           index_path, embedder, as_json):
    """Index files and folders (incremental: only changed files are re-read). In a git
    work tree, the files it tracks, pinned to the commit for links."""
    options = _ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                             chunk_overlap)
    with _index(index_path, embedder, create=True) as index:
        report = index.ingest(paths, progress=not as_json, **options)
    _print_report(report, as_json)
    sys.exit(0 if report.ok else 1)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_ingest_options
@click.option("--quiet-period", "quiet", type=float, default=QUIET, show_default=True,
              metavar="SECONDS", help="Changes are gathered until none has come for this long.")
@_index_option
@_embedder_option
@_json_option
def watch(paths, access, max_mb, max_pages, untracked, chunking, chunk_words, chunk_overlap,
          quiet, index_path, embedder, as_json):
    """Keep the index fresh: ingest PATHS, then ingest what changes, until Ctrl-C.

    Same options and labels as `ingest`; each batch of changes is one transaction."""
    options = _ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                             chunk_overlap)
    with _index(index_path, embedder, create=True) as index:
        watcher = Watcher(index, paths, quiet=quiet, longest=max(LONGEST, quiet),
                          on_batch=lambda batch: _print_batch(batch, as_json), **options)
        watcher.catch_up()
        click.echo(f"watching {', '.join(map(str, watcher.paths))} (Ctrl-C to stop)", err=True)
        watcher.run()


def _print_batch(batch, as_json: bool) -> None:
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
    _print_report(batch.report, False, prefix=f"{when} ({what}) ")


@cli.command()
@_index_option
@_json_option
def status(index_path, as_json):
    """What the index holds: documents, chunks by kind, size, last ingest."""
    with _index(index_path) as index:
        stats = index.status()
    if as_json:
        _print_json(stats)
        return
    click.echo(f"index      {stats['index']} (schema {stats['schema_version']}, "
               f"{stats['size_bytes'] / 1e6:.1f} MB)")
    click.echo(f"documents  {stats['documents']}")
    for model, n in stats.get("vectors", {}).items():
        click.echo(f"vectors    {n} ({model})")
    click.echo(f"chunks     {stats['chunks']}")
    for kind, counts in stats["by_kind"].items():
        click.echo(f"  {kind:<9}{counts['documents']} documents, {counts['chunks']} chunks")
    last = stats["last_ingest"]
    if last:
        click.echo(f"last ingest {last['finished_at']}: {last['added']} added, "
                   f"{last['updated']} updated, {last['removed']} removed, "
                   f"{last['failed']} failed")
    audiences = dict(stats.get("audiences") or {})
    unlabelled = audiences.pop("unlabelled", {}).get("documents", 0)
    for label, reads in audiences.items():
        click.echo(f"audience   {label}: reads {reads['documents']} documents, "
                   f"{reads['passages']} passages")
    if unlabelled:
        click.echo(f"unlabelled {unlabelled} documents only the operator reads (label them: "
                   "`preuve ingest PATH --access public`, or `access:` in front matter or "
                   "a .meta.yaml sidecar)")
    for repo in stats.get("repositories") or []:
        click.echo(_repository_line(repo))
    languages = stats.get("languages") or {}
    if not languages.get("dictionaries"):
        click.echo("dictionaries missing (FreeDict fra-eng/eng-fra): a question in one "
                   "language over documents in the other is neither searched by its "
                   "translated words nor judged by them (install: scripts/setup-system.sh "
                   "runtime)")


def _repository_line(repo: dict) -> str:
    """One line of `status` about a git work tree the index was built from."""
    where = f"repository {repo['repository']} (indexed at {repo['indexed_commit'][:12]})"
    if repo.get("missing"):
        return f"{where}: no work tree there any more"
    changed = repo["changed"]
    files = ("the indexed commit is no longer in it" if changed is None
             else f"{changed} file{'s' if changed != 1 else ''} changed since")
    if repo["moved"]:
        return (f"{where}: moved past the indexed commit, now at {repo['head'][:12]}; "
                f"{files} (run `preuve ingest` again)")
    if changed:
        return f"{where}: at the indexed commit; {files} (uncommitted)"
    return f"{where}: up to date"


def _say_what_audiences_read(audiences: dict, configured: set[str]) -> None:
    """At a server's start: how many documents each configured audience reads, loudly
    when one reads none (unlabelled documents are the operator's only)."""
    public = audiences.get("public", {"documents": 0})
    for label in sorted(configured):
        reads = audiences.get(label, public)
        click.echo(f"audience {label}: reads {reads['documents']} documents", err=True)
        if not reads["documents"]:
            unlabelled = audiences.get("unlabelled", {}).get("documents", 0)
            click.echo(click.style(
                f"warning: audience {label} reads no document: every answer to it will be "
                f"'I don't know'. {unlabelled} documents have no label (the operator's "
                f"only): label them with `preuve ingest PATH --access public` (or "
                f"`access:` in front matter or a .meta.yaml sidecar)", bold=True), err=True)


@cli.command()
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
@_filter_options
@_index_option
@_embedder_option
@_reranker_option
@_json_option
def search(query, method, k, kinds, candidates, explain, navigation, as_of, audience, paths,
           index_path, embedder, reranker, as_json):
    """Passages for QUERY, best first, each with its citation label."""
    within_limit(query, QUERY_LIMIT, "query")
    audience = _settings(audience=audience).audience
    reranker = load_reranker(_settings(reranker=reranker).reranker)
    with _index(index_path, embedder, reranker=reranker) as index:
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
        _print_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo(none)
    for hit in hits:
        click.echo(line(hit))


def _describe(hit: Hit, explain: bool = False) -> str:
    where = hit.heading or " > ".join(filter(None, [hit.title, hit.symbol]))
    snippet = textwrap.shorten(" ".join(hit.text.split()), 160, placeholder=" …")
    head = click.style(f"{hit.rank:>2}. {hit.shown_label}", bold=True)
    line = f"{head}  [{hit.score:.3f}]  {where}\n    {snippet}"
    if explain:
        parts = [f"{name} #{d['rank']} ({d['score']})" if d.get("rank") else f"{name} —"
                 for name, d in hit.scores.items()]
        line += "\n    why: " + ", ".join(parts)
    return line


@cli.command()
@click.argument("subject")
@click.option("-k", "k", default=10, show_default=True, help="Number of locations.")
@click.option("--method", type=click.Choice(METHODS), default="bm25", show_default=True,
              help="Retrieval method (bm25 calls no model; hybrid adds the embedder).")
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="Only definitions of this kind: function (methods too), method, class "
                   "(structs, interfaces, traits too), constant, key, table, target...")
@click.option("--lang", "languages", multiple=True, metavar="LANG",
              help="Only files in this language: go, rust, typescript (ts), python, yaml...")
@_filter_options
@_index_option
@_embedder_option
@_json_option
def where(subject, k, method, kinds, languages, as_of, audience, paths, index_path, embedder,
          as_json):
    """Code locations for SUBJECT: `path:line  kind name`, no generation model involved."""
    within_limit(subject, QUERY_LIMIT, "subject")
    audience = _settings(audience=audience).audience
    with _index(index_path, embedder) as index:
        hits = index.where(subject, k=k, as_of=as_of, audience=audience, paths=paths,
                           method=method, kinds=kinds, languages=languages)
    _print_hits(hits, as_json, "no code location found", _location)


def _location(hit: Hit) -> str:
    name = (f"{hit.symbol_kind} {hit.symbol}" if hit.symbol
            else f"lines {hit.start_line}-{hit.end_line}")
    return f"{hit.path}:{hit.start_line}  {name}"


@cli.command()
@click.argument("targets", nargs=-1, required=True)
@_index_option
@_json_option
def forget(targets, index_path, as_json):
    """Remove documents (by path, folder prefix or doc_id) and all their chunks."""
    with _index(index_path) as index:
        removed = index.forget(targets)
    if as_json:
        _print_json([{"doc_id": d.doc_id, "path": d.path} for d in removed])
    else:
        for doc in removed:
            click.echo(f"removed {doc.path} ({doc.doc_id})")


@cli.command()
@click.option("--from", "source", required=True, metavar="INDEX",
              help="The index to copy: a SQLite file or a PostgreSQL URL.")
@click.option("--to", "target", required=True, metavar="INDEX",
              help="An empty index to copy into: a PostgreSQL URL or a SQLite file.")
@_json_option
def migrate(source, target, as_json):
    """Copy a whole index to another store (vectors included, nothing re-embedded), then
    check that both hold the same counts."""
    from tqdm import tqdm

    with tqdm(unit=" chunks", disable=as_json or not sys.stderr.isatty(), file=sys.stderr) as bar:
        report = copy_index(source, target, progress=bar.update)
    if as_json:
        _print_json(report.to_dict())
        return
    vectors = ", ".join(f"{n} {model}" for model, n in report.vectors.items()) or "none"
    click.echo(f"copied {report.documents} documents, {report.chunks} chunks, vectors: "
               f"{vectors}; {report.rows.get('messages', 0)} messages, "
               f"{report.rows.get('feedback', 0)} feedback items")
    click.echo(f"{report.source} -> {report.target}: counts match")


@cli.command(name="eval")
@click.argument("target", type=click.Path(exists=True))
@click.option("--method", default=None,
              help=f"A method, several separated by commas, or 'all' ({', '.join(COMPARABLE)}). "
                   "Default: the search default (hybrid when the index has vectors).")
@click.option("-k", "k", default=10, show_default=True, help="Cut-off for hit@k and recall@k.")
@click.option("--show-missed", default=20, show_default=True,
              help="How many missed question ids to print per method.")
@click.option("--answers", is_flag=True,
              help="Answer metrics instead (reference file): answered, refusals, citations, "
                   "outcomes (right/partial/wrong/refusals) per lang and type, the misses; "
                   "on a collection: answered, gold span / token F1 (SQuAD), citation on "
                   "the gold record.")
@click.option("--limit", default=200, show_default=True,
              help="--answers on a collection: questions asked (fixed-seed sample; 0 = all).")
@click.option("--foreign", type=click.Path(exists=True), default=None,
              help="--answers on a collection: another collection whose questions must be "
                   "refused.")
@click.option("--records", default=0, show_default=True,
              help="--answers on a collection: index only the sampled questions' records, "
                   "their articles' and fixed-seed others up to this many (0 = all).")
@click.option("--chunking", "chunkings", default=None, metavar="STRATEGIES",
              help="Collections: compare chunkings, comma-separated or 'all' ("
                   + ", ".join(CHUNKING_STRATEGIES) + "), one eval index each.")
@click.option("--chunk-words", type=int, default=None, help="With --chunking: size in words.")
@click.option("--chunk-overlap", type=int, default=None, help="With --chunking: overlap.")
@click.option("--report", "report_path", default=None, type=click.Path(dir_okay=False),
              metavar="REPORT.html",
              help="Write a self-contained HTML report (per-type charts per method, the "
                   "missed questions with their top passages and why; for a reference "
                   "file also answer outcomes and the refusal judgment, and kept in the "
                   "index for the server's /eval), its data beside it as .json.")
@click.option("--against", default=None, type=click.Path(dir_okay=False), metavar="OLD.json",
              help="With --report: compare with an earlier report's .json (what improved, "
                   "what regressed).")
@_index_option
@_embedder_option
@_json_option
def eval_(target, method, k, show_missed, answers, limit, foreign, records, chunkings,
          chunk_words, chunk_overlap, report_path, against, index_path, embedder, as_json):
    """Retrieval metrics on TARGET: a reference file (.yaml/.jsonl, asked against the
    index) or a collection (BEIR folder, SQuAD/PIAF .json, Cranfield folder), indexed on
    its own beside the main index. With --answers: answer metrics on a reference file."""
    from preuve.evaluate.run import evaluate, is_reference_file

    if method == "all":
        names = list(COMPARABLE)
    else:
        names = method.split(",") if method else [None]
    for name in names:
        if name is not None and name not in METHODS:
            raise click.BadParameter(f"unknown method {name!r} (known: {', '.join(METHODS)})",
                                     param_hint="--method")
    settings = _settings(index=index_path, embedder=embedder)
    if against and not report_path:
        raise click.UsageError("--against compares reports: give --report too")
    if report_path and (chunkings or answers):
        raise click.UsageError("--report evaluates retrieval (and a reference file's answers) "
                               "on its own: drop --chunking/--answers")
    if report_path:
        return _eval_report(target, [n for n in names if n], k, report_path, against,
                            index_path, embedder, as_json)
    if answers and not is_reference_file(target):
        return _eval_collection_answers(target, foreign, limit or None, records, index_path,
                                        as_json)
    if answers:
        return _eval_answers(target, names[0], index_path, embedder, as_json, show_missed)
    chunkings = (CHUNKING_STRATEGIES if chunkings == "all" else chunkings.split(",")
                 if chunkings else [None])
    asked = [ChunkSettings.asked(n, chunk_words, chunk_overlap) for n in chunkings]
    runs = {s.describe() if s else "": evaluate(
        target, methods=names, k=k, index=settings.index, embedder=settings.embedder,
        progress=not as_json, chunking=s, settings=settings) for s in asked}
    if as_json:
        data = {c: {m: r.to_dict() | {"method": m} for m, r in reports.items()}
                for c, reports in runs.items()}
        data = {c: d[next(iter(d))] if len(d) == 1 else d for c, d in data.items()}
        _print_json(data[""] if list(data) == [""] else data)
        return
    for chunking, reports in runs.items():
        _print_eval(target, reports, k, show_missed, settings.index, settings.embedder, chunking)
    if len(runs) > 1:
        _print_chunkings(runs, k)


def _print_eval(target, reports, k, show_missed, index_path, embedder, chunking) -> None:
    from preuve.evaluate.run import default_method, default_versus_best

    methods = list(reports)
    first = reports[methods[0]]
    click.echo(f"{target} · {first.n_questions} questions"
               + (f" ({first.n_skipped} without judgments skipped)" if first.n_skipped else "")
               + (f" · chunking {chunking}" if chunking else ""))
    names = list(first.metrics)
    click.echo(f"\n{'metric':<12}" + "".join(f"{m:>10}" for m in methods))
    for name in names:
        click.echo(f"{name:<12}" + "".join(f"{reports[m].metrics[name]:>10.3f}" for m in methods))
    if len(first.per_type) > 1:
        key = f"ndcg@{k}"
        click.echo(f"\n{key + ' by type':<22}{'n':>5}" + "".join(f"{m:>10}" for m in methods))
        for qtype, row in first.per_type.items():
            click.echo(f"{qtype:<22}{row['n']:>5}" + "".join(
                f"{reports[m].per_type[qtype][key]:>10.3f}" for m in methods))
    for m in methods:
        missed = reports[m].missed
        if missed:
            more = len(missed) - show_missed
            tail = f" … +{more}" if more > 0 else ""
            click.echo(f"\nmissed by {m} ({len(missed)}): {', '.join(missed[:show_missed])}{tail}")
    line = default_versus_best(reports, default_method(target, index_path, embedder), k)
    if line:
        click.echo(f"\n{line}")
    click.echo("")


def _eval_report(target, methods, k, report_path, against, index_path, embedder,
                 as_json) -> None:
    from preuve.evaluate import report
    from preuve.evaluate.run import is_reference_file

    previous = report.load_data(against) if against else None  # a bad file fails first
    served = is_reference_file(target)
    if served:
        with _index(index_path, embedder) as index:
            data = report.collect(target, index, methods, k)
            if previous is not None:
                data["comparison"] = report.compare(data, previous)
            page, beside = report.write(data, report_path)
            index.calibration.keep_report(page.read_text("utf-8"))
    else:  # a collection, scored in its own eval index as `eval --json` scores it
        settings = _settings(index=index_path, embedder=embedder)
        data = report.collect_collection(target, methods, k, index=settings.index,
                                         embedder=settings.embedder, settings=settings,
                                         progress=not as_json)
        if previous is not None:
            data["comparison"] = report.compare(data, previous)
        page, beside = report.write(data, report_path)
    if as_json:
        return _print_json(data)
    if data["versus"]:
        click.echo(data["versus"])
    click.echo(f"missed by {data['default']}: {len(data['missed'])} of "
               f"{data['retrieval'][data['default']]['n_questions']}")
    if data.get("comparison"):
        diff = data["comparison"]
        click.echo(f"against {against}: {len(diff['improved'])} improved, "
                   f"{len(diff['regressed'])} regressed")
    click.echo(f"report: {page} (data: {beside}"
               + ("; served at /eval to admin keys)" if served else ")"))


def _print_chunkings(runs, k) -> None:
    key = f"ndcg@{k}"
    methods = list(next(iter(runs.values())))
    click.echo(f"{key + ' by chunking':<26}" + "".join(f"{m:>10}" for m in methods))
    for chunking, reports in runs.items():
        click.echo(f"{chunking:<26}" + "".join(f"{reports[m].metrics[key]:>10.3f}"
                                              for m in methods))


def _generator_options(f):
    for option in reversed([
        click.option("--generator", "generator_name", default="extractive", show_default=True,
                     type=click.Choice(generators.names()),
                     help="; ".join(f"{name}: {spec.help}" for name, spec in generators.items())
                     + "."),
        click.option("--model", default=None, help="Model name for --generator openai."),
        click.option("--base-url", default=None, help="Endpoint for --generator openai."),
        click.option("--gguf", default=None, type=click.Path(exists=True, dir_okay=False),
                     help="GGUF file for --generator local."),
        click.option("--link-base", default=None, metavar="URL",
                     help="Base of citation links: a repository URL pinned to a commit "
                          "(https://github.com/org/repo/blob/<sha>); default: the local folder "
                          "(or $PREUVE_LINK_BASE)."),
        click.option("--method", type=click.Choice(METHODS), default=None,
                     help="Retrieval method (default: hybrid if the index has vectors)."),
        click.option("-k", "k", default=ASK_K, show_default=True, help="Passages retrieved."),
    ]):
        f = option(f)
    return f


def _make_generator(name, model, base_url, gguf):
    """The registered generator `name` (None: extractive), --model and --base-url over
    $PREUVE_LLM_MODEL and $PREUVE_LLM_BASE_URL."""
    if name == "local" and not gguf:
        raise click.UsageError("--generator local needs --gguf FILE")
    settings = _settings(llm_model=model, llm_base_url=base_url)
    return generators.get(name).make(settings, gguf=gguf)


def _print_answer(answer, show_rejected: bool) -> None:
    click.echo(answer.answer)
    if answer.refused and answer.reason:
        click.echo(click.style(f"({answer.reason})", dim=True), err=True)
    if show_rejected and answer.rejected:
        click.echo(click.style(f"rejected: {answer.rejected}", fg="yellow"), err=True)
    if answer.hits:
        click.echo("\nSources:")
        for hit in answer.hits:
            first = textwrap.shorten(" ".join(hit.text.split()), 80, placeholder="…")
            click.echo(f"  {hit.rank}. {hit.shown_label}  [{hit.score:.3f}]  {first}")


@cli.command()
@click.argument("question")
@click.option("--show-rejected", is_flag=True,
              help="Also print an answer the citation check rejected, and why.")
@click.option("--stream/--no-stream", default=True,
              help="Print the verified answer as soon as it is verified.")
@click.option("--explain", is_flag=True,
              help="Say why: the refusal judgment's numbers and the sentence scores.")
@_generator_options
@_filter_options
@_index_option
@_embedder_option
@_json_option
def ask(question, show_rejected, stream, explain, generator_name, model, base_url, gguf,
        link_base, method, k, as_of, audience, paths, index_path, embedder, as_json):
    """Answer QUESTION from the index, every claim cited and checked."""
    within_limit(question, QUESTION_LIMIT, "question")
    given = _settings(audience=audience, link_base=link_base)
    audience, link_base = given.audience, given.link_base
    generator = _make_generator(generator_name, model, base_url, gguf)
    streamed = []
    on_token = None
    if generator is not None and stream and not as_json and sys.stdout.isatty():
        def on_token(token):
            streamed.append(token)
            click.echo(click.style(token, dim=True), nl=False, err=True)
    with _index(index_path, embedder) as index:
        answer = index.ask(question, method=method, k=k, as_of=as_of, audience=audience,
                           paths=paths, generator=generator, link_base=link_base,
                           on_token=on_token)
    if streamed:
        click.echo("", err=True)
    if as_json:
        _print_json(answer.to_dict())
    else:
        _print_answer(answer, show_rejected)
        if explain:
            _print_explain(answer.explain)


def _print_explain(explain: dict) -> None:
    """The judgment's numbers (coverage, dense evidence, agreement, each word's IDF) and
    the best sentences' scores."""
    click.echo("\nWhy:")
    if explain.get("decided_by"):
        click.echo(f"  decided by: {explain['decided_by']}")
    judged = explain.get("judgment") or {}
    if judged:
        click.echo(f"  coverage {judged['coverage']}  dense {judged['dense']}  "
                   f"agreement {judged['agreement']}  defaults {judged['defaults']}")
        click.echo("  words: " + ", ".join(
            f"{w['word']} (idf {w['idf']}, {'found' if w['found'] else 'missing'})"
            for w in judged["words"]))
        if judged.get("translation"):
            click.echo(f"  {judged['translation']}")
        if judged.get("absent_names"):
            click.echo("  names no readable passage holds: " + ", ".join(judged["absent_names"]))
    if explain.get("kind"):
        click.echo(f"  the question asks for: {explain['kind']}")
    choice = explain.get("choice") or {}
    if choice:
        click.echo(f"  answered from {choice['passage']} (rank {choice['rank']}): "
                   f"{choice['why']}")
    for s in explain.get("sentences", []):
        mark = "*" if s["quoted"] else " "
        role = "" if s.get("role", "statement") == "statement" else f"{s['role']}, "
        click.echo(f"  {mark} {s['score']:.3f} ({role}lexical {s['lexical']}, cosine "
                   f"{s['cosine']}, kind {s.get('kind', 0)}) {s['label']}: {s['text']}")


@cli.command()
@click.argument("question", required=False)
@click.option("--conversation", "conversation_id", default=None, metavar="ID",
              help="Resume this conversation (default: start a new one).")
@click.option("--show-rejected", is_flag=True, help="Also print rejected answers.")
@_generator_options
@_filter_options
@_index_option
@_embedder_option
@_json_option
def chat(question, conversation_id, show_rejected, generator_name, model, base_url, gguf,
         link_base, method, k, as_of, audience, paths, index_path, embedder, as_json):
    """A conversation: follow-up questions are made standalone before retrieval.

    With QUESTION, one turn (prints the conversation id to resume with --conversation).
    Without, an interactive session, as `llm chat`: a `> ` prompt (on stderr), one question
    per line, the conversation kept from turn to turn; `exit`, `quit` or end of input
    ends it."""
    given = _settings(audience=audience, link_base=link_base)
    audience, link_base = given.audience, given.link_base
    generator = _make_generator(generator_name, model, base_url, gguf)
    interactive = question is None
    with _index(index_path, embedder) as index:
        if interactive and not as_json:
            click.echo("Chatting with " + ("a new conversation" if conversation_id is None
                       else f"conversation {conversation_id}")
                       + ". Type 'exit' or 'quit' to end.", err=True)
        for q in _read_questions() if interactive else [question]:
            within_limit(q, QUESTION_LIMIT, "question")
            conversation_id, answer = index.chat(
                q, conversation=conversation_id, audience=audience, generator=generator,
                method=method, k=k, as_of=as_of, paths=paths, link_base=link_base)
            if as_json:
                _print_json({"conversation": conversation_id, **answer.to_dict()})
                continue
            if answer.standalone_question and answer.standalone_question != q:
                click.echo(click.style(f"(searched: {answer.standalone_question})", dim=True))
            _print_answer(answer, show_rejected)
            if not interactive:
                click.echo(f"\nconversation: {conversation_id}")
            else:
                click.echo("")
    if interactive and conversation_id and not as_json:
        click.echo(f"conversation: {conversation_id} (resume: preuve chat --conversation "
                   f"{conversation_id})", err=True)


_ENDS = ("exit", "quit")


def _read_questions():
    """Questions typed at the `> ` prompt until `exit`, `quit` or end of input; blank
    lines are skipped."""
    while True:
        click.echo("> ", nl=False, err=True)
        line = sys.stdin.readline()
        if not line:  # end of input
            click.echo("", err=True)
            return
        if line.strip().lower() in _ENDS:
            return
        if line.strip():
            yield line.strip()


@cli.command()
@click.argument("reference", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default=None)
@click.option("-k", "k", default=ASK_K, show_default=True)
@_index_option
@_embedder_option
@_json_option
def calibrate(reference, method, k, index_path, embedder, as_json):
    """Choose the evidence threshold under which `ask` refuses, from REFERENCE files whose
    unanswerable questions are marked `refuse: true`; stored in the index."""
    from preuve.evaluate.answers import calibrate as run

    with _index(index_path, embedder) as index:
        result = run(index, reference, method=method, k=k)
    if as_json:
        _print_json(result)
        return
    click.echo(f"refusal threshold {result['value']} ({result['measure']} evidence, "
               f"{result['method']}): answerable kept {result['answerable_kept']}, refusals "
               f"caught {result['refusals_caught']}, balanced accuracy "
               f"{result['balanced_accuracy']}")
    if result["misjudged"]:
        click.echo(f"misjudged: {', '.join(result['misjudged'])}")


def _eval_collection_answers(target, foreign, limit, records, index_path, as_json):
    from preuve.evaluate.answers import evaluate_collection_answers, narrow, squad_answers
    from preuve.evaluate.datasets import load
    from preuve.evaluate.run import eval_index_path

    evalset = load(target)
    if records:
        evalset = narrow(evalset, limit, records)
    spans = squad_answers(target) if str(target).endswith(".json") else None
    settings = _settings(index=index_path)
    with Index(eval_index_path(settings.index, evalset, "e5"), embedder="e5",
               settings=settings) as own:
        own.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                           language=evalset.language, progress=not as_json)
        report = evaluate_collection_answers(own, evalset, limit=limit, gold_spans=spans,
                                             foreign=load(foreign) if foreign else None)
    if as_json:
        _print_json(report.to_dict())
        return
    click.echo(f"{target} · {report.n_questions} questions")
    for name, value in report.metrics.items():
        click.echo(f"  {name:<18}{value}")


def _eval_answers(target, method, index_path, embedder, as_json, show_missed=20):
    from preuve.evaluate.answers import evaluate_answers

    with _index(index_path, embedder) as index:
        report = evaluate_answers(index, target, method=method)
    if as_json:
        _print_json(report.to_dict())
        return
    m = report.metrics
    click.echo(f"{target} · {report.n_questions} questions "
               f"({m['n_answerable']} answerable, {m['n_refuse']} to refuse)")
    for name in ("answered", "correct_refusals", "wrong_refusals", "citation_validity",
                 "cites_relevant", "facts_found"):
        click.echo(f"  {name:<18}{m[name]:.3f}")
    wrong = [r["id"] for r in report.per_question if r["refused"] != r["refuse"]]
    if wrong:
        click.echo(f"misjudged ({len(wrong)}): {', '.join(wrong)}")
    _print_outcomes(report.outcomes, show_missed)


_OUTCOME_COLUMNS = (("right", "right"), ("partial", "partial"), ("wrong", "wrong"),
                    ("false_refusal", "refused"), ("unjudged", "unjudged"),
                    ("correct_refusal", "refused"), ("answered_unanswerable", "answered"))


def _print_outcomes(outcomes: dict, show_missed: int) -> None:
    """Outcomes per language and per type (answerable, then to refuse), then the misses."""
    rows = [("all", outcomes["overall"])]
    rows += [(f"lang {k}", v) for k, v in outcomes["per_lang"].items()]
    rows += [(f"type {k}", v) for k, v in outcomes["per_type"].items()]
    used = [(key, head) for key, head in _OUTCOME_COLUMNS
            if key in ("right", "correct_refusal") or any(r["counts"].get(key) for _, r in rows)]
    split = sum(key in ("correct_refusal", "answered_unanswerable") for key, _ in used)
    width = max(len(name) for name, _ in rows) + 2
    click.echo(f"\n{'outcomes':<{width}}{'answerable':>10}" + "".join(
        f"{head:>9}" for _, head in used[:len(used) - split]) + f"  |{'to refuse':>10}"
        + "".join(f"{head:>9}" for _, head in used[len(used) - split:]) + f"{'right %':>9}")
    for name, row in rows:
        counts = row["counts"]
        cells = [f"{counts.get(key, 0):>9}" for key, _ in used]
        share = f"{counts.get('right', 0) / row['n_answerable']:>9.0%}" if row["n_answerable"] \
            else f"{'-':>9}"
        click.echo(f"{name:<{width}}{row['n_answerable']:>10}" + "".join(cells[:len(used) - split])
                   + f"  |{row['n_refuse']:>10}" + "".join(cells[len(used) - split:]) + share)
    missed = outcomes["missed"]
    if not missed:
        return
    click.echo(f"\nmissed ({len(missed)}):")
    for r in missed[:show_missed]:
        answer = " ".join(r["answer"].split())
        click.echo(f"  {r['id']} [{r['outcome']}] {r['question']}")
        click.echo(f"      answer: {answer[:120]}{'…' if len(answer) > 120 else ''}")
        click.echo(f"      top hit: {r['top_hit'] or '-'}"
                   + (f" · missing: {', '.join(r['facts_missing'])}" if r["facts_missing"] else ""))
    if len(missed) > show_missed:
        click.echo(f"  (+{len(missed) - show_missed} more: --show-missed N, or --json for all)")


@cli.command()
@click.argument("target", metavar="PATH")
@click.option("--from", "since", default=None, metavar="DATE",
              help="The version in force that day (default: the one before --to's).")
@click.option("--to", "until", default="today", show_default=True, metavar="DATE|today|none",
              help="The version in force that day (none: the latest).")
@click.option("--audience", default=None, metavar="LABEL",
              help="Only versions this audience may read (default: the operator, or "
                   "$PREUVE_AUDIENCE).")
@click.option("--width", default=None, type=int, help="Columns of the side-by-side view.")
@_index_option
@_json_option
def diff(target, since, until, audience, width, index_path, as_json):
    """What changed in a document between two of its effective-dated versions: the
    changed passages side by side, each with its citation in both versions. PATH is the
    path (or doc_id) of any of its versions."""
    audience = _settings(audience=audience).audience
    with _index(index_path) as index:
        result = index.versions.diff(target, since=since, until=until, audience=audience)
    if as_json:
        return _print_json(result.to_dict())
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


@cli.group()
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
    audience = _settings().audience
    if audience is not None:
        raise click.UsageError(f"feedback is read by the operator only; this shell reads as "
                               f"audience {audience!r} ($PREUVE_AUDIENCE)")


def _feedback_items(index, verdicts, since, until, given_by, reviewed) -> list[dict]:
    _operator_only()
    return index.feedback.list(verdicts=verdicts, since=since, until=until,
                               given_by=given_by, reviewed=reviewed)


@feedback.command(name="list")
@_feedback_filters
@_index_option
@_json_option
def feedback_list(verdicts, since, until, given_by, reviewed, index_path, as_json):
    """Feedback, newest first (the operator reads every caller's)."""
    with _index(index_path) as index:
        items = _feedback_items(index, verdicts, since, until, given_by, reviewed)
    if as_json:
        return _print_json(items)
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
@_index_option
def feedback_export(verdicts, since, until, given_by, reviewed, fmt, output, to_eval,
                    index_path):
    """Export feedback as JSON or CSV, or the reviewed items as evaluation questions."""
    with _index(index_path) as index:
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
@_index_option
@_json_option
def feedback_review(feedback_id, sources, facts, refuse, note, index_path, as_json):
    """Review one item: give the correct source (or --refuse) so that it becomes an
    evaluation question (`preuve feedback export --to-eval`)."""
    _operator_only()
    with _index(index_path) as index:
        item = index.feedback.review(feedback_id, relevant=sources, facts=facts,
                                     refuse=refuse, note=note)
    if as_json:
        return _print_json(item)
    click.echo(f"feedback {feedback_id} reviewed")


@cli.command()
@click.option("--audience", default=None, metavar="LABEL",
              help="What the agent may read: public plus this label (default public). Fixed "
                   "for the server's life, never a tool argument; or $PREUVE_MCP_AUDIENCE.")
@click.option("--operator", is_flag=True,
              help="Let the agent read every document, unlabelled ones included (instead of "
                   "--audience).")
@click.option("--link-base", default=None, metavar="URL",
              help="Base of citation links in `ask` answers (default: the local folder, or "
                   "$PREUVE_LINK_BASE).")
@_index_option
@_embedder_option
def mcp(audience, operator, link_base, index_path, embedder):
    """MCP server on stdio for coding agents: tools search, where and ask.

    stdout carries the protocol only; logs go to stderr. The index is opened on the first
    tool call. Example client configuration: {"command": "preuve", "args": ["mcp",
    "--index", "/abs/path/index.sqlite"]}."""
    with needs("server", "preuve mcp"):
        import mcp.server.mcpserver  # noqa: F401  (here: a missing extra is one line)

        from preuve.server.mcp import serve_stdio
    settings = _settings(index=index_path, mcp_audience=audience, embedder=embedder,
                         link_base=link_base)
    fixed = None if operator else settings.mcp_audience
    if fixed and index_exists(settings.index or DEFAULT_INDEX):  # on stderr: stdout is MCP's
        with Index(settings.index or DEFAULT_INDEX, settings=settings) as index:
            _say_what_audiences_read(index.status()["audiences"], {fixed})
    serve_stdio(settings.index, audience=None if operator else settings.mcp_audience,
                embedder=settings.embedder, link_base=settings.link_base, settings=settings)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option("--config", "config_file", default=None,
              type=click.Path(exists=True, dir_okay=False),
              help="YAML settings: api_keys (key: audience|admin), anonymous, max_upload_mb, "
                   "upload_dir, upload_access, generator (or $PREUVE_SERVER_CONFIG). "
                   "PREUVE_API_KEYS=key:audience,... adds keys.")
@click.option("--watch", "watched", multiple=True, type=click.Path(exists=True),
              metavar="PATH", help="Keep the index fresh from this file or folder while "
                                   "serving, as `preuve watch` does (repeatable).")
@_ingest_options
@_index_option
def serve(host, port, config_file, watched, access, max_mb, max_pages, untracked, chunking,
          chunk_words, chunk_overlap, index_path):
    """HTTP API (OpenAPI docs at /docs) and the web page at /, audiences from API keys.

    With --watch, PATHs are ingested before the server starts and again as they change
    (the ingest options apply to them)."""
    with needs("server", "preuve serve"):
        import uvicorn

        from preuve.server.app import create_app
    settings = _settings(index=index_path, server_config=config_file)
    watcher = None
    if watched:
        options = _ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                                 chunk_overlap)
        watcher = Watcher(Index(settings.index or DEFAULT_INDEX, settings=settings), watched,
                          on_batch=lambda batch: _print_batch(batch, False), **options)
        watcher.catch_up()
    app = create_app(settings.index or DEFAULT_INDEX, settings.server_config, settings=settings,
                     watcher=watcher)
    config = app.state.config
    if not config.api_keys and not config.anonymous:
        click.echo("warning: no API keys configured and anonymous access off: every request "
                   "will get 401 (set PREUVE_API_KEYS or --config)", err=True)
    with Index(settings.index or DEFAULT_INDEX, settings=settings) as index:
        audiences = index.status()["audiences"]
    _say_what_audiences_read(audiences, set(config.api_keys.values()) - {"admin"}
                             | ({config.anonymous} if config.anonymous else set()))
    click.echo(f"preuve serving on http://{host}:{port}/  (API docs: /docs)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", **config.uvicorn_options())
