"""The embedded default answerer: no model writes anything. It quotes the best passage:
the sentence that best answers the question and the ones that follow it in the same
passage (or, when the passage's heading matches the question, the start of that section's
body), about 80 words, one citation narrowed to the lines quoted where the format has
lines. It never quotes a heading, a table-of-contents line, a running header or footer or
a fragment; it cannot invent, and it answers in the passages' own language."""

from __future__ import annotations

import dataclasses
import itertools
import re
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from preuve import memo
from preuve import text as tokens
from preuve.answer.answerability import content_words, without_function_phrases
from preuve.answer.intent import (
    DEFINITION,
    MUST_CARRY,
    NAME,
    NUMBER,
    OTHER,
    PLACE,
    PROCEDURE,
    REASON,
    THINGS,
    YESNO,
    asked_after_scene,
    asked_part,
    carries,
    defined_term,
    question_kind,
)
from preuve.ingest.comments import definition_parts
from preuve.ingest.markdown import RST_MARKUP
from preuve.models import ASK_K, FENCED, Hit
from preuve.registry import kinds
from preuve.retrieve.bilingual import (
    code_translation,
    is_word,
    plain_senses,
    plain_words,
    word_translator,
)
from preuve.retrieve.dense import query_vector
from preuve.retrieve.entries import (
    PAGE_NAMES,
    EntryLine,
    asked_options,
    asked_subcommands,
    asked_words,
    command_names,
    entry_line,
    named_files,
    page_names,
    subcommand_line,
)
from preuve.text import question_language

# a full stop that ends no sentence: after "i.e.", "e.g.", "cf.", "vs.", "resp." ("is 1000
# (resp. 60000)"), "approx.", "c.-à-d."
_ABBREVIATED = (r"(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bcf\.)(?<!\bvs\.)(?<!\ba\.k\.a\.)"
                r"(?<!\bresp\.)(?<!\bapprox\.)(?<!\bc\.-à-d\.)")
_BOUNDARY = re.compile(
    r"(?<=[.!?…])" + _ABBREVIATED + r"(?<!\bex\.)"
    r"(?!(?<=\bp\.)\s+\d)(?!(?<=\bpp\.)\s+\d)(?!(?<=\b[Nn]o\.)\s+\d)"
    r"(?!(?<=\b[Ff]ig\.)\s+\d)(?!(?<=\b[Vv]ol\.)\s+\d)(?!(?<=\bch\.)\s+\d)"
    r"[\"»”)]*\s+(?=[\"«“(\[]?[A-ZÀ-ÖØ-Þ0-9])"  # end of sentence (not after i.e., e.g.,
    # nor "p. 109", "fig. 3"; "No. The file…" ends one)
    r"|\n\s*\n|\n(?=\s*[#>|*│┃║┌├└╔╠╚-])"  # blank line, heading, list item, table row
)
# a sentence's end or a colon at a line's end, before a line opening in lower case (an
# example's command: "To print a process tree:" over "ps -ejH")
_LINE_END = re.compile(r"(?<=[.!?:])" + _ABBREVIATED + r"\n(?=[ \t]*[a-z])")
# ("#.": an item reStructuredText numbers itself)
# (a quote's ">" before a space: not the shell's ">>word 2>&1", nor Python's ">>>")
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|#\.\s+|>(?=\s|$)\s*|\|\s*|"
                     r":[ \t]+(?=\S))")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•◦▪‣]|\d+[.)]|#\.)\s+")  # (•: groff's bullet, in manual pages)
# "Frais et indemnités .... 2", "3.2 Journée d'équipe 4": a contents entry, no statement
# (a menu item's "…" before a sentence's end is not a leader: "Édition→Préférences....")
_TOC_LINE = re.compile(r"(?:\.\s*){5,}|(?<=\s)(?:\.\s*){4}|…{2,}|"
                       r"[^\d\s.!?:;]\s+(?:\d{1,4}|[ivx]{1,4})$", re.I)
_CONTENTS = re.compile(r"^\s*(?:table des mati[eè]res|sommaire|contents|table of contents|"
                       r"index|list of figures|liste des figures)\s*$", re.I)
# a listed value and what it means, in a text cited by its lines (no contents there):
# "124 if the command exited with status 255"
_VALUE_ITEM_LINE = re.compile(r"^\d{1,4}\s+(?!\.)[^\W\d_]+\s+\S.*[^.]\s\d{1,4}$")
_PAGE_NUMBER = re.compile(r"^\s*(?:page\s+)?\d{1,4}(?:\s*(?:/|sur|of)\s*\d{1,4})?\s*$", re.I)
# A line of code or a shell session, not prose: "$ make", ">>> f.read()", "#!/bin/sh"
_CODE_START = re.compile(r"^(?:\$\s|>>>|\.\.\.\s|#!|%\s|[A-Z]:\\)")
# Footnotes and their marks: "[7] Use the … address", "…the file[7]."
# (and PDF footnotes: "11The default …", "1⁸ This execution …")
_FOOTNOTE = re.compile(r"^(?:\[\d{1,3}\]\s|[\d⁰¹²³⁴⁵⁶⁷⁸⁹ ]*\d[A-Z][a-z]|\d?[⁰¹²³⁴⁵⁶⁷⁸⁹]+\s)")
# A term a definition list describes, alone on its line: an option, a setting, a
# command's name ("APT::Periodic::AutocleanInterval", "--force-help", "dpkg-reconfigure")
# "-p <interpreter>", "-o FILE", "-l loglevel", "--format=format"
# ("-E encoding", "-Z 0..9", "--help[=topic]", "-?"), and a psql meta-command with its
# arguments ("\\timing [ on | off ]", "\\H or \\html")
_OPTION = r"--?[A-Za-z0-9?][\w-]*(?:\[=?[\w-]+\]|[= ]?<[\w-]+>|[= ]\w[\w.-]*)?"
_META_COMMAND = r"\\[A-Za-z!?;][\w+\[\]]*(?: or \\[\w+\[\]]+)?(?: (?:\[.*\]|[a-z_][\w-]*|\.\.\.))*"
# a setting's name in lower case, with the kind of value it takes ("resolution num",
# "compile-scheme-code bool", "setdir"), or an environment variable's ("TMPDIR")
_SETTING = r"[a-z][\w-]*[a-z0-9](?: [a-z]\w{0,11})?|[A-Z][A-Z0-9_]{2,}"
_FUNCTION_WORD = "|".join(sorted(tokens.STOPWORDS, key=len, reverse=True))  # "or", "the end"
# (a setting may be written with its section, as in an INI file: "[run] cover_pylib")
_TERM = re.compile(rf"^(?:{_OPTION}(?:, {_OPTION})*|{_META_COMMAND}|(?:\[[\w.:-]+\] )?(?:"
                   rf"(?!(?:{_FUNCTION_WORD})\b)(?:{_SETTING})|"
                   r"[A-Za-z_$][\w$]*(?:(?:::|\.|-|_|/)[\w$*]+)+(?: \(\w+\))?))$")
# An option alone on its line, and how many of one option's spellings lead what follows
_OPTION_LINE = re.compile(rf"^{_OPTION}(?:, {_OPTION})*$")
OPTION_SPELLINGS = 4
# A term given by its label in a reference's entry ("Option: Aptitude::Get-Root-Command",
# DocBook's segmented lists): the entry's heading, its name leads the description quoted
_LABELLED_TERM = re.compile(r"^(?:option|setting|variable|parameter|directive|key|"
                            r"param[eè]tre|r[eé]glage|cl[eé]f?)\s*:\s*(\S+)$", re.I)
# A line that is one file name, path or identifier ("paquet-version.tar.gz"; not a URL):
# under a line ending with a colon, an item of the list it announces
_LONE_NAME = re.compile(r"^[ \t]*(?!\S*://)[^\s.:]\S*[./_]\S*[ \t]*$")
# A PDF footnote's text: its mark glued to its first word ("2There are…", "1⁴The default…")
_NOTE_TEXT = re.compile(r"^(?:[\d⁰¹²³⁴⁵⁶⁷⁸⁹]+\s)*[\d⁰¹²³⁴⁵⁶⁷⁸⁹]+[A-Z][a-z]")
# (Markdown's: at most three spaces in; a line indented further, "# in a container" in a
# manual page's example, is a shell comment or a root prompt)
_MD_HEADING = re.compile(r"^ {0,3}#{1,6}\s")
# An admonition's title on its own line (DocBook's and Sphinx's "Note", "Warning"): the
# heading of what follows, never an item of the list before it
_ADMONITION = re.compile(r"^\[?(?:notes?|warning|caution|tip|hint|important|danger|attention|"
                         r"avertissement|astuce|remarque|mise en garde|conseil|see also|"
                         r"voir aussi)\]?\s*:?$", re.I)
# A table's, figure's or example's caption ("Table 3.5. List of typical journalctl command
# snippets", "Exemple 2.1. …", its number alone when the sentence split cut it there): the
# title of what follows, never part of the answer before it
_CAPTION = re.compile(r"^(?:table(?:au)?|figure|example|exemple|listing|illustration)\s+"
                      r"[\dA-Z]+(?:[.-]\d+)*[.:](?:\s|$)", re.I)
# A short line without an end that reads like a title: "2.7 Setting up dh_make"
_TITLE_LIKE = re.compile(r"^(?:[\dIVXivx]+(?:\.\d+)*\.?\s+)?[A-ZÀ-Ö][^.!?:;=$/\\{}\[\]]{0,60}$")
_NOTE_MARK = re.compile(r"(\w*)(\s?)\[(\d{1,3})\]")
# A note mark that ends a sentence ("…un chiffre (0-9). [16] Il est conseillé…", "…noms. [15]"
# at a line's end) belongs to that sentence, not to a footnote: taken out before splitting,
# or the sentence after it would read as the footnote "[16] …" and be lost
_TRAILING_MARK = re.compile(r"(?<=[.!?…)»\"”])[ \t]*\[\d{1,3}\]|[ \t]+\[\d{1,3}\][ \t]*$", re.M)
# A fenced code block (Markdown's, and an HTML <pre> as the index keeps it): one unit,
# its lines kept
_FENCE = re.compile(r"^\s*(?:```|~~~)")  # a fenced block starts here (`models.FENCED`)
# A completing line that is code, a command or a path: quoted as code
_CODE_LIKE = re.compile(r"[\[\]{}$\\/=<>|]|\s--?\w|^\S+$|^(?:\$\s|>>>|#!)")
# A reference entry's default, on a line of its own: "**Default** - ``10``", "Default: #f",
# "Valeur par défaut : 101", an Apache directive's "Défaut: | LogFormat "%h %l…""
# (and a short sentence that gives it: "Defaults to 100ms.", "Default is 0.", "Par défaut
# : 5.": too short to be read as a statement otherwise)
_DEFAULT_VALUE = re.compile(r"^[*_`\s]*(?:default(?: value)?|valeur par d[ée]faut|"
                            r"(?:par )?d[ée]faut)[*_`\s]*(?:[:=]|\s[-–—])\s*\S|"
                            r"^(?:the )?defaults? (?:is|to|value is) \S+\.?$", re.I)
# The short answer that opens a body: "Yes.", "Non.", "Go right ahead!"
_SHORT_ANSWER = re.compile(r"^\S+(?:\s+\S+){0,3}[.!]$")
_END = re.compile(r"(?:[.!?…:;][\"»”')\]]*|\s[:;]-?[)(DP])$")  # an emoticon ends one too
NAVIGATION = "navigation"
_ASKED = {"amount": "sum of money", "number": "number", "time": "date or time",
          "place": "file or folder"}


# What a unit of a passage is: a statement (quotable), a question or heading (context:
# what follows it answers it), or a line that completes the statement before it (a command,
# a list item or a code line after "…with the directory path:").
STATEMENT, QUESTION, HEADING, ATTACHED = "statement", "question", "heading", "attached"


@dataclass
class Sentence:
    text: str
    hit: Hit
    start_line: int | None = None
    end_line: int | None = None
    score: float = 0.0
    parts: dict = field(default_factory=dict)
    index: int = 0  # position among the passage's units
    block: int = 0  # units not separated by an unquoted line share it
    role: str = STATEMENT
    runs_on: bool = False  # the sentence goes on in the code block after it ("…using")
    aside: bool = False  # the second quote, from another section: beside the answer
    elided: bool = False  # statements of its passage skipped before it in the quote ("…")
    term: bool = False  # a term alone on its line that the lines under it describe
    tagged: bool = False  # a value or a name and its description on one line ("124    si…")

    @property
    def label(self) -> str:
        if self.hit.page is not None:
            return f"{self.hit.path} p. {self.hit.page}"
        if self.start_line is not None:
            return f"{self.hit.path}:{self.start_line}-{self.end_line}"
        return self.hit.label


# A sentence that announces what follows without a colon: "… by the following.",
# "… as follows.", "… de la manière suivante.", "… ce qui suit."
_ANNOUNCING = re.compile(r"(?:\bthe following|\bas follows|\bbelow|\bci-dessous|\bsuivante?s?"
                         r"|\bce qui suit)\s*[.:]$", re.I)


# A statement that gives an example: the code block after it is the example ("One example
# of where this might be useful is…", "For instance, …", "Par exemple, …")
_EXAMPLE_AHEAD = re.compile(r"\b(?:examples?|for instance|e\.g\.|par exemple|exemples?)\b", re.I)
# A sentence about the code shown just before it ("In the example above, the ".headers on"
# line…", "La commande ci-dessus…"): that code block belongs to the quote
_SHOWN_ABOVE = re.compile(r"\b(?:example|command|code|snippet|session|listing|exemple|commande|"
                          r"extrait)s? (?:above|ci-dessus)\b|\b(?:above|preceding|previous) "
                          r"(?:example|command|code|snippet|session|listing)s?\b|"
                          r"\b(?:cet|l['’])\s*exemple\b", re.I)


def _one_command(block: str) -> bool:
    """A code block of one or two short lines ("# dmesg -n3" after "…can be configured by
    setting its threshold level."): the example of the sentence before it, even without
    its colon."""
    lines = [line for line in block.strip().split("\n") if line.strip() and not _FENCE.match(line)]
    return 0 < len(lines) <= 2 and sum(len(line.split()) for line in lines) <= 16


_NAMED_COMMAND = re.compile(r"\b([\w.+-]+)\(\d\w{0,3}\)|`([\w.+-]+)")


_PROMPT = re.compile(r"^\s*[$#%]\s+\S")


def _runs_named(sentence: str, block: str) -> bool:
    """Every line of the code block runs a command the sentence before it names ("…en
    utilisant gs(1) de Ghostscript." and two `$ gs …` lines), or, in a shell session (its
    lines after a prompt are its commands, the others their output), its first command
    does ("md5sum(1) fournit…" over `$ md5sum foo bar >baz.md5`, `$ cat baz.md5`, `$ md5sum
    -c baz.md5` and what they print): its example, without a colon."""
    named = {a or b for a, b in _NAMED_COMMAND.findall(sentence)}
    lines = [line for line in block.strip().split("\n")
             if line.strip() and not _FENCE.match(line) and line.strip().lstrip("$#% ")]
    session = [line for line in lines if _PROMPT.match(line)]
    commands = [line.strip().lstrip("$#% ").split(maxsplit=1)[0]
                for line in (session or lines)]
    if session:
        return commands[0] in named
    return bool(commands) and all(c in named for c in commands)


def _illustrates(sentence: str, block: str) -> bool:
    """The code block shows what the statement before it says, by a word of five letters
    or more they share ("…if you need rotating logger…" over `logger.add("file_1.log",
    rotation="500 MB")`): its example, without a colon."""
    said = {t for t in tokens.tokens(sentence, "en") if len(t) >= 5 and t.isalpha()}
    shown = {t for t in tokens.tokens(block, "en") if len(t) >= 5}
    return bool(said & shown)


def _labelled_term(line: str) -> str:
    """The term of "Option: Aptitude::Get-Root-Command" (a reference entry's label and
    its name), or ""."""
    match = _LABELLED_TERM.match(line)
    return match.group(1) if match and _TERM.match(match.group(1)) else ""


# A sentence that stops, without a colon, where its example begins: "…create that file
# before initializing it with mkswap, e.g. using a command like" over "# dd if=/dev/zero…",
# git-rebase(1)'s "…you can continue the rebasing process with" over "git rebase --continue"
_ANNOUNCING_BARE = re.compile(r"\b(?:like|such as|e\.g\.|for (?:example|instance)|using|"
                              r"as in|with|by|via|by running|run|type|enter|comme|"
                              r"par exemple|tel(?:le)?s? que|avec|par|en tapant|"
                              r"en lançant|en exécutant)$", re.I)
ANNOUNCING_WORDS = 6


def announces(sentence: str) -> bool:
    """The sentence ends on a colon, or says that what follows completes it."""
    return sentence.endswith(":") or bool(_ANNOUNCING.search(sentence)) or (
        len(sentence.split()) >= ANNOUNCING_WORDS and bool(_ANNOUNCING_BARE.search(sentence)))


def is_navigation(line: str) -> bool:
    """A heading (Markdown `#`), a contents entry or title, or a page number: text that
    finds things, says nothing."""
    stripped = line.lstrip()
    return bool((stripped.startswith("#") and not stripped.startswith("#!"))
                or _CONTENTS.match(line)
                or _PAGE_NUMBER.match(line) or _TOC_LINE.search(line.strip()))


# "ls -l | grep x", "cat /etc/hosts | sort" are pipes; "downloaded/seeding files" is prose
_SHELL_LIKE = re.compile(r"[$=<>\\`]|(?:^|\s)[~.]?/|(?:^|\s)--?\w")


# the vertical rule between a table's cells when drawn with box characters (manual pages:
# "│2, 3, 4    │ multi-user.target │"), read as " | "; the rows of rules ("├───┼───┤")
# hold no word and are left out
_BOX_RULE = re.compile(r"[│┃║]")


def first_cell(row: str) -> str:
    """A table row's first cell ("MSDOS and Windows" of "MSDOS and Windows | CR-LF | …")."""
    return row.strip().strip("|").split(" | ", 1)[0].strip()


def is_table_row(line: str) -> bool:
    """A table's row as the index reads it, its cells joined by " | " ("Avec bureau | 1
    gigaoctet | 2 gigaoctets"; Markdown's "| a | b |" too): at least two cells with words
    or figures, none of them code, no cell a paragraph."""
    if " | " not in line or _CODE_START.match(line):
        return False
    cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
    filled = [c for c in cells if re.search(r"\w", c)]
    return len(filled) >= 2 and len(filled) >= len(cells) - 1 and \
        all(len(c.split()) <= 25 for c in cells) and (len(cells) >= 3 or not any(
            _SHELL_LIKE.search(c) for c in cells) or _path_and_prose(cells))


def _path_and_prose(cells: list[str]) -> bool:
    """Two cells, a path alone and what it is in words ("/var/log/dpkg.log | Log of dpkg
    level activity…"): a table's row, not a pipeline ("cat /etc/passwd | less")."""
    paths = [c for c in cells if _PATH_ALONE.match(c)]
    return len(paths) == 1 and all(
        c in paths or (len(c.split()) >= 3 and not _SHELL_LIKE.search(c)) for c in cells)


_PATH_ALONE = re.compile(r"^[~.]?/[\w.+@/-]*[\w/]$")


# A sentence that only sends the reader elsewhere: "See Section 5.3.2, « Boot
# parameters ».", "Pour une estimation plus réaliste, voyez la Section 3.4." Its see-verb
# (after an optional "For …," / "Pour …,"), then nothing but references and their titles
_SEE = re.compile(r"^\W*(?:(?:for|pour)\b[^,]{0,40},\s*)?(?:see(?:\s+also)?|voyez|voir|"
                  r"consultez|cf\.?|refer to|reportez-vous (?:à|au|aux))\s+(?:aussi\s+)?", re.I)
_REFERENCE = re.compile(r"\b(?:(?:la|le|l['’]|les|the)\s*)?(?:sections?|chapters?|chapitres?|"
                        r"appendi(?:x|ces)|annexes?|figures?|tables?|tableaux?|pages?|§)"
                        r"\s*[\dA-Z][\w.]*|«[^»]*»|“[^”]*”|\"[^\"]*\"|\b(?:and|et|or|ou)\b|"
                        r"[\s,.;:()]+", re.I)


# ... or at a name "for details" ("See NotImplementedError for details on when to use it.",
# "Voir signal(7) pour plus de détails.")
_FOR_DETAILS = re.compile(r"^\S+(?:\s+\S+){0,3}?\s+(?:for|pour)\s+(?:(?:more|further|"
                          r"plus|de\s+plus\s+amples)\s+(?:de\s+|d['’])?)?(?:details?|détails|"
                          r"information|informations|examples?|exemples?|explanations?|"
                          r"explications?)\b", re.I)


# A sentence that tells what a part of the document is about: "Le chapitre 3 explique
# comment produire des formules…", "This chapter describes…", "Dans cette section, nous…"
# (a preface's plan, a chapter's opening): it says where the answer is, not the answer
_ROADMAP = re.compile(
    r"^\W*(?:(?:dans|in)\s+(?:ce|cette|this)\s+(?:chapitre|chapter|section|partie|part|annexe|"
    r"appendix|manuel|manual|guide|document|livre|book)\b|(?:(?:le|la|l['’]|ce|cette|the|this)"
    r"\s*)?(?:chapitre|chapter|section|partie|part|annexe|appendix|manuel|manual|guide|"
    r"document|livre|book)(?:\s+[\dA-Z][\w.]*)?\s+(?:explique|présente|presente|décrit|"
    r"decrit|montre|traite|aborde|contient|couvre|donne|détaille|introduit|propose|"
    r"explains|describes|shows|covers|presents|introduces|discusses|contains|gives|"
    r"details|lists|deals|tells)\b)", re.I)


# A section of exercises, by its title: "3.6 Exercices", "Exercises", "Problems"
_EXERCISES = re.compile(r"^\s*(?:[\dA-Z]+(?:\.\d+)*\.?\s+)?(?:exercices?|exercises?|problems|"
                        r"travaux pratiques|questions de révision|review questions|quiz)"
                        r"\s*$", re.I)


def only_refers(sentence: str) -> bool:
    """The sentence only points at another section ("See Section 5.3.2, « … »."): it says
    nothing of its own."""
    see = _SEE.match(sentence)
    return bool(see) and (not _REFERENCE.sub("", sentence[see.end():]).strip()
                          or bool(_FOR_DETAILS.match(sentence[see.end():])))


def is_statement(sentence: str, list_item: bool = False) -> bool:
    """A sentence worth quoting: four words or more (two when it ends with a colon that
    announces what follows: "On Windows, run:"), ending like a sentence (a list item may
    end without), and not a contents entry, a page number, a contents title or a mere
    pointer to another section."""
    words = sentence.split()
    if len(words) < (2 if sentence.endswith(":") else 4) or _CONTENTS.match(sentence) \
            or _PAGE_NUMBER.match(sentence) or _CODE_START.match(sentence) \
            or only_refers(sentence) or _ROADMAP.match(sentence):
        return False
    if _TOC_LINE.search(sentence):
        return False
    return list_item or bool(_END.search(sentence)) or announces(sentence) \
        or bool(_COLON_CODE.search(sentence))


# a sentence that ends on the code its colon announces, on its line ("The format for
# appending standard output and standard error is: &>>word")
_COLON_CODE = re.compile(r"\w:\s+[^\s:]*[^\w\s.,;:!?'’\"»)][^\s:]*$")
# a line that ends on a word no sentence or title ends on: the paragraph goes on below
# ("This is semantically equivalent to" / ">>word 2>&1 (see…)")
_DANGLING = re.compile(r"(?<![\w-])(?:to|of|the|an?|with|by|for|from|into|and|or|than|is|are|"
                       r"de|du|des|le|la|les|une?|à|au|aux|pour|avec|par|et|ou|est|sont)$", re.I)


def unwrap(body: str, headings: Sequence[str] = ()) -> str:
    """PDF/HTML/DOCX text with one physical line per line: join the lines a paragraph was
    wrapped into (a line not ending a sentence, and either long or followed by a
    lower-case word), keep a break after short lines (titles, contents entries) and after
    the passage's own `headings` (bare, as `_bare` makes them)."""
    lines = body.split("\n")
    widest = max((len(ln.strip()) for ln in lines), default=0)
    out: list[str] = []
    code: list[str] | None = None  # the lines of a fenced block being read
    for raw in lines:
        line = raw.strip()
        if code is not None or _FENCE.match(line):  # code keeps its lines, whole
            if code is None:
                code = [line]
            else:
                code.append(raw.rstrip())
                if line == code[0][:3]:  # the fence that opened it closes it
                    out.append("\n".join(code))
                    code = None
            continue
        if out and out[-1] and line and not _FENCE.match(out[-1]) \
                and not (headings and _is_heading_line(out[-1], headings)):
            prev = out[-1]
            soft = not _END.search(prev) and not _LIST_ITEM.match(line) and (
                line[:1].islower() or len(prev) >= 0.7 * widest or _DANGLING.search(prev)) and \
                not is_table_row(prev) and not is_table_row(line) and \
                not (_LONE_NAME.match(prev) and len(out) > 1 and out[-2].endswith(":"))
            # (a table's row, a name listed under a colon: lines of their own)
            if soft:
                out[-1] = prev + ("" if prev.endswith("-") and line[:1].islower() else " ") + line
                continue
        out.append(line)
    if code is not None:  # a fence the passage's end cut: its lines as they are
        out.append("\n".join(code))
    return "\n\n".join(out)


def _without_markup(raw: str) -> str:
    """A unit's lines joined without their list, heading, quote and table marks; a number
    that opens a line inside a sentence wrapped over it ("…exceeds" / "1000. (Downgrading
    is…") is the sentence's, not an item's."""
    out: list[str] = []
    before = ""  # the line before, as written
    for line in raw.split("\n"):
        if _NUMBERED.match(line) and before.strip() and not _END.search(before.rstrip()) \
                and not _NUMBERED.match(before):
            out.append(line.strip())
        else:
            out.append(_MARKUP.sub("", line))
        before = line
    return _MYST_ROLE.sub(r"`\1`", " ".join(out))


