"""Manual pages: roff with the man(7) or mdoc(7) macros, plain or gzipped (`su.1`,
`ssh_config.5.gz`, as /usr/share/man keeps them), read as `man` shows them.

The page is rendered as text (`render`): its header ("SU(1)   User Commands   SU(1)"),
section titles (`.SH`, `.Sh`) at the margin and subsections (`.SS`, `.Ss`) three spaces
in, paragraphs indented and wrapped, a tagged item (`.TP`, `.IP`, `.It` of a tag list) as
its tag over its description (on its first line when the tag is narrower than the
indent), displays (`.nf`, `.EX`, `.Bd -literal`) as laid out, a tbl table's rows as lines
of cells. Font changes, escapes and mdoc's inline macros (`Fl p Ar port` -> "-p port",
`Xr ssh 1` -> "ssh(1)") become the text they print; conditionals, macro definitions and
layout requests print nothing. That text is cut by the plain-text reader of manual pages
(`parse_man`), and its lines are what a citation gives and the viewer shows."""

from __future__ import annotations

import re
import textwrap
import zlib
from dataclasses import dataclass

from preuve.ingest.base import ChunkSettings, Parsed, ParseError, decode_text
from preuve.ingest.markdown import parse_text

# a manual page's file name: `su.1`, `ssh_config.5.gz`, `printf.3pm.gz`, `openssl.1ssl`,
# a translation as source trees name it (`ls.1.fr.gz`, `dpkg.1.pt_BR`: a language's code,
# not a file type's: `README-0.27.2.md`); not a shared library's `libfoo.so.1`
_LANGUAGES = ("bg ca cs da de el eo es et eu fi fr gl hr hu id it ja ko lt lv nb nl nn pl pt "
              "ro ru sk sl sr sv tr uk vi zh").split()
NAME = re.compile(r"^(?!.*\.so\.)[\w.+@-]+\.[1-9][a-z]{0,6}"
                  rf"(?:\.(?:{'|'.join(_LANGUAGES)})(?:_[a-z]{{2}})?)?(?:\.gz)?$", re.I)
# a gzipped page may inflate to this at most (a page is rarely over 1 MB)
MAX_INFLATED = 32 * 1024 * 1024


def roff_source(data: bytes) -> str:
    """The roff text of a page, gunzipped when it is gzipped (at most MAX_INFLATED)."""
    if data[:2] == b"\x1f\x8b":
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            data = inflater.decompress(data, MAX_INFLATED)
        except zlib.error as exc:
            raise ParseError(f"damaged gzip data ({exc})") from None
        if inflater.unconsumed_tail:
            raise ParseError(f"inflates to more than {MAX_INFLATED // 2**20} MB: not a "
                             "manual page")
    text = decode_text(data)
    if _REDIRECT.match(text):  # `.so man7/queue.7`: another page's name, no text of its own
        return ""
    if not _ROFF.search(text[:20_000]):
        raise ParseError("no man(7) or mdoc(7) macro (.TH, .SH, .Dd, .Sh): not a manual page")
    return text


_ROFF = re.compile(r"^[.'][ \t]*(?:TH|SH|Dd|Dt|Sh)\b", re.M)
_REDIRECT = re.compile(r"^(?:[.'][ \t]*\\\".*\n|\s*\n)*[.'][ \t]*so[ \t]+\S+[ \t]*"
                       r"(?:\n[.'][ \t]*\\\".*|\n\s*)*$")

# ---------------------------------------------------------------- escapes and arguments

