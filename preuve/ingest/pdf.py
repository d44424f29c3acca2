"""PDF: text per page with pdfium (keeps word boundaries where pypdf runs words together),
the page index and the printed page label, chunks cut by sentences within a page."""

from __future__ import annotations

import unicodedata

import pypdfium2 as pdfium

from preuve.ingest.base import ChunkSettings, Parsed, ParseError
from preuve.ingest.chunking import chunks_from_units, sentences


def parse_pdf(data: bytes, settings: ChunkSettings) -> Parsed:
    if not data.startswith(b"%PDF"):
        raise ParseError("not a PDF file (no %PDF header)")
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ParseError(f"corrupt or unreadable PDF: {exc}") from None
    try:
        chunks, sample = [], []
        title = (document.get_metadata_value("Title") or "").strip()
        for index in range(len(document)):
            page = document[index]
            try:
                textpage = page.get_textpage()
                text = textpage.get_text_bounded()
                textpage.close()
            finally:
                page.close()
            text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
            text = text.replace("\x02", "").replace("\ufffe", "")
            if not text.strip():
                continue
            label = document.get_page_label(index) or None
            sample.append(text)
            title = title or next(ln.strip() for ln in text.split("\n") if ln.strip())[:120]
            chunks.extend(chunks_from_units(
                sentences(text), settings.max_words, settings.overlap_words,
                page=index + 1, page_label=label,
            ))
        pages = len(document)
    except pdfium.PdfiumError as exc:
        raise ParseError(f"corrupt PDF: {exc}") from None
    finally:
        document.close()
    if not chunks:
        raise ParseError("no extractable text (scanned images? OCR is not supported)")
    return Parsed(title=title, chunks=chunks, pages=pages, language_sample=" ".join(sample))