# a MyST role as its page shows it: "{class}`logging.Logger`" reads "`logging.Logger`"
_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}`~?([^`<]+?)(?:\s*<[^`>]*>)?`")


_NUMBERED = re.compile(r"^\s*\d+[.)]\s+")


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


def _bare(line: str) -> str:
    return " ".join(line.replace("¶", " ").split()).casefold().rstrip(" :.")


def _is_heading_line(cleaned: str, headings: list[str]) -> bool:
    """`cleaned` is one of the passage's own headings (its number or "Chapter 3" before it
    allowed): the text of a title, not a statement."""
    bare = _bare(cleaned)
    return any(bare == h or (len(h) >= 8 and bare.endswith(h) and len(bare) - len(h) <= 14)
               for h in headings)


_INDEXED = re.compile(r"(\w+)\[0\]")


def _without_marks(text: str, indexed: set[str]) -> str:
    """`text` without its note marks ("…the file[7]." -> "…the file."), keeping an index on
    a name that is an array (a note is never [0]: "pipefd[0]… pipefd[1]", pipe(2))."""
    def mark(match: re.Match[str]) -> str:
        word, space, number = match.groups()
        if word and not space and (number == "0" or word in indexed):
            return match.group(0)
        return word
    return _NOTE_MARK.sub(mark, text)


def split_sentences(hit: Hit, skip: frozenset[str] | set[str] = frozenset(), *,
                    announced: bool = False) -> list[Sentence]:
    """The passage's units, in order, with the source lines each spans (when it has lines):
    statements, the questions and headings that introduce them (roles QUESTION, HEADING:
    context, never quoted) and the fragments that complete a statement ending with a colon
    (role ATTACHED: a command, a list item, a code line). `skip`: header/footer lines
    (digits as '#', lower case) to leave out. `announced`: the passage before it ends on
    a sentence announcing what follows, so a code block that opens this one completes
    that sentence (`_announced_next`)."""
    body = hit.text
    if hit.kind == "code":
        return [_code_sentence(hit)]
    # kinds whose chunk text has one line per source line: a sentence cites its own lines
    kind = kinds.find(hit.kind)
    by_lines = kind is not None and kind.cites_lines and hit.start_line is not None
    headings = [_bare(h) for h in (hit.heading or "").split(" > ") if h.strip()]
    if skip and not by_lines:
        body = "\n".join(ln for ln in body.split("\n") if _digitless(ln) not in skip)
    body = _TRAILING_MARK.sub("", body)
    indexed = set(_INDEXED.findall(body))  # "pipefd[0]": an array, its [1] no note either
    if hit.kind == "text" and by_lines:
        body = rst_markup(body)
    if not by_lines:
        body = unwrap(body, headings)
    line_starts = [0] + [m.end() for m in re.finditer("\n", body)]
    out: list[Sentence] = []
    start, block = 0, 0
    notes = False  # past a PDF page's first footnote: the rest of the page is its notes
    usage = False  # in a manual page's SYNOPSIS: usage lines, no statement
    margin: int | None = None  # the indentation of the term alone on its line above
    described_terms = _described_terms(body)
    ends = [*_boundaries(body, described_terms, by_lines), None]
    terms = {m.start() for m in described_terms}
    for n, match in enumerate(ends):
        end = match.start() if match else len(body)
        raw = body[start:end]
        lead = len(raw) - len(raw.lstrip())
        code = _FENCE.match(raw)
        # the next unit is a code block: a sentence without its end goes on in it
        following = body[match.end():ends[n + 1].start() if ends[n + 1] else len(body)] \
            if match is not None else ""
        # a manual page's example: "Convertir un nombre de secondes depuis l'époque UNIX en
        # date" over "$ date --date='@2147483647'", each one an entry of its own
        example = by_lines and (following.lstrip().startswith("$ ")
                                or _page_command(hit, following.strip()))
        into_code = bool(_FENCE.match(following)) or example
        cleaned = _without_markup(raw.strip())
        cleaned = " ".join(cleaned.replace("¶", " ").split())
        if _BOX_RULE.search(cleaned):  # a row of a table drawn with box characters
            cleaned = " | ".join(c.strip() for c in _BOX_RULE.split(cleaned.strip("│┃║ "))
                                 if c.strip())
        role, runs_on = None, False
        # what a term alone on the line before is (`_described_terms`), or an option on
        # its own line is (`_INLINE_TAG`): a description, which ends without a full
        # stop in manual pages ("use PREFIX instead of 'xx'")
        inline = bool(_INLINE_TAG.match(raw.lstrip("\n")))
        # (an option or a setting that titles the passage is a term too: Sphinx's
        # `.. option:: -s, --start-directory directory` over "Directory to start discovery
        # (. default)")
        described = (bool(out) and (out[-1].term or out[-1].role == HEADING
                                    and bool(_OPTION_LINE.match(out[-1].text)))) or inline \
            or (by_lines and _describing(out) and not announces(out[-1].text)
                and not out[-1].runs_on)  # ("-w, --wrap=COLS" / "wrap encoded lines after
        # COLS character (default 76)." / "Use 0 to disable line wrapping", no stop; not
        # what "Produces output similar to:" announces)
        term = match is not None and match.start() in terms and not code
        title = term and _section_title(raw.strip("\n"))
        term = term and not title
        if term and _OPERATOR_TERM.match(raw.strip()):  # as written: "+ TOKEN" is no
            cleaned = " ".join(raw.split())  # list item
        usage = (title and raw.strip() == "SYNOPSIS") or (usage and not title)
        if code:  # a code block completes the statement that announces it, or is left out
            if announced and not out:
                role = ATTACHED
            elif out and out[-1].role in (STATEMENT, ATTACHED) and (
                    out[-1].role == ATTACHED or out[-1].runs_on or announces(out[-1].text)
                    or _one_command(raw) or _runs_named(out[-1].text, raw)
                    or _illustrates(out[-1].text, raw)
                    or _SHOWN_ABOVE.search(following[:200])
                    or _EXAMPLE_AHEAD.search(out[-1].text)):
                role = ATTACHED
        elif out and out[-1].role == ATTACHED and _FENCE.match(out[-1].text) \
                and cleaned[:1].islower():
            role = ATTACHED  # "…using [code] and remove the hold with [code]": one sentence
            runs_on = into_code and not _END.search(cleaned)
        elif into_code and not _END.search(cleaned) and (
                len(cleaned.split()) >= 3 or _labels_code(raw, following)) \
                and not _is_heading_line(cleaned, headings) and not is_navigation(cleaned) \
                and not (example and _page_command(hit, cleaned)):  # ("rm -- -toto" over
            # "rm ./-toto": two commands, not a caption and its example)
            role, runs_on = STATEMENT, True
            block += example and bool(out)
        elif term or title:
            role = HEADING  # what the indented lines under it describe, or a section's title
        elif out and out[-1].term and out[-1].role == HEADING and \
                _VALUE.match(out[-1].text.strip()) and cleaned[:1].isalpha():
            role = STATEMENT  # what a value alone on its line means, however short: "64" /
            # "partial success" in an exit status list
        elif _FOOTNOTE.match(cleaned) or notes:
            # "[7] Use the … address": a note of another place, not this answer; on a
            # PDF page the notes sit at its foot ("2There are…", not the body's "1⁴ If
            # upstream…"), their next sentences too; a note in the page's first half is a
            # title's ("B. Gaulle 1Merci à tous les contributeurs"), the page goes on
            notes = notes or (hit.page is not None and bool(_NOTE_TEXT.match(cleaned))
                              and start >= len(body) // 2)
        elif (by_lines and _MD_HEADING.match(raw.lstrip("\n"))) or _ADMONITION.match(cleaned) or (
                _CAPTION.match(cleaned)) or (
                # a manual page's NAME line, its title ("ip-neighbour - neighbour/arp
                # tables management."): what the page is about, said by `_page_defined`
                _is_name_line(hit, cleaned)) or (
                cleaned and _is_heading_line(cleaned, headings)) or (
                _TERM.match(cleaned) and not (out and announces(out[-1].text))) or (
                _labelled_term(cleaned)):
            role = HEADING  # (a term on its own line: a definition list's, what follows
            # describes: "APT::Periodic::AutocleanInterval", "--force-help")
        elif cleaned.endswith("?") and len(cleaned.split()) >= 3 and not _TOC_LINE.search(cleaned):
            role = QUESTION
        elif is_table_row(cleaned):
            role = STATEMENT  # a row of a table: its cells say what the row's line says
        elif (described and len(cleaned.split()) >= DESCRIPTION_WORDS) or \
                is_statement(cleaned, bool(_LIST_ITEM.match(raw.lstrip()))) or \
                _BOLD_LABEL.match(cleaned) or _LABELLED_PATH.match(cleaned) or \
                _DEFAULT_VALUE.match(cleaned) or (
                out and out[-1].role in (QUESTION, HEADING) and _SHORT_ANSWER.match(cleaned)):
            role = STATEMENT
            if described and out and not out[-1].term and out[-1].role == HEADING:
                out[-1].term = True  # the option that titles the passage: a term, as
                # one alone on its line is
                _join_spellings(out)
        elif cleaned and out and out[-1].role in (STATEMENT, ATTACHED) \
                and (out[-1].role == ATTACHED or announces(out[-1].text) or out[-1].runs_on) \
                and (_CODE_START.match(cleaned) or not is_navigation(cleaned)
                     or by_lines and _VALUE_ITEM_LINE.match(cleaned)):
            role = ATTACHED  # ("$ sudo lsof -p 1" ends like a contents entry: it is code;
            # so does xargs's "124 if the command exited with status 255", a listed value)
        elif by_lines and out and out[-1].role == STATEMENT and _page_command(hit, cleaned):
            role = ATTACHED  # a manual page's example: "Extend an LV to use all remaining
            # free space…" over "lvextend -l+100%FREE -r vg01/lvol01", the page's command
        elif by_lines and (commands := _example_over(hit, raw, following)):
            role, term, cleaned = HEADING, True, commands  # the commands it shows lead
            # what they do
        elif hit.kind == "html" and _labels_next(raw, cleaned, following, body, start, match,
                                                 headings):
            role, term = HEADING, True  # a definition list's term (HTML's <dt>, "Moyenne du
            # voisinage") over its description ("Cette option vous permet…")
        if usage and not title:
            role = None  # "shuf [OPTION]... [FICHIER]": how to call it, said again below
        if role in (HEADING, QUESTION) and out:
            block += 1  # a new entry starts: what follows belongs to it
        if role is not None:
            if code:  # verbatim, line by line
                cleaned = _code_block(raw)
            elif role == ATTACHED:
                if not by_lines:  # verbatim: ">>>" is a prompt, not markup
                    cleaned = " ".join(raw.split())
                if _CODE_LIKE.search(cleaned) and "`" not in cleaned:
                    cleaned = f"`{cleaned}`"  # verbatim, and never read as a citation
            else:
                cleaned = _without_marks(cleaned, indexed)  # "…the file[7]." -> "…the file."
            at = start + lead  # where the unit starts, and its line's indentation if it
            # starts that line
            line_start = line_starts[_line_of(line_starts, at)]
            indent = at - line_start if not body[line_start:at].strip() else None
            if role == STATEMENT and margin is not None and indent is not None \
                    and indent <= margin:
                block += 1  # back at the margin of the term above: the page's text again
                # ("--version" / "afficher…" / "Le suffixe d'archivage est « ~ »…", mv(1))
                margin = None
            if role in (HEADING, QUESTION):
                margin = indent if term and by_lines else None
            sentence = Sentence(cleaned, hit, index=len(out), block=block, role=role,
                                runs_on=runs_on, term=term,
                                tagged=inline and not raw.lstrip().startswith("-"))
            if by_lines:
                first = _line_of(line_starts, start + lead)
                last = _line_of(line_starts, start + len(raw.rstrip()) - 1)
                sentence.start_line = hit.start_line + first
                sentence.end_line = min(hit.start_line + last, hit.end_line or hit.start_line)
            out.append(sentence)
            if sentence.term:
                _join_spellings(out)
            if role in (HEADING, QUESTION) or (role == STATEMENT
                                               and _LABELLED_PATH.match(cleaned)):
                block += 1  # (a label giving a file stands apart: "Source code: Lib/queue.py"
                # over the page's first paragraph)
        elif cleaned and out and (is_navigation(cleaned) or _TITLE_LIKE.match(cleaned)):
            block += 1  # a contents line or a title ends the run (other fragments, a
            # config line or a table cell, are left out of the quote without ending it)
        start = match.end() if match else len(body)
    return out


# one option's spellings on lines of their own are one term when at most this many lines
# apart (HTML's consecutive <dt>s)
SPELLING_GAP = 2


def _join_spellings(out: list[Sentence]) -> None:
    """One option's spellings, each alone on its line over one description (HTML's
    `<dt>--squash</dt><dt>--no-squash</dt><dd>…`), are one term, as a manual page writes
    them on one line ("--squash, --no-squash"): the last of `out` is the term the
    description made; the option lines right above it join it."""
    while len(out) >= 2 and len(out[-2].text.split(", ")) < OPTION_SPELLINGS:
        before, term = out[-2], out[-1]
        if not (term.term and before.role == HEADING and not before.term
                and before.hit is term.hit and _OPTION_LINE.match(before.text.strip())
                and _OPTION_LINE.match(term.text.strip())):
            return
        if before.end_line is not None and term.start_line is not None and \
                term.start_line - before.end_line > SPELLING_GAP:
            return
        before.text = f"{before.text.strip()}, {term.text.strip()}"
        before.term, before.end_line = True, term.end_line
        out.pop()


# directives whose indented content is code, shown as a code block
_CODE_DIRECTIVE = re.compile(r"code|example|run|doctest|literal|sourcecode|highlight", re.I)
_INDENT = re.compile(r"^[ \t]*")


# a reStructuredText title's underline or overline: one punctuation mark repeated (not
# "```", a code fence in a README written in both markups)
_ADORNMENT = re.compile(r"^([=\-~^\"'#*+_.:<>!$%&,;?@|/\\])\1{2,}[ \t]*$")


# the directives that describe an object: their argument is the entry's name
_OBJECT_DIRECTIVE = re.compile(r"^(?:(?:py|c|cpp|js|std|rst):)?(?:data|function|class|method|"
                               r"attribute|exception|option|envvar|describe|object|confval|"
                               r"decorator|property|program|setting|directive|role)$")
# the directives whose content is prose the page shows in a box, and which may open on
# the directive's own line
_ADMONITION_DIRECTIVE = re.compile(r"^(?:note|warning|tip|hint|important|caution|attention|"
                                   r"danger|error|seealso)$")
# a title's underline of backticks (Flask's documentation: "Default Configuration" over
# "`````````````````````"), which a Markdown fence's three backticks also open
_BACKTICKS = re.compile(r"^(`{4,})[ \t]*$")


def _underlines(lines: list[str], i: int) -> bool:
    """Line `i` is a run of backticks under a title at least as long as it (a fence under
    a sentence is shorter: "Install:" over "```")."""
    rule = _BACKTICKS.match(lines[i])
    title = lines[i - 1].strip() if i > 0 else ""
    return rule is not None and bool(title) and "`" not in title[:3] and \
        len(rule.group(1)) >= len(title)


# reStructuredText's inline markup, as a reader of the page sees it: a role's text
# (":pypi:`pip`", ":doc:`entry points <PyPUG:…>`"), a link's (`` `text <url>`_ ``,
# "|MANIFEST.in|_"); a footnote's mark ("[#beta]_", "[1]_") is nothing
_RST_ROLE = re.compile(r":[\w:.+-]+:`~?([^`<]*?)\s*(?:<[^`>]*>)?`")
_RST_LINK = re.compile(r"(?<![`\w])`([^`<]+?)\s*(?:<[^`>]*>)?`__?(?!\w)")
_RST_SUBSTITUTION = re.compile(r"\|([^|\s][^|\n]*)\|_{0,2}(?!\w)")
_RST_FOOTNOTE = re.compile(r"\s?\[(?:#[\w-]*|\d+|\*)\]_")
# a field of a field list (":default: ``.mypy_cache``", ":type: boolean")
_RST_FIELD = re.compile(r"^([ \t]*):([A-Za-z][\w -]*):[ \t]+(\S.*)$")


def _rst_inline(line: str) -> str:
    """`line` with its inline reStructuredText markup read (`_RST_ROLE`...)."""
    if "`" not in line and "|" not in line and "]_" not in line:
        return line
    line = _RST_FOOTNOTE.sub("", _RST_ROLE.sub(_kept_text, line))
    return _RST_SUBSTITUTION.sub(r"\1", _RST_LINK.sub(_kept_text, line))


def _kept_text(markup: re.Match[str]) -> str:
    """The text a role or a link shows, and the line breaks of what it leaves out (a
    link's target wrapped to its own line): the lines do not move."""
    shown = markup.group(1)
    return shown + "\n" * (markup.group().count("\n") - shown.count("\n"))


# the first line of an indented block that is code: a definition, an import, an
# assignment, a call, a comment, a prompt
_CODE_OPENING = re.compile(r"^(?:(?:async\s+)?def\s|class\s|import\s|from\s+\S+\s+import\s|@\w|"
                           r"[\w.\[\]'\"]+\s*[-+*/]?=[^=]|[\w.]+\(|#|\$\s|>>>\s|[)\]}])")


def _cut_code(lines: list[str]) -> int:
    """Blank the code a passage opens on, indented, when the chunker cut it from the "…::"
    that introduced it ("    def run_migrations_online():" / "        # ..."): without
    what announces it, it is not quoted, nor read as sentences. Where the reading goes on."""
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return 0
    indent = len(_INDENT.match(lines[first]).group())
    if not indent or RST_MARKUP.match(lines[first]) or \
            not _CODE_OPENING.match(lines[first].strip()):
        return 0
    end = first
    while end + 1 < len(lines) and (not lines[end + 1].strip()
                                    or len(_INDENT.match(lines[end + 1]).group()) >= indent):
        end += 1
    for n in range(first, end + 1):
        lines[n] = ""
    return end + 1


def rst_markup(body: str) -> str:
    """A reStructuredText passage as the answerer reads it, line for line (the citation's
    lines do not move): its explicit markup lines and titles' underlines blank, a
    paragraph's closing "::" a colon, and the indented block it or a code directive
    introduces fenced as a code block (the blank lines around it carry the fences); the
    inline markup of its prose read (`_rst_inline`)."""
    lines = body.split("\n")
    code_after: int | None = None  # the indentation of the line that introduced a block
    options = False  # in the lines right under a directive (its options: ":alt: …")
    i = _cut_code(lines)
    while i < len(lines):
        line = lines[i]
        options = options and bool(line.strip())
        if _ADORNMENT.match(line) or _underlines(lines, i):  # a title's underline ("~~~~"
            # is no code fence here, nor is "````" as long as the title over it)
            lines[i] = ""
            i += 1
            continue
        indent = len(_INDENT.match(line).group())
        directive = RST_MARKUP.match(line)
        if directive:
            # an object's description (".. py:data:: PERMANENT_SESSION_LIFETIME") is
            # headed by its name, its entry's term; other markup is left out
            named = _OBJECT_DIRECTIVE.match(directive.group(2) or "")
            lines[i] = " " * indent + line.split("::", 1)[1].strip() if named else ""
            if _ADMONITION_DIRECTIVE.match(directive.group(2) or ""):
                # ".. warning:: The private key … *must* be unencrypted.": the text on
                # the directive's line opens its content, read with the lines under it
                lines[i] = " " * indent + "   " + line.split("::", 1)[1].strip()
            code_after = indent if directive.group(2) and _CODE_DIRECTIVE.search(
                directive.group(2)) else None
            options = True
            i += 1
            continue
        field = _RST_FIELD.match(line) if code_after is None and not options else None
        if field:  # a field list as Sphinx shows it: ":default: ``normal``" reads
            # "Default: ``normal``" (a reference entry's default on its own line)
            lines[i] = f"{field.group(1)}{field.group(2)[:1].upper()}{field.group(2)[1:]}: " \
                f"{field.group(3)}"
            i += 1
            continue
        if line.rstrip().endswith("::") and line.strip() != "::":
            lines[i] = line.rstrip()[:-1]  # "…configuration::" reads "…configuration:"
            code_after = indent
            i += 1
            continue
        if code_after is not None and line.strip():
            start = i
            if indent > code_after and not line.strip().startswith(":") \
                    and start > 0 and not lines[start - 1].strip():
                end = start
                while end + 1 < len(lines) and (not lines[end + 1].strip() or len(
                        _INDENT.match(lines[end + 1]).group()) > code_after):
                    end += 1
                while end > start and not lines[end].strip():
                    end -= 1
                fence = " " * indent + "```"
                lines[start - 1] = fence
                if end + 1 < len(lines):
                    if lines[end + 1].strip():
                        code_after = None  # no blank line after it to carry the fence
                        i += 1
                        continue
                    lines[end + 1] = fence
                else:
                    lines.append(fence)
                i = end + 2
                code_after = None
                continue
            if not line.strip().startswith(":"):  # (a directive's ":linenos:" options)
                code_after = None
        i += 1
    # the prose between code blocks, read a paragraph at a time: a role may wrap
    # (":ref:`binary\n   mode <tut-files>`"), and what it keeps holds its line break
    out, prose, fenced = [], [], False
    for line in lines:
        if line.strip() == "```":
            if prose:
                out.append(_rst_inline("\n".join(prose)))
                prose = []
            out.append(line)
            fenced = not fenced
        elif fenced:
            out.append(line)
        elif not line.strip():
            if prose:
                out.append(_rst_inline("\n".join(prose)))
                prose = []
            out.append(line)
        else:
            prose.append(line)
    if prose:
        out.append(_rst_inline("\n".join(prose)))
    return "\n".join(out)


_NOWHERE = re.compile("")  # a zero-width match: a unit's end where no pattern finds one


_LINE = re.compile(r"[^\n]+")


def _listed_names(body: str) -> list[re.Match[str]]:
    """The line breaks around a line that is one name under a line ending with a colon
    ("…au format tar compressé :" / "paquet-version.tar.gz" / "ajouter…"): the name is
    an item of the list, not the start of the next sentence."""
    out = []
    previous = ""  # the last line with text before this one
    for m in _LINE.finditer(body):
        if _LONE_NAME.match(m.group()) and previous.rstrip().endswith(":"):
            out.append(_NOWHERE.match(body, m.start() - 1))  # the break before it
            if m.end() < len(body):
                out.append(_NOWHERE.match(body, m.end()))  # and after it
        if m.group().strip():
            previous = m.group()
    return out


def _page_command(hit: Hit, line: str) -> bool:
    """`line` runs a command its manual page is about ("lvextend -l+100%FREE -r
    vg01/lvol01" in lvextend(8), "a2dismod mime_magic" in a2enmod(8), whose NAME line
    gives both): an example, under the sentence that says what it does."""
    words = line.removeprefix("$ ").split()  # (with its shell prompt)
    return bool(words) and (words[0] == _document_name(hit.path) or (
        hit.kind in _PAGE_KINDS and words[0] in page_names(hit.title)))


def _example_over(hit: Hit, raw: str, following: str) -> str:
    """A manual page's example given before what it does: its commands, one per line,
    then the sentence that says what they do ("a2enmod imagemap" / "a2dismod mime_magic"
    / "Enables the mod_imagemap module, and disables…"): the commands as they run one
    after the other ("a2enmod imagemap; a2dismod mime_magic"), else ""."""
    lines = [line.strip() for line in raw.strip("\n").split("\n") if line.strip()]
    if not lines or not all(_page_command(hit, line) and not _END.search(line)
                            for line in lines):
        return ""
    below = " ".join(following.strip("\n").split("\n\n", 1)[0].split())
    if not (below[:1].isupper() and is_statement(below, False)):
        return ""
    return "; ".join(lines)


# a label that is no term: "Source code: Lib/uuid.py", "Par Jean Dupont <jean@…>", a box's
# kind in capitals ("SECURITY Forwarding logs", "ASTUCE …")
_NOT_A_TERM = re.compile(r"[:<>@]|^[A-ZÀ-Ý]{3,}\b")
# a value to put in, named in angle brackets: "dangling <type> <object>" is a term
_PLACEHOLDER = re.compile(r"<[\w-]+>")


# a term's default in brackets after it, as Postfix's manuals give it: "(default: 5 days)",
# "(default: 300 seconds; before Postfix 2.4: 1000s)", "(par défaut : 10)"
_DEFAULT_AFTER = re.compile(r"\s+\((?:default|par d[ée]faut|d[ée]faut)\s?:[^()]*\)$", re.I)


# a value a list describes, alone on its line or tagging it ("1", "64", "124": an exit
# status), and that value alone on its line
_VALUE_WORD = r"\d{1,4}"
_VALUE = re.compile(rf"^{_VALUE_WORD}$")


def _labels_next(raw: str, cleaned: str, following: str, body: str, start: int,
                 match: re.Match[str] | None, headings: list[str]) -> bool:
    """A line of its own, a few words without a sentence's end, over a line that is a
    statement: a term and its description (a definition list of an HTML manual, set as
    lines; not a numbered section's title, nor the last item of a list of such lines, nor
    a label `_NOT_A_TERM`).
    Called when the line is nothing else (no heading, list item or statement). A default
    given after the term is part of it ("maximal_queue_lifetime (default: 5 days)")."""
    cleaned = _DEFAULT_AFTER.sub("", cleaned)
    if not cleaned or len(cleaned.split()) > TERM_WORDS or "\n" in raw.strip() or \
            _END.search(cleaned) or _NOT_A_TERM.search(_PLACEHOLDER.sub("", cleaned)) \
            or _LIST_ITEM.match(cleaned) \
            or _NUMBERING.match(cleaned) or (is_navigation(cleaned) and not _VALUE.match(cleaned)):
        return False  # (a value alone on its line, an exit status's "1", is a term)
    whole = (start == 0 or body[start - 1] == "\n") and (match is None or "\n" in match.group()
                                                        or match.end() == len(body))
    below = " ".join(_without_markup(following.strip()).split())
    if not whole or not below[:1].isupper() or not is_statement(below, False):
        return False
    above = body[:start].rstrip("\n").rsplit("\n", 1)[-1].strip()
    # (the last of a run of short lines)
    return not (above and len(above.split()) <= TERM_WORDS and not _END.search(above)
                and not _is_heading_line(above, headings))


# a term's repeated argument ("terminate-session ID...", "lock-session [ID...]"): its dots
# end no sentence
_ARGUMENTS_REPEATED = re.compile(r"(?<=\w)(?:\.\.\.|…)\]*$")


def _describing(out: list[Sentence]) -> bool:
    """The units read so far end in a term's description: statements, after the term."""
    for unit in reversed(out):
        if unit.role != STATEMENT:
            return unit.term and unit.role == HEADING
    return False


def _described_terms(body: str) -> list[re.Match[str]]:
    """The line break after a term alone on its line when the lines under it, indented
    further, describe it: a manual page as `man` renders it ("-f, --prefix=PRÉFIXE" then
    "utiliser le PRÉFIXE au lieu de « xx »"; "comm -12 fichier1 fichier2" then
    "n'afficher que les lignes présentes à la fois…"). The term is a few words without a
    sentence's end, not a list item; its description is indented TERM_INDENT more. (A
    section's title, "DESCRIPTION" over its indented text, is found so too: no term, a
    heading, `_section_title`.)"""
    lines = list(_LINE.finditer(body))

    def described(i: int) -> bool:
        if i + 1 >= len(lines):
            return False
        line, below = lines[i], lines[i + 1]
        text = line.group().strip()
        # (a bulleted option, "○   --slurp/-s:", may have a blank line under it, and so
        # may an option alone on its line: help2man's pages, sed's "-i[SUFFIX],
        # --in-place[=SUFFIX]" over "edit files in place (makes backup if SUFFIX
        # supplied)")
        bulleted = bool(_BULLETED_OPTION.match(text))
        # (a definition list of MyST or Pandoc: "**logger**", a blank line, then ": Your
        # wrapped logger object.", not indented)
        defined = _DEFINITION.match(below.group()) is not None
        gap = "\n\n" if bulleted or defined or _OPTION_LINE.match(text) else "\n"
        return body[line.end():below.start()] in ("\n", gap) and bool(below.group().strip()) \
            and (defined or _indent(below.group()) >= _indent(line.group()) + TERM_INDENT) and \
            (len(text.split()) <= TERM_WORDS or _section_title(line.group())) and (
                not _END.search(_ARGUMENTS_REPEATED.sub("", text)) or _COLON_TERM.match(text)
                or bulleted) and \
            not (_LIST_ITEM.match(text) and not _OPERATOR_TERM.match(text)) and \
            not _FENCE.match(text)

    return [_NOWHERE.match(body, line.end()) for i, line in enumerate(lines) if described(i)]


# a value given under a bold label, a line of its own: "**Import name:**
# ``jinja2.ext.loopcontrols``", "**Default:** `none`" (what the section's text then calls
# "this extension")
_BOLD_LABEL = re.compile(r"^\*\*[^*\n]{1,40}(?::\*\*|\*\*:)\s+\S")
# a label and the file it gives, a line of its own: "Source code: Lib/queue.py", "Fichier
# de configuration : /etc/mdadm/mdadm.conf" (where a page keeps what it is about)
_LABELLED_PATH = re.compile(r"^[A-ZÀ-Ý][\w'’ -]{1,30}?\s?:\s+[\w~$./-]*(?:/[\w.-]+|"
                            r"\w\.[a-z]{1,4})$")
# a definition of a Markdown definition list (MyST, Pandoc): ": what the term above is"
_DEFINITION = re.compile(r"^[ \t]{0,3}:[ \t]+\S")
# an option as a bulleted item of its own, a colon after it (jq(1): "○   --slurp/-s:",
# "○   --indent n:")
_BULLETED_OPTION = re.compile(r"^[○•◦·]\s+(-[^\s:][^:]*?):?$")


# a definition list's term written with a colon ("``urlize.rel``:", "navigation_depth:")
# (a name: not "Example:" or "Note:" over an indented block)
_COLON_TERM = re.compile(r"^(?:``[^`\s]+``|[a-z_$][\w$]*|[\w$]+(?:[.:_-][\w$]+)+):$")


# An operator and the value it takes in capitals, a term of a command's expressions
# (expr's "+ TOKEN", test's "! EXPRESSION"), not a list item
_OPERATOR_TERM = re.compile(r"^[-+*/%<>=!|&]{1,2} [A-Z][A-Z\d_]*$")


def _section_title(line: str) -> bool:
    """A manual page's section title, as `man` renders it: capitals at the margin, alone
    on its line ("DESCRIPTION", "VOIR AUSSI")."""
    return not _indent(line) and bool(_SECTION_TITLE.match(line.rstrip()))


_SECTION_TITLE = re.compile(r"^[A-ZÀ-Þ][A-ZÀ-Þ '’-]{2,60}$")


# An option and what it does on one line, as `man` renders a short tag ("-t     sort by
# time, newest first; see --time"), and so a value or a name in capitals ("124    si la
# commande dépasse le temps imparti…", an exit status; "TMPDIR   the folder…"): a
# description, without its full stop
_TAG_WORD = rf"(?:{_VALUE_WORD}|[A-Z][A-Z\d_]{{1,30}})"  # a value or a name in capitals
_TAG = re.compile(rf"^{_TAG_WORD}$")
_INLINE_TAG = re.compile(r"^[ \t]*(?:--?\w\S*(?:, --?\S+)*[ \t]{2,}\S|"
                         rf"{_TAG_WORD}[ \t]{{2,}}[^\W\d_]|"
                         # an escape or a conversion of a format language ("\\n     saut de
                         # ligne", "%q     PARAMÈTRE est affiché…"; "\\uHHHH caractère…"
                         # fills the tag's column)
                         r"[\\%](?:[A-Za-z0-9][A-Z]*|[%\"\\])[ \t]{2,}\S|"
                         r"\\[A-Za-z0-9][A-Z]{3,}[ \t][^\W\d_])")
# `_described_terms`: a term's words at most, and how much further its description is indented
TERM_WORDS = 6
TERM_INDENT = 4
# ... and the words its description has at least ("afficher un résumé")
DESCRIPTION_WORDS = 2


def _wrapped_option(body: str, boundary: re.Match[str]) -> bool:
    """The line break before a line starting with an option ("--tmpdir est implicitement
    fourni.") goes on with the sentence of prose before it, when that line ends no sentence
    (a manual page wraps its paragraphs anywhere); a list's item starts with "- ", and a
    list of options has an option at the start of the line before too."""
    if not body.startswith("\n", boundary.start()) or \
            not _LINE_OPTION.match(body, boundary.start()):
        return False
    previous = body[body.rfind("\n", 0, boundary.start()) + 1:boundary.start()].strip()
    return len(previous.split()) >= 4 and not _END.search(previous) and \
        not previous.startswith(("-", "*", "+", "#", ">", "|"))


# a line that starts with an option ("--tmpdir est…", "-p RÉP"), not a list's "- item"
_LINE_OPTION = re.compile(r"\n[ \t]*--?\w")
# the line break before a line that `_INLINE_TAG` reads as a tag and its description
_TAGGED_LINE = re.compile(r"\n(?=" + _INLINE_TAG.pattern.removeprefix("^") + ")")
_DEFAULT_LINE = re.compile(r"\n(?=" + _DEFAULT_VALUE.pattern.removeprefix("^") + ")", re.I)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _labels_code(raw: str, following: str) -> bool:
    """`raw` is a label of a word or two written right over a code block, no blank line
    between: a tab's name ("Linux" over "~/.cache/pip", "Windows" over its path), which
    says whom the code is for."""
    label = raw.strip(" \t")
    return bool(_FENCE.match(following)) and label.endswith("\n") \
        and not label.endswith("\n\n") and 0 < len(label.split()) <= 2


def _boundaries(body: str, terms: list[re.Match[str]], by_lines: bool = False
                ) -> list[re.Match[str]]:
    """Where the passage's units end: `_BOUNDARY`, around a listed name (`_listed_names`)
    and after a described term (`terms`, `_described_terms`'s), never inside a fenced code
    block, and at both ends of one. In a text cited by its lines (a manual page), a line
    that ends a sentence ends the unit whatever follows ("…on the command line." over
    "lvextend vg01/lvol01 /dev/sdk3", an example's command)."""
    fences = [(m.start(), m.end()) for m in FENCED.finditer(body)]
    found = [m for m in _BOUNDARY.finditer(body) if not _wrapped_option(body, m)]
    if by_lines:
        found = sorted(found + [m for m in _LINE_END.finditer(body) if not any(
            f.start() <= m.start() < f.end() for f in found)], key=lambda m: m.start())
    # a tagged line ("124    si la commande…") starts its own unit, even right under
    # the line that announces the list ("État de fin d'exécution :")
    tagged = [_NOWHERE.match(body, m.start()) for m in _TAGGED_LINE.finditer(body)
              if not _wrapped_option(body, m)]
    if by_lines:  # and so does a default on its own line, under the entry's type
        tagged += [_NOWHERE.match(body, m.start()) for m in _DEFAULT_LINE.finditer(body)]
    listed = [m for m in _listed_names(body) + terms + tagged
              if not any(b.start() <= m.start() <= b.end() for b in found)]
    # one end per place: a term alone on its line may be a tagged line too (git-clean's
    # "clean.requireForce"), and two ends at one place leave an empty unit between them
    listed = list({m.span(): m for m in listed}.values())
    found = sorted(found + listed, key=lambda m: m.start())
    if not fences:
        return found
    out = [m for m in found if not any(a < m.start() < b for a, b in fences)]
    for a, b in fences:  # a zero-width end before the fence and after it
        for at in (a, b):
            if 0 < at < len(body) and not any(m.start() <= at <= m.end() for m in out):
                out.append(_NOWHERE.match(body, at))
    return sorted(out, key=lambda m: m.start())


def _code_block(raw: str) -> str:
    """A fenced block as quoted: its fence lines and its code, the indentation the block
    shares taken off; closed where the passage ends when the chunker cut it there (a
    long example in parts: `models.FENCED` reads it to the end)."""
    block = textwrap.dedent(raw.strip("\n")).rstrip()
    lines = block.split("\n")
    fence = _FENCE.match(lines[0])
    if fence and (len(lines) == 1 or not lines[-1].strip().startswith(fence.group().strip())):
        block += "\n" + fence.group().strip()
    return block


def _line_of(line_starts: list[int], offset: int) -> int:
    lo, hi = 0, len(line_starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if line_starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _code_sentence(hit: Hit, words: int = 0) -> Sentence:
    """A definition is quoted by its signature and the first sentence of its doc comment
    or docstring (`comments.definition_parts`); with `words`, by as many of its doc's
    whole sentences as fit in that many words (how it computes, what it returns), its
    parameter and example sections left out."""
    doc, signature = definition_parts(hit.text)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", _DOC_SECTIONS.split(doc, 1)[0])
                 if s.strip()]
    summary = " ".join(sentences[:1])
    for more in sentences[1:]:
        if len(f"{summary} {more}".split()) > words:
            break
        summary = f"{summary} {more}"
    what = f"{hit.symbol_kind} {hit.symbol}" if hit.symbol else "code"
    signature = signature.rstrip(":{ ")
    # a sentence that announced an example left out ("…the two middle values:") ends
    # the quote as a sentence
    parts = [f"{what}: `{signature}`" if signature else what] + (
        [summary.rstrip(" .:") + "."] if summary else [])
    return Sentence(" — ".join(parts), hit, hit.start_line, hit.end_line)


# where a docstring's prose ends: its sections of parameters, returns and examples
_DOC_SECTIONS = re.compile(r"\s(?:Args|Arguments|Parameters|Params|Returns?|Raises|Yields|"
                           r"Examples?|Exemples?|Usage|Note|See also):?\s|\s:(?:param|"
                           r"returns?|raises|type|rtype)\b|\s>>>\s|\s-{3,}\s")
# the words of doc the answering definition is quoted with
CODE_DOC_WORDS = 60


def term_overlap(question: str, sentence: str) -> float:
    """Share of the question's terms the sentence holds (the better of French and English
    stemming; a word's other forms count: `text.loosely`, and the manual's words for an
    everyday one: `bilingual.plain_senses`)."""
    best = 0.0
    for lang in tokens.LANGUAGES:
        wanted, phrased = _overlap_stems(question, lang)
        if wanted:
            found = tokens.with_verbs(set(tokens.tokens(sentence, lang)))
            held = tokens.loosely([wanted], found) - phrased
            # a word said as manuals say it ("soft link": "symbolic links")
            held |= {stem for stems, senses in _plain_stems(question, lang)
                     if senses & found for stem in stems}
            best = max(best, len(wanted & held) / len(wanted))
    return best


@lru_cache(maxsize=64)
def _overlap_stems(question: str, lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The question's stems in `lang`, and those only a function phrase says ("in one go"
    is no "one" of "one or more sessions": never found): read once per question, as the
    answerer scores each sentence with them (`term_overlap`)."""
    wanted = frozenset(tokens.tokens(question, lang))
    return wanted, wanted - frozenset(tokens.tokens(without_function_phrases(question), lang))


@lru_cache(maxsize=64)
def _plain_stems(question: str, lang: str) -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """The question's everyday words as `lang` stems them, each with the stems of the
    manual's words for it (`bilingual.plain_senses`): read once per question."""
    return tuple((tuple(tokens.tokens(word, lang)), frozenset(tokens.tokens(senses, lang)))
                 for word, senses in plain_senses(question).items())


@lru_cache(maxsize=64)
def _translated_words(question: str, language: str) -> tuple[frozenset[str], ...]:
    """The question's content words, each with the stems of its translations."""
    # (a phrase English writes as one word, "phrase de passe": passphrase, is found only
    # whole; the others word by word, as sentences say them, "fins de ligne": endings)
    return tuple(stems for _, stems in content_words(
        question, word_translator(question, language, compounds_only=True)))


def translated_overlap(question: str, language: str, sentence: str,
                       translated_only: bool = False) -> float:
    """Share of the question's content words that the sentence, in the other language,
    holds as one of their translations ("commentaire" in "comments are not allowed on
    the same line"): the words of the question as written meet only its names there.
    `translated_only`: of the words that have a translation (not names, figures and
    words written alike in both languages, which any passage about them holds)."""
    words = _translated_words(question, language)
    if translated_only:
        words = tuple(w for w in words if len(w) > 1)
    if not words:
        return 0.0
    held = tokens.loosely(words, tokens.with_verbs({t for lang in tokens.LANGUAGES
                                                    for t in tokens.tokens(sentence, lang)}))
    return sum(bool(w & held) for w in words) / len(words)


def heading_matches(question: str, hit: Hit, share: float = 0.5) -> bool:
    """The passage's own (last) heading names what is asked: at least `share` of the
    heading's terms are the question's. A heading that only names a kind of thing
    ("Options", "Commandes") names no subject: "which vacuumdb option…?" asks for one
    of them."""
    last = hit.heading.split(" > ")[-1] if hit.heading else ""
    return bool(last) and bool(content_words(THINGS.sub(" ", last))) and \
        term_overlap(last, question) >= share


QUOTABLE = (STATEMENT, ATTACHED)
# A reference's change note ("Changed in version 3.4: …", Sphinx's versionchanged) is never
# the answer, unless the question asks about versions
_VERSION_NOTE = re.compile(r"^(changed|new|deprecated|added|removed) (in|since) version\b|"
                           r"^(modifié|nouveau|ajouté|obsolète|supprimé|déprécié)e? (dans la|"
                           r"depuis la|en) version\b", re.I)
# "Raises an auditing event os.chdir with argument path.": a reference entry's note for
# security hooks, which answers only a question about auditing
_AUDIT_NOTE = re.compile(r"^raises (?:an|several) auditing events?\b|"
                         r"^l[èe]ve (?:un|des) [ée]v[ée]nements? d'audit", re.I)
_ASKS_AUDIT = re.compile(r"\baudit", re.I)


def _entry_note(text: str) -> bool:
    """A reference entry's change or audit note: where a quote of the entry stops."""
    return bool(_VERSION_NOTE.match(text) or _AUDIT_NOTE.match(text))


# (a release the question names, "on Python 3.11", asks what holds in it: a change note
# may be where its default is given)
_ASKS_VERSION = re.compile(r"\bversions?\b|\bsince when\b|\bdepuis quand\b|"
                           r"\b[A-Z][a-z]+ \d+\.\d+", re.I)
# ...and a deprecation note ("Deprecated since version 3.11: Calls to this function can be
# replaced by: …") is the answer a question about a deprecated call asks for
_DEPRECATED = re.compile(r"^(?:deprecated|obsol[eè]te|d[ée]pr[ée]ci[ée])", re.I)
_ASKS_DEPRECATED = re.compile(r"\bdeprecat\w*|\bobsol[eè]t\w*|\bd[ée]pr[ée]ci[ée]\w*", re.I)
# whether something is still advised or kept ("is it still recommended to…", "est-ce
# encore conseillé d'utiliser…"), and a statement that it is not
_ASKS_STILL = re.compile(r"\b(?:still|encore|toujours)\b[^?]{0,40}?\b(?:recommend\w*|advis\w*|"
                         r"conseill\w*|recommand\w*|support\w*|maintain\w*|maintenu\w*|"
                         r"a good idea|une bonne idée)|" + _ASKS_DEPRECATED.pattern, re.I)
_SAYS_DEPRECATED = re.compile(r"\b(?:deprecated|obsol[eè]tes?|d[ée]pr[ée]ci[ée]e?s?|"
                              r"no longer (?:recommended|supported|maintained)|"
                              r"d[ée]conseill[ée]e?s?|n['’]est plus (?:maintenue?|recommand[ée]e?|"
                              r"conseill[ée]e?|pris en charge))\b", re.I)
# A question about a default, by name or by what it leaves out ("kill with only a PID,
# without any other option", "si je ne précise pas de largeur"): a statement of the
# default carries what it asks
_DEFAULT_SAID = (r"\bdefault(?:s|ing|ed)?\b|\bd[ée]faut\b|"  # "defaulting to"
                             # "Unless changed with -SIGNAL, SIGKILL is sent."
                             r"\bunless (?:changed|overridden|otherwise (?:specified|set|"
                             r"stated|configured))\b|\bsauf (?:indication contraire|"
                             r"si (?:modifié|changé))\b|"
                             # "Si aucune option n'est indiquée, -P est assumé."
                             r"\b(?:if|when) no (?:other )?\w+ (?:is|are) (?:given|specified|set|"
                             r"passed)\b|"  # "…TERM si aucun autre SIGNAL n'est indiqué"
                             r"\bsi aucune? (?:autre )?\w+ n['’](?:est|a été) "
                             r"(?:indiqué|précisé|spécifié|donné|fourni)e?\b")
# ... and a figure or a literal value a setting replaces, as manual pages give defaults
# ("Set maximum hops… to max_hops instead of 30", install's "set permission mode (as in
# chmod), instead of rwxr-xr-x"; a question that says it asks for a change, not a default)
_STATES_DEFAULT = re.compile(_DEFAULT_SAID + r"|\b(?:instead of|au lieu de) (?:\d|[/~]\w|"
                             r"\w+(?:-\w+){2,})", re.I)
_ASKS_DEFAULT = re.compile(
    _DEFAULT_SAID + r"|\bout[ -]of[ -]the[ -]box\b|\bfactory settings?\b|"
    r"\bd['’]usine\b|\bwithout (?:(?:any|an?|other|specifying|giving|passing|"
    r"setting)\s+)+(?:\w+\s+)?(?:options?|arguments?|values?|flags?|parameters?|width|size)\b|"
    r"\bif (?:i|you|we) (?:don['’]t|do not|never) (?:specify|give|pass|set|configure|change|"
    r"say|pick|choose|select|tell|provide|supply|mention)\b|"
    # "…when I haven't configured anything?", "…but don't say --soft or --hard", "…and I
    # don't give a backup option": what it does then
    r"\b(?:(?:when|if|but) (?:(?:i|you|we) )?(?:don['’]t|do not|didn['’]t|did not|haven['’]t|"
    r"have not|never)|and (?:i|you|we) (?:don['’]t|do not)) (?:specif(?:y|ied)|give|given|"
    r"pass|passed|set|configur(?:e|ed)|change|changed|say|said|pick|picked|choose|chosen|tell|"
    r"told|provide|provided|touch|touched)\b|"
    # "…with install and don't specify any permissions"
    r"\band (?:don['’]t|do not|never) (?:specify|give|pass|set|say|choose|pick|provide|"
    r"supply|configure)\b|"
    # "if I leave the port out of the config", "if I omit it": what is used then
    r"\bif (?:i|you|we) (?:omit|skip|leave out)\b|"
    r"\bif (?:i|you|we) leave (?:(?:the|a|an|it|this|that|my|its)\s+)?(?:[\w-]+\s+){0,2}?out\b|"
    # "how many threads does zstd use unless I tell it otherwise?"
    r"\bunless (?:i|you|we) (?:tell|say|specify|set|pass|give|choose|pick|select|ask|change|"
    r"configure|override)\b|"
    # "I wrote a trigger without saying whether it's per row or per statement"
    r"\bwithout (?:saying|specifying|stating|indicating|choosing) (?:whether|which|what|if)\b|"
    r"\b(?:i|you|we) (?:didn['’]t|did not|never) (?:say|specify|state|choose)\b|"
    # "…and forgot to say how long it should be valid", "j'ai oublié de préciser…"
    r"\bforg[eo]t(?:ten)? to (?:say|specify|state|give|set|pass|choose)\b|"
    r"\boubli[ée]s? (?:de|d['’]) ?(?:dire|préciser|indiquer|spécifier|donner|choisir)\b|"
    r"\bsans (?:dire|préciser|indiquer|spécifier|choisir) (?:si|s['’]il|quel|quelle|lequel|"
    r"laquelle)\b|"
    # "sur un PID sans préciser de signal", "without specifying a signal": what is used then
    r"\bsans (?:rien )?(?:préciser|spécifier|indiquer)\b|"
    r"\bwithout (?:specifying|giving|passing|setting|choosing|naming)\b|"
    # "…with a commit and no --soft or --hard, which mode…?", "and no options": the
    # choices left out
    r"\b(?:with|and|but) no (?:--?[^\W\d_][\w-]*|(?:other )?(?:options?|flags?|arguments?|"
    r"mode))\b|"
    r"\bsans (?:(?:autre|"
    r"aucune?|lui|le|la|les|de|d['’]|préciser|indiquer|donner|spécifier)\s*)*(?:\w+\s+)?"
    r"(?:options?|arguments?|paramètres?|valeur|largeur|taille|nombre)\b|\bsi (?:je|on|tu) "
    r"(?:ne |n['’])?(?:en |y )?(?:précise|précises|indique|indiques|donne|donnes|spécifie|"
    r"spécifies|passe|passes|mets|mettez)\b(?! (?:le|la|les|l['’]|un|une|des|ce|cette)\b)|"
    # "quel signal… si on ne change rien ?", "si je ne touche à rien"
    r"\bsi (?:je|on|tu|vous) (?:ne |n['’])(?:change|changes|changez|touche|touches|touchez|"
    r"modifie|modifies|modifiez|règle|règles|réglez) (?:à )?rien\b", re.I)
# A question asking what is missing or needed first ("…nothing arrives out of order. What
# am I missing?", "What do I have to enable… before pg_rewind will work", "Qu'est-ce que
# j'ai oublié ?"), and a sentence stating a requirement ("a delay option must be
# specified", "can be changed only after a reset", "il faut d'abord…")
_ASKS_REQUIREMENT = re.compile(
    r"\bwhat (?:am i|are we|is) missing\b|\bwhat (?:did|have) (?:i|we) (?:forget|forgotten|"
    r"miss|missed|overlook|overlooked)\b|\bwhat else\b|\bprerequisites?\b|"
    r"\b(?:have to|need to|must|should)\b[^?.]{0,60}\b(?:first|beforehand|before)\b|"
    r"\bqu['’]est-ce (?:que (?:j['’]ai|nous avons|l['’]on a)|qu['’]on a) (?:oublié|raté|manqué)|"
    r"\b(?:ai-je|avons-nous|a-t-on) (?:oublié|raté|manqué)\b|\bqu['’]est-ce qui manque\b|"
    r"\bmanque-t-il\b|\bprérequis\b|\bpréalables?\b|"
    r"\b(?:faut-il|dois-je|doit-on|il faut)\b[^?.]{0,60}\b(?:d['’]abord|avant|au préalable)\b",
    re.I)
_STATES_REQUIREMENT = re.compile(
    r"\b(?:must|needs? to|has to|have to|required|requires?|prerequisites?|unless|"
    r"only (?:after|if|when|once|with|by)|can only|doi(?:t|vent)|faut|nécessaires?|"
    r"nécessite\w*|requi(?:s|se|ert)|(?:seulement|uniquement) (?:après|si|quand|lorsqu|avec)|"
    r"au préalable|d['’]abord)\b", re.I)
# "Quelle option de vnstat utiliser ?", "which flag…": an option is asked for
_ASKS_OPTION = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:options?|flags?|switch(?:es)?)\b|"
                          r"\bquel(?:le)?s?\s+(?:\w+\s+)?(?:options?|drapeaux?)\b", re.I)
# The options every GNU program has, "--help display this help and exit", "-V, --version
# afficher les informations de version et quitter": a manual page's boilerplate, the answer
# only to a question about help, usage or the version
_HELP_OPTION = re.compile(r"^[`\s]*(?:-[\w?]+,?\s+)?-{1,2}(?:help|version|usage)\b")
_HELP_MENTION = re.compile(r"(?<![\w-])--?(?:help|version|usage)\b")
_ASKS_HELP = re.compile(r"\b(?:help|aide|usage|utilisation|version)\b|--(?:help|version)",
                        re.I)  # ("three versions of a file" asks about no program's version)
# A manual page's closing sections (its translators, authors, copyright, where to report
# bugs): on every page of a collection alike, an answer only to a question about them.
# Each kind of section by its titles, with the words of a question that asks for it
# ("SEE ALSO FOR PCP": a title may name its suite)
_CLOSING_KINDS = tuple(
    (re.compile(rf"^(?:{titles})(?: for \w+| pour \w+)?$", re.I),
     re.compile(rf"\b(?:{asking})\b", re.I)) for titles, asking in (
        (r"traduction|translation", r"tradu\w*|translat\w*"),
        (r"copyright|colophon", r"licen[cs]\w*|copyright"),
        (r"auteurs?|authors?", r"auteurs?|authors?|wrote|écrit\w*|maintain\w*|mainteneur\w*"),
        (r"signaler des bogues|reporting bugs", r"bugs?|bogues?|report\w*|signal\w*"),
        (r"see also|voir aussi", r"documentation|manual|manuel|info|see also|voir aussi"),
        (r"availability|disponibilité", r"availab\w*|disponib\w*|download\w*|télécharg\w*"),
    ))
# a BUGS section that only says how to report one (wget's, curl's, sed's: "You are welcome
# to submit bug reports via…", "E-mail bug reports to…") is closing matter too; one that
# lists known bugs ("The 'c', 's' and 'u' attributes are not honored by ext4") is content
_BUGS = re.compile(r"^(?:bugs|bogues)$", re.I)
_REPORTING = re.compile(r"\b(?:bug[- ]reports?|report(?:ing)?\s+(?:\w+\s+){0,2}bugs?|"
                        r"submit\w*\s+(?:\w+\s+){0,2}(?:reports?|issues?)|"
                        r"(?:bug|issue) tracker|rapports? de bogues?|"
                        r"signal(?:er|ez)\s+(?:\w+\s+){0,2}(?:bogues?|anomalies))\b", re.I)
_KNOWN_BUGS = re.compile(r"^\s*(?:known bugs|known problems|limitations|bogues connus)\s*$",
                         re.I | re.M)
# a closing section that only says which suite the program belongs to (git's "GIT" /
# "Part of the git(1) suite")
_SUITE_NOTE = re.compile(r"^part of the [\w.+-]+(?:\(\d\w*\))? suite\.?$", re.I)


# The lines help2man closes a GNU program's --help with, which Debian's pages keep inside
# their last section (sed(1)'s OPTIONS), and the words of a question that asks for them
_COLOPHON = re.compile(r"\bcopyright ©|©\s*\d{4}|\blicen[cs]e gplv\d|\bthere is no warranty\b|"
                       r"\bfree software: you are free to change\b|"
                       r"\b(?:e-mail|report) bug reports to\b|\bhome page: <|"
                       r"\bgeneral help using gnu software\b|\bpackaged by debian\b", re.I)
_ASKS_COLOPHON = re.compile(r"\b(?:licen[cs]\w*|copyright|warrant\w*|bugs?|report\w*|"
                            r"home ?page|site|author\w*|auteurs?|bogues?|garantie)\b", re.I)


def _closing_section(title: str, body: str, question: str) -> bool:
    """A manual page's section titled `title`, holding `body`, is closing matter that
    `question` does not ask for: authors, copyright, see also… (`_CLOSING_KINDS`; "which
    version can I download?" asks for AVAILABILITY, not for the AUTHORS), BUGS when it only
    says how to report one, a suite's note ("GIT": "Part of the git(1) suite")."""
    title = title.strip()
    if _BUGS.match(title) and _REPORTING.search(body) and not _KNOWN_BUGS.search(body):
        title = "reporting bugs"
    lines = [line.strip() for line in body.split("\n") if line.strip()]
    if lines and all(_SUITE_NOTE.match(line) for line in lines):
        return True
    for titles, asking in _CLOSING_KINDS:
        if titles.match(title):
            return not asking.search(question)
    return False


# a string the question quotes: 'w', "from package import *", `--dry-run`, « -toto »
_QUOTED_LITERAL = re.compile(r"(?<!\w)(?:'([^'\n]{1,40})'|\"([^\"\n]{1,40})\"|`([^`\n]{1,40})`|"
                             r"«\s?([^»\n]{1,40}?)\s?»|“([^”\n]{1,40})”|‘([^’\n]{1,40})’)(?!\w)")
_QUOTE_MARKS = re.escape("'\"`«»“”‘’ ")  # (as a regex character class's content)


def quoted_literals(question: str) -> list[str]:
    """The strings `question` quotes ("the difference between opening a file with 'w' and
    'a'"): what the user wants found as written."""
    return [next(g for g in m.groups() if g is not None).strip()
            for m in _QUOTED_LITERAL.finditer(question)]


def _entry_title(sentence: Sentence, own: list[Sentence]) -> str:
    """The short heading whose entry `sentence` is in ("union" over "Run 3-way file level
    merge for text files, but take lines from both versions…"), or ""."""
    for unit in reversed(own[:sentence.index]):
        if unit.role == HEADING:
            return unit.text if len(unit.text.split()) <= 3 else ""
        if unit.role != STATEMENT or unit.block != sentence.block:
            return ""
    return ""


def _quotes_all(literals: list[str], text: str) -> bool:
    """`text` holds every one of `literals` as written: one of three letters or fewer
    between quote marks ('w', ``-p``), a longer one anywhere."""
    for literal in literals:
        if len(literal) <= 3:
            found = re.search(rf"[{_QUOTE_MARKS}]{re.escape(literal)}[{_QUOTE_MARKS}]", text)
        else:
            found = literal.lower() in text.lower()
        if not found:
            return False
    return True


# the kinds a manual page comes as: rendered by `man` to text, or roff (`preuve.ingest.manpage`)
_PAGE_KINDS = frozenset({"text", "man"})


def _is_name_line(hit: Hit, line: str) -> bool:
    """`line` is the NAME line of the manual page `hit` is from: its title ("ip-neighbour -
    neighbour/arp tables management.")."""
    return hit.kind in _PAGE_KINDS and bool(hit.title) and bool(PAGE_NAMES.match(line.strip())) \
        and " ".join(line.split()) == " ".join(hit.title.split())


# what a command is called as a kind of thing ("la commande grpconv", "the shuf tool")
_COMMAND_WORDS = re.compile(r"\b(?:commands?|commandes?|tools?|outils?|programs?|programmes?|"
                            r"utilit(?:y|ies)|utilitaires?)\b", re.I)


def _page_defined(question: str, kind: str, hits: Sequence[Hit],
                  by_hit: dict[str, list[Sentence]]) -> list[Sentence]:
    """When a question asks what a manual page's command is, and nothing else ("À quoi
    sert shuf ?", "What does ssh-agent do?"), the page's NAME line ("shuf - Générer des
    permutations aléatoires", kept as the page's title, never a unit of its own) and the
    first statement of its description: each of its sentences shares no word with such a
    question but the command's name, and an option's description won by its meaning
    alone (trial 151: "-z, --zero-terminated"). Empty for any other question."""
    if kind != DEFINITION:
        return []
    pages = named_pages(question, hits)
    if len(pages) != 1:
        return []
    names = set().union(*(page_names(h.title) for h in hits if h.path == pages[0]))
    # ("la commande grpconv", "the shuf tool" name what the page is about)
    if any(word.lower() not in names
           for word, _ in content_words(_COMMAND_WORDS.sub(" ", question))):
        return []  # ("à quoi sert l'option -z de shuf ?" asks of an option)
    own = sorted((h for h in hits if h.path == pages[0]), key=lambda h: h.start_line or 0)
    for hit in own:
        lines = hit.text.split("\n")
        # (the NAME line, wrapped over two or three lines when it is long: "dumpe2fs -
        # Afficher des informations sur le système de fichiers" / "ext2/ext3/ext4")
        at, spans = next(((n, k) for n in range(len(lines)) for k in (1, 2, 3)
                          if n + k <= len(lines)
                          and _is_name_line(hit, " ".join(lines[n:n + k]))), (None, 0))
        if at is None or hit.start_line is None:
            continue
        line = hit.start_line + at
        name = Sentence(" ".join(" ".join(lines[at:at + spans]).split()), hit, line,
                        line + spans - 1, role=STATEMENT)
        # (in its passage or the next one of the page: after an ellipsis)
        first = next((u for h in own for u in by_hit[h.chunk_id] if u.role == STATEMENT
                      and (u.start_line or 0) > line + spans - 1), None)
        if first is not None:
            first.elided = True
        return [name] + ([first] if first is not None else [])
    return []


def named_pages(question: str, hits: Sequence[Hit]) -> list[str]:
    """The manual pages among `hits` (rendered as text or read from roff, titled by their
    NAME line) that
    `question` names by one of their commands ("what compression level does zip use…",
    "uniq me laisse des doublons", "bunzip2" for bzip2(1)), in rank order."""
    asked = asked_words(question)
    out: list[str] = []
    for hit in hits:
        names = page_names(hit.title) if hit.kind in _PAGE_KINDS else set()
        if hit.path not in out and asked & names:
            out.append(hit.path)
    return out


def _page_names(question: str, hits: Sequence[Hit]) -> dict[str, str]:
    """The manual pages among `hits` that `question` names (`named_pages`) -> the names
    it gives them ("grep" for grep(1), whose NAME line is "grep, egrep, fgrep, rgrep")."""
    asked = asked_words(question)
    return {path: " ".join(sorted(page_names(next(h.title for h in hits if h.path == path))
                                  & asked)) for path in named_pages(question, hits)}


def closing_only(hit: Hit, question: str) -> bool:
    """`hit` holds nothing but a manual page's closing sections (`_closing_section`:
    authors, where to report bugs, copyright, see also, translators) that `question` does
    not ask for: the same boilerplate on every page of a collection, and short, so that a
    page's name alone ranks it among the first (uniq(1)'s AUTEUR… third for "uniq me
    laisse des doublons, pourquoi ?"). `ask` leaves such passages out."""
    lines = [line for line in hit.text.split("\n") if line.strip()]
    titles = [n for n, line in enumerate(lines) if _section_title(line)]
    if not titles:
        heading = (hit.heading or "").split(" > ")[-1].strip()
        return bool(heading) and _closing_section(heading, hit.text, question)
    ends = titles[1:] + [len(lines)]
    return titles[0] == 0 and all(
        _closing_section(lines[start], "\n".join(lines[start + 1:end]), question)
        for start, end in zip(titles, ends, strict=True))


def _in_back_matter(own: list[Sentence], question: str) -> list[Sentence]:
    """The units of a passage under a manual page's closing section heading that
    `question` does not ask for, with it."""
    out: list[Sentence] = []
    closing = False
    for n, unit in enumerate(own):
        if unit.role == HEADING:
            body = itertools.takewhile(lambda u: u.role != HEADING, own[n + 1:])
            closing = _closing_section(unit.text, "\n".join(u.text for u in body), question)
        if closing:
            out.append(unit)
    return out


# A statement that announces what follows ("…run:", "…one of several ways:") carries it:
# up to this many more words of the lines that complete it, whatever the budget.
ANNOUNCED_WORDS = 120
# A sentence starting like this leans on the one before it: the quote starts there.
_LEANS = re.compile(r"^(this|that|these|those|it|its|they|such|so|thus|however|therefore|"
                    r"then|also|ce|cela|ceci|ces|cette|il|elle|ils|elles|mais|donc|ainsi|"
                    r"cependant|toutefois|alors|other|others|another|moreover|furthermore|"
                    r"in addition|besides|d'autres|d’autres|de plus|en outre|par ailleurs|"
                    # the other branch of what the sentence before says ("Otherwise it
                    # exits with code 0." after "If ping does not receive any reply
                    # packets at all it will exit with code 1.")
                    r"otherwise|else|sinon|instead|in (?:this|that|either|such a) case|"
                    r"dans (?:ce|les deux|un tel) cas|on the other hand|en revanche|"
                    r"par contre|conversely|à l['’]inverse|au contraire|"
                    # what follows from the sentence before ("Due to that, it suffers…")
                    r"due to (?:this|that)|because of (?:this|that)|for (?:this|that) reason|"
                    r"as a result|à cause de (?:cela|ça)|de ce fait|pour cette raison|"
                    r"par conséquent|c['’]est pourquoi|"
                    # an example of what the sentence before says ("For instance, the chmod
                    # 754 file command…" after "…4 for read, 2 for write, and 1 for execute")
                    r"for (?:instance|example)|par exemple|e\.g\.)\b", re.I)
# A default given without what it is the default of ("The default is 1000." after
# "`Request.max_form_parts` limits the number of parts…"): that is the sentence before
_BARE_DEFAULT = re.compile(r"^(?:the )?default(?: value)? (?:is|was|will be)\b|^defaults to\b|"
                           r"^(?:la )?valeur par d[ée]faut est\b|^(?:le )?d[ée]faut est\b|"
                           r"^(?:by default|par d[ée]faut)\s*,", re.I)  # "Par défaut, /bin/bash…"
# A step that follows the one before it: "then", "ensuite", "puis" among its first words
# ("The user can then use ssh-copy-id…", "On lance ensuite…"); not a condition's "then"
# ("If it fails, then…")
_NEXT_STEP = re.compile(r"^(?!(?:if|when|once|si|quand|lorsque|lorsqu|une fois)\b)"
                        r"(?:[^\s,;:]+\s+){1,5}?(?:then|ensuite|puis)\b", re.I)
# A sentence naming something said before it ("…en dehors de ces horaires", "…such
# files"): what it points to is earlier in its section.
_POINTS_BACK = re.compile(r"\b(?:ces|cette|cet|these|those|such|said|this)\s+"
                          r"(?!as\b|who\b|which\b|that\b|whose\b)\w|"
                          # "…re-written to use one of them", "l'un d'entre eux"
                          r"\b(?:one|either|both|each|any|none|neither)\s+of\s+them\b|"
                          r"\b(?:l['’]une?|chacune?|aucune?)\s+d['’](?:entre\s+)?(?:eux|elles)\b",
                          re.I)


# A sentence naming what was said just before it ("The preceding statement is not true on
# Windows", "As noted above", "Comme indiqué ci-dessus", "…in all of the formats above"),
# even across a note's heading: what it points to is quoted before it. ("above" after a
# noun points back unless a figure or a noun follows it: "the value above 30", "the limit
# above which…")
_POINTS_ABOVE = re.compile(r"\b(?:the|this|that|these|ce|cet|cette|ces|le|la|les|l['’])\s*"
                           r"(?:preceding|previous|above|foregoing|aforementioned|précédente?s?)"
                           r"\b|\b(?:as|comme)\s+(?:\w+\s+)?(?:above|earlier|ci-dessus|plus haut|"
                           r"précédemment)\b|^(?:\W*\w+\W+){0,4}?(?:ci-dessus|susmentionnée?s?)\b|"
                           r"\b(?:the|these|those|all|each|any|either|les|ces|des|aux|chacune?)\s+"
                           r"(?:[^\W\d_]+\s+){1,2}(?:above|ci-dessus)\b(?![ \t]+(?:\d|(?:the|a|an|"
                           r"all|zero|it|that|this|which|what|where|whom|its|their)\b))",
                           re.I)


# A pronoun standing for what was shown before it ("…should include this (or the
# equivalent…).", "…ajoutez cela."): after a code block, the command it stands for
_BARE_POINTER = re.compile(r"\b(?:this|these|the above|ceci|cela|ça|ci-dessus)\s*"
                           r"(?=[.,;:!?()]|$)", re.I)


# "That constraint will prevent…" after the code that defines it: a demonstrative and a
# noun opening the sentence after a code block name what the block shows
_NAMES_SHOWN = re.compile(r"^(?:this|that|these|those|ce|cet|cette|ces)\s+[^\W\d_]{3,}", re.I)


# "When the file exists, …" after "…create a ._pth file…": a subject named again with "the"
_THE_NOUN = re.compile(r"^(?:(?:when|if|once|while|si|quand|lorsque|lorsqu['’]|une fois que)\s+)?"
                       r"(?:the|le|la|les|l['’])\s*([^\W\d_]{4,})\b", re.I)


def _names_again(text: str, before: str) -> bool:
    """`text` opens on "the X" (or "when the X…") and the sentence `before` names X."""
    match = _THE_NOUN.match(text)
    return bool(match and re.search(rf"\b{re.escape(match.group(1))}\b", before, re.I))


def _lean_start(own: list[Sentence], start: int, words: int, lists: bool = True) -> int:
    """Where a quote that should show `own[start]` starts: there, unless it is inside a
    list or after a code block that a statement announces (`_list_start`), or leans on
    what comes before it. One that opens on "It", "However", "D'autres…" goes on
    from the sentence before; one that names something said earlier ("…en dehors de ces
    horaires", "These files…") starts at its section's first sentence when the section up
    to it fits in `words`, else at the sentence before it."""
    sentence = own[start]
    announced = _list_start(own, start) if lists else None
    if announced is not None and any(s is sentence for s in window(own, announced, words)):
        # "…one of two values:" 1. … 2. …: the list with what announces it, and what that
        # leans on ("This option…")
        begin = _lean_start(own, announced, words, lists=False)
        return begin if any(s is sentence for s in window(own, begin, words)) else announced
    if (_BARE_POINTER.search(sentence.text) or _NAMES_SHOWN.match(sentence.text)) \
            and start > 1 and own[start - 1].role == ATTACHED:
        shown = start - 1  # the statement whose code block the pronoun stands for
        while shown > 0 and own[shown].role == ATTACHED:
            shown -= 1
        if own[shown].role == STATEMENT and own[shown].block == sentence.block and \
                any(s is sentence for s in window(own, shown, words)):
            return shown
    if start > 0 and own[start - 1].role == STATEMENT and own[start - 1].block == \
            sentence.block and own[start - 1].text.rstrip().endswith(":") and \
            any(s is sentence for s in window(own, start - 1, words)):
        return start - 1  # what a colon announces, with it ("Sans paramètre « -S », le
        # script échouera probablement avec :" over the error it prints)
    leans = _LEANS.match(sentence.text) or _NEXT_STEP.match(sentence.text) or (
        start > 0 and _names_again(sentence.text, own[start - 1].text)) or \
        _BARE_DEFAULT.match(sentence.text)
    # "…suivez cette procédure :" points ahead, to what its colon announces
    points_back = _POINTS_BACK.search(sentence.text) and not announces(sentence.text)
    if not (leans or points_back) or start == 0 or own[start - 1].role != STATEMENT \
            or own[start - 1].block != sentence.block:
        return start
    first = start - 1
    while first > 0 and own[first - 1].role == STATEMENT and \
            own[first - 1].block == sentence.block and \
            _names_again(own[first].text, own[first - 1].text) and \
            any(s is sentence for s in window(own, first - 1, words)):
        first -= 1  # "The file based on…" goes on from "In the ._pth file…" in its turn
    if points_back:
        while first > 0 and own[first - 1].role == STATEMENT and \
                own[first - 1].block == sentence.block:
            first -= 1
    # what it leans on may lean in its turn ("This is useful to stop…" before "The
    # default is 1000."): from there, when all of it fits
    deeper = _lean_start(own, first, words, lists=False)
    # (else from what the sentence before leans on: "On other error it exits with code
    # 2." before "Otherwise it exits with code 0." before "This makes it possible…")
    before = _lean_start(own, start - 1, words, lists=False) if first < start - 1 \
        else start - 1
    for begin in dict.fromkeys((deeper, first, before, start - 1)):
        if any(s is sentence for s in window(own, begin, words)):
            return begin
    return start  # what it leans on does not fit with it


def _list_start(own: list[Sentence], start: int) -> int | None:
    """Where a quote that would start at `own[start]` starts instead, or None:

    - right after a code block a statement announced ("…ajouter les lignes suivantes :"
      ```…``` "Pour de plus…"): at that statement, the code with it; not when `own[start]`
      announces code of its own (a sibling item: "To install foo, run:" and its command,
      then "To list…, run:");
    - inside a list (a marker such as "1." attached before it, or a manual page's values
      tagged on their lines, "124    si la commande…", not its options: only the list's
      items in between, LIST_BACK units at most): at the statement whose colon announces
      the list."""
    block, marker = own[start].block, False
    if start >= 2 and own[start - 1].role == ATTACHED and _FENCE.match(own[start - 1].text) \
            and own[start - 2].role == STATEMENT and own[start - 2].block == block \
            and announces(own[start - 2].text) and not announces(own[start].text):
        return start - 2
    for i in range(start - 1, max(start - 1 - LIST_BACK, -1), -1):
        if own[i].block != block or own[i].role not in (STATEMENT, ATTACHED) \
                or _FENCE.match(own[i].text):
            return None
        if own[i].role == STATEMENT and announces(own[i].text):
            return i if marker else None
        marker = marker or own[i].role == ATTACHED or own[i].tagged
    return None


# `_list_start`: how many units back the statement announcing a list is looked for
LIST_BACK = 6


def _code_before(question: str, own: list[Sentence], start: int, words: int) -> int:
    """For a question asking how or which: when a code block a statement announces comes
    just before the quote (one or two statements before it, same section) and holds the
    question's own terms (`relayhost = [mail.isp.tld]` for "…hand everything to their
    server mail.isp.tld"), the quote starts at that statement, the code with it, if all
    fits in `words`; else `start`."""
    sentence, i, between = own[start], start - 1, 0
    while i > 0 and own[i].block == sentence.block and own[i].role == STATEMENT:
        if between == CODE_BEFORE_STATEMENTS:
            return start
        between, i = between + 1, i - 1
    if i <= 0 or own[i].role != ATTACHED or own[i].block != sentence.block:
        return start
    last = i
    while i > 0 and own[i].role == ATTACHED:
        i -= 1
    if own[i].role != STATEMENT or own[i].block != sentence.block:
        return start
    code = " ".join(u.text for u in own[i + 1:last + 1])
    asked = {t for lang in tokens.LANGUAGES for t in tokens.tokens(question, lang)}
    shown = {t for lang in tokens.LANGUAGES for t in tokens.tokens(code, lang)}
    if len(asked & shown) < CODE_BEFORE_TERMS or \
            not any(s is sentence for s in window(own, i, words)):
        return start
    return i


# `_code_before`: the statements between the code and the quote at most, and the question's
# terms the code must hold
CODE_BEFORE_STATEMENTS = 2
CODE_BEFORE_TERMS = 2


def _with_antecedent(own: list[Sentence], chosen: list[Sentence], words: int
                     ) -> list[Sentence]:
    """`chosen` with what its first sentence points back to (`_POINTS_ABOVE`) before it:
    the statements just before it, across a note's heading, up to half of `words`; never
    across a term alone on its line (logrotate's "delaycompress" / "Postpone compression
    of the previous log file…" speaks of its own term, not of `compressoptions` above)."""
    if not chosen or not _POINTS_ABOVE.search(chosen[0].text):
        return chosen
    i = chosen[0].index - 1
    while i >= 0 and own[i].role == HEADING:
        if own[i].term:
            return chosen
        i -= 1
    if i < 0 or own[i].role not in QUOTABLE:
        return chosen
    before: list[Sentence] = []
    used = 0
    while i >= 0 and own[i].role in QUOTABLE and (not before or own[i].block == before[0].block):
        n = len(own[i].text.split())
        if before and used + n > words // 2:
            break
        before.insert(0, own[i])
        used += n
        i -= 1
    return before + chosen


def _description_start(own: list[Sentence], sentence: Sentence) -> int | None:
    """Where the description `sentence` belongs to starts, when it describes a term alone
    on its line (`Sentence.term`: a manual page's option), else None."""
    i = sentence.index
    while i > 0 and own[i - 1].role == STATEMENT and own[i - 1].block == sentence.block:
        i -= 1
    labelled = [u for u in own[i:sentence.index + 1] if _LABELLED_ITEM.match(u.text)]
    if labelled and labelled[-1] is not sentence and _DEFAULT_VALUE.match(sentence.text):
        return labelled[-1].index  # "navigation_depth: The maximum depth…" / "Default: 4."
    tagged = [u for u in own[i:sentence.index + 1] if _tags_its_line(u)]
    if tagged:  # an option and its description on one line ("-c     Obtenir l'état…"):
        # the entry starts there (a quote from it ends at the next one); a value's ("124
        # si…", or a PDF note's "13 It is…") is another's
        last = tagged[-1]
        return last.index if last is not sentence and _opens_on_option(last.text) else None
    if not (i > 0 and (own[i - 1].term or _OPTION_LINE.match(own[i - 1].text)
                       or _TERM.match(own[i - 1].text))  # ("work_mem (integer)", DocBook's)
            and own[i - 1].role == HEADING and sentence.role == STATEMENT):
        return None  # (an option line of a reference's list: HTML's "--analyze-in-stages")
    # a paragraph back at the term's margin ("--version" / "afficher…" / "Si la sortie
    # standard…", nohup(1)) is the page's text again, not the term's description
    term = _line_indent(own[i - 1])
    if term is not None and any((_line_indent(u) or term + 1) <= term
                                for u in own[i:sentence.index + 1]):
        return None
    return i


def _line_indent(unit: Sentence) -> int | None:
    """The indentation of the line `unit` starts, when it starts one (None otherwise)."""
    line = _own_line(unit)
    return None if line is None else _indent(line)


def _back_at_margin(tag: Sentence, unit: Sentence) -> bool:
    """`unit` starts a line no further indented than the tagged line `tag` (whose
    description goes on in deeper lines): it is past that description."""
    margin, indent = _line_indent(tag), _line_indent(unit)
    return margin is not None and indent is not None and indent <= margin


def _own_line(unit: Sentence) -> str | None:
    """The line `unit` starts, as the passage writes it, when it starts one (None
    otherwise)."""
    hit = unit.hit
    if unit.start_line is None or hit.start_line is None:
        return None
    lines = hit.text.splitlines()
    at = unit.start_line - hit.start_line
    opening = " ".join(unit.text[:12].split())  # (a tag's gap is one space in the unit)
    if not 0 <= at < len(lines) or not lines[at].strip() or \
            not " ".join(lines[at].split()).startswith(opening):
        return None
    return lines[at]


_STATUS_WORDS = re.compile(r"\b(?:exit|status|code|return(?:s|ed)?|signal|error|errno|"
                           r"erreur|sortie|retour|statut|renvoie|renvoyé)\b", re.I)


def _gives(question: str, value: str) -> bool:
    """The question gives this value (digits) as a value of its own: "exit code 42", not
    "420", "4.2" or "v42"."""
    return bool(re.search(rf"(?<![\w.,]){value}(?![\w]|[.,]\d)", question))


# a list's item that gives a value and what it means ("• 24 - Partial transfer due to
# vanished source files", rsync's exit values), as a tagged line does
_BULLET_MARK = re.compile(r"^[•◦▪‣*]\s+")
_VALUE_ITEM = re.compile(r"^[•◦▪‣*]\s+\d{1,4}\s*(?:[-–—:]\s|\s{2,})\s*\S")


# A name the question writes (no word of either language, not the command of a page read)
# that few of the units read hold: the sentences that hold it are about what is asked
_NAME_WORD = re.compile(r"(?<![\w-])[A-Za-z][\w+]*[A-Za-z\d+](?![\w-])")
RARE_SHARE = 0.25
RARE_NAME_BONUS = 0.03


def _rare_names(question: str, units: list[Sentence]) -> list[re.Pattern[str]]:
    """The names of `question` that at most RARE_SHARE of `units` hold (one at least), as
    patterns of the whole name; not those the passages' titles or headings write."""
    hits = list({id(u.hit): u.hit for u in units}.values())
    pages = set().union(*(command_names(hit) for hit in hits)) if hits else set()
    titles = " ".join(f"{hit.title or ''} {hit.heading or ''}" for hit in hits)
    out = []
    for name in dict.fromkeys(_NAME_WORD.findall(question)):
        if name.lower() in pages or tokens.fold(name) in tokens.STOPWORDS or \
                is_word(name) is not False:
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.I)
        if pattern.search(titles):
            continue  # what the documents are about ("The mypy configuration file")
        held = sum(1 for u in units if pattern.search(u.text))
        if 0 < held <= max(1, int(len(units) * RARE_SHARE)):
            out.append(pattern)
    return out


