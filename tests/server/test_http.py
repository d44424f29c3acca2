"""preuve.http: the one retry policy and error parser, with replies scripted through
`httpx.MockTransport` (the real-server tests are in test_generators.py and test_embed.py),
and the generator and embedder on top of it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import numpy as np
import pytest

from preuve.answer.generators import GeneratorError, GeneratorReplyError, OpenAIGenerator
from preuve.embed import EmbedderError, EmbedderReplyError, OpenAIEmbedder
from preuve.errors import Unavailable, UpstreamError, http_status
from preuve.http import (
    GaveUp,
    HttpClient,
    Rejected,
    RetryPolicy,
    Transient,
    error_message,
    retryable,
)

URL = "http://model.test/v1"
MESSAGES = [{"role": "user", "content": "Combien de jours ?"}]


class Script:
    """A MockTransport handler playing replies in order (the last one repeats); each item
    is an httpx.Response or an exception to raise. Records the requests."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        reply = self.replies[min(len(self.requests), len(self.replies)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)


def chat(text: str, **extra) -> httpx.Response:
    return httpx.Response(200, json={"model": "m", "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"content": text}}], **extra})


def client(script: Script, waits: list[float], **policy) -> HttpClient:
    options = {"max_retries": 3, "backoff": 0.1, "max_backoff": 30.0} | policy
    return HttpClient(URL + "/x", timeout=1, policy=RetryPolicy(**options),
                      transport=script.transport, sleep=waits.append)


# ----------------------------------------------------------------------------- policy

@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_retryable_statuses_are_retried(status):
    script = Script(httpx.Response(status, json={"error": {"message": "busy"}}),
                    httpx.Response(200, json={"ok": 1}))
    waits: list[float] = []
    assert client(script, waits).post_json({"a": 1}) == {"ok": 1}
    assert len(script.requests) == 2 and len(waits) == 1
    assert retryable(status)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 413, 422])
def test_other_4xx_are_never_retried(status):
    script = Script(httpx.Response(status, json={"error": {"message": f"no way {status}"}}),
                    httpx.Response(200, json={"ok": 1}))
    waits: list[float] = []
    with pytest.raises(Rejected) as info:
        client(script, waits).post_json({"a": 1})
    assert len(script.requests) == 1 and waits == []
    assert info.value.status == status and info.value.message == f"no way {status}"
    assert not retryable(status)


def test_retry_after_seconds_and_date_are_honoured_and_capped():
    date = format_datetime(datetime.now(UTC) + timedelta(seconds=5), usegmt=True)
    script = Script(httpx.Response(429, headers={"Retry-After": "3"}),
                    httpx.Response(503, headers={"Retry-After": date}),
                    httpx.Response(503, headers={"Retry-After": "600"}),
                    httpx.Response(200, json={"ok": 1}))
    waits: list[float] = []
    assert client(script, waits, max_backoff=30.0).post_json({}) == {"ok": 1}
    assert waits[0] == 3.0
    assert 3.5 < waits[1] <= 5.0  # the date, counted from now
    assert waits[2] == 30.0  # capped by max_backoff


def test_backoff_grows_with_jitter_and_is_capped():
    policy = RetryPolicy(max_retries=9, backoff=1.0, max_backoff=5.0)
    for attempt, full in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (8, 5.0)]:
        waits = {policy.wait(attempt) for _ in range(50)}
        assert all(full / 2 <= w <= full for w in waits), (attempt, waits)
        assert len(waits) > 1  # jitter: not the same wait every time
    with pytest.raises(ValueError, match="max_retries"):
        RetryPolicy(max_retries=-1)


def test_gives_up_after_the_last_attempt_with_the_last_reason():
    script = Script(httpx.Response(503, text="<html>overloaded</html>"))
    waits: list[float] = []
    with pytest.raises(GaveUp) as info:
        client(script, waits, max_retries=2).post_json({})
    assert len(script.requests) == 3 and len(waits) == 2
    assert info.value.attempts == 3 and info.value.last.status == 503
    assert "HTTP 503: <html>overloaded</html>" == info.value.last.reason


