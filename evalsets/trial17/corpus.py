"""Build the `trial17` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial17/corpus.py [DEST]     # default .preuve/corpus/trial17

The documents of the seventeenth new user's trial (docs/answers.md, "A seventeenth new
user's trial"), chosen, asked and judged blind on the fourteenth session's code at
24a0c48. Layout under DEST:

    apache-en/NAME.html        six pages of the Apache HTTP Server 2.4 manual (apache2-doc)
    apache-fr/NAME.html        in English and French: .htaccess, authentication, user
                               directories, log files, stopping, custom error responses
    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "apache2-doc"]
ROOTS = ["python-library", "apache-en", "apache-fr"]
LIBRARY = ["array", "mmap", "resource", "pwd", "selectors", "abc", "cmd", "ftplib"]
MANUAL = Path("/usr/share/doc/apache2-doc/manual")
PAGES = ["howto/htaccess.html", "howto/auth.html", "howto/public_html.html", "logs.html",
         "stopping.html", "custom-error.html"]


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    files = set(package_files("apache2-doc"))
    for language in ("en", "fr"):
        for page in PAGES:
            path = MANUAL / language / page
            if path in files:  # flattened: howto/auth.html -> apache-en/auth.html
                out.append((f"apache-{language}/{Path(page).name}", path))
    expected = {f"python-library/{name}.html" for name in LIBRARY} | {
        f"apache-{language}/{Path(page).name}" for language in ("en", "fr") for page in PAGES}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial17")
