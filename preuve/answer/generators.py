"""Language-model generators behind one seam.

`Generator` is what the answer pipeline calls: `generate(messages, stream=..., on_token=...)`
returns a `Generation` (text, model, usage, latency and one record per HTTP attempt, which is
what a cost report needs).

- `OpenAIGenerator` speaks the OpenAI chat-completions protocol to any compatible endpoint
  (OpenAI, Gemini's compatible endpoint, Mistral, Ollama, vLLM, a llama.cpp server).
  Retries with exponential backoff and jitter on connection errors, timeouts, 408, 429 and
  5xx, honouring `Retry-After`; never retries another 4xx (400/401/403/404...), which gets
  a message naming the endpoint and what to fix (`GeneratorReplyError`, an UpstreamError).
  Giving up is a `GeneratorError` (Unavailable). Streams over server-sent events.
- `LocalGenerator` runs a GGUF file in-process with xllamacpp (llama.cpp's own server,
  listening on 127.0.0.1 on a free port) and talks to it through `OpenAIGenerator`, so the
  local path and the remote path share one protocol implementation.

Generators are registered by name in `preuve.registry.generators` (extractive, openai,
local; plugins add theirs) and made from a `preuve.settings.Settings` (PREUVE_LLM_*).

HTTP goes through `preuve.http.HttpClient` (httpx): one retry policy and one error-body
parser shared with the embeddings client, and a `transport=` seam for tests. `timeout` is an
inactivity limit (connect, and each wait for bytes from the server), the same meaning as
other HTTP clients' read timeout: a stream that keeps sending tokens is never cut.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from preuve.errors import InvalidInput, Unavailable, UpstreamError
from preuve.extras import install_hint
from preuve.http import (
    GaveUp,
    HttpClient,
    Rejected,
    RetryPolicy,
    Transient,
    content_type,
    error_message,
    parse_retry_after,
)
from preuve.registry import GeneratorSpec, generators
from preuve.settings import Settings

if TYPE_CHECKING:
    import httpx

__all__ = [
    "Generation",
    "Generator",
    "GeneratorError",
    "GeneratorReplyError",
    "LocalGenerator",
    "OpenAIGenerator",
    "default_threads",
    "estimate_tokens",
    "parse_retry_after",
]

class GeneratorError(Unavailable):
    """A generation that failed for good; the message says which endpoint and what to fix.
    Raised as is when the model could not be reached or set up (or gave up after retries),
    as `GeneratorReplyError` when it answered with an error or garbage.

    `calls` holds the attempts made (same records as `Generation.calls`) so a cost report
    can still account for them; `status` is the last HTTP status, if any.
    """

    def __init__(self, message: str, *, endpoint: str | None = None,
                 status: int | None = None, calls: list[dict] | None = None):
        super().__init__(message)
        self.endpoint = endpoint
        self.status = status
        self.calls: list[dict] = calls if calls is not None else []


class GeneratorReplyError(GeneratorError, UpstreamError):
    """The model server answered, but with an error (4xx other than 408/429, an error
    object) or a reply that is not a chat completion."""


@dataclass
class Generation:
    """What one `generate` call produced and what it cost.

    usage: prompt_tokens, completion_tokens, total_tokens, estimated (True when the server
    reported none and the counts are approximations). calls: one dict per HTTP attempt with
    generator, model (as requested), attempt, status, latency_s, prompt_tokens,
    completion_tokens, error, wait_s (the pause before the next attempt), and ttft_s (time
    to first token) for streams.
    """

    text: str
    model: str
    usage: dict = field(default_factory=dict)
    latency_s: float = 0.0
    calls: list[dict] = field(default_factory=list)
    finish_reason: str | None = None
    generator: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@runtime_checkable
class Generator(Protocol):
    name: str

    def generate(self, messages: list[dict], *, stream: bool = False,
                 on_token: Callable[[str], None] | None = None) -> Generation: ...


# --------------------------------------------------------------------------- helpers

def estimate_tokens(text: str) -> int:
    """Rough token count (about four characters a token for English and French)."""
    return math.ceil(len(text) / 4) if text else 0


def _message_text(message: Mapping) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return ""


def estimate_prompt_tokens(messages: list[dict]) -> int:
    # a few tokens of chat-template framing per message, as in OpenAI's accounting
    return sum(estimate_tokens(_message_text(m)) + 4 for m in messages) + 3


# --------------------------------------------------------------------------- OpenAI

class OpenAIGenerator:
    """Any OpenAI-compatible chat-completions endpoint.

    base_url: the API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`
    (a trailing `/chat/completions` is accepted and dropped). `max_retries` counts the
    retries after the first attempt. Waits between attempts grow as
    backoff * 2**(n-1) with jitter (a random value between half and all of it), capped at
    `max_backoff`; a `Retry-After` header replaces the computed wait (still capped).
    `max_tokens` caps the answer (not sent when None); `extra_body` is merged into every
    request (e.g. {"max_completion_tokens": 512} or {"seed": 1}).
    """

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str | None = None,
                 timeout: float = 60, max_retries: int = 4, backoff: float = 0.5,
                 max_backoff: float = 20, *, max_tokens: int | None = None,
                 temperature: float | None = 0.0, extra_body: Mapping[str, Any] | None = None,
                 headers: Mapping[str, str] | None = None,
                 transport: httpx.BaseTransport | None = None):
        if not base_url:
            raise GeneratorError("OpenAIGenerator needs a base URL, e.g. "
                                 "https://api.openai.com/v1 or http://127.0.0.1:8080/v1")
        base = base_url.strip().rstrip("/")
        if base.endswith("/chat/completions"):
            base = base[: -len("/chat/completions")]
        if max_retries < 0 or timeout <= 0:
            raise ValueError("max_retries must be >= 0 and timeout > 0")
        self.base_url = base
        self.endpoint = f"{base}/chat/completions"
        self.model = model
        self.api_key = api_key or None
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.extra_body = dict(extra_body or {})
        self.extra_headers = dict(headers or {})
        try:
            self._http = HttpClient(
                self.endpoint, timeout=self.timeout, transport=transport,
                policy=RetryPolicy(self.max_retries, self.backoff, self.max_backoff))
        except ValueError:
            raise GeneratorError(f"base URL {base_url!r} is not an http(s) URL; expected "
                                 "something like https://api.openai.com/v1") from None

    def __repr__(self) -> str:  # never shows the key
        key = "set" if self.api_key else "none"
        return (f"OpenAIGenerator(endpoint={self.endpoint!r}, model={self.model!r}, "
                f"api_key={key}, timeout={self.timeout:g}, max_retries={self.max_retries})")

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> OpenAIGenerator:
        """Configured from `settings` (llm_base_url, llm_model, llm_api_key, llm_timeout,
        llm_max_retries: PREUVE_LLM_* in the environment). Keyword arguments override them."""
        base_url = overrides.pop("base_url", None) or (settings.llm_base_url or "").strip()
        model = overrides.pop("model", None) or (settings.llm_model or "").strip()
        if not base_url:
            raise GeneratorError(
                "no language model endpoint configured: set PREUVE_LLM_BASE_URL to an "
                "OpenAI-compatible API root (e.g. https://api.openai.com/v1, or "
                "http://127.0.0.1:8080/v1 for a local llama.cpp server) and PREUVE_LLM_MODEL")
        if not model:
            raise GeneratorError(
                f"no model name configured for {base_url}: set PREUVE_LLM_MODEL "
                "(e.g. gpt-4o-mini; any name for a llama.cpp server)")
        for key, value in (("api_key", settings.llm_api_key), ("timeout", settings.llm_timeout),
                           ("max_retries", settings.llm_max_retries)):
            if value is not None:
                overrides.setdefault(key, value)
        return cls(base_url, model, **overrides)

    @classmethod
    def from_env(cls, env: Mapping[str, str], **overrides: Any) -> OpenAIGenerator:
        """`from_settings` over the PREUVE_LLM_* variables of `env` (OPENAI_API_KEY when
        PREUVE_LLM_API_KEY is unset)."""
        try:
            settings = Settings.load(env=env)
        except InvalidInput as exc:
            raise GeneratorError(str(exc)) from None
        return cls.from_settings(settings, **overrides)

    # ----------------------------------------------------------------- public

    def generate(self, messages: list[dict], *, stream: bool = False,
                 on_token: Callable[[str], None] | None = None) -> Generation:
        payload: dict[str, Any] = {"model": self.model, "messages": list(messages)}
        if self.temperature is not None:  # None: the server's default (some models insist)
            payload["temperature"] = self.temperature
        if self.max_tokens is not None:
            payload["max_tokens"] = self.max_tokens
        if stream:
            payload["stream"] = True
            payload["stream_options"] = {"include_usage": True}
        payload.update(self.extra_body)
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")

        calls: list[dict] = []
        started = time.monotonic()
        emitted: list[str] = []  # tokens delivered by the current attempt
        t0 = started  # when the current attempt began

        def attempt(n: int) -> Generation:
            nonlocal t0
            call: dict[str, Any] = {
                "generator": self.name, "model": self.model, "attempt": n,
                "status": None, "latency_s": 0.0, "prompt_tokens": 0, "completion_tokens": 0,
                "error": None, "wait_s": 0.0,
            }
            calls.append(call)
            t0 = time.monotonic()
            emitted.clear()
            try:
                text, model, raw_usage, finish = self._attempt(
                    data, stream, on_token, emitted, call, t0)
            except GeneratorError as exc:
                call["latency_s"] = round(time.monotonic() - t0, 4)
                call["status"] = call["status"] if exc.status is None else exc.status
                call["error"] = str(exc)
                exc.calls = calls
                raise
            usage = self._usage(raw_usage, messages, text)
            call["latency_s"] = round(time.monotonic() - t0, 4)
            call["prompt_tokens"] = usage["prompt_tokens"]
            call["completion_tokens"] = usage["completion_tokens"]
            return Generation(
                text=text, model=model or self.model, usage=usage,
                latency_s=round(time.monotonic() - started, 4), calls=calls,
                finish_reason=finish, generator=self.name,
            )

        def failed(n: int, exc: Transient, wait: float) -> None:
            call = calls[-1]
            call["latency_s"] = round(time.monotonic() - t0, 4)
            call["status"] = exc.status
            call["error"] = exc.reason
            call["wait_s"] = round(wait, 4)
            if emitted:
                call["wait_s"] = 0.0
                raise GeneratorError(
                    f"{self.endpoint}: the stream broke after {len(emitted)} tokens had "
                    f"been delivered ({exc.reason}); not retried so no text is repeated",
                    endpoint=self.endpoint, status=exc.status, calls=calls) from exc

        try:
            return self._http.run(attempt, on_failure=failed)
        except GaveUp as exc:
            raise GeneratorError(self._give_up_message(exc.last, exc.attempts),
                                 endpoint=self.endpoint, status=exc.last.status,
                                 calls=calls) from exc.last

    # ----------------------------------------------------------------- internals

    def _headers(self, stream: bool) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "text/event-stream" if stream else "application/json",
            "User-Agent": "preuve",
        }
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        headers.update(self.extra_headers)
        return headers

    def _give_up_message(self, exc: Transient, attempts: int) -> str:
        tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
        if exc.kind == "timeout":
            hint = ("the server is too slow or unreachable; raise the timeout "
                    "(PREUVE_LLM_TIMEOUT) or check the server")
        elif exc.status == 429:
            hint = "rate limited; wait, lower the request rate or check the account's quota"
        elif exc.status is not None:
            hint = "the server kept failing; check its logs or try again later"
        elif exc.kind == "stream":
            hint = "the server kept closing the stream early; check its logs"
        else:
            hint = f"check that the server is running and that {self.base_url} is right"
        return f"{self.endpoint}: gave up after {tries}: {exc.reason}; {hint}"

    def _client_error(self, status: int | None, msg: str) -> GeneratorError:
        if status is None:  # no reply at all: a TLS certificate check failed
            return GeneratorError(f"{self.endpoint}: {msg}", endpoint=self.endpoint)
        said = f": {msg}" if msg else ""
        if status in (401, 403):
            if self.api_key:
                key = ("the API key was refused; check PREUVE_LLM_API_KEY (or OPENAI_API_KEY) "
                       f"and that it may use model {self.model!r}")
            else:
                key = "no API key was sent; set PREUVE_LLM_API_KEY (or OPENAI_API_KEY)"
            text = f"{self.endpoint} answered HTTP {status}{said}. Check the API key: {key}."
        elif status == 404:
            text = (f"{self.endpoint} answered HTTP 404{said}. Check the base URL "
                    f"(PREUVE_LLM_BASE_URL={self.base_url!r}; it usually ends in /v1) and the "
                    f"model name (PREUVE_LLM_MODEL={self.model!r}).")
        else:
            text = (f"{self.endpoint} rejected the request with HTTP {status}"
                    f"{said or ' (no message)'}.")
        return GeneratorReplyError(text, endpoint=self.endpoint, status=status)

    def _attempt(self, data: bytes, stream: bool, on_token: Callable[[str], None] | None,
                 emitted: list[str], call: dict, t0: float):
        try:
            with self._http.post(data, self._headers(stream)) as response:
                call["status"] = response.status_code
                ctype = content_type(response)
                if stream and ctype == "text/event-stream":
                    return self._read_stream(response, on_token, emitted, call, t0)
                body = self._http.read(response)
        except Transient as exc:
            call["status"] = exc.status
            raise
        except Rejected as exc:
            call["status"] = exc.status
            raise self._client_error(exc.status, exc.message) from None
        text, model, usage, finish = self._parse_completion(body, ctype)
        if stream:  # the server ignored stream=true: deliver the whole text at once
            call["ttft_s"] = round(time.monotonic() - t0, 4)
            if text and on_token is not None:
                emitted.append(text)
                on_token(text)
        return text, model, usage, finish

    def _parse_completion(self, body: bytes, ctype: str):
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            snippet = body[:120].decode("utf-8", errors="replace")
            raise GeneratorReplyError(
                f"{self.endpoint} answered with a body that is not valid JSON ({ctype}, "
                f"starts with {snippet!r}); check that the base URL points to an "
                "OpenAI-compatible API (it usually ends in /v1)",
                endpoint=self.endpoint) from None
        if not isinstance(data, dict):
            raise GeneratorReplyError(f"{self.endpoint} answered JSON that is not an object",
                                 endpoint=self.endpoint)
        if data.get("error"):
            raise GeneratorReplyError(f"{self.endpoint} answered an error: "
                                      f"{error_message(body)}", endpoint=self.endpoint)
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise GeneratorReplyError(
                f"{self.endpoint} answered without any choice (no 'choices' list in the "
                "response); is it a chat-completions endpoint?", endpoint=self.endpoint)
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise GeneratorReplyError(f"{self.endpoint} answered a choice without a message",
                                 endpoint=self.endpoint)
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        text = content if isinstance(content, str) else ""
        return text, data.get("model"), data.get("usage"), choice.get("finish_reason")

    def _read_stream(self, response, on_token, emitted: list[str], call: dict, t0: float):
        """Server-sent events: `data:` lines, events separated by blank lines, `[DONE]`."""
        model = usage = finish = None
        data_lines: list[str] = []
        done = False

        def dispatch() -> bool:
            nonlocal model, usage, finish
            payload = "\n".join(data_lines).strip()
            data_lines.clear()
            if not payload:
                return False
            if payload == "[DONE]":
                return True
            try:
                chunk = json.loads(payload)
            except ValueError:
                raise GeneratorReplyError(
                    f"{self.endpoint} sent a stream event that is not valid JSON: "
                    f"{payload[:120]!r}", endpoint=self.endpoint) from None
            if not isinstance(chunk, dict):
                return False
            if chunk.get("error"):
                raise GeneratorReplyError(
                    f"{self.endpoint} reported an error in the stream: "
                    f"{error_message(payload)}", endpoint=self.endpoint)
            model = chunk.get("model") or model
            if chunk.get("usage"):
                usage = chunk["usage"]
            for choice in chunk.get("choices") or ():
                if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                    continue
                delta = choice.get("delta") or {}
                piece = delta.get("content") if isinstance(delta, dict) else None
                if isinstance(piece, str) and piece:
                    if not emitted:
                        call["ttft_s"] = round(time.monotonic() - t0, 4)
                    emitted.append(piece)
                    if on_token is not None:
                        on_token(piece)
                finish = choice.get("finish_reason") or finish
            return False

        for line in self._http.lines(response):
            if not line:
                done = dispatch()
                if done:
                    break
                continue
            if line.startswith(":"):
                continue  # comment / keep-alive
            name, _, value = line.partition(":")
            if name == "data":
                data_lines.append(value[1:] if value.startswith(" ") else value)
        if not done and data_lines:
            done = dispatch()
        if not done and finish is None:
            raise Transient("the stream ended before it was complete (no [DONE])",
                            kind="stream")
        return "".join(emitted), model, usage, finish

    @staticmethod
    def _usage(raw: Any, messages: list[dict], text: str) -> dict:
        if isinstance(raw, dict):
            prompt = raw.get("prompt_tokens")
            completion = raw.get("completion_tokens")
            if isinstance(prompt, int) and isinstance(completion, int):
                return {"prompt_tokens": prompt, "completion_tokens": completion,
                        "total_tokens": prompt + completion, "estimated": False}
        prompt = estimate_prompt_tokens(messages)
        completion = estimate_tokens(text)
        return {"prompt_tokens": prompt, "completion_tokens": completion,
                "total_tokens": prompt + completion, "estimated": True}


# --------------------------------------------------------------------------- local

DEFAULT_THREADS = 2  # measured on the project's 2-core machines (docs/answers.md)


def default_threads() -> int:
    """The local generator's threads when none is set: `DEFAULT_THREADS`, at most the
    CPUs this process may use."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(DEFAULT_THREADS, cpus))


class LocalGenerator:
    """A GGUF model run in this process by xllamacpp.

    xllamacpp embeds llama.cpp's server: loading the model starts it on 127.0.0.1 on a free
    port, and generation goes through `OpenAIGenerator` against it (same streaming, usage
    and error handling as a remote endpoint). The model loads on first use; `close()` (or
    leaving a `with` block) unloads it. `n_threads` None is `default_threads()`: two, or
    the CPUs when fewer. Measured on two cores (docs/answers.md, "Generated answers:
    checked for support"): two threads read the prompt 1.6-1.9x and write 1.2-1.4x
    faster than one when the second core is free, but 3-5x slower when another process
    keeps it busy; set PREUVE_LLM_THREADS (`llm_threads`) to 1 on a shared machine.
    """

    name = "local"

    def __init__(self, gguf_path: str | os.PathLike, n_ctx: int = 4096, *,
                 n_threads: int | None = None, max_tokens: int = 512, timeout: float = 300):
        path = Path(gguf_path).expanduser()
        if importlib.util.find_spec("xllamacpp") is None:
            raise GeneratorError(
                "the local generator needs the [local] extra (xllamacpp is not installed): "
                f"{install_hint('local')}, or use an OpenAI-compatible endpoint "
                "(PREUVE_LLM_BASE_URL) or the extractive generator")
        if not path.is_file():
            raise GeneratorError(f"GGUF model file not found: {path}")
        self.path = path
        self.model = path.stem
        self.n_ctx = n_ctx
        if n_threads is not None and n_threads < 1:
            raise GeneratorError(f"the local generator needs at least one thread, not "
                                 f"{n_threads} (PREUVE_LLM_THREADS)")
        self.n_threads = n_threads or default_threads()
        self.max_tokens = max_tokens
        self.timeout = timeout
        self._server: Any = None
        self._client: OpenAIGenerator | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return (f"LocalGenerator({str(self.path)!r}, n_ctx={self.n_ctx}, "
                f"n_threads={self.n_threads})")

    @property
    def base_url(self) -> str | None:
        return self._client.base_url if self._client else None

    def start(self) -> OpenAIGenerator:
        with self._lock:
            if self._client is None:
                import xllamacpp as xlc

                params = xlc.CommonParams()
                params.model.path = str(self.path)
                params.model_alias = {self.model}
                params.n_ctx = self.n_ctx
                params.n_predict = self.max_tokens
                params.n_parallel = 1
                params.cpuparams.n_threads = self.n_threads
                params.cpuparams_batch.n_threads = self.n_threads
                params.hostnames = ["127.0.0.1"]
                params.port = 0  # a free port
                params.ui = False
                params.warmup = False
                params.verbosity = 0
                try:
                    self._server = xlc.Server(params)
                except RuntimeError as exc:
                    raise GeneratorError(
                        f"xllamacpp could not load {self.path}: {exc} Is it a GGUF model "
                        f"file, and does n_ctx={self.n_ctx} fit in memory?") from None
                self._client = OpenAIGenerator(
                    self._server.listening_address.rstrip("/") + "/v1", self.model,
                    timeout=self.timeout, max_retries=1, backoff=0.2,
                    max_tokens=self.max_tokens)
            return self._client

    def generate(self, messages: list[dict], *, stream: bool = False,
                 on_token: Callable[[str], None] | None = None) -> Generation:
        try:
            generation = self.start().generate(messages, stream=stream, on_token=on_token)
        except GeneratorError as exc:
            for call in exc.calls:
                call["generator"] = self.name
            raise
        generation.generator = self.name
        for call in generation.calls:
            call["generator"] = self.name
        return generation

    def close(self) -> None:
        with self._lock:
            self._client = None
            self._server = None  # the server stops and the model unloads when released

    def __enter__(self) -> LocalGenerator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- registry

def _extractive(settings: Settings, **options: Any) -> None:
    return None  # the pipeline's own extractive answer: no model


def _openai(settings: Settings, *, model: str | None = None, base_url: str | None = None,
            **options: Any) -> OpenAIGenerator:
    overrides = {k: v for k, v in {"model": model, "base_url": base_url}.items() if v}
    return OpenAIGenerator.from_settings(settings, **overrides)


def _local(settings: Settings, *, gguf: str | None = None, **options: Any) -> LocalGenerator:
    if not gguf:
        raise GeneratorError("the local generator needs a GGUF model file (--gguf FILE)")
    return LocalGenerator(gguf, n_threads=settings.llm_threads)


for _spec in (
    GeneratorSpec("extractive", _extractive,
                  help="the best sentences of the passages, cited (no model)"),
    GeneratorSpec("openai", _openai,
                  help="any OpenAI-compatible endpoint (PREUVE_LLM_BASE_URL, PREUVE_LLM_MODEL, "
                       "PREUVE_LLM_API_KEY)"),
    GeneratorSpec("local", _local, help="a GGUF file run in this process (--gguf)"),
):
    generators.register(_spec.name, _spec, replace=True)
