"""How long `preuve watch` takes from a change to an index that holds it.

    .venv/bin/python bench/watch_batches.py                # 1 file, 500 files; 5 runs each
    .venv/bin/python bench/watch_batches.py --runs 5 --quiet 0.5

A `Watcher` (preuve/watch.py, as `preuve watch` runs it) over a folder of 2,000 small
Markdown files in a keyword-only SQLite index (no embedding model: the time is the watch
and the ingest, not the model's). Timed, median of `--runs`: from the last write of a
change (one file edited; 500 files created at once) to the end of the batch's transaction,
and what it takes beyond the quiet period that closes a batch (`--quiet`, default 1 s as
`preuve watch`). watchfiles looks for new changes once per quiet period, so a batch closes
between one and two quiet periods after its last change; the ingest comes after.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from preuve import Index
from preuve.watch import Watcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quiet", type=float, default=1.0)
    parser.add_argument("--files", type=int, default=2000, help="files already indexed")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="preuve-watch-bench-"))
    try:
        folder = scratch / "docs"
        folder.mkdir()
        for i in range(args.files):
            (folder / f"doc{i:05}.md").write_text(f"# Document {i}\n\nTexte du document {i}, "
                                                  f"mot w{i}x.\n")
        done: list = []
        arrived = threading.Event()

        def on_batch(batch) -> None:
            done.append((time.perf_counter(), batch))
            arrived.set()

        with Index(scratch / "index.sqlite", embedder="none") as index:
            watcher = Watcher(index, [folder], quiet=args.quiet, on_batch=on_batch,
                              access="public")
            started = time.perf_counter()
            watcher.catch_up()
            print(f"first ingest of {args.files} files: {time.perf_counter() - started:.2f} s")
            watcher.start()
            time.sleep(1.0)  # the OS watch is set up
            rows = []
            for name, change in (("1 file edited", _edit_one), ("500 files created", _create)):
                latencies, ingests = [], []
                for run in range(args.runs):
                    arrived.clear()
                    before = len(done)
                    last_write = change(folder, run)
                    while not (arrived.wait(30) and len(done) > before):
                        pass
                    finished, batch = done[-1]
                    assert batch.report is not None and not batch.error, batch.error
                    latencies.append(finished - last_write)
                    ingests.append(finished - last_write - args.quiet)
                    time.sleep(args.quiet * 2)
                rows.append((name, statistics.median(latencies), statistics.median(ingests)))
            watcher.stop()
        print(f"quiet period {args.quiet} s; median of {args.runs} runs")
        print(f"{'change':<20}{'to indexed':>12}{'beyond quiet':>17}")
        for name, latency, ingest in rows:
            print(f"{name:<20}{latency:>11.2f}s{ingest:>16.2f}s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _edit_one(folder: Path, run: int) -> float:
    (folder / "doc00007.md").write_text(f"# Document 7\n\nRévision {run}, mot r{run}x.\n")
    return time.perf_counter()


def _create(folder: Path, run: int) -> float:
    batch = folder / f"batch{run}"
    batch.mkdir()
    for i in range(500):
        (batch / f"n{i:03}.md").write_text(f"# Note {i}\n\nNote {i} du lot {run}.\n")
    return time.perf_counter()


if __name__ == "__main__":
    main()
