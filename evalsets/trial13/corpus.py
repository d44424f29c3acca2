"""Build the `trial13` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial13/corpus.py [DEST]     # default .preuve/corpus/trial13

The documents of the thirteenth new user's trial (docs/answers.md, "A thirteenth new
user's trial"), chosen, asked and judged blind on the thirteenth session's final answer
code. Layout under DEST:

    python-library/NAME.html   eight pages of the Python 3 library reference (python3-doc)
    lo-en/PATH.html            eight pages of the LibreOffice 7.4 help, in English and
    lo-fr/PATH.html            French (libreoffice-help-en-us, libreoffice-help-fr), their
                               path under `text/` flattened (`/` -> `_`)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself, with LibreOffice's common files they depend on). The same
package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "libreoffice-help-en-us", "libreoffice-help-fr"]
ROOTS = ["python-library", "lo-en", "lo-fr"]
LIBRARY = ["tomllib", "mimetypes", "html", "webbrowser", "graphlib", "operator", "hmac",
           "sched"]
PAGES = ["swriter/guide/pagenumbers", "swriter/guide/indices_toc",
         "swriter/guide/words_count", "shared/guide/redlining_enter",
         "scalc/guide/line_fix", "scalc/guide/cellstyle_conditional",
         "scalc/guide/printranges", "scalc/guide/remove_duplicates"]


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    for package, folder, dest in (("libreoffice-help-en-us", "en-US", "lo-en"),
                                  ("libreoffice-help-fr", "fr", "lo-fr")):
        root = f"/usr/share/libreoffice/help/{folder}/text/"
        for path in package_files(package):
            relative = str(path).removeprefix(root).removesuffix(".html")
            if str(path).startswith(root) and relative in PAGES:
                out.append((f"{dest}/{relative.replace('/', '_')}.html", path))
    expected = {f"python-library/{name}.html" for name in LIBRARY} | {
        f"{dest}/{page.replace('/', '_')}.html" for dest in ("lo-en", "lo-fr")
        for page in PAGES}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial13")
