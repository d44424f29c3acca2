"""DOCX: paragraphs and tables in body order, sections by Heading styles.

Word files have no source lines; a chunk's `start_line`/`end_line` are paragraph numbers
(1-based, tables count one per row), which is what a citation can point back to."""

from __future__ import annotations

import io
import zipfile

from preuve.ingest.base import ChunkSettings, Parsed, ParseError
from preuve.ingest.chunking import chunks_from_blocks


def _blocks(document) -> list[tuple[str, str]]:
    """(style name, text) for each paragraph and table row, in reading order.

    Style names come from one id-to-name table (python-docx's `paragraph.style` scans every
    style of the document for each paragraph)."""
    from docx.text.paragraph import Paragraph

    style_of = _paragraph_styles(document)
    out = []
    for element in document.element.body.iterchildren():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "p":
            out.append((style_of(element.style), Paragraph(element, document).text))
        elif tag == "tbl":
            out.extend(("Table", row) for row in _table_rows(element, document))
    return out


def _paragraph_styles(document):
    """style id -> name of the document's paragraph styles, the default one for an id
    that is missing or unknown (as python-docx resolves it)."""
    from docx.enum.style import WD_STYLE_TYPE

    names = {s.style_id: s.name for s in document.styles if s.type == WD_STYLE_TYPE.PARAGRAPH}
    default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
    default_name = default.name if default is not None else ""
    return lambda style_id: names.get(style_id, default_name) if style_id else default_name


def _table_rows(tbl, document) -> list[str]:
    """Each row's distinct cell texts joined by " | "; a vertically merged cell repeats the
    text of the cell it continues. One pass over the cells (python-docx looks up the cell
    above a merge row by row, quadratic in a long merge)."""
    from docx.table import _Cell

    above: dict[int, str] = {}  # grid column -> text of the cell covering it in the last row
    rows = []
    for tr in tbl.tr_lst:
        column, cells = tr.grid_before, []
        for tc in tr.tc_lst:
            text = above.get(column, "") if tc.vMerge == "continue" else _Cell(tc, document).text
            for spanned in range(column, column + tc.grid_span):
                above[spanned] = text
            column += tc.grid_span
            if text.strip() and text.strip() not in cells:
                cells.append(text.strip())
        rows.append(" | ".join(cells))
    return rows


def parse_docx(data: bytes, settings: ChunkSettings) -> Parsed:
    """Checked first by `limits.check_zip` (sizes and ratios declared by the zip); the XML
    is parsed by python-docx's lxml parser, which resolves no entities and refuses
    documents nested deeper than libxml2's limit (256)."""
    import docx
    from lxml import etree

    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ParseError(f"corrupt or unreadable DOCX: {exc}") from None
    except etree.XMLSyntaxError as exc:
        raise ParseError(f"DOCX with invalid or unsafe XML: {exc}") from None
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
