"""`preuve eval FILE --report report.html` (issue 24): one self-contained page (no script,
nothing fetched) drawn from the same numbers `eval --json` prints, the missed questions
with their passages and why, `--against` an earlier run naming what regressed, and
`/eval` for admin keys only."""

from __future__ import annotations

import json
import re

import httpx
import yaml
from conftest import EXAMPLES, UNLIMITED, copy_index, run_cli

from preuve.server.app import create_app
from preuve.server.runner import ServerThread

QUESTIONS = EXAMPLES / "questions.yaml"


def test_report_is_self_contained_and_says_what_eval_says(sqlite_index_path, tmp_path):
    index = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    page = tmp_path / "out" / "report.html"
    made = run_cli("eval", str(QUESTIONS), "--index", str(index), "--report", str(page),
                   timeout=300)
    assert made.returncode == 0, made.stderr
    html = page.read_text("utf-8")
    data = json.loads(page.with_suffix(".json").read_text("utf-8"))
    # nothing to fetch: no script, no stylesheet or image link, no URL but SVG's namespace
    assert "<script" not in html and "<link" not in html and " src=" not in html
    assert set(re.findall(r"https?://[^\s\"'<]+", html)) <= {"http://www.w3.org/2000/svg"}
    assert html.count("<svg") >= 3  # per-type bars (two), outcomes, judgment scatter
    # the same numbers as `preuve eval --json`
    plain = json.loads(run_cli("eval", str(QUESTIONS), "--index", str(index), "--json",
                               timeout=300).stdout)
    assert data["default"] == "bm25"  # a keyword-only index
    assert data["retrieval"]["bm25"]["metrics"] == plain["metrics"]
    assert f"{plain['metrics']['ndcg@10']:.3f}" in html
    for qtype in plain["per_type"]:
        assert f">{qtype}</text>" in html
    # every missed question is shown with its top passages and a reason
    assert [m["id"] for m in data["missed"]] == plain["missed"] and plain["missed"]
    for missed in data["missed"]:
        assert missed["id"] in html and missed["top"] and missed["why"]
    # answer outcomes, one per question, and the judgment's numbers for the scatter
    outcomes = data["answers"]["outcomes"]["overall"]
    assert sum(outcomes["counts"].values()) == len(yaml.safe_load(QUESTIONS.read_text()))
    assert any(r["judgment"]["numbers"].get("coverage") is not None
               for r in data["answers"]["per_question"])
    assert "The refusal judgment against the outcome" in html


def test_against_an_earlier_run_names_what_regressed(sqlite_index_path, tmp_path):
    index = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    entries = yaml.safe_load(QUESTIONS.read_text("utf-8"))
    kept = [e for e in entries if e.get("relevant") and not e.get("refuse")][:12]
    first = tmp_path / "q1.yaml"
    first.write_text(yaml.safe_dump(kept, allow_unicode=True), "utf-8")
    before = tmp_path / "r1.html"
    assert run_cli("eval", str(first), "--index", str(index), "--report", str(before),
                   timeout=300).returncode == 0
    old = json.loads(before.with_suffix(".json").read_text("utf-8"))
    found = [q for q, s in old["retrieval"]["bm25"]["per_query"].items() if s["hit@10"] == 1]
    # the same questions, one of them now judged against a passage that is not there
    broken = found[0]
    for entry in kept:
        if entry["id"] == broken:
            entry["relevant"] = [{"path": "handbook/conges.md", "lines": [9000, 9001]}]
    second = tmp_path / "q2.yaml"
    second.write_text(yaml.safe_dump(kept, allow_unicode=True), "utf-8")
    after = tmp_path / "r2.html"
    made = run_cli("eval", str(second), "--index", str(index), "--report", str(after),
                   "--against", str(before.with_suffix(".json")), timeout=300)
    assert made.returncode == 0, made.stderr
    assert "0 improved, 1 regressed" in made.stdout
    diff = json.loads(after.with_suffix(".json").read_text("utf-8"))["comparison"]
    assert [r["id"] for r in diff["regressed"] if r["what"] == "bm25 retrieval"] == [broken]
    ndcg_before, ndcg_after = diff["metrics"]["bm25"]["ndcg@10"]
    assert ndcg_after < ndcg_before
    html = after.read_text("utf-8")
    assert "Regressed (1" in html and broken in html
    bad = run_cli("eval", str(second), "--index", str(index), "--report", str(after),
                  "--against", str(first))  # a questions file is not a report's data
    assert bad.returncode == 2 and "not a report" in bad.stderr.lower()
    assert "Traceback" not in bad.stderr


