"""Git-aware ingest on real repositories made here (`git init`, commits, a local bare
remote whose URL is GitHub's): the tracked files only, vendored and generated files left
out, each document pinned to its commit, links to the forge's page of that commit with the
host's line anchors, and `status` saying when the work tree has moved past the index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FACTURO, HANDBOOK, open_index, run_cli

from preuve.answer import link_for
from preuve.forges import file_url, forge_of, line_anchor
from preuve.ingest.repo import without_credentials

GITHUB = "https://github.com/org/repo.git"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "git"
ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.org",
       "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "t@example.org",
       "GIT_CONFIG_NOSYSTEM": "1"}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True,
                          env={**os.environ, **ENV})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def make_repo(folder: Path, remote: str | None = None) -> Path:
    git(folder.parent, "init", "-q", "-b", "main", str(folder))
    if remote:
        git(folder, "config", "remote.origin.url", remote)
    return folder


def commit(folder: Path, message: str = "change") -> str:
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)
    return git(folder, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path) -> Path:
    """A work tree of facturo and one handbook page whose origin is GitHub by name, while
    pushes and fetches go to a bare repository here (`url.<bare>.insteadOf`)."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = make_repo(tmp_path / "work", GITHUB)
    git(work, "config", f"url.{bare.as_uri()}.insteadOf", GITHUB)
    shutil.copytree(FACTURO, work / "facturo",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (work / "docs").mkdir()
    shutil.copy(HANDBOOK / "conges.md", work / "docs" / "conges.md")
    commit(work, "facturo")
    git(work, "push", "-q", "origin", "main")
    return work


def hit_for(index, symbol: str):
    hits = [h for h in index.where(symbol, k=10) if h.symbol and h.symbol.endswith(symbol)]
    assert hits, f"no location for {symbol}"
    return hits[0]


def test_links_are_pinned_to_the_commit_on_the_github_remote(repo, fresh_index):
    head = git(repo, "rev-parse", "HEAD")
    # the remote is GitHub by its URL, yet it is the local bare repository that holds it
    assert git(repo, "ls-remote", "origin", "main").split()[0] == head
    with open_index(fresh_index) as index:
        report = index.ingest([repo])
        assert report.ok and "facturo/tva.py" in report.added
        hit = hit_for(index, "taux_tva")
        page = f"https://github.com/org/repo/blob/{head}/facturo/tva.py"
        assert hit.path == "facturo/tva.py" and hit.source_url == page
        assert link_for(hit) == f"{page}#L{hit.start_line}-L{hit.end_line}"
        # --link-base still wins
        base = "https://git.example.org/mirror/blob/v1"
        assert link_for(hit, base) == f"{base}/facturo/tva.py#L{hit.start_line}-L{hit.end_line}"
        doc = next(d for d in index.documents() if d.path == "facturo/tva.py")
        assert doc.meta["git_commit"] == head and doc.meta["git_remote"] == GITHUB
        assert doc.meta["git_path"] == "facturo/tva.py"
        # an answer's citations link there too (the CLI's `ask` builds them the same way)
        answer = index.ask("Quel est le taux de TVA standard en France ?")
        assert not answer.refused, answer.reason
        assert f"https://github.com/org/repo/blob/{head}/" in answer.answer


def test_ask_on_the_command_line_links_to_the_commit(repo, tmp_path):
    db = tmp_path / "cli.sqlite"
    assert run_cli("ingest", str(repo), "--index", str(db)).returncode == 0
    head = git(repo, "rev-parse", "HEAD")
    done = run_cli("ask", "Quel est le taux de TVA standard en France ?", "--index", str(db),
                   "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert f"(https://github.com/org/repo/blob/{head}/facturo/" in answer["answer"]
    assert "file://" not in answer["answer"]


def test_a_subfolder_keeps_its_paths_in_the_repository(repo, tmp_path):
    head = git(repo, "rev-parse", "HEAD")
    with open_index(tmp_path / "sub.sqlite") as index:
        index.ingest([repo / "facturo"])
        hit = hit_for(index, "taux_tva")
        assert hit.path == "tva.py"  # relative to the folder ingested
        assert hit.source_url == f"https://github.com/org/repo/blob/{head}/facturo/tva.py"


def test_a_file_changed_since_the_commit_is_pinned_once_committed(repo, fresh_index):
    first = git(repo, "rev-parse", "HEAD")
    tva = repo / "facturo" / "tva.py"
    tva.write_text("# taux revus en 2027\n" + tva.read_text())  # lines moved, not committed
    with open_index(fresh_index) as index:
        index.ingest([repo])
        hit = hit_for(index, "taux_tva")
        assert hit.source_url is None  # its lines are not those of any commit
        assert link_for(hit).startswith("file://")
        assert hit_for(index, "penalites_de_retard").source_url.startswith(
            f"https://github.com/org/repo/blob/{first}/")
        second = commit(repo, "taux 2027")
        report = index.ingest([repo])
        assert report.updated == ["facturo/tva.py"]  # the others did not change
        hit = hit_for(index, "taux_tva")
        assert hit.source_url == f"https://github.com/org/repo/blob/{second}/facturo/tva.py"
        # an unchanged file keeps the commit it was indexed at: its lines are the same there
        assert f"/blob/{first}/" in hit_for(index, "penalites_de_retard").source_url


def test_tracked_files_only_without_vendored_or_generated_ones(repo, tmp_path):
    (repo / "vendor").mkdir()
    shutil.copy(FACTURO / "tva.py", repo / "vendor" / "tva_copie.py")
    (repo / "third").mkdir()
    shutil.copy(FACTURO / "export.py", repo / "third" / "export_copie.py")
    shutil.copy(FACTURO / "relances.py", repo / "facturo" / "relances_gen.py")
    shutil.copy(FIXTURES / "kind_string.go", repo / "kind_string.go")
    shutil.copy(FIXTURES / "clipboard.min.js", repo / "clipboard.min.js")
    shutil.copy(FIXTURES / "clipboard.min.js", repo / "bundle.js")  # minified, any name
    (repo / ".gitattributes").write_text("third/** linguist-vendored\n"
                                         "facturo/relances_gen.py linguist-generated=true\n")
    (repo / "docs" / "skipped.md").write_text("# Hors index\n\nPas pour preuve.\n")
    (repo / ".preuveignore").write_text("docs/skipped.md\n")
    commit(repo, "vendored and generated files")
    (repo / "brouillon.md").write_text("# Brouillon\n\nPas encore suivi par git.\n")
    (repo / ".gitignore").write_text("build/\n")
    (repo / "build").mkdir()
    (repo / "build" / "out.md").write_text("# Build\n\nIgnoré par git.\n")
    git(repo, "rm", "-q", "--cached", "docs/conges.md")  # still on disk, no longer tracked
    with open_index(tmp_path / "t.sqlite") as index:
        report = index.ingest([repo])
        paths = {d.path for d in index.documents()}
        assert paths == {f"facturo/{f.name}" for f in FACTURO.glob("*.py")}
        skipped = {p.path: p.reason for p in report.skipped}
        assert skipped["kind_string.go"].startswith("generated file")
        assert skipped["clipboard.min.js"] == skipped["bundle.js"] == "minified file"
        # untracked files too when asked, never what git ignores
        report = index.ingest([repo], untracked=True)
        assert sorted(report.added) == ["brouillon.md", "docs/conges.md"]
        brouillon = next(d for d in index.documents() if d.path == "brouillon.md")
        assert "source_url" not in brouillon.meta  # in no commit: nothing to pin
        # back to tracked files only: the untracked ones leave the index
        assert sorted(index.ingest([repo]).removed) == ["brouillon.md", "docs/conges.md"]


def test_plain_folder_ingest_skips_generated_and_minified_files_too(tmp_path):
    folder = tmp_path / "plain"
    folder.mkdir()
    shutil.copy(FIXTURES / "kind_string.go", folder)
    shutil.copy(FIXTURES / "clipboard.min.js", folder)
    shutil.copy(FACTURO / "tva.py", folder)
    with open_index(tmp_path / "p.sqlite") as index:
        report = index.ingest([folder])
        assert report.added == ["tva.py"]
        assert {p.path for p in report.skipped} == {"kind_string.go", "clipboard.min.js"}
        assert index.documents()[0].meta.get("source_url") is None
        # a file that becomes generated leaves the index
        tva = folder / "tva.py"
        tva.write_text("# Code generated by gen-tva. DO NOT EDIT.\n" + tva.read_text())
        assert index.ingest([folder]).removed == ["tva.py"]
        assert index.documents() == []


def test_status_says_when_the_repository_moved_past_the_index(repo, tmp_path):
    db = tmp_path / "s.sqlite"
    assert run_cli("ingest", str(repo), "--index", str(db)).returncode == 0
    indexed = git(repo, "rev-parse", "HEAD")
    out = run_cli("status", "--index", str(db)).stdout
    assert f"repository {repo} (indexed at {indexed[:12]}): up to date" in out
    for name in ("tva.py", "export.py"):
        path = repo / "facturo" / name
        path.write_text(path.read_text() + "\n# revu\n")
    head = commit(repo, "two files")
    (repo / "docs" / "conges.md").write_text("# Congés\n\nEn cours de réécriture.\n")
    out = run_cli("status", "--index", str(db)).stdout
    assert (f"moved past the indexed commit, now at {head[:12]}; 3 files changed since"
            in out), out
    stats = json.loads(run_cli("status", "--index", str(db), "--json").stdout)
    (row,) = stats["repositories"]
    assert row == {"repository": str(repo), "remote": GITHUB, "indexed_commit": indexed,
                   "head": head, "moved": True, "changed": 3}
    git(repo, "checkout", "-q", "docs/conges.md")
    assert run_cli("ingest", str(repo), "--index", str(db)).returncode == 0
    out = run_cli("status", "--index", str(db)).stdout
    assert f"(indexed at {head[:12]}): up to date" in out


def test_repositories_inside_a_plain_folder_each_keep_their_own(tmp_path):
    code = tmp_path / "code"
    code.mkdir()
    lab = make_repo(code / "lab", "git@gitlab.com:team/lab.git")
    shutil.copy(FACTURO / "tva.py", lab / "tva.py")
    lab_head = commit(lab)
    bucket = make_repo(code / "bucket", "https://jo:s3cr3t-t0ken@bitbucket.org/team/bucket.git")
    shutil.copy(FACTURO / "relances.py", bucket / "relances.py")
    bucket_head = commit(bucket)
    odd = make_repo(code / "odd", "https://git.internal.example/team/odd.git")
    shutil.copy(FACTURO / "export.py", odd / "export.py")
    commit(odd)
    (code / "notes.md").write_text("# Notes\n\nHors de tout dépôt.\n")
    with open_index(tmp_path / "n.sqlite") as index:
        report = index.ingest([code])
        assert sorted(report.added) == ["bucket/relances.py", "lab/tva.py", "notes.md",
                                        "odd/export.py"]
        tva = hit_for(index, "taux_tva")
        assert tva.source_url == f"https://gitlab.com/team/lab/-/blob/{lab_head}/tva.py"
        assert link_for(tva).endswith(f"#L{tva.start_line}-{tva.end_line}")
        relance = hit_for(index, "penalites_de_retard")
        assert relance.source_url == (
            f"https://bitbucket.org/team/bucket/src/{bucket_head}/relances.py")
        assert link_for(relance).endswith(f"#lines-{relance.start_line}:{relance.end_line}")
        assert hit_for(index, "formater_montant").source_url is None  # unknown host
        docs = {d.path: d for d in index.documents()}
        assert docs["bucket/relances.py"].meta["git_remote"] == (
            "https://bitbucket.org/team/bucket.git")  # the token is never kept
        assert "s3cr3t" not in json.dumps([d.meta for d in docs.values()])
        assert "git_commit" not in docs["notes.md"].meta
    # a self-hosted forge named in the repository's configuration
    git(odd, "config", "preuve.forge", "gitea")
    with open_index(tmp_path / "n.sqlite") as index:
        assert index.ingest([code]).updated == ["odd/export.py"]
        hit = hit_for(index, "formater_montant")
        assert hit.source_url.startswith("https://git.internal.example/team/odd/src/commit/")
        assert link_for(hit).endswith(f"#L{hit.start_line}-L{hit.end_line}")


@pytest.mark.parametrize(("remote", "forge", "page"), [
    ("https://github.com/org/repo.git", "github", "https://github.com/org/repo/blob/C/a/b.py"),
    ("git@github.com:org/repo.git", "github", "https://github.com/org/repo/blob/C/a/b.py"),
    ("ssh://git@github.com/org/repo", "github", "https://github.com/org/repo/blob/C/a/b.py"),
    ("git@gitlab.com:group/sub/repo.git", "gitlab",
     "https://gitlab.com/group/sub/repo/-/blob/C/a/b.py"),
    ("https://gitlab.example.org/g/r.git", "gitlab", "https://gitlab.example.org/g/r/-/blob/C/a/b.py"),
    ("https://codeberg.org/o/r.git", "gitea", "https://codeberg.org/o/r/src/commit/C/a/b.py"),
    ("ssh://git@forgejo.example.net:2222/o/r.git", "gitea",
     "https://forgejo.example.net/o/r/src/commit/C/a/b.py"),
    ("git@bitbucket.org:team/r.git", "bitbucket", "https://bitbucket.org/team/r/src/C/a/b.py"),
    ("https://git.example.org/o/r.git", None, None),
    ("/srv/git/repo.git", None, None),
    ("file:///srv/git/repo.git", None, None),
])
def test_forge_pages_from_every_remote_form(remote, forge, page):
    assert forge_of(remote) == forge
    assert (file_url(remote, "C", "a/b.py", forge) if forge else None) == page


@pytest.mark.parametrize(("url", "one", "range_"), [
    ("https://github.com/o/r/blob/C/f.py", "#L7", "#L18-L25"),
    ("https://gitlab.com/o/r/-/blob/C/f.py", "#L7", "#L18-25"),
    ("https://git.corp/o/r/-/blob/C/f.py", "#L7", "#L18-25"),  # a self-hosted GitLab
    ("https://codeberg.org/o/r/src/commit/C/f.py", "#L7", "#L18-L25"),
    ("https://bitbucket.org/o/r/src/0123abcd/f.py", "#lines-7", "#lines-18:25"),
])
def test_each_forge_has_its_line_anchor(url, one, range_):
    assert line_anchor(url, 7, 7) == one
    assert line_anchor(url, 18, 25) == range_


def test_credentials_are_dropped_from_remotes():
    assert without_credentials("https://u:tok@github.com/o/r.git") == "https://github.com/o/r.git"
    assert without_credentials("https://tok@host:8443/o/r") == "https://host:8443/o/r"
    assert without_credentials("git@github.com:o/r.git") == "git@github.com:o/r.git"


def test_a_named_folder_git_ignores_is_walked_as_a_plain_folder(repo, tmp_path):
    """`preuve ingest .preuve/corpus` inside a work tree whose .gitignore holds `.preuve/`
    ingested nothing and said nothing: a folder the caller names is taken, like a file."""
    (repo / ".gitignore").write_text("corpus/\n")
    corpus = repo / "corpus"
    corpus.mkdir()
    shutil.copy(FACTURO / "tva.py", corpus)
    with open_index(tmp_path / "ignored.sqlite") as index:
        report = index.ingest([corpus])
        assert report.added == ["tva.py"], report
        assert index.documents()[0].meta.get("source_url") is None  # in no commit
