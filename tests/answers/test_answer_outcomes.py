"""Whether answers are right: the fact matcher, the outcome of each question, the reference
format's fact alternatives and `lang`, and `eval --answers` on a small real index (two
pages of the Python FAQ from python3-doc, keyword only)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, open_index, run_cli

from preuve.errors import InvalidInput
from preuve.evaluate.answers import (
    GOOD_OUTCOMES,
    OUTCOMES,
    evaluate_answers,
    facts_in_answer,
    normalise,
    outcome,
    outcome_table,
    without_citations,
)
from preuve.evaluate.reference import Fact, load_reference

PYTHON_FAQ = Path("/usr/share/doc/python3-doc/html/faq")
FAQ_PAGES = ("general.html", "installed.html")


# ----------------------------------------------------------------------- the fact matcher
def found(facts, answer):
    return facts_in_answer([Fact(f) for f in facts], answer)


def test_facts_are_found_across_case_markdown_and_whitespace():
    answer = ("Run `dpkg` **--listfiles**\n  foo to list them; the *Toy   Story* films "
              "gave the names.")
    assert found(["DPKG --LISTFILES", "toy story"], answer) == [True, True]
    assert found(["dpkg --list foo"], answer) == [False]


def test_typographic_apostrophes_and_nfkc_match_plain_ones():
    assert found(["Deb'-i-an"], "Le nom est prononcé Deb’-i-an, avec un e court.") == [True]
    assert found(["59100"], "plus de 59\u00a0100 paquets") == [False]  # a space is a space
    assert found(["plus de 59 100"], "plus de 59\u00a0100 paquets") == [True]


def test_any_alternative_counts_and_each_fact_is_judged_alone():
    answer = "Use apt-mark hold package_name; see bugs.debian.org."
    facts = [["dpkg --set-selections", "apt-mark hold"], "bugs.debian.org", "reportbug"]
    assert found(facts, answer) == [True, True, False]


def test_a_fact_only_inside_a_citation_marker_is_not_found():
    answer = ("The command is dpkg --listfiles foo [debian-faq/en/pkgtools.en.html:304-310] "
              "(handbook/teletravail.pdf p. 2) [2].")
    assert "pkgtools" not in without_citations(answer)
    assert found(["pkgtools", "teletravail.pdf", "dpkg --listfiles"], answer) == [
        False, False, True]
    linked = "See [python/faq/general.html:419-420](file:///x/general.html#L419) for Monty."
    assert found(["general.html", "Monty"], linked) == [False, True]


def test_a_link_keeps_its_text_and_its_address():
    answer = "Read the [instructions](https://www.debian.org/Bugs/Reporting) first."
    assert found(["instructions", "www.debian.org/Bugs/Reporting"], answer) == [True, True]
    assert "[" not in normalise(answer)


# --------------------------------------------------------------------------- the outcomes
@pytest.mark.parametrize("refuse, refused, found_, expected", [
    (False, False, [True, True], "right"),
    (False, False, [True, False], "partial"),
    (False, False, [False, False], "wrong"),
    (False, True, [], "false_refusal"),
    (False, False, [], "unjudged"),
    (True, True, [], "correct_refusal"),
    (True, False, [], "answered_unanswerable"),
])
def test_outcome_of_each_case(refuse, refused, found_, expected):
    assert outcome(refuse, refused, found_) == expected


def test_hand_made_answers_get_their_outcome():
    facts = [Fact(["dpkg --search", "dlocate -S"]), Fact("/var/lib/dpkg/info")]
    cases = {
        "Run `dpkg --search foo`; it reads the .list files of /var/lib/dpkg/info/.": "right",
        "dlocate -S foo is faster.": "partial",
        "Ask on the mailing list [debian-faq/en/support.en.html:70-91].": "wrong",
    }
    for answer, expected in cases.items():
        assert outcome(False, False, facts_in_answer(facts, answer)) == expected, answer


def test_outcome_table_counts_add_up_per_group():
    rows = [{"id": "a", "lang": "en", "type": "command", "refuse": False, "outcome": "right"},
            {"id": "b", "lang": "fr", "type": "command", "refuse": False, "outcome": "wrong"},
            {"id": "c", "lang": "fr", "type": "reason", "refuse": True,
             "outcome": "correct_refusal"},
            {"id": "d", "lang": None, "type": "reason", "refuse": False,
             "outcome": "false_refusal"}]
    overall = outcome_table(rows)
    assert overall["n"] == 4 and overall["n_answerable"] == 3 and overall["n_refuse"] == 1
    assert overall["counts"] == {"right": 1, "wrong": 1, "false_refusal": 1,
                                 "correct_refusal": 1}
    assert overall["shares"]["right"] == 0.25
    per_lang = outcome_table(rows, "lang")
    assert set(per_lang) == {"en", "fr", "-"}
    assert per_lang["fr"]["counts"] == {"right": 0, "wrong": 1, "correct_refusal": 1}
    assert sum(g["n"] for g in per_lang.values()) == 4


# ---------------------------------------------------------------------- the file format
def test_facts_alternatives_and_lang_load(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(
        '- id: hold\n  question: "How do I hold a package?"\n  type: procedure\n'
        '  lang: fr-en\n  relevant: [{path: a.html}]\n'
        '  facts: [["apt-mark hold", "aptitude hold"], "dpkg --set-selections"]\n'
        '- id: none\n  question: "flatpak?"\n  refuse: true\n  absent: [flatpak]\n', "utf-8")
    hold, none = load_reference(path)
    assert hold.lang == "fr-en" and none.lang is None
    assert [f.alternatives for f in hold.facts] == [("apt-mark hold", "aptitude hold"),
                                                    ("dpkg --set-selections",)]
    assert hold.facts[0] == "apt-mark hold"  # a fact still reads as its first wording
    assert none.absent == ["flatpak"] and none.facts == []


@pytest.mark.parametrize("facts", ["[[]]", "[{a: 1}]", '"one string"'])
def test_malformed_facts_name_the_question(tmp_path, facts):
    path = tmp_path / "q.yaml"
    path.write_text(f'- question: "q"\n  relevant: [{{path: a.md}}]\n  facts: {facts}\n',
                    "utf-8")
    with pytest.raises(InvalidInput, match="question 1"):
        load_reference(path)


def test_the_example_reference_file_still_loads():
    questions = load_reference(EXAMPLES / "questions.yaml")
    assert len(questions) == 51 and all(q.lang is None for q in questions)
    indemnite = next(q for q in questions if q.id == "tele-indemnite")
    assert [f.alternatives for f in indemnite.facts] == [("2,60 €",), ("26 €",)]


# -------------------------------------------------------------- end to end on real files
@pytest.fixture(scope="module")
def faq_index(tmp_path_factory):
    if not all((PYTHON_FAQ / page).is_file() for page in FAQ_PAGES):
        pytest.skip(f"python3-doc's FAQ pages are not installed under {PYTHON_FAQ} "
                    "(apt-get install python3-doc)")
    root = tmp_path_factory.mktemp("faq")
    corpus = root / "python" / "faq"
    corpus.mkdir(parents=True)
    for page in FAQ_PAGES:
        shutil.copyfile(PYTHON_FAQ / page, corpus / page)
    path = root / "index.sqlite"
    with open_index(path) as index:
        index.ingest([root / "python"])
    questions = root / "questions.yaml"
    questions.write_text("""
