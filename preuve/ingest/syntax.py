"""Source code other than Python, by its syntax tree (tree-sitter's official grammars).

One table, `LANGUAGES`, says for each language which file endings it reads, which grammar
wheel parses it and which node types are definitions (and of what kind), containers
(classes, impls, modules: their members are named `Container.member`) or wrappers walked
through (namespaces, `export`, `#ifdef`, templates). The walk is the same for every
language: one chunk per definition, with its leading comment, its exact first and last
line and its name qualified by its containers (`Router.handle`, `(*Command).Execute`,
`Version::parse`, `Rack::Request#params`); a container gives a header chunk (from its
first line to its first member) and one chunk per member; a definition too long for one
chunk is cut at its body's statement boundaries, each part citing its own lines and
carrying the signature in its heading. A member's heading is its containers' opening
lines (`impl Display for Version`), searched with it, as is (not shown) the first sentence
of its nearest documented container's doc comment (`Chunk.context`); a container whose
header is only that opening line gives no header chunk. The comments opening a file (no
licence, claimed by no definition) are a `module` chunk, their first sentence the file's
title. What is no definition (imports, top-level statements) is cut in line windows.

A language whose grammar is not installed, or a file its grammar cannot parse, falls back
to line windows (`preuve.ingest.code`), with one warning per language and reason.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from preuve.ingest.base import ChunkSettings
from preuve.ingest.chunking import chunks_from_lines, in_line_order, says_nothing, word_count
from preuve.ingest.comments import (
    CONTAINER_KINDS,
    LICENCE,
    container_of,
    doc_summary,
)
from preuve.models import Chunk

log = logging.getLogger("preuve.ingest")

COMMENTS = frozenset({"comment", "line_comment", "block_comment", "doc_comment"})
# what stands above a definition and belongs to it: its doc comment, Rust's #[attributes],
# Python-style decorators of TypeScript classes
LEADING = COMMENTS | {"attribute_item", "decorator", "attribute_list"}


@dataclass(frozen=True)
class Language:
    """How one language is read.

    `definitions`: node type -> kind ("function", "method", "class", "struct", "interface",
    "trait", "enum", "type", "constant", "module", "macro"); a kind ending in "*" is only a
    definition when the node defines something worth a chunk (see `_refine`).
    `containers`: definition types whose body members are chunked on their own and named
    `Container<separator>member`. `transparent`: types walked through for the definitions
    they hold (namespaces, export statements, preprocessor blocks, class bodies).
    `conditional`: statements walked through only when they hold a definition (PHP's
    `if (!function_exists('f')) { function f() ... }`, a shell function defined under
    `if`, a JavaScript library wrapped in a function called where it is written),
    else left as statements like any other. A container kind may also be a definition
    type holding an object of functions (JavaScript's `Foo.prototype = {...}`).
    `member_kinds`: a function found inside a container becomes this kind."""

    name: str
    module: str
    suffixes: tuple[str, ...]
    definitions: dict[str, str]
    containers: frozenset[str] = frozenset()
    transparent: frozenset[str] = frozenset()
    conditional: frozenset[str] = frozenset()
    function: str = "language"
    separator: str = "."
    member_kinds: dict[str, str] = field(default_factory=lambda: {"function": "method"})
    filenames: tuple[str, ...] = ()
    family: str = ""  # the `--lang` name, when not the grammar's (tsx: typescript)
    # a language whose grammar also reads this one's files, tried on a file this one's
    # reads with errors (C's `.h` may be C++)
    superset: str = ""

    def __post_init__(self) -> None:
        if not self.family:
            object.__setattr__(self, "family", self.name)


_JS_DEFS = {
    "function_declaration": "function", "generator_function_declaration": "function",
    "class_declaration": "class", "method_definition": "method",
    "lexical_declaration": "constant*", "variable_declaration": "constant*",
    "expression_statement": "assignment*",
    "pair": "function*",  # `{ parse: function (...) {...} }`, in an object of functions
}
_JS_WRAPPERS = frozenset({"export_statement", "class_body"})
# a statement is walked into when it holds a definition: a condition, and what wraps a
# library in a function called where it is written (`(function () { ... })();`, UMD's
# `(function (root, factory) {...})(this, function () { ... })`, `var Parser = (function
# () { function Parser() {...} ... return Parser; }())`, `!function(){...}()`,
# `function () {...}.call(this)`, AMD's `define([...], function (...) {...})`)
_JS_CONDITIONAL = frozenset({
    "if_statement", "else_clause", "statement_block", "try_statement", "catch_clause",
    "finally_clause",
    "expression_statement", "parenthesized_expression", "unary_expression",
    "call_expression", "arguments", "member_expression", "assignment_expression",
    "lexical_declaration", "variable_declaration", "variable_declarator",
    "function_expression", "function", "arrow_function"})
# statements that are containers when they assign an object of functions
# (`Foo.prototype = { bar: function () {...} }`, `module.exports = { parse() {...} }`)
_JS_CONTAINERS = frozenset({"expression_statement", "lexical_declaration",
                            "variable_declaration"})
_TS_DEFS = _JS_DEFS | {
    "abstract_class_declaration": "class", "interface_declaration": "interface",
    "type_alias_declaration": "type", "enum_declaration": "enum",
    "function_signature": "function", "abstract_method_signature": "method",
}
_TS_WRAPPERS = _JS_WRAPPERS | {"internal_module", "module", "statement_block",
                               "ambient_declaration"}
_C_DEFS = {
    "function_definition": "function", "struct_specifier": "struct*",
    "union_specifier": "struct*", "enum_specifier": "enum*", "type_definition": "type",
    "preproc_def": "constant", "preproc_function_def": "macro", "declaration": "struct*",
}
_C_WRAPPERS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                         "preproc_elifdef", "linkage_specification", "declaration_list"})
_CLASSES = frozenset({"class_declaration", "interface_declaration", "enum_declaration",
                      "record_declaration", "struct_declaration", "trait_declaration",
                      "class_specifier", "struct_specifier", "impl_item", "trait_item",
                      "class", "module", "abstract_class_declaration",
                      "annotation_type_declaration"})

LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (
    Language("javascript", "tree_sitter_javascript", (".js", ".mjs", ".cjs", ".jsx"),
             _JS_DEFS, _CLASSES | _JS_CONTAINERS, _JS_WRAPPERS, _JS_CONDITIONAL),
    Language("typescript", "tree_sitter_typescript", (".ts", ".mts", ".cts"),
             _TS_DEFS, _CLASSES | _JS_CONTAINERS, _TS_WRAPPERS, _JS_CONDITIONAL,
             function="language_typescript"),
    Language("tsx", "tree_sitter_typescript", (".tsx",), _TS_DEFS, _CLASSES | _JS_CONTAINERS,
             _TS_WRAPPERS, _JS_CONDITIONAL, function="language_tsx", family="typescript"),
    Language("go", "tree_sitter_go", (".go",), {
        "function_declaration": "function", "method_declaration": "method",
        "type_declaration": "type", "const_declaration": "constant",
        "var_declaration": "variable"}),
    Language("java", "tree_sitter_java", (".java",), {
        "class_declaration": "class", "interface_declaration": "interface",
        "enum_declaration": "enum", "record_declaration": "class",
        "annotation_type_declaration": "interface", "method_declaration": "method",
        "constructor_declaration": "method"},
        _CLASSES, frozenset({"class_body", "interface_body", "enum_body",
                             "enum_body_declarations"})),
    Language("rust", "tree_sitter_rust", (".rs",), {
        "function_item": "function", "function_signature_item": "function",
        "struct_item": "struct", "enum_item": "enum", "union_item": "struct",
        "trait_item": "trait", "impl_item": "impl", "type_item": "type",
        "const_item": "constant", "static_item": "constant", "macro_definition": "macro",
        "mod_item": "module*"},
        _CLASSES, frozenset({"declaration_list"}), separator="::"),
    Language("c", "tree_sitter_c", (".c", ".h"), _C_DEFS, frozenset(), _C_WRAPPERS,
             superset="cpp"),
    Language("cpp", "tree_sitter_cpp", (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx",
                                        ".h++", ".ipp", ".tpp"),
             _C_DEFS | {"class_specifier": "class*", "struct_specifier": "struct*",
                        "field_declaration": "method*", "concept_definition": "type",
                        "alias_declaration": "type"},
             _CLASSES, _C_WRAPPERS | {"namespace_definition", "field_declaration_list",
                                      "template_declaration"},
             separator="::"),
    Language("csharp", "tree_sitter_c_sharp", (".cs",), {
        "class_declaration": "class", "struct_declaration": "struct",
        "interface_declaration": "interface", "enum_declaration": "enum",
        "record_declaration": "class", "method_declaration": "method",
        "constructor_declaration": "method", "property_declaration": "property",
        "delegate_declaration": "type", "operator_declaration": "method"},
        _CLASSES, frozenset({"namespace_declaration", "file_scoped_namespace_declaration",
                             "declaration_list"}), function="language"),
    Language("ruby", "tree_sitter_ruby", (".rb", ".rake", ".gemspec", ".ru"), {
        "class": "class", "module": "module", "method": "function",
        "singleton_method": "function", "assignment": "constant*"},
        _CLASSES, frozenset({"body_statement"}),
        frozenset({"if", "unless", "then", "else", "elsif", "begin"}), separator="::",
        filenames=("Rakefile", "Gemfile")),
    Language("php", "tree_sitter_php", (".php",), {
        "function_definition": "function", "class_declaration": "class",
        "interface_declaration": "interface", "trait_declaration": "trait",
        "enum_declaration": "enum", "method_declaration": "method",
        "const_declaration": "constant"},
        _CLASSES, frozenset({"namespace_definition", "compound_statement",
                             "declaration_list", "program"}),
        frozenset({"if_statement", "else_clause", "else_if_clause", "colon_block"}),
        function="language_php", separator="::"),
    Language("bash", "tree_sitter_bash", (".sh", ".bash", ".zsh", ".ksh"), {
        "function_definition": "function", "variable_assignment": "constant*",
        "declaration_command": "constant*"},
        conditional=frozenset({"if_statement", "elif_clause", "else_clause"})),
)}

SUFFIXES: dict[str, Language] = {s: lang for lang in LANGUAGES.values() for s in lang.suffixes}
FILENAMES: dict[str, Language] = {n: lang for lang in LANGUAGES.values() for n in lang.filenames}


def language_of(suffix: str, name: str = "") -> Language | None:
    return FILENAMES.get(name) or SUFFIXES.get(suffix)


_warned: set[tuple[str, str]] = set()


def _warn_once(language: str, reason: str) -> None:
    if (language, reason) not in _warned:
        _warned.add((language, reason))
        log.warning("%s files are cut in line windows: %s", language, reason)


@cache
def grammar(name: str):
    """The tree-sitter language, or None (warned once) when its grammar wheel is missing
    or does not load."""
    lang = LANGUAGES[name]
    try:
        import tree_sitter

        module = importlib.import_module(lang.module)
        return tree_sitter.Language(getattr(module, lang.function)())
    except Exception as exc:  # noqa: BLE001 - any failure to load means "no grammar"
        _warn_once(name, f"tree-sitter grammar {lang.module} unavailable "
                         f"({type(exc).__name__}: {exc})")
        return None


_parsers = threading.local()  # a parser is not shared between threads (uploads, watch)


def parser_for(name: str):
    """This thread's parser for the language, or None when it has no grammar."""
    language = grammar(name)
    if language is None:
        return None
    held = _parsers.__dict__.setdefault("by_name", {})
    if name not in held:
        import tree_sitter

        held[name] = tree_sitter.Parser(language)
    return held[name]


def parse(source: str, lines: list[str], name: str, settings: ChunkSettings,
          windows: Callable[..., list[Chunk]]) -> list[Chunk] | None:
    """Chunks of `source` by its syntax tree, or None when it cannot be parsed (the
    caller then cuts line windows)."""
    data = source.encode("utf-8")
    read = syntax_tree(data, name)
    if read is None:
        return None
    name, root = read
    if root.has_error and _error_share(root) > 0.5:
        return None  # mostly not this language (a template, a wrong suffix)
    walker = _Walker(LANGUAGES[name], data, lines, settings, windows)
    try:
        walker.visit(root, "", top=True)
    except RecursionError:  # thousands of nested modules or namespaces: windows
        return None
    walker.module_doc(root)
    return walker.finish()


def syntax_tree(data: bytes, name: str):
    """(language, root node) of a file, or None when it has no grammar or its parser
    fails. A file its language's grammar reads with errors is read by the grammar of
    `superset` when that one reads it with half the errors or fewer: a `.h` of C++
    (`namespace`, `class`, templates) is no C."""
    parser = parser_for(name)
    if parser is None:
        return None
    try:
        root = parser.parse(data).root_node
    except Exception as exc:  # noqa: BLE001 - a grammar that fails on a file
        _warn_once(name, f"the parser failed ({type(exc).__name__})")
        return None
    other = LANGUAGES[name].superset
    if root.has_error and other and parser_for(other) is not None:
        wider = parser_for(other).parse(data).root_node
        if _error_bytes(wider) * 2 <= _error_bytes(root) and _error_share(wider) <= 0.5:
            return other, wider
    return name, root


def _error_bytes(root) -> int:
    """The bytes of the tree's ERROR nodes, at any depth (a missing node counts one)."""
    total, todo = 0, [root]
    while todo:
        node = todo.pop()
        if node.type == "ERROR" or node.is_missing:
            total += max(1, node.end_byte - node.start_byte)
        elif node.has_error:
            todo.extend(node.children)
    return total


def _error_share(root) -> float:
    bad = sum(c.end_byte - c.start_byte for c in root.children
              if c.type == "ERROR" or c.is_missing)
    return bad / max(1, root.end_byte - root.start_byte)


class _Walker:
    def __init__(self, lang: Language, data: bytes, lines: list[str],
                 settings: ChunkSettings, windows: Callable[..., list[Chunk]]):
        self.lang, self.data, self.lines = lang, data, lines
        self.settings, self.windows = settings, windows
        self.chunks: list[Chunk] = []
        # (first, last, symbol, kind, heading) of what is no definition
        self.leftovers: list[tuple[int, int, str | None, str | None, str]] = []
        self.claimed: set[int] = set()  # lines of comments taken by a definition
        self.starts: dict[int, int] = {}  # node id -> first line, its comment included
        self.context: list[str] = []  # opening lines of the containers walked into
        self.docs: dict[str, str] = {}  # symbol -> its doc comment's first sentence
        self.holding: dict[int, bool] = {}  # node id -> whether a definition is inside

    def text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    # ------------------------------------------------------------------ walking
    def visit(self, node, prefix: str, top: bool = False, owner=None) -> None:
        """Chunk the named children of `node`; `prefix` qualifies their names, `owner`
        (symbol, kind) labels what is no definition inside a container. The statements
        walked through (a namespace, a condition: `else if` is an `if` in the one before,
        and a chain of hundreds is real code) are walked without recursion, in order."""
        todo = [iter([c for c in node.children if c.is_named])]
        while todo:
            child = next(todo[-1], None)
            if child is None:
                todo.pop()
                continue
            found = None if child.type in COMMENTS else self.definition(child, prefix, top)
            if found is not None:
                self.emit(child, found, prefix)
            elif child.type in self.lang.transparent or self.holds_definition(child, prefix):
                # its own first line (`declare global {`) is left over unless a chunk
                # of what it holds takes it
                first = child.start_point[0] + 1
                self.leftovers.append((first, first, *(owner or (None, None)),
                                       self.heading()))
                todo.append(iter([c for c in child.children if c.is_named]))
            else:
                self.leftovers.append((child.start_point[0] + 1, _last_line(child),
                                       *(owner or (None, None)), self.heading()))

    def holds_definition(self, node, prefix: str) -> bool:
        """Whether `node` is a conditional statement (or a wrapper function called where
        it is written) with a definition inside, through other conditionals and wrappers:
        one to walk through. Each node is looked at once per file (the answer is kept: it
        is asked again at each level walked into), without recursion."""
        if node.type not in self.lang.conditional:
            return False
        walked = self.lang.transparent | self.lang.conditional
        todo = [(node, False)]
        while todo:
            current, looked = todo.pop()
            if current.id in self.holding:
                continue
            inner = [c for c in current.children if c.is_named and c.type not in COMMENTS]
            if not looked:  # a definition among its children, or its walked ones to ask
                if any(self.definition(c, prefix, True) is not None for c in inner):
                    self.holding[current.id] = True
                    continue
                todo.append((current, True))
                todo.extend((c, False) for c in inner if c.type in walked)
            else:  # its walked children were answered
                self.holding[current.id] = any(self.holding.get(c.id, False) for c in inner
                                               if c.type in walked)
        return self.holding[node.id]

    def definition(self, node, prefix: str, top: bool) -> tuple[str, str] | None:
        """(name, kind) when `node` is a definition worth a chunk."""
        kind = self.lang.definitions.get(node.type)
        if kind is None:
            return None
        name, kind = _refine(self, node, kind.rstrip("*"), top)
        if not name:
            return None
        if prefix and kind == "function":
            kind = self.lang.member_kinds.get(kind, kind)
        return name, kind

    def emit(self, node, found: tuple[str, str], prefix: str) -> None:
        name, kind = found
        symbol = _qualify(self.lang, prefix, name, kind)
        first = self.leading_comment(node)
        if node.parent is not None and node.parent.type == "template_declaration":
            first = min(first, self.leading_comment(node.parent))  # C++ `template <...>`
        summary = doc_summary(self.lines[first - 1:node.start_point[0]])
        if summary and kind in CONTAINER_KINDS:
            self.docs.setdefault(symbol, summary)
        last = _last_line(node)
        body = _container_body(node) if node.type in self.lang.containers else None
        members = [c for c in body.children if c.is_named] if body is not None else []
        inner = [c for c in members if c.type not in COMMENTS
                 and (self.definition(c, symbol, False) is not None
                      or c.type in self.lang.transparent)]
        if not inner:
            self.definition_chunks(node, first, last, symbol, kind)
            return
        # the container's header: from its first line to its first member (or the
        # comment before it); members are chunked as definitions of their own
        header_last = self.leading_comment(inner[0]) - 1
        while header_last > first and not self.lines[header_last - 1].strip():
            header_last -= 1
        header_last = max(header_last, node.start_point[0] + 1)
        opening = node.start_point[0] + 1
        if first < opening or re.search(r"\w", "".join(self.lines[opening:header_last])):
            header = self.lines[first - 1:header_last]
            if word_count("\n".join(header)) <= self.settings.definition_words:
                self.add(header, first, symbol, kind)
            else:  # a long doc comment (Ruby's, Rust's `//!`) or many fields: windows
                self.chunks.extend(self.windows(self.lines, first, header_last, self.settings,
                                                symbol=symbol, symbol_kind=kind,
                                                **_heading(self.heading())))
        # else a header that is only its opening line (`impl Display for Version {`): no
        # chunk of its own, every member carries that line as heading
        member_prefix = symbol
        # members carry their container's opening line as heading: what `impl Display
        # for Version` or `class LineFormatter extends NormalizerFormatter` says of them
        self.context.append(_opening(self.lines[node.start_point[0]]))
        for member in members:
            if member.start_point[0] + 1 <= header_last:
                continue
            # a comment no member claims as its doc (`// HELPERS`) is left over as the
            # container's statements are; one a member claims is its (`finish`)
            found_member = None if member.type in COMMENTS else \
                self.definition(member, member_prefix, False)
            if found_member is not None:
                self.emit(member, found_member, member_prefix)
            elif member.type in self.lang.transparent:
                self.visit(member, member_prefix, False, (symbol, kind))
            else:
                self.leftovers.append((member.start_point[0] + 1, _last_line(member),
                                       symbol, kind, self.heading()))
        self.context.pop()
        closing = _last_line(node)
        if closing > _last_line(members[-1]) and self.lines[closing - 1].strip() not in (
                "}", "};", "end", "end;", ""):
            self.leftovers.append((closing, closing, symbol, kind, self.heading()))

    def leading_comment(self, node) -> int:
        """The first line of `node` with the comments right above it (one blank line at
        most between), which document it (the doc comment convention of most languages)."""
        if node.id in self.starts:
            return self.starts[node.id]
        first = node.start_point[0] + 1
        previous = _previous(node)
        while previous is not None and previous.type in LEADING \
                and previous.start_point[0] + 1 not in self.claimed \
                and (_last_line(previous) >= first - 1 or (  # one blank line between
                    first == node.start_point[0] + 1 and _last_line(previous) == first - 2
                    and previous.type in COMMENTS and not self.lines[first - 2].strip())):
            before = _previous(previous)
            if before is not None and before.type not in LEADING \
                    and _last_line(before) == previous.start_point[0] + 1:
                break  # a trailing comment of the line above, not this one's
            first = previous.start_point[0] + 1
            previous = before
        for line in range(first, node.start_point[0] + 1):
            self.claimed.add(line)
        self.starts[node.id] = first
        return first

    def module_doc(self, root) -> None:
        """The comments opening the file, when no definition claimed them and they are
        no licence: the module's own doc (Rust's `//!`, Go's package comment, a file's
        explanation), one chunk of kind "module" (named after the file at ingest, as
        a Python module docstring is)."""
        blocks: list[list] = []  # the runs of comments before the first statement
        for child in root.children:
            if child.type in ("php_tag", "declare_statement") and not blocks:
                continue  # `<?php declare(strict_types=1);` before the doc
            if child.type not in COMMENTS:
                break
            if not blocks or child.start_point[0] + 1 > _last_line(blocks[-1][-1]) + 1:
                blocks.append([])
            blocks[-1].append(child)
        for block in blocks:  # the first that is no licence (Go: licence, package doc)
            first, last = block[0].start_point[0] + 1, _last_line(block[-1])
            lines = self.lines[first - 1:last]
            if LICENCE.search("\n".join(lines)):
                continue
            if any(line in self.claimed for line in range(first, last + 1)) \
                    or not doc_summary(lines):
                return  # a definition's doc, or nothing to say
            self.claimed.update(range(first, last + 1))
            self.chunks.extend(self.windows(self.lines, first, last, self.settings,
                                            symbol="<module>", symbol_kind="module"))
            return

    # ----------------------------------------------------------------- chunking
    def heading(self, signature: str = "") -> str:
        """The containers' opening lines, then the signature of a definition cut in
        parts: `impl Display for Version > fn fmt(&self, ...) {`."""
        return " > ".join([*self.context, *([signature] if signature else [])])

    def add(self, lines: list[str], first: int, symbol: str, kind: str,
            signature: str = "") -> None:
        fields = {"symbol": symbol, "symbol_kind": kind}
        heading = self.heading(signature)
        if heading:
            fields["heading"] = heading
        self.chunks.extend(chunks_from_lines(lines, first, 10**9, 0, **fields))

    def definition_chunks(self, node, first: int, last: int, symbol: str, kind: str) -> None:
        text_lines = self.lines[first - 1:last]
        limit = self.settings.definition_words
        if word_count("\n".join(text_lines)) <= limit:
            self.add(text_lines, first, symbol, kind)
            return
        body = _statements_of(node)
        if body is None:  # windows, each with the definition's first line as heading
            signature = " ".join(self.lines[node.start_point[0]].split())[:300]
            self.chunks.extend(self.windows(self.lines, first, last, self.settings,
                                            symbol=symbol, symbol_kind=kind,
                                            heading=self.heading(signature)))
            return
        block, statements = body
        signature_last = max(first, block.start_point[0] + 1)
        signature = " ".join(" ".join(self.lines[node.start_point[0]:signature_last])
                             .split())[:300]
        cuts = sorted({s.start_point[0] + 1 for s in statements
                       if s.start_point[0] + 1 > signature_last})
        budget = self.settings.max_words * 2
        start, words = first, 0
        parts: list[tuple[int, int]] = []
        previous = first
        for cut in cuts + [last + 1]:
            size = word_count("\n".join(self.lines[previous - 1:cut - 1]))
            if words and words + size > budget:
                parts.append((start, previous - 1))
                start, words = previous, 0
            words += size
            previous = cut
        parts.append((start, last))
        for a, b in parts:
            part = self.lines[a - 1:b]
            if word_count("\n".join(part)) > limit:  # one huge statement: windows
                self.chunks.extend(self.windows(self.lines, a, b, self.settings,
                                                symbol=symbol, symbol_kind=kind,
                                                heading=self.heading(signature)))
            else:
                self.add(part, a, symbol, kind, signature if a > first else "")

    def finish(self) -> list[Chunk]:
        # the lines chunks hold (a comment claimed as a doc by what is then no
        # definition, a C++ template's declaration, is left over as any other)
        taken: set[int] = set()
        for chunk in self.chunks:
            taken.update(range(chunk.start_line, chunk.end_line + 1))
        merged: list[list] = []
        for a, b, symbol, kind, heading in sorted(self.leftovers, key=lambda x: x[:2]):
            if all(line in taken for line in range(a, b + 1)):
                continue
            if merged and a - merged[-1][1] <= 2 and merged[-1][2] == symbol:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b, symbol, kind, heading])
        for a, b, symbol, kind, heading in merged:
            if says_nothing("\n".join(self.lines[a - 1:b])):
                continue  # `public:`, `end`, `})(this);`: nothing to find there
            fields = {"symbol": symbol, "symbol_kind": kind} if symbol else {}
            if heading:
                fields["heading"] = heading
            self.chunks.extend(self.windows(self.lines, a, b, self.settings, **fields))
        self.chunks = in_line_order(self.chunks)
        self.add_container_docs()
        return self.chunks

    def add_container_docs(self) -> None:
        """A member's searched context: the doc summary of its nearest documented
        container in this file (`LineFormatter::format` is searched with "Formats
        incoming records into a one-line string"; a Go method with its receiver type's),
        what the class says its methods do together."""
        if not self.docs:
            return
        for chunk in self.chunks:
            container = chunk.symbol or ""
            while container:
                container = container_of(container)
                if container in self.docs and container != chunk.symbol:
                    chunk.context = self.docs[container]
                    break


