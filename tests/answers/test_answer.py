"""Answers with verified citations over the sample corpus (issue 4): the extractive default
with the real e5 index, the refusal after calibration, code citations whose links open the
right lines of the real file, a model's answer (a scripted OpenAI-compatible server on
127.0.0.1) rejected when a citation does not hold, shown with links and usage when it does,
`ask --json`, the audience boundary, and `eval --answers`."""

from __future__ import annotations

import ast
import json
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import (
    EXAMPLES,
    copy_index,
    rows,
    run_cli,
    run_cli_e5,
)
from llm_server import Reply, ScriptedServer, chat_reply, stream_reply

from preuve import Index
from preuve.answer.generators import OpenAIGenerator
from preuve.answer.pipeline import answer_from_hits
from preuve.evaluate.answers import calibrate
from preuve.evaluate.reference import load_reference
from preuve.models import ASK_K

QUESTIONS = {q.id: q for q in load_reference(EXAMPLES / "questions.yaml")}
TELEWORK = "Combien de jours de télétravail par semaine ?"
GITHUB = "https://github.com/lucarne/handbook/blob/0123456789abcdef0123456789abcdef01234567"
USAGE = {"prompt_tokens": 812, "completion_tokens": 19, "total_tokens": 831}
MD_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def calibrated(e5_index_path, tmp_path_factory):
    """A copy of the e5 index with the refusal threshold calibrated on questions.yaml."""
    path = copy_index(e5_index_path, tmp_path_factory.mktemp("answers") / "index.sqlite")
    index = Index(path, embedder="e5")
    result = calibrate(index, EXAMPLES / "questions.yaml")
    yield index, result
    index.close()


def generator_for(server: ScriptedServer) -> OpenAIGenerator:
    return OpenAIGenerator(server.base_url, "test-model", timeout=10, max_retries=0)


def local_file(link: str) -> Path:
    parts = urllib.parse.urlsplit(link)
    assert parts.scheme == "file", link
    return Path(urllib.request.url2pathname(parts.path))


def squash(text: str) -> str:
    return " ".join(text.split())


def linked_segments(answer: str) -> list[tuple[str, str, str]]:
    """(text before the citation, label, url) for each Markdown link of an answer."""
    out, start = [], 0
    for match in MD_LINK.finditer(answer):
        out.append((answer[start:match.start()], match.group(1), match.group(2)))
        start = match.end()
    return out


# ---------------------------------------------------------------------------- extractive


def test_telework_days_answer_cites_page_2_and_links_to_it(calibrated, corpus):
    index, _ = calibrated
    answer = index.ask(TELEWORK, audience="public")
    assert not answer.refused, answer.reason
    assert answer.language == "fr" and answer.rejected is None
    assert "2 jours" in answer.answer
    pdf = corpus / "handbook" / "teletravail.pdf"
    expected_link = pdf.as_uri() + "#page=2"
    assert answer.citations
    for citation in answer.citations:
        assert (citation["path"], citation["page"]) == ("handbook/teletravail.pdf", 2)
        assert citation["label"] == "handbook/teletravail.pdf p. 2"
        assert citation["start_line"] is None and citation["end_line"] is None
        assert citation["link"] == expected_link
    # the link opens the page index, its text shows the printed page too
    assert f"[handbook/teletravail.pdf p. 2 (printed 1)]({expected_link})" in answer.answer
    # what is quoted is really on that page of the real PDF (page index 2, printed "1")
    page_text = squash(pdfium.PdfDocument(str(local_file(expected_link)))[1]
                       .get_textpage().get_text_range())
    for quoted, label, url in linked_segments(answer.answer):
        assert (label, url) == ("handbook/teletravail.pdf p. 2 (printed 1)", expected_link)
        assert squash(quoted) in page_text
    # a configured repository URL replaces the local folder
    pinned = index.ask(TELEWORK, audience="public", link_base=GITHUB)
    assert {c["link"] for c in pinned.citations} == {
        f"{GITHUB}/handbook/teletravail.pdf#page=2"}
    assert f"({GITHUB}/handbook/teletravail.pdf#page=2)" in pinned.answer


