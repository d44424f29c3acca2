"""Find the citations in an answer and check each one against the passages it was given.

Recognised forms (the answer text is never rewritten here; every citation keeps its span):

* lines: ``path:18``, ``path:18-25``, ``path:18–25`` (en/em dash), ``path#L18-L25``,
  ``path:L18-L25``, ``path#L18``, ``path, lines 18-25``, ``path (lignes 18 à 25)``;
* pages: ``file.pdf p. 2``, ``[file.pdf p. 2]``, ``(file.pdf, p. 2)``, ``file.pdf page 2``,
  ``file.pdf pp. 2-3``, ``file.pdf#page=2``, and roman page labels (``p. iv``);
* numbered: ``[3]``, ``[1, 3]``, ``[1][2]`` — the n-th passage given, 1-based;
* a bare ``[path]`` (a passage without lines or page has a label that is just its path);
* Markdown links whose text is a citation, ``[facturo/tva.py:14-16](https://…#L14-L16)``:
  the link as a whole is one citation, parsed from its text; the URL is never trusted
  (`links.linkify` writes its own), so linked answers verify exactly like plain ones.

Decisions:

* A path needs a file extension with a letter (``.py``, ``.md``) or a slash, or is a
  well-known extensionless file name (``Makefile``). So times (``10:30``), ratios (``3:2``),
  versions (``3.11:2``), ``localhost:8080`` and ``example.com:8080`` (a host and port) are
  not citations. URLs are masked before parsing.
* Outside delimiters a path has no spaces. Inside backticks, square brackets or a link's
  text it may (``[Guide RH 2024.pdf p. 3]``). When a bare path does not name a passage,
  `verify` tries extending it leftwards over the text just before it on the same line (so
  ``Guide RH 2024.pdf p. 3`` or ``(Guide RH 2024.pdf, p. 3)`` still verifies), and a
  delimited path with spaces is tried without its leading words (``[voir tva.py:14-16]``
  parses with the path ``voir tva.py`` and verifies as ``tva.py:14-16``). Only a reading
  that names a passage exactly is taken; the citation's span then covers that reading.
* Backticks and square brackets around a citation belong to it (its span includes them, so
  a link replaces them); parentheses stay in the text.
* ``[n]`` inside code (fenced blocks or inline backticks) is code (``row[1]``), not a
  citation; anywhere else it is one, even glued to a word (``jours[2]``), so that no
  unverified number reaches the reader. Path citations are found everywhere, code
  included, for the same reason.
* A path alone (``tva.py``, ```tva.py```) is a mention, not a citation, unless it stands
  alone in square brackets outside code (```[tool.mypy]``` is a TOML table's name).
* Labels outside this grammar: records of a collection (`ingest_records`) are named by
  their ids (``library#how-do-i-copy-a-file``, ``p12-3``, ``42``), which are neither paths
  nor safe to read as one. When the caller gives the labels it knows (`verify` gives the
  paths of the passages it was given), square brackets or a link's text holding exactly
  one of them are a citation of that path, before any other reading (``[42]`` is the
  record ``42`` when a passage is named so, since the prompt shows labels, never numbers).
* Pages: the PDF page index (1-based) is checked first; if no passage of that file has that
  index, the printed page label (`Hit.page_label`) is accepted when exactly one page given
  for that file carries it. Links always use the index.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from preuve.models import FENCED, Hit

__all__ = [
    "Citation",
    "Verification",
    "VerifiedCitation",
    "parse_citations",
    "verify",
]

# --------------------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class Citation:
    """One citation as written in the answer.

    `raw` is ``answer[span[0]:span[1]]``. Line citations have both `start_line` and
    `end_line` (equal for ``path:L``); page citations have `page` (the number written) or,
    for a roman label, only `page_label`, and `end_page` for ``pp. 2-3``. Numbered
    citations only have `number`. `url` is the target of a Markdown link citation.
    `inner_span` is the span of ``path`` + location without surrounding delimiters.
    """

    raw: str
    span: tuple[int, int]
    path: str | None = None
    page: int | None = None
    start_line: int | None = None
    end_line: int | None = None
    number: int | None = None
    end_page: int | None = None
    page_label: str | None = None
    url: str | None = None
    inner_span: tuple[int, int] | None = field(default=None, repr=False, compare=False)
    bare: bool = field(default=False, repr=False, compare=False)

    @property
    def kind(self) -> str:
        """`number`, `page`, `lines` or `file` (a path with no location)."""
        if self.number is not None:
            return "number"
        if self.page is not None or self.page_label is not None:
            return "page"
        if self.start_line is not None:
            return "lines"
        return "file"

    @property
    def label(self) -> str:
        """The citation in canonical form (`path:18-25`, `file.pdf p. 2`, `[3]`)."""
        return _label(self, self.path or "")


def _label(c: Citation, path: str) -> str:
    kind = c.kind
    if kind == "number":
        return f"[{c.number}]"
    if kind == "page":
        page = str(c.page) if c.page is not None else c.page_label
        end = f"-{c.end_page}" if c.end_page is not None and c.end_page != c.page else ""
        return f"{path} p. {page}{end}"
    if kind == "lines":
        if c.end_line is None or c.end_line == c.start_line:
            return f"{path}:{c.start_line}"
        return f"{path}:{c.start_line}-{c.end_line}"
    return path


_PATH_CHAR = r"[\w.\-~+@%]"
_NOT_PATH_BEFORE = r"(?<![\w.\-~+@%/\\])"
# Possessive (`++`, `*+`): no location starts with a path character, so giving characters
# back never finds a match, and backtracking over runs like `./././` or `a.a.a.` was
# quadratic (a 40 KB passage took seconds to verify).
_SEG = _PATH_CHAR + "++"
_BARE_PATH = rf"(?:\./)*+(?:{_SEG}/)*{_SEG}"
# inside delimiters: words separated by single spaces
_SPACED_PATH = rf"(?:\./)*+(?:{_SEG}(?: {_SEG})*?/)*?{_SEG}(?: {_SEG})*?"
_DASH = r"[ \t]?[-–—][ \t]?"
_NUM = r"\d{1,7}"
_ROMAN = (
    r"(?i:(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))"
)
_LINE_WORD = r"(?:lines?|lignes?|ll?\.)"
_WORD_RANGE = r"[ \t]*(?:[-–—]|to|à|au)[ \t]*"

_LOC = (
    rf"(?:[:#]L?(?P<ls>{_NUM})(?:{_DASH}L?(?P<le>{_NUM}))?"
    rf"|,?[ \t]+{_LINE_WORD}[ \t]*(?P<ws>{_NUM})(?:{_WORD_RANGE}(?P<we>{_NUM}))?"
    rf"|[ \t]+\({_LINE_WORD}[ \t]*(?P<qs>{_NUM})(?:{_WORD_RANGE}(?P<qe>{_NUM}))?\)"
    rf"|(?:,[ \t]*|[ \t]+)(?:pages?|pp?\.?|pg\.?)[ \t]*"
    rf"(?:(?P<pg>{_NUM})(?:{_DASH}(?P<pge>{_NUM}))?|(?P<pr>{_ROMAN}))"
    rf"|\#page=(?P<hp>{_NUM}))"
    r"(?![\w\-–—]|\.\w)"
)

_BARE_RE = re.compile(rf"{_NOT_PATH_BEFORE}(?P<path>{_BARE_PATH}){_LOC}")
# the whole content of a delimited group: optional backticks/brackets, path, location
# (with the printed page a linked answer shows beside a PDF page index: `links.linkify`)
_CONTENT_RE = re.compile(
    rf"\s*(?P<o>[`\[]?)\s*(?P<path>{_SPACED_PATH})(?:{_LOC})?"
    r"(?:[ \t]+\(printed[ \t]+[^()\n]{1,32}\))?\s*(?P<c>[`\]]?)\s*"
)
_LINK_RE = re.compile(r"\[(?P<label>[^\[\]\n]+)\]\((?P<url>[^\s()]*)\)")
_BRACKET_RE = re.compile(r"(?<!\\)\[(?P<content>[^\[\]\n]+)\](?!\()")
_TICKS_RE = re.compile(r"`+")
_NUMBERS_RE = re.compile(r"\s*\d{1,4}(?:\s*[,;]\s*\d{1,4})*\s*")
# a scheme is short: an unbounded one rescanned the rest of a long dotted run at every word
_URL_RE = re.compile(r"\b(?:[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://|www\.|mailto:)[^\s<>\[\]`]*")

_EXTENSIONLESS = frozenset(
    "Makefile Dockerfile Containerfile Jenkinsfile Vagrantfile Procfile Gemfile Rakefile "
    "Justfile README LICENSE NOTICE CHANGELOG AUTHORS CONTRIBUTING COPYING".split()
)
# without a slash, `name.<tld>:N` is a host and port, not a file
_TLDS = frozenset(
    "com net org io fr de eu uk us co info biz gov edu ch be nl es it ca local lan".split()
)
_MASK = "\x00"


def _is_path(path: str, loc: dict[str, Any] | None) -> bool:
    p = path
    while p.startswith("./"):
        p = p[2:]
    if not p or not any(ch.isalpha() for ch in p):
        return False
    if p.startswith("/") or p.endswith("/"):
        return False
    last = p.rsplit("/", 1)[-1]
    name, dot, ext = last.rpartition(".")
    has_ext = bool(dot) and ext.isalnum() and any(ch.isalpha() for ch in ext)
    if "/" in p:
        return bool(last.strip(".")) and bool(last)
    if not has_ext:
        return last in _EXTENSIONLESS
    if ext.lower() in _TLDS and loc is not None and loc.get("ls") and not loc.get("le"):
        return False
    return bool(name) or last.startswith(".")


def _issue_reference(m: re.Match[str]) -> bool:
    """`owner/repo#6023`: a forge's issue or pull request, not lines of a file (a line
    anchor is `#L18`, and a file cited bare has an extension: `src/app.py#18`)."""
    after = m.string[m.end("path"):m.end("path") + 2]
    last = m.group("path").rsplit("/", 1)[-1]
    return after[:1] == "#" and after[1:2].isdigit() and "." not in last


def _int(v: str | None) -> int | None:
    return int(v) if v else None


def _make(
    m: re.Match[str], raw: str, span: tuple[int, int], offset: int, *, bare: bool,
    url: str | None = None,
) -> Citation | None:
    g = m.groupdict()
    path = g["path"]
    if not _is_path(path, g) or (bare and _issue_reference(m)):
        return None
    start = _int(g.get("ls") or g.get("ws") or g.get("qs"))
    end = _int(g.get("le") or g.get("we") or g.get("qe"))
    page = _int(g.get("pg") or g.get("hp"))
    end_page = _int(g.get("pge"))
    label = g.get("pr")
    inner = (offset + m.start("path"), offset + _loc_end(m))
    return Citation(
        raw=raw,
        span=span,
        path=path,
        page=page,
        start_line=start,
        end_line=(end if end is not None else start),
        end_page=end_page,
        page_label=label,
        url=url,
        inner_span=inner,
        bare=bare,
    )


def _loc_end(m: re.Match[str]) -> int:
    ends = [m.end(k) for k in ("ls", "le", "ws", "we", "qs", "qe", "pg", "pge", "pr", "hp")
            if k in m.re.groupindex and m.group(k) is not None]
    if not ends:
        return m.end("path")
    end = max(ends)
    if m.group("qs") is not None:  # `path (lines 3-9)`: the closing parenthesis is ours
        end = m.string.index(")", end) + 1
    return end


def _content_citation(
    content: str, offset: int, span: tuple[int, int], raw: str, *, need_loc: bool,
    url: str | None = None,
) -> Citation | None:
    """A citation when `content` is one citation and nothing else, else None."""
    m = _CONTENT_RE.fullmatch(content)
    if m is None or {"": "", "`": "`", "[": "]"}[m.group("o")] != m.group("c"):
        return None
    c = _make(m, raw, span, offset, bare=False, url=url)
    if c is None or (c.kind == "file" and (need_loc or " " in (c.path or ""))):
        return None
    return c


def _code_spans(text: str, fenced: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Inline code spans as CommonMark reads them: a run of n backticks up to the next run
    of exactly n (an unmatched run is literal). Spans include their backticks."""
    runs = [m for m in _TICKS_RE.finditer(text)
            if not any(s <= m.start() < e for s, e in fenced)]
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        n = len(runs[i].group())
        j = next((k for k in range(i + 1, len(runs)) if len(runs[k].group()) == n), None)
        if j is None:
            i += 1
            continue
        spans.append((runs[i].start(), runs[j].end()))
        i = j + 1
    return spans


