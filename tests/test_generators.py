"""OpenAIGenerator against a real HTTP server of the tests' own on 127.0.0.1 that plays
scripted replies: retries (429 with Retry-After, 5xx, timeouts, refused connections), no
retry on 400/401/404, malformed answers, and streaming over server-sent events.
Also the prompt builder."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from llm_server import Reply, ScriptedServer, chat_reply, closed_port, stream_reply

from preuve.answer.generators import (
    Generation,
    Generator,
    GeneratorError,
    LocalGenerator,
    OpenAIGenerator,
    estimate_tokens,
    parse_retry_after,
)
from preuve.answer.prompt import REFUSALS, build_messages, refusal_for

MESSAGES = [{"role": "user", "content": "Combien de jours de télétravail par semaine ?"}]
USAGE = {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49}


def make(server: ScriptedServer, **kwargs) -> OpenAIGenerator:
    options = {"timeout": 5, "max_retries": 3, "backoff": 0.05, "max_backoff": 2}
    options.update(kwargs)
    return OpenAIGenerator(server.base_url, "test-model", **options)


def gaps(server: ScriptedServer) -> list[float]:
    times = [r.time for r in server.requests]
    return [b - a for a, b in zip(times, times[1:], strict=False)]


# ----------------------------------------------------------------------------- success

def test_plain_answer_request_and_usage():
    with ScriptedServer([chat_reply("Deux jours [handbook/teletravail.pdf p. 2].",
                                    usage=USAGE)]) as server:
        gen = make(server, api_key="sk-test", max_tokens=64).generate(MESSAGES)
    assert gen.text == "Deux jours [handbook/teletravail.pdf p. 2]."
    assert gen.model == "scripted" and gen.finish_reason == "stop"
    assert gen.usage == {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49,
                         "estimated": False}
    assert gen.generator == "openai" and gen.latency_s > 0
    assert [c["status"] for c in gen.calls] == [200]
    assert gen.calls[0]["prompt_tokens"] == 42 and gen.calls[0]["completion_tokens"] == 7
    assert gen.calls[0]["generator"] == "openai" and gen.calls[0]["model"] == "test-model"
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["Authorization"] == "Bearer sk-test"
    assert request.body["model"] == "test-model"
    assert request.body["temperature"] == 0
    assert request.body["max_tokens"] == 64
    assert request.body["messages"] == MESSAGES
    assert "stream" not in request.body
    assert gen.to_dict()["usage"]["total_tokens"] == 49


def test_missing_usage_is_estimated():
    with ScriptedServer([chat_reply("Deux jours.")]) as server:
        gen = make(server).generate(MESSAGES)
    assert gen.usage["estimated"] is True
    assert gen.usage["prompt_tokens"] > 0 and gen.usage["completion_tokens"] > 0
    assert gen.usage["total_tokens"] == gen.usage["prompt_tokens"] + gen.usage[
        "completion_tokens"]


def test_generators_satisfy_the_protocol():
    generator = OpenAIGenerator("http://127.0.0.1:9/v1", "m")
    assert isinstance(generator, Generator)
    assert generator.name == "openai"
    assert isinstance(Generation(text="", model="m"), Generation)


# ----------------------------------------------------------------------------- retries

def test_429_retry_after_is_honoured():
    script = [Reply(status=429, headers={"Retry-After": "1"},
                    body={"error": {"message": "Rate limit reached"}}),
              chat_reply("ok", usage=USAGE)]
    with ScriptedServer(script) as server:
        started = time.monotonic()
        gen = make(server, backoff=0.01).generate(MESSAGES)
        elapsed = time.monotonic() - started
    assert gen.text == "ok"
    assert len(server.requests) == 2
    assert gaps(server)[0] >= 0.95  # waited what the server asked, not the 0.01 s backoff
    assert elapsed < 3
    assert [c["status"] for c in gen.calls] == [429, 200]
    assert gen.calls[0]["wait_s"] == pytest.approx(1.0)
    assert "Rate limit reached" in gen.calls[0]["error"]


def test_retry_after_is_capped_by_max_backoff():
    script = [Reply(status=503, headers={"Retry-After": "120"}), chat_reply("ok")]
    with ScriptedServer(script) as server:
        gen = make(server, max_backoff=0.2).generate(MESSAGES)
    assert gen.text == "ok"
    assert 0.15 <= gaps(server)[0] < 1.0


def test_5xx_twice_then_success_with_growing_backoff():
    script = [Reply(status=500, body={"error": {"message": "boom"}}),
              Reply(status=502, body="<html>bad gateway</html>"),
              chat_reply("ok", usage=USAGE)]
    with ScriptedServer(script) as server:
        gen = make(server, backoff=0.1).generate(MESSAGES)
    assert gen.text == "ok"
    assert len(server.requests) == 3
    assert [c["status"] for c in gen.calls] == [500, 502, 200]
    assert [c["attempt"] for c in gen.calls] == [1, 2, 3]
    first, second = gaps(server)
    assert 0.05 <= first and 0.1 <= second  # jitter keeps at least half of 0.1 * 2**(n-1)
    assert gen.calls[0]["wait_s"] <= 0.1 and gen.calls[1]["wait_s"] <= 0.2
    # tokens are only counted for the call that produced them
    assert [c["prompt_tokens"] for c in gen.calls] == [0, 0, 42]


def test_5xx_gives_up_after_max_retries():
    with ScriptedServer([Reply(status=503, body={"error": "overloaded"})]) as server:
        with pytest.raises(GeneratorError) as info:
            make(server, max_retries=2, backoff=0.01).generate(MESSAGES)
    assert len(server.requests) == 3
    message = str(info.value)
    assert server.base_url + "/chat/completions" in message
    assert "3 attempts" in message and "overloaded" in message
    assert info.value.status == 503 and len(info.value.calls) == 3


def test_slow_response_times_out_and_is_retried():
    with ScriptedServer([Reply(delay=1.5, body={"choices": []})]) as server:
        started = time.monotonic()
        with pytest.raises(GeneratorError) as info:
            make(server, timeout=0.3, max_retries=2, backoff=0.01).generate(MESSAGES)
        elapsed = time.monotonic() - started
    assert len(server.requests) == 3
    assert 0.85 <= elapsed < 2.5  # three attempts of 0.3 s each, not the 1.5 s delay
    message = str(info.value)
    assert "timeout" in message and "3 attempts" in message
    assert server.base_url in message
    assert all(c["error"] and "timeout" in c["error"] for c in info.value.calls)


def test_slow_then_fast_succeeds():
    with ScriptedServer([Reply(delay=1.0, body={}), chat_reply("ok")]) as server:
        gen = make(server, timeout=0.3, backoff=0.01).generate(MESSAGES)
    assert gen.text == "ok" and len(gen.calls) == 2
    assert gen.calls[0]["status"] is None and "timeout" in gen.calls[0]["error"]


def test_connection_refused_is_retried_then_explained():
    url = f"http://127.0.0.1:{closed_port()}/v1"
    started = time.monotonic()
    with pytest.raises(GeneratorError) as info:
        OpenAIGenerator(url, "m", max_retries=2, backoff=0.05).generate(MESSAGES)
    assert time.monotonic() - started >= 0.05  # it waited between attempts
    assert len(info.value.calls) == 3
    assert url in str(info.value) and "running" in str(info.value)


# ----------------------------------------------------------------------------- no retry

def test_401_is_not_retried_and_names_the_key():
    script = [Reply(status=401, body={"error": {"message": "Incorrect API key provided"}})]
    with ScriptedServer(script) as server:
        with pytest.raises(GeneratorError) as info:
            make(server, api_key="sk-secret-value").generate(MESSAGES)
    assert len(server.requests) == 1
    message = str(info.value)
    assert server.base_url + "/chat/completions" in message
    assert "API key" in message and "PREUVE_LLM_API_KEY" in message
    assert "Incorrect API key provided" in message
    assert "sk-secret-value" not in message
    assert info.value.status == 401


def test_403_without_key_says_none_was_sent():
    with ScriptedServer([Reply(status=403, body={"error": "forbidden"})]) as server:
        with pytest.raises(GeneratorError) as info:
            make(server).generate(MESSAGES)
    assert len(server.requests) == 1
    assert "no API key was sent" in str(info.value)
    assert "Authorization" not in server.requests[0].headers


def test_404_names_base_url_and_model():
    script = [Reply(status=404, body={"error": {"message": "The model `nope` does not exist"}})]
    with ScriptedServer(script) as server:
        with pytest.raises(GeneratorError) as info:
            make(server).generate(MESSAGES)
    assert len(server.requests) == 1
    message = str(info.value)
    assert server.base_url + "/chat/completions" in message
    assert "base URL" in message and "'test-model'" in message and "does not exist" in message


def test_400_shows_the_server_message():
    script = [Reply(status=400, body={"error": {
        "message": "This model's maximum context length is 8192 tokens", "type": "invalid"}})]
    with ScriptedServer(script) as server:
        with pytest.raises(GeneratorError) as info:
            make(server).generate(MESSAGES)
    assert len(server.requests) == 1
    assert "maximum context length is 8192 tokens" in str(info.value)
    assert "HTTP 400" in str(info.value)


# ----------------------------------------------------------------------------- malformed

@pytest.mark.parametrize("body, expected", [
    ('{"choices": [{"message": {"content": "trunc', "not valid JSON"),
    ("<html><body>Welcome to nginx</body></html>", "not valid JSON"),
    ({"id": "x", "object": "chat.completion"}, "without any choice"),
    ({"choices": []}, "without any choice"),
    ({"error": {"message": "model overloaded"}}, "model overloaded"),
])
def test_malformed_answers_raise_naming_the_endpoint(body, expected):
    with ScriptedServer([Reply(body=body)]) as server:
        with pytest.raises(GeneratorError) as info:
            make(server).generate(MESSAGES)
    assert len(server.requests) == 1  # not retried: the same request would fail the same way
    assert expected in str(info.value)
    assert server.base_url + "/chat/completions" in str(info.value)


# ----------------------------------------------------------------------------- streaming

def test_streaming_tokens_in_order_and_usage_from_last_chunk():
    tokens = ["Deux", " jours", " par", " semaine", " [handbook/teletravail.pdf p. 2]", "."]
    received: list[tuple[float, str]] = []
    with ScriptedServer([stream_reply(tokens, usage=USAGE, event_delay=0.02)]) as server:
        gen = make(server).generate(
            MESSAGES, stream=True, on_token=lambda t: received.append((time.monotonic(), t)))
    assert [t for _, t in received] == tokens
    assert gen.text == "".join(tokens)
    # tokens arrived as they were sent, not all at the end
    assert received[-1][0] - received[0][0] >= 0.05
    assert gen.usage == {**USAGE, "estimated": False}
    assert gen.finish_reason == "stop" and gen.model == "scripted"
    assert gen.calls[0]["ttft_s"] <= gen.calls[0]["latency_s"]
    body = server.requests[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert server.requests[0].headers["Accept"] == "text/event-stream"


def test_streaming_without_usage_is_estimated():
    with ScriptedServer([stream_reply(["Hello", " world"])]) as server:
        gen = make(server).generate(MESSAGES, stream=True)
    assert gen.text == "Hello world"
    assert gen.usage["estimated"] is True
    assert gen.usage["completion_tokens"] == estimate_tokens("Hello world")


def test_stream_ignored_by_server_still_delivers_text():
    got: list[str] = []
    with ScriptedServer([chat_reply("whole answer", usage=USAGE)]) as server:
        gen = make(server).generate(MESSAGES, stream=True, on_token=got.append)
    assert got == ["whole answer"] and gen.text == "whole answer"


def test_stream_broken_after_tokens_is_not_retried():
    script = [stream_reply(["Deux", " jours"], done=False, finish=False), chat_reply("again")]
    got: list[str] = []
    with ScriptedServer(script) as server:
        with pytest.raises(GeneratorError) as info:
            make(server).generate(MESSAGES, stream=True, on_token=got.append)
    assert got == ["Deux", " jours"]
    assert len(server.requests) == 1
    assert "stream broke after 2 tokens" in str(info.value)


def test_stream_cut_before_any_token_is_retried():
    script = [stream_reply([], done=False, finish=False), stream_reply(["ok"], usage=USAGE)]
    with ScriptedServer(script) as server:
        gen = make(server).generate(MESSAGES, stream=True)
    assert gen.text == "ok" and len(server.requests) == 2
    assert "stream ended" in gen.calls[0]["error"]


def test_on_token_exception_propagates_unchanged():
    def on_token(token: str) -> None:
        raise BrokenPipeError("terminal closed")

    with ScriptedServer([stream_reply(["a", "b"], usage=USAGE)]) as server:
        with pytest.raises(BrokenPipeError, match="terminal closed"):
            make(server).generate(MESSAGES, stream=True, on_token=on_token)
    assert len(server.requests) == 1


def test_stream_error_before_any_token_is_retried():
    script = [Reply(status=500), stream_reply(["ok"], usage=USAGE)]
    with ScriptedServer(script) as server:
        gen = make(server).generate(MESSAGES, stream=True)
    assert gen.text == "ok" and len(server.requests) == 2


# ----------------------------------------------------------------------------- config

def test_retry_after_parsing():
    now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    later = format_datetime(now + timedelta(seconds=7), usegmt=True)
    assert parse_retry_after("1") == 1.0
    assert parse_retry_after(" 2.5 ") == 2.5
    assert parse_retry_after(later, now=now.timestamp()) == pytest.approx(7.0)
    assert parse_retry_after(format_datetime(now - timedelta(seconds=30), usegmt=True),
                             now=now.timestamp()) == 0.0
    assert parse_retry_after("-3") == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after("") is None and parse_retry_after(None) is None


def test_from_env():
    env = {"PREUVE_LLM_BASE_URL": "http://127.0.0.1:8080/v1/", "PREUVE_LLM_MODEL": "smol",
           "OPENAI_API_KEY": "sk-openai", "PREUVE_LLM_TIMEOUT": "12"}
    generator = OpenAIGenerator.from_env(env)
    assert generator.endpoint == "http://127.0.0.1:8080/v1/chat/completions"
    assert generator.model == "smol" and generator.api_key == "sk-openai"
    assert generator.timeout == 12
    assert "sk-openai" not in repr(generator)
    assert OpenAIGenerator.from_env({**env, "PREUVE_LLM_API_KEY": "sk-preuve"}).api_key == \
        "sk-preuve"
    assert OpenAIGenerator.from_env(env, model="other").model == "other"
    with pytest.raises(GeneratorError, match="PREUVE_LLM_BASE_URL"):
        OpenAIGenerator.from_env({"PREUVE_LLM_MODEL": "smol"})
    with pytest.raises(GeneratorError, match="PREUVE_LLM_MODEL"):
        OpenAIGenerator.from_env({"PREUVE_LLM_BASE_URL": "http://127.0.0.1:8080/v1"})
    with pytest.raises(GeneratorError, match="PREUVE_LLM_TIMEOUT"):
        OpenAIGenerator.from_env({**env, "PREUVE_LLM_TIMEOUT": "soon"})


def test_base_url_forms():
    full = OpenAIGenerator("https://api.example.test/v1/chat/completions", "m")
    assert full.endpoint == "https://api.example.test/v1/chat/completions"
    with pytest.raises(GeneratorError, match="not an http"):
        OpenAIGenerator("api.openai.com/v1", "m")


def test_local_generator_reports_a_missing_file(tmp_path):
    with pytest.raises(GeneratorError) as info:
        LocalGenerator(tmp_path / "missing.gguf")
    # either xllamacpp is missing (said so) or the file is (said so)
    assert "xllamacpp" in str(info.value) or "not found" in str(info.value)


# ----------------------------------------------------------------------------- prompt

CONTEXT = """facturo/tva.py:6-10
TAUX_NORMAL = 0.20