def test_calibration_is_stored_and_unanswerable_questions_get_the_exact_refusal(calibrated):
    index, result = calibrated
    assert result["measure"] == "dense"
    assert index.calibration.thresholds()[result["measure"]] == pytest.approx(result["value"])
    stored = json.loads(index.engine.store.get_meta("refusal_threshold"))
    assert stored[result["measure"]]["value"] == result["value"]
    for question, refusal in [("Quel est le salaire de la directrice ?", "Je ne sais pas."),
                              ("Does the company offer stock options to employees?",
                               "I don't know.")]:
        answer = index.ask(question)
        assert answer.answer == refusal, answer.answer
        assert answer.refused and answer.citations == []
        assert "below the calibrated threshold" in answer.reason
        assert answer.evidence < index.calibration.thresholds()["dense"]


def test_calibrated_refusal_also_holds_with_the_bm25_method(calibrated):
    index, _ = calibrated
    answer = index.ask("Quel est le salaire de la directrice ?", method="bm25")
    assert answer.answer == "Je ne sais pas.", answer.answer


def test_calibrating_with_bm25_does_not_make_hybrid_refuse_everything(e5_index_path,
                                                                      tmp_path):
    path = copy_index(e5_index_path, tmp_path / "index.sqlite")
    with Index(path, embedder="e5") as index:
        calibrate(index, EXAMPLES / "questions.yaml", method="bm25")
        answer = index.ask(TELEWORK, audience="public")
    assert not answer.refused, answer.reason


