"""Build the `trial15` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial15/corpus.py [DEST]     # default .preuve/corpus/trial15

The documents of the fifteenth new user's trial (docs/answers.md, "A fifteenth new user's
trial"), chosen, asked and judged blind on the fifteenth session's starting code at
eb6b1fd. Layout under DEST:

    aptitude-en/NAME.html      the aptitude user's manual, every HTML file, in English
    aptitude-fr/NAME.html      and in French (aptitude-doc-en, aptitude-doc-fr 0.8.13)
    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "aptitude-doc-en", "aptitude-doc-fr"]
ROOTS = ["python-library", "aptitude-en", "aptitude-fr"]
LIBRARY = ["pickle", "unittest.mock", "http.server", "warnings", "atexit", "locale", "math",
           "urllib.request"]
MANUAL = Path("/usr/share/doc/aptitude/html")


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    for package, language in (("aptitude-doc-en", "en"), ("aptitude-doc-fr", "fr")):
        pages = [p for p in package_files(package)
                 if p.parent == MANUAL / language and p.suffix == ".html"]
        out += [(f"aptitude-{language}/{p.name}", p) for p in sorted(pages)]
    expected = {f"python-library/{name}.html" for name in LIBRARY} | {
        f"aptitude-{language}/{page}" for language in ("en", "fr")
        for page in ("ch01.html", "ch02s01s04.html", "rn01re01.html", "ch03.html")}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial15")
