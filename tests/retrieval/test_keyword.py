"""BM25 through the in-memory keyword index (preuve/keyword/), on both stores.

The index is derived from the store's rows: its scores must be the store's own SQL scores
(SQLite FTS5's bm25(), PostgreSQL's sparse inner product) to 1e-3, under every filter and
audience, after ingests that add, replace and remove documents (the index reloaded
by the change records, not rebuilt), and it must never answer from a state the store is
not in (a broken chain of records, an index file replaced by another one)."""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import json
import os
import shutil
import threading

import numpy as np
import pytest
from conftest import KEYWORD_ONLY, kind_of, open_index, run_cli

from preuve import keyword as kw
from preuve.index import Index
from preuve.keyword import scoring
from preuve.models import Filters
from preuve.settings import Settings
from preuve.store.bm25 import rows_sql
from preuve.store.sqlite import SQLiteStore

QUERIES = [
    ["zorglub"], ["zorglub", "cantaloup"], ["frobnique", "mot1", "mot7", "zorglub"],
    ["mot3", "mot3", "cantaloup"], ["lb-1", "mot12"], ["inconnu"],
]
FILTERS = [
    Filters(), Filters(audience="public"), Filters(audience="staff"),
    Filters(audience="public", as_of=dt.date(2026, 6, 1)),
    Filters(path_prefixes=("sub/",)), Filters(kinds=("markdown",)),
    Filters(audience="staff", path_prefixes=("sub/",), as_of=dt.date(2025, 6, 1)),
]


@pytest.fixture(autouse=True)
def plain_bm25(monkeypatch):
    """The SQL paths score plain BM25 over `tokens`: the index's BM25F with no title
    weight (title words counted in the body) must be exactly that."""
    monkeypatch.setattr(scoring, "W_TITLE", 0.0)
    monkeypatch.setattr(scoring, "TITLE_IN_BODY", True)


def write(folder, name: str, access: str | None, body: str, extra: str = "") -> None:
    front = f"---\naccess: {access}\n{extra}---\n" if access else ""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{front}# {name}\n\n{body}\n", encoding="utf-8")


def corpus(folder, variant: int = 0):
    """Notes of three labels and two folders, words in varied amounts, dated versions."""
    for i in range(24):
        words = " ".join(["zorglub"] * (i % 4) + ["frobnique"] * (i % 3 == variant % 3)
                         + [f"mot{j}" for j in range(i * 2 + variant)])
        label = ("public", "staff", "hr")[i % 3]
        dates = "effective_to: 2025-12-31\n" if i % 5 == 0 else ""
        where = "sub/" if i % 2 else ""
        write(folder, f"{where}note{i}.md", label, f"La note {i} parle de {words} LB-1.",
              dates)
    write(folder, "cantaloup.md", "public", "Le cantaloup " * (3 + variant))
    return folder


def ranked(store, engine: bool, terms, filters, k: int = 8):
    before, store.bm25_engine = store.bm25_engine, engine
    try:
        return [(h.chunk_id, h.score) for h in store.search_bm25(terms, filters, k)]
    finally:
        store.bm25_engine = before


class Reference:
    """SQLite FTS5's bm25() over the same documents: what the index must score. On SQLite
    it is the store's own SQL; on PostgreSQL a SQLite index of the same folder (whose SQL
    scores use an average length refreshed on 5 % drift only, so are not the reference)."""

    def __init__(self, location, tmp_path):
        self.own = kind_of(location) == "sqlite"
        # (its SQL only: no keyword engine made or saved for it)
        self.index = None if self.own else Index(tmp_path / "reference.sqlite",
                                                 embedder=KEYWORD_ONLY,
                                                 settings=Settings(bm25="sql"))

    def ingest(self, docs) -> None:
        if self.index is not None:
            assert self.index.ingest([docs]).ok

    def check(self, store) -> int:
        """Every query under every filter: the same chunks, ranked alike, scores to 1e-3
        (k large enough for every match: row ids, which order ties, differ across stores)."""
        reference = store if self.own else self.index.engine.store
        compared = 0
        for terms in QUERIES:
            for filters in FILTERS:
                ours = ranked(store, True, terms, filters, 100)
                sql = ranked(reference, False, terms, filters, 100)
                assert len(ours) == len(sql), (terms, filters)
                if self.own:
                    assert [c for c, _ in ours] == [c for c, _ in sql], (terms, filters)
                expected = dict(sql)
                for chunk_id, score in ours:
                    assert score == pytest.approx(expected[chunk_id], abs=1e-3), (terms, filters)
                assert [s for _, s in ours] == sorted((s for _, s in ours), reverse=True)
                compared += len(ours)
        return compared

    def close(self) -> None:
        if self.index is not None:
            self.index.close()


@contextlib.contextmanager
def ingested(tmp_path, location):
    """(docs, index, reference): the corpus ingested at `location` and into the reference."""
    docs = corpus(tmp_path / "docs")
    reference = Reference(location, tmp_path)
    with open_index(location) as index:
        assert index.ingest([docs]).ok
        reference.ingest(docs)
        yield docs, index, reference
    reference.close()