@pytest.mark.parametrize("error, kind, words", [
    (httpx.ReadTimeout("slow"), "timeout", "no response within the 1 s timeout"),
    (httpx.ConnectTimeout("slow"), "timeout", "no connection within the 1 s timeout"),
    (httpx.ConnectError("refused"), "connection", "cannot connect: refused"),
    (httpx.RemoteProtocolError("peer closed"), "connection", "connection error"),
])
def test_transport_failures_are_retried(error, kind, words):
    script = Script(error, httpx.Response(200, json={"ok": 1}))
    waits: list[float] = []
    assert client(script, waits).post_json({}) == {"ok": 1}
    assert len(script.requests) == 2
    script = Script(error)
    with pytest.raises(GaveUp) as info:
        client(script, [], max_retries=1).post_json({})
    assert info.value.last.kind == kind and words in info.value.last.reason


def test_a_certificate_failure_is_not_retried():
    script = Script(httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] self-signed"))
    with pytest.raises(Rejected) as info:
        client(script, []).post_json({})
    assert len(script.requests) == 1 and info.value.status is None
    assert "TLS certificate check failed" in info.value.message


def test_on_failure_sees_each_failure_and_may_stop():
    script = Script(httpx.Response(500), httpx.Response(502), httpx.Response(200, json={}))
    http = client(script, [])
    seen: list[tuple[int, int | None, float]] = []

    def attempt(n: int) -> int:
        with http.post(b"{}") as response:
            return response.status_code

    assert http.run(attempt, lambda n, exc, wait: seen.append((n, exc.status, wait))) == 200
    assert [(n, s) for n, s, _ in seen] == [(1, 500), (2, 502)]
    assert all(w > 0 for _, _, w in seen)

    def stop(n: int, exc: Transient, wait: float) -> None:
        raise RuntimeError(f"stopped at {n}")

    script.requests.clear()
    with pytest.raises(RuntimeError, match="stopped at 1"):
        http.run(attempt, stop)
    assert len(script.requests) == 1


def test_a_reply_that_is_not_json():
    script = Script(httpx.Response(200, text="<html>Welcome to nginx</html>"))
    with pytest.raises(ValueError, match="not valid JSON.*Welcome to nginx"):
        client(script, []).post_json({})
    assert len(script.requests) == 1


def test_bad_urls_and_timeouts_are_refused():
    with pytest.raises(ValueError, match="not an http"):
        HttpClient("ftp://host/x")
    with pytest.raises(ValueError, match="timeout"):
        HttpClient(URL, timeout=0)


# ----------------------------------------------------------------------------- parser

@pytest.mark.parametrize("body, expected", [
    ({"error": {"message": "Rate limit\n reached", "type": "x"}}, "Rate limit reached"),
    ({"error": "forbidden"}, "forbidden"),
    ([{"error": {"code": 400, "message": "Gemini says no"}}], "Gemini says no"),
    ({"detail": "Not authenticated"}, "Not authenticated"),
    ({"message": "plain message"}, "plain message"),
    ("<html>\n  <b>bad   gateway</b>\n</html>", "<html> <b>bad gateway</b> </html>"),
    ("", ""),
])
def test_error_message(body, expected):
    raw = body if isinstance(body, str) else json.dumps(body)
    assert error_message(raw.encode()) == expected
    assert error_message(raw) == expected


def test_error_message_is_truncated():
    assert len(error_message("x" * 5000)) == 300
    assert error_message(json.dumps({"error": {"message": "y" * 900}}), limit=50) == "y" * 50


# ----------------------------------------------------------------------------- generator

def generator(script: Script, **kwargs) -> OpenAIGenerator:
    options = {"max_retries": 2, "backoff": 0.001, "max_backoff": 0.01,
               "transport": script.transport} | kwargs
    return OpenAIGenerator(URL, "m", **options)


def test_generator_over_a_mock_transport_counts_every_attempt():
    script = Script(httpx.Response(429, json={"error": {"message": "slow down"}}),
                    httpx.ReadTimeout("slow"),
                    chat("Deux jours.", usage={"prompt_tokens": 9, "completion_tokens": 3}))
    gen = generator(script, api_key="sk-x").generate(MESSAGES)
    assert gen.text == "Deux jours."
    assert [c["status"] for c in gen.calls] == [429, None, 200]
    assert "slow down" in gen.calls[0]["error"] and "timeout" in gen.calls[1]["error"]
    assert [c["prompt_tokens"] for c in gen.calls] == [0, 0, 9]
    request = script.requests[0]
    assert request.url == URL + "/chat/completions"
    assert request.headers["Authorization"] == "Bearer sk-x"
    assert json.loads(request.content)["messages"] == MESSAGES


