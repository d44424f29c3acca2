"""Keyword search across French and English, without a model that writes.

A French question over English passages shares few words with them; BM25 then ranks
incidental matches. With a bilingual dictionary, the question's words are translated word
by word ("mot de passe" -> password, "fichier" -> file) and the translation is searched as
a second keyword list, which `hybrid` fuses with a low weight, keeping only its hits in
the other language.

The dictionaries are FreeDict's French-English and English-French (Debian packages
`dict-freedict-fra-eng` and `dict-freedict-eng-fra`, GPL-2+), read where Debian installs
them (`/usr/share/dictd`, or the `dict_dir` setting) when they are there: preuve ships none of
their content, and without them this step is simply skipped.
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from preuve import paths, text

DICT_DIR = "/usr/share/dictd"
FILES = {("fr", "en"): "freedict-fra-eng", ("en", "fr"): "freedict-eng-fra"}
MAX_TRANSLATIONS = 4  # per word: the first senses, the most common ones
CACHE_VERSION = "2"  # bump when the table's making changes
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _number(b64: str) -> int:
    value = 0
    for char in b64:
        value = value * 64 + _ALPHABET.index(char)
    return value


def _entries(name: str, folder: Path) -> list[tuple[str, list[str]]]:
    """(headword, translations) of a dictd dictionary (`.index` + `.dict.dz`)."""
    index, data = folder / f"{name}.index", folder / f"{name}.dict.dz"
    if not index.is_file() or not data.is_file():
        return []
    body = gzip.decompress(data.read_bytes())
    out = []
    for line in index.read_text("utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) != 3 or parts[0].startswith("00database"):
            continue
        start, length = _number(parts[1]), _number(parts[2])
        lines = body[start:start + length].decode("utf-8", "replace").splitlines()[1:]
        words: list[str] = []
        for sense in lines:
            sense = re.sub(r"^\s*\d+\.\s*", "", sense)
            words.extend(w.strip() for w in sense.split(",") if w.strip())
        out.append((parts[0], words))
    return out


@lru_cache(maxsize=4)
def dictionary(folder: str | None = None, cache: str | None = None
               ) -> dict[tuple[str, str], dict[str, list[str]]]:
    """(from, to) -> {folded phrase, stem of a source word, or "=" and the word's own
    folded form (`_form_key`): target words}; empty when the dictionaries are not in
    `folder` (default /usr/share/dictd). Built once (a few
    seconds: every headword is stemmed) and cached as JSON in the `cache` folder (that of
    the e5 graph), keyed by the files' sizes and times."""
    folder = Path(folder or DICT_DIR)
    files = sorted(folder.glob("freedict-*")) if folder.is_dir() else []
    if not any(f.name.startswith(tuple(FILES.values())) for f in files):
        return {pair: {} for pair in FILES}
    stamp = hashlib.sha1(repr([(f.name, f.stat().st_size, f.stat().st_mtime_ns)
                               for f in files]).encode() + CACHE_VERSION.encode())
    cached = paths.bilingual_table(cache, stamp.hexdigest())
    try:
        raw = json.loads(cached.read_text("utf-8"))
        return {tuple(k.split("-")): v for k, v in raw.items()}
    except (OSError, ValueError):
        pass
    table: dict[tuple[str, str], dict[str, list[str]]] = {pair: {} for pair in FILES}
    for (source, target), name in FILES.items():
        for head, words in _entries(name, folder):
            _add(table[(source, target)], source, head, words)
            for word in words:  # the other direction, inverted
                _add(table[(target, source)], target, word, [head])
    paths.save_cached_json(cached, {"-".join(k): v for k, v in table.items()})
    return table


def _add(into: dict[str, list[str]], language: str, head: str, words: list[str]) -> None:
    """`head`'s translations under its key (`_key`) and, for a single word, also under
    its own form (`_form_key`): words that share a stem share the first key ("petit"
    and "pet", "chiffre" and "chiffrer"), not the second."""
    key = _key(head, language)
    if not key:
        return
    keys = [key] + ([_form_key(head)] if " " not in key and _form_key(head) else [])
    for each in keys:
        known = into.setdefault(each, [])
        for word in words:
            if word not in known and len(known) < MAX_TRANSLATIONS:
                known.append(word)


def _form_key(word: str) -> str:
    """A single word's key by its form, folded ("=petit"), apart from the stems' keys."""
    words = re.findall(r"[^\W\d_]+", word.lower())
    return f"={text.fold(words[0])}" if len(words) == 1 else ""


def _own_entries(table: dict[str, list[str]], word: str, language: str) -> list[str]:
    """The translations of `word`'s own form (or its singular's) and, when it may be a
    French verb's form, of its infinitive: [] when the dictionary has neither."""
    folded = text.fold(word)
    own = [f for f in _forms(word, language)[:3] if f"={f}" in table]
    found = list(table[f"={own[0]}"]) if own else []
    infinitive = text.fold(_infinitive(word, language))
    if language == "fr" and infinitive != folded and f"={infinitive}" in table:
        found += [w for w in table[f"={infinitive}"] if w not in found]
    return found


def _forms(word: str, language: str) -> list[str]:
    """The forms a word of a question may be looked up by before its stem: itself, its
    singular ("chiffres", "petits"), a French verb form's infinitive ("gardés"), an
    English word's forms (`_english_forms`), each folded."""
    folded = text.fold(word)
    if language == "en":
        return _english_forms(folded)
    forms = [folded]
    if folded.endswith(("s", "x")) and len(folded) > 3:
        forms.append(folded[:-1])
    infinitive = text.fold(_infinitive(word, language))
    # a participle ("gardés") is its verb's before it is a noun ("garde")
    forms.insert(0 if _PARTICIPLE.search(word.lower()) else len(forms), infinitive)
    return list(dict.fromkeys(forms))


_PARTICIPLE = re.compile(r"(?:é|ée|és|ées)$")


def _key(phrase: str, language: str) -> str:
    """A single word by its stem, a phrase by its folded words."""
    words = re.findall(r"[^\W\d_]+", phrase.lower())
    if len(words) == 1:
        return text.stem(words[0], language)
    return " ".join(text.fold(w) for w in words)


# Word lists (Debian's wfrench and wamerican-large, else wamerican), to tell a word from a
# name; the first of each language that is there is read, like the dictionaries.
WORD_LISTS = {"fr": ("/usr/share/dict/french",),
              "en": ("/usr/share/dict/american-english-large", "/usr/share/dict/american-english")}


