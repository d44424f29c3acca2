"""DOCX: paragraphs and tables in body order, sections by Heading styles.

Word files have no source lines; a chunk's `start_line`/`end_line` are paragraph numbers
(1-based, tables count one per row), which is what a citation can point back to."""

from __future__ import annotations

import io
import zipfile

from preuve.ingest.base import ChunkSettings, Parsed, ParseError
from preuve.ingest.chunking import chunks_from_blocks


def _blocks(document) -> list[tuple[str, str]]:
    """(style name, text) for each paragraph and table row, in reading order."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    out = []
    for element in document.element.body.iterchildren():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "p":
            paragraph = Paragraph(element, document)
            out.append((paragraph.style.name if paragraph.style else "", paragraph.text))
        elif tag == "tbl":
            for row in Table(element, document).rows:
                cells = []
                for cell in row.cells:
                    if cell.text.strip() and cell.text not in cells:
                        cells.append(cell.text.strip())
                out.append(("Table", " | ".join(cells)))
    return out


def parse_docx(data: bytes, settings: ChunkSettings) -> Parsed:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ParseError(f"corrupt or unreadable DOCX: {exc}") from None
    title = (document.core_properties.title or "").strip()
    path: list[tuple[int, str]] = []
    units: list[tuple[str, str, int, int]] = []  # heading path, text, paragraph number x2
    for number, (style, text) in enumerate(_blocks(document), 1):
        text = " ".join(text.split())
        if not text:
            continue
        level = _heading_level(style)
        if style == "Title":
            title = title or text
            continue
        if level:
            path = [(lvl, t) for lvl, t in path if lvl < level] + [(level, text)]
            title = title or (text if level == 1 else "")
        units.append((" > ".join(t for _, t in path), text, number, number))
    chunks = chunks_from_blocks(units, settings.max_words, settings.overlap_words)
    return Parsed(title=title, chunks=chunks, language_sample=" ".join(u[1] for u in units))


def _heading_level(style: str) -> int:
    if style.startswith("Heading "):
        try:
            return int(style.split()[1])
        except (IndexError, ValueError):
            return 0
    return 0
