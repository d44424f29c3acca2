"""Load on the HTTP API: requests/s and p50/p95 latency of `POST /search` (hybrid) and
`POST /ask` (extractive) with 1, 8 and 32 concurrent clients, against a real `preuve serve`.

    .venv/bin/python bench/serve_load.py                 # 30 s per route and level
    .venv/bin/python bench/serve_load.py --quick         # 5 s per route and level
    .venv/bin/python bench/serve_load.py --seconds 10 --levels 1,8

The script copies the sample corpus (examples/handbook, examples/facturo) under bench/out/,
indexes it with the e5 embedder once (cached: bench/out/serve-e5.sqlite; delete it to
rebuild), starts `preuve serve` on 127.0.0.1 at a free port with a config file of its own
(bench/out/serve-load.yaml: one public API key, and the per-key and per-address rate
limits raised out of the way, since every client here is one key on one address: with the
defaults, 20 requests/s per key, the bench measured the limit, not the server), waits for
`GET /health`, and stops the server at the end. Traffic goes to the loopback address only,
and every loop is bounded in time.

A second, short run then proves the limit itself: a server with the default limits, one
key, requests back to back for `LIMIT_SECONDS`: some must be refused with 429 and a
`Retry-After` header, the rest answered.

Each client is a thread with its own keep-alive `http.client` connection, sending the
reference questions of examples/questions.yaml readable by the public audience in turn.
A request counts as an error unless it gets a 200 with a JSON body of the expected shape;
errors are counted and printed (zero expected). Before the measured runs, a short warm-up at
the highest level loads the model into every pooled index. Latency is the client's
wall-clock time per request; requests/s = completed requests / elapsed time of the run. The
clients share the machine's cores with the server: on 2 cores, figures at 32 clients say
more about queueing than about the engine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, machine_note, percentile, table  # noqa: E402

HOST = "127.0.0.1"  # loopback only
API_KEY = "bench-public-key"
INDEX = OUT / "serve-e5.sqlite"
CORPUS = OUT / "serve-corpus"
LEVELS = (1, 8, 32)
WARMUP_SECONDS = 3.0
REQUEST_TIMEOUT = 60.0


# ------------------------------------------------------------------------------ corpus
def build_index(index: Path = INDEX) -> Path:
    """The sample corpus indexed with e5 (built once, then reused)."""
    if index.exists():
        return index
    from preuve import Index

    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    CORPUS.mkdir(parents=True)
    shutil.copytree(ROOT / "examples" / "handbook", CORPUS / "handbook")
    shutil.copytree(ROOT / "examples" / "facturo", CORPUS / "facturo",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    print(f"indexing {CORPUS} with e5 into {index} …", file=sys.stderr)
    partial = index.with_suffix(".partial")
    for leftover in OUT.glob(partial.name + "*"):
        leftover.unlink()
    with Index(partial, embedder="e5") as built:
        report = built.ingest([CORPUS])
    if not report.ok:
        raise SystemExit(f"ingest failed: {report.failed}")
    partial.rename(index)
    return index


def public_questions() -> list[str]:
    """The reference questions a public caller may ask (answerable ones and refusals)."""
    items = yaml.safe_load((ROOT / "examples" / "questions.yaml").read_text(encoding="utf-8"))
    questions = [item["question"] for item in items if item.get("audience") == "public"]
    if not questions:
        raise SystemExit("examples/questions.yaml has no public question")
    return questions


# ------------------------------------------------------------------------------ server
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def has_serve_command() -> bool:
    probe = subprocess.run([sys.executable, "-m", "preuve", "serve", "--help"],
                           capture_output=True, cwd=ROOT, timeout=60)
    return probe.returncode == 0


UNLIMITED = 1_000_000.0  # requests/s: the rate limits out of the bench's way
LIMIT_SECONDS = 3.0


def server_config(limited: bool) -> Path:
    """The server's settings for this run: the bench's key; its own limits, or the
    defaults (`limited`)."""
    config = {"api_keys": {API_KEY: "public"}}
    if not limited:
        config |= {"rate_per_key": UNLIMITED, "rate_per_ip": UNLIMITED}
    path = OUT / f"serve-load{'-limited' if limited else ''}.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


class Server:
    """`preuve serve` as a subprocess on the loopback address; its log goes to a file."""

    def __init__(self, index: Path, port: int, factory: bool = False, limited: bool = False):
        self.index, self.port = index, port
        self.log_path = OUT / f"serve-load{'-limited' if limited else ''}.log"
        config = server_config(limited)
        if factory:  # the same app, started by uvicorn without the CLI command
            code = ("import sys, uvicorn; from preuve.server.app import create_app; "
                    "uvicorn.run(create_app(sys.argv[1], sys.argv[4]), host=sys.argv[2], "
                    "port=int(sys.argv[3]), log_level='warning')")
            self.command = [sys.executable, "-c", code, str(index), HOST, str(port),
                            str(config)]
        else:
            self.command = [sys.executable, "-m", "preuve", "serve", "--host", HOST,
                            "--port", str(port), "--index", str(index), "--config",
                            str(config)]
        self.process: subprocess.Popen | None = None

    def start(self, ready_timeout: float = 120.0) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
        self.log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(self.command, stdout=self.log,
                                        stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server exited ({self.process.returncode}):\n"
                                 + self.tail())
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=5)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise SystemExit(f"the server was not ready after {ready_timeout:.0f} s:\n"
                         + self.tail())

    def tail(self, lines: int = 30) -> str:
        self.log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        if getattr(self, "log", None):
            self.log.close()


# ------------------------------------------------------------------------------ load
@dataclass
class Route:
    name: str
    path: str
    body: Callable[[str], dict]
    check: Callable[[dict], bool]


ROUTES = [
    Route("/search (hybrid)", "/search",
          lambda q: {"query": q, "method": "hybrid", "k": 10},
          lambda data: isinstance(data.get("hits"), list)),
    Route("/ask (extractive)", "/ask",
          lambda q: {"question": q, "k": 5},
          lambda data: isinstance(data.get("answer"), str) and "citations" in data),
]


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0


def client(port: int, route: Route, questions: list[str], start: int, deadline: float,
           run: Run, lock: threading.Lock) -> None:
    """One client: requests back to back on one keep-alive connection until `deadline`."""
    headers = {"Content-Type": "application/json", "X-API-Key": API_KEY}
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    latencies, errors = [], []
    i = start
    try:
        while time.monotonic() < deadline:
            body = json.dumps(route.body(questions[i % len(questions)])).encode()
            i += 1
            began = time.perf_counter()
            try:
                conn.request("POST", route.path, body=body, headers=headers)
                response = conn.getresponse()
                payload = response.read()
                took = time.perf_counter() - began
                if response.status != 200:
                    errors.append(f"HTTP {response.status}: {payload[:200]!r}")
                elif not route.check(json.loads(payload)):
                    errors.append(f"unexpected body: {payload[:200]!r}")
                else:
                    latencies.append(took)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    finally:
        conn.close()
        with lock:
            run.latencies.extend(latencies)
            run.errors.extend(errors)


def load(port: int, route: Route, questions: list[str], clients: int,
         seconds: float) -> Run:
    run, lock = Run(), threading.Lock()
    began = time.perf_counter()
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=client, daemon=True,
                                args=(port, route, questions, n * 7, deadline, run, lock))
               for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + REQUEST_TIMEOUT + 5)
    run.elapsed = time.perf_counter() - began
    return run


def limit_check(index: Path, factory: bool) -> tuple[int, int, int, list[str]]:
    """(answered, refused with 429 + Retry-After, 429 without it, other errors) of one
    key sending `/search` requests back to back to a server with the default limits."""
    server = Server(index, free_port(), factory=factory, limited=True)
    server.start()
    answered = limited = bare = 0
    errors: list[str] = []
    headers = {"Content-Type": "application/json", "X-API-Key": API_KEY}
    body = json.dumps({"query": "retours", "method": "bm25", "k": 3}).encode()
    try:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=REQUEST_TIMEOUT)
        deadline = time.monotonic() + LIMIT_SECONDS
        while time.monotonic() < deadline:
            conn.request("POST", "/search", body=body, headers=headers)
            response = conn.getresponse()
            payload = response.read()
            if response.status == 200:
                answered += 1
            elif response.status == 429:
                if (response.getheader("Retry-After") or "").isdigit():
                    limited += 1
                else:
                    bare += 1
            else:
                errors.append(f"HTTP {response.status}: {payload[:200]!r}")
        conn.close()
    finally:
        server.stop()
    return answered, limited, bare, errors


# ------------------------------------------------------------------------------ main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="Duration of each route × level run (default 30).")
    parser.add_argument("--quick", action="store_true", help="5 s per run.")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)),
                        help="Concurrent clients, comma-separated (default 1,8,32).")
    parser.add_argument("--index", type=Path, default=None,
                        help="Serve this index instead of the cached e5 sample index.")
    parser.add_argument("--app-factory", action="store_true",
                        help="Start preuve.server.app:create_app with uvicorn directly "
                             "instead of `preuve serve` (checkouts without the command).")
    args = parser.parse_args()
    seconds = 5.0 if args.quick else args.seconds
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    if seconds <= 0 or not levels or min(levels) < 1:
        parser.error("--seconds must be > 0 and --levels positive integers")

    OUT.mkdir(parents=True, exist_ok=True)
    if not args.app_factory and not has_serve_command():
        print("`preuve serve` is not available in this checkout: use --app-factory.",
              file=sys.stderr)
        return 2
    index = args.index or build_index()
    questions = public_questions()
    server = Server(index, free_port(), factory=args.app_factory)
    print(f"starting: {' '.join(server.command[1:])}", file=sys.stderr)
    server.start()
    rows, total_errors, warmup_errors = [], 0, 0
    try:
        for route in ROUTES:
            warm = load(server.port, route, questions, max(levels), min(WARMUP_SECONDS, seconds))
            warmup_errors += len(warm.errors)
            for level in levels:
                run = load(server.port, route, questions, level, seconds)
                done = len(run.latencies)
                rows.append([route.name, level, done, done / run.elapsed,
                             percentile(run.latencies, 50) * 1000,
                             percentile(run.latencies, 95) * 1000, len(run.errors)])
                total_errors += len(run.errors)
                print(f"{route.name} × {level}: {done} ok, {len(run.errors)} errors",
                      file=sys.stderr)
                for error in sorted(set(run.errors))[:5]:
                    print(f"  error: {error}", file=sys.stderr)
    finally:
        server.stop()

    print(f"\n## HTTP API under load ({seconds:g} s per run, sample corpus, e5 index, "
          f"{len(questions)} public questions in turn)\n")
    print(table(["route", "clients", "requests", "req/s", "p50 ms", "p95 ms", "errors"],
                rows))
    print(f"\nerrors: {total_errors} in the measured runs, {warmup_errors} in the warm-ups.")
    answered, limited, bare, errors = limit_check(index, args.app_factory)
    print(f"limit check ({LIMIT_SECONDS:g} s, one key, the default limits): {answered} "
          f"answered, {limited} refused with 429 and Retry-After, {bare} 429 without it, "
          f"{len(errors)} other errors")
    print(machine_note() + f" Load average at the end: {os.getloadavg()[0]:.1f} (the "
          "machine may be shared: compare runs made together).")
    limit_holds = limited > 0 and not bare and not errors
    return 1 if total_errors or warmup_errors or not limit_holds else 0


if __name__ == "__main__":
    sys.exit(main())