@lru_cache(maxsize=2)
def _sorted_stems(cache: str | None = None) -> dict[str, tuple[str, ...]]:
    """language -> the stems of its word list's words, sorted (empty without the list);
    cached as JSON in the `cache` folder, keyed by the lists' sizes and times."""
    present = {lang: next(Path(f) for f in files if Path(f).is_file())
               for lang, files in WORD_LISTS.items() if any(Path(f).is_file() for f in files)}
    if not present:
        return {}
    stamp = hashlib.sha1(repr([(str(f), f.stat().st_size, f.stat().st_mtime_ns)
                               for f in present.values()]).encode() + CACHE_VERSION.encode())
    cached = paths.word_stems(cache, stamp.hexdigest())
    try:
        return {k: tuple(v) for k, v in json.loads(cached.read_text("utf-8")).items()}
    except (OSError, ValueError):
        pass
    stems = {lang: sorted({text.stem(w.strip().lower(), lang)
                           for w in f.read_text("utf-8", "replace").splitlines()
                           if w.strip() and "'" not in w})
             for lang, f in present.items()}
    paths.save_cached_json(cached, stems)
    return {k: tuple(v) for k, v in stems.items()}


@lru_cache(maxsize=2)
def _word_stems(cache: str | None = None) -> dict[str, frozenset[str]]:
    """language -> the stems of its word list's words, as a set."""
    return {k: frozenset(v) for k, v in _sorted_stems(cache).items()}


def is_word(word: str, folder: str | None = None, cache: str | None = None) -> bool | None:
    """Whether `word` is a word of French or English (by its stem: in a word list, or a
    headword or translation of the dictionaries), not a name ("debmirror", "YubiKey");
    None when neither word lists nor dictionaries are there."""
    lists = _word_stems(cache)
    word = word.lower()
    if any(text.stem(word, lang) in stems for lang, stems in lists.items()):
        return True  # (the dictionaries, slower to load, only for what the lists lack)
    prefix = _PREFIX.match(word)
    if prefix and any(text.stem(word[prefix.end():], lang) in stems
                      for lang, stems in lists.items()):
        return True  # "subfolder", "multithreaded", "reboucler": a prefix and a word
    agent = _AGENT.sub(r"er\1", word)
    if agent != word and text.stem(agent, "en") in lists.get("en", ()):
        return True  # "parseur", "scanneurs": an English word with a French ending
    action = _ACTION.sub("er", word)
    if action != word and text.stem(action, "fr") in lists.get("fr", ()):
        return True  # "visionnage", "joignable": made of a French verb
    if _INFLECTED.search(word) and any(
            all(text.stem(part, "en") in lists.get("en", ()) for part in (word[:i], word[i:]))
            for i in range(3, len(word) - 4)):
        return True  # "hardcoding", "hotplugged": two English words, used as a verb
    table = dictionary(folder, cache)
    if not lists and not any(table.values()):
        return None
    if any(_key(word, language) in (table.get((language, other)) or {})
           for language, other in (("fr", "en"), ("en", "fr"))):
        return True
    return _clipped(word, _sorted_stems(cache))


# A prefix that makes a word of a word ("subfolder", "multithread", "autosave"), before at
# least four letters
_PREFIX = re.compile(r"^(?:sub|sous|super|multi|under|over|non|self|semi|anti|inter|micro|"
                     r"mini|auto|pre|post|rétro|retro|re|ré|dé|pré)(?=[a-zà-ÿ]{4,}$)")
# a French agent noun made of an English word ("parseur", "scanneur": parser, scanner)
_AGENT = re.compile(r"eur(s?)$")
# a French noun of action or adjective of ability made of a verb ("visionnage",
# "minutage", "joignable": visionner, minuter, joindre by its stem "joign")
_ACTION = re.compile(r"(?<=\w{3})(?:ages?|ables?)$")
# an English verb's ending, after a word of two at least three letters long ("hardcoding")
_INFLECTED = re.compile(r"(?<=[a-z]{6})(?:ing|ed)$")


def _clipped(word: str, lists: dict[str, tuple[str, ...]]) -> bool:
    """A clipped form of a word ("ordis" for "ordinateurs", "appli" for "application",
    "distro" for "distribution"):
    four letters or more, the start of a longer stem of a word list (stems are folded and
    sorted there: one binary search per language)."""
    start = text.fold(word).removesuffix("s")
    if len(start) < 4 or not start.isalpha():
        return False
    # an English clipping may end on an "o" of its own ("distro" for "distribution")
    starts = [start, start[:-1]] if len(start) >= 6 and start.endswith("o") else [start]
    for ordered in lists.values():
        for start in starts:
            i = bisect.bisect_right(ordered, start)
            if i < len(ordered) and ordered[i].startswith(start):
                return True
    return False


def available(folder: str | None = None, cache: str | None = None) -> bool:
    return any(dictionary(folder, cache).values())


def installed(folder: str | None = None) -> dict[str, bool]:
    """Whether the dictionaries and the word lists are on this machine, from their files
    alone (nothing is read: `status` asks it)."""
    folder_path = Path(folder or DICT_DIR)
    return {"dictionaries": all((folder_path / f"{name}.index").is_file()
                                for name in FILES.values()),
            "word_lists": any(Path(f).is_file() for files in WORD_LISTS.values()
                              for f in files)}


def translate(question: str, source: str, folder: str | None = None,
              cache: str | None = None) -> str:
    """The question's content words in the other language, as one string ('' when the
    dictionaries are missing or nothing is found). Phrases of up to four words first
    ("mot de passe"), then single words by their stem."""
    target = "en" if source == "fr" else "fr"
    table = dictionary(folder, cache).get((source, target)) or {}
    if not table:
        return ""
    return " ".join(dict.fromkeys(_walk(question, source, [_dictionary_lookup(table, source)])))


# a word written as a name: a capital after its first letter (ETag, JSONPath, McDonald)
_NAME = re.compile(r"^.+[A-Z]")


def _walk(question: str, source: str, lookups: list) -> list[str]:
    """The words the `lookups` give for the question's phrases and words, left to right:
    at each position the first lookup that knows the phrase or word starting there (its
    answer: how many words it read, their translation) wins, so a word is translated by
    one table only."""
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", question)]
    names = {i for i, w in enumerate(re.findall(r"[^\W\d_]+", question))
             if _NAME.search(w)}
    out: list[str] = []
    i = 0
    while i < len(words):
        if i in names:  # a name is searched as written, never translated
            i += 1
            continue
        for lookup in lookups:
            found = lookup(words, i)
            if found is not None:
                size, translation = found
                out.extend(translation)
                i += size
                break
        else:
            i += 1
    return out


