"""Shared fixtures: the sample corpus copied into a temporary folder, a ready index over
it, and small helpers to read an index straight from SQL and to run the real CLI.

The behavioural tests run on both stores: fixtures that give an index (`index_path`,
`index`, `e5_index_path`, `e5_index`, `fresh_index`) are parametrized by `store_kind`
("sqlite", "postgres"). The PostgreSQL server and its schemas come from
tests/postgres_server.py (`pg_base`, `pg_location`)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings
from postgres_server import pg_base, pg_location  # noqa: F401  (pg_base: a fixture)

from preuve import Index
from preuve.index import is_database

# Property tests draw the same examples on every run (CI must not fail by the luck of a
# draw); PREUVE_HYPOTHESIS_RANDOM=1 explores new ones.
hypothesis_settings.register_profile("fixed", derandomize=True)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile("explore" if os.environ.get("PREUVE_HYPOTHESIS_RANDOM")
                                 else "fixed")

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
HANDBOOK = EXAMPLES / "handbook"
FACTURO = EXAMPLES / "facturo"

# Server settings for tests that send many requests: no rate limit gets in their way.
UNLIMITED = {"rate_per_key": 10_000, "rate_per_ip": 10_000, "failed_auth_per_ip": 10_000}

# Dates on either side of the switch from the 30-day to the 45-day returns policy.
BEFORE_SWITCH = "2026-10-01"
AFTER_SWITCH = "2026-11-05"
# These tests are about keyword search (BM25): indexes are built without an embedder.
KEYWORD_ONLY = "none"


def copy_corpus(dest: Path) -> Path:
    """handbook/ and facturo/ copied under `dest` (the folder that gets ingested)."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(HANDBOOK, dest / "handbook")
    if FACTURO.is_dir():
        shutil.copytree(FACTURO, dest / "facturo",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def open_index(path: Path | str) -> Index:
    """An index for keyword search only: no embedding model is loaded (fast, offline)."""
    return Index(path, embedder=KEYWORD_ONLY)


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Path:
    """A private copy of the sample corpus; tests must not modify it."""
    return copy_corpus(tmp_path_factory.mktemp("corpus") / "examples")


# ----------------------------------------------------------------------- the two stores
STORES = ["sqlite", "postgres"]
@pytest.fixture(scope="session", params=STORES, ids=STORES)
def store_kind(request) -> str:
    """Which store the behavioural tests run on."""
    if request.param == "postgres":
        request.getfixturevalue("pg_base")
    return request.param


@pytest.fixture(scope="session")
def new_location(tmp_path_factory, request):
    """`new_location(kind)`: a fresh, empty index location of that store kind."""
    def make(kind: str, name: str = "index"):
        if kind == "postgres":
            return pg_location(request.getfixturevalue("pg_base"))
        return tmp_path_factory.mktemp(name) / "index.sqlite"
    return make


@pytest.fixture
def fresh_index(store_kind, new_location):
    """A fresh, empty index location (SQLite file or PostgreSQL schema) for this test."""
    return new_location(store_kind)


def kind_of(location) -> str:
    return "postgres" if is_database(location) else "sqlite"


@pytest.fixture(scope="session")
def sqlite_index_path(corpus, tmp_path_factory) -> Path:
    """The SQLite index over `corpus`, built once per session; tests must not modify it."""
    path = tmp_path_factory.mktemp("index") / "index.sqlite"
    with open_index(path) as index:
        report = index.ingest([corpus])
    assert report.ok, report.failed
    return path


@pytest.fixture(scope="session")
def index_path(store_kind, corpus, request, new_location):
    """An index over `corpus` on each store, built once per session by a real ingest;
    tests must not modify it."""
    if store_kind == "sqlite":
        return request.getfixturevalue("sqlite_index_path")
    location = new_location("postgres")
    with open_index(location) as index:
        report = index.ingest([corpus])
    assert report.ok, report.failed
    return location


@pytest.fixture(scope="session")
def index(index_path):
    """The session index, opened once (read only by convention)."""
    idx = open_index(index_path)
    yield idx
    idx.close()


def rows(db_path: Path | str, sql: str, params=()) -> list[dict]:
    """Query an index directly, read-only, rows as dicts: SQLite file or PostgreSQL URL
    (the same SQL: `?` placeholders; write it in the dialect both understand)."""
    if kind_of(db_path) == "postgres":
        return _pg_rows(os.fspath(db_path), sql, params)
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute(sql, params)]
    finally:
        db.close()


