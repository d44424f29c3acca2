"""The evaluation report people look at: `preuve eval FILE --report report.html`.

`collect` runs the evaluation of a reference file (every method asked, the answers of the
default method when the file has gold answers) and gathers what an operator reads: the
metrics per method, per question type, the default against the best single method, the
answer outcomes, the refusal judgment's numbers against the outcome, and for each missed
question its top passages and why it was missed; `collect_collection` does the same for a
public collection (retrieval only, in its own eval index). `compare` sets a previous run's
data beside it (what improved, what regressed); `render` writes one self-contained HTML
page (inline CSS and SVG charts drawn here, no script, nothing fetched). The data is
written beside the page as JSON: the `--against` of the next run.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from html import escape
from pathlib import Path

from preuve.errors import InvalidInput, NoSuchFile
from preuve.evaluate import charts
from preuve.evaluate.answers import (
    GOOD_OUTCOMES,
    OUTCOMES,
    evaluate_answers,
    without_citations,
)
from preuve.evaluate.datasets import DEFAULT_TYPE
from preuve.evaluate.reference import RefQuestion, load_reference
from preuve.evaluate.run import (
    collection_index,
    default_versus_best,
    evaluate_collection,
    evaluate_reference,
    is_reference_file,
    ranked_records,
    record_depth,
)
from preuve.index import Index, shown_location

DEEP = 100  # how deep a missed question's relevant passage is looked for
TOP = 3  # passages shown for a missed question
FORMAT = "preuve-eval-report/1"


def _expected(question: RefQuestion) -> list[str]:
    out = []
    for rel in question.relevant:
        where = (f" p. {rel.page}" if rel.page is not None else
                 f":{rel.lines[0]}-{rel.lines[1]}" if rel.lines else
                 f" § {rel.section}" if rel.section else "")
        out.append(rel.path + where)
    return out


def _why_missed(index: Index, question: RefQuestion, method: str, k: int,
                found_by: list[str]) -> str:
    """Why no relevant passage reached the top k: ranked lower, outside what the question's
    audience and date may read, nowhere near, or not indexed at all."""
    filters = {"as_of": question.as_of or "today", "audience": question.audience}
    deep = index.search(question.question, method=method, k=DEEP, **filters)
    rank = next((h.rank for h in deep if any(r.matches(h) for r in question.relevant)), None)
    others = f"; found in the top {k} by {', '.join(found_by)}" if found_by else ""
    if rank is not None:
        return f"a relevant passage is ranked {rank}, below the top {k}{others}"
    everything = index.search(question.question, method=method, k=DEEP, as_of="none")
    if any(any(r.matches(h) for r in question.relevant) for h in everything):
        return ("the relevant passage is not readable under this question's audience or "
                f"as-of date (check the reference){others}")
    held = {d.path for d in index.documents()}
    absent = [r.path for r in question.relevant if r.path not in held]
    if absent:
        return f"not in the index: {', '.join(absent)}"
    return f"no relevant passage in the top {DEEP}: the question's words do not reach it{others}"


def collect(target: str | Path, index: Index, methods: list[str], k: int = 10,
            answers: bool | None = None) -> dict:
    """Everything the report of a reference file shows, as plain data (JSON-serialisable).
    `methods`: the methods to compare (the index's default is added when missing);
    `answers`: evaluate the default method's answers (None: when the file has facts or
    refuse questions)."""
    if not is_reference_file(target):
        raise InvalidInput(f"{target}: not a reference file (.yaml/.jsonl); a collection's "
                           "report is `collect_collection`")
    questions = load_reference(target)
    default = index.engine.default_method()
    names = list(dict.fromkeys([default, *methods]))
    reports = {m: evaluate_reference(index, target, m, k) for m in names}
    by_id = {q.id: q for q in questions}
    missed = []
    for qid in reports[default].missed:
        question = by_id[qid]
        hits = index.search(question.question, method=default, k=TOP,
                            as_of=question.as_of or "today", audience=question.audience)
        missed.append({
            "id": qid, "question": question.question, "type": question.type,
            "audience": question.audience, "as_of": question.as_of,
            "expected": _expected(question),
            "why": _why_missed(index, question, default, k, _found_by(reports, default, qid)),
            "top": [_passage(h) for h in hits]})
    if answers is None:
        answers = any(q.facts or q.refuse for q in questions)
    answer_data = None
    if answers:
        report = evaluate_answers(index, target, method=default)
        answer_data = {"metrics": report.metrics, "outcomes": report.outcomes,
                       "calibrated": index.calibration.thresholds(),
                       "per_question": [{key: r.get(key) for key in (
                           "id", "type", "lang", "refuse", "refused", "outcome", "reason",
                           "evidence", "judgment", "facts_missing", "top_hit", "answer")}
                           for r in report.per_question]}
    return _data(target, index, k, default, reports, missed, answer_data,
                 {q.id: {"question": q.question, "type": q.type, "lang": q.lang}
                  for q in questions})


def collect_collection(target: str | Path, methods: list[str], k: int = 10, *,
                       index: str | None = None, embedder: str | None = None,
                       settings=None, progress: bool = False) -> dict:
    """The report's data for a collection (BEIR folder, SQuAD/PIAF .json, Cranfield
    folder), scored in its own eval index as `eval --json` scores it: retrieval per method
    and per question type, the default's missed questions with their top records and why.
    No answers (a collection's answer metrics are `eval --answers`)."""
    with collection_index(target, methods or [None], index=index, embedder=embedder,
                          progress=progress, settings=settings) as (own, evalset):
        default = own.engine.default_method()
        names = list(dict.fromkeys([default, *methods]))
        reports = {m: evaluate_collection(own, evalset, m, k) for m in names}
        by_id = {q.id: q for q in evalset.queries}
        titles = {r.id: r.title for r in evalset.corpus}
        missed = []
        for qid in reports[default].missed:
            query = by_id.get(qid)
            if query is None:  # judged but not asked: nothing to show but the id
                continue
            relevant = {d for d, gain in evalset.qrels[qid].items() if gain > 0}
            records, hits = ranked_records(own, query.text, default, record_depth(k))
            found_by = _found_by(reports, default, qid)
            why = _why_record_missed(own, query.text, default, k, relevant, records, found_by)
            missed.append({
                "id": qid, "question": query.text, "type": query.type, "audience": None,
                "as_of": None, "why": why,
                "expected": [f"{d} ({titles[d]})" if titles.get(d) else d
                             for d in sorted(relevant)],
                "top": [_passage(h) for h in hits[:TOP]]})
        return _data(target, own, k, default, reports, missed, None,
                     {q.id: {"question": q.text, "type": q.type, "lang": evalset.language}
                      for q in evalset.queries})


def _why_record_missed(index: Index, text: str, method: str, k: int, relevant: set[str],
                       records: list[str], found_by: list[str]) -> str:
    """Why no relevant record reached the top k: where the evaluation's own ranking puts
    it, else where a deeper search finds it, else that the words do not reach it."""
    others = f"; found in the top {k} by {', '.join(found_by)}" if found_by else ""
    rank = next((n for n, r in enumerate(records, 1) if r in relevant), None)
    if rank is not None:
        return f"a relevant record is ranked {rank}, below the top {k}{others}"
    deeper, _ = ranked_records(index, text, method, DEEP * 2)
    rank = next((n for n, r in enumerate(deeper, 1) if r in relevant), None)
    if rank is not None:
        return (f"no relevant record among the {len(records)} ranked; a search of "
                f"{DEEP * 2} passages finds one at rank {rank}{others}")
    return (f"no relevant record in a search of {DEEP * 2} passages: the question's words "
            f"do not reach it{others}")


def _found_by(reports: dict, default: str, qid: str) -> list[str]:
    return [m for m, r in reports.items() if m != default and qid not in r.missed]


def _passage(hit) -> dict:
    return {"label": hit.shown_label, "score": round(float(hit.score), 4),
            "text": hit.preview(0)[:300]}


def _data(target, index: Index, k: int, default: str, reports: dict, missed: list,
          answers: dict | None, questions: dict) -> dict:
    key = f"ndcg@{k}"
    others = {m: r.metrics[key] for m, r in reports.items() if m != default}
    best = max(others, key=lambda m: (others[m], m == "dense")) if others else None
    return {
        "format": FORMAT, "target": str(target),
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "index": shown_location(index.location), "k": k, "default": default, "best": best,
        "versus": default_versus_best(reports, default, k),
        "questions": questions,
        "retrieval": {m: r.to_dict() for m, r in reports.items()},
        "missed": missed, "answers": answers,
    }


def load_data(path: str | Path) -> dict:
    """A report's data written by an earlier run (`report.json`)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise NoSuchFile(f"{path}: no such file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"{path}: not a report's JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(f"{path}: not the JSON of `preuve eval --report` "
                           f"(expected format {FORMAT})")
    return data


def compare(current: dict, previous: dict) -> dict:
    """What changed from `previous` to `current`: each metric of each method both ran,
    the questions a method now finds or no longer finds in the top k, and the answers
    whose outcome became good or bad."""
    k = current["k"]
    metrics, improved, regressed = {}, [], []
    for method, now in current["retrieval"].items():
        before = previous.get("retrieval", {}).get(method)
        if before is None:
            continue
        metrics[method] = {name: [before["metrics"].get(name), value]
                           for name, value in now["metrics"].items()}
        hit = f"hit@{k}"
        for qid, scores in now["per_query"].items():
            old = before.get("per_query", {}).get(qid)
            if old is None or old.get(hit) == scores.get(hit):
                continue
            (improved if scores.get(hit, 0) > old.get(hit, 0) else regressed).append(
                {"id": qid, "what": f"{method} retrieval",
                 "before": f"{hit} {old.get(hit, 0):.0f}",
                 "after": f"{hit} {scores.get(hit, 0):.0f}"})
    if current.get("answers") and previous.get("answers"):
        old = {r["id"]: r["outcome"] for r in previous["answers"]["per_question"]}
        for row in current["answers"]["per_question"]:
            was = old.get(row["id"])
            if was is None or was == row["outcome"]:
                continue
            good_now, good_then = row["outcome"] in GOOD_OUTCOMES, was in GOOD_OUTCOMES
            entry = {"id": row["id"], "what": "answer", "before": was, "after": row["outcome"]}
            if good_now and not good_then:
                improved.append(entry)
            elif good_then and not good_now:
                regressed.append(entry)
            else:  # e.g. wrong -> partial: better or worse by the order of OUTCOMES
                (improved if OUTCOMES.index(row["outcome"]) < OUTCOMES.index(was)
                 else regressed).append(entry)
    return {"previous": {"created_at": previous.get("created_at"),
                         "target": previous.get("target")},
            "metrics": metrics, "improved": improved, "regressed": regressed}


# ----------------------------------------------------------------------------- rendering
CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 1100px;
       color: #1d2330; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; border-bottom:
       1px solid #dde; } .meta { color: #555; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid #dde; padding: .25rem .5rem; text-align: left; vertical-align: top;
         max-width: 26rem; overflow-wrap: anywhere; }
th { overflow-wrap: normal; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.default td { background: #eef4fb; font-weight: 600; }
.verdict { font-size: 1.05rem; background: #f4f4f0; padding: .5rem .8rem; }
.passage { color: #444; font-size: .85rem; }
.why { color: #845; } .up { color: #2a7d2a; } .down { color: #b00; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; }
code { background: #f0f0f0; padding: 0 .2rem; }
"""


def _table(head: list[str], rows: list[list], numeric: set[int] = frozenset(),
           row_class: list[str] | None = None) -> str:
    out = ["<table><tr>" + "".join(
        f'<th class="{"num" if i in numeric else ""}">{escape(h)}</th>'
        for i, h in enumerate(head)) + "</tr>"]
    for r, row in enumerate(rows):
        cls = f' class="{row_class[r]}"' if row_class and row_class[r] else ""
        out.append(f"<tr{cls}>" + "".join(
            f'<td class="{"num" if i in numeric else ""}">{cell}</td>'
            for i, cell in enumerate(row)) + "</tr>")
    return "\n".join(out) + "</table>"


def _num(value) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def _retrieval_section(data: dict) -> str:
    k, default = data["k"], data["default"]
    reports = data["retrieval"]
    names = list(next(iter(reports.values()))["metrics"])
    rows = [[escape(m) + (" (default)" if m == default else "")]
            + [_num(r["metrics"][n]) for n in names] + [str(len(r["missed"]))]
            for m, r in reports.items()]
    parts = ["<h2>Retrieval</h2>",
             f"<p>{reports[default]['n_questions']} questions with a judged passage; "
             f"a question is missed when no relevant passage is in the top {k}.</p>",
             _table(["method", *names, "missed"], rows, set(range(1, len(names) + 2)),
                    ["default" if m == default else "" for m in reports])]
    if data.get("versus"):
        parts.append(f'<p class="verdict">{escape(data["versus"])}</p>')
    types = list(reports[default]["per_type"])
    if types == [DEFAULT_TYPE]:
        parts.append("<p>These questions have no type (the collection gives none): one "
                     "bar per method over all questions.</p>")
    key = f"ndcg@{k}"
    series = {m: [r["per_type"].get(t, {}).get(key) for t in types] for m, r in reports.items()}
    notes = [f"n={reports[default]['per_type'][t]['n']}" for t in types]
    parts.append('<div class="charts">' + charts.grouped_bars(
        types, series, title=f"{key} by question type and method", notes=notes,
        highlight=default) + charts.grouped_bars(
        types, {m: [r["per_type"].get(t, {}).get(f"hit@{k}") for t in types]
                for m, r in reports.items()},
        title=f"hit@{k} by question type and method", notes=notes, highlight=default)
        + "</div>")
    return "\n".join(parts)


def _missed_section(data: dict) -> str:
    missed = data["missed"]
    parts = [f"<h2>Missed by the default method ({escape(data['default'])}): "
             f"{len(missed)}</h2>"]
    if not missed:
        return parts[0] + "<p>None: every question has a relevant passage in the top "\
                          f"{data['k']}.</p>"
    rows = []
    for m in missed:
        top = "".join(f"<li><code>{escape(t['label'])}</code> {t['score']:.3f}"
                      f'<div class="passage">{escape(t["text"][:220])}</div></li>'
                      for t in m["top"]) or "<li>no passage</li>"
        rows.append([f"<b>{escape(m['id'])}</b><br>{escape(m['question'])}<br>"
                     f"<small>{escape(m['type'])}"
                     + (f" · {escape(m['audience'])}" if m["audience"] else "")
                     + (f" · as of {escape(m['as_of'])}" if m["as_of"] else "") + "</small>",
                     "<br>".join(f"<code>{escape(e)}</code>" for e in m["expected"]),
                     f'<span class="why">{escape(m["why"])}</span>', f"<ol>{top}</ol>"])
    parts.append(_table(["question", "expected", "why", f"top {TOP} passages"], rows))
    return "\n".join(parts)


def _judgment_points(rows: list[dict]) -> tuple[list[dict], dict]:
    points, defaults = [], {}
    for r in rows:
        numbers = (r.get("judgment") or {}).get("numbers") or {}
        defaults = defaults or (r.get("judgment") or {}).get("defaults") or {}
        if numbers.get("coverage") is None:
            continue
        good = r["outcome"] in GOOD_OUTCOMES
        points.append({"x": numbers["coverage"], "y": numbers.get("dense"),
                       "colour": "#4e9a06" if good else "#cc0000", "filled": r["refused"],
                       "label": f"{r['id']} ({r['outcome']}): coverage "
                                f"{numbers['coverage']}, dense {numbers.get('dense')}"})
    return points, defaults


def _answers_section(data: dict) -> str:
    answers = data.get("answers")
    if not answers:
        return ""
    outcomes, metrics = answers["outcomes"], answers["metrics"]
    order = tuple(o for o in OUTCOMES)
    groups = ["all", *outcomes["per_type"]]
    counts = [outcomes["overall"]["counts"]] + [v["counts"] for v in
                                                outcomes["per_type"].values()]
    parts = [f"<h2>Answers ({escape(data['default'])})</h2>",
             _table(["measure", "value"], [[escape(n), _num(v)] for n, v in metrics.items()],
                    {1}),
             charts.stacked_bars(groups, counts, title="Answer outcomes by question type",
                                 order=order)]
    points, defaults = _judgment_points(answers["per_question"])
    if points:
        x_lines = {n: float(defaults[n]) for n in ("coverage_min", "coverage_floor")
                   if isinstance(defaults.get(n), int | float) and 0 <= defaults[n] <= 1}
        dense = [p["y"] for p in points if p["y"] is not None]
        y_lines = {n: float(defaults[n]) for n in ("dense_floor", "dense_sure")
                   if dense and isinstance(defaults.get(n), int | float)
                   and min(dense) - 0.1 <= defaults[n] <= max(dense) + 0.1}
        calibrated = (answers.get("calibrated") or {}).get("dense")
        if dense and calibrated is not None:  # `preuve calibrate` decides alone then
            y_lines["calibrated"] = float(calibrated)
        y_range = (min([*dense, *y_lines.values()]) - 0.02,
                   max([*dense, *y_lines.values()]) + 0.02) if dense else (0.0, 1.0)
        bad = [r for r in answers["per_question"] if r["outcome"] not in GOOD_OUTCOMES]
        wrongly_refused = sum(r["outcome"] == "false_refusal" for r in bad)
        wrongly_answered = sum(r["outcome"] == "answered_unanswerable" for r in bad)
        parts.append("<h3>The refusal judgment against the outcome</h3>"
                     "<p>Each question at its judgment's numbers: green when the outcome "
                     "is good (right, or rightly refused), red otherwise; a filled point "
                     f"was refused. {wrongly_refused} answerable questions were refused, "
                     f"{wrongly_answered} to refuse were answered. Dashed lines: the "
                     "judgment's thresholds.</p>")
        parts.append(charts.scatter(points, title="Refusal judgment: coverage and dense "
                                    "evidence", x_label="coverage of the question's words",
                                    y_label="dense evidence" if dense else None,
                                    x_lines=x_lines, y_lines=y_lines, y_range=y_range))
    missed = outcomes.get("missed") or []
    if missed:
        reasons = {r["id"]: r.get("reason") for r in answers["per_question"]}
        full = {r["id"]: r.get("answer") or "" for r in answers["per_question"]}
        rows = [[f"<b>{escape(m['id'])}</b><br>{escape(m['question'])}",
                 escape(m["outcome"].replace("_", " ")),
                 escape(", ".join(m["facts_missing"]) or "-"),
                 escape(reasons.get(m["id"]) or "-"),
                 f"<code>{escape(m['top_hit'] or '-')}</code>",
                 f'<span class="passage">{escape(_plain(full.get(m["id"]) or m["answer"]))}</span>']
                for m in missed]
        parts.append(f"<h3>Answers not right ({len(missed)})</h3>")
        parts.append(_table(["question", "outcome", "facts missing", "reason", "top passage",
                             "answer"], rows))
    return "\n".join(parts)


def _plain(answer: str, limit: int = 200) -> str:
    """An answer's text without its citation markers and links (the top passage column
    says where it came from), shortened."""
    text = re.sub(r"\[([^\]\n]*)\]\([^)\s]*\)", r"\1", answer)  # a link as its text
    text = " ".join(without_citations(text).split())
    return text if len(text) <= limit else text[:limit].rstrip() + " …"


def _comparison_section(data: dict) -> str:
    diff = data.get("comparison")
    if not diff:
        return ""
    previous = diff["previous"]
    parts = [f"<h2>Against the run of {escape(str(previous.get('created_at')))}</h2>"]
    names = list(dict.fromkeys(n for values in diff["metrics"].values() for n in values))
    rows = []
    for method, values in diff["metrics"].items():
        cells = []
        for name in names:
            before, after = values.get(name, [None, None])
            if before is None or after is None:
                cells.append(_num(after))
                continue
            delta = after - before
            cls = "up" if delta > 0.0005 else "down" if delta < -0.0005 else ""
            cells.append(f'{before:.3f} → {after:.3f} <span class="{cls}">({delta:+.3f})'
                         "</span>")
        rows.append([escape(method), *cells])
    parts.append(_table(["method", *names], rows, set(range(1, len(names) + 1))))
    for title, entries, cls in (("Improved", diff["improved"], "up"),
                                ("Regressed", diff["regressed"], "down")):
        parts.append(f'<h3 class="{cls}">{title} ({len(entries)})</h3>')
        if entries:
            parts.append(_table(["question", "what", "before", "after"], [
                [escape(e["id"]), escape(e["what"]), escape(e["before"]), escape(e["after"])]
                for e in entries]))
    return "\n".join(parts)


def render(data: dict) -> str:
    """The report as one HTML page (no script, no external resource)."""
    n = len(data["questions"])
    return "\n".join([
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>preuve evaluation: {escape(Path(data['target']).name)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Evaluation of {escape(data['target'])}</h1>",
        f'<p class="meta">{n} questions · index {escape(data["index"])} · default method '
        f"<b>{escape(data['default'])}</b> · k = {data['k']} · {escape(data['created_at'])}"
        "</p>",
        _comparison_section(data), _retrieval_section(data), _answers_section(data),
        _missed_section(data), "</body></html>"])


def write(data: dict, path: str | Path) -> tuple[Path, Path]:
    """Write the page at `path` and its data beside it (`.json`); returns both paths."""
    page = Path(path)
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(render(data), encoding="utf-8")
    beside = page.with_suffix(".json")
    beside.write_text(json.dumps(data, ensure_ascii=False, indent=1, default=str),
                      encoding="utf-8")
    return page, beside
