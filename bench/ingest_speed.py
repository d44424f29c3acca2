"""Ingest throughput: the sample corpus and a real multi-hundred-page PDF.

    .venv/bin/python bench/ingest_speed.py [--pdf PATH] [--pypdf-python PYTHON] [--quick]

1. `examples/` ingested into a fresh index (median of 3): files/s, PDF pages/s, chunks/s,
   keyword only (`--embedder none`) and with the default embedder (e5 vectors).
2. A big PDF (default: Debian Reference, from `apt-get install debian-reference-en`, or
   the Debian FAQ from `apt-get install debian-faq`, gunzipped to a temp folder): pages/s
   of our parser (`preuve.ingest.pdf.parse_pdf`: text, NFC, sentences, chunks) against
   raw text extraction by pypdfium2 alone, by `pdftotext` (poppler-utils) when installed
   and by pypdf when `--pypdf-python` names an interpreter that has it (keep pypdf out of
   the project's venv: `python3 -m venv /tmp/pypdf && /tmp/pypdf/bin/pip install pypdf`);
   then the whole ingest of that PDF into a fresh index (parse, tokens, SQLite write, and
   vectors unless the embedder is `none`).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from common import ROOT, machine_note, median_time, pin_threads, table

from preuve import Index, text
from preuve.ingest.base import ChunkSettings
from preuve.ingest.pdf import parse_pdf

KNOWN_PDFS = [  # (path, Debian package shipping it)
    ("/usr/share/debian-reference/debian-reference.en.pdf", "debian-reference-en"),
    ("/usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz", "debian-faq"),
]
HOW_TO_GET = ("no PDF given and none of the known Debian ones is installed: pass --pdf PATH, "
              "or `apt-get install debian-reference-en` (Debian Reference, 261 pages, "
              "/usr/share/debian-reference/debian-reference.en.pdf)")

PYPDF_SNIPPET = """
import statistics, sys, time, pypdf
path, runs = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(runs):
    start = time.perf_counter()
    reader = pypdf.PdfReader(path)
    chars = sum(len(page.extract_text() or "") for page in reader.pages)
    times.append(time.perf_counter() - start)
