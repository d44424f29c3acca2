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


# ------------------------------------------------------- generated answers: checked for support
# Through the pipeline: the scripted server plays the model's reply; the passages are real
# `Hit`s; nothing of preuve is replaced.

from preuve.answer.attribution import attribute  # noqa: E402
from preuve.answer.pipeline import answer_from_hits  # noqa: E402
from preuve.models import Hit  # noqa: E402


def passage(path: str, text: str, *, page: int | None = None, lines: tuple[int, int] = (1, 20),
            language: str = "en", heading: str = "") -> Hit:
    return Hit(rank=1, score=1.0, chunk_id=f"{path}#{page or lines[0]}", doc_id=path,
               path=path, kind="pdf" if page else "text", title="", heading=heading,
               page=page, page_label=str(page) if page else None,
               start_line=None if page else lines[0], end_line=None if page else lines[1],
               symbol=None, symbol_kind=None, text=text, language=language)


def ask_model(question: str, hits: list[Hit], reply: str, embedder=None):
    with ScriptedServer([chat_reply(reply, usage=USAGE)]) as server:
        answer = answer_from_hits(question, hits, embedder=embedder,
                                  generator=make(server, max_retries=0))
    assert len(server.requests) == 1  # the model was asked: what follows judged its text
    return answer


HOME = passage("handbook/remote.pdf", "Staff may work from home up to two days per week, "
               "with their manager's agreement. The days are declared in the planning tool "
               "by the Friday before.", page=2)
HOME_Q = "How many days per week can staff work from home?"
PIP = passage("python/faq/pip.md", "pip list shows the packages installed in the current "
              "environment, with their versions. pip freeze prints them in requirements "
              "format, for a requirements.txt file.", lines=(12, 18))
UPLOADS = passage("maint-guide/upload.md", "The who-uploads script (in devscripts) prints the "
                  "names of the people who uploaded the most recent versions of a source "
                  "package, with the GPG key that signed each upload.", lines=(40, 44))
ABROAD = passage("handbook/teletravail.pdf", "Le télétravail depuis l'étranger est limité à 10 "
                 "jours par année civile, et uniquement depuis un pays de l'Union européenne ou "
                 "la Suisse. Le télétravail depuis un pays situé hors de l'Union européenne "
                 "n'est pas autorisé.", page=5, language="fr")
ON_CALL = passage("handbook/on-call.md", "# On-call\n\nEach engineer is on call one week in six. "
                  "The on-call allowance is 150 euros per week, paid with the next salary.",
                  lines=(1, 6))


def test_a_looping_answer_is_refused_with_its_text_kept_for_the_operator():
    """The local 135M model repeated its answer three times; each copy cited a passage it
    was given, so the location check alone let it through."""
    sentence = "Staff may work from home up to two days per week [handbook/remote.pdf p. 2]."
    reply = f"{sentence} " * 3
    answer = ask_model(HOME_Q, [HOME], reply)
    assert answer.refused and answer.answer == "I don't know."
    assert answer.reason.startswith("degenerate answer: the answer loops")
    assert answer.rejected == reply and answer.citations == []
    assert answer.explain["attribution"]["degenerate"] == answer.reason.split(": ", 1)[1]
    # the same sentence once is an answer
    once = ask_model(HOME_Q, [HOME], sentence)
    assert not once.refused, once.reason


def test_an_answer_echoing_the_question_is_refused():
    reply = ("How many days per week can staff work from home? Staff may work from home up "
             "to two days per week [handbook/remote.pdf p. 2].")
    answer = ask_model(HOME_Q, [HOME], reply)
    assert answer.refused and answer.reason == "degenerate answer: the answer repeats the question"
    assert answer.rejected == reply
    # the prompt's own labels echoed are refused too
    echoed = ask_model(HOME_Q, [HOME], "Question: two days [handbook/remote.pdf p. 2].")
    assert echoed.refused and "echoes the prompt" in echoed.reason


