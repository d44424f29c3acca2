"""Small helpers shared by the benchmark scripts: thread pinning, timing, Markdown tables."""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"  # cached indexes and scratch files (gitignored)


def pin_threads() -> None:
    """Re-run this script with OMP_NUM_THREADS=1 (numpy/BLAS read it only at import)."""
    if os.environ.get("OMP_NUM_THREADS") != "1":
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """(seconds, result) of one call."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def median_time(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    """Median seconds over `runs` calls, and the last call's result."""
    times, result = [], None
    for _ in range(runs):
        seconds, result = timed(fn)
        times.append(seconds)
    return statistics.median(times), result


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linear interpolation between closest ranks."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def p50_p95_cpu(fn: Callable[[object], object], items: Sequence[object],
                runs: int) -> tuple[float, float, float]:
    """`fn` over every item, `runs` times: (p50, p95 ms of wall time, p50 ms of this
    process's CPU time), each the median over the runs. On a shared machine the CPU time is
    what a call cost here, the wall time also what other processes took meanwhile (work
    done in another process, a database server's, is in neither's CPU column)."""
    p50s, p95s, cpus = [], [], []
    for _ in range(runs):
        times, used = [], []
        for item in items:
            start, clock = time.perf_counter(), time.process_time()
            fn(item)
            times.append(time.perf_counter() - start)
            used.append(time.process_time() - clock)
        p50s.append(percentile(times, 50) * 1000)
        p95s.append(percentile(times, 95) * 1000)
        cpus.append(percentile(used, 50) * 1000)
    return statistics.median(p50s), statistics.median(p95s), statistics.median(cpus)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; floats are printed with a sensible number of digits."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines)


def _cell(value: object) -> str:
    if isinstance(value, float):
        if value != value:  # nan
            return "—"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}" if abs(value) >= 0.1 else f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def machine_note() -> str:
    """One line on where the figures come from (compare ratios, not absolute times)."""
    import platform
    import sqlite3

    return (f"_Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
            f"{os.cpu_count()} CPUs, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}._")
