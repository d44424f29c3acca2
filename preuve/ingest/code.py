"""Source code and configuration files, cut by their structure.

Python (the standard `ast`) gives one chunk per module docstring, module constant,
function, class header and method (`Class.method`), each with its exact first and last
line, decorators included, so `where` can answer `path:line  kind name` and citations open
the right lines. The languages of `preuve.ingest.syntax.LANGUAGES` (JavaScript,
TypeScript, Go, Java, Rust, C, C++, C#, Ruby, PHP, shell) get the same from tree-sitter;
configuration and data files (YAML, TOML, JSON, SQL, Dockerfile, Makefile) are cut by
their keys, statements, stages and targets (`preuve.ingest.config`). Anything else, and a
file its parser cannot read, is cut in line windows.
"""

from __future__ import annotations

import ast
import itertools
import re

from preuve.errors import InvalidInput
from preuve.ingest import comments, config, syntax
from preuve.ingest.base import ChunkSettings, Parsed, decode_text
from preuve.ingest.chunking import chunks_from_lines, in_line_order, says_nothing, word_count
from preuve.models import Chunk

CODE_EXTENSIONS = {
    ".py", ".pyi", ".kt", ".scala", ".swift", ".lua", ".r", ".pl", ".ex", ".exs", ".erl",
    ".hs", ".ml", ".vue", ".svelte", ".css", ".scss", ".ini", ".cfg",
    *syntax.SUFFIXES, *config.SUFFIXES,
}
CODE_FILENAMES = {"Justfile", "CMakeLists.txt", *syntax.FILENAMES, *config.FILENAMES}
# `where --lang NAME`: the languages a code chunk can be of (by its file's name), and
# the other names developers give them
LANGUAGE_ALIASES = {
    "js": "javascript", "ts": "typescript", "golang": "go", "cs": "csharp", "c#": "csharp",
    "c++": "cpp", "sh": "bash", "shell": "bash", "rb": "ruby", "py": "python",
    "rs": "rust", "yml": "yaml", "docker": "dockerfile", "make": "makefile",
}


# every `symbol_kind` a code chunk may have, and the `--kind` names that stand for several
SYMBOL_KINDS = (
    "module", "constant", "variable", "attribute", "property", "function", "method", "macro",
    "class", "struct", "interface", "trait", "enum", "type", "impl",
    "key", "table", "view", "index", "procedure", "trigger", "sequence", "schema", "domain",
    "extension", "policy", "role", "database", "statement", "stage", "target",
)
KIND_GROUPS = {
    "function": ("function", "method", "macro", "procedure"),
    "class": ("class", "struct", "interface", "trait", "enum", "impl"),
    "type": ("type", "class", "struct", "interface", "trait", "enum"),
}


def resolve_kinds(names) -> frozenset[str]:
    """`--kind` values (comma-separated allowed) as the symbol kinds they match."""
    out: set[str] = set()
    for item in names:
        for name in (n.strip().lower() for n in item.split(",")):
            if not name:
                continue
            if name not in SYMBOL_KINDS:
                raise InvalidInput(f"--kind: unknown kind {name!r} (known: "
                                   f"{', '.join(SYMBOL_KINDS)})")
            out.update(KIND_GROUPS.get(name, (name,)))
    return frozenset(out)


_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|spec|specs|__tests__|testdata|testing)/"  # a test folder
    r"|(?:^|/)test_[^/]*$|_test\.[a-z]+$|_spec\.[a-z]+$|\.(?:test|spec)\.[a-z]+$"
    r"|(?:^|/)[^/]*Tests?\.(?:java|cs|php|kt|swift)$")


def is_test_path(path: str) -> bool:
    """Whether a file is a test by the usual conventions (`tests/`, `*_test.go`,
    `test_*.py`, `*.spec.ts`, `FooTest.java`)."""
    return bool(_TEST_PATH.search(path))


# folders of code that runs the code rather than being it: benchmarks, examples, demos
_USING_PATH = re.compile(r"(?:^|/)(?:benches|benchmarks?|examples?|demos?)/")


def uses_the_code(path: str) -> bool:
    """Whether a file uses the code base rather than being part of it: a test
    (`is_test_path`), a benchmark (Rust's `benches/`, `benchmark/`) or an example
    (`examples/`). `where` lists them after the code they use."""
    return is_test_path(path) or bool(_USING_PATH.search(path))