_CHARS = {"em": "—", "en": "–", "hy": "-", "aq": "'", "dq": '"', "lq": "“", "rq": "”",
          "oq": "‘", "cq": "’", "bu": "•", "co": "©", "rg": "®", "tm": "™", "rs": "\\",
          "ti": "~", "ha": "^", "at": "@", "sh": "#", "Do": "$", "ba": "|", "bv": "|",
          "mu": "×", "di": "÷", "+-": "±", "<=": "≤", ">=": "≥", "!=": "≠", "->": "→",
          "<-": "←", "de": "°", "ua": "↑", "da": "↓", "fm": "′", "sd": "″", "ss": "ß",
          "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "ga": "`", "aa": "´", "lB": "[",
          "rB": "]", "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩", "pl": "+", "mi": "-",
          "eq": "=", "sl": "/", "ul": "_", "ru": "_", "dg": "†", "ct": "¢", "Eu": "€",
          "eu": "€", "Po": "£", "Ye": "¥", "tf": "∴", "if": "∞", "ap": "~", "~~": "≈",
          "==": "≡", "pc": "·", "OK": "✓", "es": "∅", "ff": "ff", "fi": "fi", "fl": "fl",
          "'e": "é", "`e": "è", "^e": "ê", "'E": "É", "`a": "à", "^a": "â", ",c": "ç",
          ":u": "ü", ":o": "ö", ":a": "ä", "^o": "ô", "^i": "î", ":i": "ï", "`u": "ù",
          "^u": "û", "oe": "œ", "OE": "Œ", "ae": "æ", "AE": "Æ", "`A": "À", "'a": "á"}
# the predefined strings of man(7) and mdoc(7): \*(lq, \*R...
_STRINGS = {"lq": "“", "rq": "”", "R": "®", "Tm": "™", "S": "", "Lq": "“", "Rq": "”",
            "q": '"', "Pi": "π", "Ne": "≠", "Le": "≤", "Ge": "≥", "Lt": "<", "Gt": ">",
            "Pm": "±", "If": "∞", "Na": "NaN", "Ba": "|", "Am": "&",
            # the apostrophe every DocBook page defines (`.ds Aq \(aq`): "qu\*(Aqil"
            "Aq": "'"}
_ESCAPE = re.compile(
    r"\\(?:"
    r"(?P<font>f(?:\[[^\]]*\]|\(..|.))"       # \fB \fR \f(CW \f[B]: a font change
    r"|(?P<size>s[+-]?(?:\d|\(\d\d|\[[^\]]*\]|'[^']*'))"  # \s-1 \s0: a size change
    r"|(?P<named>\((?P<n2>..)|\[(?P<nl>[^\]]*)\])"  # \(em \[em] \[u00E9]: a character
    r"|(?P<string>\*(?:\((?P<s2>..)|\[(?P<sl>[^\]]*)\]|(?P<s1>.)))"  # \*(lq \*R: a string
    r"|(?P<arg>[hvwoDlLNbxXZkMmVYg]'[^']*')"   # \h'...' \w'...' \N'..': drawing, widths
    r"|(?P<number>n(?:\(..|\[[^\]]*\]|.))"     # \n(.l: a register
    r"|(?P<color>[mM](?:\[[^\]]*\]|\(..|.))"     # \m[blue] \m[]: a colour change (DocBook's)
    r"|(?P<other>.)"
    r")", re.S)
_SIMPLE = {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "t": "\t",
           "'": "´", "`": "`", ".": ".", '"': "", "&": "", "|": "", "^": "", "%": "",
           ":": "", ")": "", "/": "", ",": "", "c": "", "p": "", "{": "", "}": "",
           "!": "", "a": "", "d": "", "u": "", "r": "", "z": "", "E": "\\"}


def _character(name: str) -> str:
    if name in _CHARS:
        return _CHARS[name]
    code = (int(name[1:], 16) if re.fullmatch(r"u[0-9A-Fa-f]{4,6}", name) else
            int(name[4:]) if re.fullmatch(r"char\d{1,7}", name) else None)
    return chr(code) if code is not None and code < 0x110000 else ""  # (none beyond)


def _replace(match: re.Match) -> str:
    if match["font"] or match["size"] or match["arg"] or match["number"] or match["color"]:
        return ""
    if match["named"]:
        return _character(match["n2"] or match["nl"] or "")
    if match["string"]:
        return _STRINGS.get(match["s2"] or match["sl"] or match["s1"] or "", "")
    return _SIMPLE.get(match["other"], match["other"])


def unescape(text: str) -> str:
    """A roff line's printed text: escapes replaced, font and size changes gone, a
    `\\"` comment cut."""
    cut = re.search(r'\\"', text)
    if cut and not text[:cut.start()].endswith("\\"):
        text = text[:cut.start()]
    return _ESCAPE.sub(_replace, text)