def test_same_scores_as_sql_through_ingests(tmp_path, fresh_index):
    with ingested(tmp_path, fresh_index) as (docs, index, reference):
        store = index.engine.store
        assert reference.check(store) > 100
        builds = store.keywords.builds
        assert builds == 1

        # replace some documents, add others, remove one: reloaded, not rebuilt
        corpus(docs, variant=1)
        write(docs, "sub/nouveau.md", "staff", "zorglub " * 40 + "cantaloup")
        (docs / "note4.md").unlink()
        assert index.ingest([docs]).ok
        reference.ingest(docs)
        assert reference.check(store) > 100
        assert store.keywords.builds == builds
        assert store.keywords.searcher.recent_rows > 0
        dead = store.keywords.searcher.dead
        assert dead is not None and dead[0] is not None

        # a second ingest on top of the first delta
        write(docs, "note5.md", "public", "zorglub frobnique " * 10)
        assert index.ingest([docs]).ok
        reference.ingest(docs)
        assert reference.check(store) > 100
        assert store.keywords.builds == builds


def counting_builds(monkeypatch) -> list[int]:
    """The rows each `Segment.build` reads, in order."""
    counts: list[int] = []
    build = kw.Segment.build.__func__

    def counted(cls, rows):
        rows = list(rows)
        counts.append(len(rows))
        return build(cls, rows)

    monkeypatch.setattr(kw.Segment, "build", classmethod(counted))
    return counts


def test_each_ingest_reads_only_the_rows_it_inserted(tmp_path, fresh_index, monkeypatch):
    """Ingests one after the other: the index in use is reloaded by the rows of each
    ingest only (a part per ingest), merged again from COMPACT_DELTAS parts; its scores
    stay the SQL reference's throughout."""
    counts = counting_builds(monkeypatch)
    with ingested(tmp_path, fresh_index) as (docs, index, reference):
        store = index.engine.store
        ranked(store, True, ["zorglub"], Filters())
        assert counts == [store.stats()["chunks"]]
        advanced = 0
        for step in range(kw.MergePolicy().max_recent + 2):
            write(docs, f"sub/ajout{step}.md", ("public", "staff")[step % 2],
                  "zorglub cantaloup " * (step + 3))
            before, parts = store.stats()["chunks"], len(store.keywords.searcher.recent)
            assert index.ingest([docs]).ok
            reference.ingest(docs)
            assert reference.check(store) > 100
            kept = store.keywords.searcher
            assert len(kept.recent) <= kw.MergePolicy().max_recent and store.keywords.builds == 1
            assert index.engine.stats()["keyword"]["parts"] == 1 + len(kept.recent)
            if len(kept.recent) == parts + 1:  # reloaded by this ingest's rows
                assert counts[-1] == store.stats()["chunks"] - before > 0
                advanced += 1
            else:  # merged again: every row inserted since the snapshot
                assert len(kept.recent) == 1 and counts[-1] == kept.recent_rows
        assert advanced >= kw.MergePolicy().max_recent
        (docs / "note6.md").unlink()  # a removal alone: nothing to read
        assert index.ingest([docs]).ok
        reference.ingest(docs)
        n_builds = len(counts)
        assert reference.check(store) > 100 and len(counts) == n_builds


def test_another_process_writing_is_seen(tmp_path, fresh_index):
    """The index follows writes made through another connection (another process)."""
    docs = corpus(tmp_path / "docs")
    reference = Reference(fresh_index, tmp_path)
    with open_index(fresh_index) as reader:
        assert reader.ingest([docs]).ok
        before = reader.search("zorglub", method="bm25", k=3, as_of="none")
        with open_index(fresh_index) as writer:
            write(docs, "zz.md", "public", "zorglub " * 30)
            assert writer.ingest([docs]).ok
        reference.ingest(docs)
        after = reader.search("zorglub", method="bm25", k=3, as_of="none")
        assert before[0].path != "zz.md" and after[0].path == "zz.md"
        assert reference.check(reader.engine.store) > 100
    reference.close()


