"""Cold `preuve ask` on the sample: a new process per question, as a user at a shell runs
it (interpreter start, imports, both embedders loaded, retrieval, the extractive answer),
the median of several runs, wall clock and CPU (user + system: the figure a shared
machine moves least).

The index is `make demo`'s (.preuve/demo.sqlite), else one built once under bench/out.
The first run (which may build the cache folder's files: the e5 graph, the pieces) is
not counted.

    python bench/ask_cold.py                   # 7 runs of the README's question
    python bench/ask_cold.py --runs 11 --question "Quel est le délai de retour ?"
    python bench/ask_cold.py --profile         # one run under pyinstrument (dev extra)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from common import OUT, ROOT, pin_threads

QUESTION = "Combien de jours de télétravail par semaine ?"
# bytecode written and read as in an installed package (pip compiles it at install)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def demo_index() -> str:
    made = ROOT / ".preuve" / "demo.sqlite"
    if made.exists():
        return str(made)
    own = OUT / "demo.sqlite"
    if not own.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "preuve", "ingest", str(ROOT / "examples"),
                        "--index", str(own), "--json"], check=True, stdout=subprocess.DEVNULL)
    return str(own)


def cold(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one new process running `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--question", default=QUESTION)
    parser.add_argument("--index", default=None)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    index = args.index or demo_index()
    ask = ["-m", "preuve", "ask", args.question, "--index", index, "--audience", "public"]
    if args.profile:
        os.execv(sys.executable, [sys.executable, "-m", "pyinstrument", *ask])
    command = [sys.executable, *ask]
    cold(command)  # warm the cache folder and the page cache
    runs = [cold(command) for _ in range(args.runs)]
    walls, cpus = zip(*runs, strict=True)
    load = os.getloadavg()[0]
    print(f"cold `preuve ask` on {index}, {args.runs} runs: median "
          f"{statistics.median(walls):.2f} s wall (min {min(walls):.2f}, max {max(walls):.2f}), "
          f"{statistics.median(cpus):.2f} s CPU; load average {load:.1f} on "
          f"{os.cpu_count()} cores")


if __name__ == "__main__":
    main()
