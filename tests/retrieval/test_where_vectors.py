"""`where` with vectors: a code definition is embedded by what it is (its name, doc
comment or docstring and first line: `vectors.passage_text`), and `where`'s default fuses
the definitions nearest to the subject with the keyword lists when the index has vectors;
bm25 alone on a keyword-only index. Real files of real packages
(tests/fixtures/documented/README.md, tests/fixtures/code/README.md), the bundled e5."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import E5, copy_index, embed_folder, open_index, run_cli, run_cli_e5

import preuve.ingest
from preuve import Index
from preuve.ingest import vectors

FIXTURES = Path(__file__).parents[1] / "fixtures"
FILES = [FIXTURES / "documented" / "spinwait.rs", FIXTURES / "documented" / "sched.py",
         FIXTURES / "code" / "AbstractLogger.php", FIXTURES / "code" / "semver_display.rs"]
# SpinWait::spin's doc comment says "Spins until the sleep threshold has been reached ...
# the thread should be parked instead ... fall back to yielding the CPU": this question
# says it in other words, none of them in the definition (nor in its file's name)
PARAPHRASE = "keep polling with growing pauses before giving up"


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("documented") / "repo"
    folder.mkdir()
    for path in FILES:
        shutil.copy(path, folder / path.name)
    return folder


@pytest.fixture(scope="module")
def code_vectors_build(repo, tmp_path_factory) -> Path:
    """The four files embedded with e5 once (SQLite)."""
    path = tmp_path_factory.mktemp("code-e5") / "index.sqlite"
    embed_folder(repo, path)
    return path


@pytest.fixture
def code_vectors(store_kind, code_vectors_build, new_location):
    """That index on each store (PostgreSQL: a copy, vectors included)."""
    if store_kind == "sqlite":
        return code_vectors_build
    return copy_index(code_vectors_build, new_location("postgres"))


def test_where_reaches_a_definition_by_its_doc_comments_meaning(code_vectors, repo,
                                                                fresh_index):
    with Index(code_vectors, embedder=E5) as index:
        keyword = index.where(PARAPHRASE, k=5, method="bm25")
        assert not index.engine.embedder_loaded  # bm25: no model call
        hits = index.where(PARAPHRASE, k=3)
    # no word of the question is in the definition: bm25 does not reach it ...
    assert "SpinWait::spin" not in {h.symbol for h in keyword}
    # ... the dense list of the default does, by its doc comment's meaning
    spin = next(h for h in hits if h.symbol == "SpinWait::spin")
    assert spin.path == "spinwait.rs" and spin.start_line == 39
    assert spin.scores["dense"]["rank"] <= 2 and "bm25" not in spin.scores
    # the CLI's default is the same (`Index.where`)
    done = run_cli_e5("where", PARAPHRASE, "--index", str(code_vectors), "-k", "3")
    assert done.returncode == 0, done.stderr
    assert "spinwait.rs:39  method SpinWait::spin" in done.stdout.splitlines()
    # a keyword-only index of the same files: bm25 alone, no error, no model
    with open_index(fresh_index) as index:
        assert index.ingest([repo]).ok
        default = index.where(PARAPHRASE, k=5)
        assert [h.chunk_id for h in default] == [
            h.chunk_id for h in index.where(PARAPHRASE, k=5, method="bm25")]
        assert default and all("dense" not in h.scores for h in default)
        assert not index.engine.embedder_loaded
    done = run_cli("where", "sleep threshold", "--index", str(fresh_index), "-k", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "spinwait.rs:39  method SpinWait::spin"


def test_where_knows_what_a_standard_protocol_implementation_does(code_vectors):
    """`fmt` in `impl Display for Version` says in no word of its own that it shows a
    version as text; the protocol it implements does (semver's display.rs): asked so,
    `where` finds it first, before the same type's `Debug` impl (which came first when a
    definition was embedded by its own words only)."""
    with Index(code_vectors, embedder=E5) as index:
        hits = index.where("Where is a version turned into text?", k=3)
    assert (hits[0].path, hits[0].start_line, hits[0].symbol) == (
        "semver_display.rs", 5, "Version::fmt"), [(h.path, h.start_line) for h in hits]


def _previous_passage_text(path, title, heading, symbol, text, context=""):
    """What the release before embedded for a chunk (a code definition by its body: git
    show d7fa511:preuve/ingest/vectors.py)."""
    context = " — ".join(filter(None, [title, heading or symbol]))
    if symbol:
        context = f"{path} {context}"
    return f"{context}\n{text}" if context else text


def test_an_index_of_body_vectors_gets_summary_vectors_on_its_next_ingest(
        repo, fresh_index, tmp_path, monkeypatch):
    folder = tmp_path / "repo"
    shutil.copytree(repo, folder)
    shutil.copy(FIXTURES.parents[1] / "examples" / "handbook" / "conges.md", folder)
    with monkeypatch.context() as previous:  # the index as the release before made it
        previous.setattr(vectors, "passage_text", _previous_passage_text)
        previous.setitem(preuve.ingest.KIND_VERSIONS, "code", "1")
        with Index(fresh_index, embedder=E5) as index:
            assert index.ingest([folder]).ok
            before = _chunks(index)
    with Index(fresh_index, embedder=E5) as index:
        report = index.ingest([folder])
        after = _chunks(index)
        store, key = index._store, vectors.model_key(index.engine.embedder())
        # every chunk's text has its vector: dense search reads no vector of a text
        # no longer embedded
        assert store.missing_vectors(key, [c.text_hash for _, c in after]) == set()
        dense = index.search(PARAPHRASE, method="dense", k=3, kinds=["code"])
    # the code files were rebuilt (their definitions re-embedded), the document was not
    assert report.ok and report.unchanged == 1
    assert sorted(report.updated) == sorted(p.name for p in FILES)
    # (`Version::fmt` twice: in `impl Display` and `impl Debug`, told apart by heading)
    definitions = {(doc.path, c.symbol, c.heading): c for doc, c in after if c.symbol}
    assert report.embedded == len({c.text_hash for c in definitions.values()})
    for (path, _, _), chunk in definitions.items():
        summary = vectors.passage_text(path, "", chunk.heading, chunk.symbol, chunk.text)
        assert chunk.text_hash == vectors.text_hash(summary)
    # the document's chunks kept their hash, and so their vectors
    assert [c.text_hash for d, c in after if d.kind != "code"] == [
        c.text_hash for d, c in before if d.kind != "code"]
    assert dense[0].symbol == "SpinWait::spin"


def _chunks(index):
    return [(doc, chunk) for batch in index._store.export_documents()
            for doc, chunks in batch for chunk in chunks]


def test_a_french_subject_is_embedded_with_its_english_code_words(code_vectors):
    """A French subject alone lands far from English code's summaries (`sched.py`'s
    `scheduler.cancel`: "Remove an event from the queue"); with its words as code names
    them (annulée -> cancel, tâche -> task) the dense list finds the definition first."""
    with Index(code_vectors, embedder=E5) as index:
        hits = index.where("Où une tâche planifiée est-elle annulée ?", k=3)
    assert hits[0].symbol == "scheduler.cancel" and hits[0].path == "sched.py"
    assert hits[0].scores["dense"]["rank"] == 1