def _pg_rows(url: str, sql: str, params=()) -> list[dict]:
    import psycopg
    from psycopg.rows import dict_row

    query = sql.replace("%", "%%").replace("?", "%s")
    with psycopg.connect(url, row_factory=dict_row) as conn:
        conn.read_only = True
        return [dict(r) for r in conn.execute(query, tuple(params))]


def chunks_of(db_path: Path | str, path: str) -> list[dict]:
    """Chunks of the document stored at `path`, in reading order."""
    return rows(db_path, "SELECT * FROM chunks WHERE path = ? ORDER BY ordinal", (path,))


def integrity_ok(db: Path | str) -> None:
    """SQLite and the FTS index both pass their own integrity checks; on PostgreSQL the
    lexicon (document frequencies, chunk and token counts) agrees with the chunks."""
    if kind_of(db) == "postgres":
        lexicon_ok(db)
        return
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # each BM25 partition's FTS index agrees with the chunks of its label (raises if
        # not), and every chunk is in the partition of its label
        parts = conn.execute("SELECT part, label FROM lexicon_parts").fetchall()
        for part, label in parts:
            conn.execute(f"INSERT INTO lex_{part}(lex_{part}) VALUES('integrity-check')")
            held = {r[0] for r in conn.execute(f"SELECT id FROM lex_{part}_docsize")}
            want = {r[0] for r in conn.execute("SELECT id FROM chunks WHERE access IS ?",
                                               (label,))}
            assert held == want, (label, held ^ want)
        labels = {label for _, label in parts}
        assert {r[0] for r in conn.execute("SELECT DISTINCT access FROM chunks")} <= labels
    finally:
        conn.close()


def lexicon_ok(url: str) -> None:
    """PostgreSQL: for each access label (a BM25 partition), `term_df` holds the number of
    its chunks holding each term, recounted from the chunks' tokens, and `lexicon_parts`
    its chunk count and total length."""
    from collections import Counter

    recount: dict[str, Counter[str]] = {}
    sizes: dict[str, list[int]] = {}
    for chunk in rows(url, "SELECT coalesce(access, '') AS label, tokens, length FROM chunks"):
        words = chunk["tokens"].split()
        assert len(words) == chunk["length"]
        recount.setdefault(chunk["label"], Counter()).update(set(words))
        size = sizes.setdefault(chunk["label"], [0, 0])
        size[0] += 1
        size[1] += len(words)
    stored: dict[str, dict[str, int]] = {}
    for r in rows(url, "SELECT coalesce(p.label, '') AS label, t.term, d.df FROM term_df d "
                       "JOIN terms t ON t.id = d.term JOIN lexicon_parts p ON p.part = d.part"):
        assert r["df"] > 0, r  # a term no chunk of the label holds has no row
        stored.setdefault(r["label"], {})[r["term"]] = r["df"]
    assert stored == {label: dict(c) for label, c in recount.items()}
    parts = {r["label"]: [r["chunks"], r["tokens"]] for r in rows(
        url, "SELECT coalesce(label, '') AS label, chunks, tokens FROM lexicon_parts")}
    assert {label: size for label, size in parts.items() if size != [0, 0]} == sizes