def module_name(relpath: str) -> str:
    """The name of a file's own chunk (its opening doc comment or docstring): its path as
    a dotted module name (`go/toml/doc.go` -> `go.toml.doc`, `pkg/__init__.py` -> `pkg`)."""
    return relpath.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")


def is_file_doc(hit) -> bool:
    """The chunk is its file's opening doc (named by `module_name`), not a definition."""
    return hit.symbol_kind == "module" and hit.symbol == module_name(hit.path)


def language_names() -> tuple[str, ...]:
    return tuple(sorted({"python", *(lang.family for lang in syntax.LANGUAGES.values()),
                         *config.FORMATS}))


def language_of(path: str) -> str | None:
    """The language of a code file by its name (`cmd/root.go` -> go), None if unknown."""
    name = path.rsplit("/", 1)[-1]
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if suffix in (".py", ".pyi"):
        return "python"
    language = syntax.language_of(suffix, name)
    return language.family if language is not None else config.format_of(suffix, name)


def resolve_language(name: str) -> str:
    """A `--lang` value as a language name; InvalidInput naming the known ones."""
    key = name.strip().lower()
    key = LANGUAGE_ALIASES.get(key, key)
    if key not in language_names():
        raise InvalidInput(f"--lang: unknown language {name!r} (known: "
                           f"{', '.join(language_names())})")
    return key


_COMMENT_LINE = re.compile(r"^\s*(?://+|#+|/\*+|\*+|--|;+)\s?(.*)$")


def parse_code(data: bytes, settings: ChunkSettings, suffix: str) -> Parsed:
    """`suffix` is the file's lower-case suffix, or its whole name when it has none
    (`Makefile`)."""
    source = decode_text(data)
    lines = source.split("\n")
    name = suffix if not suffix.startswith(".") else ""
    suffix = "" if name else suffix
    language = syntax.language_of(suffix, name)
    if language is not None:
        chunks = syntax.parse(source, lines, language.name, settings, _line_windows)
        if chunks is not None:
            # the module's doc summary is the file's title, as a Python docstring's is:
            # every chunk of the file is searched with what the file is for
            title = next((syntax.doc_summary(c.text.split("\n")) for c in chunks
                          if c.symbol == "<module>"), "")
            return Parsed(title=title[:120], chunks=chunks, language_sample=_comments(lines))
    data_format = config.format_of(suffix, name)
    if data_format is not None:
        chunks = config.FORMATS[data_format][0](source, lines, settings, _line_windows)
        if chunks is not None:
            return Parsed(chunks=chunks, language_sample=_comments(lines))
    if suffix in (".py", ".pyi"):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # MemoryError/RecursionError: CPython's parser on deeply nested expressions
            tree = None  # still searchable, by line windows
        if tree is not None:
            return _parse_python(tree, lines, settings)
    chunks = _line_windows(lines, 1, len(lines), settings)
    return Parsed(chunks=chunks, language_sample=source)


def _comments(lines: list[str]) -> str:
    """The comment lines: what tells the language a code base is written in."""
    return "\n".join(m.group(1) for line in lines[:5000]
                     if (m := _COMMENT_LINE.match(line)) is not None)


def _line_windows(lines, first, last, settings, **fields) -> list[Chunk]:
    """Windows of `code_window_lines` lines overlapping by `code_overlap_lines`, blank
    edges trimmed; a window ends earlier at 3 × `max_words` words (a table of numbers),
    and the next then starts after it. One line longer than that stays whole: a chunk is
    the file's lines exactly."""
    out: list[Chunk] = []
    limit = settings.definition_words
    start = first
    while start <= last:
        end, words = start, word_count(lines[start - 1])
        while end < last and end - start + 1 < settings.code_window_lines:
            more = word_count(lines[end])
            if words + more > limit:
                break
            end, words = end + 1, words + more
        out.extend(chunks_from_lines(lines[start - 1:end], start, 10**9, 0, **fields))
        if end == last:
            break
        full = end - start + 1 == settings.code_window_lines
        start = end + 1 - settings.code_overlap_lines if full else end + 1
    return out


