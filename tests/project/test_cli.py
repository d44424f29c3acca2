"""The `preuve` command: JSON shapes scripts depend on, exit codes, error messages, index
location (--index, PREUVE_INDEX), status and forget.

Most calls go through click's runner (in-process, same code path, fast); the ones about
the process itself (`python -m preuve`, exit codes, environment) run a real subprocess."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner
from conftest import (
    AFTER_SWITCH,
    KEYWORD_ONLY,
    chunks_of,
    copy_corpus,
    copy_index,
    count,
    rows,
    run_cli,
)

from preuve.cli import cli

HIT_FIELDS = {"rank", "score", "chunk_id", "doc_id", "path", "kind", "title", "heading", "page",
              "page_label", "start_line", "end_line", "symbol", "text"}


def invoke(*args: str, env: dict | None = None):
    """Run the CLI in-process with a clean environment (keyword-only indexes)."""
    base = {"PREUVE_INDEX": None, "PREUVE_AUDIENCE": None, "PREUVE_EMBEDDER": KEYWORD_ONLY}
    return CliRunner().invoke(cli, list(args), env={**base, **(env or {})},
                              catch_exceptions=False)


def invoke_json(*args: str, **kwargs):
    result = invoke(*args, "--json", **kwargs)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def own_index(index_path, tmp_path):
    """A private copy of the session index (same store), for commands that modify it."""
    return copy_index(index_path, tmp_path / "copy.sqlite")


# ---------------------------------------------------------------------------- process


def test_python_m_preuve_help():
    result = run_cli("--help")
    assert result.returncode == 0, result.stderr
    for verb in ("ingest", "search", "where", "status", "forget"):
        assert re.search(rf"^\s+{verb}\b", result.stdout, re.M), verb


def test_ingest_exit_code_and_per_file_errors(tmp_path, fresh_index):
    corpus = copy_corpus(tmp_path / "examples")
    pdf = (corpus / "handbook" / "teletravail.pdf").read_bytes()
    (corpus / "handbook" / "broken.pdf").write_bytes(pdf[:4000])
    (corpus / "handbook" / "notes.txt").write_bytes(bytes(range(256)) * 8)
    db = fresh_index
    result = run_cli("ingest", str(corpus), "--index", str(db))
    assert result.returncode == 1, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2, result.stderr
    assert any(e.startswith("error: handbook/broken.pdf: ") and len(e) > 30 for e in errors)
    assert any(e.startswith("error: handbook/notes.txt: ") and len(e) > 30 for e in errors)
    assert "Traceback" not in result.stderr
    # the good files are in
    paths = {d["path"] for d in rows(db, "SELECT path FROM documents")}
    assert {"handbook/teletravail.pdf", "handbook/catalogue.md"} <= paths
    assert not paths & {"handbook/broken.pdf", "handbook/notes.txt"}
    # and a clean folder gives exit code 0
    (corpus / "handbook" / "broken.pdf").unlink()
    (corpus / "handbook" / "notes.txt").unlink()
    assert invoke("ingest", str(corpus), "--index", str(db)).exit_code == 0


def test_preuve_index_environment_variable(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("---\naccess: public\n---\n# A\n\nQuetzalcoatl.\n",
                                 encoding="utf-8")
    env_index = tmp_path / "from-env.sqlite"
    env = {"PREUVE_INDEX": str(env_index)}
    assert run_cli("ingest", str(folder), env=env, cwd=tmp_path).returncode == 0
    assert env_index.exists()
    assert not (tmp_path / ".preuve").exists()  # the default location was not used
    monkeypatch.chdir(tmp_path)
    hits = invoke_json("search", "quetzalcoatl", "--method", "bm25", env=env)
    assert [h["path"] for h in hits] == ["a.md"]
    # --index wins over the environment: no index there, and none made (issue 21 item 2)
    other = tmp_path / "other.sqlite"
    refused = run_cli("status", "--index", str(other), env=env, cwd=tmp_path)
    assert refused.returncode == 3 and not other.exists()
    assert invoke_json("status", env=env)["documents"] == 1
    assert not (tmp_path / ".preuve").exists()


def test_bad_as_of_is_a_clear_error(index_path):
    result = run_cli("search", "retour", "--as-of", "2026-13-01", "--index", str(index_path))
    assert result.returncode != 0
    assert "2026-13-01" in result.stderr and "--as-of" in result.stderr
    assert "Traceback" not in result.stderr
    for value in ("2026-13-01", "yesterday"):
        result = invoke("where", "numérotation", "--as-of", value, "--index", str(index_path))
        assert result.exit_code != 0 and value in result.output


# ------------------------------------------------------------------------------ search


def test_search_json_shape(index_path):
    hits = invoke_json("search", "LB-1", "--index", str(index_path), "--method", "bm25",
                       "-k", "4", "--as-of", "none")
    assert isinstance(hits, list) and len(hits) == 4
    for hit in hits:
        assert HIT_FIELDS <= set(hit), HIT_FIELDS - set(hit)
        assert isinstance(hit["score"], float) and isinstance(hit["text"], str)
    assert [h["rank"] for h in hits] == [1, 2, 3, 4]
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    top = hits[0]
    assert (top["path"], top["kind"], top["page"], top["symbol"]) == (
        "handbook/catalogue.md", "markdown", None, None)
    assert "LB-1" in top["text"] and isinstance(top["start_line"], int)
    (stored,) = rows(index_path, "SELECT * FROM chunks WHERE chunk_id = ?", (top["chunk_id"],))
    assert (stored["doc_id"], stored["start_line"], stored["end_line"], stored["heading"]) == (
        top["doc_id"], top["start_line"], top["end_line"], top["heading"])


def test_search_json_pdf_and_code_positions(index_path):
    (pdf,) = invoke_json("search", "télétravailler jours par semaine", "--kind", "pdf",
                         "-k", "1", "--index", str(index_path), "--method", "bm25")
    assert (pdf["page"], pdf["page_label"], pdf["start_line"]) == (2, "1", None)
    (code,) = invoke_json("search", "PALIERS_RELANCE", "--kind", "code", "-k", "1",
                          "--index", str(index_path), "--method", "bm25")
    assert code["symbol"] == "PALIERS_RELANCE" and code["page"] is None
    assert code["start_line"] == code["end_line"]


def test_search_filters_on_the_command_line(index_path):
    base = ("--index", str(index_path), "--method", "bm25", "-k", "50")
    public = invoke_json("search", "seuils de remboursement", *base, "--audience", "public")
    assert public and {h["path"] for h in public}.isdisjoint({"handbook/escalade-retours.md"})
    env_public = invoke_json("search", "seuils de remboursement", *base,
                             env={"PREUVE_AUDIENCE": "public"})
    assert [h["chunk_id"] for h in env_public] == [h["chunk_id"] for h in public]
    after = invoke_json("search", "délai de retour", *base, "--as-of", AFTER_SWITCH,
                        "--audience", "public")
    assert "handbook/retours-v2.md" in {h["path"] for h in after}
    assert "handbook/retours-v1.md" not in {h["path"] for h in after}
    code = invoke_json("search", "facture", *base, "--path", "facturo/")
    assert code and all(h["path"].startswith("facturo/") for h in code)


def test_search_text_output_has_citation_labels(index_path):
    result = invoke("search", "LB-1", "--index", str(index_path), "--method", "bm25", "-k", "2")
    assert result.exit_code == 0
    assert re.search(r"^\s*1\. handbook/catalogue\.md:\d+-\d+", result.stdout, re.M)


def test_unknown_kind_is_a_clear_error(index_path):
    result = invoke("search", "x", "--kind", "spreadsheet", "--index", str(index_path))
    assert result.exit_code != 0 and "spreadsheet" in result.output


# ------------------------------------------------------------------------------- where


def test_where_text_format(index_path):
    result = invoke("where", "où est gérée la numérotation des factures", "--index",
                    str(index_path), "--method", "bm25")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines and lines[0].startswith("facturo/numerotation.py:")
    for line in lines:
        assert re.fullmatch(r"[\w./-]+\.py:\d+  [a-z]+ [\w.<>, -]+", line), line


def test_where_json(index_path, corpus):
    hits = invoke_json("where", "PALIERS_RELANCE", "--index", str(index_path),
                       "--method", "bm25")
    assert hits and all(HIT_FIELDS <= set(h) for h in hits)
    assert {h["kind"] for h in hits} == {"code"}
    top = hits[0]
    assert (top["path"], top["symbol"]) == ("facturo/relances.py", "PALIERS_RELANCE")
    line = (corpus / "facturo" / "relances.py").read_text("utf-8").split("\n")[
        top["start_line"] - 1]
    assert line.startswith("PALIERS_RELANCE")


# ------------------------------------------------------------------------------ status


def test_status_json(index_path):
    stats = invoke_json("status", "--index", str(index_path))
    assert stats["documents"] == count(index_path, "documents")
    assert stats["chunks"] == count(index_path, "chunks")
    assert sum(k["chunks"] for k in stats["by_kind"].values()) == stats["chunks"]
    assert sum(k["documents"] for k in stats["by_kind"].values()) == stats["documents"]
    assert {"pdf", "docx", "html", "markdown", "text", "code"} <= set(stats["by_kind"])
    assert stats["size_bytes"] > 0
    assert stats["last_ingest"]["added"] == stats["documents"]
    assert isinstance(stats["schema_version"], int)
    text = invoke("status", "--index", str(index_path)).stdout
    assert f"documents  {stats['documents']}" in text



def test_two_folders_with_a_file_of_the_same_path_are_told_apart(tmp_path, fresh_index):
    """`ingest a/` then `ingest b/`, both holding guide.md: the two documents are cited
    "guide.md" alike. The ingest that makes it so says it, naming the other folder, and
    the report carries it; a path no other folder has, an unchanged re-ingest and one
    ingest of their common folder say nothing."""
    for name, days in (("a", 30), ("b", 90)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "guide.md").write_text(
            f"# Guide\n\nThe retention period is {days} days.\n", encoding="utf-8")
    (tmp_path / "b" / "other.md").write_text("# Other\n\nNothing else.\n", encoding="utf-8")
    first = run_cli("ingest", str(tmp_path / "a"), "--index", str(fresh_index))
    assert first.returncode == 0 and "note:" not in first.stderr, first.stderr
    second = run_cli("ingest", str(tmp_path / "b"), "--index", str(fresh_index))
    assert second.returncode == 0, second.stderr
    notes = [line for line in second.stderr.splitlines() if line.startswith("note:")]
    assert notes == [f"note: guide.md: also under {tmp_path / 'a'}, cited with the same "
                     "path; ingest their common folder to tell them apart"], second.stderr
    again = invoke_json("ingest", str(tmp_path / "b"), "--index", str(fresh_index))
    assert again["cited_alike"] == [] and again["unchanged"] == 2, again
    # status keeps saying it
    status = invoke_json("status", "--index", str(fresh_index))
    assert status["cited_alike"] == {"guide.md": [str(tmp_path / "a"), str(tmp_path / "b")]}
    assert "cited alike guide.md: under" in invoke("status", "--index",
                                                   str(fresh_index)).output
    whole = run_cli("ingest", str(tmp_path), "--index", str(tmp_path / "whole.sqlite"))
    assert whole.returncode == 0 and "note:" not in whole.stderr, whole.stderr


def test_the_ingest_line_says_why_fewer_passages_were_embedded_than_written(tmp_path,
                                                                           fresh_index):
    """Trial 15 read "1303 chunks written, 1297 passages embedded" and found no reason for
    the difference: vectors are cached by the text embedded, so a passage whose text was
    embedded before (a file edited in one place and re-ingested) is not embedded again;
    the line says so."""
    folder = tmp_path / "docs"
    folder.mkdir()
    page = folder / "guide.md"
    page.write_text("# Install\n\nRun the installer as root.\n\n# Remove\n\n"
                    "Run the uninstaller.\n", encoding="utf-8")
    default = {"PREUVE_EMBEDDER": None}  # the bundled model
    first = invoke("ingest", str(folder), "--index", str(fresh_index), env=default).stdout
    assert "2 chunks written, 2 passages embedded\n" in first, first
    page.write_text(page.read_text(encoding="utf-8") + "\n# Upgrade\n\nRun the upgrader.\n",
                    encoding="utf-8")
    second = invoke("ingest", str(folder), "--index", str(fresh_index), env=default).stdout
    assert "3 chunks written, 1 passages embedded (2 had the text of one already embedded)" \
        in second, second


def test_ingest_json_is_quiet_and_parseable(tmp_path, fresh_index):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nTexte.\n", encoding="utf-8")
    (folder / "b.bin").write_bytes(b"\x00\x01")
    result = invoke("ingest", str(folder), "--index", str(fresh_index), "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["added"] == ["a.md"] and report["ok"] is True
    assert [p["path"] for p in report["skipped"]] == ["b.bin"]
    assert result.stderr == ""


# ------------------------------------------------------------------------------ forget


def test_forget_by_path(own_index):
    before = count(own_index, "chunks")
    gone = len(chunks_of(own_index, "handbook/catalogue.md"))
    assert gone
    result = invoke("forget", "handbook/catalogue.md", "--index", str(own_index))
    assert result.exit_code == 0 and "handbook/catalogue.md" in result.stdout
    assert chunks_of(own_index, "handbook/catalogue.md") == []
    assert count(own_index, "chunks") == before - gone
    hits = invoke_json("search", "LB-1", "--index", str(own_index), "--method", "bm25")
    assert "handbook/catalogue.md" not in {h["path"] for h in hits}


def test_forget_by_doc_id_and_folder(own_index):
    removed = invoke_json("forget", "retours-v1", "--index", str(own_index))
    assert removed == [{"doc_id": "retours-v1", "path": "handbook/retours-v1.md"}]
    assert chunks_of(own_index, "handbook/retours-v1.md") == []
    assert chunks_of(own_index, "handbook/retours-v2.md")
    removed = invoke_json("forget", "facturo", "--index", str(own_index))
    assert {d["path"] for d in removed} >= {"facturo/numerotation.py", "facturo/relances.py"}
    assert rows(own_index, "SELECT * FROM chunks WHERE path LIKE 'facturo/%'") == []


def test_forget_unknown_target_is_a_clear_error(own_index):
    before = count(own_index, "chunks")
    result = invoke("forget", "handbook/nope.md", "--index", str(own_index))
    assert result.exit_code != 0
    assert "handbook/nope.md" in result.output
    assert count(own_index, "chunks") == before


READ_VERBS = [("status",), ("search", "quetzalcoatl"), ("where", "invoice numbering"),
              ("ask", "Combien de jours ?"), ("chat", "Combien de jours ?"),
              ("forget", "a.md"), ("calibrate", "questions.yaml"),
              ("eval", "questions.yaml", "--answers")]


@pytest.mark.parametrize("verb", READ_VERBS, ids=[v[0] for v in READ_VERBS])
def test_read_commands_refuse_a_missing_index_in_one_line(tmp_path, verb):
    """A typo in --index (issue 21 item 2): one line naming the path and the command that
    builds an index, exit 3, nothing created (not the file, not its folder)."""
    (tmp_path / "questions.yaml").write_text(
        '- {question: "Combien ?", relevant: [{path: a.md}]}\n'
        '- {question: "Qui ?", refuse: true}\n', encoding="utf-8")
    typo = tmp_path / "indxe" / "index.sqlite"
    result = run_cli(*verb, "--index", str(typo), cwd=tmp_path)
    assert result.returncode == 3, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert str(typo) in lines[0] and "preuve ingest" in lines[0]
    assert not typo.parent.exists()


def test_the_cli_caps_a_question_and_a_query_as_http_does(tmp_path):
    """The CLI took a 120 KB question (6.9 s, 914 MB); it now refuses what HTTP refuses."""
    from preuve.models import QUERY_LIMIT, QUESTION_LIMIT

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nQuetzalcoatl.\n", encoding="utf-8")
    index = tmp_path / "index.sqlite"
    assert run_cli("ingest", str(folder), "--index", str(index)).returncode == 0
    for args, limit in ((("ask", "q" * (QUESTION_LIMIT + 1)), QUESTION_LIMIT),
                        (("search", "q" * (QUERY_LIMIT + 1)), QUERY_LIMIT)):
        result = run_cli(*args, "--index", str(index))
        assert result.returncode == 2 and f"at most {limit:,}" in result.stderr
    assert run_cli("search", "   ", "--index", str(index)).returncode == 2
    assert run_cli("ask", "q" * QUESTION_LIMIT, "--index", str(index)).returncode == 0


def test_status_says_when_the_dictionaries_are_missing(tmp_path):
    """Without the FreeDict dictionaries, translation was skipped silently (issue 21 item
    9): `status` says so and what it costs, and --json carries it."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nQuetzalcoatl.\n", encoding="utf-8")
    index = tmp_path / "index.sqlite"
    assert run_cli("ingest", str(folder), "--index", str(index)).returncode == 0
    empty = tmp_path / "no-dictionaries"
    empty.mkdir()
    env = {"PREUVE_DICT_DIR": str(empty), "PREUVE_CACHE": str(tmp_path / "cache")}
    shown = run_cli("status", "--index", str(index), env=env)
    assert shown.returncode == 0 and "dictionaries missing" in shown.stdout
    data = json.loads(run_cli("status", "--index", str(index), "--json", env=env).stdout)
    assert data["languages"]["dictionaries"] is False


