"""SIGKILL of a real `preuve serve` while it takes an upload, in a loop, on both stores.

A document alternates between a public version and a staff version holding a secret; each
round uploads the other version and kills the server at a random moment of the request.
When the server comes back (its start-up settles the upload journal), the public key must
never read the secret through /files or /passages, the file on disk must have the digest
the index recorded for it (index and disk agree, in the old state or the new one), and
nothing is left in `uploads/.staging/`."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from conftest import open_index, rows

from preuve.server.runner import free_port

ROUNDS = 20
PUBLIC_KEY, ADMIN_KEY = "crash-public", "crash-admin"
FILLER = "".join(f"Ligne {i} du règlement intérieur, article {i % 97}.\n" for i in range(1500))
VERSIONS = {
    "public": f"---\nid: notice\naccess: public\n---\n\n# Avis\n\nTexte public.\n{FILLER}",
    "staff": f"---\nid: notice\naccess: staff\n---\n\n# Avis\n\nSECRET-tungstene-42\n{FILLER}",
}
DIGESTS = {hashlib.sha256(text.encode()).hexdigest(): label
           for label, text in VERSIONS.items()}


class Served:
    """`preuve serve` as a subprocess on a free port of 127.0.0.1."""

    def __init__(self, index, config: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "preuve", "serve", "--index", str(index), "--port",
             str(self.port), "--config", str(config)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.proc.stderr.read().decode()
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc.stderr.close()


def upload(url: str, label: str, outcome: dict) -> None:
    try:
        r = httpx.post(url + "/documents", headers={"X-API-Key": ADMIN_KEY}, timeout=30,
                       files={"file": ("notice.md", VERSIONS[label].encode(), "text/markdown")})
        outcome["status"] = r.status_code
    except httpx.HTTPError:
        outcome["status"] = None  # the server died before it answered


def indexed_notice(index) -> tuple[str | None, str | None]:
    """(access, file digest) the index holds for uploads/notice.md."""
    found = rows(index, "SELECT access, meta FROM documents WHERE doc_id = 'notice'")
    if not found:
        return None, None
    return found[0]["access"], json.loads(found[0]["meta"]).get("file_sha256")


def check_round(url: str, index, uploads: Path) -> str:
    """The boundary and the agreement of disk and index after a restart; returns the
    label the index holds."""
    public = {"X-API-Key": PUBLIC_KEY}
    for route in ("/files/notice", "/passages/notice?start=1&end=9"):
        r = httpx.get(url + route, headers=public, timeout=30)
        assert "SECRET" not in r.text, f"public read the secret through {route}"
    assert not list((uploads / ".staging").glob("*")), "stranded staging files"
    access, digest = indexed_notice(index)
    on_disk = (uploads / "notice.md").read_bytes()
    assert hashlib.sha256(on_disk).hexdigest() == digest, "disk and index disagree"
    assert DIGESTS[digest] == access, "the index label is not the file's"
    for route in ("/files/notice", "/passages/notice?start=1&end=9"):
        r = httpx.get(url + route, headers=public, timeout=30)
        assert r.status_code == (200 if access == "public" else 404), (route, r.text)
    return access


def test_kill_9_mid_upload_never_serves_the_secret(fresh_index, tmp_path):
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "intro.md").write_text("---\naccess: public\n---\n\n# Intro\n\nBienvenue.\n")
    with open_index(fresh_index) as index:
        assert index.ingest([seed]).ok
    uploads = tmp_path / "uploads"
    config = tmp_path / "server.yaml"
    config.write_text(json.dumps({
        "api_keys": {PUBLIC_KEY: "public", ADMIN_KEY: "admin"}, "upload_dir": str(uploads),
        "max_upload_mb": 5, "rate_per_key": 10_000, "rate_per_ip": 10_000}))
    server = Served(fresh_index, config)
    try:  # how long a warm upload takes here (the last one leaves the public version)
        timings = []
        for label in ("public", "staff", "public"):
            started, outcome = time.monotonic(), {}
            upload(server.url, label, outcome)
            assert outcome["status"] == 201
            timings.append(time.monotonic() - started)
        duration = min(timings[1:])
        rng = random.Random(10)
        interrupted, labels = 0, ["public"]
        for _ in range(ROUNDS):  # each round uploads the version the index does not hold
            label = "staff" if labels[-1] == "public" else "public"
            outcome = {}
            sender = threading.Thread(target=upload, args=(server.url, label, outcome))
            sender.start()
            time.sleep(rng.uniform(0, 1.3 * duration))
            server.kill()
            sender.join(30)
            interrupted += outcome.get("status") is None
            server = Served(fresh_index, config)
            labels.append(check_round(server.url, fresh_index, uploads))
    finally:
        server.kill()
    changed = sum(a != b for a, b in zip(labels, labels[1:], strict=False))
    print(f"\n{ROUNDS} kills, {interrupted} inside a request ({duration:.2f} s per upload); "
          f"the new version was kept {changed} times, the old one {ROUNDS - changed}")
    # the kills did land inside requests
    assert interrupted >= 1, f"no kill interrupted an upload ({duration:.2f} s each)"