@pytest.mark.parametrize("reply, words", [
    (httpx.Response(200, text="<html>nginx</html>"), "not valid JSON"),
    (httpx.Response(200, json={"object": "list"}), "without any choice"),
    (httpx.Response(200, json={"error": {"message": "overloaded"}}), "overloaded"),
    (httpx.Response(400, json={"error": {"message": "context too long"}}), "HTTP 400"),
    (httpx.Response(401, json={"error": {"message": "bad key"}}), "Check the API key"),
])
def test_generator_garbage_and_4xx_are_upstream_errors_not_retried(reply, words):
    script = Script(reply, chat("never"))
    with pytest.raises(GeneratorReplyError) as info:
        generator(script).generate(MESSAGES)
    assert len(script.requests) == 1
    assert words in str(info.value) and URL + "/chat/completions" in str(info.value)
    assert isinstance(info.value, UpstreamError) and http_status(info.value) == 502
    assert len(info.value.calls) == 1


def test_generator_giving_up_is_unavailable():
    script = Script(httpx.ConnectError("refused"))
    with pytest.raises(GeneratorError) as info:
        generator(script).generate(MESSAGES)
    assert len(script.requests) == 3 and len(info.value.calls) == 3
    assert isinstance(info.value, Unavailable) and not isinstance(info.value, UpstreamError)
    assert http_status(info.value) == 503
    assert "gave up after 3 attempts" in str(info.value)


def test_generator_stream_over_a_mock_transport():
    events = [{"model": "m", "choices": [{"index": 0, "delta": {"content": t}}]}
              for t in ("Deux", " jours")]
    events.append({"model": "m", "choices": [], "usage": {"prompt_tokens": 5,
                                                         "completion_tokens": 2}})
    body = "".join(f"data: {json.dumps(e)}\r\n\r\n" for e in events) + "data: [DONE]\n\n"
    script = Script(httpx.Response(200, headers={"Content-Type": "text/event-stream"},
                                   content=body.encode()))
    got: list[str] = []
    gen = generator(script).generate(MESSAGES, stream=True, on_token=got.append)
    assert got == ["Deux", " jours"] and gen.text == "Deux jours"
    assert gen.usage == {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7,
                         "estimated": False}
    assert script.requests[0].headers["Accept"] == "text/event-stream"


# ----------------------------------------------------------------------------- embedder

def embeddings(n: int) -> httpx.Response:
    return httpx.Response(200, json={"model": "e-1", "data": [
        {"index": i, "embedding": [1.0, float(i)]} for i in range(n)]})


def test_embedder_retries_like_the_generator_and_counts_calls():
    script = Script(httpx.Response(429, headers={"Retry-After": "0"}),
                    httpx.Response(408), embeddings(2))
    emb = OpenAIEmbedder(URL, "e", max_retries=2, backoff=0.001, transport=script.transport)
    vectors = emb.embed_passages(["a", "b"])
    assert vectors.shape == (2, 2)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert emb.calls == 3 and len(script.requests) == 3
    assert emb.revision == "e-1"


@pytest.mark.parametrize("reply, kind, words", [
    (httpx.Response(403, json={"error": {"message": "nope"}}), EmbedderReplyError,
     "HTTP 403 Forbidden (check the API key): nope"),
    (httpx.Response(200, text="garbage"), EmbedderReplyError, "not valid JSON"),
    (httpx.Response(200, json={"data": [{"index": 0}]}), EmbedderReplyError,
     "unexpected response"),
    (httpx.Response(503, text="down"), EmbedderError, "after 2 attempts: HTTP 503: down"),
    (httpx.ReadTimeout("slow"), EmbedderError, "timeout"),
])
def test_embedder_failures(reply, kind, words):
    script = Script(reply)
    emb = OpenAIEmbedder(URL, "e", max_retries=1, backoff=0.001, transport=script.transport)
    with pytest.raises(kind) as info:
        emb.embed_queries(["x"])
    assert words in str(info.value) and URL + "/embeddings" in str(info.value)
    retried = isinstance(reply, Exception) or retryable(reply.status_code)
    assert len(script.requests) == (2 if retried else 1)
    assert isinstance(info.value, UpstreamError) == (kind is EmbedderReplyError)