def test_status_and_serve_say_what_each_audience_reads(tmp_path):
    """Unlabelled documents are the operator's only; the README's `k-pub:public` key then
    read nothing, silently (issue 21 item 1). `status` counts what each audience reads and
    `serve` warns at start for an audience that reads no document."""
    import subprocess
    import sys
    import time

    from preuve.server.runner import free_port

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nQuetzalcoatl.\n", encoding="utf-8")
    index = tmp_path / "index.sqlite"
    assert run_cli("ingest", str(folder), "--index", str(index)).returncode == 0
    shown = run_cli("status", "--index", str(index))
    assert "audience   public: reads 0 documents" in shown.stdout
    assert "unlabelled 1 documents only the operator reads" in shown.stdout
    data = json.loads(run_cli("status", "--index", str(index), "--json").stdout)
    assert data["audiences"]["unlabelled"]["documents"] == 1
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env.update(PREUVE_API_KEYS="k-pub:public", PREUVE_EMBEDDER="none")
    server = subprocess.Popen([sys.executable, "-m", "preuve", "serve", "--index", str(index),
                               "--port", str(free_port())], stderr=subprocess.PIPE,
                              text=True, env=env)
    try:
        lines, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            line = server.stderr.readline()
            lines.append(line)
            if "serving on" in line or not line:
                break
    finally:
        server.terminate()
        server.wait(10)
    said = "".join(lines)
    assert "audience public: reads 0 documents" in said
    assert "warning: audience public reads no document" in said and "--access public" in said


