"""Shared fixtures: the sample corpus copied into a temporary folder, a ready index over
it, and small helpers to read an index straight from SQL and to run the real CLI."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from preuve import Index

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
HANDBOOK = EXAMPLES / "handbook"
FACTURO = EXAMPLES / "facturo"

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


@pytest.fixture(scope="session")
def index_path(corpus, tmp_path_factory) -> Path:
    """An index over `corpus`, built once per session; tests must not modify it."""
    path = tmp_path_factory.mktemp("index") / "index.sqlite"
    with open_index(path) as index:
        report = index.ingest([corpus])
    assert report.ok, report.failed
    return path


@pytest.fixture(scope="session")
def index(index_path):
    """The session index, opened once (read only by convention)."""
    idx = open_index(index_path)
    yield idx
    idx.close()


def rows(db_path: Path | str, sql: str, params=()) -> list[dict]:
    """Query an index file directly, read-only, rows as dicts."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute(sql, params)]
    finally:
        db.close()


def chunks_of(db_path: Path | str, path: str) -> list[dict]:
    """Chunks of the document stored at `path`, in reading order."""
    return rows(db_path, "SELECT * FROM chunks WHERE path = ? ORDER BY ordinal", (path,))


def integrity_ok(db: Path | str) -> None:
    """SQLite and the FTS index both pass their own integrity checks."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # the FTS index agrees with the chunks table (raises if not)
        conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')")
    finally:
        conn.close()


def state_digest(db_path: Path | str) -> str:
    """A digest of what the index holds: documents (path, hash) and chunks (id, text)."""
    db = sqlite3.connect(db_path)
    try:
        digest = hashlib.sha256()
        for row in db.execute(
            "SELECT d.path, d.content_hash, c.chunk_id, c.text FROM documents d "
            "LEFT JOIN chunks c ON c.doc_id = d.doc_id ORDER BY d.path, c.ordinal"
        ):
            digest.update(repr(tuple(row)).encode())
        # chunks whose document is gone would be an inconsistency of their own
        for row in db.execute(
            "SELECT chunk_id FROM chunks WHERE doc_id NOT IN (SELECT doc_id FROM documents)"
        ):
            digest.update(b"orphan" + row[0].encode())
        return digest.hexdigest()
    finally:
        db.close()


def count(db_path: Path | str, table: str) -> int:
    return rows(db_path, f"SELECT COUNT(*) AS n FROM {table}")[0]["n"]


def run_cli(*args: str, env: dict | None = None, cwd: Path | str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m preuve ARGS` in a real subprocess (keyword-only indexes)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    full_env["PREUVE_EMBEDDER"] = KEYWORD_ONLY
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "preuve", *args], capture_output=True, text=True,
        env=full_env, cwd=cwd, timeout=timeout,
    )


# ------------------------------------------------------------------ e5 (dense) fixtures
# Retrieval with vectors, answers and conversations use the real bundled embedder. The
# sample corpus is embedded ONCE per session (~30 s on two cores); tests that write to an
# index (calibrate, chat, re-ingest) work on a copy made with `copy_index`.

E5 = "e5"


def copy_index(source: Path | str, dest: Path | str) -> Path:
    """A consistent copy of an index file (SQLite backup API: WAL content included)."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    src_db, dst_db = sqlite3.connect(source), sqlite3.connect(dest)
    try:
        src_db.backup(dst_db)
    finally:
        dst_db.close()
        src_db.close()
    return dest


@pytest.fixture(scope="session")
def e5_build(corpus, tmp_path_factory):
    """(index path, ingest report) of the sample corpus embedded with e5, built once."""
    path = tmp_path_factory.mktemp("e5index") / "index.sqlite"
    with Index(path, embedder=E5) as index:
        report = index.ingest([corpus])
    assert report.ok, report.failed
    return path, report


@pytest.fixture(scope="session")
def e5_index_path(e5_build) -> Path:
    """The session e5 index file; tests must not modify it (copy it with `copy_index`)."""
    return e5_build[0]


@pytest.fixture(scope="session")
def e5_index(e5_index_path):
    """The session e5 index, opened once (read only by convention)."""
    idx = Index(e5_index_path, embedder=E5)
    yield idx
    idx.close()


def run_cli_e5(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """`python -m preuve ARGS` against an index built with e5."""
    return run_cli(*args, env={"PREUVE_EMBEDDER": E5, **(env or {})}, **kwargs)
