"""BM25 statistics per caller (issue 10, item 9), on both stores.

A caller's BM25 scores come from the statistics of the documents it may read and nothing
else: the IDF of a term from the chunk counts and document frequencies of its readable
labels, the length normalisation from the chunk's own label. So adding, changing or
removing a document the caller cannot read moves none of its scores, bit for bit; before,
a public score moved (6.0186 -> 5.5516) when a staff document with the term was added, and
a public key could learn whether hidden documents contain a word."""

from __future__ import annotations

import math
import shutil
import sqlite3
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from conftest import integrity_ok, open_index, rows

from preuve import text
from preuve.keyword import scoring
from preuve.store.sqlite import PARTITIONS_MIGRATION

QUERY = "zorglub frobnique cantaloup"
K1, B = 1.2, 0.75
CALLERS = {"public": "public", "staff": "staff", "operator": None}


def write(folder: Path, name: str, access: str | None, body: str) -> None:
    front = f"---\naccess: {access}\n---\n" if access else ""
    (folder / name).write_text(f"{front}# {name}\n\n{body}\n", encoding="utf-8")


def base_corpus(folder: Path, only: str | None = None) -> Path:
    """Public notes using the query's words in varied amounts, two staff notes, one of a
    label neither public nor staff reads (every one labelled `only` if given)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(20):  # the query's words in 8 of them: IDFs well above FTS5's floor
        words = " ".join(["zorglub"] * (i % 3) * (i < 8) + ["frobnique"] * (i % 2) * (i < 8)
                         + [f"mot{j}" for j in range(i * 3)])
        write(folder, f"note{i}.md", only or "public", f"La note {i} parle de {words}.")
    write(folder, "interne.md", only or "staff", "Le zorglub interne et le cantaloup.")
    write(folder, "equipe.md", only or "staff", "Une note d'équipe sans les mots cherchés.")
    write(folder, "paie.md", only or "hr", "La paie du zorglub.")
    return folder


def scores(index, audience: str | None, **filters) -> list[tuple[str, float]]:
    hits = index.search(QUERY, method="bm25", k=100, as_of="none", audience=audience,
                        **filters)
    return [(h.chunk_id, h.score) for h in hits]


def plain_bm25(monkeypatch) -> None:
    """The index's BM25F as plain BM25 over `tokens` (no title weight, title words in the
    body): the formula below and the SQL paths; BM25F itself: tests/retrieval/test_bm25f.py."""
    monkeypatch.setattr(scoring, "W_TITLE", 0.0)
    monkeypatch.setattr(scoring, "TITLE_IN_BODY", True)


def all_scores(index) -> dict[str, list[tuple[str, float]]]:
    return {name: scores(index, audience) for name, audience in CALLERS.items()}


# ------------------------------------------------------------ invariance, bit for bit


def test_scores_move_only_with_documents_the_caller_may_read(tmp_path, fresh_index):
    corpus = base_corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
        before = all_scores(index)
        assert before["public"] and before["staff"] != before["public"]

        # a long staff document full of the query's words (it moves the staff partition's
        # mean length past the PostgreSQL re-weighing threshold too)
        flood = " ".join(["zorglub frobnique cantaloup"] * 300)
        write(corpus, "secret.md", "staff", flood)
        assert index.ingest([corpus]).ok
        after_staff = all_scores(index)
        assert after_staff["public"] == before["public"]  # bit for bit
        assert after_staff["staff"] != before["staff"]  # the staff caller may read it
        assert len(after_staff["staff"]) > len(before["staff"])

        # an unlabelled document (the operator's only) and an edit of the hr one
        write(corpus, "brouillon.md", None, flood)
        write(corpus, "paie.md", "hr", "La paie du zorglub " + flood)
        assert index.ingest([corpus]).ok
        after_unlabelled = all_scores(index)
        assert after_unlabelled["public"] == before["public"]
        assert after_unlabelled["staff"] == after_staff["staff"]
        assert after_unlabelled["operator"] != after_staff["operator"]

        # and all of it removed again
        for name in ("secret.md", "brouillon.md"):
            (corpus / name).unlink()
        assert index.ingest([corpus]).ok
        removed = all_scores(index)
        assert removed["public"] == before["public"]
        assert {c for c, _ in removed["staff"]} == {c for c, _ in before["staff"]}
    integrity_ok(fresh_index)


def test_a_public_document_moves_every_callers_scores(tmp_path, fresh_index):
    """The other side: what a caller may read does count (no frozen statistics)."""
    corpus = base_corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
        before = all_scores(index)
        write(corpus, "annonce.md", "public", "zorglub " * 40)
        assert index.ingest([corpus]).ok
        after = all_scores(index)
        for name in CALLERS:
            assert after[name] != before[name], name


# ------------------------------------------------------------- the formula, by hand


def expected_scores(location, audience: str | None) -> dict[str, float]:
    """BM25 (k1 1.2, b 0.75, FTS5's IDF) by hand: IDF over the chunks of the labels the
    caller reads, length normalisation over the chunks of each chunk's own label."""
    chunks = rows(location, "SELECT chunk_id, access, tokens FROM chunks")
    readable = {None: None, "public": {"public"}}.get(audience, {"public", audience})
    mine = [c for c in chunks if readable is None or c["access"] in readable]
    n = len(mine)
    df = Counter(t for c in mine for t in set(c["tokens"].split()))
    lengths: dict[str | None, list[int]] = {}
    for c in chunks:
        lengths.setdefault(c["access"], []).append(len(c["tokens"].split()))
    avgdl = {label: sum(v) / len(v) for label, v in lengths.items()}
    out = {}
    for c in mine:
        tf, length, score = Counter(c["tokens"].split()), len(c["tokens"].split()), 0.0
        for term in text.query_terms(QUERY):
            if tf[term]:
                idf = math.log((n - df[term] + 0.5) / (df[term] + 0.5))
                idf = idf if idf > 0 else 1e-6
                norm = K1 * (1 - B + B * length / avgdl[c["access"]])
                score += idf * tf[term] * (K1 + 1) / (tf[term] + norm)
        if score:
            out[c["chunk_id"]] = score
    return out


@pytest.mark.parametrize("collection", ["mixed", "all public"])
def test_scores_follow_the_formula_over_the_readable_labels(tmp_path, fresh_index,
                                                            collection, monkeypatch):
    plain_bm25(monkeypatch)
    # all public: must score as before per-label statistics (one partition, FTS5 as is)
    corpus = base_corpus(tmp_path / "docs", only="public" if collection == "all public"
                         else None)
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
        for name, audience in CALLERS.items():
            got = dict(scores(index, audience))
            want = expected_scores(fresh_index, audience)
            assert set(got) == set(want), name
            for chunk_id, score in want.items():
                # PostgreSQL stores weights as 7-digit floats
                assert got[chunk_id] == pytest.approx(score, rel=1e-6), (name, chunk_id)


# ------------------------------------------------------------------------ the filters


@pytest.mark.parametrize("caller", list(CALLERS))
@pytest.mark.parametrize("filters", [
    {"paths": ["note1"]}, {"kinds": ["markdown"]}, {"as_of": "2020-01-01"},
    {"paths": ["interne", "note"]}])
def test_results_obey_every_filter(tmp_path, fresh_index, caller, filters):
    corpus = base_corpus(tmp_path / "docs")
    write(corpus, "brouillon.md", None, "zorglub cantaloup brouillon")
    write(corpus, "ancien.md", "staff",
          "Le zorglub d'avant.")  # no dates: in force on any as-of date
    with open_index(fresh_index) as index:
        assert index.ingest([corpus]).ok
        audience = CALLERS[caller]
        readable = {None: None, "public": {"public"}}.get(audience, {"public", audience})
        mine = index.search(QUERY, method="bm25", k=100, as_of="none", audience=audience)
        hits = index.search(QUERY, method="bm25", k=100, audience=audience,
                            **({"as_of": "none"} | filters))
        for hit in hits:
            assert readable is None or hit.access in readable
            assert not filters.get("paths") or hit.path.startswith(tuple(filters["paths"]))
            assert not filters.get("kinds") or hit.kind in filters["kinds"]
        # the filtered list is the caller's own ranking, filtered: same scores, same order
        allowed = {h.chunk_id for h in hits}
        assert [(h.chunk_id, h.score) for h in hits] == \
            [(h.chunk_id, h.score) for h in mine if h.chunk_id in allowed]


# ------------------------------------------------------------------------ migration


def test_an_old_sqlite_index_is_split_into_partitions(tmp_path, monkeypatch):
    """An index written before per-label statistics (one FTS5 table) opens with the
    partitions rebuilt from its chunks: the same scores as an index made today (plain
    BM25: an old index has no title field until its documents are ingested again)."""
    plain_bm25(monkeypatch)
    corpus = base_corpus(tmp_path / "docs")
    write(corpus, "brouillon.md", None, "zorglub cantaloup brouillon")
    new = tmp_path / "new.sqlite"
    with open_index(new) as index:
        assert index.ingest([corpus]).ok
        want = all_scores(index)
    old = tmp_path / "old.sqlite"
    folder = resources.files("preuve.store") / "migrations" / "sqlite"
    conn = sqlite3.connect(old)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        number = int(entry.name.split("_", 1)[0])
        if entry.name.endswith(".sql") and number < PARTITIONS_MIGRATION:
            conn.executescript(entry.read_text("utf-8"))
            conn.execute(f"PRAGMA user_version = {number}")
    conn.execute("ATTACH ? AS new", (str(new),))
    for table in ("documents", "chunks", "meta"):
        columns = ", ".join(r[1] for r in conn.execute(f"PRAGMA main.table_info({table})"))
        conn.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM new.{table}")
    conn.commit()
    assert conn.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH 'zorglub'"
                        ).fetchone()[0] > 0
    conn.close()
    with open_index(old) as index:
        assert index.engine.store.schema_version >= PARTITIONS_MIGRATION
        assert all_scores(index) == want
    integrity_ok(old)
    shutil.rmtree(tmp_path / "docs")


