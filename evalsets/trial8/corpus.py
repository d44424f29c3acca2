"""Build the `trial8` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial8/corpus.py [DEST]     # default .preuve/corpus/trial8

The documents of the eighth new user's trial (docs/answers.md, "Eleventh session of issue
20"): a development set since its questions were read after the changes they led to.
Layout under DEST (copies):

    handbook-en/sect.NAME.html    eight sections of the Debian Administrator's Handbook
    handbook-fr/sect.NAME.html    the same eight in French (debian-handbook)
    python/library/NAME.html      8 pages of the Python 3 library reference (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import edition_pages, expect, library_pages, main  # noqa: E402

PACKAGES = ["python3-doc", "debian-handbook"]
ROOTS = ["python", "handbook-en", "handbook-fr"]
LIBRARY = ["collections", "hashlib", "tempfile", "os.path", "heapq", "statistics", "secrets",
           "bisect"]
# remote login, cron/atd, user databases, rights, syslog, quotas, backup, network
HANDBOOK = ["remote-login", "task-scheduling-cron-atd", "user-group-databases",
            "rights-management", "syslog", "quotas", "backup", "network-config"]
EDITIONS = {"en-US": "handbook-en", "fr-FR": "handbook-fr"}


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY)
    wanted = {f"sect.{name}.html" for name in HANDBOOK}
    out += edition_pages("debian-handbook", EDITIONS, wanted)
    expected = {f"python/library/{name}.html" for name in LIBRARY} \
        | {f"{folder}/{name}" for folder in EDITIONS.values() for name in wanted}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial8")