def _dictionary_lookup(table: dict[str, list[str]], source: str):
    """FreeDict's entries: phrases of four to two folded words, then a content word by
    its stem (or its infinitive's)."""
    def lookup(words: list[str], i: int) -> tuple[int, list[str]] | None:
        phrase = _phrase_at(words, i, table, text.fold)
        if phrase is not None:
            return phrase
        word = words[i]
        if text.fold(word) in text.STOPWORDS or len(word) < 3:
            return None
        # the word's own entry ("petit": little, small) with its verb's ("ferme": firm
        # and, from "fermer", close), else its stem's, which other words share ("pet")
        found = _own_entries(table, word, source) or table.get(
            text.stem(word, source)) or table.get(text.stem(_infinitive(word, source), source))
        return (1, found) if found else None
    return lookup


# French verb endings of participles and present forms (-ée, -és, -ie, -ent...), whose
# stems differ from the infinitive's the dictionary is keyed by: "vérifie" is stemmed
# "verif", "vérifier" "verifi"; "comparées", "empilés", "repérés" likewise
_FRENCH_VERB_FORM = re.compile(r"(?:ées|ée|és|é|es|e|ent)$")


def _infinitive(word: str, language: str) -> str:
    """A French verb form's -er infinitive ("vérifie" -> "vérifier", "stockés" ->
    "stocker"), tried when the word itself has no entry; other words as they are."""
    if language != "fr" or not _FRENCH_VERB_FORM.search(word):
        return word
    return _FRENCH_VERB_FORM.sub("", word) + "er"