def definitions(source: str) -> list[tuple[int, int]]:
    """Line spans (decorators included) of the definitions and assignments of a module."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.end_lineno))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            spans.append((node.lineno, node.end_lineno))
    return spans


def test_code_answer_links_open_the_cited_definition(calibrated, corpus):
    index, _ = calibrated
    q = QUESTIONS["code-ttc"]
    answer = index.ask(q.question)
    assert not answer.refused, answer.reason
    # one of the two definitions the reference holds relevant (`montant_ttc`, the
    # computation, or `Facture.total_ttc`, an invoice's), by name
    assert re.search(r"\b(?:montant_ttc|Facture\.total_ttc)\b", answer.answer), answer.answer
    segments = linked_segments(answer.answer)
    assert len(segments) == len(answer.citations) >= 1
    for (quoted, label, url), citation in zip(segments, answer.citations, strict=True):
        start, end = citation["start_line"], citation["end_line"]
        assert citation["page"] is None and start <= end
        assert label == citation["label"] == f"{citation['path']}:{start}-{end}"
        assert url == citation["link"] == (corpus / citation["path"]).as_uri() + \
            f"#L{start}-L{end}"
        source = local_file(url).read_text("utf-8")
        assert any(a <= start and end <= b for a, b in definitions(source)), label
        cited_lines = squash("\n".join(source.splitlines()[start - 1:end]))
        signature = re.findall(r"`([^`]+)`", quoted)[-1]
        assert squash(signature) in cited_lines, (signature, label)
    relevant = [(r.path, r.lines) for r in q.relevant]
    assert any(c["path"] == path and c["start_line"] <= lines[1] and c["end_line"] >= lines[0]
               for c in answer.citations for path, lines in relevant)
    pinned = index.ask(q.question, link_base=GITHUB)
    for c in pinned.citations:
        assert c["link"] == f"{GITHUB}/{c['path']}#L{c['start_line']}-L{c['end_line']}"
    gitlab = index.ask(q.question, link_base="https://gitlab.example.com/o/r/-/blob/abc")
    assert all(re.search(r"#L\d+-\d+$", c["link"]) for c in gitlab.citations)


# ----------------------------------------------------------------- a model's answer, checked


@pytest.fixture(scope="module")
def tva_passage(e5_index):
    (hit,) = e5_index.search("TAUX_PAR_CATEGORIE", method="bm25", k=1, as_of="none",
                             paths=["facturo/tva.py"])
    assert hit.label == "facturo/tva.py:16-21"
    return hit


@pytest.mark.parametrize("bad, why", [
    ("Le taux normal est de 20 % [facturo/tva.py:30].",
     "facturo/tva.py:30 is outside the cited passage facturo/tva.py:16-21"),
    ("Les catégories sont définies ici [facturo/tva.py:14-16].",
     "facturo/tva.py:14-16 is outside the cited passage facturo/tva.py:16-21"),
    ("Quatre catégories [facturo/tva.py:16-21], dont la presse [facturo/tva.py:30].",
     "facturo/tva.py:30 is outside"),
    ("Voir [facturo/modeles.py:14-23].", "facturo/modeles.py is not one of the passages"),
    ("Les chats dorment au soleil toute la journée.", "the answer cites nothing"),
])
def test_a_citation_that_does_not_hold_turns_the_answer_into_the_refusal(tva_passage, bad,
                                                                          why):
    with ScriptedServer([chat_reply(bad, usage=USAGE)]) as server:
        answer = answer_from_hits("Quels sont les taux de TVA par catégorie ?", [tva_passage],
                                  generator=generator_for(server))
    assert answer.refused and answer.answer == "Je ne sais pas."
    assert answer.citations == []
    assert answer.rejected == bad  # kept for the operator
    assert answer.reason.startswith("citation check failed") and why in answer.reason
    (request,) = server.requests
    prompt = request.body["messages"][-1]["content"]
    assert "--- facturo/tva.py:16-21" in prompt and tva_passage.text.strip() in prompt
    assert answer.usage["tokens_in"] == 812 and answer.usage["tokens_out"] == 19


def test_a_valid_model_answer_is_shown_with_links_and_usage(calibrated, corpus):
    index, _ = calibrated
    hits = index.search(TELEWORK, k=ASK_K, audience="public")
    assert hits[0].label == "handbook/teletravail.pdf p. 2"
    text = "Jusqu'à 2 jours par semaine [handbook/teletravail.pdf p. 2]."
    with ScriptedServer([chat_reply(text, usage=USAGE)]) as server:
        answer = index.ask(TELEWORK, audience="public", generator=generator_for(server))
    assert not answer.refused and answer.reason is None and answer.rejected is None
    link = (corpus / "handbook" / "teletravail.pdf").as_uri() + "#page=2"
    assert answer.answer == ("Jusqu'à 2 jours par semaine "
                             f"[handbook/teletravail.pdf p. 2 (printed 1)]({link}).")
    (citation,) = answer.citations
    assert citation["link"] == link and citation["valid"] is True
    # usage: tokens in/out of the call, latency per stage
    usage = answer.usage
    assert (usage["tokens_in"], usage["tokens_out"]) == (812, 19)
    (call,) = usage["calls"]
    assert (call["status"], call["prompt_tokens"], call["completion_tokens"]) == (200, 812, 19)
    assert call["generator"] == "openai" and call["latency_s"] >= 0
    assert usage["model"] == "scripted" and 0 < usage["context_tokens"] <= 3000
    latency = usage["latency_s"]
    assert set(latency) == {"retrieve", "generate", "verify", "total"}
    assert latency["total"] == pytest.approx(
        latency["retrieve"] + latency["generate"] + latency["verify"], abs=1e-3)
    # the model got the retrieved passages under their citation labels, in order
    (request,) = server.requests
    system, user = request.body["messages"][0]["content"], request.body["messages"][-1]["content"]
    assert "French" in system and "Je ne sais pas." in system
    headers = [line[4:].split(" (")[0] for line in user.splitlines() if line.startswith("--- ")]
    assert headers == [h.label for h in answer.hits] == [h.label for h in hits]
    assert user.rstrip().endswith(f"Question: {TELEWORK}")


def test_streamed_model_answer_reaches_the_terminal_once_verified(calibrated):
    """The model's tokens are kept back; the client gets the verified, linked answer."""
    index, _ = calibrated
    tokens = ["Deux", " jours", " par semaine", " [handbook/teletravail.pdf p. 2]", "."]
    seen: list[str] = []
    with ScriptedServer([stream_reply(tokens, usage=USAGE)]) as server:
        answer = index.ask(TELEWORK, audience="public", generator=generator_for(server),
                           on_token=seen.append)
    assert "".join(seen) == answer.answer and len(seen) > 1
    assert " [handbook/teletravail.pdf p. 2]" not in seen  # the raw citation never went out
    assert server.requests[0].body["stream"] is True
    assert not answer.refused and answer.usage["tokens_out"] == 19
    assert answer.citations[0]["page"] == 2


