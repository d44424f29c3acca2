"""The held-out code corpus of bench/code_heldout/questions.yaml, copied from installed
Debian packages: code bases that evalsets/code does not hold, kept out of tuning.

    .venv/bin/python bench/code_heldout/corpus.py [DEST]   # default .preuve/corpus/heldout

    go/toml/**.go                 BurntSushi/toml 1.2.0 (golang-github-burntsushi-toml-dev)
    javascript/js-yaml/**.js      js-yaml 4.1.0 (node-js-yaml): lib/ and index.js
    go/humanize/**.go             dustin/go-humanize 1.0.0 (golang-github-dustin-go-humanize-dev)
    javascript/minimatch/**.js    minimatch 5.1.1 (node-minimatch)
    rust/textwrap/**.rs           mgeisler/textwrap 0.16.0 (librust-textwrap-dev): src/
    go/color/**.go                fatih/color 1.7.0 (golang-github-fatih-color-dev)
    php/fastroute/**.php          nikic/FastRoute 1.3.0 (php-nikic-fast-route)
    php/psr7/**.php               guzzle/psr7 2.4.5 (php-guzzlehttp-psr7)
    javascript/commander/**.js    commander 9.4.1 (node-commander): lib/
    rust/log/**.rs                log 0.4.17 (librust-log-dev): src/
    php/promises/**.php           guzzle/promises 1.5.2 (php-guzzlehttp-promises)
    php/dotenv/**.php             vlucas/phpdotenv 5.4.1 (php-vlucas-phpdotenv)

Test files and the packages' internal test runners are left out."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "evalsets"))
from corpuslib import main, package_files  # noqa: E402

# package -> (destination folder, marker before the relative path, the relative paths kept)
SOURCES = {
    "golang-github-burntsushi-toml-dev": (
        "go/toml", "/github.com/BurntSushi/toml/",
        lambda rel: rel.endswith(".go") and not rel.endswith("_test.go")
        and not rel.startswith("internal/toml-test/")),
    "node-js-yaml": (
        "javascript/js-yaml", "/nodejs/js-yaml/",
        lambda rel: rel.endswith(".js") and rel.startswith(("lib/", "index.js"))),
    "golang-github-dustin-go-humanize-dev": (
        "go/humanize", "/github.com/dustin/go-humanize/",
        lambda rel: rel.endswith(".go") and not rel.endswith("_test.go")),
    "node-minimatch": ("javascript/minimatch", "/nodejs/minimatch/",
                       lambda rel: rel.endswith(".js")),
    "librust-textwrap-dev": ("rust/textwrap", "/registry/textwrap-0.16.0/",
                             lambda rel: rel.startswith("src/") and rel.endswith(".rs")),
    "golang-github-fatih-color-dev": (
        "go/color", "/github.com/fatih/color/",
        lambda rel: rel.endswith(".go") and not rel.endswith("_test.go")),
    # the second blind group
    "php-nikic-fast-route": ("php/fastroute", "/php/FastRoute/",
                             lambda rel: rel.endswith(".php")),
    "php-guzzlehttp-psr7": ("php/psr7", "/php/GuzzleHttp/Psr7/",
                            lambda rel: rel.endswith(".php")),
    "node-commander": ("javascript/commander", "/nodejs/commander/",
                       lambda rel: rel.startswith("lib/") and rel.endswith(".js")),
    "librust-log-dev": ("rust/log", "/registry/log-0.4.17/",
                        lambda rel: rel.startswith("src/") and rel.endswith(".rs")),
    # the third blind group (PHP)
    "php-guzzlehttp-promises": ("php/promises", "/php/GuzzleHttp/Promise/",
                                lambda rel: rel.endswith(".php")),
    "php-vlucas-phpdotenv": ("php/dotenv", "/php/Dotenv/",
                             lambda rel: rel.endswith(".php")),
}
ROOTS = ["go", "javascript", "php", "rust"]


def pairs() -> list[tuple[str, Path]]:
    out = []
    for package, (dest, marker, keep) in SOURCES.items():
        for path in package_files(package):
            text = path.as_posix()
            if marker in text and keep(relative := text.split(marker, 1)[1]):
                out.append((f"{dest}/{relative}", path))
    return out


if __name__ == "__main__":
    main(list(SOURCES), pairs, ROOTS, ".preuve/corpus/heldout")
