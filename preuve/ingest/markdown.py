"""Markdown and plain text: sections by heading, each chunk with its heading path and
exact source lines (front matter lines counted, fenced code never read as headings).
A table of contents (a list of only links to anchors) becomes chunks of role
"navigation"."""

from __future__ import annotations

import re

from preuve.ingest.base import ChunkSettings, Parsed, decode_text
from preuve.ingest.chunking import chunks_from_lines
from preuve.ingest.metadata import split_front_matter
from preuve.ingest.navigation import BODY, NAVIGATION

# ATX heading; a closing run of # is only stripped when a space precedes it ("C#" stays)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
# A list item that is only a link to an anchor: "- [Install](#install)", "1. [FAQ](faq.md#top)"
_TOC_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]+\]\([^)\s]*#[^)\s]*\)\s*$")
_MIN_TOC_ITEMS = 2


def navigation_spans(lines: list[str]) -> list[tuple[int, int, str]]:
    """(first, last, role) spans covering `lines` (0-based, inclusive): each run of at
    least two table-of-contents items (blank lines between them allowed) is navigation,
    with the heading lines just above it (a "## Contents" over its list); the rest is body."""
    spans: list[tuple[int, int, str]] = []
    i, n = 0, len(lines)
    while i < n:
        j, items = i, 0
        while j < n and (_TOC_ITEM.match(lines[j]) or not lines[j].strip()):
            items += bool(lines[j].strip())
            j += 1
        if items >= _MIN_TOC_ITEMS:
            start = i
            if spans and spans[-1][2] == BODY and all(
                    _HEADING.match(ln) or not ln.strip()
                    for ln in lines[spans[-1][0]:spans[-1][1] + 1]):
                start = spans.pop()[0]
            spans.append((start, j - 1, NAVIGATION))
            i = j
            continue
        j = max(j, i + 1)
        if spans and spans[-1][2] == BODY:
            spans[-1] = (spans[-1][0], j - 1, BODY)
        else:
            spans.append((i, j - 1, BODY))
        i = j
    return spans


def parse_markdown(data: bytes, settings: ChunkSettings) -> Parsed:
    meta, body, offset = split_front_matter(decode_text(data))
    lines = body.split("\n")
    stack: list[tuple[int, str]] = []
    sections: list[tuple[str, int, int]] = []  # heading path, first index, last index
    start, path, fence, title = 0, "", None, ""
    for i, line in enumerate(lines):
        fence_match = _FENCE.match(line)
        if fence_match:
            marker = fence_match.group(1)
            fence = None if fence == marker else (fence or marker)
            continue
        match = None if fence else _HEADING.match(line)
        if not match:
            continue
        sections.append((path, start, i - 1))
        level, text = len(match.group(1)), match.group(2).strip()
        title = title or (text if level == 1 else "")
        stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, text)]
        path, start = " > ".join(t for _, t in stack), i
    sections.append((path, start, len(lines) - 1))
    chunks = []
    for heading, a, b in sections:
        body_lines = [ln for ln in lines[a:b + 1] if ln.strip() and not _HEADING.match(ln)]
        if not body_lines:
            continue
        for first, last, role in navigation_spans(lines[a:b + 1]):
            chunks.extend(
                chunks_from_lines(lines[a + first:a + last + 1], offset + a + first + 1,
                                  settings.max_words, settings.overlap_words,
                                  heading=heading, role=role)
            )
    return Parsed(title=str(meta.get("title") or title), chunks=chunks, meta=meta,
                  language_sample=body)


def parse_text(data: bytes, settings: ChunkSettings) -> Parsed:
    """Plain text: paragraphs grouped by size; front matter honoured like Markdown."""
    meta, body, offset = split_front_matter(decode_text(data))
    lines = body.split("\n")
    chunks = chunks_from_lines(lines, offset + 1, settings.max_words, settings.overlap_words)
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    return Parsed(title=str(meta.get("title") or first[:120]), chunks=chunks, meta=meta,
                  language_sample=body)