def arguments(line: str) -> list[str]:
    """A request's arguments, roff's way: spaces separate, double quotes group (`""` is a
    quote inside them)."""
    out, i, n = [], 0, len(line)
    while i < n:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n:
            break
        if line[i] == '"':
            i += 1
            word = []
            while i < n:
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        word.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                word.append(line[i])
                i += 1
            out.append("".join(word))
        else:
            j = i
            while j < n and line[j] not in " \t":
                j += 2 if line[j] == "\\" else 1
            out.append(line[i:j])
            i = j
    return out


# ---------------------------------------------------------------- mdoc's inline macros

_ENCLOSE = {"Op": ("[", "]"), "Dq": ("“", "”"), "Sq": ("‘", "’"), "Ql": ("‘", "’"),
            "Pq": ("(", ")"), "Qq": ('"', '"'), "Aq": ("⟨", "⟩"), "Bq": ("[", "]"),
            "Brq": ("{", "}"), "Eq": ("", "")}
_OPEN = {"Oo": "[", "Do": "“", "So": "‘", "Po": "(", "Qo": '"', "Ao": "⟨", "Bo": "[",
         "Bro": "{", "Eo": ""}
_CLOSE = {"Oc": "]", "Dc": "”", "Sc": "’", "Pc": ")", "Qc": '"', "Ac": "⟩", "Bc": "]",
          "Brc": "}", "Ec": ""}
_WORDS = {"Ar", "Cm", "Ic", "Li", "Pa", "Ev", "Va", "Dv", "Er", "Sy", "Em", "Tn", "Ad", "Cd",
          "Ft", "Fa", "Vt", "In", "An", "Lk", "Mt", "Ms", "No", "Sx", "Ot", "Ux",
          "Bx", "Ox", "Nx", "Fx", "Dx", "Bsx", "At", "St", "Nm", "Fl", "Xr", "Fn", "Ns",
          "Pf", "Ta", "Xo", "Xc", "Ap", "Es", "Fo", "Fc", "Lb", "Rv", "Ex", "Nd"}
_SYSTEMS = {"Ux": "UNIX", "Bx": "BSD", "Ox": "OpenBSD", "Nx": "NetBSD", "Fx": "FreeBSD",
            "Dx": "DragonFly", "Bsx": "BSD/OS", "At": "AT&T UNIX"}
_CALLABLE = _WORDS | set(_ENCLOSE) | set(_OPEN) | set(_CLOSE)
_PUNCTUATION = re.compile(r"^[.,:;)\]?!]+$")


class _Words:
    """Words joined as mdoc spaces them: punctuation and `Ns` close up."""

    def __init__(self, spaced: bool = True):
        self.parts: list[str] = []
        self.tight = False
        self.spaced = spaced

    def add(self, word: str, tight: bool = False):
        if word == "":
            return
        if self.parts and self.spaced and not (tight or self.tight
                                               or _PUNCTUATION.match(word)):
            self.parts.append(" ")
        self.parts.append(word)
        self.tight = False

    def text(self) -> str:
        return "".join(self.parts)


def mdoc_text(tokens: list[str], name: str, spaced: bool = True) -> str:
    """What a line of mdoc macros and words prints (`Fl p Ar port` -> "-p port"; not
    `spaced`: under `.Sm off`, closed up)."""
    words = _Words(spaced)
    _inline(tokens, words, name)
    return words.text()


