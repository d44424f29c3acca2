"""Markdown and plain text: sections by heading (Markdown's "#" and underlined titles, plain
text's and reStructuredText's underlined titles, a manual page's section titles as `man`
renders them), each chunk whole paragraphs with its heading path and exact source lines
(front matter lines counted, fenced code never read as headings).
A table of contents (a list of only links to anchors) becomes chunks of role
"navigation"."""

from __future__ import annotations

import re
from dataclasses import replace

from preuve.ingest.base import ChunkSettings, Parsed, decode_text
from preuve.ingest.chunking import (
    FENCE_OPEN,
    chunks_from_entries,
    chunks_from_paragraphs,
    word_count,
)
from preuve.ingest.metadata import split_front_matter
from preuve.ingest.navigation import BODY, NAVIGATION
from preuve.models import Chunk

# ATX heading; a closing run of # is only stripped when a space precedes it ("C#" stays)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
# A list item that is only a link to an anchor: "- [Install](#install)", "1. [FAQ](faq.md#top)",
# "* **[Usage](#usage)**"
_TOC_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+([*_]{0,2})\[[^\]]+\]\([^)\s]*#[^)\s]*\)\1\s*$")
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


# An underlined title (Markdown's setext "Title" over "=====", reStructuredText's and
# plain text's "Title" over "-----", "~~~~", "^^^^"…; reStructuredText may put the same
# line over it too): one character repeated, at least three times
_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+_:.])\1{2,}\s*$")
_MARKDOWN_UNDERLINES = "=-"
_TITLE_CHARS = 80  # a longer line over a rule is a paragraph's, not a title


def headings(lines: list[str], atx: bool, underlines: str) -> dict[int, tuple[int, str, int]]:
    """The headings of `lines`, outside fenced code: {index of the first line: (level,
    text, index of the last line)}. `atx`: "## Title" lines (Markdown); `underlines`: the
    characters an underlined title may use ("=-" for Markdown's setext headings, every
    one for reStructuredText and plain text), levels in the order their styles first
    appear (Markdown: "=" 1, "-" 2)."""
    out: dict[int, tuple[int, str, int]] = {}
    styles: list[tuple[str, bool]] = [("=", False), ("-", False)] if underlines == \
        _MARKDOWN_UNDERLINES else []
    fence = None
    i = 0
    while i < len(lines):
        line = lines[i]
        fence_match = FENCE_OPEN.match(line)
        if fence_match:
            marker = fence_match.group(1)
            fence = None if fence == marker else (fence or marker)
            i += 1
            continue
        if fence:
            i += 1
            continue
        match = _HEADING.match(line) if atx else None
        if match:
            out[i] = (len(match.group(1)), match.group(2).strip(), i)
            i += 1
            continue
        over = _UNDERLINE.match(line)
        first, title_at = (i, i + 1) if over else (i, i)
        title = lines[title_at].rstrip() if title_at < len(lines) else ""
        under = _UNDERLINE.match(lines[title_at + 1]) if title_at + 1 < len(lines) else None
        if under and title.strip() and not title[:1].isspace() and len(title) <= _TITLE_CHARS \
                and under.group(1) in underlines and len(lines[title_at + 1].strip()) >= \
                min(len(title.strip()), 3) and (first == 0 or not lines[first - 1].strip()) \
                and (not over or over.group(1) == under.group(1)) and not _UNDERLINE.match(title):
            style = (under.group(1), bool(over))
            if style not in styles:
                styles.append(style)
            out[first] = (styles.index(style) + 1, title.strip(), title_at + 1)
            i = title_at + 2
            continue
        i += 1
    return out


_COMMENT_OPEN = re.compile(r"^\s*<!--")
_MYST_TARGET = re.compile(r"^\s*\([\w.:-]+\)=\s*$")
# reStructuredText's explicit markup: a directive (".. code-block:: python", ".. tabs::",
# ".. currentmodule:: click": its indentation and name), a comment, a link target
# (".. _label:"); the answerer reads it too (`extractive.rst_markup`)
RST_MARKUP = re.compile(r"^([ \t]*)\.\.[ \t]+(?:([\w:.-]+)::|_|\S)")


# a reStructuredText comment: ".." alone on its line, or before text that is no directive
# (".. note::"), link target (".. _label:"), footnote (".. [#]") or substitution (".. |x|")
_RST_COMMENT = re.compile(r"^([ \t]*)\.\.(?:[ \t]*$|[ \t]+(?![\[_|]|[\w:.-]+::)\S)")


