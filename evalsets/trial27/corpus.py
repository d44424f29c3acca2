"""Build the `trial27` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial27/corpus.py [DEST]     # default .preuve/corpus/trial27

The documents of the twenty-seventh new user's trial (docs/answers.md, "A twenty-seventh
new user's trial"), chosen, asked and judged blind on bcd2d4c (by hand: 9 of 17 right,
5 partial, 3 wrong, no false refusal; out of scope refused 1 of 3). Layout under DEST:

    postfix/NAME.html      eight README pages of Postfix 3.7 (postfix-doc), kept whole:
                           address rewriting, basic and standard configuration, debugging,
                           qshape, SASL, SMTP access control, virtual domains
    fr/Apprends_LaTeX.pdf  « Apprends LaTeX ! », Marc Baudoin (texlive-lang-french;
                           pdfTeX, 209 pages)
    python/NAME.html       eight pages of the Python 3 library reference (python3-doc),
                           kept whole: mailbox, html.parser, http.cookies, netrc, plistlib,
                           wave, zipimport, tty

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, folder_pages, library_pages, main, package_files  # noqa: E402

PACKAGES = ["postfix-doc", "texlive-lang-french", "python3-doc"]
ROOTS = ["postfix", "fr", "python"]
POSTFIX = ["ADDRESS_REWRITING_README", "BASIC_CONFIGURATION_README", "DEBUG_README",
           "QSHAPE_README", "SASL_README", "SMTPD_ACCESS_README",
           "STANDARD_CONFIGURATION_README", "VIRTUAL_README"]
LIBRARY = ["mailbox", "html.parser", "http.cookies", "netrc", "plistlib", "wave",
           "zipimport", "tty"]
# destination folder -> (package, the folder of the package its pages are in, pages)
FOLDERS = {"postfix": ("postfix-doc", "/usr/share/doc/postfix/html", POSTFIX)}
# destination -> (package, the name of the one file of it copied there)
FILES = {"fr/Apprends_LaTeX.pdf": ("texlive-lang-french", "Apprends_LaTeX.pdf")}


def pairs() -> list[tuple[str, Path]]:
    out, expected = folder_pages(FOLDERS)
    out += library_pages(LIBRARY, under="python")
    expected |= {f"python/{name}.html" for name in LIBRARY}
    for dest, (package, name) in FILES.items():
        expected.add(dest)
        out += [(dest, path) for path in package_files(package) if path.name == name]
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial27")
