"""Tokens for keyword search, shared by documents, code and questions.

One tokenizer for prose and code, because a question in French ("où est gérée la
numérotation ?") must meet code written without accents (`prochain_numero`) and codes
such as `LB-1` or `PK-2200-07` must stay findable whole:

- codes (letters and digits joined by `-`, `_` or `.`, with at least one digit) are kept
  whole *and* as their parts;
- identifiers are kept whole and split on snake_case and CamelCase;
- French elisions (`l'`, `d'`, `qu'`...) are dropped, stop words removed;
- words are stemmed (French or English snowball) and then stripped of accents.

Documents are stemmed in their own language, or not at all when it cannot be told (a
short note); a question's language is unknown, so `query_terms` returns the stems of both
languages and the unstemmed form.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

try:  # the Snowball algorithms compiled to C: the same stems, ~10× faster than in Python
    import Stemmer as _snowball_c
except ImportError:  # pragma: no cover - a platform without a PyStemmer wheel
    _snowball_c = None
import snowballstemmer

LANGUAGES = ("fr", "en")

_STOP = {
    "fr": """a à afin ai aie ainsi alors au aucun aussi autre aux avec avoir c ça car ce ceci
    cela celle celles celui ces cet cette ceux chaque ci comme comment d dans de des donc dont
    du elle elles en encore est et été être eu fait faire il ils j je l la le les leur leurs
    lui m ma mais me même mes moi mon n ne ni nos notre nous on ont ou où par pas pour qu
    quand que quel quelle quelles quels qui s sa sans se ses si son sont sous sur t ta te tes
    toi ton tous tout toute toutes tu un une vos votre vous y est-ce""".split(),
    "en": """a about an and are as at be been being but by can could did do does for from had
    has have how i if in into is it its me my no not of on or our so such than that the their
    them then there these they this those to too us was we were what when where which who
    whom why will with would you your""".split(),
}
_FOLDED_STOP = {language: frozenset(unicodedata.normalize("NFKD", w).encode("ascii", "ignore")
                                   .decode() for w in words)
                for language, words in _STOP.items()}
STOPWORDS = frozenset().union(*_FOLDED_STOP.values())

_ELISION = re.compile(r"\b(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)['’](?=\w)", re.I)
# A unit is a run of letters/digits possibly joined by - _ . (kept together for codes).
_UNIT = re.compile(r"[^\W_]+(?:[-_.][^\W_]+)*|_+[^\W_]+(?:_[^\W_]+)*", re.UNICODE)
# CamelCase and letter/digit boundaries, for any script: HTTPServer -> HTTP Server.
_CAMEL = re.compile(
    r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])"  # letter/digit
    r"|(?<=[^\W\d_])(?<![A-ZÀ-Þ])(?=[A-ZÀ-Þ])"  # lower -> Upper
    r"|(?<=[A-ZÀ-Þ])(?=[A-ZÀ-Þ][a-zß-ÿ])"  # HTTPServer: P|S
)


# A short option ("-v", "-C"): its letter alone is no word, yet it is what a question about
# a command names ("what does grep -v do?"). A term of its own, kept as written: `-V` is
# another option than `-v` (FTS5, the fallback engine, folds them together)
SHORT_OPTION = re.compile(r"(?<![\w-])-[^\W\d_](?![\w-])")

# an acronym's plural ("PDFs", "URLs", "IDs"): one word, not "PD" and "Fs"
_PLURAL_ACRONYM = re.compile(r"^[A-ZÀ-Þ]{2,}s$")


def fold(text: str) -> str:
    """Lower case without accents: 'Numérotation' -> 'numerotation'."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=4)
def _stemmer(language: str):
    name = {"fr": "french", "en": "english"}[language]
    if _snowball_c is not None:
        return _snowball_c.Stemmer(name)
    return snowballstemmer.stemmer(name)


def other_language_stopword(word: str, language: str) -> bool:
    """`word` is a function word of the other language only: English "comment", "car",
    "son" are French ones, which the index keeps no term of (its plural it keeps)."""
    folded = fold(word)
    return folded in STOPWORDS and folded not in _FOLDED_STOP[language]