def test_hits_show_the_rows_of_the_state_searched(tmp_path, fresh_index):
    """What a hit shows (text, label) is the row as it is in the state searched: rows
    read for an earlier state (SQLite keeps them per state, `_rows`) are never shown after
    a write, by this connection or another, and a passage relabelled staff is gone for a
    public caller at once."""
    docs = tmp_path / "docs"
    write(docs, "a.md", "public", "zorglub " * 20 + "ancien texte")
    write(docs, "b.md", "public", "zorglub " * 10 + "cantaloup")
    with open_index(fresh_index) as reader:
        assert reader.ingest([docs]).ok
        for _ in range(2):  # read twice: the second answer may come from remembered rows
            first = reader.search("zorglub", method="bm25", k=5, as_of="none",
                                  audience="public")
        assert [h.path for h in first] == ["a.md", "b.md"]
        assert "ancien" in first[0].text

        with open_index(fresh_index) as writer:  # another connection
            write(docs, "a.md", "public", "zorglub " * 20 + "nouveau texte")
            write(docs, "b.md", "staff", "zorglub " * 10 + "cantaloup")
            assert writer.ingest([docs]).ok
        public = reader.search("zorglub", method="bm25", k=5, as_of="none", audience="public")
        assert [h.path for h in public] == ["a.md"]
        assert "nouveau" in public[0].text and "ancien" not in public[0].text
        staff = reader.search("zorglub", method="bm25", k=5, as_of="none", audience="staff")
        assert {h.path: h.access for h in staff} == {"a.md": "public", "b.md": "staff"}

        write(docs, "a.md", "public", "zorglub " * 20 + "troisième version")  # this one
        assert reader.ingest([docs]).ok
        again = reader.search("zorglub", method="bm25", k=5, as_of="none", audience="public")
        assert "troisième" in again[0].text


def test_read_back_alone_keeps_rows_from_a_caller_who_may_not_read_them(tmp_path, fresh_index,
                                                                       monkeypatch):
    """The second line holds on its own: with the keyword index rigged to rank every row
    (staff and expired ones included), a public caller still gets only the rows its filters
    pass, on the first query and on repeats (whose answers may come from what the store
    remembers of the state), for another caller's filters in the same state, and after a
    passage is relabelled staff by another connection."""
    docs = tmp_path / "docs"
    write(docs, "a.md", "public", "zorglub alpha")
    write(docs, "b.md", "staff", "zorglub beta")
    write(docs, "c.md", "public", "zorglub gamma", "effective_to: 2020-01-01\n")

    def every_row(self, terms, filters, k):  # no filter applied: the first line is gone
        rowids = [int(r) for r in self.segments()[0].columns.rowids]
        return [(rowid, 1.0 / (i + 1)) for i, rowid in enumerate(sorted(rowids))][:k]

    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        assert index.search("zorglub", method="bm25", k=9, as_of="none")  # index built
        monkeypatch.setattr(kw.Searcher, "search", every_row)
        staff = index.search("zorglub", method="bm25", k=9, as_of="none", audience="staff")
        assert {h.path for h in staff} == {"a.md", "b.md", "c.md"}
        for _ in range(3):
            public = index.search("zorglub", method="bm25", k=9, as_of="2026-06-01",
                                  audience="public")
            assert [h.path for h in public] == ["a.md"]
        with open_index(fresh_index) as writer:
            write(docs, "a.md", "staff", "zorglub alpha")
            assert writer.ingest([docs]).ok
        assert index.search("zorglub", method="bm25", k=9, as_of="2026-06-01",
                            audience="public") == []
        public = index.search("zorglub", method="bm25", k=9, as_of="none", audience="public")
        assert [h.path for h in public] == ["c.md"]


def test_broken_chain_of_records_rebuilds(tmp_path, fresh_index):
    docs = corpus(tmp_path / "docs")
    reference = Reference(fresh_index, tmp_path)
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        store = index.engine.store
        ranked(store, True, ["zorglub"], Filters())
        builds = store.keywords.builds
        write(docs, "sub/nouveau.md", "public", "zorglub " * 40)
        assert index.ingest([docs]).ok
        reference.ingest(docs)
        # the change record of that ingest is lost: the index cannot trust a delta
        generation = int(store.get_meta("generation"))
        if kind_of(fresh_index) == "sqlite":
            store.db.execute("DELETE FROM meta WHERE key = ?", (f"{kw.LOG_PREFIX}{generation}",))
        else:
            with store._cursor() as cur:
                cur.execute("DELETE FROM meta WHERE key = %s", (f"{kw.LOG_PREFIX}{generation}",))
        assert reference.check(store) > 100
        assert store.keywords.builds == builds + 1
    reference.close()


def test_rows_inserted_are_counted_not_the_span_of_their_ids(tmp_path, fresh_index,
                                                              monkeypatch):
    """A PostgreSQL sequence never gives an id back: after rows at the end are removed, the
    next ingest's ids lie far above the others. What decides between bringing the index
    forward and rebuilding it is the count of rows inserted, not the span of their ids."""
    docs = corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        long_text = " ".join(f"Paragraphe {i} : " + "zorglub cantaloup mot1 " * 40
                             for i in range(40))
        write(docs, "long.md", "public", long_text)
        assert index.ingest([docs]).ok
        (docs / "long.md").unlink()
        assert index.ingest([docs]).ok  # its ids are gone for good (PostgreSQL)
        store = index.engine.store
        ranked(store, True, ["zorglub"], Filters())
        assert store.keywords.builds == 1
        write(docs, "court.md", "public", "zorglub court")
        assert index.ingest([docs]).ok
        reference = Reference(fresh_index, tmp_path)
        reference.ingest(docs)
        store.keywords.forget(keep_base=True)  # the base only: the records decide
        monkeypatch.setattr(store.keywords.merge, "rebuild_min", 1)
        monkeypatch.setattr(store.keywords.merge, "rebuild_fraction", 0.0)
        assert reference.check(store) > 100
        assert store.keywords.builds == 1 and store.keywords.searcher.recent_rows == 1
        reference.close()