def _inline(tokens: list[str], words: _Words, name: str) -> None:
    i, macro = 0, ""
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token in _CALLABLE:
            macro = token
            if token in _ENCLOSE:  # it encloses the rest of the line, but its punctuation
                rest = tokens[i:]
                end = len(rest)
                while end and _PUNCTUATION.match(rest[end - 1]):
                    end -= 1
                inner = _Words(words.spaced)
                _inline(rest[:end], inner, name)
                left, right = _ENCLOSE[token]
                words.add(left + inner.text() + right)
                for mark in rest[end:]:
                    words.add(mark)
                return
            if token in _OPEN:
                words.add(_OPEN[token])
                words.tight = True
            elif token in _CLOSE:
                words.add(_CLOSE[token], tight=True)
            elif token == "Ns" or token == "Ap":
                words.tight = True
                if token == "Ap":
                    words.add("'", tight=True)
                    words.tight = True
            elif token == "Pf" and i < len(tokens):
                words.add(unescape(tokens[i]))
                words.tight = True
                i += 1
            elif token == "Ta":
                words.add("|")
            elif token == "Xr":
                args = _plain(tokens, i)
                if args:
                    page = unescape(args[0]) + (f"({unescape(args[1])})" if len(args) > 1
                                                else "")
                    words.add(page)
                    i += min(2, len(args))
            elif token == "Fn":
                args = _plain(tokens, i)
                if args:
                    words.add(f"{unescape(args[0])}({', '.join(map(unescape, args[1:]))})")
                    i += len(args)
            elif token == "Nm":
                if not _plain(tokens, i):
                    words.add(name)
            elif token == "Ar":
                if not _plain(tokens, i):
                    words.add("file ...")
            elif token == "Fl":
                if not _plain(tokens, i):
                    words.add("-")
            elif token in _SYSTEMS:
                args = _plain(tokens, i)
                words.add(_SYSTEMS[token] + (f" {unescape(args[0])}" if args else ""))
                i += min(1, len(args))
            continue
        token = unescape(token)
        if macro == "Fl" and not _PUNCTUATION.match(token) and token != "|":
            words.add("-" + token)
        else:
            words.add(token)


def _plain(tokens: list[str], i: int) -> list[str]:
    """The words from `i` up to the next callable macro or punctuation."""
    out = []
    for token in tokens[i:]:
        if token in _CALLABLE or _PUNCTUATION.match(token):
            break
        out.append(token)
    return out


# ---------------------------------------------------------------- the page's blocks

_FONT_ALTERNATING = {"BR", "RB", "BI", "IB", "IR", "RI"}
_FONT_JOINED = {"B", "I", "SM", "SB", "CW", "R"}
_BULLETS = {"\\(bu", "\\[bu]", "•", "-", "*", "\\-", "o", "\\(em", "\\(en"}


@dataclass
class _Unit:
    """A piece of the page as `man` lays it out: a section's or subsection's title, an
    item's tag, a paragraph or a display, at its indentation."""

    kind: str  # "heading", "tag", "text" or "display"
    text: str
    indent: int = 0
    spaced: bool = True  # a blank line above it (`.PP`, `.sp`, `.TP`...; not `.br`, `.RS`)