# reStructuredText's own markup: a directive (".. note::") or a link target (".. _label:")
_RST_SIGN = re.compile(r"^[ \t]*\.\.[ \t]+(?:[\w:.-]+::|_[^:\n]+:)")


def without_rst_comments(lines: list[str]) -> list[str]:
    """`lines` with reStructuredText's comments blank, line for line: ".." and the lines
    indented under it (setuptools' ".. TODO: A previous generation of this document…",
    which a reader of the page never sees, won a question in trial 111). Only in a text
    written in reStructuredText (a directive or a link target somewhere): a plain text's
    ".. the parent directory" is its text."""
    if not any(_RST_SIGN.match(line) for line in lines):
        return lines
    out = list(lines)
    i = 0
    while i < len(out):
        comment = _RST_COMMENT.match(out[i])
        if comment is None:
            i += 1
            continue
        margin = len(comment.group(1).expandtabs())
        out[i] = ""
        i += 1
        while i < len(out) and (not out[i].strip()
                                or len(out[i]) - len(out[i].lstrip()) > margin):
            out[i] = ""
            i += 1
    return out


def without_comments(lines: list[str]) -> list[str]:
    """`lines` with the HTML comments that fill lines of their own blank (Node.js's
    "<!-- YAML added: v0.1.90 … -->" change history: a reader of the page never sees
    them), and MyST's link targets ("(compatibility-requirements)=" above a heading, in
    pip's and other Sphinx projects' Markdown), line for line."""
    out = ["" if _MYST_TARGET.match(line) else line for line in lines]
    i = 0
    while i < len(out):
        if _COMMENT_OPEN.match(out[i]):
            end = i
            while end < len(out) and "-->" not in out[end]:
                end += 1
            if end < len(out) and not out[end].split("-->", 1)[1].strip():
                out[i:end + 1] = [""] * (end + 1 - i)
                i = end
        i += 1
    return out


# A MyST directive written as a fence: "````{tab} Linux", "```{note}", "```{versionadded} 20.1",
# ":::{glossary}"
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,}|:{3,})[ \t]*(.*?)[ \t]*$")
_MYST_DIRECTIVE = re.compile(r"^\{([\w:-]+)\}[ \t]*(.*)$")
_MYST_OPTION = re.compile(r"^[ \t]*:[\w-]+:")  # ":class: dropdown" under the opening line
# the directives whose content is Markdown a reader sees as text (admonitions, tabs, cards,
# version notes), not code: every other directive's fence stays a code block
MYST_CONTAINERS = frozenset("""admonition attention caution danger error hint important note
    seealso tip warning versionadded versionchanged deprecated topic sidebar margin rubric
    dropdown tab tab-item tab-set tabbed card grid grid-item grid-item-card div container
    """.split())
_VERSION_NOTES = frozenset({"versionadded", "versionchanged", "deprecated"})


def myst_containers(lines: list[str]) -> list[str]:
    """`lines` with the fences of MyST's text directives opened: in Markdown written for
    Sphinx (pip's docs), "````{tab} Linux" / "```" / "~/.cache/pip" / "```" / "````" holds
    a code block under a tab named Linux, not code that runs to the next fence. The opening
    line keeps its argument ("Linux"; a version note its name too, "versionadded 20.1";
    blank without one), its options and the closing fence are blanked, line for line; the
    code blocks inside stay as written."""
    out = list(lines)
    open_fences: list[tuple[str, int, bool]] = []  # (fence character, length, a directive)
    options = False  # right under a directive's opening line
    for i, line in enumerate(lines):
        fence = _FENCE_LINE.match(line)
        if options and _MYST_OPTION.match(line):
            out[i] = ""
            continue
        options = False
        if fence is None:
            continue
        mark, rest = fence.group(1), fence.group(2)
        top = open_fences[-1] if open_fences else None
        closes = top is not None and not rest and mark[0] == top[0] and len(mark) >= top[1]
        if top is not None and not top[2]:  # inside a code block: only its fence closes it
            if closes:
                open_fences.pop()
            continue
        directive = _MYST_DIRECTIVE.match(rest)
        if closes:
            open_fences.pop()
            out[i] = ""
        elif directive and (directive.group(1) in MYST_CONTAINERS or mark[0] == ":"):
            # (MyST's colon fence, ":::{glossary}", holds Markdown whatever its directive)
            open_fences.append((mark[0], len(mark), True))
            indent = line[:len(line) - len(line.lstrip())]
            name, argument = directive.groups()
            out[i] = "" if not argument else indent + (
                f"{name} {argument}" if name in _VERSION_NOTES else argument)
            options = True
        elif mark[0] != ":":  # (colons that open no directive are text)
            open_fences.append((mark[0], len(mark), False))
    return out


