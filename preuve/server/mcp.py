"""`preuve mcp`: the index as an MCP server over stdio, for coding agents.

Four tools, the same engine as the CLI and the HTTP API:

- `search(query, method?, k?, as_of?)`: passages, best first, each with its citation label;
- `where(subject, k?)`: code locations (`path:line`, symbol), as `preuve where` finds them;
- `ask(question, k?)`: an extractive answer whose citations were all verified;
- `feedback(question, answer, verdict, citations?, comment?)`: tell the operator whether
  an answer was right, wrong or incomplete (citations of documents the audience may read
  only; an agent cannot read feedback back).

Each returns one text block holding JSON.

The audience is part of the server's configuration (`--audience`, else
`$PREUVE_MCP_AUDIENCE`, else `public`), never a tool argument: whatever an agent sends, it
reads `public` plus that one label. The default is `public` because an agent's context
tends to travel (prompts, logs, pull requests); `--operator` gives the operator's full view
(unlabelled documents included) and must be asked for explicitly. `all` is not a label.
The general `$PREUVE_AUDIENCE` is deliberately not read here.

stdout carries the protocol and nothing else: logs go to stderr, and while serving, the
SDK points file descriptor 1 at stderr, so stray prints of a model loader cannot corrupt
the stream. The index is opened on the first tool call (the handshake never waits for it)
and the embedder, when a method needs it, is loaded then too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from typing import Annotated, Any, Literal

from pydantic import Field

from preuve.answer.links import link_for, relative_link
from preuve.errors import PreuveError
from preuve.index import DEFAULT_INDEX, Index, index_exists, require_index, shown_location
from preuve.models import ASK_K, PUBLIC, Hit, validate_label
from preuve.registry import comparable_methods
from preuve.server.links import strip_file_links
from preuve.server.oplog import note_refusal
from preuve.settings import Settings

DEFAULT_AUDIENCE = PUBLIC
MAX_K = 50
# the methods an agent may ask for: every registered one that needs no cross-encoder
McpMethod = Literal[comparable_methods()]  # type: ignore[valid-type]
SERVER_NAME = "preuve"

log = logging.getLogger("preuve.mcp")

class Tools:
    """What the MCP tools do, without the protocol: usable (and testable) on its own.

    One `Index`, opened on first use and shared by the tools behind a lock (the SDK runs
    synchronous tools in worker threads; the SQLite connection is used by one at a time)."""

    def __init__(self, index_path: str | os.PathLike | None = None, *,
                 audience: str | None = DEFAULT_AUDIENCE, embedder: str | None = None,
                 link_base: str | None = None, settings: Settings | None = None):
        # None: the operator (asked for with --operator); else a label, checked here
        audience = None if audience is None else validate_label(audience, "MCP audience")
        self.settings = settings or Settings()
        self.location = os.fspath(index_path or self.settings.index or DEFAULT_INDEX)
        self.audience = audience
        self.embedder = embedder
        self.link_base = link_base
        self._index: Index | None = None
        self._lock = threading.Lock()

    def _open(self) -> Index:
        if self._index is None:
            self._index = Index(require_index(self.location), embedder=self.embedder,
                                settings=self.settings)
        return self._index

    def _run(self, fn):
        """Call fn(index) under the lock, with anything printed sent to stderr."""
        with self._lock, contextlib.redirect_stdout(sys.stderr):
            return fn(self._open())

    # -- tools ----------------------------------------------------------------------------
    def search(self, query: str, method: str | None = None, k: int = 5,
               as_of: str | None = "today") -> dict[str, Any]:
        def run(index: Index):
            chosen = method or index.engine.default_method()
            hits = index.search(query, method=chosen, k=k, as_of=_as_of(as_of),
                                audience=self.audience)
            return {"query": query, "method": chosen, "audience": self.audience,
                    "hits": [_hit(h) for h in hits]}
        return self._run(run)

    def where(self, subject: str, k: int = 10, kind: str = "",
              lang: str = "") -> dict[str, Any]:
        def run(index: Index):
            hits = index.where(subject, k=k, audience=self.audience, kinds=kind,
                               languages=lang)
            return {"subject": subject, "audience": self.audience,
                    "locations": [_location(h) for h in hits]}
        return self._run(run)

    def ask(self, question: str, k: int = ASK_K) -> dict[str, Any]:
        def run(index: Index):
            answer = index.ask(question, k=k, audience=self.audience, link=self._link)
            note_refusal(log, index, self.audience, answer)  # stderr: the operator's only
            citations = answer.citations
            text = strip_file_links(answer.answer)
            return {
                "question": question, "audience": self.audience,
                "answer": text, "refused": answer.refused, "reason": answer.reason,
                "citations": [_citation(c) for c in citations],
                "sources": [_hit(h, text_limit=600) for h in answer.hits],
                "language": answer.language,
            }
        return self._run(run)

    def feedback(self, question: str, answer: str, verdict: str,
                 citations: list[str] | None = None, comment: str = "") -> dict[str, Any]:
        def run(index: Index):
            item = index.feedback.add(question=question, answer=answer, verdict=verdict,
                                      citations=citations or [], comment=comment,
                                      audience=self.audience, channel="mcp")
            return {"id": item["id"], "verdict": item["verdict"],
                    "citations": [c["label"] for c in item["citations"]]}
        return self._run(run)

    def _link(self, cited) -> str:
        """Citation links: under --link-base (a repository URL), else the forge's page at
        the commit the file was indexed at, else relative to the corpus folder (never the
        server's disk)."""
        url = link_for(cited, self.link_base)
        return url if url and not url.startswith("file:") else relative_link(cited)

    def close(self) -> None:
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None


def _as_of(value: str | None) -> str | None:
    if value is None or value.strip().lower() in ("", "none", "any"):
        return None
    return value.strip()


def _hit(hit: Hit, text_limit: int | None = None) -> dict[str, Any]:
    """A passage as an agent needs it: where it is (the citation label and its parts) and
    what it says. No absolute paths of the server's disk."""
    text = hit.text
    if text_limit is not None and len(text) > text_limit:
        text = text[:text_limit].rstrip() + " …"
    data = {"rank": hit.rank, "label": hit.shown_label, "score": round(float(hit.score), 4),
            "path": hit.path, "kind": hit.kind, "title": hit.title, "heading": hit.heading,
            "page": hit.page, "start_line": hit.start_line, "end_line": hit.end_line,
            "symbol": hit.symbol, "symbol_kind": hit.symbol_kind, "text": text}
    return {key: value for key, value in data.items() if value not in (None, "")}


def _location(hit: Hit) -> dict[str, Any]:
    data = {"rank": hit.rank, "label": hit.label, "path": hit.path, "line": hit.start_line,
            "end_line": hit.end_line, "symbol": hit.symbol, "symbol_kind": hit.symbol_kind,
            "score": round(float(hit.score), 4)}
    return {key: value for key, value in data.items() if value is not None}


def _citation(entry: dict) -> dict[str, Any]:
    keys = ("label", "path", "page", "printed_page", "shown_label", "start_line", "end_line",
            "valid", "link")
    return {key: entry[key] for key in keys if entry.get(key) is not None}


# -- protocol ------------------------------------------------------------------------------
def _json(data: Any) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=1)


