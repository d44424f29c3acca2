"""Verbs that build and inspect an index: ingest, watch, status, forget, migrate."""

from __future__ import annotations

import sys

import click

from preuve.cli._common import (
    embedder_option,
    index_option,
    ingest_kwargs,
    ingest_options,
    json_option,
    open_index,
    print_batch,
    print_json,
    print_report,
)
from preuve.index import (
    copy_index,
)
from preuve.watch import LONGEST, QUIET, Watcher


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@ingest_options
@index_option
@embedder_option
@json_option
def ingest(paths, access, max_mb, max_pages, untracked, chunking, chunk_words, chunk_overlap,
           index_path, embedder, as_json):
    """Index files and folders (incremental: only changed files are re-read). In a git
    work tree, the files it tracks, pinned to the commit for links."""
    options = ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                             chunk_overlap)
    with open_index(index_path, embedder, create=True) as index:
        report = index.ingest(paths, progress=not as_json, **options)
    print_report(report, as_json)
    sys.exit(0 if report.ok else 1)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@ingest_options
@click.option("--quiet-period", "quiet", type=float, default=QUIET, show_default=True,
              metavar="SECONDS", help="Changes are gathered until none has come for this long.")
@index_option
@embedder_option
@json_option
def watch(paths, access, max_mb, max_pages, untracked, chunking, chunk_words, chunk_overlap,
          quiet, index_path, embedder, as_json):
    """Keep the index fresh: ingest PATHS, then ingest what changes, until Ctrl-C.

    Same options and labels as `ingest`; each batch of changes is one transaction."""
    options = ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                             chunk_overlap)
    with open_index(index_path, embedder, create=True) as index:
        watcher = Watcher(index, paths, quiet=quiet, longest=max(LONGEST, quiet),
                          on_batch=lambda batch: print_batch(batch, as_json), **options)
        watcher.catch_up()
        click.echo(f"watching {', '.join(map(str, watcher.paths))} (Ctrl-C to stop)", err=True)
        watcher.run()

@click.command()
@index_option
@json_option
def status(index_path, as_json):
    """What the index holds: documents, chunks by kind, size, last ingest."""
    with open_index(index_path) as index:
        stats = index.status()
    if as_json:
        print_json(stats)
        return
    click.echo(f"index      {stats['index']} (schema {stats['schema_version']}, "
               f"{stats['size_bytes'] / 1e6:.1f} MB)")
    click.echo(f"documents  {stats['documents']}")
    cached = stats.get("cached_vectors", {})
    for model, n in stats.get("vectors", {}).items():
        click.echo(f"vectors    {n} ({model}), {cached.get(model, 0)} more cached for "
                   "passages no longer indexed")
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
    for path, roots in (stats.get("cited_alike") or {}).items():
        click.echo(f"cited alike {path}: under {', '.join(roots)} (ingest their common "
                   "folder to tell them apart)")
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

@click.command()
@click.argument("targets", nargs=-1, required=True)
@index_option
@json_option
def forget(targets, index_path, as_json):
    """Remove documents (by path, folder prefix or doc_id) and all their chunks."""
    with open_index(index_path) as index:
        removed = index.forget(targets)
    if as_json:
        print_json([{"doc_id": d.doc_id, "path": d.path} for d in removed])
    else:
        for doc in removed:
            click.echo(f"removed {doc.path} ({doc.doc_id})")


@click.command()
@click.option("--from", "source", required=True, metavar="INDEX",
              help="The index to copy: a SQLite file or a PostgreSQL URL.")
@click.option("--to", "target", required=True, metavar="INDEX",
              help="An empty index to copy into: a PostgreSQL URL or a SQLite file.")
@json_option
def migrate(source, target, as_json):
    """Copy a whole index to another store (vectors included, nothing re-embedded), then
    check that both hold the same counts."""
    from tqdm import tqdm

    with tqdm(unit=" chunks", disable=as_json or not sys.stderr.isatty(), file=sys.stderr) as bar:
        report = copy_index(source, target, progress=bar.update)
    if as_json:
        print_json(report.to_dict())
        return
    vectors = ", ".join(f"{n} {model}" for model, n in report.vectors.items()) or "none"
    click.echo(f"copied {report.documents} documents, {report.chunks} chunks, vectors: "
               f"{vectors}; {report.rows.get('messages', 0)} messages, "
               f"{report.rows.get('feedback', 0)} feedback items")
    click.echo(f"{report.source} -> {report.target}: counts match")
