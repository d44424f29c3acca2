"""The entry that describes a command-line option the question names.

"What does grep -v do?", "à quoi sert l'option -C de tar ?": the passage that answers is
the option's entry in the command's manual ("-v, --invert-match  Invert the sense of
matching…"), yet every passage of that page holds the command's name, and the option's
letter is no word. The keyword list ranks passages that *mention* `-v` (the description
of `-c` says "with the -v option") with the entry, and the dense list knows nothing of
what a letter means. `first_entry` looks, in the files the question names among the
hits (`named_files`), for the passage where a line opens on the option (its entry: a term
line, or a short tag with its description on the same line), and puts it first.

The answerer reads the same lines (`entry_line`; `subcommand_line` for a command of a
command, "what does systemctl isolate do?") to quote the entry the question names.
"""

from __future__ import annotations

import dataclasses
import re

from preuve import text
from preuve.models import Filters, Hit
from preuve.store import Store

# an option the question names: "-v", "-C", "--strip-components", find's "-mtime"; or an
# escape or a conversion a format language lists like options ("\\u" in printf's "\\uHHHH
# caractère Unicode…", "%q", strftime's "%Y")
_ASKED = re.compile(r"(?<![\w-])--?[^\W\d_][\w-]*|(?<![\w\\%])(?:\\[A-Za-z0-9]|%[A-Za-z])(?!\w)")
# such a symbol on its entry's line, with the placeholders of what it takes in capitals
# ("\\uHHHH", "\\xHH", "\\0NNN")
_SYMBOL = re.compile(r"([\\%][A-Za-z0-9])[A-Z]*")
# the named files searched for an entry, and how many of their passages
FILES = 3
POOL = 50
# An option's entry line: the option among its other spellings ("-v, --invert-match",
# "--directory=DIR, -C DIR", jq's "○ --slurp/-s:", less's "-b n or --buffers=n"), each
# with its argument, then nothing or its description after a gap (a short tag: "-t
# sort by time"). A wrapped line
# of prose that starts with an option ("-v command-line option is specified") is none.
# Read spelling by spelling (no pattern that backtracks over a long line of options).
_BULLET = re.compile(r"^[•○*·]\s+")
_GAP = re.compile(r"[ \t]{2,}|\t")
_SEPARATOR = re.compile(r"\s*[,|/]\s*|\s+(?:or|ou)\s+")
_SPELLING = re.compile(r"(--?[\w-]+)(?:(?:=|\[=| )[^\s,|/]*)?")
# a line longer than this is prose, never an entry
LONGEST_ENTRY = 200


class EntryLine:
    """Whether a line (`match`), or any line of a text (`search`), opens on the entry of
    one option."""

    def __init__(self, option: str):
        self.option = option

    def match(self, line: str) -> bool:
        line = _BULLET.sub("", line.lstrip(" \t"))
        if self.option[:1] in "\\%":  # as written: "\\u" is another than "\\U"
            found = _SYMBOL.fullmatch(line.split(None, 1)[0]) if line.strip() else None
            return found is not None and found.group(1) == self.option
        if not line.startswith("-") or len(line) > LONGEST_ENTRY:
            return False
        head = _GAP.split(line, 1)[0].rstrip().removesuffix(":")
        names = []
        for spelling in _SEPARATOR.split(head):
            found = _SPELLING.fullmatch(spelling)
            if found is None:
                return False
            names.append(found.group(1))
        return self.option in names

    def search(self, text: str) -> bool:
        return any(self.match(line) for line in text.split("\n"))


def entry_line(option: str) -> EntryLine:
    """A line that opens on `option`'s entry."""
    return EntryLine(option)


# an option named as absent ("when I give no -e", "sans -r", "without --force"): what
# happens then is asked, not what the option does
_ABSENT = re.compile(r"\b(?:no|without|not|sans|pas(?: de| d['’]| l['’]option)?|aucune?)\s+"
                     r"(?:the\s+|any\s+|(?:l['’])?options?\s+)?"
                     # (the rest of a list of them: "no --soft or --hard", "sans -f ni -i")
                     r"(?:--?[^\W\d_][\w-]*,?\s+(?:(?:or|nor|and|ou|ni|et)\s+)?)*$", re.I)


def asked_options(question: str) -> list[str]:
    """The options `question` names, as written (`-V` is another than `-v`), but those
    it names as absent."""
    return list(dict.fromkeys(match.group().rstrip("-") for match in _ASKED.finditer(question)
                              if not _ABSENT.search(question[:match.start()])))


# a manual page's title, its NAME line: the commands it documents, then a dash
PAGE_NAMES = re.compile(r"^([\w.+-]+(?:,\s*[\w.+-]+)*)\s+[-—–]\s")


def page_names(title: str | None) -> set[str]:
    """The commands a manual page's NAME line names ("grep, egrep - print lines…": grep,
    egrep), lower case; none for any other title."""
    match = PAGE_NAMES.match(title or "")
    return {name.strip().lower() for name in match.group(1).split(",")} if match else set()


def command_names(hit: Hit) -> set[str]:
    """The names a question calls a file by: its name before the first dot (`grep.1.gz`,
    `zipfile.html`) and, for a manual page, the commands of its NAME line."""
    return {hit.path.rsplit("/", 1)[-1].split(".", 1)[0].lower()} | page_names(hit.title)


def asked_words(question: str) -> set[str]:
    """The question's words as a command or a file is named, lower case; two words in a
    row also joined by a hyphen, as a command of a command's page is named ("git merge":
    `git-merge.html`, "git check-ignore": `git-check-ignore.1.gz`)."""
    words = [w.lower() for w in re.findall(r"[\w.+-]+", question)]
    return set(words) | {f"{a}-{b}" for a, b in zip(words, words[1:], strict=False)}


def named_files(question: str, hits: list[Hit]) -> list[str]:
    """The files among `hits` that `question` names by their command (`command_names`),
    in rank order. An option is looked for there only: "my script runs `curl -s $URL |
    tee out.json`…" over the Bash manual asks of no `-s` entry."""
    asked = asked_words(question)
    return list(dict.fromkeys(hit.path for hit in hits if command_names(hit) & asked))


# a command's own command on its entry's line, then how it is used (`isolate UNIT`, `mask
# UNIT...`, `enable UNIT..., enable PATH...`, `pop [--index] [<stash>]`), or nothing: each
# word of its usage a value in capitals, in brackets, an option, an ellipsis
_USAGE_WORD = re.compile(r"\[[^\]]*\]?|[^\[]*\]|<[^>]*>?|[A-Z][A-Z\d_]*(?:\.\.\.|…)?|"
                         r"\.\.\.|…|\||--?[\w-]+(?:=\S*)?")


class CommandLine:
    """Whether a line (`match`) opens on the entry of a command of a command (systemctl's
    `isolate`), followed by nothing but its usage."""

    def __init__(self, word: str):
        self.word = word

    def match(self, line: str) -> bool:
        words = line.replace(",", " ").split()
        if not words or words[0] != self.word or len(line) > LONGEST_ENTRY:
            return False
        return all(w == self.word or _USAGE_WORD.fullmatch(w) for w in words[1:])


def subcommand_line(word: str) -> CommandLine:
    """A line that opens on the entry of `word`, a command of a command."""
    return CommandLine(word)


def asked_subcommands(question: str, hits: list[Hit]) -> list[str]:
    """The words the question writes right after the command of a page it names ("what
    does systemctl isolate do?": `isolate`), function words aside."""
    asked = asked_words(question)
    names = set().union(*(command_names(hit) for hit in hits if command_names(hit) & asked))
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
