"""One HTTP client for the model endpoints preuve calls (chat completions, embeddings).

Built on httpx; `HttpClient` adds what both endpoints need and nothing more:

- one retry policy (`RetryPolicy`): exponential backoff with jitter, `Retry-After`
  honoured (seconds or an HTTP date, capped by `max_backoff`); retried: connection errors,
  timeouts, a connection closed mid-reply, 5xx, 408 and 429; never another 4xx (the same
  request would fail the same way);
- one error-body parser (`error_message`): OpenAI-style `{"error": {"message": ...}}`
  (also a bare string, a list as Gemini sends, `detail`/`message` keys), else the start
  of the plain text, white space folded and truncated;
- a line reader for server-sent events (`HttpClient.lines`);
- a `transport=` seam: tests pass an `httpx.MockTransport` to script replies.

`timeout` is an inactivity limit (connect, and each wait for bytes from the server), so a
stream that keeps sending tokens is never cut. Proxies from the environment are honoured
as httpx does, except for a loopback host, which is always reached directly.

Failures the caller sees: `Transient` (may be retried; `HttpClient.run` does it),
`Rejected` (an answer or a failure retrying cannot change) and `GaveUp` (the last
`Transient` after the last attempt). Callers turn them into their own `preuve.errors`
classes with a message naming their endpoint.
"""

from __future__ import annotations

import email.utils
import ipaddress
import json
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import httpx

__all__ = [
    "ERROR_SNIPPET",
    "GaveUp",
    "HttpClient",
    "Rejected",
    "RetryPolicy",
    "Transient",
    "error_message",
    "parse_retry_after",
    "retryable",
]

RETRY_STATUSES = frozenset({408, 429})  # plus every 5xx
ERROR_SNIPPET = 300
T = TypeVar("T")


def retryable(status: int) -> bool:
    """Whether a reply with this status may succeed when sent again."""
    return status in RETRY_STATUSES or status >= 500


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delay in seconds or an HTTP date)."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = when.timestamp() - (time.time() if now is None else now)
    if math.isnan(seconds):
        return None
    return max(0.0, seconds)


def error_message(body: bytes | str, limit: int = ERROR_SNIPPET) -> str:
    """The error message a server put in its body, else the start of the body."""
    text = (body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body).strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, list) and data and isinstance(data[0], dict):
        data = data[0]  # Gemini's compatible endpoint wraps errors in a list
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, dict):
            for key in ("message", "detail", "msg"):
                if err.get(key):
                    return " ".join(str(err[key]).split())[:limit]
        elif isinstance(err, str) and err:
            return " ".join(err.split())[:limit]
        for key in ("message", "detail"):
            if data.get(key):
                return " ".join(str(data[key]).split())[:limit]
    return " ".join(text.split())[:limit]