@lru_cache(maxsize=200_000)
def stem(word: str, language: str) -> str:
    """Stem a lower-case word in `language` ('' = no stemming), then fold accents."""
    if language in LANGUAGES and word.isalpha():
        word = _stemmer(language).stemWord(word)
    return fold(word)


def loosely(words: Iterable[Iterable[str]], found: set[str]) -> set[str]:
    """`found` with each stem of `words` that a found stem of five letters or more starts
    with, or that starts with one: stemmers cut a word's forms apart ("retours" -> retour,
    "retourner" -> retourn; "répond" -> repond, "répondra" -> repondr). Two stems of
    letters only are at most LOOSE_LETTERS apart: a longer one is another word
    ("directrice" -> directric is not "direction" -> direct); a form with figures or a
    hyphen may run on ("64-bit" in "64-bitness"); a plural's s or x counts at any length
    (`_plural`)."""
    long = [f for f in found if len(f) >= 5]
    return found | {stem for group in words for stem in group if (len(stem) >= 5
                    and any((f.startswith(stem) or stem.startswith(f))
                            and (abs(len(f) - len(stem)) <= LOOSE_LETTERS
                                 or not stem.isalpha()) for f in long)) or _plural(stem, found)}


def _plural(stem: str, found: set[str]) -> bool:
    """`stem` is one of `found` with or without a plural's final s or x, which French
    stemming keeps after a vowel ("zéros" -> zeros, "zéro" -> zero; "tuyaux")."""
    if len(stem) < 3 or not stem.isalpha():
        return False
    if stem[-1] in "sx" and stem[:-1] in found:
        return len(stem) > 3
    return stem + "s" in found or stem + "x" in found


# `loosely`: how many letters two stems of one word's forms may differ by
LOOSE_LETTERS = 2


def _parts(unit: str) -> tuple[list[str], list[str]]:
    """Split a unit into (whole forms to keep as is, word parts to stem)."""
    has_digit = any(c.isdigit() for c in unit)
    joined = any(c in "-_." for c in unit)
    camel = (unit[:1].islower() and any(c.isupper() for c in unit) or (
        unit[:1].isupper() and any(c.isupper() for c in unit[1:]) and any(c.islower() for c in unit)
    )) and not _PLURAL_ACRONYM.match(unit)
    wholes: list[str] = []
    if (joined and (has_digit or "_" in unit)) or camel:
        whole = fold(unit.strip("_."))
        if any(c in "-_." for c in whole) or camel:
            wholes.append(whole)
    pieces = [p for p in re.split(r"[-_.]+", unit) if p]
    words: list[str] = []
    for piece in pieces:
        if _PLURAL_ACRONYM.match(piece):
            words.append(piece[:-1])  # "PDFs": PDF
        else:
            words.extend(w for w in _CAMEL.split(piece) if w)
    if not words:  # non-latin scripts: keep the piece itself
        words = pieces
    return wholes, [w.lower() for w in words]


def _units(text: str) -> list[str]:
    """The units of `text` (words, identifiers, dotted or dashed forms), elisions cut."""
    return _UNIT.findall(_ELISION.sub(" ", text))


def tokens(text: str, language: str = "") -> list[str]:
    """Index tokens of `text`, stemmed in `language` ('fr', 'en' or '' for none)."""
    out: list[str] = []
    for unit in _units(text):
        out.extend(_unit_tokens(unit, language))
    out.extend(SHORT_OPTION.findall(text))
    return out


@lru_cache(maxsize=200_000)
def _unit_tokens(unit: str, language: str) -> tuple[str, ...]:
    """The tokens of one unit (cached: text repeats its words, ingest tokenizes millions)."""
    wholes, words = _parts(unit)
    out = list(wholes)
    for word in words:
        folded = fold(word)
        if folded in STOPWORDS or (len(folded) < 2 and not folded.isdigit()):
            continue
        out.append(stem(word, language))
    return tuple(out)