def build_server(tools: Tools):
    """The MCP server (official SDK) exposing `tools` as search, where and ask."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    def call(fn, *args, **kwargs) -> str:
        """A tool's JSON; a PreuveError (what the agent can act on: an unknown method, a
        bad date, an index without vectors, a model server down) becomes a tool error
        with its message; anything else is the SDK's generic tool error."""
        try:
            return _json(fn(*args, **kwargs))
        except PreuveError as exc:
            raise ToolError(str(exc)) from exc

    server = MCPServer(
        SERVER_NAME,
        instructions=(
            "Search a document and code index; every passage comes with a citation label "
            "(`file.pdf p. N` or `path:start-end`). Use `where` to find where something is "
            "handled in code, `search` for passages, `ask` for a short answer whose "
            "citations were verified, `feedback` to report an answer that was wrong or "
            "incomplete. Results are limited to the audience "
            f"{tools.audience or 'operator (everything)'!r}, set by the server's configuration."),
        log_level="WARNING",
    )

    @server.tool(structured_output=False)
    def search(
        query: Annotated[str, Field(min_length=1, description="What to look for.")],
        method: Annotated[McpMethod | None, Field(
            description="Retrieval method; default hybrid when the index has vectors, "
                        "else bm25.")] = None,
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Number of passages.")] = 5,
        as_of: Annotated[str | None, Field(
            description="Only versions in force that day: YYYY-MM-DD, 'today' (default) "
                        "or 'none' for every version.")] = "today",
    ) -> str:
        """Passages for a query, best first: each with its citation label, location and
        text, as JSON."""
        return call(tools.search, query, method=method, k=k, as_of=as_of)

    @server.tool(structured_output=False)
    def where(
        subject: Annotated[str, Field(min_length=1, description=(
            "What the code does, in words: 'where is invoice numbering handled'."))],
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Number of locations.")] = 10,
        kind: Annotated[str, Field(max_length=200, description=(
            "Only definitions of this kind, comma-separated: function (methods too), "
            "method, class (structs, interfaces, traits too), constant, key..."))] = "",
        lang: Annotated[str, Field(max_length=200, description=(
            "Only files in this language, comma-separated: go, rust, typescript, python, "
            "yaml..."))] = "",
    ) -> str:
        """Code locations for a subject, best first: path, line, symbol, as JSON."""
        return call(tools.where, subject, k=k, kind=kind, lang=lang)

    @server.tool(structured_output=False)
    def ask(
        question: Annotated[str, Field(min_length=1, description="A question in French "
                                                                 "or English.")],
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Passages retrieved.")] = ASK_K,
    ) -> str:
        """An answer drawn from the index, every citation checked against the passage it
        cites; a refusal (refused: true) when the index does not hold the answer. JSON."""
        return call(tools.ask, question, k=k)

    @server.tool(structured_output=False)
    def feedback(
        question: Annotated[str, Field(min_length=1, description="The question asked.")],
        answer: Annotated[str, Field(description="The answer it got (as `ask` gave it).")],
        verdict: Annotated[Literal["right", "wrong", "incomplete"], Field(
            description="Was the answer right, wrong, or right but incomplete?")],
        citations: Annotated[list[str] | None, Field(
            max_length=50, description="The answer's citation labels "
                                       "(`path:12-14`, `file.pdf p. 2`).")] = None,
        comment: Annotated[str, Field(max_length=2000, description=(
            "What was wrong or missing, e.g. the right figure or source."))] = "",
    ) -> str:
        """Record feedback on an answer for the index's operator, who turns reported
        failures into evaluation questions. Returns the stored item's id, as JSON."""
        return call(tools.feedback, question, answer, verdict, citations=citations,
                    comment=comment)

    return server


def serve_stdio(index_path: str | None = None, *, audience: str | None = DEFAULT_AUDIENCE,
                embedder: str | None = None, link_base: str | None = None,
                settings: Settings | None = None) -> None:
    """Run the MCP server on stdin/stdout until the client closes the stream. The CLI
    resolves every argument from its flags and `settings` (PREUVE_* variables)."""
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="preuve mcp: %(message)s")
    tools = Tools(index_path, audience=audience, embedder=embedder, link_base=link_base,
                  settings=settings)
    if not index_exists(tools.location):
        log.warning("no index at %s yet: tools will fail until one is built", tools.location)
    if tools.audience is None:
        log.warning("--operator: agents see every document, whatever its access label")
    log.info("index %s, audience %s", shown_location(tools.location), tools.audience or "operator")
    server = build_server(tools)
    try:
        server.run("stdio")
    finally:
        tools.close()
