"""What only the PostgreSQL store has to prove, on a real server (see conftest `pg_base`):
a killed ingest rolls back and readers never see half of one, the lexicon (document
frequencies) stays equal to a recount through ingest, update and forget, BM25 scores equal
SQLite FTS5's, the HNSW index keeps filtered dense search complete, `preuve migrate` copies
vectors without an embedder, and passwords never reach the output.

The behavioural suite (ingest, search filters, audiences, where, ask, chat, HTTP API) runs
on both stores through the parametrized fixtures of conftest.py; this file is the rest."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psycopg
import pytest
from conftest import (
    E5,
    KEYWORD_ONLY,
    copy_corpus,
    copy_index,
    count,
    lexicon_ok,
    open_index,
    pg_location,
    rows,
    run_cli,
    state_digest,
)

from preuve import Index
from preuve.settings import Settings
from preuve.store import open_store
from preuve.store.postgres import _WRITE_LOCK, PostgresStore

QUERIES = ["télétravail", "délai de retour jours livraison", "congés payés report",
           "on-call allowance", "LB-1", "facture numérotation prochain numéro", "password",
           "remboursement escalade seuils", "the", "salarié jours par semaine"]


def bm25(index, query, k=10, **kwargs):
    return index.search(query, method="bm25", k=k, as_of="none", **kwargs)


def assert_same_bm25(sqlite_index, pg_index, queries=QUERIES, rel=1e-3, **filters):
    """Same top 10 (order up to ties) and the same scores on both stores."""
    for query in queries:
        a, b = bm25(sqlite_index, query, **filters), bm25(pg_index, query, **filters)
        assert len(a) == len(b), query
        sa = {h.chunk_id: h.score for h in a}
        sb = {h.chunk_id: h.score for h in b}
        # chunks beyond a tie at the 10th place may differ; scores by rank may not
        for x, y in zip(a, b, strict=True):
            assert y.score == pytest.approx(x.score, rel=rel), (query, x.label, y.label)
        cutoff = a[-1].score * (1 + rel) if a else 0
        assert {c for c, s in sa.items() if s > cutoff} <= set(sb), query
        assert {c for c, s in sb.items() if s > cutoff} <= set(sa), query


# ------------------------------------------------------------------------ BM25 = FTS5


def test_bm25_scores_equal_sqlite_fts5(sqlite_index_path, pg_base, corpus, new_location):
    location = new_location("postgres")
    with open_index(location) as pg:
        assert pg.ingest([corpus]).ok
        with open_index(sqlite_index_path) as lite:
            assert_same_bm25(lite, pg)
            assert_same_bm25(lite, pg, audience="public")
            assert_same_bm25(lite, pg, kinds=["code"], queries=QUERIES[5:])
    assert state_digest(location) == state_digest(sqlite_index_path)


# ------------------------------------------------------------------- the lexicon table


def test_document_frequencies_equal_a_recount_through_update_and_forget(
        tmp_path, pg_base, new_location):
    corpus = copy_corpus(tmp_path / "examples")
    pg_loc, lite_loc = new_location("postgres"), tmp_path / "twin.sqlite"
    with open_index(pg_loc) as pg, open_index(lite_loc) as lite:
        for index in (pg, lite):
            assert index.ingest([corpus]).ok
        lexicon_ok(pg_loc)
        terms_before = count(pg_loc, "terms")
        # the long document is unlabelled: the partition of unlabelled chunks
        partition = "SELECT chunks, tokens, avgdl_used FROM lexicon_parts WHERE label IS NULL"
        (first,) = rows(pg_loc, partition)

        # an incremental ingest: one file edited, one deleted, one added (new words), and
        # a long document that moves the mean chunk length past the re-weighing threshold
        target = corpus / "handbook" / "formation.md"
        target.write_text(target.read_text("utf-8").replace(
            "1 200 €", "1 500 € (zygomorphe xylophage)"), encoding="utf-8")
        (corpus / "handbook" / "catalogue.md").unlink()
        long_text = " ".join(f"quokka{i % 97} lemming{i % 13}" for i in range(4000))
        (corpus / "handbook" / "long.txt").write_text(long_text + "\n", encoding="utf-8")
        for index in (pg, lite):
            report = index.ingest([corpus])
            assert report.ok and report.removed == ["handbook/catalogue.md"]
            assert report.updated == ["handbook/formation.md"]
        lexicon_ok(pg_loc)
        assert count(pg_loc, "terms") > terms_before  # new words got ids
        # LB-1's words live only in the deleted catalogue
        assert not rows(pg_loc, "SELECT d.df FROM term_df d JOIN terms t ON t.id = d.term "
                                "WHERE t.term = 'lb'")
        assert "handbook/catalogue.md" not in {h.path for h in bm25(pg, "LB-1", k=100)}
        # the long document moved the mean length: every stored weight was rewritten
        (stats,) = rows(pg_loc, partition)
        assert stats["avgdl_used"] != pytest.approx(first["avgdl_used"], rel=0.05)
        assert stats["avgdl_used"] == pytest.approx(stats["tokens"] / stats["chunks"])
        # the other labels' weights may use an average length up to 5 % old: within 6 %
        assert_same_bm25(lite, pg, queries=[*QUERIES, "zygomorphe", "quokka5 lemming3"],
                         rel=0.06)

        # forget a folder and a document by id
        for index in (pg, lite):
            assert index.forget(["facturo", "retours-v1"])
        lexicon_ok(pg_loc)
        assert not rows(pg_loc, "SELECT chunk_id FROM chunks WHERE path LIKE 'facturo/%'")
        # weights may use an average length up to 5 % old (AVGDL_DRIFT): scores within 6 %
        assert_same_bm25(lite, pg, rel=0.06)
        assert state_digest(pg_loc) == state_digest(lite_loc)

        # after forgetting everything, the lexicon is empty and the counts are zero
        assert pg.forget(["handbook"])
        lexicon_ok(pg_loc)
        assert rows(pg_loc, "SELECT COUNT(*) AS n FROM term_df") == [{"n": 0}]


# --------------------------------------------------------- a killed ingest rolls back

N_FILES = 60
WORDS = ("facture remboursement congé télétravail salarié équipe retour délai politique "
         "sécurité badge atelier").split()


def write_corpus(folder: Path, version: str, numbers, seed: int) -> None:
    """Markdown files with many sections and many distinct words: a heavy write."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for i in numbers:
        parts = [f"---\naccess: public\n---\n# Document {i} {version}\n"]
        for s in range(8):
            words = " ".join(rng.choice(WORDS) for _ in range(40))
            rare = " ".join(f"w{version}{rng.randrange(200_000)}" for _ in range(60))
            parts.append(f"## Section {s}\n\n{words} {rare} {version}x{i}s{s}.\n")
        (folder / f"doc{i:04d}.md").write_text("\n".join(parts), encoding="utf-8")


