"""One family of user-facing errors (`preuve.errors`), mapped once per front end: the CLI's
exit code per kind, the HTTP status per kind (a model server that fails is a 502 when it
answers garbage or an error, a 503 when it is down or keeps failing; never a 500 "internal
error"), the MCP tool error. Real parts: a real CLI subprocess, a real
uvicorn on 127.0.0.1, a real OpenAI-compatible server of the tests' own on 127.0.0.1."""

from __future__ import annotations

import json
import os

import httpx
import pytest
from conftest import EXAMPLES, copy_index, run_cli
from llm_server import Reply, ScriptedServer
from test_server_stream import sse_events

from preuve.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    PreuveError,
    Unavailable,
    UpstreamError,
)
from preuve.server.app import create_app
from preuve.server.runner import ServerThread

KEYS = {"pub-key-1": "public", "admin-key-9": "admin"}
PUBLIC = {"X-API-Key": "pub-key-1"}
QUESTION = "Combien de jours de télétravail par semaine ?"
LLM_ENV = {"PREUVE_LLM_MODEL": "test-model", "PREUVE_LLM_MAX_RETRIES": "0",
           "PREUVE_LLM_TIMEOUT": "5"}


def test_the_families_keep_the_types_callers_caught_before():
    # code that caught ValueError / KeyError / FileNotFoundError keeps working
    from preuve.errors import NoSuchFile

    assert issubclass(InvalidInput, ValueError) and issubclass(Conflict, ValueError)
    assert issubclass(NotFound, KeyError) and issubclass(NoSuchFile, FileNotFoundError)
    assert str(NotFound("no conversation 'x'")) == "no conversation 'x'"  # not re-quoted
    codes = {cls: (cls.exit_code, cls.http_status)
             for cls in (InvalidInput, NotFound, Conflict, Unavailable, UpstreamError)}
    assert codes == {InvalidInput: (2, 400), NotFound: (3, 404), Conflict: (4, 409),
                     Unavailable: (5, 503), UpstreamError: (5, 502)}
    from preuve.answer.generators import GeneratorError, GeneratorReplyError
    from preuve.embed import EmbedderError
    from preuve.server.config import ConfigError
    from preuve.server.uploads import UploadRefused

    assert issubclass(GeneratorError, Unavailable) and issubclass(EmbedderError, Unavailable)
    assert issubclass(GeneratorReplyError, UpstreamError)
    assert issubclass(ConfigError, InvalidInput)
    assert UploadRefused(415, "x").http_status == 415 and isinstance(UploadRefused(415, "x"),
                                                                      PreuveError)


# ------------------------------------------------------------------------------- CLI
def _error_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith("Error: "), lines
    return lines[0]


def test_cli_exit_code_says_the_kind_of_error(index_path, tmp_path):
    index = str(index_path)
    invalid = run_cli("search", "retours", "--as-of", "2026-13-01", "--index", index)
    assert invalid.returncode == 2 and "2026-13-01" in _error_line(invalid)
    missing = run_cli("forget", "handbook/nope.md", "--index", index)
    assert missing.returncode == 3 and "handbook/nope.md" in _error_line(missing)
    unknown = run_cli("chat", "Et ensuite ?", "--conversation", "ffffffffffff",
                      "--index", index)
    assert unknown.returncode == 3
    assert _error_line(unknown) == "Error: no conversation 'ffffffffffff'"
    # a keyword-only index asked for vectors: the request is what is wrong
    no_vectors = run_cli("search", "retours", "--embedder", "e5", "--method", "dense",
                         "--index", index)
    assert no_vectors.returncode == 2 and "no vectors" in _error_line(no_vectors)


def test_cli_exit_code_of_a_conflict(tmp_path, fresh_index):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nUn mot: quinconce.\n", encoding="utf-8")
    target = str(fresh_index)
    assert run_cli("ingest", str(folder), "--index", target).returncode == 0
    source = tmp_path / "other.sqlite"
    assert run_cli("ingest", str(folder), "--index", str(source)).returncode == 0
    refused = run_cli("migrate", "--from", str(source), "--to", target)
    assert refused.returncode == 4 and "not empty" in _error_line(refused)