def test_reused_row_ids(tmp_path):
    """SQLite gives the ids of the last rows deleted to the next rows inserted: re-ingesting
    the newest document reuses its chunks' ids with other text."""
    docs = corpus(tmp_path / "docs")
    location = tmp_path / "index.sqlite"
    with open_index(location) as index:
        assert index.ingest([docs]).ok
        write(docs, "zz.md", "public", "zorglub " * 5)
        assert index.ingest([docs]).ok
        store = index.engine.store
        ranked(store, True, ["zorglub"], Filters())
        old_ids = {r[0] for r in store.db.execute("SELECT id FROM chunks WHERE path = 'zz.md'")}
        write(docs, "zz.md", "public", "cantaloup " * 5)
        assert index.ingest([docs]).ok
        new_ids = {r[0] for r in store.db.execute("SELECT id FROM chunks WHERE path = 'zz.md'")}
        assert old_ids & new_ids  # the premise: ids came back
        assert Reference(location, tmp_path).check(store) > 100
        assert store.keywords.searcher.recent_rows > 0


def saved_index(tmp_path, monkeypatch):
    """A SQLite index of the corpus whose keyword index was built and saved beside it."""
    monkeypatch.setattr(kw.files, "SAVE_MIN_ROWS", 1)
    location = tmp_path / "index.sqlite"
    with open_index(location) as index:
        assert index.ingest([corpus(tmp_path / "docs")]).ok
        assert ranked(index.engine.store, True, ["zorglub"], Filters())
    assert os.path.exists(kw.snapshot_path(str(location)))
    return location


def test_saved_snapshot_is_shared_and_never_trusted_for_another_file(tmp_path, monkeypatch):
    location = saved_index(tmp_path, monkeypatch)

    second = SQLiteStore(str(location))  # another process: loads the file, builds nothing
    try:
        assert Reference(location, tmp_path).check(second) > 100
        assert second.keywords.builds == 0
    finally:
        second.close()

    # another index file at the same path, same generation, other documents
    other_docs = tmp_path / "other"
    write(other_docs, "a.md", "public", "zorglub cantaloup " * 3)
    write(other_docs, "b.md", "public", "zorglub")
    elsewhere = tmp_path / "elsewhere.sqlite"
    with open_index(elsewhere) as index:
        assert index.ingest([other_docs]).ok
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{location}{suffix}"):
            os.remove(f"{location}{suffix}")
    shutil.copyfile(elsewhere, location)
    replaced = SQLiteStore(str(location))
    try:
        hits = replaced.search_bm25(["zorglub"], Filters(), 10)
        assert sorted(h.path for h in hits) == ["a.md", "b.md"]
        assert replaced.keywords.builds == 1
        assert Reference(location, tmp_path).check(replaced) > 0
    finally:
        replaced.close()


def wait_for_saved_impacts() -> None:
    for thread in threading.enumerate():
        if thread.name == "preuve-keyword-impacts":
            thread.join(60)


def test_next_process_reads_what_the_first_brought_forward(tmp_path, fresh_index, monkeypatch):
    """After an ingest, the process that wrote reloads the saved searcher and saves what it
    computed (the rows inserted since, the impacts under the new average lengths); a
    process started after it reads them instead of the rows, and scores alike. What was
    saved for one state is not used in another."""
    monkeypatch.setattr(kw.files, "SAVE_MIN_ROWS", 1)
    settings = Settings(cache=str(tmp_path / "cache"))  # PostgreSQL's snapshot: not ~/.cache

    def opened():
        return Index(fresh_index, embedder=KEYWORD_ONLY, settings=settings)

    built_parts = []
    build = kw.Segment.build.__func__
    monkeypatch.setattr(kw.Segment, "build", classmethod(
        lambda cls, rows: built_parts.append(1) or build(cls, rows)))
    docs = corpus(tmp_path / "docs")
    reference = Reference(fresh_index, tmp_path)
    with opened() as first:
        assert first.ingest([docs]).ok
        reference.ingest(docs)
        ranked(first.engine.store, True, ["zorglub"], Filters())  # built and saved
        write(docs, "sub/nouveau.md", "public", "zorglub cantaloup " * 30)
        write(docs, "note3.md", "staff", "frobnique " * 12)
        assert first.ingest([docs]).ok
        reference.ingest(docs)
        ranked(first.engine.store, True, ["zorglub"], Filters())  # reloaded
        assert first.engine.store.keywords.searcher.recent_rows > 0
        wait_for_saved_impacts()
        assert len(built_parts) == 2  # the snapshot, then the rows inserted since

        with another_process(), opened() as second:  # on the same state
            assert reference.check(second.engine.store) > 100
            assert second.engine.store.keywords.builds == 0 and len(built_parts) == 2
            index = second.engine.store.keywords.searcher
            assert index.recent_rows > 0 and index._impacts[0].done is None  # mapped

        write(docs, "cantaloup.md", "public", "Le cantaloup " * 9)
        with Index(fresh_index, embedder=KEYWORD_ONLY,
                   settings=Settings(cache=settings.cache, bm25="sql")) as sql_only:
            assert sql_only.ingest([docs]).ok  # a later state no engine has seen
        reference.ingest(docs)
        with another_process(), opened() as third:  # what was saved is for the state before
            assert reference.check(third.engine.store) > 100
            assert len(built_parts) == 3 and third.engine.store.keywords.builds == 0
    reference.close()