# The words French developers say for what English code names (FreeDict knows "requête"
# as "attempt", "trier" as "divide", "tas" as "crowd"): `where` adds them to a French
# question's translation. Keys: a French word (any form: matched by stem, verb forms by
# their infinitive) or a phrase of up to four words (hyphens as spaces).
CODE_TERMS_FR = {
    "requête": "request query", "réponse": "response", "fichier": "file",
    "dossier": "directory folder dir", "répertoire": "directory dir", "chemin": "path",
    "disposition": "layout", "disposition du clavier": "keyboard layout keymap",
    "agencement": "layout",
    "clé": "key", "clef": "key", "valeur": "value", "tableau": "array", "liste": "list",
    "chaîne": "string str", "chaîne de caractères": "string str", "caractère": "char",
    "entier": "int integer", "booléen": "bool", "flottant": "float", "objet": "object",
    "méthode": "method", "fonction": "function func", "paramètre": "param parameter",
    "option": "option flag", "drapeau": "flag", "commande": "command cmd",
    "sous commande": "subcommand", "journal": "log logger", "journaliser": "log",
    "entrée": "input entry", "sortie": "output exit",
    "code de sortie": "exit status code", "code de retour": "exit status return code",
    "compte": "account count", "connecté": "logged in connected",
    "erreur": "error err", "avertissement": "warning warn",
    "vider": "flush empty clear purge", "cible": "target", "gravité": "severity",
    "niveau de gravité": "severity level", "nettoyage": "cleanup clean", "niveau": "level",
    "gestionnaire": "handler manager", "gérer": "handle manage", "traiter": "process handle",
    "analyser": "parse", "analyseur": "parser", "lire": "read", "lecture": "read reader",
    "écrire": "write", "écriture": "write writer", "afficher": "display show print",
    "imprimer": "print", "formater": "format", "mise en forme": "format",
    "convertir": "convert", "encoder": "encode", "décoder": "decode",
    "sérialiser": "serialize", "désérialiser": "deserialize", "trier": "sort",
    "aléatoire": "random", "majuscule": "uppercase upper capital",
    "minuscule": "lowercase lower", "largeur": "width", "séparateur": "separator delimiter",
    "délimiteur": "delimiter separator", "propriétaire": "owner", "caché": "hidden",
    "récursif": "recursive", "récursivement": "recursively recursive",
    "état de sortie": "exit status", "champ": "field", "numéroter": "number",
    "débloquer": "unlock",
    "tri": "sort", "comparer": "compare cmp", "filtrer": "filter",
    "chercher": "find search lookup", "rechercher": "search find", "trouver": "find",
    "vérifier": "check verify validate", "valider": "validate", "correspondre": "match",
    "créer": "create new", "supprimer": "delete remove", "effacer": "clear delete",
    "ajouter": "add append", "insérer": "insert", "mettre à jour": "update",
    "envoyer": "send", "recevoir": "receive", "renvoyer": "return", "appeler": "call",
    "démarrer": "start", "arrêter": "stop", "tas": "heap", "pile": "stack",
    "tampon": "buffer", "mémoire": "memory", "délai": "timeout", "en tête": "header",
    "corps": "body", "jeton": "token", "mot de passe": "password", "utilisateur": "user",
    "phrase de passe": "passphrase", "phrase secrète": "passphrase",
    "témoin": "cookie", "serveur": "server", "hôte": "host", "adresse": "address addr",
    "lien": "link", "rediriger": "redirect", "redirection": "redirect",
    "routage": "routing route", "intergiciel": "middleware", "compresser": "compress",
    "chiffrer": "encrypt", "hachage": "hash", "empreinte": "hash digest",
    "dépendance": "dependency", "paquet": "package", "modèle": "template model",
    "gabarit": "template", "extrait": "snippet excerpt", "tiret": "dash hyphen",
    "tiret bas": "underscore", "espace": "space whitespace", "ligne": "line",
    "colonne": "column", "saut de ligne": "newline", "complétion": "completion complete",
    "autocomplétion": "completion complete", "proposer": "suggest", "aide": "help",
    "défaut": "default", "obligatoire": "required", "facultatif": "optional",
    "doublon": "duplicate", "dupliquer": "duplicate", "fusionner": "merge",
    "découper": "split", "joindre": "join", "boucle": "loop", "itérer": "iterate",
    "événement": "event", "écouter": "listen", "déclencher": "trigger",
    "taille": "size", "longueur": "length len", "plage": "range",
    "exécuter": "run execute exec", "lancer": "run throw", "lever": "raise throw",
    "attraper": "catch", "générer": "generate gen", "construire": "build",
    "détecter": "detect", "empiler": "stack push", "dépiler": "pop",
    # verbs whose participles have no -er infinitive (écrit, lu, mis), verbs and nouns
    # FreeDict translates by a general sense or lacks
    "enregistrer": "register record save", "écrit": "write written", "lu": "read",
    "mis à jour": "update",
    "mis": "set put", "pris": "take taken", "transmis": "pass forward send",
    "ouvert": "open", "construit": "build built", "produit": "produce output",
    "inclus": "include", "exclu": "exclude", "résolu": "resolve resolved",
    "donner": "give given", "calculer": "compute calculate calc", "compter": "count",
    "transmettre": "pass forward send dispatch", "survenir": "occur happen",
    "garder": "keep preserve retain", "conserver": "keep store retain preserve",
    "de départ": "original initial", "stocker": "store",
    "charger": "load", "chargement": "load loading", "sauvegarder": "save backup",
    "télécharger": "download", "téléverser": "upload", "définir": "define set",
    "déclarer": "declare", "initialiser": "init initialize", "ignorer": "ignore skip",
    "sauter": "skip", "remplacer": "replace", "renommer": "rename", "déplacer": "move",
    "copier": "copy", "tronquer": "truncate", "transformer": "transform convert",
    "parcourir": "walk traverse iterate", "déboguer": "debug", "débogueur": "debugger debug",
    "débogage": "debugging debug", "notifier": "notify",
    "abonner": "subscribe", "hériter": "inherit extend", "surcharger": "override overload",
    "allouer": "alloc allocate", "libérer": "free release", "verrouiller": "lock",
    "planifier": "schedule", "authentifier": "authenticate auth", "échapper": "escape",
    "résoudre": "resolve", "instancier": "instantiate new", "texte": "text string str",
    "nombre": "number num count", "octet": "byte", "opérateur": "operator op",
    "contrainte": "constraint requirement", "exigence": "requirement",
    "urgence": "emergency urgent", "identifiant": "id identifier", "nom": "name",
    "courant": "current cur", "précédent": "previous prev", "suivant": "next",
    "enfant": "child children", "arbre": "tree", "nœud": "node", "noeud": "node",
    "racine": "root", "rappel": "callback", "fonction de rappel": "callback",
    "constructeur": "constructor new init", "propriété": "property attribute",
    "attribut": "attribute attr", "connexion": "connection conn login",
    "déconnexion": "logout disconnect", "droit": "permission right", "verrou": "lock",
    "tâche": "task job", "file d attente": "queue", "minuteur": "timer",
    "horodatage": "timestamp", "durée": "duration", "encodage": "encoding encode",
    "échappement": "escape", "guillemet": "quote", "motif": "pattern",
    "expression régulière": "regex regexp", "expression rationnelle": "regex regexp",
    "joker": "wildcard glob", "correspondance": "match mapping", "navigateur": "browser",
    "alerte": "alert", "pile d appels": "stack trace", "pointeur": "pointer ptr",
    "référence": "reference ref", "fuite": "leak", "vide": "empty", "nul": "null nil none",
    "inconnu": "unknown", "égal": "equal eq", "supérieur": "greater gt",
    "inférieur": "less lt", "croissant": "ascending", "décroissant": "descending",
    "langue": "language lang locale", "instance": "instance", "saisie": "input",
    "invite": "prompt", "log": "log logging", "dictionnaire": "dict dictionary",
    "fuseau horaire": "timezone tz zone", "fuseau": "timezone tz zone", "verbeux": "verbose",
    "régler": "set configure", "paramétrer": "configure set", "configurer": "configure config",
    "réessayer": "retry", "précision": "precision", "décimale": "decimal",
    # common developer verbs and nouns FreeDict lacks or gives only other senses of
    # ("annuler": abolish, abrogate; "attente": assault, attentive; "échouer": nothing)
    "annuler": "cancel", "annulation": "cancel cancellation", "échouer": "fail failure",
    "échec": "failure fail", "commentaire": "comment", "attente": "wait pending",
    "en attente": "pending waiting", "attendre": "wait await", "promesse": "promise",
    "pause": "sleep pause wait", "moins de": "under less than fewer",
    "en dessous de": "under below less than", "au dessus de": "over above more than",
    "rejeter": "reject", "tenter": "try attempt", "tentative": "attempt try",
    "bloquer": "block", "terminer": "finish complete end", "intercepter": "catch",
    "émettre": "emit send", "souscrire": "subscribe",
    "signaler": "signal report notify", "incrémenter": "increment inc",
    "décrémenter": "decrement dec",
    "agréger": "aggregate", "scinder": "split", "diviser": "divide split",
    "purger": "purge clear", "réinitialiser": "reset", "restaurer": "restore",
    "archiver": "archive", "décompresser": "decompress extract", "déchiffrer": "decrypt",
    "signer": "sign", "hacher": "hash", "interpréter": "interpret", "évaluer": "evaluate",
    "compiler": "compile", "déployer": "deploy", "désinstaller": "uninstall remove",
    "mise à jour": "update upgrade",
    "mettre en cache": "cache", "cache": "cache", "cacher": "hide cache", "masquer": "hide",
    "redimensionner": "resize", "coller": "paste", "détruire": "destroy",
    "redéfinir": "override redefine", "implémenter": "implement",
    "activer": "enable activate", "désactiver": "disable deactivate",
    "basculer": "toggle switch", "déverrouiller": "unlock", "synchroniser": "sync",
    "paralléliser": "parallel", "programmer": "schedule", "propager": "propagate",
    "relancer": "restart retry", "arrondir": "round", "associer": "associate map",
    "lier": "bind link", "relier": "link connect", "déconnecter": "disconnect",
    "invalider": "invalidate", "contrôler": "check control", "tester": "test",
    "simuler": "simulate mock", "mémoriser": "memoize cache", "retenir": "keep retain",
    "récupérer": "get fetch retrieve recover", "extraire": "extract", "retirer": "remove",
    "citer": "quote", "exception": "exception exc", "flux": "stream flow",
    "dépôt": "repository repo", "noyau": "kernel core", "disque": "disk",
    "montage": "mount", "montée": "mount", "écouteur": "listener", "minuterie": "timer",
    "essai": "test try attempt", "bouton": "button", "pilote": "driver",
    "branche": "branch", "tube": "pipe", "ressource": "resource",
    "ensemble": "set collection", "paquetage": "package",
    # the words of application manuals (menus, dialogs, sheets) FreeDict lacks or gives
    # other senses of ("onglet" and "condensé" were missed in the thirteenth
    # session's trial; the others are their kind)
    "onglet": "tab", "condensé": "digest hash", "presse papiers": "clipboard",
    "raccourci": "shortcut", "raccourci clavier": "keyboard shortcut",
    "curseur": "cursor slider", "police": "font", "classeur": "workbook",
    "feuille de calcul": "spreadsheet sheet", "glisser": "drag", "déposer": "drop",
    "glisser déposer": "drag drop", "somme de contrôle": "checksum",
    "case à cocher": "checkbox", "cocher": "check tick", "barre d outils": "toolbar",
    "barre d état": "status bar", "diaporama": "slideshow", "diapositive": "slide",
    "défiler": "scroll",
    "calque": "layer", "boîte de dialogue": "dialog", "menu contextuel": "context menu",
    "clic droit": "right click", "cliquer": "click", "sélectionner": "select",
    "pièce jointe": "attachment", "courriel": "email mail", "mise en page": "layout",
    "aperçu": "preview", "nouveau": "new", "nouvel": "new", "nouvelle": "new news",
    # phrases FreeDict reads word by word ("fin de ligne": end, lively, witty; "bande
    # passante": bevy, passer by; trial 29's line endings question)
    "fin de ligne": "line ending end of line newline eol", "retour chariot": "carriage return cr",
    "retour à la ligne": "line break newline wrap", "fin de fichier": "end of file eof",
    "sous répertoire": "subdirectory", "sous dossier": "subdirectory subfolder",
    "tabulation": "tab", "espace insécable": "non-breaking space nbsp",
    "virgule": "comma", "côte à côte": "side by side parallel",
    "bande passante": "bandwidth", "pare feu": "firewall", "mot clé": "keyword",
    "nom d hôte": "hostname host name", "lien symbolique": "symlink symbolic link",
    "variable d environnement": "environment variable env", "droits d accès": "permissions access",
    "cœur": "core cores", "coeur": "core cores", "bac à sable": "sandbox",
    "processeur": "processor cpu", "ramasse miettes": "garbage collector collection gc",
    "à l avance": "in advance beforehand ahead", "hors ligne": "offline",
    "en arrière": "back revert rollback undo downgrade", "nommer": "name naming",
    "ligne de commande": "command line cli", "en ligne de commande": "command line cli",
    "gras": "bold", "italique": "italic", "souligné": "underline underlined",
    "clé étrangère": "foreign key", "planter": "crash", "plantage": "crash",
    "râler": "complain warn warning error",
    "à la volée": "on the fly dynamically runtime", "fabriquer": "build create make",
    "imbriquer": "nest nested nesting", "récursion": "recursion recursive",
    "récursivité": "recursion recursive", "morceau": "chunk piece part hunk",
    "ne pas tenir compte": "ignore", "sans tenir compte": "ignore regardless",
    "en ligne": "online", "sans fil": "wireless",
}


