"""Public readers racing a re-ingest that flips a document between a public and a staff
version: no public read may ever return the staff version, on either store, through
BM25, dense search or the passage lookup by id.

The writer is a real separate process (the way a cron'd `preuve ingest` runs beside a
server); readers are threads of this process, each with its own `Index`. On SQLite, a
deleted document's rows used to hand their row ids to the next insert, and a search that
ranked an id under the audience filter then read the row again without it: 90 of 2,018
public reads leaked before the fix."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from conftest import E5, KEYWORD_ONLY

from preuve import Index
from preuve.models import Filters

SECRET = "SECRETSTAFF4242"
READS = 10_000  # public reads per store (bm25 + dense + by id), the bound
FLIPS = 20  # re-ingests the reads must overlap, at least
READERS = 4
TIME_CAP = 300  # seconds: the race stops here even if the counts above are not reached

WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from preuve import Index
    folder, location, embedder = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    stop = Path(sys.argv[4])
    count = stop.with_name("flips")
    target = folder / "zorglub.md"
    versions = [
        "---\\naccess: public\\n---\\n# Zorglub\\n\\nLe zorglub est ouvert au public le lundi.\\n",
        "---\\naccess: staff\\n---\\n# Zorglub\\n\\nLe zorglub interne: code %s pour le lundi.\\n",
    ]
    flips = 0
    with Index(location, embedder=embedder) as index:
        while not stop.exists():
            target.write_text(versions[flips %% 2], encoding="utf-8")
            report = index.ingest([folder])
            assert report.ok, report.failed
            flips += 1
            count.write_text(str(flips))
    print(flips)
""") % SECRET


def _corpus(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(12):
        (folder / f"note{i:02d}.md").write_text(
            f"---\naccess: public\n---\n# Note {i}\n\nLa note {i} parle du lundi et du "
            f"zorglub numéro {i}.\n", encoding="utf-8")
    (folder / "zorglub.md").write_text(
        "---\naccess: public\n---\n# Zorglub\n\nLe zorglub est ouvert au public le lundi.\n",
        encoding="utf-8")


def test_public_reads_never_see_a_staff_version_during_reingest(
        store_kind, new_location, tmp_path):
    folder = tmp_path / "docs"
    _corpus(folder)
    location = new_location(store_kind)
    with Index(location, embedder=E5) as index:
        assert index.ingest([folder]).ok
        # warm the query vector cache and the model once, before the race starts
        assert index.search("zorglub lundi", method="dense", audience="public")

    stop = tmp_path / "stop"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder), os.fspath(location), E5, str(stop)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    leaks: list[str] = []
    reads = [0] * READERS
    done = threading.Event()
    errors: list[BaseException] = []
    public = Filters(audience="public")

    def reader(slot: int) -> None:
        try:
            with Index(location, embedder=E5) as mine:
                n = 0
                while not done.is_set():
                    method = ("bm25", "dense")[n % 2]
                    hits = mine.search("zorglub interne code lundi", method=method, k=5,
                                       audience="public", as_of="none")
                    by_id = mine.engine.store.chunks([h.chunk_id for h in hits] +
                                              [f"{h.doc_id}:0" for h in hits], public)
                    for hit in [*hits, *by_id]:
                        if hit.access != "public" or SECRET in hit.text:
                            leaks.append(f"{method}: {hit.label} {hit.access}")
                    n += 1
                    reads[slot] = n
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    flips_file = tmp_path / "flips"
    while time.monotonic() - started < TIME_CAP and not errors:
        flips = int(flips_file.read_text() or 0) if flips_file.exists() else 0
        if sum(reads) >= READS and flips >= FLIPS:
            break
        time.sleep(0.2)
    done.set()
    for t in threads:
        t.join(timeout=60)
    stop.touch()
    out, err = writer.communicate(timeout=120)
    assert not errors, errors
    assert writer.returncode == 0, err[-2000:]
    flips = int(out.strip() or 0)
    assert sum(reads) >= READS
    assert flips >= FLIPS, f"only {flips} re-ingests raced {sum(reads)} reads"
    assert not leaks, f"{len(leaks)} of {sum(reads)} public reads saw staff: {leaks[:5]}"
    print(f"{store_kind}: {sum(reads)} public reads, {flips} re-ingests, "
          f"{time.monotonic() - started:.1f} s, 0 leaks")


def test_keyword_index_reads_are_filtered_again_by_id(store_kind, new_location, tmp_path):
    """The lookup by id applies the caller's filters: a chunk id of a staff document gives
    nothing to a public caller, its text to staff."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "secret.md").write_text(f"---\naccess: staff\n---\n# S\n\n{SECRET} texte.\n",
                                      encoding="utf-8")
    with Index(new_location(store_kind), embedder=KEYWORD_ONLY) as index:
        assert index.ingest([folder]).ok
        staff = index.search(SECRET, audience="staff", as_of="none")
        assert staff and staff[0].access == "staff"
        ids = [staff[0].chunk_id]
        assert index.engine.store.chunks(ids, Filters(audience="public")) == []
        assert index.engine.store.chunks(ids, Filters(audience="staff"))[0].text == staff[0].text
