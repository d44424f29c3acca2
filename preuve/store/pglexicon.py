"""PostgreSQL's SQL BM25 (the `bm25` setting `sql`, and the fallback while the keyword
engine is built: preuve.store.bm25): sparse vectors kept by every ingest.

Each chunk stores (in the narrow `lexical` table, beside copies of the filter columns) its
BM25 document-side term weights as a `sparsevec` (tf·(k1+1) / (tf + k1·(1−b+b·len/avgdl)))
and the ids of its terms as an `int[]` under a GIN index. Statistics are kept per access
label (a partition, `lexicon_parts`; unlabelled chunks are one too): document frequencies
(`term_df`), chunk count, total length, and the average length the weights of that label's
chunks use (rewritten when the label's average drifts by more than `AVGDL_DRIFT`), all
moved by the ingest's transaction. A query is an IDF-weighted sparse vector whose IDFs come
from the chunk counts and document frequencies summed over the partitions the caller may
read; `terms && query ids` finds the matching chunks and the inner product is their BM25
score (k1=1.2, b=0.75 and the IDF of SQLite FTS5). A caller's scores thus never depend on
documents it may not read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from preuve.keyword.scoring import K1, B
from preuve.models import Filters, Hit
from preuve.store.sql import HIT_COLUMNS, bm25_idf, filter_sql, hit_from_row

AVGDL_DRIFT = 0.05  # rewrite stored BM25 weights when the mean length moves more than 5 %
SPARSE_DIM = 1_000_000_000  # pgvector's largest sparsevec dimension: one per term id


def bm25_weight(tf: int, length: int, avgdl: float) -> float:
    """The document side of BM25 for one term: what the query's IDF multiplies."""
    norm = K1 * (1 - B + B * length / avgdl) if avgdl > 0 else K1
    return tf * (K1 + 1) / (tf + norm)


def sparse_literal(weights: dict[int, float]) -> str:
    """A pgvector `sparsevec` literal (1-based ids, ascending)."""
    body = ",".join(f"{i}:{weights[i]:.7g}" for i in sorted(weights))
    return f"{{{body}}}/{SPARSE_DIM}"


class LexiconChange:
    """What an ingest changes in each label's lexicon: document frequencies, chunk count
    and total length (None: unlabelled chunks)."""

    def __init__(self) -> None:
        self.df: dict[str | None, Counter[str]] = {}
        self.size: dict[str | None, list[int]] = {}

    def add(self, label: str | None, tokens: Sequence[str], sign: int) -> None:
        """A chunk of `label` comes (sign +1) or goes (-1)."""
        df = self.df.setdefault(label, Counter())
        size = self.size.setdefault(label, [0, 0])
        for term in set(tokens):
            df[term] += sign
        size[0] += sign
        size[1] += sign * len(tokens)

    def labels(self) -> list[str | None]:
        return sorted(self.df, key=lambda x: (x is not None, x or ""))

    def terms(self) -> set[str]:
        return {t for df in self.df.values() for t in df}


def term_ids(cur, words: set[str]) -> dict[str, int]:
    """The ids of `words`, new words getting new ids."""
    ids: dict[str, int] = {}
    ordered = sorted(words)
    for i in range(0, len(ordered), 20000):
        part = ordered[i:i + 20000]
        cur.execute("INSERT INTO terms (term) SELECT * FROM unnest(%s::text[]) "
                    "ON CONFLICT (term) DO NOTHING", (part,))
        cur.execute("SELECT term, id FROM terms WHERE term = ANY(%s)", (part,))
        ids.update(cur.fetchall())
    return ids

def update_partition(cur, label: str | None, lexicon: LexiconChange,
                      ids: dict[str, int]) -> tuple[float, bool]:
    """Apply one label's changes (document frequencies, chunk count, total length);
    return the average length its weights use from now on and whether it drifted
    (then every stored weight of the label is to be rewritten)."""
    cur.execute("INSERT INTO lexicon_parts (label) VALUES (%s) "
                "ON CONFLICT ((coalesce(label, ''))) DO NOTHING", (label,))
    delta = {ids[t]: n for t, n in lexicon.df[label].items() if n}
    n_chunks, n_tokens = lexicon.size[label]
    cur.execute("UPDATE lexicon_parts SET chunks = chunks + %s, tokens = tokens + %s "
                "WHERE coalesce(label, '') = coalesce(%s, '') "
                "RETURNING part, chunks, tokens, avgdl_used", (n_chunks, n_tokens, label))
    part, chunks, tokens, avgdl = cur.fetchone()
    if delta:
        terms = sorted(delta)
        cur.execute("INSERT INTO term_df (part, term, df) SELECT %s, * FROM "
                    "unnest(%s::int[], %s::int[]) ON CONFLICT (part, term) "
                    "DO UPDATE SET df = term_df.df + excluded.df",
                    (part, terms, [delta[t] for t in terms]))
        cur.execute("DELETE FROM term_df WHERE part = %s AND term = ANY(%s) AND df = 0",
                    (part, terms))
    mean = tokens / chunks if chunks else 0.0
    drifted = mean > 0 and (avgdl <= 0 or abs(mean / avgdl - 1) > AVGDL_DRIFT)
    if drifted:
        avgdl = mean
        cur.execute("UPDATE lexicon_parts SET avgdl_used = %s WHERE part = %s",
                    (avgdl, part))
    return avgdl, drifted

