"""The coverage signal of the fusion (`adaptive.coverage`): bm25 weighs more when its first
hit holds most of the question's terms, as a question written over the passage does."""

from __future__ import annotations

import pytest

from preuve.models import Hit
from preuve.retrieve import bilingual
from preuve.retrieve.adaptive import COMPANION, TRANSLATED, Fusion, coverage, names_in_first, plan


def _hit(chunk_id: str, text: str, language: str = "fr", score: float = 5.0) -> Hit:
    return Hit(rank=0, score=score, chunk_id=chunk_id, doc_id=chunk_id, path=chunk_id,
               kind="text", title="", heading="", page=None, page_label=None,
               start_line=None, end_line=None, symbol=None, symbol_kind=None, text=text,
               language=language)


QUESTION = "En quelle année la cathédrale de Chartres a-t-elle été reconstruite ?"
HOLDS_ALL = _hit("a", "La cathédrale de Chartres fut reconstruite en 1194, année de l'incendie.")
HOLDS_ONE = _hit("b", "Chartres est une ville de la Beauce, préfecture d'Eure-et-Loir.")
DENSE = [_hit(f"d{i}", "texte", score=0.8) for i in range(3)]


def test_coverage_is_the_share_of_the_questions_terms_in_the_hit():
    assert coverage(QUESTION, HOLDS_ALL, "fr") == 1.0  # stems: reconstruit, cathedral ...
    assert coverage(QUESTION, HOLDS_ONE, "fr") == pytest.approx(1 / 4)  # chartr of 4 terms
    assert coverage("le la les ?", HOLDS_ALL, "fr") == 0.0  # stop words only: no terms
    english = _hit("e", "The cathedral of Chartres was rebuilt in 1194.", "en")
    assert coverage("When was Chartres cathedral rebuilt?", english, "en") == 1.0


def test_bm25_weighs_more_when_its_first_hit_holds_the_question():
    fusion = Fusion()
    full = plan(QUESTION, [HOLDS_ALL], DENSE, fusion)
    # 0.3 x (1 + 4 x (1 - 0.5)): every term in the first hit
    assert full.weights["bm25"] == pytest.approx(
        fusion.bm25 * (1 + fusion.coverage * (1.0 - fusion.covered)))
    assert full.weights["bm25"] == pytest.approx(0.9)
    assert full.reasons == ("coverage 1.00",)
    # a quarter of the terms, under the threshold: the base weight
    partial = plan(QUESTION, [HOLDS_ONE], DENSE, fusion)
    assert partial.weights == {"bm25": fusion.bm25, "dense": 1.0,
                               TRANSLATED: fusion.translated, COMPANION: 0.0}
    assert partial.reasons == ()
    # no bm25 hit, or the signal off: the base weight
    assert plan(QUESTION, [], DENSE, fusion).weights["bm25"] == fusion.bm25
    off = Fusion(coverage=0.0)
    assert plan(QUESTION, [HOLDS_ALL], DENSE, off).weights["bm25"] == off.bm25
    # a lone identifier keeps its own weight, whatever the coverage
    code = plan("PK-2200-07", [_hit("c", "PK-2200-07")], DENSE, fusion)
    assert code.weights["bm25"] == fusion.identifier_bm25


def test_the_crossing_test_is_off_by_default():
    english = [_hit(f"en{i}", "text", "en", 0.8) for i in range(3)]
    default = plan(QUESTION, [HOLDS_ONE], english, Fusion())
    assert default.weights["bm25"] == Fusion().bm25 and "crossing" not in default.reasons
    on = plan(QUESTION, [HOLDS_ONE], english, Fusion(crossing_bm25=0.0))
    assert on.weights["bm25"] == 0.0 and on.reasons == ("crossing", "across languages")


@pytest.mark.skipif(not bilingual._word_stems(), reason="word lists missing: run "
                    "scripts/setup-system.sh")
def test_bm25_weighs_more_when_its_first_hit_holds_a_name_of_the_question():
    """"c'est quelle version de debian qui est passée à systemd ?" over the project's
    history (debian-history): bm25 ranked the Jessie passage first, dense 18th, and the
    fusion left it out of the six passages read. A name no dictionary knows, held by bm25's
    first hit, is what only bm25 matches exactly."""
    question = "c'est quelle version de debian qui est passée à systemd ?"
    jessie = _hit("j", "Debian 8 Jessie (avril 2015) remplace sysvinit par systemd.")
    other = _hit("o", "Debian 2.0 Hamm est sortie en juillet 1998.")
    fusion = Fusion()
    named = plan(question, [jessie], DENSE, fusion)
    assert named.weights["bm25"] == pytest.approx(fusion.bm25 * fusion.name_bm25)
    assert "name systemd" in named.reasons
    assert plan(question, [other], DENSE, fusion).weights["bm25"] == fusion.bm25
    # words of either language are no names, whatever the first hit holds
    assert names_in_first("quelle version de debian ?", jessie) == []
    assert plan(question, [jessie], DENSE, Fusion(name_bm25=1.0)).weights["bm25"] == \
        fusion.bm25
