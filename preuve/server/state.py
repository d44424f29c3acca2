"""What every route shares: the pool of `Index` objects, the metrics, the settings, and
the FastAPI dependencies that give a route its caller and its index.

Routes never decide an audience: `Who` (any key that reads) and `Admin` (an admin key)
resolve the caller from the API key alone, before the route body runs.
"""

from __future__ import annotations

import collections
import queue
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates

from preuve.errors import InvalidInput, PreuveError
from preuve.index import Index, shown_location
from preuve.server.config import Caller, ServerConfig
from preuve.server.guard import api_key
from preuve.server.pdfpage import PageCache
from preuve.server.uploads import UploadFolder
from preuve.settings import Settings

ADMIN_ROUTES = ("POST /documents", "DELETE /documents/{doc_id}")


class Refused(PreuveError):
    """An HTTP refusal the error families do not name: 401, 403, 413, 415, 422."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.http_status = status


class IndexPool:
    """Index objects (one SQLite connection each) lent to one request at a time; the
    embedding model, when the index has one, is loaded once and shared."""

    def __init__(self, path: str, size: int = 8, settings: Settings | None = None):
        self.path = path
        self.size = size
        self.settings = settings
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
        if index.engine.embedder_loaded or not index.engine.has_vectors:
            return
        with self._embed_lock:
            if self._embedder is None:
                try:
                    self._embedder = index.engine.embedder()
                except PreuveError:  # reported by the request that needs vectors
                    return
        index.engine.lend_embedder(self._embedder)

    def _take(self) -> Index:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if len(self._all) < self.size:
                index = Index(self.path, settings=self.settings)
                self._all.append(index)
                return index
        return self._free.get()

    def has_vectors(self) -> bool:
        with self.get() as index:
            return index.engine.has_vectors

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


@dataclass
class Services:
    """Everything the routes of one app share (`app.state.services`)."""

    index_path: str
    settings: ServerConfig
    pool: IndexPool
    uploads: UploadFolder
    metrics: Metrics
    templates: Jinja2Templates
    generator: Any = None
    pages: PageCache = field(default_factory=PageCache)  # PDF pages the viewer rendered

    @property
    def upload_dir(self) -> Path:
        return self.uploads.folder

    def engine(self, fn):
        """Run `fn(index)` with an index borrowed from the pool."""
        with self.pool.get() as index:
            return fn(index)

    def check_method(self, method: str | None) -> None:
        if method and method != "bm25" and not self.pool.has_vectors():
            raise InvalidInput(f"method {method!r} needs vectors and this index has none "
                               "(keyword search only): use method bm25")

    def clean(self, message: str) -> str:
        """An engine message without the server's own paths (or database URL)."""
        return (message.replace(self.index_path, "the index")
                .replace(shown_location(self.index_path), "the index"))


# ------------------------------------------------------------------------- dependencies
def services(request: Request) -> Services:
    return request.app.state.services


def caller(request: Request) -> Caller:
    """The caller the API key names; 401 without a valid key."""
    key = api_key(request)
    who = services(request).settings.caller(key)
    if who is None:
        raise Refused(401, "invalid API key" if key else
                      "missing API key (send X-API-Key or Authorization: Bearer)")
    return who


def admin(who: Annotated[Caller, Depends(caller)]) -> Caller:
    """An admin caller; 403 for any other key."""
    if not who.admin:
        raise Refused(403, "this needs an admin key")
    return who


Who = Annotated[Caller, Depends(caller)]
Admin = Annotated[Caller, Depends(admin)]
App = Annotated[Services, Depends(services)]
