"""Build the `trial18` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial18/corpus.py [DEST]     # default .preuve/corpus/trial18

The documents of the eighteenth new user's trial (docs/answers.md, "An eighteenth new
user's trial"), chosen, asked and judged blind on the fifteenth session's code at
d26f149. Layout under DEST:

    lilypond-en/NAME.html      eight pages of LilyPond's Application Usage manual
    lilypond-fr/NAME.fr.html   (lilypond-doc-html, lilypond-doc-html-fr; texi2html):
                               command line, errors, convert-ly, point and click,
                               lilypond-book and its fragment options, large projects
    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "lilypond-doc-html", "lilypond-doc-html-fr"]
ROOTS = ["python-library", "lilypond-en", "lilypond-fr"]
LIBRARY = ["enum", "sqlite3", "concurrent.futures", "asyncio-task", "io", "gettext",
           "socket", "sys"]
MANUAL = Path("/usr/share/doc/lilypond/html/Documentation/usage")
PAGES = ["command_002dline-usage", "error-messages", "common-errors",
         "command-line-options-for-convert_002dly",
         "configuring-the-system-for-point-and-click", "music-fragment-options",
         "invoking-lilypond_002dbook", "large-projects"]
SUFFIX = {"en": ".html", "fr": ".fr.html"}


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    files = set(package_files("lilypond-doc-html")) | set(package_files("lilypond-doc-html-fr"))
    for language, suffix in SUFFIX.items():
        for page in PAGES:
            path = MANUAL / f"{page}{suffix}"
            if path in files:
                out.append((f"lilypond-{language}/{page}{suffix}", path))
    expected = {f"python-library/{name}.html" for name in LIBRARY} | {
        f"lilypond-{language}/{page}{suffix}" for language, suffix in SUFFIX.items()
        for page in PAGES}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial18")
