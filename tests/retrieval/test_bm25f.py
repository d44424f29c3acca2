"""BM25F: a chunk's context (path, title, heading path, symbol) as a weighted title field of
the in-memory keyword index (preuve/keyword/), on both stores.

The scores must be the BM25F formula computed here from the stored rows (each field's tf
normalised by that field's length against the average of the chunk's own label, weighted,
summed, saturated once; a term's document frequency counted once per chunk), through
ingests that bring the index forward; per-label statistics must keep a caller's scores
blind to the titles of documents it cannot read; and both stores must agree."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import open_index, rows
from test_keyword_maths import bm25f

from preuve.models import Filters

TERMS = ["zorglub", "frobnique", "cantaloup"]
CALLERS = {"public": "public", "staff": "staff", "operator": None}


def write(folder: Path, name: str, access: str | None, body: str) -> None:
    front = f"---\naccess: {access}\n---\n" if access else ""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{front}{body}\n", encoding="utf-8")


def corpus(folder: Path, variant: int = 0) -> Path:
    """Public and staff notes with the query's words in titles, headings and bodies."""
    for i in range(16):
        title = " ".join(["Zorglub"] * (i % 3 == 0) + ["frobnique"] * (i % 4 == 1)
                         + [f"titre{i}"])
        body = " ".join(["zorglub"] * (i % 2) + ["cantaloup"] * (i % 5 == variant % 5)
                        + [f"mot{j}" for j in range(i * 3 + variant)])
        heading = "## Cantaloup et frobnique" if i % 6 == 2 else "## Suite"
        write(folder, f"note{i}.md", ("public", "staff")[i % 4 == 3],
              f"# {title}\n\nIntro {i}.\n\n{heading}\n\n{body}.")
    return folder


def search(store, audience: str | None, terms=TERMS) -> dict[str, float]:
    return {h.chunk_id: h.score
            for h in store.search_bm25(terms, Filters(audience=audience), 1000)}


def expected(location, audience: str | None, terms=TERMS) -> dict[str, float]:
    """The BM25F scores of the caller reading `audience` (None: every label), from the rows
    (written out term by term in tests/retrieval/test_keyword_maths.py)."""
    chunks = rows(location, "SELECT chunk_id, tokens, title_tokens, access FROM chunks")
    return bm25f([(c["chunk_id"], c["tokens"], c["access"], None, None, None, None, None,
                   c["title_tokens"]) for c in chunks], list(terms),
                 None if audience is None else {"public", audience})


def check(index, location) -> int:
    compared = 0
    for audience in CALLERS.values():
        got, want = search(index.engine.store, audience), expected(location, audience)
        assert set(got) == set(want), audience
        for chunk_id, score in want.items():
            assert got[chunk_id] == pytest.approx(score, abs=1e-3, rel=1e-5), chunk_id
        compared += len(want)
    return compared


def test_scores_follow_bm25f_through_ingests(tmp_path, fresh_index):
    docs = corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        titled = rows(fresh_index, "SELECT count(*) AS n FROM chunks WHERE title_tokens > 0")
        assert titled[0]["n"] > 0
        assert check(index, fresh_index) > 20
        builds = index.engine.store.keywords.builds
        corpus(docs, variant=1)  # replaced documents: the index reloaded
        write(docs, "sub/Zorglub.md", "staff", "# Zorglub zorglub\n\nfrobnique " * 3)
        (docs / "note4.md").unlink()
        assert index.ingest([docs]).ok
        assert check(index, fresh_index) > 20
        assert index.engine.store.keywords.builds == builds
        assert index.engine.store.keywords.searcher.recent_rows > 0


