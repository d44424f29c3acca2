"""Build the `trial19` evaluation corpus: Markdown and reStructuredText documentation.

    .venv/bin/python evalsets/trial19/corpus.py [DEST]     # default .preuve/corpus/trial19

The documents of the nineteenth new user's trial (docs/answers.md, "A nineteenth new
user's trial"), chosen, asked and judged blind on the sixteenth session's code at
79d093c. Layout under DEST:

    node/NAME.md     eight pages of the Node.js 20 API reference in Markdown (Debian's
                     `nodejs` package as NodeSource builds it: /usr/share/doc/nodejs/api)
    rst/NAME.rst     eight pages of Click 8.1.7's documentation in reStructuredText (the
                     docs/ folder of its source distribution on PyPI, downloaded once into
                     .preuve/cache/click-8.1.7.tar.gz with pip)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same versions give the same files."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import expect, main  # noqa: E402

PACKAGES = ["nodejs"]
ROOTS = ["node", "rst"]
NODE = Path("/usr/share/doc/nodejs/api")
NODE_PAGES = ["dns", "events", "net", "os", "path", "readline", "timers", "worker_threads"]
CLICK = "click==8.1.7"
CACHE = Path(__file__).resolve().parents[2] / ".preuve" / "cache"
RST_PAGES = ["arguments", "commands", "options", "prompts", "setuptools", "shell-completion",
             "testing", "utils"]


def click_docs() -> Path:
    """The docs/ folder of Click's source distribution, downloaded and unpacked once."""
    unpacked = CACHE / "click-8.1.7"
    if not unpacked.is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                        "--no-deps", "--dest", str(CACHE), CLICK], check=True)
        with tarfile.open(CACHE / "click-8.1.7.tar.gz") as archive:
            archive.extractall(CACHE, filter="data")
    return unpacked / "docs"


def pairs() -> list[tuple[str, Path]]:
    out = [(f"node/{name}.md", NODE / f"{name}.md") for name in NODE_PAGES
           if (NODE / f"{name}.md").is_file()]
    docs = click_docs()
    out += [(f"rst/{name}.rst", docs / f"{name}.rst") for name in RST_PAGES]
    expected = {f"node/{n}.md" for n in NODE_PAGES} | {f"rst/{n}.rst" for n in RST_PAGES}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial19")