@lru_cache(maxsize=4096)
def query_terms(text: str) -> tuple[str, ...]:
    """Distinct search terms of a question: its tokens stemmed in every language, then the
    unstemmed ones (documents whose language was not detected are indexed unstemmed; the
    unstemmed form is a new term only where it differs from both stems), in order.
    Remembered per question: a hybrid search, `compare` and the answer path analyse the
    same question several times, and people ask the same ones again."""
    units = _units(text)  # split once, stemmed per language (cached per unit)
    seen: dict[str, None] = {}
    for language in (*LANGUAGES, ""):
        for unit in units:
            seen.update(dict.fromkeys(_unit_tokens(unit, language)))
    seen.update(dict.fromkeys(SHORT_OPTION.findall(text)))
    return tuple(seen)


_FR_HINTS = frozenset("le la les des du une est et pour dans sur avec qui que pas au aux".split())
_EN_HINTS = frozenset("the and of to is in for with that are on this be by from as it".split())


def detect_language(text: str) -> str:
    """'fr', 'en' or '' by counting frequent function words; enough for stemming choices."""
    words = re.findall(r"[a-zàâçéèêëîïôûùüÿœ]+", text[:20000].lower())
    fr = sum(w in _FR_HINTS for w in words)
    en = sum(w in _EN_HINTS for w in words)
    if fr + en < 3:
        return ""
    return "fr" if fr > en else "en"


_FR_QUESTION = frozenset("""quel quelle quels quelles combien comment pourquoi où est-ce
qui que quand les des une est sont peut puis dois faut pour dans sur avec mon ma mes
notre nos votre vos je nous vous il elle on et ou du de la le quoi un c'est qu'est-ce
ce cet cette ces ne pas au aux en""".split())
_EN_QUESTION = frozenset("""what which how why where when who whom whose is are can
could should must do does did the a an of for to in on with my our your i we you it and
or""".split())


def collection_language(samples: Iterable[str], agree: float = 0.8) -> str:
    """The language of a collection of short texts (the records of a FAQ): the one that at
    least `agree` of the texts whose language can be told are in, else ''.

    A one-sentence answer often holds fewer than three frequent function words, and is then
    indexed unstemmed: its words no longer meet the question's stems. Within a collection
    written in one language, such a record takes the collection's language instead."""
    counts = {language: 0 for language in LANGUAGES}
    for sample in samples:
        language = detect_language(sample)
        if language:
            counts[language] += 1
    told = sum(counts.values())
    best = max(counts, key=counts.get)
    return best if told and counts[best] >= agree * told else ""


@lru_cache(maxsize=4096)
def question_language(question: str) -> str:
    """'fr' or 'en' for a short question (the refusal string and prompt depend on it).
    Remembered: retrieval, the judgment, the answerer and the refusal each ask it of the
    same question."""
    words = re.findall(r"[a-zàâçéèêëîïôûùüÿœ'-]+", question.lower())
    fr = sum(w in _FR_QUESTION for w in words)
    en = sum(w in _EN_QUESTION for w in words)
    if fr != en:
        return "fr" if fr > en else "en"
    return "fr" if re.search(r"[àâçéèêëîïôûùüÿœ]", question.lower()) else "en"


