"""What a careful reader does with the lines of a PDF, as pure functions: drop running
headers, footers and page numbers, mend ligatures and words hyphenated at line ends, find
headings (from the outline, else numbered or larger lines) and cut the text into pieces
that each belong to one section and one page.

`preuve.ingest.pdf` reads the `Line`s with pdfium; nothing here touches a PDF.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from preuve.ingest.navigation import is_strong_reference, trailing_page

# pdfium writes U+FFFE (or \x02) for a hyphen it judged to break a word at a line end,
# and joins the two lines; `join_hyphenated` decides whether the hyphen stays.
BREAK_HYPHEN = "\ufffe"
# Ligatures a font may map to one code point; the soft hyphen.
_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi",
                            "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st",
                            "\u00ad": None, "\x02": BREAK_HYPHEN})
_BREAK = re.compile(r"([^\W\d_]+)\ufffe(\S+)")
_LINE_END_BREAK = re.compile(r"[^\W\d_][-\ufffe]$")

# A running header or footer lives in the top or bottom EDGE of the page (share of height).
EDGE = 0.15
_DIGITS = re.compile(r"\d+")
# a running header's words at most, and the end of a sentence (not a header)
_HEADER_WORDS = 12
_SENTENCE_END = re.compile(r"[.!?:;,]$")
_ROMAN = re.compile(r"(?<!\w)[ivxlcdm]{1,7}(?!\w)", re.IGNORECASE)
_PAGE_NUMBER = re.compile(
    r"^[\W_]*((page|p\.)\s*)?(\d{1,4}|[ivxlcdm]{1,7})(\s*(/|of|sur|de|on)\s*\d{1,4})?[\W_]*$",
    re.IGNORECASE)
_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(?=\S)")
_LABEL = re.compile(r"^\s*(chapter|chapitre|part|partie|appendix|annexe)\s+[\w.]+\s*$",
                    re.IGNORECASE)
_LABEL_PREFIX = re.compile(r"^\s*(chapter|chapitre|part|partie|appendix|annexe)\s+\w+\b")
_NOT_ALNUM = re.compile(r"[\W_]+")
_WORD = re.compile(r"[^\W\d_]+")
_PUNCTUATION = ".,;:!?()[]{}«»\"'“”‘’"
# A heading is a short line that does not end like a sentence.
_HEADING_WORDS = 14
_HEADING_SIZE_RATIO = 1.12  # larger than the body text by this much


# An outline entry: (level from 1, title, 0-based page, share of the page height above its
# target, or None when the bookmark names only the page).
Bookmark = tuple[int, str, int, float | None]


@dataclass
class Line:
    """One line of a page as pdfium laid it out. `top` is the share of the page height
    above the line (0: top edge, 1: bottom); `size` the font size of its first character,
    `bold` whether that font is bold."""

    text: str
    page: int  # 0-based page index
    top: float = 0.5
    size: float = 0.0
    bold: bool = False


def clean(text: str) -> str:
    """NFC text with ligatures spelt out, soft hyphens removed and accents set apart put
    back on their letters (`compose_accents`); pdfium's break-hyphen marker is kept as
    BREAK_HYPHEN: `join_hyphenated` reads it."""
    if text.isascii():
        text = text.replace("\x02", BREAK_HYPHEN) if "\x02" in text else text
        return compose_accents(text) if "`" in text else text
    text = compose_accents(text.translate(_LIGATURES))
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


# TeX's old font encoding (OT1) draws an accent as a glyph of its own before its letter,
# and pdfium reads "temp´erature", "`a", "ˆetre", "fran¸cais", "na¨ıf": each spacing
# accent -> the combining one it stands for
_SPACING_ACCENTS = {"\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u00a8": "\u0308",
                    "\u02dc": "\u0303", "\u02c7": "\u030c", "\u02da": "\u030a",
                    "\u00b8": "\u0327", "\u02d8": "\u0306", "\u02d9": "\u0307",
                    "\u02dd": "\u030b"}
_ACCENT_THEN_LETTER = re.compile("([" + "".join(_SPACING_ACCENTS) + r"])([^\W\d_]|ı)")


def compose_accents(text: str) -> str:
    """Each spacing accent directly before a letter put back on it ("temp´erature" ->
    "température", "`a" -> "à", "na¨ıf" -> "naïf"), when the two make one letter. A
    backtick is a grave accent only before a, e or u, on a line where every backtick is
    (`ls`, `echo hello` are code: a backtick closes them)."""
    graves = "`" in text and all(_GRAVE.match(text, i + 1)
                                 for i, c in enumerate(text) if c == "`")

    def composed(match: re.Match[str]) -> str:
        accent, letter = match.groups()
        if accent == "`" and not graves:
            return match.group()
        one = unicodedata.normalize("NFC", ("i" if letter == "ı" else letter)
                                    + _SPACING_ACCENTS[accent])
        return one if len(one) == 1 else match.group()
    return _ACCENT_THEN_LETTER.sub(composed, text)


_GRAVE = re.compile(r"[aeuAEU]")


# -- running headers, footers and page numbers -------------------------------------------
def furniture_key(text: str) -> str:
    """A line with its numbers (arabic and roman) blanked and spaces folded, so that
    "Chapter 3. Setup 42" and "Chapter 3. Setup 43" give the same key."""
    text = _ROMAN.sub("#", _DIGITS.sub("#", text.casefold()))
    return " ".join(text.split())


def in_edge(line: Line) -> bool:
    return line.top < EDGE or line.top > 1 - EDGE


def is_page_number(text: str) -> bool:
    """"12", "- 12 -", "Page 3 of 40", "iv", "12 / 233"."""
    return _PAGE_NUMBER.match(text.strip()) is not None


def repeated_edge_keys(pages: list[list[Line]]) -> set[str]:
    """Keys of the lines found in the top or bottom edge of several pages: a key on at
    least three pages (two when the document has three pages or fewer)."""
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({furniture_key(ln.text) for ln in lines if in_edge(ln)})
    least = 2 if len(pages) <= 3 else 3
    return {key for key, n in counts.items() if n >= least and key.strip("# ")}


def is_furniture(line: Line, keys: set[str], number: str | None = None) -> bool:
    """A running header or footer (its key repeats across pages, or it carries the page's
    printed `number`) or a bare page number, in the page's edge."""
    return in_edge(line) and (is_page_number(line.text) or furniture_key(line.text) in keys
                              or carries_page_number(line.text, number))


