"""Build the `trial10` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial10/corpus.py [DEST]     # default .preuve/corpus/trial10

The documents of the tenth new user's trial (docs/answers.md, "A tenth new user's
trial"), chosen, asked and judged blind on the twelfth session's final answer code.
Layout under DEST:

    python-library/NAME.html      eight pages of the Python 3 library reference (python3-doc)
    debian-edu-en/NN-TITLE.html   eight chapters of the Debian Edu 12 (bookworm) manual,
    debian-edu-fr/NN-TITRE.html   in English and French (debian-edu-doc-en, -fr)

The Debian Edu manual ships as one HTML page per language: its chapters (the sections
whose heading is an `h2`) are cut out verbatim, each in a page of its own titled by its
heading, as the trial's reader did; the English and French file names differ, as a
team's often do. A missing package stops the script with the `apt-get install` line and
exit status 2 (as root it installs them itself). The same package versions give the same
files."""

from __future__ import annotations

import html
import re
import sys
import tempfile
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "debian-edu-doc-en", "debian-edu-doc-fr"]
ROOTS = ["python-library", "debian-edu-en", "debian-edu-fr"]
LIBRARY = ["gzip", "tarfile", "configparser", "fnmatch", "struct", "weakref", "signal",
           "smtplib"]
# requirements, network, printers, clock, maintenance, upgrades, advanced administration,
# HOWTOs for users
CHAPTERS = [4, 5, 8, 9, 11, 12, 15, 20]
MANUAL = "debian-edu-bookworm-manual.html"
_CHAPTER = '<div class="section"><div class="titlepage"><div><div><h2'
_PAGE = ('<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8"/><title>{title}'
         '</title></head><body>\n{body}\n</body></html>\n')


_WORK = tempfile.TemporaryDirectory(prefix="trial10-")


def chapters(manual: Path, lang: str, into: Path) -> list[Path]:
    """The chapters CHAPTERS of one Debian Edu manual page, each written to `into` as
    `NN-slug-of-its-title.html` (its markup verbatim)."""
    text = manual.read_text("utf-8")
    starts = [m.start() for m in re.finditer(re.escape(_CHAPTER), text)]
    end = text.rfind("</body>")
    out = []
    for start, stop in zip(starts, starts[1:] + [end], strict=True):
        body = text[start:stop]
        heading = re.search(r"<h2[^>]*>(.*?)</h2>", body, re.S)
        title = html.unescape(re.sub(r"<[^>]+>", "", heading.group(1))).strip()
        number = int(title.split(".")[0])
        if number not in CHAPTERS:
            continue
        words = unicodedata.normalize("NFKD", title.split(".", 1)[1].lower())
        slug = re.sub(r"[^a-z0-9]+", "-", words.encode("ascii", "ignore").decode()).strip("-")
        page = into / f"{number:02d}-{slug}.html"
        page.write_text(_PAGE.format(lang=lang, title=html.escape(title), body=body), "utf-8")
        out.append(page)
    return out


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY, under="python-library")
    work = Path(_WORK.name)  # the cut chapters, copied by `main`, removed at exit
    for lang in ("en", "fr"):
        manual = next(p for p in package_files(f"debian-edu-doc-{lang}") if p.name == MANUAL)
        folder = work / lang
        folder.mkdir()
        out += [(f"debian-edu-{lang}/{page.name}", page)
                for page in chapters(manual, lang, folder)]
    names = {name for name, _ in out}
    expected = {f"python-library/{name}.html" for name in LIBRARY} \
        | {n for n in names if n.startswith("debian-edu-")}
    if sum(n.startswith("debian-edu-") for n in names) != 2 * len(CHAPTERS):
        raise SystemExit("the Debian Edu manual's chapters are not the expected ones")
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial10")
