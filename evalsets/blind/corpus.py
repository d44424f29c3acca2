"""Build the `blind` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/blind/corpus.py [DEST]     # default .preuve/corpus/blind

Documents never used to tune preuve (a held-out set: measure on it, never tune on it).
Layout under DEST (copies; no images, CSS, JS, PDF or text versions):

    python/library/NAME.html      12 pages of the Python 3 library reference (python3-doc)
    install-guide/fr/*.html       the Debian installation guide in French, HTML pages
                                  (installation-guide-amd64), without index.html (the
                                  table of contents)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import documents, expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "installation-guide-amd64"]
ROOTS = ["python", "install-guide"]
LIBRARY = ["pathlib", "argparse", "logging", "subprocess", "json", "datetime", "shutil",
           "csv", "sqlite3", "re", "itertools", "functools"]


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY)
    for path in documents(package_files("installation-guide-amd64")):
        if path.parent.name == "fr" and path.suffix == ".html" \
                and path.name != "index.html":  # the table of contents
            out.append((f"install-guide/fr/{path.name}", path))
    expected = {f"python/library/{name}.html" for name in LIBRARY} \
        | {"install-guide/fr/ch01.html", "install-guide/fr/apb.html"}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/blind")
