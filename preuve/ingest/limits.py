"""What ingest refuses before parsing, and how much of a file it reads.

Every cap is checked on what the file declares (its size, a DOCX's zip directory, a PDF's
page count) before a parser sees it, and every refusal is a `ParseError` whose message
names the cap, so the user knows which limit to raise.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

from preuve.ingest.base import ParseError
from preuve.registry import Kind

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_PAGES = 5_000
# DOCX (a zip): the XML is parsed into a tree about ten times its size, so the sum of the
# members' uncompressed sizes is capped; a member that inflates more than MAX_ZIP_RATIO
# times is a zip bomb, not a document (Word's own XML compresses 5-20 times).
MAX_UNZIPPED_BYTES = 64_000_000
MAX_ZIP_RATIO = 100
MAX_ZIP_MEMBERS = 10_000
_RATIO_FROM = 1024 * 1024  # small members may compress oddly well; only big ones count
MAX_SIDECAR_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    max_bytes: int = DEFAULT_MAX_BYTES  # a file larger than this is refused unread
    max_pages: int = DEFAULT_MAX_PAGES  # a PDF with more pages is refused unparsed


def read_regular(path: Path, max_bytes: int) -> bytes:
    """The bytes of `path`, which must be a regular file (not a link, FIFO or device) of
    at most `max_bytes`. Opened without following a final link and without blocking, then
    checked on the open descriptor, so a file swapped after the walk is no way around."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if os.path.islink(path):
            raise ParseError("symbolic link, not followed") from None
        raise exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ParseError("not a regular file (a folder, FIFO, socket or device), not read")
        if info.st_size > max_bytes:
            raise ParseError(_too_large(info.st_size, max_bytes))
        data = handle.read(max_bytes + 1)  # the file may have grown since fstat
    if len(data) > max_bytes:
        raise ParseError(_too_large(len(data), max_bytes))
    return data


def _too_large(size: int, limit: int) -> str:
    return f"too large ({size / 1e6:.1f} MB > limit {limit / 1e6:.1f} MB)"


def check(kind: Kind, data: bytes, limits: Limits) -> None:
    """Refuse, before any parsing, a file whose declared content is beyond the caps its
    kind carries (`zipped`, `pages`: `preuve.registry.Kind`)."""
    if kind.zipped:
        check_zip(data, kind.name.upper())
    if kind.pages is not None:
        check_pages(kind.pages(data), limits.max_pages)


def check_zip(data: bytes, what: str = "DOCX") -> None:
    """A zip container's (a DOCX's) members as its zip directory declares them: count,
    total uncompressed size and compression ratio. What is then read cannot exceed what is
    declared: `zipfile` stops each member at its declared size and fails its CRC check if
    more was there."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise ParseError(f"corrupt or unreadable {what}: {exc}") from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise ParseError(f"zip with {len(members)} members (limit {MAX_ZIP_MEMBERS}), "
                         "not a document")
    total = sum(m.file_size for m in members)
    if total > MAX_UNZIPPED_BYTES:
        raise ParseError(f"unzips to {total / 1e6:.0f} MB (limit "
                         f"{MAX_UNZIPPED_BYTES / 1e6:.0f} MB uncompressed): refused as a "
                         "possible zip bomb")
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > _RATIO_FROM and ratio > MAX_ZIP_RATIO:
            raise ParseError(f"{member.filename} inflates {ratio:.0f} times (limit "
                             f"{MAX_ZIP_RATIO}): refused as a zip bomb")


def check_pages(pages: int | None, max_pages: int) -> None:
    """The page count a file declares against the cap (None: unknown, left to the parser)."""
    if pages is not None and pages > max_pages:
        raise ParseError(f"{pages} pages (limit {max_pages} pages; raise it with "
                         "--max-pages): not parsed")
