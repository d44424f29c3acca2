"""Access labels are one closed grammar, checked wherever a label enters: documents'
front matter and sidecars, `--access`, audiences of searches, the CLI and the MCP server.
Reserved words (`all`, the empty string) never read as the operator."""

from __future__ import annotations

import pytest
from conftest import KEYWORD_ONLY, run_cli

from preuve import Index
from preuve.server.mcp import Tools


def test_a_document_with_a_reserved_label_is_refused_by_name(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ok.md").write_text("---\naccess: public\n---\n# Ok\n\nFlamant rose.\n",
                                  encoding="utf-8")
    (folder / "greedy.md").write_text("---\naccess: all\n---\n# All\n\nFlamant secret.\n",
                                      encoding="utf-8")
    (folder / "odd.md").write_text("---\naccess: \"staff, rh\"\n---\n# Odd\n\nFlamant.\n",
                                   encoding="utf-8")
    (folder / "upper.md").write_text("---\naccess: Staff\n---\n# Up\n\nFlamant vert.\n",
                                     encoding="utf-8")
    with Index(fresh_index, embedder=KEYWORD_ONLY) as index:
        report = index.ingest([folder])
        failed = {problem.path.rsplit("/", 1)[-1]: problem.reason for problem in report.failed}
        assert set(failed) == {"greedy.md", "odd.md"}
        assert "reserved" in failed["greedy.md"] and "label" in failed["odd.md"]
        hits = index.search("flamant", audience="staff", as_of="none")
        assert {h.path for h in hits} == {"ok.md", "upper.md"}
        assert {h.access for h in hits} == {"public", "staff"}  # Staff read as staff
        with pytest.raises(ValueError, match="--access"):
            index.ingest([folder], access="all")


def test_cli_refuses_an_empty_or_reserved_audience(index_path):
    for word in ("", "all"):
        result = run_cli("search", "retour", "--audience", word, "--index", str(index_path))
        assert result.returncode != 0
        assert "audience" in result.stderr and "Traceback" not in result.stderr
        assert "retours" not in result.stdout


def test_mcp_server_refuses_a_reserved_audience(index_path):
    for word in ("", "all", " "):
        with pytest.raises(ValueError, match="MCP audience"):
            Tools(str(index_path), audience=word)
    assert Tools(str(index_path), audience="Staff").audience == "staff"
    assert Tools(str(index_path), audience=None).audience is None  # --operator