def test_eval_page_is_for_admin_keys(sqlite_index_path, tmp_path):
    index = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    keys = {"pub": "public", "adm": "admin"}
    app = create_app(index, {"api_keys": keys, **UNLIMITED})
    with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        none_yet = http.get("/eval", headers={"X-API-Key": "adm"})
        assert none_yet.status_code == 404 and "preuve eval" in none_yet.json()["error"]
        page = tmp_path / "r.html"
        kept = [e for e in yaml.safe_load(QUESTIONS.read_text("utf-8"))
                if e.get("relevant")][:5]
        questions = tmp_path / "q.yaml"
        questions.write_text(yaml.safe_dump(kept, allow_unicode=True), "utf-8")
        made = run_cli("eval", str(questions), "--index", str(index), "--report", str(page),
                       timeout=300)
        assert made.returncode == 0, made.stderr
        assert http.get("/eval", headers={"X-API-Key": "pub"}).status_code == 403
        assert http.get("/eval").status_code == 401
        shown = http.get("/eval", headers={"X-API-Key": "adm"})
        assert shown.status_code == 200 and shown.headers["content-type"].startswith(
            "text/html")
        assert shown.text == page.read_text("utf-8")
        # an admin opens it in the browser with the page's cookie; a public cookie cannot
        for key, status in (("adm", 200), ("pub", 403)):
            with httpx.Client(base_url=url, cookies={"preuve_key": key}) as browser:
                assert browser.get("/eval").status_code == status


def test_the_judgment_chart_draws_the_calibrated_threshold(sqlite_index_path, tmp_path):
    from preuve.evaluate.report import load_data, render

    index = copy_index(sqlite_index_path, tmp_path / "index.sqlite")
    page = tmp_path / "r.html"
    assert run_cli("eval", str(QUESTIONS), "--index", str(index), "--report", str(page),
                   timeout=300).returncode == 0
    data = load_data(page.with_suffix(".json"))
    assert "calibrated" not in render(data)  # a keyword index has no dense evidence
    # the same rows as an index with vectors would give them, calibrated at 0.85
    for n, row in enumerate(data["answers"]["per_question"]):
        row["judgment"]["numbers"]["dense"] = 0.8 + n * 0.002
    data["answers"]["calibrated"] = {"dense": 0.85}
    chart = render(data)
    assert "calibrated 0.85" in chart and "dense evidence" in chart


def _beir(folder, records, questions):
    """A BEIR-layout collection: corpus.jsonl, queries.jsonl, qrels/test.tsv."""
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": rid, "title": title, "text": text}) + "\n"
        for rid, title, text in records), "utf-8")
    (folder / "queries.jsonl").write_text("".join(
        json.dumps({"_id": qid, "text": text}) + "\n" for qid, text, _ in questions), "utf-8")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{qid}\t{rid}\t1\n" for qid, _, rid in questions), "utf-8")
    return folder


def test_report_of_a_collection_says_what_eval_json_says(tmp_path):
    records = [("d1", "Tortoise care", "A tortoise hibernates in winter under dry leaves."),
               ("d2", "Bread", "Knead the dough ten minutes, then let it rise for an hour."),
               ("d3", "Bicycles", "Oil the chain of a bicycle every few hundred kilometres."),
               ("d4", "Tea", "Green tea steeps for two minutes in water below boiling.")]
    questions = [("q1", "when does a tortoise hibernate", "d1"),
                 ("q2", "how long should dough rise", "d2"),
                 ("q3", "how often to oil a bicycle chain", "d3"),
                 # judged on the tea record but worded for the bread one: missed at k=1
                 ("q4", "knead the dough ten minutes", "d4")]
    collection = _beir(tmp_path / "tiny-beir", records, questions)
    index = str(tmp_path / "main.sqlite")
    page = tmp_path / "report.html"
    made = run_cli("eval", str(collection), "--index", index, "--method", "bm25", "-k", "1",
                   "--report", str(page), timeout=300)
    assert made.returncode == 0, made.stderr
    assert "missed by bm25: 1 of 4" in made.stdout and "/eval" not in made.stdout
    plain = json.loads(run_cli("eval", str(collection), "--index", index, "--method", "bm25",
                               "-k", "1", "--json", timeout=300).stdout)
    data = json.loads(page.with_suffix(".json").read_text("utf-8"))
    assert data["retrieval"]["bm25"]["metrics"] == plain["metrics"]
    assert data["retrieval"]["bm25"]["per_query"] == plain["per_query"]
    assert [m["id"] for m in data["missed"]] == plain["missed"] == ["q4"]
    html = page.read_text("utf-8")
    assert "<script" not in html and html.count("<svg") >= 2
    assert f"{plain['metrics']['ndcg@1']:.3f}" in html
    assert "have no type (the collection gives none)" in html
    # the missed question: its judged record, the record ranked above it, and why
    missed = data["missed"][0]
    assert missed["expected"] == ["d4 (Tea)"] and missed["top"][0]["label"].startswith("d2")
    assert missed["why"].startswith("a relevant record is ranked 2, below the top 1")
    assert "d4 (Tea)" in html and "knead the dough" in html and missed["why"] in html
    assert data["answers"] is None and "Answers (" not in html
