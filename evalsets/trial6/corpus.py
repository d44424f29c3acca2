"""Build the `trial6` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial6/corpus.py [DEST]     # default .preuve/corpus/trial6

The documents of the sixth new user's trial (docs/answers.md, "Tenth session of issue
20"): a development set since its questions were read after the changes they led to.
Layout under DEST (copies):

    install-guide/en/NAME.html    eleven pages of the Debian installation guide for amd64
    install-guide/fr/NAME.html    the same eleven pages in French (installation-guide-amd64)
    python/library/NAME.html      8 pages of the Python 3 library reference (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import documents, expect, library_pages, main, package_files  # noqa: E402

PACKAGES = ["python3-doc", "installation-guide-amd64"]
ROOTS = ["python", "install-guide"]
LIBRARY = ["logging", "argparse", "subprocess", "pathlib", "json", "csv", "sqlite3", "shutil"]
# memory, USB stick, booting, boot parameters, troubleshooting, components (network,
# partitioning), firmware, first boot, encrypted volumes, partitioning scheme, rescue
GUIDE = ["ch02s05", "ch04s03", "ch05s01", "ch05s03", "ch05s04", "ch06s03", "ch06s04",
         "ch07s01", "ch07s02", "apcs03", "ch08s06"]


def pairs() -> list[tuple[str, Path]]:
    out = library_pages(LIBRARY)
    for path in documents(package_files("installation-guide-amd64")):
        if path.parent.name in ("en", "fr") and path.suffix == ".html" \
                and path.stem in GUIDE:
            out.append((f"install-guide/{path.parent.name}/{path.name}", path))
    expected = {f"python/library/{name}.html" for name in LIBRARY} \
        | {f"install-guide/{lang}/{name}.html" for lang in ("en", "fr") for name in GUIDE}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial6")