# --------------------------------------------------------------------- names and kinds

_NAME_TYPES = frozenset({"identifier", "field_identifier", "type_identifier",
                         "qualified_identifier", "destructor_name", "operator_name",
                         "constant", "name", "property_identifier", "scope_resolution",
                         "template_function", "primitive_type", "word", "variable_name",
                         "operator_cast"})
_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function",
                              "generator_function", "class"})
_GENERIC = re.compile(r"<.*>|\[.*\]", re.S)
_RECORDS = {"class_specifier": "class", "struct_specifier": "struct", "union_specifier": "struct"}


def _refine(walker: _Walker, node, kind: str, top: bool):
    """(name, kind) of a definition node; a '' name when it is no definition."""
    t = node.type
    text = walker.text
    if t == "method_declaration" and node.child_by_field_name("receiver") is not None:
        return _go_method(walker, node), "method"
    if t in ("type_declaration", "const_declaration", "var_declaration"):  # Go
        # a group `var ( … )` holds its specs in a `var_spec_list`
        specs = [s for c in node.named_children
                 for s in (c.named_children if c.type.endswith("_spec_list") else [c])]
        names = [text(s.child_by_field_name("name")) for s in specs
                 if s.child_by_field_name("name") is not None]
        if t == "type_declaration" and len(node.named_children) == 1:
            spec = node.named_children[0]
            value = spec.child_by_field_name("type")
            kind = {"struct_type": "struct", "interface_type": "interface"}.get(
                value.type if value is not None else "", "type")
        return ", ".join(names), kind
    if t in ("lexical_declaration", "variable_declaration"):  # JS/TS
        declarators = [c for c in node.named_children if c.type == "variable_declarator"]
        if len(declarators) != 1:
            return _declarations(walker, node, declarators, top)
        value = declarators[0].child_by_field_name("value")
        name = text(declarators[0].child_by_field_name("name"))
        if (_called_function(value) is not None or _unwrapped(value) is not value) \
                and walker.holds_definition(node, ""):
            # var Parser = (function () { function Parser() {...} ... }()), lodash's
            # var runInContext = (function runInContext(context) {...}): walked into
            return "", kind
        value = _unwrapped(value)
        if value is not None and value.type in _FUNCTION_VALUES:
            return name, "class" if value.type == "class" else "function"
        if _functions_object(value):  # var utils = { isArray: function (...) {...} }
            return name, "module"
        if top and text(node).startswith(("const ", "export const")):
            return name, "constant"
        doc = _jsdoc(walker, node)  # /** Creates an array of ... @param ... */ var x = f(...)
        if top and doc and not _required(walker, value):
            return name, "function" if _CALLED.search(doc) else "variable"
        return "", kind
    if t == "expression_statement":  # JS: `proto.handle = function handle(...)`
        inner = node.named_children[0] if node.named_children else None
        if inner is not None and inner.type == "call_expression":
            return _property_call(walker, inner), "function"
        if inner is None or inner.type != "assignment_expression":
            return "", kind
        # `req.get = req.header = function header(name)`: every name assigned
        targets, right = [], inner
        while right is not None and right.type == "assignment_expression":
            targets.append(right.child_by_field_name("left"))
            right = right.child_by_field_name("right")
        if right is None or None in targets:
            return "", kind
        names = list(dict.fromkeys(_assigned_name(text(left)) for left in targets))
        if right.type in _FUNCTION_VALUES:
            return ", ".join(names), "class" if right.type == "class" else "function"
        if _functions_object(right):  # an object of functions: a container of them
            prototype = text(targets[0]).endswith(".prototype")
            return names[0], "class" if prototype else "module"
        return "", kind
    if t == "pair":  # JS: a member of an object of functions
        value = node.child_by_field_name("value")
        key = node.child_by_field_name("key")
        if value is None or key is None or value.type not in _FUNCTION_VALUES:
            return "", kind
        return text(key).strip("'\"`"), "class" if value.type == "class" else kind
    if t == "assignment":  # Ruby constant
        left = node.child_by_field_name("left")
        return (text(left), "constant") if left is not None and left.type == "constant" \
            else ("", kind)
    if t in ("variable_assignment", "declaration_command"):  # shell
        if not top:
            return "", kind
        assigned = node if t == "variable_assignment" else next(
            (c for c in node.named_children if c.type == "variable_assignment"), None)
        name_node = assigned.child_by_field_name("name") if assigned is not None else None
        name = text(name_node) if name_node is not None else ""
        return (name, "constant") if name.isupper() and len(name) > 1 else ("", kind)
    if t == "impl_item":  # Rust
        of = node.child_by_field_name("type")
        name = _GENERIC.sub("", text(of)) if of is not None else ""
        return name, kind
    if t == "mod_item":  # Rust: an inline module is walked like a container
        return (text(node.child_by_field_name("name")), "module") \
            if node.child_by_field_name("body") is not None else ("", kind)
    if t in ("struct_specifier", "union_specifier", "enum_specifier", "class_specifier"):
        if node.child_by_field_name("body") is None:
            return "", kind  # a use (`struct foo *p`), not a definition
    if t == "declaration":  # C: `struct x { ... };` at top level, typedef'd or not
        spec = node.child_by_field_name("type")
        if spec is None or spec.type not in ("struct_specifier", "union_specifier",
                                             "enum_specifier", "class_specifier") \
                or spec.child_by_field_name("body") is None:
            return "", kind
        name_node = spec.child_by_field_name("name")
        return (text(name_node), spec.type.split("_")[0]) if name_node is not None \
            else ("", kind)
    if t == "function_definition":  # C++: `class V8_EXPORT Scope {...}`, an export macro
        spec = node.child_by_field_name("type")  # the grammar takes for the class's name
        declarator = node.child_by_field_name("declarator")
        if spec is not None and spec.type in _RECORDS and declarator is not None \
                and declarator.type == "identifier":
            return text(declarator), _RECORDS[spec.type]
    if t == "field_declaration":  # C++: a method declared in its class
        declarator = node.child_by_field_name("declarator")
        if declarator is None or declarator.type != "function_declarator":
            return "", kind
    if t == "type_definition":  # C: typedef ... name;
        declarator = node.child_by_field_name("declarator")
        name = _declared_name(walker, declarator) if declarator is not None else ""
        spec = node.child_by_field_name("type")
        if spec is not None and spec.type in ("struct_specifier", "enum_specifier",
                                              "union_specifier") \
                and spec.child_by_field_name("body") is not None:
            return name, spec.type.split("_")[0]
        return name, "type"
    if t == "const_declaration":  # PHP
        elements = [c for c in node.named_children if c.type == "const_element"]
        names = [text(c.named_children[0]) for c in elements if c.named_children]
        return ", ".join(names), kind
    if t == "singleton_method":  # Ruby `def self.name`
        return "self." + text(node.child_by_field_name("name")), kind
    name_node = node.child_by_field_name("name")
    if name_node is not None:
        return text(name_node), kind
    declarator = node.child_by_field_name("declarator")
    if declarator is not None:
        return _declared_name(walker, declarator), kind
    return "", kind


