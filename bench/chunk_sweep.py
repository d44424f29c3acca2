"""Every code file of the machine's Debian packages cut by `parse_code`, and checked.

    PYTHONPATH=. .venv/bin/python bench/chunk_sweep.py [--per-root 3000] [--roots go,rust]
        [--show 15] [--timeout 60] [--pathological]

An adversarial sweep of the code chunker (`preuve.ingest.code.parse_code`: tree-sitter for
the languages of `preuve.ingest.syntax.LANGUAGES`, `ast` for Python) over real code nobody
on this project wrote: the roots of `ROOTS` (JavaScript/TypeScript under /usr/share/nodejs,
Python, PHP, Ruby, Go, Rust, C/C++ examples and headers, and the shell scripts of /usr/bin,
read as `.sh`: ingest itself skips a file without suffix). Files are listed as `preuve
ingest` lists them (`bench/code_coverage.listed_files`: no `node_modules`, hidden or
vendored folders; generated and minified files skipped), at most `--per-root` per root,
spread evenly over the sorted list. Each file is cut with the default settings and checked:

- no exception (a file that is not UTF-8 text is the product's clear ParseError: counted
  apart, not a violation), none running over `--timeout` seconds;
- every chunk's text is the file's lines start_line..end_line exactly, and
  1 <= start_line <= end_line <= the file's last line (citations open those lines);
- no line with a word (`\\w`) in no chunk (a container's opening line its members carry
  as heading counts as kept), the lines with one word only (`end`, `})(this);`: dropped by
  design) counted apart;
- no two chunks of the same symbol covering the same lines beyond the windows' overlap
  (`code_overlap_lines`): a definition cut twice;
- no chunk of several lines over `max_words * 3` words (a definition is cut at statements
  past that, line windows at that); one line over it stays whole (a chunk is the file's
  lines: counted apart, and the largest chunks listed);
- the time per file (the slowest, and any over 2 s);
- files the syntax tree was not used for (cut in windows): grammar missing, mostly parse
  errors, RecursionError; for Python, `ast` failing.

`--pathological` also times generated worst cases (a 5 MB one-line file of real JavaScript,
20,000 nested `if (x) {` in JavaScript and PHP, 10,000 nested Python `if`s, a 50,000-element
JavaScript array, 20,000 nested calls in JavaScript, 20,000 nested shell `if`s, 90 nested
Python `if`s around a `def`, 500 `elif`s in Python, 3,000 `else if`s in JavaScript),
built in memory.
"""

from __future__ import annotations

import argparse
import collections
import glob
import re
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from code_coverage import NONE, line_classes, listed_files
from common import table

from preuve.ingest import code, syntax
from preuve.ingest.base import ChunkSettings, ParseError, decode_text
from preuve.ingest.walk import generated

CODE_SUFFIXES = (".py", ".pyi", *syntax.SUFFIXES)
ROOTS: dict[str, tuple[str, ...]] = {  # name -> folders (glob patterns)
    "nodejs": ("/usr/share/nodejs",),
    "python": ("/usr/lib/python3/dist-packages", "/usr/lib/python3.11"),
    "php": ("/usr/share/php",),
    "ruby": ("/usr/share/rubygems-integration", "/usr/lib/ruby"),
    "go": ("/usr/share/gocode",),
    "rust": ("/usr/share/cargo/registry",),
    "examples": ("/usr/share/doc/*/examples",),
    "include": ("/usr/include",),
    "bin-shell": ("/usr/bin",),
}
_SHELL = re.compile(rb"#!\s*(?:/usr)?/bin/(?:env\s+)?(?:ba|da|k|z)?sh\b")
SLOW = 2.0
_WORD = re.compile(r"\w")
_WORDS = re.compile(r"\w+")


