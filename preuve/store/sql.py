"""SQL both stores share: filter conditions, the columns a hit is read from, migrations.

The filters are the security boundary (audience) as well as the as-of / path / kind
choices, so they are written once and placed in the `WHERE` of every retriever's query,
in SQLite and in PostgreSQL alike.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from importlib import resources

from preuve.models import NAVIGATION, Chunk, Document, Filters, Hit

# Column lists and the records built from rows in that order (sqlite3.Row and psycopg
# tuples both index by position), so the two stores read rows the same way.
HIT_COLUMNS = (
    "c.chunk_id, c.doc_id, c.path, c.kind, d.title, c.heading, c.page, c.page_label, "
    "c.start_line, c.end_line, c.symbol, c.symbol_kind, c.text, d.language, c.access, d.root, "
    "c.role"
)
DOC_COLUMNS = ("doc_id, path, root, kind, title, language, content_hash, access, version, "
               "effective_from, effective_to, size, pages, meta, indexed_at")
EXPORT_CHUNK_COLUMNS = ("doc_id, chunk_id, ordinal, heading, page, page_label, start_line, "
                        "end_line, symbol, symbol_kind, text, tokens, text_hash, role")


def document_from_row(row) -> Document:
    """A Document from a row of DOC_COLUMNS."""
    return Document(
        doc_id=row[0], path=row[1], root=row[2], kind=row[3], title=row[4], language=row[5],
        content_hash=row[6], access=row[7], version=row[8], effective_from=row[9],
        effective_to=row[10], size=row[11], pages=row[12], meta=json.loads(row[13]),
    )


def chunk_from_row(row) -> Chunk:
    """A Chunk (tokens and text hash included) from a row of EXPORT_CHUNK_COLUMNS."""
    return Chunk(
        doc_id=row[0], chunk_id=row[1], ordinal=row[2], heading=row[3], page=row[4],
        page_label=row[5], start_line=row[6], end_line=row[7], symbol=row[8],
        symbol_kind=row[9], text=row[10], tokens=row[11].split(), text_hash=row[12] or "",
        role=row[13],
    )


def hit_from_row(row, rank: int, score: float) -> Hit:
    """A Hit from a row of HIT_COLUMNS."""
    return Hit(
        rank=rank, score=score, chunk_id=row[0], doc_id=row[1], path=row[2], kind=row[3],
        title=row[4], heading=row[5], page=row[6], page_label=row[7], start_line=row[8],
        end_line=row[9], symbol=row[10], symbol_kind=row[11], text=row[12], language=row[13],
        access=row[14], root=row[15], role=row[16],
    )

# Tables `preuve migrate` copies row by row, with the column that orders them (documents,
# chunks and vectors go through `Store.apply` and `put_vectors` instead).
PLAIN_TABLES: dict[str, tuple[tuple[str, ...], str]] = {
    "meta": (("key", "value"), "key"),
    "ingests": (("started_at", "finished_at", "added", "updated", "removed", "unchanged",
                 "failed"), "id"),
    "conversations": (("id", "audience", "owner", "created_at"), "id"),
    "messages": (("conversation_id", "role", "content", "standalone", "data", "created_at"),
                 "id"),
}


def migrations(engine: str) -> list[tuple[int, str]]:
    """(number, sql) of `engine`'s bundled migrations in order: `001_init.sql` is number 1."""
    folder = resources.files("preuve.store") / "migrations" / engine
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


def filter_sql(filters: Filters, alias: str = "c", mark: str = "?") -> tuple[str, list]:
    """SQL conditions (joined with AND, never empty) and parameters for `filters`, on the
    rows of a table with the chunk filter columns (chunks, lexical). Documents have no
    role: filter them with `document_filters(filters)`.

    `mark` is the driver's placeholder: `?` for sqlite3, `%s` for psycopg.
    """
    clauses, params = ["1=1"], []

    def marks(n: int) -> str:
        return ",".join([mark] * n)

    labels = filters.readable_labels()
    if labels is not None:
        clauses.append(f"{alias}.access IN ({marks(len(labels))})")
        params.extend(labels)
    if filters.as_of is not None:
        day = filters.as_of.isoformat()
        clauses.append(
            f"({alias}.effective_from IS NULL OR {alias}.effective_from <= {mark}) AND "
            f"({alias}.effective_to IS NULL OR {alias}.effective_to >= {mark})"
        )
        params.extend([day, day])
    if filters.path_prefixes:
        # a range, not LIKE, so the path index serves it
        ranges = " OR ".join(f"({alias}.path >= {mark} AND {alias}.path < {mark})"
                             for _ in filters.path_prefixes)
        clauses.append(f"({ranges})")
        for prefix in filters.path_prefixes:
            params.extend(prefix_range(prefix))
    if filters.kinds:
        clauses.append(f"{alias}.kind IN ({marks(len(filters.kinds))})")
        params.extend(filters.kinds)
    if not filters.navigation:
        clauses.append(f"{alias}.role <> {mark}")
        params.append(NAVIGATION)
    return " AND ".join(clauses), params


def document_filters(filters: Filters) -> Filters:
    """`filters` for the documents table: roles belong to chunks, not documents."""
    return dataclasses.replace(filters, navigation=True)


def prefix_range(prefix: str) -> tuple[str, str]:
    """[low, high) bounds of the paths that start with `prefix` (in binary order)."""
    prefix = prefix.removeprefix("./")
    return prefix, prefix + "\U0010ffff"


def bm25_idf(n_chunks: int, df: int) -> float:
    """FTS5's IDF: log((N − n + 0.5) / (n + 0.5)), floored at 1e-6 for very common terms."""
    idf = math.log((n_chunks - df + 0.5) / (df + 0.5)) if n_chunks else 0.0
    return idf if idf > 0 else 1e-6


# FTS5 over our own tokens: the text is already split, stemmed and folded by preuve.text, so
# the FTS tokenizer only splits on spaces (and keeps - _ . inside codes).
FTS_TOKENIZE = "unicode61 remove_diacritics 0 tokenchars '-_.'"


def fts_query(terms: Sequence[str]) -> str:
    """An FTS5 OR query of quoted terms (quotes inside a term are doubled)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
