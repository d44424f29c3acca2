"""Manual pages: roff with the man(7) or mdoc(7) macros, plain or gzipped (`su.1`,
`ssh_config.5.gz`, as /usr/share/man keeps them), read as `man` shows them.

The page's name and section (`su(1)`, from `.TH` or `.Dt`) are its title and the root of
its heading path, its sections (`.SH`, `.Sh`) and subsections (`.SS`, `.Ss`) the rest. A
tagged item (`.TP`, `.IP`, `.It` of a tag list) is its tag on a line of its own, then its
description, as an HTML page's <dt> and <dd>; a display (`.nf`, `.EX`, `.Bd -literal`) is
kept as laid out, fenced like <pre>; a tbl table's rows are lines of cells. Font
changes, escapes and mdoc's inline macros (`Fl p Ar port` -> "-p port", `Xr ssh 1` ->
"ssh(1)") become the text they print; conditionals, macro definitions and layout requests
print nothing. A block's lines are the roff source's (decompressed), which the viewer
shows as text."""

from __future__ import annotations

import re
import zlib

from preuve.ingest.base import ChunkSettings, Parsed, ParseError, decode_text
from preuve.ingest.chunking import chunks_from_blocks, word_count
from preuve.ingest.html import Block, fenced

# a manual page's file name: `su.1`, `ssh_config.5.gz`, `printf.3pm.gz`, `openssl.1ssl`
# (not a shared library's `libfoo.so.1`)
NAME = re.compile(r"^(?!.*\.so\.)[\w.+@-]+\.[1-9][a-z]{0,6}(?:\.gz)?$", re.I)
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
            "Pm": "±", "If": "∞", "Na": "NaN", "Ba": "|", "Am": "&"}
_ESCAPE = re.compile(
    r"\\(?:"
    r"(?P<font>f(?:\[[^\]]*\]|\(..|.))"       # \fB \fR \f(CW \f[B]: a font change
    r"|(?P<size>s[+-]?(?:\d|\(\d\d|\[[^\]]*\]|'[^']*'))"  # \s-1 \s0: a size change
    r"|(?P<named>\((?P<n2>..)|\[(?P<nl>[^\]]*)\])"  # \(em \[em] \[u00E9]: a character
    r"|(?P<string>\*(?:\((?P<s2>..)|\[(?P<sl>[^\]]*)\]|(?P<s1>.)))"  # \*(lq \*R: a string
    r"|(?P<arg>[hvwoDlLNbxXZkMmVYg]'[^']*')"   # \h'...' \w'...' \N'..': drawing, widths
    r"|(?P<number>n(?:\(..|\[[^\]]*\]|.))"     # \n(.l: a register
    r"|(?P<other>.)"
    r")", re.S)
_SIMPLE = {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "t": "\t",
           "'": "´", "`": "`", ".": ".", '"': "", "&": "", "|": "", "^": "", "%": "",
           ":": "", ")": "", "/": "", ",": "", "c": "", "p": "", "{": "", "}": "",
           "!": "", "a": "", "d": "", "u": "", "r": "", "z": "", "E": "\\"}


def _character(name: str) -> str:
    if name in _CHARS:
        return _CHARS[name]
    if re.fullmatch(r"u[0-9A-Fa-f]{4,6}", name):
        return chr(int(name[1:], 16))
    if re.fullmatch(r"char\d+", name):
        return chr(int(name[4:]))
    return ""


def _replace(match: re.Match) -> str:
    if match["font"] or match["size"] or match["arg"] or match["number"]:
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
# a new paragraph (an indented one too: `.RS` after a tag line starts its description)
_BREAKS = {"PP", "P", "LP", "Pp", "Lp", "sp", "br", "HP", "RS", "RE"}
_BULLETS = {"\\(bu", "\\[bu]", "•", "-", "*", "\\-", "o", "\\(em", "\\(en"}


