"""Issue 11 items 3, 4, 6 and issue 10 item 8 on the real sample index (bundled e5, both
stores), with no `calibrate` run: the default refusal judgment (also before any model
call), generated answers without citations attributed or dropped, streamed tokens held
back until verified, and extractive answers that quote whole sentences of one passage and
never a heading, a contents line or a running footer.

The judgment tests also run with the question and sentence vectors perturbed by noise of
1e-3 (relative), the size seen across CPUs (issue 10 item 12): every number they rely on
keeps a margin well above that."""

from __future__ import annotations

import json

import numpy as np
import pytest
from llm_server import ScriptedServer, chat_reply, stream_reply

from preuve import Index
from preuve.answer.answerability import E5_DEFAULTS
from preuve.answer.extractive import ExtractiveAnswerer
from preuve.answer.generators import OpenAIGenerator
from preuve.models import Hit

TELEWORK = "Combien de jours de télétravail par semaine ?"
OUT_OF_SCOPE = {"Who is the CEO of Lucarne?": "I don't know.",
                "Quel est le salaire de la directrice ?": "Je ne sais pas.",
                "Quel est le prix d'une pizza margherita à Naples ?": "Je ne sais pas.",
                "Which team won the 2022 football world cup?": "I don't know."}
PHISHING = "Pour confirmer vos droits, saisissez votre mot de passe sur http://evil.example/rh."


class NoisyEmbedder:
    """The bundled e5 with every vector it returns perturbed by noise of `scale` times
    its norm, then renormalised (what another CPU's int8 arithmetic does, roughly)."""

    def __init__(self, inner, scale: float, seed: int):
        self.inner, self.scale = inner, scale
        self.rng = np.random.default_rng(seed)
        self.name, self.revision, self.dimension = inner.name, inner.revision, inner.dimension

    def _noisy(self, vectors: np.ndarray) -> np.ndarray:
        noise = self.rng.standard_normal(vectors.shape).astype(np.float32)
        noise *= self.scale / np.linalg.norm(noise, axis=1, keepdims=True)
        out = vectors + noise
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def embed_queries(self, texts):
        return self._noisy(self.inner.embed_queries(texts))

    def embed_passages(self, texts):
        return self._noisy(self.inner.embed_passages(texts))

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture(params=["exact", "noise+1e-3", "noise-1e-3"])
def fresh(request, e5_index_path, e5_index):
    """The uncalibrated sample index; with noise, through a perturbed embedder."""
    if request.param == "exact":
        yield e5_index
        return
    seed = 1 if request.param.startswith("noise+") else 2
    noisy = Index(e5_index_path, embedder=NoisyEmbedder(e5_index.engine.embedder(), 1e-3, seed))
    yield noisy
    noisy.close()


def generator_for(server: ScriptedServer) -> OpenAIGenerator:
    return OpenAIGenerator(server.base_url, "test-model", timeout=10, max_retries=0)


# ------------------------------------------------------------------ refusal, no calibrate


def test_out_of_scope_questions_get_the_exact_refusal_without_calibration(fresh):
    assert fresh.calibration.stored() == {}
    for question, refusal in OUT_OF_SCOPE.items():
        answer = fresh.ask(question)
        assert answer.refused and answer.answer == refusal, (question, answer.answer)
        assert answer.citations == []
        judged = answer.explain["judgment"]
        assert answer.explain["decided_by"].startswith("default judgment")
        # the numbers behind the refusal, each with a clear margin
        d, cov = judged["dense"], judged["coverage"]
        assert (d < E5_DEFAULTS.dense_floor - 0.01
                or cov < E5_DEFAULTS.coverage_min - 0.05
                and (d < E5_DEFAULTS.dense_sure - 0.01
                     or cov < E5_DEFAULTS.coverage_floor - 0.05)), (question, judged)


def test_in_scope_questions_and_paraphrases_are_still_answered(fresh):
    for question, fact in [(TELEWORK, "2 jours"),
                           ("How long is the trial period for engineers?", "four months"),
                           ("Combien de jours de congé pour un mariage ?", "4 jours")]:
        answer = fresh.ask(question)
        assert not answer.refused, (question, answer.reason)
        assert fact in answer.answer
        judged = answer.explain["judgment"]
        assert judged["coverage"] >= E5_DEFAULTS.coverage_min + 0.05, judged
        assert judged["dense"] >= E5_DEFAULTS.dense_floor + 0.03, judged


def test_a_paraphrase_holding_under_half_of_its_words_is_answered(e5_index):
    """"L'entreprise me rembourse-t-elle une chaise de bureau pour travailler à la maison ?"
    over the sample was refused: its passages hold 49 % of its weighted words ("chaise",
    "maison" are the user's, the policy says "fauteuil ergonomique", "domicile") and its
    dense evidence (0.859) is just under the bar that lets such a share answer. The share
    needed is 45 % since the forty-seventh session (docs/answers.md: sets 328 → 331
    right, trials 242–265 by facts +5, out of scope refused −2 and −2)."""
    answer = e5_index.ask("L'entreprise me rembourse-t-elle une chaise de bureau pour "
                          "travailler à la maison ?", audience="public")
    assert not answer.refused, answer.reason
    assert "150 €" in answer.answer, answer.answer
    assert answer.explain["judgment"]["coverage"] < 0.5


