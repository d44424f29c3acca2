"""The reader: the searcher of a store's current state, one per index per process.

As tantivy's `IndexReader`, it hands out a searcher for a state and reloads it when the
state moves, by an explicit policy:

- **Reload** (`ReloadPolicy`): every query names the state its own read snapshot sees
  (the store's state key); the searcher of another state is reloaded by the change log
  (`changes.py`): the rows the ingests inserted since are read into a segment added to
  the searcher, those they deleted are marked dead, at the cost of the changes whatever
  the size of the index. Otherwise the searcher comes from the saved base segment
  (`files.py`) reloaded likewise, else it is built from every row. Below `background_rows`
  a query waits for that build (it is built in the foreground, or the query waits for the
  background thread building it): the ranking never depends on a thread. From
  `background_rows` rows (a build there takes longer than a query should wait), one
  background thread builds it, and meanwhile `get` answers None: the store ranks through
  its SQL BM25 and declares it in each hit (`FALLBACK`).
- **Merge** (`MergePolicy`): from `max_recent` segments of rows written since the base,
  they are merged into one (every row inserted since the base read again), or, once they
  hold more than the rebuild bound, a new base is built; by the background thread when
  the store gives one, else at the next reload.

`shared` hands one reader per index (location and schema) to every store of the process:
a server's pool of `Index` objects holds one copy of the segments. The store's `persist`
after each ingest leaves the searcher of the new state saved (from `SAVE_MIN_ROWS` rows),
so that a new process maps it instead of building it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from preuve.keyword import files
from preuve.keyword.changes import ChangeSet, generation_of, token_of
from preuve.keyword.searcher import Searcher
from preuve.keyword.segment import Row, Segment

log = logging.getLogger(__name__)

# from this many rows a missing searcher is built in the background, too long to hold a
# query for; below, the query waits for it, whoever builds it. Measured (segment, searcher
# and first query, rows of 80-150 tokens, 2 cores under load 8.8): 20k rows 5.3 s, 50k rows
# 22 s (10 min for 1M). An ingest leaves it saved (`persist`): a new process maps it.
BACKGROUND_MIN_ROWS = 20_000
# what a hit ranked by the store's SQL BM25 says (hit.scores["bm25"]["fallback"])
FALLBACK = "plain BM25 through SQL: the keyword engine was being built"
_SEARCHERS = 4  # searchers of recent states kept (stores of one reader may read different ones)

Records = Callable[[], dict[int, str]]
Rows = Callable[[list[tuple[int, int]] | None], Iterable[Row]]
# what a background build reads in one snapshot of its own (its own connection): the state
# key, and the change records, rows of id ranges and row count of `IndexReader.get`
Snapshot = tuple[str, Records, Rows, Callable[[], int]]
Opener = Callable[[], contextlib.AbstractContextManager[Snapshot]]


@dataclass
class ReloadPolicy:
    """When a missing searcher is built in the background rather than waited for."""

    background_rows: int = BACKGROUND_MIN_ROWS


@dataclass
class MergePolicy:
    """When the segments of rows written since the base are merged, or the base rebuilt."""

    max_recent: int = 4  # from this many, they are merged again
    # beyond this many (while a background thread merges them), a searcher is not reloaded
    max_recent_while_merging: int = 32
    rebuild_fraction: float = 0.05  # rows written since beyond this share of the base ...
    rebuild_min: int = 20_000  # ... and this many: the base is rebuilt

    def reloadable(self, inserted: int, base: Segment) -> bool:
        """Whether a searcher is reloaded from `base` by `inserted` rows (else rebuilt)."""
        return inserted <= max(self.rebuild_min, self.rebuild_fraction * len(base))

    def wants_merge(self, searcher: Searcher) -> bool:
        return (len(searcher.recent) >= self.max_recent
                or not self.reloadable(searcher.recent_rows, searcher.base))


class Stopped(Exception):
    """The reader was closed while its background build ran."""


class _Wait(Exception):
    """A query must wait for the background thread (below `background_rows`)."""


class IndexReader:
    """The searcher of an index's current state, kept in memory, reloaded by the change
    log, loaded from the saved base (`path`, when the store has one) or built from every
    row, and saved there for other processes (module docstring)."""

    def __init__(self, path: str | None, reload: ReloadPolicy | None = None,
                 merge: MergePolicy | None = None):
        self.path = path
        self.reload = reload or ReloadPolicy()
        self.merge = merge or MergePolicy()
        self.searcher: Searcher | None = None  # of the state `key`, the latest taken
        self.key: str | None = None
        self.builds = 0  # full builds from the rows (tests, benchmarks)
        self.fallbacks = 0  # queries answered None while the background build ran
        self.loads = 0  # base segments loaded from the saved files
        self.build_hook: Callable[[], None] | None = None  # the thread runs it first (tests)
        self.users = 0  # stores sharing it (`shared`)
        self.version = 0  # moves whenever the searchers held change (stores' caches)
        self._searchers: OrderedDict[str, Searcher] = OrderedDict()  # by state, recent last
        self._base: tuple[Segment, str] | None = None  # the base in use, and its key
        # what the background thread merged while the searcher in use was reloaded (for
        # the thread's own state): `get` reloads it and takes it up
        self._merged: tuple[Searcher, str] | None = None
        self._lock = threading.Lock()  # one reload at a time (threads share a reader)
        self._thread: threading.Thread | None = None
        self._thread_opener: Opener | None = None
        self._stop = threading.Event()  # the running thread's
        self._failed = False  # a background build failed: build in the foreground

    @property
    def building(self) -> bool:
        """Whether a background build is under way."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def stats(self) -> dict:
        """What it holds, for benchmarks and operators (`index.engine.stats()["keyword"]`)."""
        searcher = self.searcher
        base = None if searcher is None else searcher.base
        return {"builds": self.builds, "loads": self.loads,
                "rows": None if base is None else len(base),
                "postings": None if base is None else int(base.offsets[-1]),
                "files": files.saved_files(self.path), "building": self.building,
                "fallbacks": self.fallbacks,
                "parts": 0 if searcher is None else len(searcher.segments()),
                "users": self.users}

    def get(self, key: str, entries: Records, rows: Rows, size: Callable[[], int],
            opener: Opener | None = None) -> Searcher | None:
        """The searcher for state `key` ("<generation>x<token>"), or None while a background
        build runs from `background_rows` rows (module docstring). `entries` reads the
        change records, `rows(ranges)` the rows of (low, high] id ranges (all rows for
        None), `size` about how many rows there are, all in the same snapshot as `key`;
        `opener` a snapshot of its own for a background thread (None: no thread)."""
        while True:
            with self._lock:
                try:
                    return self._get(key, entries, rows, size, opener)
                except _Wait:
                    thread = self._thread
            if thread is not None:
                thread.join()

    def persist(self, key: str, entries: Records, rows: Rows, size: Callable[[], int]) -> None:
        """After a write: the searcher of state `key` made in the foreground (never None)
        and, from SAVE_MIN_ROWS rows, left saved with its impacts, so that a new process
        maps it instead of building it (a CLI process exits before a background build
        would end)."""
        with self._lock:
            n_rows = size()
            path = self._saved_path(key, n_rows)
            if path is None:  # nothing to save: the next query reloads its searcher
                return
            found = self._get(key, entries, rows, lambda: n_rows, None, wait=True)
            assert found is not None  # (in the foreground)
            with files.build_lock(path):
                _save(found, path)
            self._take(found, key)
        found.save_impacts()

    def _saved_path(self, key: str, n_rows: int) -> str | None:
        # no token (an index no ingest has written to since tokens were drawn): kept in
        # this process only, never saved nor loaded; so are small indexes (no file, no lock)
        return self.path if token_of(key) and n_rows >= files.SAVE_MIN_ROWS else None

    def forget(self, keep_base: bool = False) -> None:
        """Drop the searchers in memory, and the base unless `keep_base` (what a new
        process starts from, or one that kept the base only)."""
        with self._lock:
            self.searcher, self.key = None, None
            if not keep_base:
                self._base = None
            self._searchers = OrderedDict()
            self.version += 1

    def _take(self, searcher: Searcher, key: str) -> None:
        self.version += 1
        self.searcher, self.key = searcher, key
        self._searchers[key] = searcher
        self._searchers.move_to_end(key)
        while len(self._searchers) > _SEARCHERS:
            self._searchers.popitem(last=False)

    def _get(self, key: str, entries: Records, rows: Rows, size: Callable[[], int],
             opener: Opener | None, wait: bool = False) -> Searcher | None:
        if self._merged is not None:
            (merged, merged_key), self._merged = self._merged, None
            taken = merged if merged_key == key else self._reloaded(
                merged, merged_key, key, entries, rows, False)
            if taken is not None:
                self._base = (merged.base, merged.base_key)
                self._take(taken, key)
        if key in self._searchers:
            return self._searchers[key]
        n_rows = size()
        path = self._saved_path(key, n_rows)
        background = (opener is not None and not wait and not self._failed
                      and n_rows >= self.reload.background_rows)
        found = self._reloaded(self.searcher, self.key, key, entries, rows, background)
        if found is not None:
            self._take(found, key)
            if background and not self.building and self.merge.wants_merge(found):
                assert opener is not None  # (background)
                self._start(opener, self._base, path is not None)
            return found
        if self.building:
            if not background and not wait:
                raise _Wait  # below background_rows: the query waits for the thread
            if background:
                self.fallbacks += 1
                return None
        # in the background case, changes no bigger than a small build are still read here
        found = self._forward(key, entries, rows, self._bases(path),
                              self.reload.background_rows if background else None)
        if found is None:  # a build: the searchers held are freed first
            self.searcher, self._searchers = None, OrderedDict()
        if found is None and background:
            assert opener is not None
            base, self._base = self._base, None  # the thread's to use, or to let go
            self._start(opener, base, path is not None)
            self.fallbacks += 1
            return None
        if found is None:
            with files.build_lock(path):
                found = self._forward(key, entries, rows, self._bases(path, disk_only=True))
                if found is None:
                    found = self._build(key, rows(None), path)
        self._take(found, key)
        if opener is not None and found.impacts_unsaved:
            # computed a term at a time meanwhile (`Impacts`)
            threading.Thread(target=found.save_impacts, daemon=True,
                             name="preuve-keyword-impacts").start()
        return found

    def _build(self, key: str, rows: Iterable[Row], path: str | None,
               stop: threading.Event | None = None) -> Searcher:
        """A new base of every row (saved at `path` when given)."""
        base = Segment.build(rows)
        if stop is not None and stop.is_set():
            raise Stopped
        if path:
            files.save_segment(base, path, key)
        found = Searcher(base, key)
        if stop is None:  # (the thread saves them and counts itself)
            found.save_impacts()
            self._base = (base, key)
            self.builds += 1
        return found

    def _reloaded(self, current: Searcher | None, current_key: str | None, key: str,
                  entries: Records, rows: Rows, background: bool) -> Searcher | None:
        """`current` (the searcher of state `current_key`) reloaded to `key` by the rows
        inserted since (read here, in the foreground: up to `background_rows` of them when
        a background thread could read more), or None."""
        if current is None or current_key is None:
            return None
        most = (self.merge.max_recent_while_merging if background else self.merge.max_recent)
        if len(current.recent) >= most:
            return None
        changes = ChangeSet.between(current_key, key, entries())
        if changes is None or (background and changes.inserted > self.reload.background_rows):
            return None
        if not changes.ranges:
            return current.with_changes(changes, None, key)
        if current.recent:
            return current.with_changes(changes, Segment.build(rows(changes.ranges)), key)
        # the first rows inserted since the base (any inserted before are gone): saved
        # as its recent segment for `key` when the base is saved
        return current.with_changes(
            changes, _recent(current.base, current.base_key, key, rows(changes.ranges)), key)

    def _start(self, opener: Opener, base: tuple[Segment, str] | None, saved: bool) -> None:
        self._stop = threading.Event()
        self._thread_opener = opener
        self._thread = threading.Thread(target=self._build_apart,
                                        args=(opener, base, saved, self._stop), daemon=True,
                                        name="preuve-keyword-build")
        self._thread.start()

    def _build_apart(self, opener: Opener, base: tuple[Segment, str] | None, saved: bool,
                     stop: threading.Event) -> None:
        """The background thread: the searcher of the state its own snapshot reads,
        reloaded from `base` or the saved file, else built from the rows (and saved)."""
        try:
            with opener() as (key, entries, rows, _):
                if self.build_hook is not None:
                    self.build_hook()
                path = self.path if saved and token_of(key) else None

                def stoppable(ranges):
                    for i, row in enumerate(rows(ranges)):
                        if not i % 10_000 and stop.is_set():
                            raise Stopped
                        yield row

                with files.build_lock(path):
                    if stop.is_set():
                        raise Stopped
                    bases = [*([base] if base is not None else []),
                             *self._bases(path, True)]
                    # (every row inserted since the base read again: one segment, saved)
                    found = self._forward(key, entries, stoppable, bases, publish=False,
                                          saved_recent=False)
                    built = found is None
                    if found is None:
                        found = self._build(key, stoppable(None), path, stop)
                    found.save_impacts()  # every impact computed here, in the background
            with self._lock:
                self.builds += built
                if self.searcher is None:  # the store answered through SQL meanwhile
                    self._base = (found.base, found.base_key)
                    self._take(found, key)
                else:  # the searcher in use was reloaded meanwhile: `get` takes it up
                    self._merged = (found, key)
                    self.version += 1
        except Stopped:
            pass
        except Exception:  # the store answered through SQL meanwhile; now it builds itself
            self._failed = True
            log.warning("the background build of the keyword index failed", exc_info=True)

    def stop(self, opener: Opener | None = None, wait: float = 10.0) -> None:
        """Stop a background build (of `opener`'s store only, when given: it is closing)
        and wait for it a while."""
        thread = self._thread
        if thread is None or (opener is not None and self._thread_opener != opener):
            return
        self._stop.set()
        if thread is not threading.current_thread():
            thread.join(wait)

    def _bases(self, path: str | None, disk_only: bool = False
               ) -> Iterator[tuple[Segment, str]]:
        if self._base is not None and not disk_only:
            yield self._base
        if path:
            loaded = files.load_segment(path)
            if loaded is not None:
                self.loads += 1
                yield loaded

    def _forward(self, key: str, entries: Records, rows: Rows,
                 bases: Iterable[tuple[Segment, str]], limit: int | None = None,
                 publish: bool = True, saved_recent: bool = True) -> Searcher | None:
        """The searcher for `key` from the first base the change records lead from (with at
        most `limit` rows inserted since to read, when given; a recent segment a process
        saved is read whatever its size), or None. `publish`: remember the base as the one
        in use; `saved_recent`: start from the recent segment a process saved for a base
        (`_from_saved_recent`) when there is one."""
        records = None
        for base, base_key in bases:
            found: Searcher | None
            if base_key == key:
                found = Searcher(base, key)
            else:
                records = entries() if records is None else records
                changes = ChangeSet.between(base_key, key, records)
                if changes is None or not self.merge.reloadable(changes.inserted, base):
                    continue
                found = (_from_saved_recent(base, base_key, key, records, rows, limit)
                         if saved_recent else None)
                if found is None:
                    if limit is not None and changes.inserted > limit:
                        continue
                    new = (_recent(base, base_key, key, rows(changes.ranges))
                           if changes.ranges else None)
                    found = Searcher(base, base_key).with_changes(changes, new, key)
            if publish:
                self._base = (base, base_key)
            return found
        return None