class _Page:
    """The units of a page as its lines are read, with the indentation each is set at."""

    def __init__(self):
        self.units: list[_Unit] = []
        self.lines: list[str] = []
        self.indent = 0           # where the paragraph being read started
        self.preformatted = False
        self.name = ""            # what `.Nm` prints (mdoc), else .TH's name
        self.page = ""            # .TH's or .Dt's name, as written
        self.section = ""
        self.synopsis = False     # in SYNOPSIS: each `.Nm` starts a usage line
        self.header = ""          # .TH's manual title ("User Commands")
        self.footer: list[str] = []  # .TH's source and date
        self.url = ""
        self.spaced = True        # mdoc's `.Sm off` closes words up...
        self.closing = False      # ... and the next macro line onto this one
        self.expect_heading = 0   # a level when `.SH` came alone: its text is the next line
        self.expect_tag = False   # after `.TP`: the next line is the item's tag
        self.shifts: list[int] = []  # `.RS` (and mdoc's lists and displays) indent by these
        self.body = 0             # an item's description, further than its tag
        self.lists: list[str] = []  # mdoc lists open: -tag, -bullet, -enum, -column...
        self.counters: list[int] = []
        self.prefix = ""          # a bullet or number the next paragraph starts with
        self.space = True         # the next unit has a blank line above it

    def margin(self) -> int:
        return min(BODY_INDENT + sum(self.shifts) + self.body, MAX_INDENT)

    def flush(self) -> None:
        if not self.lines:
            return
        if self.preformatted:
            text = "\n".join(line.rstrip() for line in self.lines).strip("\n")
            if text.strip():
                self.units.append(_Unit("display", text, self.indent, spaced=self.space))
                self.space = False
        else:
            text = " ".join(" ".join(self.lines).split())
            if text:
                self.units.append(_Unit("text", text, self.indent, spaced=self.space))
                self.space = False
        self.lines = []

    def spacing(self) -> None:
        """The paragraph being read ends, and a blank line opens the next one."""
        self.flush()
        self.space = True

    def add(self, text: str) -> None:
        if self.expect_heading:
            self.start_section(self.expect_heading, text)
            return
        if self.expect_tag:  # the tag of a .TP item: a line of its own
            self.expect_tag = False
            self.tag(text)
            return
        if not self.preformatted and not text.strip():
            self.flush()
            return
        if not self.lines:
            self.indent = self.margin()
            if self.prefix:
                text, self.prefix = f"{self.prefix} {text}", ""
        self.lines.append(text)

    def tag(self, text: str) -> None:
        """An item's tag on its line; what follows describes it, further in."""
        self.flush()
        self.body = 0
        if text.strip():
            self.units.append(_Unit("tag", " ".join(text.split()), self.margin(),
                                    spaced=self.space))
            self.space = False
        self.body = ITEM_INDENT

    def paragraph(self) -> None:
        """A new paragraph at the margin (`.PP`, `.LP`): an item's description ends."""
        self.spacing()
        self.body = 0

    def start_section(self, level: int, text: str) -> None:
        self.flush()
        self.expect_heading = 0
        self.expect_tag = False
        self.shifts, self.body, self.lists, self.counters = [], 0, [], []
        text = " ".join(text.split())
        if not text:
            self.expect_heading = level
            return
        self.units.append(_Unit("heading", text, 0 if level == 1 else 3))
        self.space = False
        if level == 1:
            self.synopsis = text.upper() in ("SYNOPSIS", "RÉSUMÉ", "SINOPSIS")

    def item(self, tag: str) -> None:
        """An item of an mdoc list: its tag a line of its own, or its bullet or number the
        start of its paragraph."""
        kind = self.lists[-1] if self.lists else "-tag"
        if kind in ("-bullet", "-dash", "-hyphen"):
            self.paragraph()
            self.prefix = "•" if kind == "-bullet" else "-"
        elif kind == "-enum":
            self.paragraph()
            self.counters[-1] += 1
            self.prefix = f"{self.counters[-1]}."
        elif kind == "-column":
            self.paragraph()
            if tag:
                self.add(tag)
        else:
            self.spacing()
            self.tag(tag)


_LIST_KINDS = {"-tag", "-bullet", "-dash", "-hyphen", "-enum", "-item", "-column", "-hang",
               "-ohang", "-inset", "-diag"}

# `man`'s layout: a section's text this far from the margin, an item's description this
# much further than its tag, an mdoc list's or display's `-offset indent`; lines this wide
BODY_INDENT = 7
ITEM_INDENT = 7
OFFSET_INDENT = 8
WIDTH = 80
# however deep `.RS` nests (`.RS 100000000` would print lines of a hundred million spaces;
# no page under /usr/share/man goes beyond it)
MAX_INDENT = 4 * WIDTH


# a string the page defines (`.ds = \-\^\-`: patch(1) writes its long options "\*=dry-run"),
# and where a page calls one: \*X, \*(XX, \*[NAME]
_DEFINED_STRING = re.compile(r"^[.'][ \t]*ds1?[ \t]+(\S+)[ \t]?(.*)$", re.M)
_STRING_CALL = re.compile(r"\\\*(?:\((..)|\[([^\]]*)\]|([^(\[]))")


def _with_defined_strings(text: str) -> str:
    """`text` with the strings its page defines put where it calls them (as roff does
    before reading; the predefined ones, `_STRINGS`, are left to `unescape`)."""
    defined = {name: value[1:] if value.startswith('"') else value
               for name, value in _DEFINED_STRING.findall(text)}
    if not defined:
        return text
    return _STRING_CALL.sub(lambda m: defined.get(m[1] or m[2] or m[3], m[0]), text)


