"""What git-aware ingest asks of a repository, with the `git` command and with dulwich.

    .venv/bin/python bench/git_listing.py                  # a synthetic repo of 5,000 files
    .venv/bin/python bench/git_listing.py --files 20000
    .venv/bin/python bench/git_listing.py --repo .         # a real work tree as well

Per repository, ingest needs (1) the tracked files, (2) their `linguist-vendored` /
`linguist-generated` attributes, (3) the files that differ from HEAD (no pinned link for
them), and (4) HEAD and the remote. Timed: `preuve.ingest.repo` as ingest calls it (the
`git` command, one process per step) against the same answers from dulwich (pure Python)
and pygit2 (libgit2 bindings): `pip install dulwich pygit2`, neither a dependency of
preuve. Median of `--runs` runs, after one
warm-up run each (the page cache warm, as on a developer's machine). The synthetic repo
has 5 % of its files modified after the commit and a `.gitattributes` marking a folder
vendored.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from contextlib import contextmanager, suppress
from importlib import metadata
from pathlib import Path

from preuve.ingest import repo as git_repo


def make_repo(folder: Path, files: int) -> Path:
    folder.mkdir(parents=True)
    run = lambda *a: subprocess.run(["git", "-C", str(folder), *a], check=True,  # noqa: E731
                                    capture_output=True)
    run("init", "-q", "-b", "main")
    run("config", "user.email", "bench@example.org")
    run("config", "user.name", "bench")
    run("remote", "add", "origin", "https://github.com/org/repo.git")
    (folder / ".gitattributes").write_text("third/** linguist-vendored\n")
    for i in range(files):
        sub = folder / ("third" if i % 50 == 0 else f"pkg{i % 40}") / f"mod{i // 400}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"f{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n" * 20)
    run("add", "-A")
    run("commit", "-q", "-m", "init")
    for i in range(0, files, 20):  # 5 % modified after the commit
        sub = "third" if i % 50 == 0 else f"pkg{i % 40}"
        path = folder / sub / f"mod{i // 400}" / f"f{i}.py"
        path.write_text(path.read_text() + "# edited\n")
    return folder


class Steps:
    """Seconds per step of one run: `with steps("list"): ...`."""

    def __init__(self):
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, name: str):
        started = time.perf_counter()
        yield
        self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started


def with_git(folder: Path, steps: Steps) -> tuple[int, int]:
    with steps("head, remote, status"):
        repo = git_repo.open_repo(folder)  # HEAD, remote, modified files
    with steps("list + attributes"):
        listing = git_repo.listed(repo, folder)  # tracked files minus vendored/generated
    return len(listing), len(repo.uncommitted)


def with_dulwich(folder: Path, steps: Steps) -> tuple[int, int]:
    from dulwich import porcelain
    from dulwich.repo import Repo

    with steps("head, remote, status"):
        repo = Repo(str(folder))
        repo.head()
        with suppress(KeyError):  # no origin
            repo.get_config().get((b"remote", b"origin"), b"url")
        status = porcelain.status(repo, untracked_files="no")
        modified = set(status.unstaged) | {p for change in status.staged.values()
                                           for p in change}
    with steps("list + attributes"):
        paths = [p.decode() for p in repo.open_index().paths()]
        attributes = repo.get_gitattributes()
        kept = [p for p in paths if not any(
            attributes.match_path(p.encode()).get(a.encode()) not in (None, False)
            for a in git_repo.ATTRIBUTES)]
    return len(kept), len(modified)


def with_pygit2(folder: Path, steps: Steps) -> tuple[int, int]:
    import pygit2

    with steps("head, remote, status"):
        repo = pygit2.Repository(str(folder))
        _ = repo.head.target
        with suppress(KeyError):  # no origin
            _ = repo.remotes["origin"].url
        clean = pygit2.GIT_STATUS_CURRENT | pygit2.GIT_STATUS_IGNORED
        modified = {p for p, f in repo.status(untracked_files="no").items() if f & ~clean}
    with steps("list + attributes"):
        paths = [entry.path for entry in repo.index]
        kept = [p for p in paths if not any(repo.get_attr(p, a) not in (None, False)
                                            for a in git_repo.ATTRIBUTES)]
    return len(kept), len(modified)


def timed(fn, folder: Path, runs: int) -> tuple[dict[str, float], tuple]:
    """Median seconds of each step and in all, over `runs` runs after a warm-up."""
    answer = fn(folder, Steps())
    runs_steps = []
    for _ in range(runs):
        steps = Steps()
        fn(folder, steps)
        runs_steps.append(steps.seconds | {"total": sum(steps.seconds.values())})
    return {k: statistics.median(r[k] for r in runs_steps) for k in runs_steps[0]}, answer


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--repo", action="append", default=[], help="a real work tree too")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="preuve-git-bench-"))
    try:
        targets = [make_repo(scratch / "synthetic", args.files)] + [
            Path(p).resolve() for p in args.repo]
        version = subprocess.run(["git", "--version"], capture_output=True, text=True).stdout
        print(f"git {version.split()[-1]}, dulwich {_version('dulwich')}, pygit2 "
              f"{_version('pygit2')}; median of {args.runs} runs")
        print(f"{'repository':<14}{'tool':<9}{'total s':>9}{'status s':>10}{'list s':>9}"
              "  files kept, modified")
        for folder in targets:
            for name, fn in (("git", with_git), ("dulwich", with_dulwich),
                             ("pygit2", with_pygit2)):
                try:
                    seconds, answer = timed(fn, folder, args.runs)
                except Exception as exc:  # noqa: BLE001 - a tool that cannot answer says so
                    print(f"{folder.name[:14]:<14}{name:<9}{'failed':>9}  {exc}")
                    continue
                print(f"{folder.name[:14]:<14}{name:<9}{seconds['total']:>9.3f}"
                      f"{seconds['head, remote, status']:>10.3f}"
                      f"{seconds['list + attributes']:>9.3f}  {answer[0]}, {answer[1]}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