# A manual page as `man` renders it to text: a running header whose ends name the page
# ("rsync(1)      User Commands      rsync(1)"), a footer of three fields like it, section
# titles in capitals at the margin ("DESCRIPTION", "VALEUR RENVOYÉE") and subsection titles
# indented three spaces ("   Priorités affectées par défaut"), over text indented more
_MAN_HEADER = re.compile(r"^(\S+\(\w+\))\s{2,}.*?\s{2,}(\S+\(\w+\))\s*$")
_MAN_FOOTER = re.compile(r"^\S(?:.*\S)? {2,}\S(?:.*\S)? {2,}\S+\s*$")  # ("BSD  January…  BSD")
_MAN_SECTION = re.compile(r"^[A-ZÀ-Þ][A-ZÀ-Þ0-9 '’/&,-]{1,60}$")
_MAN_SUBSECTION = re.compile(r"^ {3}[^\s-][^.!?:;]{0,78}[^\s.!?:;,](?: ?:)?$")
_MAN_NAMES = {"NAME", "NOM", "NOMBRE", "NOME"}


# a word that `man` hyphenated at a line's end, with the hyphen groff writes there (U+2010,
# never the ASCII one of "--option"), and the rest of it that opens the next line
_HYPHENATED = re.compile(r"(?<=[^\W\d_])\u2010[ \t]*$")
_LAST_WORD = re.compile(r"\S+$")
_REST = re.compile(r"^([ \t]*)([^\W\d_][^\s]*)[ \t]*(.*)$")


def unhyphenated(lines: list[str]) -> list[str]:
    """`lines` with each word a manual page's rendering hyphenated at a line's end made
    whole again, on its first line ("The de‐" / "fault timeout is 5 seconds." -> "The
    default" / "timeout is 5 seconds."): cut, neither its search terms nor its sentence
    say "default". Every line keeps its number, its indentation and words: when the next
    line holds nothing but the rest of the word ("gies."), the word is whole on that one."""
    out = list(lines)
    for i in range(len(out) - 1):
        rest = _REST.match(out[i + 1]) if _HYPHENATED.search(out[i]) else None
        cut = _HYPHENATED.sub("", out[i]) if rest is not None else ""
        if rest is None or not (rest.group(2)[:1].islower() or (  # ("IDN_DIS‐" / "ABLE=1")
                rest.group(2)[:1].isupper() and cut[-1:].isupper())):
            continue
        if rest.group(3):
            out[i] = cut + rest.group(2)
            out[i + 1] = rest.group(1) + rest.group(3)
            continue
        head = _LAST_WORD.search(cut)
        if head is not None and cut[:head.start()].strip():
            out[i] = cut[:head.start()].rstrip()
            out[i + 1] = rest.group(1) + head.group(0) + rest.group(2)
    return out


