"""The embedded default answerer: no model writes anything. It quotes the best passage:
the sentence that best answers the question and the ones that follow it in the same
passage (or, when the passage's heading matches the question, the start of that section's
body), about 80 words, one citation narrowed to the lines quoted where the format has
lines. It never quotes a heading, a table-of-contents line, a running header or footer or
a fragment; it cannot invent, and it answers in the passages' own language."""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from preuve import text as tokens
from preuve.models import Hit
from preuve.registry import kinds
from preuve.retrieve.dense import query_vector

_BOUNDARY = re.compile(
    r"(?<=[.!?…])[\"»”)]*\s+(?=[\"«“(\[]?[A-ZÀ-ÖØ-Þ0-9])"  # end of sentence
    r"|\n\s*\n|\n(?=\s*[#>|*-])"  # blank line, heading, list item
)
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*|\|\s*)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# "Frais et indemnités .... 2", "3.2 Journée d'équipe 4": a contents entry, no statement
_TOC_LINE = re.compile(r"(?:\.\s*){4,}|…{2,}|[^\d\s.!?:;]\s+(?:\d{1,4}|[ivx]{1,4})$", re.I)
_CONTENTS = re.compile(r"^\s*(?:table des mati[eè]res|sommaire|contents|table of contents|"
                       r"index|list of figures|liste des figures)\s*$", re.I)
_PAGE_NUMBER = re.compile(r"^\s*(?:page\s+)?\d{1,4}(?:\s*(?:/|sur|of)\s*\d{1,4})?\s*$", re.I)
_END = re.compile(r"[.!?…:;][\"»”')\]]*$")
NAVIGATION = "navigation"


@dataclass
class Sentence:
    text: str
    hit: Hit
    start_line: int | None = None
    end_line: int | None = None
    score: float = 0.0
    parts: dict = field(default_factory=dict)
    index: int = 0  # position among the passage's quotable sentences
    block: int = 0  # sentences not separated by a heading or other unquoted line share it

    @property
    def label(self) -> str:
        if self.hit.page is not None:
            return f"{self.hit.path} p. {self.hit.page}"
        if self.start_line is not None:
            return f"{self.hit.path}:{self.start_line}-{self.end_line}"
        return self.hit.label


def is_navigation(line: str) -> bool:
    """A heading (Markdown `#`), a contents entry or title, or a page number: text that
    finds things, says nothing."""
    return bool(line.lstrip().startswith("#") or _CONTENTS.match(line)
                or _PAGE_NUMBER.match(line) or _TOC_LINE.search(line.strip()))


def is_statement(sentence: str, list_item: bool = False) -> bool:
    """A sentence worth quoting: four words or more, ending like a sentence (a list item
    may end without), and not a contents entry, a page number or a contents title."""
    words = sentence.split()
    if len(words) < 4 or _CONTENTS.match(sentence) or _PAGE_NUMBER.match(sentence):
        return False
    if _TOC_LINE.search(sentence):
        return False
    return list_item or bool(_END.search(sentence))


def unwrap(body: str) -> str:
    """PDF/HTML/DOCX text with one physical line per line: join the lines a paragraph was
    wrapped into (a line not ending a sentence, and either long or followed by a
    lower-case word), keep a break after short lines (titles, contents entries)."""
    lines = body.split("\n")
    widest = max((len(ln.strip()) for ln in lines), default=0)
    out: list[str] = []
    for line in lines:
        line = line.strip()
        if out and out[-1] and line:
            prev = out[-1]
            soft = not _END.search(prev) and not _LIST_ITEM.match(line) and (
                line[:1].islower() or len(prev) >= 0.7 * widest)
            if soft:
                out[-1] = prev + ("" if prev.endswith("-") and line[:1].islower() else " ") + line
                continue
        out.append(line)
    return "\n\n".join(out)


def furniture(hits: Sequence[Hit]) -> set[str]:
    """Running headers and footers: lines (digits ignored) found on two pages or more of
    the same document among the passages given."""
    pages: dict[tuple[str, str], set[int]] = {}
    for hit in hits:
        if hit.page is not None:
            for line in hit.text.split("\n"):
                if line.strip():
                    pages.setdefault((hit.path, _digitless(line)), set()).add(hit.page)
    return {line for (_, line), on in pages.items() if len(on) > 1}


def _digitless(line: str) -> str:
    return " ".join(re.sub(r"\d+", "#", line).split()).lower()


def split_sentences(hit: Hit, skip: frozenset[str] | set[str] = frozenset()) -> list[Sentence]:
    """The passage's quotable sentences, in order, with the source lines each spans (when
    it has lines). `skip`: header/footer lines (digits as '#', lower case) to leave out."""
    body = hit.text
    if hit.kind == "code":
        return [_code_sentence(hit)]
    # kinds whose chunk text has one line per source line: a sentence cites its own lines
    kind = kinds.find(hit.kind)
    by_lines = kind is not None and kind.cites_lines and hit.start_line is not None
    if skip and not by_lines:
        body = "\n".join(ln for ln in body.split("\n") if _digitless(ln) not in skip)
    if not by_lines:
        body = unwrap(body)
    line_starts = [0] + [m.end() for m in re.finditer("\n", body)]
    out, start, block = [], 0, 0
    for match in [*_BOUNDARY.finditer(body), None]:
        end = match.start() if match else len(body)
        raw = body[start:end]
        lead = len(raw) - len(raw.lstrip())
        cleaned = " ".join(_MARKUP.sub("", line) for line in raw.strip().split("\n"))
        cleaned = " ".join(cleaned.split())
        heading = raw.lstrip().startswith("#")
        if not heading and is_statement(cleaned, bool(_LIST_ITEM.match(raw.lstrip()))):
            sentence = Sentence(cleaned, hit, index=len(out), block=block)
            if by_lines:
                first = _line_of(line_starts, start + lead)
                last = _line_of(line_starts, start + len(raw.rstrip()) - 1)
                sentence.start_line = hit.start_line + first
                sentence.end_line = min(hit.start_line + last, hit.end_line or hit.start_line)
            out.append(sentence)
        elif cleaned and out:
            block += 1  # a heading, contents line or fragment ends the run
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


