"""What a definition's doc comment says and whose member it is: the first sentence of its
comment (`doc_summary`, searched with the definition, and a file's opening comment as its
title) and the container of a qualified name (`container_of`). Used by `syntax.py`."""

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