def carries_page_number(text: str, number: str | None) -> bool:
    """A short title line ending with the page's printed number ("4.9 Créer des
    présentations 109"), or opening with it from page 10 on ("108 Chapitre 4.
    Compléments"): a running header that names its section, found on too few pages for
    its key to repeat. A line that ends as a sentence does is text."""
    words = text.split()
    if not number or len(words) < 2 or len(words) > _HEADER_WORDS:
        return False
    if words[-1] == number:
        return not _SENTENCE_END.search(" ".join(words[:-1]))
    return len(number) > 1 and words[0] == number and not _SENTENCE_END.search(text)


# -- words hyphenated at line ends -------------------------------------------------------
def vocabulary(lines: list[Line]) -> tuple[set[str], set[str]]:
    """(words, hyphenated compounds) written whole somewhere in the text, lower case; the
    pieces of words broken at line ends do not count."""
    text = "\n".join(_whole_words(ln.text) for ln in lines).casefold()
    tokens = {token.strip(_PUNCTUATION) for token in set(text.split())}
    return ({t for t in tokens if t.isalpha()},
            {t for t in tokens if "-" in t.strip("-") and t.replace("-", "").isalpha()})


def _whole_words(line: str) -> str:
    """The line without the pieces of a word broken at its end or marked by pdfium."""
    if line.endswith("-"):
        line = line.rsplit(" ", 1)[0] if " " in line else ""
    if BREAK_HYPHEN in line:
        line = " ".join(t for t in line.split() if BREAK_HYPHEN not in t)
    return line


def _breaks_into(line: str, nxt: str) -> bool:
    """A line ending in a letter and a hyphen, before a line that starts with a letter."""
    line = line.rstrip()
    return (line.endswith(("-", BREAK_HYPHEN)) and nxt.lstrip()[:1].isalpha()
            and _LINE_END_BREAK.search(line) is not None)


