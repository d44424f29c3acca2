"""The approximate dense index (preuve.store.ann) against exact search, on a real store with
the size threshold forced low: recall, filters before the top k, the on-disk cache."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

from preuve.models import Chunk, Document, Filters
from preuve.store import Changes, ann
from preuve.store.matrix import VectorMatrix
from preuve.store.sql import filter_sql
from preuve.store.sqlite import SQLiteStore

MODEL = "test-model@1"
DIM = 128
DOCS, PER_DOC = 400, 10  # 4,000 chunks


def unit(a: np.ndarray) -> np.ndarray:
    return (a / np.linalg.norm(a, axis=-1, keepdims=True)).astype(np.float32)


def corpus(seed: int = 0, docs: int = DOCS, first: int = 0):
    """Documents about 100 topics (their chunks near their topic), half public, half staff,
    in 100 folders; and one normalised vector per chunk."""
    rng = np.random.default_rng(seed)
    topics = unit(rng.standard_normal((100, DIM)))
    upserts, vectors = [], []
    for i in range(first, first + docs):
        doc = Document(doc_id=f"d{i}", path=f"{i % 100:02d}/doc{i}.txt", root="/t",
                       kind="text", title=f"Doc {i}", language="en", content_hash=f"h{i}",
                       access="public" if (i // 100) % 2 == 0 else "staff")
        centre = unit(topics[rng.integers(100)] + 0.6 * unit(rng.standard_normal(DIM)))
        chunks = []
        for j in range(PER_DOC):
            h = f"t{i}-{j}"
            chunks.append(Chunk(text=f"chunk {i} {j}", ordinal=j, chunk_id=f"d{i}:{j}",
                                doc_id=doc.doc_id, tokens=["chunk", f"w{i}"], text_hash=h,
                                start_line=1, end_line=1))
            vectors.append((h, unit(centre + 0.4 * unit(rng.standard_normal(DIM)))))
        upserts.append((doc, chunks))
    return upserts, vectors, topics


FORCED = 1000  # the ann_threshold setting of these tests: ANN from 1,000 rows on


@pytest.fixture
def forced(monkeypatch):
    """ANN used even for few allowed rows (stores get ann_threshold=FORCED)."""
    monkeypatch.setattr(ann, "EXACT_BELOW_ROWS", 0)


@pytest.fixture
def store(tmp_path, forced):
    upserts, vectors, topics = corpus()
    s = SQLiteStore(str(tmp_path / "index.sqlite"), ann_threshold=FORCED)
    s.apply(Changes(upserts=upserts))
    s.put_vectors(MODEL, vectors)
    s.topics = topics  # for queries near the data
    yield s
    s.close()


def queries(topics: np.ndarray, n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    picks = topics[rng.integers(len(topics), size=n)]
    return unit(unit(picks + 0.6 * unit(rng.standard_normal((n, DIM))))
                + 0.4 * unit(rng.standard_normal((n, DIM))))


def matrix_of(store: SQLiteStore) -> VectorMatrix:
    return store._vector_matrix(MODEL, DIM)


def exact_ids(store: SQLiteStore, q: np.ndarray, filters: Filters, k: int) -> list[str]:
    matrix = matrix_of(store)
    matrix.use_ann = False
    try:
        return [h.chunk_id for h in store.search_dense(q, MODEL, filters, k)]
    finally:
        matrix.use_ann = True


def test_recall_at_10_against_exact(store, monkeypatch):
    used = []
    search = ann.IVFIndex.search

    def spy(self, *args):
        found = search(self, *args)
        used.append(found is not None)
        return found

    monkeypatch.setattr(ann.IVFIndex, "search", spy)
    matrix = matrix_of(store)
    assert matrix.ann is not None and 2 * matrix.ann.nprobe < matrix.ann.nlist
    recalls = []
    for filters in (Filters(), Filters(audience="public")):
        for q in queries(store.topics, 60):
            got = [h.chunk_id for h in store.search_dense(q, MODEL, filters, 10)]
            truth = exact_ids(store, q, filters, 10)
            assert len(got) == 10
            recalls.append(len(set(got) & set(truth)) / 10)
    assert np.mean(recalls) >= 0.98
    assert sum(used) >= 100  # the approximate path answered, not the exact fallback


def test_restrictive_filter_still_gives_k_allowed_hits(store):
    matrix_of(store)
    # folder 07 holds 4 documents (1 % of the chunks), 2 of them public: 20 chunks
    tight = Filters(audience="public", path_prefixes=("07/",))
    for q in queries(store.topics, 20, seed=2):
        hits = store.search_dense(q, MODEL, tight, 10)
        assert len(hits) == 10
        assert all(h.path.startswith("07/") and h.access == "public" for h in hits)
        assert [h.chunk_id for h in hits] == exact_ids(store, q, tight, 10)
    # asking for more than exist: every allowed chunk, no more
    hits = store.search_dense(queries(store.topics, 1)[0], MODEL, tight, 50)
    assert len(hits) == 20


def test_ann_search_falls_back_when_lists_hold_too_few_allowed_rows(store):
    matrix = matrix_of(store)
    keep = np.zeros(len(matrix), dtype=bool)
    keep[np.flatnonzero(matrix.rowids % 97 == 0)[:12]] = True  # 12 scattered rows
    q = queries(store.topics, 1)[0]
    got = matrix.top_k(q, 10, keep)
    assert len(got) == 10
    assert got == matrix.top_k(q, 10, keep, exact=True)


def test_cache_files_are_reused_then_replaced_after_a_change(store, monkeypatch):
    location = store.location
    matrix = matrix_of(store)
    assert matrix.ann is not None and not matrix.ann.loaded and not matrix.from_cache
    files = sorted(glob.glob(location + ".ann-*"))
    # the index (centroids, lists), the matrix's columns, its vectors (memory-mapped later)
    assert len(files) == 3
    assert {f.endswith(".vectors.npy") for f in files} == {True, False}
    assert sum(f.endswith(".matrix.npz") for f in files) == 1
    assert sum(f.endswith(".npz") and "-g1x" in f for f in files) == 2
    mtimes = [os.path.getmtime(f) for f in files]
    q = queries(store.topics, 1)[0]
    tight = Filters(audience="public", path_prefixes=("08/",))
    first = [h.chunk_id for h in store.search_dense(q, MODEL, Filters(), 10)]
    first_tight = [h.chunk_id for h in store.search_dense(q, MODEL, tight, 10)]

    again = SQLiteStore(location, ann_threshold=FORCED)
    try:
        def no_sql_build(*args, **kwargs):
            raise AssertionError("the matrix was rebuilt from SQL")

        with monkeypatch.context() as m:
            m.setattr(VectorMatrix, "build", no_sql_build)
            assert [h.chunk_id for h in again.search_dense(q, MODEL, Filters(), 10)] == first
            assert [h.chunk_id for h in again.search_dense(q, MODEL, tight, 10)] == first_tight
        reopened = matrix_of(again)
        assert reopened.from_cache and reopened.ann.loaded
        assert isinstance(reopened.vectors, np.memmap)
        assert sorted(glob.glob(location + ".ann-*")) == files
        assert [os.path.getmtime(f) for f in files] == mtimes

        upserts, vectors, _ = corpus(seed=3, docs=5, first=DOCS)  # generation bumps
        again.apply(Changes(upserts=upserts))
        again.put_vectors(MODEL, vectors)
        again.search_dense(q, MODEL, Filters(), 10)
        assert not matrix_of(again).from_cache and not matrix_of(again).ann.loaded
        now = sorted(glob.glob(location + ".ann-*"))
        assert len(now) == 3 and not set(now) & set(files)  # the stale files are gone
    finally:
        again.close()


def test_a_replaced_index_file_never_reuses_the_old_files_snapshot(store, tmp_path):
    """Delete the index file, make another at the same path with the same counts but the
    public documents now staff: its searches must not use the old snapshot (which says
    public), and a public caller must not get the now-staff passages."""
    location = store.location
    q = queries(store.topics, 1)[0]
    before = store.search_dense(q, MODEL, Filters(audience="public"), 10)
    assert before and matrix_of(store).ann is not None
    assert glob.glob(location + ".ann-*.matrix.npz")
    store.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(location + suffix):
            os.remove(location + suffix)

    upserts, vectors, _ = corpus()  # same documents, vectors and counts...
    for doc, _chunks in upserts:
        doc.access = "staff"  # ...but nothing is public any more
    replaced = SQLiteStore(location, ann_threshold=FORCED)
    try:
        replaced.apply(Changes(upserts=upserts))
        replaced.put_vectors(MODEL, vectors)
        assert replaced.search_dense(q, MODEL, Filters(audience="public"), 10) == []
        matrix = matrix_of(replaced)
        assert not matrix.from_cache and not matrix.ann.loaded
        staff = replaced.search_dense(q, MODEL, Filters(audience="staff"), 10)
        assert len(staff) == 10 and {h.access for h in staff} == {"staff"}
    finally:
        replaced.close()


def test_path_prefixes_are_matched_in_memory_like_the_store_does(store):
    matrix = matrix_of(store)
    assert matrix.has_paths
    for prefixes in (("08/",), ("0",), ("./1", "99/doc99"), ("zz/",), ("",)):
        filters = Filters(path_prefixes=prefixes)
        where, params = filter_sql(filters)
        expected = {r[0] for r in store.db.execute(
            f"SELECT c.id FROM chunks c WHERE {where}", params)}
        keep = matrix.mask(filters)
        assert set(matrix.rowids[keep].tolist()) == expected


def test_below_the_threshold_search_stays_exact(tmp_path):
    upserts, vectors, topics = corpus(docs=50)
    s = SQLiteStore(str(tmp_path / "small.sqlite"))
    try:
        s.apply(Changes(upserts=upserts))
        s.put_vectors(MODEL, vectors)
        assert len(s.search_dense(queries(topics, 1)[0], MODEL, Filters(), 10)) == 10
        assert matrix_of(s).ann is None
        assert not glob.glob(s.location + ".ann-*")
    finally:
        s.close()


def test_calibrated_nprobe_reaches_its_recall_on_clustered_vectors():
    rng = np.random.default_rng(5)
    centres = unit(rng.standard_normal((30, DIM)))
    vectors = unit(centres[rng.integers(30, size=3000)] + 0.6 * unit(
        rng.standard_normal((3000, DIM))))
    centroids, lists, nprobe, recall = ann.train(vectors)
    assert recall >= ann.CALIBRATION_RECALL
    assert ann.MIN_NPROBE <= nprobe <= len(centroids)
    assert lists.shape == (3000,) and lists.max() < len(centroids)


def test_vectors_without_structure_get_exact_answers(forced):
    """Uniform random directions: no list holds a query's neighbours, the calibration sees
    it and the search stays exact rather than returning poor neighbours."""
    rng = np.random.default_rng(7)
    n = 3000
    matrix = VectorMatrix(
        rowids=np.arange(1, n + 1, dtype=np.int64), vectors=unit(rng.standard_normal((n, DIM))),
        access=np.zeros(n, dtype=np.int32), access_codes={"public": 0},
        kinds=np.zeros(n, dtype=np.int32), kind_codes={"text": 0},
        starts=np.zeros(n, dtype=np.int32), ends=np.full(n, 99_999_999, dtype=np.int32))
    matrix.prepare_ann(None, MODEL, "1", threshold=FORCED)  # no location: nothing cached
    assert matrix.ann is not None and 2 * matrix.ann.nprobe >= matrix.ann.nlist
    for q in unit(rng.standard_normal((5, DIM))):
        assert matrix.top_k(q, 10, None) == matrix.top_k(q, 10, None, exact=True)
