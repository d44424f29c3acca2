"""Retrieval methods, chosen by name: `search(store, query, method=...)`. The names are
those of `preuve.registry.methods`, where these are registered and plugins add theirs.

- `bm25`: keyword ranking inside the store (FTS5 over preuve's own tokens);
- `dense`: cosine over the embedder's vectors;
- `hybrid`: the two fused (20 candidates each by default), with weights per question
  (`adaptive.py`) and normalised scores or reciprocal ranks (`fusion.py`), together with
  the keyword list of the question translated (`bilingual.py`) and the list of a second,
  multilingual embedder (`companion`);
- `rerank`: a cross-encoder re-scores the hybrid candidates (see `rerank.py`).

bm25 and hybrid put first the entry of a command-line option the question names
(`entries.py`: "what does grep -v do?").

Every method receives the same `Filters` and applies them before its top k.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from preuve import text
from preuve.errors import InvalidInput
from preuve.models import Filters, Hit
from preuve.registry import Method, methods
from preuve.retrieve import bilingual
from preuve.retrieve.adaptive import (
    COMPANION,
    TRANSLATED,
    Fusion,
    identifier_query,
    plan,
)
from preuve.retrieve.dense import dense, embed_beside
from preuve.retrieve.entries import first_entry
from preuve.retrieve.fusion import RRF_CONSTANT, combine, rrf
from preuve.retrieve.lexical import bm25
from preuve.store import Store


def __getattr__(name: str):
    if name == "METHODS":  # the registered names, plugins' included
        return methods.names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Hybrid:
    """hybrid's own parameters (rerank re-scores hybrid's candidates: they are its too)."""

    candidates: int = 20  # per list, before fusion
    rrf_constant: int = RRF_CONSTANT
    weights: dict[str, float] = field(default_factory=dict)  # e.g. {"bm25": 2.0}
    fusion: Fusion = field(default_factory=Fusion)


@dataclass
class Options:
    """What a method reads from the index (its models and dictionaries), and each method's
    own parameters by method name (`params`: a registered method's `Method.params` class;
    its defaults when the caller gives none)."""

    embedder: object | None = None
    reranker: object | None = None
    companion: object | None = None  # a second embedder whose list hybrid fuses
    dict_dir: str | None = None  # the FreeDict dictionaries (`bilingual.py`); None: Debian's
    cache: str | None = None  # where their table is cached (the e5 graph's folder)
    params: dict[str, Any] = field(default_factory=dict)

    def params_of(self, method: str) -> Any:
        """The parameters `method` runs with: the caller's, else its class's defaults
        (None for a method without parameters)."""
        given = self.params.get(method)
        if given is not None:
            return given
        kind = methods.get(method).params
        return kind() if kind is not None else None


def hybrid(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    """Fusion of bm25 and dense candidates, weighted per question (`adaptive.plan`)."""
    params: Hybrid = options.params_of("hybrid")
    depth = max(params.candidates, k)
    # the question's embedding is made beside the other lists (a second core), the
    # dense list last: it waits for it
    vector = embed_beside(options.embedder, query)
    others: dict[str, list[Hit]] = {}
    if params.fusion.companion and options.companion is not None:
        # only where the caller's documents are not all in the question's language: there
        # the plan could not give the list any weight (`adaptive.across_languages`), so a
        # monolingual collection never pays for its query nor loads its vectors
        language = text.question_language(query)
        if store.languages(filters) - {language, ""}:
            others[COMPANION] = companion(store, query, filters, depth, options)
    rankings = {"bm25": bm25(store, with_plain_words(query), filters, depth)}
    if params.fusion.translated:
        others[TRANSLATED] = translated(store, query, filters, depth, options)
    rankings["dense"] = dense(store, query, filters, depth, embedder=options.embedder,
                              vector=vector)
    for name in (TRANSLATED, COMPANION):  # the lists in their usual order (--explain)
        if name in others:
            rankings[name] = others[name]
    return first_entry(store, query, fuse(query, rankings, k, options), filters)


def companion(store: Store, query: str, filters: Filters, k: int, options: Options
              ) -> list[Hit]:
    """The companion embedder's nearest passages ([] without one, or while the index holds
    none of its vectors)."""
    if options.companion is None:
        return []
    return dense(store, query, filters, k, embedder=options.companion, label=COMPANION)


# `translated`: the translated question's words a passage holds at least to stay in its
# list, when the question has more words than a short one's
TRANSLATED_WORDS = 2
SHORT_QUESTION = 5
# how deep the translated words are searched before the other language's hits are kept
TRANSLATED_POOL = 100


def translated(store: Store, query: str, filters: Filters, k: int,
               options: Options | None = None) -> list[Hit]:
    """bm25 over the question translated word by word (`bilingual.py`), keeping only hits
    in the other language: the keyword list across languages ([] without dictionaries)."""
    language = text.question_language(query)
    options = options or Options()
    words = bilingual.code_translation(query, language, options.dict_dir, options.cache)
    if not words:
        return []
    # read TRANSLATED_POOL deep whatever k, then filtered: the list's first hits are the
    # same for any k (a hit of the other language may be the 30th of the words' list)
    hits = [h for h in bm25(store, words, filters, max(k, TRANSLATED_POOL))
            if h.language and h.language != language]
    # a passage meeting one translated word of a longer question is chance (a sense of one
    # word), not the question in the other language
    if len(set(text.tokens(query, language))) > SHORT_QUESTION:
        asked = {lang: set(text.tokens(words, lang)) for lang in {h.language for h in hits}}
        meeting = (h for h in hits
                   if len(asked[h.language] & set(text.tokens(f"{h.heading or ''} {h.text}",
                                                               h.language))) >= TRANSLATED_WORDS)
        hits = list(itertools.islice(meeting, k))  # read until k are kept
    for rank, hit in enumerate(hits[:k], 1):
        hit.rank = rank
    return hits[:k]


def fuse(query: str, rankings: dict[str, list[Hit]], k: int, options: Options) -> list[Hit]:
    """The two lists of one question fused as its plan says (pure: bench/fusion.py replays
    it over cached lists)."""
    params: Hybrid = options.params_of("hybrid")
    # the plan and the scaling read the lists' first `candidates` hits, however deep they
    # were read for k: the first hits' order does not depend on k
    window = params.candidates
    chosen = plan(query, rankings["bm25"][:window], rankings["dense"][:window], params.fusion,
                  params.weights, rankings.get(COMPANION, ())[:window])
    if chosen.kind == "rrf":
        return rrf(rankings, k, params.rrf_constant, chosen.weights, chosen.hit_weight)
    return combine(rankings, k, chosen.weights, chosen.hit_weight, window)


def search(store: Store, query: str, *, method: str = "bm25", k: int = 10,
           filters: Filters | None = None, options: Options | None = None) -> list[Hit]:
    """The top k hits for `query` with `method`, best first, ranks from 1."""
    filters = filters or Filters()
    options = options or Options()
    if not query.strip():
        raise InvalidInput("empty query")
    return methods.get(method).run(store, query, filters, k, options)


def distinct(hits: list[Hit], k: int) -> list[Hit]:
    """The first k of `hits` whose text no better-ranked hit already holds (a manual copied
    under two folders, a page left untranslated in the other edition): each passage once,
    ranks renumbered from 1."""
    seen: set[str] = set()
    out: list[Hit] = []
    for hit in hits:
        text = " ".join(hit.text.split())
        if text in seen:
            continue
        seen.add(text)
        hit.rank = len(out) + 1
        out.append(hit)
        if len(out) == k:
            break
    return out


def with_plain_words(query: str) -> str:
    """`query` with the manual's words for its everyday ones ("soft link": symbolic link;
    `bilingual.plain_words`), for the keyword list."""
    plain = bilingual.plain_words(query)
    return f"{query} {plain}" if plain else query


def _bm25(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    return first_entry(store, query, bm25(store, with_plain_words(query), filters, k), filters)


def _dense(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    return dense(store, query, filters, k, embedder=options.embedder)


def _rerank(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    from preuve.retrieve.rerank import rerank

    params: Hybrid = options.params_of("rerank")
    as_hybrid = dataclasses.replace(options, params={**options.params, "hybrid": params})
    candidates = hybrid(store, query, filters, max(params.candidates, k), as_hybrid)
    return rerank(query, candidates, k, options.reranker)


for _method in (
    Method("bm25", _bm25, needs_vectors=False, help="keyword ranking (no model)"),
    Method("dense", _dense, help="cosine over the embedder's vectors"),
    Method("hybrid", hybrid, params=Hybrid, help="bm25 and dense fused, weights per question"),
    Method("rerank", _rerank, needs_reranker=True, params=Hybrid,
           help="a cross-encoder re-scores the hybrid candidates (--reranker)"),
):
    methods.register(_method.name, _method, replace=True)


def where(store: Store, subject: str, *, k: int = 10, filters: Filters | None = None,
          method: str = "bm25", options: Options | None = None,
          symbol_kinds: Collection[str] = (), languages: Collection[str] = ()) -> list[Hit]:
    """Code locations for a subject ("où est gérée la numérotation"); bm25 calls no model,
    hybrid (`Index.where`'s default on an index with vectors) embeds the subject once.

    Code search, not passage search: the subject is searched with the short forms code
    writes for its words (`text.code_abbreviations`: arguments -> args); a French subject
    together with its words as English code names them (`bilingual.code_translation`: a
    developer's words by the vocabulary, requête -> request, the others by the
    dictionary), an English one also translated into French for French files; with
    hybrid, the definitions nearest to the subject by their vectors (a definition is
    embedded by its summary, `vectors.passage_text`) are a list of their own
    (`_code_ranking`); the first candidates re-ordered by the question's words in their
    own names (`by_name`); test, benchmark and example files (`tests/`, `*_test.go`,
    `test_*.py`, `benches/`, `examples/`...: `code.uses_the_code`) come after
    the code they test unless the subject is about tests. `symbol_kinds` keeps chunks of
    those kinds (function, method...), `languages` those of files in those languages
    (`preuve.ingest.code.language_of`): both matched on the ranked list, searched deeper
    (up to `WHERE_DEPTH`) until k locations match."""
    from preuve.ingest.code import language_of, uses_the_code

    base = filters or Filters()
    options = options or Options()
    code_only = Filters(as_of=base.as_of, audience=base.audience,
                        path_prefixes=base.path_prefixes, kinds=("code",))
    about_tests = bool(_TESTS.search(subject))

    def wanted(hit: Hit) -> bool:
        return ((not symbol_kinds or hit.symbol_kind in symbol_kinds)
                and (not languages or language_of(hit.path) in languages))

    depth = max(WHERE_POOL, 10 * k if symbol_kinds or languages else 0)
    while True:
        ranked = one_per_definition(
            _code_ranking(store, subject, method, code_only, depth, options))
        kept = [hit for hit in ranked if wanted(hit)]
        if len(kept) >= k or len(ranked) < depth or depth >= WHERE_DEPTH:
            break
        depth *= 4
    if not about_tests:  # stable: the order among code files, then among tests, is kept
        kept.sort(key=lambda hit: uses_the_code(hit.path))
    for rank, hit in enumerate(kept[:k], 1):
        hit.rank = rank
    return kept[:k]


def one_per_definition(hits: list[Hit]) -> list[Hit]:
    """The best-ranked chunk of each definition: the parts of a long function (one
    symbol, cut at its statements, each part's lines following the last's) are one
    location, not several filling the top k; so are the windows of one long struct or
    class. Two functions of one name (Rust's `fmt` of `impl Display` and of `impl Debug`,
    Java's overloads) are apart in their file and both stay."""
    spans: dict[tuple, list[list[int]]] = {}
    out = []
    for hit in hits:
        if not hit.symbol or hit.start_line is None or hit.end_line is None:
            out.append(hit)
            continue
        known = spans.setdefault((hit.doc_id, hit.symbol, hit.symbol_kind), [])
        span = next((s for s in known if hit.symbol_kind not in NAME_KINDS
                     or (hit.start_line <= s[1] + 2 and hit.end_line >= s[0] - 2)), None)
        if span is not None:  # another part of a definition already listed
            span[0], span[1] = min(span[0], hit.start_line), max(span[1], hit.end_line)
            continue
        known.append([hit.start_line, hit.end_line])
        out.append(hit)
    return out


_TESTS = re.compile(r"\b(?:tests?|testing|spec|specs|unit ?tests?|fixtures?|bench(?:es|mark)?s?"
                    r"|examples?|exemples?|démos?|demos?)\b", re.I)
# candidates `where` ranks (test files moved down among them)
WHERE_POOL = 50


def _code_ranking(store: Store, subject: str, method: str, filters: Filters, depth: int,
                  options: Options) -> list[Hit]:
    """bm25 (and, for `hybrid`, the dense list) as code search ranks them; any other
    method as it ranks passages."""
    if method not in ("bm25", "hybrid"):
        return search(store, subject, method=method, k=depth, filters=filters,
                      options=options)
    if not subject.strip():
        raise InvalidInput("empty query")
    language = text.question_language(subject)
    # the question's words as code names them: a French developer's words by the
    # vocabulary ("requête" -> request), the others by the dictionary
    words = bilingual.code_translation(subject, language, options.dict_dir, options.cache)
    # the subject's embedding is made beside the keyword lists (a second core); a French
    # subject with its English code words: the definitions' summaries are English code,
    # and the French words alone land far from them (measured: docs/measurements/code.md)
    embedded = f"{subject} {words}" if words and language == "fr" else subject
    vector = embed_beside(options.embedder, embedded) if method == "hybrid" else None
    # and the short forms code writes for them: "arguments" -> args
    asked = f"{subject} {text.code_abbreviations(subject)}"
    if words and language == "fr":
        # one list over the question and its English code words: identifiers are
        # English, and a French comment still meets the question's own words
        asked = f"{asked} {words} {text.code_abbreviations(words)}"
    rankings = {"bm25": bm25(store, asked, filters, depth)}
    if words and language != "fr":
        # an English question's French translation, its hits in French files only (the
        # French words matched noise in English code)
        words = f"{subject} {words}"
        rankings[TRANSLATED] = [h for h in bm25(store, words, filters, depth)
                                if h.language and h.language != language]
    constant, weights = options.params_of("hybrid").rrf_constant, None
    if method == "hybrid":
        # the definitions nearest to the subject by what they are (their summaries'
        # vectors): a list weighing less than the keyword lists, fused with a constant
        # that keeps the first ranks apart (measured: docs/measurements/code.md)
        rankings["dense"] = dense(store, embedded, filters, depth, embedder=options.embedder,
                                  vector=vector)
        constant, weights = WHERE_RRF_CONSTANT, {"dense": WHERE_DENSE_WEIGHT}
    # by ranks, whatever the lists (one or several): `by_name` weighs positions, not
    # bm25 scores that differ from one question to the next
    fused = rrf(rankings, depth, constant, weights)
    # the words as code writes them and their translation, to match definitions' names
    return by_name(fused, f"{asked} {words}")


def by_name(hits: list[Hit], words: str) -> list[Hit]:
    """The first NAME_DEPTH of `hits` re-ordered as code search wants them: a function or
    method whose own name holds the question's words (`ExactArgs` for "exactly N
    arguments", `mergeMappings` for "merged mapping", `numUnderscoresOK` for "tirets bas"
    translated) is what the developer is looking for. When two words of `words` (the
    question, its short forms, its translation) are in the definition's own name (the
    last part of `Rack::Request#ip` or `(*Command).Find`), or all of that name's words
    are, its score is multiplied by 1 + NAME_BOOST × (the words found) / sqrt(the words
    of the name). Containers, constructors and constants are left as ranked: their names
    (`RotatingFileHandler`, `Device.Device`, `HTTP_STATUS_CODES`) hold the code base's
    words, not what a question asks. A chunk that is no definition (a window of imports
    or top-level statements, or a file's opening doc: `go.toml.doc`) is multiplied by
    LOOSE: it is rarely where something is done. Measured in docs/measurements/code.md;
    the rest of the list keeps its order."""
    from preuve.ingest.code import is_file_doc

    wanted = set(text.tokens(words, "en"))
    head, rest = hits[:NAME_DEPTH], hits[NAME_DEPTH:]
    if not head or not wanted:
        return hits

    def score(hit: Hit) -> float:
        if not hit.symbol or is_file_doc(hit):
            return hit.score * LOOSE
        if hit.symbol_kind not in NAME_KINDS:
            return hit.score
        parts = _OWN_NAME.split(hit.symbol)
        name = parts[-1]
        if name.lower() in CONSTRUCTORS or (len(parts) > 1 and name == parts[-2].strip("(*")):
            return hit.score  # a constructor is named by its class, as the class is
        own = set(text.tokens(name, "en"))
        found = len(own & wanted)
        # one word shared with a longer name is no evidence (`DecodeFile` for "a file
        # size", `globUnescape` for "a glob pattern")
        if found < 2 and not (found and found == len(own)):
            return hit.score
        # a short name all made of asked words (`ip`) before a long one holding more of
        # them (`reject_trusted_ip_addresses`): the words found over sqrt(the name's words)
        return hit.score * (1 + NAME_BOOST * found / math.sqrt(len(own)))

    scored = sorted(((score(hit), hit) for hit in head), key=lambda pair: -pair[0])
    for rank, (value, hit) in enumerate(scored, 1):
        hit.rank, hit.score = rank, value
    for rank, hit in enumerate(rest, len(scored) + 1):
        hit.rank = rank
    return [hit for _, hit in scored] + rest


# `by_name`: the candidates re-ordered, the kinds whose own names count, the factor per
# word, the factor of a chunk that is no definition
NAME_DEPTH = 20
NAME_KINDS = frozenset({"function", "method", "macro", "procedure"})
NAME_BOOST = 0.5
LOOSE = 0.5
# the constructors' own names (besides the class's name: `Device.Device`)
CONSTRUCTORS = frozenset({"__construct", "__init__", "initialize", "constructor", "new"})
# what separates a definition's own name from its containers' (`::`, `.`, `#`, `->`, `\`)
_OWN_NAME = re.compile(r"::|[.#)\\]|->")


# how deep `where` searches for locations of the kinds and languages asked
WHERE_DEPTH = 6400
# `where` with vectors: the reciprocal rank fusion's constant and the dense list's weight
# (the keyword lists weigh 1)
WHERE_RRF_CONSTANT = 10
WHERE_DENSE_WEIGHT = 0.5


__all__ = ["METHODS", "Fusion", "Hybrid", "Options", "hybrid", "identifier_query", "search",
           "where"]
