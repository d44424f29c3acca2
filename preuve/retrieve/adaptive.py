"""Per-question fusion weights, from what can be measured on the question and its lists.

`hybrid` fuses a bm25 list and a dense list. How much to trust bm25 differs per question:

- the question's language against the passages': a French question over English passages
  shares only incidental words with them, and bm25 then ranks noise;
- a lone identifier (`LB-1`, `PALIERS_RELANCE`): embeddings know nothing of it, bm25
  matches it exactly;
- how far bm25's first hit stands above the next ones (a clear winner versus a flat list
  of partial matches);
- how much of the question bm25's first hit holds: the share of the question's terms
  found among that hit's tokens (a question written with the passage's own words, as
  SQuAD-style questions are, versus a paraphrase that shares a word or two by chance);
- a name the question holds (a word of no dictionary: `systemd`, `debmirror`) that bm25's
  first hit holds too: the one list that matches it exactly.

`Fusion` holds the knobs; `plan` turns a question and its two lists into the weights the
fusion functions of `preuve.retrieve.fusion` take. The defaults were chosen on the public
sets with held-out folds (`bench/fusion.py`): bm25 weighs 0.3, growing with the share of
the question's terms its first hit holds above one half (x 1 + 4 x (share - 0.5): up to
0.9 when the hit holds every term). With that, the language test on dense's first hits no
longer pays (a question across languages shares few terms with bm25's first hit anyway)
and is off by default (`crossing_bm25` 1).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from preuve import text
from preuve.models import Hit
from preuve.retrieve import bilingual

COMPANION = "companion"  # the list of the companion embedder (`index.engine.companion`)
TRANSLATED = "translated"  # the keyword list of the question translated (bilingual.py)


@dataclass(frozen=True)
class Fusion:
    """The knobs of `hybrid`. Defaults chosen with `bench/fusion.py` on the five public sets
    (worst margin over the best single method of each set, each set held out in turn)."""

    kind: str = "combine"  # "combine" (normalised scores) or "rrf"
    bm25: float = 0.3  # weight of the bm25 list (dense weighs 1)
    identifier_bm25: float = 2.0  # weight of bm25 for a lone identifier
    foreign_bm25: float = 1.0  # multiplier of a bm25 hit in another language than the question
    crossing_bm25: float = 1.0  # multiplier of bm25 when dense's first hits are in another language
    spread: float = 0.0  # bm25 weight grows by spread x (first - second) / first
    translated: float = 0.5  # weight of bm25 over the translated question (`bilingual.py`)
    # weight of the companion embedder's list (`index.engine.companion`) when the candidates mix
    # languages (`across_languages`); 0 when they are all in the question's language
    companion: float = 1.0
    coverage: float = 4.0  # bm25 weight grows by coverage x (share of the question's terms
    covered: float = 0.5  # in bm25's first hit - covered), when that share is above covered
    name_bm25: float = 2.0  # multiplier of bm25 when its first hit holds a name the question holds


@dataclass(frozen=True)
class Plan:
    """What one question gets: the fusion, per-method weights and the question language."""

    kind: str
    weights: dict[str, float]
    language: str
    foreign_bm25: float
    reasons: tuple[str, ...] = ()

    def hit_weight(self, method: str, hit: Hit) -> float:
        if method == "bm25" and hit.language and hit.language != self.language:
            return self.foreign_bm25
        return 1.0


def identifier_query(query: str) -> bool:
    """True for questions that are (mostly) a code or identifier: `LB-1`, `PALIERS_RELANCE`.

    Embeddings know nothing of such strings; fusion must not let them drown the one
    method that matches them exactly."""
    words = query.split()
    codes = [w for w in words if any(c.isdigit() for c in w) and any(c.isalpha() for c in w)
             or "_" in w.strip("_") or (w[:1].islower() and any(c.isupper() for c in w))]
    return bool(codes) and len(words) <= 3


def across_languages(query: str, *candidates: Sequence[Hit]) -> bool:
    """Whether the candidates (dense's and the companion's) hold a passage in another
    language than the question: a question asked across languages, or a collection that
    mixes them. There the companion list (a multilingual model) is fused; within one
    language it is not (it gained nothing on the monolingual public sets and lost on
    Cranfield: docs/evaluation.md, "Companion list")."""
    language = text.question_language(query)
    return any(h.language and h.language != language for hits in candidates for h in hits)


def coverage(query: str, hit: Hit, language: str) -> float:
    """The share of the question's distinct terms (stemmed in its language, stop words out)
    found among the tokens of `hit` (stemmed in the hit's language): 1.0 when the passage
    holds every word the question uses, 0.0 when it holds none."""
    terms = set(text.tokens(query, language))
    if not terms:
        return 0.0
    return len(terms & _token_set(hit.text, hit.language or language)) / len(terms)


@lru_cache(maxsize=1024)
def _token_set(passage: str, language: str) -> frozenset[str]:
    """A passage's tokens, remembered: the first bm25 hits of a collection's questions
    are often the same few passages."""
    return frozenset(text.tokens(passage, language))


# a word that may be a name: four characters or more, letters first (`apt-listchanges`,
# `dh_make`, `systemd`)
_WORD = re.compile(r"[^\W\d_][\w.+-]{3,}")


def names_in_first(query: str, hit: Hit) -> list[str]:
    """The words of `query` that no dictionary knows (`bilingual.is_word`: names of tools,
    products, commands) and that `hit` holds whole ([] without the word lists)."""
    held = f"{hit.heading}\n{hit.text}".casefold()
    return [word for word in dict.fromkeys(w.rstrip(".-") for w in _WORD.findall(query))
            if bilingual.is_word(word) is False and re.search(
                r"(?<![\w-])" + re.escape(word.casefold()) + r"(?![\w-])", held)]


def plan(query: str, bm25: Sequence[Hit], dense: Sequence[Hit], fusion: Fusion,
         weights: dict[str, float] | None = None, companion: Sequence[Hit] = ()) -> Plan:
    """The fusion for one question. Explicit `weights` (a caller's) win over the plan's."""
    language = text.question_language(query)
    reasons = []
    if identifier_query(query):
        bm25_weight = fusion.identifier_bm25
        reasons.append("identifier")
    else:
        bm25_weight = fusion.bm25
        told = [h.language for h in dense[:3] if h.language]
        if (fusion.crossing_bm25 != 1.0 and told
                and sum(lang != language for lang in told) * 2 >= len(told)):
            bm25_weight *= fusion.crossing_bm25
            reasons.append("crossing")
        if fusion.spread and len(bm25) > 1 and bm25[0].score > 0:
            gap = (bm25[0].score - bm25[1].score) / bm25[0].score
            bm25_weight *= 1 + fusion.spread * max(0.0, gap)
        if fusion.coverage and bm25:
            share = coverage(query, bm25[0], language)
            if share > fusion.covered:
                bm25_weight *= 1 + fusion.coverage * (share - fusion.covered)
                reasons.append(f"coverage {share:.2f}")
        if fusion.name_bm25 != 1.0 and bm25:
            named = names_in_first(query, bm25[0])
            if named:
                bm25_weight *= fusion.name_bm25
                reasons.append(f"name {named[0]}")
    companion_weight = fusion.companion if across_languages(query, dense, companion) else 0.0
    if companion_weight:
        reasons.append("across languages")
    chosen = {"bm25": bm25_weight, "dense": 1.0, TRANSLATED: fusion.translated,
              COMPANION: companion_weight, **(weights or {})}
    return Plan(fusion.kind, chosen, language, fusion.foreign_bm25, tuple(reasons))