# what a "how many" question counts ("combien de partitions primaires…": partitions), and
# a figure said of it ("quatre partitions", "6 consoles", "four primary partitions")
_COUNTED = re.compile(r"\b(?:how many|combien (?:de|d['’]))\s*([^\W\d_][\w-]+)", re.I)
_COUNT = re.compile(r"(?<![\w.,])(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|"
                    r"eleven|twelve|twenty|hundred|une?|deux|trois|quatre|cinq|sept|huit|"
                    r"neuf|dix|onze|douze|vingt|cent)\s+(?:[«“\"']\s*)?([^\W\d_][\w-]*)"
                    r"(?:\s+(?:[«“\"']\s*)?([^\W\d_][\w-]*))?", re.I)


# the noun a question asks the value of: "which port does it use?", "quel port…"
_WHICH_NOUN = re.compile(r"\b(?:which|what|quel(?:le)?s?)\s+([^\W\d_][\w-]{2,})", re.I)
# how many words apart a default and its noun are read as one ("the default port number")
DEFAULT_NOUN_GAP = 3
_DEFAULT_STEMS = {"en": frozenset({"default"}), "fr": frozenset({"defaut"})}


def _default_of(question: str, text: str) -> bool:
    """`text` states the default of the noun the question asks about ("The default port
    number is 21" for "…which port does it use?", "le port par défaut"), not another
    default beside it ("the global default timeout")."""
    match = _WHICH_NOUN.search(question)
    if match is None:
        return False
    for lang in tokens.LANGUAGES:
        noun = set(tokens.tokens(match.group(1), lang))
        words = tokens.tokens(text, lang)
        nouns = [i for i, w in enumerate(words) if w in noun]
        marks = [i for i, w in enumerate(words) if w in _DEFAULT_STEMS[lang]]
        if any(abs(i - j) <= DEFAULT_NOUN_GAP for i in nouns for j in marks):
            return True
    return False


