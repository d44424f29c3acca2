"""`Index` is the one door: what the front ends need is a method of it (documents and
passages for a caller, conversations, forget by id, compare and explain, calibration,
links built once by a `link=` function), and no front end reaches past it into the store.
Both stores, real indexes built by a real ingest."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from conftest import KEYWORD_ONLY, REPO, kind_of, open_index

from preuve import Index
from preuve.errors import InvalidInput, NotFound
from preuve.models import Chunk, Document

STAFF_DOC = "handbook/on-call.md"


# ------------------------------------------------------------------ reads for a caller
def test_documents_and_one_document_for_a_caller(index):
    everything = index.documents()
    public = index.documents(audience="public")
    assert {d.access for d in public} == {"public"}
    assert len(public) < len(everything)
    staff_doc = next(d for d in everything if d.path == STAFF_DOC)
    assert index.document(staff_doc.doc_id).path == STAFF_DOC  # the operator
    assert index.document(staff_doc.doc_id, audience="staff").path == STAFF_DOC
    # a document the caller may not read is exactly one that does not exist
    with pytest.raises(NotFound) as hidden:
        index.document(staff_doc.doc_id, audience="public")
    with pytest.raises(NotFound) as absent:
        index.document("no-such-document", audience="public")
    assert str(hidden.value) == str(absent.value) == "no such document"


def test_passage_for_a_caller(index):
    hit = index.search("astreinte prime hebdomadaire", method="bm25", k=1,
                       paths=[STAFF_DOC], as_of="none")[0]
    assert hit.access == "staff"
    assert index.passage(hit.chunk_id, audience="staff").text == hit.text
    assert index.passage(hit.chunk_id, doc_id=hit.doc_id).doc_id == hit.doc_id
    with pytest.raises(NotFound):
        index.passage(hit.chunk_id, audience="public")
    public = index.documents(audience="public")[0]
    with pytest.raises(NotFound, match="in this document"):
        index.passage(hit.chunk_id, audience="staff", doc_id=public.doc_id)


def test_conversations_belong_to_their_audience_and_owner(fresh_index, corpus):
    with open_index(fresh_index) as index:
        index.ingest([corpus])
        cid = index.conversations.open("public", "key:abc")
        assert index.conversations.history(cid, audience="public", owner="key:abc") == []
        for audience, owner in (("public", "key:other"), ("staff", "key:abc"),
                                (None, None)):
            with pytest.raises(NotFound, match="no conversation"):
                index.conversations.history(cid, audience=audience, owner=owner)
        returned, answer = index.chat("Combien de jours de télétravail par semaine ?",
                                      conversation=cid, audience="public", owner="key:abc")
        assert returned == cid
        turns = index.conversations.history(cid, audience="public", owner="key:abc")
        assert [t["role"] for t in turns] == ["user", "assistant"]
        assert turns[1]["content"] == answer.answer


def test_forget_by_exact_id_removes_that_document_only(fresh_index, tmp_path):
    folder = tmp_path / "docs"
    (folder / "notes").mkdir(parents=True)
    # a document whose id is also the name of a folder of the corpus
    (folder / "odd.md").write_text("---\nid: notes\n---\n# Odd\n\nUn mot: quinconce.\n",
                                   encoding="utf-8")
    (folder / "notes" / "a.md").write_text("# A\n\nUn mot: vanadinite.\n", encoding="utf-8")
    with open_index(fresh_index) as index:
        assert index.ingest([folder]).ok
        removed = index.forget(["notes"], exact_ids=True)
        assert [d.path for d in removed] == ["odd.md"]
        assert [d.path for d in index.documents()] == ["notes/a.md"]
        with pytest.raises(NotFound):
            index.forget(["notes/a.md"], exact_ids=True)  # a path is not an id
        assert [d.path for d in index.forget(["notes"])] == ["notes/a.md"]  # a folder


# ------------------------------------------------------------------ compare and explain
def test_compare_on_a_keyword_index(index):
    compared = index.compare("retours produit", k=3, as_of="none", audience="public")
    assert list(compared) == ["bm25", "dense", "hybrid"]
    assert compared["dense"] is None and compared["hybrid"] is None
    alone = index.search("retours produit", method="bm25", k=3, as_of="none",
                         audience="public")
    assert [h.chunk_id for h in compared["bm25"]] == [h.chunk_id for h in alone]


def test_explain_gives_each_hit_its_rank_in_the_other_method(e5_index):
    query = "remote work abroad"
    hits = e5_index.search(query, method="hybrid", k=5, audience="public")
    e5_index.explain(query, hits, "hybrid", audience="public")
    deep = {m: {h.chunk_id: h.rank for h in e5_index.search(query, method=m, k=100,
                                                            audience="public")}
            for m in ("bm25", "dense")}
    for hit in hits:
        for method in ("bm25", "dense"):
            assert hit.scores[method]["rank"] == deep[method].get(hit.chunk_id), method


# ------------------------------------------------------------------ calibration, links
def test_save_calibration_keeps_each_measure(fresh_index, corpus):
    with open_index(fresh_index) as index:
        index.ingest([corpus])
        index.calibration.save({"measure": "bm25", "value": 3.5, "method": "bm25"})
        index.calibration.save({"measure": "dense", "value": 0.81, "method": "hybrid"})
        index.calibration.save({"measure": "bm25", "value": 4.25, "method": "bm25"})
    with open_index(fresh_index) as again:
        assert again.calibration.thresholds() == {"bm25": 4.25, "dense": 0.81}
        assert again.status()["refusal_threshold"]["bm25"]["value"] == 4.25


def test_links_are_built_by_the_link_function_given(index):
    question = "Combien de jours de télétravail par semaine ?"
    seen = []

    def link(cited):
        seen.append(cited)
        return f"/view/{cited.passage.doc_id}/{cited.page or cited.start_line}"

    answer = index.ask(question, audience="public", link=link)
    assert not answer.refused and answer.citations and seen
    for citation in answer.citations:
        assert citation["link"].startswith("/view/")
        assert f"]({citation['link']})" in answer.answer
        assert citation["doc_id"] == citation["link"].split("/")[2]
    assert "file:" not in answer.answer
    default = index.ask(question, audience="public")
    assert all(c["link"].startswith("file:") for c in default.citations)


# ------------------------------------------------------------------ what the benchmarks use
def _prepared(i: int) -> tuple[Document, list[Chunk]]:
    doc = Document(doc_id=f"d{i}", path=f"{i % 2:02d}/doc{i}.txt", root="/bench", kind="text",
                   title=f"Doc {i}", language="", content_hash=f"h{i}",
                   access="public" if i % 2 else "staff",
                   effective_to="2020-12-31" if i == 3 else None)
    words = ["vanadinite", f"mot{i}"]
    return doc, [Chunk(text=" ".join(words), tokens=words, chunk_id=f"d{i}:0", doc_id=doc.doc_id,
                       start_line=1, end_line=1, text_hash=f"t{i}")]


def test_load_writes_prepared_chunks_through_the_door(fresh_index):
    with Index(fresh_index, embedder=KEYWORD_ONLY) as index:
        steps = []
        spent = index.engine.load([[_prepared(0), _prepared(1)], [_prepared(2), _prepared(3)]],
                                  progress=steps.append)
        assert len(steps) == 2 and spent["apply"] > 0 and spent["vectors"] == 0
        assert len(index.documents()) == 4
        assert [d.path for d in index.documents(paths=["01/"])] == ["01/doc1.txt", "01/doc3.txt"]
        assert [d.path for d in index.documents(audience="public", as_of="2026-01-01")] == [
            "01/doc1.txt"]
        hits = index.search("vanadinite", method="bm25", as_of="none", audience="public")
        assert sorted(h.doc_id for h in hits) == ["d1", "d3"]
        assert index.engine.stats()["keyword"]["builds"] >= 0
        index.engine.set_meta("bench.params", "1")
        assert index.engine.meta("bench.params") == "1"
        with pytest.raises(InvalidInput):
            index.engine.set_meta("embedder", "x")
        with pytest.raises(InvalidInput):
            index.engine.load([[_prepared(4)]], vectors=lambda batch: [])


def test_the_engine_dispatches_on_what_the_store_can_do(fresh_index):
    """The optional abilities of a store (HNSW, the in-memory keyword engine, the dense
    matrix) are declared protocols: PostgreSQL builds and drops an HNSW index on demand,
    SQLite has none and says so; both report their keyword engine."""
    postgres = kind_of(fresh_index) == "postgres"
    vectors = [(f"t{i}", np.eye(4, dtype=np.float32)[i]) for i in range(2)]
    with Index(fresh_index, embedder=KEYWORD_ONLY) as index:
        index.engine.load([[_prepared(0), _prepared(1)]], vectors=lambda batch: vectors,
                          model="test/4")
        assert not index.engine.hnsw_ready  # below the threshold
        assert index.engine.build_hnsw() is postgres
        assert index.engine.hnsw_ready is postgres
        index.engine.drop_hnsw()
        assert index.engine.hnsw_ready is False
        assert index.search("vanadinite", method="bm25", as_of="none")
        stats = index.engine.stats()
        assert stats["keyword"]["rows"] == 2 or stats["keyword"]["building"]
        assert stats["dense"] is None  # no dense query (and none on PostgreSQL)


# ------------------------------------------------------------------ a door, not a lobby
MOST_PUBLIC_NAMES = 20


def test_index_grows_by_nouns_not_by_methods(tmp_path):
    """`Index` keeps at most 20 public names (its instance attributes included): a new
    ability is a noun (`index.engine`, `index.conversations`, `index.calibration`...), a
    module of its own, not one more method on the door."""
    with open_index(tmp_path / "door.sqlite") as index:
        public = sorted(name for name in dir(index) if not name.startswith("_"))
        assert len(public) <= MOST_PUBLIC_NAMES, public
        # what benchmarks, operators and servers use is behind nouns, not on the door
        for moved in ("load", "meta", "set_meta", "hnsw_ready", "build_hnsw", "drop_hnsw",
                      "engine_stats", "has_vectors", "embedder_loaded", "lend_embedder",
                      "shared_files", "shared_rates", "store", "settings", "rankings",
                      "open_conversation", "history", "evidence", "refusal_thresholds",
                      "save_calibration", "keep_report", "kept_report"):
            assert moved not in public, moved
        for noun in ("engine", "conversations", "calibration", "feedback", "versions"):
            assert noun in public, noun


# ------------------------------------------------------------------ nothing goes around
FRONT_ENDS = ["preuve/cli", "preuve/server", "preuve/evaluate"]


def _sources():
    for entry in FRONT_ENDS:
        path = REPO / entry
        yield from (sorted(path.rglob("*.py")) if path.is_dir() else [path])


def _goes_around(tree: ast.AST, where: Path) -> list[str]:
    """Imports of `preuve.store` and reads of a `.store` attribute in `tree`."""
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("preuve.store"):
            problems.append(f"{where}:{node.lineno} imports {node.module}")
        elif isinstance(node, ast.ImportFrom) and node.module == "preuve" and any(
                a.name == "store" for a in node.names):
            problems.append(f"{where}:{node.lineno} imports preuve.store")
        elif isinstance(node, ast.Import):
            problems += [f"{where}:{node.lineno} imports {a.name}" for a in node.names
                         if a.name.startswith("preuve.store")]
        elif isinstance(node, ast.Attribute) and node.attr == "store":
            problems.append(f"{where}:{node.lineno} reads .store")
    return problems


def test_no_front_end_goes_around_index():
    """The CLI, the servers and the evaluation import nothing from `preuve.store`, read
    no `.store` of an Index, and set nothing private on one."""
    problems = []
    for source in _sources():
        tree = ast.parse(source.read_text(encoding="utf-8"))
        where = Path(source).relative_to(REPO)
        problems += _goes_around(tree, where)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                    and node.attr.startswith("_") and isinstance(node.value, ast.Name)
                    and node.value.id != "self"):
                problems.append(f"{where}:{node.lineno} sets {node.value.id}.{node.attr}")
    assert problems == []


def test_no_bench_script_imports_the_store():
    """The bench scripts time what a user gets: they reach the engine through `Index`
    (peers may use sqlite3, psycopg or numpy directly), never through `preuve.store`."""
    problems = []
    for source in sorted((REPO / "bench").glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        problems += _goes_around(tree, source.relative_to(REPO))
    assert problems == []


def test_a_keyword_index_stays_keyword_only_through_the_door(fresh_index, corpus):
    with Index(fresh_index, embedder=KEYWORD_ONLY) as index:
        index.ingest([corpus])
        assert not index.engine.has_vectors and not index.engine.embedder_loaded
        assert index.engine.schema_version >= 1
