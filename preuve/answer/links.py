"""Turn verified citations into Markdown links a reader can open.

* Code and text: ``BASE/path#L18-L25`` (``#L18`` for one line) — GitHub's anchors, which
  most viewers follow; GitLab's ``#L18-25`` and Bitbucket's ``#lines-18:25`` on theirs
  (`preuve.forges.line_anchor`).
* A file of a git repository with a known forge remote was pinned at ingest to the commit
  it was indexed at (`Hit.source_url`): without a configured base it links there, so its
  line numbers stay right after the code moves on.
* PDF pages: ``BASE/file.pdf#page=N`` with the PDF page index (never the printed label), the
  fragment that browsers' PDF viewers honour.
* BASE is a repository URL when one is configured, e.g.
  ``https://github.com/org/repo/blob/<commit>`` (pin a commit so the lines stay right); it
  is joined as a string. Without one, BASE is the local folder the documents were ingested
  from (`root`, else the passage's own `Hit.root`) written as a ``file://`` URL: terminals
  make ``file://`` URLs clickable, browsers open them (and apply ``#page=N``), and Markdown
  renderers accept them, which a bare path with a ``#`` fragment does not give. A `base`
  that is a plain folder path is turned into a ``file://`` URL the same way. With neither
  base nor root the link is the relative path (relative to the corpus folder).
* Paths are percent-encoded (spaces, accents, ``#``, ``?``, parentheses), so the URL never
  breaks the Markdown link or the terminal's URL detection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import quote

from preuve.answer.citations import Citation, Verification, VerifiedCitation, verify
from preuve.forges import line_anchor
from preuve.models import Hit

__all__ = ["link_for", "linkify", "quoted_before", "relative_link", "with_quote"]

_URL_BASE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]+:")


def _base_url(base: str | None, root: str) -> str:
    """The URL that paths are appended to, without a trailing slash ('' for relative)."""
    b = (base or "").strip() or (root or "").strip()
    if not b:
        return ""
    if _URL_BASE.match(b):
        return b.rstrip("/")
    return Path(b).expanduser().resolve().as_uri().rstrip("/")


def _fragment(
    page: int | None, start: int | None, end: int | None, base_url: str
) -> str:
    if page is not None:
        return f"#page={page}"
    if start is None:
        return ""
    return line_anchor(base_url, start, start if end is None else end)


def _target(
    item: Hit | VerifiedCitation | Citation,
) -> tuple[str, int | None, int | None, int | None, str, str]:
    """(path, page, start line, end line, root, pinned file URL or "") of what is linked."""
    if isinstance(item, Hit):
        return (item.path, item.page, item.start_line, item.end_line, item.root,
                item.source_url or "")
    if isinstance(item, VerifiedCitation):
        if item.path is None:
            raise ValueError(f"{item.citation.raw} names no file to link to")
        passage = item.passage
        return (item.path, item.page, item.start_line, item.end_line,
                passage.root if passage is not None else "",
                (passage.source_url or "") if passage is not None else "")
    if isinstance(item, Citation):
        if item.path is None:
            raise ValueError(f"{item.raw} names no file to link to (verify it first)")
        return item.path, item.page, item.start_line, item.end_line, "", ""
    raise TypeError(f"cannot link {type(item).__name__}")


def link_for(
    hit_or_citation: Hit | VerifiedCitation | Citation,
    base: str | None = None,
    root: str = "",
) -> str:
    """The URL of a passage or citation: ``BASE/path#L18-L25`` or ``BASE/file.pdf#page=N``.

    `base` is a repository URL (joined as is); without one, a passage pinned to a commit at
    ingest links to its forge's page of that commit, any other to the local folder `root`
    (falling back to the passage's `root`), given as a ``file://`` URL. A verified
    citation links to the lines it cites (``[n]`` to its whole passage).
    """
    path, page, start, end, own_root, pinned = _target(hit_or_citation)
    if pinned and not (base or "").strip():
        return pinned + _fragment(page, start, end, pinned)
    return _url(_base_url(base, root or own_root), path, page, start, end)


def relative_link(hit_or_citation: Hit | VerifiedCitation | Citation) -> str:
    """The link relative to the corpus folder, whatever folder the passage came from:
    ``path#L18-L25``, ``file.pdf#page=N`` (what a caller may see of another's disk)."""
    path, page, start, end, _, _ = _target(hit_or_citation)
    return _url("", path, page, start, end)


def _url(base_url: str, path: str, page, start, end) -> str:
    rel = path.replace("\\", "/")
    while rel.startswith("./"):
        rel = rel[2:]
    url_path = quote(rel.lstrip("/"), safe="/")
    url = f"{base_url}/{url_path}" if base_url else url_path
    return url + _fragment(page, start, end, base_url)


def linkify(
    answer: str,
    verification: Verification | None = None,
    base: str | None = None,
    passages: Sequence[Hit] = (),
    root: str | None = None,
    link: Callable | None = None,
) -> str:
    """`answer` with each valid citation replaced by ``[label](url)``; nothing else changes.

    The label is the canonical citation with the passage's full path (``[3]`` becomes its
    passage's label), so the linked text still verifies; a PDF page shows its printed
    label where it differs (``[manual.pdf p. 33 (printed 25)](…#page=33)``). Backticks or
    brackets that were part of the citation are replaced too; a citation that was already a
    Markdown link gets a fresh URL (a model's URL is never kept). Invalid citations are left
    as written.
    `verification` must come from this answer (None: verify it against `passages`).
    `link(verified_citation) -> url`, when given, builds the URL instead of `base`/`root`.
    """
    if verification is None:
        verification = verify(answer, passages)
    by_id = {h.chunk_id: h for h in passages}
    out = answer
    done: list[tuple[int, int]] = []
    for vc in sorted(verification.valid_citations, key=lambda v: v.citation.span,
                     reverse=True):
        s, e = vc.citation.span
        if answer[s:e] != vc.citation.raw:
            raise ValueError("the verification does not belong to this answer "
                             f"({vc.citation.raw!r} is not at {s}-{e})")
        if any(s < de and ds < e for ds, de in done):
            continue
        passage = vc.passage or (by_id.get(vc.chunk_id) if vc.chunk_id else None)
        if passage is not None and vc.passage is None:
            vc = VerifiedCitation(vc.citation, vc.valid, vc.reason, vc.chunk_id,
                                  vc.passage_label, passage, vc.resolved_page)
        if link is not None:
            url = link(vc)
        else:
            url = link_for(vc, base, root if root is not None else
                           (passage.root if passage else ""))
        url = with_quote(url, passage, quoted_before(answer, vc, verification))
        out = out[:s] + f"[{vc.shown_label}]({url})" + out[e:]
        done.append((s, e))
    return out


# a word a text fragment can carry as written (no Markdown, no code marks)
_PLAIN_WORD = re.compile(r"^[^\W\d_][\w'’-]*[,;:.]?$|^\d[\w.,]*[,;:.]?$")
# the quote's first words a fragment carries: enough to tell "This method is called to
# process a named character reference" from the page's five other "This method is called to"
FRAGMENT_WORDS = 10


def quoted_before(answer: str, cited: VerifiedCitation, verification: Verification) -> str:
    """The text of `answer` between the citation before `cited` (or the start) and it."""
    start = cited.citation.span[0]
    prior = max((e for _, e in (vc.citation.span for vc in verification.citations)
                 if e <= start), default=0)
    return answer[prior:start]


def with_quote(url: str, passage: Hit | None, quoted: str) -> str:
    """`url` with a text fragment of `quoted` when it opens a local HTML page: a browser
    shows the page rendered, where a line anchor finds nothing; the quote's first words
    take the reader to it, highlighted."""
    if passage is None or passage.kind != "html" or not url.startswith("file:"):
        return url
    return url + text_fragment(quoted)


def text_fragment(quoted: str) -> str:
    """The text fragment (``:~:text=…``) that makes a browser scroll to and highlight the
    first words of `quoted`, the sentence a citation follows ('' when they are not plain
    words a page shows as written: code, a term in backticks, Markdown)."""
    text = re.sub(r"^\s*(?:`[^`]*`(?:,\s*`[^`]*`)*\s*—\s*)", "", quoted).strip()
    words: list[str] = []
    for word in text.split()[:FRAGMENT_WORDS]:  # up to the first that is not plain
        if not _PLAIN_WORD.match(word):
            break
        words.append(word)
    if len(words) < 2:
        return ""
    start = " ".join(words).rstrip(",;:.")
    return ":~:text=" + quote(start, safe="").replace("-", "%2D")