# The short forms code writes for common words (`args`, `req`, `ctx`): a question says
# "arguments", the code `args`. `code_abbreviations` adds them to a code search's words.
CODE_ABBREVIATIONS = {
    "address": "addr", "allocate": "alloc", "application": "app", "argument": "arg args",
    "attribute": "attr attrs", "authentication": "auth", "authorization": "auth authz",
    "buffer": "buf", "callback": "cb", "certificate": "cert", "character": "char",
    "command": "cmd", "compare": "cmp", "configuration": "config cfg conf",
    "connection": "conn", "context": "ctx", "count": "cnt", "current": "cur curr",
    "database": "db", "decrement": "dec", "default": "def", "delete": "del",
    "description": "desc", "destination": "dst dest", "dictionary": "dict",
    "directory": "dir", "document": "doc", "element": "elem", "environment": "env",
    "error": "err", "exception": "exc", "execute": "exec", "expression": "expr",
    "format": "fmt", "function": "func fn", "generate": "gen", "identifier": "id",
    "implementation": "impl", "increment": "inc", "index": "idx", "information": "info",
    "initialize": "init", "iterator": "iter", "length": "len", "library": "lib",
    "maximum": "max", "message": "msg", "minimum": "min", "number": "num",
    "object": "obj", "package": "pkg", "parameter": "param params", "password": "pwd passwd",
    "pointer": "ptr", "previous": "prev", "reference": "ref", "request": "req",
    "response": "res resp", "source": "src", "specification": "spec", "statistic": "stats",
    "string": "str", "synchronize": "sync", "temporary": "tmp temp", "utility": "util utils",
    "value": "val", "variable": "var", "version": "ver",
}
# English irregular verb forms, which no stemmer brings back to the verb code names its
# functions by: a question says "where is the message written", the code `write`
IRREGULAR_VERBS = {
    "written": "write", "wrote": "write", "rewritten": "rewrite", "overwritten": "overwrite",
    "sent": "send", "found": "find", "built": "build", "rebuilt": "rebuild", "made": "make",
    "kept": "keep", "thrown": "throw", "threw": "throw", "chosen": "choose",
    "chose": "choose", "given": "give", "gave": "give", "taken": "take", "took": "take",
    "held": "hold", "got": "get", "gotten": "get", "shown": "show", "known": "know",
    "knew": "know", "bound": "bind", "hidden": "hide", "hid": "hide", "broken": "break",
    "broke": "break", "frozen": "freeze", "forgotten": "forget", "caught": "catch",
    "brought": "bring", "sought": "seek", "dealt": "deal", "meant": "mean", "lost": "lose",
    "paid": "pay", "said": "say", "told": "tell", "spent": "spend", "stuck": "stick",
    "hung": "hang", "begun": "begin", "began": "begin", "drawn": "draw", "drew": "draw",
    "ran": "run", "overridden": "override", "undone": "undo", "fed": "feed", "led": "lead",
    "left": "leave", "lent": "lend", "sold": "sell", "understood": "understand",
    "woken": "wake", "spun": "spin", "split": "split", "slept": "sleep", "fell": "fall",
    "fallen": "fall", "grown": "grow", "thought": "think", "struck": "strike",
}
# The verbs code names an action by, for the everyday words a question uses for it: a
# question says "posted to Slack", the code `send` or `write`
CODE_VERBS = {
    "post": "send write", "posted": "send write", "transmit": "send pass",
    "deliver": "send", "forward": "send pass",
    "erase": "delete remove", "wipe": "delete clear", "discard": "drop remove",
    "store": "save write", "persist": "save write",
    "fetch": "get load read", "retrieve": "get load", "obtain": "get",
    "transform": "convert",
    "verify": "check validate", "ensure": "check",
    "launch": "start run", "execute": "run", "invoke": "call run",
    "halt": "stop", "terminate": "stop close kill", "modify": "update set",
}
_ABBREVIATION_STEMS = {stem(word, "en"): short for word, short in CODE_ABBREVIATIONS.items()}
for _verb, _names in CODE_VERBS.items():
    _ABBREVIATION_STEMS.setdefault(stem(_verb, "en"), _names)
_ABBREVIATION_STEMS.update({stem(form, "en"): verb for form, verb in IRREGULAR_VERBS.items()
                            if form != verb})


# an irregular form's stem -> its verb's ("forgotten" -> forget, "lost" -> lose)
_IRREGULAR_STEMS = {stem(form, "en"): stem(verb, "en") for form, verb in IRREGULAR_VERBS.items()
                    if stem(form, "en") != stem(verb, "en")}


def with_verbs(found: set[str]) -> set[str]:
    """`found` (stems) with the verbs of the irregular forms it holds, so that a question's
    "forget" meets a page's "If the passphrase is lost or forgotten"."""
    return found | {_IRREGULAR_STEMS[s] for s in found if s in _IRREGULAR_STEMS}


def code_abbreviations(text: str) -> str:
    """The short forms code uses for the words of `text` ("arguments" -> "arg args"), the
    verbs of its irregular forms ("written" -> "write") and the verbs code names its
    everyday ones by ("posted" -> "send write"), as one string ('' when there are none)."""
    out: dict[str, None] = {}
    for unit in _units(text):
        for word in _parts(unit)[1]:
            short = _ABBREVIATION_STEMS.get(stem(word, "en"))
            if short:
                out.update(dict.fromkeys(short.split()))
    return " ".join(out)