def state_digest(db_path: Path | str) -> str:
    """A digest of what the index holds: documents (path, hash) and chunks (id, text).
    The same on both stores for the same content."""
    digest = hashlib.sha256()
    for row in rows(db_path,
                    "SELECT d.path, d.content_hash, c.chunk_id, c.text FROM documents d "
                    "LEFT JOIN chunks c ON c.doc_id = d.doc_id ORDER BY d.path, c.ordinal"):
        digest.update(repr(tuple(row.values())).encode())
    # chunks whose document is gone would be an inconsistency of their own
    for row in rows(db_path, "SELECT chunk_id FROM chunks "
                             "WHERE doc_id NOT IN (SELECT doc_id FROM documents)"):
        digest.update(b"orphan" + row["chunk_id"].encode())
    return digest.hexdigest()


def count(db_path: Path | str, table: str) -> int:
    return rows(db_path, f"SELECT COUNT(*) AS n FROM {table}")[0]["n"]


def run_cli(*args: str, env: dict | None = None, cwd: Path | str | None = None,
            timeout: float = 60, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`python -m preuve ARGS` in a real subprocess (keyword-only indexes), `stdin` its
    standard input (none: an empty one)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    full_env["PREUVE_EMBEDDER"] = KEYWORD_ONLY
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "preuve", *args], capture_output=True, text=True,
        env=full_env, cwd=cwd, timeout=timeout, input=stdin or "",
    )


# --------------------------------------------------------- vectors as another CPU makes them
# int8 inference gives slightly different vectors on another processor (a dense score seen
# 0.003 apart). With PREUVE_TEST_VECTOR_NOISE=EPS (`make test` runs the answer and dense
# tests once more that way), every vector the tests make, queries, sentences and the stored
# passages of the e5 index, is moved by relative noise EPS and normalised again: a test that
# passes only on one CPU fails here. In 384 dimensions a random offset is nearly orthogonal
# to the other vector of a cosine, so EPS = 0.05 (each vector at cosine 0.9988 from where
# it was) moves a query-passage score by about 0.003, the difference seen across CPUs.
VECTOR_NOISE = float(os.environ.get("PREUVE_TEST_VECTOR_NOISE") or 0)


def perturb(vectors, eps: float, seed: int):
    """Unit vectors moved by a random offset of relative size `eps`."""
    import numpy as np

    vectors = np.asarray(vectors, dtype=np.float32)
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal(vectors.shape).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=-1, keepdims=True)
    moved = vectors + eps * np.linalg.norm(vectors, axis=-1, keepdims=True) * noise
    return moved / np.linalg.norm(moved, axis=-1, keepdims=True)


class NoisyEmbedder:
    """An embedder whose vectors come out as another CPU's would (see VECTOR_NOISE)."""

    def __init__(self, inner, eps: float):
        self._inner, self._eps = inner, eps

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _moved(self, texts, vectors):
        seed = int(hashlib.sha256("\0".join(texts).encode()).hexdigest()[:8], 16)
        return perturb(vectors, self._eps, seed)

    def embed_queries(self, texts):
        return self._moved(list(texts), self._inner.embed_queries(texts))

    def embed_passages(self, texts):
        return self._moved(list(texts), self._inner.embed_passages(texts))

    def query_runner(self, text):
        """As `embed_queries([text])[0]`, in two steps (`retrieve.dense.embed_beside`)."""
        run = self._inner.query_runner(text)
        return lambda: self._moved([text], run()[None, :])[0]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "same_vectors_in_subprocess: compares this process's vectors with a CLI "
                   "subprocess's (skipped under PREUVE_TEST_VECTOR_NOISE: only this process "
                   "is noisy)")


def pytest_collection_modifyitems(config, items):
    if VECTOR_NOISE:
        skip = pytest.mark.skip(reason="the CLI subprocess's vectors are not perturbed")
        for item in items:
            if "same_vectors_in_subprocess" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def vectors_of_another_cpu():
    """Under PREUVE_TEST_VECTOR_NOISE, the embedders of this process are noisy ones."""
    if not VECTOR_NOISE:
        yield
        return
    import preuve.embed
    import preuve.engine

    original = preuve.embed.get_embedder
    made: dict[str, NoisyEmbedder] = {}

    def noisy(name: str = "e5", settings=None):
        if name not in made:
            made[name] = NoisyEmbedder(original(name, settings), VECTOR_NOISE)
        return made[name]

    mp = pytest.MonkeyPatch()
    mp.setattr(preuve.embed, "get_embedder", noisy)
    mp.setattr(preuve.engine, "get_embedder", noisy)
    yield
    mp.undo()