def _assigned_name(target: str) -> str:
    """A JS assignment's target as a name: `Route.prototype.dispatch` is `Route.dispatch`,
    `exports.parse` and `module.exports.parse` are `parse` (the module's own name)."""
    name = target.replace(".prototype.", ".").replace(".prototype[", "[") \
        .removesuffix(".prototype")
    for exported in ("module.exports.", "exports."):
        name = name.removeprefix(exported)
    return name


# JSDoc tags saying that what a comment documents is called (`var each =
# createEach(...)`: a function made by another)
_CALLED = re.compile(r"@(?:param|returns?|function|callback)\b")


def _jsdoc(walker: _Walker, node) -> str:
    """The `/** ... */` comment right above a JS declaration (one blank line at most),
    or '': also when the next line declares more (`/** Module variables. */` over a run
    of `var` lines documents the run, not its first)."""
    before = _previous(node)
    if before is None or before.type not in COMMENTS \
            or _last_line(before) < node.start_point[0] - 1:
        return ""
    after = node.next_named_sibling
    if after is not None and after.type == node.type \
            and after.start_point[0] <= _last_line(node):
        return ""
    comment = walker.text(before)
    return comment if comment.startswith("/**") else ""


def _required(walker: _Walker, value) -> bool:
    """Whether a JS value is an import: `require('x')`, `require('x').y`."""
    return value is not None and walker.text(value).startswith("require(")


