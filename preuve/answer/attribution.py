"""Generated answers that cite nothing, or cite only part of what they say: each uncited
sentence is attributed to the given passage that supports it, by measured support, and
what no passage supports is dropped. Only passages that were given can be cited; the
citations added are then verified like any other."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from preuve import text as tokens
from preuve.answer.citations import parse_citations
from preuve.answer.extractive import is_navigation
from preuve.models import Hit
from preuve.retrieve.dense import query_vector

# A sentence is supported when this share of its content words is in the passage ...
MIN_OVERLAP = 0.6
# ... and, with an embedder, its meaning is this close to the passage's.
MIN_COSINE = 0.80
# A shorter sentence ("10.", "Oui, 2.") states nothing a passage can be seen to support:
# any passage holding its one number would; it is dropped, never attributed.
MIN_WORDS = 3
# Headings, contents lines and page numbers copied from a passage are in it, but they
# answer nothing: dropped too (the extractive answerer never quotes them either).
# a sentence ends before an upper-case letter ("p. 2" and "20 %. 3" do not end one)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"»”)]*\s+(?=[\"«“(]?[A-ZÀ-ÖØ-Þ])|\n+")
_BRACKETS = re.compile(r"\[[^\[\]\n]*\]")


@dataclass
class Attribution:
    text: str
    attributed: list[dict] = field(default_factory=list)  # sentence, label, support
    dropped: list[dict] = field(default_factory=list)  # sentence, best support

    @property
    def note(self) -> str | None:
        """What was done, for the answer's `reason` (None when nothing was)."""
        parts = []
        if self.attributed:
            parts.append(f"{len(self.attributed)} uncited sentence(s) attributed to the "
                         "passage that supports them")
        if self.dropped:
            parts.append(f"{len(self.dropped)} sentence(s) no passage supports dropped")
        return "; ".join(parts) or None


def sentences(text: str) -> list[str]:
    """A generated answer cut into sentences (and lines), each with its trailing space."""
    inside = [m.span() for m in _BRACKETS.finditer(text)]
    out, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if any(a < match.start() < b for a, b in inside):
            continue  # "[guide.pdf p. 2]" is a citation, not a sentence end
        out.append(text[start:match.end()])
        start = match.end()
    if text[start:]:
        out.append(text[start:])
    return [s for s in out if s.strip()]


def content_words(text: str) -> set[frozenset[str]]:
    """The words of `text`, each as its French and English stems."""
    by_language = [tokens.tokens(text, lang) for lang in tokens.LANGUAGES]
    if len({len(t) for t in by_language}) != 1:
        return {frozenset([t]) for ts in by_language for t in ts}
    return {frozenset(stems) for stems in zip(*by_language, strict=True)}


def overlap(sentence: str, passage: Hit) -> float:
    """Share of the sentence's content words that the passage holds."""
    words = content_words(sentence)
    if not words:
        return 0.0
    found = {s for lang in tokens.LANGUAGES for s in tokens.tokens(passage.text, lang)}
    return sum(1 for w in words if w & found) / len(words)


def attribute(text: str, passages: Sequence[Hit], embedder=None) -> Attribution:
    """Cite each uncited sentence of `text` to the passage (among `passages`) that best
    supports it, drop the sentences none supports; sentences with a citation are kept
    as they are (verification judges them)."""
    result = Attribution("")
    kept: list[str] = []
    pieces = sentences(text)
    labels = [h.path for h in passages]
    uncited = [p for p in pieces if not parse_citations(p, labels)]
    cosines = _cosines(embedder, uncited, passages)
    for piece in pieces:
        if not parse_citations(piece, labels):
            row = uncited.index(piece)
            scored = [(overlap(piece, h), float(cosines[row, j]) if cosines is not None
                       else None, h) for j, h in enumerate(passages)]
            share, cosine, best = max(scored, key=lambda s: (s[0], s[1] or 0.0),
                                      default=(0.0, None, None))
            info = {"sentence": piece.strip(), "overlap": round(share, 3),
                    "cosine": None if cosine is None else round(cosine, 3)}
            if (best is None or share < MIN_OVERLAP or len(content_words(piece)) < MIN_WORDS
                    or is_navigation(piece) or (cosine is not None and cosine < MIN_COSINE)):
                result.dropped.append(info)
                continue
            body = piece.rstrip()
            tail = piece[len(body):]
            end = re.search(r"[.!?…]+$", body)
            cut = end.start() if end else len(body)
            piece = f"{body[:cut]} [{best.label}]{body[cut:]}{tail}"
            result.attributed.append({**info, "label": best.label})
        kept.append(piece)
    result.text = "".join(kept).strip()
    return result


def _cosines(embedder, texts: list[str], passages: Sequence[Hit]) -> np.ndarray | None:
    if embedder is None or not texts or not passages:
        return None
    vectors = np.stack([query_vector(embedder, t) for t in texts])
    return vectors @ embedder.embed_passages([h.text for h in passages]).T
