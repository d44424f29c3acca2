"""`where` over real code bases in five languages, and code ingest speed per language.

    .venv/bin/python evalsets/code/corpus.py            # once: -> .preuve/corpus/code
    .venv/bin/python bench/code_where.py [--corpus DIR] [--runs 3] [--method bm25]
    .venv/bin/python bench/code_heldout/corpus.py /tmp/heldout     # the held-out set
    .venv/bin/python bench/code_where.py --heldout --corpus /tmp/heldout --skip-speed

1. The corpus (cobra, semver, express, rack, monolog) is ingested into a temporary index
   (or --index) with the default embedder (e5; `--embedder none`: keyword-only) and every
   question of evalsets/code/questions.yaml is asked with `Index.where` (k=5, its default
   method unless --method: hybrid with vectors, bm25 without): hit@1 and hit@5 per
   language and per question language (a hit is a location overlapping a relevant
   definition), every miss with what came first.
2. The share of returned locations that are whole definitions: a chunk with a symbol
   kind, not a part or window of a long definition (a symbol several chunks of the file
   share), not a container's header or its loose statements (a symbol other chunks of
   the file are qualified by: `Logger` beside `Logger::addRecord`), not a line window.
   With --lang, each question is asked with `--lang` of its code base (a developer who
   knows the answer is in the Go service).
3. Ingest speed per language (median of --runs): each language's folder into a fresh
   keyword-only index (parse, tokens, SQLite write): files/s and chunks/s; and the parse
   alone (`preuve.ingest.code.parse_code` over the files in memory). With
   `--speed-embedder e5`, the ingest with that embedder's vectors too (what is embedded for
   a code chunk: `preuve.ingest.vectors.passage_text`).
"""

from __future__ import annotations

import argparse
import collections
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import yaml
from common import ROOT, machine_note, median_time, pin_threads, table

from preuve import Index, retrieve
from preuve.evaluate.reference import load_reference
from preuve.ingest.base import ChunkSettings
from preuve.ingest.code import parse_code

QUESTIONS = ROOT / "evalsets" / "code" / "questions.yaml"
# two other code bases, questions written before tuning and kept out of it
HELDOUT = ROOT / "bench" / "code_heldout" / "questions.yaml"
LANGUAGES = ("go", "rust", "javascript", "ruby", "php")
SEPARATORS = (".", "::", "#")
K = 5


def code_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def partial_symbols(corpus: Path) -> dict[str, set[str]]:
    """Per file, the symbols whose chunks are not one whole definition: those of several
    chunks (the parts or windows of a long definition; two definitions of one name count
    too, the conservative side) and those other chunks of the file are qualified by
    (a container's header and its loose statements)."""
    out = {}
    for path in code_files(corpus):
        symbols = collections.Counter(
            c.symbol for c in parse_code(path.read_bytes(), ChunkSettings(),
                                         path.suffix.lower() or path.name).chunks
            if c.symbol)
        out[path.relative_to(corpus).as_posix()] = {
            s for s, n in symbols.items() if n > 1 or any(
                o.startswith(s + sep) for o in symbols for sep in SEPARATORS)}
    return out


def whole(hit, partial: dict[str, set[str]]) -> bool:
    return bool(hit.symbol_kind) and hit.symbol not in partial.get(hit.path, set())


def evaluate(corpus: Path, method: str | None, embedder: str | None, scoped: bool,
             index_path: str | None, questions_file: Path = QUESTIONS) -> str:
    questions = load_reference(questions_file)
    raw = yaml.safe_load(questions_file.read_text())
    codes = {q["id"]: q["code"] for q in raw}
    groups = {q["id"]: q.get("group", "") for q in raw}  # the held-out set's two groups
    by_group: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    partial = partial_symbols(corpus)
    by_code: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    by_lang: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    returned = whole_count = 0
    misses = []
    with tempfile.TemporaryDirectory() as tmp:
        with Index(index_path or Path(tmp) / "index.sqlite", embedder=embedder) as index:
            report = index.ingest([corpus])
            assert report.ok, report.failed
            method = method or index.engine.default_method()
            index.where("warm up", k=K, method=method)  # the model loaded, not timed
            seconds: list[float] = []
            for q in questions:
                scope = {"languages": [codes[q.id]]} if scoped else {}
                start = time.perf_counter()
                hits = index.where(q.question, k=K, method=method, as_of="none", **scope)
                seconds.append(time.perf_counter() - start)
                ranks = [h.rank for h in hits if any(r.matches(h) for r in q.relevant)]
                first = min(ranks) if ranks else None
                for bucket in (by_code[codes[q.id]], by_lang[q.lang],
                               by_group[f"{groups[q.id] or 'first'} {q.lang}"]):
                    bucket[0] += 1
                    bucket[1] += first == 1
                    bucket[2] += first is not None
                returned += len(hits)
                whole_count += sum(whole(h, partial) for h in hits)
                if first != 1:
                    shown = "; ".join(f"{h.label} {h.symbol or ''}".strip() for h in hits[:3])
                    misses.append((q.id, q.question, first or "—", shown))
    rows = [(code, n, h1 / n, h5 / n) for code, (n, h1, h5) in sorted(by_code.items())]
    total = [sum(v[i] for v in by_code.values()) for i in range(3)]
    rows.append(("**all**", total[0], total[1] / total[0], total[2] / total[0]))
    lang_rows = [(lang, n, h1 / n, h5 / n) for lang, (n, h1, h5) in sorted(by_lang.items())]
    group_rows = [(g, n, h1 / n, h5 / n) for g, (n, h1, h5) in sorted(by_group.items())]
    return "\n\n".join([
        f"`where` ({method}{fusion(method)}, k={K}"
        f"{', --lang of the question' if scoped else ''}) over "
        f"{corpus}, questions of {questions_file.relative_to(ROOT)}",
        table(("code", "questions", "hit@1", "hit@5"), rows),
        table(("question language", "questions", "hit@1", "hit@5"), lang_rows),
        *([table(("group, language", "questions", "hit@1", "hit@5"), group_rows)]
          if any(groups.values()) else []),
        f"Whole definitions among the {returned} returned locations: {whole_count} "
        f"({whole_count / max(1, returned):.0%}).",
        f"`where` took {1000 * statistics.median(seconds):.0f} ms per question (median; "
        f"slowest {1000 * max(seconds):.0f} ms).",
        "Not first (rank of the first right location, — when none in the top 5; the top 3 "
        "returned):",
        table(("id", "question", "first right", "returned"), misses),
    ])


