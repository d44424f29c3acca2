"""What the web page's viewer costs for a PDF citation: the page rendered to PNG at each
width the page may ask for (`/pages/{id}?page=N&width=W`), its size, and finding the
passage's boxes on the page (`/passages/{id}?page=N&chunk=…`), median of several runs.

    PYTHONPATH=. .venv/bin/python bench/viewer_page.py [PDF PAGE [PASSAGE TEXT]]

Default: examples/handbook/teletravail.pdf page 2 and a passage of it. The rendered page
is cached by the server (by file digest, page and width): these are the costs of a miss.
"""

from __future__ import annotations

import sys
from pathlib import Path

from common import machine_note, median_time, pin_threads, table

from preuve.server.pdfpage import WIDTHS, page_png, page_view

ROOT = Path(__file__).resolve().parents[1]
PASSAGE = ("Chaque salarié éligible peut télétravailler jusqu'à 2 jours par semaine. Ces 2 "
           "jours de télétravail par semaine ne sont pas reportables d'une semaine sur "
           "l'autre et ne peuvent pas être cumulés en fin de mois.")
RUNS = 7


def main(argv: list[str]) -> None:
    pdf = Path(argv[0]) if argv else ROOT / "examples" / "handbook" / "teletravail.pdf"
    page = int(argv[1]) if len(argv) > 1 else 2
    passage = argv[2] if len(argv) > 2 else PASSAGE
    data = pdf.read_bytes()
    seconds, view = median_time(lambda: page_view(data, page, passage), RUNS)
    print(f"{pdf.name} page {page}: {len(view.boxes)} boxes found in {seconds * 1000:.1f} ms "
          f"(median of {RUNS})\n")
    rows = []
    for width in WIDTHS:
        seconds, image = median_time(lambda w=width: page_png(data, page, w), RUNS)
        rows.append((width, seconds * 1000, len(image) / 1024))
    print(table(["width (px)", "render + PNG (ms)", "PNG (KiB)"], rows))
    print("\n" + machine_note())


if __name__ == "__main__":
    pin_threads()
    main(sys.argv[1:])