def test_a_cited_sentence_that_only_restates_the_question_is_dropped():
    """'use the `pip list` command' said nothing the question had not (word share 0.69
    and cosine >= 0.80 let it pass before); the sentence that says what it shows stays."""
    question = "What does the pip list command show?"
    reply = ("Use the `pip list` command [python/faq/pip.md:12-18]. It shows the installed "
             "packages and their versions [python/faq/pip.md:12-18].")
    answer = ask_model(question, [PIP], reply)
    assert not answer.refused, answer.reason
    assert "Use the" not in answer.answer and "installed packages" in answer.answer
    assert "1 sentence(s) that only restate the question dropped" in answer.reason
    (dropped,) = answer.explain["attribution"]["dropped"]
    assert dropped["why"] == "restates the question" and dropped["new_units"] == 0
    (kept,) = answer.explain["attribution"]["kept"]
    assert kept["share"] == 1.0 and kept["route"] == "words"
    # alone, it is no answer
    alone = ask_model(question, [PIP], "Use the `pip list` command [python/faq/pip.md:12-18].")
    assert alone.refused and "only restates the question" in alone.reason
    assert alone.rejected.startswith("Use the `pip list` command")


def test_a_right_sentence_naming_a_command_of_the_passage_is_kept():
    """Its words beyond the question are the passage's (`who-uploads`); the question's
    words it repeats ('find out who sent', absent from the passage) no longer count
    against it (before: share 0.2 of all its words, dropped)."""
    question = "How do I find out who sent the latest uploads of my package?"
    reply = "To find out who sent them, run `who-uploads`."
    answer = ask_model(question, [UPLOADS], reply)
    assert not answer.refused, answer.reason
    assert answer.answer.startswith("To find out who sent them, run `who-uploads` [")
    assert [c["label"] for c in answer.citations] == ["maint-guide/upload.md:40-44"]
    (row,) = answer.explain["attribution"]["attributed"]
    assert row["exact_missing"] == 0 and row["found_units"] == row["new_units"] == 1
    # an invented command is not in the passage: dropped, and with it the answer
    wrong = ask_model(question, [UPLOADS], "To find out who sent them, run `dput --who`.")
    assert wrong.refused and "no passage supports" in wrong.reason


def test_a_sentence_whose_key_claim_word_is_absent_is_not_supported():
    """'The current Debian Project Leader is Bruce Perens': the page says he led the
    project at the time. Its names are on the page; its claim of 'current' is not."""
    page = passage("debian-faq/debian-faq.pdf", "Bruce Perens was the project leader at that "
                   "time; he wrote the Debian Social Contract in 1997.", page=30)
    question = "Who is the current Debian Project Leader?"
    reply = "The current Debian Project Leader is Bruce Perens [debian-faq/debian-faq.pdf p. 30]."
    answer = ask_model(question, [page], reply)
    assert answer.refused and answer.rejected == reply
    (row,) = answer.explain["attribution"]["dropped"]
    assert row["why"] == "key claim word absent from the passage" and row["key_missing"] == 1
    assert row["exact_missing"] == 0  # the names were there: location and names passed
    said = "In 1997 Bruce Perens was the project leader [debian-faq/debian-faq.pdf p. 30]."
    assert not ask_model(question, [page], said).refused


def test_a_cited_sentence_its_passage_does_not_support_is_dropped_with_the_answer():
    """A valid citation is not enough: the sentence must say what its passage says."""
    reply = "Staff may work from home five days per week [handbook/remote.pdf p. 2]."
    answer = ask_model(HOME_Q, [HOME], reply)
    assert answer.refused and answer.rejected == reply
    (row,) = answer.explain["attribution"]["dropped"]
    assert row["why"] == "exact token not in the passage" and row["cited"] == \
        "handbook/remote.pdf p. 2"
    assert "five" not in answer.reason  # reasons quote no unverified text


