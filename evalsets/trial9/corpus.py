"""Build the `trial9` evaluation corpus from installed Debian documentation packages.

    .venv/bin/python evalsets/trial9/corpus.py [DEST]     # default .preuve/corpus/trial9

The documents of the ninth new user's trial (docs/answers.md, "A ninth new user's
trial"), chosen, asked and judged blind on the twelfth session's code. Layout under DEST
(copies):

    python-howto/NAME.html          seven Python 3 HOWTOs (python3-doc)
    securing-debian-en/NAME.html    seven sections of the Securing Debian Manual
    securing-debian-fr/NAME.html    the same seven in French (harden-doc)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import PYTHON_HTML, edition_pages, expect, main  # noqa: E402

PACKAGES = ["python3-doc", "harden-doc"]
ROOTS = ["python-howto", "securing-debian-en", "securing-debian-fr"]
HOWTOS = ["sorting", "regex", "unicode", "descriptor", "enum", "functional", "sockets"]
# partitioning, boot loader password, console login, SysRq, mount options, TCP wrappers,
# Apache
MANUAL = ["ch03s02", "lilo-passwd", "restrict-console-login", "restrict-sysrq", "ch04s10",
          "tcpwrappers", "ch05s08"]
EDITIONS = {"en-US": "securing-debian-en", "fr-FR": "securing-debian-fr"}


def pairs() -> list[tuple[str, Path]]:
    howto = PYTHON_HTML.resolve() / "howto"
    out = [(f"python-howto/{name}.html", howto / f"{name}.html") for name in HOWTOS
           if (howto / f"{name}.html").is_file()]
    wanted = {f"{name}.html" for name in MANUAL}
    out += edition_pages("harden-doc", EDITIONS, wanted)
    expected = {f"python-howto/{name}.html" for name in HOWTOS} \
        | {f"{folder}/{name}" for folder in EDITIONS.values() for name in wanted}
    return expect(out, expected)


if __name__ == "__main__":
    main(PACKAGES, pairs, ROOTS, ".preuve/corpus/trial9")
