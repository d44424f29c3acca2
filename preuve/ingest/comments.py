"""What a definition's doc comment says and whose member it is: the first sentence of its
comment (`doc_summary`, searched with the definition, and a file's opening comment as its
title) and the container of a qualified name (`container_of`), used by `syntax.py`; and
what a definition is in a few lines, the text embedded for it (`definition_summary`, used
by `vectors.passage_text`), from its doc and signature (`definition_parts`, also what
`ask` quotes a definition by)."""

from __future__ import annotations

import re

# doc comment lines that are no prose: a badge, image or link definition, a Go build
# constraint, an e-mail address, a `key: value` line (AUTHOR: ...), a lone HTML tag
_NO_PROSE = re.compile(r"^\W*(?:\[!\[|!\[|<img|\[[^\]]*\]:|go:|\+build)|\S+@\S+\.\w+"
                       r"|^\W*\w+: |^\W*<[^>]*>\W*$")
# what says a file's opening comment is its licence, not its doc
LICENCE = re.compile(r"copyright|licen[cs]e|\(c\)|SPDX|all rights reserved", re.I)
# the kinds whose doc summary their members are searched with
CONTAINER_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "module",
                             "type", "impl"})
# what separates a member's name from its container's (`::`, `.`, `#`, `->`, `\`)
_LAST_SEPARATOR = re.compile(r"(?:::|[.#\\]|->)(?=[^.#\\:]*$)")


def container_of(symbol: str) -> str:
    """The container of a qualified name: `Rack::ETag#call` -> `Rack::ETag`,
    `(*Command).Find` -> `Command`, `Version::parse` -> `Version`; '' for a plain name."""
    symbol = symbol.split(", ")[0]
    match = _LAST_SEPARATOR.search(symbol.replace("->", "."))
    if match is None:
        return ""
    return symbol[:match.start()].strip("(*)&")


_COMMENT_MARK = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?!?|//|#!?|--|=begin|=end)?\s?")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)`'\"])\.(?:\s|$)")
SUMMARY_WORDS = 30


def doc_summary(lines: list[str]) -> str:
    """The first sentence of a doc comment's lines (markers, attributes and `@tags`
    left out; at most SUMMARY_WORDS words): what a definition says it is for."""
    words: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("#[", "@", "#!", "# frozen_string_literal", "# -*-")):
            continue
        if _NO_PROSE.search(stripped):
            continue  # badges, an author's address
        content = _COMMENT_MARK.sub("", stripped, count=1).strip().rstrip("*/").strip()
        if not content:
            if words:
                break  # the end of the first paragraph
            continue
        if content.startswith(("@", "{@")):
            if words:
                break
            continue
        end = _SENTENCE_END.search(content)
        words.extend((content[:end.start()] if end else content).split())
        if end or len(words) >= SUMMARY_WORDS:
            break
    return " ".join(words[:SUMMARY_WORDS])


# a line that opens or continues a comment before a definition (a Rust attribute `#[...]`
# and a shebang `#!` are none)
_COMMENT_LINE = re.compile(r"^\s*(?:/\*|\*|//|#(?![\[!])|--|=begin|=end)")
# a Python docstring: its words, up to its closing quotes (or the end of the text)
_DOCSTRING = re.compile(r"^\s*[rRbBuU]?(\"\"\"|\'\'\')(.*?)(?:\1|$)", re.S)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# what a definition says of itself, at most this many words
DOC_WORDS = 60


def name_words(symbol: str) -> str:
    """A qualified name as words: `LineFormatter::format` -> `Line Formatter format`."""
    return " ".join(re.sub(r"[\W_]+", " ", _CAMEL.sub(" ", symbol)).split())


def definition_summary(symbol: str, text: str, context: str = "") -> str:
    """What a definition is, in words an embedding model reads: its name as words, its
    doc (`definition_parts`, at most DOC_WORDS words; without one, `context`: its
    container's doc summary, and the comments inside its body: what its author says its
    statements do) and its signature. Its statements are left out: a model of prose
    places a question near a definition's words, rarely near its code
    (docs/measurements/code.md)."""
    doc, signature = definition_parts(text)
    if not doc:
        doc = " ".join(filter(None, [context, _body_comments(text)]))
    doc = " ".join(doc.split()[:DOC_WORDS])
    return "\n".join(filter(None, [name_words(symbol), doc, signature]))


def _body_comments(text: str) -> str:
    """The prose of the comment lines after a definition's first line of code
    (`// remove leftover %extra.xxx%`, `# fatal errors are ignored if...`)."""
    lines = text.split("\n")
    first = next((n for n, line in enumerate(lines)
                  if line.strip() and not _COMMENT_LINE.match(line)), len(lines))
    return _doc_words([line for line in lines[first + 1:] if _COMMENT_LINE.match(line)])


def definition_parts(text: str) -> tuple[str, str]:
    """(doc, signature) of a definition's text: its doc comment's words (the comment
    lines before it; for Python the docstring after its signature, or a module's opening
    docstring) and its signature: its first line of code, or its lines to where its
    brackets close when it is written over several (attributes and decorators left out;
    at most 200 characters)."""
    lines = text.split("\n")
    comment: list[str] = []
    for line in lines:
        if _COMMENT_LINE.match(line) or (comment and not line.strip()):
            comment.append(line)
        elif line.strip():
            break
    code = _code_lines(lines[len(comment):])
    doc = _doc_words(comment)
    if not doc and code:
        doc, span = _docstring(code)
        if doc:  # a module's docstring: its first code line is the one after
            code = code[span:]
    heading = _first_statement(code)
    if not doc and code:  # `def f(...):` or `class C:`, then its docstring
        doc, _ = _docstring(code[heading:])
    signature = " ".join(" ".join(code[:heading]).split())
    return doc, _TIGHT.sub("", signature)[:200]


# the spaces a signature written over several lines leaves inside its brackets
_TIGHT = re.compile(r"(?<=[(\[])\s+|,?\s+(?=[)\]])")
# a signature longer than this many lines is read as its first line
SIGNATURE_LINES = 12


def _first_statement(code: list[str]) -> int:
    """How many of `code`'s lines its first statement spans (a signature written over
    several lines: to where its parentheses and brackets close)."""
    depth = 0
    for n, line in enumerate(code[:SIGNATURE_LINES]):
        depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
        if depth <= 0:
            return n + 1
    return min(1, len(code))


def _code_lines(lines: list[str]) -> list[str]:
    """The lines of code that are not blank, attributes (`#[derive(...)]`) nor decorators
    (`@property`), these over as many lines as their brackets span."""
    out, depth = [], 0
    for line in lines:
        stripped = line.strip()
        if depth > 0 or stripped.startswith(("#[", "@")):
            depth = max(0, depth + sum(stripped.count(c) for c in "([{")
                        - sum(stripped.count(c) for c in ")]}"))
        elif stripped:
            out.append(line)
    return out


def _docstring(lines: list[str]) -> tuple[str, int]:
    """The words of the Python docstring `lines` open with, and how many lines it spans
    ('', 0 when they open with none)."""
    match = _DOCSTRING.match("\n".join(lines))
    if match is None:
        return "", 0
    return " ".join(match.group(2).split()), match.group(0).count("\n") + 1


def _doc_words(lines: list[str]) -> str:
    """The prose of comment lines: markers, `@tags` and lines of no prose left out."""
    words = []
    for line in lines:
        content = _COMMENT_MARK.sub("", line.strip(), count=1).strip().rstrip("*/").strip()
        if content.startswith(("@", "{@")) or _NO_PROSE.search(content):
            continue
        words.extend(content.split())
    return " ".join(words)