def test_an_old_postgres_index_gets_statistics_per_label(tmp_path, pg_base, new_location,
                                                         monkeypatch):
    """A PostgreSQL index written before per-label statistics (one `terms.df`, one
    `lexicon_stats`, weights for the global mean length) opens with df, counts and weights
    per label rebuilt: the same scores as an index made today (plain BM25: an old index
    has no title field until its documents are ingested again)."""
    import psycopg

    plain_bm25(monkeypatch)

    from preuve.store import postgres
    from preuve.store.pglexicon import bm25_weight, sparse_literal
    from preuve.store.postgres import PostgresStore

    corpus = base_corpus(tmp_path / "docs")
    write(corpus, "brouillon.md", None, "zorglub cantaloup brouillon " * 20)
    new, old = new_location("postgres"), new_location("postgres")
    with open_index(new) as index:
        assert index.ingest([corpus]).ok
        want = all_scores(index)
    # the old schema, then the old rows: the new index's documents and chunks, with the
    # lexicon and weights the old code kept (one collection, its mean length)
    every = postgres.migrations("postgres")
    monkeypatch.setattr(postgres, "migrations", lambda engine: [
        (n, sql) for n, sql in every if n < postgres.PARTITIONS_MIGRATION])
    PostgresStore(old).close()
    monkeypatch.undo()
    plain_bm25(monkeypatch)
    chunks = rows(new, "SELECT id, tokens, length FROM chunks")
    ids = {r["term"]: r["id"] for r in rows(new, "SELECT id, term FROM terms")}
    df = Counter(t for c in chunks for t in set(c["tokens"].split()))
    mean = sum(c["length"] for c in chunks) / len(chunks)
    src = rows(new, "SELECT current_schema() AS s")[0]["s"]
    with psycopg.connect(old) as conn:
        (ext,) = conn.execute("SELECT extnamespace::regnamespace::text FROM pg_extension "
                              "WHERE extname = 'vector'").fetchone()
        conn.execute("SELECT set_config('search_path', current_schema() || ', ' || %s, "
                     "false)", (ext,))
        for table in ("documents", "chunks", "meta"):
            columns = ", ".join(r[0] for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                "AND table_schema = current_schema() ORDER BY ordinal_position", (table,)))
            conn.execute(f'INSERT INTO {table} ({columns}) SELECT {columns} '
                         f'FROM "{src}".{table}')
        conn.execute(f'INSERT INTO lexical SELECT id, path, kind, access, effective_from, '
                     f'effective_to, terms, bm25 FROM "{src}".lexical')
        conn.cursor().executemany("UPDATE lexical SET bm25 = %s::sparsevec WHERE id = %s", [
            (sparse_literal({ids[t]: bm25_weight(n, c["length"], mean)
                             for t, n in Counter(c["tokens"].split()).items()}), c["id"])
            for c in chunks])
        conn.cursor().executemany("INSERT INTO terms (id, term, df) VALUES (%s, %s, %s)",
                                  [(i, t, df[t]) for t, i in ids.items()])
        conn.execute("UPDATE lexicon_stats SET chunks = %s, tokens = %s, avgdl_used = %s",
                     (len(chunks), sum(c["length"] for c in chunks), mean))
    with open_index(old) as index:
        assert index.engine.store.schema_version >= postgres.PARTITIONS_MIGRATION
        got = all_scores(index)
    for name in CALLERS:
        assert [c for c, _ in got[name]] == [c for c, _ in want[name]], name
        assert [s for _, s in got[name]] == pytest.approx([s for _, s in want[name]],
                                                          rel=1e-9), name
    integrity_ok(old)
