"""Hybrid search latency on a bilingual collection, stage by stage: the Debian FAQ's PDFs
in English and French (Debian packages `debian-faq`, `debian-faq-fr`) ingested into a
temporary index with the defaults (e5 and the use-m3 companion), then ~100 questions the
searching process has never seen (no query vector remembered: each run is a new process,
warmed up on other questions) through `Index.search` (hybrid, k=10).

Each stage is timed apart by wrapping the functions `retrieve.hybrid` calls (time spent in
a wrapped call nested inside another is its own line, not its parent's):

- `embed e5`, `embed use-m3`: the query embeddings (`retrieve.dense.query_vector`);
- `bm25`, `dense`, `translated`, `companion`: the lists without their embeddings
  (`translated` includes the word-by-word translation, `translated bm25` its keyword query);
- `fusion`: `retrieve.fuse` (the plan: language, coverage, then the weighted sum);
- `rest`: what `hybrid` and `Index.search` do around them (filters, the languages check);
- `total`: `Index.search`, wall and CPU.

The embedding of e5 may run in a worker thread (`retrieve.dense.embed_beside`): its line
then overlaps the others, `e5 inputs` is the part made in the caller's thread and `wait e5`
the time the caller waited for the worker; `rest` is the caller's time outside the stages.

Per run the p50 and p95 over the questions, then the median over the runs. `--against DIR`
runs another checkout's `preuve` package (e.g. `git archive REV preuve | tar -x -C DIR`)
in turn with this one, so that both see the same load; with `--rankings FILE`, every
question's top 10 (path, page, chunk text digest) is written by both and compared (quality
kept: the same lists, or how many moved).

    python bench/hybrid_bilingual.py                      # build, 5 runs, delete the index
    python bench/hybrid_bilingual.py --index /tmp/faq.sqlite --keep   # reuse / keep it
    python bench/hybrid_bilingual.py --index /tmp/faq.sqlite --against /tmp/base \\
        --rankings /tmp/top10.json                        # against another checkout
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT, machine_note, percentile, pin_threads, table

PDFS = {"debian-faq.en.pdf": "/usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz",
        "debian-faq.fr.pdf": "/usr/share/doc/debian/FAQ/debian-faq.fr.pdf.gz"}
# questions of other files, never asked of this index by any earlier step of the run
QUESTION_FILES = ["evalsets/manuals/questions.yaml", "examples/crosslingual.yaml",
                  "evalsets/handbook/questions.yaml"]
WARMUP = ["What is the Debian project?", "Comment signaler un bogue dans Debian ?",
          "mailing lists archive"]
STAGES = ["e5 inputs", "embed e5", "wait e5", "embed use-m3", "bm25", "dense", "translated",
          "translated bm25", "companion", "fusion", "rest", "total"]
BESIDE = {"embed e5"}  # made in a worker thread, beside the caller's stages


def build(folder: Path) -> str:
    """The two PDFs gunzipped into `folder`/docs and ingested into `folder`/index.sqlite."""
    from preuve import Index

    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for name, packed in PDFS.items():
        if not Path(packed).exists():
            raise SystemExit(f"{packed} missing: apt-get install debian-faq debian-faq-fr")
        (docs / name).write_bytes(gzip.decompress(Path(packed).read_bytes()))
    location = str(folder / "index.sqlite")
    start = time.perf_counter()
    with Index(location) as index:
        report = index.ingest([docs])
    print(f"ingested {len(PDFS)} PDFs in {time.perf_counter() - start:.0f} s: {report}",
          file=sys.stderr)
    return location


def questions(count: int) -> list[str]:
    import yaml

    found: list[str] = []
    for name in QUESTION_FILES:
        entries = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
        found += [e["question"] for e in entries if isinstance(e, dict) and "question" in e]
    found = [q for q in dict.fromkeys(found) if q not in WARMUP]
    random.Random(21).shuffle(found)
    return found[:count]


class Stages:
    """Seconds per stage of the current question, each thread's own: a wrapped call nested
    inside another is subtracted from its caller's time."""

    def __init__(self):
        self.spent: dict[str, float] = {}
        self._local = threading.local()  # per thread: the open calls' nested times
        self._lock = threading.Lock()

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.spent[name] = self.spent.get(name, 0.0) + seconds

    def wrap(self, module, attribute: str, label):
        original = getattr(module, attribute)

        def timed(*args, **kwargs):
            name = label(*args, **kwargs) if callable(label) else label
            stack = self._local.__dict__.setdefault("stack", [])
            stack.append([0.0])
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                took = time.perf_counter() - start
                self.add(name, took - stack.pop()[0])
                if stack:
                    stack[-1][0] += took

        setattr(module, attribute, timed)