def _known_citation(content: str, offset: int, span: tuple[int, int], raw: str,
                    labels: frozenset[str], url: str | None = None) -> Citation | None:
    """A file citation when the delimited `content` is exactly one of `labels`."""
    name = _norm(content)
    if not name or name not in labels:
        return None
    lead = len(content) - len(content.lstrip())
    return Citation(raw=raw, span=span, path=name, url=url,
                    inner_span=(offset + lead, offset + len(content.rstrip())))


def parse_citations(answer: str, labels: Collection[str] = ()) -> list[Citation]:
    """Every citation in `answer`, in text order (see the module docstring for the forms).

    `labels`: passage paths outside the path grammar that, alone in square brackets or as
    a link's text, are citations of themselves (record ids of collections)."""
    known = frozenset(_norm(label) for label in labels)
    text = list(answer)
    found: list[Citation] = []

    def masked() -> str:
        return "".join(text)

    def mask(start: int, end: int) -> None:
        text[start:end] = _MASK * (end - start)

    # 1. Markdown links: a citation as link text is one citation; the URL is never parsed.
    for m in _LINK_RE.finditer(answer):
        label = m.group("label")
        c = _known_citation(label, m.start("label"), (m.start(), m.end()), m.group(), known,
                            url=m.group("url")) or _content_citation(
            label, m.start("label"), (m.start(), m.end()), m.group(), need_loc=False,
            url=m.group("url"),
        )
        if c is None and re.fullmatch(r"\s*\d{1,4}\s*", label):
            c = Citation(raw=m.group(), span=(m.start(), m.end()), number=int(label),
                         url=m.group("url"), inner_span=(m.start(), m.end()))
        if c is not None:
            found.append(c)
            mask(m.start(), m.end())
        else:
            mask(m.start("url") - 1, m.end())
    for m in _URL_RE.finditer(masked()):
        mask(m.start(), m.end())

    fenced = [(m.start(), m.end()) for m in FENCED.finditer(answer)]
    inline = _code_spans(answer, fenced)
    code = fenced + inline

    def in_code(pos: int) -> bool:
        return any(s <= pos < e for s, e in code)

    def quoted_code(start: int, end: int) -> bool:
        """Inside code, and not alone in its backticks: code quoted from a passage
        (`relayhost = [mail.isp.tld]`), not a citation."""
        return in_code(start) and not any(
            answer[s:e].strip("`").strip() == answer[start:end] for s, e in inline)

    # 2. Square brackets: `[path:18-25]`, `[file.pdf p. 2]`, `[path]`, `[3]`, `[1, 3]`.
    for m in _BRACKET_RE.finditer(masked()):
        content = m.group("content")
        if _MASK in content or quoted_code(m.start(), m.end()):
            continue
        span = (m.start(), m.end())
        # in code, a bracketed name without a location is code ("``[tool.mypy]``", a
        # TOML table), unless it is exactly the label of a passage given
        c = (_known_citation(content, m.start("content"), span, m.group(), known)
             or _content_citation(content, m.start("content"), span, m.group(),
                                  need_loc=in_code(m.start())))
        if c is not None:
            found.append(c)
            mask(*span)
            continue
        if _NUMBERS_RE.fullmatch(content) and not in_code(m.start()):
            numbers = list(re.finditer(r"\d+", content))
            if len(numbers) == 1:
                found.append(Citation(raw=m.group(), span=span, number=int(numbers[0].group()),
                                      inner_span=span))
            else:
                for n in numbers:
                    s = m.start("content") + n.start()
                    e = m.start("content") + n.end()
                    found.append(Citation(raw=n.group(), span=(s, e), number=int(n.group()),
                                          inner_span=(s, e)))
            mask(*span)

    # 3. Inline code holding exactly one citation (the path may have spaces).
    for start, end in inline:
        if _MASK in "".join(text[start:end]):
            continue
        ticks = len(_TICKS_RE.match(answer, start).group())  # type: ignore[union-attr]
        content = answer[start + ticks:end - ticks]
        if "\n" in content:
            continue
        c = _content_citation(content, start + ticks, (start, end), answer[start:end],
                              need_loc=True)
        if c is not None:
            found.append(c)
            mask(start, end)

    # 4. Bare citations anywhere else (a code comment's too: `# facturo/tva.py:15`).
    rest, pos = masked(), 0
    while (m := _BARE_RE.search(rest, pos)) is not None:
        span = (m.start("path"), _loc_end(m))
        c = _make(m, answer[span[0]:span[1]], span, 0, bare=True)
        if c is None:  # not a path (`a p 3` in `a p 3.pdf p. 2`): look again one further
            pos = m.start() + 1
            continue
        found.append(c)
        pos = span[1]

    found = [_widen(answer, c, set(inline)) for c in found]
    found.sort(key=lambda c: c.span)
    return found


