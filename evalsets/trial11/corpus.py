"""Build the `trial11` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial11/corpus.py [DEST]     # default .preuve/corpus/trial11

The documents of the eleventh new user's trial (docs/answers.md, "An eleventh new user's
trial"), chosen, asked and judged blind on the thirteenth session's starting code. Layout
under DEST:

    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)
    devref-en/NAME.html        six chapters of the Debian Developer's Reference, in English
    devref-fr/NAME.html        and French (developers-reference, developers-reference-fr)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "developers-reference", "developers-reference-fr"]
ROOTS = ["python-library", "devref-en", "devref-fr"]
LIBRARY = ["textwrap", "difflib", "zipfile", "uuid", "random", "contextlib", "queue",
           "base64"]
# the chapters on joining, duties, resources, best practices, beyond packaging, and the
# tools appendix (the chapter on package uploads, 210 KB, left out as the trial did)
CHAPTERS = ["new-maintainer", "developer-duties", "resources", "best-pkging-practices",
            "beyond-pkging", "tools"]


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    for package, folder, dest in (("developers-reference", "developers-reference",
                                   "devref-en"),
                                  ("developers-reference-fr", "fr", "devref-fr")):
        out += [(f"{dest}/{path.name}", path) for path in package_files(package)
                if path.parent.name == folder and path.stem in CHAPTERS
                and path.suffix == ".html"]
    expected = {f"python-library/{name}.html" for name in LIBRARY} | {
        f"{dest}/{name}.html" for dest in ("devref-en", "devref-fr") for name in CHAPTERS}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial11")
