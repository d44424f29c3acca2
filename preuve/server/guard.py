"""The server's front door, before any route runs: who is asking, how often, how much.

`Guard` is a pure ASGI middleware. For every HTTP request, in this order:

1. rate per client address (token bucket, `rate_per_ip` requests/s, bursts of 2 s);
2. the API key (`X-API-Key`, `Authorization: Bearer`, or the viewer's cookie on GET
   /files, /passages and /pages): a wrong key, or no key on a request that carries a body, is
   answered 401 at once (nothing of the body is read) and counted against the address's
   failed-authentication bucket (`failed_auth_per_ip`/s, bursts of 10); a valid key spends
   from its own bucket (`rate_per_key`/s);
3. an upload (`POST /documents`) from a key that is not admin is 403 before its body;
4. the body size: a declared `Content-Length` over the route's cap is 413 before reading;
   a body without one (chunked) is counted as it streams in and cut at the cap (413).
   JSON routes are capped at `max_body_kb`, uploads at `max_upload_mb` (plus the
   multipart envelope).

Refusals of steps 1-2 answer 429 with `Retry-After` (whole seconds). Every response gets
the security headers of `security_headers`. On a PostgreSQL index the buckets are rows of
the database (`SharedBuckets`): every server on it spends from the same ones; on SQLite
they are the process's own (`TokenBuckets`). The routes still check the key themselves
(`create_app`'s `caller`): this is the cheap check in front, not the only one.
"""

from __future__ import annotations

import collections
import hashlib
import json
import logging
import math
import threading
import time

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from preuve.index import is_database
from preuve.server.config import ServerConfig
from preuve.settings import Settings

log = logging.getLogger("preuve.server")

KEY_COOKIE = "preuve_key"
VIEWER_PREFIXES = ("/files/", "/passages/", "/pages/")  # framed by the page, may use the cookie
COOKIE_PAGES = ("/eval",)  # pages an admin opens in the browser, may use the cookie too
UPLOAD = ("POST", "/documents")
MULTIPART_ALLOWANCE = 64 * 1024  # the multipart envelope around an uploaded file
BODYLESS = ("GET", "HEAD", "OPTIONS")
AUTH_BURST = 10


def api_key(conn: HTTPConnection) -> str | None:
    """The key a request presents: `X-API-Key`, else `Authorization: Bearer`, else (GET of
    the viewer routes only, which the page's iframe opens, and the pages of COOKIE_PAGES)
    the `preuve_key` cookie."""
    key = conn.headers.get("x-api-key")
    auth = conn.headers.get("authorization", "")
    if not key and auth.lower().startswith("bearer "):
        key = auth[7:].strip()
    path = conn.scope["path"]
    if not key and conn.scope.get("method") == "GET" and (is_viewer(path)
                                                          or path in COOKIE_PAGES):
        key = conn.cookies.get(KEY_COOKIE)
    return key or None


def is_viewer(path: str) -> bool:
    return path.startswith(VIEWER_PREFIXES)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """Headers every response carries. The viewer routes may be framed by this origin's
    page only; everything else by nobody."""
    framing = (b"SAMEORIGIN", b"frame-ancestors 'self'") if is_viewer(path) else (
        b"DENY", b"frame-ancestors 'none'")
    return [(b"x-frame-options", framing[0]), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"content-security-policy", framing[1])]


