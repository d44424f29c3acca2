"""The server's front door (preuve/server/guard.py) against a real uvicorn server on
127.0.0.1: the key is checked before a body is read, bodies are capped per route while they
stream, rates are limited per key and per address with 429 + Retry-After, every response
carries the security headers; and audience labels are checked when the config loads."""

from __future__ import annotations

import select
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest
from conftest import copy_index

from preuve.server.app import create_app
from preuve.server.config import ConfigError, load_config
from preuve.server.runner import ServerThread

KEYS = {"pub-key-1": "public", "admin-key-3": "admin"}
PUBLIC, ADMIN = {"X-API-Key": "pub-key-1"}, {"X-API-Key": "admin-key-3"}
LIMITS = {"max_body_kb": 64, "max_upload_mb": 0.25, "rate_per_key": 10_000,
          "rate_per_ip": 10_000, "failed_auth_per_ip": 10_000}


@pytest.fixture(scope="module")
def served(sqlite_index_path, tmp_path_factory):
    """(url, upload folder) of a server over a private copy of the sample index."""
    path = copy_index(sqlite_index_path, tmp_path_factory.mktemp("limits") / "index.sqlite")
    uploads = tmp_path_factory.mktemp("uploads")
    app = create_app(path, {"api_keys": KEYS, "upload_dir": str(uploads), **LIMITS})
    with ServerThread(app) as url:
        yield url, uploads


