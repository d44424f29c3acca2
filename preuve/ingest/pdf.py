"""PDF: text per page with pdfium (keeps word boundaries where pypdf runs words together),
read as a careful reader would (`preuve.ingest.pdftext`): running headers, footers and
page numbers left out, ligatures and words hyphenated at line ends mended, headings from
the outline (else numbered or larger lines). Chunks follow sections and never cross a
page, so each carries its section's heading path, the page index and the printed page
label; tables of contents and indexes become chunks of role "navigation"."""

from __future__ import annotations

import ctypes
import re
import threading

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from preuve.ingest.base import ChunkSettings, Parsed, ParseError
from preuve.ingest.chunking import chunks_from_text
from preuve.ingest.navigation import BODY, NAVIGATION, is_navigation
from preuve.ingest.pdftext import (
    Bookmark,
    Line,
    Piece,
    clean,
    font_headings,
    is_furniture,
    is_title_page,
    join_hyphenated,
    outline_headings,
    pieces,
    repeated_edge_keys,
)
from preuve.models import Chunk

_LINE = re.compile(r"[^\r\n]+")
_BOLD = 600  # font weight from which a line counts as bold
_MAX_OUTLINE = 10_000  # bookmarks read at most (a hostile outline can be huge or cyclic)
# pdfium is not thread-safe, not even across documents: whoever calls it holds this (the
# server parses uploads and renders pages for its viewer in several threads)
PDFIUM = threading.Lock()


def parse_pdf(data: bytes, settings: ChunkSettings) -> Parsed:
    if not data.startswith(b"%PDF"):
        raise ParseError("not a PDF file (no %PDF header)")
    with PDFIUM:
        title, outline, pages, labels, count = _read(data)
    first = next((ln.text.strip() for page in pages for ln in page if ln.text.strip()), "")
    chunks = structured_chunks(pages, outline, labels, settings)
    if not chunks:
        raise ParseError("no extractable text (scanned images? OCR is not supported)")
    sample = " ".join(c.text for c in chunks if c.role == BODY)
    return Parsed(title=title or first[:120], chunks=chunks, pages=count,
                  language_sample=sample)


def _read(data: bytes):
    """(title, outline, lines per page, page labels, page count) of a PDF, read by pdfium
    (the caller holds PDFIUM)."""
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ParseError(f"corrupt or unreadable PDF: {exc}") from None
    try:
        title = (document.get_metadata_value("Title") or "").strip()
        outline = read_outline(document)
        # fonts only tell headings apart when there is no outline to read them from
        pages = [read_lines(document, index, fonts=not outline)
                 for index in range(len(document))]
        labels = [document.get_page_label(index) or None for index in range(len(document))]
        return title, outline, pages, labels, len(document)
    except pdfium.PdfiumError as exc:
        raise ParseError(f"corrupt PDF: {exc}") from None
    finally:
        document.close()


def structured_chunks(pages: list[list[Line]], outline: list[Bookmark],
                      labels: list[str | None], settings: ChunkSettings) -> list[Chunk]:
    """The chunks of a document read as `Line`s per page: furniture out, hyphens mended,
    cut by section and page, sized by sentences."""
    keys = repeated_edge_keys(pages)
    # the number printed on each page: its label, else its place (1, 2, …)
    numbers = [label or str(index + 1) for index, label in enumerate(labels)]
    body = join_hyphenated([ln for page in pages for ln in page
                            if not is_furniture(ln, keys, numbers[ln.page])])
    headings = outline_headings(body, outline) if outline else {}
    if not headings:
        headings = font_headings(body)
    chunks: list[Chunk] = []
    held = None  # heading lines with nothing under them yet: read with what follows
    for piece in [*pieces(body, headings), None]:
        if held is not None and piece is not None and held.page == piece.page:
            piece.lines[:0] = held.lines  # a chapter's title above its first section's, or
            piece.heading_lines += held.heading_lines  # a line the type made a heading
        elif held is not None and chunks and chunks[-1].page == held.page + 1:
            # at the page's end: with what comes before it on the page (a line the type
            # made a heading, `\usepackage[rivers]{…}` in a package's manual, is text)
            chunks[-1].text += "\n" + "\n".join(held.lines)
        held = None
        if piece is None:
            break
        if piece.heading_lines == len(piece.lines):
            held = piece
            continue
        chunks.extend(piece_chunks(piece, labels[piece.page], settings, len(pages)))
    return chunks


def piece_chunks(piece: Piece, label: str | None, settings: ChunkSettings,
                 pages: int = 1) -> list[Chunk]:
    role = NAVIGATION if is_navigation(piece.lines) or (
        pages > 1 and is_title_page(piece.lines, piece.page)) else BODY
    return chunks_from_text("\n".join(piece.lines), settings, page=piece.page + 1,
                            page_label=label, heading=piece.heading, role=role)


def read_lines(document: pdfium.PdfDocument, index: int, fonts: bool = True) -> list[Line]:
    """The text lines of page `index` in pdfium's reading order, each with its position
    and (with `fonts`) the size and weight of its first character's font."""
    page = document[index]
    try:
        height = page.get_height() or 1.0
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
            # generated line breaks are characters too: text offsets are character indexes
            aligned = len(text) == textpage.count_chars()
            x, y = ctypes.c_double(), ctypes.c_double()
            lines = []
            for match in _LINE.finditer(text):
                line = clean(match.group())
                if not line.strip():
                    continue
                if not aligned:
                    lines.append(Line(line, index))
                    continue
                at = match.start()
                pdfium_c.FPDFText_GetCharOrigin(textpage, at, x, y)
                top = min(max(1.0 - y.value / height, 0.0), 1.0)
                if not fonts:
                    lines.append(Line(line, index, top))
                    continue
                size = pdfium_c.FPDFText_GetFontSize(textpage, at)
                bold = pdfium_c.FPDFText_GetFontWeight(textpage, at) >= _BOLD
                lines.append(Line(line, index, top, round(size, 2), bold))
        finally:
            textpage.close()
    finally:
        page.close()
    return lines


def read_outline(document: pdfium.PdfDocument) -> list[Bookmark]:
    """The bookmarks that point at a page, in outline order."""
    out: list[Bookmark] = []
    heights: dict[int, float] = {}
    for number, bookmark in enumerate(document.get_toc(max_depth=8)):
        if number >= _MAX_OUTLINE:
            break
        dest = bookmark.get_dest()
        page = dest.get_index() if dest is not None else None
        title = clean(bookmark.get_title() or "").strip()
        if page is None or not title or not 0 <= page < len(document):
            continue
        top = None
        mode, position = dest.get_view()
        if mode == pdfium_c.PDFDEST_VIEW_XYZ and len(position) >= 2 and position[1]:
            if page not in heights:
                heights[page] = document.get_page_size(page)[1] or 1.0
            top = min(max(1.0 - position[1] / heights[page], 0.0), 1.0)
        out.append((bookmark.level + 1, title, page, top))
    return out
