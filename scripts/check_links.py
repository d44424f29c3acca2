"""Check the links of the project's Markdown pages (`make lint`; tests/test_doc_links.py).

Pages: README.md, CONTRIBUTING.md, bench/README.md and every .md under docs/. In each,
a relative link `[text](path)` or `[text](path#anchor)` (and `<img src="...">`) must name
a file or folder that exists, and an anchor a heading of the page it points to (GitHub's
slugs); a path written as code, `docs/x.md` or `bench/x.py`, must exist from the
repository's root. Comments of preuve/ and bench/ that name a `docs/...md` page are
checked the same way. Web links are not fetched. Prints one line per broken link; exit 1
when there is one."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)"
                  r"|<img[^>]*\bsrc=\"([^\"]+)\"")
CODE_PATH = re.compile(r"`((?:docs|bench|scripts|examples|tests|preuve)/[\w./-]*\w)`")
DOC_MENTION = re.compile(r"(?<![\w/.])docs/[\w./-]+\.md\b")
FENCE = re.compile(r"^(```|~~~)")


def pages(root: Path = ROOT) -> list[Path]:
    found = [root / "README.md", root / "CONTRIBUTING.md", root / "bench" / "README.md"]
    return [p for p in found if p.exists()] + sorted((root / "docs").rglob("*.md"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as `-`."""
    text = re.sub(r"`|\*\*|__", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in page.read_text("utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            base = slug(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def _prose(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def broken_in(page: Path, root: Path = ROOT) -> list[str]:
    problems = []
    where = page.relative_to(root)
    for number, line in _prose(page.read_text("utf-8")):
        for match in LINK.finditer(re.sub(r"`[^`]*`", "", line)):  # not in code spans
            target = next(g for g in match.groups() if g)
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                continue  # http:, https:, mailto:, file:
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                problems.append(f"{where}:{number}: {target}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                problems.append(f"{where}:{number}: {target}: no heading #{anchor} there")
        for match in CODE_PATH.finditer(line):
            path = match.group(1)
            if path.startswith("bench/out") or "*" in path or "<" in path:
                continue  # what a bench writes, a pattern
            if not (root / path).exists():
                problems.append(f"{where}:{number}: `{path}`: no such file")
    return problems


def broken_mentions(root: Path = ROOT) -> list[str]:
    """`docs/...md` named in the comments and docstrings of preuve/ and bench/."""
    problems = []
    for source in sorted([*(root / "preuve").rglob("*.py"), *(root / "bench").rglob("*.py")]):
        for number, line in enumerate(source.read_text("utf-8").splitlines(), 1):
            for match in DOC_MENTION.finditer(line):
                if not (root / match.group(0)).exists():
                    problems.append(f"{source.relative_to(root)}:{number}: {match.group(0)}: "
                                    "no such page")
    return problems


def broken(root: Path = ROOT) -> list[str]:
    return [p for page in pages(root) for p in broken_in(page, root)] + broken_mentions(root)


if __name__ == "__main__":
    found = broken()
    print("\n".join(found) or f"{len(pages())} pages: every link resolves")
    sys.exit(1 if found else 0)
