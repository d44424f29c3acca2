"""The vector cache is bounded: an ingest that changed something deletes the vectors no
chunk needs any more (orphans) past the bound, the least recently of use first, never one a
chunk needs; content coming back within the bound is not embedded again; `status` tells the
live vectors from the cached ones. Real files, the real bundled embedders (e5 and its
companion), both stores; the bound made small so that a few edits cross it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import rows, run_cli

from preuve import Index
from preuve.ingest import vectors

KEEP = 4  # the bound in these tests: more than the 3 chunks of the folder

ALPHA = "Les congés payés sont de vingt-cinq jours ouvrés par an."
BETA = "Le vélo donne droit au forfait mobilités durables."


def write(folder: Path, alpha: str = ALPHA, beta: str = BETA) -> None:
    """a.md: two sections (two chunks), b.md: one chunk that never changes."""
    folder.mkdir(exist_ok=True)
    (folder / "a.md").write_text(f"# Guide\n\n## Alpha\n\n{alpha}\n\n## Beta\n\n{beta}\n",
                                 "utf-8")
    (folder / "b.md").write_text("# Paie\n\nLe bulletin de paie arrive le dernier jour.\n",
                                 "utf-8")


def beta(i: int) -> str:
    return f"Le vélo donne droit au forfait mobilités durables, barème numéro {i}."


@pytest.fixture
def small_bound(monkeypatch):
    """The bound at KEEP orphans per model, and no grace period (every orphan may go)."""
    monkeypatch.setattr(vectors, "KEEP_ORPHANS", KEEP)
    monkeypatch.setattr(vectors, "GRACE_SECONDS", 0.0)
    return monkeypatch


def per_model(path) -> tuple[dict[str, int], dict[str, int]]:
    """({model: vectors a chunk needs}, {model: orphans}) counted from the tables."""
    live, cached = {}, {}
    for r in rows(path, "SELECT v.model AS model, CASE WHEN EXISTS (SELECT 1 FROM chunks c "
                        "WHERE c.text_hash = v.text_hash) THEN 1 ELSE 0 END AS live, "
                        "COUNT(*) AS n FROM vectors v GROUP BY v.model, live"):
        (live if r["live"] else cached)[r["model"]] = r["n"]
    return live, cached


def chunks_without_vector(path, models) -> int:
    return sum(rows(path, "SELECT COUNT(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM "
                          "vectors v WHERE v.model = ? AND v.text_hash = c.text_hash)",
                    (model,))[0]["n"] for model in models)


def test_orphan_vectors_stay_within_the_bound_and_status_counts_them(
        tmp_path, fresh_index, small_bound):
    folder, path = tmp_path / "docs", fresh_index
    write(folder)
    with Index(path, embedder="e5") as index:
        assert index.ingest([folder]).embedded == 3
        models = sorted(per_model(path)[0])
        assert len(models) == 2  # e5 and its companion: both are bounded

        # within the grace period (another process's ingest may need them), nothing goes
        small_bound.setattr(vectors, "GRACE_SECONDS", 3600.0)
        for i in range(6):
            write(folder, beta=beta(i))
            assert index.ingest([folder]).embedded == 1
        assert per_model(path)[1] == {m: 6 for m in models}

        small_bound.setattr(vectors, "GRACE_SECONDS", 0.0)
        for i in range(6, 12):
            write(folder, beta=beta(i))
            assert index.ingest([folder]).embedded == 1
            live, cached = per_model(path)
            assert live == {m: 3 for m in models} and cached == {m: KEEP for m in models}
            assert chunks_without_vector(path, models) == 0
        # every live chunk is still found by dense search, the last edit first
        ids = {r["chunk_id"] for r in rows(path, "SELECT chunk_id FROM chunks")}
        hits = index.search("barème numéro 11 du forfait vélo", method="dense", k=10,
                            as_of="none")
        assert {h.chunk_id for h in hits} == ids and "numéro 11" in hits[0].text
        stats = index.status()
        assert stats["vectors"] == {m: 3 for m in models}
        assert stats["cached_vectors"] == {m: KEEP for m in models}

    shown = run_cli("status", "--index", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    out = json.loads(shown.stdout)
    assert out["vectors"] == {m: 3 for m in models}
    assert out["cached_vectors"] == {m: KEEP for m in models}
    text = run_cli("status", "--index", str(path)).stdout
    for model in models:
        assert f"vectors    3 ({model}), {KEEP} more cached" in text


def test_content_coming_back_within_the_bound_is_not_embedded_again(
        tmp_path, fresh_index, small_bound):
    """The orphans kept are the most recently OF USE, not the most recently written: the
    Alpha section, embedded first and unchanged for long, is edited after Beta's versions;
    when it comes back it is not embedded again, while Beta's first versions, orphaned
    before it, were past the bound and are embedded again."""
    folder, path = tmp_path / "docs", fresh_index
    write(folder)
    with Index(path, embedder="e5") as index:
        assert index.ingest([folder]).embedded == 3
        for i in range(3):  # Beta's original text, then versions 0 and 1 become orphans
            write(folder, beta=beta(i))
            assert index.ingest([folder]).embedded == 1
        edited = ALPHA.replace("vingt-cinq", "vingt-sept")
        write(folder, alpha=edited, beta=beta(2))
        assert index.ingest([folder]).embedded == 1  # Alpha's original text is an orphan
        for i in range(3, 5):  # two more orphans: the two least recently of use go
            write(folder, alpha=edited, beta=beta(i))
            assert index.ingest([folder]).embedded == 1
        assert set(per_model(path)[1].values()) == {KEEP}

        write(folder, beta=beta(4))  # Alpha comes back: its vectors were kept
        assert index.ingest([folder]).embedded == 0
        write(folder, beta=beta(2))  # Beta's version 2: kept too
        assert index.ingest([folder]).embedded == 0
        write(folder, beta=beta(0))  # Beta's version 0 was past the bound: embedded again
        assert index.ingest([folder]).embedded == 1
        live, _ = per_model(path)
        assert set(live.values()) == {3}
        index.forget(["a.md"])  # forgetting a file orphans its vectors: bounded too
        assert per_model(path) == ({m: 1 for m in live}, {m: KEEP for m in live})


def test_an_index_made_before_the_cache_was_bounded_is_migrated_and_pruned(
        tmp_path, small_bound):
    """A SQLite index as the code before schema 11 left it (no `used` column): it opens,
    its vectors count as the oldest, and the next ingest bounds them."""
    folder, path = tmp_path / "docs", tmp_path / "index.sqlite"
    write(folder)
    small_bound.setattr(vectors, "GRACE_SECONDS", 3600.0)
    with Index(path, embedder="e5") as index:
        index.ingest([folder])
        for i in range(6):
            write(folder, beta=beta(i))
            index.ingest([folder])
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE vectors DROP COLUMN used")
    db.execute("PRAGMA user_version = 10")
    db.close()

    small_bound.setattr(vectors, "GRACE_SECONDS", 0.0)
    with Index(path, embedder="e5") as index:
        assert index.status()["schema_version"] == 11
        assert set(index.status()["cached_vectors"].values()) == {6}
        write(folder, beta=beta(1))  # came back: kept, whatever the migration did
        assert index.ingest([folder]).embedded == 0
        assert set(index.status()["cached_vectors"].values()) == {KEEP}
        write(folder, beta=beta(4))  # the last written before the migration: kept
        assert index.ingest([folder]).embedded == 0
        write(folder, beta=BETA)  # the first written: gone
        assert index.ingest([folder]).embedded == 1