def test_a_french_sentence_over_an_english_passage_is_kept_when_the_embedder_is_there():
    """French answers drawn from English passages could not reach the word share (only
    copied code lines survived). Words in translation when FreeDict is installed, else the
    meaning: the bundled embedder's cosine with the passage's closest sentence."""
    from preuve.answer.support import Judge
    from preuve.embed import get_embedder

    embedder = get_embedder("e5")
    question = "Combien touche-t-on pour une semaine d'astreinte ?"
    reply = "La prime d'astreinte est de 150 euros par semaine, versée avec le salaire suivant."
    answer = ask_model(question, [ON_CALL], reply, embedder=embedder)
    assert not answer.refused, answer.reason
    assert [c["label"] for c in answer.citations] == ["handbook/on-call.md:1-6"]
    (row,) = answer.explain["attribution"]["attributed"]
    assert row["cross_language"] is True
    # without the dictionaries: the meaning route alone
    judge = Judge(question, embedder, dictionary={})
    result = attribute(reply, [ON_CALL], embedder, question=question, judge=judge)
    (row,) = result.attributed
    assert row["route"] == "meaning" and row["cosine"] >= 0.88
    # a French sentence the passage does not say stays out either way
    other = "Il faut lire le journal des modifications du paquet pour le savoir."
    result = attribute(other, [ON_CALL], embedder, question=question, judge=judge)
    assert result.attributed == [] and result.refusal is not None
    # and a number the passage lacks fails in any language
    wrong = "La prime d'astreinte est de 300 euros par semaine."
    assert ask_model(question, [ON_CALL], wrong, embedder=embedder).refused


def test_a_short_oui_whose_claim_is_dropped_refuses_rather_than_showing_the_opposite():
    """Before, "Oui." (too short to attribute) and its unsupported claim were dropped and
    the remaining sentence, which says the opposite, was shown as the answer."""
    question = "Puis-je télétravailler depuis le Japon ?"
    reply = ("Oui. Le télétravail depuis le Japon est permis sans restriction. Le télétravail "
             "depuis un pays situé hors de l'Union européenne n'est pas autorisé "
             "[handbook/teletravail.pdf p. 5].")
    answer = ask_model(question, [ABROAD], reply)
    assert answer.refused and answer.answer == "Je ne sais pas."
    assert "yes/no rests on a claim no passage supports" in answer.reason
    assert answer.rejected == reply
    # a "Oui." whose claim holds stays with it
    held = ask_model(question, [ABROAD], "Non. Le télétravail depuis un pays situé hors de "
                     "l'Union européenne n'est pas autorisé [handbook/teletravail.pdf p. 5].")
    assert not held.refused and held.answer.startswith("Non. Le télétravail"), held.reason


def test_an_answer_that_is_only_a_heading_is_refused():
    page = passage("handbook/remote.pdf", "3.1 Number of days\nStaff may work from home up "
                   "to two days per week.", page=2, heading="3. Remote work > 3.1 Number of days")
    answer = ask_model(HOME_Q, [page], "3.1 Number of days [handbook/remote.pdf p. 2]")
    assert answer.refused and answer.rejected.startswith("3.1 Number of days")
    (row,) = answer.explain["attribution"]["dropped"]
    assert row["why"] == "a heading or title"


def test_the_first_claim_dropped_refuses_what_remains():
    """What remains after the answer's first claim failed are details around it."""
    reply = ("Staff may work from home three days per week [handbook/remote.pdf p. 2]. The "
             "days are declared in the planning tool by the Friday before "
             "[handbook/remote.pdf p. 2].")
    answer = ask_model(HOME_Q, [HOME], reply)
    assert answer.refused and "first claim is not supported" in answer.reason
    (kept,) = answer.explain["attribution"]["kept"]  # numbers; the text is in `rejected`
    assert "sentence" not in kept and kept["why"] == "supported"
    assert answer.rejected == reply
    # a later detail dropped leaves the answer
    reply = ("Staff may work from home up to two days per week [handbook/remote.pdf p. 2]. "
             "The days are approved by the CEO [handbook/remote.pdf p. 2].")
    answer = ask_model(HOME_Q, [HOME], reply)
    assert not answer.refused and "CEO" not in answer.answer
    assert "1 cited sentence(s) their passage does not support dropped" in answer.reason