def _recent(base: Segment, base_key: str, key: str, rows: Iterable[Row]) -> Segment:
    """The segment of `rows`, the rows inserted since `base` in state `key`; saved when the
    base is, so that the next process started on this state reads it instead."""
    new = Segment.build(rows)
    path = files.recent_file(base)
    if path:
        files.save_segment(new, path, key, since=base_key)
        files.remove_recent(base, 2)
    return new


def _save(searcher: Searcher, path: str) -> None:
    """The base of `searcher` and its recent segments saved (those not saved yet), each
    recent one naming its state and the state it was read since."""
    base, base_key = searcher.base, searcher.base_key
    if base.stem is None or files.saved_key(path) != base_key:
        files.save_segment(base, path, base_key)
    since = base_key
    for n, (segment, key) in enumerate(zip(searcher.recent, searcher.recent_keys, strict=True),
                                       1):
        target = files.recent_file(base, n)
        if target and files.saved_states(target) != (key, since):
            files.save_segment(segment, target, key, since=since)
        since = key
    files.remove_recent(base, len(searcher.recent) + 1)


def _from_saved_recent(base: Segment, base_key: str, key: str, records: dict[int, str],
                       rows: Rows, limit: int | None) -> Searcher | None:
    """`base` with the recent segments saved for it, each taken while the change log leads
    to its state from the state it says it was read since (never beyond `key`), reloaded
    to `key` by the rows inserted since the last (at most `limit` of them when given), or
    None when none is taken."""
    searcher, state, n = Searcher(base, base_key), base_key, 1
    while (path := files.recent_file(base, n)) is not None:
        loaded = files.load_segment(path)
        if loaded is None or loaded[0].since != state or (
                generation_of(loaded[1]) > generation_of(key)):
            break
        segment, saved = loaded
        changes = ChangeSet.between(state, saved, records)
        if changes is None:
            break
        searcher, state, n = searcher.with_changes(changes, segment, saved), saved, n + 1
    if n == 1:
        return None
    since = ChangeSet.between(state, key, records)
    if since is None or (limit is not None and since.inserted > limit):
        return None
    if state == key:
        return searcher
    return searcher.with_changes(
        since, Segment.build(rows(since.ranges)) if since.ranges else None, key)


# -- one reader per index per process ------------------------------------------------------
_SHARED: dict[tuple, IndexReader] = {}
_SHARED_LOCK = threading.Lock()


def shared(identity: tuple | None, path: str | None) -> IndexReader:
    """The reader of the index `identity` names (its location and schema) for one more
    store of this process: every store of one index shares its segments. None (an index
    no other store can open, SQLite's :memory:): a reader of its own."""
    if identity is None:
        reader = IndexReader(path)
        reader.users = 1
        return reader
    with _SHARED_LOCK:
        found = _SHARED.get(identity)
        if found is None or found.path != path:
            found = _SHARED[identity] = IndexReader(path)
        found.users += 1
        return found


def release(identity: tuple | None, reader: IndexReader, opener: Opener | None) -> None:
    """A store of `reader` closes: its background build stops; the last one's forgets the
    reader (its memory freed when no searcher is in use)."""
    reader.stop(opener)
    with _SHARED_LOCK:
        reader.users -= 1
        if identity is not None and reader.users <= 0 and _SHARED.get(identity) is reader:
            del _SHARED[identity]
            reader.stop()
