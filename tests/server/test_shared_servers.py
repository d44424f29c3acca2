"""Several servers, one database (issue 14): two real `preuve serve` processes on one
PostgreSQL index behave as one service.

An upload through A is searched, shown (the PDF, the cited lines highlighted) and deleted
through B, with A's upload folder gone: the bytes every server shows are in the database,
checked against the digest the index records, behind the caller's audience. A
conversation opened on A goes on on B for the same key and is no one else's. A rate limit
spent on A is spent on B."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import httpx
import pytest
from conftest import HANDBOOK, UNLIMITED, open_index, rows
from test_server_crash import Served

ADMIN = {"X-API-Key": "k-admin"}
PUBLIC_A, PUBLIC_B = {"X-API-Key": "k-pub-a"}, {"X-API-Key": "k-pub-b"}
STAFF = {"X-API-Key": "k-staff"}
KEYS = {"k-admin": "admin", "k-pub-a": "public", "k-pub-b": "public", "k-staff": "staff"}
NOTES = "".join(f"Ligne {i} : la borne {i} du parking ouest.\n" for i in range(1, 30))
SECRET = "---\naccess: staff\n---\n\n# Coffre\n\nLe code du coffre est SECRET-osmium-77.\n"


@pytest.fixture
def shared_index(new_location, tmp_path):
    """A PostgreSQL index with one document ingested from the operator's folder."""
    location = new_location("postgres")
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "intro.md").write_text("---\naccess: public\n---\n\n# Intro\n\nBienvenue.\n")
    with open_index(location) as index:
        assert index.ingest([seed]).ok
    return location


def start_two(location, tmp_path: Path, settings: dict) -> tuple[Served, Served]:
    """Servers A and B on `location`, each with its own upload folder."""
    servers = []
    for name in ("a", "b"):
        config = tmp_path / f"server-{name}.yaml"
        config.write_text(json.dumps({"api_keys": KEYS, **settings,
                                      "upload_dir": str(tmp_path / f"uploads-{name}")}))
        try:
            servers.append(Served(location, config))
        except BaseException:
            for server in servers:
                server.kill()
            raise
    return servers[0], servers[1]


def upload(url: str, name: str, data: bytes, access: str | None = None) -> dict:
    r = httpx.post(url + "/documents", headers=ADMIN, timeout=60,
                   data={"access": access} if access else {},
                   files={"file": (name, data, "application/octet-stream")})
    assert r.status_code == 201, r.text
    return r.json()["document"]


