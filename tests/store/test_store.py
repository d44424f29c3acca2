"""The index over time: migrations, atomic writes, incremental ingest, and bad input that
must be reported per file without losing what is already indexed.

Everything but the SQLite schema tests (WAL mode, SQLite migrations, the default file
location) runs on both stores."""

from __future__ import annotations

import io
import random
import shutil
import sqlite3
import zipfile
from importlib import resources
from pathlib import Path

import psycopg
import pytest
from conftest import (
    chunks_of,
    copy_corpus,
    count,
    integrity_ok,
    open_index,
    rows,
    state_digest,
)

from preuve.models import Chunk, Document
from preuve.settings import Settings
from preuve.store import Changes, open_store


def migration_numbers() -> list[int]:
    folder = resources.files("preuve.store") / "migrations" / "sqlite"
    return sorted(int(e.name.split("_", 1)[0]) for e in folder.iterdir()
                  if e.name.endswith(".sql"))


def ingest(db: Path, *paths: Path, **kwargs):
    with open_index(db) as index:
        return index.ingest(list(paths), **kwargs)


def search_paths(db: Path, query: str, **kwargs) -> list[str]:
    with open_index(db) as index:
        return [h.path for h in index.search(query, method="bm25", k=20, as_of="none",
                                              **kwargs)]


def chunk_rows_by_path(db: Path) -> dict[str, list[tuple]]:
    """path -> [(rowid, chunk_id, text)]: a re-written document gets new rowids."""
    out: dict[str, list[tuple]] = {}
    for r in rows(db, "SELECT id, path, chunk_id, text FROM chunks ORDER BY path, ordinal"):
        out.setdefault(r["path"], []).append((r["id"], r["chunk_id"], r["text"]))
    return out


@pytest.fixture
def work(tmp_path, fresh_index) -> tuple[Path, Path | str]:
    """(corpus folder, index location) with the corpus ingested once."""
    corpus = copy_corpus(tmp_path / "examples")
    db = fresh_index
    report = ingest(db, corpus)
    assert report.ok, report.failed
    return corpus, db


# -------------------------------------------------------------------------- the schema


def test_new_index_has_latest_schema_in_wal_mode(tmp_path):
    db = tmp_path / "deep" / "folder" / "index.sqlite"
    store = open_store(db)
    try:
        assert store.schema_version == migration_numbers()[-1]
    finally:
        store.close()
    conn = sqlite3.connect(db)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"documents", "chunks", "lexicon_parts", "meta", "ingests"} <= tables
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    # reopening does not migrate again nor lose anything
    store = open_store(db)
    assert store.schema_version == migration_numbers()[-1]
    store.close()


def test_old_index_is_migrated_and_keeps_its_data(tmp_path):
    """An index written by schema 1 opens with the current code, data intact."""
    db = tmp_path / "old.sqlite"
    folder = resources.files("preuve.store") / "migrations" / "sqlite"
    first = (folder / "001_init.sql").read_text("utf-8")
    conn = sqlite3.connect(db)
    conn.executescript(first)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO documents (doc_id, path, root, kind, content_hash, access, "
                 "indexed_at) VALUES ('d1', 'old.md', '/x', 'markdown', 'h', 'public', 'now')")
    conn.execute("INSERT INTO chunks (chunk_id, doc_id, ordinal, path, kind, access, text, "
                 "tokens) VALUES ('d1:0', 'd1', 0, 'old.md', 'markdown', 'public', "
                 "'Ancien texte', 'ancien text')")
    conn.commit()
    conn.close()
    with open_index(db) as index:
        assert index.engine.store.schema_version == migration_numbers()[-1]
        hits = index.search("ancien", method="bm25", as_of="none")
        assert [h.chunk_id for h in hits] == ["d1:0"]
    integrity_ok(db)


def test_open_store_location_from_settings_and_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PREUVE_INDEX", str(tmp_path / "ignored" / "i.sqlite"))
    settings = Settings.load(env={"PREUVE_INDEX": str(tmp_path / "env" / "i.sqlite")})
    open_store(None, settings).close()
    assert (tmp_path / "env" / "i.sqlite").exists()
    open_store().close()  # the environment is the front ends' to read, never the store's
    assert (tmp_path / ".preuve" / "index.sqlite").exists()
    assert not (tmp_path / "ignored").exists()


def test_a_failing_write_changes_nothing(work):
    """apply() is all or nothing: a batch whose second half fails leaves no trace."""
    _, db = work
    before = state_digest(db)
    store = open_store(db)
    try:
        doc = Document(doc_id="new-doc", path="new.md", root="/tmp", kind="markdown",
                       title="New", language="en", content_hash="x", access="public")
        twin = Document(doc_id="other-doc", path="other.md", root="/tmp", kind="markdown",
                        title="Other", language="en", content_hash="y", access="public")
        chunk = Chunk(text="hello", chunk_id="dup:0", doc_id="new-doc", tokens=["hello"])
        clash = Chunk(text="clash", chunk_id="dup:0", doc_id="other-doc", tokens=["clash"])
        (old,) = store.documents()[:1]
        changes = Changes(upserts=[(doc, [chunk]), (twin, [clash])], removals=[old.doc_id])
        with pytest.raises((sqlite3.IntegrityError, psycopg.errors.IntegrityError)):
            store.apply(changes)
    finally:
        store.close()
    assert state_digest(db) == before
    integrity_ok(db)


