"""Build the `trial22` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial22/corpus.py [DEST]     # default .preuve/corpus/trial22

The documents of the twenty-second new user's trial (docs/answers.md, "A twenty-second new
user's trial"), chosen, asked and judged blind on d59f656. Layout under DEST:

    apt-en/NAME.html    the APT user's guide (apt-doc; DocBook): index, chapters 1-4
    apt-fr/NAME.html    its French translation
    kernel/NAME.html    seven chapters of the Debian Linux Kernel Handbook
                        (debian-kernel-handbook; DocBook)
    python/NAME.html    eight pages of the Python 3 library reference (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, folder_pages, library_pages, main  # noqa: E402

PACKAGES = ["apt-doc", "debian-kernel-handbook", "python3-doc"]
ROOTS = ["apt-en", "apt-fr", "kernel", "python"]
LIBRARY = ["functools", "itertools", "datetime", "re", "logging.handlers", "profile", "pdb",
           "email.message"]
GUIDE = ["index", "ch1", "ch2", "ch3", "ch4"]
KERNEL = ["ch-common-tasks", "ch-modules", "ch-initramfs", "ch-versions", "ch-bugs",
          "ch-source", "ch-packaging"]
# destination folder -> (package, the folder of the package its pages are in, pages)
FOLDERS = {
    "apt-en": ("apt-doc", "/usr/share/doc/apt-doc/guide.html", GUIDE),
    "apt-fr": ("apt-doc", "/usr/share/doc/apt-doc/guide.fr.html", GUIDE),
    "kernel": ("debian-kernel-handbook",
               "/usr/share/doc/debian-kernel-handbook/kernel-handbook.html", KERNEL),
}


def pairs() -> list[tuple[str, Path]]:
    out, expected = folder_pages(FOLDERS)
    out += library_pages(LIBRARY, under="python")
    return expect(out, expected | {f"python/{name}.html" for name in LIBRARY})


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial22")