# a unit of time, and a figure given in one ("900 (15 minutes)", "30 jours", "5s")
_TIME_UNIT = (r"(?:s|secs?|seconds?|secondes?|ms|milli(?:second|seconde)s?|mins?|minutes?|"
              r"h|hours?|heures?|days?|jours?|weeks?|semaines?|months?|mois|years?|ans|"
              r"ann[ée]es?|time|temps|long|longtemps)")
_TIME_FIGURE = re.compile(rf"\d\s*(?:\(\s*\d+\s*)?{_TIME_UNIT}\b", re.I)
_HOW_MANY = re.compile(r"\b(?:how many|how much|combien (?:de|d['’]))\s*"
                       r"((?:[^\W\d_][\w'’-]*\s*){1,4})", re.I)


# a question asking which version or release ("depuis quelle version de Debian…?"), and
# a release named by its name after "since" ("This is supported since Debian Stretch")
_ASKS_RELEASE = re.compile(r"\b(?:which|what|quelles?)\s+(?:\w+\s+)?(?:versions?|releases?)\b|"
                           r"\bdepuis quand\b|\bsince when\b", re.I)
_SINCE_RELEASE = re.compile(r"\b(?:since|as of|starting with|depuis|à partir de|dès)\s+"
                            r"(?:(?:Debian|Ubuntu|Python|version)\s+)?[A-Z][a-z]{2,}\b")


def _carries(kind: str, question: str, text: str) -> bool:
    """`text` holds what a question of `kind` asks for (`intent.carries`); a version asked
    for is also given by a release's name ("since Debian Stretch")."""
    return carries(kind, text) or (kind in MUST_CARRY and bool(_ASKS_RELEASE.search(question))
                                   and bool(_SINCE_RELEASE.search(text)))


# a range of values asked for ("what range of numbers…", "quelle plage…"), and one given
# ("from -1000 to +1000", "between 1 and 99", "de 0 à 7", "1-65535")
_ASKS_RANGE = re.compile(r"\b(?:ranges?|plages?|intervalle|min(?:imum)? and max(?:imum)?)\b",
                         re.I)
_RANGE_FIGURE = re.compile(r"\b(?:from|between|de|entre)\s+[-+−]?\d[\d.,]*\s+(?:to|and|à|et)\s+"
                           r"[-+−]?\d|(?<![\w.-])[-+−]?\d+\s?(?:–|\.\.|-)\s?[-+−]?\d+(?![\w.-])",
                           re.I)


def _counts_no_time(question: str) -> bool:
    """A "how many" question counts something that is no time ("how many wrong password
    attempts…", not "how many seconds…" nor "combien de temps…")."""
    match = _HOW_MANY.search(question)
    return match is not None and not any(
        re.fullmatch(_TIME_UNIT, word, re.I) for word in match.group(1).split()[:4])


def _counted(question: str) -> str:
    """The noun a "how many" question counts, '' when it names none."""
    match = _COUNTED.search(question)
    return match.group(1).lower() if match else ""


def _counts(noun: str, text: str) -> bool:
    """`text` gives a figure of `noun` ("quatre partitions", "four primary partitions")."""
    stems = {tokens.stem(noun, lang) for lang in tokens.LANGUAGES}
    return any(word and tokens.stem(word.lower(), lang) in stems
               for m in _COUNT.finditer(text) for word in m.groups()
               for lang in tokens.LANGUAGES)


def _tags_value(unit: Sentence) -> bool:
    """The unit describes a value on its line: a tagged line, or a list's item that opens
    on the value."""
    return unit.tagged or bool(_VALUE_ITEM.match(unit.text))


def _tag_asked(question: str, text: str) -> bool:
    """The value a unit describes on its line ("42     Did not find…", an exit status) is
    one the question gives (a single digit only when the question speaks of a status,
    a code or a signal: "exit code 1")."""
    tag = _BULLET_MARK.sub("", text).split(" ", 1)[0]
    if not tag.isdigit() or not _gives(question, tag):
        return False
    return len(tag) > 1 or bool(_STATUS_WORDS.search(question))


# A question asking which status a program gives ("what exit code will debsums give me
# if…", "quel code de sortie renvoie findfs s'il…"): a value of the page's status list
_ASKS_STATUS = re.compile(r"\b(?:exit|return|error)\s+(?:codes?|status(?:es)?|values?)\b|"
                          r"\b(?:exits?|quits?|returns?)\s+(?:with\s+)?(?:what|which)\s+"
                          r"(?:codes?|status|values?)\b|"  # "…exits with what code?"
                          r"\b(?:sort|quitte|termine|renvoie|retourne)\w*\s+(?:avec\s+)?"
                          r"(?:quel|quelle|quels|un|le)\s+(?:codes?|statut)\b|"
                          r"\bcodes?\s+(?:de\s+|d['’])?(?:retour|sortie|erreur)\b|"
                          r"\bvaleurs?\s+(?:de\s+)?retour\b|"
                          r"\b(?:statut|état|etat)s?\s+(?:de\s+)?sortie\b", re.I)


def _states_default(unit: Sentence) -> bool:
    """A statement that gives a default ("The default is -6.", "Par défaut, /bin/bash…")."""
    return unit.role == STATEMENT and bool(_STATES_DEFAULT.search(unit.text))


def _asks_status(question: str) -> bool:
    """The question asks which status a program gives, and does not give the value."""
    return bool(_ASKS_STATUS.search(question)) and not re.search(r"\d", question)


def _status_value(sentence: Sentence, own: list[Sentence]) -> bool:
    """The statement describes a status value of a list: on the value's line ("2
    Changed or missing package files…") or under the value alone on its line ("1" /
    "L'étiquette ou l'UUID sont introuvables.")."""
    if sentence.role != STATEMENT:
        return False
    if sentence.tagged:
        return sentence.text.split(" ", 1)[0].isdigit()
    term = _described_by(sentence, own)
    return term is not None and term.text.strip().isdigit()


# a table's first cell that holds values only: "2, 3, 4", "5", "1 to 3"
_VALUE_KEY = re.compile(r"^\d+(?:\s*(?:[,;/–-]|and|or|et|ou|to|à)\s*\d+)*$", re.I)


def _row_asked(question: str, sentence: Sentence, own: list[Sentence],
               kind: str = OTHER) -> bool:
    """A table's row (below its first) whose first cell holds a value the question gives
    ("2, 3, 4 | multi-user.target" for "…le niveau 3 correspond à quelle cible ?") or a
    name it writes: the row the question looks up."""
    if not is_table_row(sentence.text) or _table_header(own, [sentence]) is None:
        return False
    key = first_cell(sentence.text)
    if not _VALUE_KEY.match(key):  # a cell of values ("2, 3, 4", "5"), not a name that
        # holds one ("DECIMAL(10,5)"); or a name the question writes with a capital
        # ("MSDOS and Windows | CR-LF | ^M^J | 13 10 | 0D 0A" for "…do Windows text files
        # use?")
        # (not for a yes or no: "Does SQLite enforce the length I give in VARCHAR(10)?"
        # looks up no row of type names)
        names = {tokens.fold(n) for n in question_names(question)} if kind != YESNO else set()
        return bool(names) and bool(names & {tokens.fold(w) for w in re.findall(r"\w+", key)})
    return any(_gives(question, value) for value in re.findall(r"\d+", key))


# a list item that opens on the name it describes, a setting's ("navigation_depth: The
# maximum depth of the navigation tree…", MkDocs' theme options)
# a list's item that glosses a name in capitals: "MX (mail exchange): an email server."
_GLOSSED_ITEM = re.compile(r"^[`*]*[A-Z][A-Z\d]{0,9}[`*]*\s*\([^()]{1,60}\)\s*:\s+\S")
_LABELLED_ITEM = re.compile(r"^`?[A-Za-z][A-Za-z\d]*(?:[_.][A-Za-z\d]+)+`?\s?:\s+\S")


def _opens_on_option(text: str) -> bool:
    """The unit opens on an option its line describes ("-c     Obtenir l'état…")."""
    return bool(_OPTION_LINE.match(text.split(" ", 1)[0]))


def _opens_on_tag(text: str) -> bool:
    """The unit opens on an option or a tag its line describes ("-p same as…", "124 si…")."""
    return _opens_on_option(text) or bool(_TAG.match(text.split(" ", 1)[0]))


def _tags_its_line(unit: Sentence) -> bool:
    """The unit opens on an option, or on a tag set apart from what its line says of it
    ("124    si la commande…", "TMPDIR   the folder…"): not on a name in capitals that
    opens a sentence of prose ("APT uses since version 0.7.26…" in a setting's
    description, "…fetch source packages. APT will examine…")."""
    if _opens_on_option(unit.text):
        return True
    if not _opens_on_tag(unit.text):
        return False
    if unit.start_line is None or unit.hit.start_line is None:
        return True  # (where its lines are not known, as its words say)
    line = _own_line(unit)  # None: it does not open its line, no tag does
    return line is not None and bool(_INLINE_TAG.match(line))


def _term_name(text: str) -> str:
    """A term alone on its line as a quote names it: "``urlize.rel``:" is `urlize.rel`."""
    text = text.strip()
    bulleted = _BULLETED_OPTION.match(text)
    if bulleted:  # "○   --slurp/-s:" names `--slurp/-s`
        return bulleted.group(1).strip()
    return text[:-1].strip("`") if _COLON_TERM.match(text) else text


def _term_lead(term: Sentence, index: int, block: int) -> Sentence:
    """A term alone on its line as a quote shows it before its description ("`126` —",
    `_TERM_LEAD`), at `index` and in `block` of the quote it leads."""
    return Sentence(f"`{_term_name(term.text)}` —", term.hit, term.start_line, term.end_line,
                    index=index, block=block, role=ATTACHED)


def _announces_nothing(chosen: list[Sentence], by_hit: dict[str, list[Sentence]]
                       ) -> str | None:
    """The passage (its chunk id) whose only statement the quote is, when that statement
    announces what follows it ("Both the profile and cProfile modules provide the
    following functions:") and nothing follows it there (the entries it announces are
    passages of their own): it answers nothing."""
    said = [u for u in chosen if not u.aside]
    if len(said) != 1 or said[0].role != STATEMENT or not said[0].text.rstrip().endswith(":"):
        return None
    own = by_hit.get(said[0].hit.chunk_id, [])
    alone = [u for u in own if u.role in (STATEMENT, ATTACHED)] == [said[0]]
    return said[0].hit.chunk_id if alone else None


# a term's description quoted from the next passage starts at most this many lines under it
DESCRIPTION_GAP = 12


def _described_leads(chosen: list[Sentence]) -> list[Sentence]:
    """The quote without a term's lead ("`-L, --table` —") that no description follows
    (of its passage, or of the next one right under it): a listed term whose description
    did not fit, quoted alone, reads as an answer cut off ("`-L, --table` — This command
    meets appropriate standards")."""
    def lead(unit: Sentence) -> bool:
        return unit.role == ATTACHED and unit.text.endswith("` —")

    def describes(unit: Sentence, term: Sentence) -> bool:
        """`unit` comes right under the term, in its passage or the next one."""
        if unit.hit.chunk_id == term.hit.chunk_id:
            return True
        below = unit.start_line if unit.start_line is not None else unit.hit.start_line
        above = term.end_line if term.end_line is not None else term.hit.end_line
        return unit.hit.path == term.hit.path and None not in (below, above) and \
            0 < below - above <= DESCRIPTION_GAP

    kept = []
    for i, unit in enumerate(chosen):
        if lead(unit):
            after = next((u for u in chosen[i + 1:] if not lead(u)), None)
            if after is None or not describes(after, unit):
                continue
        kept.append(unit)
    return kept or chosen


def _asked_entries(question: str) -> list[EntryLine]:
    """The entry lines of the options the question names ("-n" for "…without giving
    -n…")."""
    return [entry_line(option) for option in asked_options(question)]


def _of_named_option(entries: list[EntryLine], own: list[Sentence]) -> bool:
    """A passage's units hold the entry of one of these options (`_asked_entries`)."""
    return bool(entries) and any(_is_entry_of(entries, u) for u in own)


