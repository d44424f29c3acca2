"""Build the `trial12` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial12/corpus.py [DEST]     # default .preuve/corpus/trial12

The documents of the twelfth new user's trial (docs/answers.md, "A twelfth new user's
trial"), chosen, asked and judged blind on the thirteenth session's code of 0027c69.
Layout under DEST:

    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)
    gimp-en/NAME.html          eight pages of the GIMP 2.10 user manual, in English and
    gimp-fr/NAME.html          French (gimp-help-en, gimp-help-fr; the same file names)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "gimp-help-en", "gimp-help-fr"]
ROOTS = ["python-library", "gimp-en", "gimp-fr"]
LIBRARY = ["string", "decimal", "glob", "calendar", "timeit", "traceback", "copy",
           "urllib.parse"]
PAGES = ["gimp-concepts-brushes", "gimp-image-print-size", "gimp-layer-mask-add",
         "gimp-selection-feather", "gimp-tool-fuzzy-select", "gimp-tool-heal",
         "gimp-tool-text", "gimp-tool-threshold"]


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    for lang in ("en", "fr"):
        out += [(f"gimp-{lang}/{path.name}", path) for path in package_files(f"gimp-help-{lang}")
                if path.parent.name == lang and path.suffix == ".html" and path.stem in PAGES]
    expected = {f"python-library/{name}.html" for name in LIBRARY} | {
        f"gimp-{lang}/{page}.html" for lang in ("en", "fr") for page in PAGES}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial12")
