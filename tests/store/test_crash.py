"""SIGKILL during `preuve ingest`: the index is exactly as before the ingest or exactly as
after it, never in between, and it passes SQLite's integrity checks.

The corpus is generated so that the ingest's single write transaction is larger than
SQLite's page cache: pages spill into the -wal file before the commit, which lets the test
kill the process while the transaction is half written (watching the -wal file grow), as
well as at random moments."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import KEYWORD_ONLY, integrity_ok, open_index, state_digest

N_FILES = 50
WORDS = ("facture remboursement congé télétravail salarié équipe retour délai politique "
         "sécurité badge atelier").split()
WAL_HEADER = 32


def write_corpus(folder: Path, version: str, numbers, seed: int) -> None:
    """Markdown files of six sections; each section carries a long run of filler
    characters, cheap to tokenize but heavy in the database."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for i in numbers:
        parts = [f"---\naccess: public\n---\n# Document {i} {version}\n"]
        for s in range(6):
            words = " ".join(rng.choice(WORDS) for _ in range(40))
            parts.append(f"## Section {s}\n\n{words} {version}x{i}s{s}.\n{'·' * 4000}\n")
        (folder / f"doc{i:04d}.md").write_text("\n".join(parts), encoding="utf-8")


def wal_size(db: Path) -> int:
    try:
        return os.path.getsize(f"{db}-wal")
    except FileNotFoundError:
        return 0


def run_ingest(corpus: Path, db: Path, *, kill_after: float | None = None,
               kill_at_wal: int | None = None) -> dict:
    """Run `python -m preuve ingest` and SIGKILL it after `kill_after` seconds or once
    the -wal file reaches `kill_at_wal` bytes (whichever comes first), if still running."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env["PREUVE_EMBEDDER"] = KEYWORD_ONLY
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "preuve", "ingest", str(corpus), "--index", str(db), "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    info = {"killed": False, "wal_at_kill": 0, "max_wal": 0, "elapsed": 0.0}
    try:
        while proc.poll() is None:
            wal = wal_size(db)
            info["max_wal"] = max(info["max_wal"], wal)
            elapsed = time.monotonic() - start
            if ((kill_after is not None and elapsed >= kill_after)
                    or (kill_at_wal is not None and wal >= kill_at_wal)):
                proc.send_signal(signal.SIGKILL)
                info.update(killed=True, wal_at_kill=wal)
                break
            time.sleep(0.001)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    info["elapsed"] = time.monotonic() - start
    info["returncode"] = proc.returncode
    if info["killed"] and proc.returncode != -signal.SIGKILL:
        info["killed"] = False  # it had already exited on its own
    return info


def test_sigkill_during_ingest_leaves_before_or_after(tmp_path):
    corpus = tmp_path / "corpus"
    write_corpus(corpus, "A", range(N_FILES), seed=1)
    before_db = tmp_path / "before.sqlite"
    with open_index(before_db) as index:
        assert index.ingest([corpus]).ok
    before = state_digest(before_db)

    # version B: every file edited, ten deleted, ten new
    for i in range(N_FILES - 10, N_FILES):
        (corpus / f"doc{i:04d}.md").unlink()
    write_corpus(corpus, "B", [*range(N_FILES - 10), *range(N_FILES, N_FILES + 10)], seed=2)

    # the reference "after": a complete ingest, run exactly like the killed ones
    reference = tmp_path / "reference.sqlite"
    shutil.copy(before_db, reference)
    ref = run_ingest(corpus, reference)
    assert ref["returncode"] == 0
    after = state_digest(reference)
    assert after != before
    integrity_ok(reference)
    assert ref["max_wal"] > 1_000_000, "the transaction should spill into the WAL"

    rng = random.Random(20261105)
    trials = [{"kill_at_wal": WAL_HEADER + 1}] + [
        {"kill_at_wal": int(ref["max_wal"] * f)} for f in (0.3, 0.7)
    ] + [{"kill_after": rng.uniform(0.2, ref["elapsed"])} for _ in range(2)]
    outcomes = []
    for number, trial in enumerate(trials):
        db = tmp_path / f"trial{number}.sqlite"
        shutil.copy(before_db, db)
        info = run_ingest(corpus, db, **trial)
        integrity_ok(db)
        state = state_digest(db)
        assert state in (before, after), (trial, info)
        outcomes.append((trial, info, "before" if state == before else "after"))

    # at least one kill landed inside the write transaction, after pages had been written
    # to the WAL but before the commit, and it was rolled back
    assert any(info["killed"] and info["wal_at_kill"] > 4096 and outcome == "before"
               for _, info, outcome in outcomes), outcomes

    # and an interrupted index simply resumes: the next ingest completes it
    last = tmp_path / f"trial{len(trials) - 1}.sqlite"
    with open_index(last) as index:
        assert index.ingest([corpus]).ok
    assert state_digest(last) == after
    integrity_ok(last)
