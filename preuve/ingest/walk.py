"""Which files an ingest looks at: everything under the given paths except hidden,
`.gitignore`d or `.preuveignore`d and vendored files, and sidecars."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from preuve.ingest.code import CODE_EXTENSIONS, CODE_FILENAMES
from preuve.ingest.metadata import SIDECAR_SUFFIX

# .preuveignore: same syntax as .gitignore, for files kept in git but not in the index
IGNORE_FILES = (".gitignore", ".preuveignore")
VENDORED = {"node_modules", "vendor", "third_party", "site-packages", "__pycache__",
            "bower_components", "dist-packages"}
KIND_BY_SUFFIX = {".pdf": "pdf", ".md": "markdown", ".markdown": "markdown", ".html": "html",
                  ".htm": "html", ".docx": "docx", ".txt": "text", ".text": "text",
                  ".rst": "text"}


def kind_of(path: Path) -> str | None:
    """The parser kind for a file name, or None when preuve does not read that format."""
    suffix = path.suffix.lower()
    if suffix in KIND_BY_SUFFIX:
        return KIND_BY_SUFFIX[suffix]
    if suffix in CODE_EXTENSIONS or path.name in CODE_FILENAMES:
        return "code"
    return None


@dataclass
class Candidate:
    root: Path  # absolute folder paths are relative to
    path: Path  # absolute file path
    relpath: str  # forward slashes
    kind: str | None  # None: unsupported format (reported as skipped)


def walk(target: Path) -> Iterator[Candidate]:
    """Files to consider under `target` (a folder or a single file), in a stable order."""
    target = target.absolute()
    if target.is_file():
        yield Candidate(target.parent, target, target.name, kind_of(target))
        return
    specs: list[tuple[str, pathspec.PathSpec]] = []
    for folder, dirs, files in os.walk(target):
        here = Path(folder)
        rel_dir = here.relative_to(target).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        for ignore_file in IGNORE_FILES:
            if ignore_file in files:
                try:
                    patterns = (here / ignore_file).read_text("utf-8", "replace").splitlines()
                    specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(patterns)))
                except OSError:
                    pass
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".") and d not in VENDORED
            and not (here / d / "pyvenv.cfg").exists()
            and not _ignored(specs, rel_dir + d + "/")
        )
        for name in sorted(files):
            if name.startswith(".") or name.endswith(SIDECAR_SUFFIX):
                continue
            rel = rel_dir + name
            if _ignored(specs, rel):
                continue
            path = here / name
            yield Candidate(target, path, rel, kind_of(path))


def _ignored(specs: list[tuple[str, pathspec.PathSpec]], rel: str) -> bool:
    for base, spec in specs:
        if rel.startswith(base) and spec.match_file(rel[len(base):]):
            return True
    return False