@contextlib.contextmanager
def another_process():
    """Indexes opened inside the block get readers of their own, as in another process
    (`preuve.keyword.reader.shared`: one reader per index per process)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(kw.reader, "_SHARED", {})
        yield


def test_postgres_snapshot_is_found_by_any_url_of_the_database(tmp_path, new_location,
                                                                monkeypatch):
    """The snapshot in the cache folder is named after the database, not the URL: a server
    restarted on another port, reached by another host name, is the same index."""
    monkeypatch.setattr(kw.files, "SAVE_MIN_ROWS", 1)
    location = new_location("postgres")
    settings = Settings(cache=str(tmp_path / "cache"))
    with Index(location, embedder=KEYWORD_ONLY, settings=settings) as index:
        assert index.ingest([corpus(tmp_path / "docs")]).ok
        assert ranked(index.engine.store, True, ["zorglub"], Filters())
        assert index.engine.store.keywords.builds == 1
    other = location + ("&" if "?" in location else "?") + "application_name=another"
    with Index(other, embedder=KEYWORD_ONLY, settings=settings) as index:
        assert ranked(index.engine.store, True, ["zorglub"], Filters())
        assert index.engine.store.keywords.builds == 0


def test_saved_impacts_of_the_wrong_size_are_not_used(tmp_path, monkeypatch):
    location = saved_index(tmp_path, monkeypatch)
    [saved] = glob.glob(f"{kw.snapshot_path(str(location))[:-4]}.*.impacts-*.npy")
    np.save(saved, np.ones(7, dtype=np.float32))
    with open_index(location) as index:
        assert Reference(location, tmp_path).check(index.engine.store) > 100
        assert index.engine.store.keywords.builds == 0
        wait_for_saved_impacts()  # computed, then saved again
    assert np.load(saved).shape != (7,)


def test_public_scores_do_not_depend_on_other_labels(tmp_path, fresh_index):
    """The delta path keeps the statistics per label: a staff flood changes no public
    score, whether the index was reloaded or rebuilt: the same passages in the same order,
    the same scores to the last bits a float sum in another order may change (a flood
    that leaked into the statistics moves a score by far more: its idf, its averages).
    Seen once in about thirty runs: 2.841275215148926e-06 against 2.8412752151489255e-06
    after the rebuild, a matrix product's summation order."""
    docs = corpus(tmp_path / "docs")
    public = Filters(audience="public")

    def same(now: dict, then: dict) -> bool:
        return now.keys() == then.keys() and all(
            [c for c, _ in now[q]] == [c for c, _ in then[q]]
            and all(a == pytest.approx(b, rel=1e-9, abs=0.0)
                    for (_, a), (_, b) in zip(now[q], then[q], strict=True))
            for q in now)

    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        store = index.engine.store
        before = {tuple(t): ranked(store, True, t, public) for t in QUERIES}
        write(docs, "flood.md", "staff", "zorglub frobnique cantaloup mot1 " * 200)
        assert index.ingest([docs]).ok
        assert store.keywords.builds == 1
        assert same({tuple(t): ranked(store, True, t, public) for t in QUERIES}, before)
        store.keywords.forget()  # rebuilt from the rows
        assert same({tuple(t): ranked(store, True, t, public) for t in QUERIES}, before)


# -- the background build (IndexReader: from ReloadPolicy.background_rows rows) -----------
class Gate:
    """Holds the keeper's background build until the test opens it (`IndexReader.build_hook`)."""

    def __init__(self, keeper, fail: bool = False):
        self.keeper, self.fail = keeper, fail
        self.started, self.open = threading.Event(), threading.Event()
        self.calls = 0
        keeper.reload.background_rows = 1  # this small index is built in the background
        keeper.build_hook = self

    def __call__(self) -> None:
        self.calls += 1
        self.started.set()
        assert self.open.wait(60)
        if self.fail:
            raise RuntimeError("the build fails (test)")

    def finish(self) -> None:
        self.open.set()
        thread = self.keeper._thread
        if thread is not None:
            thread.join(60)
        assert not self.keeper.building