def test_a_refusal_calls_no_model(fresh):
    with ScriptedServer([chat_reply("Un salaire [handbook/faq.txt:1-2].")]) as server:
        answer = fresh.ask("Quel est le salaire de la directrice ?",
                           generator=generator_for(server), on_token=lambda t: None)
    assert answer.answer == "Je ne sais pas." and answer.refused
    assert server.requests == []


def test_cli_ask_explain_says_why(e5_index_path):
    from conftest import run_cli_e5

    result = run_cli_e5("ask", "Who is the CEO of Lucarne?", "--explain", "--index",
                        str(e5_index_path))
    assert result.returncode == 0, result.stderr
    assert "I don't know." in result.stdout
    assert "coverage" in result.stdout and "ceo" in result.stdout
    result = run_cli_e5("ask", TELEWORK, "--explain", "--json", "--index", str(e5_index_path))
    data = json.loads(result.stdout)
    assert data["explain"]["sentences"][0]["quoted"] is True
    assert {"coverage", "dense", "agreement", "words"} <= set(data["explain"]["judgment"])


# ------------------------------------------------ generated answers: attribute, stream safe


def test_uncited_generated_sentences_are_attributed_and_unsupported_ones_dropped(fresh):
    reply = ("Chaque salarié éligible peut télétravailler jusqu'à 2 jours par semaine. "
             f"{PHISHING}")
    with ScriptedServer([chat_reply(reply)]) as server:
        answer = fresh.ask(TELEWORK, audience="public", generator=generator_for(server))
    assert not answer.refused, answer.reason
    assert "evil.example" not in answer.answer and "mot de passe" not in answer.answer
    assert [c["label"] for c in answer.citations] == ["handbook/teletravail.pdf p. 2"]
    assert "1 uncited sentence(s) attributed" in answer.reason
    assert "1 sentence(s) no passage supports dropped" in answer.reason
    given = {h.label for h in answer.hits}
    assert all(c["label"] in given for c in answer.citations)


def test_a_generated_answer_about_an_unreadable_passage_is_not_attributed(fresh):
    """The staff passage says it; the public caller's passages do not: nothing to cite."""
    reply = ("La responsable du support peut accorder une prolongation exceptionnelle du "
             "délai de retour jusqu'à 60 jours pour un grand compte.")
    hits = fresh.search("prolongation exceptionnelle du délai de retour grand compte",
                        audience="public")
    from preuve.answer.pipeline import answer_from_hits

    with ScriptedServer([chat_reply(reply)]) as server:
        answer = answer_from_hits("Qui peut prolonger le délai de retour ?", hits,
                                  generator=generator_for(server))
    assert answer.refused and answer.answer == "Je ne sais pas."
    assert "no passage supports" in answer.reason and answer.citations == []


def test_streamed_unverified_tokens_never_reach_the_client(fresh):
    """Issue 10 item 8: a citation of a passage not given and an injected phishing line,
    streamed by the model, reach nothing but the refusal."""
    tokens = ["Jusqu'à 60 jours", " [handbook/escalade-retours.md:23-28].", " ",
              "Pour confirmer vos droits,", " saisissez votre mot de passe",
              " sur http://evil.example/rh."]
    seen: list[str] = []
    with ScriptedServer([stream_reply(tokens)]) as server:
        answer = fresh.ask(TELEWORK, audience="public", generator=generator_for(server),
                           on_token=seen.append)
    assert len(server.requests) == 1 and server.requests[0].body["stream"] is True
    assert answer.refused and "".join(seen) == answer.answer == "Je ne sais pas."
    shown = "".join(seen)
    assert "escalade" not in shown and "evil" not in shown and "60 jours" not in shown


# ----------------------------------------------------------------- extractive, pure parts


def _passage(path: str, kind: str, title: str, heading: str, text: str) -> Hit:
    """The one passage, in English, a judgment is asked of."""
    return Hit(rank=1, score=1.0, chunk_id="p:0", doc_id="p", path=path, kind=kind,
               title=title, heading=heading, page=None, page_label=None, start_line=1,
               end_line=2, symbol=None, symbol_kind=None, text=text, language="en")


def _pdf_hit(page: int, text: str, rank: int = 1) -> Hit:
    return Hit(rank=rank, score=1.0, chunk_id=f"c{page}", doc_id="d", path="guide.pdf",
               kind="pdf", title="Guide", heading="", page=page, page_label=str(page),
               start_line=None, end_line=None, symbol=None, symbol_kind=None, text=text,
               language="fr")


def test_extractive_quotes_whole_wrapped_sentences_never_toc_headings_or_footers():
    toc = _pdf_hit(1, "Table des matières\n1. Congés payés ........ 2\n"
                      "2. Télétravail ........ 3\nGuide RH Lucarne 2026 - page 1", rank=1)
    body = _pdf_hit(2, "2. Télétravail\nChaque salarié peut télétravailler jusqu'à deux jours par\n"
                       "semaine, après accord écrit de son responsable et\n"
                       "de la direction des ressources humaines.\n"
                       "Les jours sont déclarés dans l'outil Horaire la veille.\n"
                       "Guide RH Lucarne 2026 - page 2", rank=2)
    text, chosen, _ = ExtractiveAnswerer(None, words=80).answer(
        "Combien de jours de télétravail par semaine ?", [toc, body])
    assert chosen and all(s.hit is body for s in chosen)
    assert text.startswith("Chaque salarié peut télétravailler jusqu'à deux jours par semaine, "
                           "après accord écrit de son responsable et de la direction des "
                           "ressources humaines.")
    for furniture in ("....", "Table des matières", "Guide RH Lucarne", "2. Télétravail"):
        assert furniture not in text
    assert text.endswith("[guide.pdf p. 2]") and text.count("[guide.pdf p. 2]") == 1