def mend_break(head: str, tail: str, words: set[str], compounds: set[str]) -> str:
    """The word that `head` (before the line-end hyphen) and `tail` (the rest, up to the
    next space) make: joined ("configu" + "ration" -> "configuration") unless the hyphen
    is real: the tail starts with a capital or a digit, the compound is written with its
    hyphen elsewhere, or both halves are words of the text ("well-known")."""
    bare = tail.rstrip(".,;:!?)]»\"'”’")
    joined, hyphened = head + tail, f"{head}-{tail}"
    if not tail[:1].islower():
        return hyphened
    if (head + bare).casefold() in words:
        return joined
    if f"{head}-{bare}".casefold() in compounds:
        return hyphened
    if head.casefold() in words and bare.casefold() in words and min(len(head), len(bare)) > 2:
        return hyphened
    return joined


def join_hyphenated(lines: list[Line]) -> list[Line]:
    """Lines with each word broken by a hyphen at a line end made whole again on the
    first line (so its page is the page where the word starts). pdfium marks the breaks
    it recognises itself (and joins those lines); a plain "-" ending a line is one too."""
    ends = [i for i in range(len(lines) - 1) if _breaks_into(lines[i].text, lines[i + 1].text)]
    if not ends and not any(BREAK_HYPHEN in ln.text for ln in lines):
        return lines
    words, compounds = vocabulary(lines)
    out = list(lines)
    touched = {j for i in ends for j in (i, i + 1)}
    touched |= {i for i, line in enumerate(lines) if BREAK_HYPHEN in line.text}
    for i in touched:
        out[i] = dataclasses.replace(out[i])  # the caller's lines stay as they were
    for i in ends:
        text, nxt = out[i].text.rstrip(), out[i + 1].text.lstrip()
        if not _breaks_into(text, nxt):  # the next line was itself mended and moved up
            continue
        tail = nxt.split(" ", 1)[0]
        out[i].text = text[:-1] + BREAK_HYPHEN + tail
        out[i + 1].text = nxt[len(tail):].lstrip()

    def mend(match: re.Match) -> str:
        return mend_break(match.group(1), match.group(2), words, compounds)

    for line in out:
        if BREAK_HYPHEN in line.text:
            line.text = _BREAK.sub(mend, line.text).replace(BREAK_HYPHEN, "-")
    return [ln for ln in out if ln.text.strip()]


# -- headings ----------------------------------------------------------------------------
def comparable(title: str) -> str:
    """A title reduced for matching an outline entry to a line: lower case, letters and
    digits only, without a leading section number or "Chapter N"."""
    title = _NUMBERED.sub("", _LABEL_PREFIX.sub("", title.casefold()).strip())
    return _NOT_ALNUM.sub("", title)


def outline_headings(lines: list[Line], outline: list[Bookmark]) -> dict[int, tuple[int, str]]:
    """{line index: (level, title)} for the outline's (level, title, page, top) entries:
    each placed on the line of its page that reads as its title (the nearest to `top`
    when several do), else on the first line at or below `top` on that page."""
    by_page: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        by_page.setdefault(line.page, []).append(i)
    found: dict[int, tuple[int, str]] = {}
    reduced: dict[int, str] = {}
    for level, title, page, top in outline:
        candidates = by_page.get(page, [])
        want = comparable(title)
        if not candidates or not want:
            continue
        longest = 2 * len(title) + 40  # a line much longer than the title is not it
        for i in candidates:
            if i not in reduced:
                text = lines[i].text
                reduced[i] = comparable(text) if len(text) <= 200 else ""
        matches = [i for i in candidates
                   if len(lines[i].text) <= longest and _reads_as(reduced[i], want)]
        if matches:
            at = min(matches, key=lambda i: abs(lines[i].top - (top if top is not None else 0)))
        else:
            below = [i for i in candidates if top is None or lines[i].top >= top - 0.01]
            if not below:
                continue
            at = below[0]
        if at > 0 and lines[at - 1].page == page and _LABEL.match(lines[at - 1].text):
            at -= 1  # "Chapter 3" printed above the title opens the section
        found.setdefault(at, (level, title.strip()))
    return found


def _reads_as(line: str, title: str) -> bool:
    return bool(line) and (line == title or (len(line) >= 8 and title.startswith(line))
                           or (len(title) >= 8 and line.endswith(title)))