def manual_page(lines: list[str]) -> tuple[dict[int, tuple[int, str, int]], set[int], str] | None:
    """A manual page rendered as text: its headings (as `headings` gives them), its
    running header's and footer's lines, and its title (the NAME section's line,
    "apt-mark - affiche, définit…"); None for any other text."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    header = _MAN_HEADER.match(lines[filled[0]]) if len(filled) >= 3 else None
    if header is None:
        return None
    furniture = {filled[0]}
    if _MAN_FOOTER.match(lines[filled[-1]]) and not lines[filled[-1]][:1].isspace():
        furniture.add(filled[-1])
    found: dict[int, tuple[int, str, int]] = {}
    for k, i in enumerate(filled):
        if i in furniture or k + 1 >= len(filled):
            continue
        line, below = lines[i], lines[filled[k + 1]]
        indent = len(below) - len(below.lstrip())
        if _MAN_SECTION.match(line.rstrip()) and indent > 0:
            found[i] = (1, line.strip(), i)
        elif _MAN_SUBSECTION.match(line.rstrip()) and indent > 3 and found:
            found[i] = (2, line.strip(), i)
    if len(found) < 2:
        return None
    title = ""
    first = next(iter(found))
    if found[first][1] in _MAN_NAMES:  # its first paragraph, wrapped or not
        after = [i for i in filled if i > first]
        run = [i for k, i in enumerate(after) if i - k == after[0] and i not in found]
        title = " ".join(" ".join(lines[i].split()) for i in run).replace("‐ ", "")
    return found, furniture, title[:120] or header.group(1)


# a manual page's passage of fewer words is no passage of its own (`_short_joined`)
SHORT_PASSAGE_WORDS = 40


def _short_joined(chunks: list[Chunk], lines: list[str], offset: int) -> list[Chunk]:
    """A manual page's passages, each of fewer than SHORT_PASSAGE_WORDS words joined to
    the next one, line for line: NAME's line and SYNOPSIS's usage open the description,
    AUTHOR and REPORTING BUGS run into COPYRIGHT. Alone, a passage of a dozen words
    outranks the paragraph that answers on the page's name only (BM25 favours the short):
    "tail -f ne suit plus mon log après la rotation" found tail(1)'s NOM and SYNOPSIS
    first. (`offset`: the line number of `lines[0]`, less one.)"""
    out: list[Chunk] = []
    for chunk in chunks:
        before = out[-1] if out else None
        if before is not None and word_count(before.text) < SHORT_PASSAGE_WORDS \
                and before.start_line is not None and chunk.end_line is not None \
                and before.start_line <= chunk.start_line and before.role == chunk.role:
            text = "\n".join(lines[before.start_line - offset - 1:chunk.end_line - offset])
            out[-1] = replace(chunk, text=text, start_line=before.start_line)
        else:
            out.append(chunk)
    return out


def parse_markdown(data: bytes, settings: ChunkSettings) -> Parsed:
    return _parse_sections(data, settings, atx=True, underlines=_MARKDOWN_UNDERLINES)


def _parse_sections(data: bytes, settings: ChunkSettings, atx: bool, underlines: str) -> Parsed:
    meta, body, offset = split_front_matter(decode_text(data))
    lines = body.split("\n")
    if atx:
        lines = myst_containers(without_comments(lines))
    else:
        lines = without_rst_comments(unhyphenated(lines))
    found = headings(lines, atx, underlines)
    stack: list[tuple[int, str]] = []
    sections: list[tuple[str, int, int]] = []  # heading path, first index, last index
    start, path, title = 0, "", ""
    title_lines: set[int] = set()
    manual = None if atx or found else manual_page(lines)
    if manual is not None:  # its own sections, and no running header in any passage
        found, furniture, title = manual
        lines = ["" if i in furniture else line for i, line in enumerate(lines)]
    for i, (level, text, last) in found.items():
        sections.append((path, start, i - 1))
        title_lines.update(range(i, last + 1))
        title = title or (text if level == 1 and manual is None else "")
        stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, text)]
        # a manual page's titles bound its passages but stay in their text, where the
        # answerer reads them (`extractive._section_title`): as headings too, they cost
        # answers on the trials' manual pages (docs/answers.md)
        path = "" if manual is not None else " > ".join(t for _, t in stack)
        start = i
    sections.append((path, start, len(lines) - 1))
    chunks = []
    for heading, a, b in sections:
        body_lines = [ln for k, ln in enumerate(lines[a:b + 1], a)
                      if ln.strip() and k not in title_lines]
        if not body_lines:
            continue
        # a manual page's option stays with its description (`chunks_from_entries`)
        chunker = chunks_from_paragraphs if manual is None else chunks_from_entries
        for first, last, role in navigation_spans(lines[a:b + 1]):
            chunks.extend(chunker(lines[a + first:a + last + 1], offset + a + first + 1,
                                  settings.max_words, settings.overlap_words,
                                  heading=heading, role=role))
    if manual is not None:
        chunks = _short_joined(chunks, lines, offset)
    if not atx:  # a reStructuredText passage of markup alone (".. currentmodule:: click")
        chunks = [c for c in chunks if not all(
            RST_MARKUP.match(ln) for ln in c.text.split("\n") if ln.strip())]
    first_line = next((ln.strip() for ln in lines if ln.strip()), "")
    return Parsed(title=str(meta.get("title") or title or (first_line[:120] if not atx else "")),
                  chunks=chunks, meta=meta, language_sample=body)


def parse_text(data: bytes, settings: ChunkSettings) -> Parsed:
    """Plain text and reStructuredText: sections by underlined title ("Usage" over
    "-----"), or a manual page's (`manual_page`), paragraphs grouped by size; front matter
    honoured like Markdown."""
    return _parse_sections(data, settings, atx=False, underlines="=-~^\"'`#*+_:.")