def reweigh(cur, label: str | None, avgdl: float, skip: list[str]) -> None:
    """Rewrite the stored BM25 weights of one label's chunks for its new average length
    (rare: on drift)."""
    cur.execute("SELECT term, id FROM terms")
    ids = dict(cur.fetchall())
    # a server-side cursor streams the rows; the updates run beside it, same transaction
    with cur.connection.cursor(name="reweigh") as rows:
        rows.execute("SELECT id, tokens, length FROM chunks WHERE access IS NOT DISTINCT "
                     "FROM %s::text AND doc_id <> ALL(%s)", (label, skip))
        while part := rows.fetchmany(5000):
            batch = []
            for chunk_id, tokens, length in part:
                tf = Counter(tokens.split())
                batch.append((sparse_literal({ids[t]: bm25_weight(n, length, avgdl)
                                              for t, n in tf.items()}), chunk_id))
            cur.executemany("UPDATE lexical SET bm25 = %s::sparsevec WHERE id = %s", batch)

def reweigh_all(cur) -> None:
    """Migration 6's data step: every label's weights for its own average length."""
    cur.execute("SELECT label, tokens::float8 / chunks FROM lexicon_parts WHERE chunks > 0")
    for label, mean in cur.fetchall():
        cur.execute("UPDATE lexicon_parts SET avgdl_used = %s "
                    "WHERE coalesce(label, '') = coalesce(%s, '')", (mean, label))
        reweigh(cur, label, mean, skip=[])

def query_vector(cur, terms: Sequence[str], filters: Filters) -> dict[int, float]:
    """term id -> IDF of the query's terms over the partitions the caller may read
    (chunk counts and document frequencies summed over them, nothing else)."""
    wanted = filters.readable_labels()
    labels = None if wanted is None else list(wanted)
    readable = "(%s::text[] IS NULL OR p.label = ANY(%s::text[]))"
    # one statement, one snapshot: counts and frequencies of the same committed state
    cur.execute("WITH n AS (SELECT coalesce(sum(p.chunks), 0)::bigint AS chunks "
                f"FROM lexicon_parts p WHERE {readable}) "
                "SELECT t.term, t.id, sum(d.df)::bigint, n.chunks FROM n, terms t "
                "JOIN term_df d ON d.term = t.id JOIN lexicon_parts p ON p.part = d.part "
                f"WHERE t.term = ANY(%s) AND {readable} GROUP BY t.term, t.id, n.chunks",
                (labels, labels, list(set(terms)), labels, labels))
    known = {term: (term_id, df, n) for term, term_id, df, n in cur.fetchall()}
    query: dict[int, float] = {}
    for term in terms:  # a repeated query term counts again, as in FTS5
        if term in known:
            term_id, df, n_chunks = known[term]
            query[term_id] = query.get(term_id, 0.0) + bm25_idf(n_chunks, df)
    return query



def search(cur, terms: Sequence[str], filters: Filters, k: int) -> list[Hit]:
    """The top k by the sparse inner product, filters in the WHERE."""
    query = query_vector(cur, terms, filters)
    if not query:
        return []
    where, params = filter_sql(filters, "l", "%s")
    vec = sparse_literal(query)
    cur.execute(
        "WITH top AS MATERIALIZED (SELECT l.id, l.bm25 <#> %s::sparsevec AS s "
        f"FROM lexical l WHERE l.terms && %s::int[] AND {where} ORDER BY s, l.id "
        f"LIMIT %s) SELECT top.s, {HIT_COLUMNS} FROM top JOIN chunks c ON c.id = top.id "
        "JOIN documents d ON d.doc_id = c.doc_id ORDER BY top.s, c.id",
        [vec, list(query), *params, k])
    return [hit_from_row(row[1:], rank, -row[0]) for rank, row in enumerate(cur.fetchall(), 1)]
