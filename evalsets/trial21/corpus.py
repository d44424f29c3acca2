"""Build the `trial21` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial21/corpus.py [DEST]     # default .preuve/corpus/trial21

The documents of the twenty-first new user's trial (docs/answers.md, "A twenty-first new
user's trial"), chosen, asked and judged blind on the sixteenth session's final code at
21f357a. Layout under DEST:

    kicad-en/NAME.html   KiCad 6's getting-started guide, project manager and drawing-sheet
    kicad-fr/NAME.html   editor manuals (kicad-doc-en, kicad-doc-fr; asciidoctor, one page
                         each; the French getting-started guide is untranslated English)
    postgres/NAME.html   eight pages of the PostgreSQL 15 manual (postgresql-doc-15;
                         DocBook): pg_dump, psql, pg_hba.conf, index types, role
                         attributes, vacuuming, transaction isolation, EXPLAIN
    git/NAME.html        six Git manual pages (git-doc; AsciiDoc): stash, bisect, rebase,
                         gitignore, worktree, reflog

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, folder_pages, main  # noqa: E402

PACKAGES = ["kicad-doc-en", "kicad-doc-fr", "postgresql-doc-15", "git-doc"]
ROOTS = ["kicad-en", "kicad-fr", "postgres", "git"]
KICAD = ["getting_started_in_kicad", "kicad", "pl_editor"]
POSTGRES = ["app-pgdump", "app-psql", "auth-pg-hba-conf", "indexes-types", "role-attributes",
            "routine-vacuuming", "transaction-iso", "using-explain"]
GIT = ["git-stash", "git-bisect", "git-rebase", "gitignore", "git-worktree", "git-reflog"]
# destination folder -> (package, the folder of the package its pages are in, pages)
FOLDERS = {
    "kicad-en": ("kicad-doc-en", "/usr/share/doc/kicad/help/en", KICAD),
    "kicad-fr": ("kicad-doc-fr", "/usr/share/doc/kicad/help/fr", KICAD),
    "postgres": ("postgresql-doc-15", "/usr/share/doc/postgresql-doc-15/html", POSTGRES),
    "git": ("git-doc", "/usr/share/doc/git-doc", GIT),
}


def pairs() -> list[tuple[str, Path]]:
    return expect(*folder_pages(FOLDERS))


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial21")