def _widen(answer: str, c: Citation, code: set[tuple[int, int]]) -> Citation:
    """Take in backticks or brackets wrapping exactly this citation (```[a.py:1-2]```)."""
    if c.url is not None or (c.number is not None and c.raw.isdigit()):
        return c
    s, e = c.span
    while s > 0 and e < len(answer):
        if (s - 1, e + 1) in code:
            s, e = s - 1, e + 1
        elif answer[s - 1] == "[" and answer[e] == "]" and answer[e + 1:e + 2] != "(":
            s, e = s - 1, e + 1
        else:
            break
    if (s, e) == c.span:
        return c
    return replace(c, span=(s, e), raw=answer[s:e])


# ---------------------------------------------------------------------------- verification


@dataclass
class VerifiedCitation:
    """A citation and the verdict on it.

    `passage` is the passage the citation was matched to (for a failing one, None). `path`,
    `page`, `start_line`, `end_line` and `label` are resolved: the passage's full path, the
    PDF page index, and for `[n]` the passage's own location.
    """

    citation: Citation
    valid: bool
    reason: str | None = None
    chunk_id: str | None = None
    passage_label: str | None = None
    passage: Hit | None = field(default=None, repr=False, compare=False)
    resolved_page: int | None = None

    @property
    def path(self) -> str | None:
        return self.passage.path if self.passage is not None else self.citation.path

    @property
    def page(self) -> int | None:
        if self.citation.kind == "number":
            return self.passage.page if self.passage is not None else None
        return self.resolved_page if self.resolved_page is not None else self.citation.page

    @property
    def start_line(self) -> int | None:
        if self.citation.kind == "number":
            return self.passage.start_line if self.passage is not None else None
        return self.citation.start_line

    @property
    def end_line(self) -> int | None:
        if self.citation.kind == "number":
            return self.passage.end_line if self.passage is not None else None
        return self.citation.end_line

    @property
    def label(self) -> str:
        """The canonical label, with the passage's full path when one was matched."""
        if self.passage is None:
            return self.citation.label
        if self.citation.kind == "number":
            return self.passage.label
        return _label(self.citation, self.passage.path)

    @property
    def printed_page(self) -> str | None:
        """The printed label of the one PDF page cited, where it differs from the page
        index (`Hit.page_label`: the passage's page); None otherwise."""
        passage, page = self.passage, self.page
        if passage is None or page is None or passage.page != page or (
                self.citation.end_page not in (None, page)):
            return None
        printed = (passage.page_label or "").strip()
        return printed if printed and printed != str(page) else None

    @property
    def shown_label(self) -> str:
        """The label as a reader with the printed document needs it, as `Hit.shown_label`:
        the page index (what links open) and the printed page where it differs,
        `manual.pdf p. 33 (printed 25)`, whichever of the two the citation was written
        with."""
        printed = self.printed_page
        if printed is None:
            return self.label
        return f"{self.path} p. {self.page} (printed {printed})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "raw": self.citation.raw,
            "label": self.label,
            "path": self.path,
            "page": self.page,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "number": self.citation.number,
            "valid": self.valid,
            "reason": self.reason,
            "chunk_id": self.chunk_id,
            "passage": self.passage_label,
        }


