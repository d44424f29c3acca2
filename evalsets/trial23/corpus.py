"""Build the `trial23` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial23/corpus.py [DEST]     # default .preuve/corpus/trial23

The documents of the twenty-third new user's trial (docs/answers.md, "A twenty-third new
user's trial"), chosen, asked and judged blind on 25fe990. Layout under DEST:

    upg-en/NAME.html    eight pages of the Ubuntu Packaging Guide (Sphinx;
    upg-fr/NAME.html    ubuntu-packaging-guide-html, -fr: the French pages keep some
                        English paragraphs)
    sqlite/NAME.html    seven pages of SQLite's documentation (sqlite3-doc)
    flask/NAME.html     eight pages of Flask 2.2's documentation (python-flask-doc; Sphinx),
                        flask/patterns/fileuploads.html among them

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, folder_pages, main  # noqa: E402

PACKAGES = ["ubuntu-packaging-guide-html", "ubuntu-packaging-guide-html-fr", "sqlite3-doc",
            "python-flask-doc"]
ROOTS = ["upg-en", "upg-fr", "sqlite", "flask"]
GUIDE = ["getting-set-up", "packaging-new-software", "security-and-stable-release-updates",
         "patches-to-packages", "debian-dir-overview", "introduction-to-ubuntu-development",
         "libraries", "fixing-ftbfs"]
# destination folder -> (package, the folder of the package its pages are in, pages)
FOLDERS = {
    "upg-en": ("ubuntu-packaging-guide-html", "/usr/share/doc/ubuntu-packaging-guide-html",
               GUIDE),
    "upg-fr": ("ubuntu-packaging-guide-html-fr",
               "/usr/share/doc/ubuntu-packaging-guide-html-fr", GUIDE),
    "sqlite": ("sqlite3-doc", "/usr/share/doc/sqlite3",
               ["cli", "datatype3", "wal", "foreignkeys", "autoinc", "lang_createtable",
                "quirks"]),
    "flask": ("python-flask-doc", "/usr/share/doc/python-flask-doc/html",
              ["quickstart", "config", "blueprints", "logging", "errorhandling", "testing",
               "appcontext", "patterns/fileuploads"]),
}


def pairs() -> list[tuple[str, Path]]:
    return expect(*folder_pages(FOLDERS))


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial23")
