"""Feedback on answers (issue 24): stored in the index's database on both stores, read back
under the audience boundary (a caller reads only its own, the operator all), its
citations checked readable by the caller, and turned by the operator into evaluation
questions that `preuve eval` runs. The HTTP boundary is in test_server_security.py, the
MCP tool in test_mcp.py, the page's buttons in test_browser.py."""

from __future__ import annotations

import csv
import io
import json

import httpx
import pytest
from conftest import UNLIMITED, copy_index, open_index, rows, run_cli

from preuve.errors import InvalidInput, NotFound
from preuve.evaluate.reference import load_reference
from preuve.server.app import create_app
from preuve.server.runner import ServerThread

QUESTION = "Quel est le délai de retour d'un produit ?"
STAFF_DOC = "handbook/escalade-retours.md"


@pytest.fixture
def own_index(index_path, tmp_path):
    """A private copy of the session index (feedback is written into it)."""
    return copy_index(index_path, tmp_path / "index.sqlite")


def test_round_trip_keeps_what_was_answered_and_who_said_it(own_index):
    with open_index(own_index) as index:
        answer = index.ask(QUESTION, audience="public", method="bm25")
        assert not answer.refused and answer.citations
        given = index.feedback.add(
            question=answer.question, answer=answer.answer, citations=answer.citations,
            verdict="wrong", comment="c'est 45 jours maintenant", audience="public",
            owner="key:one", channel="http", as_of="2026-11-05")
        index.feedback.add(question="Et la prime d'astreinte ?", answer="", refused=True,
                           verdict="incomplete", audience="staff", owner="key:two")
    with open_index(own_index) as index:  # another connection reads it back
        everything = index.feedback.list()
        mine = index.feedback.list(audience="public", owner="key:one")
        theirs = index.feedback.list(audience="public", owner="key:other")
        as_staff_with_my_owner = index.feedback.list(audience="staff", owner="key:one")
    assert [i["verdict"] for i in everything] == ["incomplete", "wrong"]  # newest first
    (item,) = mine
    assert item["id"] == given["id"]
    assert item["question"] == QUESTION and item["answer"] == answer.answer
    assert item["comment"] == "c'est 45 jours maintenant"
    assert item["audience"] == "public" and item["channel"] == "http"
    assert item["as_of"] == "2026-11-05" and item["created_at"][:2] == "20"
    assert [c["path"] for c in item["citations"]] == [c["path"] for c in answer.citations]
    assert item["citations"][0]["label"] == answer.citations[0]["label"]
    assert "owner" not in item  # a caller's own rows do not show its identity
    assert everything[1]["owner"] == "key:one"  # the operator sees who gave what
    assert theirs == [] and as_staff_with_my_owner == []
    with open_index(own_index) as index:
        with pytest.raises(NotFound):
            index.feedback.get(given["id"], audience="public", owner="key:other")
        assert index.feedback.get(given["id"], audience="public", owner="key:one")["id"] == \
            given["id"]


def test_a_citation_the_caller_cannot_read_is_refused_like_one_that_does_not_exist(
        own_index):
    with open_index(own_index) as index:
        staff_passage = index.search("escalade remboursement", audience="staff", k=20)
        staff_hit = next(h for h in staff_passage if h.path == STAFF_DOC)
        public_hit = index.search("retour", audience="public", k=1)[0]
        errors = []
        for cited in ({"path": STAFF_DOC, "label": "x"},
                      {"path": "handbook/nothing-here.md", "label": "x"}):
            with pytest.raises(InvalidInput) as caught:
                index.feedback.add(question="q", answer="a", citations=[cited],
                                   verdict="right", audience="public", owner="key:one")
            errors.append(str(caught.value))
        assert errors[0] == errors[1]  # nothing tells a hidden document from a missing one
        with pytest.raises(InvalidInput, match="not one you can read"):  # a staff passage
            index.feedback.add(question="q", answer="a", verdict="right",  # under a public
                               audience="public", owner="key:one",          # path
                               citations=[{"path": public_hit.path,
                                           "chunk_id": staff_hit.chunk_id}])
        with pytest.raises(InvalidInput, match="not a document you can read"):  # a label
            index.feedback.add(question="q", answer="a", verdict="wrong",
                               citations=[f"{STAFF_DOC}:3-5"], audience="public",
                               owner="key:one")
        assert index.feedback.list() == []  # nothing half stored
        # the staff may cite it, and the operator anything
        index.feedback.add(question="q", answer="a", verdict="right", audience="staff",
                           owner="key:staff", citations=[f"{STAFF_DOC}:3-5"])
        assert len(index.feedback.list()) == 1


def test_bad_input_is_named(own_index):
    with open_index(own_index) as index:
        for kwargs, said in [({"verdict": "meh"}, "verdict 'meh'"),
                             ({"verdict": "right", "comment": "x" * 3000}, "comment"),
                             ({"verdict": "right", "as_of": "yesterday"}, "as_of"),
                             ({"verdict": "right", "citations": ["not a source at all"]},
                              "not a source"),
                             ({"verdict": "right", "question": " "}, "question is empty")]:
            with pytest.raises(InvalidInput, match=said):
                index.feedback.add(**{"question": "q", "answer": "a", **kwargs})
        index.feedback.add(question="q", answer="a", verdict="wrong")
        (item,) = index.feedback.list()
        with pytest.raises(InvalidInput, match="give the correct source"):
            index.feedback.review(item["id"])  # a wrong answer needs where the right one is
        with pytest.raises(InvalidInput, match="not a document of this index"):
            index.feedback.review(item["id"], relevant=["handbook/nope.md:1-2"])
        with pytest.raises(NotFound):
            index.feedback.review(item["id"] + 99, refuse=True)