def term_overlap(question: str, sentence: str) -> float:
    """Share of the question's terms the sentence holds (the better of French and English
    stemming)."""
    best = 0.0
    for lang in tokens.LANGUAGES:
        wanted = set(tokens.tokens(question, lang))
        if wanted:
            best = max(best, len(wanted & set(tokens.tokens(sentence, lang))) / len(wanted))
    return best


def heading_matches(question: str, hit: Hit, share: float = 0.5) -> bool:
    """The passage's own (last) heading names what is asked: at least `share` of the
    heading's terms are the question's."""
    last = hit.heading.split(" > ")[-1] if hit.heading else ""
    return bool(last) and term_overlap(last, question) >= share


def window(sentences: list[Sentence], start: int, words: int) -> list[Sentence]:
    """Contiguous sentences from `start` while they fit in `words` (the first always),
    never across a heading or other unquoted line."""
    out, used = [], 0
    for sentence in sentences[start:]:
        n = len(sentence.text.split())
        if out and (used + n > words or sentence.block != out[0].block):
            break
        out.append(sentence)
        used += n
    return out


def cite(chosen: list[Sentence]) -> str:
    """The quoted sentences, one citation per run of sentences with the same location:
    lines merged into one span, the same page cited once."""
    parts: list[str] = []
    group: list[Sentence] = []

    def flush():
        if not group:
            return
        first, last = group[0], group[-1]
        label = first.label
        if first.start_line is not None and first.hit.page is None:
            label = f"{first.hit.path}:{first.start_line}-{last.end_line}"
        parts.append(" ".join(s.text for s in group) + f" [{label}]")
        group.clear()

    for sentence in chosen:
        if group and (sentence.hit.page != group[-1].hit.page
                      or sentence.hit.chunk_id != group[-1].hit.chunk_id
                      or sentence.hit.kind == "code"):
            flush()
        group.append(sentence)
    flush()
    return " ".join(parts)


class ExtractiveAnswerer:
    """Scores the sentences of the first passages by the question's terms they hold and,
    with an embedder, by meaning; quotes the best one's passage from that sentence (or
    from its section's start when the heading matches the question) for about `words`
    words. When the best is a code definition, quotes up to `max_definitions` definitions
    scoring within `keep_ratio` of it."""

    name = "extractive"

    def __init__(self, embedder=None, passages: int = 4, words: int = 80,
                 max_definitions: int = 3, keep_ratio: float = 0.9):
        self.embedder = embedder
        self.passages = passages
        self.words = words
        self.max_definitions = max_definitions
        self.keep_ratio = keep_ratio

    def answer(self, question: str, hits: Sequence[Hit]) -> tuple[str, list[Sentence], dict]:
        started = time.perf_counter()
        hits = [h for h in hits if getattr(h, "role", "body") != NAVIGATION][: self.passages]
        skip = furniture(hits)
        by_hit = {h.chunk_id: split_sentences(h, skip) for h in hits}
        sentences = [s for h in hits for s in by_hit[h.chunk_id]]
        if not sentences:
            return "", [], {"latency_s": time.perf_counter() - started, "sentences": []}
        cosines = np.zeros(len(sentences), dtype=np.float32)
        if self.embedder is not None:
            query = query_vector(self.embedder, question)
            cosines = _sentence_vectors(self.embedder, [s.text for s in sentences]) @ query
        for sentence, cosine in zip(sentences, cosines, strict=True):
            overlap = term_overlap(question, sentence.text)
            prior = 0.03 / sentence.hit.rank if sentence.hit.rank else 0.0
            sentence.parts = {"lexical": round(overlap, 3), "cosine": round(float(cosine), 3)}
            sentence.score = (0.6 * float(cosine) + 0.4 * overlap if self.embedder is not None
                              else overlap) + prior
        best = max(sentences, key=lambda s: s.score)
        own = by_hit[best.hit.chunk_id]
        start = best.index
        if heading_matches(question, best.hit) and \
                any(s is best for s in window(own, 0, self.words)):
            start = 0
        chosen = window(own, start, self.words)
        if best.hit.kind == "code":  # definitions are not prose: the best few, any passage
            chosen = _distinct([best] + [s for s in sorted(sentences, key=lambda s: -s.score)
                                         if s is not best and s.hit.kind == "code"
                                         and s.score >= self.keep_ratio * best.score])
            chosen = chosen[: self.max_definitions]
        scores = [{"text": s.text[:120], "label": s.label, "score": round(s.score, 3),
                   **s.parts, "quoted": any(s is c for c in chosen)}
                  for s in sorted(sentences, key=lambda s: -s.score)[:8]]
        return cite(chosen), chosen, {"latency_s": time.perf_counter() - started,
                                      "sentences_scored": len(sentences),
                                      "sentences": scores}


def _distinct(sentences: list[Sentence]) -> list[Sentence]:
    """Drop repeats (overlapping chunks share sentences)."""
    seen, out = set(), []
    for s in sentences:
        key = " ".join(s.text.lower().split())
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out
