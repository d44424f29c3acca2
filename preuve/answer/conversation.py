"""Follow-up questions made standalone before retrieval.

"Et pour la version 4 ?" retrieves nothing useful on its own. With a model, the model
rewrites it from the history. Without one:

- a follow-up that brings its own action verb ("et pour le supprimer ?") after a question
  that had one ("Comment installer un paquet .deb téléchargé ?") is the previous question
  with its verb replaced: "Comment supprimer un paquet .deb ?". The previous question's
  subject is kept (the follow-up's pronoun stands for it), words that only make sense with
  the old action are dropped ("téléchargé" goes with installing, "new" with creating), the
  follow-up's own modifiers are added ("... .deb avec apt ?"), and an object the follow-up
  names itself replaces the old one ("et pour configurer le proxy ?" -> "Comment configurer
  le proxy ?");
- any other follow-up carries the previous question's key words over, in brackets, which
  is enough for keyword and dense retrieval to find the topic again ("et pour les cadres ?
  (Combien jours télétravail semaine)"), as does a follow-up whose verb has no verb of the
  previous question to replace, or that is not in the previous question's language."""

from __future__ import annotations

import re
from dataclasses import dataclass

from preuve.text import STOPWORDS, fold, question_language

_FOLLOW_UP_START = re.compile(
    r"^\s*(et|mais|alors|and|but|what about|how about|and for|et pour|et si|et en|et à|"
    r"pareil|same|idem|also|aussi)\b", re.I)
_PRONOUNS = re.compile(r"\b(il|elle|ils|elles|ça|cela|celui|celle|ceux|it|they|that|this|"
                       r"those|these|them|its|their|le même|la même)\b", re.I)


def looks_like_follow_up(question: str) -> bool:
    words = question.split()
    return (len(words) <= 6 or bool(_FOLLOW_UP_START.match(question))
            or (len(words) <= 10 and bool(_PRONOUNS.search(question))))


def key_terms(question: str) -> list[str]:
    """Content words of a question, in order, as written (no stop words, no punctuation)."""
    words = re.findall(r"[\w'’-]+", question)
    out = []
    for word in words:
        bare = re.sub(r"^(?:[ldjmnstc]|qu)['’]", "", word, flags=re.I)
        if len(bare) > 2 and fold(bare) not in STOPWORDS and bare.lower() not in out:
            out.append(bare)
    return out


def carry_over(question: str, previous: str) -> str:
    """The follow-up made standalone from the previous question, without a model: the
    previous question with the follow-up's verb when both have an action verb, else the
    follow-up plus the previous question's key words it does not already hold."""
    if not previous or not looks_like_follow_up(question):
        return question
    replaced = replace_action(question, previous)
    if replaced:
        return replaced
    have = {fold(w) for w in key_terms(question)}
    extra = [w for w in key_terms(previous) if fold(w) not in have]
    return f"{question.strip()} ({' '.join(extra)})" if extra else question


# -- action verbs ---------------------------------------------------------------------------
# Infinitives (French) and base forms (English), folded; multi-word verbs as word tuples.
_VERBS = {
    "fr": """installer désinstaller réinstaller supprimer enlever retirer effacer purger
    nettoyer vider configurer paramétrer créer signaler déclarer modifier changer ajouter
    activer désactiver télécharger réinitialiser restaurer annuler demander renouveler
    prolonger mettre_à_jour mettre_à_niveau ouvrir fermer réparer rembourser échanger
    retourner renvoyer résilier""",
    "en": """install uninstall reinstall remove delete erase purge clean clear configure
    create report declare modify change add enable disable activate deactivate download
    upload reset restore cancel request renew extend update upgrade downgrade open close
    repair fix refund exchange return""",
}
_KNOWN = {lang: {tuple(fold(verb).split("_")) for verb in words.split()}
          for lang, words in _VERBS.items()}
# "Et pour le faire avec apt ?": the same action as before.
_PRO_VERBS = {"fr": {"faire"}, "en": {"do"}}
# Words of a subject that only go with one action: a package is downloaded to be installed,
# an account is new when it is created. Dropped when another action replaces that one.
_TIED = {
    "installer": {"telecharge", "telechargee", "telecharges", "telechargees"},
    "install": {"downloaded"},
    "creer": {"nouveau", "nouvel", "nouvelle", "nouveaux", "nouvelles"},
    "create": {"new"},
}
# French: an infinitive right after these words is a verb even if it is not listed
# ("comment résilier", "pour prolonger"), bar words that only look like one.
_FR_INFINITIVE_AFTER = {"comment", "pour", "a", "puis-je", "peut-on", "faut-il", "dois-je"}
_FR_NOT_VERBS = {"notre", "votre", "autre", "entre", "contre", "titre", "ordre", "partir",
                 "venir", "hier", "premier", "dernier", "leur", "etre", "avoir"}