def test_cli_lists_filters_exports_and_makes_evaluation_questions(own_index, tmp_path):
    with open_index(own_index) as index:
        answer = index.ask(QUESTION, audience="public", method="bm25")
        wrong = index.feedback.add(question=QUESTION, answer=answer.answer,
                                   citations=answer.citations, verdict="wrong",
                                   audience="public", owner="key:one", as_of="2026-11-05")
        right = index.feedback.add(question="Combien de jours de télétravail par semaine ?",
                                   answer="2 jours [handbook/teletravail.pdf p. 2]",
                                   citations=["handbook/teletravail.pdf p. 2"],
                                   verdict="right", audience="public", owner="key:two")
        index.feedback.add(question='=HYPERLINK("http://x.example")', answer="", refused=True,
                           verdict="incomplete", audience="staff", owner="key:three")
    where = ["--index", str(own_index)]
    listed = run_cli("feedback", "list", "--verdict", "wrong", "--json", *where)
    assert listed.returncode == 0, listed.stderr
    assert [i["id"] for i in json.loads(listed.stdout)] == [wrong["id"]]
    by_audience = json.loads(run_cli("feedback", "list", "--audience", "staff", "--json",
                                     *where).stdout)
    assert [i["verdict"] for i in by_audience] == ["incomplete"]
    today = wrong["created_at"][:10]
    assert len(json.loads(run_cli("feedback", "list", "--since", today, "--until", today,
                                  "--json", *where).stdout)) == 3
    assert json.loads(run_cli("feedback", "list", "--until", "2000-01-01", "--json",
                              *where).stdout) == []
    limited = run_cli("feedback", "list", *where, env={"PREUVE_AUDIENCE": "public"})
    assert limited.returncode == 2 and "operator only" in limited.stderr
    assert QUESTION not in limited.stdout + limited.stderr
    bad = run_cli("feedback", "list", "--since", "last week", *where)
    assert bad.returncode == 2 and "since" in bad.stderr and "Traceback" not in bad.stderr

    exported = run_cli("feedback", "export", "--format", "csv", *where)
    table = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert [r["verdict"] for r in table] == ["incomplete", "right", "wrong"]
    assert table[1]["citations"] == "handbook/teletravail.pdf p. 2"
    assert table[0]["question"] == "'=HYPERLINK(\"http://x.example\")"  # not a formula

    # the wrong answer: reviewed with the correct source; the right one: its citation
    reviewed = run_cli("feedback", "review", str(wrong["id"]), "--source",
                       "handbook/retours-v2.md:17-21", "--fact", "45 jours", *where)
    assert reviewed.returncode == 0, reviewed.stderr
    assert run_cli("feedback", "review", str(right["id"]), *where).returncode == 0
    questions = tmp_path / "questions.yaml"
    made = run_cli("feedback", "export", "--to-eval", str(questions), *where)
    assert made.returncode == 0, made.stderr
    assert "2 questions" in made.stdout and "not reviewed" in made.stderr
    loaded = {q.id: q for q in load_reference(questions)}
    assert set(loaded) == {f"feedback-{wrong['id']}", f"feedback-{right['id']}"}
    first = loaded[f"feedback-{wrong['id']}"]
    assert first.question == QUESTION and first.audience == "public"
    assert first.as_of == "2026-11-05" and first.facts == ["45 jours"]
    assert [(r.path, r.lines) for r in first.relevant] == [("handbook/retours-v2.md", (17, 21))]
    second = loaded[f"feedback-{right['id']}"]
    assert [(r.path, r.page) for r in second.relevant] == [("handbook/teletravail.pdf", 2)]
    # and `preuve eval` runs them: the reported failure is now a regression check
    run = run_cli("eval", str(questions), "--method", "bm25", "--json", *where)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["n_questions"] == 2


def test_migrate_keeps_feedback(sqlite_index_path, tmp_path):
    source = copy_index(sqlite_index_path, tmp_path / "a.sqlite")
    with open_index(source) as index:
        index.feedback.add(question="q", answer="a", verdict="wrong", comment="kept",
                           citations=["handbook/conges.md"], audience="public", owner="key:1")
    target = tmp_path / "b.sqlite"
    done = run_cli("migrate", "--from", str(source), "--to", str(target))
    assert done.returncode == 0, done.stderr
    assert "1 feedback items" in done.stdout
    (row,) = rows(target, "SELECT comment, audience, owner FROM feedback")
    assert row == {"comment": "kept", "audience": "public", "owner": "key:1"}


def test_anonymous_callers_give_feedback_but_cannot_read_it_back(sqlite_index_path, tmp_path):
    path = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    app = create_app(path, {"api_keys": {"k-admin": "admin"}, "anonymous": "public",
                            **UNLIMITED})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        given = http.post("/feedback", json={"question": "q", "answer": "a",
                                             "verdict": "wrong"})
        assert given.status_code == 201, given.text
        assert http.get("/feedback").status_code == 403  # anonymous callers share one owner
        listed = http.get("/feedback", headers={"X-API-Key": "k-admin"}).json()["items"]
    assert [i["audience"] for i in listed] == ["public"]