# The words of a help desk's documents (customer service, billing, staff policies, IT
# support) that FreeDict lacks or gives other senses of ("remboursement": repay; "frais":
# fresh, strawberry; "colis": luggage; "refund", "penalty", "laptop", "télétravail":
# nothing), by English phrases. Both ways: a French question's words to English (beside
# `CODE_TERMS_FR`, whose developer senses win: "commande" stays command), and an English
# question's words to French by this table turned around (`_english_lookup`: "refund" ->
# remboursement rembourser).
EVERYDAY_TERMS_FR = {
    "remboursement": "refund, reimbursement, repayment",
    "rembourser": "refund, reimburse, repay", "relance": "reminder, dunning",
    "pénalité": "penalty, fine", "retard": "delay, late, lateness",
    "échéance": "due date, deadline, expiry", "date limite": "deadline",
    "facture": "invoice, bill", "facturation": "billing, invoicing",
    "acompte": "deposit, down payment", "devis": "quote, estimate",
    "bon de commande": "purchase order", "bon d achat": "voucher, gift card",
    "frais": "fees, costs, expenses, charges", "frais de port": "shipping costs, postage",
    "frais de livraison": "delivery costs, shipping costs",
    "note de frais": "expense report, expense claim", "dépense": "expense, spending",
    "tva": "vat", "hors taxes": "excluding tax, before tax",
    "toutes taxes comprises": "including tax", "montant": "amount, sum",
    "tarif": "price, rate, fee", "plafond": "limit, cap, ceiling",
    "justificatif": "receipt, proof, supporting document", "reçu": "receipt",
    "livraison": "delivery, shipping", "expédition": "shipping, dispatch",
    "expédier": "ship, dispatch", "colis": "parcel, package",
    "transporteur": "carrier, courier", "garantie": "warranty, guarantee",
    "défectueux": "defective, faulty", "en panne": "broken, out of order",
    "cassé": "broken", "réclamation": "complaint, claim",
    "fournisseur": "supplier, vendor, provider", "abonnement": "subscription",
    "résiliation": "cancellation, termination", "résilier": "cancel, terminate",
    "réservation": "booking, reservation", "rendez vous": "appointment",
    "délai de rétractation": "withdrawal period, cooling-off period",
    "service client": "customer service, customer support", "client": "customer, client",
    "salarié": "employee", "employé": "employee, staff",
    "collaborateur": "employee, colleague, staff", "personnel": "staff, personnel",
    "télétravail": "remote work, telework, work from home, working from home",
    "télétravailler": "work remotely, work from home",
    "congé": "leave, holiday, time off, vacation", "congés payés": "paid leave",
    "congé maladie": "sick leave", "arrêt maladie": "sick leave",
    "congé maternité": "maternity leave", "congé paternité": "paternity leave",
    "jour férié": "public holiday, bank holiday", "heures supplémentaires": "overtime",
    "astreinte": "on-call", "horaires": "hours, working hours, schedule",
    "indemnité": "allowance, compensation", "prime": "bonus", "paie": "pay, payroll",
    "salaire": "salary, pay, wages", "fiche de paie": "payslip, pay slip",
    "bulletin de salaire": "payslip, pay slip", "préavis": "notice, notice period",
    "démission": "resignation", "démissionner": "resign, quit",
    "licenciement": "dismissal, layoff", "période d essai": "probation, trial period",
    "entretien annuel": "annual review, appraisal", "formation": "training, course",
    "recrutement": "recruitment, hiring", "embauche": "hiring", "retraite": "retirement",
    "ancienneté": "seniority", "mutuelle": "health insurance",
    "ordinateur portable": "laptop, notebook, portable computer",
    "téléphone portable": "mobile phone, cell phone",
    "imprimante": "printer", "messagerie": "email, messaging, mailbox, voicemail",
    "visioconférence": "video call, videoconference",
    "assistance": "support, help desk", "réunion": "meeting",
    "stationnement": "parking", "mot de passe": "password", "identifiant": "login, username",
    "connexion": "login, sign in", "mise à jour": "update", "sauvegarde": "backup",
    "pièce jointe": "attachment", "courriel": "email", "paiement": "payment",
    "payer": "pay", "payé": "paid", "chiffre": "digit, figure, number",
    "calculer": "compute, calculate",
    "annuler": "cancel", "annulation": "cancellation", "demande": "request",
    "valider": "approve, validate", "validation": "approval", "envoyer": "send",
    "envoyé": "sent", "passer outre": "override, bypass, ignore, force",
    "à la main": "manually, by hand", "manuellement": "manually",
}