def _definition(node, lines, settings, symbol: str, kind: str, last: int | None = None,
                floor: int = 0):
    return _bounded(lines, _first_line(node, lines, floor), last or node.end_lineno,
                    settings, symbol, kind)


def _bounded(lines, first: int, last: int, settings, symbol: str, kind: str) -> list[Chunk]:
    """One chunk of lines first..last, or line windows past 3 × `max_words`."""
    text_lines = lines[first - 1:last]
    if word_count("\n".join(text_lines)) <= settings.definition_words:
        return chunks_from_lines(text_lines, first, 10**9, 0, symbol=symbol, symbol_kind=kind)
    return _line_windows(lines, first, last, settings, symbol=symbol, symbol_kind=kind)


def _first_line(node, lines: list[str], floor: int = 0) -> int:
    """A definition's first line: its decorators, and the `#` comments right above them at
    its indentation (one blank line at most between), which document it, as the comment
    above a definition does in the other languages (`syntax.py`); never at or above
    `floor`, the last line of the statement before."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    line = lines[first - 1]
    mark = line[:len(line) - len(line.lstrip())] + "#"
    above = first - 1  # the line above, 1-based
    if above > floor and not lines[above - 1].strip() and above - 1 > floor \
            and lines[above - 2].startswith(mark):
        above -= 1  # one blank line between the comment and the definition
    while above > floor and lines[above - 1].startswith(mark) \
            and not lines[above - 1].startswith("#!"):
        first = above
        above -= 1
    return first


def _class(node: ast.ClassDef, lines, settings, prefix: str, outer_doc: str = "",
           floor: int = 0) -> list[Chunk]:
    name = prefix + node.name
    # its members are searched with the first sentence of its docstring (or of the
    # nearest documented class holding it), as other languages' members are with their
    # container's doc comment (`Chunk.context`, `syntax.py`)
    docstring = ast.get_docstring(node)
    doc = comments.doc_summary(docstring.split("\n")) if docstring else outer_doc
    inner = [n for n in node.body
             if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)]
    before = _ends_before(node.body, node.lineno)
    if inner:
        header_last = _first_line(inner[0], lines, before[id(inner[0])]) - 1
        while header_last > node.lineno and not lines[header_last - 1].strip():
            header_last -= 1
    else:
        header_last = node.end_lineno
    out = _definition(node, lines, settings, name, "class", header_last, floor)
    # class-level statements after the first method (attributes, constants) stand alone
    for stmt in node.body:
        if stmt in inner or stmt.lineno <= header_last:
            continue
        names = _target_names(stmt) if isinstance(stmt, ast.Assign | ast.AnnAssign) else []
        if names:
            symbols = ", ".join(f"{name}.{n}" for n in names)
            members = _definition(stmt, lines, settings, symbols, "attribute",
                                  floor=before[id(stmt)])
        else:
            members = _line_windows(lines, stmt.lineno, stmt.end_lineno, settings,
                                    symbol=name, symbol_kind="class")
        out.extend(_with_context(members, doc))
    for child in inner:
        if isinstance(child, ast.ClassDef):
            out.extend(_class(child, lines, settings, name + ".", doc, before[id(child)]))
        else:
            out.extend(_with_context(_definition(
                child, lines, settings, f"{name}.{child.name}", "method",
                floor=before[id(child)]), doc))
    return out


def _ends_before(statements, floor: int) -> dict[int, int]:
    """id of each statement -> the last line of the one before it (`floor` for the first):
    how far up its comments may go."""
    out = {}
    for stmt in statements:
        out[id(stmt)] = floor
        floor = max(floor, stmt.end_lineno)
    return out


def _with_context(chunks: list[Chunk], doc: str) -> list[Chunk]:
    for chunk in chunks:
        chunk.context = doc
    return chunks


def _parse_python(tree: ast.Module, lines: list[str], settings: ChunkSettings) -> Parsed:
    chunks: list[Chunk] = []
    docstring = ast.get_docstring(tree)
    walked = _walked_into(tree.body)
    before = _ends_before(walked, 0)
    classes: list[tuple[int, int, str]] = []  # (first, last, name) of the top-level classes
    for index, node in enumerate(walked):
        floor = before[id(node)]
        if index == 0 and docstring is not None and isinstance(node, ast.Expr):
            chunks.extend(_bounded(lines, node.lineno, node.end_lineno, settings, "<module>",
                                   "module"))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            chunks.extend(_definition(node, lines, settings, node.name, "function",
                                      floor=floor))
        elif isinstance(node, ast.ClassDef):
            chunks.extend(_class(node, lines, settings, "", floor=floor))
            classes.append((node.lineno, node.end_lineno, node.name))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and _target_names(node):
            names = _target_names(node)
            kind = "constant" if all(n.isupper() for n in names) else "variable"
            chunks.extend(_definition(node, lines, settings, ", ".join(names), kind,
                                      floor=floor))
    chunks = in_line_order(chunks + _left_over(lines, chunks, settings, classes))
    title = docstring.strip().split("\n")[0][:120] if docstring else ""
    return Parsed(title=title, chunks=chunks, language_sample=_prose(tree))


def _left_over(lines: list[str], chunks: list[Chunk], settings: ChunkSettings,
               classes: list[tuple[int, int, str]]) -> list[Chunk]:
    """Line windows of what no definition holds, so that no line is lost to search:
    imports, top-level statements (`if __name__ == ...`), the conditions definitions
    stand under, comments between definitions, a licence; inside a class (a comment
    after its last method), labelled with the class. Runs of lines two blank lines apart
    at most are one; a run of one word (`else:`, `main()`) is none, as in `syntax.py`."""
    taken = set()
    for chunk in chunks:
        taken.update(range(chunk.start_line, chunk.end_line + 1))
    spans: list[list[int]] = []
    for number, line in enumerate(lines, 1):
        if number in taken or not line.strip():
            continue
        if spans and number - spans[-1][1] <= 3 and not any(
                n in taken for n in range(spans[-1][1] + 1, number)):
            spans[-1][1] = number
        else:
            spans.append([number, number])
    out: list[Chunk] = []
    for first, last in spans:
        if says_nothing("\n".join(lines[first - 1:last])):
            continue
        owner = next((name for a, b, name in classes if a <= first and last <= b), None)
        fields = {"symbol": owner, "symbol_kind": "class"} if owner else {}
        out.extend(_line_windows(lines, first, last, settings, **fields))
    return out


_DEFINES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _walked_into(body: list[ast.stmt]) -> list[ast.stmt]:
    """The module's statements, with those of an `if` or `try` that defines a function or
    a class in place of it (`try: from _speedups import f` / `except ImportError: def
    f(...)`, a definition per Python version): its definitions are the module's, its
    conditions (`if sys.version_info >= ...`, `except ImportError`) left over.
    Without recursion: an `elif` is an `if` nested in the one before, and a chain of
    hundreds is real code."""
    held = _holding_definitions(body)
    out: list[ast.stmt] = []
    todo = [iter(body)]  # the statement lists being walked, innermost last
    while todo:
        node = next(todo[-1], None)
        if node is None:
            todo.pop()
        elif id(node) not in held:
            out.append(node)
        else:
            todo.append(itertools.chain.from_iterable(_blocks(node)))
    return out


def _holding_definitions(body: list[ast.stmt]) -> set[int]:
    """The ids of the `if` and `try` statements of `body` with a function or a class
    definition inside, through other `if`s and `try`s (in one pass: each statement is
    looked at once)."""
    held: set[int] = set()
    parent: dict[int, ast.stmt] = {}
    todo = list(body)
    while todo:
        node = todo.pop()
        for block in _blocks(node):
            for child in block:
                if not isinstance(child, _DEFINES):
                    parent[id(child)] = node
                    todo.append(child)
                    continue
                holder: ast.stmt | None = node  # it and the statements holding it
                while holder is not None and id(holder) not in held:
                    held.add(id(holder))
                    holder = parent.get(id(holder))
    return held


def _blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists of an `if` or a `try` (its branches, handlers, else, finally)."""
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    if isinstance(node, ast.Try | ast.TryStar):
        return [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]
    return []


def _target_names(node) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = []
    for target in targets:
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, ast.Tuple):
            names.extend(e.id for e in target.elts if isinstance(e, ast.Name))
    return names


def _prose(tree: ast.Module) -> str:
    """Docstrings only: what tells the language a code base is written in."""
    parts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            if doc:
                parts.append(doc)
    return "\n".join(parts)