def test_a_model_that_refuses_gives_the_exact_refusal_of_the_questions_language(calibrated):
    index, _ = calibrated
    with ScriptedServer([chat_reply("  I don't know.\n")]) as server:
        answer = index.ask(TELEWORK, audience="public", generator=generator_for(server))
    assert len(server.requests) == 1  # the evidence was enough: the model was asked
    assert answer.answer == "Je ne sais pas." and answer.refused and answer.rejected is None
    assert answer.citations == [] and "no answer in the passages" in answer.reason


# -------------------------------------------------------------------------------- ask --json


@pytest.mark.same_vectors_in_subprocess
def test_cli_ask_json_shape_with_a_model_endpoint(e5_index, e5_index_path, corpus):
    hits = e5_index.search(TELEWORK, k=ASK_K, audience="public")
    label = hits[0].label
    text = f"Deux jours par semaine [{label}]."
    with ScriptedServer([chat_reply(text, usage=USAGE)]) as server:
        result = run_cli_e5("ask", TELEWORK, "--json", "--audience", "public", "--index",
                            str(e5_index_path), "--generator", "openai", "--base-url",
                            server.base_url, "--model", "test-model")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"question", "answer", "refused", "reason", "citations", "hits", "usage"} <= set(data)
    assert data["question"] == TELEWORK and data["refused"] is False and data["reason"] is None
    (citation,) = data["citations"]
    assert {"label", "path", "page", "start_line", "end_line", "link"} <= set(citation)
    assert citation["link"] == (corpus / "handbook/teletravail.pdf").as_uri() + "#page=2"
    assert f"[{hits[0].shown_label}]({citation['link']})" in data["answer"]
    assert [h["chunk_id"] for h in data["hits"]] == [h.chunk_id for h in hits]
    assert set(data["hits"][0]) == set(hits[0].to_dict())  # same fields as search --json
    assert (data["usage"]["tokens_in"], data["usage"]["tokens_out"]) == (812, 19)
    assert data["usage"]["calls"][0]["prompt_tokens"] == 812
    assert {"retrieve", "generate", "verify", "total"} <= set(data["usage"]["latency_s"])


def test_cli_ask_with_a_rejected_key_is_a_clear_one_line_error(index_path):
    with ScriptedServer([Reply(status=401, body={"error": {"message": "bad key"}})]) as server:
        result = run_cli("ask", TELEWORK, "--index", str(index_path), "--generator",
                         "openai", "--base-url", server.base_url, "--model", "m")
    assert len(server.requests) == 1  # 401 is not retried
    assert result.returncode != 0
    assert "401" in result.stderr and "API key" in result.stderr
    assert "Traceback" not in result.stderr


# ----------------------------------------------------------------------------- audience

OPERATOR_STAFF_FIRST = [
    "Qui peut prolonger le délai de retour pour un grand compte ?",
    "Jusqu'à quel montant un conseiller peut-il rembourser sans validation ?",
    "How much is the on-call allowance per week?",
    "Can engineers work from home every day during their on-call week?",
]


@pytest.fixture(scope="module")
def not_public(e5_index_path):
    """Paths and sentences of every passage the public may not read."""
    chunks = rows(e5_index_path,
                  "SELECT path, text FROM chunks WHERE access IS DISTINCT FROM 'public'")
    sentences = {squash(s) for c in chunks for s in re.split(r"(?<=[.;:!?])\s+|\n", c["text"])
                 if len(squash(s)) >= 30}
    return {c["path"] for c in chunks}, sentences


def assert_nothing_private(answer, not_public) -> None:
    paths, sentences = not_public
    dumped = json.dumps(answer.to_dict(), ensure_ascii=False)
    for path in paths:
        assert path not in dumped and Path(path).name not in dumped, path
    shown = squash(answer.answer)
    assert not [s for s in sentences if s in shown]
    assert all(h.access == "public" for h in answer.hits)


def test_public_ask_never_quotes_cites_or_links_a_staff_passage(calibrated, not_public):
    index, _ = calibrated
    paths, _ = not_public
    for question in OPERATOR_STAFF_FIRST:
        operator = index.ask(question)
        assert operator.hits[0].access == "staff", question
        assert not operator.refused and operator.citations[0]["path"] in paths, question
        public = index.ask(question, audience="public")
        assert_nothing_private(public, not_public)
        assert all(c["link"].startswith("file://") for c in public.citations)


