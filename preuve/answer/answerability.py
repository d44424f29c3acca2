"""Is the answer in the passages? A judgment made before anything is written, from what is
measurable without a model that writes, so that a fresh index refuses out-of-scope
questions with no `calibrate` run:

* coverage: the share of the question's words found in the passages the answer will be
  drawn from, each word weighted by its IDF among the passages the caller may read (a word
  no readable passage holds weighs most: "CEO", "salaire" asked of a handbook that never
  says them). A word counts as found when its French or English stem is there.
* dense evidence: the best cosine between the question and a readable passage, against
  defaults shipped with the bundled model (`E5_DEFAULTS`, set from public sets, see
  docs/answers.md).
* agreement: whether keyword and dense retrieval both rank one of the first passages
  near the top.

`judge` combines them; `Judgment.numbers` is what `ask --explain` shows. A threshold made
by `calibrate` on the index's own questions refines this, it does not replace it."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from preuve import text as tokens
from preuve.answer.intent import asked_part, sets_scene
from preuve.models import ASK_K, Hit
from preuve.retrieve.bilingual import plain_senses
from preuve.retrieve.fusion import FUSED

_PRONOUN_CONTRACTION = re.compile(r"['’](?:ve|re|d|ll|m)$", re.I)
_CONTRACTION = re.compile(r"['’](?:ve|re|s|d|ll|m|t)$|n['’]t$", re.I)  # I've, don't
_NUMBER = re.compile(r"^[\d.,:/-]+$")  # 0.2, 3.11, 2026-11-05: figures, never names
# A word found only through its dictionary translation counts this share of its weight.
TRANSLATED_CREDIT = 0.75
# How many passages the answer is drawn from (the extractive answerer's best passages).
PASSAGES = 3
# Document frequencies are counted up to this many passages: rarer words are told apart
# exactly, commoner ones all weigh little.
DF_CAP = 200
# A hit "agrees" when both keyword and dense retrieval rank it within this many.
AGREE_RANK = 10


@dataclass(frozen=True)
class Defaults:
    """Decision thresholds for one embedding model.

    Refuse when the dense evidence is under `dense_floor`; else answer when the coverage
    reaches `coverage_min`, or when the dense evidence reaches `dense_sure`, keyword and
    dense retrieval agree and the coverage still reaches `coverage_floor` (a question
    whose weighted words are mostly absent is about something else, however close its
    meaning), `context_floor` for a question that sets the scene before asking ("I'm
    retouching an old portrait of my grandmother… How do I…?": the user's situation is in
    words no manual holds); else refuse. A question whose first passage is in another
    language is judged on dense thresholds lowered by `across_languages` (`asked_across`):
    e5 places a question nearer a passage in its own language, so the same meaning reads
    lower across languages (docs/answers.md, "Twenty-second session")."""

    dense_floor: float
    dense_sure: float
    coverage_min: float
    coverage_floor: float = 0.33
    context_floor: float = 0.2
    # how much lower the dense evidence reads when the question and its first passage are
    # in different languages (the same meaning, measured across them)
    across_languages: float = 0.0

    def asked_across(self) -> Defaults:
        """These thresholds for a question asked across languages: the dense ones lowered
        by `across_languages`."""
        return replace(self, dense_floor=self.dense_floor - self.across_languages,
                       dense_sure=self.dense_sure - self.across_languages)


# multilingual-e5-small (int8, bundled). See docs/answers.md for how they were set.
E5_DEFAULTS = Defaults(dense_floor=0.80, dense_sure=0.86, coverage_min=0.45,
                       across_languages=0.02)
# keyword-only indexes have no dense evidence: coverage alone decides
KEYWORD_DEFAULTS = Defaults(dense_floor=-1.0, dense_sure=2.0, coverage_min=0.5)


@dataclass
class Judgment:
    answerable: bool
    reason: str | None
    numbers: dict = field(default_factory=dict)


# Words that make a question a question (asked of anything), and the English pronouns
# the keyword analyzer keeps ("he", "his": a person of the user's story): never what
# it is about.
_ASKING_FR = """
combien comment pourquoi quoi lequel laquelle lesquels lesquelles peux peut peuvent
pouvons pouvez dois doit doivent devons devez faut suis sommes êtes ai as avez avons
existe-t-il sait savoir dire"""
_ASKING_EN = """
much many am can may might must shall should does did do get tell know there he his him
himself she her hers herself mine yours ours theirs themselves myself yourself ourselves
itself"""
_ASKING = frozenset(tokens.fold(w) for w in f"{_ASKING_FR} {_ASKING_EN}".split())
# Ordinary verbs of either language (and their common forms): what any question does, never
# what it is about ("à quoi sert", "what does X do", "how do I make it work").
_ORDINARY_FR = """
sert servent servir sers fait font faire fais est sont etre être ete été avoir avez ont a
vais va vont aller marche marcher fonctionne fonctionner utilise utiliser utilisé veux
veut voulez vouloir voudrais dit dire signifie signifier mettre mets met prendre prend
trouver trouve voir vois passe passer arrive arriver faut falloir dois devoir sais peux
pouvoir tourne tourner tournent marche quelqu quelqu'un quelque chose choses truc trucs
peu près environ approximativement exactement vraiment autre autres même vient viennent
venir venu vienne viens venons venez provient proviennent provenir retrouver retrouve
retrouvé chez rester reste restent juste précise précises précisent préciser précisé
précisée précisés précisant concrètement genre tel telle tels telles lorsqu puisque parmi
envers durant hormis vaut valent valoir donne donnes donnent donner donné donnée donnés
obtenir obtient obtiens obtiennent pense pensent penser crois croit croire partout
simplement facile facilement façon facon manière maniere meilleur meilleure meilleurs
mieux rapide rapidement correctement entier entière entiers entières possibles proprement
bien aimerais aimerait aimerions aimeriez souhaite souhaites souhaitons souhaiterais
souhaiterait voudrait voudrions veulent depuis vers via jamais toujours souvent parfois
déjà encore soit soient sois soyez soyons sera seront serait seraient était étaient étais
aura auront aurait auraient avait avaient mis mise mises eux lui leur leurs après avant
pendant lorsque puis ensuite selon malgré plusieurs sauf autour entre uniquement seulement
très trop rien non aucune quelques certains certaines chacun chacune connaître connaitre
connais connaît connait exact exacte exacts exactes tape tapes tapent taper tapé marchent
marchait pourrai pourrais pourra pourrait pourront propre propres"""
_ORDINARY_EN = """
is are was were be been being has have had make makes made does work works use used using
want wants need needs mean means see find happen happens go goes put keep let seem try
give take come look someone somebody something anything everything else same one ones
thing things way about roughly approximately exactly actually really aren isn wasn weren
doesn don didn won wouldn shouldn couldn hasn haven hadn anymore still already just also
even ever never yet stay stays concretely onto upon towards toward throughout despite
beneath underneath besides amongst among whereas whether versus specify specifies
specified specifying got gotten think thinks thought believe believes everywhere anywhere
somewhere simple simplest simply easy easiest easily quick quickly quickest fast fastest
best better good proper properly correct correctly right whole entire entirely inside
possible possibly normal normally nice nicely always often sometimes usually
before after during while since instead rather again because without except around through
between within only very too nothing none nobody each every all any some both either
neither several few own per out up pass passes passed passing arrive arrives rest exact
now though other"""
_ORDINARY = frozenset(tokens.fold(w) for w in f"{_ORDINARY_FR} {_ORDINARY_EN}".split())
# ... the English ones, whose English forms are ordinary too ("getting", "works")
_ENGLISH_ORDINARY = frozenset(tokens.fold(w) for w in f"{_ASKING_EN} {_ORDINARY_EN}".split())
# ... and the French ones that are English nouns: an English question's "font" is no French
# "they do"
_FRENCH_ONLY = frozenset({"font"})
# Words that only shape a question of duration: "combien de temps", "how long", "how much
# time" ask for a figure, not for the word
_HOW_LONG = re.compile(r"\b(combien de temps|how long|how much time)\b", re.I)
_HOW_LONG_WORDS = frozenset({"temps", "long", "time"})


def question_words(question: str, translate: Callable[[str], str] | None = None
                   ) -> list[frozenset[str]]:
    """The question's content words, each as the set of its French and English stems, and
    with `translate` (a word -> its translation in the other language) the stems of its
    translation too: "virgule flottante" is found in "floating point". Words of asking
    ("combien", "how much", "should") and ordinary verbs ("sert", "does") are left out."""
    return list(dict.fromkeys(stems for _, stems in content_words(question, translate)))


@lru_cache(maxsize=1)
def _ordinary_english_stems() -> frozenset[str]:
    """The English stems of the English asking words and ordinary verbs (not of the
    French ones: "précises" would stem as "precision" does, "font" as the noun)."""
    return frozenset(t for w in _ENGLISH_ORDINARY for t in tokens.tokens(w, "en"))


def _english_form_of_ordinary(word: str) -> bool:
    """An English form of an ordinary verb or asking word: "getting", "works", "needed"
    ("get", "work", "need"), its stem being theirs (English only: French stems join
    "marché" to "marche")."""
    stems = tokens.tokens(word, "en")
    return len(stems) == 1 and stems[0] in _ordinary_english_stems()


# A French verb's inverted subject: "faut-il", "peut-on", "sont-elles", "y a-t-il"
_INVERTED = re.compile(r"(?:-t)?-(?:il|elle|on|ils|elles|je|tu|nous|vous|ce)$", re.I)


# Phrases that work as one function word: "au lieu de" is "instead of", not a place
_FUNCTION_PHRASE = re.compile(r"\b(?:au lieu d(?:e|u|es)?|à la place d(?:e|u|es)?|"
                              r"à partir d(?:e|u|es)?|"
                              r"au fur et à mesure|de temps en temps|à peu près|"
                              r"in place of|instead of|as well as|a lot of|lots of|a little|"
                              r"(?:make|makes|making|be) sure(?: that)?|"
                              r"faire en sorte (?:que|qu['’])|"
                              r"(?:i|we|you)['’]d like|(?:go|goes|went|gone|going) wrong|"
                              # what any question does: "…if I ask for a line number past
                              # the end", "asking for the parent of…" (not "ask me", "ask
                              # for confirmation": a prompt)
                              r"(?:if (?:i|you|we) )?(?:ask|asks|asked|asking) for"
                              r"(?! confirmation)|"
                              # asking for a default: "…if I don't say", "si je précise rien"
                              r"if (?:i|you|we) (?:don['’]t|do not|never) (?:say|specify|tell "
                              r"it|give|pass|set|change)(?: (?:anything|otherwise|it))?|"
                              # idioms of "how it works inside"; "out of the box" asks
                              # for a default, which the question's other words say
                              r"(?:right |straight )?out[ -]of[ -]the[ -]box|d['’]usine|"
                              r"under the hood|behind the scenes|sous le capot|en coulisses?|"
                              # "all at once": how, not what
                              r"d['’]un (?:seul )?coup|en une (?:seule )?fois|in one go|"
                              r"en tant que|en tant qu['’]|"
                              # what the documents say is where the answer is, not
                              # what it is about: "why does the documentation say…"
                              r"(?:the |this |la |le )?(?:docs?|documentation|manual|"
                              r"man ?page|guide|manuel)\s+(?:says?|said|tells?|dit|disent)|"
                              r"(?:in|from) (?:the|this) (?:docs?|documentation|manual|"
                              r"man ?page)|(?:dans|d['’]après) (?:le|ce|la|cette) (?:manuel|"
                              r"doc|documentation|page de manuel)|"
                              r"à la place\s*(?=[?.!]|$)|"
                              # a judgment asked about: "why is X a bad idea?"
                              r"an? (?:good|bad|great|terrible) idea|"
                              r"une (?:bonne|mauvaise) idée|"
                              # "Bash n'arrête pas de biper": it keeps doing so
                              r"n['’]arr[eê]te(?:nt)? pas d['e]|ne cessent? (?:pas )?d['e]|"
                              r"keeps? on|"
                              r"all at once|"
                              # "no matter if the text is upper or lower case", "peu importe"
                              r"no matter (?:if|whether|what|how|which|who|where|when)|"
                              r"(?:peu |n['’])importe (?:si|s['’]|quel(?:le)?s?|comment|où|qui|"
                              r"quand)|"
                              r"si (?:je|on|tu) (?:ne )?(?:précise|dis|indique)s? rien)"
                              r"\b['’]?", re.I)


def without_function_phrases(question: str) -> str:
    """`question` without the phrases that work as one function word ("in one go",
    "instead of", "make sure that"): what its words to find are read from."""
    return _FUNCTION_PHRASE.sub(" ", question)


def content_words(question: str, translate: Callable[[str], str] | None = None
                  ) -> list[tuple[str, frozenset[str]]]:
    """(the word as written, its stems) for each content word of `question` (see
    `question_words`); with the stems of its translation (`translate`) and of the words
    manuals say for it (`bilingual.plain_senses`)."""
    out: list[tuple[str, frozenset[str]]] = []
    question = without_function_phrases(question)
    plain = plain_senses(question)  # "soft link" is found as "symbolic link"
    shaping = _HOW_LONG_WORDS if _HOW_LONG.search(question) else frozenset()
    question_language_en = tokens.question_language(question) == "en"
    ordinary = (_ASKING | _ORDINARY) - (_FRENCH_ONLY if question_language_en else frozenset())
    opens = True  # the word opens a sentence
    for raw in question.replace("?", "? ").split():
        word = _INVERTED.sub("", raw.strip(".,;:!?'’\"«»()"))  # "faut-il" asks as "faut"
        word = _PRONOUN_CONTRACTION.sub("", word)  # "I've", "we're": no "ve", "re" to find
        bare = tokens.fold(word)
        # an ordinary word written with a capital inside a sentence names something:
        # Python's "None", HTTP's "GET"
        named = not opens and word[:1].isupper()
        opens = raw.endswith((".", "!", ":", ";", "?"))
        if not word or bare in shaping or (not named and (
                bare in ordinary
                or tokens.fold(tokens._ELISION.sub("", word)) in ordinary
                or (question_language_en and _english_form_of_ordinary(bare)))):
            continue
        by_language = [tokens.tokens(word, lang) for lang in tokens.LANGUAGES]
        if len({len(t) for t in by_language}) != 1:  # not aligned: one term per stem
            stems = [frozenset([t]) for t in dict.fromkeys(x for ts in by_language for x in ts)]
        else:
            stems = [frozenset(group) for group in zip(*by_language, strict=True)]
        if len(stems) > 1 and re.fullmatch(r"[^\W\d_]+-[^\W\d_]+", word) and \
                not any("-" in t for group in stems for t in group):
            # a compound is found written in one word too: "one-line" as `--oneline`
            joined = {t for lang in tokens.LANGUAGES
                      for t in tokens.tokens(word.replace("-", ""), lang)}
            stems = [group | joined for group in stems]
        if translate is not None and len(stems) > 1 and "-" in word.strip("-"):
            # a compound's parts are found through its translation, whole
            # ("ramasse-miettes": garbage collector, not a rake and crumbs)
            whole = {t for lang in tokens.LANGUAGES for t in tokens.tokens(translate(word), lang)}
            stems = [group | whole for group in stems]
        if translate is not None and len(stems) == 1:
            other = translate(word)
            extra = {t for lang in tokens.LANGUAGES for t in tokens.tokens(other, lang)}
            # a translation the analyzer drops as the other language's function word:
            # "commentaire" is "comment", whose plural the passages hold
            extra |= {tokens.stem(w, lang) for lang in tokens.LANGUAGES
                      for w in re.findall(r"[^\W\d_]{3,}", other.lower())
                      if tokens.other_language_stopword(w, lang)}
            stems = [stems[0] | extra]
        # (a compound of the everyday words: "sous-dossiers" is found as "sous-répertoires")
        said = plain.get(bare) or " ".join(plain[part] for part in bare.split("-")
                                           if "-" in bare and part in plain)
        if said and len(stems) == 1:
            stems = [stems[0] | {t for lang in tokens.LANGUAGES
                                 for t in tokens.tokens(said, lang)}]
        if len(stems) == 1:  # an irregular form is found as its verb: "woken" as "Wake on
            stems = [tokens.with_verbs(stems[0])]  # MagicPacket"
        out.extend((tokens._ELISION.sub("", word), group) for group in stems)
    return out


def absent_names(words: Sequence[tuple[str, frozenset[str]]], frequencies: Sequence[int],
                 is_name: Callable[[str], bool], seen: set[str] = frozenset(),
                 styled: set[str] = frozenset()) -> list[str]:
    """The words of the question that name something (a tool, a product, a release: not a
    word of French or English) and that no passage the caller may read holds: a question
    about "debmirror" asked of manuals that never mention it is about something else.

    Not names: figures, words split into several terms ("math.py", "RS232": their parts
    are searched), compounds whose parts are words ("one-liners"), contractions ("I've"),
    misspellings of a word of the passages (`seen`, folded: "institutionelle"), unless
    written with a capital inside (`styled`, folded: "GitLab" is no misspelt "GitHub"), and
    a word in small letters that opens a longer word of theirs: an abbreviation ("env" of
    "environment", "config", "perso")."""
    out = []
    for (word, _), df in zip(words, frequencies, strict=True):
        bare = _CONTRACTION.sub("", word)
        if df or len(bare) < 3 or _NUMBER.match(bare) or _MEASURE.match(bare) \
                or _KEYS.match(bare) or not is_name(bare):
            continue
        parts = [p for p in re.split(r"[-_/.]+", bare) if p]
        if len(parts) > 1 and all(len(p) < 3 or not is_name(p) or tokens.fold(p) in seen
                                  for p in parts):
            continue  # (its names written in the passages: "NFS-mounted" where "NFS" is)
        if tokens.fold(bare) not in styled and _misspelt(tokens.fold(bare), seen):
            continue
        if bare.islower() and _abbreviates(tokens.fold(bare), seen):
            continue
        out.append(word)
    return list(dict.fromkeys(out))


# a key or a chord the user presses, no product: "Ctrl-C", "ctrl", "Alt+F4", "Cmd"
_KEYS = re.compile(r"^(?:ctrl|control|alt|altgr|shift|meta|cmd|super|esc|fn)(?:[-+]\w+)*$",
                   re.I)


# a name given as an example: "CCACHE_DIR", "nginx.service", "--color=auto"; the words
# that join a list of them; the marks that may close one
_EXAMPLE_NAME = r"(?:--?|\.)?[\w$][\w.$/=-]*\w"  # (a dot file too: ".bashrc")
_LIST_WORDS = ("or", "ou", "and", "et")
_CLOSING_MARKS = "\"'`»”)"
# a name given as an example of what is asked about: "like", "such as", "e.g.",
# "comme", "par exemple", "genre", a file "called" so, and the name (or names) after it
_EXAMPLE = re.compile(r"\b(?:like|such as|e\.g\.,?|for example,?|for instance,?|comme|"
                      r"par exemple,?|tel(?:le)?s? que|genre|"  # ("genre .bashrc", said)
                      # "all files called Makefile": a file's name is a value, not a topic
                      r"(?:files?|folders?|director(?:y|ies)|fichiers?|dossiers?|"
                      r"répertoires?)\s+(?:called|named|nommée?s?|appelée?s?))\s+[\"'`«“(]?"
                      # (an option too, and a list of them: "like --color or --color=auto")
                      rf"({_EXAMPLE_NAME}(?:[{_CLOSING_MARKS}]?(?:,|\s+(?:{'|'.join(_LIST_WORDS)}))"
                      rf"\s+[\"'`«“(]?"
                      rf"{_EXAMPLE_NAME})*)(?![\w$/-])[{_CLOSING_MARKS}]?"
                      # not a comparison: "…like distcc does" names another tool
                      r"(?!\s+(?:does|do|did|is|are|was|were|has|have|can|could|would|will|"
                      r"fait|font|le fait)\b)", re.I)


# who says the word the question asks about ("what does it mean when people say a
# datetime object is naive?", "quand on dit qu'un paquet est orphelin"): not its subject
_HEARSAY = re.compile(r"\b(?:(?:when|if|that) (?:people|they|someone|folks|you hear) "
                      r"(?:say|says|call|talk about)|(?:quand|si) (?:on|les gens|quelqu['’]un) "
                      r"(?:dit|disent|parle de|parlent de))\b", re.I)


def without_examples(question: str, is_name: Callable[[str], bool] | None,
                     hits: Sequence[Hit] = ()) -> str:
    """`question` without the names it gives as examples ("how do I keep an env var like
    CCACHE_DIR from…", "une unité comme nginx.service"): the example stands for its kind,
    which is what is asked about; neither evidence nor, when no passage holds it, a name
    the passages lack. A word of the language after "like" stays ("files like photos"),
    and so does a name one of `hits` writes ("what does the capital X do in something
    like chmod -R u+X?": the example is what is asked about). Nor who says the word asked
    about (`_HEARSAY`: "when people say")."""
    question = _HEARSAY.sub(" ", question)
    if is_name is None:
        return question
    def example(match: re.Match) -> str:
        """The example's names left out (those a passage writes kept); a list's items up
        to the first word of the language ("like foo.txt and then…" keeps "and then")."""
        taken = []
        for name in re.finditer(_EXAMPLE_NAME, match.group(1)):
            if name.group(0).lower() in _LIST_WORDS:
                continue
            if not name.group(0).startswith(("-", ".")) and not is_name(name.group(0).lower()):
                break  # (an option or a dot file is a name, whatever its words: "--color",
                # ".profile")
            taken.append(name)
        if not taken:
            return match.group(0)
        rest = match.group(0)[match.start(1) - match.start(0) + taken[-1].end():]
        kept = [name.group(0) for name in taken if _written_in(name.group(0), hits)]
        return f" {' '.join(kept)} {rest.lstrip(_CLOSING_MARKS)}"

    return _EXAMPLE.sub(example, question)


def _written_in(name: str, hits: Sequence[Hit]) -> bool:
    """`name` is written in one of the passages, whole, though maybe as the first part of
    a file's name ("pg_hba" in "pg_hba.conf", which the analyzer keeps as one term)."""
    found = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", re.I)
    return any(found.search(f"{hit.heading or ''}\n{hit.text}") for hit in hits)


# a word written with a capital after a small letter: a product's name ("GitLab", "macOS")
_STYLED = re.compile(r"\b\w*[a-zà-ÿ][A-ZÀ-Þ]\w*")
# A name written with letters and figures mixed ("2to3", "deb822", "amd64", "i386"): the
# keyword analyzer splits it into its parts ("2", "to", "3"), which any passage holds, so
# it is looked for whole. Not: measures and ordinals ("10GB", "5min", "1st", "3e").
_MIXED = re.compile(r"(?<![\w.-])(?=[\w.-]*\d)(?=[\w.-]*[^\W\d_])\w[\w.-]*\w(?![\w-])")
# a name and its version after a slash: "HTTP/2", "HTTP/1.1" (the analyzer keeps "http"
# and "2", which any web server's manual holds)
_SLASHED = re.compile(r"(?<![\w/.-])[^\W\d_]{2,}/\d+(?:\.\d+)*(?![\w/])")
# a figure and its unit: "10GB", "3.5mm", "32-bit", "8-core" (not a name like "utf-8")
_MEASURE = re.compile(r"^\d+(?:[.,]\d+)?(?:[^\W\d_]{1,3}|-[a-z]{2,})$")


# a name of three words or more joined by hyphens: "systemd-journal-remote" (its parts are
# searched apart, and passages about systemd's journal hold them all)
_COMPOUND = re.compile(r"(?<![\w.-])[^\W\d_]{2,}(?:-[^\W\d_]{2,}){2,}(?![\w-])")


def absent_codes(question: str, hits: Sequence[Hit],
                 is_name: Callable[[str], bool] | None = None) -> list[str]:
    """The names of `question` made of letters and figures mixed that none of `hits` holds,
    its parts joined or set apart in any way ("python3" is found in "Python 3"); with
    `is_name`, so are the names of three hyphenated words or more, one of them no word of
    either language ("systemd-journal-remote"; not "up-to-date")."""
    out = []
    found = _MIXED.findall(question) + _SLASHED.findall(question)
    if is_name is not None:
        found += [c for c in _COMPOUND.findall(question)
                  if any(is_name(part.lower()) for part in c.split("-"))]
    for code in dict.fromkeys(found):
        if _MEASURE.match(code) or _NUMBER.match(code):
            continue
        parts = re.findall(r"\d+|[^\W\d_]+", code)
        pattern = re.compile(r"(?<![^\W_])" + r"[\s._/-]?".join(map(re.escape, parts))
                             + r"(?![^\W_])", re.I)
        if not any(pattern.search(f"{hit.heading or ''}\n{hit.text}") for hit in hits):
            out.append(code)
    return out


# A version the question asks about: "UUID version 7", "la version 2 de l'API", "v3"
_ASKED_VERSION = re.compile(r"\b(?:version|v)\s?(\d+(?:\.\d+)*)(?![\w.])", re.I)
# a release named by its product's name and number: "Debian 11", "Python 3.12", "Ubuntu 22.04"
# (not a section, a page or a step: "Section 5", "Table 2")
_NAMED_RELEASE = re.compile(r"(?<![\w.-])(?!(?:Section|Chapter|Chapitre|Page|Table|Tableau|"
                            r"Figure|Step|Étape|Article|Annexe|Appendix|Part|Partie|Level|"
                            r"Niveau|Version)\b)([A-Z][a-z]+)\s(\d+(?:\.\d+)*)(?![\w.%])")


# "under", "on", "with" before a release: the platform the question is asked on
_PLATFORM = re.compile(r"\b(?:sous|under|on|with|avec|in|en|dans|using|running)\s+$", re.I)


def absent_versions(question: str, hits: Sequence[Hit]) -> list[str]:
    """The versions the question names ("version 7", "Debian 11") that no passage names:
    the number alone, not inside another ("version=7", "UUIDv7", "version 7.0" hold 7;
    "802.11" does not hold 11). A release named as where the question is asked ("sous
    Python 3.11", "on Debian 12") counts when the passages name its product. The passages'
    documents' titles count ("… — Python 3.11.2 documentation"), and a release holds its
    updates ("Python 3.11.2" names Python 3.11)."""
    figure = r"(?<![\d.]){}(?:\.0)*(?![\d]|\.\d)"
    release = r"(?<![\d.]){}(?:\.\d+)*(?![\d])"
    where = [f"{hit.title or ''}\n{hit.heading or ''}\n{hit.text}" for hit in hits]
    asked = {f"version {number}": re.compile(figure.format(re.escape(number)))
             for number in _ASKED_VERSION.findall(question)}
    for match in _NAMED_RELEASE.finditer(question):
        name, number = match.groups()
        if _PLATFORM.search(question[:match.start()]) and any(
                re.search(rf"\b{re.escape(name)}\b", text) for text in where):
            continue  # "…sous Python 3.11 ?" over Python's pages: where it runs, not what
        if tokens.fold(name) not in _ASKING and tokens.fold(name) not in tokens.STOPWORDS:
            # by its name ("Debian 12", "Debian GNU/Linux 12") or as a version ("v12"):
            # a "12" elsewhere ("le 12 décembre 1996") is another figure
            asked.setdefault(f"{name} {number}", re.compile(
                rf"(?:\b{re.escape(name)}(?:[ \t]+[\w/+-]+){{0,2}}?|"
                rf"\b(?:version|release|v)){'[ ]?'}" + release.format(re.escape(number)), re.I))
    return [label for label, pattern in asked.items()
            if not any(pattern.search(text) for text in where)]


def _abbreviates(word: str, seen: set[str]) -> bool:
    """`word` (three letters or more) opens a word of `seen` two letters longer or more."""
    return len(word) >= 3 and any(len(other) >= len(word) + 2 and other.startswith(word)
                                  for other in seen)


def _misspelt(word: str, seen: set[str]) -> bool:
    """`word` is one edit (two from 6 letters; same length under 6) away from a word of
    `seen`: a letter changed, added, dropped or two swapped."""
    limit = 2 if len(word) >= 6 else 1
    for other in seen:
        if abs(len(other) - len(word)) > (limit if len(word) >= 6 else 0):
            continue
        if _distance(word, other, limit) <= limit:
            return True
    return False


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance of `a` and `b`, or limit + 1 once it is over."""
    previous, current = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous = previous, current
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
    return current[-1]


def passage_stems(hits: Sequence[Hit]) -> set[str]:
    """Every stem (French and English) of the passages' text and headings (and the short
    options they name, as written: `text.SHORT_OPTION`), and a name written in parts as
    one word: zsh's NO_CLOBBER is the "noclobber" a user types, tr's "lower case" the
    "lowercase"."""
    out: set[str] = set()
    for hit in hits:
        text = f"{hit.heading}\n{hit.text}"
        joined = " ".join(re.sub(r"[_-]", "", m) for m in _PARTED.findall(text))
        # two words a user writes as one ("lowercase" where the page says "lower case")
        words = _WORD.findall(text)
        joined += " " + " ".join(a + b for a, b in zip(words, words[1:], strict=False))
        for lang in tokens.LANGUAGES:
            out.update(tokens.tokens(text, lang))
            out.update(tokens.tokens(joined, lang))
    return tokens.with_verbs(out)


_PARTED = re.compile(r"(?<![\w-])[^\W\d_]+(?:[_-][^\W\d_]+)+(?![\w-])")
_WORD = re.compile(r"[^\W\d_]{3,}")


def idf(df: int, n: int) -> float:
    """A word's weight: log(1 + N / (df + 0.5)); a word no passage holds weighs most."""
    return math.log(1 + max(n, 1) / (df + 0.5))


def coverage(words: Sequence[frozenset[str]], found: set[str], weights: Sequence[float],
             own: Sequence[frozenset[str]] | None = None) -> tuple[float, list[dict]]:
    """(IDF-weighted share of `words` found, one row per word for --explain). With `own`
    (each word's stems without its translation), a word found only through its
    translation counts TRANSLATED_CREDIT of its weight: a dictionary gives several senses,
    and one of them is found by chance more often than the word itself."""
    own = own if own is not None else words
    credits = [1.0 if o & found else TRANSLATED_CREDIT if w & found else 0.0
               for w, o in zip(words, own, strict=True)]
    rows = [{"word": "/".join(sorted(w)), "idf": round(wt, 3), "found": bool(c)}
            | ({"through": "translation"} if 0 < c < 1 else {})
            for w, wt, c in zip(words, weights, credits, strict=True)]
    total = sum(weights)
    if not total:
        return 0.0, rows
    return sum(wt * c for wt, c in zip(weights, credits, strict=True)) / total, rows


def read_first(each: Sequence[tuple[float, list[dict]]], weights: Sequence[float],
               hits: Sequence[Hit], asked: str) -> dict | None:
    """The passages in the other language that may hold the question's subject when the
    first passage, in the question's language, does not (None: the first, as ranked).

    In a collection of both languages, a French question's keywords meet French passages
    on another topic: "Comment récupérer l'extension d'un nom de fichier ?" over a French
    manual and English library pages ranks first a French passage about hard links that
    holds "nom" and "fichier"; the `splitext` entry, second, holds "extension". So: when
    the question's rarest word found in the passages read (the highest IDF among the words
    found) is not in the first passage, the passages in the other language that hold it
    and at least as much of the weighted words (`each`: per passage, `coverage`) are
    candidates, by rank; the extractive answerer reads first the first of them that is
    about as close in meaning (`extractive.SUBJECT_COSINE`). Within one language the
    ranking already weighs rare words: measured, moving passages there costs answers
    (docs/answers.md)."""
    if len(each) < 2 or hits[0].language != asked:
        return None
    found = [i for i, w in enumerate(weights) if w > 0 and any(rows[i]["found"]
                                                              for _, rows in each)]
    if not found:
        return None
    subject = max(found, key=lambda i: weights[i])
    if each[0][1][subject]["found"]:
        return None
    candidates = [hit.chunk_id for (share, rows), hit in zip(each[1:], hits[1:len(each)],
                                                             strict=True)
                  if hit.language != asked and rows[subject]["found"] and share >= each[0][0]]
    return {"word": each[0][1][subject]["word"], "passages": candidates} if candidates else None


def agreement(hits: Sequence[Hit], top: int = PASSAGES) -> bool | None:
    """Do keyword and dense retrieval both rank one of the first passages within
    AGREE_RANK? None when the hits do not carry both methods' ranks."""
    ranked = [h for h in hits if "bm25" in h.scores or "dense" in h.scores]
    if not any(FUSED in h.scores for h in hits):
        return None
    for hit in ranked[:top]:
        ranks = [hit.scores.get(m, {}).get("rank") for m in ("bm25", "dense")]
        if all(r is not None and r <= AGREE_RANK for r in ranks):
            return True
    return False


def judge(question: str, hits: Sequence[Hit], dense: float | None,
          document_frequency: Callable[[frozenset[str]], int], n_passages: int,
          defaults: Defaults = E5_DEFAULTS,
          translate: Callable[[str], str] | None = None,
          is_name: Callable[[str], bool] | None = None) -> Judgment:
    """Answer or refuse `question` from its retrieved `hits` (best first).

    `dense` is the best cosine among readable passages (None without vectors);
    `document_frequency(word)` counts readable passages holding one of the word's stems
    (capped at DF_CAP); `n_passages` is the number of passages the caller may read;
    `translate(word)`, given when the passages are in another language than the question,
    lets a word be found through its translation; `is_name(word)` tells a name from a word
    (None: no such check), so that a question naming what no readable passage holds is
    refused."""
    asked_language = tokens.question_language(question)
    # the first passage in another language: the dense evidence is measured across them
    across = bool(hits and hits[0].language and hits[0].language != asked_language)
    if across:
        defaults = defaults.asked_across()
    weighed = without_examples(question, is_name, hits[:PASSAGES])  # the words that count
    translated = content_words(weighed, translate)
    plain = content_words(weighed) if translate is not None else translated
    kept: dict[frozenset[str], tuple[str, frozenset[str]]] = {}
    for (word, stems), (_, own) in zip(translated, plain, strict=True):
        kept.setdefault(stems, (word, own))
    written = [(stems, word) for stems, (word, _) in kept.items()]
    words = [stems for stems, _ in written]
    own_stems = [own for _, own in kept.values()]
    # each passage the answer may be drawn from, on its own (`read_first`), and the first
    # PASSAGES together
    stems = [passage_stems([hit]) for hit in hits[:ASK_K]]
    # a short option ("-v") is counted among the passages read: an index made before
    # options were terms has none, and FTS5 folds `-V` into `-v`
    frequencies = [sum(bool(w & own) for own in stems)
                   if len(w) == 1 and tokens.SHORT_OPTION.fullmatch(next(iter(w)))
                   else min(document_frequency(w), DF_CAP) for w in words]
    weights = [idf(df, n_passages) for df in frequencies]
    if translate is not None and is_name is not None:
        # across languages, a word of the question's language that the dictionary cannot
        # translate and no readable passage holds is neither found nor missing
        weights = [0.0 if df == 0 and not translate(word).strip() and not is_name(word)
                   else weight
                   for (_, word), df, weight in zip(written, frequencies, weights, strict=True)]
    # a figure the user gives ("only 100 packets", "port 8080", "like 1.2Gi") is a value to
    # put in, not what is asked about: held by none of the passages read, it counts
    # neither way
    read = set().union(*stems)
    weights = [0.0 if (_NUMBER.match(word) or _MEASURE.match(word)) and not stems_of & read
               else weight
               for (stems_of, word), weight in zip(written, weights, strict=True)]
    # a compound whose parts are words of the question too ("FAT-formatted": "fat",
    # "formatted") is weighed by its parts, not once more as a whole no passage writes
    def parted(group: frozenset[str]) -> bool:
        whole = next((s for s in group if "-" in s.strip("-")), None)
        return whole is not None and all(
            any(part in other for other in words if other is not group)
            for part in whole.strip("-").split("-") if len(part) > 1)

    weights = [0.0 if parted(group) else weight
               for group, weight in zip(words, weights, strict=True)]
    share, rows = coverage(words, tokens.loosely(words, set().union(*stems[:PASSAGES])),
                           weights, own_stems)
    agree = agreement(hits)
    each = [coverage(words, tokens.loosely(words, found), weights, own_stems) for found in stems]
    numbers = {"coverage": round(share, 3), "dense": None if dense is None else round(dense, 4),
               "agreement": agree, "words": rows,
               "passage_coverage": [round(share, 3) for share, _ in each],
               "read_first": read_first(each, weights, hits[:ASK_K],
                                     asked_language),
               "defaults": {"dense_floor": defaults.dense_floor,
                            "dense_sure": defaults.dense_sure,
                            "coverage_min": defaults.coverage_min,
                            "coverage_floor": defaults.coverage_floor,
                            "context_floor": defaults.context_floor}}
    if across:
        numbers["defaults"]["across_languages"] = defaults.across_languages
    if not hits:
        return Judgment(False, "no passage retrieved", numbers)
    if not words:
        return Judgment(False, "the question has no content word to look for", numbers)
    missing = [r["word"] for r in rows if not r["found"]]
    seen = {tokens.fold(w) for hit in hits[:PASSAGES]
            for w in re.findall(r"[^\W\d_]{3,}", f"{hit.heading}\n{hit.text}")}
    # a word split into several terms ("apt-listchanges", "YubiKey") names something when
    # one of its longer terms does; "math.py", "RS232" are looked for by their parts
    candidates, counts = [], []
    for (stems, word), df in zip(written, frequencies, strict=True):
        split = sum(1 for _, other in written if other == word) > 1
        if split and is_name is not None and (not is_name(word.lower()) or all(
                len(part) < 3 or not is_name(part.lower())
                for part in re.split(r"[-_/.]+", word) if part)):
            continue  # a word of the language written in parts: "aujourd'hui", or words
            # joined ("critical-or-worse": no "wors" to name)
        term = max(stems, key=len) if split else word
        if not split or len(term) >= 4:
            candidates.append((term, stems))
            counts.append(df)
    opening = question.lstrip(" \t\n\"'«“¿¡(")

    def named(word: str) -> bool:
        """A name: not a word of either language, or written with a capital inside the
        question ("…with Docker?"), not only where a sentence opens ("…des photos. Vaut-il
        mieux…"): a product, a person, a place."""
        inside = re.search(rf"(?<![.!?…:;])\s+[\"'«“(]?{re.escape(word)}(?!\w)", opening)
        return (word[:1].isupper() and inside is not None) or is_name(word)

    # a name written with a capital inside ("GitLab", "PostgreSQL") is spelt as meant
    styled = {tokens.fold(w) for w in _STYLED.findall(question)}
    names = absent_names(candidates, counts,
                         named, seen, styled) if is_name is not None else []
    # a name the index keeps only inside a longer one: "pg_hba" of "pg_hba.conf"; a word
    # the passages read write in two ("stylesheet" where they say "style sheet":
    # `passage_stems`)
    held = dict(candidates)
    names = [name for name in names if not _written_in(name, hits[:ASK_K])
             and not held.get(name, frozenset()) & read]
    codes = absent_codes(weighed, hits, is_name)
    scene = sets_scene(question)  # context before what is asked
    if scene:  # a name in what sets the scene is the user's ("…/erreurs/404.php"), not
        # the subject
        asked = tokens.fold(asked_part(question))
        names = [name for name in names if tokens.fold(name) in asked]
        codes = [code for code in codes if tokens.fold(code) in asked]
    names += [code for code in codes if code not in names]
    names += absent_versions(question, hits[:PASSAGES])
    if names:
        numbers["absent_names"] = names
        return Judgment(False, f"the question names {', '.join(names)}, which no passage "
                               "you may read mentions", numbers)
    if dense is not None and dense < defaults.dense_floor:
        return Judgment(False, f"best dense evidence {dense:.3f} is below the default floor "
                               f"{defaults.dense_floor:.2f}", numbers)
    if share >= defaults.coverage_min:
        return Judgment(True, None, numbers)
    # a question with context (sentences or a "when/if …," clause before what it asks)
    floor = defaults.context_floor if scene else defaults.coverage_floor
    numbers["floor"] = floor
    # across languages keyword search cannot agree with dense search: meaning decides
    if dense is not None and dense >= defaults.dense_sure and \
            (agree is not False or translate is not None) and share >= floor:
        return Judgment(True, None, numbers)
    if dense is not None and dense >= defaults.dense_sure:  # say which condition failed
        why_not = (f"reaches {defaults.dense_sure:.2f} but counts only with "
                   f"{floor:.0%} of the words or more (here {share:.1%})"
                   if share < floor else
                   f"reaches {defaults.dense_sure:.2f} but keyword and dense search agree "
                   "on no passage")
    else:
        why_not = "is not enough on its own"
    # a share just under the minimum is not printed as the minimum ("49.7%", not "50%")
    held = f"{share:.0%}" if round(share * 100) < round(defaults.coverage_min * 100) \
        else f"{share:.1%}"
    return Judgment(False, f"the passages hold {held} of the question's weighted words "
                           f"(under {defaults.coverage_min:.0%}; missing: "
                           f"{', '.join(missing)}) and the dense evidence "
                           f"{'none' if dense is None else f'{dense:.3f}'} {why_not}", numbers)


def decide(judgment: Judgment | None, measure: str | None, evidence: float | None,
           thresholds: dict[str, float] | None) -> Judgment | None:
    """The decision `ask` acts on, in one place: a threshold `calibrate` stored for the
    evidence measure decides alone (it was measured on this corpus); else the default
    `judgment` does (None when there is neither). `numbers["decided_by"]` says which."""
    threshold = (thresholds or {}).get(measure or "")
    if threshold is not None and evidence is not None:
        by = f"calibrated {measure} threshold {threshold:.4f}"
        if evidence < threshold:
            return Judgment(False, f"best {measure} evidence {evidence:.3f} is below the "
                                   f"calibrated threshold {threshold:.3f}", {"decided_by": by})
        return Judgment(True, None, {"decided_by": by})
    if judgment is None:
        return None
    return Judgment(judgment.answerable, judgment.reason,
                    {"decided_by": "default judgment (no calibration)"})
