"""The embedded default answerer: no model writes anything. It picks the 1–3 sentences of
the retrieved passages that best answer the question and cites each one, narrowed to the
lines it came from where the format has lines. It cannot invent; it answers in the
passages' own language."""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from preuve import text as tokens
from preuve.models import Hit
from preuve.retrieve.dense import query_vector

_BOUNDARY = re.compile(
    r"(?<=[.!?…])[\"»”)]*\s+(?=[\"«“(\[]?[A-ZÀ-ÖØ-Þ0-9])"  # end of sentence
    r"|\n\s*\n|\n(?=\s*[#>|*-])"  # blank line, heading, list item
)
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*|\|\s*)")
# "Frais et indemnités .... 2": a table-of-contents entry, no statement to quote
_TOC_LINE = re.compile(r"^[^.!?]*[^\d.!?]\s+\.*\s*\d{1,3}$")
# kinds whose chunk text has one line per source line, so a sentence can cite its own lines
LINE_KINDS = ("markdown", "text", "code")


@dataclass
class Sentence:
    text: str
    hit: Hit
    start_line: int | None = None
    end_line: int | None = None
    score: float = 0.0
    parts: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        if self.hit.page is not None:
            return f"{self.hit.path} p. {self.hit.page}"
        if self.start_line is not None:
            return f"{self.hit.path}:{self.start_line}-{self.end_line}"
        return self.hit.label


def split_sentences(hit: Hit) -> list[Sentence]:
    """Sentences of a passage with the source lines each spans (when it has lines)."""
    body = hit.text
    if hit.kind == "code":
        return [_code_sentence(hit)]
    line_starts = [0] + [m.end() for m in re.finditer("\n", body)]
    by_lines = hit.kind in LINE_KINDS and hit.start_line is not None
    if not by_lines:  # PDF, HTML, DOCX chunks hold one sentence, title or block per line
        body = body.replace("\n", "\n\n")
    out, start = [], 0
    for match in [*_BOUNDARY.finditer(body), None]:
        end = match.start() if match else len(body)
        raw = body[start:end]
        lead = len(raw) - len(raw.lstrip())
        cleaned = " ".join(_MARKUP.sub("", line) for line in raw.strip().split("\n"))
        cleaned = " ".join(cleaned.split())
        if (len(cleaned.split()) >= 4 and not raw.lstrip().startswith("#")
                and not (len(cleaned.split()) <= 5 and _TOC_LINE.search(cleaned))):
            sentence = Sentence(cleaned, hit)
            if by_lines:
                first = _line_of(line_starts, start + lead)
                last = _line_of(line_starts, start + len(raw.rstrip()) - 1)
                sentence.start_line = hit.start_line + first
                sentence.end_line = min(hit.start_line + last, hit.end_line or hit.start_line)
            out.append(sentence)
        start = match.end() if match else len(body)
    return out


def _line_of(line_starts: list[int], offset: int) -> int:
    lo, hi = 0, len(line_starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if line_starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _code_sentence(hit: Hit) -> Sentence:
    """A definition is quoted by its signature and the first sentence of its docstring."""
    lines = [ln.strip() for ln in hit.text.split("\n") if ln.strip()]
    signature = next((ln for ln in lines if not ln.startswith("@")), lines[0] if lines else "")
    doc = re.search(r'"""(.*?)(?:\.\s|"""|$)', hit.text, re.S)
    summary = " ".join(doc.group(1).split()) if doc else ""
    what = f"{hit.symbol_kind} {hit.symbol}" if hit.symbol else "code"
    quoted = f"`{signature.rstrip(':')}`"
    parts = [f"{what}: {quoted}"] + ([summary.rstrip(".") + "."] if summary else [])
    return Sentence(" — ".join(parts), hit, hit.start_line, hit.end_line)


_SENTENCE_CACHE: OrderedDict[tuple[int, str], np.ndarray] = OrderedDict()
_SENTENCE_CACHE_SIZE = 20_000


def _sentence_vectors(embedder, sentences: list[str]) -> np.ndarray:
    """Sentence embeddings, remembered: the same passages come back question after
    question, and embedding their sentences is most of an extractive answer's cost."""
    missing = [t for t in dict.fromkeys(sentences) if (id(embedder), t) not in _SENTENCE_CACHE]
    if missing:
        for sentence, vector in zip(missing, embedder.embed_passages(missing), strict=True):
            _SENTENCE_CACHE[(id(embedder), sentence)] = vector
        while len(_SENTENCE_CACHE) > _SENTENCE_CACHE_SIZE:
            _SENTENCE_CACHE.popitem(last=False)
    return np.stack([_SENTENCE_CACHE[(id(embedder), t)] for t in sentences])


class ExtractiveAnswerer:
    """Scores sentences by the question's terms they hold and, with an embedder, by
    meaning; keeps the best one and up to two more that score nearly as well."""

    name = "extractive"

    def __init__(self, embedder=None, passages: int = 4, max_sentences: int = 3,
                 keep_ratio: float = 0.9):
        self.embedder = embedder
        self.passages = passages
        self.max_sentences = max_sentences
        self.keep_ratio = keep_ratio

    def answer(self, question: str, hits: Sequence[Hit]) -> tuple[str, list[Sentence], dict]:
        started = time.perf_counter()
        sentences = [s for h in hits[: self.passages] for s in split_sentences(h)]
        if not sentences:
            return "", [], {"latency_s": time.perf_counter() - started}
        terms = {lang: set(tokens.tokens(question, lang)) for lang in tokens.LANGUAGES}
        cosines = np.zeros(len(sentences), dtype=np.float32)
        if self.embedder is not None:
            query = query_vector(self.embedder, question)
            cosines = _sentence_vectors(self.embedder, [s.text for s in sentences]) @ query
        for sentence, cosine in zip(sentences, cosines, strict=True):
            overlap = 0.0
            for lang, wanted in terms.items():
                if wanted:
                    have = set(tokens.tokens(sentence.text, lang))
                    overlap = max(overlap, len(wanted & have) / len(wanted))
            prior = 0.03 / sentence.hit.rank if sentence.hit.rank else 0.0
            sentence.parts = {"lexical": round(overlap, 3), "cosine": round(float(cosine), 3)}
            sentence.score = (0.6 * float(cosine) + 0.4 * overlap if self.embedder is not None
                              else overlap) + prior
        ranked = sorted(sentences, key=lambda s: -s.score)
        best = ranked[0]
        chosen = [best] + [s for s in ranked[1:] if s.score >= self.keep_ratio * best.score]
        chosen = _distinct(chosen)[: self.max_sentences]
        answer = " ".join(f"{s.text} [{s.label}]" for s in chosen)
        return answer, chosen, {"latency_s": time.perf_counter() - started,
                                "sentences_scored": len(sentences)}


def _distinct(sentences: list[Sentence]) -> list[Sentence]:
    """Drop repeats (overlapping chunks share sentences)."""
    seen, out = set(), []
    for s in sentences:
        key = " ".join(s.text.lower().split())
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out