def test_a_heading_word_ranks_above_one_word_in_a_long_body(tmp_path, fresh_index):
    docs = tmp_path / "docs"
    filler = " ".join(f"mot{j}" for j in range(60))
    # plain BM25 over `tokens` (heading words in them) ranks b first: it is the shorter
    write(docs, "a.md", "public", f"# Notes\n\n## Zorglub\n\n{filler} {filler}.")
    write(docs, "b.md", "public", f"# Notes\n\n## Divers\n\n{filler} zorglub.")
    for i in range(6):
        write(docs, f"autre{i}.md", "public", f"# Autre {i}\n\n{filler}.")
    with open_index(fresh_index) as index:
        got = search(index.engine.store, "public", ["zorglub"])
        assert not got
        assert index.ingest([docs]).ok
        got = search(index.engine.store, "public", ["zorglub"])
        heading = next(c for c in got if c.startswith(_doc_id(fresh_index, "a.md")))
        body = next(c for c in got if c.startswith(_doc_id(fresh_index, "b.md")))
        assert got[heading] > got[body]


def _doc_id(location, path: str) -> str:
    return rows(location, "SELECT doc_id FROM documents WHERE path = ?", (path,))[0]["doc_id"]


def test_staff_titles_move_no_public_score(tmp_path, fresh_index):
    docs = corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        before = search(index.engine.store, "public")
        staff_before = search(index.engine.store, "staff")
        assert before
        # staff documents whose titles and headings are full of the query's words
        for i in range(4):
            write(docs, f"interne/Zorglub {i}.md", "staff",
                  f"# Zorglub frobnique cantaloup {'zorglub ' * (i * 5)}\n\n"
                  f"## Frobnique zorglub\n\nTexte {i}.")
        assert index.ingest([docs]).ok
        assert search(index.engine.store, "public") == before  # bit for bit
        assert search(index.engine.store, "staff") != staff_before


def test_both_stores_score_alike(tmp_path, new_location, pg_base):
    docs = corpus(tmp_path / "docs")
    found = []
    for kind in ("sqlite", "postgres"):
        location = new_location(kind)
        with open_index(location) as index:
            assert index.ingest([docs]).ok
            found.append({name: search(index.engine.store, audience)
                          for name, audience in CALLERS.items()})
    lite, pg = found
    for name in CALLERS:
        assert lite[name], name
        assert set(lite[name]) == set(pg[name]), name
        for chunk_id, score in lite[name].items():
            assert pg[name][chunk_id] == pytest.approx(score, abs=1e-3), (name, chunk_id)


def ranking(index, audience: str | None, query: str = "zorglub frobnique cantaloup"):
    """(path, score, whether the hit says it was ranked by the SQL fallback) of the hits."""
    return [(h.path, round(h.score, 5), "fallback" in h.scores.get("bm25", {}))
            for h in index.search(query, method="bm25", k=50, audience=audience, as_of="none")]


def test_one_ranking_during_and_after_a_background_build(tmp_path, fresh_index):
    """The same query gets the same ranking whatever a background thread is doing. Below
    ReloadPolicy.background_rows the query waits for the build a thread runs, and ranks
    by BM25F as after it; from that size, it is answered by the store's SQL (plain BM25,
    which ranks these notes otherwise) and every hit says so."""
    docs = corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        reader = index.engine.store.keywords
        gate = threading.Event()
        started = threading.Event()

        def held() -> None:  # the background build waits for the test
            started.set()
            assert gate.wait(60)

        reader.build_hook = held
        reader.reload.background_rows = 1  # a "big" index: built in the background
        during = {name: ranking(index, audience) for name, audience in CALLERS.items()}
        assert started.wait(30) and reader.building
        for name, hits in during.items():  # answered meanwhile: declared, every hit
            assert hits and all(fallback for _, _, fallback in hits), name
        reader.reload.background_rows = 10**9  # a small one: the query waits for the thread
        threading.Timer(0.5, gate.set).start()
        waited = {name: ranking(index, audience) for name, audience in CALLERS.items()}
        assert not reader.building and reader.builds == 1
        after = {name: ranking(index, audience) for name, audience in CALLERS.items()}
        assert waited == after
        for name, hits in after.items():
            assert not any(fallback for _, _, fallback in hits), name
            # (BM25F: the SQL's plain BM25 ranks otherwise; a waiting query saw BM25F)
            assert [p for p, _, _ in hits] != [p for p, _, _ in during[name]], name
