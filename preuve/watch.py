"""Keep an index fresh as files change: `preuve watch PATHS`, `preuve serve --watch PATHS`.

A `Watcher` ingests its paths once (`catch_up`), then waits for changes (watchfiles: inotify,
FSEvents, ReadDirectoryChangesW) and ingests each batch through `Index.ingest(only=...)`:
only the files that changed are read, and the batch is one transaction, as `ingest` is (a
crash leaves the index as it was before the batch; the next batch or start catches up).

Batches: changes are gathered until none has come for `quiet` seconds (at most `longest`
seconds), so a file saved twice within `quiet` is read once and a branch switch that
rewrites 500 files is one batch; a file whose bytes come back unchanged is not re-chunked
(ingest's fingerprint). A batch whose ingest fails (the store away) is reported, and the
next batch ingests the paths whole. A change of a repository's `.git/HEAD`, `.git/index` or
branches (a commit, a checkout, `git add`) ingests the whole paths instead: which files are
tracked and which can be pinned to a commit may have changed without any file being
written. Deleted and renamed files lose their chunks in the same batch. Labels are the
`access` given, as for `ingest`; files' own front matter and sidecars still win.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from preuve.errors import InvalidInput, NoSuchFile, PreuveError
from preuve.ingest import IngestReport

log = logging.getLogger("preuve.watch")

QUIET = 1.0  # seconds without a change that close a batch
LONGEST = 10.0  # seconds a batch may gather changes before it is ingested anyway
GIT_STATE = ("HEAD", "index", "packed-refs")  # files of .git/ whose change re-reads it


@dataclass
class Batch:
    """One ingest of the watcher: the paths that changed (empty for a whole ingest), what
    the ingest did, and when."""

    changed: list[str]
    report: IngestReport | None
    whole: bool = False
    error: str = ""
    finished_at: float = field(default_factory=time.time)


class Watcher:
    """Watch `paths` and ingest what changes into `index` (an `Index`, used by this watcher
    only). `ingest_options`: what `Index.ingest` takes besides paths (access, settings,
    max_bytes, max_pages, untracked). `on_batch(batch)` is called after each ingest; `lock`
    (a context manager) is held while one writes (the server's write lock)."""

    def __init__(self, index, paths: Sequence[str | os.PathLike], *,
                 quiet: float = QUIET, longest: float = LONGEST,
                 on_batch: Callable[[Batch], None] | None = None, lock=None,
                 **ingest_options):
        if not paths:
            raise InvalidInput("watch: name at least one file or folder")
        self.paths = [Path(p).absolute() for p in paths]
        for path in self.paths:
            if not path.exists():
                raise NoSuchFile(f"{path}: no such file or folder to watch")
        if quiet <= 0 or longest < quiet:
            raise InvalidInput(f"watch: the quiet period ({quiet} s) must be positive and "
                               f"at most the longest batch ({longest} s)")
        self.index = index
        self.quiet, self.longest = quiet, longest
        self.on_batch = on_batch
        self.lock = lock or nullcontext()
        self.options = ingest_options
        self.stop_event = threading.Event()
        self.batches = 0
        self.behind = False  # a batch failed: the next one is a whole ingest
        self.ready = threading.Event()  # set once the watch is under way

    # -- one batch ----------------------------------------------------------------------
    def catch_up(self) -> Batch:
        """Ingest the whole paths, before watching: an error here (a conflict with the
        index's chunking or embedder, a store away) is raised, not reported."""
        return self._ingest([], whole=True, strict=True)

    def _ingest(self, changed: list[str], whole: bool = False, strict: bool = False) -> Batch:
        whole = whole or self.behind
        try:
            with self.lock:
                report = self.index.ingest(self.paths, only=None if whole else changed,
                                           **self.options)
            batch = Batch(changed, report, whole)
            self.behind = False
        except Exception as exc:  # a store away, a conflict: say it, catch up next time
            if strict:
                raise
            batch = Batch(changed, None, whole, error=str(exc) if isinstance(
                exc, PreuveError) else f"{type(exc).__name__}: {exc}")
            self.behind = True  # the next batch ingests the paths whole
            log.error("watch: ingest failed: %s", batch.error)
        self.batches += 1
        if self.on_batch is not None:
            self.on_batch(batch)
        return batch

    def handle(self, changes: set[tuple[object, str]]) -> Batch | None:
        """Ingest one set of (change, path) from watchfiles."""
        changed = sorted({path for _, path in changes})
        if not changed:
            return None
        whole = any(_git_state(path) for path in changed)
        return self._ingest([p for p in changed if not _git_state(p)], whole=whole)

    # -- the loop -----------------------------------------------------------------------
    def run(self) -> None:
        """Watch until `stop()` (or Ctrl-C in the calling thread)."""
        from watchfiles import watch

        self.ready.set()
        for changes in watch(*self.paths, watch_filter=self._filter(),
                             debounce=int(self.longest * 1000), step=int(self.quiet * 1000),
                             stop_event=self.stop_event, rust_timeout=500,
                             yield_on_timeout=False, raise_interrupt=False):
            if self.stop_event.is_set():
                break
            self.handle(changes)

    def start(self) -> threading.Thread:
        """`run` in a background thread (daemon: it never holds the process open)."""
        thread = threading.Thread(target=self._run_logged, name="preuve-watch", daemon=True)
        thread.start()
        self.thread = thread
        return thread

    def _run_logged(self) -> None:
        try:
            self.run()
        except Exception:  # a watcher that dies must say so, not vanish
            log.exception("watch: stopped by an error")
            raise

    def stop(self, timeout: float = 10.0) -> None:
        """Stop watching; waits for a batch being ingested to finish (its transaction)."""
        self.stop_event.set()
        thread = getattr(self, "thread", None)
        if thread is not None:
            thread.join(timeout)

    def _filter(self):
        from watchfiles import DefaultFilter

        index_files = _index_files(self.index.location)

        class Filter(DefaultFilter):
            def __call__(self, change, path: str) -> bool:
                if _git_state(path):
                    return True
                if index_files and path.startswith(index_files):
                    return False  # the index's own files, when it lives in a watched folder
                return super().__call__(change, path)

        return Filter()


def _git_state(path: str) -> bool:
    """Whether `path` is a repository's HEAD, index or branch (.git/HEAD, .git/index,
    .git/refs/heads/...)."""
    parts = path.split(os.sep)
    if ".git" not in parts:
        return False
    inside = parts[len(parts) - 1 - parts[::-1].index(".git") + 1:]
    return (len(inside) == 1 and inside[0] in GIT_STATE) or (
        len(inside) >= 3 and inside[:2] == ["refs", "heads"] and not inside[-1].endswith(
            ".lock"))


def _index_files(location: str) -> tuple[str, ...]:
    """Path prefixes of an SQLite index's files (the file, its -wal, its caches)."""
    if "://" in str(location):
        return ()
    return (os.path.abspath(location),)