def snapshot(conn) -> str:
    """Digest of documents and chunks read by ONE statement (one snapshot)."""
    digest = hashlib.sha256()
    for row in conn.execute(
            "SELECT d.path, d.content_hash, c.chunk_id, c.text FROM documents d "
            "LEFT JOIN chunks c ON c.doc_id = d.doc_id ORDER BY d.path, c.ordinal"):
        digest.update(repr(tuple(row)).encode())
    return digest.hexdigest()


def writer_holds_lock(conn) -> bool:
    """Whether some session holds the store's write lock (inside `apply`'s transaction)."""
    return conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND classid = 0 AND objid = %s AND database = (SELECT oid FROM pg_database "
        "WHERE datname = current_database()))", (_WRITE_LOCK,)).fetchone()[0]


def run_ingest(corpus: Path, location: str, *, kill_after_lock: float | None = None,
               watch: str | None = None) -> dict:
    """`python -m preuve ingest` into `location`; SIGKILL it `kill_after_lock` seconds after
    it took the write lock, if given. With `watch`, digests seen meanwhile are collected."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env["PREUVE_EMBEDDER"] = KEYWORD_ONLY
    info = {"killed": False, "locked_for": 0.0, "seen": set(), "elapsed": 0.0}
    proc = subprocess.Popen(
        [sys.executable, "-m", "preuve", "ingest", str(corpus), "--index", location, "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    start, locked_at = time.monotonic(), None
    with psycopg.connect(location, autocommit=True) as conn:
        try:
            while proc.poll() is None:
                held = writer_holds_lock(conn)
                now = time.monotonic()
                if held and locked_at is None:
                    locked_at = now
                if held:
                    info["locked_for"] = now - locked_at
                if watch:
                    info["seen"].add(snapshot(conn))
                if (kill_after_lock is not None and held
                        and now - locked_at >= kill_after_lock):
                    proc.send_signal(signal.SIGKILL)
                    info["killed"] = True
                    break
                time.sleep(0.002)
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        # the server notices the dead client and rolls back: wait for the lock to go
        deadline = time.monotonic() + 30
        while writer_holds_lock(conn) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not writer_holds_lock(conn), "the killed ingest's transaction is still open"
    info["elapsed"] = time.monotonic() - start
    info["returncode"] = proc.returncode
    info["stderr"] = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if info["killed"] and proc.returncode != -signal.SIGKILL:
        info["killed"] = False  # it had already exited on its own
    return info


def test_sigkill_during_ingest_leaves_the_previous_state_and_readers_never_see_half(
        tmp_path, pg_base, new_location):
    corpus = tmp_path / "corpus"
    write_corpus(corpus, "A", range(N_FILES), seed=1)
    before_loc = new_location("postgres")
    with open_index(before_loc) as index:
        assert index.ingest([corpus]).ok
    before = state_digest(before_loc)

    # version B: every file edited, ten deleted, ten new
    for i in range(N_FILES - 10, N_FILES):
        (corpus / f"doc{i:04d}.md").unlink()
    write_corpus(corpus, "B", [*range(N_FILES - 10), *range(N_FILES, N_FILES + 10)], seed=2)

    # the reference "after", run exactly like the killed ones, watched by a reader
    reference = copy_index(before_loc, new_location("postgres"))
    assert state_digest(reference) == before
    ref = run_ingest(corpus, reference, watch="snapshots")
    assert ref["returncode"] == 0, ref["stderr"]
    after = state_digest(reference)
    assert after != before
    lexicon_ok(reference)
    assert ref["locked_for"] > 0.05, "the write transaction is too short to be hit"
    # (g) a concurrent reader saw the old state, then the new one, nothing in between
    assert ref["seen"] <= {before, after} and before in ref["seen"], len(ref["seen"])

    outcomes = []
    location = copy_index(before_loc, new_location("postgres"))  # before_loc stays pristine
    for delay in (0.0, ref["locked_for"] * 0.5, ref["locked_for"] * 0.8):
        if state_digest(location) != before:  # the last kill came too late: start again
            location = copy_index(before_loc, new_location("postgres"))
        info = run_ingest(corpus, location, kill_after_lock=delay)
        state = state_digest(location)
        assert state in (before, after), (delay, info)
        lexicon_ok(location)
        outcomes.append((delay, info["killed"], "before" if state == before else "after",
                         location))
    # the kills landed inside the write transaction, and it was rolled back
    rolled_back = [o for o in outcomes if o[1] and o[2] == "before"]
    assert rolled_back, outcomes

    # an interrupted index simply resumes: the next ingest completes it
    location = rolled_back[-1][3]
    with open_index(location) as index:
        assert index.ingest([corpus]).ok
    assert state_digest(location) == after
    lexicon_ok(location)


# ----------------------------------------------------------------------- HNSW index


@pytest.fixture(scope="module")
def hnsw_index(e5_build, pg_base, new_location, tmp_path_factory):
    """A PostgreSQL copy of the e5 index whose dense search goes through HNSW: the copy is
    made below the threshold (exact), then an ingest with the threshold at 50 builds it."""
    location = copy_index(e5_build[0], new_location("postgres"))
    store = open_store(location)
    try:
        assert not store.hnsw_ready()
    finally:
        store.close()
    extra = tmp_path_factory.mktemp("extra")
    (extra / "note.md").write_text("---\naccess: public\n---\n# Note\n\nLe badge du "
                                   "parking se retire à l'accueil.\n", encoding="utf-8")
    settings = Settings.load(env={"PREUVE_HNSW_THRESHOLD": "50"})
    with Index(location, embedder=E5, settings=settings) as index:
        assert index.engine.store.hnsw_threshold == 50
        report = index.ingest([extra])
        assert report.ok and report.added == ["note.md"] and report.embedded == 1
        assert index.engine.store.hnsw_ready()
        assert index.status()["dense_index"] == "hnsw"
    return location


DENSE_QUERIES = ["Combien de jours de télétravail par semaine ?", "How do I report a lost "
                 "laptop?", "délai de retour d'un produit", "numérotation des factures",
                 "on-call allowance", "indemnité de télétravail"]
FILTERS = [{"audience": "public"}, {"paths": ["facturo/"]}, {"kinds": ["code"]},
           {"paths": ["handbook/retours"]}, {"kinds": ["pdf"], "audience": "public"}]
ALLOWED_SQL = {  # how many chunks with a vector each filter allows (k is cut to it);
    # tables of contents (role navigation) are left out by default
    number: f"{sql} AND role <> 'navigation'" for number, sql in {
        0: "access = 'public'", 1: "path LIKE 'facturo/%'", 2: "kind = 'code'",
        3: "path LIKE 'handbook/retours%'", 4: "kind = 'pdf' AND access = 'public'"}.items()}


def assert_filtered_dense_complete(index, location, exact=None) -> None:
    """Every filtered dense query returns min(k, allowed) distinct rows, all allowed, in
    score order; with `exact`, the top 10 mostly agrees with it."""
    overlap, total = 0, 0
    for number, filters in enumerate(FILTERS):
        allowed = rows(location, "SELECT COUNT(*) AS n FROM chunks WHERE embedding IS "
                       f"NOT NULL AND {ALLOWED_SQL[number]}")[0]["n"]
        assert allowed > 0
        for query in DENSE_QUERIES:
            for k in (10, 60):
                hits = index.search(query, method="dense", k=k, as_of="none", **filters)
                assert len(hits) == min(k, allowed), (query, filters, k, allowed)
                assert len({h.chunk_id for h in hits}) == len(hits)
                for hit in hits:
                    if "audience" in filters:
                        assert hit.access == "public"
                    if "paths" in filters:
                        assert hit.path.startswith(filters["paths"][0])
                    if "kinds" in filters:
                        assert hit.kind == filters["kinds"][0]
                pairs = zip(hits, hits[1:], strict=False)
                assert all(a.score >= b.score - 1e-6 for a, b in pairs)
            if exact is not None:
                ref = exact.search(query, method="dense", k=10, as_of="none", **filters)
                got = index.search(query, method="dense", k=10, as_of="none", **filters)
                overlap += len({h.chunk_id for h in ref} & {h.chunk_id for h in got})
                total += len(ref)
    assert overlap >= 0.8 * total, (overlap, total)


def test_exact_filtered_dense_search_is_complete(e5_build, pg_base, new_location):
    """Below the HNSW threshold: exact search on halfvec, the same top 10 as SQLite."""
    location = copy_index(e5_build[0], new_location("postgres"))
    with Index(location, embedder=E5) as pg, Index(e5_build[0], embedder=E5) as lite:
        assert not pg.engine.store.hnsw_ready() and pg.status()["dense_index"] == "exact"
        assert_filtered_dense_complete(pg, location, exact=lite)


def test_hnsw_keeps_filtered_dense_search_complete_and_close_to_exact(hnsw_index,
                                                                      e5_build):
    with Index(hnsw_index, embedder=E5) as approx, Index(e5_build[0], embedder=E5) as exact:
        assert approx.engine.store.hnsw_ready()
        assert_filtered_dense_complete(approx, hnsw_index, exact=exact)


# ------------------------------------------------------------------- preuve migrate


def test_migrate_copies_vectors_without_an_embedder_and_refuses_a_full_target(
        e5_build, pg_base, new_location, tmp_path):
    source = e5_build[0]
    target = new_location("postgres")
    result = run_cli("migrate", "--from", str(source), "--to", target, "--json", timeout=180)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    n_docs, n_chunks = count(source, "documents"), count(source, "chunks")
    assert (report["documents"], report["chunks"]) == (n_docs, n_chunks)
    assert sum(report["vectors"].values()) == count(source, "vectors") > 0
    assert (count(target, "documents"), count(target, "chunks")) == (n_docs, n_chunks)
    assert state_digest(target) == state_digest(source)
    # the vectors are the source's, bit for bit in float32 (nothing re-embedded), those of
    # the embedder and of its companion alike
    stored = {(r["model"], r["text_hash"]): r["vector"]
              for r in rows(source, "SELECT model, text_hash, vector FROM vectors")}
    copied = rows(target, "SELECT model, text_hash, vector::text AS vector FROM vectors")
    assert len({r["model"] for r in copied}) == 2 and len(copied) == len(stored)
    for r in copied:
        np.testing.assert_array_equal(
            np.array(json.loads(r["vector"]), dtype=np.float32),
            np.frombuffer(stored[r["model"], r["text_hash"]], dtype=np.float32))
    assert rows(target, "SELECT COUNT(*) AS n FROM chunks WHERE embedding IS NULL") == [
        {"n": 0}]
    meta = {r["key"]: r["value"] for r in rows(target, "SELECT key, value FROM meta")}
    assert meta["embedder"] == "e5"
    # dense search answers as on the source
    with Index(source, embedder=E5) as lite, Index(target, embedder=E5) as pg:
        for query in DENSE_QUERIES:
            a = lite.search(query, method="dense", k=5, as_of="none")
            b = pg.search(query, method="dense", k=5, as_of="none")
            assert [h.chunk_id for h in a] == [h.chunk_id for h in b], query
            for x, y in zip(a, b, strict=True):
                assert y.score == pytest.approx(x.score, abs=2e-3)  # halfvec on PostgreSQL
        assert pg.engine.default_method() == "hybrid"

    # a target that is not empty is refused, and left as it was
    again = run_cli("migrate", "--from", str(source), "--to", target)
    assert again.returncode != 0
    assert "not empty" in again.stderr and "Traceback" not in again.stderr
    assert count(target, "chunks") == n_chunks
    # a missing source names the file
    missing = tmp_path / "nope.sqlite"
    result = run_cli("migrate", "--from", str(missing), "--to", new_location("postgres"))
    assert result.returncode != 0 and str(missing) in result.stderr
    assert "Traceback" not in result.stderr and not missing.exists()


# ------------------------------------------------------------------------ passwords


def closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_passwords_never_appear_in_output(pg_base, tmp_path):
    secret = "s3cr3t-Pa55"
    url = f"postgresql://preuve:{secret}@127.0.0.1:{closed_port()}/preuve"
    for args in (("status",), ("search", "retour", "--method", "bm25")):
        result = run_cli(*args, "--index", url, timeout=60)
        assert result.returncode != 0
        assert secret not in result.stderr + result.stdout
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "***" in lines[0] and "Traceback" not in lines[0], lines
    result = run_cli("migrate", "--from", url, "--to", str(tmp_path / "x.sqlite"))
    assert result.returncode != 0 and secret not in result.stderr + result.stdout
    # on a server that accepts it (trust authentication ignores the password): status
    # shows the index with the password masked
    base = pg_base.replace("postgresql://preuve@", f"postgresql://preuve:{secret}@", 1)
    assert secret in base
    with_password = pg_location(base)
    stats = json.loads(run_cli("status", "--index", with_password, "--json").stdout)
    assert secret not in json.dumps(stats) and "***" in stats["index"]
    text = run_cli("status", "--index", with_password)
    assert text.returncode == 0 and secret not in text.stdout + text.stderr


def test_store_location_is_redacted(pg_base):
    url = pg_base.replace("postgresql://preuve@", "postgresql://preuve:hunter2@", 1)
    store = PostgresStore(pg_location(url))
    try:
        assert "hunter2" not in store.location and "***" in store.location
        assert "hunter2" not in json.dumps(store.stats())
    finally:
        store.close()
