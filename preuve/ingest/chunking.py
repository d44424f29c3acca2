"""Cutting structural sections down to size, with overlap, without losing positions.

Sections arrive as a list of units (source lines, sentences or paragraphs), each with the
position it came from; windows are made of whole units so a chunk's first and last line
(or paragraph) stay exact. A single unit longer than the limit (a 5 MB line, a paragraph
without a break) is cut into word windows that all cite that unit's position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from preuve.models import BODY, Chunk

_SENTENCE_END = re.compile(r"(?<=[.!?…;:])\s+(?=[\"«“(\[]?[A-ZÀ-ÖØ-Þ0-9])")


def word_count(text: str) -> int:
    """Words as chunk sizes count them (the lines that fence a code block are not words:
    an HTML <pre> kept as code weighs what its text weighs)."""
    return len(text.split()) - len(_FENCE_LINE.findall(text))


_FENCE_LINE = re.compile(r"^(?:```|~~~)$", re.M)


def windows(sizes: Sequence[int], max_words: int, overlap_words: int) -> list[tuple[int, int]]:
    """Inclusive (first, last) unit ranges covering all units, each within `max_words`
    where possible, consecutive ranges sharing up to `overlap_words` of trailing units. A
    range that would hold only the overlap (the unit after it too long to join) is not
    made: it would be a second passage saying what the first one says."""
    out: list[tuple[int, int]] = []
    n, start = len(sizes), 0
    while start < n:
        end, total = start, sizes[start]
        while end + 1 < n and total + sizes[end + 1] <= max_words:
            end += 1
            total += sizes[end]
        if out and end <= out[-1][1]:  # nothing new: the next unit starts the next range
            start = out[-1][1] + 1
            continue
        out.append((start, end))
        if end >= n - 1:
            break
        nxt, back = end + 1, 0
        while nxt - 1 > start and back + sizes[nxt - 1] <= overlap_words:
            nxt -= 1
            back += sizes[nxt]
        start = nxt
    return out


def sentences(text: str) -> list[str]:
    """Split prose into sentences (good enough for French and English). A short line with
    no closing punctuation (a title such as "3.1 Nombre de jours") stands on its own."""
    parts: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        for block in _title_lines(paragraph.split("\n")):
            flat = " ".join(block.split())
            if flat:
                parts.extend(s for s in _SENTENCE_END.split(flat) if s)
    return parts


def _title_lines(lines: list[str]) -> list[str]:
    """Group wrapped lines back into blocks, cutting around title-like lines."""
    blocks: list[str] = []
    current: list[str] = []
    for line in lines:
        stripped = line.strip()
        title = (0 < len(stripped.split()) <= 8 and not stripped.endswith((".", ",", ";", ":"))
                 and stripped[:1].isupper() or stripped[:1].isdigit() and len(stripped) < 60
                 and not stripped.endswith((".", ",", ";")))
        if title:
            if current:
                blocks.append(" ".join(current))
            blocks.append(stripped)
            current = []
        elif stripped:
            current.append(stripped)
    if current:
        blocks.append(" ".join(current))
    return blocks


def split_words(text: str, max_words: int, overlap_words: int) -> list[str]:
    """Fixed-size word windows: the fallback for one over-long unit."""
    words = text.split()
    if len(words) <= max_words:
        return [text]
    step = max(1, max_words - overlap_words)
    return [" ".join(words[i:i + max_words]) for i in range(0, len(words) - overlap_words, step)]


# a code block as the index keeps it: its fence lines around its lines
_FENCED_BLOCK = re.compile(r"\A(```|~~~)\n(.*)\n\1\Z", re.S)


def split_block(block: str, max_words: int, overlap_words: int) -> list[str]:
    """One over-long block in pieces: a fenced code block (an HTML `<pre>`) by its lines,
    each piece fenced again, so that a command keeps its line and is quoted as code (a
    terminal session of 80 lines, "# apt install python3-certbot-apache" first); any
    other block by words (`split_words`)."""
    fenced = _FENCED_BLOCK.match(block)
    if fenced is None or word_count(block) <= max_words:
        return split_words(block, max_words, overlap_words)
    fence, lines = fenced.group(1), fenced.group(2).split("\n")
    return [f"{fence}\n" + "\n".join(lines[a:b + 1]) + f"\n{fence}"
            for a, b in windows([word_count(line) for line in lines], max_words,
                                overlap_words)]


def chunks_from_lines(
    lines: Sequence[str], first_line: int, max_words: int, overlap_words: int, **fields
) -> list[Chunk]:
    """Chunks of whole source lines; `first_line` is the 1-based number of `lines[0]`.
    Blank lines at a window's edges are trimmed so the cited range is the text shown."""
    out: list[Chunk] = []
    sizes = [word_count(line) for line in lines]
    for a, b in windows(sizes, max_words, overlap_words):
        while a <= b and not lines[a].strip():
            a += 1
        while b >= a and not lines[b].strip():
            b -= 1
        if a > b:
            continue
        if a == b and sizes[a] > max_words:  # one over-long line: pieces citing that line
            out.extend(Chunk(text=piece, start_line=first_line + a, end_line=first_line + a,
                             **fields)
                       for piece in split_words(lines[a], max_words, overlap_words))
            continue
        text = "\n".join(lines[a:b + 1])
        if out and out[-1].start_line == first_line + a and out[-1].end_line == first_line + b:
            continue
        out.append(Chunk(text=text, start_line=first_line + a, end_line=first_line + b, **fields))
    return out