def _declarations(walker: _Walker, node, declarators, top: bool) -> tuple[str, str]:
    """(names, kind) of a top-level JS declaration of several (`const A = 1, B = 2`, a
    documented `var CORE_ERROR_TEXT = '...', FUNC_ERROR_TEXT = '...'`): one constant or
    variable; ('', '') with a function among them, or an import: none."""
    values = [d.child_by_field_name("value") for d in declarators]
    if not top or not declarators or any(
            v is not None and (_unwrapped(v).type in _FUNCTION_VALUES or _required(walker, v))
            for v in values):
        return "", ""
    names = ", ".join(walker.text(d.child_by_field_name("name")) for d in declarators)
    if walker.text(node).startswith(("const ", "export const")):
        return names, "constant"
    return (names, "variable") if _jsdoc(walker, node) else ("", "")


def _functions_object(node) -> bool:
    """Whether `node` is an object literal with a function among its members."""
    return node is not None and node.type == "object" and any(
        c.type == "method_definition" or (c.type == "pair" and (
            c.child_by_field_name("value") or c).type in _FUNCTION_VALUES)
        for c in node.named_children)


def _unwrapped(node):
    while node is not None and node.type == "parenthesized_expression" \
            and node.named_children:
        node = node.named_children[0]
    return node


def _called_function(node):
    """The function of a JS call written where the function is (`(function () {...})()`,
    `!function () {...}()`, `function () {...}.call(this)`), or None."""
    node = _unwrapped(node)
    if node is not None and node.type == "unary_expression" and node.named_children:
        node = _unwrapped(node.named_children[-1])
    if node is None or node.type != "call_expression":
        return None
    callee = _unwrapped(node.child_by_field_name("function"))
    if callee is not None and callee.type == "member_expression":
        method = callee.child_by_field_name("property")
        if method is not None and method.text in (b"call", b"apply"):
            callee = _unwrapped(callee.child_by_field_name("object"))
    return callee if callee is not None and callee.type in _FUNCTION_VALUES else None