# a one-line conditional whose condition is plain: `n` (a terminal: what `man` prints), `t`
# (a typesetter), or two strings compared ("!'po4a'hide'", translated pages' way of
# showing a line their translators skip), then what it does when the condition holds
_CONDITION = re.compile(r"^[.'][ \t]*(if|ie|el)[ \t]+(?:(!?)(?:([nt])|([^\w\s\\])(.*?)\4(.*?)\4)"
                        r"[ \t]+)?(.*)$")


def _resolved_conditions(lines: list[str]) -> list[str]:
    """`lines` with each one-line conditional whose condition can be read (`_CONDITION`)
    replaced by what it does when it holds, or by nothing; `.el` does what its `.ie` did
    not. Others (a register compared, a block in \\{ \\}) are left to the reader, which
    skips them."""
    out, otherwise = [], None
    for line in lines:
        found = _CONDITION.match(line)
        if found is None or "\\{" in line:
            out.append(line)
            continue
        request, negated, device, _, left, right, action = found.groups()
        if request == "el":
            if otherwise is not None and action:
                out.append(action if otherwise else "")
            else:
                out.append(line)
            otherwise = None
            continue
        if device is None and left is None:
            out.append(line)  # a condition not read here
            otherwise = None
            continue
        holds = (device == "n") if device else (left == right)
        holds = holds != bool(negated)
        out.append(action if holds else "")
        otherwise = (not holds) if request == "ie" else None
    return out