def test_public_context_holds_no_staff_text_and_a_leaked_citation_is_refused(calibrated,
                                                                            not_public):
    """A model that cites the staff passage anyway (it never saw it) is refused. The
    public passages go straight to the answer step: no evidence threshold decides here
    (issue 10 item 12: the question's evidence sat within CPU noise of the threshold)."""
    index, _ = calibrated
    paths, sentences = not_public
    leak = "Jusqu'à 60 jours pour un grand compte [handbook/escalade-retours.md:23-28]."
    hits = index.search(OPERATOR_STAFF_FIRST[0], k=ASK_K, audience="public")
    with ScriptedServer([chat_reply(leak)]) as server:
        answer = answer_from_hits(OPERATOR_STAFF_FIRST[0], hits,
                                  generator=generator_for(server))
    assert answer.refused and answer.answer == "Je ne sais pas." and answer.rejected == leak
    assert "handbook/escalade-retours.md is not one of the passages given" in answer.reason
    assert answer.citations == []
    # the passages and the question (the system prompt's format examples aside)
    sent = squash(json.dumps(server.requests[0].body["messages"][1:], ensure_ascii=False))
    assert not [p for p in paths if p in sent]
    assert not [s for s in sentences if json.dumps(s, ensure_ascii=False)[1:-1] in sent]


# ------------------------------------------------------------------------ eval --answers


REFUSALS = {  # questions.yaml's `refuse: true` questions, refused in their own language
    "staff-astreinte-public": "I don't know.", "brouillon-parking-staff": "Je ne sais pas.",
    "salaire-directrice": "Je ne sais pas.", "refuse-chiens": "Je ne sais pas.",
    "refuse-stock-options": "I don't know.", "refuse-salle-reunion": "I don't know.",
    "refuse-courrier": "Je ne sais pas.",
}


def test_eval_answers_on_the_reference_file(index_path, tmp_path):
    """The real CLI: calibrate, then eval --answers (keyword-only index, extractive)."""
    path = copy_index(index_path, tmp_path / "index.sqlite")
    reference = str(EXAMPLES / "questions.yaml")
    result = run_cli("calibrate", reference, "--index", str(path), "--json")
    assert result.returncode == 0, result.stderr
    calibration = json.loads(result.stdout)
    assert calibration["measure"] == "bm25" and calibration["refusals_caught"] == "7/7"
    result = run_cli("eval", reference, "--answers", "--index", str(path), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    metrics = report["metrics"]
    assert metrics["n_refuse"] == 7 and metrics["n_answerable"] == 44
    assert metrics["citation_validity"] == 1.0
    assert metrics["correct_refusals"] == 1.0
    assert metrics["answered"] > 0.5 and metrics["cites_relevant"] >= 0.8
    for row in report["per_question"]:
        if row["refuse"]:
            assert row["refused"] and row["answer"] == REFUSALS[row["id"]], row["id"]
        else:
            assert row["refused"] or row["valid"] is True, row["id"]
    assert {r["id"] for r in report["per_question"] if r["refuse"]} == set(REFUSALS)


def test_a_code_answer_quotes_what_the_docstring_says_beyond_its_first_line(e5_index):
    """"How are late payment penalties computed?": the definition answers with its
    signature and its docstring's whole prose (the rate, the base, the 40 € fixed fee), not
    only its first sentence ("Pénalités dues sur une facture…"), which says what it is,
    not how it is computed."""
    answer = e5_index.ask("How are late payment penalties computed?")
    assert not answer.refused, answer.reason
    assert "penalites_de_retard" in answer.answer
    assert "40 €" in answer.answer and "au prorata des jours de retard" in answer.answer
    assert answer.citations[0]["path"] == "facturo/relances.py"


def test_a_casual_french_question_is_told_french():
    """trial 72's fe1: "c'est quoi un null client ?" was refused in English ("I don't
    know.") and searched as an English question: none of its words was in the French list
    ("c'est", "quoi", "un"), and it has no accent. Its casual words count now."""
    from preuve.text import question_language

    for question in ("c'est quoi un null client ?", "qu'est-ce que le wrappermode ?",
                     "ça sert à quoi un proxy ?", "un bug en prod, que faire ?"):
        assert question_language(question) == "fr", question
    for question in ("what is a null client?", "how do I run it in a container?"):
        assert question_language(question) == "en", question