def _property_call(walker: _Walker, call) -> str:
    """The name a top-level JS call defines, or '': a property given a function
    (`defineGetter(req, 'protocol', function protocol() {...})` is `req.protocol`;
    `Object.defineProperty(Foo.prototype, 'size', { get: function () {...} })` is
    `Foo.size`; the function may be wrapped, `deprecate.function(function host() {...})`),
    else the one named function passed (`app.use(function logger(req, res, next) {...})`
    is `logger`). A wrapper called where it is written is none: it is walked into."""
    if _called_function(call) is not None:
        return ""
    arguments = call.child_by_field_name("arguments")
    given = [a for a in (arguments.named_children if arguments is not None else ())
             if a.type not in COMMENTS]

    def function_in(node, depth: int = 0) -> bool:  # the function, or a call wrapping it
        node = _unwrapped(node)
        return node.type in _FUNCTION_VALUES or _functions_object(node) or (
            depth < 2 and node.type == "call_expression" and any(
                function_in(a, depth + 1) for a in node.child_by_field_name(
                    "arguments").named_children))

    if len(given) >= 3 and given[0].type in ("identifier", "member_expression", "this") \
            and given[1].type == "string" and any(function_in(a) for a in given[2:]):
        owner = _assigned_name(walker.text(given[0]) + ".")
        return owner + walker.text(given[1]).strip("'\"`")
    named = [a.child_by_field_name("name") for a in given
             if a.type in ("function_expression", "function")]
    named = [n for n in named if n is not None]
    return walker.text(named[0]) if len(named) == 1 else ""


