"""Code beyond Python chunked by its syntax tree, configuration files by their structure,
and `where --kind/--lang`, on real files of real packages (tests/fixtures/code/README.md).

Expected names and lines were read off the files themselves: a definition's chunk starts
at its doc comment (or attributes) and ends at its closing line."""

from __future__ import annotations

import logging
import re
import shutil
import time
from pathlib import Path

import pytest
from conftest import FACTURO, open_index, run_cli

from preuve.errors import InvalidInput
from preuve.ingest import code, comments, syntax
from preuve.ingest.base import ChunkSettings
from preuve.ingest.code import language_of, parse_code

FIXTURES = Path(__file__).parents[1] / "fixtures" / "code"


def chunks_of(relpath: str, settings: ChunkSettings | None = None):
    path = FIXTURES / relpath
    return parse_code(path.read_bytes(), settings or ChunkSettings(),
                      path.suffix.lower() or path.name).chunks


def lines_of(relpath: str) -> list[str]:
    return (FIXTURES / relpath).read_text(encoding="utf-8").split("\n")


# (file, qualified name, kind, first line, last line): one or more per language
DEFINITIONS = [
    ("flag_groups.go", "(*Command).MarkFlagsRequiredTogether", "method", 30, 44),
    ("flag_groups.go", "hasAllFlags", "function", 89, 97),
    ("flag_groups.go", "requiredAsGroup, mutuallyExclusive", "constant", 25, 28),
    ("semver_lib.rs", "Version::new", "method", 381, 406),
    ("semver_lib.rs", "VersionReq::STAR", "constant", 437, 453),
    ("semver_lib.rs", "Op", "enum", 206, 266),
    ("route.js", "Route.dispatch", "function", 93, 149),
    ("route.js", "Route", "function", 36, 51),
    ("store.ts", "ActionType", "enum", 6, 14),
    ("store.ts", "State", "interface", 46, 49),
    ("store.ts", "TOAST_LIMIT", "constant", 4, 4),
    ("store.ts", "reducer", "function", 78, 158),
    ("toaster.tsx", "Toaster", "function", 85, 141),
    ("toaster.tsx", "DEFAULT_OFFSET", "constant", 83, 83),
    ("Device.java", "Device.execute", "method", 61, 85),
    ("Device.java", "Device.getUuid", "method", 106, 114),
    ("Device.cs", "Device.getDeviceInfo", "method", 24, 35),
    ("Device.cs", "Device.UUID", "property", 46, 85),
    ("10-at-a-time.c", "add_transfer", "function", 98, 106),
    ("10-at-a-time.c", "MAX_PARALLEL", "constant", 87, 87),
    ("gmock-cardinalities.cc", "FormatTimes", "function", 93, 104),
    ("gmock-cardinalities.cc", "BetweenCardinalityImpl::IsSatisfiedByCallCount", "method",
     75, 77),
    ("request.rb", "Rack::Request::Helpers#ip", "method", 354, 375),
    ("request.rb", "Rack::Request::Env#add_header", "method", 82, 99),
    ("request.rb", "Rack::Request::Helpers::DEFAULT_PORTS", "constant", 128, 130),
    ("AbstractLogger.php", "AbstractLogger::emergency", "method", 14, 25),
    ("git-resurrect.sh", "search_reflog", "function", 28, 31),
    ("git-resurrect.sh", "OPTIONS_SPEC", "constant", 14, 24),
    # definitions under a top-level condition: `if (!function_exists(...)) {`, a function
    # per platform, and its decorator
    ("fastroute_functions.php", "cachedDispatcher", "function", 30, 73),
    ("fastroute_functions.php", "simpleDispatcher", "function", 6, 28),
    ("signal.py", "pthread_sigmask", "function", 67, 70),
    ("signal.py", "valid_signals", "function", 87, 89),
    # JavaScript idioms (bench/code_coverage.py measured what they left in windows): a
    # chained assignment names both, a property given a function by a call is the
    # object's (`defineGetter(req, 'protocol', function protocol() {...})`, wrapped in
    # `deprecate.function(...)`, `Object.defineProperty(Duplex.prototype, 'destroyed',
    # { get: ... })`)
    ("js_idioms/express_request.js", "req.get, req.header", "function", 40, 84),
    ("js_idioms/express_request.js", "req.protocol", "function", 292, 324),
    ("js_idioms/express_request.js", "req.host", "function", 452, 456),
    ("js_idioms/stream_duplex.js", "Duplex.destroyed", "function", 115, 139),
    # a library wrapped in a function called where it is written: `(function () {...}())`
    # with an object of functions in it, UMD's factory, TypeScript's ES5 class
    ("js_idioms/levenshtein.js", "Levenshtein", "module", 14, 17),
    ("js_idioms/levenshtein.js", "Levenshtein.get", "method", 18, 113),
    ("js_idioms/resolve-uri.umd.js", "resolve", "function", 184, 245),
    ("js_idioms/resolve-uri.umd.js", "urlRegex", "constant", 9, 19),
    ("js_idioms/comment-handler.js", "CommentHandler.findLeadingComments", "function", 53, 88),
    # objects of functions: a prototype's, the module's exports
    ("js_idioms/handlebars_base.js", "HandlebarsEnvironment.registerHelper", "method", 40, 49),
    ("js_idioms/json5_util.js", "isIdStartChar", "method", 8, 15),
    # a function made by another, documented as one (JSDoc @param)
    ("js_idioms/lodash_partition.js", "partition", "function", 6, 44),
]


@pytest.mark.parametrize("relpath, symbol, kind, first, last", DEFINITIONS,
                         ids=[f"{d[0]}:{d[1]}" for d in DEFINITIONS])
def test_definitions_are_chunked_whole_with_qualified_names(relpath, symbol, kind, first,
                                                             last):
    found = [c for c in chunks_of(relpath) if c.symbol == symbol]
    assert [(c.symbol_kind, c.start_line, c.end_line) for c in found] == [(kind, first, last)]
    # the chunk is the file's own lines, so a citation opens exactly what was found
    assert found[0].text == "\n".join(lines_of(relpath)[first - 1:last])


def test_a_condition_is_walked_into_only_for_the_definitions_it_holds(tmp_path):
    # the condition's own lines stay searchable; a condition with no definition in it is
    # one chunk of statements, as before
    signal = chunks_of("signal.py")
    assert any(c.symbol is None and "if 'sigwait' in _globals:" in c.text for c in signal)
    source = ("<?php\nif (PHP_VERSION_ID < 80000) {\n    $legacy = true;\n    echo 'old';\n}\n"
              "if (!class_exists('Shim')) {\n    class Shim\n    {\n"
              "        public function run() { return 1; }\n    }\n}\n")
    chunks = parse_code(source.encode(), ChunkSettings(), ".php").chunks
    assert [(c.symbol, c.start_line, c.end_line) for c in chunks if c.symbol] == [
        ("Shim::run", 9, 9)]
    assert any(c.symbol is None and "$legacy = true;\n    echo" in c.text for c in chunks)