def test_extractive_length_is_configurable_and_whole_sentences():
    body = _pdf_hit(2, " ".join(f"La règle numéro {i} dit que chaque salarié remplit la fiche."
                                for i in range(12)))
    for words in (20, 80):
        _, chosen, _ = ExtractiveAnswerer(None, words=words).answer("règle fiche salarié", [body])
        total = sum(len(s.text.split()) for s in chosen)
        assert total <= words and all(s.text.endswith(".") for s in chosen)


def test_navigation_hits_are_never_quoted():
    nav = _pdf_hit(1, "Chaque salarié peut télétravailler jusqu'à deux jours par semaine.")
    nav.role = "navigation"
    body = _pdf_hit(3, "Le télétravail est limité à deux jours chaque semaine pour tous.", rank=2)
    _, chosen, _ = ExtractiveAnswerer(None).answer("télétravail deux jours semaine", [nav, body])
    assert chosen and all(s.hit is body for s in chosen)


def test_a_bare_number_or_fragment_is_dropped_not_attributed():
    """What the 135M local model writes ("10. 10", "1."): one number is in many passages,
    so such a fragment is never attributed to one; a sentence with content still is."""
    from preuve.answer.attribution import attribute

    passage = Hit(rank=1, score=1.0, chunk_id="r:0", doc_id="r", path="handbook/retours.md",
                  kind="text", title="", heading="", page=None, page_label=None,
                  start_line=46, end_line=50, symbol=None, symbol_kind=None,
                  text="Le client dispose de 10 jours pour retourner un article.",
                  language="fr")
    for fragment in ("10. 10", "1.", "Oui, 10."):
        result = attribute(fragment, [passage])
        assert result.text == "" and result.attributed == [], fragment
    result = attribute("Le client a 10 jours pour retourner un article.", [passage])
    assert result.text.endswith("[handbook/retours.md:46-50].")


def test_headings_and_contents_lines_copied_by_a_model_are_dropped_not_attributed():
    """The local 135M model copied a heading and a contents line; both are in the passage
    given, neither answers anything."""
    from preuve.answer.attribution import attribute

    passage = _pdf_hit(2, "Sommaire\nObjet et champ d'application 1\n### Niveau 1 : conseillers "
                          "du support\nLe télétravail depuis l'étranger est limité à 10 jours "
                          "par année civile.")
    for copied in ("Objet et champ d'application 1", "### Niveau 1 : conseillers du support",
                   "Sommaire"):
        result = attribute(copied, [passage])
        assert result.text == "" and result.attributed == [], copied
    result = attribute("Le télétravail depuis l'étranger est limité à 10 jours par année "
                       "civile.", [passage])
    assert result.text.endswith("[guide.pdf p. 2].")


def test_a_refusal_says_which_condition_the_dense_evidence_missed():
    """"…the dense evidence 0.864 is not enough on its own" was printed beside the default
    `dense_sure` 0.86: the dense evidence counts only with at least a share of the words, and
    the reason now says that was what failed."""
    from preuve.answer.answerability import judge

    passage = _passage("random.html", "html", "random", "random.sample(population, k)",
                       "Return a k length sample of unique elements chosen from the "
                       "population sequence, without replacement.")
    question = ("how do I pick a handful of random items from a list without getting the "
                "same one twice?")
    sure = E5_DEFAULTS.dense_sure + 0.004
    judgment = judge(question, [passage], sure, lambda stems: 1, 100, E5_DEFAULTS)
    assert not judgment.answerable
    assert judgment.numbers["coverage"] < E5_DEFAULTS.coverage_floor, judgment.numbers
    assert f"reaches {E5_DEFAULTS.dense_sure:.2f} but counts only with" in judgment.reason
    assert "not enough on its own" not in judgment.reason


def test_negations_are_not_what_a_question_is_about():
    """"…si je n'ai rien changé aux réglages… opérations non archivées": "rien" and "non"
    counted as words the passages had to hold (trial 32's fr01 was refused at 27 %);
    like "no" and "not", they say nothing of the subject."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words(
        "Si je n'ai rien changé aux réglages, au bout de combien d'opérations non "
        "archivées Grisbi prévient-il ? Nothing else, none of them.")]
    assert not {"rien", "non", "Nothing", "none"} & set(words), words
    assert {"réglages", "archivées", "Grisbi"} <= set(words)


def test_quantifiers_and_particles_are_not_what_a_question_is_about():
    """"How do I cap the bandwidth each client IP may use with mod_deflate?" (asked over
    six pages of the Apache manual, none of which caps bandwidth) was answered: "each", a
    word of every page, counted as a word found and lifted the coverage over the floor.
    Quantifiers ("each", "every", "chacun") and the particles of phrasal verbs ("work it
    out", "back up") say nothing of the subject, as "chaque" and "tous" already did not."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words(
        "How do I cap the bandwidth each client IP may use with mod_deflate? Can something "
        "work it out for every user, or back up some of them? Chacun a-t-il quelques droits ?")]
    assert not {"each", "every", "some", "out", "up", "Chacun", "quelques"} & set(words), words
    assert {"cap", "bandwidth", "client", "mod_deflate", "user", "back", "droits"} <= set(words)