@dataclass
class Verification:
    """The verdict on a whole answer: ok only if it cites something and every citation holds."""

    ok: bool
    citations: list[VerifiedCitation]
    reasons: list[str]

    @property
    def reason(self) -> str | None:
        """All reasons in one line (None when ok), for logs and the JSON `reason` field."""
        return "; ".join(self.reasons) if self.reasons else None

    @property
    def valid_citations(self) -> list[VerifiedCitation]:
        return [vc for vc in self.citations if vc.valid]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "reasons": list(self.reasons),
            "citations": [vc.to_dict() for vc in self.citations],
        }


def _norm(path: str) -> str:
    p = unicodedata.normalize("NFC", path.strip())
    while p.startswith("./"):
        p = p[2:]
    return p


class _Passages:
    """The passages given, indexed by normalised path."""

    def __init__(self, passages: Sequence[Hit]):
        self.list = list(passages)
        self.by_path: dict[str, list[Hit]] = {}
        for h in self.list:
            self.by_path.setdefault(_norm(h.path), []).append(h)
        for hits in self.by_path.values():
            hits.sort(key=_hit_key)
        self.longest = max((len(p) for p in self.by_path), default=0)

    def _matches(self, c: str) -> list[str]:
        return sorted(p for p in self.by_path if p.endswith("/" + c))

    def ambiguous(self, cited: str) -> bool:
        """`cited` is no passage's path but the end of several."""
        c = _norm(cited)
        return c not in self.by_path and len(self._matches(c)) > 1

    def resolve(self, cited: str) -> tuple[str | None, str | None]:
        """(normalised passage path, None) or (None, reason)."""
        c = _norm(cited)
        if c in self.by_path:
            return c, None
        matches = self._matches(c)
        if len(matches) == 1:
            return matches[0], None
        if matches:
            return None, (f"{cited} matches several passages ({', '.join(matches)}); "
                          "the full path is needed")
        return None, f"{cited} is not one of the passages given"


