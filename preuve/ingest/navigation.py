"""Recognising navigation text: tables of contents, indexes, lists of figures or tables.

Such text repeats every section title next to a page number, so it matches most questions
and answers none. Parsers mark it with the chunk role "navigation"; retrieval leaves those
chunks out unless asked (`--navigation`). Pure functions over lines of text, shared by
the PDF, HTML and Markdown parsers.
"""

from __future__ import annotations

import re

from preuve.models import BODY, NAVIGATION

__all__ = ["BODY", "NAVIGATION", "is_navigation", "is_navigation_title",
           "is_strong_reference", "is_title_only", "only_refers", "trailing_page"]

# Titles of navigation pages (English, French), the whole line, any case.
_TITLES = re.compile(
    r"^\s*(table of contents|contents|index|list of (figures|tables|illustrations)|"
    r"table des mati[eè]res|sommaire|index alphab[eé]tique|"
    r"liste des (figures|tableaux|illustrations)|table des (figures|illustrations))\s*$",
    re.IGNORECASE,
)
# Dot (or middle-dot, ellipsis) leaders: "Installation . . . . . . 12", "Setup ......... 4".
_LEADERS = re.compile(r"(\.\s?){4,}|…{2,}|(·\s?){4,}")
# Index entries: a term and several page numbers, "apt-get, 12, 45" or "bash, 7-9".
_INDEX_ENTRY = re.compile(r"\S.*?,\s*\d{1,4}([-–]\d{1,4})?(,\s*\d{1,4}([-–]\d{1,4})?)*$")
# Text ending in one page number ("3.2 Booting 42"), or a page number alone (an entry
# whose number the layout put on a line of its own).
_PAGE = re.compile(r"\(?(\d{1,4}|[ivxlcdm]{1,7})\)?", re.IGNORECASE)

# Leaders and index entries are strong signs; a trailing number alone is weak (table rows
# end in numbers too): weak lines count when their numbers mostly go up, like pages.
_MIN_STRONG, _SHARE, _SHARE_UNDER_TITLE = 3, 0.5, 0.25
_MIN_WEAK, _WEAK_SHARE, _ASCENDING = 5, 0.6, 0.8


def is_navigation_title(line: str) -> bool:
    """"Contents", "Table des matières", "Sommaire", "Index", "List of figures"..."""
    return _TITLES.match(line) is not None


def is_strong_reference(line: str) -> bool:
    """A table-of-contents line with dot leaders, or an index entry with page numbers."""
    line = line.strip()
    leaders = ". ." in line or "...." in line or "…" in line or "·" in line
    return ((leaders and _LEADERS.search(line) is not None)
            or (line[-1:].isdigit() and "," in line and _INDEX_ENTRY.fullmatch(line) is not None))


def trailing_page(line: str) -> str | None:
    """The page reference a line ends with ("12", "iv"), or None."""
    words = line.split()
    match = _PAGE.fullmatch(words[-1]) if words else None
    return match.group(1) if match else None


def is_navigation(lines: list[str]) -> bool:
    """Whether a block of lines (a page, or a section of one) is navigation: half of its
    lines entries with leaders or index page lists, or a quarter of them page references
    under a navigation title, or most lines ending in page numbers that go up."""
    kept = [line.strip() for line in lines if line.strip()]
    if not kept:
        return False
    strong_lines = [is_strong_reference(line) for line in kept]
    strong = sum(strong_lines)
    weak = [page for page, is_strong in zip(map(trailing_page, kept), strong_lines, strict=True)
            if page is not None and not is_strong]
    share = (strong + len(weak)) / len(kept)
    if any(is_navigation_title(line) for line in kept[:3]):
        return len(kept) == 1 or share >= _SHARE_UNDER_TITLE
    if strong >= _MIN_STRONG and share >= _SHARE:
        return True
    numbers = [int(p) for p in weak if p.isdigit()]
    rising = sum(b >= a for a, b in zip(numbers, numbers[1:], strict=False))
    return (len(numbers) >= _MIN_WEAK and share >= _WEAK_SHARE
            and rising >= _ASCENDING * (len(numbers) - 1))


# Words of a chapter's title page besides its title: "Chapitre 12", "Table of Contents".
_TITLE_PAGE_WORDS = frozenset(
    "chapter chapitre appendix annexe part partie section table of contents des matieres "
    "matières index sommaire".split())
_WORD = re.compile(r"\w+", re.UNICODE)
_TITLE_ONLY_WORDS = 20


def is_title_only(text: str, context: list[str]) -> bool:
    """Whether a passage only repeats its titles: a chapter's title page ("Chapitre 12 /
    Obtenir de l'aide"), a section heading left alone with "Table of Contents", a running
    header cut by an ellipsis. Nothing in it answers anything, and a short text sits close
    to many questions in meaning, so it would take the place of a passage that does.
    `context` holds the document's title and the passage's heading path."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not line.endswith(("…", "..."))]
    words = [w for line in lines for w in _WORD.findall(line.casefold())]
    if len(words) > _TITLE_ONLY_WORDS:
        return False
    known = {w for part in context for w in _WORD.findall((part or "").casefold())}
    return all(w in known or w in _TITLE_PAGE_WORDS or len(w) == 1
               or w.isdigit() or _PAGE.fullmatch(w) is not None for w in words)


# "SEE ALSO / gitignore(5)": a manual page's references to other pages, "ls(1), stat(1)"
_PAGE_REFERENCE = re.compile(r"^[\w.+:@-]+\(\d\w{0,3}\)[,.;]?$")
_JOINING = frozenset({"and", "or", "et", "ou", ",", "see", "voir", "also", "aussi"})


def only_refers(text: str, context: list[str]) -> bool:
    """Whether a passage, besides its titles, only names other manual pages ("SEE ALSO
    gitignore(5)"): like a title page, it answers nothing and sits close to every question
    about its page."""
    known = {line.strip().casefold() for part in context for line in (part or "").split(" > ")}
    lines = [line.strip() for line in text.splitlines()
             if line.strip() and line.strip().casefold() not in known]
    words = [w for line in lines for w in line.split()]
    references = [w for w in words if _PAGE_REFERENCE.match(w)]
    return bool(references) and len(words) <= _TITLE_ONLY_WORDS and all(
        _PAGE_REFERENCE.match(w) or w.casefold() in _JOINING for w in words)