def test_giving_and_specifying_are_not_what_a_question_is_about():
    """"Si je ne précise pas de délimiteur à cut…", "sort ne me donne pas le même ordre",
    "comment avoir juste le total" (trial 148, French manual pages): "précise", "donne"
    and "juste" counted as words the pages had to hold, and three questions whose page
    ranked first were refused (31-46 % of their words found). Like "give", "just" and
    "specify" in English, they shape the question, not its subject."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words(
        "Si je ne précise pas de délimiteur, sort me donne juste le total ? Without "
        "specifying a delimiter, does it give just the total because of it? Comment obtenir "
        "la colonne d'un coup, concrètement, en tant que simple utilisateur ? Il vaut "
        "combien ?")]
    assert not {"précise", "donne", "juste", "specifying", "give", "just", "obtenir",
                "because", "coup", "concrètement", "tant", "vaut"} & set(words), words
    assert {"délimiteur", "sort", "total", "delimiter", "colonne"} <= set(words), words


def test_what_is_not_done_is_found_as_manuals_write_it_in_one_word():
    """"I have some brand-new files git isn't tracking yet…" (trial 274) missed
    "tracking" in git-stash's "all untracked files are also stashed", and the French
    "sous-dossiers" missed "sous-répertoires" though "dossier" is found as "répertoire"
    (trial 281): what is not done is found as its word in "un-", a compound of everyday
    words as the manual's compound."""
    from preuve.answer.answerability import content_words

    stems = dict(content_words("I have some brand-new files git isn't tracking yet, and the "
                               "disk is not mounted."))
    assert "untrack" in stems["tracking"], stems
    assert "unmount" in stems["mounted"], stems
    stems = dict(content_words("Comment avoir un seul total, sans lister ses sous-dossiers ?"))
    assert "repertoir" in stems["sous-dossiers"], stems


def test_faire_en_sorte_que_shapes_a_question_as_make_sure_does():
    """"Comment faire en sorte que diff ignore les différences d'espaces ?" (own questions
    of session 41): "sorte" counted as a word the answer had to hold, as "sure" would in
    "make sure"."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words(
        "Comment faire en sorte que diff ignore les espaces, et faire en sorte qu'il "
        "s'arrête ?")]
    assert "sorte" not in words and {"diff", "ignore", "espaces"} <= set(words), words


def test_a_figure_the_user_gives_counts_against_no_passage():
    """"make tcpdump grab only 100 packets", "which lsof option shows who listens on port
    8080": the figure is a value the user will type, and the page that answers never holds
    it. It counted as a word the passages lack (own questions of session 32: two false
    refusals). A figure no passage read holds now counts neither way; one a passage holds
    still counts as found."""
    from preuve.answer.answerability import judge

    def passage(text: str) -> Hit:
        return _passage("random.html", "html", "random", "random.sample(population, k)", text)

    sample = passage("Return a k length list of unique elements chosen from the population "
                     "sequence, without replacement.")
    with_figure = "how do I pick 5 random elements from a list without replacement?"
    without = "how do I pick random elements from a list without replacement?"

    def share(question: str, hit: Hit) -> float:
        return judge(question, [hit], 0.9, lambda stems: 1, 100,
                     E5_DEFAULTS).numbers["coverage"]

    assert share(with_figure, sample) == share(without, sample) > 0.5
    said = passage("Return a list of 5 unique elements chosen from the population sequence.")
    assert share("how do I pick 5 random elements from a sequence?", said) > \
        share("how do I pick 7 random elements from a sequence?", said)


def test_a_measure_the_user_gives_is_no_name_the_passages_lack():
    """"free shows huge numbers in KB, how do I get it readable like 1.2Gi?" (trial 98's
    en1) was refused as naming "1.2gi", which no passage holds: the user's example of the
    output, a measure, not a product. A measure counts as a figure does: neither way when
    no passage read holds it."""
    from preuve.answer.answerability import judge

    passage = _passage("free.txt", "text", "free - Display amount of free and used memory", "",
                       "-h, --human\n       Show all output fields automatically scaled to "
                       "shortest three digit unit and display the units of print out.")
    judgment = judge("how do I get free to show readable numbers like 1.2Gi?", [passage],
                     0.9, lambda stems: 1, 100, E5_DEFAULTS, is_name=lambda word: True)
    assert "absent_names" not in judgment.numbers, judgment.numbers  # (an example, too)
    judgment = judge("how do I get free to show readable numbers in 1.2Gi?", [passage],
                     0.9, lambda stems: 1, 100, E5_DEFAULTS, is_name=lambda word: True)
    assert "absent_names" not in judgment.numbers, judgment.numbers
    measure = next(r for r in judgment.numbers["words"] if r["word"] == "1.2gi")
    assert measure["idf"] == 0.0, judgment.numbers["words"]


def test_an_abbreviation_of_a_word_of_the_passages_is_no_name_they_lack():
    """"which env variable do I set so requests uses my own CA bundle?" (trial 134's en4)
    was refused as naming "env", which its first passage spells "environment": a word in
    small letters that opens a longer word of the passages abbreviates it. A name they do
    not hold at all, or one written with capitals, is still one they lack."""
    from preuve.answer.answerability import judge

    passage = _passage("advanced.rst", "markdown", "Advanced Usage", "SSL Cert Verification",
                       "This list of trusted CAs can also be specified through the "
                       "REQUESTS_CA_BUNDLE environment variable.")

    def names(question: str) -> list[str]:
        return judge(question, [passage], 0.9, lambda stems: 0, 100, E5_DEFAULTS,
                     is_name=lambda word: word.lower() in {"env", "envoy"}
                     ).numbers.get("absent_names", [])

    assert names("which env variable sets my own CA bundle?") == []
    assert names("which envoy variable sets my own CA bundle?") == ["envoy"]
    assert names("does it read the ENV variable for my CA bundle?") == ["ENV"]


def test_a_translation_that_is_the_other_language_s_function_word_is_found():
    """"je peux mettre un commentaire au bout d'une ligne dans ma crontab ?" (trial 135's
    fe4) over crontab(5), "comments are not allowed on the same line": "commentaire"
    translates to "comment", which the analyzer drops as a French function word, so the
    word was missing and the answer refused (coverage 0.30)."""
    from preuve.answer.answerability import judge

    passage = _passage("crontab.5.txt", "text", "crontab", "DESCRIPTION",
                       "Note that comments are not allowed on the same line "
                       "as cron commands.")
    words = judge("je peux mettre un commentaire dans ma crontab ?", [passage], 0.9,
                  lambda stems: 1, 100, E5_DEFAULTS,
                  translate=lambda word: {"commentaire": "comment"}.get(word, "")
                  ).numbers["words"]
    assert next(r for r in words if "commentair" in r["word"])["found"], words


def test_to_look_at_is_what_a_question_does():
    """"how many ports does nmap look at if I don't tell it which ones?" (trial 141's
    en8) was refused: "look", a word no manual page uses for scanning, weighed as the
    question's rarest, while "see" and "find" already counted as ordinary verbs."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words("how many ports does nmap look at, and which ones "
                                         "is it looking at by default?")]
    assert not {"look", "looking"} & set(words), words
    assert {"ports", "nmap", "default"} <= set(words), words