def public_only(hits) -> None:
    assert all(h.access == "public" for h in hits), [(h.path, h.access) for h in hits]


def test_background_build_answers_through_sql_meanwhile(tmp_path, fresh_index):
    """A big index missing: the query does not wait for its build. It is answered by the
    store's SQL BM25 (FTS5, sparse vectors), the same results as the `sql` setting, while
    one background thread builds it; once built, queries use it."""
    with ingested(tmp_path, fresh_index) as (_, index, reference):
        store = index.engine.store
        keeper = store.keywords
        gate = Gate(keeper)
        for terms in QUERIES:
            for filters in FILTERS:
                assert (ranked(store, True, terms, filters, 100)
                        == ranked(store, False, terms, filters, 100)), (terms, filters)
        assert gate.started.wait(30) and keeper.building
        assert keeper.searcher is None and keeper.builds == 0
        assert keeper.fallbacks >= len(QUERIES) * len(FILTERS)
        public_only(index.search("zorglub cantaloup", method="bm25", k=50, audience="public",
                                 as_of="none"))
        gate.finish()
        assert keeper.builds == 1 and gate.calls == 1
        fallbacks = keeper.fallbacks
        assert reference.check(store) > 100  # the index's scores (the SQL reference's)
        assert keeper.fallbacks == fallbacks and keeper.searcher is not None
        assert keeper.builds == 1 and gate.calls == 1


def test_background_build_never_shows_another_label(tmp_path, fresh_index):
    """While the build is held, a staff flood is ingested (the thread's snapshot is of the
    state before it); public callers never see a staff passage: not through SQL meanwhile,
    nor through the index reloaded after (scores the reference's)."""
    docs = corpus(tmp_path / "docs")
    reference = Reference(fresh_index, tmp_path)
    public = {"audience": "public", "as_of": "none"}
    queries = ("zorglub", "zorglub frobnique cantaloup mot1", "cantaloup")
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        store = index.engine.store
        gate = Gate(store.keywords)
        public_only(index.search("zorglub frobnique", method="bm25", k=50, **public))
        assert gate.started.wait(30)
        write(docs, "flood.md", "staff", "zorglub frobnique cantaloup mot1 " * 200)
        write(docs, "sub/flood2.md", "staff", "zorglub " * 50)
        assert index.ingest([docs]).ok
        reference.ingest(docs)
        for query in queries:
            public_only(index.search(query, method="bm25", k=50, **public))
            staff = index.search(query, method="bm25", k=50, audience="staff", as_of="none")
            assert any(h.path in ("flood.md", "sub/flood2.md") for h in staff)
        gate.finish()  # built for the state before the flood
        store.keywords.reload.background_rows = 10**9  # the flood is reloaded, not rebuilt
        for query in queries:
            public_only(index.search(query, method="bm25", k=50, **public))
        assert store.keywords.builds == 1 and store.keywords.searcher.recent_rows > 0
        assert reference.check(store) > 100
        assert store.keywords.builds == 1 and gate.calls == 1
    reference.close()


def test_the_index_answers_while_its_parts_are_merged_in_the_background(tmp_path,
                                                                        fresh_index):
    """A big index (here: background mode forced) reloaded ingest after ingest: from
    COMPACT_DELTAS parts one background thread merges them; queries meanwhile keep using
    the index reloaded (no SQL fallback), and scores stay the reference's."""
    with ingested(tmp_path, fresh_index) as (docs, index, reference):
        store, keeper = index.engine.store, index.engine.store.keywords
        ranked(store, True, ["zorglub"], Filters())  # built in the foreground
        gate = Gate(keeper)
        keeper.reload.background_rows = 8  # an ingest of fewer rows is read in the foreground
        for step in range(kw.MergePolicy().max_recent + 2):
            write(docs, f"ajout{step}.md", ("public", "staff")[step % 2],
                  "zorglub frobnique " * (step + 2))
            assert index.ingest([docs]).ok
            reference.ingest(docs)
            assert reference.check(store) > 100
            public_only(index.search("zorglub frobnique", method="bm25", k=50,
                                     audience="public", as_of="none"))
        assert gate.started.wait(30) and keeper.building
        assert len(keeper.searcher.recent) == kw.MergePolicy().max_recent + 2
        assert keeper.fallbacks == 0
        gate.finish()
        assert reference.check(store) > 100
        assert len(keeper.searcher.recent) <= 2  # merged (then the ingests after reloaded)
        assert keeper.fallbacks == 0 and keeper.builds == 1 and gate.calls == 1


def test_failed_background_build_builds_in_the_foreground(tmp_path, fresh_index):
    docs = corpus(tmp_path / "docs")
    with open_index(fresh_index) as index:
        assert index.ingest([docs]).ok
        store = index.engine.store
        gate = Gate(store.keywords, fail=True)
        sql = ranked(store, False, ["zorglub", "cantaloup"], Filters(audience="public"))
        assert ranked(store, True, ["zorglub", "cantaloup"], Filters(audience="public")) == sql
        gate.finish()
        assert store.keywords.builds == 0 and store.keywords.searcher is None
        ranked(store, True, ["zorglub"], Filters())  # waits for its own build
        assert store.keywords.builds == 1 and store.keywords.searcher is not None
        assert gate.calls == 1