def _declared_name(walker: _Walker, node) -> str:
    """The name a C/C++ declarator declares (`*foo(int)` -> foo, `Foo::bar` -> Foo::bar)."""
    while node is not None and node.type not in _NAME_TYPES:
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type in _NAME_TYPES), None)
        node = inner
    if node is None:
        return ""
    name = " ".join(walker.text(node).split())
    if not name.startswith("operator"):
        name = name.split("(")[0].split()[-1] if name.split("(")[0].split() else name
    return name.split("(")[0] if name.startswith("operator") and "()" not in name[:-2] \
        else name.removesuffix("()").removesuffix("() const")


def _go_method(walker: _Walker, node) -> str:
    """`(*Command).Execute` for a pointer receiver, `Command.String` for a value one."""
    name = walker.text(node.child_by_field_name("name"))
    receiver = node.child_by_field_name("receiver")
    param = next((c for c in receiver.named_children if c.type == "parameter_declaration"),
                 None)
    typ = param.child_by_field_name("type") if param is not None else None
    if typ is None:
        return name
    pointer = typ.type == "pointer_type"
    base = _GENERIC.sub("", walker.text(typ).lstrip("*")).strip()
    return f"(*{base}).{name}" if pointer else f"{base}.{name}"


def _qualify(lang: Language, prefix: str, name: str, kind: str) -> str:
    if not prefix or name.startswith(prefix + lang.separator):
        return name
    if prefix in ("module.exports", "exports") and lang.family in ("javascript", "typescript"):
        return name  # `module.exports = { parse() {...} }`: `parse`, as `exports.parse`
    if lang.name == "ruby" and kind in ("function", "method"):
        if name.startswith("self."):
            return f"{prefix}.{name[5:]}"
        return f"{prefix}#{name}"
    return f"{prefix}{lang.separator}{name}"