class _Page:
    """The blocks of a page as its lines are read."""

    def __init__(self):
        self.blocks: list[Block] = []
        self.path: list[tuple[int, str]] = []
        self.lines: list[str] = []
        self.first = self.last = 0
        self.preformatted = False
        self.name = ""
        self.url = ""
        self.spaced = True        # mdoc's `.Sm off` closes words up...
        self.closing = False      # ... and the next macro line onto this one
        self.title = ""
        self.in_name = False
        self.expect_heading = 0   # a level when `.SH` came alone: its text is the next line
        self.expect_tag = False   # after `.TP`: the next line is the item's tag
        self.lists: list[str] = []  # mdoc lists open: -tag, -bullet, -enum, -column...
        self.counters: list[int] = []
        self.prefix = ""          # a bullet or number the next paragraph starts with

    def heading(self) -> str:
        return " > ".join(text for _, text in self.path)

    def flush(self) -> None:
        if not self.lines:
            return
        if self.preformatted:
            raw = "\n".join(self.lines).strip("\n")
            text = " ".join(raw.split())
            pre = raw if raw.strip() else None
        else:
            text, pre = " ".join(" ".join(self.lines).split()), None
        if text:
            self.blocks.append(Block(self.heading(), text, self.first, self.last, 0, pre))
            if self.in_name and not self.title:
                self.title = text
        self.lines = []

    def add(self, text: str, number: int) -> None:
        if self.expect_heading:
            self.start_section(self.expect_heading, text, number)
            return
        if self.expect_tag:  # the tag of a .TP item: a line of its own
            self.expect_tag = False
            self.flush()
            self.lines, self.first, self.last = [text], number, number
            self.flush()
            return
        if not self.preformatted and not text.strip():
            self.flush()
            return
        if not self.lines:
            self.first = number
            if self.prefix:
                text, self.prefix = f"{self.prefix} {text}", ""
        self.last = number
        self.lines.append(text)

    def start_section(self, level: int, text: str, number: int) -> None:
        self.flush()
        self.expect_heading = 0
        self.expect_tag = False
        text = " ".join(text.split())
        if not text:
            self.expect_heading = level
            return
        self.path = [(lvl, t) for lvl, t in self.path if lvl < level] + [(level, text)]
        self.in_name = level == 2 and text.upper() in _NAME_SECTIONS
        self.blocks.append(Block(self.heading(), text, number, number, level))

    def item(self, tag: str, number: int) -> None:
        """An item of a list: its tag a line of its own, or its bullet or number the
        start of its paragraph."""
        self.flush()
        kind = self.lists[-1] if self.lists else "-tag"
        if kind in ("-bullet", "-dash", "-hyphen"):
            self.prefix = "•" if kind == "-bullet" else "-"
        elif kind == "-enum":
            self.counters[-1] += 1
            self.prefix = f"{self.counters[-1]}."
        elif tag:
            self.lines, self.first, self.last = [tag], number, number
            self.flush()


_NAME_SECTIONS = {"NAME", "NOM", "NOMBRE", "NOME", "BEZEICHNUNG", "NAAM", "НАЗВАНИЕ"}


