"""Faults on both stores: `kill -9` of an ingest again and again, and two ingests at once.

A killed ingest leaves the index exactly as it was before that ingest or exactly as a
complete ingest would have left it; the next ingest picks up from there; the store's own
consistency checks pass after every kill. Two ingests started together both finish, and
the index holds each document once."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import KEYWORD_ONLY, integrity_ok, kind_of, rows, state_digest

KILLS = 20
N_FILES = 30


def write_version(folder: Path, version: str) -> None:
    """The corpus in one of two versions: every file's text differs, and version B drops
    five files and adds five others, so an ingest updates, removes and adds."""
    folder.mkdir(parents=True, exist_ok=True)
    numbers = range(N_FILES) if version == "A" else range(5, N_FILES + 5)
    for old in folder.glob("doc*.md"):
        old.unlink()
    rng = random.Random(version)
    words = "facture congé retour délai badge atelier salarié politique équipe".split()
    for i in numbers:
        body = "\n\n".join(f"## Partie {s}\n\n" + " ".join(rng.choice(words) for _ in range(300))
                           + f" {version}{i}s{s}" for s in range(8))
        (folder / f"doc{i:03d}.md").write_text(
            f"---\naccess: public\n---\n# Document {i} {version}\n\n{body}\n", encoding="utf-8")


def ingest_process(folder: Path, location) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env["PREUVE_EMBEDDER"] = KEYWORD_ONLY
    return subprocess.Popen(
        [sys.executable, "-m", "preuve", "ingest", str(folder), "--index", os.fspath(location),
         "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


def ingest(folder: Path, location) -> float:
    started = time.monotonic()
    proc = ingest_process(folder, location)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
    return time.monotonic() - started


def wait_for_writer_to_vanish(location) -> None:
    """PostgreSQL rolls a dead client's transaction back when it notices the closed
    socket; wait until no session of the killed process holds the write lock."""
    if kind_of(location) != "postgres":
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        held = rows(location, "SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' "
                              "AND granted")[0]["n"]
        if not held:
            return
        time.sleep(0.05)
    raise AssertionError("a killed ingest's transaction is still open after 30 s")


def test_kill_9_of_ingest_twenty_times_leaves_before_or_after(store_kind, new_location,
                                                              tmp_path):
    folder = tmp_path / "docs"
    # the two complete states, made by complete ingests into a reference index
    reference = new_location(store_kind, "reference")
    write_version(folder, "A")
    ingest(folder, reference)
    digests = {"A": state_digest(reference)}
    write_version(folder, "B")
    elapsed = ingest(folder, reference)
    digests["B"] = state_digest(reference)
    assert digests["A"] != digests["B"]

    location = new_location(store_kind)
    write_version(folder, "A")
    ingest(folder, location)
    state = "A"
    rng = random.Random(20261201)
    window = elapsed * 1.1  # seconds after the start within which the kill falls
    outcomes = []
    for trial in range(KILLS):
        target = "B" if state == "A" else "A"
        write_version(folder, target)
        proc = ingest_process(folder, location)
        time.sleep(rng.uniform(0.05, window))
        killed = proc.poll() is None
        if killed:
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        wait_for_writer_to_vanish(location)
        integrity_ok(location)
        now = state_digest(location)
        assert now in (digests[state], digests[target]), (trial, killed)
        moved = now == digests[target]
        outcomes.append((killed, moved))
        state = target if moved else state
        # the kill moment follows how long ingests take on this machine now: a window
        # that only ever killed early widens, one that only let ingests finish narrows
        window = window * 1.25 if killed and not moved else max(0.2, window * 0.85)
    # kills landed both before the commit (rolled back) and after it, or ingests finished
    assert any(killed and not moved for killed, moved in outcomes), outcomes
    assert any(moved for _, moved in outcomes), outcomes
    # the index resumes: a complete ingest brings it to the version on disk
    ingest(folder, location)
    assert state_digest(location) == digests[target]


def test_two_ingests_at_once_both_finish_and_nothing_is_duplicated(store_kind, new_location,
                                                                   tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    write_version(one, "A")
    write_version(two, "B")
    location = new_location(store_kind)
    ingest(one, location)  # creates the index (schema), so both racers find it ready
    write_version(one, "B")  # ...then both folders change, and two ingests race
    procs = [ingest_process(one, location), ingest_process(two, location),
             ingest_process(one, location)]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
    integrity_ok(location)
    docs = rows(location, "SELECT root, path, COUNT(*) AS n FROM documents GROUP BY root, path")
    assert all(d["n"] == 1 for d in docs)
    expected = {("one", p.name) for p in one.glob("*.md")} | \
        {("two", p.name) for p in two.glob("*.md")}
    assert {(Path(d["root"]).name, d["path"]) for d in docs} == expected
    chunk_ids = rows(location, "SELECT chunk_id FROM chunks")
    assert len(chunk_ids) == len({c["chunk_id"] for c in chunk_ids})