def files_of(root: str) -> list[tuple[Path, str]]:
    """(path, the suffix `parse_code` gets) of the code files under a root, sorted."""
    out: list[tuple[Path, str]] = []
    for folder in ROOTS[root]:
        for match in sorted(glob.glob(folder)):
            if root == "bin-shell":  # scripts without suffix, by their first line
                for path in sorted(Path(match).iterdir()):
                    if path.is_file() and not path.is_symlink() and not path.suffix:
                        with path.open("rb") as handle:
                            if _SHELL.match(handle.read(64)):
                                out.append((path, ".sh"))
                continue
            out.extend((path, path.suffix.lower() or path.name)
                       for path in listed_files(Path(match), CODE_SUFFIXES))
    return out


def spread(items: list, cap: int) -> list:
    """At most `cap` items, evenly spaced over the list (every package gets its share)."""
    if cap <= 0 or len(items) <= cap:
        return items
    return [items[i * len(items) // cap] for i in range(cap)]


class Probe:
    """Whether the file being cut was cut by its syntax tree, and if not why: wraps
    `syntax.parse` and `code._parse_python` (looked up at each call) while in use."""

    def __init__(self) -> None:
        self.fallback = ""

    def __enter__(self) -> Probe:
        self.parse, self.python = syntax.parse, code._parse_python

        def parse(source, lines, name, *args):
            found = self.parse(source, lines, name, *args)
            if found is None:
                self.fallback = self.why(source, name)
            return found

        def python(tree, *args):
            self.python_used = True
            return self.python(tree, *args)

        syntax.parse, code._parse_python = parse, python
        return self

    def __exit__(self, *exc) -> None:
        syntax.parse, code._parse_python = self.parse, self.python

    def reset(self) -> None:
        self.fallback, self.python_used = "", False

    @staticmethod
    def why(source: str, name: str) -> str:
        read = syntax.syntax_tree(source.encode("utf-8"), name)
        if read is None:
            return f"{name}: no grammar, or its parser failed"
        name, root = read
        if root.has_error and syntax._error_share(root) > 0.5:
            return f"{name}: mostly parse errors"
        return f"{name}: RecursionError in the walk"


@dataclass
class Result:
    path: str
    seconds: float = 0.0
    chunks: int = 0
    violations: list[tuple[str, int, str]] = field(default_factory=list)
    one_word: int = 0  # lines whose one word is in no chunk (`end`, `})(this);`)
    long_lines: int = 0  # one-line chunks over the size (a line is not cut)
    fallback: str = ""
    largest: tuple[int, int, int] = (0, 0, 0)  # words, characters, first line
    skipped: str = ""  # not text (ParseError)


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout


def check(path: Path, data: bytes, suffix: str, settings: ChunkSettings, probe: Probe,
          timeout: int) -> Result:
    result = Result(str(path))
    probe.reset()
    signal.alarm(timeout)
    start = time.perf_counter()
    try:
        parsed = code.parse_code(data, settings, suffix)
    except ParseError as exc:
        result.skipped = str(exc)
        return result
    except Timeout:
        result.violations.append(("exception", 0, f"over {timeout} s"))
        return result
    except Exception as exc:  # noqa: BLE001 - what the sweep looks for
        result.violations.append(("exception", 0, f"{type(exc).__name__}: {exc}"[:200]))
        return result
    finally:
        signal.alarm(0)
        result.seconds = time.perf_counter() - start
    result.fallback = probe.fallback or (
        "python: ast failed" if suffix in (".py", ".pyi") and not probe.python_used else "")
    chunks = parsed.chunks
    result.chunks = len(chunks)
    lines = decode_text(data).split("\n")
    add = result.violations.append
    for c in chunks:
        if not 1 <= c.start_line <= c.end_line <= len(lines):
            add(("range", c.start_line, f"{c.start_line}-{c.end_line} of {len(lines)} lines"))
        elif c.text != "\n".join(lines[c.start_line - 1:c.end_line]):
            add(("text", c.start_line, f"{c.symbol or '(window)'} {c.start_line}-"
                 f"{c.end_line}: its text is not those lines"))
        words = len(c.text.split())
        if (words, len(c.text)) > result.largest[:2]:
            result.largest = (words, len(c.text), c.start_line)
        if words > settings.definition_words:
            if c.start_line == c.end_line:  # one line: cut, it would cite text it is not
                result.long_lines += 1
            else:
                add(("size", c.start_line, f"{c.symbol or '(window)'} {c.start_line}-"
                     f"{c.end_line}: {words} words, {len(c.text)} characters"))
    _, where = line_classes(data, suffix, chunks)
    lost = [n for n, (line, label) in enumerate(zip(lines, where, strict=True), 1)
            if label == NONE and _WORD.search(line)]
    for number in lost:
        if len(_WORDS.findall(lines[number - 1])) > 1:
            add(("lost", number, lines[number - 1].strip()[:80]))
        else:
            result.one_word += 1
    result.violations.extend(_twice(chunks, settings))
    if result.seconds > SLOW:
        add(("slow", 0, f"{result.seconds:.1f} s"))
    return result


def _twice(chunks, settings: ChunkSettings) -> list[tuple[str, int, str]]:
    """Chunks of one symbol covering the same lines beyond the windows' overlap."""
    out = []
    by_symbol = collections.defaultdict(list)
    for c in chunks:
        if c.symbol:
            by_symbol[c.symbol].append(c)
    for symbol, group in by_symbol.items():
        group.sort(key=lambda c: (c.start_line, c.end_line))
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if b.start_line > a.end_line:
                    break
                shared = min(a.end_line, b.end_line) - b.start_line + 1
                inside = b.end_line <= a.end_line or a.start_line == b.start_line
                if inside or shared > settings.code_overlap_lines:
                    out.append(("twice", b.start_line, f"{symbol}: {a.start_line}-"
                                f"{a.end_line} and {b.start_line}-{b.end_line}"))
    return out


# ------------------------------------------------------------------- worst cases

def pathological() -> list[tuple[str, str, bytes]]:
    """(name, suffix, content) of generated worst cases."""
    real = b""
    for path in listed_files(Path("/usr/share/nodejs"), (".js",), declarations=False):
        real += path.read_bytes().replace(b"\n", b" ") + b";"
        if len(real) > 5_000_000:
            break
    depth = 20_000
    return [
        ("5 MB of real JavaScript on one line", ".js", real),
        (f"{depth:,} nested `if (x) {{` (JavaScript)", ".js",
         b"if (x) {\n" * depth + b"function f() {}\n" + b"}\n" * depth),
        (f"{depth:,} nested `if (x) {{` (PHP)", ".php",
         b"<?php\n" + b"if ($x) {\n" * depth + b"function f() {}\n" + b"}\n" * depth),
        ("10,000 nested Python `if`s", ".py", b"".join(
            b" " * i + b"if x:\n" for i in range(10_000)) + b" " * 10_000 + b"pass\n"),
        ("a 50,000-element JavaScript array", ".js", b"var a = [\n" + b"".join(
            b"  %d,\n" % i for i in range(50_000)) + b"];\n"),
        (f"{depth:,} nested calls `f(` (JavaScript)", ".js",
         b"f(\n" * depth + b"function () {}" + b")\n" * depth),
        (f"{depth:,} nested `if` (shell)", ".sh",
         b"if x; then\n" * depth + b"f() { :; }\n" + b"fi\n" * depth),
        ("90 nested Python `if`s around a `def`", ".py", b"".join(
            b" " * i + b"if x:\n" for i in range(90)) + b" " * 90 + b"def f():\n"
         + b" " * 91 + b"pass\n"),
        ("500 `elif`s (Python)", ".py", b"if x == -1:\n    pass\n" + b"".join(
            b"elif x == %d:\n    pass\n" % i for i in range(500))
         + b"else:\n    def f():\n        pass\n"),
        ("3,000 `else if`s (JavaScript)", ".js", b"function g() {}\nif (x) {}\n"
         + b"".join(b"else if (x == %d) { y(); }\n" % i for i in range(3000))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--roots", default=",".join(ROOTS))
    parser.add_argument("--per-root", type=int, default=3000,
                        help="at most this many files per root (0: all)")
    parser.add_argument("--show", type=int, default=15, help="violations listed per kind")
    parser.add_argument("--timeout", type=int, default=60, help="seconds before a file fails")
    parser.add_argument("--pathological", action="store_true")
    args = parser.parse_args()
    settings = ChunkSettings()
    signal.signal(signal.SIGALRM, _alarm)
    results: list[Result] = []
    rows = []
    with Probe() as probe:
        for root in args.roots.split(","):
            listed = files_of(root)
            taken = 0
            begin = time.perf_counter()
            mine: list[Result] = []
            for path, suffix in spread(listed, args.per_root):
                data = path.read_bytes()
                why = generated(path, data)
                if why is not None:
                    continue
                taken += 1
                mine.append(check(path, data, suffix, settings, probe, args.timeout))
            results.extend(mine)
            kinds = collections.Counter(v[0] for r in mine for v in r.violations)
            rows.append((root, len(listed), taken, sum(r.chunks for r in mine),
                         sum(1 for r in mine if r.fallback), sum(r.one_word for r in mine),
                         sum(r.long_lines for r in mine),
                         ", ".join(f"{k} {n}" for k, n in kinds.most_common()) or "none",
                         f"{time.perf_counter() - begin:.0f} s"))
            print(f"{root}: {taken} files", file=sys.stderr)
        if args.pathological:
            worst = _run_pathological(settings, probe, args.timeout)
    print(table(("root", "code files", "cut", "chunks", "windows only (fallback)",
                 "one-word lines in no chunk", "one-line chunks over the size", "violations",
                 "time"), rows))
    kinds = collections.defaultdict(list)
    for r in results:
        for kind, line, detail in r.violations:
            kinds[kind].append((r.path, line, detail))
    for kind, found in sorted(kinds.items()):
        files = len({f for f, _, _ in found})
        print(f"\n{kind}: {len(found)} in {files} files")
        for path, line, detail in found[:args.show]:
            print(f"  {path}:{line}  {detail}")
    fallbacks = collections.Counter(r.fallback for r in results if r.fallback)
    if fallbacks:
        print("\nwindows only:", ", ".join(f"{k} ({n})" for k, n in fallbacks.most_common()))
        for r in [r for r in results if r.fallback][:args.show]:
            print(f"  {r.path}  {r.fallback}")
    print()
    print(table(("slowest files", "seconds", "chunks"), [
        (r.path, f"{r.seconds:.2f}", r.chunks)
        for r in sorted(results, key=lambda r: -r.seconds)[:10]]))
    print()
    print(table(("largest chunks", "words", "characters", "line"), [
        (r.path, *r.largest) for r in sorted(results, key=lambda r: -r.largest[0])[:5]]))
    skipped = [r for r in results if r.skipped]
    print(f"\nnot text (ParseError, not a violation): {len(skipped)} files")
    if args.pathological:
        print()
        print(table(("worst case", "bytes", "seconds", "chunks", "cut by", "violations"),
                    worst))


def _run_pathological(settings, probe, timeout):
    rows = []
    for name, suffix, data in pathological():  # in memory: nothing written
        result = check(Path(f"({name})"), data, suffix, settings, probe, timeout)
        kinds = collections.Counter(v[0] for v in result.violations)
        rows.append((name, f"{len(data):,}", f"{result.seconds:.2f}", result.chunks,
                     result.fallback or "its tree",
                     ", ".join(f"{k} {n}" for k, n in kinds.items()) or "none"))
        print(f"{name}: {result.seconds:.2f} s", file=sys.stderr)
    return rows


if __name__ == "__main__":
    main()
