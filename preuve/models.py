"""The records that travel through the pipeline: documents, chunks, filters and hits.

Plain dataclasses, no behaviour beyond small derived properties, so every stage (parsers,
store, retrievers, answer builders) speaks the same vocabulary.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

# A chunk's `kind` says which parser made it; `--kind` filters on it.
KINDS = ("pdf", "markdown", "html", "text", "docx", "code")

# Access label a document gets when it has none: no audience but `all` may read it.
UNLABELLED = None
# The audience that reads everything (the local operator; never a server default).
ALL_AUDIENCE = "all"
PUBLIC = "public"


@dataclass
class Document:
    """One source file as indexed: identity, provenance and the metadata filters use."""

    doc_id: str
    path: str  # relative to the ingest root, with forward slashes
    root: str  # absolute folder the path is relative to (base for links)
    kind: str
    title: str
    language: str  # "fr", "en" or "" when unknown
    content_hash: str  # fingerprint of what was indexed (file bytes, sidecar, settings)
    access: str | None = UNLABELLED
    version: str | None = None
    effective_from: str | None = None  # YYYY-MM-DD, inclusive
    effective_to: str | None = None  # YYYY-MM-DD, inclusive
    size: int = 0
    pages: int = 0  # PDF pages, 0 for other kinds
    meta: dict[str, Any] = field(default_factory=dict)  # front matter keys we do not model


@dataclass
class Chunk:
    """A passage: the unit that is searched, cited and shown.

    Positions are 1-based and inclusive. `start_line`/`end_line` are set for code, text,
    Markdown and HTML; `page` (PDF page index, 1-based) and `page_label` (printed label)
    for PDFs. `symbol` is the qualified code name (`Class.method`) for code chunks.
    """

    text: str
    ordinal: int = 0
    heading: str = ""  # heading path, "Congés > Télétravail"
    page: int | None = None
    page_label: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    symbol: str | None = None
    symbol_kind: str | None = None  # module, constant, class, function, method
    chunk_id: str = ""
    doc_id: str = ""
    tokens: list[str] = field(default_factory=list)  # BM25 terms, set at ingest
    text_hash: str = ""  # sha256 of what is embedded: the key of the vector cache


@dataclass(frozen=True)
class Filters:
    """Restrictions applied inside every retrieval method, before the top k is cut.

    `audience=None` means the caller is the operator (`all`); any other value restricts to
    `public` plus chunks labelled exactly with that audience. Unlabelled documents are only
    visible to `all`.
    """

    as_of: dt.date | None = None
    audience: str | None = None
    path_prefixes: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    def readable_labels(self) -> tuple[str, ...] | None:
        """Access labels this audience may read; None means every chunk (operator)."""
        if self.audience is None or self.audience == ALL_AUDIENCE:
            return None
        if self.audience == PUBLIC:
            return (PUBLIC,)
        return (PUBLIC, self.audience)


@dataclass
class Hit:
    """A retrieved chunk with its rank and score, as printed by `search --json`."""

    rank: int
    score: float
    chunk_id: str
    doc_id: str
    path: str
    kind: str
    title: str
    heading: str
    page: int | None
    page_label: str | None
    start_line: int | None
    end_line: int | None
    symbol: str | None
    symbol_kind: str | None
    text: str
    language: str = ""
    access: str | None = None
    root: str = ""
    scores: dict[str, Any] = field(default_factory=dict)  # per-method rank/score (--explain)

    @property
    def label(self) -> str:
        """The citation label: `file.pdf p. N` for pages, `path:start-end` otherwise."""
        if self.page is not None:
            return f"{self.path} p. {self.page}"
        if self.start_line is not None:
            end = self.end_line if self.end_line is not None else self.start_line
            return f"{self.path}:{self.start_line}-{end}"
        return self.path

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["label"] = self.label
        return d