def _hit_key(h: Hit) -> tuple[Any, ...]:
    return (
        h.page if h.page is not None else -1,
        h.start_line if h.start_line is not None else -1,
        h.end_line if h.end_line is not None else -1,
        h.chunk_id,
    )


def _labels(hits: Sequence[Hit]) -> str:
    return ", ".join(sorted({h.label for h in hits}))


def _check_location(
    c: Citation, cited_label: str, hits: list[Hit]
) -> tuple[Hit | None, int | None, str | None]:
    """(matched passage, resolved page, None) or (None, None, reason)."""
    path = hits[0].path
    kind = c.kind
    paged = [h for h in hits if h.page is not None]
    lined = [h for h in hits if h.page is None and h.start_line is not None]
    plain = [h for h in hits if h.page is None and h.start_line is None]
    if kind == "file":
        if plain:
            return plain[0], None, None
        what = "page" if paged else "lines"
        return None, None, f"{cited_label} cites no {what} (passages: {_labels(hits)})"
    if kind == "lines":
        assert c.start_line is not None and c.end_line is not None
        if c.end_line < c.start_line:
            return None, None, f"{cited_label} has its end line before its start line"
        if not lined:
            return None, None, (f"{cited_label} cites lines, but {path} is cited by page "
                                f"({_labels(hits)})")
        inside = [h for h in lined
                  if h.start_line <= c.start_line  # type: ignore[operator]
                  and c.end_line <= (h.end_line if h.end_line is not None else h.start_line)]
        if inside:
            best = min(inside, key=lambda h: (
                (h.end_line or h.start_line or 0) - (h.start_line or 0), _hit_key(h)))
            return best, None, None
        if len(lined) == 1:
            return None, None, (f"{cited_label} is outside the cited passage "
                                f"{lined[0].label}")
        return None, None, (f"{cited_label} is outside the passages given for {path} "
                            f"({_labels(lined)})")
    # pages
    if not paged:
        return None, None, (f"{cited_label} cites a page, but {path} is cited by lines "
                            f"({_labels(hits)})")
    by_index: dict[int, Hit] = {}
    for h in paged:
        by_index.setdefault(h.page, h)  # type: ignore[arg-type]
    token = str(c.page) if c.page is not None else (c.page_label or "")
    first = by_index.get(c.page) if c.page is not None else None
    resolved: int | None = c.page if first is not None else None
    if first is None:
        carriers = sorted({h.page for h in paged if h.page_label is not None  # type: ignore[misc]
                           and h.page_label.strip().lower() == token.lower()})
        if len(carriers) == 1:
            resolved = carriers[0]
            first = by_index[resolved]
        elif len(carriers) > 1:
            pages = ", ".join(str(p) for p in carriers)
            return None, None, (f"{cited_label}: the printed page {token} is on several "
                                f"pages given for {path} ({pages})")
    if first is None:
        return None, None, (f"{cited_label} is outside the pages given for {path} "
                            f"({_labels(paged)})")
    if c.end_page is not None:
        if c.page is None or c.end_page < c.page:
            return None, None, f"{cited_label} has its end page before its start page"
        missing = [p for p in range(resolved, resolved + c.end_page - c.page + 1)  # type: ignore[operator]
                   if p not in by_index]
        if missing:
            return None, None, (f"{cited_label} is outside the pages given for {path} "
                                f"({_labels(paged)})")
    return first, resolved, None