def _of_other_option(entries: list[EntryLine], unit: Sentence, own: list[Sentence]) -> bool:
    """`unit` describes an option that is none of these (`-r`'s "how many times to repeat
    the timer (default 5)" for "…without giving -n…")."""
    term = _described_by(unit, own)
    if term is None or not _OPTION_LINE.match(term.text.replace("`", "")):
        return False
    return not _is_entry_of(entries, term)


def _is_entry_of(entries: list[EntryLine], unit: Sentence) -> bool:
    """`unit` is the term line of one of these options' entries, or the line that tags
    the option with its description ("-i     demander une confirmation…", "-p     same as
    --preserve=…"), as the passage writes it."""
    if unit.term:
        line = unit.text.replace("`", "")
    elif unit.role == STATEMENT and (_opens_on_option(unit.text) or unit.tagged) and \
            unit.start_line is not None and unit.hit.start_line is not None:
        lines = unit.hit.text.split("\n")  # the line as written: its gap after the tag
        at = unit.start_line - unit.hit.start_line
        line = lines[at] if 0 <= at < len(lines) else ""
    else:
        return False
    return any(entry.match(line) for entry in entries)


def _each_option(question: str, units: list[Sentence], by_hit: dict[str, list[Sentence]]
                 ) -> list[Sentence]:
    """When the question names two options or more ("quelle est la différence entre rm -i
    et rm -I ?", "-c with -v"), the entry of each among the passages read, in the
    question's order: the option's line and the first statement of its description (a
    tagged line is both). Empty when one of them has no entry there."""
    options = asked_options(question)
    if len(options) < 2:
        return []
    files = set(named_files(question, [u.hit for u in units]))
    out: list[Sentence] = []
    for option in options:
        entry = entry_line(option)
        found = next((u for u in units if u.hit.path in files and _is_entry_of([entry], u)),
                     None)
        if found is None:
            return []
        if not found.term:  # a tagged line: the option and its description
            out.append(found)
            continue
        own = by_hit[found.hit.chunk_id]
        after = own[found.index + 1] if found.index + 1 < len(own) else None
        if after is None or _described_by(after, own) is not found:
            return []
        out += [_term_lead(found, found.index, found.block), after]  # "`-c, --count` — …"
    return out


def _with_term(sentence: Sentence, by_hit: dict[str, list[Sentence]]) -> str:
    """The statement's text after the term it describes, if any ("/etc/passwd" over
    "Correspondance entre les noms d'utilisateur et les identifiants."): what its quote
    says, the term leading it."""
    term = _described_by(sentence, by_hit[sentence.hit.chunk_id])
    return f"{term.text} {sentence.text}" if term is not None else sentence.text


def _described_by(sentence: Sentence, own: list[Sentence]) -> Sentence | None:
    """The term alone on its line (`Sentence.term`) that this statement describes, if any."""
    before = own[sentence.index - 1] if sentence.index > 0 else None
    return before if before is not None and before.term and sentence.role == STATEMENT \
        else None


_TERM_NAME = re.compile(r"^([a-z][\w-]{2,})(?= [A-Z][A-Z\d_]*(?: |$)|$)")


def _names_asked(question: str, term: str) -> bool:
    """The term alone on its line is a function of a command's language named by the
    question's words (`length STRING` for "the length of a string": its capitals are the
    values it takes). (Not an option's name: "merges three versions" names no
    `--merge`.)"""
    match = _TERM_NAME.match(term.replace("`", "").strip())
    return match is not None and _said_in(match.group(1), question)


def _said_in(name: str, question: str) -> bool:
    """Every word of `name` ("length", "identity_file") is one of the question's (by English
    stem, a word's other forms counting)."""
    words = set(tokens.tokens(name.replace("_", " "), "en"))
    return bool(words) and words <= tokens.loosely([words], set(tokens.tokens(question, "en")))


# an acronym ("MX", "SNI", "KRL") and a sentence that glosses it: "MX (mail exchange): an
# email server.", "SNI — Server Name Indication…"
_ACRONYM = re.compile(r"\b[A-Z][A-Z\d]{1,9}\b")


def _gloss(term: str) -> re.Pattern[str] | None:
    """What opens a statement that glosses an acronym of the term a definition question
    asks about: the acronym, then an expansion in brackets and a colon, or a colon or a
    dash ("MX (mail exchange): an email server." for "what's an MX record?"), as a
    glossary's or a list's items do. None when the term holds no acronym."""
    names = _ACRONYM.findall(term)
    if not names:
        return None
    return re.compile(rf"^[`*\"“]*(?:{'|'.join(names)})[`*\"”]*\s*(?:\([^()]{{1,60}}\)\s*)?"
                      r"(?::|\s[-–—])\s+\S")


# an option and the argument it takes, in lower case ("-P port", "-i identity_file")
_TAKES = re.compile(r"^-{1,2}[\w-]+[ =]<?([a-z][a-z_]{2,})>?$")
# what an argument is called whatever the option: it tells which option no more than the
# question's "file" does
_GENERIC_ARGUMENTS = frozenset({"file", "filename", "files", "path", "pathname", "dir",
                                "directory", "name", "string", "str", "value", "number",
                                "num", "arg", "args", "argument", "option", "options"})


def _takes_asked(question: str, term: str) -> bool:
    """The term is an option whose argument the question names ("-P port" for "how do I
    tell scp to use that port?", "-l limit" for "limit the bandwidth"): every word of the
    argument's name is a word of the question, and the name says more than "file"."""
    match = _TAKES.match(term.replace("`", "").strip())
    return match is not None and match.group(1) not in _GENERIC_ARGUMENTS and \
        _said_in(match.group(1), question)


def _in_entry_named(question: str, sentence: Sentence, own: list[Sentence]) -> bool:
    """`sentence` describes a term alone on its line whose compound name the question
    gives part by part ("urlize.rel" for "le rel que urlize met…", "truncate.leeway"): every
    part of two letters or more is one of the question's words; or whose name, no word of
    either language, the question writes ("delaycompress", "copytruncate")."""
    start = _description_start(own, sentence)
    if not start or not own[start - 1].term:
        return False
    name = _term_name(own[start - 1].text).strip("`")
    if _PLAIN_NAME.fullmatch(name):
        return _names_term(question, own[start - 1]) and is_word(name) is False
    parts = [p for p in re.split(r"[.:_/-]+", name) if p]
    if len(parts) < 2 or any(len(p) < 2 for p in parts) or not re.fullmatch(r"[\w.:/-]+", name):
        return False
    asked = {tokens.fold(w) for w in re.findall(r"\w+", question)}
    return all(tokens.fold(p) in asked for p in parts)


SHORT_SENTENCE = 8
# a sentence that opens on the name it speaks of ("Cache-Grow defines in bytes with the
# default of 1048576…" in the entry of three settings), not on its entry's
_OWN_SUBJECT = re.compile(r"^[`*]*(?:--?[A-Za-z]|[A-Za-z_]\w*[-_.:]+\w)")


def _read(sentence: Sentence, own: list[Sentence]) -> str:
    """What a unit says, as scored: its text, and for a sentence that goes on in a code
    block ("…set a package to hold using" `apt-mark hold foo` "and remove the hold with"
    `apt-mark unhold foo`) the code and words that complete it; for what an option alone on
    its line does ("utiliser le PRÉFIXE au lieu de « xx »"), that term with it; for a
    table's row, its table's first row (the columns' names) with it."""
    term = _described_by(sentence, own)
    if term is not None:
        return f"{term.text} {sentence.text}"
    start = _description_start(own, sentence) if sentence.role == STATEMENT and (
        len(sentence.text.split()) <= SHORT_SENTENCE or _STATES_DEFAULT.search(sentence.text)
        and not _OWN_SUBJECT.match(sentence.text)) else None
    if start is not None and start < sentence.index:  # a short sentence further into an
        # option's description says little alone ("The default is 6." under
        # `MaxAuthTries`), and a default, however long, is its option's ("Measured in
        # seconds, the default is RES_TIMEOUT (currently 5…)" under `timeout:n`, not
        # `attempts:n`): with what opens the description
        lead = own[start - 1].text + " " if start > 0 and own[start - 1].term else ""
        return f"{lead}{own[start].text} {sentence.text}"
    if start is None and sentence.index > 0 and _STATES_DEFAULT.search(sentence.text) and \
            sentence.role == STATEMENT and len(sentence.text.split()) <= SHORT_SENTENCE:
        before = own[sentence.index - 1]  # "Par défaut, /bin/bash est utilisé." says the
        # default of what the sentence before it names ("DSHELL Interpréteur de connexion…")
        if before.role == STATEMENT and before.block == sentence.block:
            return f"{before.text} {sentence.text}"
    header = _table_header(own, [sentence])
    if header is not None:  # a row means what its columns say: "2, 3, 4 | multi-user.target"
        return f"{header.text} {sentence.text}"  # under "Niveau d'exécution | Cible"
    if not sentence.runs_on:
        return sentence.text
    parts = [sentence.text]
    for unit in own[sentence.index + 1:]:
        if unit.role != ATTACHED:
            break
        parts.append(unit.text.strip("`~\n"))
    return " ".join(" ".join(parts).split())


def _goes_on(sentence: Sentence) -> bool:
    """The unit says that what follows completes it: a colon, "the following", or a
    sentence that goes on in a code block."""
    return sentence.runs_on or announces(sentence.text)


# a line this short, alone in its unit, after a colon: an item of the list it announces
LISTED_LINE_WORDS = 30


def _whole_lines(hit: Hit) -> frozenset[str]:
    """The lines of a passage, stripped: a unit that is one of them is alone on its line
    (an HTML list's item is one)."""
    return frozenset(line.strip() for line in hit.text.splitlines())


# a table's caption as its own line: "Table 4.4.", "Tableau 2.1."
_TABLE_CAPTION = re.compile(r"^(?:Table|Tableau)\s+\d+(?:\.\d+)*\.?(?:\s|$)")


def window(sentences: list[Sentence], start: int, words: int, *,
           paragraphs: bool = False) -> list[Sentence]:
    """Contiguous quotable units from `start` while they fit in `words` (the first always),
    never across a heading, a question or another unquoted line, nor into another
    paragraph unless `paragraphs` (a section whose heading names what is asked, quoted
    from its start: "This construct allows both…" / "The format… is: &>word"); a
    statement that ends with a colon brings what it announces (the unit after it and the
    lines that complete it, up to ANNOUNCED_WORDS more), and a quote never ends on such a
    colon; it stops at a reference's change or audit note ("Changed in version 3.6: …")."""
    out: list[Sentence] = []
    used, extra = 0, 0
    listing = False  # the colon's list is terms and their descriptions (a manual page's)
    lines = False  # the colon's list is short lines, one unit each (an HTML list's items)
    whole: dict[str, frozenset[str]] = {}  # each passage's lines, read once per call
    tabled = False  # the quote goes on into the table right under it
    for sentence in sentences[start:]:
        if out and not tabled and sentence.role == HEADING and \
                _TABLE_CAPTION.match(sentence.text) and sentence.index == out[-1].index + 1 \
                and out[-1].role == STATEMENT:
            tabled = True  # "There are independent tools to generate encrypted passwords
            continue  # with salt." over "Table 4.4." and its rows: what the table lists
        if tabled:  # (a row may open on a path: "/var/log/dpkg.log | Log of dpkg…")
            if sentence.role != STATEMENT or " | " not in sentence.text:
                break
            n = len(sentence.text.split())
            if extra + n > ANNOUNCED_WORDS:
                break
            extra += n
            out.append(sentence)
            continue
        if out and sentence.term and (listing or _goes_on(out[-1])):
            if not sentence.text.strip():
                continue
            n = len(sentence.text.split())
            if extra + n > ANNOUNCED_WORDS:
                break
            extra, listing = extra + n, True
            out.append(_term_lead(sentence, sentence.index, out[0].block))
            continue
        if listing and sentence.role == STATEMENT:  # a listed term's description
            n = len(sentence.text.split())
            if extra + n > ANNOUNCED_WORDS:
                break
            extra += n
            out.append(sentence)
            continue
        if sentence.role not in QUOTABLE or (out and sentence.block != out[0].block
                                                 and not paragraphs):
            break
        if out and (_opens_on_option(out[0].text) and _opens_on_option(sentence.text)
                    or _LABELLED_ITEM.match(out[0].text) and _LABELLED_ITEM.match(sentence.text)
                    or _GLOSSED_ITEM.match(out[0].text) and _GLOSSED_ITEM.match(sentence.text)):
            break  # "-c     Obtenir…" quoted up to "-v     Afficher…", the next option's
        if out and out[0].tagged and not sentence.tagged and _back_at_margin(out[0], sentence):
            break  # "%q     PARAMÈTRE est affiché…" then, at its tag's margin, the page's
            # text again ("et toutes les spécifications de format C…")
        if out and _entry_note(sentence.text):
            break  # "Changed in version 3.6: …": a reference entry's history, not its answer
        if out and _COLOPHON.search(sentence.text):
            break  # "GNU sed home page: <…>", "Copyright © 2022…": the page's colophon
        n = len(sentence.text.split())
        own_line = False
        if n <= LISTED_LINE_WORDS:
            if sentence.hit.chunk_id not in whole:
                whole[sentence.hit.chunk_id] = _whole_lines(sentence.hit)
            own_line = sentence.text.strip() in whole[sentence.hit.chunk_id]
        lines = own_line and (lines or bool(out and _goes_on(out[-1])))
        if sentence.role == ATTACHED or (out and _goes_on(out[-1])) or lines:
            if extra + n > ANNOUNCED_WORDS:
                clipped = _clipped_code(sentence, ANNOUNCED_WORDS - extra) \
                    if out and _goes_on(out[-1]) else None
                if clipped is not None:  # the example's first lines (its command), not
                    out.append(clipped)  # the announcing sentence left hanging
                break
            extra += n
        else:
            if out and used + n > words:
                break
            used += n
        out.append(sentence)
    while len(out) > 1 and _goes_on(out[-1]):
        out.pop()  # "…as follows:" with what follows cut off says nothing
    return out


def _clipped_code(unit: Sentence, words: int) -> Sentence | None:
    """A code block too long to quote whole, as its first lines within `words` (at least
    its first line, where the command an example runs is): None for anything else."""
    lines = unit.text.split("\n")
    if len(lines) < 3 or not _FENCE.match(lines[0]) or not _FENCE.match(lines[-1]):
        return None
    kept, used = [], 0
    for line in lines[1:-1]:
        used += len(line.split())
        if kept and used > words:
            break
        kept.append(line)
    end = unit.end_line if unit.start_line is None else min(
        unit.end_line or unit.start_line, unit.start_line + len(kept) + 1)
    return dataclasses.replace(unit, text="\n".join([lines[0], *kept, lines[-1]]), end_line=end)


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
        runs: list[list[Sentence]] = []
        for sentence in group:  # statements the quote skips over: an ellipsis
            if runs and not sentence.elided:
                runs[-1].append(sentence)
            else:
                runs.append([sentence])
        quote = " … ".join(_joined([_guard(s.text) for s in run]).rstrip(" ")
                           for run in runs)
        quote += f"{'' if quote.endswith(chr(10)) else ' '}[{label}]"
        if parts and first.hit.path != parts_from[-1] and first.hit.kind != "code":
            quote = "\n\n" + quote  # another document's quote: a paragraph of its own
        elif parts and _FENCE.match(quote):
            quote = "\n" + quote  # a code block the quote before announces: on its line
        parts.append(quote)
        parts_from.append(first.hit.path)
        group.clear()

    parts_from: list[str] = []

    for sentence in chosen:
        if group and (sentence.hit.page != group[-1].hit.page
                      or sentence.hit.chunk_id != group[-1].hit.chunk_id
                      or sentence.hit.kind == "code"):
            flush()
        group.append(sentence)
    flush()
    return " ".join(parts).replace(" \n\n", "\n\n").replace(" \n```", "\n```")


def _joined(texts: list[str]) -> str:
    """Quoted units one after the other; a table's rows kept apart (" ; "), so that one
    row's last cell does not read as the next row's first, and so is a unit that ends
    without a full stop from the next option's or tag's ("…pas le changement de ligne ;
    --help…", "…n'est pas spécifiée ; 125 si…") or listed term's ("…the requested
    command ; `126` — …")."""
    out = ""
    for i, piece in enumerate(texts):
        if _FENCE.match(piece):  # a code block: on lines of its own
            if out.endswith("\n```\n") and piece.startswith("```\n"):
                out = out[:-len("```\n")] + piece[len("```\n"):] + "\n"  # one block
            else:
                out = out.rstrip() + ("\n" if out else "") + piece + "\n"
            continue
        if i and not out.endswith("\n") and i + 1 < len(texts) \
                and _FENCE.match(texts[i + 1]) and len(piece.split()) <= 2 \
                and not _END.search(piece):
            out += "\n"  # a label over its code block ("MacOS"): a line of its own
        elif i and not out.endswith("\n"):
            apart = is_table_row(texts[i - 1]) or (
                not _END.search(texts[i - 1]) and not _TERM_LEAD.match(texts[i - 1])
                and (_opens_on_tag(piece) or _TERM_LEAD.match(piece)))
            out += " ; " if apart else " "
        out += piece
    return out


# a listed term as the quote shows it before its description ("`126` —", `window`)
_TERM_LEAD = re.compile(r"^`[^`]+` —$")
_BRACKETED = re.compile(r"\S*\[[^\]\n]*\]\S*")


# A Markdown link in the quoted text: "[`resolve.conf`](https://…)", "[`process.exit()`][]",
# "[Readable][]" (its label, then its target or reference); not a regular expression's
# class and group ("…[.](?!bat$|exe$)[^.]*$": a target never opens on "?")
_MD_LINK = re.compile(r"\[((?:[^\[\]\n`]|`[^`\n]*`)+)\](?:\((?!\?)[^()\s]*\)|\[[^\[\]\n]*\])")


def _guard(text: str) -> str:
    """Quoted text as a reader sees it and never read as a citation: a Markdown link by
    its label ("[`resolve.conf`](https://…)" is `resolve.conf`: its brackets read as a
    citation of a file); square brackets that could read as one ("a_tuple[0]", "[6]")
    inside code spans; text already in backticks and code blocks left as they are."""
    if _FENCE.match(text):
        return text
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    # a code span opens and closes on a run of backticks ("``[html]``" in
    # reStructuredText is one span, not two empty ones around "[html]")
    pieces = re.split(r"(`+)", text)
    for i in range(0, len(pieces), 4):  # outside code spans: text, run, span, run, text…
        pieces[i] = _BRACKETED.sub(lambda m: f"`{m.group(0)}`", pieces[i])
    return "".join(pieces)


# The first-ranked passage answers unless another one's best sentence scores this much
# more: retrieval ranked the passages on everything they hold, a sentence score sees less.
PREFER_FIRST = 0.06
# ... and when, without bonuses, that sentence is about as close as the first passage's
# best (within CLOSE_MARGIN)
CLOSE_MARGIN = 0.02
# ... and only a passage retrieval put among the first RIVAL_PASSAGES: further down, a
# sentence that shares the question's words (python-dotenv's `dotenv_values` for "switch
# load_dotenv() off", fourth) outbids the passage that answers more often than it answers
# (measured: docs/answers.md, twenty-eighth session)
RIVAL_PASSAGES = 3
# ... which retrieval scored at least this share of the first's score: one it put far
# below (the Regex HOWTO's LOCALE at 0.72 of IGNORECASE, for "not care about upper or lower
# case") wins on a sentence sharing the question's words more often than it answers
# (measured: docs/answers.md, thirtieth session)
RIVAL_SCORE = 0.8
# ... unless its sentence is closer in meaning, shares as many of the question's words and
# scores this much more in all: it says what the first passage only touches (measured:
# docs/answers.md, thirty-eighth session; the Regex HOWTO's LOCALE led IGNORECASE by 0.07)
DOMINANT_MARGIN = 0.09
# ... in the passage ranked right after the first (third, systemd-analyze's example caption
# "Show which units took the most time during boot" outbid `time`'s description)
DOMINANT_PASSAGES = 2
# ... or among the first RIVAL_PASSAGES, when it scores this much more and shares this much
# more of the question's words
FAR_DOMINANT_MARGIN = 0.15
FAR_LEXICAL_LEAD = 0.3
# ... but when another section's best statement scores within SECOND_MARGIN of the quote's
# best (or above it), it is quoted too, after the first, in at most SECOND_WORDS words
SECOND_MARGIN = 0.03
SECOND_WORDS = 30
# ... and, in the question's language, more than this share of the question's terms
SECOND_OVERLAP = 0.3
# The first passage in the question's language answers when one is among the first
# LANG_WINDOW passages (both editions of a manual indexed); further down, it is another
# subject, and the first-ranked passage in another language answers
LANG_WINDOW = 3
# Sentences carrying what the question's kind asks for (a command, a "because", a figure,
# a path) score this much more; a definition's first statement of its section too.
KIND_BONUS = 0.06
# ... and those giving the figure, sum or date that a question of a kind that must carry one
# asks for ("how many…", "combien…"), this much more: a sentence without it cannot answer
FIGURE_BONUS = 0.2
# A question asking which file or folder: the path is what answers
_ASKS_FILE = re.compile(r"\b(?:which|what) (?:config(?:uration)? )?(?:files?|directory|folder|"
                        r"path)\b|\b(?:quel(?:le)?s?|dans quel(?:le)?s?) (?:fichiers?|"
                        r"répertoires?|dossiers?|chemin)\b", re.I)
# A question that counts: only a figure answers it, even when it asks for a default
_COUNTS = re.compile(r"\bhow (?:many|much)\b|\bcombien\b", re.I)
# ... and when the passages read first give none, how far down a passage may give it (one
# further down in the first passage's own document: renice(1)'s "-20 à 19" third)
FIGURE_PASSAGES = 2
# A sentence defines the term a definition question asks about when one of its first this
# many words is a word of that term (`_opens_on`; `_names_first` reads three)
OPENING_WORDS = 6
# A passage in the other language that holds the question's subject is read first when its
# closest statement is within this of the first passage's (`_subject_first`): e5 places
# sentences of the question's language a little closer than those of the other.
SUBJECT_COSINE = 0.02
LEAD_BONUS = 0.04
# A term alone on its line (a function of a command's language) whose own name is made of
# the question's words, and its description, score this much more: among near entries of
# one list, the one named so is what is asked (`_names_asked`)
TERM_NAME_BONUS = 0.03
# A heading this close to the question in meaning names what is asked (e5 cosines of a
# question and an unrelated heading of the same manual sit around 0.80-0.85)
HEADING_COSINE = 0.88
# ... and it takes the answer from the first-ranked passage (of another section) when it is
# at SWITCH_COSINE or more and this much closer than that passage's own heading
TITLE_MARGIN = 0.03
SWITCH_COSINE = 0.90
# A question heading (a FAQ entry's) this close asks what the user asks in other words:
# its whole answer, from the start, is quoted
ASKED_COSINE = 0.92


# a question asking why and what to do about it
_WHY_AND_HOW = re.compile(r"\b(?:why|pourquoi)\b.{0,80}?\b(?:and|et)\s+(?:what|how|which|"
                          r"comment|quelle?s?|que|qu['’])\b", re.I)
# how `_choose` says it kept the first passage it could quote
_FIRST_PASSAGE = re.compile(r"^the first(?:-ranked passage| passage with a statement "
                            r"\(ranked \d+\))")