def test_closing_stops_the_background_build(tmp_path):
    docs = corpus(tmp_path / "docs")
    location = tmp_path / "index.sqlite"
    with open_index(location) as index:
        assert index.ingest([docs]).ok
        gate = Gate(index.engine.store.keywords)
        ranked(index.engine.store, True, ["zorglub"], Filters())
        assert gate.started.wait(30)
        thread = index.engine.store.keywords._thread
        index.engine.store.keywords._stop.set()
        gate.open.set()
    thread.join(30)
    assert not thread.is_alive() and index.engine.store.keywords.builds == 0


def test_rows_of_many_ranges_are_read_by_rowid_not_by_a_scan(tmp_path):
    """Bringing an index forward reads the rows of the id ranges ingests inserted: merged
    into the fewest ranges, each searched by rowid (a scan of every row, which SQLite chose
    for five OR'ed ranges, cost seconds at a million chunks)."""
    location = tmp_path / "index.sqlite"
    with open_index(location) as index:
        assert index.ingest([corpus(tmp_path / "docs")]).ok
        db = index.engine.store.db
        ranges = [(2, 4), (4, 6), (5, 7), (9, 10), (12, 14), (16, 18), (20, 22), (24, 25)]
        sql, params = rows_sql(ranges)
        assert len(params) == 2 * 6  # (2, 7] (9, 10] (12, 14] (16, 18] (20, 22] (24, 25]
        plan = " ".join(str(row[-1]) for row in db.execute("EXPLAIN QUERY PLAN " + sql, params))
        assert "SCAN" not in plan.replace("SCAN CONSTANT", ""), plan
        wanted = {i for low, high in ranges for i in range(low + 1, high + 1)}
        assert [row[0] for row in db.execute(sql, params)] == sorted(
            r[0] for r in db.execute("SELECT id FROM chunks") if r[0] in wanted)


# -- one reader per index per process (a server's IndexPool) --------------------------------
def test_indexes_on_one_location_share_one_reader(tmp_path, fresh_index):
    """Two Index objects on one index (a server's pool holds up to 8) share the keyword
    engine's reader: one copy of its segments. A write through one is seen by the other,
    reloaded, not rebuilt, and labels hold through the shared statistics."""
    docs = corpus(tmp_path / "docs")
    public = {"audience": "public", "as_of": "none"}
    with open_index(fresh_index) as first, open_index(fresh_index) as second:
        reader = first.engine.store.keywords
        assert second.engine.store.keywords is reader and reader.users == 2
        assert first.ingest([docs]).ok
        one = first.search("zorglub cantaloup", method="bm25", k=50, **public)
        two = second.search("zorglub cantaloup", method="bm25", k=50, **public)
        assert [(h.chunk_id, h.score) for h in one] == [(h.chunk_id, h.score) for h in two]
        assert reader.builds == 1 and second.engine.stats()["keyword"]["users"] == 2
        write(docs, "secret.md", "staff", "zorglub cantaloup " * 40)
        assert second.ingest([docs]).ok
        staff = first.search("zorglub cantaloup", method="bm25", k=50, audience="staff",
                             as_of="none")
        assert staff[0].path == "secret.md"
        public_only(first.search("zorglub cantaloup", method="bm25", k=50, **public))
        assert [(h.chunk_id, h.score) for h in first.search(
            "zorglub cantaloup", method="bm25", k=50, **public)] == [
            (h.chunk_id, h.score) for h in one]  # staff rows move no public score
        assert reader.builds == 1 and reader.searcher.recent_rows > 0
    with open_index(fresh_index) as third:  # every store closed: the reader went with them
        assert third.engine.store.keywords is not reader