def test_a_javascript_wrapper_is_walked_into_only_for_the_definitions_it_holds():
    # the wrapper's own lines and what in it is no definition stay searchable windows
    umd = chunks_of("js_idioms/resolve-uri.umd.js")
    assert [(c.start_line, c.end_line) for c in umd if "(function (global, factory)" in
            c.text] == [(1, 5)]
    assert umd[0].symbol is None
    levenshtein = chunks_of("js_idioms/levenshtein.js")
    assert any(c.symbol is None and "// commonjs" in c.text for c in levenshtein)
    # a prototype's object of functions: the class's header, then its members
    prototype = [(c.symbol_kind, c.start_line, c.end_line) for c in
                 chunks_of("js_idioms/handlebars_base.js") if c.symbol == "HandlebarsEnvironment"]
    assert prototype == [("function", 25, 32), ("class", 34, 38)]
    # no line with words is lost: each is in a chunk, or the heading its members carry
    for name in ("resolve-uri.umd.js", "levenshtein.js", "comment-handler.js",
                 "express_request.js", "handlebars_base.js"):
        name = f"js_idioms/{name}"
        chunks = chunks_of(name)
        covered = {n for c in chunks for n in range(c.start_line, c.end_line + 1)}
        headings = " > ".join(c.heading for c in chunks)
        for number, line in enumerate(lines_of(name), 1):
            if len(re.findall(r"\w+", line)) > 1 and number not in covered:
                assert " ".join(line.split()).rstrip("{").strip() in headings, (name, number)
    # a wrapper, or a call given a function, that defines nothing is one statement, as
    # before
    source = ("(function () {\n  var a = 1;\n  console.log(a);\n})();\n"
              "items.forEach(function (item) {\n  item.done = true;\n});\n")
    chunks = parse_code(source.encode(), ChunkSettings(), ".js").chunks
    assert [(c.symbol, c.start_line, c.end_line) for c in chunks] == [(None, 1, 7)]


def test_the_doc_comment_and_attributes_belong_to_the_definition():
    new = next(c for c in chunks_of("semver_lib.rs") if c.symbol == "Version::new")
    assert new.text.lstrip().startswith("/// Create `Version` with an empty pre-release")
    star = next(c for c in chunks_of("semver_lib.rs") if c.symbol == "VersionReq::STAR")
    assert "#[cfg(not(no_const_vec_new))]" in star.text
    dispatch = next(c for c in chunks_of("route.js") if c.symbol == "Route.dispatch")
    assert dispatch.text.startswith("/**\n * dispatch req, res into this route")


def test_a_container_gives_a_header_and_its_members():
    chunks = chunks_of("AbstractLogger.php")
    header = [c for c in chunks if c.symbol == "AbstractLogger"]
    assert [(c.symbol_kind, c.start_line) for c in header] == [("class", 5)]
    assert header[0].end_line < 14  # stops before its first method
    members = {c.symbol for c in chunks if c.symbol and c.symbol.startswith("AbstractLogger::")}
    assert members == {f"AbstractLogger::{level}" for level in (
        "emergency", "alert", "critical", "error", "warning", "notice", "info", "debug")}


def test_members_carry_their_containers_opening_lines_as_heading():
    default = next(c for c in chunks_of("semver_lib.rs") if c.symbol == "VersionReq::default")
    assert default.heading == "impl Default for VersionReq"  # the trait, not in the name
    ip = next(c for c in chunks_of("request.rb") if c.symbol == "Rack::Request::Helpers#ip")
    assert ip.heading == "module Rack > class Request > module Helpers"
    top = next(c for c in chunks_of("flag_groups.go") if c.symbol == "hasAllFlags")
    assert top.heading == ""


def test_go_methods_name_their_receiver():
    names = {c.symbol for c in chunks_of("flag_groups.go") if c.symbol_kind == "method"}
    assert names == {"(*Command).MarkFlagsRequiredTogether",
                     "(*Command).MarkFlagsMutuallyExclusive", "(*Command).ValidateFlagGroups",
                     "(*Command).enforceFlagGroupsForCompletion"}


def test_a_go_group_of_variables_is_a_definition():
    """fatih/color's `var ( NoColor = … Output = … )` was a window with the imports
    (lines 1-34, no name): `where` weighs windows down, and "where is it decided whether
    the output is a terminal that takes colours?" found `NoColor` 11th. tree-sitter-go
    holds a group's specs in a `var_spec_list`."""
    chunks = chunks_of("color/color.go")
    group = next(c for c in chunks if c.symbol and "NoColor" in c.symbol)
    assert (group.start_line, group.end_line, group.symbol_kind) == (15, 34, "variable")
    assert group.symbol == "NoColor, Output, Error, colorsCache, colorsCacheMu"
    assert not any(c.symbol is None and c.end_line >= 15 for c in chunks[:2])


def test_a_long_body_is_cut_at_statements_with_the_signature_in_each_part():
    lines = lines_of("route.js")
    parts = [c for c in chunks_of("route.js", ChunkSettings(max_words=20, overlap_words=5))
             if c.symbol == "Route.dispatch"]
    assert len(parts) >= 3
    assert parts[0].start_line == 93 and parts[-1].end_line == 149
    for before, after in zip(parts, parts[1:], strict=False):
        # contiguous: nothing repeated, nothing but blank lines left between two parts
        assert after.start_line > before.end_line
        assert not "".join(lines[before.end_line:after.start_line - 1]).strip()
    signature = "Route.prototype.dispatch = function dispatch(req, res, done) {"
    for part in parts:
        assert part.text == "\n".join(lines[part.start_line - 1:part.end_line])
        assert part.symbol_kind == "function"
        if part is not parts[0]:
            assert part.heading == signature
            # cut where a statement of the body starts, never inside one
            assert lines[part.start_line - 1].startswith(("  ", "")) and \
                not lines[part.start_line - 2].rstrip().endswith((",", "(", "+", "&&"))


def test_a_missing_grammar_falls_back_to_line_windows_with_one_note(monkeypatch, caplog):
    go = syntax.LANGUAGES["go"]
    monkeypatch.setitem(syntax.LANGUAGES, "go", syntax.Language(
        "go", "tree_sitter_go_not_installed", go.suffixes, go.definitions))
    syntax.grammar.cache_clear()
    monkeypatch.setattr(syntax, "_warned", set())
    try:
        with caplog.at_level(logging.WARNING, logger="preuve.ingest"):
            first = chunks_of("flag_groups.go")
            second = chunks_of("flag_groups.go")
    finally:
        syntax.grammar.cache_clear()
    assert first and all(c.symbol is None for c in first + second)
    assert first[0].start_line == 1 and max(c.end_line for c in first) == 224
    notes = [r.getMessage() for r in caplog.records if "tree_sitter_go_not_installed" in
             r.getMessage()]
    assert len(notes) == 1 and notes[0].startswith("go files are cut in line windows")


def test_a_file_its_grammar_cannot_read_falls_back_to_windows(tmp_path):
    source = (FIXTURES / "request.rb").read_bytes()  # Ruby named as Go
    chunks = parse_code(source, ChunkSettings(), ".go").chunks
    assert chunks and all(c.symbol is None for c in chunks)
    assert max(c.end_line for c in chunks) == source.decode().count("\n")