def body_size(lines: list[Line]) -> float:
    """The font size most characters are set in."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def looks_like_heading(line: Line, body: float) -> bool:
    """A short line, not a sentence nor a contents entry, set larger than the body text
    or numbered ("3.2 Title") and bold."""
    text = line.text.strip()
    if (not text or len(text.split()) > _HEADING_WORDS or text.endswith((".", ",", ";", ":"))
            or not _WORD.search(text) or is_strong_reference(text)):
        return False
    numbered = _NUMBERED.match(text) is not None
    if numbered and trailing_page(text) is not None:
        return False  # "3.2 Booting 42": a contents entry
    larger = body > 0 and line.size >= body * _HEADING_SIZE_RATIO
    return larger or (numbered and line.bold and line.size >= body - 0.5)


def font_headings(lines: list[Line]) -> dict[int, tuple[int, str]]:
    """{line index: (level, title)} found from the type when there is no outline.
    Numbered headings take their depth as level ("3.2" -> 2); others rank by size (the
    largest is level 1). A heading wrapped over consecutive lines of one size is one."""
    body = body_size(lines)
    marks = [looks_like_heading(line, body) for line in lines]
    groups: list[list[int]] = []
    for i, mark in enumerate(marks):
        if not mark:
            continue
        prev = groups[-1][-1] if groups else None
        if (prev == i - 1 and lines[prev].page == lines[i].page
                and abs(lines[prev].size - lines[i].size) < 0.2
                and _NUMBERED.match(lines[i].text.strip()) is None):
            groups[-1].append(i)
        else:
            groups.append([i])
    sizes = sorted({round(lines[g[0]].size, 1) for g in groups
                    if _NUMBERED.match(lines[g[0]].text.strip()) is None}, reverse=True)
    found: dict[int, tuple[int, str]] = {}
    for group in groups:
        first = lines[group[0]]
        title = " ".join(lines[i].text.strip() for i in group)
        numbered = _NUMBERED.match(first.text.strip())
        if numbered:
            level = numbered.group(1).count(".") + 1
        else:
            level = sizes.index(round(first.size, 1)) + 1
        found[group[0]] = (level, title)
        for i in group[1:]:
            found[i] = (0, "")  # continuation of the heading above: same section
    return found


# -- pieces: one section on one page -------------------------------------------------------
@dataclass
class Piece:
    """The lines of one section that lie on one page, with the section's heading path.
    `heading_lines` counts the leading lines that are the heading itself."""

    heading: str
    page: int
    lines: list[str]
    heading_lines: int = 0


def pieces(lines: list[Line], headings: dict[int, tuple[int, str]]) -> list[Piece]:
    """Cut the lines where a section starts and where a page ends; each piece carries
    the heading path ("Chapter > Section") in force at its start."""
    out: list[Piece] = []
    stack: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        level, title = headings.get(i, (None, ""))
        starts = level is not None and level > 0
        if starts:
            stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, title)]
        path = " > ".join(t for _, t in stack)
        if starts or not out or out[-1].page != line.page:
            out.append(Piece(path, line.page, []))
        piece = out[-1]
        if level is not None and len(piece.lines) == piece.heading_lines:
            piece.heading_lines += 1  # the heading line itself, or its continuation
        piece.lines.append(line.text)
    return out


# a title page: at most this many words, no line of TITLE_LINE_WORDS words or more
TITLE_PAGE_WORDS = 60
TITLE_LINE_WORDS = 10
_SENTENCE_STOP = re.compile(r"[^\W\d_]{2,}[.!?]$")


def is_title_page(lines: list[str], page: int) -> bool:
    """Whether the lines of a document's first page are its title page (a title, its
    authors, an institution, a version and a date: no sentence), which answers no question
    and, being short, lies near every question in meaning (trial 31: a manual's cover
    ranked first for questions about the device it documents)."""
    kept = [line.strip() for line in lines if line.strip()]
    words = sum(len(line.split()) for line in kept)
    return (page == 0 and 0 < words <= TITLE_PAGE_WORDS
            and all(len(line.split()) < TITLE_LINE_WORDS and not _SENTENCE_STOP.search(line)
                    for line in kept))
