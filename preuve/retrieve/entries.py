"""The entry that describes a command-line option the question names.

"What does grep -v do?", "à quoi sert l'option -C de tar ?": the passage that answers is
the option's entry in the command's manual ("-v, --invert-match  Invert the sense of
matching…"), yet every passage of that page holds the command's name, and the option's
letter is no word. The keyword list ranks passages that *mention* `-v` (the description
of `-c` says "with the -v option") with the entry, and the dense list knows nothing of
what a letter means. `first_entry` looks, in the files the question names among the
hits (`named_files`), for the passage where a line opens on the option (its entry: a term
line, or a short tag with its description on the same line), and puts it first.
"""

from __future__ import annotations

import dataclasses
import re

from preuve import text
from preuve.models import Filters, Hit
from preuve.store import Store

# an option the question names: "-v", "-C", "--strip-components", find's "-mtime"
_ASKED = re.compile(r"(?<![\w-])--?[^\W\d_][\w-]*")
# the named files searched for an entry, and how many of their passages
FILES = 3
POOL = 50
# An option's entry line: the option among its other spellings ("-v, --invert-match",
# "--directory=DIR, -C DIR", jq's "○ --slurp/-s:"), each with its argument, then nothing
# or its description after a gap (a short tag: "-t     sort by time"). A wrapped line
# of prose that starts with an option ("-v command-line option is specified") is none.
_ARGUMENT = r"(?:[= ]?\[?=?[\w<][\w<>.:|=-]*\]?)?"
_SPELLING = rf"--?[\w-]+{_ARGUMENT}"
_BULLET = r"(?:[•○*·]\s+)?"
_THEN = r"(?:\s*[,|/]\s*" + _SPELLING + r")*:?(?:[ \t]*$|[ \t]{2,}\S|\t)"


# an option named as absent ("when I give no -e", "sans -r", "without --force"): what
# happens then is asked, not what the option does
_ABSENT = re.compile(r"\b(?:no|without|not|sans|pas(?: de| d['’]| l['’]option)?|aucune?)\s+"
                     r"(?:the\s+|any\s+|(?:l['’])?options?\s+)?$", re.I)


def asked_options(question: str) -> list[str]:
    """The options `question` names, as written (`-V` is another than `-v`), but those
    it names as absent."""
    return list(dict.fromkeys(match.group().rstrip("-") for match in _ASKED.finditer(question)
                              if not _ABSENT.search(question[:match.start()])))


def entry_line(option: str) -> re.Pattern[str]:
    """A line that opens on `option`'s entry."""
    return re.compile(rf"^[ \t]*{_BULLET}(?:{_SPELLING}\s*[,|/]\s*)*{re.escape(option)}"
                      rf"(?![\w-]){_ARGUMENT}{_THEN}", re.M)


# a manual page's title, its NAME line: the commands it documents, then a dash
PAGE_NAMES = re.compile(r"^([\w.+-]+(?:,\s*[\w.+-]+)*)\s+[-—–]\s")


def named_files(question: str, hits: list[Hit]) -> list[str]:
    """The files among `hits` that `question` names by their command: a manual page by
    a name of its NAME line, any file by its name before the first dot (`grep.1.gz`,
    `zipfile.html`), in rank order. An option is looked for there only: "my script runs
    `curl -s $URL | tee out.json`…" over the Bash manual asks of no `-s` entry."""
    asked = {w.lower() for w in re.findall(r"[\w.+-]+", question)}
    out: dict[str, None] = {}
    for hit in hits:
        names = {hit.path.rsplit("/", 1)[-1].split(".", 1)[0].lower()}
        page = PAGE_NAMES.match(hit.title or "")
        if page:
            names |= {name.strip().lower() for name in page.group(1).split(",")}
        if names & asked:
            out[hit.path] = None
    return list(out)


# a command's own command on its entry's line, then how it is used (`isolate UNIT`, `mask
# UNIT...`, `enable UNIT..., enable PATH...`, `pop [--index] [<stash>]`), or nothing
_USAGE = r"(?:[ \t,|]*(?:\[[^\]\n]*\]|<[^>\n]*>|[A-Z][A-Z\d_]*|\.\.\.|…|--?[\w-]+(?:=\S*)?|{}))*"


def subcommand_line(word: str) -> re.Pattern[str]:
    """A line that opens on the entry of `word`, a command of a command (systemctl's
    `isolate`), followed by nothing but its usage."""
    name = re.escape(word)
    return re.compile(rf"^[ \t]*{name}(?![\w-]){_USAGE.format(name)}[ \t]*$", re.M)


def asked_subcommands(question: str, hits: list[Hit]) -> list[str]:
    """The words the question writes right after the command of a page it names ("what
    does systemctl isolate do?": `isolate`), function words aside."""
    names = set()
    for hit in hits:
        if hit.path in named_files(question, [hit]):
            page = PAGE_NAMES.match(hit.title or "")
            names |= {n.strip().lower() for n in page.group(1).split(",")} if page else set()
            names.add(hit.path.rsplit("/", 1)[-1].split(".", 1)[0].lower())
    out: dict[str, None] = {}
    for name in names:
        for match in re.finditer(rf"(?<![\w-]){re.escape(name)}\s+([a-z][\w-]{{2,}})", question,
                                 re.I):
            if text.fold(match.group(1)) not in text.STOPWORDS:
                out[match.group(1).lower()] = None
    return list(out)


def first_entry(store: Store, question: str, hits: list[Hit], filters: Filters) -> list[Hit]:
    """`hits` with the entries of the options the question names first, in its order
    (moved up, or read from the first FILES files among the hits that it names by their
    command), ranks renumbered; as they are when the question names no option or no such
    file, or none of them holds an entry of one."""
    options = asked_options(question)[:FILES]
    if not options or not hits:
        return hits
    paths = named_files(question, hits)[:FILES]
    if not paths:
        return hits
    # the files the question names, in their order: the first hit's first
    within = dataclasses.replace(filters, path_prefixes=tuple(paths))
    entries: dict[str, Hit] = {}
    for option in options:
        line = entry_line(option)
        found = [hit for hit in hits if hit.path in paths and line.search(hit.text)]
        if not found:
            terms = text.query_terms(option) or (option,)
            found = [hit for hit in store.search_bm25(terms, within, POOL)
                     if hit.path in paths and line.search(hit.text)]
        if found:
            entry = min(found, key=lambda hit: paths.index(hit.path))  # (then by rank)
            entries.setdefault(entry.chunk_id, dataclasses.replace(
                entry, score=hits[0].score, scores={**entry.scores, "option entry": option}))
    if not entries or list(entries) == [hit.chunk_id for hit in hits[:len(entries)]]:
        return hits
    out = list(entries.values()) + [hit for hit in hits if hit.chunk_id not in entries]
    out = out[:len(hits)]
    for rank, hit in enumerate(out, 1):
        hit.rank = rank
    return out