print(len(reader.pages), chars, statistics.median(times), pypdf.__version__)
"""


def ingest_once(paths: list[Path], embedder: str) -> tuple[int, int, int]:
    """Ingest `paths` into a fresh temporary index: (files, pdf pages, chunks)."""
    text.stem.cache_clear()  # a fresh process: the stemming cache starts empty
    with tempfile.TemporaryDirectory(prefix="preuve-bench-") as folder:
        with Index(Path(folder) / "index.sqlite", embedder=embedder) as index:
            report = index.ingest(paths)
            if report.failed:
                problems = "; ".join(f"{p.path}: {p.reason}" for p in report.failed)
                raise SystemExit(f"ingest failed: {problems}")
            pages = sum(doc.pages for doc in index.documents())
            return len(report.added), pages, report.chunks


def bench_sample_corpus(runs: int, embedders: list[str]) -> str:
    folder = ROOT / "examples"
    rows = []
    for embedder in embedders:
        seconds, (files, pages, chunks) = median_time(
            lambda e=embedder: ingest_once([folder], e), runs)
        rows.append([f"examples/ → fresh index, embedder {embedder}", files, pages, chunks,
                     seconds * 1000, files / seconds, pages / seconds, chunks / seconds])
    return table(["what", "files", "PDF pages", "chunks", "ms", "files/s", "pages/s",
                  "chunks/s"], rows) + f"\n\n_Median of {runs} ingests._"


def find_pdf(given: str | None, scratch: Path) -> Path | None:
    """The PDF to measure: `given`, else a known Debian one (gunzipped into `scratch`)."""
    if given:
        return Path(given)
    for location, _package in KNOWN_PDFS:
        path = Path(location)
        if not path.is_file():
            continue
        if path.suffix == ".gz":
            target = scratch / path.name.removesuffix(".gz")
            with gzip.open(path) as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst)
            return target
        return path
    return None


def tokenize(chunks: list, language: str) -> int:
    """Tokens of every chunk with an empty stemming cache, as an ingest computes them."""
    text.stem.cache_clear()
    return sum(len(text.tokens(chunk.text, language)) for chunk in chunks)


def pdfium_raw(data: bytes) -> tuple[int, int]:
    """(pages, characters) of plain pypdfium2 text extraction, nothing else."""
    document = pdfium.PdfDocument(data)
    chars = 0
    for index in range(len(document)):
        page = document[index]
        textpage = page.get_textpage()
        chars += len(textpage.get_text_bounded())
        textpage.close()
        page.close()
    pages = len(document)
    document.close()
    return pages, chars


def pdftotext(path: Path) -> tuple[int, int]:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True,
                         check=True).stdout.decode("utf-8", "replace")
    return out.count("\f"), len(out.replace("\f", ""))


def pypdf_in(python: str, path: Path, runs: int) -> tuple[int, int, float, str]:
    out = subprocess.run([python, "-c", PYPDF_SNIPPET, str(path), str(runs)],
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1]), float(out[2]), out[3]


def bench_pdf(path: Path, runs: int, pypdf_python: str | None, embedders: list[str],
              embed_runs: int) -> str:
    data = path.read_bytes()
    settings = ChunkSettings()
    rows = []

    def add(name: str, seconds: float, pages: int, chars: int | str, chunks: int | str):
        ours = rows[0][4] if rows else pages / seconds
        per_s = chunks / seconds if isinstance(chunks, int) else "—"
        rows.append([name, pages, chars, chunks, pages / seconds, per_s,
                     f"{pages / seconds / ours:.2f}×", seconds * 1000])

    seconds, parsed = median_time(lambda: parse_pdf(data, settings), runs)
    chars = sum(len(c.text) for c in parsed.chunks)
    add("preuve parse_pdf (text + chunks)", seconds, parsed.pages, f"{chars:,} (in chunks)",
        len(parsed.chunks))
    language = text.detect_language(parsed.language_sample)
    seconds, _ = median_time(lambda: tokenize(parsed.chunks, language), runs)
    add("preuve tokens of those chunks", seconds, parsed.pages, "—", len(parsed.chunks))
    seconds, (pages, chars) = median_time(lambda: pdfium_raw(data), runs)
    add(f"pypdfium2 {pdfium.PYPDFIUM_INFO.version} raw text", seconds, pages, chars, "—")
    if shutil.which("pdftotext"):
        seconds, (pages, chars) = median_time(lambda: pdftotext(path), runs)
        add("pdftotext (poppler, subprocess)", seconds, pages, chars, "—")
    if pypdf_python:
        pages, chars, seconds, version = pypdf_in(pypdf_python, path, runs)
        add(f"pypdf {version} extract_text", seconds, pages, chars, "—")
    for embedder in embedders:
        n = runs if embedder == "none" else embed_runs
        seconds, (_, pages, chunks) = median_time(lambda e=embedder: ingest_once([path], e), n)
        add(f"preuve whole ingest → fresh index, embedder {embedder} ({n} run"
            f"{'s' if n > 1 else ''})", seconds, pages, "—", chunks)

    notes = [f"_{path} ({len(data) / 1e6:.1f} MB), median of {runs} runs unless said; "
             "speed = pages/s relative to our parser._"]
    if not shutil.which("pdftotext"):
        notes.append("_pdftotext not measured: `apt-get install poppler-utils`._")
    if not pypdf_python:
        notes.append("_pypdf not measured: pass `--pypdf-python` (see --help)._")
    return table(["step", "pages", "characters", "chunks", "pages/s", "chunks/s",
                  "speed vs preuve", "ms"], rows) + "\n\n" + "\n".join(notes)


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pdf", help="a big PDF (default: a Debian one, see --help)")
    parser.add_argument("--pypdf-python", help="a Python interpreter that has pypdf installed")
    parser.add_argument("--runs", type=int, default=3, help="runs per measure (median taken)")
    parser.add_argument("--embedders", default="none,e5",
                        help="embedders for the whole-ingest rows (none = keyword only)")
    parser.add_argument("--embed-runs", type=int, default=1,
                        help="runs of the big PDF's whole ingest with an embedder (slow)")
    parser.add_argument("--quick", action="store_true", help="one run, keyword only")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    embedders = ["none"] if args.quick else args.embedders.split(",")
    if args.pdf and not Path(args.pdf).is_file():
        parser.error(f"--pdf {args.pdf}: no such file")

    print("### Ingest of the sample corpus\n")
    print(bench_sample_corpus(runs, embedders))
    with tempfile.TemporaryDirectory(prefix="preuve-bench-pdf-") as scratch:
        pdf = find_pdf(args.pdf, Path(scratch))
        if pdf is None:
            print(f"\n{HOW_TO_GET}", file=sys.stderr)
            sys.exit(2)
        print(f"\n### A big PDF: {pdf.name}\n")
        print(bench_pdf(pdf, runs, args.pypdf_python, embedders, args.embed_runs))
    print("\n" + machine_note())


if __name__ == "__main__":
    main()