FENCE_OPEN = re.compile(r"^ {0,3}(```|~~~)")  # a line that opens or closes a fence


def paragraphs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, last) indexes of the paragraphs of `lines`: runs of lines between blank
    lines, a fenced code block one paragraph with its blank lines."""
    out: list[tuple[int, int]] = []
    start, fence = None, None
    for i, line in enumerate(lines):
        match = FENCE_OPEN.match(line)
        if match:
            fence = None if fence == match.group(1) else (fence or match.group(1))
        if not line.strip() and fence is None:
            if start is not None:
                out.append((start, i - 1))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(lines) - 1))
    return out


def chunks_from_paragraphs(lines: Sequence[str], first_line: int, max_words: int,
                           overlap_words: int, **fields) -> list[Chunk]:
    """Chunks of whole paragraphs (`paragraphs`), `first_line` the 1-based number of
    `lines[0]`: a chunk starts where a paragraph, a list or a code block does, never in the
    middle of a sentence; a paragraph longer than `max_words` is cut by lines
    (`chunks_from_lines`)."""
    return _chunks_of_units(lines, paragraphs(lines), first_line, max_words, overlap_words,
                            fields)


def entries(lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, last) indexes of the entries of `lines`, a manual page's section: a
    paragraph at the section's margin with the more indented paragraphs after it (an
    option's line, "       -u, --uid UID", and the paragraphs that describe it); at the
    margin alone, the paragraphs themselves. The first paragraph, which holds the section's
    title at a smaller indent, is an entry of its own."""
    units = paragraphs(lines)
    if not units:
        return units
    indent = [len(lines[a]) - len(lines[a].lstrip()) for a, _ in units]
    margin = min(indent[1:] or indent)  # (the first opens on the section's title)
    out: list[tuple[int, int]] = []
    for (a, b), depth in zip(units, indent, strict=True):
        if out and depth > margin:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def chunks_from_entries(lines: Sequence[str], first_line: int, max_words: int,
                        overlap_words: int, **fields) -> list[Chunk]:
    """Chunks of whole entries (`entries`) of a manual page's section: an option is not
    cut from the paragraphs that describe it when they fit in a chunk together; an entry
    longer than `max_words` is cut between its paragraphs (`chunks_from_paragraphs`)."""
    def too_long(a: int, b: int) -> list[Chunk]:
        return chunks_from_paragraphs(lines[a:b + 1], first_line + a, max_words,
                                      overlap_words, **fields)
    return _chunks_of_units(lines, entries(lines), first_line, max_words, overlap_words,
                            fields, too_long=too_long)


def _chunks_of_units(lines, units, first_line, max_words, overlap_words, fields,
                     items: bool = True, too_long=None) -> list[Chunk]:
    """Windows of whole `units` as chunks; a unit longer than `max_words` is cut by
    `too_long(a, b)` when given, else between its list's items or by lines."""
    sizes = [sum(word_count(line) for line in lines[a:b + 1]) for a, b in units]
    out: list[Chunk] = []
    for first, last in windows(sizes, max_words, overlap_words):
        a, b = units[first][0], units[last][1]
        if first == last and sizes[first] > max_words and too_long is not None:
            out.extend(too_long(a, b))
            continue
        if first == last and sizes[first] > max_words:
            inner = list_items(lines, a, b) if items else []
            if len(inner) > 1:  # a long list: cut between its items
                out.extend(_chunks_of_units(lines, inner, first_line, max_words,
                                            overlap_words, fields, items=False))
            else:
                out.extend(chunks_from_lines(lines[a:b + 1], first_line + a, max_words,
                                             overlap_words, **fields))
            continue
        text = "\n".join(lines[a:b + 1])
        if not says_nothing(text):  # a rule ("----") alone is no passage
            out.append(Chunk(text=text, start_line=first_line + a, end_line=first_line + b,
                             **fields))
    return out


_ITEM_START = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def list_items(lines: Sequence[str], a: int, b: int) -> list[tuple[int, int]]:
    """The items of the list in lines a..b (each with its continuation lines), or [] when
    the lines are no list."""
    starts = [i for i in range(a, b + 1) if _ITEM_START.match(lines[i])]
    if not starts:
        return []
    starts = sorted({a} | set(starts))
    return [(start, (starts[k + 1] - 1) if k + 1 < len(starts) else b)
            for k, start in enumerate(starts)]