@dataclass(frozen=True)
class RetryPolicy:
    """`max_retries` retries after the first attempt. The wait before retry n is
    backoff * 2**(n-1) with jitter (a random value between half and all of it), capped at
    `max_backoff`; a `Retry-After` from the server replaces it (still capped)."""

    max_retries: int = 2
    backoff: float = 0.5
    max_backoff: float = 20.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, not {self.max_retries}")
        if self.backoff < 0 or self.max_backoff < 0:
            raise ValueError(f"backoff and max_backoff must be >= 0, not {self.backoff} "
                             f"and {self.max_backoff}")

    @property
    def attempts(self) -> int:
        return self.max_retries + 1

    def wait(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        if retry_after is not None:
            return min(self.max_backoff, retry_after)
        base = min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        return random.uniform(base / 2, base)


class Transient(Exception):
    """A failure the same request may not meet again. kind: connection, timeout, status
    (a retryable HTTP status) or stream (a stream that ended early)."""

    def __init__(self, reason: str, *, status: int | None = None,
                 retry_after: float | None = None, kind: str = "connection"):
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.retry_after = retry_after
        self.kind = kind


class Rejected(Exception):
    """A reply (4xx other than 408/429) or a failure (a TLS certificate check) that
    retrying cannot change. `status` is None when no HTTP reply was received."""

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.message = message
        self.status = status


class GaveUp(Exception):
    """Every attempt failed with a `Transient`; `last` is the last one."""

    def __init__(self, last: Transient, attempts: int):
        super().__init__(f"gave up after {attempts} attempts: {last.reason}")
        self.last = last
        self.attempts = attempts


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class HttpClient:
    """POSTs to one URL with the retry policy. `transport` replaces httpx's network
    transport (an `httpx.MockTransport` in tests); `sleep` is what waits between attempts."""

    def __init__(self, url: str, *, timeout: float = 60.0, policy: RetryPolicy | None = None,
                 headers: Mapping[str, str] | None = None,
                 transport: httpx.BaseTransport | None = None,
                 sleep: Callable[[float], None] = time.sleep):
        if not timeout or timeout <= 0:
            raise ValueError(f"timeout must be > 0, not {timeout}")
        import httpx  # here: a process that calls no endpoint never loads it

        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise ValueError(f"{url!r} is not a URL ({exc})") from None
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise ValueError(f"{url!r} is not an http(s) URL")
        self.url = url
        self.timeout = float(timeout)
        self.policy = policy or RetryPolicy()
        self._sleep = sleep
        self._client = httpx.Client(
            timeout=httpx.Timeout(self.timeout), transport=transport,
            # a loopback server is reached directly even when a proxy is configured
            trust_env=not is_loopback(parsed.host),
            headers={"User-Agent": "preuve", **dict(headers or {})})

    def close(self) -> None:
        self._client.close()

    # ----------------------------------------------------------------- one attempt
    @contextmanager
    def post(self, content: bytes, headers: Mapping[str, str] | None = None
             ) -> Iterator[httpx.Response]:
        """One POST; yields the open response when its status is below 400. Raises
        `Transient` (retry may help) or `Rejected` (it cannot)."""
        import httpx

        try:
            request = self._client.build_request("POST", self.url, content=content,
                                                 headers=dict(headers or {}))
            response = self._client.send(request, stream=True)
        except httpx.ConnectTimeout:
            raise Transient(f"no connection within the {self.timeout:g} s timeout",
                            kind="timeout") from None
        except httpx.TimeoutException:
            raise Transient(f"no response within the {self.timeout:g} s timeout",
                            kind="timeout") from None
        except httpx.ConnectError as exc:
            if "CERTIFICATE_VERIFY_FAILED" in str(exc):
                raise Rejected(f"TLS certificate check failed ({exc}); check the URL's host "
                               "name and the machine's CA certificates") from None
            raise Transient(f"cannot connect: {exc}") from None
        except httpx.TransportError as exc:
            raise Transient(f"connection error: {exc!r}") from None
        try:
            status = response.status_code
            if status >= 400:
                try:
                    body = self.read(response)
                except Transient:
                    body = b""
                message = error_message(body)
                if retryable(status):
                    raise Transient(
                        f"HTTP {status}" + (f": {message}" if message else ""), status=status,
                        retry_after=parse_retry_after(response.headers.get("Retry-After")),
                        kind="status")
                raise Rejected(message, status=status)
            yield response
        finally:
            response.close()

    def read(self, response: httpx.Response) -> bytes:
        """The whole body; transport failures while reading become `Transient`."""
        with self._transport_errors():
            return response.read()

    def lines(self, response: httpx.Response) -> Iterator[str]:
        """The body's lines as they arrive (without line endings); transport failures
        while waiting for one become `Transient`. What the caller does with a line (and
        what that raises) is not wrapped."""
        lines = response.iter_lines()
        while True:
            with self._transport_errors():
                try:
                    line = next(lines)
                except StopIteration:
                    return
            yield line

    @contextmanager
    def _transport_errors(self) -> Iterator[None]:
        import httpx

        try:
            yield
        except httpx.TimeoutException:
            raise Transient(f"no response within the {self.timeout:g} s timeout",
                            kind="timeout") from None
        except httpx.RemoteProtocolError:
            raise Transient("the connection closed in the middle of the response") from None
        except httpx.TransportError as exc:
            raise Transient(f"connection error: {exc!r}") from None

    # ----------------------------------------------------------------- retries
    def run(self, attempt: Callable[[int], T],
            on_failure: Callable[[int, Transient, float], None] | None = None) -> T:
        """Call `attempt(n)` for n = 1, 2, ... until it returns, retrying on `Transient`
        with the policy's waits. `on_failure(n, exc, wait)` sees each failure before the
        wait (wait is 0 after the last attempt) and may raise to stop. Raises `GaveUp`."""
        attempts = self.policy.attempts
        for n in range(1, attempts + 1):
            try:
                return attempt(n)
            except Transient as exc:
                last = n == attempts
                wait = 0.0 if last else self.policy.wait(n, exc.retry_after)
                if on_failure is not None:
                    on_failure(n, exc, wait)
                if last:
                    raise GaveUp(exc, n) from exc
                self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def post_json(self, payload: Any, headers: Mapping[str, str] | None = None, *,
                  on_attempt: Callable[[int], None] | None = None) -> Any:
        """POST `payload` as JSON with retries; the decoded JSON reply. Raises `GaveUp`,
        `Rejected`, or `ValueError` for a reply that is not JSON. `on_attempt(n)` is called
        before each attempt is sent (to count calls)."""
        content = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        sent = {"Content-Type": "application/json", "Accept": "application/json",
                **dict(headers or {})}

        def attempt(n: int) -> bytes:
            if on_attempt is not None:
                on_attempt(n)
            with self.post(content, sent) as response:
                return self.read(response)

        body = self.run(attempt)
        try:
            return json.loads(body)
        except (UnicodeDecodeError, ValueError):
            snippet = body[:120].decode("utf-8", errors="replace")
            raise ValueError(f"the reply is not valid JSON (starts with {snippet!r})") from None


def content_type(response: httpx.Response) -> str:
    """The media type of a response, lower case, without parameters."""
    value = response.headers.get("content-type", "")
    return value.split(";")[0].strip().lower() or "text/plain"
