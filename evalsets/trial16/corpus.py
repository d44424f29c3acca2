"""Build the `trial16` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial16/corpus.py [DEST]     # default .preuve/corpus/trial16

The documents of the sixteenth new user's trial (docs/answers.md, "A sixteenth new user's
trial"), chosen, asked and judged blind on the fifteenth session's code at d208ca7.
Layout under DEST:

    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)
    dr-en/chNN.en.html         two chapters of the Debian Reference in English and French
    dr-fr/chNN.fr.html         (debian-reference-en, debian-reference-fr 2.100):
                               authentication and access controls, programming

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, reference_chapters  # noqa: E402

PACKAGES = ["python3-doc", "debian-reference-en", "debian-reference-fr"]
ROOTS = ["python-library", "dr-en", "dr-fr"]
LIBRARY = ["fileinput", "bz2", "lzma", "time", "platform", "unicodedata", "inspect", "trace"]
CHAPTERS = ["ch04", "ch12"]


def pairs() -> list[tuple[str, Path]]:
    pages = expect(library_pages(LIBRARY, under="python-library"),
                   {f"python-library/{name}.html" for name in LIBRARY})
    return pages + reference_chapters(CHAPTERS)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial16")