def test_cli_exit_code_of_a_failing_model_server(index_path):
    with ScriptedServer([Reply(status=500, body={"error": {"message": "boom"}})]) as llm:
        result = run_cli("ask", QUESTION, "--audience", "public", "--generator", "openai",
                         "--base-url", llm.base_url, "--index", str(index_path),
                         env=LLM_ENV)
    assert len(llm.requests) == 1  # the model was asked, and failed
    assert result.returncode == 5 and "HTTP 500" in _error_line(result)
    assert result.stdout == ""


# ------------------------------------------------------------------------------ HTTP
@pytest.fixture(params=["http-500", "garbage", "down"])
def failing_llm(request):
    """A model server that answers 500, answers something that is not JSON, or is gone."""
    replies = {"http-500": [Reply(status=500, body={"error": {"message": "boom"}})],
               "garbage": [Reply(body=b"<html>not json</html>",
                                 headers={"Content-Type": "application/json"})],
               "down": [Reply(status=500)]}[request.param]
    with ScriptedServer(replies) as llm:
        if request.param == "down":
            llm.stop()
        yield request.param, llm


def test_a_failing_model_server_is_a_502_or_503_not_a_500(index_path, tmp_path, monkeypatch,
                                                    failing_llm):
    kind, llm = failing_llm
    # garbage: it answered wrongly (502); 500 again and again, or gone: gave up (503)
    status = 502 if kind == "garbage" else 503
    for name, value in {**LLM_ENV, "PREUVE_LLM_BASE_URL": llm.base_url}.items():
        monkeypatch.setenv(name, value)
    served = copy_index(index_path, tmp_path / "index.sqlite")
    app = create_app(served, {"api_keys": KEYS, "generator": "openai",
                              "upload_dir": str(tmp_path / "uploads")})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        r = http.post("/ask", json={"question": QUESTION}, headers=PUBLIC)
        assert r.status_code == status, r.text
        error = r.json()["error"]
        assert "Generator" in error and "internal error" not in error
        # the caller is not told where the model server is
        assert str(llm.port) not in r.text and "127.0.0.1" not in r.text
        with http.stream("POST", "/ask", json={"question": QUESTION, "stream": True},
                         headers=PUBLIC) as response:
            events = sse_events(list(response.iter_lines()))
        assert events[-1][0] == "error" and events[-1][1]["status"] == status
        # the same in a conversation, which stays as it was (nothing stored)
        cid = http.post("/conversations", headers=PUBLIC).json()["id"]
        r = http.post(f"/conversations/{cid}/messages", json={"question": QUESTION},
                      headers=PUBLIC)
        assert r.status_code == status
        assert http.get(f"/conversations/{cid}", headers=PUBLIC).json()["messages"] == []
        metrics = http.get("/metrics", headers=PUBLIC).json()["routes"]["POST /ask"]
        assert metrics["by_status"].get(str(status)) == 1 and "500" not in metrics["by_status"]
    if kind != "down":
        assert llm.requests  # the model server was really asked


def test_http_statuses_per_kind(index_path, tmp_path):
    served = copy_index(index_path, tmp_path / "index.sqlite")
    app = create_app(served, {"api_keys": KEYS, "upload_dir": str(tmp_path / "uploads")})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        bad_date = http.post("/search", json={"query": "retours", "as_of": "2026-13-01"},
                             headers=PUBLIC)
        assert bad_date.status_code == 400 and "2026-13-01" in bad_date.json()["error"]
        assert str(served) not in bad_date.text
        missing = http.get("/conversations/000000000000", headers=PUBLIC)
        assert missing.status_code == 404
        assert missing.json() == {"error": "no such conversation"}
        assert http.delete("/documents/nope", headers={"X-API-Key": "admin-key-9"}
                           ).json() == {"error": "no such document"}
        assert http.delete("/documents/nope", headers=PUBLIC).status_code == 403


def test_no_index_is_a_clear_error(tmp_path):
    from preuve.errors import NoSuchFile

    with pytest.raises(NoSuchFile, match="no index at"):
        create_app(tmp_path / "none.sqlite", {"api_keys": KEYS})
    result = run_cli("serve", "--index", str(tmp_path / "none.sqlite"), "--port", "1")
    assert result.returncode == 3 and "no index at" in _error_line(result)


