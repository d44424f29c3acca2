"""HTML: the main content only (no navigation, header, footer, scripts), cut by heading,
each chunk with its heading path and the source lines its blocks came from. A list of only
links left inside the content (a table of contents) becomes chunks of role "navigation".
An API reference's entries (Sphinx's `<dl class="py method"><dt id=…>` and the like) are
sections of their own, their signature a heading under the page's: one chunk per function,
class or attribute, found by its name, not a window across a dozen of them.

Built on the standard library's tolerant parser, which knows each tag's source line.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser

from preuve.ingest.base import ChunkSettings, Parsed, decode_text
from preuve.ingest.chunking import chunks_from_blocks
from preuve.ingest.navigation import BODY, NAVIGATION

_SKIP = {"script", "style", "noscript", "template", "nav", "header", "footer", "aside",
         "form", "button", "svg", "iframe"}
_BLOCK = {"p", "div", "li", "ul", "ol", "pre", "blockquote", "table", "tr", "td", "th",
          "section", "article", "main", "dd", "dt", "dl", "br", "hr", "figure", "figcaption",
          "h1", "h2", "h3", "h4", "h5", "h6", "body", "details", "summary"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Page furniture marked by its role or, in the generators most manuals come from (Sphinx,
# DocBook, Apache httpd's manual), by its class: skipped like <nav>. "headerlink" is
# Sphinx's pilcrow anchor, "longdesc-link" DocBook's "[D]" link to a screenshot's long
# description, "toplang"/"bottomlang" and the ids "page-header", "path", "quickview" the
# Apache manual's language list, menu, breadcrumbs and page contents; Texinfo's (GNU
# manuals) "nav-panel" (makeinfo 7), "nav_table" and "tocframe" (texi2html, LilyPond's
# manuals) its "Next: … Up: …" bars and its contents beside each page.
_SKIP_ROLES = {"navigation", "banner", "contentinfo", "search", "complementary"}
_SKIP_CLASSES = {"navheader", "navfooter", "related", "sphinxsidebar", "headerlink",
                 "footer", "breadcrumbs", "docnav", "longdesc-link", "toplang", "bottomlang",
                 "nav-panel", "nav_table"}
_SKIP_IDS = {"banner", "navigation", "nav", "header", "footer", "sidebar",  # Publican
             "page-header", "path", "quickview", "tocframe"}
# makeinfo 6 puts its "Next: … Up: …" bar in a <div class="header">: furniture in a page
# it generated (Texinfo's, by its <meta name="generator">), a page title's box elsewhere
_TEXINFO = re.compile(r"makeinfo|texi2any|texi2html", re.I)
_TEXINFO_CLASSES = {"header"}
_ITEMS = {"li", "dt", "dd"}  # entries of a list; all links in a run of them: contents
_MIN_LINK_ITEMS = 3  # consecutive list items that are only links: a table of contents
_LABEL_WORDS = 3  # a menu's label item (no link) at most
_ROW_WORDS = 60  # a table row longer than this is a layout, not a line of data
# A reference entry: a <dt> with an id opening a <dl> of one of these classes (Sphinx's
# object types, in any domain: "py method", "c function", "std option", "describe"), or
# marked as a signature by Sphinx ("sig-object")
_ENTRY_CLASSES = {"function", "method", "class", "attribute", "property", "data",
                  "exception", "classmethod", "staticmethod", "decorator", "module", "type",
                  "member", "macro", "struct", "enum", "var", "option", "cmdoption", "envvar",
                  "describe", "object"}
# A box beside the text (DocBook's `<div class="note"><h3 class="title">Note</h3>…`): its
# heading labels the box, it opens no section (what follows the box is the section's again)
# an <aside> is a sidebar, skipped, except docutils' footnotes (Sphinx 5+: `<aside
# class="footnote brackets">` in `<aside class="footnote-list">`): the page's own notes
_FOOTNOTE_CLASSES = {"footnote", "footnote-list"}
_ASIDE_CLASSES = {"note", "tip", "warning", "caution", "important", "admonition", "hint",
                  "attention", "danger", "sidebar"}
# entry signatures are headings below any <h1>-<h6>: level 7 for the outer entry, 8 for a
# method inside a class's entry, and so on
_ENTRY_LEVEL = 7
_VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed",
         "source", "track", "wbr"}


class _Extractor(HTMLParser):
    def __init__(self, main_only: bool):
        super().__init__(convert_charrefs=True)
        self.main_only = main_only
        # open tags, each with whether it started skipping and whether it opened the main
        # content (an end tag closes what its own start opened, whatever the tag)
        self.stack: list[tuple[str, bool, bool, bool]] = []
        self.open = Counter()  # tags in `stack`: an end tag never searches the stack
        self.skip_depth = 0
        self.main_depth = 0
        self.title = ""
        self.in_title = False
        self.heading_level = 0
        self.heading_text: list[str] = []
        self.path: list[tuple[int, str]] = []
        self.blocks: list[tuple[str, str, int, int]] = []  # heading path, text, first, last
        self.link_items: list[bool] = []  # per block: a list item whose text is all links
        # per block: a list item of one to three words, not a sentence (a menu's group
        # label "Q&A", its current page "Variables", not a link)
        self.label_items: list[bool] = []
        # per block: two links or more and, outside them, no word ("[ << Usage ] | [Top]
        # [Contents][Index]"): a navigation bar, whatever its tags
        self.link_bars: list[bool] = []
        self.links = 0  # links opened in the buffer
        self.texinfo = False  # the page says Texinfo generated it
        self.levels: list[int] = []  # per block: its heading level (1-6), 0 for text
        self.preformatted: list[str | None] = []  # per block: its text as laid out in <pre>
        self.buf_pre = False
        self.link_depth = 0
        self.link_chars = 0  # characters of the buffer read inside <a>
        self.buf_in_item = False
        self.buf: list[str] = []
        self.buf_text = False  # does `buf` hold any non-blank data (kept, not recomputed)
        self.buf_outside: list[str] = []  # the buffer's text read outside links
        self.buf_start = 0
        self.buf_end = 0
        self.entry_levels: list[int | None] = []  # per open <dl>: its entries' level, or None
        self.in_signature = False
        self.asides = 0  # open admonition boxes (`_ASIDE_CLASSES`)

    def _capturing(self) -> bool:
        return self.skip_depth == 0 and (not self.main_only or self.main_depth > 0)

    def _flush(self) -> None:
        text = " ".join("".join(self.buf).split())
        if text:
            heading = " > ".join(t for _, t in self.path)
            self.blocks.append((heading, text, self.buf_start, self.buf_end))
            # no letter outside the links: an entry's number ("4.1. <a>…</a>") is no
            # word (DocBook's lists of a FAQ's questions)
            outside = "".join(self.buf_outside)
            wordless = not re.search(r"[^\W\d_]", outside)
            links_only = self.link_chars > 0 and wordless
            self.link_items.append(self.buf_in_item and links_only)
            self.label_items.append(self.buf_in_item and len(text.split()) <= _LABEL_WORDS
                                    and not re.search(r"[.!?:;,]$", text))
            self.link_bars.append(self.links >= 2 and not self.buf_pre and wordless)
            self.levels.append(0)
            self.preformatted.append(textwrap.dedent("".join(self.buf)).strip("\r\n")
                                     if self.buf_pre else None)
        self.buf, self.buf_text = [], False
        self.link_chars, self.links, self.buf_outside = 0, 0, []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if tag == "meta" and (attributes.get("name") or "").lower() == "generator":
            self.texinfo = self.texinfo or bool(_TEXINFO.search(attributes.get("content") or ""))
        if tag not in _VOID:
            # an article's own <header>/<footer> is content (its title lives there)
            skip = ((tag in _SKIP and not (tag in ("header", "footer") and self.main_depth)
                     and not (tag == "aside" and classes & _FOOTNOTE_CLASSES))
                    or attributes.get("role") in _SKIP_ROLES or bool(classes & _SKIP_CLASSES)
                    or bool(self.texinfo and classes & _TEXINFO_CLASSES)
                    or attributes.get("id") in _SKIP_IDS)
            main = tag in ("main", "article") or attributes.get("role") == "main"
            aside = tag in ("div", "aside") and bool(classes & _ASIDE_CLASSES)
            self.stack.append((tag, skip, main, aside))
            self.asides += aside
            self.open[tag] += 1
            self.skip_depth += skip
            self.main_depth += main
        if tag == "title":
            self.in_title = True
        if tag == "a" and tag not in _VOID:
            self.link_depth += 1
            self.links += self._capturing() and "href" in attributes
        if tag in _BLOCK:
            if tag != "tr" and self._row_goes_on():  # a cell, or a paragraph in one
                self.buf.append(" | " if tag in ("td", "th") else " ")
            else:
                self._flush()
        if tag in _HEADINGS and self._capturing():
            self.heading_level, self.heading_text = _HEADINGS[tag], []
        if tag == "dl":
            self.entry_levels.append(_ENTRY_LEVEL + self._entry_depth()
                                     if classes & _ENTRY_CLASSES else None)
        if tag == "dt" and self._capturing() and not self.heading_level and (
                "sig-object" in classes
                or (attributes.get("id") and self.entry_levels and self.entry_levels[-1])):
            self.heading_level = _ENTRY_LEVEL + max(self._entry_depth() - 1, 0)
            self.heading_text = []
            self.in_signature = True

    def handle_endtag(self, tag):
        if tag in _VOID or not self.open[tag]:
            return
        while self.stack:
            open_tag, skip, main, aside = self.stack.pop()
            self.asides -= aside
            self.open[open_tag] -= 1
            self._close(open_tag)
            self.skip_depth -= skip
            self.main_depth -= main
            if open_tag == tag:
                break

    def _close(self, tag):
        if tag == "title":
            self.in_title = False
        if tag == "a":
            self.link_depth = max(0, self.link_depth - 1)
        if tag == "dl" and self.entry_levels:
            level = self.entry_levels.pop()
            if level is not None:  # the entries end: what follows is the section's again
                self._flush()
                self.path = [(lvl, t) for lvl, t in self.path if lvl < level]
            return
        if (tag in _HEADINGS or (tag == "dt" and self.in_signature)) and self.heading_level:
            self.in_signature = False
            text = " ".join("".join(self.heading_text).split())
            level = self.heading_level
            self.heading_level = 0
            self._flush()
            if text and self.asides and level <= 6:  # a box's label: a line of its section
                self.blocks.append((" > ".join(t for _, t in self.path), text,
                                    *(self.getpos()[0],) * 2))
                self.link_items.append(False)
                self.label_items.append(False)
                self.link_bars.append(False)
                self.levels.append(0)
                self.preformatted.append(None)
            elif text:
                self.path = [(lvl, t) for lvl, t in self.path if lvl < level] + [(level, text)]
                self.title = self.title or (text if level == 1 else "")
                # the heading itself is the first block of its section
                line = self.getpos()[0]
                self.blocks.append((" > ".join(t for _, t in self.path), text, line, line))
                self.link_items.append(False)
                self.label_items.append(False)
                self.link_bars.append(False)
                self.levels.append(level)
                self.preformatted.append(None)
            return
        if tag in _BLOCK:
            if tag != "tr" and self._row_goes_on():
                self.buf.append(" ")
            else:
                self._flush()

    def _row_goes_on(self) -> bool:
        """Inside a table row, its cells (and the paragraphs in them) are one line of text,
        "Avec bureau | 1 gigaoctet | 2 gigaoctets": a cell alone says nothing of its column
        or row. A row whose text grows long (a layout table holding a page) is cut as
        blocks again."""
        return bool(self.open["tr"]) and self.buf_text and \
            len("".join(self.buf).split()) <= _ROW_WORDS

    def _entry_depth(self) -> int:
        """How many reference entries' lists (<dl class="py class">…) are open."""
        return sum(1 for level in self.entry_levels if level is not None)

    def handle_data(self, data):
        if self.in_title:
            self.title = self.title or " ".join(data.split())
            return
        if not self._capturing():
            return
        if self.heading_level:
            self.heading_text.append(data)
            return
        if not data.strip():
            if self.buf:  # a line break between two spans of a <pre> stays one
                self.buf.append(data if self.open["pre"] else " ")
            return
        line = self.getpos()[0]
        if not self.buf_text:
            leading = data[: len(data) - len(data.lstrip())]
            self.buf_start = line + leading.count("\n")
            self.buf_in_item = any(t in _ITEMS for t, *_ in self.stack)
            self.buf_pre = self.open["pre"] > 0
        self.buf_end = line + data.rstrip().count("\n")
        self.buf.append(data)
        self.buf_text = True
        if self.link_depth:
            self.link_chars += len("".join(data.split()))
        else:
            self.buf_outside.append(data)