def test_local_generator_threads_default_to_two_and_are_a_setting(tmp_path):
    import importlib.util
    import os

    from preuve.answer.generators import default_threads
    from preuve.registry import generators
    from preuve.settings import Settings

    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("xllamacpp is not installed")
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")  # the model loads on first use: never here
    cpus = len(os.sched_getaffinity(0))
    assert default_threads() == min(2, cpus)
    assert LocalGenerator(gguf).n_threads == default_threads()
    assert LocalGenerator(gguf, n_threads=3).n_threads == 3
    make_local = generators.get("local").make
    assert make_local(Settings.load(env={}), gguf=str(gguf)).n_threads == default_threads()
    from_env = make_local(Settings.load(env={"PREUVE_LLM_THREADS": "1"}), gguf=str(gguf))
    assert from_env.n_threads == 1 and "n_threads=1" in repr(from_env)
    with pytest.raises(GeneratorError, match="at least one thread"):
        LocalGenerator(gguf, n_threads=0)


def test_code_lines_of_the_passage_are_kept_as_a_block_cited_after_it():
    """Qwen's French answers kept only copied code lines; a line is judged like any
    sentence, but a block is shown whole or not at all, and never gets a citation inside
    the code."""
    faq = passage("python/faq/programming.html", "How do I create a .pyc file? To create a "
                  ".pyc file for a module, use py_compile:\n\n>>> import py_compile\n>>> "
                  "py_compile.compile('foo.py')\n\nThe compileall module compiles every file "
                  "of a directory.", lines=(2090, 2106))
    question = "Comment je fabrique un fichier .pyc pour un module ?"
    block = "```python\nimport py_compile\npy_compile.compile('foo.py')\n```"
    reply = f"Utilisez le module `py_compile` [python/faq/programming.html:2090-2106] :\n\n{block}"
    answer = ask_model(question, [faq], reply)
    assert not answer.refused, answer.reason
    code = answer.answer[answer.answer.index("```python"):]
    assert code.startswith(block + "\n[python/faq/programming.html:2090-2106](")
    assert [r["sentence"] for r in answer.explain["attribution"]["attributed"]] == [
        "import py_compile", "py_compile.compile('foo.py')"]
    # a line the passage lacks takes its block with it
    invented = reply.replace("compile('foo.py')", "compile('foo.py', optimize=9)")
    answer = ask_model(question, [faq], invented)
    assert "```" not in answer.answer and "import py_compile" not in answer.answer
    assert "1 code line(s) of a block with an unsupported line dropped" in answer.reason


def test_a_sentence_the_token_limit_cut_is_not_shown():
    reply = ("Staff may work from home up to two days per week [handbook/remote.pdf p. 2]. "
             "The days are declared in the planning")
    with ScriptedServer([chat_reply(reply, finish_reason="length")]) as server:
        answer = answer_from_hits(HOME_Q, [HOME], generator=make(server, max_retries=0))
    assert not answer.refused, answer.reason
    assert "planning" not in answer.answer
    assert answer.explain["attribution"]["unfinished_words"] == 7
    # the same words, finished, are an answer's sentence
    with ScriptedServer([chat_reply(reply + " tool.")]) as server:
        answer = answer_from_hits(HOME_Q, [HOME], generator=make(server, max_retries=0))
    assert "planning tool [handbook/remote.pdf p. 2]" in answer.answer


def test_footnote_marks_copied_from_a_passage_are_not_citations():
    """Qwen copied "[16]", a footnote mark of the guide, after a right sentence: it
    numbers no passage given (the answer was refused for it). It stands in the passage's
    text, so it is taken off and the sentence is judged as uncited."""
    guide = passage("maint-guide/fr/dreq.fr.html", "La version amont ne doit contenir que des "
                    "caractères alphanumériques, plus (+), tildes (~) et points (.). Elle doit "
                    "commencer par un chiffre (0-9). [16]", lines=(300, 310), language="fr")
    question = "Par quoi doit commencer la version amont d'un paquet ?"
    answer = ask_model(question, [guide], "Elle doit commencer par un chiffre (0-9). [16]")
    assert not answer.refused, answer.reason
    assert answer.answer.startswith("Elle doit commencer par un chiffre (0-9) [maint-guide/")
    assert answer.explain["attribution"]["footnote_marks"] == 1
    # a number the passage does not carry is still a citation that does not hold
    wrong = ask_model(question, [guide], "Elle doit commencer par un chiffre (0-9). [17]")
    assert wrong.refused and "[17] does not number a passage" in wrong.reason