def perturb_stored_vectors(location) -> None:
    """Move the stored passage vectors of a SQLite index (made by worker processes, which
    the noisy embedder does not reach) by VECTOR_NOISE."""
    import numpy as np

    db = sqlite3.connect(location)
    try:
        models = [m for (m,) in db.execute("SELECT DISTINCT model FROM vectors ORDER BY model")]
        for model in models:  # the embedder's and its companion's (other dimensions)
            stored = db.execute("SELECT id, vector FROM vectors WHERE model = ?",
                                (model,)).fetchall()
            moved = perturb(np.stack([np.frombuffer(b, dtype=np.float32) for _, b in stored]),
                            VECTOR_NOISE, seed=7)
            db.executemany("UPDATE vectors SET vector = ? WHERE id = ?",
                           [(v.tobytes(), i) for (i, _), v in zip(stored, moved, strict=True)])
        db.commit()
    finally:
        db.close()


# ------------------------------------------------------------------ e5 (dense) fixtures
# Retrieval with vectors, answers and conversations use the real bundled embedder. The
# sample corpus is embedded ONCE per session (~30 s on two cores); tests that write to an
# index (calibrate, chat, re-ingest) work on a copy made with `copy_index`.

E5 = "e5"


def copy_index(source: Path | str, dest: Path | str) -> Path | str:
    """A consistent copy of an index, returned as the copy's location.

    SQLite to a SQLite path: the backup API (WAL content included). A PostgreSQL source is
    copied into a new schema of the test server when `dest` is a file path (the copy stays
    on the source's store); any other pair goes through `preuve.store.copy.copy_index`
    (`preuve migrate`: vectors copied, nothing re-embedded)."""
    if kind_of(source) == "postgres" and kind_of(dest) == "sqlite":
        dest = pg_location()
    if kind_of(source) == kind_of(dest) == "sqlite":
        dest = Path(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        src_db, dst_db = sqlite3.connect(source), sqlite3.connect(dest)
        try:
            src_db.backup(dst_db)
        finally:
            dst_db.close()
            src_db.close()
        return dest
    from preuve.store.copy import copy_index as migrate

    migrate(os.fspath(source), os.fspath(dest))
    return dest


def embed_folder(folder: Path, path: Path):
    """`folder` ingested with e5 into a new SQLite index at `path`, its stored vectors
    moved by VECTOR_NOISE when set; returns the ingest report."""
    with Index(path, embedder=E5) as index:
        report = index.ingest([folder])
    assert report.ok, report.failed
    if VECTOR_NOISE:
        perturb_stored_vectors(path)
    return report


@pytest.fixture(scope="session")
def e5_build(corpus, tmp_path_factory):
    """(index path, ingest report) of the sample corpus embedded with e5, built once."""
    path = tmp_path_factory.mktemp("e5index") / "index.sqlite"
    return path, embed_folder(corpus, path)


@pytest.fixture(scope="session")
def e5_index_path(store_kind, e5_build, new_location):
    """The session e5 index on each store (PostgreSQL: a copy of the SQLite one, vectors
    included, nothing embedded twice); tests must not modify it (copy it with
    `copy_index`)."""
    if store_kind == "sqlite":
        return e5_build[0]
    return copy_index(e5_build[0], new_location("postgres"))


@pytest.fixture(scope="session")
def e5_index(e5_index_path):
    """The session e5 index, opened once (read only by convention)."""
    idx = Index(e5_index_path, embedder=E5)
    yield idx
    idx.close()


def run_cli_e5(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """`python -m preuve ARGS` against an index built with e5."""
    return run_cli(*args, env={"PREUVE_EMBEDDER": E5, **(env or {})}, **kwargs)