def link_list_roles(link_items: list[bool], link_bars: list[bool],
                    label_items: list[bool] | None = None) -> list[str]:
    """Per block: navigation inside a run of consecutive list items holding at least
    `_MIN_LINK_ITEMS` items that are only links, and for a bar of links (`link_bars`),
    else body. A short item that is no link (`label_items`: a nested menu's group label,
    the current page's entry in bold) stays in the run around it."""
    labels = label_items or [False] * len(link_items)
    roles = [NAVIGATION if bar else BODY for bar in link_bars]
    i = 0
    while i < len(link_items):
        j, links = i, 0
        while j < len(link_items) and (link_items[j] or labels[j]):
            links += link_items[j]
            j += 1
        if links >= _MIN_LINK_ITEMS:
            roles[i:j] = [NAVIGATION] * (j - i)
        i = max(j, i + 1)
    return roles


# the charset a page declares in its first bytes: <meta charset="…">, or an http-equiv
# Content-Type's "…; charset=iso-8859-1" (read where UTF-8 fails: GNU's, TeXworks's pages)
_CHARSET = re.compile(rb"<meta\s[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.I)


def _extract(data: bytes) -> _Extractor:
    declared = _CHARSET.search(data[:4096])
    text = decode_text(data, declared.group(1).decode("ascii") if declared else None)
    main_only = re.search(r"<(main|article)[\s>]|role=[\"']main[\"']", text, re.I) is not None
    parser = _Extractor(main_only)
    parser.feed(text)
    parser.close()
    parser._flush()
    return parser


@dataclass(frozen=True)
class Block:
    """A block of an HTML file's text as the index reads it: its heading path, its text
    (tags, scripts and entities gone, spaces folded), its first and last source lines, its
    heading level (1-6; 0 for a block of text) and, inside <pre>, its text as laid out."""

    heading: str
    text: str
    first: int
    last: int
    level: int
    preformatted: str | None = None  # the text with its lines, for a block of <pre>


def fenced(preformatted: str) -> str:
    """A <pre> block as the index keeps it: its lines as laid out (a command of two lines
    stays two commands), fenced as Markdown code so that the answerer quotes it whole and
    verbatim (a block longer than a chunk is cut by its lines, `chunking.split_block`)."""
    lines = [line.rstrip() for line in preformatted.split("\n")]
    # a block that shows Markdown fences itself is fenced with tildes
    fence = "~~~" if any(line.lstrip().startswith("```") for line in lines) else "```"
    return f"{fence}\n" + "\n".join(lines).strip("\n") + f"\n{fence}"


def html_blocks(data: bytes) -> list[Block]:
    """The blocks of text the index reads from an HTML file, in order (the main content
    only, no navigation, scripts or styles): what the viewer shows of it."""
    parser = _extract(data)
    return [Block(heading, text, first, last, level, pre)
            for (heading, text, first, last), level, pre
            in zip(parser.blocks, parser.levels, parser.preformatted, strict=True)]


def parse_html(data: bytes, settings: ChunkSettings) -> Parsed:
    parser = _extract(data)
    blocks = [(heading, fenced(pre) if pre else text, first, last)
              for (heading, text, first, last), pre
              in zip(parser.blocks, parser.preformatted, strict=True)]
    chunks = chunks_from_blocks(blocks, settings.max_words, settings.overlap_words,
                                roles=link_list_roles(parser.link_items, parser.link_bars,
                                                      parser.label_items))
    sample = " ".join(t for _, t, _, _ in blocks)
    return Parsed(title=parser.title, chunks=chunks, language_sample=sample)