def test_a_refusal_for_an_audience_that_reads_nothing_is_in_the_operators_log_only(tmp_path):
    """Issue 21 item 1: a caller whose audience reads no document is refused as any
    caller ("I don't know."), and the reason (its audience reads nothing; how to label
    documents) goes to the server's stderr, once, never into the reply."""
    import subprocess
    import sys
    import threading
    import time

    import httpx

    from preuve.server.runner import free_port

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nQuetzalcoatl vit au Mexique.\n", encoding="utf-8")
    index = tmp_path / "index.sqlite"
    assert run_cli("ingest", str(folder), "--index", str(index)).returncode == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    env.update(PREUVE_API_KEYS="k-pub:public,k-ops:staff", PREUVE_EMBEDDER="none")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "preuve", "serve", "--index", str(index),
                               "--port", str(port)], stderr=subprocess.PIPE, text=True,
                              env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(server.stderr.readline, "")),
                              daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while not any("serving on" in line for line in lines):
            assert time.monotonic() < deadline and server.poll() is None, lines
            time.sleep(0.1)
        started = len(lines)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            replies = [http.post("/ask", json={"question": "Où vit Quetzalcoatl ?"},
                                 headers={"X-API-Key": "k-pub"}) for _ in range(2)]
        for reply in replies:
            assert reply.status_code == 200 and reply.json()["refused"]
            said = reply.text.lower()
            assert "reads no document" not in said and "--access" not in said
        while not any("reads no document" in line for line in lines[started:]):
            assert time.monotonic() < deadline, lines
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(10)
    logged = [line for line in lines[started:] if "reads no document" in line]
    assert len(logged) == 1  # once per audience, not once per question
    assert "'public'" in logged[0] and "preuve ingest PATH --access public" in logged[0]


def test_the_index_may_be_named_before_the_verb(tmp_path):
    """`preuve --index X ingest DOCS` failed with "No such option '--index'" (trial 31's
    new user wrote it so): the group takes it for every verb; a verb's own --index wins."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "note.md").write_text("# Backups\n\nThe backup runs every night at two.\n")
    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    made = run_cli("--index", str(first), "ingest", str(docs))
    assert made.returncode == 0, made.stderr
    assert first.exists()
    found = run_cli("--index", str(first), "search", "backup night", "--json")
    assert found.returncode == 0, found.stderr
    assert "note.md" in found.stdout
    # the verb's own option wins over the group's
    assert run_cli("--index", str(first), "ingest", str(docs), "--index",
                   str(second)).returncode == 0
    assert second.exists()