def _phrases(english: str) -> list[str]:
    return [p.strip() for p in english.split(",") if p.strip()]


def _stems(phrase: str) -> str:
    """A French word or phrase as the stems of its words ("tirets bas" -> "tiret bas")."""
    return " ".join(text.stem(w, "fr") for w in re.findall(r"[^\W\d_]+", phrase.lower()))


@lru_cache(maxsize=1)
def _code_terms() -> dict[str, str]:
    """The French vocabularies by their heads' stems and, for single words, also by
    their forms (`_form_key`: "chiffre" is a digit, "chiffrer" to encrypt)."""
    everyday = {_stems(head): " ".join(_phrases(words))
                for head, words in EVERYDAY_TERMS_FR.items()}
    code = {_stems(head): words for head, words in CODE_TERMS_FR.items()}
    # a phrase ending on "de" is also written elided: "moins d'une seconde"
    code = {_stems(head[:-1]): words for head, words in CODE_TERMS_FR.items()
            if head.endswith(" de")} | code
    forms = {_form_key(head): " ".join(_phrases(words))
             for head, words in EVERYDAY_TERMS_FR.items() if _form_key(head)}
    forms |= {_form_key(head): words for head, words in CODE_TERMS_FR.items()
              if _form_key(head)}
    return everyday | code | forms


# a developer word's senses in `CODE_TERMS_FR` as many as this at most: turned around,
# each is that French word ("sortie": "exit output"); a longer list spells a phrase out
# ("fin de ligne": "line ending end of line newline eol"), whose words are no such senses
REVERSED_SENSES = 3


@lru_cache(maxsize=1)
def _english_terms() -> dict[str, list[str]]:
    """`EVERYDAY_TERMS_FR` turned around: an English phrase's or word's folded words ->
    the French words. Words as written, not stems: "training" and "train" share one. Then
    `CODE_TERMS_FR`'s, a word at a time: an English question over French manuals meets
    "code de sortie" through "exit", "sous répertoire" through "subdirectory", which
    FreeDict gives no sense of or others ("exit": aboutir, issue)."""
    table: dict[str, list[str]] = {}
    for head, english in EVERYDAY_TERMS_FR.items():
        for phrase in _phrases(english):
            known = table.setdefault(text.fold(phrase.replace("-", " ")), [])
            known.extend(w for w in head.split() if w not in known)
    reversed_terms: dict[str, list[str]] = {}
    # a French word first; a phrase only for an English word no French word means
    # ("subdirectory": sous répertoire; "line" is ligne, not "ligne de commande")
    for phrases in (False, True):
        words_there = set(reversed_terms)
        for head, english in CODE_TERMS_FR.items():
            senses = english.split()
            if (" " in head) != phrases or len(senses) > REVERSED_SENSES:
                continue
            for word in (text.fold(w) for w in senses):
                if len(word) < 3 or word in text.STOPWORDS or phrases and word in words_there:
                    continue
                known = reversed_terms.setdefault(word, [])
                known.extend(w for w in head.split() if w not in known)
    for word, french in reversed_terms.items():
        known = table.setdefault(word, [])
        known.extend(w for w in french if w not in known)
    return table


def _phrase_at(words: list[str], i: int, table: dict, key: Callable[[str], str]):
    """(size, entry) of the phrase of four, three or two words starting at `i` that
    `table` knows, each word read by `key` (its stem, its folded form); None when none is
    ("en ligne de commande" is the command line before "en ligne" is online)."""
    for size in (4, 3, 2):
        phrase = " ".join(key(w) for w in words[i:i + size])
        if len(words[i:i + size]) == size and phrase in table:
            return size, table[phrase]
    return None


def _english_lookup(words: list[str], i: int) -> tuple[int, list[str]] | None:
    """`_english_terms`: phrases of four to two words, then a word by its forms
    (`_english_forms`: "computed" is compute, "penalties" penalty)."""
    table = _english_terms()
    phrase = _phrase_at(words, i, table, text.fold)
    if phrase is not None:
        return phrase
    folded = text.fold(words[i])
    if folded in text.STOPWORDS or len(folded) < 3:
        return None
    found = next((table[form] for form in _english_forms(folded) if form in table), None)
    return (1, found) if found else None