def _read(text: str) -> _Page:
    """The page of roff `text`, read line by line."""
    lines = _resolved_conditions(_with_defined_strings(text).split("\n"))
    page = _Page()
    skip_until = ""        # inside `.de`/`.ig` (to `..`) or a conditional's \{ ... \}
    depth = 0
    table = False          # inside .TS/.TE: format lines, then rows
    table_format = False
    tab = "\t"
    pending = ""           # a line continued by a final backslash
    for raw in lines:
        if pending:
            raw, pending = pending + raw, ""
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            pending = raw[:-1]
            continue
        if skip_until:
            if skip_until == "}":
                depth += raw.count("\\{") - raw.count("\\}")
                if depth <= 0:
                    skip_until = ""
            elif raw.strip() in (skip_until, ".."):
                skip_until = ""
            continue
        control = raw[:1] in (".", "'")
        if control:
            body = raw[1:].lstrip()
            if body.startswith('\\"') or not body:
                continue
            macro, _, rest = body.partition(" ")
            macro = macro.rstrip()
            if "\t" in macro:
                macro, _, more = macro.partition("\t")
                rest = f"{more} {rest}"
        else:
            macro, rest = "", ""
        if table:
            if control and macro == "TE":
                page.flush()
                table = False
                continue
            if control:
                continue
            if table_format:  # options and format lines, to the one ending with "."
                found = re.search(r"tab\s*\((.)\)", raw)
                if found:
                    tab = found[1]
                if raw.rstrip().endswith("."):
                    table_format = False
                continue
            if raw.strip() in ("_", "=", ".T&"):
                continue
            cells = [unescape(cell).strip() for cell in raw.split(tab)]
            cells = [c for c in cells if c not in ("T{", "T}", "")]
            if cells:
                page.add(" | ".join(cells))
                page.flush()
            continue
        if not control:
            page.add(unescape(raw))
            page.closing = False
            continue
        args = arguments(rest)
        if macro in ("de", "de1", "am", "ig"):
            skip_until = "." + args[1] if macro == "ig" and len(args) > 1 else ".."
            continue
        if macro in ("if", "ie", "el"):
            depth = rest.count("\\{") - rest.count("\\}")
            if depth > 0:
                skip_until = "}"
            continue
        if macro in ("TH", "Dt"):  # the page's name and section, its header and footer
            fields = [unescape(a) for a in args]
            page.page = fields[0] if fields else ""
            page.name = page.page if macro == "TH" else page.name
            page.section = fields[1] if len(fields) > 1 else ""
            if macro == "TH":
                page.footer = [f for f in fields[3:4] + fields[2:3] if f]
                page.header = fields[4] if len(fields) > 4 else ""
            continue
        if macro in ("SH", "Sh"):
            page.start_section(1, _line_text(macro, args, page))
            continue
        if macro in ("SS", "Ss"):
            page.start_section(2, _line_text(macro, args, page))
            continue
        if macro in ("nf", "EX") or (macro == "Bd" and any(
                a in ("-literal", "-unfilled") for a in args)):
            page.flush()
            if macro == "Bd":
                page.shifts.append(OFFSET_INDENT if "-offset" in args else 0)
            page.preformatted = True
            continue
        if macro in ("fi", "EE", "Ed"):
            page.flush()
            page.preformatted = False
            if macro == "Ed" and page.shifts:
                page.shifts.pop()
            continue
        if macro == "Bd":
            page.spacing()
            page.shifts.append(OFFSET_INDENT if "-offset" in args else 0)
            continue
        if macro == "TS":
            page.flush()
            table, table_format, tab = True, True, "\t"
            continue
        if macro in ("TP", "TQ"):
            page.flush()
            if macro == "TP":
                page.spacing()
                page.body = 0
            page.expect_tag = True
            continue
        if macro == "IP":
            tag = unescape(args[0]).strip() if args else ""
            page.paragraph()
            if args and args[0] in _BULLETS or tag in ("•", "-", "*", "o"):
                page.body = ITEM_INDENT
                page.prefix = "•"
            elif re.fullmatch(r"\(?\d+[.)]?|[a-z][.)]", tag):
                page.body = ITEM_INDENT
                page.prefix = tag
            else:
                page.tag(tag)
            continue
        if macro == "RS":
            page.flush()
            page.shifts.append(page.body + (_number(args[0]) if args else ITEM_INDENT))
            page.body = 0
            continue
        if macro == "RE":
            page.flush()
            if page.shifts:
                page.shifts.pop()
            page.body = 0
            continue
        if macro == "Bl":
            page.spacing()
            kind = next((a for a in args if a in _LIST_KINDS), "-tag")
            page.shifts.append(page.body + (OFFSET_INDENT if "-offset" in args else 0))
            page.body = 0
            page.lists.append(kind)
            page.counters.append(0)
            continue
        if macro == "El":
            page.paragraph()
            if page.lists:
                page.lists.pop()
                page.counters.pop()
            if page.shifts:
                page.shifts.pop()
            page.body = ITEM_INDENT if page.lists else 0
            continue
        if macro == "It":
            kind = page.lists[-1] if page.lists else "-tag"
            tag = mdoc_text(args, page.name) if kind not in ("-bullet", "-dash", "-hyphen",
                                                            "-enum", "-item") else ""
            if "Xo" in args:  # the tag goes on over the next lines, to `Xc`
                page.flush()
                page.body = 0
                page.indent, page.lines = page.margin(), [tag]
                continue
            page.item(tag)
            continue
        if macro == "Xc":
            page.lines.append(mdoc_text(args, page.name))
            tag = " ".join(" ".join(page.lines).split())
            page.lines = []
            page.tag(tag)
            continue
        if macro in ("D1", "Dl"):
            page.flush()
            was = page.preformatted
            page.preformatted = macro == "Dl"
            page.shifts.append(OFFSET_INDENT)
            page.add(mdoc_text(args, page.name))
            page.flush()
            page.shifts.pop()
            page.preformatted = was
            continue
        if macro == "Nm" and page.name == "" and args:
            page.name = unescape(args[0])
        if macro == "Nm" and page.synopsis:
            page.flush()
        if macro == "Nd":
            page.add("- " + mdoc_text(args, page.name))
            continue
        if macro in ("UR", "MT"):  # a link: its text follows, its address is printed after
            page.url = unescape(args[0]) if args else ""
            continue
        if macro in ("UE", "ME"):
            if page.url:
                page.add(f"<{page.url}>" + "".join(args))
            page.url = ""
            continue
        if macro == "SY":
            page.paragraph()
            page.add(unescape(" ".join(args)))
            continue
        if macro == "OP":
            page.add("[" + unescape(" ".join(args)) + "]")
            continue
        if macro in ("PP", "P", "LP", "HP"):
            page.paragraph()
            continue
        if macro in ("Pp", "Lp"):  # (mdoc's stays in the item it is in)
            page.spacing()
            continue
        if macro == "sp":
            page.spacing()
            continue
        if macro == "br":
            page.flush()
            continue
        if macro in _FONT_JOINED:  # (`.B` alone sets the next line in bold: no text)
            if args:
                page.add(unescape(" ".join(args)))
            continue
        if macro in _FONT_ALTERNATING:
            page.add(unescape("".join(args)))
            continue
        if macro == "Sm":  # mdoc's spacing mode: off, words and lines close up
            page.spaced = bool(args) and args[0] == "on" or not args and not page.spaced
            page.closing = False
            continue
        if macro in _CALLABLE:  # an mdoc line of inline macros: Fl, Ar, Xr, Op...
            text = mdoc_text([macro, *args], page.name, page.spaced)
            if page.closing and page.lines:
                page.lines[-1] += text
            else:
                page.add(text)
            page.closing = not page.spaced
            continue
        # anything else (a layout request, an unknown macro) prints nothing
    page.flush()
    return page


