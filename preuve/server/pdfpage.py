"""A PDF page as the viewer shows it: the page rendered to PNG at a width the panel asks
for, and the boxes of a quoted passage on it (fractions of the page, for highlight
rectangles drawn over the image).

The quote is found by its words, not its exact characters: the index's text of a page had
its running headers, ligatures and line-end hyphens mended (`preuve.ingest.pdftext`), so
the page's words are aligned with the passage's (difflib) and the character boxes of the
words that line up are merged into one rectangle per line.

pdfium is not thread-safe: every call into it holds `preuve.ingest.pdf.PDFIUM`. Rendered pages are
kept in a small cache by file digest, page and width (`PageCache`); callers check the
audience and the file's digest before they come here (`routes.viewer.indexed_file`).
"""

from __future__ import annotations

import re
import struct
import threading
import unicodedata
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from preuve.errors import InvalidInput, NotFound
from preuve.ingest.pdf import PDFIUM

WIDTHS = (480, 720, 960, 1440, 1920)  # pixel widths a page is rendered at (srcset)
MIN_RUN = 3  # words in a row that must line up for a match to count (shorter quotes: all)
_WORD = re.compile(r"[^\W_]+")
_BREAKS = ("-", "\x02", "\ufffe", "\xad")  # a hyphen pdfium or the font put at a line end
_JOINED = ("\x02", "\ufffe")  # pdfium's own mark of a word it found broken at a line end

Box = tuple[float, float, float, float]  # left, top, width, height as fractions of the page


def _open(data: bytes, page: int) -> tuple[pdfium.PdfDocument, pdfium.PdfPage]:
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        raise NotFound("no such page") from None
    if not 1 <= page <= len(document):
        document.close()
        raise NotFound("no such page")
    return document, document[page - 1]


def page_png(data: bytes, page: int, width: int) -> bytes:
    """Page `page` (1-based) of the PDF `data` rendered `width` pixels wide, as PNG."""
    if width not in WIDTHS:
        raise InvalidInput(f"width must be one of {', '.join(map(str, WIDTHS))}")
    with PDFIUM:
        document, pdf_page = _open(data, page)
        try:
            scale = width / (pdf_page.get_width() if pdf_page.get_rotation() % 180 == 0
                             else pdf_page.get_height())
            bitmap = pdf_page.render(scale=scale, rev_byteorder=True, may_draw_forms=False)
            pixels = bitmap.to_numpy()
        finally:
            document.close()
    return png(pixels)


def png(pixels) -> bytes:
    """A height × width × 3 (RGB) or 4 (RGBA) uint8 array as PNG (zlib only: no imaging
    library)."""
    height, width, channels = pixels.shape
    rows = np.zeros((height, width * channels + 1), np.uint8)  # filter byte 0 (none)
    rows[:, 1:] = pixels.reshape(height, width * channels)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    head = struct.pack(">IIBBBBB", width, height, 8, {3: 2, 4: 6}[channels], 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 3)) + chunk(b"IEND", b""))


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


@dataclass(frozen=True)
class PageView:
    """What the viewer draws of a page: the quote's boxes (one per line of matched words,
    fractions of the page as displayed), the page's height over its width, and its
    printed label (None when the PDF gives none)."""

    boxes: list[Box]
    ratio: float
    label: str | None


def page_view(data: bytes, page: int, quote: str = "") -> PageView:
    """Where `quote` is on page `page` (1-based) of the PDF `data` (no match, or no quote:
    no boxes)."""
    with PDFIUM:
        document, pdf_page = _open(data, page)
        try:
            label = document.get_page_label(page - 1) or None
            left, bottom, right, top = pdf_page.get_bbox()
            rotation = pdf_page.get_rotation() % 360
            rects = []
            if quote.strip():
                textpage = pdf_page.get_textpage()
                try:
                    spans = _page_words(textpage)
                    marked = _aligned([w for w, _ in spans], _words(quote))
                    rects = _line_rects(textpage, [(i, spans[i][1]) for i in marked])
                finally:
                    textpage.close()
        finally:
            document.close()
    width, height = (right - left) or 1.0, (top - bottom) or 1.0
    boxes = [_rotate(((x0 - left) / width, (top - y1) / height,
                      (x1 - left) / width, (top - y0) / height), rotation)
             for x0, y0, x1, y1 in rects]
    ratio = height / width if rotation in (0, 180) else width / height
    return PageView(boxes, ratio, label)


