"""Document furniture in the index of real PDF manuals, and how often it wins a search.

    PYTHONPATH=. .venv/bin/python bench/pdf_structure.py [PDF ...]

Default PDFs: the Debian Reference in English and French (`apt-get install
debian-reference-en debian-reference-fr`): LaTeX-made manuals with a 25-page table of
contents, a running header with the page number on every page and an outline.

For each PDF, a fresh keyword-only index (`--embedder none`), then:
- furniture left in the index: chunk lines that are the running header (the line that
  tops most pages, digits blanked), and lines that are a bare number (page numbers, but
  also table cells and the page numbers of table-of-contents entries);
- questions: every 15th outline entry's title, and the key words (the 8 longest distinct
  words) of the first long sentence of every 20th body page, each asked with BM25 (k=5);
  the share whose first hit is on a table-of-contents page (the pages between the one
  that starts with "Contents"/"Table des matières" and the first outline target), and
  the share whose first hit is on the page the question came from (+-1 for titles, whose
  section may start at the foot of a page).

The script reads the index through the public API only, so it runs against an older
checkout too (PYTHONPATH=that checkout) for a before/after comparison.
"""

from __future__ import annotations

import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium

from preuve import Index

DEFAULT = [Path("/usr/share/debian-reference/debian-reference.en.pdf"),
           Path("/usr/share/debian-reference/debian-reference.fr.pdf")]
_TOC_TITLE = re.compile(r"^(contents|table des matières|sommaire)$", re.IGNORECASE)


def page_texts(path: Path) -> list[list[str]]:
    document = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for index in range(len(document)):
            textpage = document[index].get_textpage()
            pages.append([ln.strip() for ln in textpage.get_text_range().split("\r\n")
                          if ln.strip()])
        return pages
    finally:
        document.close()


def outline(path: Path) -> list[tuple[str, int]]:
    document = pdfium.PdfDocument(str(path))
    try:
        out = []
        for bookmark in document.get_toc():
            dest = bookmark.get_dest()
            if dest is not None and dest.get_index() is not None:
                out.append((bookmark.get_title(), dest.get_index() + 1))
        return out
    finally:
        document.close()


def toc_pages(pages: list[list[str]], first_target: int) -> set[int]:
    start = next(i + 1 for i, lines in enumerate(pages)
                 if any(_TOC_TITLE.match(ln) for ln in lines[:3]))
    return set(range(start, first_target))


def header_key(line: str) -> str:
    return re.sub(r"\d+|\b[ivxlcdm]+\b", "#", line.casefold())


def questions(pages: list[list[str]], entries: list[tuple[str, int]],
              first_body: int) -> list[tuple[str, int, int]]:
    """(question, page, tolerance in pages)."""
    out = [(title, page, 1) for title, page in entries[::15]]
    for number in range(first_body + 5, len(pages) + 1, 20):
        sentence = next((ln for ln in pages[number - 1][1:] if len(ln.split()) >= 12), None)
        if sentence is None:
            continue
        words = sorted({w for w in re.findall(r"[^\W\d_]{4,}", sentence)}, key=len,
                       reverse=True)[:8]
        out.append((" ".join(words), number, 0))
    return out


def measure(path: Path) -> dict:
    pages = page_texts(path)
    entries = outline(path)
    first_target = min(page for _, page in entries)
    toc = toc_pages(pages, first_target)
    header = Counter(header_key(lines[0]) for lines in pages if lines).most_common(1)[0][0]
    with tempfile.TemporaryDirectory(prefix="preuve-pdf-") as folder:
        source = Path(folder) / "docs"
        source.mkdir()
        (source / path.name).write_bytes(path.read_bytes())
        with Index(Path(folder) / "index.sqlite", embedder="none") as index:
            started = time.perf_counter()
            index.ingest([source])
            seconds = time.perf_counter() - started
            db = sqlite3.connect(Path(folder) / "index.sqlite")
            texts = [t for (t,) in db.execute("SELECT text FROM chunks")]
            db.close()
            lines = [ln.strip() for t in texts for ln in t.split("\n")]
            headers = sum(header_key(ln) == header for ln in lines)
            numbers = sum(re.fullmatch(r"\d{1,4}|[ivxlcdm]{1,7}", ln) is not None for ln in lines)
            asked = questions(pages, entries, first_target)
            on_toc = on_page = 0
            for question, page, tolerance in asked:
                hits = index.search(question, method="bm25", k=5, as_of=None)
                if hits and hits[0].page in toc:
                    on_toc += 1
                if hits and abs(hits[0].page - page) <= tolerance:
                    on_page += 1
    return {"pdf": path.name, "pages": len(pages), "chunks": len(texts),
            "running header lines": headers, "bare number lines": numbers, "questions": len(asked),
            "first hit on a TOC page": f"{on_toc / len(asked):.0%}",
            "first hit on the page": f"{on_page / len(asked):.0%}",
            "ingest s": f"{seconds:.1f}"}


def run(measure_one, argv: list[str]) -> int:
    """Print `measure_one(pdf)` for each PDF named in `argv` (default: DEFAULT)."""
    paths = [Path(a) for a in argv] or [p for p in DEFAULT if p.is_file()]
    if not paths:
        print("no PDF: apt-get install debian-reference-en debian-reference-fr", file=sys.stderr)
        return 1
    for path in paths:
        print(measure_one(path), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(run(measure, sys.argv[1:]))