def test_a_yes_that_says_the_question_back_stands_with_the_claim_after_it():
    """'Yes, there is a recommended maximum length' restates the question with its
    polarity: it is kept with the supported sentence after it (it was refusing a right
    answer of the 1.5B model), and refuses the answer when that sentence is dropped."""
    guide = passage("maint-guide/maint-guide.en.pdf", "The package name should be at least "
                    "two characters long and start with an alphanumeric character. It is a "
                    "good idea to keep its length within 30 characters.", page=17)
    question = "Is there a recommended maximum length for a package name?"
    reply = ("Yes, there is a recommended maximum length for a package name. It is a good "
             "idea to keep its length within 30 characters [maint-guide/maint-guide.en.pdf "
             "p. 17].")
    answer = ask_model(question, [guide], reply)
    assert not answer.refused, answer.reason
    assert answer.answer.startswith("Yes, there is a recommended maximum length")
    wrong = reply.replace("30 characters", "64 characters")
    answer = ask_model(question, [guide], wrong)
    assert answer.refused and answer.reason.startswith("support check failed")
    assert answer.rejected == wrong


def test_typographic_apostrophes_do_not_make_a_copied_name_missing():
    """The 0.5B model copied the FAQ's sentence with "Python's" where the page has
    "Python’s": the exact-token check refused a right answer for it."""
    faq = passage("python/faq/library.html", "The global interpreter lock (GIL) is often seen "
                  "as a hindrance to Python’s deployment on multiprocessor machines, because "
                  "a multi-threaded program effectively only uses one CPU.", lines=(543, 554))
    question = "Why can't my multi-threaded Python program use more than one CPU?"
    reply = ("Because the global interpreter lock (GIL) is a hindrance to Python's deployment "
             "on multiprocessor machines.")
    answer = ask_model(question, [faq], reply)
    assert not answer.refused, answer.reason
    assert answer.citations[0]["label"] == "python/faq/library.html:543-554"


def test_a_sentence_pointing_back_is_supported_only_by_the_passage_of_the_one_before():
    """Qwen2.5-Coder-1.5B over the manuals: "... `apt-get source nomdepaquet` [maint-guide].
    Cela installe le paquet source dans votre système Debian [debian-faq p. 70]." The FAQ
    page holds "installe", "système", "Debian" (about a commercial program), not what
    "cela" is: a sentence pointing back says something of the sentence before, so only
    that sentence's passage can support it."""
    sources = passage("maint-guide/first.md", "Use apt-get source packagename to download "
                      "the source package and unpack it in the current directory.",
                      lines=(256, 260))
    other = passage("debian-faq/faq.pdf", "Can I make a Debian package of my commercial "
                    "program so that it installs easily on any Debian system? Of course. "
                    "Packages may be free or not, it can install them all.", page=70)
    question = "How do I get the source code of a Debian package?"
    reply = ("Use `apt-get source packagename` [maint-guide/first.md:256-260]. This installs "
             "the source package on your Debian system [debian-faq/faq.pdf p. 70].")
    answer = ask_model(question, [sources, other], reply)
    assert not answer.refused, answer.reason
    assert "installs the source package" not in answer.answer
    assert answer.answer.startswith("Use `apt-get source packagename` [")
    (row,) = answer.explain["attribution"]["dropped"]
    assert row["why"] == "refers back to a sentence another passage supports"
    # uncited, it is not attributed to the other passage either
    uncited = reply.replace(" [debian-faq/faq.pdf p. 70]", "")
    answer = ask_model(question, [sources, other], uncited)
    assert "installs the source package" not in answer.answer
    # pointing back to a sentence of the same passage, it stands
    same = ("Use `apt-get source packagename` [maint-guide/first.md:256-260]. This unpacks "
            "the source package in the current directory [maint-guide/first.md:256-260].")
    answer = ask_model(question, [sources, other], same)
    assert not answer.refused and "current directory" in answer.answer
    assert not answer.explain["attribution"]["dropped"]
