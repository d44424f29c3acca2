"""Build the `trial26` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial26/corpus.py [DEST]     # default .preuve/corpus/trial26

The documents of the twenty-sixth new user's trial (docs/answers.md, "A twenty-sixth new
user's trial"), chosen, asked and judged blind on f6e2269. Layout under DEST:

    python/NAME.html           eight pages of the Python 3 library reference (python3-doc),
                               kept whole: typing, multiprocessing, doctest, socketserver,
                               select, optparse, ctypes, readline
    fr/formation-latex-ul.pdf  « Rédaction avec LaTeX », Vincent Goulet, Université Laval
                               (texlive-lang-french; xdvipdfmx, 196 pages)
    en/gnuplot.pdf             the gnuplot 5.4 reference manual (gnuplot-doc; 311 pages)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "texlive-lang-french", "gnuplot-doc"]
ROOTS = ["python", "fr", "en"]
LIBRARY = ["typing", "multiprocessing", "doctest", "socketserver", "select", "optparse",
           "ctypes", "readline"]
# destination -> (package, the name of the one file of it copied there)
FILES = {
    "fr/formation-latex-ul.pdf": ("texlive-lang-french", "formation-latex-ul.pdf"),
    "en/gnuplot.pdf": ("gnuplot-doc", "gnuplot.pdf"),
}


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python")
    for dest, (package, name) in FILES.items():
        out += [(dest, path) for path in package_files(package) if path.name == name]
    return expect(out, {f"python/{name}.html" for name in LIBRARY} | set(FILES))


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial26")
