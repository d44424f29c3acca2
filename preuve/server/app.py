"""The HTTP API and the web page: `create_app(index_path, config)`, served by `preuve serve`.

Every read is filtered by the caller's audience, which the server decides from the API key
(header ``X-API-Key`` or ``Authorization: Bearer``; the page's passage viewer may also send
it as the ``preuve_key`` cookie on GET). Rate limits, the key check before any body is read,
body caps and security headers sit in front of the routes (`guard.py`); uploads are
journalled so that a killed server restarts with folder and index agreeing (`uploads.py`).
Blocking work runs in the threadpool; each request borrows an `Index` (its own SQLite
connection) from a small pool (`state.py`), and uploads/deletes are serialised by a lock.
SQLite's WAL keeps readers going while an ingest writes.

The routes live in `routes/`, one `APIRouter` per group; the caller and the shared services
are FastAPI dependencies (`state.Who`, `state.Admin`, `state.App`); errors are mapped to
statuses once (`errors.py`). This module only wires them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from preuve.index import is_database, require_index
from preuve.registry import generators
from preuve.server import errors
from preuve.server.config import ServerConfig, load_config
from preuve.server.guard import Guard
from preuve.server.routes import (
    answers,
    documents,
    evaluation,
    feedback,
    page,
    retrieval,
    service,
    viewer,
)
from preuve.server.state import IndexPool, Metrics, Services
from preuve.server.uploads import UploadFolder
from preuve.settings import Settings

HERE = Path(__file__).parent
log = logging.getLogger("preuve.server")


def create_app(index_path: str | os.PathLike, config=None, *,
               pool_size: int = 8, settings: Settings | None = None,
               watcher=None) -> FastAPI:
    """The FastAPI app over the index at `index_path`; `config` is a ServerConfig, a dict
    of settings, a YAML file path, or None (environment only). `settings`: what the front
    end read (PREUVE_* variables, flags), else read from the environment here. `watcher`
    (a `preuve.watch.Watcher` over the same index, `serve --watch`) runs in a background
    thread while the app is served, its ingests under the uploads' write lock, and is
    stopped (its batch finished) and its index closed at shutdown."""
    env_settings = settings or Settings.load()
    settings: ServerConfig = load_config(config, settings=env_settings)
    if is_database(index_path):  # uploads go where the config says, else under ./.preuve
        index_path = str(index_path)
        upload_dir = Path(settings.upload_dir or Path(".preuve") / "uploads").absolute()
    else:
        index_path = require_index(Path(index_path).absolute())
        upload_dir = Path(settings.upload_dir or Path(index_path).parent / "uploads").absolute()
    generator = generators.get(settings.generator).make(env_settings)  # None: extractive
    pool = IndexPool(index_path, pool_size, env_settings)
    app_services = Services(index_path, settings, pool, UploadFolder(upload_dir, pool.get),
                            Metrics(),
                            Jinja2Templates(directory=str(HERE / "templates")), generator)
    with app_services.pool.get() as index:  # before serving: settle what a killed server left
        for line in app_services.uploads.recover(documents.uploaded_documents(index,
                                                                                upload_dir)):
            log.warning("recovered upload %s", line)

    @asynccontextmanager
    async def lifespan(app):
        if watcher is not None:
            watcher.lock = app_services.pool.write_lock
            watcher.start()
        try:
            yield
        finally:
            if watcher is not None:
                await asyncio.to_thread(watcher.stop)
                watcher.index.close()
            app_services.pool.close()

    app = FastAPI(title="preuve", lifespan=lifespan, version="0.1.0",
                  description="Answers over your own documents and code, every claim cited "
                              "and checked. Send your API key as `X-API-Key` or "
                              "`Authorization: Bearer`; it decides what you may read.")
    app.state.services = app_services
    app.state.pool, app.state.metrics = app_services.pool, app_services.metrics
    app.state.config, app.state.upload_dir = settings, upload_dir
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    errors.install(app)
    # limits and the key before any body (shared by every server on a database)
    app.add_middleware(Guard, settings=settings, index=index_path)

    @app.middleware("http")
    async def _measure(request: Request, call_next):
        started, status = time.perf_counter(), 500
        try:
            response = await call_next(request)
            status = response.status_code
            return response
        finally:
            route = getattr(request.scope.get("route"), "path", None) or "(unmatched)"
            app_services.metrics.record(f"{request.method} {route}", status,
                                        time.perf_counter() - started)

    for group in (service, retrieval, answers, feedback, evaluation, documents, viewer,
                  page):
        app.include_router(group.router)
    return app