class ExtractiveAnswerer:
    """Scores the units of the first passages by the question's terms they hold, by meaning
    (with an embedder) and by whether they carry what the question's kind asks for (a
    command for "how do I", a reason for "why"); keeps the first-ranked passage unless
    another clearly answers better; quotes from the best statement (from the body after a
    question or heading that matches, from its section's start when the passage's heading
    names what is asked) about `words` words, with the lines a colon announces. When the
    best is a code definition, quotes up to `max_definitions` definitions scoring within
    `keep_ratio` of it."""

    name = "extractive"

    def __init__(self, embedder=None, passages: int = ASK_K, words: int = 80,
                 max_definitions: int = 3, keep_ratio: float = 0.9):
        self.embedder = embedder
        self.passages = passages
        self.words = words
        self.max_definitions = max_definitions
        self.keep_ratio = keep_ratio

    def answer(self, question: str, hits: Sequence[Hit], subject: dict | None = None
               ) -> tuple[str, list[Sentence], dict]:
        """The quote that answers `question` from `hits`, its sentences and why. `subject`:
        the judgment's passages in the other language that may hold the question's
        subject when the first does not (`answerability.read_first`): the first of them
        about as close in meaning is read first (`_subject_first`)."""
        started = time.perf_counter()
        hits = [h for h in hits if getattr(h, "role", "body") != NAVIGATION][: self.passages]
        # a textbook's exercises ask the reader to practise: read after the passages
        # that say how (stable: each group keeps its order)
        hits.sort(key=lambda h: bool(_EXERCISES.match((h.heading or "").split(" > ")[-1])))
        skip = furniture(hits)
        by_hit = {h.chunk_id: split_sentences(h, skip) for h in hits}
        _announced_next(hits, by_hit, skip)
        units = [s for h in hits for s in by_hit[h.chunk_id]
                 if s.role in (STATEMENT, QUESTION, HEADING)]
        kind = question_kind(question)
        if not any(s.role == STATEMENT for s in units):
            return "", [], {"latency_s": time.perf_counter() - started, "sentences": [],
                            "kind": kind}
        self._score(question, kind, units, by_hit)
        hits, moved = _subject_first(hits, units, subject)
        page = _page_defined(question, kind, hits, by_hit)
        if page:  # "à quoi sert shuf ?": the page's NAME line and its description's start
            chosen, choice = page, {"passage": page[0].label, "rank": page[0].hit.rank,
                                    "why": "the question asks what the command its manual "
                                           "page names is: the page's NAME line and the "
                                           "first sentence of its description"}
        else:
            chosen, choice = self._choose(question, kind, hits, by_hit, units)
            empty = _announces_nothing(chosen, by_hit)
            if empty is not None:  # "Both … provide the following functions:" and no more
                rest = [h for h in hits if h.chunk_id != empty]
                others = [u for u in units if u.hit.chunk_id != empty]
                if any(u.role == STATEMENT for u in others):
                    chosen, choice = self._choose(question, kind, rest, by_hit, others)
                    choice["why"] = (f"{choice['why']}; the passage ranked first only "
                                     "announces what other passages hold")
        if moved is not None:  # "the first-ranked passage" is now the one moved first
            rest = _FIRST_PASSAGE.sub("", choice["why"]).lstrip("; ")
            choice["why"] = f"{moved}; {rest}" if rest else moved
        # (a file or folder asked for: "which file gets modified when…", "dans quel
        # fichier…": looked for as a figure is, never refused for want of one)
        carried = kind in MUST_CARRY or (kind == PLACE and bool(_ASKS_FILE.search(question)))
        # (a default asked for is said in words as often as in figures: "…quelle taille
        # aura le système de fichiers ?" and "…la taille par défaut est la taille de la
        # partition"; not when it counts, "how many threads… by default?": a figure)
        asks_default = bool(_ASKS_DEFAULT.search(question)) and not _COUNTS.search(question)

        def gives(text: str) -> bool:  # what is asked for: the figure, or the default
            return _carries(kind, question, text) or (
                asks_default and bool(_STATES_DEFAULT.search(text)))

        def states(unit: Sentence) -> bool:  # the default asked for, with the subject
            return asks_default and unit.parts["lexical"] > 0 and \
                bool(_STATES_DEFAULT.search(unit.text))

        if carried and not any(_carries(kind, question, s.text) for s in chosen
                                if not s.aside):
            # the passages read first give no figure: the best-scoring sentence that does,
            # in the question's language among the first FIGURE_PASSAGES, when it scores
            # within PREFER_FIRST of the best ("…ça coûte combien en performances ?": "Le
            # serveur est environ 20 % plus lent au démarrage…", ranked second)
            def near(u: Sentence) -> bool:  # among the passages a figure is taken from
                return (u.hit.rank or 1) <= FIGURE_PASSAGES + (u.hit.path == hits[0].path)

            best = max((u for u in units if near(u)), key=lambda s: s.score, default=None) \
                or max(units, key=lambda s: s.score)
            asked = question_language(question)
            # (in the question's language, when a passage is and the first-ranked one is:
            # else any, a French question over English pages, or over a French manual
            # whose untranslated paragraphs ranked first)
            spoken = ({asked} & {_language(h) for h in hits} if _language(hits[0]) == asked
                      else set()) or {_language(h) for h in hits}
            # (beside the entry of an option the question names, not another option's
            # figure: "…without giving -n, how many loops…?" and `-r`'s "(default 5)")
            entries = _asked_entries(question)
            named = _of_named_option(entries, by_hit[hits[0].chunk_id])
            figure = max((u for u in units if u.role == STATEMENT and u.parts["kind"] > 0
                          and gives(_with_term(u, by_hit))
                          and not (named and _of_other_option(entries, u,
                                                              by_hit[u.hit.chunk_id]))
                          and near(u) and _language(u.hit) in spoken),
                         key=lambda s: (states(s), s.score), default=None)
            # (or in the passage of that best sentence: "To add the key…, put it in a *.gpg
            # file… This is supported since Debian Stretch."; or the default asked for,
            # stated, over a figure that is no default: "la taille par défaut est la
            # taille de la partition", not "…une taille de bloc de 1 ko ou 2 ko")
            if figure is not None and (figure.score >= best.score - PREFER_FIRST
                                       or figure.hit is best.hit or states(figure)):
                again, why = self._choose(question, kind, [figure.hit], by_hit,
                                          [u for u in units if u.hit is figure.hit])
                if any(gives(s.text) for s in again if not s.aside):
                    chosen = again
                    choice = {**why, "why": f"the passages read first give no {_ASKED[kind]}"
                                            f"; passage ranked {figure.hit.rank} does"}
        each = _each_option(question, units, by_hit)
        if each and not all(any(u is c for c in chosen) for u in each):
            chosen = each  # "la différence entre rm -i et rm -I ?": the two entries
            choice = {**choice, "why": f"the question names {len(asked_options(question))} "
                                      "options: their entries, in its order"}
        # the number or date asked for is in the answer, not only in the second quote
        if kind in MUST_CARRY and not any(gives(s.text) for s in chosen if not s.aside):
            return "", [], {"latency_s": time.perf_counter() - started, "sentences": [],
                            "kind": kind, "choice": choice,
                            "refusal": f"the question asks for a {_ASKED[kind]} and the "
                                       f"passages quoted give none"}
        # the best-scoring units, and the quoted ones wherever they rank: the passage
        # ranked first may be kept over better-scoring sentences, and --explain shows why
        ranked = sorted(units, key=lambda s: -s.score)
        shown = ranked[:8] + [s for s in ranked[8:] if any(s is c for c in chosen)]
        scores = [{"text": s.text[:120], "label": s.label, "role": s.role,
                   "score": round(s.score, 3), **s.parts,
                   "quoted": any(s is c for c in chosen)}
                  for s in shown]
        chosen = _described_leads(chosen)
        return cite(chosen), chosen, {"latency_s": time.perf_counter() - started,
                                      "sentences_scored": len(units), "kind": kind,
                                      "choice": choice, "sentences": scores}

    def _score(self, question: str, kind: str, units: list[Sentence],
               by_hit: dict[str, list[Sentence]]) -> None:
        cosines = np.zeros(len(units), dtype=np.float32)
        read = [_read(s, by_hit[s.hit.chunk_id]) for s in units]
        if self.embedder is not None:
            query = query_vector(self.embedder, question)
            cosines = memo.SENTENCES.vectors(self.embedder, read,
                                             self.embedder.embed_passages) @ query
        # the term a definition question asks about, when a statement opens on it
        term = defined_term(question) if kind == DEFINITION else ""
        if term and not any(_opens_on(term, u.text) for u in units if u.role == STATEMENT):
            term = ""  # "La plante est…" for "qu'est-ce que la coriandre": it says it
        # with a scene set before what is asked ("On my machine… I only use sudo. How can I
        # make it use sudo instead?"), the words asked weigh as much as the whole question,
        # when they name something ("…Comment faire ?" leaves it to the scene)
        gloss = _gloss(term) if term else None  # (read once, matched against each unit)
        asked = scene_asked = asked_after_scene(question)
        if asked and not content_words(_without_page_names(THINGS.sub(" ", asked), units)):
            asked = ""  # ("…: quelle option ?", "Which logrotate directive should I use?"
            # ask for a name of a page read, their subject is before)
        defaults = bool(_ASKS_DEFAULT.search(question))
        options_asked = kind == NAME and bool(_ASKS_OPTION.search(question))
        # the options the question names ("what does grep -v do?"): their entries answer;
        # not one a "how do I…" writes only in the scene before it, which the user tried
        # ("…and sftp -p 2222 doesn't work. How do I give sftp the port?": `-P port`)
        entries = _asked_entries(question)
        if kind == PROCEDURE and entries and scene_asked:
            entries = [e for e in entries if e.option in asked_part(question)]
        entry_files = set(named_files(question, [u.hit for u in units])) if entries else set()
        # an option the question writes that no passage read has an entry of: the prose
        # that writes it says what it does ("…the -y option (or --assume-yes) tells APT…")
        written = _written_options(question, units)
        # asked what a command of a page's command does ("what does systemctl isolate
        # do?"): that command's entry (`isolate UNIT`)
        passages = list({id(u.hit): u.hit for u in units}.values())
        commands = [subcommand_line(word) for word in asked_subcommands(question, passages)
                    ] if kind == DEFINITION else []
        literals = quoted_literals(question)  # what the user quotes, as written
        requirement = bool(_ASKS_REQUIREMENT.search(question))
        # which status a program gives, when the question does not give the value itself
        status_asked = _asks_status(question)
        back_matter = {id(u) for own in by_hit.values() for u in _in_back_matter(own, question)}
        rare = _rare_names(question, units)
        counted = _counted(question) if kind == NUMBER else ""
        counts_no_time = kind == NUMBER and _counts_no_time(question)
        still_asked = bool(_ASKS_STILL.search(question))
        range_asked = kind == NUMBER and bool(_ASKS_RANGE.search(question))
        asked_stems = _question_stems(question)
        turning_off = bool(_TURNS_OFF.search(question))
        # the passages with an option the question names in words (`_worded`)
        worded = {chunk for chunk, own in by_hit.items()
                  if any(_worded(u.text, asked_stems) for u in _option_terms(own))}
        spoken = question_language(question)
        # a manual page the question names by its command and one of its options or
        # commands: their entries speak of that command without writing its name ("-v,
        # --invert-match  Invert the sense of matching" in grep(1)), where its prose does
        # ("When the -v … option is also used, grep stops…"): the name counts as said there
        pages = _page_names(question, passages) if entries or commands else {}
        for sentence, text, cosine in zip(units, read, cosines, strict=True):
            own = by_hit[sentence.hit.chunk_id]
            named_page = pages.get(sentence.hit.path, "") if (
                sentence.term or sentence.tagged or _opens_on_option(sentence.text)
                or _described_by(sentence, own) is not None) else ""
            scored = f"{text} {named_page}" if named_page else text
            if self.embedder is not None and _language(sentence.hit) != spoken:
                overlap = translated_overlap(question, spoken, scored)
            else:
                overlap = term_overlap(question, scored)
                if asked:
                    overlap = (overlap + term_overlap(asked, scored)) / 2
            following = _following(own, sentence)
            bonus = 0.0
            # "…looks like this:" with what it shows in the next passage: its colon
            # carries nothing here
            said = sentence.text.rstrip(" :") if _cut_off(sentence, following) else sentence.text
            if _described_by(sentence, own) is not None:
                said = text  # with the option or command it describes
            # a definition of another term ("Le système des quotas permet…" for "c'est quoi
            # une limite soft") is no definition of the one asked about, when another
            # sentence opens on that one ("Une limite soft peut être franchie…")
            defines = not term or _opens_on(term, sentence.text)
            if kind == NAME and not _ASKS_HELP.search(question):
                said = _HELP_MENTION.sub(" ", said)  # "cryptsetup --help shows the
                # compiled-in defaults" names no option the question asks about
            if options_asked:
                said = _name_of_page(sentence.hit.path).sub(" ", said)  # "vnStat is a…" names
                # the page's command, not the option "quelle option de vnstat…" asks for
            # a sentence that announces what follows carries the figures it announces
            # ("La relation entre MSS et MTU est la suivante :" over "MSS = MTU - 40 pour
            # IPv4"), which its quote shows with it
            announced = _announced(sentence, own) if kind in MUST_CARRY else ""
            figures = f"{said} {announced}" if announced else said
            if sentence.role == STATEMENT and _carries(kind, question, figures) \
                    and defines and not (
                    counts_no_time and _TIME_FIGURE.search(figures)
                    and not (counted and _counts(counted, figures))):
                bonus += FIGURE_BONUS if kind in MUST_CARRY else KIND_BONUS
                # (a duration, "The default is 900 (15 minutes)", is no count of the
                # attempts a "how many" question asks about; "10000 messages in 30s" counts
                # the messages asked about)
            elif kind == NAME and sentence.role == STATEMENT and \
                    _description_start(own, sentence) is not None:
                bonus += KIND_BONUS / 2  # further into an option's description, which its
                # quote shows it with ("The default is a value of 0 seconds…" under
                # `--timeout`), less than the sentence that says what it does
            if kind == PROCEDURE and following is not None and following.role == ATTACHED \
                    and (announces(sentence.text) or sentence.runs_on
                         or _page_command(sentence.hit, following.text.strip("`"))) \
                    and not _LONE_NAME.match(following.text.strip("`")):
                bonus += KIND_BONUS  # "…run:" and the command: what "how do I" asks (a
                # file name under the colon is what a step leaves, not a step)
            named = sentence if sentence.term else _described_by(sentence, own)
            option_named = sentence.hit.path in entry_files and _is_entry_of(
                entries, named if named is not None else sentence)
            if commands and named is not None and named.term and any(
                    c.match(named.text.replace("`", "")) for c in commands):
                bonus += FIGURE_BONUS  # `isolate UNIT` and what it does for "what does
                # systemctl isolate do?", not `emergency`, "equivalent to systemctl isolate…"
            if option_named:
                bonus += FIGURE_BONUS  # "-v, --invert-match" and what it does for "what
                # does grep -v do?", not the `-c` entry that mentions `-v`
            if turning_off and named is not None and named.term and \
                    _turns_off(named.text, asked_stems):
                bonus += KIND_BONUS  # `--no-sign` for "comment désactiver toute
                # signature ?", not `--sign-key`, whose description says "signature" too
            if named is not None and not _HELP_OPTION.match(named.text) and \
                    _names_asked(question, named.text):
                bonus += TERM_NAME_BONUS  # `length STRING` for "the length of a string",
                # not `substr STRING POS LENGTH`, whose argument is named so
            elif named is not None and named.term and _takes_asked(question, named.text):
                bonus += KIND_BONUS  # `-P port` for "how do I tell scp to use that port?",
                # not `-R`, whose description says "copies" and "remote hosts"
            if sentence.role == STATEMENT and sentence.hit.chunk_id in worded and \
                    _in_worded_option(asked_stems, sentence, own):
                bonus += KIND_BONUS  # "No action; perform a simulation…" under `--dry-run`
                # for "how can I do a dry run…?", not `--only-upgrade`'s beside it
            if sentence.role == STATEMENT and _in_entry_named(question, sentence, own):
                bonus += KIND_BONUS  # "The default is `noopener`." under ``urlize.rel``
                # for "le rel que urlize met par défaut", not ``urlize.target``'s
            if status_asked and _status_value(sentence, own):
                bonus += FIGURE_BONUS  # "2  Changed or missing package files…" for "what
                # exit code… if some installed package files were modified?"
            if sentence.role == STATEMENT and _row_asked(question, sentence, own, kind):
                bonus += FIGURE_BONUS  # "2, 3, 4 | multi-user.target" for "l'ancien niveau
                # d'exécution 3 correspond à quelle cible ?"
            if counted and sentence.role == STATEMENT and _counts(counted, said):
                bonus += KIND_BONUS  # "…limitée à quatre partitions « primaires »" for
                # "combien de partitions primaires…", not "…disques de plus de 2 To"
            if written and sentence.role == STATEMENT and all(o.search(said) for o in written):
                bonus += 2 * KIND_BONUS  # as a quoted literal is
            if rare and sentence.role == STATEMENT and (sentence.tagged or named is not None) \
                    and any(n.search(said) for n in rare):
                bonus += RARE_NAME_BONUS  # "Filter the archive through xz(1)." for "…une
                # archive compressée avec xz", not compress(1)'s line beside it (an entry's
                # description: in prose the name weighs as the other words do)
            if _tags_value(sentence) and _tag_asked(question, sentence.text):
                bonus += FIGURE_BONUS  # "42     Did not find all processes asked for."
                # for "…gets exit code 42. What does that mean?"
            if literals and sentence.role == STATEMENT and (
                    _quotes_all(literals, said)
                    or _quotes_all(literals, _entry_title(sentence, own))):
                bonus += 2 * KIND_BONUS  # "'w' for only writing…, and 'a' opens the file
                # for appending" for "the difference between opening a file with 'w' and 'a'"
            if requirement and sentence.role == STATEMENT and _STATES_REQUIREMENT.search(said):
                bonus += KIND_BONUS  # "to use reordering, a delay option must be specified"
            if defaults and sentence.role == STATEMENT and _STATES_DEFAULT.search(said):
                bonus += KIND_BONUS  # "Le signal par défaut de kill est TERM."
                if _default_of(question, said):
                    bonus += KIND_BONUS  # "The default port number is 21" for "If I
                    # don't pass a port…, which port does it use?", not "If no timeout is
                    # passed, the global default timeout… (host, port)…"
                if overlap > 0 and not _STATES_DEFAULT.search(question):
                    bonus += KIND_BONUS  # asked without the word ("if I don't pass any
                    # directory"): the default of what it names ("The -d argument
                    # specifies an output directory, defaulting to "htmlcov"") is all
                    # that answers, and the word cannot weigh for it
            if kind == DEFINITION and sentence.role == STATEMENT and defines and (
                    _leads(sentence, by_hit) or _names_first(question, sentence)):
                bonus += LEAD_BONUS
            if gloss is not None and sentence.role == STATEMENT and gloss.match(sentence.text):
                bonus += 2 * FIGURE_BONUS  # "MX (mail exchange): an email server." for
                # "what's an MX record in a DNS zone?", not the list's next item, "PTR…:
                # Such a record is stored in a reverse DNS zone", which holds more words
            if _HELP_OPTION.match(text) and not _ASKS_HELP.search(question) and \
                    not option_named:
                bonus = -1.0  # "--help display this help and exit": on every GNU page
            if back_matter and id(sentence) in back_matter:
                bonus = -1.0  # "Cette traduction est une documentation libre…"
            if _COLOPHON.search(sentence.text) and not _ASKS_COLOPHON.search(question):
                bonus = -1.0  # help2man's closing lines inside OPTIONS (sed's "E-mail bug
                # reports to…", "There is NO WARRANTY…"); never quoted after an answer (`window`)
            if range_asked and sentence.role == STATEMENT and _RANGE_FIGURE.search(said):
                bonus += 2 * KIND_BONUS  # "Acceptable values range from -1000 to +1000." for
                # "what range of numbers…?", not "a value of +500, for example…"
            if still_asked and sentence.role == STATEMENT and \
                    _SAYS_DEPRECATED.search(sentence.text):
                bonus += KIND_BONUS  # "Cette interface mkfs est obsolète…" for "est-ce
                # encore conseillé d'utiliser mkfs ?"
            if _VERSION_NOTE.match(sentence.text):
                if _DEPRECATED.match(sentence.text) and _ASKS_DEPRECATED.search(question):
                    bonus += KIND_BONUS  # what replaces the deprecated call
                elif not _ASKS_VERSION.search(question):
                    bonus = -1.0  # a change note answers "since when", nothing else
            if _AUDIT_NOTE.match(sentence.text) and not _ASKS_AUDIT.search(question):
                bonus = -1.0
            sentence.parts = {"lexical": round(overlap, 3), "cosine": round(float(cosine), 3),
                              "kind": round(bonus, 3)}
            sentence.score = (0.6 * float(cosine) + 0.4 * overlap if self.embedder is not None
                              else overlap) + bonus

    @staticmethod
    def _values_asked(question: str) -> list[Callable[[Sentence], bool]]:
        """What gives the value the question asks for: a statement of a default when it
        asks for one, the tagged line of the value it names ("exit code 9")."""
        gives = []
        if _ASKS_DEFAULT.search(question):
            gives.append(_states_default)
        gives.append(lambda unit: _tags_value(unit) and _tag_asked(question, unit.text))
        return gives

    def _choose(self, question: str, kind: str, hits: list[Hit],
                by_hit: dict[str, list[Sentence]],
                units: list[Sentence]) -> tuple[list[Sentence], dict]:
        best = max(units, key=lambda s: s.score)
        if best.hit.kind == "code":  # definitions are not prose: the best few, any passage
            chosen = _distinct([best] + [s for s in sorted(units, key=lambda s: -s.score)
                                         if s is not best and s.hit.kind == "code"
                                         and s.score >= self.keep_ratio * best.score])
            # the answering definition with what its doc says beyond its first sentence
            chosen[0] = _code_sentence(best.hit, CODE_DOC_WORDS)
            return chosen[: self.max_definitions], {"passage": best.label,
                                                     "rank": best.hit.rank,
                                                     "why": "best-scoring definitions"}
        # the first-ranked passage that has something to quote, unless another is clearly
        # better; scores compared without the lexical part when languages differ
        # (the first in the question's language when there is one: a reader asking in
        # English is answered from the English manual when both editions are indexed)
        asked = question_language(question)
        # (a passage whose only statements were scored out, an entry's tail holding just
        # its audit and change notes, has nothing to quote)
        quotable = [h for h in hits if any(s.role == STATEMENT and s.parts["kind"] > -1.0
                                           for s in by_hit[h.chunk_id])]
        top = quotable[0] if quotable else hits[0]
        first = next((h for h in quotable[:LANG_WINDOW] if _language(h) == asked
                      and _editions(h, top)), top)
        termed = _option_entry(question, quotable, by_hit) or _termed(
            question, quotable, first, by_hit, kind) or _worded_option(
            question, quotable, first, by_hit) or _commanded(question, kind, quotable, first,
                                                             by_hit) or _option_prose(
            question, quotable, first, by_hit) or _named_in_prose(question, kind, quotable,
                                                                  first) or _page_opening(
            question, kind, quotable, first)
        named = _named_entry(question, quotable, first) or termed
        named = _paired_entry(question, quotable, named or first) or named
        if named is not None:
            first = named
        mixed = len({_language(h) for h in hits} | {asked}) > 1

        def compared(s: Sentence) -> float:
            return s.score - (0.4 * s.parts["lexical"] if mixed and self.embedder else 0.0)

        def across(s: Sentence) -> float:
            """As passages are compared: a figure's bonus (FIGURE_BONUS) above KIND_BONUS
            orders a passage's own sentences, it does not make another passage answer (a
            date about something else)."""
            figure = kind in MUST_CARRY and s.parts["kind"] > 0
            return compared(s) - (FIGURE_BONUS - KIND_BONUS if figure else 0.0)

        top_first = max((s for s in units if s.hit is first), key=compared, default=None)
        names = question_names(question, first)
        # the passages that may answer beside the first (`_same_subject`), read once each;
        # when the first passage is in another language than the question, a passage in
        # the question's language only from the same manual (a cosine within the
        # question's language runs higher than one across: a Debian Reference tip about
        # `gdb` traces for a French question on Python's `trace` module); beside the entry
        # the question names, only its own section
        eligible = {h.chunk_id for h in hits
                    if (_same_subject(names, first, h) or _continues(first, h))
                    and not (_language(h) == asked != _language(first)
                             and not _same_manual(first, h))
                    and (named is None or h is first or _continues(first, h)
                         and not (named is termed and any(u.role == HEADING
                                                          for u in by_hit[h.chunk_id])))}
        # (the best among the passages that may outbid the first: one further down that
        # scores more cannot, and must not hide the second's "Pour effacer le contenu d'un
        # fichier journal…" behind its own best)
        rival = max((u for u in units if u.hit.chunk_id in eligible
                     and (u.hit.rank or 1) <= RIVAL_PASSAGES), key=across, default=None) or \
            max((u for u in units if u.hit.chunk_id in eligible), key=across,
                default=None) or max(units, key=across)
        why = ("the first-ranked passage" if top.rank in (None, 1) else
               f"the first passage with a statement (ranked {top.rank})") if first is top else (
            f"the entry the question names (ranked {first.rank})" if first is named else
            f"the first passage in the question's language (ranked {first.rank}), the other "
            f"edition of the first-ranked one")
        pick = top_first
        # another passage among the first RIVAL_PASSAGES, scored by retrieval within
        # RIVAL_SCORE of the first, wins by PREFER_FIRST, and without its kind bonus it is
        # at least as close as the first passage's best: a "…is:" before code, in a passage
        # further down, never wins on its bonus alone
        held = max((across(s) for s in units if s.hit is first), default=0.0)
        # a status value asked for ("…sort avec quel code ?") that the first passage has
        # none of: the rival's list of statuses answers, however few words it shares
        status = top_first is not None and rival.hit is not first and \
            _asks_status(question) and _status_value(rival, by_hit[rival.hit.chunk_id]) \
            and not any(_status_value(u, by_hit[first.chunk_id]) for u in by_hit[first.chunk_id])
        # a default asked for ("…if I don't pick one?"), or the line of a value the
        # question names ("what does exit code 9 mean"), that the first passage has none
        # of: the best sentence that has it, in a passage among the first RIVAL_PASSAGES,
        # answers when it is at least as close as the first passage's best (host's "The
        # default is 53.", second, behind the "By default, host uses UDP…" of the sixth)
        value_asked = False
        # (not when the first passage is the entry of an option the question names:
        # "…without giving -n, how many loops…?" asks of -n, not of the default `-r`
        # states beside it)
        if top_first is not None and not _of_named_option(_asked_entries(question),
                                                          by_hit[first.chunk_id]):
            for gives in self._values_asked(question):
                if any(gives(u) for u in by_hit[first.chunk_id]):
                    continue
                valued = max((u for u in units if u.hit.chunk_id in eligible
                              and u.hit is not first and (u.hit.rank or 1) <= RIVAL_PASSAGES
                              and gives(u)), key=across, default=None)
                if valued is not None and across(valued) >= held:
                    rival, value_asked = valued, True
                    break
        # a rival whose sentence is closer in meaning and shares as many of the question's
        # words as the first passage's best, by PREFER_FIRST in all: however far below
        # retrieval scored its passage ("-s Un seul coup – pidof ne renverra qu'un seul
        # pid" under pidof's DESCRIPTION), it says what the first only touches (not
        # between two entries of an API reference, whose names retrieval weighed:
        # `PurePath.suffix` over `PurePath.suffixes` for "the file extension")
        dominates = self.embedder is not None and top_first is not None and \
            rival.hit is not first and not (_is_entry(first) and _is_entry(rival.hit)) and (
                (rival.hit.rank or 1) <= DOMINANT_PASSAGES
                and across(rival) > held + DOMINANT_MARGIN
                and rival.parts["cosine"] >= top_first.parts["cosine"]
                and (mixed or rival.parts["lexical"] >= top_first.parts["lexical"])
                # ... or further down, by more, with far more of the question's words
                # (getfacl's "Do not display the comment header (the first three lines…)"
                # third, for "those three comment lines… How do I get rid of them?")
                or not mixed and (rival.hit.rank or 1) <= RIVAL_PASSAGES
                and across(rival) > held + FAR_DOMINANT_MARGIN
                and rival.parts["lexical"] >= top_first.parts["lexical"] + FAR_LEXICAL_LEAD)
        if top_first is None or value_asked or dominates or (rival.hit is not first
                                 and (rival.hit.rank or 1) <= RIVAL_PASSAGES
                                 and (rival.hit.score or 0.0) >= RIVAL_SCORE * (first.score
                                                                                or 0.0)
                                 and across(rival) > held + PREFER_FIRST
                                 and (status or compared(rival) - max(rival.parts["kind"], 0.0)
                                      >= compared(top_first) - max(top_first.parts["kind"],
                                                                   0.0) - CLOSE_MARGIN)):
            pick = rival
            kept = "the first-ranked passage's best" if first.rank in (None, 1) else \
                f"the best of the passage read first (ranked {first.rank})"
            margin = (DOMINANT_MARGIN if (rival.hit.rank or 1) <= DOMINANT_PASSAGES
                      else FAR_DOMINANT_MARGIN) if dominates else PREFER_FIRST
            why = (f"passage ranked {rival.hit.rank} gives the value asked for "
                   f"({across(rival):.3f}), {kept} does not ({held:.3f})") if value_asked else (
                f"passage ranked {rival.hit.rank} scores {across(rival):.3f}, more than "
                f"{kept} {held:.3f} + {margin}"
                + (", closer in meaning and in words" if dominates else ""))
        titled = self._closest_title(units)
        if titled is not None and titled.hit is not pick.hit and titled.hit is not first \
                and titled.hit.chunk_id in eligible \
                and titled.parts["cosine"] >= SWITCH_COSINE \
                and titled.hit.heading != first.heading and not _under(first, titled.hit) \
                and not _asks_why_instead(titled, kind):
            first_title = max((u.parts["cosine"] for u in units if u.hit is first
                               and u.role in (HEADING, QUESTION)), default=0.0)
            body_best = max((compared(u) for u in units if u.hit is titled.hit
                             and u.role == STATEMENT), default=0.0)
            if titled.parts["cosine"] >= first_title + TITLE_MARGIN and \
                    body_best >= compared(pick) - PREFER_FIRST:
                pick = titled  # a FAQ entry that asks what the user asks: its body answers
                why = (f"passage ranked {titled.hit.rank} has the heading closest to the "
                       f"question ({titled.parts['cosine']:.3f})")
        own = by_hit[pick.hit.chunk_id]
        if _VERSION_NOTE.match(pick.text):
            pick = _latest_note(question, pick, own)
        start = pick.index
        # steps take room, and so does a yes or no with its condition: half as many words again
        budget = self.words * 3 // 2 if kind in (PROCEDURE, YESNO) else self.words
        whole = False  # the quote may go on past its paragraph (`window`)
        if pick.role != STATEMENT:  # a question or heading: its body answers it
            body = next((s for s in own[pick.index + 1:] if s.role == STATEMENT), None)
            if body is None:  # nothing after it here: the best statement of the passage
                body = max((s for s in own if s.role == STATEMENT), key=lambda s: s.score,
                           default=None) or max((s for s in units if s.role == STATEMENT),
                                                key=lambda s: s.score)
                own = by_hit[body.hit.chunk_id]
            start = body.index
            why += f"; its {pick.role} matches, the answer is what follows it"
        # a yes/no question is answered by the statement that says yes or no, and a number,
        # a sum or a date by the sentence that gives it ("The reflogs are kept by default for
        # 30 days…", not the "Reflogs" section's examples before it), not from its section's
        # or its API entry's start
        elif self._from_section_start(question, kind, pick, own, units, hits, by_hit, budget,
                                      compared):
            opening = _section_opening(pick.hit, hits)
            if opening is not None and not _opens_quote(by_hit[opening.chunk_id], pick,
                                                        budget):
                opening = None  # the passage that opens the section holds the best
                # sentence too, past what a quote from its start reaches (an example, 25
                # lines of code), or it states nothing there (a chapter's epigraph of
                # quoted questions): quoted from the start of the passage ranked higher
            if opening is not None:  # the passage goes on from an earlier one found too
                own = by_hit[opening.chunk_id]
            start, whole = _body_start(own), True
            why += "; its heading names what is asked: quoted from the section's start"
            if opening is not None:
                why += f" (passage ranked {opening.rank}, where the section opens)"
        elif kind != YESNO and _is_entry(pick.hit) and start > _body_start(own) and (
                kind == NAME  # "which function…?": the entry's name and what it does lead
                or any(s is pick for s in window(own, _body_start(own), budget))):
            start = _body_start(own)
            why += "; an API entry: quoted from its description"
        elif (described := _description_start(own, pick)) is not None \
                and described < start and (any(
                    s is pick for s in window(own, described, budget))
                    or kind == DEFINITION and _names_term(question, own[described - 1])):
            start = described  # "-P max-procs" / "Run up to…; the default is 1." / "If…"
            # (what a term the question names is or does, its description's first
            # sentences say: the best sentence past them follows an ellipsis, `_with_best`)
            why += "; a term's description: quoted from its start"
        else:
            start = _lean_start(own, start, budget)
            if kind in (PROCEDURE, NAME):
                start = _code_before(question, own, start, budget)
        # a "why" that also asks what to do ("Pourquoi, et quelle est la bonne méthode ?")
        # is quoted as far as a procedure is, from where a reason's quote starts
        room = self.words * 3 // 2 if _WHY_AND_HOW.search(question) else budget
        chosen = _with_antecedent(own, window(own, start, room, paragraphs=whole), room)
        chosen = _with_tail(own, chosen)
        chosen = _with_reason(kind, own, chosen)
        chosen = _with_default(question, own, chosen)
        chosen = _with_argument(question, own, chosen)
        header = _table_header(own, chosen)
        if header is not None:  # a row means what its columns say
            chosen = [header] + chosen
        signature = _signature_before(own, chosen) or _term_carried_over(
            own, chosen, hits, by_hit) or (_name_before(own, chosen) if kind == NAME else None) \
            or _term_far_above(own, chosen)
        if signature is not None:  # an API entry's description: its name leads the quote
            chosen = [signature] + chosen
        if own is not by_hit[pick.hit.chunk_id]:  # quoted from where the section opens:
            # that passage's best sentence too
            chosen, _ = _with_best(chosen, own)
        chosen, added = _with_best(chosen, by_hit[pick.hit.chunk_id])
        if added:
            why += "; the passage's best-scoring sentence lay outside that quote: quoted as well"
        # a section whose heading names what is asked is quoted from its start: no other
        # section after it, only its own lines the chunker put in the next passage
        second = self._second_quote(question, chosen, units, by_hit, compared,
                                    own_section_only=bool(chosen) and self._titled(
                                        question, chosen[0], units))
        if second and _continues(chosen[0].hit, second[0].hit):
            why += (f"; passage ranked {second[0].hit.rank}, where the quote's section goes "
                    f"on, scores better than the quote's best: quoted after it")
        elif second:
            why += (f"; a statement of passage ranked {second[0].hit.rank} scores within "
                    f"{SECOND_MARGIN} of the quote's best: quoted after it")
        for unit in second:
            unit.aside = True
        chosen = chosen + second
        return chosen, {"passage": chosen[0].label if chosen else pick.label,
                        "rank": chosen[0].hit.rank if chosen else pick.hit.rank, "why": why}


    def _second_quote(self, question: str, chosen: list[Sentence], units: list[Sentence],
                      by_hit: dict[str, list[Sentence]], compared,
                      own_section_only: bool = False) -> list[Sentence]:
        """A second, short quote from another section when its best statement scores
        about as well as the first quote's (within SECOND_MARGIN, or better but held back
        by the first-ranked passage's preference): when the two disagree, the reader
        gets both, the first-ranked first, each cited. `own_section_only`: only the
        quote's own section where the chunker cut it (the passage just before or after)."""
        if not chosen:
            return []
        first = chosen[0].hit
        names = question_names(question, first)
        others = [] if own_section_only else [
            u for u in units if u.role == STATEMENT and u.hit.heading != first.heading
            and (u.hit.path, u.hit.page) != (first.path, first.page)
            and _same_subject(names, first, u.hit)]
        quoted = [compared(u) for u in chosen if u.role == STATEMENT]
        if not quoted:
            return []
        best = max(others, key=compared, default=None)
        if best is not None and compared(best) < max(quoted) - SECOND_MARGIN:
            best = None
        # the part of the quote's section that the chunker cut off (the passage just
        # before or after it), when it says more than the quote: "…KiCad thinks the net is
        # undriven." then "There is a special PWR_FLAG symbol… Add this symbol…"
        said = {_said(u) for u in chosen}
        goes_on = max((u for u in units if u.role == STATEMENT and u.hit is not first
                       and _continues(first, u.hit) and _said(u) not in said
                       and not _past_heading(u, first, by_hit[u.hit.chunk_id])),
                      key=compared, default=None)
        if goes_on is not None and compared(goes_on) > max(quoted) and (
                best is None or compared(goes_on) >= compared(best)):
            best = goes_on
        if best is None:
            return []
        asked = question_language(question)
        if _language(best.hit) != _language(first):
            # another language than the first quote's: another manual's (an aptitude FAQ
            # epigraph after `calendar.isleap`), or the other edition saying it again
            return []
        own = by_hit[best.hit.chunk_id]
        words = 2 * SECOND_WORDS if best is goes_on else SECOND_WORDS  # the section goes on
        quote = window(own, _lean_start(own, best.index, words), words)
        # across languages, the question's words as translated: the share of all their
        # senses, or of the translated words one of whose senses is there ("garde": keep,
        # preserve, retain; "…APT stores a copy of those files")
        said_there = " ".join(u.text for u in quote)
        overlap = term_overlap(question, said_there) if _language(best.hit) == asked else \
            max(term_overlap(code_translation(question, asked), said_there),
                translated_overlap(question, asked, said_there, translated_only=True))
        if best is not goes_on and overlap <= SECOND_OVERLAP:
            # another section close in meaning by chance: one word of the question
            # ("server" in an HTTP server's example for a question about a time server);
            # the quote's own section going on is not chance
            return []
        # what the answer already quotes (from a passage overlapping this one, or a copy of
        # its page) is not quoted again
        quote = [u for u in quote if _said(u) not in said]
        if not any(u.role == STATEMENT for u in quote):
            return []
        # a term's description says what it does, the term what to type ("Specify a
        # target process to get contexts from" is `-t, --target PID`'s)
        signature = _signature_before(own, quote)
        return [signature] + quote if signature is not None else quote

    def _from_section_start(self, question: str, kind: str, pick: Sentence,
                            own: list[Sentence], units: list[Sentence], hits: Sequence[Hit],
                            by_hit: dict[str, list[Sentence]], budget: int, compared) -> bool:
        """The pick's heading names what is asked (`_titled`), so its section is quoted from
        its start: when the heading is the user's question (a FAQ entry, `_asked_here`), or
        when a quote from the start reaches the pick and the pick does not stand out of
        what comes before it (`_stands_out`). Not for a yes or no, nor a figure asked for:
        the sentence that gives it is quoted."""
        if kind == YESNO or kind in MUST_CARRY or not self._titled(question, pick, units):
            return False
        if self._asked_here(pick, units):
            return True
        if not any(s is pick for s in window(own, _body_start(own), budget)):
            return False
        opening = _section_opening(pick.hit, hits) or pick.hit
        return not _stands_out(pick, by_hit[opening.chunk_id], compared)

    def _titled(self, question: str, pick: Sentence, units: list[Sentence]) -> bool:
        """The passage's own heading names what is asked: by its words, or (across
        languages too) by meaning: of all the passages' headings and questions, the
        closest to the question is this passage's, at HEADING_COSINE or more."""
        if heading_matches(question, pick.hit):
            return True
        closest = self._closest_title(units)
        return closest is not None and closest.hit is pick.hit

    def _asked_here(self, pick: Sentence, units: list[Sentence]) -> bool:
        """The question closest to the user's, of all the passages' headings and questions,
        is the one this passage answers (a FAQ entry): its body, from the start, answers."""
        closest = self._closest_title(units, least=ASKED_COSINE)
        return closest is not None and closest.hit is pick.hit and closest.text.endswith("?")

    def _closest_title(self, units: list[Sentence],
                       least: float = HEADING_COSINE) -> Sentence | None:
        """Of all the passages' headings and questions, the one closest to the question in
        meaning, when it is at `least` or more (None without an embedder)."""
        titles = [u for u in units if u.role in (HEADING, QUESTION) and not u.term]
        if self.embedder is None or not titles:
            return None
        closest = max(titles, key=lambda u: u.parts.get("cosine", 0.0))
        return closest if closest.parts.get("cosine", 0.0) >= least else None