def raw_post(url: str, path: str, headers: dict, chunks, timeout: float = 20.0):
    """POST over a plain socket, sending `chunks` until the server answers; returns
    (status, body bytes sent before the answer came). Lets a test see that the server
    answered without (or before the end of) the body."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
    head = f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    sent, reply = 0, b""
    try:
        sock.sendall(head.encode())
        deadline = time.monotonic() + timeout
        for chunk in chunks:
            if select.select([sock], [], [], 0.005)[0]:
                break
            try:
                sock.sendall(chunk)
            except OSError:  # the server closed the connection: read what it said
                break
            sent += len(chunk)
            assert time.monotonic() < deadline, "the server never answered"
        sock.settimeout(timeout)
        while b"\r\n" not in reply:
            data = sock.recv(65536)
            if not data:
                break
            reply += data
    finally:
        sock.close()
    return int(reply.split(b" ", 2)[1]), sent


def slow_body(total: int, piece: int = 64 * 1024, pause: float = 0.01):
    """`total` bytes in pieces, with a pause between them (a client still sending)."""
    for _ in range(total // piece):
        yield b"x" * piece
        time.sleep(pause)


def chunked(pieces):
    """HTTP/1.1 chunked transfer encoding of `pieces` (no Content-Length)."""
    for piece in pieces:
        yield f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    yield b"0\r\n\r\n"


# ---------------------------------------------------------------- the key before the body
def test_no_key_is_refused_before_a_97_mb_body_is_read(served):
    url, _ = served
    status, sent = raw_post(url, "/search", {"Content-Type": "application/json",
                                             "Content-Length": str(97 * 1024 * 1024)},
                            slow_body(97 * 1024 * 1024))
    # answered while the client was still at the start of the body (before: read in full)
    assert status == 401 and sent < 8 * 1024 * 1024


def test_no_key_chunked_upload_is_refused_before_it_is_written(served):
    url, uploads = served
    status, sent = raw_post(url, "/documents", {
        "Content-Type": "multipart/form-data; boundary=xx", "Transfer-Encoding": "chunked"},
        chunked(slow_body(200 * 1024 * 1024)))
    assert status == 401 and sent < 8 * 1024 * 1024
    assert not list(uploads.rglob("*.*"))
    # a key that may not upload is refused the same way, with 403
    status, sent = raw_post(url, "/documents", {
        **PUBLIC, "Content-Type": "multipart/form-data; boundary=xx",
        "Transfer-Encoding": "chunked"}, chunked(slow_body(200 * 1024 * 1024)))
    assert status == 403 and sent < 8 * 1024 * 1024


# -------------------------------------------------------------------------- body caps
def test_declared_body_over_the_cap_is_413_before_reading(served):
    url, _ = served
    status, sent = raw_post(url, "/search", {**PUBLIC, "Content-Type": "application/json",
                                             "Content-Length": str(50 * 1024 * 1024)},
                            slow_body(50 * 1024 * 1024))
    assert status == 413 and sent < 8 * 1024 * 1024


def test_chunked_json_body_is_cut_at_the_cap(served):
    url, _ = served
    status, sent = raw_post(url, "/search", {**PUBLIC, "Content-Type": "application/json",
                                             "Transfer-Encoding": "chunked"},
                            chunked(slow_body(50 * 1024 * 1024)))
    assert status == 413 and sent < 8 * 1024 * 1024
    # a body under the cap is read as usual
    r = httpx.post(url + "/search", json={"query": "congés " * 2000}, headers=PUBLIC)
    assert r.status_code == 422 and "query" in r.json()["error"]  # too long a query: 4xx


def test_chunked_upload_over_the_cap_is_413_and_leaves_nothing(served):
    url, uploads = served
    boundary = "bnd"

    def multipart():
        yield (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
               f"filename=\"big.md\"\r\nContent-Type: text/markdown\r\n\r\n# Big\n").encode()
        yield from slow_body(100 * 1024 * 1024)

    status, sent = raw_post(url, "/documents", {
        **ADMIN, "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Transfer-Encoding": "chunked"}, chunked(multipart()))
    assert status == 413 and sent < 8 * 1024 * 1024
    assert not [p for p in uploads.rglob("*") if p.is_file()]
    r = httpx.get(url + "/documents", headers=ADMIN)
    assert "big.md" not in {d["path"] for d in r.json()["documents"]}


# ------------------------------------------------------------------------- rate limits
def test_rate_limit_per_key_answers_429_with_retry_after(sqlite_index_path, tmp_path):
    path = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    app = create_app(path, {"api_keys": KEYS, "rate_per_key": 2, "rate_per_ip": 10_000,
                            "failed_auth_per_ip": 10_000})
    with ServerThread(app) as url, httpx.Client(base_url=url) as client:
        started = time.monotonic()
        statuses = [client.get("/me", headers=PUBLIC) for _ in range(30)]
        elapsed = time.monotonic() - started
        codes = [r.status_code for r in statuses]
        # a burst of 2 s (4 requests) plus what refilled meanwhile, then 429s
        assert codes.count(200) <= 4 + 2 * elapsed + 1 and codes.count(429) >= 10
        refused = next(r for r in statuses if r.status_code == 429)
        wait = int(refused.headers["retry-after"])
        assert 1 <= wait <= 2 and "too many requests" in refused.json()["error"]
        # another key is not limited by this one's bucket
        assert client.get("/me", headers=ADMIN).status_code == 200
        time.sleep(wait + 0.1)
        assert client.get("/me", headers=PUBLIC).status_code == 200


def test_failed_keys_are_limited_per_address(sqlite_index_path, tmp_path):
    path = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    app = create_app(path, {"api_keys": KEYS, "failed_auth_per_ip": 1})
    with ServerThread(app) as url, httpx.Client(base_url=url) as client:
        started = time.monotonic()
        codes = [client.post("/search", json={"query": "x"},
                             headers={"X-API-Key": f"guess-{i}"}).status_code
                 for i in range(40)]
        elapsed = time.monotonic() - started
        # ten tries (the burst) and what refilled meanwhile get their 401; then 429
        assert codes.count(401) <= 10 + elapsed + 1 and codes.count(429) >= 20
        assert set(codes) == {401, 429}
        # the right key, from the same address, is not blocked by the guesses
        assert client.post("/search", json={"query": "congés"},
                           headers=PUBLIC).status_code == 200


def test_default_limits_refuse_a_flood_of_wrong_keys(sqlite_index_path, tmp_path):
    path = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    app = create_app(path, {"api_keys": KEYS})
    with ServerThread(app) as url, httpx.Client(base_url=url) as client:
        codes = [client.get("/documents", headers={"X-API-Key": "nope"}).status_code
                 for _ in range(60)]
    assert codes.count(429) >= 30


# ---------------------------------------------------------------------- security headers
def test_every_response_has_the_security_headers(served):
    url, _ = served
    with httpx.Client(base_url=url) as client:
        responses = [client.get("/"), client.get("/health"), client.get("/static/app.js"),
                     client.post("/search", json={"query": "x"}),  # 401 from the guard
                     client.post("/search", json={"query": "congés"}, headers=PUBLIC),
                     client.get("/files/no-such-doc", headers=PUBLIC),
                     client.get("/files/teletravail", headers=PUBLIC),
                     client.get("/passages/conges?start=1&end=2", headers=PUBLIC)]
    for r in responses:
        path = r.request.url.path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        viewer = path.startswith(("/files/", "/passages/"))
        assert r.headers["x-frame-options"] == ("SAMEORIGIN" if viewer else "DENY"), path
        assert ("frame-ancestors 'self'" if viewer else "frame-ancestors 'none'") in \
            r.headers["content-security-policy"], path


# ------------------------------------------------------------------------------ config
@pytest.mark.parametrize("settings, named", [
    ({"api_keys": {"k-secret-1": "all"}}, "api_keys: the key 'k-se…'"),
    ({"api_keys": {"k-secret-1": ""}}, "api_keys: the key 'k-se…'"),
    ({"api_keys": {"k-secret-1": "Staff Team"}}, "api_keys: the key 'k-se…'"),
    ({"api_keys": {"k-secret-1": "x" * 65}}, "api_keys: the key 'k-se…'"),
    ({"anonymous": "all"}, "anonymous"),
    ({"anonymous": ""}, "anonymous"),
    ({"upload_access": "../staff"}, "upload_access"),
    ({"rate_per_key": 0}, "rate_per_key"),
    ({"max_body_kb": "lots"}, "max_body_kb"),
])
def test_reserved_or_malformed_labels_are_refused_at_load(settings, named):
    with pytest.raises(ConfigError) as caught:
        load_config(settings, env={})
    assert str(caught.value).startswith(named)
    assert "k-secret-1" not in str(caught.value)  # the key itself is never echoed


def test_reserved_labels_from_the_environment_are_refused():
    with pytest.raises(ConfigError, match="reserved"):
        load_config({}, env={"PREUVE_API_KEYS": "k1:public,k2:all"})
    with pytest.raises(ConfigError, match="^anonymous: 'all' is reserved"):
        load_config({}, env={"PREUVE_ANONYMOUS": "all"})
    ok = load_config({"api_keys": {"a": "public", "b": "team-2_x", "c": "admin"}}, env={})
    assert ok.caller("b").audience == "team-2_x" and ok.caller("c").admin


def test_a_rotating_x_forwarded_for_does_not_escape_the_limits(sqlite_index_path, tmp_path):
    """uvicorn believes X-Forwarded-For from 127.0.0.1 by default: 300 wrong keys, each
    with a new forwarded address, got 300 x 401 and no 429 (issue 21 item 10). Proxy
    headers are now read only from `trusted_proxies` (none by default)."""
    path = copy_index(sqlite_index_path, tmp_path / "index.sqlite")

    def codes(config):
        app = create_app(path, {"api_keys": KEYS, "failed_auth_per_ip": 1, **config})
        with ServerThread(app) as url, httpx.Client(base_url=url) as client:
            return [client.post("/search", json={"query": "x"},
                                headers={"X-API-Key": f"guess-{i}",
                                         "X-Forwarded-For": f"203.0.113.{i % 250 + 1}"}
                                ).status_code for i in range(40)]

    untrusted = codes({})
    assert untrusted.count(429) >= 20  # one address: the connection's
    trusted = codes({"trusted_proxies": ["127.0.0.1"]})
    assert set(trusted) == {401}  # behind a configured proxy, each forwarded address counts
    with pytest.raises(ConfigError, match="trusted_proxies"):
        create_app(path, {"api_keys": KEYS, "trusted_proxies": ["not-an-address"]})
