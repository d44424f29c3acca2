"""`preuve mcp`: the real server as a subprocess, spoken to through the MCP SDK's stdio
client: tools listed with their input schemas, `where` and `ask` answered with citations,
`feedback` stored, and the audience fixed by the server (a public agent never sees a staff
passage, nor cites one in feedback)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from conftest import KEYWORD_ONLY, REPO, copy_corpus

from preuve import Index
from preuve.server.mcp import Tools

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

STAFF_QUERY = "astreinte prime hebdomadaire"
TIMEOUT = 60


@pytest.fixture(scope="module")
def mcp_index(tmp_path_factory) -> tuple[Path, set[str]]:
    """A keyword-only index of the sample corpus; files with no access label (the facturo
    code) are made public so that a public agent can look up code. Also returns the paths
    of the staff-only documents."""
    root = tmp_path_factory.mktemp("mcp")
    corpus = copy_corpus(root / "examples")
    path = root / "index.sqlite"
    with Index(path, embedder=KEYWORD_ONLY) as index:
        report = index.ingest([corpus], access="public")
        assert report.ok, report.failed
        staff = {d.path for d in index.documents() if d.access == "staff"}
    assert "handbook/on-call.md" in staff
    return path, staff


def _server(index: Path, *extra: str, env: dict | None = None) -> StdioServerParameters:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")}
    environment.update(env or {})
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "preuve", "mcp", "--index", str(index), *extra],
                                 env=environment, cwd=str(REPO))


def _session(params: StdioServerParameters, steps):
    """Start the server, initialize a session, run `await steps(session)`, stop it."""
    async def main():
        with anyio.fail_after(TIMEOUT):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await steps(session)
    return anyio.run(main)


def _payload(result) -> dict:
    assert not result.is_error, result.content
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


@pytest.fixture(scope="module")
def public_run(mcp_index) -> dict:
    """One session with `--audience public`: everything the public tests look at."""
    index, _ = mcp_index

    async def steps(session):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        calls = {
            "where": ("where", {"subject": "où est gérée la numérotation des factures"}),
            "where_constants": ("where", {"subject": "numérotation des factures",
                                          "kind": "constant", "lang": "py"}),
            "where_go": ("where", {"subject": "numérotation des factures", "lang": "go"}),
            "ask": ("ask", {"question": "Combien de jours de télétravail par semaine ?"}),
            "leak_search": ("search", {"query": STAFF_QUERY, "k": 20, "as_of": "none"}),
            "leak_ask": ("ask", {"question": STAFF_QUERY, "k": 10}),
            "leak_where": ("where", {"subject": STAFF_QUERY, "k": 20}),
        }
        results = {key: _payload(await session.call_tool(name, args))
                   for key, (name, args) in calls.items()}
        return {"tools": tools, **results}

    return _session(_server(index, "--audience", "public"), steps)


def test_lists_tools_with_input_schemas(public_run):
    tools = public_run["tools"]
    assert {"search", "where", "ask"} <= set(tools)
    for name, required in {"search": "query", "where": "subject", "ask": "question"}.items():
        schema = tools[name].input_schema
        assert schema["type"] == "object"
        assert required in schema["properties"] and required in schema["required"]
        assert "audience" not in schema["properties"]  # fixed by the server, not the caller
        assert tools[name].description
    assert {"query", "method", "k", "as_of"} <= set(tools["search"].input_schema["properties"])


def test_where_finds_the_code_location(public_run):
    where = public_run["where"]
    assert where["audience"] == "public"
    first = where["locations"][0]
    assert first["path"] == "facturo/numerotation.py"
    assert first["label"].startswith("facturo/numerotation.py:") and first["line"] >= 1


def test_where_filters_by_kind_and_language(public_run):
    constants = public_run["where_constants"]["locations"]
    assert constants and all(loc["symbol_kind"] == "constant" and loc["path"].endswith(".py")
                             for loc in constants)
    assert public_run["where_go"]["locations"] == []
    schema = public_run["tools"]["where"].input_schema["properties"]
    assert {"kind", "lang"} <= set(schema)


def test_ask_answers_with_verified_citations(public_run):
    ask = public_run["ask"]
    assert not ask["refused"], ask
    assert "2 jours" in ask["answer"]
    labels = [c["label"] for c in ask["citations"]]
    assert any(c["path"] == "handbook/teletravail.pdf" and c.get("page") == 2
               for c in ask["citations"]), labels
    # the PDF's page index 2 is printed "1": the citation and the answer's text say both
    cited = next(c for c in ask["citations"] if c["path"] == "handbook/teletravail.pdf")
    assert cited["printed_page"] == "1"
    assert cited["shown_label"] == "handbook/teletravail.pdf p. 2 (printed 1)"
    assert "handbook/teletravail.pdf p. 2 (printed 1)" in ask["answer"]
    assert all(c["valid"] for c in ask["citations"])
    assert ask["sources"] and all("label" in s for s in ask["sources"])


def test_answers_carry_no_path_of_the_servers_disk(mcp_index, public_run):
    ask = public_run["ask"]
    text = json.dumps(ask, ensure_ascii=False)
    assert "file:" not in text and str(mcp_index[0].parent) not in text
    links = [c["link"] for c in ask["citations"]]
    assert links and all(link.startswith("handbook/") for link in links), links
    assert f"]({links[0]})" in ask["answer"]  # the answer's Markdown links say the same


def test_public_agent_never_sees_staff_passages(mcp_index, public_run):
    index, staff = mcp_index
    with Index(index, embedder=KEYWORD_ONLY) as operator:  # the leak check means something:
        best = operator.search(STAFF_QUERY, k=1)           # the best passage is staff-only
    assert best and best[0].path in staff

    search = public_run["leak_search"]
    assert search["audience"] == "public" and search["hits"]
    seen = json.dumps([public_run[k] for k in ("leak_search", "leak_ask", "leak_where")],
                      ensure_ascii=False)
    for path in staff:
        assert path not in seen
    assert "on-call" not in seen and "Swapping a shift" not in seen


def test_feedback_tool_stores_what_the_agent_read_and_refuses_the_rest(mcp_index):
    index, staff = mcp_index
    question = "Combien de jours de télétravail par semaine ?"

    async def steps(session):
        answer = _payload(await session.call_tool("ask", {"question": question}))
        labels = [c["label"] for c in answer["citations"]]
        given = _payload(await session.call_tool("feedback", {
            "question": question, "answer": answer["answer"], "verdict": "incomplete",
            "citations": labels, "comment": "and on Fridays?"}))
        refused = [await session.call_tool("feedback", args) for args in (
            {"question": "q", "answer": "a", "verdict": "right",
             "citations": [sorted(staff)[0] + ":1-3"]},
            {"question": "q", "answer": "a", "verdict": "right",
             "citations": ["handbook/absent.md:1-3"]},
            {"question": "q", "answer": "a", "verdict": "so-so"})]
        return labels, given, refused

    labels, given, refused = _session(_server(index, "--audience", "public"), steps)
    assert labels and given["citations"] == labels
    assert all(r.is_error for r in refused)
    assert refused[0].content[0].text == refused[1].content[0].text.replace(
        "handbook/absent.md", sorted(staff)[0])  # a staff document reads as an absent one
    with Index(index, embedder=KEYWORD_ONLY) as operator:
        (item,) = operator.feedback.list(verdicts=["incomplete"])
    assert item["id"] == given["id"] and item["channel"] == "mcp"
    assert item["audience"] == "public" and item["comment"] == "and on Fridays?"
    assert [c["label"] for c in item["citations"]] == labels


def test_default_audience_is_public_and_bad_arguments_are_tool_errors(mcp_index):
    index, staff = mcp_index

    async def steps(session):
        default = _payload(await session.call_tool("search", {"query": STAFF_QUERY, "k": 20}))
        bad = [await session.call_tool(name, args) for name, args in [
            ("search", {"query": "x", "method": "magic"}),
            ("where", {"subject": "x", "k": 10_000}),
            ("search", {"query": "x", "method": "dense"}),
            ("search", {"query": "x", "as_of": "yesterday?"}),
        ]]
        return default, bad

    default, bad = _session(_server(index), steps)  # no option, no variable
    assert default["audience"] == "public"
    assert not {h["path"] for h in default["hits"]} & staff
    assert all(r.is_error for r in bad)
    assert "no vectors" in bad[2].content[0].text


def test_audience_from_the_environment(mcp_index):
    index, staff = mcp_index

    async def steps(session):
        return _payload(await session.call_tool("search", {"query": STAFF_QUERY, "k": 5}))

    as_staff = _session(_server(index, env={"PREUVE_MCP_AUDIENCE": "staff"}), steps)
    assert as_staff["audience"] == "staff"
    assert as_staff["hits"][0]["path"] in staff


def test_missing_index_is_an_error_and_creates_nothing(tmp_path):
    tools = Tools(tmp_path / "absent.sqlite", audience="public")
    with pytest.raises(FileNotFoundError, match="no index at"):
        tools.where("factures")
    assert not (tmp_path / "absent.sqlite").exists()
    with pytest.raises(ValueError, match="audience"):
        Tools(tmp_path / "absent.sqlite", audience=" ")


def test_an_agent_whose_audience_reads_nothing_is_refused_and_the_log_says_why(tmp_path,
                                                                              caplog):
    """Issue 21 item 1, MCP: the agent gets the refusal any question gets; the reason (its
    audience reads no document, how to label them) goes to the server's log (stderr),
    not into the tool's result."""
    import logging

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nQuetzalcoatl vit au Mexique.\n", encoding="utf-8")
    index = tmp_path / "index.sqlite"
    with Index(index, embedder=KEYWORD_ONLY) as built:
        assert built.ingest([docs]).ok  # no label: the operator's only
    tools = Tools(index, audience="public")
    with caplog.at_level(logging.WARNING, logger="preuve.mcp"):
        result = tools.ask("Où vit Quetzalcoatl ?")
    assert result["refused"] and "reads no document" not in json.dumps(result)
    logged = [r.getMessage() for r in caplog.records if r.name == "preuve.mcp"]
    assert any("'public'" in m and "reads no document" in m and "--access public" in m
               for m in logged), logged
    tools.close()
