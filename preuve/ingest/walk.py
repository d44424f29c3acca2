"""Which files an ingest looks at: everything under the given paths except hidden,
`.gitignore`d or `.preuveignore`d and vendored files, and sidecars.

In a git work tree, the files the repository tracks (`untracked=True` adds those git does
not ignore), minus hidden, vendored and `.preuveignore`d ones and those `.gitattributes`
marks `linguist-vendored` or `linguist-generated` (`preuve.ingest.repo`); a repository
met inside a plain folder is listed the same way. Generated and minified files are told
by their content at ingest (`generated`).

Links are never followed inside a folder: a symbolic link (to a file or a folder, inside
the folder or out of it, broken or looping) is a candidate with a reason and no kind, which
ingest reports as skipped. A file or folder named by the caller is taken as given, even
when it is itself a link: that is the caller's choice."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from preuve.ingest.base import ParseError
from preuve.ingest.limits import read_regular
from preuve.ingest.metadata import SIDECAR_SUFFIX
from preuve.ingest.repo import Repo, listed, open_repo, top_of, tracked
from preuve.registry import kind_of

if TYPE_CHECKING:  # imported where a folder is walked: a question never needs it
    import pathspec

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
    repo: Repo | None = None  # the git work tree holding the file, if any
    repo_path: str = ""  # the file's path in that repository


class Walk:
    """The files under some folders (`files`), and the git repositories they were listed
    from (`repos`), each opened once."""

    def __init__(self, untracked: bool = False):
        self.untracked = untracked
        self.repos: dict[Path, Repo | None] = {}

    def repo(self, folder: Path) -> Repo | None:
        top = top_of(folder)
        if top is None:
            return None
        if top not in self.repos:
            self.repos[top] = open_repo(top)
        return self.repos[top]

    def files(self, target: Path) -> Iterator[Candidate]:
        """Files to consider under `target` (a folder or a single file), in a stable order."""
        yield from walk(target, self)


def walk(target: Path, session: Walk | None = None) -> Iterator[Candidate]:
    """Files to consider under `target` (a folder or a single file), in a stable order."""
    session = session or Walk()
    if target.is_symlink() and target.is_file():
        target = target.resolve()  # named by the caller: its real location is the file
    target = target.absolute()
    if target.is_file():
        repo = session.repo(target.parent)
        in_repo = ""
        if repo is not None:  # named by the caller: taken, tracked or not
            in_repo = os.path.relpath(target.resolve(), repo.top).replace(os.sep, "/")
            tracked(repo, in_repo)
        yield Candidate(target.parent, target, target.name, kind_of(target), repo=repo,
                        repo_path=in_repo)
        return
    repo = session.repo(target)
    if repo is not None:
        listing = listed(repo, target, session.untracked)
        # a folder git tracks nothing in (ignored, or never added) was named by the caller:
        # walked as a plain folder, as a named file is taken tracked or not
        if listing:
            yield from _walk_repo(target, target, repo, listing, session)
            return
    import pathspec

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
            elif (path / ".git").exists() and (inner := _listed_repo(path, session)):
                yield from _walk_repo(target, path, *inner, session)
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


def _listed_repo(folder: Path, session: Walk) -> tuple[Repo, list[str]] | None:
    repo = session.repo(folder)
    listing = None if repo is None else listed(repo, folder, session.untracked)
    return None if listing is None else (repo, listing)


def _walk_repo(target: Path, folder: Path, repo: Repo, listing: list[str],
               session: Walk) -> Iterator[Candidate]:
    """The files of `listing` (in-repository paths under `folder`) as candidates under
    `target`, with the same exclusions as a plain folder but git's ignore rules."""
    import pathspec

    real_target = target.resolve()  # git names the work tree by its real path
    specs: list[tuple[str, pathspec.PathSpec]] = []
    seen_dirs: dict[str, bool] = {}  # folder -> whether it is a virtual environment
    for in_repo in listing:
        rel = os.path.relpath(repo.top / in_repo, real_target).replace(os.sep, "/")
        parts = rel.split("/")
        if any(p.startswith(".") for p in parts) or any(p in VENDORED for p in parts[:-1]):
            continue
        if rel.endswith(SIDECAR_SUFFIX):
            continue
        for depth in range(len(parts)):  # folders on the way, looked at once each
            base = "/".join(parts[:depth])
            if base not in seen_dirs:
                here = target.joinpath(*parts[:depth])
                seen_dirs[base] = (here / "pyvenv.cfg").exists()  # a virtual environment
                if (here / ".preuveignore").is_file():
                    specs.append((base + "/" if base else "",
                                  pathspec.GitIgnoreSpec.from_lines(
                                      _ignore_patterns(here / ".preuveignore"))))
        if any(seen_dirs["/".join(parts[:d])] for d in range(1, len(parts))) or _ignored(
                specs, rel):
            continue
        path = target.joinpath(*parts)
        if path.is_symlink():
            yield Candidate(target, path, rel, None, _link_reason(path, real_target))
        elif path.is_dir():  # a submodule: its own repository
            inner = _listed_repo(path, session)
            if inner is not None and inner[0].top != repo.top:
                yield from _walk_repo(target, path, *inner, session)
        elif path.is_file():  # (a file deleted but still in git's index is not)
            yield Candidate(target, path, rel, kind_of(path), repo=repo, repo_path=in_repo)


# Generated and minified files, by their content (the markers GitHub's linguist reads):
# Go's `// Code generated ... DO NOT EDIT.`, `@generated`, protoc's banner, near the top.
GENERATED = "generated file (a 'Code generated ... DO NOT EDIT' or @generated marker)"
MINIFIED = "minified file"
_GENERATED_MARK = re.compile(
    rb"^\W{0,4}(Code generated .{0,200}DO NOT EDIT|@generated\b"
    rb"|Generated by the protocol buffer compiler\.\s+DO NOT EDIT)", re.MULTILINE)
_MINIFIABLE = (".js", ".mjs", ".cjs", ".css")
MINIFIED_LINE = 110  # mean characters per line above which .js/.css is minified (linguist)


def generated(path: Path, data: bytes) -> str | None:
    """Why a file is not worth indexing although it is code: generated or minified."""
    if _GENERATED_MARK.search(data[:4096]):
        return GENERATED
    name = path.name.lower()
    if name.endswith(_MINIFIABLE):
        if ".min." in name:
            return MINIFIED
        lines = data.count(b"\n") + 1
        if len(data) / lines > MINIFIED_LINE:
            return MINIFIED
    return None


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