# ------------------------------------------------------------------------- incremental


def test_three_ingests_give_the_same_index(work):
    corpus, db = work
    first = (count(db, "documents"), count(db, "chunks"), state_digest(db))
    for _ in range(2):
        report = ingest(db, corpus)
        assert report.ok
        assert (report.added, report.updated, report.removed) == ([], [], [])
        assert report.unchanged == first[0]
        assert (count(db, "documents"), count(db, "chunks"), state_digest(db)) == first
    # no duplicates of any kind
    assert rows(db, "SELECT COUNT(DISTINCT text || path) AS n FROM chunks")[0]["n"] == first[1]
    integrity_ok(db)


def test_editing_one_file_reindexes_only_it(work):
    corpus, db = work
    before = chunk_rows_by_path(db)
    n_docs = count(db, "documents")
    target = corpus / "handbook" / "formation.md"
    target.write_text(target.read_text("utf-8").replace(
        "1 200 €", "1 500 € (zygomorphe)"), encoding="utf-8")
    report = ingest(db, corpus)
    assert report.ok
    assert report.updated == ["handbook/formation.md"]
    assert (report.added, report.removed) == ([], [])
    assert report.unchanged == n_docs - 1
    after = chunk_rows_by_path(db)
    assert set(after) == set(before)
    for path in before:
        if path == "handbook/formation.md":
            assert after[path] != before[path]
        else:
            assert after[path] == before[path], path  # same rows: not even rewritten
    assert search_paths(db, "zygomorphe") == ["handbook/formation.md"]
    assert not any("1 200 €" in c["text"] for c in chunks_of(db, "handbook/formation.md"))


def test_changing_a_sidecar_reindexes_its_file(work):
    corpus, db = work
    sidecar = corpus / "handbook" / "faq.txt.meta.yaml"
    sidecar.write_text(sidecar.read_text("utf-8").replace("access: public", "access: staff"),
                       encoding="utf-8")
    report = ingest(db, corpus)
    assert report.updated == ["handbook/faq.txt"]
    assert {c["access"] for c in chunks_of(db, "handbook/faq.txt")} == {"staff"}
    assert "handbook/faq.txt" not in search_paths(db, "titre-restaurant", audience="public")
    assert "handbook/faq.txt" in search_paths(db, "titre-restaurant", audience="staff")


def test_deleting_a_file_removes_its_chunks(work):
    corpus, db = work
    assert chunks_of(db, "handbook/catalogue.md")
    n_chunks = count(db, "chunks")
    gone = len(chunks_of(db, "handbook/catalogue.md"))
    (corpus / "handbook" / "catalogue.md").unlink()
    report = ingest(db, corpus)
    assert report.removed == ["handbook/catalogue.md"]
    assert (report.added, report.updated) == ([], [])
    assert chunks_of(db, "handbook/catalogue.md") == []
    assert rows(db, "SELECT * FROM documents WHERE path = 'handbook/catalogue.md'") == []
    assert count(db, "chunks") == n_chunks - gone
    assert "handbook/catalogue.md" not in search_paths(db, "PK-2200-07")
    integrity_ok(db)


def test_ingesting_one_file_does_not_remove_the_others(work):
    corpus, db = work
    other = copy_corpus(corpus.parent / "elsewhere")
    n_docs = count(db, "documents")
    report = ingest(db, other / "handbook" / "faq.txt")  # a single file from elsewhere
    assert report.removed == []
    assert count(db, "documents") >= n_docs


def test_reingesting_through_a_subfolder_or_by_name_keeps_identity(work):
    corpus, db = work
    before = state_digest(db)
    ingest(db, corpus / "handbook" / "brouillon-stationnement.md")
    ingest(db, corpus / "handbook")
    assert rows(db, "SELECT COUNT(*) AS n FROM documents WHERE title LIKE 'Brouillon%'") == [
        {"n": 1}]
    assert state_digest(db) == before


