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


CHUNKING_STRATEGIES = ("structure", "sentence", "fixed", "recursive")


@dataclass
class ChunkSettings:
    """How prose is cut after the structural cut (sizes in words, not model tokens).

    `strategy` (see `preuve.ingest.chunking.cut`): "structure" (the default: paragraphs,
    title lines and sentences kept whole), "sentence" (windows of whole sentences only),
    "fixed" (word windows, boundaries ignored) or "recursive" (paragraphs, then sentences,
    then words, merged up to the size). It applies to collection records and PDF sections;
    Markdown, HTML, DOCX, text and code keep their line-exact structural cut."""

    max_words: int = 180
    overlap_words: int = 30
    code_window_lines: int = 40
    code_overlap_lines: int = 8
    strategy: str = "structure"

    def __post_init__(self) -> None:
        if self.strategy not in CHUNKING_STRATEGIES:
            raise InvalidInput(f"chunking strategy {self.strategy!r}: expected one of "
                             f"{', '.join(CHUNKING_STRATEGIES)}")
        if self.max_words < 10 or not 0 <= self.overlap_words < self.max_words:
            raise InvalidInput(f"chunk size {self.max_words} words with overlap "
                             f"{self.overlap_words}: the size must be at least 10 and the "
                             "overlap smaller than the size")

    @property
    def definition_words(self) -> int:
        """The most words one chunk of code holds (a definition, a container's header, a
        line window, a configuration key): past it, it is cut in parts."""
        return self.max_words * 3

    def describe(self) -> str:
        """What the index records: `structure/180/30`."""
        return f"{self.strategy}/{self.max_words}/{self.overlap_words}"

    @classmethod
    def asked(cls, strategy: str | None = None, words: int | None = None,
              overlap: int | None = None) -> ChunkSettings | None:
        """Settings from command-line options; None when none was given (the index's
        recorded chunking, else the default, then applies)."""
        if strategy is None and words is None and overlap is None:
            return None
        base = cls()
        return cls(max_words=words or base.max_words,
                   overlap_words=base.overlap_words if overlap is None else overlap,
                   strategy=strategy or base.strategy)

    @classmethod
    def parse(cls, recorded: str) -> ChunkSettings:
        strategy, size, overlap = recorded.split("/")
        return cls(max_words=int(size), overlap_words=int(overlap), strategy=strategy)


@dataclass
class Parsed:
    title: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # front matter / embedded metadata
    pages: int = 0
    language_sample: str = ""  # text to guess the language from when none is declared


# Latin-1 as a page declares it is read as browsers read it: windows-1252, a superset
_AS_BROWSERS = {"iso8859-1": "cp1252", "ascii": "cp1252"}


def decode_text(data: bytes, declared: str | None = None) -> str:
    """UTF-8 text (BOM tolerated), NFC, with \\n line ends; else, when the file declares its
    encoding (`declared`: an HTML page's charset), that encoding; a clear error otherwise."""
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
        if declared is None:
            raise ParseError(
                f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
                "convert the file to UTF-8"
            ) from None
    try:
        name = codecs.lookup(declared).name
    except LookupError:
        raise ParseError(f"not valid UTF-8, and the charset it declares ({declared!r}) is "
                         "unknown; convert the file to UTF-8") from None
    if name.startswith(("utf-16", "utf-32", "utf-8")):  # bytes read as 8-bit cannot be these
        raise ParseError(f"not valid UTF-8 though it declares {declared!r}; convert the file "
                         "to UTF-8")
    for encoding in dict.fromkeys((_AS_BROWSERS.get(name, name), name)):
        try:
            return _clean(data.decode(encoding))
        except UnicodeDecodeError as exc:
            error = exc
    raise ParseError(f"not valid {name} as it declares (byte 0x{data[error.start]:02x} at "
                     f"offset {error.start}); convert the file to UTF-8") from None


def _clean(text: str) -> str:
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
