"""`preuve watch` and `serve --watch` on real folders and a real git repository: files
created, edited, renamed and deleted reach the index in batches, each file ingested once
per change, with the labels `--access` gives, no duplicate chunks, a burst of 500 changes
and a branch switch as one batch each, and a watcher killed mid-batch losing nothing."""

from __future__ import annotations

import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
from conftest import FACTURO, UNLIMITED, integrity_ok, kind_of, open_index, rows, run_cli
from test_git_ingest import commit, git, make_repo

from preuve.server.app import create_app
from preuve.server.runner import ServerThread
from preuve.watch import Watcher

QUIET = 0.4  # seconds: short, so that the tests are quick; the default is 1 s


class Batches:
    """What a watcher ingested, batch by batch (its `on_batch`)."""

    def __init__(self):
        self.done: list = []
        self.changed = threading.Condition()

    def __call__(self, batch) -> None:
        with self.changed:
            self.done.append(batch)
            self.changed.notify_all()

    def wait(self, test, since: int, timeout: float = 30.0) -> list:
        """The batches after the first `since` once `test(them)` holds."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not test(self.done[since:]):
                left = deadline - time.monotonic()
                assert left > 0, f"timed out; batches: {[b.changed for b in self.done[since:]]}"
                self.changed.wait(left)
            return list(self.done[since:])

    def ingested(self) -> collections.Counter:
        """How many times each path was read and written (added or updated)."""
        return collections.Counter(p for b in self.done if b.report
                                   for p in b.report.added + b.report.updated)


def added(path):
    return lambda batches: any(path in b.report.added for b in batches if b.report)


def removed(path):
    return lambda batches: any(path in b.report.removed for b in batches if b.report)


def settle(batches: Batches, seconds: float = QUIET * 3) -> int:
    """Let any late batch arrive; the number of batches so far."""
    time.sleep(seconds)
    return len(batches.done)


def ready(watcher: Watcher, folder: Path, batches: Batches) -> None:
    """Wait until the watcher sees changes (its OS watch is set up in its thread): touch
    a hidden probe file, which ingest never reads, until a batch names it."""
    probe = folder / ".probe"
    for attempt in range(40):
        since = len(batches.done)
        probe.write_text(str(attempt))
        try:
            batches.wait(lambda bs: any(str(probe) in b.changed for b in bs), since, 0.5 + QUIET)
            settle(batches, QUIET * 1.5)
            return
        except AssertionError:
            continue
    raise AssertionError("the watcher never saw a change")


@contextmanager
def watching(location, paths, **options):
    batches = Batches()
    with open_index(location) as index:
        watcher = Watcher(index, paths, quiet=QUIET, longest=10.0, on_batch=batches,
                          **options)
        watcher.catch_up()
        watcher.start()
        try:
            ready(watcher, Path(paths[0]), batches)
            yield watcher, batches, index
        finally:
            watcher.stop()
            assert not watcher.thread.is_alive()


def no_duplicates(location) -> None:
    """One document per path, chunks numbered once per document, none orphaned."""
    docs = rows(location, "SELECT path, COUNT(*) AS n FROM documents GROUP BY root, path")
    assert all(d["n"] == 1 for d in docs), docs
    chunks = rows(location, "SELECT c.chunk_id, d.doc_id FROM chunks c "
                            "LEFT JOIN documents d ON d.doc_id = c.doc_id")
    ids = [c["chunk_id"] for c in chunks]
    assert len(ids) == len(set(ids)) and all(c["doc_id"] for c in chunks)


def test_create_edit_rename_delete_with_labels(tmp_path, fresh_index):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "public.md").write_text("---\naccess: public\n---\n# Horaires\n\nOuvert de 9 h "
                                      "à 18 h, du lundi au vendredi.\n")
    with watching(fresh_index, [folder], access="staff") as (_, batches, index):
        since = len(batches.done)
        (folder / "notes").mkdir()
        plan = folder / "notes" / "plan.md"
        plan.write_text("# Plan\n\nLe projet zorglub démarre en mars.\n")
        batches.wait(added("notes/plan.md"), since)
        assert index.search("zorglub", audience="public") == []  # --access staff
        (hit,) = index.search("zorglub", audience="staff")
        assert hit.path == "notes/plan.md" and hit.access == "staff"
        assert [h.path for h in index.search("lundi vendredi", audience="public")] == [
            "public.md"]  # its own label still wins

        # saved twice within the quiet period: read once, the last version
        since = len(batches.done)
        plan.write_text("# Plan\n\nLe projet zorglub démarre en avril, dit quokka.\n")
        time.sleep(QUIET / 4)
        plan.write_text("# Plan\n\nLe projet zorglub démarre en mai, dit wombat.\n")
        batches.wait(lambda bs: any("notes/plan.md" in b.report.updated for b in bs), since)
        assert settle(batches) == since + 1
        assert index.search("quokka") == [] and len(index.search("wombat")) == 1

        # a rename: the old path's chunks go in the same batch as the new path's come
        since = len(batches.done)
        plan.rename(folder / "notes" / "renamed.md")
        (batch,) = batches.wait(added("notes/renamed.md"), since)
        assert batch.report.removed == ["notes/plan.md"]
        assert [h.path for h in index.search("wombat", audience="staff")] == ["notes/renamed.md"]

        # a folder renamed: its files move with it
        since = len(batches.done)
        (folder / "notes").rename(folder / "archive")
        (batch,) = batches.wait(added("archive/renamed.md"), since)
        assert batch.report.removed == ["notes/renamed.md"]

        since = len(batches.done)
        (folder / "archive" / "renamed.md").unlink()
        batches.wait(removed("archive/renamed.md"), since)
        assert index.search("wombat") == []
        assert [d.path for d in index.documents()] == ["public.md"]
    assert batches.ingested() == {"public.md": 1, "notes/plan.md": 2, "notes/renamed.md": 1,
                                  "archive/renamed.md": 1}
    no_duplicates(fresh_index)
    integrity_ok(fresh_index)


def test_a_burst_of_500_files_is_one_batch(tmp_path, fresh_index):
    folder = tmp_path / "burst"
    folder.mkdir()
    (folder / "readme.md").write_text("# Burst\n\nDes fichiers vont arriver.\n")
    with watching(fresh_index, [folder], access="public") as (_, batches, index):
        since = len(batches.done)
        many = folder / "many"
        many.mkdir()
        for i in range(500):
            (many / f"note{i:03}.txt").write_text(f"Note numéro {i} du lot, mot unique w{i}x.\n")
        (batch,) = batches.wait(lambda bs: sum(len(b.report.added) for b in bs) >= 500, since)
        assert len(set(batch.report.added)) == 500
        assert settle(batches) == since + 1
        assert [h.path for h in index.search("w417x", audience="public")] == [
            "many/note417.txt"]
        since = len(batches.done)
        shutil.rmtree(many)
        (batch,) = batches.wait(lambda bs: sum(len(b.report.removed) for b in bs) >= 500, since)
        assert settle(batches) == since + 1
        assert [d.path for d in index.documents()] == ["readme.md"]
    counts = batches.ingested()
    assert len(counts) == 501 and set(counts.values()) == {1}  # nothing read twice
    no_duplicates(fresh_index)
    integrity_ok(fresh_index)


def test_a_branch_switch_of_500_files_is_one_batch(tmp_path):
    repo = make_repo(tmp_path / "repo", "https://github.com/org/repo.git")
    for i in range(500):
        (repo / f"mod{i:03}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    main = commit(repo, "main")
    git(repo, "checkout", "-q", "-b", "other")
    for i in range(500):
        (repo / f"mod{i:03}.py").write_text(f"def f{i}(x):\n    return x * {i}\n")
    other = commit(repo, "other")
    git(repo, "checkout", "-q", "main")
    db = tmp_path / "w.sqlite"
    with watching(db, [repo], access="public") as (_, batches, index):
        assert index.where("f42")[0].source_url.endswith(f"/blob/{main}/mod042.py")
        since = len(batches.done)
        git(repo, "checkout", "-q", "other")
        (batch,) = batches.wait(
            lambda bs: sum(len(b.report.updated) for b in bs if b.report) >= 500, since)
        assert settle(batches) == since + 1
        # pinned to the branch's commit; the repository's commit is recorded for status
        assert index.where("f42")[0].source_url.endswith(f"/blob/{other}/mod042.py")
        (repository,) = index.status()["repositories"]
        assert repository["indexed_commit"] == other and not repository["moved"]
    assert set(batches.ingested().values()) == {2}  # once at start, once for the switch
    no_duplicates(db)


def test_a_commit_pins_the_files_edited_before_it(tmp_path):
    repo = make_repo(tmp_path / "repo", "git@gitlab.com:team/app.git")
    shutil.copy(FACTURO / "tva.py", repo / "tva.py")
    first = commit(repo, "tva")
    db = tmp_path / "p.sqlite"
    with watching(db, [repo], access="public") as (_, batches, index):
        assert f"/-/blob/{first}/tva.py" in index.where("taux_tva")[0].source_url
        since = len(batches.done)
        tva = repo / "tva.py"
        tva.write_text("# revu\n" + tva.read_text())
        batches.wait(lambda bs: any("tva.py" in b.report.updated for b in bs), since)
        assert index.where("taux_tva")[0].source_url is None  # not as committed
        since = len(batches.done)
        git(repo, "add", "tva.py")  # no file of the work tree written: only .git/ changes
        (batch,) = batches.wait(lambda bs: any(b.whole for b in bs), since)
        assert batch.report.unchanged == 1  # staged is not committed: still not pinned
        assert settle(batches) == since + 1
        since = len(batches.done)
        git(repo, "commit", "-q", "-m", "revu")
        second = git(repo, "rev-parse", "HEAD")
        batches.wait(lambda bs: any("tva.py" in b.report.updated for b in bs if b.whole),
                     since)
        assert f"/-/blob/{second}/tva.py" in index.where("taux_tva")[0].source_url
        (repository,) = index.status()["repositories"]
        assert repository["indexed_commit"] == second


def test_killed_mid_batch_the_index_is_whole_and_catches_up(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nPremier fichier.\n")
    db = tmp_path / "k.sqlite"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env["PREUVE_EMBEDDER"] = "none"
    proc = subprocess.Popen([sys.executable, "-m", "preuve", "watch", str(folder), "--index",
                             str(db), "--access", "public", "--quiet-period", "0.3"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "watching" in proc.stderr.readline()
        time.sleep(1.0)  # its OS watch is set up
        for i in range(300):
            (folder / f"n{i:03}.md").write_text(f"# Note {i}\n\nTexte de la note w{i}x.\n")
        time.sleep(0.3 + random.random())  # anywhere in the batch: before, during, after
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    integrity_ok(db)
    with open_index(db) as index:
        assert len(index.documents()) in (1, 301)  # the batch is all or nothing
        report = index.ingest([folder], access="public")  # what a restart does first
        assert report.ok and len(index.documents()) == 301
        assert index.search("w299x", audience="public")[0].path == "n299.md"
    no_duplicates(db)


def test_serve_watch_keeps_the_served_index_fresh(tmp_path, fresh_index):
    folder = tmp_path / "served"
    folder.mkdir()
    shutil.copy(FACTURO / "tva.py", folder / "tva.py")
    batches = Batches()
    with open_index(fresh_index) as index:
        index.ingest([folder], access="staff")
    watcher = Watcher(open_index(fresh_index), [folder], quiet=QUIET, on_batch=batches,
                      access="staff")
    keys = {"pub": "public", "staff": "staff"}
    app = create_app(fresh_index, {"api_keys": keys, **UNLIMITED}, watcher=watcher)
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        assert watcher.thread.is_alive()
        ready(watcher, folder, batches)

        def where(key):
            response = http.post("/where", json={"subject": "relances_du_jour"},
                                 headers={"X-API-Key": key})
            assert response.status_code == 200, response.text
            return [h["path"] for h in response.json()["hits"]]

        assert where("staff") == []
        since = len(batches.done)
        shutil.copy(FACTURO / "relances.py", folder / "relances.py")
        batches.wait(added("relances.py"), since)
        assert "relances.py" in where("staff")
        assert where("pub") == []  # labelled staff, as `--access staff` says
    assert not watcher.thread.is_alive()  # stopped with the server
    count = len(batches.done)
    (folder / "late.md").write_text("# Tard\n\nAprès l'arrêt du serveur.\n")
    assert settle(batches) == count
    no_duplicates(fresh_index)
    if kind_of(fresh_index) == "sqlite":
        integrity_ok(fresh_index)


def test_serve_watch_on_the_command_line(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nLe mot clé est ornithorynque.\n")
    db = tmp_path / "s.sqlite"
    port = str(__import__("preuve.server.runner", fromlist=["free_port"]).free_port())
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env.update(PREUVE_EMBEDDER="none", PREUVE_API_KEYS="k1:public")
    proc = subprocess.Popen([sys.executable, "-m", "preuve", "serve", "--index", str(db),
                             "--port", port, "--watch", str(folder), "--access", "public"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code < 500:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.2)

        def search(word):
            response = httpx.post(f"{url}/search", json={"query": word, "method": "bm25"},
                                  headers={"X-API-Key": "k1"}, timeout=10)
            return [h["path"] for h in response.json()["hits"]]

        assert search("ornithorynque") == ["a.md"]  # ingested before serving
        for _ in range(100):  # until its watch is set up and the file is ingested
            (folder / "b.md").write_text("# B\n\nLe mot clé est tamanoir.\n")
            time.sleep(0.5)
            if search("tamanoir"):
                break
        assert search("tamanoir") == ["b.md"]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_watch_refuses_options_that_conflict_with_the_index(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nUn texte assez long pour un passage.\n")
    db = tmp_path / "c.sqlite"
    assert run_cli("ingest", str(folder), "--index", str(db)).returncode == 0
    done = run_cli("watch", str(folder), "--index", str(db), "--chunking", "recursive",
                   "--chunk-words", "50", timeout=60)
    assert done.returncode == 4 and "was chunked as" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    done = run_cli("watch", str(folder), "--index", str(db), "--quiet-period", "0")
    assert done.returncode == 2 and "quiet period" in done.stderr, done.stderr
    done = run_cli("watch", str(tmp_path / "nowhere"), "--index", str(db))
    assert done.returncode == 2 and "does not exist" in done.stderr
