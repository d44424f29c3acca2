"""Build the `manuals` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/manuals/corpus.py [DEST]     # default .preuve/corpus/manuals

Layout under DEST (copies; the French FAQ's .pdf.gz unpacked; no images, CSS or JS):

    debian-faq/en/*.html          the Debian FAQ in English, HTML (debian-faq)
    debian-faq/debian-faq.fr.pdf  the Debian FAQ in French, PDF (debian-faq-fr)
    maint-guide/maint-guide.en.pdf  Debian New Maintainers' Guide, English PDF (maint-guide)
    maint-guide/fr/*.html         the same guide in French, chapter files (maint-guide-fr)
    python/tutorial/*.html        the Python 3 tutorial (python3-doc)
    python/faq/*.html             the Python 3 FAQ (python3-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import PYTHON_HTML, documents, expect, main, package_files  # noqa: E402

PACKAGES = ["debian-faq", "debian-faq-fr", "maint-guide", "maint-guide-fr", "python3-doc"]
ROOTS = ["debian-faq", "maint-guide", "python"]


def pairs() -> list[tuple[str, Path]]:
    out = []
    for path in documents(package_files("debian-faq")):
        if path.parent.name == "FAQ" and path.name.endswith(".en.html"):
            out.append((f"debian-faq/en/{path.name}", path))
    for path in package_files("debian-faq-fr"):
        if path.name == "debian-faq.fr.pdf.gz":
            out.append(("debian-faq/debian-faq.fr.pdf", path))
    for path in package_files("maint-guide"):
        if path.name == "maint-guide.en.pdf":
            out.append(("maint-guide/maint-guide.en.pdf", path))
    for path in documents(package_files("maint-guide-fr")):
        if path.parent.name == "html" and path.name.endswith(".fr.html") \
                and path.name != "index.fr.html":  # the table of contents
            out.append((f"maint-guide/fr/{path.name}", path))
    html = PYTHON_HTML.resolve()  # a link into python3.X-doc's folder
    for folder in ("tutorial", "faq"):
        for path in sorted((html / folder).glob("*.html")):
            out.append((f"python/{folder}/{path.name}", path))
    expected = {"debian-faq/debian-faq.fr.pdf", "maint-guide/maint-guide.en.pdf",
                "python/tutorial/index.html", "python/faq/index.html"}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/manuals")
