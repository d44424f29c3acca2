"""Build the `trial14` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial14/corpus.py [DEST]     # default .preuve/corpus/trial14

The documents of the fourteenth new user's trial (docs/answers.md, "A fourteenth new
user's trial"), chosen, asked and judged blind on the fourteenth session's answer code
at 2b76b5e. Layout under DEST:

    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)
    dr-en/chNN.en.html         four chapters of the Debian Reference in English and French
    dr-fr/chNN.fr.html         (debian-reference-en, debian-reference-fr 2.100): package
                               management, network setup, system tips, data management

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, reference_chapters  # noqa: E402

PACKAGES = ["python3-doc", "debian-reference-en", "debian-reference-fr"]
ROOTS = ["python-library", "dr-en", "dr-fr"]
LIBRARY = ["enum", "dataclasses", "threading", "shlex", "pprint", "getpass", "ipaddress",
           "zlib"]
CHAPTERS = ["ch02", "ch05", "ch09", "ch10"]


def pairs() -> list[tuple[str, Path]]:
    pages = expect(library_pages(LIBRARY, under="python-library"),
                   {f"python-library/{name}.html" for name in LIBRARY})
    return pages + reference_chapters(CHAPTERS)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial14")
