"""Whether a passage supports a generated sentence: what the sentence says that the passage
says, beyond what the question already said.

A sentence is cut into *units*:

* its content words (stop words and answer-framing words such as "use", "command",
  "utilisez", "selon" left out; each word as its French and English stems);
* its *exact tokens*, which only count when the passage holds them verbatim: numbers (also
  spelled out, "deux" = 2), code spans, URLs, identifiers, file names and options
  (``who-uploads`` in backticks, ``debian/control``, ``--no-deps``, ``python3``), names in
  capitals after the sentence's first word, and acronyms.

The *new* units are those the question does not hold: a sentence whose units all come
from the question restates it and supports nothing. A passage supports the sentence when

1. the sentence has at least one new unit (else: "restates the question");
2. every new exact token is in the passage (else: "not in the passage: 2027, `pip list`");
3. every key claim word of the sentence is in the passage, in either language: words of
   time (current, now, actuellement, aujourd'hui...), of exclusivity and frequency (only,
   always, never, seulement, jamais...), of recency (latest, dernier...) — "the current
   leader is X" is not what a page saying X *was* the leader supports;
4. and either the new units are there — the share of them the passage holds (words by
   stem; across languages through a FreeDict translation when the dictionaries are
   installed; an exact token weighs two words) is at least `MIN_SHARE` — or, when the
   sentence and the passage are in different languages and no dictionary is installed (so
   words cannot show it), the sentence means what a sentence of the passage means: the
   embedder's cosine between it and the passage's closest sentence (or pair of sentences)
   is at least `MIN_MEANING`. The cosine is the weaker test (an added "except at
   weekends" keeps it high): with the dictionaries, words decide.

`degenerate` tells output that is no answer at all: a loop, a repeated sentence or run of
words, the question or the prompt echoed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from preuve import text as tokens
from preuve.answer.citations import parse_citations
from preuve.models import Hit

__all__ = ["MIN_MEANING", "MIN_SHARE", "Claim", "Judge", "Support", "degenerate"]

# Share of a sentence's new units the passage must hold (an exact token weighs two).
MIN_SHARE = 0.6
# Cross-language: cosine (query-query, e5) between the sentence and the passage's closest
# sentence or pair of sentences. Measured on FR/EN pairs: same meaning 0.895-0.96, a claim
# on the same topic that the passage does not make 0.82-0.87.
MIN_MEANING = 0.88
EXACT_WEIGHT = 2

YES_NO = frozenset("oui non yes no si".split())
_POLAR_LEAD = re.compile(r"^\W*(oui|non|yes|no|si)\b\s*(?:[,.!;:—–-]|$)", re.I)
_BARE_EXTRA = frozenset("bien sur absolument effectivement tout fait certainly of course "
                        "indeed sure".split())

# Words that frame an answer rather than state anything (folded forms).
FRAMING = frozenset(tokens.fold(w) for w in """
use uses used using can could may might need needs should must able please following
follows below above here answer answers question questions passage passages document
documents documentation text context page pages section sections according state states
stated say says said mention mentions mentioned information provided based also simply just
note command commands run running type typing execute enter example examples instance
utiliser utilisez utilise utilisent utilisant pouvez peut peuvent pouvoir pourrait devez
doit doivent faut suffit permet permettent voici suivant suivante suivantes suivants
réponse réponses question passage document documentation texte contexte page section selon
indique indiqué indiquée mentionne mentionné information informations également aussi
simplement commande commandes exécuter exécutez lancer lancez taper tapez exemple
""".split())

# Key claim words: a sentence using one needs the passage to use one of the same group.
KEY_GROUPS: dict[str, frozenset[str]] = {
    name: frozenset(tokens.fold(w) for w in words.split())
    for name, words in {
        "now": "current currently now nowadays today presently actuel actuelle actuels "
               "actuelles actuellement aujourd'hui maintenant désormais",
        "latest": "latest newest recent recently dernier dernière derniers dernières "
                  "récent récente récents récentes récemment",
        "only": "only solely exclusively seulement uniquement exclusivement",
        "always": "always toujours",
        "never": "never jamais",
    }.items()
}
_KEY_WORDS = {w: group for group, words in KEY_GROUPS.items() for w in words}

_NUMBER_WORDS = {tokens.fold(w): str(n) for n, words in {
    2: "two deux", 3: "three trois", 4: "four quatre", 5: "five cinq", 6: "six",
    7: "seven sept", 8: "eight huit", 9: "nine neuf", 10: "ten dix", 11: "eleven onze",
    12: "twelve douze", 13: "thirteen treize", 14: "fourteen quatorze", 15: "fifteen quinze",
    16: "sixteen seize", 17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty vingt",
    30: "thirty trente", 40: "forty quarante", 50: "fifty cinquante", 60: "sixty soixante",
    70: "seventy", 80: "eighty", 90: "ninety", 100: "hundred cent", 1000: "thousand mille",
}.items() for w in words.split()}

_NOT_NAMES = frozenset(tokens.fold(w) for w in """
i monday tuesday wednesday thursday friday saturday sunday january february march april
june july august september october november december oui non yes no
""".split())
_ABBREVIATIONS = frozenset("e.g i.e etc vs cf p pp".split())

_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_URL = re.compile(r"\b(?:[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://|www\.|mailto:)[^\s<>\[\]`)]*"
                  r"[^\s<>\[\]`).,;:!?]")
_IDENT = re.compile(
    r"(?<![\w/.\-])(?:"
    r"--?[A-Za-z][\w-]*"  # options
    r"|[\w-]+(?:[./][\w-]+)+"  # paths, file names, dotted names, versions
    r"|[^\W\d_]*\d[\w-]*[^\W\d_][\w-]*"  # letters and digits mixed: python3, 1er, LB-1
    r"|[^\W\d_][\w-]*\d[\w-]*"
    r"|\w+_\w*|_\w+"  # snake_case, _private
    r"|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*"  # camelCase, PascalCase
    r")(?![\w])")
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_LIST_MARK = re.compile(r"^\s*(?:[-*+•>]|\d{1,3}[.)])\s+")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_NUMBERED_HEADING = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+\S")


# typographic apostrophes and hyphens read as the plain ones ("Python’s" = "Python's")
_PLAIN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2010": "-",
                        "\u2011": "-"})


def _fold_number(raw: str) -> str:
    return raw.replace(",", ".")


def _bounded(needle: str, haystack: str, flags: int = 0) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(needle)}(?![\w-])", haystack, flags) is not None


def clean(sentence: str, labels: Sequence[str] = ()) -> str:
    """The sentence without its citations, list marker and emphasis marks."""
    out, last = [], 0
    for c in parse_citations(sentence, labels):
        out.append(sentence[last:c.span[0]])
        last = c.span[1]
    out.append(sentence[last:])
    text = "".join(out)
    text = re.sub(r"\(\s*\)|\[\s*\]", " ", text).translate(_PLAIN)
    text = _LIST_MARK.sub("", text)
    text = _EMPHASIS.sub("", text)
    return " ".join(text.split())


@lru_cache(maxsize=100_000)
def _stems(word: str) -> frozenset[str]:
    out = set()
    for language in (*tokens.LANGUAGES, ""):
        out.update(tokens.tokens(word, language))
    return frozenset(s for s in out if not s.isdigit())


@dataclass
class Claim:
    """What a sentence says, in units (see the module docstring)."""

    text: str  # the sentence without citations and markup
    words: list[tuple[str, frozenset[str]]]  # (surface, stems) of its content words
    exact: list[tuple[str, str]]  # (kind, token): number, code, url, ident, name
    keys: dict[str, str]  # key claim group -> the sentence's word
    language: str
    polar: str | None = None  # "bare" ("Oui."), "lead" ("Oui, ..."), None

    @property
    def units(self) -> int:
        """Content words, numbers and names count one; code, identifiers and URLs two
        (`import py_compile` states something; "10." does not)."""
        return len(self.words) + sum(EXACT_WEIGHT if kind in ("code", "ident", "url") else 1
                                     for kind, _ in self.exact)


@dataclass
class _Passage:
    text: str
    language: str
    stems: set[str]
    by_prefix: dict[str, list[str]]
    folded_words: set[str]
    folded: str
    spaced: str  # whitespace-normalized raw text
    numbers: set[str]
    windows: list[str] | None = None
    vectors: np.ndarray | None = None


@dataclass
class Support:
    supported: bool
    why: str
    passage: str | None = None  # the label(s) measured against
    new_words: list[str] = field(default_factory=list)
    found_words: list[str] = field(default_factory=list)
    exact: list[str] = field(default_factory=list)
    exact_missing: list[str] = field(default_factory=list)
    key_missing: list[str] = field(default_factory=list)
    share: float = 0.0
    cosine: float | None = None
    cross_language: bool = False
    route: str | None = None  # "words" or "meaning"

    def to_dict(self) -> dict[str, Any]:
        return {"supported": self.supported, "why": self.why, "passage": self.passage,
                "share": round(self.share, 3),
                "cosine": None if self.cosine is None else round(self.cosine, 3),
                "new_words": self.new_words, "found_words": self.found_words,
                "exact": self.exact, "exact_missing": self.exact_missing,
                "key_missing": self.key_missing, "cross_language": self.cross_language,
                "route": self.route}

    def rank(self) -> tuple:
        return (self.supported, self.share, self.cosine or 0.0)


class Judge:
    """Measures the support of sentences for one question (`embedder`: the bundled
    embedder for the cross-language route, or None; `dictionary`: FreeDict tables as
    `bilingual.dictionary` returns them, or None to use the installed ones if any)."""

    def __init__(self, question: str, embedder=None, dictionary=None):
        self.question = question
        self.language = tokens.question_language(question)
        self.embedder = embedder
        if dictionary is None:
            from preuve.retrieve import bilingual
            try:
                dictionary = bilingual.dictionary()
            except OSError:
                dictionary = {}
        self.dictionary = dictionary or {}
        q = self.claim(question, language=self.language)
        self.q_stems = {s for _, stems in q.words for s in stems}
        self.q_folded = tokens.fold(question)
        self.q_numbers = {t for kind, t in q.exact if kind == "number"}
        self._passages: dict[tuple, _Passage] = {}

    # ---------------------------------------------------------------- sentences

    def claim(self, sentence: str, labels: Sequence[str] = (), *,
              language: str | None = None) -> Claim:
        text = clean(sentence, labels)
        exact: list[tuple[str, str]] = []
        rest = text

        def take(pattern: re.Pattern, kind: str, group: int = 0) -> None:
            nonlocal rest
            for m in pattern.finditer(rest):
                value = " ".join(m.group(group).split())
                if value:
                    exact.append((kind, value))
            rest = pattern.sub(" ", rest)

        take(_CODE, "code", 2)
        take(_URL, "url")
        for m in _IDENT.finditer(rest):
            value = m.group().rstrip(".-")
            if not value or tokens.fold(value) in _ABBREVIATIONS:
                continue
            if re.fullmatch(r"\d+(?:[.,]\d+)*", value):
                exact.append(("number", _fold_number(value)))
            else:
                exact.append(("ident", value))
        rest = _IDENT.sub(" ", rest)
        for m in _NUMBER.finditer(rest):
            exact.append(("number", _fold_number(m.group())))
        rest = _NUMBER.sub(" ", rest)
        words: list[tuple[str, frozenset[str]]] = []
        keys: dict[str, str] = {}
        first = True
        for m in _WORD.finditer(rest):
            word = m.group()
            folded = tokens.fold(word)
            if folded in _KEY_WORDS:
                keys.setdefault(_KEY_WORDS[folded], word)
            if folded in _NUMBER_WORDS:
                exact.append(("number", _NUMBER_WORDS[folded]))
                first = False
                continue
            is_acronym = len(word) >= 2 and word.isupper() and word.isalpha()
            is_name = (not first and word[:1].isupper() and folded not in _NOT_NAMES
                       and folded not in tokens.STOPWORDS)
            first = False
            if (is_acronym or is_name) and folded not in YES_NO:
                exact.append(("name", re.sub(r"'s$", "", word)))  # Python's: Python
                continue
            if (folded in tokens.STOPWORDS or folded in FRAMING or folded in YES_NO
                    or len(folded) < 2):
                continue
            stems = _stems(word)
            if stems:
                words.append((word, stems))
        seen_exact = list(dict.fromkeys(exact))
        folded_words = [tokens.fold(w) for w in _WORD.findall(text)]
        polar = None
        if folded_words and set(folded_words) <= YES_NO | _BARE_EXTRA \
                and set(folded_words) & YES_NO and not seen_exact:
            polar = "bare"
        elif _POLAR_LEAD.match(text):
            polar = "lead"
        lang = language or tokens.detect_language(text) or self.language
        return Claim(text, words, seen_exact, keys, lang, polar)

    def new_units(self, claim: Claim) -> tuple[list[tuple[str, frozenset[str]]],
                                                list[tuple[str, str]]]:
        """The claim's words and exact tokens that the question does not hold."""
        words = [(w, s) for w, s in claim.words if not self._in_question(s)]
        exact = []
        for kind, value in claim.exact:
            if kind == "number":
                if value in self.q_numbers:
                    continue
            elif _bounded(tokens.fold(value), self.q_folded):
                continue
            exact.append((kind, value))
        return words, exact

    def _in_question(self, stems: frozenset[str]) -> bool:
        if stems & self.q_stems:
            return True
        return any(_prefix_match(s, q) for s in stems if len(s) >= 5
                   for q in self.q_stems if len(q) >= 5)

    # ---------------------------------------------------------------- passages

    def passage(self, hits: Sequence[Hit]) -> _Passage:
        key = tuple(h.chunk_id for h in hits)
        if key not in self._passages:
            body = "\n".join(h.text for h in hits).translate(_PLAIN)
            stems: set[str] = set()
            for language in (*tokens.LANGUAGES, ""):
                stems.update(tokens.tokens(body, language))
            by_prefix: dict[str, list[str]] = {}
            for s in stems:
                if len(s) >= 5:
                    by_prefix.setdefault(s[:5], []).append(s)
            words = [tokens.fold(w) for w in _WORD.findall(body)]
            numbers = {_fold_number(n) for n in re.findall(r"\d+(?:[.,]\d+)*", body)}
            numbers |= {_NUMBER_WORDS[w] for w in words if w in _NUMBER_WORDS}
            language = next((h.language for h in hits if h.language), "") \
                or tokens.detect_language(body)
            self._passages[key] = _Passage(body, language, stems, by_prefix, set(words),
                                           tokens.fold(body), " ".join(body.split()),
                                           numbers)
        return self._passages[key]

    def support(self, claim: Claim, hits: Sequence[Hit]) -> Support:
        """How well the passage(s) `hits` (read as one) support `claim`."""
        label = ", ".join(h.label for h in hits)
        p = self.passage(hits)
        cross = bool(claim.language and p.language and claim.language != p.language)
        words, exact = self.new_units(claim)
        result = Support(False, "", label, new_words=[w for w, _ in words],
                         exact=[v for _, v in exact], cross_language=cross)
        if not words and not exact:
            result.why = "restates the question"
            return result
        translate = (claim.language, p.language) if cross else None
        result.found_words = [w for w, s in words if self._has_word(s, p, translate)]
        result.exact_missing = [v for kind, v in exact if not _has_exact(kind, v, p)]
        result.key_missing = [word for group, word in claim.keys.items()
                              if not (KEY_GROUPS[group] & p.folded_words)]
        found_exact = len(exact) - len(result.exact_missing)
        total = len(words) + EXACT_WEIGHT * len(exact)
        result.share = (len(result.found_words) + EXACT_WEIGHT * found_exact) / total
        if result.exact_missing:
            result.why = "not in the passage: " + ", ".join(result.exact_missing)
            return result
        if result.key_missing:
            result.why = "key claim word absent from the passage: " + ", ".join(
                result.key_missing)
            return result
        if result.share >= MIN_SHARE:
            result.supported, result.route, result.why = True, "words", "supported"
            return result
        if cross and self.embedder is not None and not self.dictionary.get(translate):
            result.cosine = self._meaning(claim.text, p)
            if result.cosine >= MIN_MEANING:
                result.supported, result.route, result.why = True, "meaning", "supported"
                return result
            result.why = (f"across languages, closest meaning {result.cosine:.3f} < "
                          f"{MIN_MEANING}")
            return result
        result.why = f"share of new words in the passage {result.share:.2f} < {MIN_SHARE}"
        if cross and not self.dictionary.get(translate):
            result.why += " (across languages, without dictionary or embedder)"
        return result

    def _has_word(self, stems: frozenset[str], p: _Passage,
                  translate: tuple[str, str] | None = None) -> bool:
        if stems & p.stems:
            return True
        for s in stems:
            if len(s) >= 5 and any(_prefix_match(s, c) for c in p.by_prefix.get(s[:5], ())):
                return True
        # across languages only: within one, a translation's stem is a loose synonym
        table = self.dictionary.get(translate) if translate else None
        for s in stems if table else ():
            for translation in table.get(s, ()):
                if _stems(translation) & p.stems:
                    return True
        return False

    def _meaning(self, text: str, p: _Passage) -> float:
        if p.windows is None:
            from preuve.answer.attribution import sentences

            units = [" ".join(s.split()) for s in sentences(p.text)]
            units = [u for u in units if len(u.split()) >= 3][:40]
            windows = units + [f"{a} {b}" for a, b in zip(units, units[1:], strict=False)]
            p.windows = windows or [p.spaced[:2000]]
            p.vectors = np.asarray(self.embedder.embed_queries(p.windows))
        vector = np.asarray(self.embedder.embed_queries([text]))[0]
        return float(np.max(p.vectors @ vector))