def man_blocks(data: bytes) -> tuple[str, list[Block]]:
    """A page's title (`name(section)`, as `.TH` or `.Dt` gives them) and the blocks of its
    text, the headings' among them (level 1 the page, 2 a section, 3 a subsection)."""
    lines = roff_source(data).split("\n")
    page = _Page()
    skip_until = ""        # inside `.de`/`.ig` (to `..`) or a conditional's \{ ... \}
    depth = 0
    table = False          # inside .TS/.TE: format lines, then rows
    table_format = False
    tab = "\t"
    pending = ""           # a line continued by a final backslash
    pending_start = 0
    for number, raw in enumerate(lines, 1):
        if pending:
            raw, number_shown = pending + raw, pending_start
            pending = ""
        else:
            number_shown = number
        if raw.endswith("\\") and not raw.endswith("\\\\"):
            pending, pending_start = raw[:-1], number_shown
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
                page.add(" | ".join(cells), number_shown)
                page.flush()
            continue
        if not control:
            page.add(unescape(raw), number_shown)
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
        if macro in ("TH", "Dt"):  # the page's name and section: the heading path's root
            name = unescape(args[0]) if args else ""
            page.name = name.lower() if name.isupper() else name
            section = f"({unescape(args[1])})" if len(args) > 1 else ""
            if page.name and not page.path:
                page.start_section(1, page.name + section, number_shown)
            continue
        if macro in ("SH", "Sh"):
            page.start_section(2, _line_text(macro, args, page), number_shown)
            continue
        if macro in ("SS", "Ss"):
            page.start_section(3, _line_text(macro, args, page), number_shown)
            continue
        if macro in ("nf", "EX") or (macro == "Bd" and any(
                a in ("-literal", "-unfilled") for a in args)):
            page.flush()
            page.preformatted = True
            continue
        if macro in ("fi", "EE", "Ed"):
            page.flush()
            page.preformatted = False
            continue
        if macro == "Bd":
            page.flush()
            continue
        if macro == "TS":
            page.flush()
            table, table_format, tab = True, True, "\t"
            continue
        if macro in ("TP", "TQ"):
            page.flush()
            page.expect_tag = True
            continue
        if macro == "IP":
            tag = unescape(args[0]).strip() if args else ""
            page.flush()
            if args and args[0] in _BULLETS or tag in ("•", "-", "*", "o"):
                page.prefix = "•"
            elif re.fullmatch(r"\(?\d+[.)]?|[a-z][.)]", tag):
                page.prefix = tag
            elif tag:
                page.lines, page.first, page.last = [tag], number_shown, number_shown
                page.flush()
            continue
        if macro == "Bl":
            page.flush()
            kind = next((a for a in args if a in _LIST_KINDS), "-tag")
            page.lists.append(kind)
            page.counters.append(0)
            continue
        if macro == "El":
            page.flush()
            if page.lists:
                page.lists.pop()
                page.counters.pop()
            continue
        if macro == "It":
            kind = page.lists[-1] if page.lists else "-tag"
            tag = mdoc_text(args, page.name) if kind not in ("-bullet", "-dash", "-hyphen",
                                                            "-enum", "-item") else ""
            if "Xo" in args:  # the tag goes on over the next lines, to `Xc`
                page.flush()
                page.expect_tag = False
                page.lines, page.first, page.last = [tag], number_shown, number_shown
                continue
            page.item(tag, number_shown)
            continue
        if macro == "Xc":
            page.lines.append(mdoc_text(args, page.name))
            page.flush()
            continue
        if macro in ("D1", "Dl"):
            page.flush()
            was = page.preformatted
            page.preformatted = macro == "Dl"
            page.add(mdoc_text(args, page.name), number_shown)
            page.flush()
            page.preformatted = was
            continue
        if macro == "Nm" and page.name == "" and args:
            page.name = args[0]
        if macro == "Nm" and page.path and page.path[0][1].upper() == "SYNOPSIS":
            page.flush()
        if macro == "Nd":
            page.add("— " + mdoc_text(args, page.name), number_shown)
            continue
        if macro in ("UR", "MT"):  # a link: its text follows, its address is printed after
            page.url = unescape(args[0]) if args else ""
            continue
        if macro in ("UE", "ME"):
            if page.url:
                page.add(f"<{page.url}>" + "".join(args), number_shown)
            page.url = ""
            continue
        if macro == "SY":
            page.flush()
            page.add(unescape(" ".join(args)), number_shown)
            continue
        if macro == "OP":
            page.add("[" + unescape(" ".join(args)) + "]", number_shown)
            continue
        if macro in _BREAKS:
            page.flush()
            continue
        if macro in _FONT_JOINED:  # (`.B` alone sets the next line in bold: no text)
            if args:
                page.add(unescape(" ".join(args)), number_shown)
            continue
        if macro in _FONT_ALTERNATING:
            page.add(unescape("".join(args)), number_shown)
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
                page.add(text, number_shown)
            page.closing = not page.spaced
            continue
        # anything else (a layout request, an unknown macro) prints nothing
    page.flush()
    root = page.path[0][1] if page.path and page.path[0][0] == 1 else page.name
    return root or page.title, page.blocks


_LIST_KINDS = {"-tag", "-bullet", "-dash", "-hyphen", "-enum", "-item", "-column", "-hang",
               "-ohang", "-inset", "-diag"}


def _line_text(macro: str, args: list[str], page: _Page) -> str:
    """A heading's text: its arguments as printed (mdoc's inline macros read)."""
    if macro in ("Sh", "Ss"):
        return mdoc_text(args, page.name)
    return unescape(" ".join(args))


def parse_man(data: bytes, settings: ChunkSettings) -> Parsed:
    title, blocks = man_blocks(data)
    if not blocks:  # a page that only names another (`.so`): skipped, nothing to index
        return Parsed()
    rows = [(block.heading,
             fenced(block.preformatted) if block.preformatted
             and word_count(block.text) <= settings.max_words else block.text,
             block.first, block.last)
            for block in blocks]
    if not any(block.level == 0 for block in blocks):
        raise ParseError("no text in this manual page")
    chunks = chunks_from_blocks(rows, settings.max_words, settings.overlap_words)
    return Parsed(title=title, chunks=chunks,
                  language_sample=" ".join(text for _, text, _, _ in rows))