class _Waited:
    """A future whose `result()` is timed as the wait for it."""

    def __init__(self, future, stages: Stages):
        self._future, self._stages = future, stages

    def result(self):
        start = time.perf_counter()
        try:
            return self._future.result()
        finally:
            # counted in the caller's stage (dense) too: taken back out of it below
            self._stages.add("wait e5", time.perf_counter() - start)


def child(location: str, asked: list[str], rankings: str | None, beside: str) -> None:
    """One run in this (new) process: warm-up, then every question timed stage by stage;
    prints one JSON line."""
    import preuve.retrieve as retrieve
    from preuve import Index

    dense_module = sys.modules["preuve.retrieve.dense"]  # `retrieve.dense` is the function
    stages = Stages()
    stages.wrap(dense_module, "query_vector",
                lambda embedder, query: "embed e5" if "e5" in embedder.name.lower()
                else "embed use-m3")
    stages.wrap(retrieve, "dense",
                lambda *a, label="dense", **k: "companion" if label != "dense" else "dense")
    from preuve.embed import E5Embedder

    if hasattr(E5Embedder, "query_runner"):  # inputs made here, the model run beside
        prepare = E5Embedder.query_runner

        def query_runner(self, text):
            start = time.perf_counter()
            run = prepare(self, text)
            stages.add("e5 inputs", time.perf_counter() - start)

            def timed_run():
                began = time.perf_counter()
                try:
                    return run()
                finally:
                    stages.add("embed e5", time.perf_counter() - began)
            return timed_run

        E5Embedder.query_runner = query_runner
    if beside != "auto" and hasattr(dense_module, "idle_core"):
        dense_module.idle_core = lambda: beside == "always"
    if hasattr(retrieve, "embed_beside"):  # the checkouts that embed beside the lists
        original_beside = retrieve.embed_beside

        def embed_beside(*args):
            future = original_beside(*args)
            return None if future is None else _Waited(future, stages)

        retrieve.embed_beside = embed_beside
    depth = {"level": 0}

    def bm25_label(*args, **kwargs):
        return "translated bm25" if depth["level"] else "bm25"

    stages.wrap(retrieve, "bm25", bm25_label)
    original_translated = retrieve.translated

    def translated(*args, **kwargs):
        depth["level"] += 1
        try:
            return original_translated(*args, **kwargs)
        finally:
            depth["level"] -= 1

    retrieve.translated = translated
    stages.wrap(retrieve, "translated", "translated")
    stages.wrap(retrieve, "fuse", "fusion")
    per_question, tops = [], {}
    with Index(location) as index:
        for question in WARMUP:
            index.search(question)
        for question in asked:
            stages.spent = {}
            start, clock = time.perf_counter(), time.process_time()
            hits = index.search(question)
            wall, cpu = time.perf_counter() - start, time.process_time() - clock
            spent = dict(stages.spent)
            spent["dense"] = spent.get("dense", 0.0) - spent.get("wait e5", 0.0)
            caller = sum(v for name, v in spent.items() if name not in BESIDE)
            if "wait e5" not in spent:  # made in the caller's thread
                caller += spent.get("embed e5", 0.0)
            spent["rest"] = wall - caller
            spent["total"], spent["total cpu"] = wall, cpu
            per_question.append(spent)
            tops[question] = [f"{h.path} p{h.page} "
                              f"{hashlib.sha256(h.text.encode()).hexdigest()[:10]}"
                              for h in hits]
    if rankings:
        Path(rankings).write_text(json.dumps(tops, ensure_ascii=False, indent=1),
                                  encoding="utf-8")
    print(json.dumps(per_question))


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", help="an index of the two PDFs (built there if missing)")
    parser.add_argument("--keep", action="store_true", help="keep the index built")
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rankings", help="write every question's top 10 to this file")
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="a folder holding another preuve package: its runs interleaved "
                             "with this checkout's, their top 10 compared (with --rankings)")
    parser.add_argument("--beside", default="auto",
                        help="e5's query embedding in a worker thread: auto (as the code "
                             "decides: an idle core), always, never, or several in turn "
                             "(always,never)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    asked = questions(args.questions)
    if args.child:
        child(args.child, asked, args.rankings, args.beside)
        return
    made = None
    location = args.index
    if location is None or not Path(location).exists():
        made = Path(tempfile.mkdtemp(prefix="hybrid-bilingual-")) if location is None \
            else Path(location).parent
        built = build(made)
        if location is not None:
            os.replace(built, location)
        location = location or built
    # (name, checkout, --beside of the child): run in turn, so that all see the same load
    variants = [(f"this, {mode}" if "," in args.beside else "this", str(ROOT), mode)
                for mode in args.beside.split(",")]
    if args.against:
        variants.append(("against", str(Path(args.against).resolve()), "auto"))
    runs: dict[str, list] = {name: [] for name, _, _ in variants}
    loads = []
    try:
        for run in range(args.runs):
            for name, checkout, mode in variants:
                command = [sys.executable, __file__, "--child", location,
                           "--questions", str(args.questions), "--beside", mode]
                if args.rankings and run == 0:
                    command += ["--rankings", rankings_file(args.rankings, name)]
                loads.append(os.getloadavg()[0])
                out = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True,
                                     cwd=ROOT, env={**os.environ, "PYTHONPATH": checkout}).stdout
                runs[name].append(json.loads(out.strip().splitlines()[-1]))
    finally:
        if made is not None and args.index is None and not args.keep:
            shutil.rmtree(made, ignore_errors=True)
    print(f"hybrid search, {len(asked)} fresh questions on the Debian FAQ PDFs (en + fr), "
          f"{args.runs} runs per variant (each a new process); load average "
          f"{min(loads):.1f}-{max(loads):.1f} at the runs' starts\n")
    headers, rows = ["stage"], []
    for name, checkout, mode in variants:
        headers += [f"p50 ms ({name})", f"p95 ms ({name})"]
        beside = sum("wait e5" in q for run in runs[name] for q in run)
        print(f"- {name}: {checkout}, --beside {mode} (e5 beside in {beside} of "
              f"{sum(map(len, runs[name]))} searches)")
    print()
    for stage in [*STAGES, "total cpu"]:
        row: list = [stage]
        for name, _, _ in variants:
            p50s = [percentile([q.get(stage, 0.0) for q in run], 50) * 1000
                    for run in runs[name]]
            p95s = [percentile([q.get(stage, 0.0) for q in run], 95) * 1000
                    for run in runs[name]]
            row += [statistics.median(p50s), statistics.median(p95s)]
        rows.append(row)
    print(table(headers, rows))
    print("\n" + machine_note())
    if args.rankings and len(variants) > 1:
        first_name = variants[0][0]
        mine = json.loads(Path(rankings_file(args.rankings, first_name)).read_text("utf-8"))
        for name, _, _ in variants[1:]:
            theirs = json.loads(Path(rankings_file(args.rankings, name)).read_text("utf-8"))
            moved = [q for q in mine if mine[q] != theirs.get(q)]
            first = [q for q in mine if mine[q][:1] != theirs.get(q, [])[:1]]
            print(f"\ntop 10 of {first_name} and {name}: {len(moved)} of {len(mine)} "
                  f"questions differ ({len(first)} in their first hit)")


def rankings_file(path: str, variant: str) -> str:
    return f"{path}.{variant.replace(', ', '-')}"

if __name__ == "__main__":
    main()