def _candidates(answer: str, c: Citation, longest: int) -> list[Citation]:
    """Other readings of a path that names no passage, longest first.

    A bare path is extended leftwards over the words before it on the same line (spaces in
    file names); a delimited path with spaces is tried without its leading words.
    """
    assert c.path is not None and c.inner_span is not None
    out: list[Citation] = []
    ps = c.inner_span[0]
    if c.bare:
        line_start = answer.rfind("\n", 0, ps) + 1
        lo = max(line_start, ps - longest)
        for j in range(lo, ps):
            prev = answer[j - 1] if j > line_start else " "
            if answer[j].isspace() or re.match(r"[\w.\-~+@%/\\]", prev):
                continue
            extra = answer[j:ps]
            span = (j, c.inner_span[1])
            out.append(replace(c, path=extra + c.path, raw=answer[span[0]:span[1]],
                               span=span, inner_span=span))
    elif " " in c.path:
        for k, ch in enumerate(c.path):
            if ch == " ":
                rest = c.path[k + 1:]
                s = ps + k + 1
                span = (s, c.inner_span[1])
                out.append(replace(c, path=rest, raw=answer[span[0]:span[1]], span=span,
                                   inner_span=span, url=None))
    return out


def _verify_one(answer: str, c: Citation, given: _Passages) -> VerifiedCitation:
    if c.kind == "number":
        n, total = c.number, len(given.list)
        assert n is not None
        if 1 <= n <= total:
            h = given.list[n - 1]
            return VerifiedCitation(c, True, None, h.chunk_id, h.label, h, h.page)
        given_txt = f"1–{total} given" if total > 1 else ("1 given" if total else "none given")
        return VerifiedCitation(c, False, f"[{n}] does not number a passage ({given_txt})")
    assert c.path is not None
    resolved, why = given.resolve(c.path)
    # another reading of a path that names no passage (not of one naming several: the
    # answer must say which); never judged by the reason's words ("several.a" is a name)
    if resolved is None and why is not None and not given.ambiguous(c.path):
        for alt in _candidates(answer, c, given.longest):
            alt_path, _ = given.resolve(alt.path or "")
            if alt_path is not None:
                c, resolved = alt, alt_path
                break
    if resolved is None:
        return VerifiedCitation(c, False, why)
    hits = given.by_path[resolved]
    hit, page, why = _check_location(c, c.label, hits)
    if hit is None:
        return VerifiedCitation(c, False, why)
    return VerifiedCitation(c, True, None, hit.chunk_id, hit.label, hit, page)