def _number(value: str) -> int:
    """An indentation given to `.RS` ("4", "7n", "0.5i"), in characters."""
    found = re.match(r"[+-]?\d+(?:\.\d+)?", value)
    if not found:
        return ITEM_INDENT
    amount = float(found.group())
    return max(0, round(amount * 10 if value.rstrip().endswith("i") else amount))


def render(data: bytes) -> str:
    """A page as `man` prints it as text: its header ("SU(1)   User Commands   SU(1)"),
    section titles at the margin, subsections indented three spaces, paragraphs indented
    and wrapped to WIDTH columns, each item's tag on its line over its description (on
    its first line when the tag is narrower than the indent), displays as laid out, and
    its footer. Empty for a page that only names another."""
    source = roff_source(data)
    if not source:
        return ""
    page = _read(source)
    name = page.page or page.name or "?"
    ends = f"{name.upper() if name.islower() else name}({page.section})"
    out = [f"{ends}{' ' * 4}{page.header or 'Manual'}{' ' * 4}{ends}", ""]
    previous = None
    for unit in page.units:
        if unit.kind == "heading":
            if out[-1]:
                out.append("")
            out.append(" " * unit.indent + unit.text)
        else:
            if previous is not None and unit.spaced and previous.kind != "heading" and out[-1]:
                out.append("")
            margin = " " * unit.indent
            if unit.kind == "display":
                out.extend(margin + line if line else "" for line in unit.text.split("\n"))
            elif unit.kind == "tag":
                out.append(margin + unit.text)
            else:
                lines = textwrap.wrap(unit.text, width=max(WIDTH - unit.indent, 40),
                                      initial_indent=margin, subsequent_indent=margin,
                                      break_long_words=False, break_on_hyphens=False)
                gap = unit.indent - previous.indent if previous is not None else 0
                if previous is not None and previous.kind == "tag" and not unit.spaced \
                        and 0 < len(previous.text) < gap - 1 \
                        and out[-1].strip() == previous.text:
                    # a tag narrower than the indent shares its description's first line,
                    # as `man` sets it ("124    if COMMAND times out"), two spaces at
                    # least between them (a tag that fills the indent but one column,
                    # "rotate Sets RES_ROTATE…", reads as one line of text: over its
                    # description)
                    lines[0] = out.pop() + lines[0][previous.indent + len(previous.text):]
                out.extend(lines)
        previous = unit
    if page.footer:
        out += ["", f"{' ' * 4}".join([*page.footer, ends])]
    return "\n".join(out) + "\n"


def _line_text(macro: str, args: list[str], page: _Page) -> str:
    """A heading's text: its arguments as printed (mdoc's inline macros read)."""
    if macro in ("Sh", "Ss"):
        return mdoc_text(args, page.name)
    return unescape(" ".join(args))


def parse_man(data: bytes, settings: ChunkSettings) -> Parsed:
    """A manual page read as the text `man` prints (`render`), which the plain-text
    reader cuts as it cuts a page rendered by `man`: sections, options kept with their
    descriptions, the NAME line as title. Its lines, cited, are the rendering's."""
    text = render(data)
    if not text:  # a page that only names another (`.so`): skipped, nothing to index
        return Parsed()
    return parse_text(text.encode("utf-8"), settings)