def _prefix_match(a: str, b: str) -> bool:
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    return len(shorter) >= 5 and longer.startswith(shorter)


def _has_exact(kind: str, value: str, p: _Passage) -> bool:
    if kind == "number":
        return value in p.numbers
    if kind == "name":
        return _bounded(tokens.fold(value), p.folded)
    if kind == "url":
        return value in p.spaced
    if kind == "ident":
        return _bounded(value, p.spaced)
    # code: verbatim, else each of its pieces verbatim (placeholders aside)
    if value in p.spaced:
        return True
    pieces = [piece for piece in value.split()
              if re.search(r"\w", piece) and not re.fullmatch(r"<[^>]*>|\[[^\]]*\]|\.\.\.",
                                                              piece)]
    return bool(pieces) and all(_bounded(piece, p.spaced) for piece in pieces)


# --------------------------------------------------------------------------- degenerate

def _words(text: str) -> list[str]:
    return re.findall(r"\w+", tokens.fold(text))


def degenerate(text: str, question: str, prompt: str = "",
               labels: Sequence[str] = ()) -> str | None:
    """Why `text` is no answer at all (None when it may be one): it loops (a run of words
    repeated three times in a row, or six for a single word), repeats a sentence or a run
    of eight words, echoes the question (all its words in order, five words or more) or
    the prompt (eight words in a row of the instructions, or its `Question:` and
    `Passages:` labels and `--- ` passage headers). The reason quotes none of the text
    (it may reach a caller; the text is the operator's, in `rejected`)."""
    from preuve.answer.attribution import sentences

    words = _words(clean(text, labels))
    for n in range(1, 16):
        need = max(3, math.ceil(6 / n))
        for i in range(0, len(words) - n * need + 1):
            unit = words[i:i + n]
            if all(words[i + k * n:i + (k + 1) * n] == unit for k in range(1, need)):
                return (f"the answer loops (a run of {n} word(s) {need} times in a row)")
    seen: set[tuple[str, ...]] = set()
    for piece in sentences(text):
        key = tuple(_words(clean(piece, labels)))
        if len(key) >= 3:
            if key in seen:
                return "the answer repeats a sentence"
            seen.add(key)
    grams: dict[tuple[str, ...], int] = {}
    for i in range(len(words) - 7):
        gram = tuple(words[i:i + 8])
        if gram in grams and i - grams[gram] >= 8:
            return "the answer repeats itself (a run of eight words twice)"
        grams.setdefault(gram, i)
    asked = _words(question)
    if len(asked) >= 5 and _contains(words, asked):
        return "the answer repeats the question"
    if re.search(r"^\s*(?:question|passages|réponse|answer)\s*:|^\s*--- ", text,
                 re.I | re.M):
        return "the answer echoes the prompt (its labels or passage headers)"
    instructions = _words(prompt)
    prompt_grams = {tuple(instructions[i:i + 8]) for i in range(len(instructions) - 7)}
    if any(tuple(words[i:i + 8]) in prompt_grams for i in range(len(words) - 7)):
        return "the answer echoes the prompt's instructions"
    return None


def _contains(words: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(words[i:i + n] == run for i in range(len(words) - n + 1))


def is_heading(sentence: str, passages: Sequence[Hit], labels: Sequence[str] = ()) -> bool:
    """A title or heading copied from a passage (or shaped like one): no statement."""
    from preuve.answer.extractive import is_navigation

    text = clean(sentence, labels)
    if not text or is_navigation(sentence.strip()) or is_navigation(text):
        return True
    if re.search(r"[.!?…:;]$", text) or len(text.split()) > 10:
        return False
    folded = " ".join(_words(text))
    titles = {" ".join(_words(part)) for h in passages
              for part in [h.title, *h.heading.split(">")] if part and part.strip()}
    return folded in titles or bool(_NUMBERED_HEADING.match(text))


def is_fence(sentence: str) -> bool:
    return bool(_FENCE.match(sentence))