# English: a listed verb counts after these words (or first); after "how to" and "how do
# I" any word does ("how do I rotate ...").
_EN_VERB_AFTER = {"", "to", "i", "we", "you", "and", "then", "or", "please", "about", "why"}
_EN_HOW = re.compile(r"\bhow\s+(?:to|(?:do|can|should|could|would|may|must)\s+"
                     r"(?:i|we|you|one|someone|they))\s+([a-z]+)\b", re.I)

_WORD = re.compile(r"(?:\b(?:[ldjmnstc]|qu)['’])?(\w+(?:-\w+)*)")
_END = re.compile(r"[\s?!.…]*$")
_PRONOUN_OBJECTS = {"fr": {"ca", "cela", "ceci"},
                    "en": {"it", "them", "this", "that", "these", "those"}}
# Words before the follow-up's verb that do not make it a question of its own.
_CONNECTORS = {
    "fr": {"et", "mais", "alors", "puis", "ensuite", "pour", "comment", "afin", "de", "a",
           "le", "la", "les", "l", "en", "y", "ca", "cela", "aussi", "faut-il", "puis-je",
           "peut-on", "dois-je", "je", "veux", "voudrais", "faire", "si", "on", "veut"},
    "en": {"and", "but", "then", "so", "or", "what", "about", "how", "to", "do", "can",
           "could", "should", "would", "i", "we", "you", "one", "please", "also", "want",
           "need"},
}
_LEADING_CONNECTOR = re.compile(r"^\s*(?:et|mais|alors|puis|ensuite|and|but|then|so)\b\s*",
                                re.I)
_FR_CLITIC_BEFORE = re.compile(r"(?:\b(?:le|la|les|en|y)\s+|\bl['’])$", re.I)
_MODIFIER_START = {
    "fr": {"avec", "sans", "sur", "dans", "en", "depuis", "par", "via", "pour", "sous", "chez",
           "apres", "avant", "ensuite", "aussi", "encore", "egalement", "a", "au", "aux"},
    "en": {"with", "without", "on", "in", "from", "using", "via", "by", "for", "under",
           "after", "before", "too", "also", "again", "instead", "at", "through", "into"},
}


@dataclass
class _Verb:
    start: int  # span of the verb in the question
    end: int
    key: str  # folded base form
    written: str  # the base form as written (an English gerund: its base form)
    gerund: bool = False


def _tokens(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(1), m.end(1), fold(m.group(1))) for m in _WORD.finditer(text)]


def _gerunds(base: str) -> set[str]:
    stem = base[:-1] if base.endswith("e") and not base.endswith("ee") else base
    forms = {stem + "ing"}
    if re.search(r"[^aeiou][aeiou][lpt]$", base):  # cancel -> cancelling, submit
        forms.add(base + base[-1] + "ing")
    return forms


_EN_GERUNDS = {g: verb[0] for verb in _KNOWN["en"] for g in _gerunds(verb[0])}


def actions(question: str, language: str) -> list[_Verb]:
    """The action verbs of a question, in order."""
    words = _tokens(question)
    how = _EN_HOW.search(question) if language == "en" else None
    found: list[_Verb] = []
    i = 0
    while i < len(words):
        start, end, folded = words[i]
        before = words[i - 1][2] if i else ""
        verb = None
        if language == "fr":
            for known in _KNOWN["fr"] | {(v,) for v in _PRO_VERBS["fr"]}:
                if tuple(w[2] for w in words[i:i + len(known)]) == known:
                    end = words[i + len(known) - 1][1]
                    verb = _Verb(start, end, " ".join(known), question[start:end])
                    i += len(known) - 1
                    break
            elided = start > 0 and question[start - 1] in "'’"
            if (verb is None and before in _FR_INFINITIVE_AFTER and not elided
                    and len(folded) > 4 and re.fullmatch(r"[a-z]+(?:er|ir|re)", folded)
                    and folded not in _FR_NOT_VERBS):
                verb = _Verb(start, end, folded, question[start:end])
        elif how and start == how.start(1) and folded not in STOPWORDS:
            verb = _Verb(start, end, folded, question[start:end])
        elif before in _EN_VERB_AFTER:
            if folded in _PRO_VERBS["en"] or (
                    (folded,) in _KNOWN["en"] and before != "about"):
                verb = _Verb(start, end, folded, question[start:end])
            elif folded in _EN_GERUNDS:
                base = _EN_GERUNDS[folded]
                verb = _Verb(start, end, base, base, gerund=True)
        if verb:
            found.append(verb)
        i += 1
    return found