def test_file_that_becomes_corrupt_keeps_its_previous_version(work):
    corpus, db = work
    pdf = corpus / "handbook" / "teletravail.pdf"
    markdown = corpus / "handbook" / "conges.md"
    kept = {p: chunks_of(db, p) for p in ("handbook/teletravail.pdf", "handbook/conges.md")}
    pdf.write_bytes(pdf.read_bytes()[: pdf.stat().st_size // 2])  # truncated download
    markdown.write_bytes(markdown.read_text("utf-8").encode("cp1252"))  # re-saved badly
    report = ingest(db, corpus)
    failed = {p.path: p.reason for p in report.failed}
    assert set(failed) == {"handbook/teletravail.pdf", "handbook/conges.md"}
    assert "pdf" in failed["handbook/teletravail.pdf"].lower()
    assert "utf-8" in failed["handbook/conges.md"].lower()
    assert report.removed == [] and report.updated == []
    for path, chunks in kept.items():
        assert chunks_of(db, path) == chunks, path
    assert "handbook/teletravail.pdf" in search_paths(db, "télétravailler jours par semaine")
    integrity_ok(db)


def random_bytes(n: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(n)


def test_corrupt_pdf_and_binary_file_among_good_files(tmp_path, fresh_index):
    corpus = copy_corpus(tmp_path / "examples")
    good = sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*")
                  if p.is_file() and not p.name.endswith(".meta.yaml"))
    pdf = (corpus / "handbook" / "teletravail.pdf").read_bytes()
    (corpus / "handbook" / "broken.pdf").write_bytes(pdf[: len(pdf) // 3])
    (corpus / "handbook" / "notes.txt").write_bytes(random_bytes(4096, 1))
    (corpus / "handbook" / "empty.md").write_bytes(b"")
    (corpus / "handbook" / "blank.md").write_text("\n   \n\n", encoding="utf-8")
    (corpus / "handbook" / "huge.txt").write_text("mot " * 300_000, encoding="utf-8")
    db = fresh_index
    report = ingest(db, corpus, max_bytes=1_000_000)
    failed = {p.path: p.reason for p in report.failed}
    assert set(failed) == {"handbook/broken.pdf", "handbook/notes.txt", "handbook/huge.txt"}
    assert "pdf" in failed["handbook/broken.pdf"].lower()
    assert any(w in failed["handbook/notes.txt"].lower() for w in ("binary", "utf-8"))
    assert "large" in failed["handbook/huge.txt"].lower()
    # files that hold no text are fine: skipped with a note, not failed (issue 21 item 3)
    skipped = {p.path: p.reason for p in report.skipped}
    assert skipped["handbook/empty.md"] == skipped["handbook/blank.md"] == "no text to index"
    assert not report.ok
    indexed = sorted(d["path"] for d in rows(db, "SELECT path FROM documents"))
    assert indexed == good  # every good file, none of the bad ones


def test_corrupt_docx_is_a_per_file_error(tmp_path, fresh_index):
    corpus = copy_corpus(tmp_path / "examples")
    source = (corpus / "handbook" / "expenses.docx").read_bytes()
    truncated_xml = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as zin, \
            zipfile.ZipFile(truncated_xml, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "word/document.xml":
                data = data[: len(data) // 2]
            zout.writestr(info.filename, data)
    (corpus / "handbook" / "cut.docx").write_bytes(truncated_xml.getvalue())
    garbled = bytearray(source)
    garbled[2000:2500] = random_bytes(500, 1)
    (corpus / "handbook" / "garbled.docx").write_bytes(bytes(garbled))
    db = fresh_index
    report = ingest(db, corpus)
    assert {p.path for p in report.failed} == {"handbook/cut.docx", "handbook/garbled.docx"}
    assert rows(db, "SELECT * FROM documents WHERE path = 'handbook/expenses.docx'")


# ----------------------------------------------------------- identity of documents


def test_renaming_a_file_with_an_explicit_id_keeps_it(work):
    corpus, db = work
    shutil.move(corpus / "handbook" / "catalogue.md", corpus / "handbook" / "produits.md")
    report = ingest(db, corpus)
    assert report.removed == ["handbook/catalogue.md"]
    assert report.added == ["handbook/produits.md"]
    assert rows(db, "SELECT doc_id, path FROM documents WHERE doc_id = 'catalogue'") == [
        {"doc_id": "catalogue", "path": "handbook/produits.md"}]
    assert search_paths(db, "LB-1")[0] == "handbook/produits.md"


def test_renaming_a_file_without_id_moves_it(work):
    corpus, db = work
    n_chunks = count(db, "chunks")
    shutil.move(corpus / "handbook" / "brouillon-stationnement.md",
                corpus / "handbook" / "parking.md")
    report = ingest(db, corpus)
    assert report.removed == ["handbook/brouillon-stationnement.md"]
    assert report.added == ["handbook/parking.md"]
    assert count(db, "chunks") == n_chunks
    assert search_paths(db, "covoitureurs") == ["handbook/parking.md"]


def test_same_folder_given_twice(tmp_path, fresh_index):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("Texte unique.\n", encoding="utf-8")
    db = fresh_index
    report = ingest(db, folder, folder)
    assert report.ok
    assert count(db, "documents") == 1


def test_two_folders_with_the_same_file_name(tmp_path, fresh_index):
    for name, word in (("team-a", "alpha"), ("team-b", "bravo")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "README.md").write_text(f"# {name}\n\nMot {word}.\n",
                                                  encoding="utf-8")
    db = fresh_index
    report = ingest(db, tmp_path / "team-a", tmp_path / "team-b")
    assert report.ok
    assert count(db, "documents") == 2
    assert search_paths(db, "alpha") and search_paths(db, "bravo")