# ------------------------------------------------------------------------------- MCP
def test_mcp_tool_errors_carry_the_message(tmp_path):
    pytest.importorskip("mcp")
    from test_mcp import _server, _session

    absent = tmp_path / "absent.sqlite"

    async def steps(session):
        return [await session.call_tool(name, args) for name, args in [
            ("where", {"subject": "factures"}),
            ("search", {"query": "retours", "as_of": "2026-13-01"}),
        ]]

    results = _session(_server(absent), steps)
    assert all(r.is_error for r in results)
    assert "no index at" in results[0].content[0].text  # NotFound, its message
    assert not absent.exists()


# ------------------------------------------------------------- bad input, every CLI verb
def _bad_inputs(tmp_path):
    """What a newcomer mistypes: an --index that is a text file, a folder, another
    program's SQLite database; reference files and configs that are not YAML."""
    import sqlite3

    (tmp_path / "notes.txt").write_text("not an index\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE contacts (name TEXT)")
    (tmp_path / "broken.yaml").write_text("{{{ not: yaml", encoding="utf-8")
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "damaged-model").mkdir()  # a reranker whose files were cut short
    (tmp_path / "damaged-model" / "model.onnx").write_bytes(b"\x08\x07ONNX" * 10)
    (tmp_path / "damaged-model" / "tokenizer.json").write_text("{", encoding="utf-8")
    (tmp_path / "damaged.gguf").write_bytes(b"GGUF" + bytes(60))
    return {name: str(tmp_path / name) for name in ("notes.txt", "folder", "other.db")}


EXAMPLE = str(EXAMPLES / "handbook" / "retours-v1.md")
VERB_ARGS = {  # each verb's own arguments ({tmp}: the test's folder)
    "ingest": [EXAMPLE], "status": [], "search": ["retours"], "where": ["factures"],
    "forget": ["a.md"], "ask": ["Quel est le délai de retour ?"],
    "chat": ["Quel est le délai de retour ?"], "calibrate": ["{tmp}/broken.yaml"],
    "eval": ["{tmp}/broken.yaml", "--answers"], "serve": ["--port", "1"], "mcp": [],
    "diff": ["retours-v1.md"], "watch": [EXAMPLE], "feedback": ["list"],
}
OWN_BAD_INPUT = {  # what else each verb is given wrong, on a good index ({index})
    "ingest": [["{tmp}/absent-folder", "--index", "{index}"],
               [EXAMPLE, "--chunk-words", "-3", "--index", "{index}"]],
    "search": [["retours", "--as-of", "2026-13-45", "--index", "{index}"],
               ["retours", "--method", "rerank", "--reranker", "{tmp}/folder",
                "--index", "{index}"],
               ["retours", "--method", "rerank", "--reranker", "{tmp}/damaged-model",
                "--index", "{index}"]],
    "calibrate": [["{tmp}/broken.yaml", "--index", "{index}"]],
    "eval": [["{tmp}/broken.yaml", "--answers", "--index", "{index}"],
             ["{tmp}/broken.json", "--index", "{index}"]],
    "serve": [["--config", "{tmp}/broken.yaml", "--index", "{index}", "--port", "1"]],
    "migrate": [["--from", "{tmp}/notes.txt", "--to", "{tmp}/copy.sqlite"],
                ["--from", "{index}", "--to", "{tmp}/other.db"]],
    "diff": [["absent.md", "--index", "{index}"]],
    "watch": [["{tmp}/absent-folder", "--index", "{index}"],
              [EXAMPLE, "--quiet-period", "-1", "--index", "{index}"]],
    "feedback": [["list", "--since", "2026-13-45", "--index", "{index}"],
                 ["review", "999", "--refuse", "--index", "{index}"],
                 ["export", "--to-eval", "{tmp}/folder", "--index", "{index}"]],
    "ask": [["Quel est le délai de retour ?", "--audience", "", "--index", "{index}"],
            ["Quel est le délai de retour ?", "--generator", "local", "--gguf",
             "{tmp}/damaged.gguf", "--as-of", "none", "--index", "{index}"]],
}