# ---------------------------------------------------------------------- configuration

CONFIG = [
    ("config/Cargo.toml", "package", 12, 27),
    ("config/Cargo.toml", "package.metadata.docs.rs", 29, 36),
    ("config/Cargo.toml", "dependencies.serde", 38, 41),
    ("config/package.json", "dependencies", 30, 62),
    ("config/package.json", "scripts", 92, 98),
    ("config/sample_document.yml", "omap", 17, 27),
    ("config/information_schema-excerpt.sql", "sql_features", 9, 22),
    ("config/information_schema-excerpt.sql", "sql_parts", 61, 72),
    ("config/imagebuilder-multistage/Dockerfile", "second", 6, 8),
    ("config/imagebuilder-multistage/Dockerfile", "final", 22, 24),
    ("config/git-subtree/Makefile", "install", 68, 70),
    ("config/git-subtree/Makefile", "$(GIT_SUBTREE)", 58, 60),
]


@pytest.mark.parametrize("relpath, symbol, first, last", CONFIG,
                         ids=[f"{c[0]}:{c[1]}" for c in CONFIG])
def test_configuration_files_are_chunked_by_structure(relpath, symbol, first, last):
    found = [c for c in chunks_of(relpath) if c.symbol == symbol
             and c.symbol_kind != "statement"]  # not the INSERT rows of that table
    assert [(c.start_line, c.end_line) for c in found] == [(first, last)]
    assert found[0].text == "\n".join(lines_of(relpath)[first - 1:last])


def test_config_kinds():
    kinds = {c.symbol: c.symbol_kind for path in (
        "config/information_schema-excerpt.sql", "config/imagebuilder-multistage/Dockerfile",
        "config/git-subtree/Makefile", "config/Cargo.toml") for c in chunks_of(path)}
    assert kinds["sql_features"] == "table" and kinds["final"] == "stage"
    assert kinds["install"] == "target" and kinds["package"] == "key"
    # the INSERT rows of a table, one after another, are one statement chunk named by it
    rows = [c for c in chunks_of("config/information_schema-excerpt.sql")
            if c.symbol == "sql_parts" and c.symbol_kind == "statement"]
    assert [(c.start_line, c.end_line) for c in rows] == [(74, 83)]


def test_a_long_key_is_split_into_dotted_paths():
    chunks = chunks_of("config/package.json", ChunkSettings(max_words=20, overlap_words=5))
    names = {c.symbol for c in chunks}
    assert {"dependencies.accepts", "dependencies.vary", "devDependencies.mocha"} <= names
    accepts = next(c for c in chunks if c.symbol == "dependencies.accepts")
    assert '"accepts"' in accepts.text
    yaml_names = {c.symbol for c in chunks_of("config/sample_document.yml",
                                              ChunkSettings(max_words=20, overlap_words=5))}
    assert "seq[0]" in yaml_names or any(n.startswith("seq.") for n in yaml_names)


def test_invalid_config_falls_back_to_windows():
    broken = b"[package\nname = 'x'\n"
    chunks = parse_code(broken, ChunkSettings(), ".toml").chunks
    assert chunks and all(c.symbol is None for c in chunks)


def test_language_of_paths():
    assert language_of("cmd/root.go") == "go"
    assert language_of("web/App.tsx") == "typescript"
    assert language_of("deploy/Dockerfile") == "dockerfile"
    assert language_of("ci.yml") == "yaml" and language_of("notes.txt") is None


# --------------------------------------------------------------- where --kind / --lang

@pytest.fixture
def code_index(fresh_index, tmp_path):
    folder = tmp_path / "repo"
    # (js_idioms/, sweep/ are for chunking tests: the questions below were asked of the rest)
    shutil.copytree(FIXTURES, folder, ignore=shutil.ignore_patterns("js_idioms", "sweep"))
    with open_index(fresh_index) as index:
        report = index.ingest([folder])
    assert report.ok, report.failed
    return fresh_index


def test_where_finds_definitions_across_languages(code_index):
    with open_index(code_index) as index:
        go = index.where("mark flags required together", k=3)
        assert (go[0].path, go[0].start_line, go[0].symbol) == (
            "flag_groups.go", 30, "(*Command).MarkFlagsRequiredTogether")
        rb = index.where("client IP address forwarded", k=5, languages=["ruby"])
        assert rb and all(h.path == "request.rb" for h in rb)
        assert rb[0].symbol == "Rack::Request::Helpers#ip"


def test_protocol_meanings_come_from_the_container_or_the_method_name():
    from preuve.ingest.protocols import role_words

    assert "sort" in role_words("impl<'a> PartialOrd<Prerelease> for Prerelease",
                                "Prerelease::partial_cmp")
    assert "text" in role_words("class Logger", "Logger::__toString")
    assert "text" in role_words("", "(*Command).String")
    assert role_words("", "String") == ""  # a function named String is no protocol
    assert role_words("impl Version", "Version::parse") == ""


def test_where_puts_a_file_s_opening_doc_after_the_definitions(tmp_path):
    """fatih/color's doc.go is one long package comment telling how to do everything
    ("…disable the color output with: … color.NoColor = true"): it held the question's
    words and came first for "how do I turn the colors off?", before the method that does
    it. A file's opening doc weighs as a loose window does."""
    from preuve import Index as Open

    folder = tmp_path / "color"
    shutil.copytree(FIXTURES / "color", folder)
    with Open(str(tmp_path / "index.sqlite"), embedder="none") as index:
        assert index.ingest([folder]).ok
        hits = index.where("How do I turn the colors off, for a --no-color flag?", k=20)
    symbols = [h.symbol for h in hits]
    assert symbols[0] == "(*Color).DisableColor", symbols
    assert "doc" in symbols  # still found, after the definitions


def test_where_filters_by_kind_and_language(code_index):
    with open_index(code_index) as index:
        unfiltered = index.where("version", k=50)
        assert {language_of(h.path) for h in unfiltered} > {"rust"}
        rust = index.where("version", k=10, languages="rs")
        assert rust and {h.path for h in rust} == {"semver_lib.rs"}
        functions = index.where("version", k=10, kinds=["function"], languages=["rust"])
        assert functions and {h.symbol_kind for h in functions} <= {"function", "method"}
        assert [h.rank for h in functions] == list(range(1, len(functions) + 1))
        constants = index.where("toast", kinds="constant", languages="typescript")
        assert constants and all(h.symbol_kind == "constant" and h.path.endswith(
            (".ts", ".tsx")) for h in constants)
        assert index.where("version", languages="csharp", kinds="enum") == []
        with pytest.raises(InvalidInput, match="unknown language 'klingon'"):
            index.where("version", languages="klingon")
        with pytest.raises(InvalidInput, match="unknown kind 'fonction'"):
            index.where("version", kinds="fonction")