- id: name
  question: "Why is the language called Python?"
  type: reason
  lang: en
  relevant: [{path: faq/general.html, section: "Why is it called Python"}]
  facts: ["Monty Python"]
- id: psf
  question: "Qu'est-ce que la Python Software Foundation ?"
  type: definition
  lang: fr-en
  relevant: [{path: faq/general.html, section: "Python Software Foundation"}]
  facts: ["non-profit", ["copyright", "holds the copyright"]]
- id: installed
  question: "Why is Python installed on my machine when I never installed it?"
  type: reason
  lang: en
  relevant: [{path: faq/installed.html}]
  facts: ["third-party application"]
- id: grub
  question: "How do I make GRUB boot my previous kernel?"
  type: procedure
  lang: en
  refuse: true
""", "utf-8")
    return path, questions


def test_outcomes_on_a_real_index_add_up(faq_index):
    path, questions = faq_index
    with open_index(path) as index:
        report = evaluate_answers(index, questions)
    rows = report.per_question
    assert [r["id"] for r in rows] == ["name", "psf", "installed", "grub"]
    for r in rows:
        assert r["outcome"] in OUTCOMES
        assert {"lang", "type", "facts_missing", "top_hit", "answer"} <= set(r)
        expected = outcome(r["refuse"], r["refused"],
                           [] if r["refused"] else [True] * r["facts_found"]
                           + [False] * (r["facts"] - r["facts_found"]))
        assert r["outcome"] == expected, r
        assert len(r["facts_missing"]) == (0 if r["refused"] else r["facts"] - r["facts_found"])
    outcomes = report.outcomes
    overall = outcomes["overall"]
    assert overall["n"] == 4 and overall["n_answerable"] == 3 and overall["n_refuse"] == 1
    assert sum(overall["counts"].values()) == 4
    assert abs(sum(overall["shares"].values()) - 1) < 0.01
    for key in ("per_lang", "per_type"):
        groups = outcomes[key]
        assert sum(g["n"] for g in groups.values()) == 4
        for g in groups.values():
            assert sum(g["counts"].values()) == g["n"]
    assert set(outcomes["per_lang"]) == {"en", "fr-en"}
    assert set(outcomes["per_type"]) == {"reason", "definition", "procedure"}
    assert [m["id"] for m in outcomes["missed"]] == [
        r["id"] for r in rows if r["outcome"] not in GOOD_OUTCOMES]
    for m in outcomes["missed"]:
        assert m["question"] and len(m["answer"]) <= 200
    metrics = report.metrics  # the older keys other code reads are still there
    assert {"answered", "correct_refusals", "wrong_refusals", "citation_validity",
            "cites_relevant", "facts_found", "n_answerable", "n_refuse"} <= set(metrics)


def test_eval_answers_cli_prints_and_dumps_the_outcomes(faq_index):
    path, questions = faq_index
    result = run_cli("eval", str(questions), "--answers", "--index", str(path), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["outcomes"]["overall"]["n"] == 4
    assert len(report["per_question"]) == 4
    result = run_cli("eval", str(questions), "--answers", "--index", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("outcomes"))
    assert "answerable" in header and "to refuse" in header and "right %" in header
    for label in ("all", "lang en", "lang fr-en", "type reason", "type definition"):
        assert any(line.startswith(label + " ") for line in lines), label
    missed = len(report["outcomes"]["missed"])
    assert (f"missed ({missed}):" in result.stdout) == bool(missed)