def search(url: str, query: str, headers: dict) -> list[dict]:
    r = httpx.post(url + "/search", json={"query": query, "method": "bm25"},
                   headers=headers, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["hits"]


def test_an_upload_through_one_server_is_searched_shown_and_deleted_through_the_other(
        shared_index, tmp_path):
    a, b = start_two(shared_index, tmp_path, UNLIMITED)
    try:
        pdf = (HANDBOOK / "teletravail.pdf").read_bytes()
        guide = upload(a.url, "guide.pdf", pdf, "public")
        notes = upload(a.url, "parking.md", NOTES.encode(), "public")
        secret = upload(a.url, "coffre.md", SECRET.encode())
        assert secret["access"] == "staff"
        assert rows(shared_index, "SELECT count(*) AS n FROM files")[0]["n"] == 3
        # A's folder is gone (another machine's disk): B shows what A took in, from the
        # database; B never had the files
        shutil.rmtree(tmp_path / "uploads-a")
        assert not list((tmp_path / "uploads-b").glob("*.*"))

        hits = search(b.url, "télétravail jours par semaine", PUBLIC_B)
        pdf_hit = next(h for h in hits if h["doc_id"] == guide["doc_id"])
        assert pdf_hit["link"].startswith(f"/files/{guide['doc_id']}#page=")
        r = httpx.get(b.url + pdf_hit["link"].split("#")[0], headers=PUBLIC_B, timeout=30)
        assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
        assert hashlib.sha256(r.content).hexdigest() == hashlib.sha256(pdf).hexdigest()

        hits = search(b.url, "borne parking ouest", PUBLIC_B)
        assert hits and hits[0]["doc_id"] == notes["doc_id"]
        r = httpx.get(f"{b.url}/passages/{notes['doc_id']}?start=7&end=9", headers=PUBLIC_B,
                      timeout=30)
        assert r.status_code == 200 and r.text.count('class="hl"') == 3
        assert 'id="L7" class="hl"' in r.text and "la borne 7 du parking" in r.text

        # the audience still decides, whichever server holds the bytes
        for route in (f"/files/{secret['doc_id']}", f"/passages/{secret['doc_id']}?start=1"):
            r = httpx.get(b.url + route, headers=PUBLIC_B, timeout=30)
            assert r.status_code == 404 and "osmium" not in r.text
            r = httpx.get(b.url + route, headers=STAFF, timeout=30)
            assert r.status_code == 200 and "SECRET-osmium-77" in r.text
        assert not search(b.url, "coffre osmium", PUBLIC_B)

        # deleted through B: gone from A, the bytes gone from the database
        for doc in (guide, notes, secret):
            r = httpx.delete(f"{b.url}/documents/{doc['doc_id']}", headers=ADMIN, timeout=30)
            assert r.status_code == 200, r.text
        for doc in (guide, notes, secret):
            r = httpx.get(f"{a.url}/files/{doc['doc_id']}", headers=STAFF, timeout=30)
            assert r.status_code == 404
        assert not [h for h in search(a.url, "télétravail borne coffre", STAFF)
                    if h["doc_id"] in {guide["doc_id"], notes["doc_id"], secret["doc_id"]}]
        assert rows(shared_index, "SELECT count(*) AS n FROM files")[0]["n"] == 0
    finally:
        a.kill()
        b.kill()


def test_a_conversation_opened_on_one_server_goes_on_on_the_other_for_its_key_only(
        shared_index, tmp_path):
    a, b = start_two(shared_index, tmp_path, UNLIMITED)
    try:
        r = httpx.post(a.url + "/conversations", headers=PUBLIC_A, timeout=30)
        assert r.status_code == 201
        conversation = r.json()["id"]
        for url in (a.url, b.url):
            r = httpx.post(f"{url}/conversations/{conversation}/messages", headers=PUBLIC_A,
                           json={"question": "Que dit l'introduction ?"}, timeout=60)
            assert r.status_code == 200, r.text
        r = httpx.get(f"{b.url}/conversations/{conversation}", headers=PUBLIC_A, timeout=30)
        assert r.status_code == 200
        assert [m["role"] for m in r.json()["messages"]] == ["user", "assistant"] * 2
        # another key of the same audience, on either server: no such conversation
        for url in (a.url, b.url):
            r = httpx.get(f"{url}/conversations/{conversation}", headers=PUBLIC_B, timeout=30)
            assert r.status_code == 404 and "introduction" not in r.text
            r = httpx.post(f"{url}/conversations/{conversation}/messages", headers=PUBLIC_B,
                           json={"question": "Et ensuite ?"}, timeout=30)
            assert r.status_code == 404
    finally:
        a.kill()
        b.kill()


def test_a_rate_limit_spent_on_one_server_is_spent_on_the_other(shared_index, tmp_path):
    # one request per key every 100 s (a burst of 1); ten failed keys per address, then
    # one every 100 s: slow enough that no bucket refills while the test runs
    a, b = start_two(shared_index, tmp_path, {"rate_per_key": 0.01, "rate_per_ip": 10_000,
                                              "failed_auth_per_ip": 0.01})
    try:
        assert httpx.get(a.url + "/me", headers=PUBLIC_A, timeout=30).status_code == 200
        r = httpx.get(b.url + "/me", headers=PUBLIC_A, timeout=30)
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert httpx.get(a.url + "/me", headers=PUBLIC_A, timeout=30).status_code == 429
        # another key has its own bucket
        assert httpx.get(b.url + "/me", headers=PUBLIC_B, timeout=30).status_code == 200
        # failed authentications from this address: ten on A, the next one refused on B
        wrong = {"X-API-Key": "not-a-key"}
        statuses = [httpx.get(a.url + "/me", headers=wrong, timeout=30).status_code
                    for _ in range(10)]
        assert statuses == [401] * 10
        assert httpx.get(b.url + "/me", headers=wrong, timeout=30).status_code == 429
    finally:
        a.kill()
        b.kill()


def test_the_database_buckets_give_out_no_more_than_the_burst_under_concurrency(
        new_location):
    """Four threads on two stores (two connection pools, as two servers) take from one
    bucket at once: exactly `burst` takes get a token, each wait is positive after."""
    from concurrent.futures import ThreadPoolExecutor

    from preuve.store import open_store

    location = new_location("postgres")
    stores = [open_store(location), open_store(location)]
    try:
        with ThreadPoolExecutor(4) as pool:
            waits = list(pool.map(lambda i: stores[i % 2].rates.take("key:x", 0.001, 5.0),
                                  range(200)))
        assert sum(w == 0.0 for w in waits) == 5
        assert all(w > 100 for w in waits if w)  # a token every 1,000 s
        assert stores[1].rates.take("key:y", 0.001, 5.0) == 0.0  # another bucket
    finally:
        for store in stores:
            store.close()


def test_migrate_copies_the_bytes_of_uploaded_files(new_location, tmp_path):
    from preuve.store import open_store
    from preuve.store.copy import copy_index

    source, target = new_location("postgres"), new_location("postgres")
    with open_store(source) as store:
        digest = store.files.put(b"%PDF-1.4 uploaded once")
    copy_index(source, target)
    with open_store(target) as store:
        assert store.files.get(digest) == b"%PDF-1.4 uploaded once"


def test_without_the_database_the_limits_hold_in_the_process(caplog):
    """A database that cannot be reached (or written: a read replica) leaves the limits to
    the process's own buckets, logged; requests are neither let through unlimited nor
    refused for it."""
    from preuve.server.guard import SharedBuckets, SharedDatabase
    from preuve.server.runner import free_port

    database = SharedDatabase(f"postgresql://nobody@127.0.0.1:{free_port()}/none")
    limit = SharedBuckets("key", 0.001, 2.0, database)
    waits = [limit.take("k") for _ in range(3)]
    assert waits[:2] == [0.0, 0.0] and waits[2] > 100
    assert "own buckets" in caplog.text
