"""The HTTP API and the web page: `create_app(index_path, config)`, served by `preuve serve`.

Every read is filtered by the caller's audience, which the server decides from the API key
(header ``X-API-Key`` or ``Authorization: Bearer``; the page's passage viewer may also send
it as the ``preuve_key`` cookie on GET). Rate limits, the key check before any body is read,
body caps and security headers sit in front of the routes (`guard.py`); uploads are
journalled so that a killed server restarts with folder and index agreeing (`uploads.py`).
Blocking work runs in the threadpool; each request borrows an `Index` (its own SQLite
connection) from a small pool, and uploads/deletes are serialised by a lock. SQLite's WAL
keeps readers going while an ingest writes.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import json
import logging
import os
import queue
import re
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from preuve.index import NO_EMBEDDER, Index
from preuve.ingest import FILE_DIGEST
from preuve.ingest.walk import KIND_BY_SUFFIX, kind_of
from preuve.models import Document, Filters, Hit
from preuve.retrieve import METHODS
from preuve.server.config import Caller, ConfigError, ServerConfig, load_config, validate_label
from preuve.server.guard import Guard, api_key
from preuve.server.links import relink
from preuve.server.uploads import (
    UploadFolder,
    UploadRefused,
    check_label,
    check_name,
    check_unzipped_size,
)
from preuve.store import Changes, is_postgres, shown

HERE = Path(__file__).parent
log = logging.getLogger("preuve.server")
MAX_PASSAGE_BYTES = 5 * 1024 * 1024
MAX_SERVED_BYTES = 64 * 1024 * 1024  # the viewer reads (and checks) a file whole
_SAFE_NAME = re.compile(r"^[\w][\w .()+\-]{0,200}$")

Method = Literal[tuple(METHODS)]  # type: ignore[valid-type]
# path prefixes and kinds a request may filter on: bounded in number and length (a long
# list would otherwise become one huge SQL statement)
PathPrefix = Annotated[str, Field(min_length=1, max_length=500)]
Paths = Annotated[list[PathPrefix], Field(max_length=50)]
Kinds = Annotated[list[Annotated[str, Field(max_length=20)]], Field(max_length=10)]
AsOf = Annotated[str | None, Field(max_length=20)]
ADMIN_ROUTES = ("POST /documents", "DELETE /documents/{doc_id}")


# ----------------------------------------------------------------------------- requests
class _Body(BaseModel):
    # unknown fields (e.g. `audience`) are an error: the audience comes from the key
    model_config = ConfigDict(extra="forbid")


class SearchRequest(_Body):
    query: str = Field(min_length=1, max_length=2000)
    method: Method | None = None
    k: int = Field(10, ge=1, le=100)
    as_of: AsOf = "today"
    paths: Paths = []
    kinds: Kinds = []


class WhereRequest(_Body):
    subject: str = Field(min_length=1, max_length=2000)
    method: Method = "bm25"
    k: int = Field(10, ge=1, le=100)
    as_of: AsOf = "today"
    paths: Paths = []


class AskRequest(_Body):
    question: str = Field(min_length=1, max_length=4000)
    method: Method | None = None
    k: int = Field(5, ge=1, le=50)
    as_of: AsOf = "today"
    paths: Paths = []
    stream: bool = False


class MessageRequest(_Body):
    question: str = Field(min_length=1, max_length=4000)
    method: Method | None = None
    k: int = Field(5, ge=1, le=50)
    as_of: AsOf = "today"
    stream: bool = False


class CompareRequest(_Body):
    question: str = Field(min_length=1, max_length=4000)
    k: int = Field(5, ge=1, le=20)
    as_of: AsOf = "today"


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


# ------------------------------------------------------------------------------- engine
class IndexPool:
    """Index objects (one SQLite connection each) lent to one request at a time; the
    embedding model, when the index has one, is loaded once and shared."""

    def __init__(self, path: str, size: int = 8):
        self.path = path
        self.size = size
        self._free: queue.LifoQueue[Index] = queue.LifoQueue()
        self._all: list[Index] = []
        self._lock = threading.Lock()
        self._embedder = None
        self._embed_lock = threading.Lock()
        self.write_lock = threading.Lock()

    @contextmanager
    def get(self) -> Iterator[Index]:
        index = self._take()
        try:
            self._share_embedder(index)
            yield index
        finally:
            self._free.put(index)

    def _share_embedder(self, index: Index) -> None:
        """Load the embedding model once (under a lock) and lend it to every Index."""
        if index._embedder is not None or index.embedder_name == NO_EMBEDDER:
            return
        with self._embed_lock:
            if self._embedder is None:
                try:
                    self._embedder = index.embedder()
                except ValueError:  # reported by the request that needs vectors
                    return
        index._embedder = self._embedder

    def _take(self) -> Index:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if len(self._all) < self.size:
                index = Index(self.path)
                self._all.append(index)
                return index
        return self._free.get()

    def has_vectors(self) -> bool:
        with self.get() as index:
            return index.embedder_name != NO_EMBEDDER

    def close(self) -> None:
        with self._lock:
            for index in self._all:
                index.close()
            self._all.clear()


class Metrics:
    """Request counts and latencies per route, and stage latencies of answers."""

    def __init__(self, keep: int = 2000):
        self.started = time.time()
        self._lock = threading.Lock()
        self.routes: dict[str, dict] = {}
        self.stages: dict[str, collections.deque] = {}
        self.keep = keep

    def record(self, route: str, status: int, seconds: float) -> None:
        with self._lock:
            r = self.routes.setdefault(route, {"count": 0, "errors": 0, "by_status": {},
                                               "latencies": collections.deque(maxlen=self.keep)})
            r["count"] += 1
            r["errors"] += status >= 400
            r["by_status"][str(status)] = r["by_status"].get(str(status), 0) + 1
            r["latencies"].append(seconds)

    def record_stages(self, usage: dict) -> None:
        with self._lock:
            for stage, value in (usage.get("latency_s") or {}).items():
                if isinstance(value, int | float):
                    self.stages.setdefault(stage, collections.deque(maxlen=self.keep)).append(
                        float(value))

    @staticmethod
    def _summary(values) -> dict:
        values = sorted(values)
        if not values:
            return {"n": 0}
        def pct(p):
            return round(values[min(len(values) - 1, int(p * len(values)))], 5)
        return {"n": len(values), "mean": round(statistics.fmean(values), 5),
                "p50": pct(0.50), "p95": pct(0.95), "max": round(values[-1], 5)}

    def to_dict(self, admin: bool = True) -> dict:
        """Everything for an admin; without the admin routes (uploads, deletes) and the
        requests no route matched for anyone else."""
        with self._lock:
            return {
                "uptime_s": round(time.time() - self.started, 1),
                "routes": {route: {"count": r["count"], "errors": r["errors"],
                                   "by_status": dict(r["by_status"]),
                                   "latency_s": self._summary(r["latencies"])}
                           for route, r in sorted(self.routes.items())
                           if admin or (route not in ADMIN_ROUTES
                                        and not route.endswith("(unmatched)"))},
                "stages": {stage: self._summary(v) for stage, v in sorted(self.stages.items())},
            }


# ------------------------------------------------------------------------------ helpers
def _doc_url(doc_id: str) -> str:
    return quote(doc_id, safe="")


def hit_link(hit: Hit | dict, page=None, start=None, end=None) -> str:
    """Where the page shows a passage: the PDF at its page, else the lines highlighted."""
    h = hit if isinstance(hit, dict) else hit.to_dict()
    page = page if page is not None else h.get("page")
    start = start if start is not None else h.get("start_line")
    end = end if end is not None else h.get("end_line")
    doc = _doc_url(h["doc_id"])
    if h.get("kind") == "pdf" or page is not None:
        return f"/files/{doc}" + (f"#page={page}" if page is not None else "")
    if start is not None:
        return f"/passages/{doc}?start={start}&end={end if end is not None else start}"
    return f"/passages/{doc}?chunk={quote(h['chunk_id'], safe='')}"


def public_hit(hit: Hit) -> dict:
    d = hit.to_dict()
    d.pop("root", None)  # the server's folders are not the caller's business
    d["link"] = hit_link(d)
    return d


def public_answer(answer) -> dict:
    """Answer JSON with links into this server instead of the server's file:// paths.
    Per-word IDFs of the judgment are not sent. Unverified text is not sent — the text a
    verification rejected, the sentences the attribution dropped (a model's injected line,
    a citation of what the caller may not read): `reason` and the attribution's numbers say
    why."""
    d = answer.to_dict()
    d.pop("rejected", None)
    # a word's IDF is counted against every chunk of the index: from it a caller could
    # read how much the index holds beyond what it may read; the found/missing flags stay
    for row in ((d.get("explain") or {}).get("judgment") or {}).get("words", []):
        row.pop("idf", None)
    attribution = (d.get("explain") or {}).get("attribution") or {}
    for row in attribution.get("dropped", []):
        row.pop("sentence", None)
    if answer.refused:
        for row in attribution.get("attributed", []):
            row.pop("sentence", None)
    hits = d["hits"]
    by_chunk = {h["chunk_id"]: h for h in hits}

    def link_of(c: dict) -> str:
        hit = by_chunk.get(c.get("chunk_id")) or next(
            (h for h in hits if h["path"] == c.get("path")), None)
        if hit is None:
            return ""
        c["doc_id"] = hit["doc_id"]
        return hit_link(hit, c.get("page"), c.get("start_line"), c.get("end_line"))

    d["answer"] = relink(d["answer"], d["citations"], link_of)
    for h in hits:
        h.pop("root", None)
        h["link"] = hit_link(h)
    return d


def public_message(message: dict) -> dict:
    """A stored conversation turn with its citation links into this server (the stored
    ones point at the server's disk)."""
    data = dict(message.get("data") or {})
    citations = [dict(c) for c in data.get("citations") or []]

    def link_of(c: dict) -> str:
        doc_id = (c.get("chunk_id") or "").rpartition(":")[0]
        if not doc_id:
            return ""
        c["doc_id"] = doc_id
        kind = "pdf" if c.get("page") is not None else ""
        return hit_link({"doc_id": doc_id, "kind": kind, "chunk_id": c["chunk_id"]},
                        c.get("page"), c.get("start_line"), c.get("end_line"))

    content = relink(message["content"], citations, link_of)
    if citations:
        data["citations"] = citations
    return {**message, "content": content, "data": data}


def uploaded_documents(index: Index, folder: Path) -> dict[str, Document]:
    """The indexed documents of the upload folder, by file name."""
    return {d.path: d for d in index.store.documents() if d.root == str(folder)}


def _document_dict(doc: Document) -> dict:
    return {"doc_id": doc.doc_id, "path": doc.path, "title": doc.title, "kind": doc.kind,
            "language": doc.language, "access": doc.access, "version": doc.version,
            "effective_from": doc.effective_from, "effective_to": doc.effective_to,
            "size": doc.size, "pages": doc.pages}


def _clean_error(message: str, index_path: str) -> str:
    """An engine error without the server's own paths (or database URL)."""
    return message.replace(index_path, "the index").replace(shown(index_path), "the index")


def _sse(event: str, data) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def _chunks(text: str) -> list[str]:
    """The answer cut into small pieces for streaming (words with their spacing)."""
    return re.findall(r"\S+\s*|\s+", text)


LANGS = ("fr", "en")


def _language(request: Request) -> str:
    asked = request.query_params.get("lang") or request.cookies.get("preuve_lang")
    if asked in LANGS:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


# ---------------------------------------------------------------------------------- app
def create_app(index_path: str | os.PathLike, config=None, *,
               pool_size: int = 8) -> FastAPI:
    """The FastAPI app over the index at `index_path`; `config` is a ServerConfig, a dict
    of settings, a YAML file path, or None (environment only)."""
    settings: ServerConfig = load_config(config)
    if is_postgres(str(index_path)):
        # a database: uploads go where the config says, else under ./.preuve
        index_path = str(index_path)
        upload_dir = Path(settings.upload_dir or Path(".preuve") / "uploads").absolute()
    else:
        index_path = str(Path(index_path).absolute())
        if not os.path.exists(index_path):
            raise FileNotFoundError(f"{index_path}: no index there (run `preuve ingest` first)")
        upload_dir = Path(settings.upload_dir or Path(index_path).parent / "uploads").absolute()
    pool = IndexPool(index_path, pool_size)
    uploads = UploadFolder(upload_dir, pool.get)
    with pool.get() as index:  # before serving: settle what a killed server left
        for line in uploads.recover(uploaded_documents(index, upload_dir)):
            log.warning("recovered upload %s", line)
    metrics = Metrics()
    generator = None
    if settings.generator == "openai":
        from preuve.answer.generators import OpenAIGenerator

        generator = OpenAIGenerator.from_env()

    @asynccontextmanager
    async def lifespan(app):
        yield
        pool.close()

    app = FastAPI(title="preuve", lifespan=lifespan, version="0.1.0",
                  description="Answers over your own documents and code, every claim cited "
                              "and checked. Send your API key as `X-API-Key` or "
                              "`Authorization: Bearer`; it decides what you may read.")
    app.state.pool, app.state.metrics, app.state.config = pool, metrics, settings
    app.state.upload_dir = upload_dir
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    # -- errors, metrics --------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(HTTPException)
    async def _http_error(request, exc: HTTPException):
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request, exc: RequestValidationError):
        problems = []
        for e in exc.errors():
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {e.get('msg')}")
        return JSONResponse({"error": "bad request: " + "; ".join(problems)}, status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request, exc: Exception):
        return JSONResponse({"error": f"internal error ({type(exc).__name__})"},
                            status_code=500)

    # limits and the key before any body is read; the security headers (guard.py)
    app.add_middleware(Guard, settings=settings, index=index_path)

    @app.middleware("http")
    async def _measure(request: Request, call_next):
        started = time.perf_counter()
        status = 500
        try:
            response = await call_next(request)
            status = response.status_code
            return response
        finally:
            route = request.scope.get("route")
            name = getattr(route, "path", None) or "(unmatched)"
            metrics.record(f"{request.method} {name}", status, time.perf_counter() - started)

    # -- auth -------------------------------------------------------------------------
    def caller(request: Request, admin: bool = False) -> Caller:
        key = api_key(request)
        who = settings.caller(key)
        if who is None:
            raise ApiError(401, "invalid API key" if key else
                           "missing API key (send X-API-Key or Authorization: Bearer)")
        if admin and not who.admin:
            raise ApiError(403, "this needs an admin key")
        return who

    def filters_for(who: Caller) -> Filters:
        return Filters(audience=who.audience)

    def readable_document(index: Index, who: Caller, doc_id: str) -> Document:
        for doc in index.store.documents(filters_for(who)):
            if doc.doc_id == doc_id:
                return doc
        raise ApiError(404, "no such document")

    def engine(fn):
        """Run `fn(index)` with a pooled index, engine errors as 400 without paths."""
        with pool.get() as index:
            try:
                return fn(index)
            except ValueError as exc:
                raise ApiError(400, _clean_error(str(exc), index_path)) from None

    def check_method(method: str | None) -> None:
        if method and method != "bm25" and not pool.has_vectors():
            raise ApiError(400, f"method {method!r} needs vectors and this index has none "
                                "(keyword search only): use method bm25")

    # -- API --------------------------------------------------------------------------
    @app.get("/health", tags=["service"])
    def health():
        """Liveness: the index opens and answers a query."""
        with pool.get() as index:
            version = index.store.schema_version
        return {"status": "ok", "schema_version": version}

    @app.get("/metrics", tags=["service"])
    def get_metrics(request: Request):
        """Request counts and latencies per route (admin routes: admin keys only); stage
        latencies of answers."""
        who = caller(request)
        return metrics.to_dict(admin=who.admin)

    @app.get("/me", tags=["service"])
    def me(request: Request):
        """The audience your key reads as."""
        who = caller(request)
        return {"audience": who.name, "admin": who.admin,
                "vectors": pool.has_vectors()}

    @app.post("/search", tags=["retrieval"])
    def search(request: Request, body: SearchRequest):
        """Best passages for a query, filtered by your audience."""
        who = caller(request)
        check_method(body.method)
        hits = engine(lambda ix: ix.search(body.query, method=body.method, k=body.k,
                                           as_of=body.as_of, audience=who.audience,
                                           paths=body.paths, kinds=body.kinds))
        return {"hits": [public_hit(h) for h in hits]}

    @app.post("/where", tags=["retrieval"])
    def where(request: Request, body: WhereRequest):
        """Code locations for a subject."""
        who = caller(request)
        check_method(body.method)
        hits = engine(lambda ix: ix.where(body.subject, k=body.k, as_of=body.as_of,
                                          audience=who.audience, paths=body.paths,
                                          method=body.method))
        return {"hits": [public_hit(h) for h in hits]}

    @app.post("/compare", tags=["retrieval"])
    def compare(request: Request, body: CompareRequest):
        """Top k of bm25, dense and hybrid side by side (dense and hybrid need vectors)."""
        who = caller(request)
        vectors = pool.has_vectors()
        out: dict = {"vectors": vectors, "methods": {}}
        for method in ("bm25", "dense", "hybrid"):
            if method != "bm25" and not vectors:
                out["methods"][method] = None
                continue
            hits = engine(lambda ix, m=method: ix.search(
                body.question, method=m, k=body.k, as_of=body.as_of, audience=who.audience))
            out["methods"][method] = [public_hit(h) for h in hits]
        return out

    def wants_stream(request: Request, flag: bool) -> bool:
        return flag or "text/event-stream" in request.headers.get("accept", "")

    def stream_answer(run) -> StreamingResponse:
        """SSE: `token` events while the answer is produced, then `done` (the Answer)."""

        async def body():
            loop = asyncio.get_running_loop()
            events: asyncio.Queue = asyncio.Queue()
            streamed = []

            def put(kind: str, data) -> None:
                loop.call_soon_threadsafe(events.put_nowait, (kind, data))

            def on_token(text: str) -> None:
                streamed.append(text)
                put("token", {"text": text})

            def work():
                try:
                    put("result", run(on_token))
                except ApiError as exc:
                    put("error", {"error": exc.message, "status": exc.status})
                except Exception as exc:  # noqa: BLE001 - reported to the client
                    put("error", {"error": f"internal error ({type(exc).__name__})"})

            task = asyncio.ensure_future(run_in_threadpool(work))
            try:
                while True:
                    kind, data = await events.get()
                    if kind == "token":
                        yield _sse("token", data)
                    elif kind == "error":
                        yield _sse("error", data)
                        return
                    else:
                        if not streamed:  # extractive: the verified text, piece by piece
                            for piece in _chunks(data["answer"]):
                                yield _sse("token", {"text": piece})
                        yield _sse("done", data)
                        return
            finally:
                await task

        return StreamingResponse(body(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    def answered(answer) -> dict:
        metrics.record_stages(answer.usage)
        return public_answer(answer)

    @app.post("/ask", tags=["answers"])
    def ask(request: Request, body: AskRequest):
        """An answer with verified citations; Server-Sent Events with `stream: true` or
        `Accept: text/event-stream` (`token` events, then `done` with the Answer)."""
        who = caller(request)
        check_method(body.method)

        def run(on_token=None):
            return answered(engine(lambda ix: ix.ask(
                body.question, method=body.method, k=body.k, as_of=body.as_of,
                audience=who.audience, paths=body.paths, generator=generator,
                on_token=on_token if generator is not None else None)))

        if wants_stream(request, body.stream):
            return stream_answer(run)
        return run()

    # -- conversations ----------------------------------------------------------------
    @app.post("/conversations", status_code=201, tags=["answers"])
    def new_conversation(request: Request):
        """Open a conversation, bound to your key (and its audience)."""
        who = caller(request)
        conversation = uuid.uuid4().hex[:12]
        engine(lambda ix: ix.store.create_conversation(conversation, who.audience, who.owner))
        return {"id": conversation}

    @app.post("/conversations/{conversation_id}/messages", tags=["answers"])
    def add_message(request: Request, conversation_id: str, body: MessageRequest):
        """Ask in a conversation: follow-ups are made standalone before retrieval."""
        who = caller(request)
        check_method(body.method)

        def run(on_token=None):
            try:
                _, answer = engine(lambda ix: ix.chat(
                    body.question, conversation=conversation_id, audience=who.audience,
                    owner=who.owner, generator=generator, method=body.method, k=body.k,
                    as_of=body.as_of, on_token=on_token if generator is not None else None))
            except KeyError:
                raise ApiError(404, "no such conversation") from None
            return {"conversation": conversation_id, **answered(answer)}

        if wants_stream(request, body.stream):
            return stream_answer(run)
        return run()

    @app.get("/conversations/{conversation_id}", tags=["answers"])
    def get_conversation(request: Request, conversation_id: str):
        """A conversation's turns (only for the key that opened it)."""
        who = caller(request)
        try:
            messages = engine(lambda ix: ix.history(conversation_id, audience=who.audience,
                                                    owner=who.owner))
        except KeyError:
            raise ApiError(404, "no such conversation") from None
        return {"id": conversation_id, "messages": [public_message(m) for m in messages]}

    # -- documents --------------------------------------------------------------------
    @app.get("/documents", tags=["documents"])
    def list_documents(request: Request):
        """Documents you may read."""
        who = caller(request)
        docs = engine(lambda ix: ix.store.documents(filters_for(who)))
        return {"count": len(docs), "documents": [_document_dict(d) for d in docs]}

    @app.post("/documents", status_code=201, tags=["documents"])
    def upload_document(request: Request, file: Annotated[UploadFile, File()],
                        access: Annotated[str | None, Form(max_length=64)] = None):
        """Upload a file and index it (admin). `access` labels it; a file that declares
        another label in its front matter is refused (400) rather than either label
        winning silently. Refused, with the reason and nothing changed, when too large
        (or unpacking too large), of an unsupported type, or unreadable."""
        caller(request, admin=True)
        if access is not None:
            try:
                validate_label(access, "access")
            except ConfigError as exc:
                raise ApiError(400, str(exc)) from None
        try:
            return save_and_ingest(file, access)
        except UploadRefused as exc:
            raise ApiError(exc.status, exc.message) from None

    def save_and_ingest(file: UploadFile, access: str | None) -> dict:
        name = Path((file.filename or "").replace("\\", "/")).name.strip()
        if not name or not _SAFE_NAME.match(name):
            raise ApiError(400, "file name missing or not allowed (letters, digits, "
                                "spaces, . _ - ( ) +; no folders, not hidden)")
        check_name(name)
        kind = kind_of(Path(name))
        if kind is None:
            supported = ", ".join(sorted(KIND_BY_SUFFIX)) + ", source code"
            raise ApiError(415, f"{name}: unsupported file type (supported: {supported})")
        limit = settings.max_upload_bytes
        staged = uploads.stage()
        try:
            copy_capped(file, staged, name, limit)
            check_unzipped_size(staged, name, kind, limit)
            check_label(staged, name, kind, access)
            with pool.write_lock, uploads.writing():
                return ingest_upload(staged, name, access or settings.upload_access, limit)
        finally:
            staged.unlink(missing_ok=True)

    def copy_capped(file: UploadFile, staged: Path, name: str, limit: int) -> None:
        size = 0
        with open(staged, "wb") as out:
            while chunk := file.file.read(1024 * 1024):
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, f"{name}: too large (over the "
                                        f"{settings.max_upload_mb:g} MB upload limit)")
                out.write(chunk)
        if size == 0:
            raise ApiError(400, f"{name}: empty file")

    def ingest_upload(staged: Path, name: str, access: str | None, limit: int) -> dict:
        """Put the staged file at uploads/NAME and index it; on any failure the previous
        file (or none) is put back: nothing stored is lost."""
        with uploads.replacing(name, staged) as target:
            report = engine(lambda ix: ix.ingest([target], access=access, max_bytes=limit))
            if report.failed:
                raise ApiError(422, f"{name}: " + "; ".join(p.reason for p in report.failed))
            if report.skipped:
                raise ApiError(415, f"{name}: " + "; ".join(p.reason for p in report.skipped))
        doc = engine(lambda ix: uploaded_documents(ix, upload_dir)[name])
        status = ("added" if report.added else "updated" if report.updated else "unchanged")
        return {"status": status, "chunks": report.chunks, "document": _document_dict(doc)}

    @app.delete("/documents/{doc_id}", tags=["documents"])
    def delete_document(request: Request, doc_id: str):
        """Remove a document and its passages (admin); an uploaded file is deleted too."""
        who = caller(request, admin=True)
        with pool.write_lock, uploads.writing():
            doc = engine(lambda ix: readable_document(ix, who, doc_id))
            if doc.root == str(upload_dir):
                with uploads.replacing(doc.path, None):
                    engine(lambda ix: ix.store.apply(Changes(removals=[doc.doc_id])))
            else:
                engine(lambda ix: ix.store.apply(Changes(removals=[doc.doc_id])))
        return {"removed": _document_dict(doc)}

    # -- files and passages (the page's viewer) ---------------------------------------
    def indexed_file(who: Caller, doc_id: str) -> tuple[Document, bytes]:
        """A readable document and its file's bytes, only while they are the bytes that
        were indexed (under the label the caller was allowed by): an edit on disk not yet
        re-ingested is 409, never served under the old label."""
        doc = engine(lambda ix: readable_document(ix, who, doc_id))
        root = os.path.realpath(doc.root)
        full = os.path.realpath(os.path.join(root, *doc.path.split("/")))
        if not full.startswith(root + os.sep) or not os.path.isfile(full):
            if (kept := uploads.stored(doc)) is not None:  # the database's copy (uploads)
                return doc, kept
            raise ApiError(404, "no such document")
        with open(full, "rb") as source:
            data = source.read(MAX_SERVED_BYTES + 1)
        if len(data) > MAX_SERVED_BYTES:
            raise ApiError(413, "file too large to display")
        indexed = doc.meta.get(FILE_DIGEST)
        if indexed is None:
            raise ApiError(409, f"{doc.path} was indexed before file digests were recorded: "
                                "re-ingest it to view it here")
        if hashlib.sha256(data).hexdigest() != indexed:
            raise ApiError(409, f"{doc.path} changed on disk since it was indexed: it is "
                                "shown again once re-ingested")
        return doc, data

    @app.get("/files/{doc_id}", tags=["viewer"])
    def get_file(request: Request, doc_id: str):
        """The source file of a document you may read (PDFs open at `#page=N`), as it
        was indexed."""
        who = caller(request)
        doc, data = indexed_file(who, doc_id)
        media = {"pdf": "application/pdf", "html": "text/plain; charset=utf-8",
                 "docx": "application/vnd.openxmlformats-officedocument."
                         "wordprocessingml.document"}.get(doc.kind, "text/plain; charset=utf-8")
        name = quote(doc.path.rsplit("/", 1)[-1])
        headers = {"Content-Disposition": f"inline; filename*=utf-8''{name}"}
        if doc.kind != "pdf":  # never run a served file's scripts (the PDF viewer needs none)
            headers["Content-Security-Policy"] = "sandbox"
        return Response(data, media_type=media, headers=headers)

    @app.get("/passages/{doc_id}", response_class=HTMLResponse, tags=["viewer"])
    def get_passage(request: Request, doc_id: str, start: int | None = None,
                    end: int | None = None, chunk: str | None = None):
        """A document's lines with the cited ones highlighted (code, text, Markdown,
        HTML), or the cited passage's text (DOCX, with `chunk`)."""
        who = caller(request)
        if start is not None and (start < 1 or (end is not None and end < start)):
            raise ApiError(400, "start must be >= 1 and end >= start")
        lines: list[tuple[int, str, bool]] = []
        passage = None
        if chunk and len(chunk) > 300:
            raise ApiError(400, "chunk: not a passage id")
        doc, data = indexed_file(who, doc_id)
        if doc.kind in ("pdf", "docx"):
            if chunk:
                found = engine(lambda ix: ix.store.chunks([chunk], filters_for(who)))
                if not found or found[0].doc_id != doc.doc_id:
                    raise ApiError(404, "no such passage in this document")
                passage = found[0].text
        else:
            if len(data) > MAX_PASSAGE_BYTES:
                raise ApiError(413, "file too large to display")
            text = data.decode("utf-8", errors="replace")
            if chunk and start is None:
                found = engine(lambda ix: ix.store.chunks([chunk], filters_for(who)))
                if found and found[0].doc_id == doc.doc_id:
                    start, end = found[0].start_line, found[0].end_line
            last = end if end is not None else start
            for number, line in enumerate(text.splitlines(), 1):
                lines.append((number, line, start is not None and start <= number <= last))
        return templates.TemplateResponse(request, "passage.html", {
            "doc": doc, "lines": lines, "passage": passage, "start": start,
            "file_url": f"/files/{_doc_url(doc.doc_id)}", "lang": _language(request)})

    # -- the page ---------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page(request: Request):
        lang = _language(request)
        from preuve.server.i18n import TEXT

        return templates.TemplateResponse(request, "index.html", {
            "lang": lang, "t": TEXT[lang], "text_json": json.dumps(TEXT[lang]),
            "anonymous": bool(settings.anonymous)})

    return app
