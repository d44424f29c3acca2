"""What every parser returns, and the errors they raise.

A parser turns a file's bytes into `Parsed`: a title, metadata found inside the file
(front matter, PDF info) and `Chunk`s already cut by structure (pages, headings, code
definitions) and then by size. Parsers never touch the store.
"""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from preuve.errors import InvalidInput
from preuve.models import Chunk


class ParseError(InvalidInput):
    """A file that cannot be indexed; the message is the reason shown to the user."""


@dataclass
class ChunkSettings:
    """Size limits applied after the structural cut (words, not model tokens)."""

    max_words: int = 180
    overlap_words: int = 30
    code_window_lines: int = 40
    code_overlap_lines: int = 8


@dataclass
class Parsed:
    title: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # front matter / embedded metadata
    pages: int = 0
    language_sample: str = ""  # text to guess the language from when none is declared


def decode_text(data: bytes) -> str:
    """UTF-8 text (BOM tolerated), NFC, with \\n line ends; a clear error otherwise."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return _clean(data.decode("utf-16"))
        except UnicodeDecodeError as exc:
            raise ParseError(f"invalid UTF-16 text: {exc.reason} at byte {exc.start}") from None
    if b"\x00" in data[:8192]:
        raise ParseError("binary content (NUL bytes), not a text file")
    try:
        return _clean(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert the file to UTF-8"
        ) from None


def _clean(text: str) -> str:
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
