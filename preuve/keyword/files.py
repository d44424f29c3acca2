"""The keyword engine's files: the only module of `preuve.keyword` that touches the disk.

From `SAVE_MIN_ROWS` rows a base segment is saved (beside the SQLite file, or in the cache
folder for a PostgreSQL index) with what other processes would otherwise compute again,
each file named after the base's own save (its stem, "<file>.<token>") and the state or
averages it holds: the base (`save_segment`: the small .npz names the state key it was
made for, big arrays as .npy files memory-mapped when read back, so processes on one index
share their pages), its impacts under the average lengths of a state (`impacts_file`), and
the segments of the rows written since, one per reload, each naming the state it brings
the base to (`recent_file(base, 1)`, `recent_file(base, 2)`, ...). A file is used only
for the state key or averages its name and content say, and a recent segment only when
the change log leads to its state from the one before it: derived files are never
trusted across states.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from preuve import paths
from preuve.columns import FilterColumns
from preuve.keyword.segment import Segment

log = logging.getLogger(__name__)

FORMAT = 2
SAVE_MIN_ROWS = 20_000  # smaller indexes are rebuilt per process, not saved
_IMPACTS_KEPT = 2  # impacts files kept per saved segment (its averages of the latest states)


# -- where (the names: preuve/paths.py) ---------------------------------------------------
def snapshot_path(location: str) -> str | None:
    """Where the base segment of the SQLite index at `location` is saved (None: in memory)."""
    return paths.keyword_base(location)


def cache_path(database: str, schema: str, cache: str | None = None) -> str | None:
    """Where the base segment of a database index is saved: the user's cache folder (the
    `cache` setting, else ~/.cache/preuve), one file per database and schema."""
    return paths.keyword_base(database, schema, cache)


def impacts_file(segment: Segment, key: tuple) -> str | None:
    """Where the impacts of a saved segment under averages `key` are kept (None: not
    saved). Computing them reads every posting (~6 s at a million chunks): a process that
    finds them maps the file instead, and processes on one index share its pages."""
    if segment.stem is None or len(segment) < SAVE_MIN_ROWS:
        return None
    return paths.keyword_impacts(segment.stem, segment.labels, key)


def recent_file(base: Segment, n: int = 1) -> str | None:
    """Where the `n`th segment of rows written since a saved base is kept (from 1)."""
    return None if base.stem is None else paths.keyword_recent(base.stem, n)


def remove_recent(base: Segment, first: int) -> None:
    """Remove the saved recent segments of `base` from the `first`th on."""
    if base.stem is None:
        return
    n = first
    while os.path.exists(recent := paths.keyword_recent(base.stem, n)):
        for saved in glob.glob(glob.escape(recent[:-len(".npz")]) + ".*"):
            _remove(saved)
        _remove(recent)
        n += 1


def saved_files(path: str | None) -> list[str]:
    """The files of the base segment saved at `path` and of what derives from it."""
    if not path:
        return []
    return sorted(glob.glob(glob.escape(path.removesuffix(".npz")) + "*"))


def saved_key(path: str | None) -> str | None:
    """The state key of the segment saved at `path` (reading only its small header), or
    None when there is none."""
    return saved_states(path)[0]


def saved_states(path: str | None) -> tuple[str | None, str | None]:
    """(the state key of the segment saved at `path`, the state it was read since)."""
    info = _info(path)
    return (None, None) if info is None else (info.get("key"), info.get("since"))


def saved_keys(path: str | None) -> list[str]:
    """The state keys of the base segment saved at `path` and of the recent segments saved
    beside it, in order."""
    info = _info(path)
    if path is None or info is None:
        return []
    stem, keys, n = f"{path[:-len('.npz')]}.{info['token']}", [info["key"]], 1
    while (key := saved_key(paths.keyword_recent(stem, n))) is not None:
        keys.append(key)
        n += 1
    return keys


def _info(path: str | None) -> dict | None:
    if not path:
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            info = json.loads(str(data["info"]))
    except (OSError, ValueError, KeyError):
        return None
    return info if info.get("format") == FORMAT else None


# -- segments ------------------------------------------------------------------------------
def save_segment(segment: Segment, path: str, key: str, since: str | None = None) -> None:
    """Write atomically: big arrays as .npy files (memory-mapped when read back) under a
    fresh name, then the small .npz that names them and the key it was made for (and, for
    a recent segment, the state it was read `since`); then remove an earlier save and the
    files derived from it (processes that mapped them keep their copy)."""
    token = f"{os.getpid()}-{time.time_ns()}"
    stem = f"{path[:-len('.npz')]}.{token}"
    c = segment.columns
    info = {"format": FORMAT, "key": key, "rows": len(segment), "token": token,
            "access_codes": c.access_codes, "kind_codes": c.kind_codes, "paths": c.paths,
            "labels": segment.labels, "vocabulary": len(segment.vocabulary), "since": since}
    tmp = f"{path}.{token}.tmp"
    try:
        for name in ("docs", "tf", "title_tf"):
            np.save(f"{stem}.{name}.npy", getattr(segment, name), allow_pickle=False)
        words = "\n".join(segment.vocabulary).encode("utf-8")
        arrays: dict[str, Any] = {
            "rowids": c.rowids, "access": c.access, "kinds": c.kinds, "starts": c.starts,
            "ends": c.ends, "lengths": segment.lengths, "title_lengths": segment.title_lengths,
            "offsets": segment.offsets, "label_of_row": segment.label_of_row,
            "df": segment.df, "words": np.frombuffer(words, dtype=np.uint8)}
        for optional in ("path_ids", "navigation"):
            if getattr(c, optional) is not None:
                arrays[optional] = getattr(c, optional)
        with open(tmp, "wb") as f:
            np.savez(f, info=np.array(json.dumps(info)), **arrays)
        os.replace(tmp, path)
        segment.stem, segment.since = stem, since
    except OSError as e:
        log.warning("could not save the BM25 index at %s: %s", path, e)
        for leftover in (tmp, f"{stem}.docs.npy", f"{stem}.tf.npy", f"{stem}.title_tf.npy"):
            _remove(leftover)
        return
    for other in glob.glob(glob.escape(path[:-len(".npz")]) + ".*.np[yz]*"):  # (+ locks)
        if not other.startswith(stem + ".") and other != path:
            _remove(other)


def load_segment(path: str) -> tuple[Segment, str] | None:
    """(the segment saved at `path`, the state key it was made for), or None."""
    try:
        with np.load(path, allow_pickle=False) as data:
            info = json.loads(str(data["info"]))
            if info.get("format") != FORMAT:
                return None
            a = {name: data[name] for name in data.files if name != "info"}
        stem = f"{path[:-len('.npz')]}.{info['token']}"
        docs = np.load(f"{stem}.docs.npy", mmap_mode="r", allow_pickle=False)
        tf = np.load(f"{stem}.tf.npy", mmap_mode="r", allow_pickle=False)
        title_tf = np.load(f"{stem}.title_tf.npy", mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, KeyError):
        return None
    words = a["words"].tobytes().decode("utf-8")
    vocabulary = {w: i for i, w in enumerate(words.split("\n"))} if words else {}
    if (len(vocabulary) != info["vocabulary"] or len(a["rowids"]) != info["rows"]
            or len(docs) != int(a["offsets"][-1]) or len(tf) != len(docs)
            or len(title_tf) != len(docs) or "title_lengths" not in a):
        return None
    columns = FilterColumns(a["rowids"], a["access"], info["access_codes"], a["kinds"],
                            info["kind_codes"], a["starts"], a["ends"], info["paths"],
                            a.get("path_ids"), navigation=a.get("navigation"))
    return Segment(columns, a["lengths"], vocabulary, a["offsets"], docs, tf, title_tf,
                   a["title_lengths"], info["labels"], a["label_of_row"], a["df"],
                   stem=stem, since=info.get("since")), info["key"]


# -- impacts -------------------------------------------------------------------------------
def load_impacts(path: str, size: int) -> np.ndarray | None:
    try:
        found = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    return found if found.dtype == np.float32 and found.shape == (size,) else None


def save_impacts(path: str, impacts: np.ndarray) -> None:
    """Written under a fresh name, then renamed; only the newest files are kept."""
    tmp = f"{path}.{os.getpid()}-{time.time_ns()}.tmp"
    try:
        with open(tmp, "wb") as f:
            np.save(f, impacts, allow_pickle=False)
        os.replace(tmp, path)
    except OSError as e:
        log.warning("could not save the BM25 impacts at %s: %s", path, e)
        _remove(tmp)
        return
    others = glob.glob(glob.escape(path.rsplit(".impacts-", 1)[0]) + ".impacts-*.npy")
    others.sort(key=_modified, reverse=True)
    for other in others[_IMPACTS_KEPT:]:
        if other != path:
            _remove(other)


# -- locks ---------------------------------------------------------------------------------
_COMPUTING: set[str] = set()  # files this process is computing
_COMPUTING_LOCK = threading.Lock()


@contextlib.contextmanager
def only_one(path: str) -> Iterator[bool]:
    """Whether this caller is the only one, of all threads and processes, computing the
    file at `path` (True: it holds it until the block ends)."""
    with _COMPUTING_LOCK:
        if path in _COMPUTING:
            yield False
            return
        _COMPUTING.add(path)
    try:
        with build_lock(path, wait=False) as mine:
            yield mine
    finally:
        with _COMPUTING_LOCK:
            _COMPUTING.discard(path)


@contextlib.contextmanager
def build_lock(path: str | None, wait: bool = True) -> Iterator[bool]:
    """One process builds a base segment at a time; the others wait, then load what it
    saved. With `wait` False, whether this caller got the lock (False: another holds it).
    No path (an index kept in memory only): no lock."""
    if not path:
        yield True
        return
    try:
        handle = open(path + ".lock", "a+b")
    except OSError:
        yield True
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _modified(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)