def replace_action(question: str, previous: str) -> str | None:
    """The previous question with the follow-up's action verb in place of its own, or None
    when either has no action verb or they are not in the same language."""
    language = question_language(previous)
    if question_language(question) != language:
        return None
    pro = _PRO_VERBS[language]
    olds = [v for v in actions(previous, language) if v.key not in pro]
    news = actions(question, language)
    news = [v for v in news if v.key not in pro] or news  # "et comment faire pour le ..."
    if not olds or not news:
        return None
    old, new = olds[0], news[0]
    same = new.key in pro or new.key == old.key
    verb = old.written if same else new.written
    if language == "en" and old.gerund and not same:
        verb = min(_gerunds(verb), key=len)
    prefix = previous[:old.start]
    own = question[:new.start]
    if any(w[2] not in _CONNECTORS[language] for w in _tokens(own)):
        # "et pourquoi le supprimer ?": the follow-up asks its own question about the action
        prefix = _FR_CLITIC_BEFORE.sub("", _LEADING_CONNECTOR.sub("", own))
        prefix = prefix[:1].upper() + prefix[1:]
    if not prefix.strip():
        verb = verb[:1].upper() + verb[1:]
    elif not same:
        verb = verb.lower()
    body = previous[old.end:]
    end = _END.search(body).group()
    body = body[:len(body) - len(end)]
    clause = re.search(r"[,;:]", body)
    subject, after = (body[:clause.start()], body[clause.start():]) if clause else (body, "")

    tail = question[new.end:]
    tail = tail[:len(tail) - len(_END.search(tail).group())].strip()
    words = _tokens(tail)
    # the object is a pronoun ("le supprimer", "remove it"): what follows only modifies
    pronoun = language == "fr" and bool(_FR_CLITIC_BEFORE.search(question[:new.start]))
    if words and words[0][2] in _PRONOUN_OBJECTS[language] and (
            words[0][2] in ("it", "them", "ca", "cela", "ceci") or len(words) == 1
            or _modifies(words[1][2], language)):
        tail, pronoun = tail[words[0][1]:].strip(), True
    if words and not pronoun and not _modifies(words[0][2], language):
        subject = " " + tail  # the follow-up names its own object
    else:
        if not same:
            tied = _TIED.get(old.key, set()) - _TIED.get(new.key, set())
            subject = _drop_tied(subject, tied, language)
        if tail:
            subject = f"{subject.rstrip()} {tail}"
    text = f"{prefix}{verb}{subject}{after}".rstrip()
    return re.sub(r"\s{2,}", " ", text) + end.rstrip()


def _modifies(word: str, language: str) -> bool:
    """A preposition or an adverb: the words from there on qualify the action."""
    return word in _MODIFIER_START[language] or (
        len(word) > 5 and word.endswith("ment" if language == "fr" else "ly"))


def _drop_tied(subject: str, tied: set[str], language: str) -> str:
    """The subject without the words in `tied` ("a downloaded package" -> "a package")."""
    for m in reversed(list(_WORD.finditer(subject))):
        if fold(m.group(1)) in tied:
            head, rest = subject[:m.start()].rstrip(), subject[m.end():]
            article = re.search(r"\b(?:a|an)$", head)
            following = re.match(r"\s*(\w)", rest)
            if language == "en" and article and following:  # "a new account": "an account"
                vowel = following.group(1).lower() in "aeiou"
                head = head[:article.start()] + ("an" if vowel else "a")
            subject = head + rest
    return subject


REWRITE_PROMPT = (
    "Rewrite the user's last question so that it can be understood without the "
    "conversation: keep its language, resolve references to earlier turns, add nothing "
    "else. Reply with the rewritten question only."
)


def rewrite_with_model(generator, question: str, history: list[dict]) -> tuple[str, dict]:
    """A standalone question written by the model, and the call's usage."""
    turns = "\n".join(f"{m['role']}: {m.get('standalone') or m['content']}" for m in history[-6:])
    messages = [{"role": "system", "content": REWRITE_PROMPT},
                {"role": "user", "content": f"{turns}\nuser: {question}"}]
    generation = generator.generate(messages)
    text = generation.text.strip().splitlines()[0].strip() if generation.text.strip() else ""
    return (text or question), {"model": generation.model, **generation.usage}
