"""Which files an ingest looks at: everything under the given paths except hidden,
`.gitignore`d or `.preuveignore`d and vendored files, and sidecars.

Links are never followed inside a folder: a symbolic link (to a file or a folder, inside
the folder or out of it, broken or looping) is a candidate with a reason and no kind, which
ingest reports as skipped. A file or folder named by the caller is taken as given, even
when it is itself a link: that is the caller's choice."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from preuve.ingest.base import ParseError
from preuve.ingest.limits import read_regular
from preuve.ingest.metadata import SIDECAR_SUFFIX
from preuve.registry import kind_of

# .preuveignore: same syntax as .gitignore, for files kept in git but not in the index
IGNORE_FILES = (".gitignore", ".preuveignore")
VENDORED = {"node_modules", "vendor", "third_party", "site-packages", "__pycache__",
            "bower_components", "dist-packages"}
UNSUPPORTED = "unsupported file type"
MAX_IGNORE_FILE_BYTES = 1024 * 1024


@dataclass
class Candidate:
    root: Path  # absolute folder paths are relative to
    path: Path  # absolute file path
    relpath: str  # forward slashes
    kind: str | None  # None: not read (reported as skipped, with `reason`)
    reason: str = UNSUPPORTED


def walk(target: Path) -> Iterator[Candidate]:
    """Files to consider under `target` (a folder or a single file), in a stable order."""
    if target.is_symlink() and target.is_file():
        target = target.resolve()  # named by the caller: its real location is the file
    target = target.absolute()
    if target.is_file():
        yield Candidate(target.parent, target, target.name, kind_of(target))
        return
    specs: list[tuple[str, pathspec.PathSpec]] = []
    real_target = target.resolve()
    for folder, dirs, files in os.walk(target):
        here = Path(folder)
        rel_dir = here.relative_to(target).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        for ignore_file in IGNORE_FILES:
            if ignore_file in files:
                patterns = _ignore_patterns(here / ignore_file)
                specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(patterns)))
        kept = sorted(
            d for d in dirs
            if not d.startswith(".") and d not in VENDORED
            and not _ignored(specs, rel_dir + d + "/")
        )
        dirs[:] = []
        for name in kept:
            path = here / name
            if path.is_symlink():  # os.walk does not descend into it: say so
                yield Candidate(target, path, rel_dir + name + "/", None,
                                _link_reason(path, real_target))
            elif not (path / "pyvenv.cfg").exists():
                dirs.append(name)
        for name in sorted(files):
            if name.startswith(".") or name.endswith(SIDECAR_SUFFIX):
                continue
            rel = rel_dir + name
            if _ignored(specs, rel):
                continue
            path = here / name
            if path.is_symlink():
                yield Candidate(target, path, rel, None, _link_reason(path, real_target))
            else:
                yield Candidate(target, path, rel, kind_of(path))


def _link_reason(link: Path, real_target: Path) -> str:
    """Why a link found in a folder is not followed, by where it leads."""
    try:
        real = link.resolve(strict=True)
    except (OSError, RuntimeError):  # broken, or a loop
        return "symbolic link that leads nowhere (broken or a loop), not followed"
    if real == real_target or real_target in real.parents:
        return "symbolic link within the folder, not followed (files are read by their own path)"
    return "symbolic link to outside the ingested folder, not followed"


def _ignore_patterns(path: Path) -> list[str]:
    """The lines of an ignore file; none when it is not a small regular file of its own."""
    try:
        data = read_regular(path, MAX_IGNORE_FILE_BYTES)
    except (OSError, ParseError):
        return []
    return data.decode("utf-8", "replace").splitlines()


def _ignored(specs: list[tuple[str, pathspec.PathSpec]], rel: str) -> bool:
    for base, spec in specs:
        if rel.startswith(base) and spec.match_file(rel[len(base):]):
            return True
    return False
