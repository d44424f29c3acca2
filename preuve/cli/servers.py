"""Verbs that start a server: serve (HTTP and the web page) and mcp (stdio, agents)."""

from __future__ import annotations

import click

from preuve.cli._common import (
    command_settings,
    embedder_option,
    index_option,
    ingest_kwargs,
    ingest_options,
    print_batch,
)
from preuve.extras import needs
from preuve.index import (
    DEFAULT_INDEX,
    Index,
    index_exists,
)
from preuve.watch import Watcher


def _say_what_audiences_read(audiences: dict, configured: set[str]) -> None:
    """At a server's start: how many documents each configured audience reads, loudly
    when one reads none (unlabelled documents are the operator's only)."""
    public = audiences.get("public", {"documents": 0})
    for label in sorted(configured):
        reads = audiences.get(label, public)
        click.echo(f"audience {label}: reads {reads['documents']} documents", err=True)
        if not reads["documents"]:
            unlabelled = audiences.get("unlabelled", {}).get("documents", 0)
            click.echo(click.style(
                f"warning: audience {label} reads no document: every answer to it will be "
                f"'I don't know'. {unlabelled} documents have no label (the operator's "
                f"only): label them with `preuve ingest PATH --access public` (or "
                f"`access:` in front matter or a .meta.yaml sidecar)", bold=True), err=True)


@click.command()
@click.option("--audience", default=None, metavar="LABEL",
              help="What the agent may read: public plus this label (default public). Fixed "
                   "for the server's life, never a tool argument; or $PREUVE_MCP_AUDIENCE.")
@click.option("--operator", is_flag=True,
              help="Let the agent read every document, unlabelled ones included (instead of "
                   "--audience).")
@click.option("--link-base", default=None, metavar="URL",
              help="Base of citation links in `ask` answers (default: the local folder, or "
                   "$PREUVE_LINK_BASE).")
@index_option
@embedder_option
def mcp(audience, operator, link_base, index_path, embedder):
    """MCP server on stdio for coding agents: tools search, where and ask.

    stdout carries the protocol only; logs go to stderr. The index is opened on the first
    tool call. Example client configuration: {"command": "preuve", "args": ["mcp",
    "--index", "/abs/path/index.sqlite"]}."""
    with needs("server", "preuve mcp"):
        import mcp.server.mcpserver  # noqa: F401  (here: a missing extra is one line)

        from preuve.server.mcp import serve_stdio
    settings = command_settings(index=index_path, mcp_audience=audience, embedder=embedder,
                         link_base=link_base)
    fixed = None if operator else settings.mcp_audience
    if fixed and index_exists(settings.index or DEFAULT_INDEX):  # on stderr: stdout is MCP's
        with Index(settings.index or DEFAULT_INDEX, settings=settings) as index:
            _say_what_audiences_read(index.status()["audiences"], {fixed})
    serve_stdio(settings.index, audience=None if operator else settings.mcp_audience,
                embedder=settings.embedder, link_base=settings.link_base, settings=settings)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option("--config", "config_file", default=None,
              type=click.Path(exists=True, dir_okay=False),
              help="YAML settings: api_keys (key: audience|admin), anonymous, max_upload_mb, "
                   "upload_dir, upload_access, generator (or $PREUVE_SERVER_CONFIG). "
                   "PREUVE_API_KEYS=key:audience,... adds keys.")
@click.option("--watch", "watched", multiple=True, type=click.Path(exists=True),
              metavar="PATH", help="Keep the index fresh from this file or folder while "
                                   "serving, as `preuve watch` does (repeatable).")
@ingest_options
@index_option
def serve(host, port, config_file, watched, access, max_mb, max_pages, untracked, chunking,
          chunk_words, chunk_overlap, index_path):
    """HTTP API (OpenAPI docs at /docs) and the web page at /, audiences from API keys.

    With --watch, PATHs are ingested before the server starts and again as they change
    (the ingest options apply to them)."""
    with needs("server", "preuve serve"):
        import uvicorn

        from preuve.server.app import create_app
    settings = command_settings(index=index_path, server_config=config_file)
    watcher = None
    if watched:
        options = ingest_kwargs(access, max_mb, max_pages, untracked, chunking, chunk_words,
                                 chunk_overlap)
        watcher = Watcher(Index(settings.index or DEFAULT_INDEX, settings=settings), watched,
                          on_batch=lambda batch: print_batch(batch, False), **options)
        watcher.catch_up()
    app = create_app(settings.index or DEFAULT_INDEX, settings.server_config, settings=settings,
                     watcher=watcher)
    config = app.state.config
    if not config.api_keys and not config.anonymous:
        click.echo("warning: no API keys configured and anonymous access off: every request "
                   "will get 401 (set PREUVE_API_KEYS or --config)", err=True)
    with Index(settings.index or DEFAULT_INDEX, settings=settings) as index:
        audiences = index.status()["audiences"]
    _say_what_audiences_read(audiences, set(config.api_keys.values()) - {"admin"}
                             | ({config.anonymous} if config.anonymous else set()))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           **config.uvicorn_options()))
    # the socket listens before the line that says so: a client that connects on reading
    # it waits in the backlog instead of being refused
    sock = server.config.bind_socket()
    sock.listen(server.config.backlog)
    click.echo(f"preuve serving on http://{host}:{port}/  (API docs: /docs)", err=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a server is stopped (as uvicorn.run)
    finally:
        sock.close()
    if not server.started:
        raise SystemExit(3)  # uvicorn's startup failure
