"""Shared steps of the `corpus.py` scripts: check the Debian packages, copy their files.

A corpus is a list of (destination, source) pairs read from installed packages; `build`
writes it under DEST in a fixed order, the same bytes and modification times for the same
package versions, and removes files of an earlier run that the list no longer holds."""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
from pathlib import Path

SKIPPED = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".css", ".js")


def require(packages: list[str]) -> None:
    """Exit 2 with the install command when a package is missing (as root: install it)."""
    missing = [p for p in packages if not installed(p)]
    if not missing:
        return
    command = ["apt-get", "install", "-y", *missing]
    if os.geteuid() == 0:
        print(f"installing missing packages: {' '.join(command)}", file=sys.stderr)
        if subprocess.run(command).returncode == 0 and all(installed(p) for p in missing):
            return
    print(f"missing packages {', '.join(missing)}: run `sudo {' '.join(command)}`",
          file=sys.stderr)
    raise SystemExit(2)


def installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                            capture_output=True, text=True)
    return result.returncode == 0 and result.stdout.endswith(" installed")


def package_files(package: str) -> list[Path]:
    """The regular files a package installed (no folders, no symbolic links)."""
    out = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True,
                         check=True).stdout
    paths = (Path(line) for line in out.splitlines() if line.strip())
    return sorted(p for p in paths if p.is_file() and not p.is_symlink())


def expect(pairs: list[tuple[str, Path]], names: set[str]) -> list[tuple[str, Path]]:
    """`pairs` unchanged when every one of `names` is among their destinations; else stop
    naming the missing ones (a package of another version lays its files out otherwise)."""
    missing = names - {name for name, _ in pairs}
    if missing:
        raise SystemExit(f"installed packages lack {', '.join(sorted(missing))}")
    return pairs


def folder_pages(folders: dict[str, tuple[str, str, list[str]]]
                 ) -> tuple[list[tuple[str, Path]], set[str]]:
    """(pairs, expected destinations) of HTML pages copied by folder: destination folder ->
    (package, the folder of the package its pages are in, page names without `.html`)."""
    out, expected = [], set()
    for folder, (package, where, pages) in folders.items():
        files = set(package_files(package))
        for page in pages:
            expected.add(f"{folder}/{page}.html")
            path = Path(where) / f"{page}.html"
            if path in files:
                out.append((f"{folder}/{page}.html", path))
    return out, expected


def documents(paths: list[Path]) -> list[Path]:
    return [p for p in paths if not p.name.lower().endswith(SKIPPED)]


def build(dest: str | Path, pairs: list[tuple[str, Path]], roots: list[str]) -> str:
    """Write every (relative destination, source) pair under `dest` (a `.gz` source is
    unpacked); files under `roots` that no pair names are removed. Returns a digest of
    the names and contents written."""
    dest = Path(dest)
    pairs = sorted(pairs)
    names = {name for name, _ in pairs}
    if len(names) != len(pairs):
        raise SystemExit("two sources map to the same destination")
    digest = hashlib.sha256()
    for name, source in pairs:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        data = (gzip.decompress(source.read_bytes()) if source.suffix == ".gz"
                else source.read_bytes())
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
        mtime = source.stat().st_mtime
        os.utime(target, (mtime, mtime))
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    for root in roots:
        for stale in sorted((dest / root).rglob("*")) if (dest / root).exists() else []:
            if stale.is_file() and stale.relative_to(dest).as_posix() not in names:
                stale.unlink()
    for root in roots:  # empty folders left by removals
        for folder in sorted((dest / root).rglob("*"), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
    return digest.hexdigest()[:16]


def main(packages: list[str], pairs_of, roots: list[str], default_dest: str) -> None:
    """The command line of a corpus script: `corpus.py [DEST]`."""
    args = sys.argv[1:]
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(f"usage: {Path(sys.argv[0]).name} [DEST]  (default {default_dest})",
              file=sys.stderr)
        raise SystemExit(2)
    require(packages)
    dest = Path(args[0] if args else default_dest)
    pairs = pairs_of()
    digest = build(dest, pairs, roots)
    size = sum((dest / name).stat().st_size for name, _ in pairs)
    print(f"{dest}: {len(pairs)} files, {size / 1e6:.1f} MB, digest {digest}")


# python3-doc's HTML, a link into the folder of the python3.X-doc package that provides it
PYTHON_HTML = Path("/usr/share/doc/python3-doc/html")


def library_pages(names: list[str], under: str = "python/library") -> list[tuple[str, Path]]:
    """(`UNDER/NAME.html`, its file) for each of the Python library reference's pages
    `names` that python3-doc installed."""
    library = PYTHON_HTML.resolve() / "library"
    return [(f"{under}/{name}.html", library / f"{name}.html") for name in names
            if (library / f"{name}.html").is_file()]


def edition_pages(package: str, editions: dict[str, str], names: set[str]
                  ) -> list[tuple[str, Path]]:
    """(`DEST/NAME`, its file) for each page `names` of a manual that `package` ships in
    one folder per language (`html/en-US/NAME`, `html/fr-FR/NAME`), `editions` giving each
    language folder's destination (`{"en-US": "handbook-en"}`)."""
    return [(f"{editions[path.parent.name]}/{path.name}", path)
            for path in package_files(package)
            if path.parent.name in editions and path.name in names
            and path.parent.parent.name == "html"]


def reference_chapters(chapters: list[str]) -> list[tuple[str, Path]]:
    """(`dr-LANG/chNN.LANG.html`, its file) for each of the Debian Reference's `chapters`
    in English and French (debian-reference-en, debian-reference-fr); stops naming the
    missing ones."""
    out = []
    for language in ("en", "fr"):
        names = {f"{chapter}.{language}.html" for chapter in chapters}
        out += [(f"dr-{language}/{path.name}", path)
                for path in package_files(f"debian-reference-{language}")
                if path.parent == Path("/usr/share/debian-reference") and path.name in names]
    return expect(out, {f"dr-{language}/{chapter}.{language}.html"
                        for language in ("en", "fr") for chapter in chapters})