# -- an ingest leaves the searcher saved ----------------------------------------------------
def test_a_new_cli_process_after_an_ingest_maps_the_saved_searcher(tmp_path, fresh_index):
    """A CLI ingest of 30,000 chunks leaves the keyword engine saved for the state it made
    (before: each CLI process started a background build and exited before it ended, so
    every CLI query of an index of 20,000+ chunks was ranked by the SQL fallback). A new
    CLI process answers from those files: BM25F, no fallback, nothing built or saved."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for f in range(300):  # 300 files of 100 sections: 30,000 chunks
        sections = [f"\n## Section {f} {s}\n\n" + " ".join(
            f"mot{(f * 7919 + s * 104729 + w * 31) % 3000}" for w in range(12))
            + f" zorglub{s % 7}.\n" for s in range(100)]
        (docs / f"f{f}.md").write_text(f"# Fichier {f}\n" + "".join(sections), encoding="utf-8")
    env = {"PREUVE_CACHE": str(tmp_path / "cache")}  # (PostgreSQL's saved files)
    where = ["--index", str(fresh_index)]
    ingest = run_cli("ingest", str(docs), *where, env=env, timeout=600)
    assert ingest.returncode == 0, ingest.stderr
    status = json.loads(run_cli("status", *where, "--json", env=env).stdout)
    assert status["chunks"] == 30_000 and status["keyword_snapshot"] == "current"
    files = {p: os.path.getmtime(p) for p in glob.glob(str(tmp_path / "**" / "*.bm25.*"),
                                                       recursive=True)}
    files.update({p: os.path.getmtime(p) for p in glob.glob(
        os.fspath(fresh_index) + ".bm25.*")} if kind_of(fresh_index) == "sqlite" else {})
    assert any(p.endswith(".bm25.npz") for p in files)
    search = run_cli("search", "zorglub3 mot17 mot2000", *where, "--method", "bm25",
                     "--json", "-k", "20", env=env, timeout=120)
    assert search.returncode == 0, search.stderr
    hits = json.loads(search.stdout)
    assert len(hits) == 20
    assert not [h["path"] for h in hits if "fallback" in h["scores"]["bm25"]]
    after = {p: os.path.getmtime(p) for p in files if os.path.exists(p)}
    assert after == files  # mapped, not built again nor saved over


def test_each_ingest_process_saves_only_the_rows_it_wrote(tmp_path, fresh_index, monkeypatch):
    """Ingests in processes of their own (the CLI): each maps what the one before saved
    and saves one segment of the rows it wrote (not every row since the base again); a
    process started after them maps it all and reads no row. A saved segment whose state
    the change log does not lead to from the one before it is not used."""
    monkeypatch.setattr(kw.files, "SAVE_MIN_ROWS", 1)
    settings = Settings(cache=str(tmp_path / "cache"))
    built: list[int] = []
    build = kw.Segment.build.__func__
    monkeypatch.setattr(kw.Segment, "build", classmethod(
        lambda cls, rows: built.append(len(rows := list(rows))) or build(cls, rows)))
    docs = corpus(tmp_path / "docs")
    reference = Reference(fresh_index, tmp_path)
    for step in range(4):
        if step:
            write(docs, f"ajout{step}.md", ("public", "staff")[step % 2],
                  "zorglub cantaloup " * (step + 3))
        with another_process(), Index(fresh_index, embedder=KEYWORD_ONLY,
                                      settings=settings) as index:
            built.clear()
            assert index.ingest([docs]).ok
            reference.ingest(docs)
            assert len(built) == 1 and (step == 0 or built[0] == 1), built  # its own rows
            assert index.status()["keyword_snapshot"] == "current"
    with another_process(), Index(fresh_index, embedder=KEYWORD_ONLY,
                                  settings=settings) as index:
        built.clear()
        assert reference.check(index.engine.store) > 100
        assert built == [] and len(index.engine.store.keywords.searcher.recent) == 3
        path = index.engine.store.keywords.path
    # the second saved segment replaced by the third: its state does not follow the first's
    stem = kw.files.saved_files(path)[0].rsplit(".", 2)[0]
    for saved in glob.glob(f"{stem}.recent-2.*"):
        os.remove(saved)
    for saved in glob.glob(f"{stem}.recent-3.*"):  # (its arrays too: a whole, valid file)
        shutil.copy(saved, saved.replace(".recent-3.", ".recent-2."))
    with another_process(), Index(fresh_index, embedder=KEYWORD_ONLY,
                                  settings=settings) as index:
        built.clear()
        assert reference.check(index.engine.store) > 100
        assert built == [2]  # the rows since the first saved segment, read again
    reference.close()


def test_a_store_reading_an_earlier_state_keeps_its_own_searcher(tmp_path):
    """Stores sharing a reader may read different states at once (one in a snapshot
    opened before another's write): each is ranked by the searcher of its own state, and
    neither request throws the other's away (nothing built again)."""
    docs = corpus(tmp_path / "docs")
    location = tmp_path / "index.sqlite"
    with open_index(location) as first, open_index(location) as second:
        assert first.ingest([docs]).ok
        old, new = first.engine.store, second.engine.store
        public = Filters(audience="public")
        before = ranked(old, True, ["zorglub", "cantaloup"], public, 50)
        builds = old.keywords.builds
        with old._snapshot():  # a read snapshot of the state before the write
            ranked(old, True, ["zorglub"], public)
            write(docs, "cantaloup2.md", "public", "zorglub cantaloup " * 30)
            assert second.ingest([docs]).ok
            after = ranked(new, True, ["zorglub", "cantaloup"], public, 50)
            assert ranked(old, True, ["zorglub", "cantaloup"], public, 50) == before
            assert ranked(new, True, ["zorglub", "cantaloup"], public, 50) == after
        assert after != before and after[0][0] not in dict(before)
        assert old.keywords.builds == builds
        assert ranked(old, True, ["zorglub", "cantaloup"], public, 50) == after