def test_under_the_hood_and_if_i_don_t_set_anything_are_no_subject():
    """"what hash does it use under the hood for signatures if I don't set anything?"
    (trial 142's en1) was refused at 29 %: "under", "hood" and "set" weighed as words the
    page had to hold, where it says "The default method is hashlib.sha1"."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words("what hash does it use under the hood for "
                                         "signatures if I don't set anything?")]
    assert words == ["hash", "signatures"], words
    french = [w for w, _ in content_words("quel hachage il prend sous le capot ?")]
    assert "capot" not in french and "hachage" in french, french


def test_out_of_the_box_is_no_subject():
    """"Out of the box, how many stack frames does tracemalloc record for each
    allocation?" (trial 243) weighed "box" as the word the pages lacked most (idf 5.8,
    none holds it): the idiom asks for a default, which the question's other words say."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words("Out of the box, how many stack frames does "
                                         "tracemalloc record for each allocation?")]
    assert "box" not in words and {"frames", "tracemalloc"} <= set(words), words


def test_what_a_page_says_and_a_bad_idea_are_no_subject():
    """"Why does the optparse documentation say "required options" are a bad idea?"
    (trial 268) was refused at 24 %: "documentation", "say" (idf 6.5, no passage holds
    it), "bad" and "idea" weighed as words the page had to hold, where it says "If it's
    required, then it's not optional!". What the documents say, and a judgment asked
    about, are no subject."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words('Why does the optparse documentation say "required '
                                         'options" are a bad idea?')]
    assert not {"documentation", "say", "bad", "idea"} & set(words), words
    assert {"optparse", "required", "options"} <= set(words), words
    french = [w for w, _ in content_words("Pourquoi est-ce une mauvaise idée de lancer X ?")]
    assert not {"mauvaise", "idée"} & set(french), french


def test_a_key_the_user_presses_is_no_name_the_pages_lack():
    """"Est-ce que tee peut ignorer un Ctrl-C ?" (trial 151) was refused because the
    French tee(1) never says "Ctrl-C" (it says "signaux d'interruption"): a key chord was
    read as the name of a product the pages do not hold."""
    from preuve.answer.answerability import absent_names

    words = [("Ctrl-C", frozenset({"ctrl-c"})), ("Alt+F4", frozenset({"alt+f4"})),
             ("debmirror", frozenset({"debmirror"}))]
    assert absent_names(words, [0, 0, 0], lambda word: True) == ["debmirror"]


def test_no_matter_if_and_i_ve_shape_a_question():
    """"How do I get my regex to match no matter if the text is upper or lower case?" and
    "I've got noclobber turned on…" (trials 174 and 171, English pages): "matter" and the
    "ve" of "I've" counted as words the passages had to hold, weighing most since no
    passage has them."""
    from preuve.answer.answerability import content_words

    words = [w for w, _ in content_words(
        "I've tried, we're stuck: how do I match no matter if it is upper case, and peu "
        "importe si c'est en majuscules ?")]
    assert not {"I've", "we're", "matter", "importe"} & set(words), words
    assert {"stuck", "match", "upper", "majuscules"} <= set(words), words


def test_a_name_written_in_parts_is_found_written_as_one_word():
    """"I've got noclobber turned on…" over zsh's options page, which writes NO_CLOBBER
    (trial 171): the word the user types was a word no passage holds."""
    from preuve.answer.answerability import judge

    passage = _passage("Options.html", "html", "Options", "Input/Output",
                       "NO_CLOBBER (-C) Allows > redirection to truncate "
                       "existing files.")
    rows = judge("is noclobber set?", [passage], 0.9, lambda stems: 0, 100, E5_DEFAULTS,
                 is_name=lambda word: False).numbers["words"]
    assert next(r for r in rows if r["word"] == "noclobb")["found"], rows  # (its stem)


def test_a_file_s_name_the_user_gives_is_no_name_the_pages_lack():
    """"How can I find all files called Makefile in this directory and all subdirectories
    with just a glob?" (trial 171, zsh's Expansion page, whose recursive globbing section
    ranked first) was refused as naming "Makefile", which no passage holds: the name of
    the files looked for is a value, as an example is. A tool "called" so is still a name
    the passages lack."""
    from preuve.answer.answerability import judge

    passage = _passage("Expansion.html", "html", "Expansion", "Recursive Globbing",
                       "As a shorthand, '**/' is equivalent to '(*/)#'; this "
                       "matches files in subdirectories.")

    def names(question: str) -> list[str]:
        return judge(question, [passage], 0.9, lambda stems: 0, 100, E5_DEFAULTS,
                     is_name=lambda word: word.lower() in {"makefile", "debmirror"}
                     ).numbers.get("absent_names", [])

    assert names("How do I glob all files called Makefile in subdirectories?") == []
    assert names("Comment trouver les fichiers nommés Makefile ?") == []
    assert names("How do I glob subdirectories with a tool called debmirror?") == ["debmirror"]


def test_a_compound_s_parts_and_little_words_weigh_not_the_compound():
    """"What's the largest single file I can copy onto a FAT-formatted USB stick?" (trial
    179, the Debian Reference: "For FAT filesystems… the maximum file size is (2^32 - 1)
    bytes", first) was refused at 32 % of its words: "FAT-formatted", which no passage
    writes, weighed as much as a name beside its parts "fat" and "formatted", and "onto"
    counted as a word to find; so did "tel" in "Comment récupérer un fichier tel qu'il
    était…" (trial 182)."""
    from preuve.answer.answerability import content_words, judge

    words = [w for w, _ in content_words("copy it onto a stick, tel qu'il était, among "
                                         "others")]
    assert not {"onto", "tel", "among"} & set(words), words
    passage = _passage("ch10.html", "html", "Data management", "Filesystems",
                       "For FAT filesystems by its design, the maximum file "
                       "size is (2^32 - 1) bytes.")
    rows = judge("What is the maximum file size on a FAT-formatted disk?", [passage], 0.9,
                 lambda stems: 0, 100, E5_DEFAULTS, is_name=lambda word: False
                 ).numbers["words"]
    compound = next(r for r in rows if r["word"] == "fat-formatted")
    assert compound["idf"] == 0.0 and next(r for r in rows if r["word"] == "fat")["found"]


def test_a_compound_whose_name_the_passages_write_names_nothing_missing():
    """"Why doesn't my path unit notice files that other servers drop into an NFS-mounted
    folder?" (trial 191) was refused as naming "nfs-mounted", which no passage writes,
    though systemd.path(5) says path units "cannot be used to monitor files… on remote
    NFS file systems": the name in the compound is written there, its other part is a
    word. A compound whose only name is absent still names it."""
    from preuve.answer.answerability import judge

    passage = _passage("systemd.path.5.gz", "man", "systemd.path", "DESCRIPTION",
                       "Internally, path units use the inotify(7) API to monitor file "
                       "systems. Due to that, it suffers by the same limitations as "
                       "inotify, and for example cannot be used to monitor files or "
                       "directories changed by other machines on remote NFS file systems.")

    def names(question: str) -> list[str]:
        return judge(question, [passage], 0.9, lambda stems: 0, 100, E5_DEFAULTS,
                     is_name=lambda word: word.lower() in {"nfs", "nfs-mounted", "cifs",
                                                           "cifs-mounted"}
                     ).numbers.get("absent_names", [])

    assert names("Why doesn't my path unit notice files dropped into an NFS-mounted "
                 "folder?") == []
    assert names("Why doesn't my path unit notice files dropped into a CIFS-mounted "
                 "folder?") == ["cifs-mounted"]


def test_a_clipped_word_and_the_words_of_hearsay_are_no_subject():
    """"How do I change just one setting of a service shipped by my distro…?" (trial 191)
    was refused as naming "distro", and "What does it mean when people say a datetime
    object is naive?" (trial 184) at 31 % of its words, "people" and "say" among those
    missing: "distro" is "distribution" clipped, and who says a word is not what it
    means."""
    from preuve.answer.answerability import content_words, without_examples
    from preuve.retrieve.bilingual import is_word

    assert is_word("distro") and is_word("distros")
    assert is_word("debmirro") is False  # (no word ends on an "o" of its own)
    for question in ("what does it mean when people say a datetime is naive?",
                     "ça veut dire quoi quand on dit qu'un datetime est naive ?"):
        words = {w for w, _ in content_words(without_examples(question, None))}
        assert {"datetime", "naive"} <= words and not {"people", "say", "dit"} & words, words
    # an error a program "keeps saying" is what is asked about
    words = {w for w, _ in content_words(without_examples(
        "How do I unmount it when it keeps saying target is busy?", None))}
    assert "saying" in words, words


def test_an_everyday_word_is_found_as_manuals_say_it():
    """"How do I create a soft link rather than a hard one?" (trial 185) was refused over
    ln(1), first: no passage writes "soft", manuals say "symbolic link". The words users
    say for what manuals name otherwise (`bilingual.PLAIN_TERMS`) are found as manuals
    write them; a short one only as written ("dire" is no "dir")."""
    from preuve.answer.answerability import judge
    from preuve.retrieve.bilingual import plain_senses

    assert "symbolic" in plain_senses("How do I create a soft link?")["soft"]
    assert plain_senses("unpack the tarballs")["tarballs"] == "tar archive"
    assert "dire" not in plain_senses("que veut dire ce dossier ?")
    # (trials 220, 223: "où le système garde-t-il les crontabs", "une adresse IP fixe",
    # "comment je renomme l'étiquette" where the pages say "stockées", "statique",
    # "changer le nom")
    assert "stocker" in plain_senses("Où le système garde-t-il les crontabs ?")["garde"]
    assert "statique" in plain_senses("Comment donner une adresse IP fixe ?")["fixe"]
    assert "static" in plain_senses("How do I set a fixed IP on eth0?")["fixed"]
    assert "changer le nom" in plain_senses("Comment je renomme l'étiquette ?")["renomme"]
    passage = _passage("ln.1.gz", "man", "ln - make links between files", "DESCRIPTION",
                       "-s, --symbolic\n       make symbolic links instead of hard links")
    rows = judge("How do I create a soft link rather than a hard one?", [passage], 0.9,
                 lambda stems: 0, 100, E5_DEFAULTS, is_name=lambda word: False
                 ).numbers["words"]
    assert next(r for r in rows if "soft" in r["word"].split("/"))["found"], rows


def test_a_french_compound_is_found_through_its_translation_whole():
    """"…quand un objet est récupéré par le ramasse-miettes ?" (trial 192, over Python's
    weakref page) was refused: "ramasse" and "miettes" were looked for apart, a rake and
    crumbs, where the page says "garbage collection". "À partir de quel niveau…" asks
    from which level: "partir" is no word to find."""
    from preuve.answer.answerability import content_words
    from preuve.retrieve.bilingual import code_translation

    def translate(word: str) -> str:
        return code_translation(word, "fr")

    groups = content_words("récupéré par le ramasse-miettes", translate)
    parts = [g for w, g in groups if w.lower().startswith("ramasse")]
    assert parts and all("garbag" in g or "garbage" in g for g in parts), groups
    words = {w for w, _ in content_words("à partir de quel niveau de gravité", translate)}
    assert "partir" not in words and "gravité" in words, words


def test_an_example_the_passages_write_is_what_is_asked_about():
    """"What does the capital X do in something like chmod -R u+X?" (trial 211) was judged
    on "capital" and "-R" alone: "like chmod" was taken out as an example standing for
    its kind, as "an env var like CCACHE_DIR" is. An example a passage writes is the
    subject itself and counts; one no passage writes still stands for its kind."""
    from preuve.answer.answerability import content_words, judge, without_examples

    passage = _passage("rights.html", "html", "Managing Rights", "Rights",
                       "$ chmod u+X test.txt\nThe X (capital) right sets execution only "
                       "for directories.")
    question = "What does the capital X do in something like chmod -R u+X?"
    kept = {w for w, _ in content_words(without_examples(question, lambda w: w == "chmod",
                                                         [passage]))}
    assert "chmod" in kept and "like" not in kept, kept
    dropped = {w for w, _ in content_words(without_examples(question, lambda w: w == "chmod"))}
    assert "chmod" not in dropped, dropped
    rows = judge(question, [passage], 0.9, lambda stems: 0, 100, E5_DEFAULTS,
                 is_name=lambda word: word == "chmod").numbers["words"]
    assert next(r for r in rows if r["word"] == "chmod")["found"], rows


def test_options_given_as_examples_stand_for_their_kind():
    """"Can a long option in getopt have an optional argument, like --color or
    --color=auto?" (trial 218) was refused: "the question names --color, which no passage
    mentions", while getopt's page says "Optional arguments are not supported". An
    option is an example as a name is, and so is each name of a list of them; a list
    stops at the first word of the language ("like foo.txt and then rename it")."""
    from preuve.answer.answerability import content_words, judge, without_examples

    def is_name(word: str) -> bool:  # ("color" is a word: "--color" a name all the same)
        return word not in ("then", "rename", "photos", "videos", "color", "auto")

    question = "Can a long option in getopt have an optional argument, like --color or " \
        "--color=auto?"
    weighed = without_examples(question, is_name)
    assert "color" not in weighed and "optional argument" in weighed, weighed
    assert "and then rename it" in without_examples("a file like foo.txt and then rename it",
                                                    is_name)
    assert "photos and videos" in without_examples("files like photos and videos", is_name)
    passage = _passage("getopt.html", "html", "getopt — C-style parser for command line "
                       "options", "getopt", "Long options on the command line can be "
                       "recognized with an optional argument list. Optional arguments are "
                       "not supported.")
    judged = judge(question, [passage], 0.9, lambda stems: 1, 100, E5_DEFAULTS,
                   is_name=is_name)
    assert "absent_names" not in judged.numbers, judged.numbers
    assert "color" not in {w for w, _ in content_words(weighed)}


def test_a_recent_past_and_a_habit_are_no_subject():
    """"Je viens d'installer git, comment je règle mon nom… ?" and "Bash n'arrête pas de
    biper…" (trial 209) were judged on "viens" and "arrête" among their words: "je viens
    de" says when (just now), "n'arrête pas de" how often (it keeps on), neither what the
    question is about; "arrêter le service" still is."""
    from preuve.answer.answerability import content_words

    def words(question: str) -> set[str]:
        return {w for w, _ in content_words(question)}

    assert words("Je viens d'installer git, comment je règle mon nom ?") == {
        "installer", "git", "règle", "nom"}
    assert "arrête" not in words("Bash n'arrête pas de biper quand je fais Tab, comment "
                                 "le faire taire ?")
    assert "arrêter" in words("Comment arrêter le service ?")
    assert words("It keeps on crashing") == {"crashing"}


def test_an_english_question_is_not_read_with_french_ordinary_words():
    """"What precision does decimal use out of the box…?" lost "precision" (trial 212):
    French "précises", an ordinary word, stems as English "precision" does; and "font",
    French for "they do", is the noun of "how do I change the font…?". An English
    question is read with the English ordinary words only."""
    from preuve.answer.answerability import content_words

    words = {word for word, _ in content_words(
        "What precision does decimal use out of the box if I never touch the context?")}
    assert "precision" in words and "decimal" in words and "does" not in words, words
    words = {word for word, _ in content_words("How do I change the font of the text tool?")}
    assert "font" in words and "do" not in words, words
    words = {word for word, _ in content_words("À quoi sert le fichier de police ?")}
    assert "sert" not in words and "fichier" in words, words


def test_a_dot_file_given_as_a_casual_example_is_no_subject():
    """"Où dois-je déposer les fichiers (genre .bashrc) que je veux retrouver dans le home
    de chaque nouvel utilisateur ?" (trial 231) was refused for naming ".bashrc", which no
    passage writes: "genre" gives an example as "comme" does, and a dot file is a name
    like any other."""
    from preuve.answer.answerability import content_words, without_examples

    question = ("Où dois-je déposer les fichiers (genre .bashrc) que je veux retrouver "
                "dans le home de chaque nouvel utilisateur ?")
    never = lambda word: False  # noqa: E731 (no word of the language is a name here)
    words = {w for w, _ in content_words(without_examples(question, never))}
    assert "bashrc" not in {w.lstrip(".") for w in words} and "home" in words, words
    words = {w for w, _ in content_words(without_examples(
        "How do I copy dot files such as .profile into every new home?", never))}
    assert "profile" not in {w.lstrip(".") for w in words}, words


def test_an_irregular_form_a_compound_and_asking_weigh_as_manuals_write_them():
    """Trials 298 and 299: "…so the computer can be woken remotely with a magic packet?"
    was refused with "woken" missing beside ethtool's "Wake on MagicPacket"; "…a compact
    one-line summary…" met no `--oneline`; "Does linecache throw an exception if I ask
    for a line number…?" counted "ask" as a word to find. An irregular form is found as
    its verb, a compound written in one word too, and asking is what any question does
    (unless an everyday phrase says more: "ask me" is a prompt)."""
    from preuve.answer.answerability import content_words

    words = dict(content_words("Can it be woken with a one-line call if I ask for it?"))
    assert "wake" in words["woken"], words
    assert "onelin" in words["one-line"], words
    assert "ask" not in words, words
    assert "prompt" in dict(content_words("Does apt ask me before removing?"))["ask"]


def test_words_joined_by_hyphens_name_nothing():
    """"In rsyslog, how do I match every critical-or-worse message…?" (trial 318) was
    refused as naming "wors": the compound, no word as written, was cut into its stems and
    its longest one judged a name. Words joined by hyphens name nothing."""
    from preuve.answer.answerability import judge
    from preuve.retrieve.bilingual import is_word

    passage = _passage("rsyslog.html", "html", "The syslog system", "Filters",
                       "The priority filter selects messages of a given severity.")
    numbers = judge("How do I match every critical-or-worse message except the kernel's?",
                    [passage], 0.9, lambda stems: 0, 100, E5_DEFAULTS,
                    is_name=lambda word: is_word(word) is False).numbers
    assert not numbers.get("absent_names"), numbers


def test_the_french_words_users_say_for_fields_doubles_and_shutting_down():
    """Trials 312 and 316 (French Debian Reference, coreutils): "…éteindre la machine
    immédiatement…" met no "arrêter le système" (`shutdown -h now`), "Pourquoi uniq
    laisse-t-il encore des doublons ?" no "lignes répétées", "les colonnes" of cut no
    "champs": the manuals' words for them."""
    from preuve.answer.answerability import content_words

    words = dict(content_words("Comment éteindre la machine ? Et les doublons des colonnes ?"))
    assert "arret" in words["éteindre"] or "arrêt" in words["éteindre"], words
    assert any(stem.startswith("repet") or stem.startswith("répét")
               for stem in words["doublons"]), words
    assert "champ" in words["colonnes"], words
