"""Git work trees: which files a repository tracks, at which commit, from which remote.

Read with the `git` command (what `bench/git_listing.py` measured against dulwich: `git`
lists, checks attributes and finds modified files in one process each, with git's own
rules for ignores, attributes, sparse checkouts and worktrees; dulwich re-implements them
in Python and was slower on every step). Without `git` on the PATH, or outside a work
tree, everything here answers None and ingest walks folders as before.

Ingest (`preuve.ingest.walk`) indexes the files a repository tracks (`--untracked` adds
the files git does not ignore), minus those `.gitattributes` marks `linguist-vendored` or
`linguist-generated`. Each file records the commit and remote of its repository
(`git_commit`, `git_remote`, `git_path` in the document's metadata) and, when the remote
is on a known forge and the file is as committed, its page at that commit
(`source_url`, `preuve.forges`). The repository's commit at each whole ingest is kept in
the index (`record`), so `preuve status` can say when the work tree has moved on (`drift`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from preuve.forges import file_url, forge_of

META_KEY = "git_repositories"  # index meta: {work tree: {commit, remote}} at its last ingest
ATTRIBUTES = ("linguist-vendored", "linguist-generated")
TIMEOUT = 60  # seconds for one git command (a listing of a huge repository)


@dataclass
class Repo:
    """One work tree as ingest saw it."""

    top: Path  # the work tree's root folder
    commit: str | None  # HEAD; None before the first commit
    remote: str  # the origin's URL (else the first remote's) without credentials; "" if none
    forge: str | None  # where `remote` is hosted (`preuve.forges`), None if unknown
    # paths that are not as in HEAD: modified, staged, or not tracked at all
    uncommitted: set[str] = field(default_factory=set)

    def pinned_url(self, path: str) -> str | None:
        """The page of `path` (in-repository) at `commit`, when the file is as committed."""
        if not (self.commit and self.forge) or path in self.uncommitted:
            return None
        return file_url(self.remote, self.commit, path, self.forge)

    def metadata(self, path: str) -> dict[str, str]:
        """What a document of this repository records (`Document.meta`)."""
        meta = {"git_path": path}
        if self.commit:
            meta["git_commit"] = self.commit
        if self.remote:
            meta["git_remote"] = self.remote
        pinned = self.pinned_url(path)
        if pinned:
            meta["source_url"] = pinned
        return meta

    def fingerprint(self, path: str) -> str:
        """What, beside the bytes, makes a file's record change: its remote and whether it
        can be pinned. Not the commit: a file that did not change keeps the commit it was
        indexed at, whose lines are its lines."""
        return json.dumps([self.remote, self.forge, path, self.pinned_url(path) is not None])


def _git(folder: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    """`git -C folder args...`'s output, or None when it fails or there is no git."""
    if shutil.which("git") is None:
        return None
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], input=stdin,
                              capture_output=True, timeout=TIMEOUT,
                              env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"})
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def top_of(folder: Path) -> Path | None:
    """The root of the work tree `folder` is in, or None (not in one, or no git)."""
    out = _git(folder, "rev-parse", "--show-toplevel")
    if not out or not out.strip():
        return None
    return Path(out.decode("utf-8", "surrogateescape").strip())


def open_repo(folder: Path) -> Repo | None:
    """The repository whose work tree holds `folder`, read now; None outside one."""
    top = top_of(folder)
    if top is None:
        return None
    head = _git(top, "rev-parse", "-q", "--verify", "HEAD")
    commit = head.decode().strip() if head else None
    remotes, configured = {}, None
    config = _git(top, "config", "-z", "--get-regexp", r"^(remote\..*\.url|preuve\.forge)$")
    for entry in (config or b"").decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = entry.partition("\n")
        if key == "preuve.forge":
            configured = value
        elif key.startswith("remote.") and key.endswith(".url"):
            remotes[key[len("remote."):-len(".url")]] = value
    remote = remotes.get("origin") or next(iter(remotes.values()), "")
    remote = without_credentials(remote)
    return Repo(top, commit, remote, forge_of(remote, configured) if remote else None,
                _modified(top) if commit else set())


