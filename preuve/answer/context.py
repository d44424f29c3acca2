"""The context a model reads: passages under headers that are their citation labels,
within a token budget that is counted, not guessed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from preuve.models import Hit

_WORDISH = re.compile(r"\w+|[^\w\s]")


def fallback_count(text: str) -> int:
    """Words and punctuation marks: used when no model tokenizer is at hand."""
    return len(_WORDISH.findall(text))


@dataclass
class Context:
    text: str
    passages: list[Hit]  # the hits given, in order ([n] numbering follows it)
    tokens: int
    dropped: int  # hits left out by the budget


def header(hit: Hit) -> str:
    """A passage header: its citation label, then where it sits (for the reader)."""
    where = hit.heading or hit.symbol or hit.title
    return f"--- {hit.label}" + (f" ({where})" if where else "")


def build_context(hits: Sequence[Hit], budget: int = 3000,
                  count: Callable[[str], int] = fallback_count) -> Context:
    """As many whole passages as fit in `budget` tokens, best first (at least one,
    truncated if it alone is too long)."""
    blocks, used, kept = [], 0, []
    for hit in hits:
        block = f"{header(hit)}\n{hit.text.strip()}\n"
        size = count(block)
        if used + size > budget:
            if kept:
                continue
            words = block.split(" ")
            while words and count(" ".join(words)) > budget:
                words = words[: int(len(words) * 0.8)]
            block = " ".join(words)
            size = count(block)
        blocks.append(block)
        kept.append(hit)
        used += size
    return Context(text="\n".join(blocks), passages=kept, tokens=used,
                   dropped=len(hits) - len(kept))