def test_where_cli_kind_and_lang(code_index):
    done = run_cli("where", "dispatch", "--kind", "function", "--lang", "js",
                   "--index", str(code_index), "-k", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "route.js:93  function Route.dispatch"
    bad = run_cli("where", "dispatch", "--lang", "cobol", "--index", str(code_index))
    assert bad.returncode != 0 and "unknown language 'cobol'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_where_puts_the_code_before_its_tests(code_index):
    with open_index(code_index) as index:
        plain = index.search("minimum number of args", method="bm25", k=3, as_of="none")
        assert plain[0].path == "cobra/args_test.go"  # keyword rank alone: the tests
        hits = index.where("minimum number of args", k=3, languages="go")
        assert {h.path for h in hits} == {"cobra/args.go"}
        assert "MinimumNArgs" in {h.symbol for h in hits}
        asked = index.where("tests of the minimum number of args", k=3, languages="go")
        assert asked[0].path == "cobra/args_test.go"  # asked about tests: as ranked


def test_where_puts_benchmarks_after_the_code_they_measure(fresh_index, tmp_path):
    """semver's `benches/parse.rs` (`parse_version_req`: `b.iter(|| ... .parse::<VersionReq>())`)
    holds the question's words as the code does; a developer asking where something is
    done wants `VersionReq::parse`, and the benchmark when asking about benchmarks."""
    folder = tmp_path / "semver"
    (folder / "src").mkdir(parents=True)
    (folder / "benches").mkdir()
    shutil.copy(FIXTURES / "semver_lib.rs", folder / "src" / "lib.rs")
    shutil.copy(DOCUMENTED / "benches" / "parse.rs", folder / "benches" / "parse.rs")
    question = "parse version req"
    with open_index(fresh_index) as index:
        assert index.ingest([folder]).ok
        plain = index.search(question, method="bm25", k=3, as_of="none", kinds=["code"])
        assert plain[0].path == "benches/parse.rs"  # keyword rank alone: the benchmark
        hits = index.where(question, method="bm25", k=5, as_of="none")
        assert hits[0].path == "src/lib.rs"
        benches = [h.rank for h in hits if h.path == "benches/parse.rs"]
        assert all(rank > max(h.rank for h in hits if h.path == "src/lib.rs")
                   for rank in benches)
        asked = index.where(f"benchmark {question}", method="bm25", k=3, as_of="none")
        assert asked[0].path == "benches/parse.rs"  # asked about benchmarks: as ranked
    assert code.uses_the_code("examples/basic.rs") and code.uses_the_code("benches/x.rs")
    assert not code.uses_the_code("src/example_parser.rs")


def test_is_test_path():
    from preuve.ingest.code import is_test_path

    for path in ("cobra/args_test.go", "tests/test_version.rs", "src/app.spec.ts",
                 "pkg/__tests__/x.js", "test_numbers.py", "src/FooTest.java", "spec/x_spec.rb"):
        assert is_test_path(path), path
    for path in ("cobra/args.go", "src/latest.rs", "contest/app.py", "testimony.md"):
        assert not is_test_path(path), path


def test_where_reads_a_french_question_over_english_code(code_index):
    from preuve.retrieve import bilingual

    if not bilingual.available():
        pytest.skip("FreeDict dictionaries not installed (scripts/setup-system.sh installs "
                    "dict-freedict-fra-eng and dict-freedict-eng-fra)")
    question = "où vérifie-t-on le nombre maximal d'arguments ?"
    with open_index(code_index) as index:
        plain = index.search(question, method="bm25", k=3, as_of="none")
        assert not any(h.path.endswith(".go") for h in plain)  # the French words alone
        hits = index.where(question, k=3)
        assert hits[0].path == "cobra/args.go"  # "argument", "number" from the dictionary


def test_deeply_nested_code_falls_back_to_windows():
    depth = 3000  # deeper than Python's recursion limit allows the walk to go
    source = "".join(f"module M{i}\n" for i in range(depth)) + "def f; end\n" + "end\n" * depth
    chunks = parse_code(source.encode(), ChunkSettings(), ".rb").chunks
    assert chunks and all(c.symbol is None for c in chunks)
    assert max(c.end_line for c in chunks) == 2 * depth + 1


def test_where_prefers_a_function_named_by_the_question(code_index):
    # bm25 alone puts RangeArgs (whose comment says "minimum number of args") first; the
    # function whose own name is the question's words (MinimumNArgs: minimum, args for
    # "arguments") comes first with `by_name`
    with open_index(code_index) as index:
        plain = index.search("minimum number of arguments", method="bm25", k=3,
                             as_of="none", kinds=["code"])
        assert plain[0].symbol != "MinimumNArgs"
        hits = index.where("minimum number of arguments", k=3)
        assert (hits[0].path, hits[0].symbol) == ("cobra/args.go", "MinimumNArgs")
        valid = index.where("how are the valid args checked", k=3)
        assert valid[0].symbol == "OnlyValidArgs"  # not legacyArgs, one word in common
        # a short name all made of asked words before a longer one holding more of them
        ip = index.where("client IP address", k=3, languages="ruby")
        assert ip[0].symbol == "Rack::Request::Helpers#ip"
        # a container's name holds the code base's word (Device), not what is asked: the
        # class header is not moved up, the method is
        platform = index.where("how is the device platform found", k=3)
        assert (platform[0].path, platform[0].symbol) == ("Device.java", "Device.getPlatform")


def test_where_needs_two_words_of_a_longer_name(code_index):
    # "transfers" is one of add_transfer's two words, not evidence enough: main, whose
    # loop keeps MAX_PARALLEL transfers running, stays first as bm25 ranked it
    with open_index(code_index) as index:
        hits = index.where("how many transfers run at a time", k=3)
        assert (hits[0].path, hits[0].symbol) == ("10-at-a-time.c", "main")
        assert "add_transfer" in {h.symbol for h in hits}


def test_where_knows_a_french_developers_words(code_index):
    # "journal" is "log" and "écrit" "write" only in a developer's French: the dictionary
    # alone ranks a C program's main first (it says "message")
    with open_index(code_index) as index:
        hits = index.where("Où est écrit un message de journal d'urgence ?", k=3)
        assert (hits[0].path, hits[0].symbol) == ("AbstractLogger.php",
                                                  "AbstractLogger::emergency")
        host = index.where("Où est lu l'en-tête Host de la requête ?", k=3)
        assert host[0].symbol == "Rack::Request::Helpers#host"


def test_code_terms_reads_forms_and_phrases():
    from preuve.retrieve.bilingual import code_terms

    assert code_terms("Où vérifie-t-on les tirets bas ?", "fr").split() == [
        "check", "verify", "validate", "underscore"]
    assert "subcommand" in code_terms("une sous-commande inconnue", "fr").split()
    assert "header" in code_terms("les en-têtes de la réponse", "fr").split()
    assert code_terms("where are the headers read?", "en") == ""
    # a phrase by its words' stems whatever verb leads it ("je reviens en arrière")
    assert "downgrade" in code_terms("comment je reviens en arrière ?", "fr").split()
    assert "recover" in code_terms("vim a planté, je récupère mon fichier ?", "fr").split()
    # the longest phrase first: "en ligne de commande" is the command line, not "online"
    assert code_terms("en ligne de commande, je liste les styles", "fr").split()[:2] == [
        "command", "line"]
    assert "online" in code_terms("je suis en ligne", "fr").split()
    # an idiom is one phrase, not its words ("à la volée" is no flight; "tenir compte")
    assert "dynamically" in code_terms("un schéma créé à la volée", "fr").split()
    assert code_terms("ne pas tenir compte des espaces", "fr").split()[0] == "ignore"
    assert "nested" in code_terms("mon schéma s'imbrique", "fr").split()


def test_a_french_verb_form_is_translated_by_its_infinitive():
    from preuve.retrieve import bilingual

    if not bilingual.available():
        pytest.skip("FreeDict dictionaries not installed (scripts/setup-system.sh installs "
                    "dict-freedict-fra-eng and dict-freedict-eng-fra)")
    # "vérifie" is stemmed "verif", the dictionary's "vérifier" "verifi"
    assert "check" in bilingual.translate("où vérifie-t-on les options ?", "fr").split()


# ------------------------------------------------------- what a code chunk is searched by
def needs_dictionaries():
    from preuve.retrieve import bilingual

    if not bilingual.available():
        pytest.skip("FreeDict dictionaries not installed (scripts/setup-system.sh installs "
                    "dict-freedict-fra-eng and dict-freedict-eng-fra)")


def test_a_developers_word_is_translated_by_the_vocabulary_alone(code_index):
    from preuve.retrieve.bilingual import code_translation

    needs_dictionaries()
    words = code_translation("Où la chaîne de requête est-elle analysée ?", "fr").split()
    # the vocabulary's code words, not FreeDict's general senses beside them
    assert {"string", "request", "query", "parse"} <= set(words)
    assert not {"attempt", "effort", "fetter", "shackle", "analysis"} & set(words)
    # a word the vocabulary lacks still gets the dictionary's translation
    assert "compare" in code_translation("deux versions comparées", "fr").split()
    # a name is searched as written, never translated ("ETag" is no "étage", a floor)
    assert "floor" not in code_translation("Où est calculé l'en-tête ETag ?", "fr").split()
    # an English question gets the vocabulary's French words (turned around) beside the
    # dictionary's: French comments and manuals say "requête", "analyser"
    english = code_translation("where is the query parsed", "en").split()
    assert {"requête", "analyser"} <= set(english), english
    assert set(__import__("preuve.retrieve.bilingual").retrieve.bilingual.translate(
        "where is the query parsed", "en").split()) <= set(english)
    with open_index(code_index) as index:
        # with FreeDict's senses beside the code words, express's Route.all came first
        hits = index.where("Où la chaîne de requête est-elle analysée ?", k=3)
        assert hits[0].symbol == "Rack::Request::Helpers#parse_query"


def test_common_developer_verbs_are_in_the_vocabulary():
    """Words FreeDict lacks or knows only in other senses ("annuler": abolish, abrogate;
    "attente": assault; "échouer", "commentaire": nothing) are a developer's everyday
    words: the vocabulary gives their code names, dictionaries installed or not."""
    from preuve.retrieve.bilingual import code_terms

    words = code_terms("Où une promesse en attente est-elle annulée si la tâche échoue ?",
                       "fr").split()
    assert {"promise", "pending", "cancel", "fail"} <= set(words)
    assert not {"abolish", "abrogate", "assault"} & set(words)
    assert "comment" in code_terms("les lignes de commentaire sont ignorées", "fr").split()
    assert "block" in code_terms("pour qu'elle ne bloque pas indéfiniment", "fr").split()
    # "exception" is no "except, exclude"; a "dépôt" is a repository
    words = code_terms("l'exception levée quand le dépôt est vide", "fr").split()
    assert {"exception", "repository"} <= set(words) and "exclude" not in words


def test_a_french_question_reaches_code_whose_comments_tell_no_language(code_index):
    needs_dictionaries()
    # semver's display.rs has no comment: its language is unknown, and the French
    # question's translation was searched only in files written in English
    with open_index(code_index) as index:
        hits = index.where("Comment une version est-elle affichée ?", k=3)
    assert ("semver_display.rs", 5, 30, "Version::fmt") in {
        (h.path, h.start_line, h.end_line, h.symbol) for h in hits}


def test_a_member_is_searched_with_its_containers_doc_summary(code_index):
    summary = "This is a simple Logger implementation that other Loggers can inherit from"
    members = [c for c in chunks_of("AbstractLogger.php")
               if (c.symbol or "").startswith("AbstractLogger::")]
    assert members and all(c.context == summary for c in members)
    header = next(c for c in chunks_of("AbstractLogger.php") if c.symbol == "AbstractLogger")
    assert header.context == ""  # its own doc is in its text
    rust = {c.symbol: c.context for c in chunks_of("semver_lib.rs")}
    assert rust["Version::parse"] == "**SemVer version** as defined by <https://semver.org>."
    with open_index(code_index) as index:
        # words only the class's doc says find its methods, not the header alone
        hits = index.search("simple logger implementation other loggers inherit",
                            method="bm25", k=10, as_of="none", kinds=["code"])
    assert {h.symbol for h in hits if h.path == "AbstractLogger.php"} > {"AbstractLogger"}


def test_doc_summary_is_a_doc_comments_first_sentence():
    assert syntax.doc_summary([
        "/**", " * Formats incoming records into a one-line string", " *",
        " * This is especially useful for logging to files", " *",
        " * @author Jordi Boggiano", " */"]) == "Formats incoming records into a one-line string"
    assert syntax.doc_summary([
        "/// A pair of comparison operator and partial version, such as `>=1.2`. Matches",
        "/// any version", "#[derive(Clone, Eq)]"]) == \
        "A pair of comparison operator and partial version, such as `>=1.2`"
    assert syntax.doc_summary(["# Rack::Request provides a convenient interface.",
                               "# It is stateless"]) == \
        "Rack::Request provides a convenient interface"
    assert syntax.doc_summary(["/**", " * @return void", " */"]) == ""
    assert syntax.container_of("(*Command).Execute") == "Command"
    assert syntax.container_of("Rack::Request::Helpers#ip") == "Rack::Request::Helpers"
    assert syntax.container_of("$this->logger") == "$this"
    assert syntax.container_of("main") == ""


# ------------------------------------------------ what is embedded for a definition

DOCUMENTED = FIXTURES.parent / "documented"  # spinwait.rs, sched.py (its README.md)


def _embedded(relpath: str, symbol: str) -> str:
    from preuve.ingest.vectors import passage_text

    path = FIXTURES / relpath if (FIXTURES / relpath).exists() else DOCUMENTED / relpath
    chunk = next(c for c in parse_code(path.read_bytes(), ChunkSettings(), path.suffix).chunks
                 if c.symbol == symbol)
    return passage_text(relpath, "", chunk.heading, chunk.symbol, chunk.text, chunk.context)


def test_a_member_without_a_doc_of_its_own_is_embedded_with_its_class_s():
    """monolog's `LineFormatter::format` says only "{@inheritDoc}": it was embedded by its
    name and signature alone, while its class says what it does ("Formats incoming
    records into a one-line string"), which keyword search already read with it, and its
    body's comment what its statements do. A member with a doc of its own is embedded by
    that doc, not by its body's comments."""
    assert _embedded("LineFormatter.php", "LineFormatter::format") == (
        "LineFormatter.php\nLine Formatter format\nFormats incoming records into a "
        "one-line string remove leftover %extra.xxx% and %context.xxx% if any\n"
        "public function format(array $record): string")
    documented = _embedded("sched.py", "scheduler.run")  # a docstring, and comments
    assert "Execute events until the queue is empty" in documented, documented
    assert "localize variable access" not in documented, documented
    own = _embedded("AbstractLogger.php", "AbstractLogger::emergency")
    assert "System is unusable." in own and "simple Logger implementation" not in own, own


def test_a_definition_is_embedded_by_its_name_doc_comment_and_first_line():
    # PHP: the /** */ doc without its @tags, the signature, not the body
    assert _embedded("AbstractLogger.php", "AbstractLogger::emergency") == (
        "AbstractLogger.php\nAbstract Logger emergency\nSystem is unusable.\n"
        "public function emergency($message, array $context = array())")
    # Rust: the /// doc (its paragraphs joined), the #[inline] attribute left out
    assert _embedded("spinwait.rs", "SpinWait::spin") == (
        "spinwait.rs\nSpin Wait spin\nSpins until the sleep threshold has been reached. "
        "This function returns whether the sleep threshold has been reached, at which point "
        "further spinning has diminishing returns and the thread should be parked instead. "
        "The spin strategy will initially use a CPU-bound loop but will fall back to "
        "yielding the CPU to the OS after a few iterations.\npub fn spin(&mut self) -> bool {")
    # Python: the docstring after `def` (the @property decorator left out, and the
    # comments and statements of the body)
    assert _embedded("sched.py", "scheduler.queue") == (
        "sched.py\nscheduler queue\nAn ordered list of upcoming events. Events are named "
        "tuples with fields for: time, priority, action, arguments, kwargs\n"
        "def queue(self):")
    assert _embedded("sched.py", "scheduler.cancel") == (
        "sched.py\nscheduler cancel\nRemove an event from the queue. This must be presented "
        "the ID as returned by enter(). If the event is not in the queue, this raises "
        "ValueError.\ndef cancel(self, event):")
    # a module's docstring (24 lines: its first words, no line of it taken for code)
    module = _embedded("sched.py", "<module>").split("\n")
    assert module[:2] == ["sched.py", "module"] and len(module) == 3
    assert module[2].startswith("A generally useful event scheduler class. Each instance")
    assert len(module[2].split()) == comments.DOC_WORDS
    # a Rust method without a doc: its name and signature, and what the trait it
    # implements (`impl Display for Version`) means
    assert _embedded("semver_display.rs", "Version::fmt") == (
        "semver_display.rs\nVersion fmt\n"
        "fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {\n"
        "string conversion: the value as text, formatted for display")
    # a passage that is no definition is embedded as before (the hash of what is embedded
    # keys the vector cache: a document's chunks keep their vectors)
    from preuve.ingest.vectors import passage_text

    assert passage_text("a.md", "Title", "Section", None, "Some text.") == (
        "Title — Section\nSome text.")
    window = next(c for c in chunks_of("semver_lib.rs") if c.symbol is None)
    assert passage_text("semver_lib.rs", "", "", None, window.text) == window.text


def test_a_container_header_of_only_its_opening_line_is_no_chunk():
    # `impl Display for Version {` alone was a one-line chunk that ranked above the
    # method it opens; the method carries that line as heading
    chunks = chunks_of("semver_display.rs")
    assert not [c for c in chunks if c.symbol_kind == "impl"]
    fmt = next(c for c in chunks if (c.start_line, c.symbol) == (5, "Version::fmt"))
    assert (fmt.end_line, fmt.heading) == (30, "impl Display for Version")
    # a header with more than its opening line (a doc comment, fields) stays
    assert any(c.symbol == "Version" and c.symbol_kind == "struct"
               for c in chunks_of("semver_lib.rs"))


def _hit(rank: int, symbol: str | None, kind: str | None, path: str = "a.go"):
    from preuve.models import Hit

    return Hit(rank=rank, score=1 / (60 + rank), chunk_id=f"d:{rank}", doc_id="d",
               path=path, kind="code", title="", heading="", page=None, page_label=None,
               start_line=rank, end_line=rank, symbol=symbol, symbol_kind=kind, text="")


def test_by_name_leaves_constructors_as_ranked():
    from preuve.retrieve import by_name

    hits = [_hit(1, "Device.execute", "method"), _hit(2, "Device.Device", "method"),
            _hit(3, "Logger::__construct", "method"), _hit(4, "Device.getPlatform", "method")]
    ranked = [h.symbol for h in by_name(hits, "get the device platform, construct")]
    # the constructor is named by its class (Device), as the class header is: not moved
    # up by the question's "device", and __construct not by "construct"
    assert ranked == ["Device.getPlatform", "Device.execute", "Device.Device",
                      "Logger::__construct"]


def test_by_name_reaches_twenty_candidates_and_puts_windows_after_definitions():
    from preuve.retrieve import by_name

    hits = [_hit(i, f"other{i}", "function") for i in range(1, 16)]
    hits.insert(0, _hit(0, None, None))  # a window of imports, ranked first by bm25
    hits.append(_hit(16, "ValidateRequiredFlags", "method"))
    ranked = [h.symbol for h in by_name(hits, "check required flags validate")]
    assert ranked[0] == "ValidateRequiredFlags"  # the 17th candidate
    assert ranked.index(None) > ranked.index("other1")


def test_one_per_definition_lists_a_long_functions_parts_once():
    from preuve.retrieve import one_per_definition

    def part(rank, symbol, first, last, kind="function"):
        hit = _hit(rank, symbol, kind, path="router/index.js")
        hit.start_line, hit.end_line = first, last
        return hit

    hits = [part(1, "proto.handle", 177, 291), part(2, "proto.route", 489, 515),
            part(3, "proto.handle", 293, 331), part(4, "proto.handle", 131, 175),
            # one name, two definitions apart in the file (Rust's fmt of Display and Debug)
            part(5, "Version::fmt", 5, 30), part(6, "Version::fmt", 94, 107),
            part(7, None, 1, 2), part(8, None, 1, 2),
            # the windows of one long struct, apart: one struct
            part(9, "Command", 44, 83, "struct"), part(10, "Command", 108, 147, "struct")]
    kept = [(h.symbol, h.start_line) for h in one_per_definition(hits)]
    assert kept == [("proto.handle", 177), ("proto.route", 489), ("Version::fmt", 5),
                    ("Version::fmt", 94), (None, 1), (None, 1), ("Command", 44)]


def test_irregular_verb_forms_meet_the_verbs_code_is_named_by():
    from preuve.text import code_abbreviations

    assert code_abbreviations("where are the error messages written").split() == [
        "err", "msg", "write"]
    assert "send" in code_abbreviations("how is the mail sent").split()
    assert "find" in code_abbreviations("where is the handler found").split()
    assert code_abbreviations("where is it parsed") == ""


def test_everyday_verbs_meet_the_verbs_code_names_an_action_by():
    """"Where is a log message posted to a Slack channel?" (monolog's
    `SlackWebhookHandler::write`): the question's verb is not the code's."""
    from preuve.text import code_abbreviations

    assert {"send", "write"} <= set(code_abbreviations("where is it posted to Slack").split())
    assert "convert" in code_abbreviations("how is a record transformed into text").split()
    assert {"save", "write"} <= set(code_abbreviations("where are the sessions stored").split())
    assert "delete" in code_abbreviations("where are old files erased").split()


def test_a_files_opening_doc_is_its_module_chunk_and_title(code_index):
    # Rust's `//!` doc: a module chunk, and its first sentence the file's title (what a
    # Python module docstring gives), so every chunk of the file is searched with it
    path = FIXTURES / "semver_lib.rs"
    parsed = parse_code(path.read_bytes(), ChunkSettings(), ".rs")
    assert parsed.title == "A parser and evaluator for Cargo's flavor of Semantic Versioning"
    module = [c for c in parsed.chunks if c.symbol == "<module>"]
    assert module and {c.symbol_kind for c in module} == {"module"}
    assert (module[0].start_line, max(c.end_line for c in module)) == (1, 61)
    # a licence is no doc: googletest's file is titled by the comment after it
    cc = FIXTURES / "gmock-cardinalities.cc"
    parsed = parse_code(cc.read_bytes(), ChunkSettings(), ".cc")
    assert parsed.title == "Google Mock - a framework for writing C++ mock classes"
    assert [(c.start_line, c.end_line) for c in parsed.chunks if c.symbol == "<module>"] \
        == [(30, 32)]
    # a licence alone, or a comment a definition claims, makes no module chunk
    for name in ("10-at-a-time.c", "AbstractLogger.php", "flag_groups.go"):
        assert not [c for c in chunks_of(name) if c.symbol_kind == "module"]
    assert syntax.doc_summary(["//go:build windows", "// +build windows"]) == ""
    with open_index(code_index) as index:
        hits = index.search("evaluator for Cargo's flavor of semantic versioning",
                            method="bm25", k=5, as_of="none", kinds=["code"])
        assert hits[0].path == "semver_lib.rs" and hits[0].symbol_kind == "module"
        assert hits[0].symbol == "semver_lib"  # named after its file, as in Python


def test_a_python_method_is_searched_with_its_classs_docstring(fresh_index, tmp_path):
    """Python's methods carry their class's doc summary as other languages' members do:
    `LifoQueue._get` is `return self.queue.pop()`; only the class's docstring says it
    retrieves the most recently added entries first (queue.py of Python 3.11)."""
    source = DOCUMENTED / "queue.py"
    chunks = {c.symbol: c for c in parse_code(source.read_bytes(), ChunkSettings(), ".py").chunks}
    assert chunks["LifoQueue._get"].context == (
        "Variant of Queue that retrieves most recently added entries first")
    assert chunks["Queue.put"].context == "Create a queue object with a given maximum size"
    assert chunks["LifoQueue"].context == ""  # its own docstring is in its text
    folder = tmp_path / "stdlib"
    folder.mkdir()
    shutil.copy(source, folder / "queue.py")
    with open_index(fresh_index) as index:
        assert index.ingest([folder]).ok
        hits = index.where("where are the most recently added entries retrieved first",
                           method="bm25", kinds=["method"], k=5, as_of="none")
    assert {h.symbol for h in hits} & {"LifoQueue._get", "LifoQueue._put"}


# ------------------------------------------------- invariants (bench/chunk_sweep.py)
# What the sweep of the machine's packages found broken (issue 23), on the files, or the
# lines of them, that broke it. docs/measurements/code.md has the sweep's figures.

def assert_sound(chunks, lines: list[str], settings: ChunkSettings) -> None:
    """What citations rely on: each chunk is its lines exactly; no chunk of several lines
    over 3 × max_words words; no definition chunked twice over the same lines."""
    for c in chunks:
        assert 1 <= c.start_line <= c.end_line <= len(lines)
        assert c.text == "\n".join(lines[c.start_line - 1:c.end_line]), (c.symbol, c.start_line)
        assert c.start_line == c.end_line or len(c.text.split()) <= settings.max_words * 3, (
            c.symbol, c.start_line, c.end_line)
    for a in chunks:
        for b in chunks:
            if a is not b and a.symbol and a.symbol == b.symbol:
                inside = a.start_line <= b.start_line and b.end_line <= a.end_line
                assert not inside, (a.symbol, a.start_line, a.end_line, b.start_line)


def kept_lines(chunks) -> set[int]:
    return {n for c in chunks for n in range(c.start_line, c.end_line + 1)}


def test_python_comments_and_imports_are_in_chunks_a_definitions_comment_in_its():
    """protobuf's example (sweep/add_person.py) lost its imports, its shebang and every
    comment, `# This function fills in a Person message based on user input.` above the
    function it documents among them: `ast` knows no comment, and imports were dropped.
    The comment above a definition is now its chunk's first line (as in the other
    languages); every other line with words is in a window."""
    relpath = "sweep/add_person.py"
    chunks, lines = chunks_of(relpath), lines_of(relpath)
    prompt = [c for c in chunks if c.symbol == "PromptForAddress"]
    assert [(c.start_line, c.end_line) for c in prompt] == [(14, 39)]
    assert prompt[0].text.startswith("# This function fills in a Person message")
    kept = kept_lines(chunks)
    lost = [n for n, line in enumerate(lines, 1)
            if len(re.findall(r"\w+", line)) > 1 and n not in kept]
    assert lost == []
    assert_sound(chunks, lines, ChunkSettings())


def test_a_cpp_header_named_h_is_read_by_the_cpp_grammar():
    """`.h` is C's, but /usr/include holds C++ headers by the hundred (V8's, LLVM's,
    libstdc++'s): the C grammar read V8's v8-embedder-state-scope.h (namespace, `enum
    class`, a class) as mostly errors, and the file fell back to windows. Its `class
    V8_EXPORT EmbedderStateScope {` is a class (the C++ grammar takes the export macro
    for the class's name and the rest for a function)."""
    chunks = chunks_of("sweep/v8-embedder-state-scope.h")
    found = {(c.symbol, c.symbol_kind, c.start_line, c.end_line) for c in chunks if c.symbol}
    assert ("EmbedderStateScope", "class", 28, 47) in found
    assert ("EmbedderStateTag", "enum", 20, 26) in found
    # C stays C: a C file the C grammar reads is not read as C++
    c_file = [c for c in chunks_of("10-at-a-time.c") if c.symbol == "add_transfer"]
    assert [(c.symbol_kind, c.start_line) for c in c_file] == [("function", 98)]


@pytest.mark.parametrize("suffix,source", [
    (".js", "function g() {}\nif (a) { x() }\n{chain}else { function f() {} }\n",),
    (".php", "<?php\nfunction g() {}\nif ($a) { x(); }\n{chain}else { function f() {} }\n"),
    (".rb", "def g; end\nif a\n  x\n{chain}else\n  def f; end\nend\n"),
])
def test_a_long_else_if_chain_keeps_the_files_definitions(suffix, source):
    """`else if` is an `if` inside the `else` of the one before: a chain of a few hundred
    (a dispatcher, a generated parser) went deeper than Python's recursion in the walk
    looking for definitions under conditions, and the whole file fell back to windows."""
    link = {".js": "else if (x == {i}) {{ y() }}\n", ".php": "else if ($x == {i}) {{ y(); }}\n",
            ".rb": "elsif b{i}\n  y\n"}[suffix]
    text = source.replace("{chain}", "".join(link.format(i=i) for i in range(400)))
    chunks = parse_code(text.encode(), ChunkSettings(), suffix).chunks
    assert {c.symbol for c in chunks if c.symbol} == {"f", "g"}
    assert_sound(chunks, text.split("\n"), ChunkSettings())


def test_python_definitions_under_long_or_deep_conditions():
    """Python's walk into `if`/`try` raised RecursionError out of ingest on a chain of
    500 `elif`s, and took time doubling with each level of nested `if`s around a `def`
    (25 levels: minutes; Python allows 99)."""
    chain = "if x == -1:\n    pass\n" + "".join(
        f"elif x == {i}:\n    pass\n" for i in range(500)) + "else:\n    def f():\n        pass\n"
    chunks = parse_code(chain.encode(), ChunkSettings(), ".py").chunks
    assert [c.symbol for c in chunks if c.symbol] == ["f"]
    depth = 25
    nested = "".join(" " * i + "if x:\n" for i in range(depth)) + " " * depth + \
        "def f():\n" + " " * (depth + 1) + "pass\n"
    start = time.perf_counter()
    chunks = parse_code(nested.encode(), ChunkSettings(), ".py").chunks
    assert time.perf_counter() - start < 5  # linear: a few milliseconds (before: minutes)
    assert [(c.symbol, c.start_line) for c in chunks if c.symbol] == [("f", depth + 1)]


def test_a_long_doc_comment_or_table_is_cut_within_the_size():
    """A container's header (its doc comment to its first member) was one chunk whatever
    its size: Ruby's csv.rb opens `class CSV` with 700 lines of documentation (4,189
    words in one chunk); line windows over lines of many words (chardet's frequency
    tables, a Go descriptor's bytes) went past the size too. Rack's request.rb and
    cobra's flag_groups.go, cut at 20 words, stay sound."""
    settings = ChunkSettings(max_words=20, overlap_words=5)
    for relpath in ("request.rb", "flag_groups.go", "semver_lib.rs", "route.js",
                    "sweep/add_person.py", "signal.py", "AbstractLogger.php"):
        chunks = chunks_of(relpath, settings)
        assert_sound(chunks, lines_of(relpath), settings)
    header = "\n".join(["class CSV"] + ["  # CSV data is text, one record a line."] * 200
                       + ["  def read; end", "end"])
    chunks = parse_code(("# A CSV reader.\n" + header + "\n").encode(), settings, ".rb").chunks
    assert_sound(chunks, ("# A CSV reader.\n" + header + "\n").split("\n"), settings)
    table = "FREQ = (\n" + "".join(f"    {i}, {i + 1}, {i + 2}, {i + 3}, {i + 4},\n"
                                   for i in range(0, 2000, 5)) + ")\n"
    windows = [c for c in parse_code(table.encode(), settings, ".py").chunks]
    assert len(windows) > 1
    assert_sound(windows, table.split("\n"), settings)


def test_a_comment_claimed_by_no_definition_stays_searchable():
    """LLVM's SimpleTypeSerializer.h (/usr/include/llvm-14, lines 26-29): the comment
    above a member template that declares, not defines, was taken as the template's doc
    and then left in no chunk."""
    source = """class SimpleTypeSerializer {
  std::vector<uint8_t> ScratchBuffer;

public:
  SimpleTypeSerializer();
  ~SimpleTypeSerializer();

  // This template is explicitly instantiated in the implementation file for all
  // supported types.  The method itself is ugly, so inlining it into the header
  // file clutters an otherwise straightforward interface.
  template <typename T> ArrayRef<uint8_t> serialize(T &Record);

  // Don't allow serialization of field list records using this interface.
  ArrayRef<uint8_t> serialize(const FieldListRecord &Record) = delete;
};
"""
    chunks = parse_code(source.encode(), ChunkSettings(), ".hpp").chunks
    assert {8, 9, 10} <= kept_lines(chunks)
    assert_sound(chunks, source.split("\n"), ChunkSettings())


def test_two_definitions_of_a_name_on_one_line_are_one_chunk():
    """bzip2's bzexe (/bin/bzexe, line 65) sets IFS twice on one line: two identical
    `IFS` chunks."""
    source = 'tail=""\nIFS="${IFS= \t}"; saveifs="$IFS"; IFS="${IFS}:"\nfor dir in $PATH; do\n' \
             '  echo "$dir"\ndone\n'
    chunks = parse_code(source.encode(), ChunkSettings(), ".sh").chunks
    assert [(c.symbol, c.start_line) for c in chunks if c.symbol] == [("IFS", 2)]


def test_the_first_line_of_a_block_walked_through_stays_searchable():
    """browserslist's index.d.ts (/usr/share/nodejs/browserslist, lines 183-190): `declare
    global {` opens a block walked through for the interfaces it holds, and its own line
    was in no chunk."""
    source = """declare global {
  namespace NodeJS {
    interface ProcessEnv {
      BROWSERSLIST?: string
      BROWSERSLIST_CONFIG?: string
    }
  }
}
"""
    chunks = parse_code(source.encode(), ChunkSettings(), ".ts").chunks
    assert 1 in kept_lines(chunks)
    assert [(c.symbol, c.start_line, c.end_line) for c in chunks if c.symbol] == [
        ("ProcessEnv", 3, 6)]


def test_a_signature_over_several_lines_keeps_its_docstring():
    """`def planifier_relances(` on one line, its parameters on the next ones, then the
    docstring: the docstring was looked for on the second line of the signature and
    missed (the definition was embedded and quoted without it)."""
    from preuve.ingest.comments import definition_parts, definition_summary

    source = (FACTURO / "relances.py").read_text("utf-8")
    text = source[source.index("def planifier_relances"):]
    doc, signature = definition_parts(text)
    assert doc.startswith("Calendrier complet des relances d'une facture")
    assert signature == ("def planifier_relances(facture: Facture, paliers: tuple[int, ...] "
                         "= PALIERS_RELANCE) -> list[Relance]:")
    assert "Calendrier complet" in definition_summary("planifier_relances", text)
    # a Go method over several lines, its comment before it
    go = "// Execute runs the command.\nfunc (c *Command) Execute(\n\tctx int,\n) error {\n}"
    assert definition_parts(go) == ("Execute runs the command.",
                                    "func (c *Command) Execute(ctx int) error {")