def without_credentials(remote: str) -> str:
    """`remote` without a user name or password (https://user:token@host/...)."""
    if "://" not in remote:
        return remote  # scp-like git@host:org/repo: the user is ssh's, no secret
    parts = urlsplit(remote)
    if parts.username is None and parts.password is None:
        return remote
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _modified(top: Path) -> set[str]:
    """Tracked paths whose work-tree or staged content differs from HEAD."""
    out = _git(top, "status", "--porcelain=v1", "-z", "--untracked-files=no",
               "--ignore-submodules=all")
    paths: set[str] = set()
    fields = (out or b"").decode("utf-8", "surrogateescape").split("\0")
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if len(entry) < 4:
            continue
        paths.add(entry[3:])
        if entry[0] in "RC":  # a rename or copy: the next field is its origin
            paths.add(fields[i])
            i += 1
    return paths


def listed(repo: Repo, folder: Path, untracked: bool = False) -> list[str] | None:
    """Paths (in-repository, forward slashes) git tracks under `folder`, with the files it
    does not ignore when `untracked`, minus those `.gitattributes` marks vendored or
    generated; None when git cannot list them."""
    rel = os.path.relpath(folder.resolve(), repo.top)
    spec = [] if rel == "." else ["--", rel.replace(os.sep, "/")]
    out = _git(repo.top, "ls-files", "-z", "--cached", *spec)
    if out is None:
        return None
    paths = _paths(out)
    if untracked:
        others = _paths(_git(repo.top, "ls-files", "-z", "--others", "--exclude-standard",
                             *spec) or b"")
        repo.uncommitted.update(others)  # in no commit: never pinned
        paths = sorted(set(paths) | set(others))
    if not paths:
        return []
    marked = _marked(repo.top, paths)
    return [p for p in paths if p not in marked]


def tracked(repo: Repo, path: str) -> bool:
    """Whether git tracks `path` (in-repository); one that it does not is never pinned."""
    out = _git(repo.top, "ls-files", "-z", "--cached", "--", path)
    if not out:
        repo.uncommitted.add(path)
    return bool(out)


def _paths(out: bytes) -> list[str]:
    return sorted({p for p in out.decode("utf-8", "surrogateescape").split("\0") if p})


def _marked(top: Path, paths: list[str]) -> set[str]:
    """Those of `paths` whose attributes say vendored or generated (`check-attr`)."""
    out = _git(top, "check-attr", "-z", "--stdin", *ATTRIBUTES,
               stdin="\0".join(paths).encode("utf-8", "surrogateescape") + b"\0")
    fields = (out or b"").decode("utf-8", "surrogateescape").split("\0")
    marked = set()
    for i in range(0, len(fields) - 2, 3):
        path, _, value = fields[i:i + 3]
        if value not in ("unspecified", "unset", "false"):
            marked.add(path)
    return marked


# -- what the index remembers of each repository ---------------------------------------------
def record(store, repos: list[Repo]) -> None:
    """Keep each repository's commit at this ingest (index meta `git_repositories`)."""
    if not any(repo.commit for repo in repos):
        return
    known = json.loads(store.get_meta(META_KEY) or "{}")
    for repo in repos:
        if repo.commit:
            known[str(repo.top)] = {"commit": repo.commit, "remote": repo.remote}
    store.set_meta(META_KEY, json.dumps(known, sort_keys=True))


def drift(store) -> list[dict]:
    """For each repository the index recorded, where its work tree is now: `moved` when
    HEAD is not the indexed commit, `changed` the files that differ between the indexed
    commit and the work tree (None when that commit is gone), `missing` when there is no
    work tree there any more."""
    out = []
    for key, indexed in sorted(json.loads(store.get_meta(META_KEY) or "{}").items()):
        top = Path(key)
        row = {"repository": str(top), "remote": indexed.get("remote", ""),
               "indexed_commit": indexed["commit"], "head": None, "moved": False,
               "changed": None}
        head = _git(top, "rev-parse", "-q", "--verify", "HEAD") if top.is_dir() else None
        if head is None:
            row["missing"] = True  # no work tree there any more
            out.append(row)
            continue
        row["head"] = head.decode().strip()
        row["moved"] = row["head"] != indexed["commit"]
        diff = _git(top, "diff", "--name-only", "-z", "--no-renames", indexed["commit"])
        if diff is not None:
            row["changed"] = len([p for p in diff.decode("utf-8", "replace").split("\0") if p])
        out.append(row)
    return out