def fusion(method: str) -> str:
    if method != "hybrid":
        return ""
    return f" fused with RRF {retrieve.WHERE_RRF_CONSTANT}, dense weight " \
           f"{retrieve.WHERE_DENSE_WEIGHT}"


def speed(corpus: Path, runs: int, embedder: str = "none") -> str:
    rows = []
    for language in LANGUAGES:
        folder = corpus / language
        files = code_files(folder)
        datas = [(p.read_bytes(), p.suffix.lower() or p.name) for p in files]

        def parse_all(datas=datas):
            return sum(len(parse_code(data, ChunkSettings(), suffix).chunks)
                       for data, suffix in datas)

        parse_seconds, chunks = median_time(parse_all, runs)
        ingest_seconds = median_ingest(folder, chunks, runs, "none")
        lines = sum(data.count(b"\n") for data, _ in datas)
        row = (language, len(files), lines, chunks, len(files) / parse_seconds,
               chunks / parse_seconds, len(files) / ingest_seconds, chunks / ingest_seconds)
        if embedder != "none":
            seconds = median_ingest(folder, chunks, runs, embedder)
            row += (seconds, chunks / seconds)
        rows.append(row)
    header = ("language", "files", "lines", "chunks", "parse files/s", "parse chunks/s",
              "ingest files/s", "ingest chunks/s")
    if embedder != "none":
        header += (f"ingest with {embedder} (s)", f"with {embedder} chunks/s")
    return "\n\n".join([
        f"Code ingest speed (median of {runs}; keyword-only index, no vectors"
        + (f"; then with {embedder} vectors, each run a fresh index: nothing cached)"
           if embedder != "none" else ")"),
        table(header, rows),
        machine_note(),
    ])


def median_ingest(folder: Path, chunks: int, runs: int, embedder: str) -> float:
    """The median time of an ingest of `folder` into a fresh index with `embedder`."""
    def ingest() -> float:
        tmp = Path(tempfile.mkdtemp(prefix="code-speed-"))
        try:
            with Index(tmp / "index.sqlite", embedder=embedder) as index:
                start = time.perf_counter()
                report = index.ingest([folder])
                seconds = time.perf_counter() - start
            assert report.ok and report.chunks == chunks, report.failed
            return seconds
        finally:
            shutil.rmtree(tmp)

    times = sorted(ingest() for _ in range(runs))
    return times[len(times) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", help="default .preuve/corpus/code (heldout with "
                        "--heldout)")
    parser.add_argument("--heldout", action="store_true",
                        help="the held-out questions (bench/code_heldout) instead")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--method", help="default: `where`'s (hybrid when the index has "
                        "vectors, else bm25)")
    parser.add_argument("--embedder", help="the index's embedder (default: the product's, "
                        "e5; none: keyword-only)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--speed-embedder", default="none",
                        help="also time each language's ingest with this embedder (e5)")
    parser.add_argument("--index", help="keep the index there (an existing one is "
                        "brought up to date, not rebuilt: embedding once for several runs)")
    parser.add_argument("--lang", action="store_true",
                        help="ask each question with --lang of its code base")
    parser.add_argument("--fusion", metavar="C/W", help="hybrid `where`'s RRF constant and "
                        "dense weight, to compare (default: WHERE_RRF_CONSTANT and "
                        "WHERE_DENSE_WEIGHT of preuve.retrieve)")
    args = parser.parse_args()
    if args.fusion:
        constant, weight = args.fusion.split("/")
        retrieve.WHERE_RRF_CONSTANT, retrieve.WHERE_DENSE_WEIGHT = int(constant), float(weight)
    questions = HELDOUT if args.heldout else QUESTIONS
    corpus = Path(args.corpus or ROOT / ".preuve" / "corpus" /
                  ("heldout" if args.heldout else "code"))
    needed = {q["code"] for q in yaml.safe_load(questions.read_text())}
    if not all((corpus / language).is_dir() for language in needed):
        script = questions.parent / "corpus.py"
        raise SystemExit(f"{corpus}: no corpus; run {script.relative_to(ROOT)} {corpus} first")
    if not args.speed_only:
        print(evaluate(corpus, args.method, args.embedder, args.lang, args.index, questions))
    if not args.skip_speed and not args.heldout:
        print()
        print(speed(corpus, args.runs, args.speed_embedder))


if __name__ == "__main__":
    pin_threads()
    main()