def _quoted_output(answer: str, c: Citation, fenced: list[tuple[int, int]],
                   passages: Sequence[Hit]) -> bool:
    """A bare path and line inside a fenced block whose whole line a passage holds word for
    word ("test.py:7: RuntimeWarning: coroutine 'test' was never awaited", a program's
    output shown in the documentation), or in prose whose words around it a passage holds
    word for word (the Debian Reference's 'Set "IP address or host name of the outgoing
    smarthost:" to "smtp.hostname.dom:587"', quoted): text quoted from that passage, not a
    citation."""
    if not c.bare:
        return False
    start = answer.rfind("\n", 0, c.span[0]) + 1
    end = answer.find("\n", c.span[1])
    end = end if end >= 0 else len(answer)
    if any(s <= c.span[0] < e for s, e in fenced):
        line = " ".join(answer[start:end].split())
        return any(line in " ".join(h.text.split()) for h in passages)
    # the words around it on its line, the first and last cut ones left out
    around = answer[max(start, c.span[0] - QUOTED_AROUND):min(end, c.span[1] + QUOTED_AROUND)]
    words = around.split()[1:-1]
    if len(words) < QUOTED_WORDS:
        return False
    quoted = " ".join(words)
    return any(quoted in " ".join(h.text.split()) for h in passages)