def _unit_windows(units: Sequence[str], max_words: int, overlap_words: int) -> list[str]:
    pieces: list[str] = []
    for unit in units:
        pieces.extend(split_words(unit, max_words, overlap_words))
    return ["\n".join(pieces[a:b + 1])
            for a, b in windows([word_count(p) for p in pieces], max_words, overlap_words)]


def cut(text: str, settings) -> list[str]:
    """A section of prose (a record, a PDF section) cut into chunk texts by
    `settings.strategy` (a `ChunkSettings`), each within `max_words` where possible:

    - "structure": paragraphs, title lines and sentences as units, windows of whole units
      overlapping by up to `overlap_words` (what preuve always did);
    - "sentence": sentences only (paragraph and title breaks ignored), windows of whole
      sentences;
    - "fixed": windows of exactly `max_words` words, `overlap_words` shared, boundaries
      ignored;
    - "recursive": paragraphs kept whole when they fit, else their sentences, else word
      windows; neighbours merged up to the size, with the overlap.
    """
    size, overlap = settings.max_words, settings.overlap_words
    if settings.strategy == "fixed":
        flat = " ".join(text.split())
        return split_words(flat, size, overlap) if flat else []
    if settings.strategy == "sentence":
        flat = " ".join(text.split())
        return _unit_windows([s for s in _SENTENCE_END.split(flat) if s], size, overlap)
    if settings.strategy == "recursive":
        units: list[str] = []
        for paragraph in re.split(r"\n\s*\n", text):
            flat = " ".join(paragraph.split())
            if not flat:
                continue
            if word_count(flat) <= size:
                units.append(flat)
            else:
                units.extend(s for s in _SENTENCE_END.split(flat) if s)
        return _unit_windows(units, size, overlap)
    return _unit_windows(sentences(text), size, overlap)


def chunks_from_text(text: str, settings, **fields) -> list[Chunk]:
    """`cut` as chunks carrying `fields` (page, heading, role...)."""
    return [Chunk(text=piece, **fields) for piece in cut(text, settings)]


def chunks_from_blocks(blocks: Sequence[tuple[str, str, int, int]], max_words: int,
                       overlap_words: int, roles: Sequence[str] | None = None) -> list[Chunk]:
    """Chunks of (heading path, text, first line, last line) blocks: one section per run
    of blocks under the same heading (and of the same role, when `roles` gives one per
    block), cut to size; positions span the blocks kept. A section that is only its own
    heading (followed at once by a sub-heading) is dropped: there is nothing in it to
    cite."""
    roles = list(roles) if roles is not None else [BODY] * len(blocks)
    chunks: list[Chunk] = []
    i = 0
    while i < len(blocks):
        j = i
        while (j + 1 < len(blocks) and blocks[j + 1][0] == blocks[i][0]
               and roles[j + 1] == roles[i]):
            j += 1
        section = blocks[i:j + 1]
        role = roles[i]
        i = j + 1
        if len(section) == 1 and section[0][0].endswith(section[0][1]):
            continue
        sizes = [word_count(t) for _, t, _, _ in section]
        for a, b in windows(sizes, max_words, overlap_words):
            part = section[a:b + 1]
            if a == b and sizes[a] > max_words:  # one over-long block: pieces citing it
                _, block, first, last = part[0]
                chunks.extend(Chunk(text=piece, heading=section[0][0], start_line=first,
                                    end_line=last)
                              for piece in split_block(block, max_words, overlap_words))
                continue
            chunks.append(Chunk(
                text="\n".join(t for _, t, _, _ in part), heading=section[0][0],
                start_line=min(s for _, _, s, _ in part), end_line=max(e for _, _, _, e in part),
                role=role,
            ))
    return chunks


def says_nothing(text: str) -> bool:
    """One word or none (`else:`, `end`, `})(this);`, `main()`): lines left over that
    nobody searches for, never a chunk of their own."""
    return len(_WORD.findall(text)) <= 1


_WORD = re.compile(r"\w+")


def merge_spans(spans, gap: int = 2) -> list[list[int]]:
    """(first, last) line spans in order, those at most `gap` lines apart merged into one:
    the lines a file's definitions leave over become a few windows, not one per line."""
    merged: list[list[int]] = []
    for first, last in spans:
        if merged and first - merged[-1][1] <= gap:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return merged


def in_line_order(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks sorted by their lines, each (lines, symbol) once: two definitions of one
    name on one line (shell's `IFS=...; x=...; IFS=...`) are one place to cite."""
    seen: set[tuple] = set()
    out = []
    for chunk in sorted(chunks, key=lambda c: (c.start_line, c.end_line)):
        key = (chunk.start_line, chunk.end_line, chunk.symbol, chunk.text)
        if key not in seen:
            seen.add(key)
            out.append(chunk)
    return out