def _english_forms(word: str) -> list[str]:
    """A folded English word and the forms its ending may come from: plurals (-s, -es,
    -ies), past forms (-ed, -d), -ing. Not stems: "training" is not "train"."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    for ending in ("es", "s", "ed", "d", "ing"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            forms.append(word[:-len(ending)])
    if word.endswith("ing"):
        forms.append(word[:-3] + "e")
    return forms


def _either(first, second):
    """A lookup giving both lookups' words where they read the same number of words at
    `i` (`first`'s before), else the one that reads more: the everyday vocabulary adds
    what the dictionary lacks ("payment" is also paiement) without dropping its senses."""
    def lookup(words: list[str], i: int) -> tuple[int, list[str]] | None:
        a, b = first(words, i), second(words, i)
        if a is None or b is None:
            return a or b
        if a[0] != b[0]:
            return a if a[0] > b[0] else b
        return a[0], list(dict.fromkeys(a[1] + b[1]))
    return lookup


def _code_lookup(words: list[str], i: int) -> tuple[int, list[str]] | None:
    """`CODE_TERMS_FR`: phrases of four to two words by their stems, then a word by its
    stem or its infinitive's."""
    table = _code_terms()
    phrase = _phrase_at(words, i, table, lambda w: text.stem(w, "fr"))
    if phrase is not None:
        return phrase[0], phrase[1].split()
    word = words[i]
    found = next((table[f"={form}"] for form in _forms(word, "fr") if f"={form}" in table),
                 None) or table.get(text.stem(word, "fr")) or table.get(
        text.stem(_infinitive(word, "fr"), "fr"))
    return (1, found.split()) if found else None


def code_phrases(question: str) -> dict[str, str]:
    """The developer vocabulary's phrases of two to four words in a French question, by
    each of their content words as written in lower case: {"mot": "password", "passe":
    "password"} for "…mon mot de passe…" (a judgment that translates word by word reads
    "mot" as "word")."""
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", question)]
    out: dict[str, str] = {}
    for i in range(len(words)):
        found = _code_lookup(words, i)
        if found is None or found[0] < 2:  # a word, not a phrase
            continue
        # each content word of the phrase carries its translation ("main" for "à la
        # main"), none its own sense ("outre" of "passer outre" is no "goatskin"), as a
        # judgment may leave any of them out as an ordinary verb ("passe")
        content = [w for w in words[i:i + found[0]] if text.fold(w) not in text.STOPWORDS]
        for word in content or words[i:i + 1]:
            out.setdefault(word, " ".join(found[1]))
    return out


def code_terms(question: str, source: str) -> str:
    """The English code words of a French question's developer vocabulary
    (`CODE_TERMS_FR`: "requête" -> request query, "tiret bas" -> underscore), as one
    string ('' for another language or when none is found). Needs no dictionary."""
    if source != "fr":
        return ""
    return " ".join(dict.fromkeys(_walk(question, source, [_code_lookup])))


def word_translator(question: str, source: str, folder: str | None = None,
                    cache: str | None = None, compounds_only: bool = False
                    ) -> Callable[[str], str]:
    """How each word of `question` (in `source`) is translated for passages in the other
    language: by the developer vocabulary's phrase it is part of ("mot de passe",
    `code_phrases`), else by itself (`code_translation`). `compounds_only`: by a phrase
    only when English writes it as one word ("phrase de passe": passphrase)."""
    phrases = code_phrases(question) if source == "fr" else {}
    if compounds_only:
        phrases = {word: english for word, english in phrases.items()
                   if len(english.split()) == 1}

    def translate(word: str) -> str:
        if word.lower() in phrases:
            return phrases[word.lower()]
        return code_translation(word, source, folder, cache)
    return translate


def code_translation(question: str, source: str, folder: str | None = None,
                     cache: str | None = None) -> str:
    """A French question's words as English code names them: each word or phrase the
    developer vocabulary knows (`CODE_TERMS_FR`) by it alone, the others by the
    dictionary (`translate`). The dictionary's general senses of a developer's word are
    noise in code ("requête": attempt, effort; "entrée": among, admission; "journal":
    gazette, newspaper), so they are not added beside its code words. An English
    question likewise: the help desk's words by `EVERYDAY_TERMS_FR` turned around
    ("refund" -> remboursement rembourser) before the dictionary's senses, which stay
    (`_either`). The vocabularies work without the dictionaries."""
    table = dictionary(folder, cache).get((source, "en" if source == "fr" else "fr")) or {}
    if source == "fr":  # the developer's senses alone
        lookups = [_code_lookup] + ([_dictionary_lookup(table, source)] if table else [])
    else:  # the everyday vocabulary's senses, then the dictionary's
        lookups = [_either(_english_lookup, _dictionary_lookup(table, source))
                   if table else _english_lookup]
    return " ".join(dict.fromkeys(_walk(question, source, lookups)))


# The words users say for what documentation names otherwise, in the same language: a
# help desk's "soft link" is the manual's "symbolic link", a "tarball" a "tar archive", a
# "dossier" a "répertoire". A question's word is found in a passage that says it the
# manual's way (`answerability.content_words`), and the keyword list looks for the
# manual's words too (`plain_words`). Phrases match by their words' stems in their own
# language (the French "converties" is no English "convert").
PLAIN_TERMS_EN = {
    # files and folders
    "folder": "directory", "subfolder": "subdirectory", "top-level folder": "directory",
    "soft link": "symbolic link, symlink", "softlink": "symbolic link, symlink",
    "tarball": "tar archive", "unpack": "extract", "unzip": "extract, decompress",
    "wipe": "delete, erase, remove", "nuke": "delete, remove", "temp": "temporary",
    "tmp": "temporary", "perms": "permissions", "dir": "directory", "repo": "repository",
    "pkg": "package", "env var": "environment variable", "args": "arguments",
    "hard drive": "disk", "hdd": "disk", "thumb drive": "removable device",
    "usb stick": "removable device", "usb key": "removable device", "ram": "memory",
    # what a command does
    "preview": "dry run, simulate", "dry run": "simulate, simulation",
    "simulate": "dry run", "simulation": "dry run", "without actually": "dry run, simulate",
    "without it actually": "dry run, simulate", "without touching": "dry run, simulate",
    "without changing anything": "dry run, simulate",
    "ask me": "prompt", "asking me": "prompt", "asks me": "prompt",
    "ask for confirmation": "prompt, confirm",
    "reboot": "restart, boot", "survive a reboot": "persistent",
    "distro": "distribution", "cap": "limit, maximum", "throttle": "limit, rate",
    "complain": "warn, warning, error", "nag": "warn, warning", "silence": "quiet, suppress",
    "undo": "revert, reset", "roll back": "revert, downgrade", "rollback": "revert",
    "uninstall": "remove, purge", "grab": "fetch, get, download", "kick off": "start, run",
    "spin up": "start", "turn on": "enable", "switch on": "enable", "turn off": "disable",
    "switch off": "disable", "at boot": "enable, startup", "on startup": "enable, boot",
    "autostart": "enable, boot", "crash": "fail, failure, error", "chunk": "hunk",
    "sign in": "login, log in, authenticate", "log in": "login",
    "password-protect": "encrypt, password", "bypass": "force, ignore, skip",
    "get rid": "remove, delete, omit, discard", "strip": "delete, remove",
    "clear": "flush, purge, erase", "pick up where": "continue, resume", "resume": "continue",
    "everything inside": "recursive, recursively", "everything in it": "recursive, recursively",
    "convert": "translate, transform", "pipe": "standard input, stdin",
    "column": "field", "stdout": "standard output", "stdin": "standard input",
    "stderr": "standard error", "email": "mail", "emailing": "mail", "emails": "mail",
    "get around": "force, ignore", "override": "force", "delete": "remove, unlink",
    "throw": "raise", "gone": "missing, exist", "at most": "maximum, max",
    "limit": "maximum, max", "network card": "adapter, device, interface",
    "ethernet card": "adapter, device, interface",
    "light": "LED, LEDs",
    "be root": "superuser, privileged, privileges", "as root": "superuser, privileged, "
    "privileges", "root privileges": "superuser, privileged",
    "without wiping": "non-destructive", "without erasing": "non-destructive",
    "without destroying": "non-destructive", "without losing": "non-destructive",
    "keep a copy": "backup, back up", "put back": "restore", "how hot": "temperature",
    "extension": "suffix", "capitals": "uppercase, upper", "capital letters": "uppercase, "
    "upper", "uppercase": "upper, case", "lowercase": "lower, case", "shrink": "squeeze, "
    "reduce", "junk": "garbage", "skip": "ignore", "fresh": "new, renew",
    "tree": "hierarchy, forest", "sync": "synchronize, synchronization",
    "modified": "changed", "invert the selection": "complement",
    "shut down": "shutdown, halt, poweroff", "power off": "poweroff, shutdown, halt",
    # what a setting is
    "fixed ip": "static", "fixed address": "static",
}
PLAIN_TERMS_FR = {
    "dossier": "répertoire", "sous-dossier": "sous-répertoire", "clé usb": "périphérique "
    "amovible", "râler": "avertissement, erreur", "se plaindre": "avertissement, erreur",
    "planter": "échouer, erreur", "désinstaller": "supprimer, enlever, purger",
    "décompresser": "extraire", "dézipper": "extraire, décompresser",
    "raccourci": "lien symbolique", "mdp": "mot de passe",
    "passer outre": "forcer, force, ignorer", "contourner": "forcer, force, ignorer",
    "garder": "stocker, conserver, enregistrer", "renommer": "changer le nom",
    "ip fixe": "statique", "adresse fixe": "statique", "perdre": "détruire, destructif",
    "assembler": "fusionner, concaténer",
    "simulation": "dry-run, à blanc", "simuler": "dry-run, à blanc",
    "pour de vrai": "simuler, simulation, dry-run", "effacer": "supprimer, purger",
    "sans toucher": "simuler, simulation, dry-run",
    "éteindre": "arrêter, arrêt, shutdown, poweroff", "colonne": "champ",
    "doublon": "dupliqué, répété, identique, dupliquées, répétées, identiques",
    "inverser la sélection": "compléter, complément",
    "tout ce qu'il contient": "récursivement, récursif", "tout son contenu": "récursivement, "
    "récursif",
    "me demande": "confirmation, interactif", "demander confirmation": "confirmation, "
    "interactif",
    # (the translated manuals say "périphérique" for a disk and "espace d'échange" for swap)
    "courriel": "courrier, mail", "disque": "périphérique",
    "swap": "espace d'échange, échange",
    "sans effacer": "non destructif, non destructive", "sans perdre": "non destructif, "
    "non destructive", "sans détruire": "non destructif, non destructive",
    "garder une copie": "sauvegarde, sauvegarder", "remettre": "restaurer",
    "arbre": "hiérarchie, forêt", "baisser": "diminuer, réduire", "remonter": "augmenter",
}


# a word this short is matched as written (or with an "s"): "dir" is no stem of "dire"
PLAIN_STEMMED = 5


def _plain_key(word: str, lang: str) -> str:
    """A word of a phrase of PLAIN_TERMS, or of a question, as the phrases are matched:
    its stem, or itself (without a plural's "s") when short."""
    if len(word) < PLAIN_STEMMED or len(word) == PLAIN_STEMMED and word.endswith("s"):
        return word.removesuffix("s") if len(word) > 3 else word
    return text.stem(word, lang)


PLAIN_TERMS = {"en": PLAIN_TERMS_EN, "fr": PLAIN_TERMS_FR}


@lru_cache(maxsize=1)
def _plain_keys() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """language -> (a phrase of its PLAIN_TERMS as its words' keys, the manual's words)."""
    return {lang: [(tuple(_plain_key(w, lang) for w in re.findall(r"[^\W\d_]+", text.fold(head))),
                    " ".join(_phrases(words))) for head, words in PLAIN_TERMS[lang].items()]
            for lang in text.LANGUAGES}


def plain_senses(question: str) -> dict[str, str]:
    """Each word of `question` (folded) that a phrase of PLAIN_TERMS holds -> the manual's
    words for that phrase ("soft link": soft and link -> "symbolic link symlink")."""
    return dict(_plain_senses(question))


@lru_cache(maxsize=256)
def _plain_senses(question: str) -> tuple[tuple[str, str], ...]:
    """`plain_senses`, read once per question (the answerer scores each sentence with it)."""
    words = re.findall(r"[^\W\d_]+", text.fold(question))
    out: dict[str, str] = {}
    asked = text.question_language(question)
    for lang, keys in _plain_keys().items():
        if lang != asked:
            continue  # (an English "change" stems as the French "changer": each language's
            # words are the users' of that language)
        stems = [_plain_key(w, lang) for w in words]
        for key, senses in keys:
            for i in range(len(stems) - len(key) + 1):
                if tuple(stems[i:i + len(key)]) == key:
                    for word in words[i:i + len(key)]:
                        out[word] = " ".join(dict.fromkeys(f"{out.get(word, '')} {senses}"
                                                           .split()))
    # what is not done, as manuals write it in one word: "files git isn't tracking" are
    # "untracked", "not mounted" is "unmounted"
    for match in _NOT_DONE.finditer(text.fold(question)):
        word = match.group(1)
        out[word] = " ".join(dict.fromkeys(f"{out.get(word, '')} un{word}".split()))
    return tuple(out.items())


_NOT_DONE = re.compile(r"(?:n['’]t|\bnot|\bnever)\s+(?:(?:yet|be|been|being|already)\s+)?"
                       r"([a-z]{4,}(?:ed|ing))\b")


def plain_words(question: str) -> str:
    """The manual's words for the everyday ones of `question`, as one string."""
    return " ".join(dict.fromkeys(" ".join(plain_senses(question).values()).split()))
