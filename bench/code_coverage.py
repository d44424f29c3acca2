"""How much of real JavaScript/TypeScript sits in definition chunks, and what the rest is.

    PYTHONPATH=. .venv/bin/python bench/code_coverage.py [--root /usr/share/nodejs]
        [--packages express,qs] [--idioms 15] [--examples 2]

Every .js/.mjs/.cjs/.ts file of the packages listed in PACKAGES (Debian's node-* packages
under /usr/share/nodejs: code nobody on this project wrote, of varied styles) is listed as
`preuve ingest` would list it (`preuve.ingest.walk`: no `node_modules`, hidden or vendored
folders) and skipped when ingest would skip it (`walk.generated`: minified, `@generated`);
`.d.ts` declarations are left out (types, not code). Each file is cut by
`preuve.ingest.code.parse_code` with the default settings, and each non-blank line counted
once: in a definition chunk (a chunk with a symbol, not the file's `module` doc), in the
module doc, in a line window (no symbol), in a container's opening line its members carry
as heading (`Foo.prototype = {`), or in no chunk (a lone `}`).

Prints the share of lines in definitions per package and overall (lines of all packages
together, and the mean of the packages' shares), then the idioms the window lines belong
to: the top-level statement holding each window line, classified by its shape
(`assignment = call`, `IIFE wrapper`, `call(..., function)`...; inside a wrapper
function, the statement of its body), with a few examples; and the lines with a word
that are in no chunk at all (lost to search: should be 0).
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path

from common import table

from preuve.ingest.base import ChunkSettings, decode_text
from preuve.ingest.code import parse_code
from preuve.ingest.syntax import _opening, parser_for
from preuve.ingest.walk import generated, walk

ROOT = Path("/usr/share/nodejs")
# varied styles: prototype assignments (express), classes (commander), IIFE/UMD bundles
# (neo-async, handlebars' dist), TypeScript (@jridgewell), one function per module
# (lodash, uuid), generated parsers (esprima, regjsparser), object literals of functions
PACKAGES = (
    "express", "body-parser", "js-yaml", "minimatch", "commander", "debug", "semver",
    "uuid", "qs", "mime", "neo-async", "handlebars", "esprima", "escodegen",
    "readable-stream", "iconv-lite", "source-map", "yargs", "yargs-parser", "json5",
    "resolve", "graceful-fs", "glob", "negotiator", "depd", "chalk", "argparse", "n3",
    "tape", "path-to-regexp", "picomatch", "fast-glob", "regjsparser", "lodash",
    "object-inspect", "source-map-support", "ignore", "@jridgewell/gen-mapping",
    "@jridgewell/sourcemap-codec", "@jridgewell/set-array",
)
SUFFIXES = (".js", ".mjs", ".cjs", ".ts")
DEFINITION, MODULE, WINDOW, HEADING, NONE = ("definition", "module", "window", "heading",
                                             "none")
_WORD = re.compile(r"\w")


def package_files(folder: Path) -> list[Path]:
    return [path for path in listed_files(folder, SUFFIXES, declarations=False)
            if generated(path, path.read_bytes()) is None]


def listed_files(folder: Path, suffixes: tuple[str, ...], declarations: bool = True):
    """The files under `folder` ending in one of `suffixes` that `preuve ingest` would
    list as code (`preuve.ingest.walk`); `.d.ts` ones only with `declarations`. The
    caller skips the generated ones (`walk.generated`, which reads the file)."""
    for candidate in walk(folder):
        name = candidate.path.name.lower()
        if candidate.kind is not None and name.endswith(suffixes) and (
                declarations or not name.endswith(".d.ts")):
            yield candidate.path


def line_classes(data: bytes, suffix: str, chunks=None) -> tuple[list[str], list[str]]:
    """The file's lines and, per line, where it ended up (in `chunks`, by default those
    `parse_code` cuts)."""
    lines = decode_text(data).split("\n")  # as `parse_code` numbers them
    where = [NONE] * len(lines)
    rank = {NONE: 0, WINDOW: 1, MODULE: 2, DEFINITION: 3}
    if chunks is None:
        chunks = parse_code(data, ChunkSettings(), suffix).chunks
    # a container's opening line alone (`Foo.prototype = {`) is its members' heading
    headings = {part for c in chunks for part in c.heading.split(" > ")}
    for chunk in chunks:
        label = WINDOW if not chunk.symbol else (
            MODULE if chunk.symbol == "<module>" else DEFINITION)
        for line in range(chunk.start_line, chunk.end_line + 1):
            if rank[label] > rank[where[line - 1]]:
                where[line - 1] = label
    for i, line in enumerate(lines):
        if where[i] == NONE and _opening(line) in headings:
            where[i] = HEADING
    return lines, where


def shape(node, text) -> str:
    """What a top-level statement is, as a developer would name the idiom."""
    t = node.type
    if t in ("comment", "hash_bang_line"):
        return "comment"
    if t in ("import_statement", "export_statement") and "require(" not in text(node)[:200]:
        inner = node.child_by_field_name("declaration")
        return t if inner is None else f"export {shape(inner, text)}"
    if t in ("lexical_declaration", "variable_declaration"):
        values = [d.child_by_field_name("value") for d in node.named_children
                  if d.type == "variable_declarator"]
        values = [v for v in values if v is not None]
        if values and all(_is_require(v, text) for v in values):
            return "require"
        kinds = sorted({_value_shape(v, text) for v in values}) or ["none"]
        many = " (several)" if len(values) > 1 else ""
        return f"var = {'/'.join(kinds)}{many}"
    if t == "expression_statement" and node.named_children:
        inner = node.named_children[0]
        if inner.type == "string":
            return "'use strict'"
        if inner.type in ("assignment_expression", "augmented_assignment_expression"):
            right = inner.child_by_field_name("right")
            left = inner.child_by_field_name("left")
            target = "module.exports" if text(left).startswith(("module.exports", "exports")) \
                else "a.b" if left is not None and left.type == "member_expression" else "x"
            if right is not None and right.type == "assignment_expression":
                while right.type == "assignment_expression":
                    right = right.child_by_field_name("right")
                return f"chained {target} = ... = {_value_shape(right, text)}"
            return f"{target} = {_value_shape(right, text)}"
        if inner.type in ("call_expression", "unary_expression", "new_expression",
                          "parenthesized_expression"):
            return _call_shape(inner, text)
        return f"expression {inner.type}"
    return t


def _is_require(node, text) -> bool:
    return node.type in ("call_expression", "member_expression") and \
        text(node).startswith("require(")


_FUNCTIONS = ("function_expression", "function", "arrow_function", "generator_function")


def _functions_in(node) -> int:
    return sum(1 for c in node.named_children if _unwrapped(c).type in _FUNCTIONS)


def _unwrapped(node):
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _value_shape(node, text) -> str:
    if node is None:
        return "none"
    if _is_require(node, text):
        return "require"
    if node.type == "object":
        members = [c for c in node.named_children if c.type != "comment"]
        functions = sum(1 for c in members if c.type == "method_definition" or (
            c.type == "pair" and (c.child_by_field_name("value") or c).type in (
                "function_expression", "function", "arrow_function")))
        return "object of functions" if functions and functions * 2 >= len(members) \
            else "object"
    if node.type in ("call_expression", "unary_expression", "parenthesized_expression"):
        return _call_shape(node, text)
    return node.type


def _call_shape(node, text) -> str:
    while node.type in ("unary_expression", "parenthesized_expression") and node.named_children:
        node = node.named_children[-1]
    if node.type != "call_expression":
        return node.type
    callee = node.child_by_field_name("function")
    callee = _unwrapped(callee) if callee is not None else None
    if callee is not None and callee.type == "member_expression" \
            and text(callee).endswith((".call", ".apply")):  # function () {...}.call(this)
        callee = _unwrapped(callee.child_by_field_name("object"))
    arguments = node.child_by_field_name("arguments")
    if callee is not None and callee.type in _FUNCTIONS:
        return "IIFE wrapper" if arguments is None or not _functions_in(arguments) \
            else "UMD wrapper (function(root, factory))"
    if callee is not None and callee.type == "call_expression":
        return "call(...)(...)"
    args = arguments.named_children if arguments is not None else []
    if any(a.type in ("function_expression", "function", "arrow_function") for a in args):
        return "call(..., function)"
    if any(a.type == "object" and _value_shape(a, text) == "object of functions"
           for a in args):
        return "call(..., {get: function})"
    return "call"


_THROUGH = frozenset({"expression_statement", "parenthesized_expression", "unary_expression",
                      "call_expression", "arguments", "member_expression",
                      "assignment_expression", "lexical_declaration", "variable_declaration",
                      "variable_declarator", *_FUNCTIONS})


def statements(node, text, inside: str = ""):
    """(label, statement) of a top-level statement, or of the statements of the
    functions a wrapper calls where it is written (an IIFE, UMD's factory): what the lines
    left in windows inside a wrapper are."""
    label = shape(node, text)
    if "wrapper" not in label:
        yield inside + label, node
        return
    bodies, todo = [], [node]
    while todo:
        current = todo.pop()
        for child in current.named_children:
            if child.type == "statement_block" and current.type in _FUNCTIONS:
                bodies.append(child)
            elif child.type in _THROUGH:
                todo.append(child)
    covered = set()
    for body in bodies:
        for statement in body.named_children:
            covered.update(range(statement.start_point[0], statement.end_point[0] + 1))
            yield from statements(statement, text, "in a wrapper: ")
    # the wrapper's own lines (`(function (root, factory) {`, `})(this);`)
    yield f"{inside}{label} (its own lines)", (node, covered)


def idioms(data: bytes, suffix: str, where: list[str]) -> collections.Counter:
    """Window lines per shape of the statement holding them."""
    name = "typescript" if suffix == ".ts" else "javascript"
    tree = parser_for(name).parse(data)
    found: collections.Counter = collections.Counter()

    def text(node) -> str:
        return data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    lines = data.decode("utf-8", "replace").split("\n")
    for top in tree.root_node.named_children:
        for label, item in statements(top, text):
            node, skip = item if isinstance(item, tuple) else (item, set())
            count = sum(1 for i in range(node.start_point[0], node.end_point[0] + 1)
                        if i not in skip and where[i] == WINDOW and lines[i].strip())
            if count:
                found[label] += count
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--packages", default=",".join(PACKAGES))
    parser.add_argument("--idioms", type=int, default=15, help="how many idioms to list")
    parser.add_argument("--examples", type=int, default=2,
                        help="files shown per idiom (those with the most lines)")
    args = parser.parse_args()
    rows, shares, lost_total = [], [], 0
    totals: collections.Counter = collections.Counter()
    shapes: collections.Counter = collections.Counter()
    examples: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for package in args.packages.split(","):
        folder = args.root / package
        if not folder.is_dir():
            print(f"(not installed: {package})")
            continue
        counts: collections.Counter = collections.Counter()
        lost = 0
        files = package_files(folder)
        for path in files:
            data = path.read_bytes()
            suffix = path.suffix.lower()
            lines, where = line_classes(data, suffix)
            counts.update(w for line, w in zip(lines, where, strict=True) if line.strip())
            lost += sum(1 for line, w in zip(lines, where, strict=True)
                        if w == NONE and _WORD.search(line))
            found = idioms(data, suffix, where)
            shapes.update(found)
            for label, n in found.items():
                examples[label][str(path.relative_to(args.root))] += n
        code = sum(counts.values())
        if not code:
            continue
        totals.update(counts)
        shares.append(counts[DEFINITION] / code)
        lost_total += lost
        rows.append((package, len(files), code, counts[DEFINITION] / code,
                     counts[WINDOW] / code, counts[MODULE] / code, lost))
    rows.sort(key=lambda r: r[3])
    code = sum(totals.values())
    rows.append(("**all**", sum(r[1] for r in rows), code, totals[DEFINITION] / code,
                 totals[WINDOW] / code, totals[MODULE] / code, lost_total))
    print(table(("package", "files", "code lines", "in definitions", "in windows",
                 "module doc", "lines with a word in no chunk"), rows))
    print(f"\nlines in definitions: {totals[DEFINITION] / code:.1%} of {code:,} "
          f"(mean of the {len(shares)} packages: {sum(shares) / len(shares):.1%})\n")
    window = sum(shapes.values())
    print(table(("idiom of the window lines (the statement holding them)", "lines", "share",
                 "most in"), [(label, n, n / window, ", ".join(
                     f"{name} ({lines})" for name, lines in
                     examples[label].most_common(args.examples)))
                     for label, n in shapes.most_common(args.idioms)]))


if __name__ == "__main__":
    main()
