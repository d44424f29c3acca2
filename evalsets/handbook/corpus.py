"""Build the held-out `handbook` corpus: eight chapter files of The Debian Administrator's
Handbook (package debian-handbook), in English and in French, as HTML.

    .venv/bin/python evalsets/handbook/corpus.py [DEST]    # default .preuve/corpus/handbook

Layout under DEST: `en-US/<name>.html` and `fr-FR/<name>.html` for each name of CHAPTERS
(same Publican layout: the package system, dpkg, APT's commands and upgrades). A missing
package stops the script with the `apt-get install` line and exit status 2 (as root it
installs it itself)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import main, package_files  # noqa: E402

PACKAGES = ["debian-handbook"]
LANGUAGES = ["en-US", "fr-FR"]
ROOTS = LANGUAGES
CHAPTERS = [
    "packaging-system", "sect.manipulating-packages-with-dpkg", "sect.apt-get",
    "sect.apt-cache", "sect.searching-packages", "sect.regular-upgrades",
    "sect.automatic-upgrades", "sect.package-authentication",
]


def pairs() -> list[tuple[str, Path]]:
    files = {(p.parent.name, p.name): p for p in package_files("debian-handbook")}
    out, missing = [], []
    for language in LANGUAGES:
        for chapter in CHAPTERS:
            source = files.get((language, f"{chapter}.html"))
            if source is None:
                missing.append(f"{language}/{chapter}.html")
            else:
                out.append((f"{language}/{chapter}.html", source))
    if missing:
        raise SystemExit(f"debian-handbook lacks {', '.join(missing)}")
    return out


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/handbook")
