"""The built-in document kinds, registered in `preuve.registry.kinds`: the file suffixes
each reads and its parser. Plugins add kinds through the `preuve.parsers` entry points."""

from __future__ import annotations

from preuve.ingest.code import CODE_EXTENSIONS, CODE_FILENAMES, parse_code
from preuve.ingest.docx import parse_docx
from preuve.ingest.html import parse_html
from preuve.ingest.manpage import NAME as MANUAL_PAGE
from preuve.ingest.manpage import parse_man
from preuve.ingest.markdown import parse_markdown, parse_text
from preuve.registry import Kind, kinds


def parse_pdf(data: bytes, settings):
    """preuve.ingest.pdf's parser, imported when a PDF is read: pypdfium2 takes a tenth of
    a second to load, which a question never needs."""
    from preuve.ingest.pdf import parse_pdf as parse

    return parse(data, settings)


def pdf_pages(data: bytes) -> int | None:
    """A PDF's page count, read from its page tree (no page parsed); None when pdfium
    cannot open it (the parser then reports why)."""
    import pypdfium2 as pdfium

    from preuve.ingest.pdf import PDFIUM

    with PDFIUM:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError:
            return None
        try:
            return len(document)
        finally:
            document.close()


for _kind in (
    Kind("pdf", parse_pdf, (".pdf",), pages=pdf_pages, binary=True,
         help="PDF (text and page numbers)"),
    Kind("markdown", parse_markdown, (".md", ".markdown"), cites_lines=True,
         front_matter=True, help="Markdown (heading path, front matter)"),
    Kind("html", parse_html, (".html", ".htm"), help="HTML (main content, heading path)"),
    Kind("text", parse_text, (".txt", ".text", ".rst"), cites_lines=True, front_matter=True,
         help="plain text (front matter)"),
    Kind("man", parse_man, names=MANUAL_PAGE, binary=True, cites_lines=True,
         help="manual pages (roff man/mdoc, plain or gzipped: su.1, ssh_config.5.gz)"),
    Kind("docx", parse_docx, (".docx",), zipped=True, binary=True, help="Word documents"),
    Kind("code", parse_code, tuple(sorted(CODE_EXTENSIONS)), tuple(sorted(CODE_FILENAMES)),
         takes_suffix=True, cites_lines=True, help="source code (definitions, lines)"),
):
    kinds.register(_kind.name, _kind, replace=True)
