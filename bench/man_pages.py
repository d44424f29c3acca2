"""Every manual page of the machine read by `preuve.ingest.manpage.parse_man`, and timed.

    PYTHONPATH=. .venv/bin/python bench/man_pages.py [--root /usr/share/man] [--limit N]

The pages are roff (man(7) or mdoc(7)), gzipped as Debian installs them, written by
others. Each is parsed once with the default chunk settings (each page a different file:
no cache helps): the pages parsed, those refused with a ParseError (not a manual page, a
damaged gzip: the product's clear error) and those that raised anything else (a bug),
the chunks made, and the time per page (median, 95th percentile, slowest) on one core.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine_note, percentile, pin_threads, table  # noqa: E402

from preuve.ingest.base import ChunkSettings, ParseError  # noqa: E402
from preuve.ingest.manpage import NAME, parse_man  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/usr/share/man"))
    parser.add_argument("--limit", type=int, default=0, help="at most this many pages")
    args = parser.parse_args()
    pin_threads()
    pages = sorted(p for p in args.root.rglob("*") if p.is_file() and NAME.match(p.name))
    if args.limit:
        pages = pages[:: max(1, len(pages) // args.limit)][: args.limit]
    settings, times, chunks = ChunkSettings(), [], 0
    refused, bugs = collections.Counter(), []
    for page in pages:
        data = page.read_bytes()
        started = time.perf_counter()
        try:
            chunks += len(parse_man(data, settings).chunks)
        except ParseError as exc:
            refused[str(exc)[:60]] += 1
        except Exception as exc:  # noqa: BLE001 - a bug: listed, the sweep goes on
            bugs.append(f"{page}: {type(exc).__name__}: {exc}")
        times.append(time.perf_counter() - started)
    ms = [1000 * t for t in times]
    print(f"`parse_man` over {args.root} ({machine_note()})\n")
    print(table(["pages", "parsed", "refused", "bugs", "chunks", "p50 ms", "p95 ms", "max ms"],
                [[len(pages), len(pages) - sum(refused.values()) - len(bugs),
                  sum(refused.values()), len(bugs), chunks,
                  f"{percentile(ms, 50):.2f}", f"{percentile(ms, 95):.2f}",
                  f"{max(ms, default=0):.1f}"]]))
    for reason, n in refused.most_common(5):
        print(f"refused {n}: {reason}")
    for bug in bugs[:20]:
        print(f"bug: {bug}")


if __name__ == "__main__":
    main()