handbook/teletravail.pdf p. 2
Le télétravail est possible deux jours par semaine."""


def test_build_messages_french():
    messages = build_messages("Combien de jours de télétravail ?", CONTEXT, "fr")
    assert [m["role"] for m in messages] == ["system", "user"]
    system, user = messages[0]["content"], messages[1]["content"]
    assert "Je ne sais pas." in system and "French" in system
    assert "facturo/tva.py:6-10" in system and "handbook/teletravail.pdf p. 2" in system
    assert "only" in system
    assert CONTEXT in user and user.rstrip().endswith("Combien de jours de télétravail ?")


def test_build_messages_english_with_history():
    history = [{"role": "user", "content": "What is the VAT rate?"},
               {"role": "assistant", "content": "20 % [facturo/tva.py:6-10]."},
               {"role": "system", "content": "ignored"},
               {"role": "assistant", "content": ""}]
    messages = build_messages("And the reduced one?", CONTEXT, "en", history)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "I don't know." in messages[0]["content"] and "English" in messages[0]["content"]
    assert messages[1]["content"] == "What is the VAT rate?"
    assert messages[-1]["content"].endswith("And the reduced one?")


def test_refusal_strings():
    assert REFUSALS == {"fr": "Je ne sais pas.", "en": "I don't know."}
    assert refusal_for("fr-FR") == "Je ne sais pas." and refusal_for("French") == "Je ne sais pas."
    assert refusal_for("en") == refusal_for("") == refusal_for("de") == "I don't know."
    custom = build_messages("q", "c", "fr", refusal="Aucune idée.")
    assert "Aucune idée." in custom[0]["content"]