# a change note's version ("Changed in version 3.8: …"), a release the question names
_NOTE_VERSION = re.compile(r"\bversion (\d+(?:\.\d+)*)", re.I)
_RELEASE = re.compile(r"\b[A-Z][a-z]+ (\d+(?:\.\d+)*)")
# change notes scoring this close to the best one say what changed since, on the same point
NOTE_MARGIN = 0.1
# `_with_tail`: what is left of a section after the quote, quoted too when this short
TAIL_SENTENCES = 1
TAIL_WORDS = 30
# the words of a name in snake or camel case: open_new_tab, getElementById
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# a name the question calls: "get()", "task_done()"
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\(\)")
# `_worded_entry`: how many of the first passages are read for a sibling entry
WORDED_DEPTH = 6
_IDENTIFIER = re.compile(r"\b\w+(?:[_.]\w+)+\b|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")


def _version(text: str, pattern: re.Pattern[str] = _NOTE_VERSION) -> tuple[int, ...] | None:
    match = pattern.search(text)
    return tuple(int(p) for p in match.group(1).split(".")) if match else None


def _latest_note(question: str, pick: Sentence, own: list[Sentence]) -> Sentence:
    """Of a reference entry's change notes about the same point as `pick` (naming one of
    the question's identifiers it names, or scoring within NOTE_MARGIN of it), the latest:
    "Changed in version 3.8: Default value of max_workers is changed to…" holds over
    3.5's; when the question names a release ("on Python 3.11"), the latest up to it."""
    release = _version(question, _RELEASE)
    names = [n for n in _IDENTIFIER.findall(question) if n in pick.text]
    notes = [s for s in own if s.role == STATEMENT and _VERSION_NOTE.match(s.text)
             and (any(n in s.text for n in names) if names
                  else s.score >= pick.score - NOTE_MARGIN)
             and _version(s.text) is not None
             and (release is None or _version(s.text) <= release)]
    return max(notes, key=lambda s: _version(s.text), default=pick)


def _with_default(question: str, own: list[Sentence], chosen: list[Sentence]
                  ) -> list[Sentence]:
    """A question about a default, quoted from an entry that states its default on a line
    of its own ("**Default** - ``10``") before the quote: that line leads it."""
    if not chosen or not _ASKS_DEFAULT.search(question) or \
            any(_DEFAULT_VALUE.match(s.text) for s in chosen):
        return chosen
    line = next((s for s in reversed(own[:chosen[0].index]) if s.block == chosen[0].block
                 and s.role == STATEMENT and _DEFAULT_VALUE.match(s.text)), None)
    if line is None:
        return chosen
    chosen[0].elided = any(s.role == STATEMENT for s in own[line.index + 1:chosen[0].index])
    return [line] + chosen


# how many statements before a "why" quote that gives no reason are looked at for one
REASON_BACK = 3


def _with_reason(kind: str, own: list[Sentence], chosen: list[Sentence]) -> list[Sentence]:
    """A "why" quote that gives no reason, when one of the REASON_BACK statements right
    before it does: the quote starts there; else when the sentence right after it, in its
    paragraph, does: that sentence ends it ("…transférer le fichier changes en dernier."
    / "Dans le cas contraire, votre envoi pourrait être rejeté, car…")."""
    if kind != REASON or not chosen or any(carries(REASON, s.text) for s in chosen):
        return chosen
    # or one of the few before it, when the quote restates what the user saw ("If you
    # notice that the web browser takes ages to load the page…" after "The reason for this
    # is that sometimes "localhost" is configured…")
    first = chosen[0]
    if first.hit is own[0].hit and own[first.index] is first:
        for i in range(first.index - 1, max(first.index - 1 - REASON_BACK, -1), -1):
            if own[i].role != STATEMENT:
                break
            if carries(REASON, own[i].text):
                return own[i:first.index] + chosen
    last = chosen[-1]
    if last.hit is not own[0].hit or own[last.index] is not last or last.index + 1 >= len(own):
        return chosen
    following = own[last.index + 1]
    if following.role == STATEMENT and following.block == last.block and \
            carries(REASON, following.text):
        return chosen + [following]
    return chosen


def _with_tail(own: list[Sentence], chosen: list[Sentence]) -> list[Sentence]:
    """`chosen` with the rest of its section when that is one sentence (TAIL_SENTENCES) of
    at most TAIL_WORDS words: a quote that stops one sentence before its section ends
    leaves out what an API entry or a short section often ends on ("Raises a ValueError if
    called more times than there were items placed in the queue.")."""
    if not chosen or chosen[-1].hit is not own[0].hit or own[chosen[-1].index] is not \
            chosen[-1]:
        return chosen
    rest: list[Sentence] = []
    for sentence in own[chosen[-1].index + 1:]:
        if sentence.role not in QUOTABLE or sentence.block != chosen[-1].block:
            break
        if _entry_note(sentence.text):
            break
        rest.append(sentence)
    if not rest or len(rest) > TAIL_SENTENCES or _goes_on(rest[-1]) or \
            sum(len(s.text.split()) for s in rest) > TAIL_WORDS:
        return chosen
    return chosen + rest


# an option's argument written in capitals: "--output=MODE", "-m MODE", "--color[=WHEN]"
_ARGUMENT = re.compile(r"(?<![\w-])--?[\w-]+(?:\[?=|[ \t])\[?([A-Z][A-Z_]{1,15})\b")


def _new_words(question: str, text: str, said: str) -> int:
    """How many of the question's words `text` holds that `said` does not (by stem, the
    better of the two languages)."""
    best = 0
    for lang in tokens.LANGUAGES:
        wanted = set(tokens.tokens(question, lang))
        found = tokens.loosely([wanted], set(tokens.tokens(text, lang)))
        known = tokens.loosely([wanted], set(tokens.tokens(said, lang)))
        best = max(best, len(wanted & (found - known)))
    return best


def _with_argument(question: str, own: list[Sentence], chosen: list[Sentence]
                   ) -> list[Sentence]:
    """An option quoted whose argument in capitals the page explains apart, further down
    ("-o, --output=MODE" / "adjust standard output stream buffering" … "If MODE is 'L' the
    corresponding stream will be line buffered."): the statement naming that argument that
    holds the most words of the question the quote lacks ends it, after an ellipsis."""
    if not chosen or chosen[-1].hit is not own[0].hit or own[chosen[-1].index] is not \
            chosen[-1]:
        return chosen
    terms = [u for u in chosen if u.term or _TERM_LEAD.match(u.text)]
    term = _described_by(chosen[0], own)  # (led by its term further on: `_signature_before`)
    arguments = {m.group(1) for u in terms + ([term] if term is not None else [])
                 for m in _ARGUMENT.finditer(u.text)}
    if not arguments:
        return chosen
    named = re.compile(r"\b(?:" + "|".join(sorted(arguments)) + r")\b")
    said = " ".join(u.text for u in chosen)
    best, gain = None, 0
    for unit in own[chosen[-1].index + 1:]:
        if unit.role != STATEMENT or not named.search(unit.text) or \
                _described_by(unit, own) is not None:
            continue  # (another option's description names it for that option)
        more = _new_words(question, unit.text, said)
        if more > gain:
            best, gain = unit, more
    if best is None:
        return chosen
    best.elided = best.index > chosen[-1].index + 1
    return chosen + [best]


def _with_best(chosen: list[Sentence], own: list[Sentence]) -> tuple[list[Sentence], bool]:
    """`chosen` with the best statement of the passage `own` by its whole score, when the
    quote was moved away from it (to its section's start, to what a sentence leans on, or
    chosen on meaning alone with two languages among the passages): that statement, in at
    most SECOND_WORDS words, in the passage's order, with what lies between when that is
    SECOND_WORDS words or fewer, else after an ellipsis (`Sentence.elided`, read by
    `cite`). Whether it was added."""
    best = max((s for s in own if s.role == STATEMENT), key=lambda s: s.score, default=None)
    said = {_said(c) for c in chosen}  # (an overlapping passage says some of it again)
    if best is None or not any(s.role == STATEMENT for s in chosen) or _said(best) in said:
        return chosen, False
    more = [s for s in window(own, _lean_start(own, best.index, SECOND_WORDS), SECOND_WORDS)
            if _said(s) not in said]
    term = _described_by(more[0], own) if more else None
    if term is not None and not any(c.index == term.index for c in chosen):
        # a term's description added: its term leads it ("`-i, --ignore-file=FILE` — read
        # ignore word list from FILE"), or it says not what to use
        more = [_term_lead(term, term.index, more[0].block)] + more
    chosen = chosen + more
    if all(s.hit is best.hit for s in chosen):
        chosen.sort(key=lambda s: s.index)
        whole: list[Sentence] = []
        for unit in chosen:
            skipped = own[whole[-1].index + 1:unit.index] if whole else []
            if skipped and all(s.role in QUOTABLE for s in skipped) and \
                    sum(len(s.text.split()) for s in skipped) <= SECOND_WORDS:
                whole.extend(skipped)  # a sentence or two between: quoted, not elided
            else:
                unit.elided = any(s.role == STATEMENT for s in skipped)
            whole.append(unit)
        chosen = whole
    return chosen, True


def _opens_on(words: str, text: str, first: int = OPENING_WORDS, besides: str = "") -> bool:
    """One of the first `first` words of `text` is one of `words` that `besides` does not
    hold (by stem, in either language; a name written in code marks is read bare)."""
    opening = " ".join(text.replace("`", "").split()[:first])
    return any((set(tokens.tokens(words, lang)) - set(tokens.tokens(besides, lang)))
               & set(tokens.tokens(opening, lang)) for lang in tokens.LANGUAGES)


def _names_first(question: str, sentence: Sentence) -> bool:
    """The sentence opens on what the question asks about ("Experimental is used for…"
    for "what is experimental?"): one of its first three words is a term of the question
    that the passage's heading does not hold."""
    return _opens_on(question, sentence.text, 3, besides=sentence.hit.heading)


# An API reference entry's heading: a signature ("PurePath.suffix", "class
# textwrap.TextWrapper(**kwargs)", "re.findall(pattern, string, flags=0)"), not a title
_SIGNATURE = re.compile(r"^(?:(?:class|exception|async|static|abstract|classmethod|"
                        r"staticmethod|property|function|method|attribute|data) )*"
                        r"@?[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*(?:\(.*\))?$")


def _table_header(own: list[Sentence], chosen: list[Sentence]) -> Sentence | None:
    """When the quote starts on a table's row below its first, the table's first row (its
    column names), which the row's cells mean nothing without."""
    if not chosen or not is_table_row(chosen[0].text):
        return None
    first = chosen[0].index
    while first > 0 and own[first - 1].role == STATEMENT and is_table_row(own[first - 1].text) \
            and own[first - 1].block == chosen[0].block:
        first -= 1
    return own[first] if first != chosen[0].index else None


def _is_entry(hit: Hit) -> bool:
    """The passage is an API reference's entry: its own heading is a signature
    ("os.path.splitext(path)", "class collections.Counter([iterable-or-mapping])"), its
    first statement what the entry does."""
    return _is_signature((hit.heading or "").split(" > ")[-1].strip())


def _is_signature(text: str) -> bool:
    """A dotted name or a name with its parameters, as an API entry's heading is (a
    Markdown heading quotes it: "`dns.lookup(hostname)`")."""
    text = _unquoted(text)
    return bool(_SIGNATURE.match(text)) and ("." in text.split("(")[0] or "(" in text)


def _unquoted(text: str) -> str:
    """A heading's text without the backticks Markdown writes code in."""
    text = text.strip()
    return text[1:-1].strip() if len(text) > 2 and text[0] == text[-1] == "`" else text


def _signature_name(part: str) -> str:
    """The dotted name a signature (a heading part) gives its object, as written:
    "class contextvars.ContextVar(name)" -> "contextvars.ContextVar",
    "@functools.lru_cache(maxsize=128)" -> "functools.lru_cache"."""
    signature = _unquoted(part).split("(")[0].split()
    return signature[-1].lstrip("@") if signature else ""


def _entry_names(hit: Hit) -> set[str]:
    """The names an API entry's signature heading gives its object, lower case:
    "@functools.lru_cache(maxsize=128)" -> {"functools.lru_cache", "lru_cache"}."""
    name = _signature_name((hit.heading or "").split(" > ")[-1]).lower()
    return {name, name.rsplit(".", 1)[-1]} - {""}


# a name the question sets against what it wants ("…alors que asyncio.run en recrée une
# à chaque appel", "instead of os.system") is not the entry it asks for
_CONTRASTED = re.compile(r"\b(?:instead of|rather than|other than|unlike|alors que|au lieu "
                         r"d[eu'’]|plutôt que|contrairement à|autre que)\s+(?:the |la |le |l['’]|"
                         r"an? |une? |des |les )?[\w.]+(?:\(\))?", re.I)
# ... nor one it asks to have called ("pour que found_terminator soit appelé…", "how do I
# get __del__ to be called"): what calls it answers
# ... nor one the user says they already have ("I have the st_mode number from os.stat and
# want to show it like ls does"): what they have is the input, not what is asked about
_HELD = re.compile(r"\b(?:i have|i['’]ve got|i got|j['’]ai|given)\s+(?:the |a |an |my |un |une |"
                   r"le |la |l['’]|les |mon |ma |mes )?[\w.]+(?:\(\))?", re.I)
_CALLED_BY = re.compile(r"[\w.]+(?:\(\))?\s+(?:soit|soient|est|sera|be|is|gets?|will be)\s+"
                        r"(?:appel[ée]e?s?|invoqu[ée]e?s?|déclench[ée]e?s?|called|invoked|"
                        r"triggered)\b", re.I)


def _named_entry(question: str, hits: Sequence[Hit], first: Hit) -> Hit | None:
    """The API entry among `hits` that the question names (`lru_cache`, `re.match`, or a
    method it calls, `open()`) when the first-ranked passage is another entry, which only
    mentions it ("Returns the same as lru_cache(maxsize=None)" in `functools.cache`'s; the
    class whose `open()` connects), or, when it names none, the entry
    of the first one's page whose name the question says in words (`_worded_entry`):
    None otherwise."""
    asked = _HELD.sub(" ", _CALLED_BY.sub(" ", _CONTRASTED.sub(" ", question)))
    written = [n.lstrip("@") for n in _IDENTIFIER.findall(asked)]
    names = {n.lower() for n in written}
    if not _is_entry(first):
        return None
    called = {c.lower() for c in _CALLED.findall(asked)}
    if len(called) >= 2 and all(_mentions(first, c) for c in called):
        return None  # the first entry says how the calls asked about go together ("The
        # results of calling parse or feed after close without calling reset…")
    member = _member_entry(question, names, hits, first)
    if member is not None or names & _entry_names(first):
        return member
    if not names:
        # a method the question calls by its name alone ("si j'appelle open()…"), its
        # entry among the first passages when the first is another ("class Telnet")
        if called & _entry_names(first):
            return None
        return next((h for h in hits[:WORDED_DEPTH] if h is not first and _is_entry(h)
                     and called & _entry_names(h)), None) or _worded_entry(asked, hits, first)
    # a member of the class the question names ("…built on cmd.Cmd" and `Cmd.emptyline()`;
    # not `select.PIPE_BUF` for "select.select()", another member of its module)
    containers = set(max(_entry_names(first), key=len).split(".")[:-1])
    if any(n.rsplit(".", 1)[-1].lower() in containers and n.rsplit(".", 1)[-1][:1].isupper()
           for n in written):
        return None
    # the entry of a name in what is asked before one of the scene's ("dns.lookup me
    # renvoie l'IPv6… Je passe quelle valeur à dns.setDefaultResultOrder ?")
    asked_names = names & {n.lstrip("@").lower() for n in _IDENTIFIER.findall(asked_part(asked))}
    named = [h for wanted in (asked_names, names) for h in hits
             if wanted and h is not first and _is_entry(h) and wanted & _entry_names(h)]
    # (the part of a long entry that holds only its change notes, "Changed in version
    # 3.3: …", says nothing it does: the part that describes it, ranked lower)
    return next((h for h in named if not _only_notes(h)), named[0] if named else None)


def _only_notes(hit: Hit) -> bool:
    """Every line of the passage is a reference entry's change note, or goes on from one."""
    lines = [line.strip() for line in hit.text.splitlines() if line.strip()]
    return bool(lines) and _VERSION_NOTE.match(lines[0]) is not None and all(
        _VERSION_NOTE.match(line) or line[:1].islower() for line in lines)


def _termed(question: str, hits: Sequence[Hit], first: Hit,
            by_hit: dict[str, list[Sentence]], kind: str = OTHER) -> Hit | None:
    """When the question names a setting by its identifier ("what's work_mem out of the
    box?") and the first-ranked passage has no heading or term of that name (it only
    mentions it: hash_mem_multiplier's "…multiplying work_mem by…"), the passage among
    the first WORDED_DEPTH whose term is that name: its description answers. (A setting's
    name, in snake case; or, asked what it is or does, a name that is no word of either
    language: logrotate's "delaycompress", fileinput's "filelineno"; an API's
    `copy.deepcopy` or `worker.terminate()` is `_named_entry`'s.)"""
    names = {n.lower() for n in _SNAKE_NAME.findall(question)}
    # a word the question calls an option ("l'option rotate", "the nofail option"), a
    # word of the language or not (not an ordinary word, "option makes", nor the command
    # of a page, "which cryptsetup option")
    pages = set().union(*(command_names(hit) for hit in hits))
    commands = pages | {part for page in pages for part in page.split("-")}
    called = [m.group(1) or m.group(2) for m in _CALLED_OPTION.finditer(question)]
    names |= {name.lower() for name in called if content_words(name)
              and name.lower() not in commands}
    if kind == DEFINITION:  # (not the command a page is about: "systemctl isolate")
        names |= {w.lower() for w in _PLAIN_NAME.findall(question)
                  if tokens.fold(w) not in tokens.STOPWORDS and w.lower() not in pages
                  and is_word(w) is False}

    def terms(hit: Hit) -> bool:
        return any(u.role == HEADING and (m := _LEADING_NAME.match(u.text)) is not None
                   and m.group(1).lower() in names or _row_of(u, names)
                   for u in by_hit[hit.chunk_id])

    if not names or _is_entry(first) or terms(first):
        return None
    return next((h for h in hits[:WORDED_DEPTH] if h is not first and not _is_entry(h)
                 and terms(h)), None)


def _row_of(unit: Sentence, names: set[str]) -> bool:
    """`unit` is a table's row whose first cell is one of `names`: a list of packages or
    settings, each described in its row ("xwayland | V:176, I:240 | 2336 | An X server
    running on top of wayland")."""
    if unit.role != STATEMENT or not is_table_row(unit.text):
        return False
    return first_cell(unit.text).strip("`*").lower() in names


def _commanded(question: str, kind: str, hits: Sequence[Hit], first: Hit,
               by_hit: dict[str, list[Sentence]]) -> Hit | None:
    """When a definition question names a command of a page's command ("à quoi sert
    systemctl isolate ?") and the first-ranked passage has no entry of it (`emergency`,
    "equivalent to systemctl isolate emergency.target"), the passage among the first
    WORDED_DEPTH that has: its description answers."""
    if kind != DEFINITION:
        return None
    lines = [subcommand_line(w) for w in asked_subcommands(question, list(hits))]
    asked = asked_after_scene(question)
    if asked and lines and not asked_subcommands(asked, list(hits)):
        return None  # what the user ran in the scene ("networkctl list shows my wifi
        # card as unmanaged. What does that mean?"): what is asked is what it showed

    def entry(hit: Hit) -> bool:
        return any(u.term and line.match(u.text.replace("`", ""))
                   for u in by_hit[hit.chunk_id] for line in lines)

    if not lines or entry(first):
        return None
    return next((h for h in hits[:WORDED_DEPTH] if h is not first and entry(h)), None)


def _named_in_prose(question: str, kind: str, hits: Sequence[Hit], first: Hit) -> Hit | None:
    """When a definition question names something that is no word of either language
    ("Ça sert à quoi le paquet acpid ?") and the first-ranked passage never writes it (it
    tells what another package does, popularity-contest), the passage among the first
    WORDED_DEPTH that does: what it is can only be said where it is named."""
    if kind != DEFINITION:
        return None
    pages = set().union(*(command_names(hit) for hit in hits))
    names = [re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])", re.I)
             for w in dict.fromkeys(_PLAIN_NAME.findall(question))
             if tokens.fold(w) not in tokens.STOPWORDS and w.lower() not in pages
             and is_word(w) is False]

    def writes(hit: Hit) -> bool:
        return any(n.search(hit.text) or n.search(hit.heading) for n in names)

    if not names or writes(first):
        return None
    return next((h for h in hits[:WORDED_DEPTH] if h is not first and writes(h)), None)


def _page_opening(question: str, kind: str, hits: Sequence[Hit], first: Hit) -> Hit | None:
    """When a definition question names a page's module or command ("Le module
    linecache, il sert à quoi ?") and the first-ranked passage is the entry of one of its
    members (`linecache.lazycache(…)`), the passage among the first WORDED_DEPTH under the
    page's own title ("linecache — Random access to text lines"): what the module is for
    is said there, not by one of its functions."""
    if kind != DEFINITION or not _is_entry(first):
        return None
    member = _unquoted((first.heading or "").split(" > ")[-1].strip()).split("(")[0]
    asked = asked_words(question)
    for name in sorted(command_names(first) & asked, key=len, reverse=True):
        if not member.lower().startswith(f"{name}."):
            continue
        title = re.compile(rf"^{re.escape(name)}\s+[—–-]\s", re.I)
        return next((h for h in hits[:WORDED_DEPTH] if h is not first and h.path == first.path
                     and title.match((h.heading or "").split(" > ")[-1].strip())), None)
    return None


@lru_cache(maxsize=64)
def _question_stems(question: str) -> frozenset[str]:
    """The question's words as English stems (a French question's with their
    translation), to meet the words of an option's or an entry's name (read by the
    scoring and the passage choice of one answer: translated once)."""
    asked = question_language(question)
    said = question if asked == "en" else f"{question} {code_translation(question, asked)}"
    # (with the manual's words for the everyday ones: "simulation" names `--dry-run`)
    return frozenset(tokens.tokens(f"{said} {plain_words(question)}", "en"))


_LONG_OPTION = re.compile(r"(?<![\w-])--([A-Za-z][\w-]*[A-Za-z0-9])")


# a question that asks to turn something off ("comment désactiver toute signature ?", "run
# it without the cache"), and the options that do ("--no-sign", "--disable-cache")
_TURNS_OFF = re.compile(r"\b(?:disabl\w*|turn\w* (?:\w+ )?off|switch\w* (?:\w+ )?off|skip\w*|"
                        r"without|no longer|désactiv\w*|sans|(?:don['’]t|do not) want|"
                        r"ne (?:plus|pas) (?:\w+ )?(?:utiliser|faire|avoir))\b", re.I)
_OFF_OPTION = re.compile(r"(?<![\w-])--(?:no|disable|without)-([A-Za-z][\w-]*)")


def _turns_off(term: str, asked: frozenset[str]) -> bool:
    """The term line spells an option that turns off what the question names: a word of
    its name opens one of the question's (English) stems, or one of them opens it
    ("sign" and "signature")."""
    for name in _OFF_OPTION.findall(term):
        for word in re.split(r"[-_]+", name):
            for own in tokens.tokens(word, "en"):
                if len(own) >= 4 and any(len(a) >= 4 and (a.startswith(own) or own.startswith(a))
                                         for a in asked):
                    return True
    return False


def _worded(term: str, asked: frozenset[str]) -> bool:
    """One of the long options the term line spells is named by the question in words:
    every word of its name, two or more, is one of the question's ("dry run" names
    `--dry-run`, "only look at package names" `--names-only`; one word, "simulate",
    names nothing by itself)."""
    for name in _LONG_OPTION.findall(term):
        own = set(tokens.tokens(" ".join(re.split(r"[-_]+", name)), "en"))
        if len(own) >= 2 and own <= asked:
            return True
    return False


def _option_terms(own: list[Sentence]) -> list[Sentence]:
    """The passage's terms that are options alone on their line."""
    return [u for u in own if u.role == HEADING and (u.term or _OPTION_LINE.match(
        u.text.strip())) and _LONG_OPTION.search(u.text)]


def _in_worded_option(asked: frozenset[str], sentence: Sentence, own: list[Sentence]) -> bool:
    """`sentence` is in the description of an option the question names in words."""
    start = _description_start(own, sentence)
    if not start:
        return False
    term = own[start - 1]
    return term.role == HEADING and _worded(term.text, asked)


def _option_entry(question: str, hits: Sequence[Hit],
                  by_hit: dict[str, list[Sentence]]) -> Hit | None:
    """The first passage, in a file the question names by its command, that holds the
    entry of the one option the question writes ("…using tar --delete?": `--delete`'s):
    its description answers, whatever another option's words share with the question
    ("Extract all files into DIR…" for "without unpacking everything")."""
    options = asked_options(question)
    if len(options) != 1:
        return None
    entries = [entry_line(options[0])]
    files = set(named_files(question, list(hits)))
    return next((h for h in hits if h.path in files and any(
        _is_entry_of(entries, u) for u in by_hit[h.chunk_id])), None)


def _written_options(question: str, units: list[Sentence]) -> list[re.Pattern[str]]:
    """The options the question writes ("what does the -y switch do…?") when no unit is
    the entry of one: patterns of each as written. The prose that writes them says what
    they do ("…the -y option (or --assume-yes) tells APT…")."""
    entries = [entry_line(option) for option in asked_options(question)
               if option.startswith("-")]  # (an escape, "\n", is written in any prose)
    if not entries or any(_is_entry_of(entries, u) for u in units):
        return []
    return [re.compile(rf"(?<![\w-]){re.escape(entry.option)}(?![\w-])") for entry in entries]