def _container_body(node):
    body = node.child_by_field_name("body")
    if body is None and node.type in ("class", "module"):  # Ruby: members follow the name
        return node
    if node.type in ("expression_statement", "lexical_declaration", "variable_declaration"):
        value = _js_value(node)  # JS: the object of functions assigned
        return value if _functions_object(value) else None
    return body


def _js_value(node):
    """What a JS statement assigns (the last value of `a = b = value`) or declares (its
    one declarator's value), or None."""
    if node.type == "expression_statement":
        value = node.named_children[0] if node.named_children else None
        while value is not None and value.type == "assignment_expression":
            value = value.child_by_field_name("right")
        return value
    declarators = [c for c in node.named_children if c.type == "variable_declarator"]
    return declarators[0].child_by_field_name("value") if len(declarators) == 1 else None


def _statements_of(node):
    """(block, statements) of a definition's body, for cutting a long one."""
    body = node.child_by_field_name("body")
    if body is None:
        value = node.child_by_field_name("value")  # JS: const f = () => {...}
        for declarator in (c for c in node.named_children if c.type == "variable_declarator"):
            value = _unwrapped(declarator.child_by_field_name("value"))
        if value is not None:
            body = value.child_by_field_name("body")
    if body is None and node.type == "expression_statement" and node.named_children:
        function = _js_value(node)  # `a.b = c = function () {...}`, or the function passed
        if function is not None and function.type == "call_expression":
            arguments = function.child_by_field_name("arguments")
            function = next((a for a in arguments.named_children
                             if a.type in _FUNCTION_VALUES), None) if arguments else None
        body = function.child_by_field_name("body") if function is not None else None
    if body is None and node.type in ("method", "singleton_method"):  # Ruby
        body = next((c for c in node.named_children if c.type == "body_statement"), None)
    if body is None:
        return None
    statements = [c for c in body.named_children if c.type not in COMMENTS]
    if len(statements) == 1 and statements[0].named_child_count > 1 and \
            statements[0].type in ("block", "compound_statement", "statement_block",
                                   "body_statement"):
        body = statements[0]
        statements = list(body.named_children)
    return (body, statements) if statements else None


def _heading(heading: str) -> dict[str, str]:
    return {"heading": heading} if heading else {}


def _opening(line: str) -> str:
    """A container's opening line as a heading: `impl Display for Version`."""
    return " ".join(line.split()).rstrip("{:").strip()[:120]


def _previous(node):
    """The named node before `node`, looking out of a body that `node` opens (Ruby puts
    a class's comments in the module, its first statement in the module's body)."""
    while node is not None:
        before = node.prev_named_sibling
        if before is not None:
            return before
        parent = node.parent
        if parent is None or parent.start_byte != node.start_byte:
            return None
        node = parent
    return None


def _last_line(node) -> int:
    """The node's last line (1-based); a node ending at column 0 ends on the line before."""
    row, column = node.end_point
    return row if column == 0 and row > node.start_point[0] else row + 1
