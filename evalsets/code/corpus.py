"""Build the `code` evaluation corpus from installed Debian packages: real code bases in
five languages that nobody on this project wrote.

    .venv/bin/python evalsets/code/corpus.py [DEST]     # default .preuve/corpus/code

Layout under DEST (copies of the source files only):

    go/cobra/**.go          spf13/cobra 1.6.1 (golang-github-spf13-cobra-dev)
    rust/semver/**.rs       dtolnay/semver 1.0.14 (librust-semver-dev), with Cargo.toml
    javascript/express/**.js  express 4.18.2 (node-express): lib/ and index.js
    ruby/rack/**.rb         rack 2.2.22 (ruby-rack): lib/
    php/monolog/**.php      Seldaek/monolog 2.9.1 (php-monolog)

A missing package stops the script with the `apt-get install` line and exit status 2 (as
root it installs them itself). The same package versions give the same files."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from corpuslib import main, package_files  # noqa: E402

# package -> (destination folder, the folder of the package it is copied from (a
# substring of the installed path), file endings kept)
SOURCES = {
    "golang-github-spf13-cobra-dev": ("go/cobra", "/github.com/spf13/cobra/", (".go",)),
    "librust-semver-dev": ("rust/semver", "/registry/semver-", (".rs", "Cargo.toml")),
    "node-express": ("javascript/express", "/nodejs/express/", (".js",)),
    "ruby-rack": ("ruby/rack", "/gems/rack-", (".rb",)),
    "php-monolog": ("php/monolog", "/share/php/Monolog/", (".php",)),
}
ROOTS = ["go", "rust", "javascript", "ruby", "php"]


def pairs() -> list[tuple[str, Path]]:
    out = []
    for package, (dest, marker, endings) in SOURCES.items():
        for path in package_files(package):
            text = path.as_posix()
            if marker not in text or not text.endswith(endings):
                continue
            relative = text.split(marker, 1)[1]
            if marker.endswith("-"):  # a versioned folder (semver-1.0.14/): drop it
                relative = relative.split("/", 1)[1]
            if package == "node-express" and not relative.startswith(("lib/", "index.js")):
                continue  # the package's bundled type definitions and tests
            if package == "ruby-rack" and not relative.startswith("lib/"):
                continue
            out.append((f"{dest}/{relative}", path))
    found = {name.split("/")[0] for name, _ in out}
    if found != set(ROOTS):
        raise SystemExit(f"installed packages lack sources for {set(ROOTS) - found}")
    return out


if __name__ == "__main__":
    main(list(SOURCES), pairs, ROOTS, ".preuve/corpus/code")