def _option_prose(question: str, hits: Sequence[Hit], first: Hit,
                  by_hit: dict[str, list[Sentence]]) -> Hit | None:
    """When the question writes options no passage has an entry of, and no statement of
    the first-ranked passage writes them (a code block may: "apt-get -y -o…"), the
    passage among the first WORDED_DEPTH whose statement does."""
    written = _written_options(question, [u for h in hits for u in by_hit[h.chunk_id]])

    def writes(hit: Hit) -> bool:
        return any(u.role == STATEMENT and all(o.search(u.text) for o in written)
                   for u in by_hit[hit.chunk_id])

    if not written or writes(first):
        return None
    return next((h for h in hits[:WORDED_DEPTH] if h is not first and writes(h)), None)


def _worded_option(question: str, hits: Sequence[Hit], first: Hit,
                   by_hit: dict[str, list[Sentence]]) -> Hit | None:
    """When the question names an option in words (`_worded`: "a dry run") and the
    first-ranked passage has no such option, the passage among the first WORDED_DEPTH
    that has it: its description answers (apt-get's `--dry-run` entry, ranked second
    behind a block of options that say "upgrade" more often). Not one it names as what
    it does not want ("a soft link rather than a hard one": no `--hard-links`)."""
    asked = _question_stems(_CONTRASTED.sub(" ", question))

    def names(hit: Hit) -> bool:
        return any(_worded(u.text, asked) for u in _option_terms(by_hit[hit.chunk_id]))

    if names(first) or any(entry_line(option).search(first.text)
                           for option in asked_options(question)):
        return None  # (the option the question writes, "…using tar --delete?", has its
        # entry there: "remove a single file" names no `--remove-files` beside it)
    return next((h for h in hits[:WORDED_DEPTH] if h is not first and names(h)), None)


# the name a term opens on: "work_mem (integer)", "`max_wal_size`"
_LEADING_NAME = re.compile(r"^[`*\s]*([A-Za-z_]\w*)(?![\w.(])")
# a name in snake case, written alone: "work_mem" (not "pg_hba.conf", "copy.deep_copy()")
_SNAKE_NAME = re.compile(r"(?<![\w.])[A-Za-z]\w*_\w+(?![\w.(])")
# a word called an option, a directive or a keyword: "l'option rotate", "the nofail option",
# "la directive AllowOverride"
_CALLED_OPTION = re.compile(r"\b(?:options?|directives?|keywords?|mots?-clés?)\s+[«\"'`]?\s*"
                            r"([A-Za-z][\w-]{2,})(?![\w.(-])|"
                            # (not "which cryptsetup option": which command's option)
                            r"(?<!which )(?<!what )(?<!whose )(?<!any )"
                            r"(?<![\w-])([a-z][\w-]{2,})[»\"'`]?\s+(?:option|directive|keyword)\b",
                            re.I)
# a name written as one word of letters: "delaycompress", "filelineno"
_PLAIN_NAME = re.compile(r"(?<![\w.=-])[A-Za-z]{5,}(?![\w.=(-])")


def _member_entry(question: str, names: set[str], hits: Sequence[Hit],
                  first: Hit) -> Hit | None:
    """When the question names a class and calls a method ("get() sur une ContextVar"),
    the entry among the first WORDED_DEPTH that is that method of that class
    (`ContextVar` > `get([default])`), over another class's `get` ranked first or the
    class's own entry: the entry whose name and class hold more of the question's names
    than the first's, at least two."""
    called = {c.lower() for c in _CALLED.findall(question)}
    if not called:
        return None
    wanted = {n.rsplit(".", 1)[-1] for n in names} | called

    def held(hit: Hit) -> int:
        return len(wanted & _entry_parts(hit))

    best = max((h for h in hits[:WORDED_DEPTH] if _is_entry(h)), key=held, default=first)
    return best if best is not first and held(best) >= 2 and held(best) > held(first) \
        else None


def _entry_parts(hit: Hit) -> set[str]:
    """An API entry's own name and its class's, lower case, from its heading path:
    "… > class contextvars.ContextVar(name) > get([default])" -> {"get", "contextvar"}."""
    parts = [part.strip() for part in (hit.heading or "").split(" > ")[-2:]]
    return {_signature_name(part).rsplit(".", 1)[-1].lower() for part in parts
            if _is_signature(part) and _signature_name(part)}


def _worded_entry(question: str, hits: Sequence[Hit], first: Hit) -> Hit | None:
    """The entry among the first WORDED_DEPTH passages, on the first-ranked entry's page,
    whose own name is all words of the question (or of its translation), at least two,
    and more of them than the first entry's name holds (the most of them, then a member
    of the first entry's module or class, then the first ranked): `webbrowser.open_new_tab` for
    "open a page in a new tab" (or "dans un nouvel onglet") over `webbrowser.open`, whose
    description mentions tabs too. A sibling entry is named by what it does."""
    words = _question_stems(question)

    def named(hit: Hit) -> tuple[str, str]:  # (its container, its own name)
        container, _, name = _signature_name((hit.heading or "").split(" > ")[-1]) \
            .rpartition(".")
        return container, name

    def found(hit: Hit) -> tuple[int, int]:
        own = set(tokens.tokens(" ".join(_NAME_WORD.findall(named(hit)[1])), "en"))
        return len(own & words), len(own)

    best, most = None, (found(first)[0], True)
    for hit in hits[:WORDED_DEPTH]:
        if hit is first or hit.path != first.path or not _is_entry(hit) \
                or (first.heading or "").startswith(f"{hit.heading} > "):
            continue  # (nor the class whose member the first entry is: `formatyearpage`
            # of `HTMLCalendar` says more of "a full HTML page for a year's calendar")
        shared, size = found(hit)
        # the most words, then a member of the first entry's container, then the rank
        mine = (shared, named(hit)[0] == named(first)[0])
        if shared == size >= 2 and mine > most:
            best, most = hit, mine
    return best


# An accessor's name: "get_int_max_str_digits", "setMaxListeners", "getdefaulttimeout"
_ACCESSOR = re.compile(r"^(get|set)(_?)(\w+)$", re.I)
# A question that asks to change a value, or only to read it (English, French)
_CHANGES = re.compile(r"\b(set|change|raise|increase|lower|decrease|modify|configure|adjust|"
                      r"override|lift|enable|disable|turn (on|off)|changer|modifier|relever|"
                      r"augmenter|baisser|diminuer|définir|régler|fixer|configurer|activer|"
                      r"désactiver|lever|repousser)\b", re.I)
# A reader's or a writer's object: "AU_read", "Wave_write", "csv.DictWriter", "StreamReader"
_SIDE = re.compile(r"((?<![A-Za-z0-9])(?i:read(?:er)?|writer?)|(?<=[a-z])(?:Read(?:er)?|Writer?))"
                   r"(?![a-z0-9])")
_OTHER_SIDE = {"read": "write", "write": "read", "reader": "writer", "writer": "reader"}
# A question that asks to write (a file, an output), or to read one (`_READS`: to read a
# value rather than change it)
_WRITES = re.compile(r"\b(write|writes|writing|written|output|save|saving|écrire|écrit|"
                     r"écrite|écrits|écriture|enregistrer|sauvegarder|en sortie)\b", re.I)
_READING = re.compile(r"\b(read|reads|reading|input|load|loading|lire|lu|lue|lecture|"
                      r"charger|en entrée)\b", re.I)
_READS = re.compile(r"\b(get|find out|know|check|see|read|look up|what is the current|savoir|"
                    r"connaître|connaitre|voir|lire|obtenir|récupérer|vérifier|consulter|"
                    r"quelle est la valeur)\b", re.I)


def _paired_entry(question: str, hits: Sequence[Hit], entry: Hit) -> Hit | None:
    """When the entry that would answer is one of a pair and the question asks for the
    other use, the other entry of the pair, when one of the first WORDED_DEPTH passages
    is it; None otherwise. The pairs: an accessor's (`get_X` / `set_X`: to change the value,
    "relever cette limite", for `sys.get_int_max_str_digits`; or only to read it), and a
    reader's and a writer's (`AU_read.getcomptype` / `AU_write.setcomptype`: "…accepte-t-il
    à l'écriture ?"; `Wave_write.setnchannels` for "how many channels can I read?")."""
    if not _is_entry(entry):
        return None
    container, _, name = _signature_name((entry.heading or "").split(" > ")[-1]).rpartition(".")
    accessor = _ACCESSOR.match(name)
    changes, reads = bool(_CHANGES.search(question)), bool(_READS.search(question))
    writes, reading = bool(_WRITES.search(question)), bool(_READING.search(question))
    side = _SIDE.search(container)
    others = []
    if side is not None and writes != reading and side.group(1).lower().startswith(
            "read" if writes else "write"):  # the other side's object, its other verb
        word = side.group(1)
        wanted = _OTHER_SIDE[word.lower()]
        wanted = wanted.capitalize() if word[:1].isupper() else wanted
        verb = ("set" if writes else "get") if accessor else ""
        rest = f"{verb}{accessor.group(2)}{accessor.group(3)}" if accessor else name
        others.append(f"{container[:side.start(1)]}{wanted}{container[side.end(1):]}.{rest}")
    if accessor is not None:
        verb = accessor.group(1).lower()
        if verb == "get" and changes and not reads:
            others.append(f"{container}.set{accessor.group(2)}{accessor.group(3)}")
        elif verb == "set" and reads and not changes:
            others.append(f"{container}.get{accessor.group(2)}{accessor.group(3)}")
    for other in (o.lstrip(".").lower() for o in others):
        found = next((h for h in hits[:WORDED_DEPTH] if h is not entry and _is_entry(h)
                      and other in _entry_names(h)), None)
        if found is not None:
            return found
    return None


# the sections every manual has, as an HTML manual titles them (`<h2>DESCRIPTION</h2>`)
_MANUAL_SECTION = re.compile(r"^(?:NAME|SYNOPSIS|DESCRIPTION|OPTIONS|COMMANDS|EXAMPLES?|FILES|"
                             r"ENVIRONMENT(?: VARIABLES)?|EXIT STATUS|RETURN VALUES?|SEE ALSO|"
                             r"BUGS|NOTES|AUTHORS?|DIAGNOSTICS|CONFIGURATION|DISCUSSION|"
                             r"CAVEATS|WARNINGS?|SECURITY|HISTORY|LIMITATIONS|NOM|"
                             r"EXEMPLES?|FICHIERS|ENVIRONNEMENT|VOIR AUSSI|BOGUES|AUTEURS?|"
                             r"CODE DE RETOUR|AVERTISSEMENTS?|HISTORIQUE|SÉCURITÉ)$")


def _page_section(heading: Sentence) -> bool:
    """The heading is a manual page's section title ("DESCRIPTION", "OPTIONS"), or one of
    the sections every manual has titling its passage's section on an HTML manual
    (`<h2>DESCRIPTION</h2>`; not `IGNORECASE`, an entry's name)."""
    title = heading.text.strip()
    return not heading.term and bool(_SECTION_TITLE.match(title)) and (
        heading.hit.kind in _PAGE_KINDS or bool(_MANUAL_SECTION.match(title))
        and title in (heading.hit.heading or "").split(" > "))


def _names_term(question: str, term: Sentence) -> bool:
    """The question writes the name of `term`, a term alone on its line ("copytruncate"),
    or one of its spellings when it is an option's ("--squash" of "--squash, --no-squash")."""
    if term.term and _OPTION_LINE.match(term.text.strip()):
        return any(re.search(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", question)
                   for spelling in re.findall(r"--?[A-Za-z0-9][\w-]*", term.text))
    name = _LEADING_NAME.match(_term_name(term.text))
    return term.term and name is not None and re.search(
        rf"(?<![\w-]){re.escape(name.group(1))}(?![\w-])", question, re.I) is not None


def _term_far_above(own: list[Sentence], chosen: list[Sentence]) -> Sentence | None:
    """When the quote starts inside a long description of a term alone on its line (an
    option's, a directive's), past what a quote from its start reaches ("…Default is 3."
    at the end of `retries NUMBER`'s): the term, to lead it after an ellipsis; the reader
    learns what the description is of."""
    if not chosen or chosen[0].role != STATEMENT:
        return None
    start = _description_start(own, chosen[0])
    if start is None or start >= chosen[0].index or not own[start - 1].term:
        return None
    chosen[0].elided = True
    return _term_lead(own[start - 1], own[start - 1].index, chosen[0].block)


def _signature_before(own: list[Sentence], chosen: list[Sentence]) -> Sentence | None:
    """When the quote starts right after its passage's heading and that heading is an API
    entry's signature (a dotted name, or a name with its parameters), that signature, as
    code: the description alone ("The file extension of the final component") does not
    say what to call."""
    if not chosen or chosen[0].index == 0:
        return None
    heading = own[chosen[0].index - 1]
    text = _labelled_term(heading.text.strip()) or _term_name(heading.text)
    if heading.role != HEADING or not (_is_signature(text) or _TERM.match(text)
                                       or heading.term) or _page_section(heading):
        # (a manual page's section title, "DESCRIPTION", names no object)
        return None
    names = [text]
    if _OPTION_LINE.match(text):
        # one option's spellings, each on its line ("--dont-build=filename",
        # "--do-build=filename"; "-c", "--root-dir"): all of them name what follows
        while len(names) < OPTION_SPELLINGS and heading.index > 0 and \
                own[heading.index - 1].role == HEADING and \
                _OPTION_LINE.match(own[heading.index - 1].text.strip()):
            heading = own[heading.index - 1]
            names.insert(0, heading.text.strip())
    before = own[heading.index - 1] if heading.index > 0 else None
    if before is not None and before.role == HEADING and _TERM.match(before.text.strip()) \
            and _TERM.match(text) and not _page_section(before) \
            and not (heading.term and _OPTION_LINE.match(text)
                     and not _OPTION_LINE.match(before.text.strip())) \
            and before.text.strip() not in (heading.hit.heading or "").split(" > "):
        return None  # the last of a list of names ("FILTER_X86", …, "FILTER_SPARC"), not
        # the term the paragraph after it describes (under a manual page's "OPTIONS", or
        # an HTML page's section titled so, the first option is one; an option after the
        # short description of the one above it names what follows: `-i,
        # --ignore-garbage` after "decode data", `-d, --decode`'s)
    return Sentence(", ".join(f"`{_unquoted(n)}`" for n in names) + " —", heading.hit,
                    heading.start_line, own[chosen[0].index - 1].end_line,
                    index=heading.index, block=chosen[0].block, role=ATTACHED)


def _term_carried_over(own: list[Sentence], chosen: list[Sentence], hits: Sequence[Hit],
                       by_hit: dict[str, list[Sentence]]) -> Sentence | None:
    """When the quote opens its passage on "This option…" and the passage before it (among
    the hits, of the same section) ends in a term's entry, whose description the chunker
    cut in two (vacuumdb's `--analyze-in-stages`): that term, as code, leads the quote."""
    if not chosen or chosen[0].index != _body_start(own) or \
            not _NAMES_SHOWN.match(chosen[0].text):
        return None
    hit = chosen[0].hit
    before = next((h for h in hits if h.path == hit.path and h.chunk_id != hit.chunk_id
                   and h.end_line is not None and hit.start_line is not None
                   and h.end_line <= hit.start_line and _continues(h, hit)), None)
    if before is None:
        return None
    term = next((u for u in reversed(by_hit[before.chunk_id]) if u.role == HEADING), None)
    if term is None or not (term.term or _OPTION_LINE.match(term.text.strip())):
        return None
    return _term_lead(term, chosen[0].index, chosen[0].block)


_NUMBERING = re.compile(r"^(?:[\dIVXivx]+(?:\.\d+)*\.?|[A-Z]\.(?:\d+\.?)*)\s+")


def _name_before(own: list[Sentence], chosen: list[Sentence]) -> Sentence | None:
    """For a question asking which field, option or tool: when the quote names none and
    opens its section, whose title is a name of one to three words ("5.6.23. Homepage"),
    that name leads it: "The URL of the web site for this package" alone does not say
    which field to fill."""
    if not chosen or chosen[0].index != _body_start(own) or \
            any(carries(NAME, c.text) for c in chosen):
        return None
    first = chosen[0]
    title = (first.hit.heading or "").split(" > ")[-1]
    name = _unquoted(_NUMBERING.sub("", title.strip()).rstrip(" :."))
    if not name or len(name.split()) > 3:
        return None
    return Sentence(f"`{name}` —", first.hit, first.start_line, first.start_line,
                    index=first.index, block=first.block, role=ATTACHED)


def _cut_off(sentence: Sentence, following: Sentence | None) -> bool:
    """The statement announces what follows ("…ressemble à ce qui suit :") and its
    passage ends there, or goes on with something that is not its continuation: what
    completes it is in the next passage (chunks overlap; the next one starts with it)."""
    return sentence.role == STATEMENT and _goes_on(sentence) and (
        following is None or following.role not in QUOTABLE or following.block != sentence.block)


def _announced(sentence: Sentence, own: list[Sentence]) -> str:
    """The lines a sentence ending with a colon announces (its ATTACHED units in its
    block, up to a code block: code's figures are no value it gives), as one text; ""
    for any other sentence."""
    if not sentence.text.endswith(":"):
        return ""
    after = []
    for unit in own[sentence.index + 1:]:
        if unit.role != ATTACHED or unit.block != sentence.block or _FENCE.match(unit.text):
            break
        after.append(unit.text)
    return " ".join(after)


def _following(own: list[Sentence], sentence: Sentence) -> Sentence | None:
    return own[sentence.index + 1] if sentence.index + 1 < len(own) else None


def _leads(sentence: Sentence, by_hit: dict[str, list[Sentence]]) -> bool:
    """The first statement of its section in the passage (after its heading, or first)."""
    own = by_hit[sentence.hit.chunk_id]
    before = [s for s in own[:sentence.index] if s.block == sentence.block]
    return not before and (sentence.index == 0 or own[sentence.index - 1].role in
                           (HEADING, QUESTION))


def _subject_first(hits: list[Hit], units: list[Sentence], subject: dict | None
                   ) -> tuple[list[Hit], str | None]:
    """`hits` with the first of `subject`'s passages whose closest statement is within
    SUBJECT_COSINE of the first passage's closest first, and why (None: unmoved). Without
    an embedder (no cosines) nothing moves."""
    if not subject or not hits:
        return hits, None
    closest: dict[str, float] = {}
    for unit in units:
        if unit.role == STATEMENT and "cosine" in unit.parts:
            key = unit.hit.chunk_id
            closest[key] = max(closest.get(key, -1.0), unit.parts["cosine"])
    first = closest.get(hits[0].chunk_id)
    if first is None or not any(closest.values()):
        return hits, None
    for chunk_id in subject["passages"]:
        at = next((i for i, h in enumerate(hits) if h.chunk_id == chunk_id), None)
        if at is not None and closest.get(chunk_id, -1.0) >= first - SUBJECT_COSINE:
            return [hits[at]] + hits[:at] + hits[at + 1:], (
                f"passage ranked {hits[at].rank} ({hits[at].language}) holds the question's "
                f"rarest word found ({subject['word']}), the first does not: read first")
    return hits, None


def _asks_why_instead(title: Sentence, kind: str) -> bool:
    """The heading is a question asking why ("NOTE Pourquoi trois volumes RAID-1 ?") and the
    user's asks something else (where to look, how many, how): its body gives a reason,
    not what is asked, however close the two questions' words."""
    return title.role == QUESTION and kind not in (REASON, OTHER) and \
        question_kind(_LABEL.sub("", title.text)) == REASON


# the label of a box before its title: "NOTE Pourquoi…", "ASTUCE Démarrer…", "B.A.-BA …"
_LABEL = re.compile(r"^(?:[A-ZÀ-Þ][A-ZÀ-Þ.-]+\s+)+(?=[A-ZÀ-Þ][a-zà-ÿ])")


def _under(hit: Hit, other: Hit) -> bool:
    """`hit`'s section is one of `other`'s subsections: a page's title heads every section
    of the page, and its introduction answers no question one of them answers ("How to use
    skip and xfail…" over its "``strict`` parameter")."""
    return hit.path == other.path and bool(other.heading) and \
        (hit.heading or "").startswith(f"{other.heading} > ")


def _past_heading(unit: Sentence, quoted: Hit, own: list[Sentence]) -> bool:
    """A heading or a term stands between `unit` and the passage `quoted` goes on from:
    `unit` belongs to another entry of the section (hash_mem_multiplier's "The default
    setting of 2.0…" after work_mem's description)."""
    after = _position(unit.hit) > _position(quoted)
    between = own[:unit.index] if after else own[unit.index + 1:]
    return any(u.role == HEADING for u in between)


def _position(hit: Hit) -> tuple[int, int, int]:
    """Where a chunk sits in its document: page, line, then its number in the document."""
    ordinal = hit.chunk_id.rpartition(":")[2]
    return (hit.page or 0, hit.start_line or 0, int(ordinal) if ordinal.isdigit() else 0)


# A passage of the same section ending at most this many lines before another opens it
NEAR_LINES = 40


def _opens_quote(opening: list[Sentence], pick: Sentence, words: int) -> bool:
    """A quote from the body's start of the passage that opens a section (its units
    `opening`) states something, and reaches `pick`'s sentence when it holds it (passages
    overlap)."""
    quote = window(opening, _body_start(opening), words)
    holds = any(s.text == pick.text for s in opening)
    return any(s.role == STATEMENT for s in quote) and (
        not holds or any(s.text == pick.text for s in quote))


def _section_opening(hit: Hit, hits: Sequence[Hit]) -> Hit | None:
    """Of the passages found, the first one of `hit`'s section when `hit` goes on from it
    (same document and heading, before it, on the page before or within NEAR_LINES):
    where the section's body starts."""
    # close before it (`_continues`): a module page under one title ("http.server — HTTP
    # servers") opens hundreds of lines before the passage that answers
    earlier = [h for h in hits if _position(h) < _position(hit) and _continues(h, hit)]
    return min(earlier, key=_position, default=None)


# the lines between a passage and the next one that goes on from it (a blank line)
NEXT_PASSAGE_GAP = 2


def _announced_next(hits: Sequence[Hit], by_hit: dict[str, list[Sentence]],
                    skip: frozenset[str] | set[str]) -> None:
    """A passage that ends on a sentence announcing code ("The simplest way to do this is
    with the OpenSSL package, using something like the following:") whose code block the
    chunker put at the start of the next passage: that block, when the next passage was
    retrieved too, goes on the first one's units (cited at its own lines), so that the
    sentence carries what it announces."""
    for hit in hits:
        own = by_hit[hit.chunk_id]
        if not own or own[-1].role != STATEMENT or not announces(own[-1].text) \
                or hit.end_line is None:
            continue
        following = next((h for h in hits if h.path == hit.path and h.heading == hit.heading
                          and h.start_line is not None
                          and 0 < h.start_line - hit.end_line <= NEXT_PASSAGE_GAP), None)
        if following is None:
            continue
        last = own[-1]
        code = itertools.takewhile(lambda u: u.role == ATTACHED,
                                   split_sentences(following, skip, announced=True))
        own.extend(dataclasses.replace(u, index=len(own) + i, block=last.block)
                   for i, u in enumerate(list(code)))


def _continues(a: Hit, b: Hit) -> bool:
    """`a` and `b` are parts of one section: same document and heading, next to each other
    (within NEAR_LINES, or on the same or the next page of a section with a heading). A
    text without headings (a plain-text file, a manual page) is one section: its passages
    next to each other by their lines go on from one another."""
    if a.path != b.path or a.heading != b.heading:
        return False
    if a.page is not None or b.page is not None:
        return bool(a.heading) and abs((a.page or 0) - (b.page or 0)) <= 1
    first, second = sorted((a, b), key=_position)
    return (second.start_line or 0) - (first.end_line or 0) <= NEAR_LINES


# "fr", "en-US", "fr_FR" as a part of a path, with the separator before it: "devref-fr",
# "ch1.en.html", "fr-FR/", "/en/"
_LANGUAGE_PART = re.compile(r"(?:[._-]|(?<=/)|^)(?:en|fr)(?:[-_][a-z]{2})?(?=$|[/._-])",
                            re.I)


def _editions(a: Hit, b: Hit) -> bool:
    """`a` and `b` come from one document in two languages, or from the same one: their
    paths are the same once the language parts are taken out ("debian-faq/fr/ch1.fr.html"
    and "debian-faq/en/ch1.en.html", "fr-FR/sect.apt.html" and "en-US/sect.apt.html"), or,
    in two languages, they say the same figures, paths and names (a translation keeps
    them: "LTSP server: 40 GiB" and "serveur LTSP : 40 Gio" in "04-requirements.html" and
    "04-besoins.html")."""
    if _without_language(a.path) == _without_language(b.path):
        return True
    if _language(a) == _language(b):
        return False
    mine, theirs = _anchors(a.text), _anchors(b.text)
    return min(len(mine), len(theirs)) >= EDITION_ANCHORS and \
        len(mine & theirs) >= EDITION_SHARE * len(mine | theirs)


# what a translation keeps: figures, paths, names written with capitals inside or
# throughout ("10.0.0.0/8", "/etc/ntp.conf", "LTSP", "GiB")
_ANCHOR = re.compile(r"[\w./:-]*\d[\w./:-]*|\b[A-Z][A-Za-z]*[A-Z]\w*|/[\w./-]+")
# two passages in two languages are one passage's editions when they share this share of
# their anchors, each holding at least this many
EDITION_SHARE = 0.6
EDITION_ANCHORS = 4


def _anchors(text: str) -> set[str]:
    return set(_ANCHOR.findall(text))


def _without_language(path: str) -> str:
    return re.sub(r"/{2,}", "/", _LANGUAGE_PART.sub("", path))


def _same_manual(a: Hit, b: Hit) -> bool:
    """`a` and `b` are in one top folder once the language parts are taken out of their
    paths ("debian-faq/en/…" and "debian-faq/fr/…", "gimp-en/…" and "gimp-fr/…")."""
    return "/" in a.path and \
        _without_language(a.path).split("/")[0] == _without_language(b.path).split("/")[0]


def _stands_out(pick: Sentence, opening: list[Sentence], compared) -> bool:
    """`pick` scores STANDOUT more than every statement before it in the passage where its
    section opens (`opening`; every one when that is another passage): the question asks
    for what it says, not for the section's introduction."""
    before = [s for s in opening if s.role == STATEMENT and s.text != pick.text]
    if opening and pick.hit.chunk_id == opening[0].hit.chunk_id:
        before = [s for s in before if s.index < pick.index]
    return bool(before) and compared(pick) >= max(compared(s) for s in before) + STANDOUT


STANDOUT = 0.08


def _body_start(own: list[Sentence]) -> int:
    """The first quotable unit of a passage."""
    return next((s.index for s in own if s.role == STATEMENT), 0)


def _language(hit: Hit) -> str:
    return hit.language or question_language(hit.text[:400])


# A name the question writes with a capital inside a sentence ("…venant de Windows",
# "…serveur TCP en Python"): a product, a platform, a place
_CAPITALISED = re.compile(r"(?<![.!?:;]\s)(?<=\s)[A-ZÀ-Þ][\w+#-]{2,}")


def question_names(question: str, first: Hit | None = None) -> list[str]:
    """The names the question writes with a capital, not opening a sentence, not a
    function word; and, written in any case, the name of `first`'s document when it is no
    word ("quelle option de readlink…" over `readlink.txt`, "logging.config" over
    `logging.config.html`; not "budget" over `budget.html`): a command or module is its
    page's name, lowercase."""
    names = [n for n in dict.fromkeys(_CAPITALISED.findall(question))
             if tokens.fold(n) not in tokens.STOPWORDS]
    if first is not None:
        named = _document_name(first.path)
        names += [w for w in dict.fromkeys(_WRITTEN_NAME.findall(question))
                  if len(w) >= 3 and tokens.fold(w) == named and w not in names
                  and (not w.isalpha() or is_word(w) is False)]
    return names


# a name as a question writes it ("readlink", "logging.config", "tkinter.font", "ip-route")
_WRITTEN_NAME = re.compile(r"[\w][\w.+-]*[\w+]")


def _document_name(path: str) -> str:
    """A page's name without its suffixes and its manual section (folded):
    "manfr/readlink.1.fr.txt" -> "readlink", "library/logging.config.html" ->
    "logging.config"."""
    name = _without_language(path).rsplit("/", 1)[-1]  # (the language part: `_LANGUAGE_PART`)
    return tokens.fold(re.sub(r"(?:\.(?:txt|html?|md|rst|pdf|gz|\d\w?))+$", "", name, flags=re.I))


@lru_cache(maxsize=256)
def _name_of_page(path: str) -> re.Pattern[str]:
    """The page's own name as a word, in any case ("vnStat" in vnstat.txt), once a page."""
    name = _document_name(path)
    return re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])" if len(name) >= 3 else "(?!)",
                      re.I)


def _without_page_names(text: str, units: Sequence[Sentence]) -> str:
    """`text` without the names of the pages `units` come from ("logrotate" in "Which
    logrotate directive should I use?" over logrotate(8))."""
    for path in {u.hit.path for u in units}:
        text = _name_of_page(path).sub(" ", text)
    return text


def _mentions(hit: Hit, name: str) -> bool:
    """The passage, its heading, its document's title or path names `name`."""
    where = f"{hit.title or ''}\n{hit.path}\n{hit.heading or ''}\n{hit.text}"
    return re.search(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])", where, re.I) is not None


def _same_subject(names: list[str], first: Hit, other: Hit) -> bool:
    """`other` names each of the question's `names` that the first passage names: a
    passage of another product ("…convert-ly…" for a question about reading files in
    Python, answered from Python's pages) does not answer it."""
    return all(_mentions(other, n) for n in names if _mentions(first, n))


def _said(sentence: Sentence) -> str:
    """What a unit says, as repeats are told apart (overlapping chunks, a page's copy)."""
    return " ".join(sentence.text.lower().split())


def _distinct(sentences: list[Sentence]) -> list[Sentence]:
    """Drop repeats (overlapping chunks share sentences)."""
    seen, out = set(), []
    for s in sentences:
        key = _said(s)
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out
