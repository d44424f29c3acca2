"""The Markdown pages' links resolve (scripts/check_links.py, also run by `make lint`):
README, CONTRIBUTING, bench/README and docs/ (reference pages and docs/measurements/)."""

from __future__ import annotations

import importlib.util

from conftest import REPO

_spec = importlib.util.spec_from_file_location("check_links",
                                               REPO / "scripts" / "check_links.py")
assert _spec is not None and _spec.loader is not None
check_links = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_links)


def test_every_link_of_the_pages_resolves():
    assert check_links.broken() == []
    pages = {p.relative_to(REPO).as_posix() for p in check_links.pages()}
    assert {"README.md", "CONTRIBUTING.md", "bench/README.md", "docs/security.md",
            "docs/measurements/benchmarks.md"} <= pages


def test_the_checker_finds_a_missing_page_a_missing_heading_and_a_missing_path(tmp_path):
    (tmp_path / "docs" / "measurements").mkdir(parents=True)
    (tmp_path / "preuve").mkdir()
    (tmp_path / "bench").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(
        "# Guide\n\n## Speed, SQLite against `PostgreSQL`\n\n## Speed, SQLite against "
        "`PostgreSQL`\n", "utf-8")
    (tmp_path / "docs" / "measurements" / "speed.md").write_text(
        "# Speed\n\nBack to [the guide](../guide.md#guide), [web](https://example.org/x).\n"
        "```\n[not a link](nowhere.md)\n```\n", "utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/guide.md#speed-sqlite-against-postgresql-1) "
        "[moved](docs/speed.md) [anchor](docs/guide.md#install) "
        "`docs/measurements/speed.md` `docs/benchmarks.md` "
        "`- [Install](#install)` in code is no link\n", "utf-8")
    (tmp_path / "preuve" / "x.py").write_text(
        "# measured in docs/measurements/speed.md and docs/benchmarks.md\n"
        "# [label](file:///srv/docs/x.md#L3)\n", "utf-8")
    assert check_links.broken(tmp_path) == [
        "README.md:1: docs/speed.md: no such file",
        "README.md:1: docs/guide.md#install: no heading #install there",
        "README.md:1: `docs/benchmarks.md`: no such file",
        "preuve/x.py:1: docs/benchmarks.md: no such page",
    ]
