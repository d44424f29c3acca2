"""Build the `trial25` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial25/corpus.py [DEST]     # default .preuve/corpus/trial25

The documents of the twenty-fifth new user's trial (docs/answers.md, "A twenty-fifth new
user's trial"), chosen, asked and judged blind on d2c581c. Layout under DEST:

    make/NAME.html      eight pages of makepp's manual (makepp; a "GNU make compatible"
                        tool: GNU make's own manual is in non-free), most of a page on
                        one source line: command line, FAQ, functions, incompatibilities
                        with GNU make, rules, statements, tutorial, variables
    bash/bashref.html   the Bash reference manual (bash-doc; Texinfo), one 866 KB page
    fr/lshort-fr.pdf    « Une courte (?) introduction à LaTeX 2e », v5.01fr-0
                        (texlive-lang-french; pdfTeX, 184 pages)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, folder_pages, main, package_files  # noqa: E402

PACKAGES = ["makepp", "bash-doc", "texlive-lang-french"]
ROOTS = ["make", "bash", "fr"]
MAKEPP = ["makepp_command", "makepp_faq", "makepp_functions", "makepp_incompatibilities",
          "makepp_rules", "makepp_statements", "makepp_tutorial", "makepp_variables"]
# destination folder -> (package, the folder of the package its pages are in, pages)
FOLDERS = {"make": ("makepp", "/usr/share/doc/makepp", MAKEPP)}
# destination -> (package, the name of the one file of it copied there)
FILES = {
    "bash/bashref.html": ("bash-doc", "bashref.html"),
    "fr/lshort-fr.pdf": ("texlive-lang-french", "lshort-fr.pdf"),
}


def pairs() -> list[tuple[str, Path]]:
    out, expected = folder_pages(FOLDERS)
    for dest, (package, name) in FILES.items():
        expected.add(dest)
        out += [(dest, path) for path in package_files(package) if path.name == name]
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial25")
