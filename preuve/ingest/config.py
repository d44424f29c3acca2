"""Configuration and data files cut by their structure, each chunk named by what it holds.

    YAML, JSON    one chunk per key, descending into a key too long for one chunk:
                  `services.api.environment`, `jobs.build.steps[2]` (kind "key")
    TOML          one chunk per table (`tool.ruff.lint`), per key inside a long one
    SQL           one chunk per statement: `CREATE TABLE invoices` is `invoices`, kind
                  "table" (view, index, function...); ALTER TABLE x, INSERT INTO x... are
                  x, kind "statement"; other statements are cut in windows
    Dockerfile    one chunk per build stage (`FROM python:3.12 AS build` is `build`)
    Makefile      one chunk per target (`test`, `dist/%.whl`), its comment and recipe

Every reader returns None for a file it cannot read (invalid YAML, TOML or JSON), which is
then cut in line windows; positions are the file's own lines, comments right above a key,
statement or target included.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable

from preuve.ingest.base import ChunkSettings
from preuve.ingest.chunking import chunks_from_lines, merge_spans, word_count
from preuve.models import Chunk

Windows = Callable[..., list[Chunk]]


def _add(out: list[Chunk], lines: list[str], first: int, last: int, symbol: str, kind: str,
         settings: ChunkSettings, windows: Windows) -> None:
    """One chunk for lines first..last, or windows of it when it is too long."""
    text = lines[first - 1:last]
    if word_count("\n".join(text)) <= settings.definition_words:
        out.extend(chunks_from_lines(text, first, 10**9, 0, symbol=symbol, symbol_kind=kind))
    else:
        out.extend(windows(lines, first, last, settings, symbol=symbol, symbol_kind=kind))


def _comment_above(lines: list[str], first: int, marker: str = "#") -> int:
    """`first` moved up over the comment lines right above it."""
    while first > 1 and lines[first - 2].lstrip().startswith(marker):
        first -= 1
    return first


# ------------------------------------------------------------------------- YAML, JSON

def read_yaml(source: str, lines: list[str], settings: ChunkSettings,
              windows: Windows) -> list[Chunk] | None:
    import yaml  # here: a question never reads YAML

    try:
        documents = list(yaml.compose_all(source, Loader=yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    out: list[Chunk] = []
    for number, document in enumerate(documents):
        if document is None:
            continue
        first, last = document.start_mark.line + 1, _end_line(document)
        if number == 0:
            first = 1  # the comments and directives that open the file
        if isinstance(document, yaml.MappingNode | yaml.SequenceNode) and document.value:
            try:
                _yaml_children(document, "", first, lines, settings, windows, out)
            except RecursionError:  # thousands of nested levels: windows
                return None
        else:
            _add(out, lines, first, last, "(document)", "key", settings, windows)
    return out or None


def _yaml_children(node, path: str, first: int, lines: list[str], settings: ChunkSettings,
                   windows: Windows, out: list[Chunk], inside: frozenset = frozenset()
                   ) -> None:
    """A chunk for each entry of a mapping or sequence; an entry longer than a chunk is
    split into its own entries. The first entry starts at `first` (its parent's key).
    `inside`: the nodes being split (an alias to one of them, `&a [*a]`, is not)."""
    import yaml

    inside = inside | {id(node)}
    if isinstance(node, yaml.MappingNode):
        entries = [(f"{path}.{_key(k)}" if path else _key(k), k, v) for k, v in node.value]
    else:
        entries = [(f"{path}[{i}]", item, item) for i, item in enumerate(node.value)]
    for index, (name, key, value) in enumerate(entries):
        start = first if index == 0 else _comment_above(lines, key.start_mark.line + 1)
        last = max(_end_line(value), key.start_mark.line + 1)
        words = word_count("\n".join(lines[start - 1:last]))
        if (isinstance(value, yaml.MappingNode | yaml.SequenceNode) and value.value
                and words > settings.max_words and last > start and id(value) not in inside
                and value.start_mark.line + 1 >= start):  # not an alias to a node above
            _yaml_children(value, name, start, lines, settings, windows, out, inside)
        else:
            _add(out, lines, start, last, name, "key", settings, windows)


def _key(node) -> str:
    import yaml

    return str(node.value) if isinstance(node, yaml.ScalarNode) else "?"


def _end_line(node) -> int:
    mark = node.end_mark
    return mark.line if mark.column == 0 and mark.line > node.start_mark.line else mark.line + 1


# ------------------------------------------------------------------------------- TOML

_TOML_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")


def read_toml(source: str, lines: list[str], settings: ChunkSettings,
              windows: Windows) -> list[Chunk] | None:
    try:
        tomllib.loads(source)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    tables: list[tuple[int, str]] = [(1, "")]
    for number, line in enumerate(lines, 1):
        match = _TOML_TABLE.match(line)
        if match and not _inside_string(lines, number):
            tables.append((_comment_above(lines, number), _toml_name(match.group(1))))
    out: list[Chunk] = []
    for (first, name), (after, _) in zip(tables, tables[1:] + [(len(lines) + 1, "")],
                                         strict=True):
        last = after - 1
        while last >= first and not lines[last - 1].strip():
            last -= 1
        if last < first:
            continue
        if word_count("\n".join(lines[first - 1:last])) <= settings.max_words or not name:
            keys = _toml_keys(lines, first, last, name) if not name else []
            for a, b, key in keys or [(first, last, name or "(top)")]:
                _add(out, lines, a, b, key, "key", settings, windows)
        else:
            for a, b, key in _toml_keys(lines, first, last, name):
                _add(out, lines, a, b, key, "key", settings, windows)
    return out or None


def _toml_name(raw: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))


def _toml_keys(lines: list[str], first: int, last: int, table: str) -> list[tuple]:
    """(first, last, name) of each key of a table; the table's header goes with its first
    key; a multi-line value runs to the next key."""
    starts = [n for n in range(first, last + 1)
              if _TOML_KEY.match(lines[n - 1]) and not lines[n - 1].startswith((" ", "\t"))
              and not _inside_string(lines, n)]
    if not starts:
        return []
    out = []
    for i, n in enumerate(starts):
        a = first if i == 0 else _comment_above(lines, n)
        b = (_comment_above(lines, starts[i + 1]) - 1) if i + 1 < len(starts) else last
        while b > a and not lines[b - 1].strip():
            b -= 1
        key = _toml_name(_TOML_KEY.match(lines[n - 1]).group(1))
        out.append((a, b, f"{table}.{key}" if table else key))
    return out


def _inside_string(lines: list[str], number: int) -> bool:
    """Whether line `number` is inside a multi-line string (an odd count of triple quotes
    before it)."""
    before = "\n".join(lines[:number - 1])
    return (before.count('"""') % 2 == 1) or (before.count("'''") % 2 == 1)


# -------------------------------------------------------------------------------- SQL

_SQL_NAMED = re.compile(
    r"^\s*(?:CREATE|ALTER|DROP)\s+(?:OR\s+REPLACE\s+)?(?:(?:GLOBAL|LOCAL)\s+)?"
    r"(?:TEMP(?:ORARY)?\s+|UNLOGGED\s+|UNIQUE\s+|MATERIALIZED\s+)*"
    r"(TABLE|VIEW|INDEX|FUNCTION|PROCEDURE|TRIGGER|TYPE|SEQUENCE|SCHEMA|DOMAIN|EXTENSION"
    r"|POLICY|ROLE|DATABASE)\s+(?:CONCURRENTLY\s+)?(?:IF\s+(?:NOT\s+)?EXISTS\s+)?"
    r"([\w.\"`\[\]]+)", re.I)
_SQL_DATA = re.compile(r"^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|COPY)\s+([\w.\"`\[\]]+)",
                       re.I)


def read_sql(source: str, lines: list[str], settings: ChunkSettings,
             windows: Windows) -> list[Chunk] | None:
    # (first, last, name, kind); name None: a statement about nothing named
    items: list[list] = []
    for first, last, text in _sql_statements(source):
        body = _strip_sql_comments(text)
        named, data = _SQL_NAMED.match(body), _SQL_DATA.match(body)
        if named:
            create = body.split(None, 1)[0].lower() == "create"
            kind = named.group(1).lower() if create else "statement"  # ALTER, DROP
            item = [first, last, _sql_name(named.group(2)), kind]
        elif data:
            item = [first, last, _sql_name(data.group(1)), "statement"]
        else:
            item = [first, last, None, None]
        previous = items[-1] if items else None
        if (previous is not None and item[3] in ("statement", None)
                and previous[2:] == item[2:] and item[0] - previous[1] <= 2
                and word_count("\n".join(lines[previous[0] - 1:item[1]]))
                <= settings.max_words):  # INSERT rows of one table, one after another
            previous[1] = max(previous[1], item[1])
        else:
            items.append(item)
    out: list[Chunk] = []
    for first, last, name, kind in items:
        if name is None:
            out.extend(windows(lines, first, last, settings))
        else:
            _add(out, lines, first, last, name, kind, settings, windows)
    return out or None


def _sql_name(raw: str) -> str:
    return re.sub(r"[\"`\[\]]", "", raw)


def _strip_sql_comments(text: str) -> str:
    return re.sub(r"--[^\n]*|/\*.*?\*/", " ", text, flags=re.S).strip()


def _sql_statements(source: str):
    """(first line, last line, text) of each statement: split at `;` outside quotes,
    comments and dollar-quoted bodies; comments above a statement belong to it."""
    i, n, line, start, start_line = 0, len(source), 1, 0, 1
    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
        if c in "'\"`":
            end = source.find(c, i + 1)
            while end != -1 and end + 1 < n and source[end + 1] == c:  # '' escape
                end = source.find(c, end + 2)
            end = n - 1 if end == -1 else end
            line += source.count("\n", i + 1, end + 1)
            i = end + 1
            continue
        if source.startswith("--", i):
            end = source.find("\n", i)
            i = n if end == -1 else end
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end == -1 else end + 2
            line += source.count("\n", i, end)
            i = end
            continue
        dollar = re.match(r"\$[A-Za-z_]*\$", source[i:i + 64]) if c == "$" else None
        if dollar:
            end = source.find(dollar.group(0), i + len(dollar.group(0)))
            end = n if end == -1 else end + len(dollar.group(0))
            line += source.count("\n", i, end)
            i = end
            continue
        if c == ";":
            yield from _statement(source, start, i + 1, start_line)
            start, start_line = i + 1, line
        i += 1
    yield from _statement(source, start, n, start_line)


def _statement(source: str, a: int, b: int, line: int):
    text = source[a:b]
    stripped = text.lstrip()
    if not _strip_sql_comments(stripped).strip(" ;\n\t"):
        return
    first = line + text[:len(text) - len(stripped)].count("\n")
    last = first + stripped.rstrip().count("\n")
    yield first, last, stripped.rstrip()


# ------------------------------------------------------------------ Dockerfile, Makefile

_FROM = re.compile(r"^\s*FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?", re.I)


def read_dockerfile(source: str, lines: list[str], settings: ChunkSettings,
                    windows: Windows) -> list[Chunk] | None:
    stages = [(_comment_above(lines, n), m.group(2) or m.group(1))
              for n, line in enumerate(lines, 1) if (m := _FROM.match(line))]
    if not stages:
        return None
    out: list[Chunk] = []
    if stages[0][0] > 1:  # ARG lines and comments before the first FROM
        out.extend(windows(lines, 1, stages[0][0] - 1, settings))
    for (first, name), (after, _) in zip(stages, stages[1:] + [(len(lines) + 1, "")],
                                         strict=True):
        last = after - 1
        while last > first and not lines[last - 1].strip():
            last -= 1
        _add(out, lines, first, last, name, "stage", settings, windows)
    return out


_TARGET = re.compile(r"^([^\s:=#][^:=#]*?)\s*::?(?![=])(?:\s|$)")


def read_makefile(source: str, lines: list[str], settings: ChunkSettings,
                  windows: Windows) -> list[Chunk] | None:
    out: list[Chunk] = []
    rest: list[int] = []  # lines that belong to no target (variables, includes)
    n = 1
    while n <= len(lines):
        match = _TARGET.match(lines[n - 1])
        if not match or lines[n - 1].startswith("\t"):
            rest.append(n)
            n += 1
            continue
        first = _comment_above(lines, n)
        last = n
        while last < len(lines) and (lines[last].startswith("\t")
                                     or lines[last - 1].rstrip().endswith("\\")):
            last += 1
        rest = [r for r in rest if r < first]
        name = match.group(1).strip()
        kind = "target"
        if name.startswith("."):  # .PHONY, .SUFFIXES: declarations, not targets
            rest.extend(range(first, last + 1))
        else:
            _add(out, lines, first, last, name, kind, settings, windows)
        n = last + 1
    for a, b in merge_spans((n, n) for n in rest if lines[n - 1].strip()):
        out.extend(windows(lines, a, b, settings))
    out.sort(key=lambda c: (c.start_line, c.end_line))
    return out or None


Reader = Callable[..., list[Chunk] | None]
# format -> (reader, file endings, whole file names)
FORMATS: dict[str, tuple[Reader, tuple[str, ...], tuple[str, ...]]] = {
    "yaml": (read_yaml, (".yaml", ".yml"), ()),
    "json": (read_yaml, (".json",), ()),  # JSON is YAML for the parser, with positions
    "toml": (read_toml, (".toml",), ()),
    "sql": (read_sql, (".sql",), ()),
    "dockerfile": (read_dockerfile, (".dockerfile",), ("Dockerfile", "Containerfile")),
    "makefile": (read_makefile, (".mk",), ("Makefile", "GNUmakefile", "makefile")),
}
SUFFIXES = {s: name for name, (_, suffixes, _) in FORMATS.items() for s in suffixes}
FILENAMES = {n: name for name, (_, _, names) in FORMATS.items() for n in names}


def format_of(suffix: str, name: str = "") -> str | None:
    return FILENAMES.get(name) or SUFFIXES.get(suffix)