# A bare citation in prose is passage text when the QUOTED_AROUND characters on each side
# of it, QUOTED_WORDS words at least, are a passage's word for word
QUOTED_AROUND = 60
QUOTED_WORDS = 6


def verify(answer: str, passages: Sequence[Hit]) -> Verification:
    """Check every citation of `answer` against `passages` (the context, in order).

    The answer is ok when it has at least one citation and all of them hold: the cited
    file is one of the passages (equal path, a leading ``./`` tolerated, or a shorter path
    that is the end of exactly one passage path at a ``/``), and the cited lines lie inside
    one passage of that file (or the page is one of its pages); ``[n]`` must number a
    passage. Each failing citation gives one human-readable reason. A path and line that
    a fenced block quotes from a passage, its whole line word for word, is that passage's
    text, not a citation (`_quoted_output`).
    """
    given = _Passages(passages)
    fenced = [(m.start(), m.end()) for m in FENCED.finditer(answer)]
    checked = [_verify_one(answer, c, given)
               for c in parse_citations(answer, [h.path for h in given.list])
               if not _quoted_output(answer, c, fenced, given.list)]
    reasons: list[str] = []
    if not checked:
        reasons.append("the answer cites nothing")
    for vc in checked:
        if not vc.valid and vc.reason and vc.reason not in reasons:
            reasons.append(vc.reason)
    return Verification(ok=bool(checked) and not reasons, citations=checked, reasons=reasons)