def _page_words(textpage) -> list[tuple[str, list[int]]]:
    """The page's words (folded), each with the indexes of its characters. A word broken
    by a hyphen at a line end is one word, as the index read it (its two halves keep
    their own boxes)."""
    codes = [pdfium_c.FPDFText_GetUnicode(textpage, i) for i in range(textpage.count_chars())]
    chars = [unicodedata.normalize("NFKC", chr(c)).casefold() if c else " " for c in codes]
    words: list[tuple[str, list[int]]] = []
    text, at = [], []
    i = 0
    while i < len(chars):
        char = chars[i]
        if char and all(c.isalnum() for c in char):
            text.append(char)
            at.append(i)
            i += 1
            continue
        if text and char in _BREAKS:  # "configu-\r\nration": one word
            j = i + 1
            while j < len(chars) and chars[j] in ("\r", "\n"):
                j += 1
            joined = j > i + 1 or char in _JOINED  # pdfium's marker: lines already joined
            if joined and j < len(chars) and chars[j].isalpha() and chars[j].islower():
                i = j
                continue
        if text:
            words.append(("".join(text), at))
            text, at = [], []
        i += 1
    if text:
        words.append(("".join(text), at))
    return words


def _aligned(page_words: list[str], quote_words: list[str]) -> list[int]:
    """Indexes of the page's words that line up with the quote's, in runs of MIN_RUN
    words or more (the whole quote when it is shorter)."""
    if not page_words or not quote_words:
        return []
    least = min(MIN_RUN, len(quote_words))
    matcher = SequenceMatcher(None, page_words, quote_words, autojunk=False)
    return [i for block in matcher.get_matching_blocks() if block.size >= least
            for i in range(block.a, block.a + block.size)]


def _line_rects(textpage, words) -> list[tuple[float, float, float, float]]:
    """One rectangle (left, bottom, right, top in PDF points) per line of consecutive
    words (`words`: the page's word index and its characters' indexes): a character on a
    new line, or a word after a gap in the match, opens one."""
    rects: list[list[float]] = []
    last = None
    for index, chars in words:
        for n, i in enumerate(chars):
            x0, y0, x1, y1 = textpage.get_charbox(i)
            if rects and (n > 0 or last == index - 1):
                r = rects[-1]
                overlap = min(r[3], y1) - max(r[1], y0)
                if overlap > 0.5 * min(r[3] - r[1], y1 - y0) and x0 >= r[0]:
                    r[:] = [r[0], min(r[1], y0), max(r[2], x1), max(r[3], y1)]
                    continue
            rects.append([x0, y0, x1, y1])
        last = index
    return [tuple(r) for r in rects]


def _rotate(box: tuple[float, float, float, float], rotation: int) -> Box:
    """(x0, y0, x1, y1) fractions of the unrotated page (y down) to (left, top, width,
    height) on the page turned clockwise by `rotation` degrees, as it is displayed."""
    x0, y0, x1, y1 = box
    corners = {0: ((x0, y0), (x1, y1)), 90: ((1 - y0, x0), (1 - y1, x1)),
               180: ((1 - x0, 1 - y0), (1 - x1, 1 - y1)),
               270: ((y0, 1 - x0), (y1, 1 - x1))}[rotation]
    (ax, ay), (bx, by) = corners
    return min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay)


class PageCache:
    """Rendered pages by (file digest, page, width), the least recently used dropped
    beyond `limit` bytes. The digest is the indexed file's: a re-ingested file is new."""

    def __init__(self, limit: int = 48 * 1024 * 1024):
        self.limit, self.size = limit, 0
        self._items: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def png(self, digest: str, data: bytes, page: int, width: int) -> bytes:
        key = (digest, page, width)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        image = page_png(data, page, width)
        with self._lock:
            if key not in self._items:
                self._items[key] = image
                self.size += len(image)
            while self.size > self.limit and len(self._items) > 1:
                _, dropped = self._items.popitem(last=False)
                self.size -= len(dropped)
        return image
