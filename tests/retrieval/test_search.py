"""Keyword search over the sample corpus: filters (audience, as-of date, path, kind) applied
inside the engine before the top k is cut, codes found whole, and `where` for code."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import AFTER_SWITCH, BEFORE_SWITCH, rows

from preuve.models import Filters

# Questions whose best passage, for the operator, is in a staff-only document.
STAFF_FIRST = [
    "prolongation exceptionnelle du délai de retour grand compte",
    "seuils de remboursement",
    "signaux de fraude",
    "retour remboursement escalade",
    "on-call allowance",
    "astreinte escalade incident SEV1",
    "working from home while on call",
]

GENERAL = ["télétravail", "retour", "remboursement", "congés", "security", "password",
           "facture", "on call", "escalade", "LB-1", "jours", "the", "salarié", "expenses"]


def bm25(index, query, **kwargs):
    kwargs.setdefault("as_of", "none")
    kwargs.setdefault("k", 10)
    return index.search(query, method="bm25", **kwargs)


# ---------------------------------------------------------------------------- audience


@pytest.mark.parametrize("query", STAFF_FIRST)
def test_public_never_gets_the_staff_chunk_that_would_rank_first(index, query):
    operator = bm25(index, query)
    assert operator and operator[0].access == "staff", "the staff chunk must rank first"
    staff_chunk = operator[0].chunk_id
    public = bm25(index, query, audience="public", k=50)
    assert public, "the public still gets an answer"
    assert all(h.access == "public" for h in public)
    assert staff_chunk not in {h.chunk_id for h in public}
    # a staff member does get it, first
    assert bm25(index, query, audience="staff")[0].chunk_id == staff_chunk


@pytest.mark.parametrize("as_of", ["none", "today", BEFORE_SWITCH, AFTER_SWITCH])
def test_public_results_are_only_public_on_any_query(index, as_of):
    for query in GENERAL + STAFF_FIRST:
        for hit in bm25(index, query, audience="public", as_of=as_of, k=100):
            assert hit.access == "public", (query, hit.path)


def test_unlabelled_document_is_for_the_operator_only(index):
    query = "stationnement parking places covoitureurs"
    operator = bm25(index, query)
    assert operator[0].path == "handbook/brouillon-stationnement.md"
    assert operator[0].access is None
    for audience in ("public", "staff", "rh"):
        paths = {h.path for h in bm25(index, query, audience=audience, k=100)}
        assert "handbook/brouillon-stationnement.md" not in paths, audience
    operator_paths = {h.path for h in bm25(index, query, audience=None, k=100)}
    assert "handbook/brouillon-stationnement.md" in operator_paths


@pytest.mark.parametrize("word", ["all", "ALL", "", " ", "any", "*", "staff;drop", "a b",
                                  "é" * 3, "x" * 65])
def test_reserved_and_malformed_audiences_are_refused(index, word):
    """No word reads as the operator: `all`, the empty string and labels outside the
    grammar are errors, before any search runs, in the API and on the command line."""
    with pytest.raises(ValueError, match="audience"):
        index.search("stationnement", audience=word)
    with pytest.raises(ValueError):
        Filters(audience=word)


def test_audience_labels_are_case_insensitive(index):
    assert {h.path for h in bm25(index, "retour remboursement", audience="STAFF", k=50)} == \
        {h.path for h in bm25(index, "retour remboursement", audience="staff", k=50)}


def test_staff_audience_reads_public_and_staff(index):
    hits = bm25(index, "retour remboursement", audience="staff", k=100)
    assert {h.access for h in hits} == {"public", "staff"}


# ------------------------------------------------------------------------------- as_of

RETURNS = {"handbook/retours-v1.md", "handbook/retours-v2.md"}


def returns_versions(index, as_of) -> set[str]:
    hits = bm25(index, "délai de retour jours livraison", as_of=as_of, audience="public", k=50)
    return {h.path for h in hits} & RETURNS


def test_as_of_after_the_switch_gives_only_the_45_day_version(index):
    assert returns_versions(index, AFTER_SWITCH) == {"handbook/retours-v2.md"}
    top = bm25(index, "délai de retour", as_of=AFTER_SWITCH, audience="public")[0]
    assert top.path == "handbook/retours-v2.md" and "45 jours" in top.text
    all_text = " ".join(h.text for h in bm25(index, "délai de retour", as_of=AFTER_SWITCH,
                                             audience="public", k=100))
    assert "30 jours" not in all_text


def test_as_of_before_the_switch_gives_only_the_30_day_version(index):
    assert returns_versions(index, BEFORE_SWITCH) == {"handbook/retours-v1.md"}
    top = bm25(index, "délai de retour", as_of=BEFORE_SWITCH, audience="public")[0]
    assert top.path == "handbook/retours-v1.md" and "30 jours" in top.text


def test_as_of_bounds_are_inclusive_and_none_gives_both(index):
    assert returns_versions(index, "2026-10-31") == {"handbook/retours-v1.md"}
    assert returns_versions(index, "2026-11-01") == {"handbook/retours-v2.md"}
    assert returns_versions(index, "none") == RETURNS
    # before a document takes effect, it does not exist
    assert "handbook/catalogue.md" not in {h.path for h in bm25(index, "LB-1",
                                                                as_of="2025-12-31")}


def test_bad_as_of_is_a_clear_error(index):
    with pytest.raises(ValueError, match="2026-13-01"):
        bm25(index, "retour", as_of="2026-13-01")


# ------------------------------------------------------------------------------- codes


@pytest.mark.parametrize("code", ["LB-1", "PK-2200-07", "lb-1"])
def test_code_finds_the_passage_holding_it_first(index, code):
    for kwargs in ({}, {"audience": "public", "as_of": AFTER_SWITCH}):
        hits = bm25(index, code, **kwargs)
        assert hits and code.upper() in hits[0].text, (kwargs, hits[0].label)
        assert hits[0].path == "handbook/catalogue.md"


def test_code_is_not_confused_with_a_neighbour(index):
    top = bm25(index, "LB-2")[0]
    assert "LB-2 clamps" in top.text
    top = bm25(index, "PK-2200-05")[0]
    assert "wall-mounting kit" in top.text


def test_ranks_and_scores(index):
    hits = bm25(index, "congés payés report", k=8)
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:], strict=False))
    assert len({h.chunk_id for h in hits}) == len(hits)


def test_empty_query_is_an_error(index):
    with pytest.raises(ValueError):
        index.search("   ", method="bm25")


def test_unknown_method_error_names_the_method(index):
    with pytest.raises(ValueError, match="nope"):
        index.search("retour", method="nope")


# ---------------------------------------------------------------------- path and kind


def test_path_prefix_filter(index):
    hits = bm25(index, "facture retour", paths=["facturo/"], k=50)
    assert hits and all(h.path.startswith("facturo/") for h in hits)
    hits = bm25(index, "facture retour", paths=["handbook/retours"], k=50)
    assert hits and {h.path for h in hits} <= RETURNS
    both = bm25(index, "facture retour", paths=["handbook/retours", "facturo/"], k=100)
    assert {h.path.split("/")[0] for h in both} == {"facturo", "handbook"}
    assert bm25(index, "facture retour", paths=["nowhere/"]) == []


@pytest.mark.parametrize("kind", ["pdf", "docx", "html", "markdown", "text", "code"])
def test_kind_filter(index, kind):
    query = "télétravail travail jours semaine salarié employees work password facture badge"
    hits = bm25(index, query, kinds=[kind], k=50)
    assert hits and {h.kind for h in hits} == {kind}


def test_kind_filter_several_and_unknown(index):
    hits = bm25(index, "télétravail expenses travel", kinds=["pdf,docx"], k=50)
    assert {h.kind for h in hits} == {"pdf", "docx"}
    with pytest.raises(ValueError, match="spreadsheet"):
        bm25(index, "x", kinds=["spreadsheet"])


# ----------------------------------------------------------- filters before the top k


@pytest.mark.parametrize(
    ("query", "filters"),
    [
        ("seuils de remboursement", {"audience": "public"}),
        ("on-call allowance", {"audience": "public"}),
        ("délai de retour", {"as_of": AFTER_SWITCH}),
        ("délai de retour", {"audience": "public", "as_of": AFTER_SWITCH}),
        ("stationnement parking places", {"audience": "staff"}),
        ("LB-1", {"kinds": ["pdf"]}),
        ("prochain numéro de facture", {"paths": ["handbook/"]}),
        ("pénalités de retard", {"kinds": ["markdown"]}),
    ],
)
def test_filters_apply_before_the_top_k(index, query, filters):
    unfiltered_top = bm25(index, query, k=1)[0]
    (filtered_top,) = bm25(index, query, k=1, **filters)
    allowed = {h.chunk_id for h in bm25(index, query, k=10_000, **filters)}
    assert unfiltered_top.chunk_id not in allowed, "the filter must exclude the top hit"
    # the k=1 answer is the best chunk the filter allows: what filtering the full
    # ranking would give, not an empty list nor a chunk from a post-filtered window. The
    # full ranking is the audience's own: BM25 statistics are those of the labels an
    # audience may read (tests/retrieval/test_bm25_stats.py), so its scores differ from the
    # operator's
    everything = bm25(index, query, k=10_000, audience=filters.get("audience"))
    best_allowed = next(h for h in everything if h.chunk_id in allowed)
    assert filtered_top.chunk_id == best_allowed.chunk_id


# ------------------------------------------------------------------------------- where


def test_where_finds_the_numbering_code(index):
    hits = index.where("où est gérée la numérotation des factures")
    assert hits and hits[0].path == "facturo/numerotation.py"
    assert all(h.kind == "code" for h in hits)
    top3 = {h.path for h in hits[:3]}
    assert top3 == {"facturo/numerotation.py"}


def test_where_points_at_the_definition_line(index, corpus):
    source = (corpus / "facturo" / "relances.py").read_text("utf-8")
    tree = ast.parse(source)
    lines = {node.targets[0].id: node.lineno for node in tree.body
             if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
    hits = index.where("PALIERS_RELANCE")
    assert (hits[0].path, hits[0].start_line, hits[0].symbol, hits[0].symbol_kind) == (
        "facturo/relances.py", lines["PALIERS_RELANCE"], "PALIERS_RELANCE", "constant")
    functions = {n.name: n.lineno for n in tree.body if isinstance(n, ast.FunctionDef)}
    hit = index.where("planifier les relances d'une facture")[0]
    assert (hit.symbol, hit.start_line) == ("planifier_relances",
                                            functions["planifier_relances"])


def test_where_on_methods_uses_class_dot_method(index):
    hits = index.where("prochain numéro")
    symbols = [h.symbol for h in hits]
    assert "Numeroteur.prochain_numero" in symbols
    assert "prochain_numero" in symbols  # the module-level shortcut too
    method = next(h for h in hits if h.symbol == "Numeroteur.prochain_numero")
    assert method.symbol_kind == "method"
    assert method.text.lstrip().startswith("def prochain_numero")


def test_where_ignores_documents(index):
    paths = {h.path for h in index.where("télétravail retours congés", k=50)}
    assert all(p.startswith("facturo/") for p in paths)


def test_search_hits_carry_positions(index, index_path):
    (pdf,) = bm25(index, "télétravailler jours par semaine", kinds=["pdf"], k=1)
    assert (pdf.page, pdf.page_label) == (2, "1")
    assert pdf.start_line is None and pdf.symbol is None
    (md,) = bm25(index, "LB-1", k=1)
    assert md.page is None and md.start_line and md.end_line >= md.start_line
    assert re.fullmatch(r"handbook/catalogue\.md:\d+-\d+", md.label)
    (stored,) = rows(index_path, "SELECT text FROM chunks WHERE chunk_id = ?", (md.chunk_id,))
    assert stored["text"] == md.text


def test_a_short_note_whose_language_is_unknown_is_found_by_its_own_words(fresh_index,
                                                                           tmp_path):
    """Too short to tell its language, a note is indexed unstemmed; a question is stemmed
    in both languages, so the unstemmed form must be among its terms too."""
    from preuve import Index

    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "note.md").write_text("---\naccess: public\n---\nSauvegarde quotidienne.\n",
                                    encoding="utf-8")
    with Index(fresh_index, embedder="none") as index:
        assert index.ingest([folder]).ok
        for query in ("sauvegarde", "Sauvegarde quotidienne", "quotidienne"):
            hits = index.search(query, audience="public", as_of="none")
            assert [h.path for h in hits] == ["note.md"], query