def test_every_verb_with_bad_input_says_one_error_and_never_a_traceback(tmp_path):
    """Issue 21 item 2: each verb of the CLI (a new verb must be added here) given a
    bad --index or a bad argument of its own exits non-zero with an `Error:` line, and no
    exception escapes (click's runner, in-process: an escaped exception is what prints a
    traceback)."""
    from click.testing import CliRunner

    from preuve.cli import cli

    assert set(VERB_ARGS) | {"migrate"} == set(cli.commands)
    bad = _bad_inputs(tmp_path)
    index = str(tmp_path / "index.sqlite")
    assert run_cli("ingest", EXAMPLE, "--index", index).returncode == 0
    cases = [[verb, *args, "--index", where] for verb, args in VERB_ARGS.items()
             for where in bad.values()]
    cases += [[verb, *args] for verb, runs in OWN_BAD_INPUT.items() for args in runs]
    env = {"PREUVE_INDEX": None, "PREUVE_AUDIENCE": None, "PREUVE_EMBEDDER": "none"}
    for case in cases:
        args = [a.replace("{tmp}", str(tmp_path)).replace("{index}", index) for a in case]
        result = CliRunner().invoke(cli, args, env=env, input="")
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args, repr(result.exception))
        assert result.exit_code != 0, (args, result.output)
        assert "Traceback" not in result.output
        assert "Error" in result.output or "error:" in result.output, (args, result.output)
    # nothing was made of the foreign files
    assert (tmp_path / "notes.txt").read_text() == "not an index\n"
    assert not list((tmp_path / "folder").iterdir())
    import sqlite3

    with sqlite3.connect(bad["other.db"]) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["contacts"]


def test_a_full_disk_during_ingest_is_one_line_and_the_index_is_kept(tmp_path):
    """The file size limit of the process (RLIMIT_FSIZE: the kernel refuses the write past
    it, as a full disk does) stops an ingest's write: one line naming the index and the
    cause, exit 5, the index as it was."""
    import resource
    import subprocess
    import sys

    from conftest import integrity_ok, state_digest

    index = tmp_path / "index.sqlite"
    assert run_cli("ingest", EXAMPLE, "--index", str(index)).returncode == 0
    before = state_digest(index)
    limit = index.stat().st_size + 16_384

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    result = subprocess.run(
        [sys.executable, "-m", "preuve", "ingest", str(EXAMPLES), "--index", str(index),
         "--embedder", "none"], capture_output=True, text=True, env=env,
        preexec_fn=small_disk, timeout=120)
    assert result.returncode == 5, result.stderr
    line = _error_line(result)
    assert str(index) in line and "disk" in line
    assert state_digest(index) == before
    integrity_ok(index)


class _CuttingRelay:
    """A TCP relay on 127.0.0.1 to a PostgreSQL server that cuts every connection, and
    stops accepting new ones, once its clients have sent `limit` bytes: the database goes
    away in the middle of a write."""

    def __init__(self, host: str, port: int, limit: int):
        import socket
        import threading

        self.target, self.limit, self.sent = (host, port), limit, 0
        self.lock, self.cut, self.sockets = threading.Lock(), threading.Event(), []
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        import socket
        import threading

        while not self.cut.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, upstream]
            for src, dst, counted in ((client, upstream, True), (upstream, client, False)):
                threading.Thread(target=self._pipe, args=(src, dst, counted),
                                 daemon=True).start()

    def _pipe(self, src, dst, counted):
        try:
            while data := src.recv(65536):
                if counted:
                    with self.lock:
                        self.sent += len(data)
                    if self.sent > self.limit:
                        self.close()
                        return
                dst.sendall(data)
        except OSError:
            pass

    def close(self):
        import socket

        self.cut.set()
        self.server.close()
        with self.lock:
            for sock in self.sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                    sock.close()
                except OSError:
                    pass


def test_a_database_that_goes_away_during_ingest_is_one_error_line(pg_base):
    """Issue 21 item 2: the PostgreSQL server gone in the middle of an ingest printed a
    40-line traceback; now one `Error:` line naming the index and the cause, exit 5, and
    the index keeps what it held."""
    from urllib.parse import urlsplit

    from conftest import pg_location

    location = pg_location(pg_base)
    assert run_cli("ingest", EXAMPLE, "--index", location).returncode == 0
    before = run_cli("status", "--index", location, "--json").stdout
    address = urlsplit(location)
    relay = _CuttingRelay(address.hostname, address.port, limit=300_000)
    through = location.replace(f"{address.hostname}:{address.port}",
                               f"127.0.0.1:{relay.port}")
    result = run_cli("ingest", str(EXAMPLES), "--index", through, timeout=120)
    assert relay.cut.is_set()
    assert result.returncode == 5, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and "went away" in errors[0] and f":{relay.port}/" in errors[0]
    after = run_cli("status", "--index", location, "--json").stdout
    assert json.loads(after)["documents"] == json.loads(before)["documents"] == 1