class TokenBuckets:
    """Token buckets by name (`rate` tokens a second, at most `burst`), the least recently
    used forgotten beyond `keep` names so that many addresses cannot grow memory."""

    def __init__(self, rate: float, burst: float, keep: int = 10_000):
        self.rate, self.burst, self.keep = rate, max(1.0, burst), keep
        self._buckets: collections.OrderedDict[str, list[float]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def take(self, name: str) -> float:
        """Spend a token: 0.0 when there was one, else the seconds until there is."""
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.pop(name, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
            self._buckets[name] = [tokens - 1 if tokens >= 1 else tokens, now]
            while len(self._buckets) > self.keep:
                self._buckets.popitem(last=False)
        return wait


class SharedBuckets:
    """Token buckets kept in the index's PostgreSQL database (`store.rates`, one statement
    a take, on the database's clock): a key or an address spends from one bucket whichever
    server it reaches. While the database cannot be written (a read replica, an outage) the
    process's own buckets stand in, and the failure is logged."""

    RETRY_AFTER = 30.0  # seconds on the process's buckets after a failure

    def __init__(self, scope: str, rate: float, burst: float, database: SharedDatabase):
        self.scope, self.rate, self.burst, self.database = scope, rate, max(1.0, burst), database
        self.local = TokenBuckets(rate, burst)

    def take(self, name: str) -> float:
        rates = self.database.rates()
        if rates is not None:
            try:  # names are digests: no key or address is written to the database
                digest = hashlib.sha256(name.encode()).hexdigest()[:32]
                return rates.take(f"{self.scope}:{digest}", self.rate, self.burst)
            except Exception as exc:  # noqa: BLE001 - any failure: the local buckets serve
                self.database.failed(exc)
        return self.local.take(name)


class SharedDatabase:
    """The connection the shared buckets use: opened on first use, apart from the pool of
    indexes that serve requests (a limit is checked before a request gets one)."""

    def __init__(self, location: str):
        self.location = location
        self._store = None
        self._down_until = 0.0
        self._lock = threading.Lock()

    def rates(self):
        if time.monotonic() < self._down_until:
            return None
        with self._lock:
            if self._store is None:
                try:
                    from preuve.index import Index

                    self._store = Index(self.location, settings=Settings(pg_pool=2))
                except Exception as exc:  # noqa: BLE001 - logged; the local buckets serve
                    self.failed(exc)
                    return None
        return self._store.engine.shared_rates

    def failed(self, exc: Exception) -> None:
        if time.monotonic() >= self._down_until:
            log.warning("rate limits: the database's buckets are not available (%s); "
                        "this process's own buckets serve for %.0f s",
                        str(exc).strip().splitlines()[0] if str(exc).strip() else
                        type(exc).__name__, SharedBuckets.RETRY_AFTER)
        self._down_until = time.monotonic() + SharedBuckets.RETRY_AFTER


def buckets(scope: str, rate: float, burst: float, database: SharedDatabase | None):
    """Buckets for one limit: in the database when the index is one, else in memory."""
    if database is None:
        return TokenBuckets(rate, burst)
    return SharedBuckets(scope, rate, burst, database)


class BodyTooLarge(HTTPException):
    def __init__(self, cap: int):
        super().__init__(413, f"request body too large (over {_size(cap)})")


class Guard:
    """Pure ASGI middleware: rate limits, the key before the body, body caps, headers."""

    def __init__(self, app, settings: ServerConfig, index: str | None = None):
        """`index`: the index's location; a PostgreSQL one holds the rate buckets."""
        self.app, self.settings = app, settings
        self.shared = SharedDatabase(index) if index and is_database(index) else None
        self.per_ip = buckets("ip", settings.rate_per_ip, 2 * settings.rate_per_ip,
                              self.shared)
        self.per_key = buckets("key", settings.rate_per_key, 2 * settings.rate_per_key,
                               self.shared)
        self.failed_auth = buckets("auth", settings.failed_auth_per_ip, AUTH_BURST, self.shared)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        send = _with_headers(send, security_headers(scope["path"]))
        if self.shared is None:
            refusal = self.refusal(HTTPConnection(scope))
        else:  # the buckets are a database round trip away: not on the event loop
            refusal = await run_in_threadpool(self.refusal, HTTPConnection(scope))
        if refusal is not None:
            status, message, headers = refusal
            return await _answer(send, status, message, headers)
        cap = self.body_cap(scope)
        await self.app(scope, _capped(receive, cap), send)

    def refusal(self, conn: HTTPConnection) -> tuple[int, str, dict] | None:
        """(status, message, headers) when the request is refused before it is read."""
        address = (conn.client.host if conn.client else "") or "?"
        wait = self.per_ip.take(address)
        if wait:
            return _too_many(wait)
        key = api_key(conn)
        who = self.settings.caller(key)
        method = conn.scope["method"]
        if who is None and (key or method not in BODYLESS):
            wait = self.failed_auth.take(address)
            if wait:
                return _too_many(wait)
            return (401, "invalid API key" if key else
                    "missing API key (send X-API-Key or Authorization: Bearer)", {})
        if key and who is not None:
            wait = self.per_key.take(hashlib.sha256(key.encode()).hexdigest())
            if wait:
                return _too_many(wait)
        if (method, conn.scope["path"]) == UPLOAD and not who.admin:
            return 403, "this needs an admin key", {}
        declared = conn.headers.get("content-length", "")
        cap = self.body_cap(conn.scope)
        if declared.isdigit() and int(declared) > cap:
            what = "upload" if (method, conn.scope["path"]) == UPLOAD else "request body"
            return 413, f"{what} too large (over {_size(cap)})", {}
        return None

    def body_cap(self, scope) -> int:
        if (scope["method"], scope["path"]) == UPLOAD:
            return self.settings.max_upload_bytes + MULTIPART_ALLOWANCE
        return self.settings.max_body_bytes


def _too_many(wait: float) -> tuple[int, str, dict]:
    seconds = max(1, math.ceil(wait))
    return 429, f"too many requests: retry in {seconds} s", {"retry-after": str(seconds)}


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):g} MB" if n >= 1024 * 1024 else f"{n / 1024:g} KB"


def _capped(receive, cap: int):
    """`receive` that counts the body as it arrives and raises 413 past `cap` bytes."""
    seen = 0

    async def wrapped():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > cap:
                raise BodyTooLarge(cap)
        return message

    return wrapped


def _with_headers(send, extra: list[tuple[bytes, bytes]]):
    """`send` that adds `extra` to the response head (a header the route set wins, except
    a Content-Security-Policy, which gets the framing directive appended)."""
    async def wrapped(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            present = {name.lower(): i for i, (name, _) in enumerate(headers)}
            for name, value in extra:
                if name not in present:
                    headers.append((name, value))
                elif name == b"content-security-policy":
                    i = present[name]
                    headers[i] = (name, headers[i][1] + b"; " + value)
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


async def _answer(send, status: int, message: str, headers: dict) -> None:
    body = json.dumps({"error": message}).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    head += [(k.encode(), v.encode()) for k, v in headers.items()]
    head.append((b"connection", b"close"))  # the body was not read: do not reuse this
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})
