"""Answer evaluation and refusal calibration on a reference file.

`evaluate_answers` asks every question and reports what an operator must know before
trusting the assistant: how often it answers, refuses rightly and wrongly, whether the
citations shown are valid (must be 100 %) and point to a relevant passage, and whether
the answer is right. Each question gets one outcome (`OUTCOMES`):

* answerable: `right` (every fact found in the answer), `partial` (some), `wrong`
  (answered, none), `false_refusal` (refused), `unjudged` (answered, the question lists
  no facts);
* `refuse: true`: `correct_refusal` or `answered_unanswerable`.

A fact is found when one of its wordings occurs in the answer, both compared after
`normalise` (case, Unicode forms, apostrophes, whitespace and Markdown marks) with the
answer's citation markers taken out first, so that a cited path never counts as a fact.
`calibrate` picks the evidence threshold under which `ask` refuses."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from preuve.answer.citations import parse_citations, verify
from preuve.errors import InvalidInput
from preuve.evaluate.reference import Fact, RefQuestion, Relevant, load_reference
from preuve.index import Index
from preuve.models import ASK_K

OUTCOMES = ("right", "partial", "wrong", "false_refusal", "unjudged", "correct_refusal",
            "answered_unanswerable")
GOOD_OUTCOMES = ("right", "correct_refusal")


@dataclass
class AnswerReport:
    n_questions: int
    metrics: dict[str, float]
    per_question: list[dict] = field(default_factory=list)
    # counts and shares of each outcome: overall, per_lang, per_type; missed: the questions
    # whose outcome is neither right nor correct_refusal
    outcomes: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2010": "-",
                              "\u2011": "-", "\u00ad": None})
_MARKDOWN_LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]*)\)")
_MARKS = re.compile(r"[*_`]+|^\s{0,3}(?:#{1,6}|>)\s?", re.MULTILINE)


def normalise(text: str) -> str:
    """Text as facts are compared: NFKC, lower case, typographic apostrophes and hyphens
    made plain, Markdown emphasis/code/heading/quote marks out (`*`, `_` and backticks
    everywhere, on both sides), a link as its text and URL, whitespace runs as one space."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    text = _MARKDOWN_LINK.sub(r"\1 \2", text)
    text = _MARKS.sub("", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def without_citations(answer: str) -> str:
    """The answer with every citation marker (`[path:3-9]`, `file.pdf p. 2`, `[2]`, cited
    links) replaced by a space."""
    for c in sorted(parse_citations(answer), key=lambda c: c.span, reverse=True):
        answer = answer[:c.span[0]] + " " + answer[c.span[1]:]
    return answer


def fact_found(fact: str | Fact, normalised_text: str) -> bool:
    """Whether one wording of `fact` occurs in text already passed through `normalise`."""
    wordings = getattr(fact, "alternatives", None) or (str(fact),)
    return any(normalise(w) in normalised_text for w in wordings)


def facts_in_answer(facts: Iterable[str | Fact], answer: str) -> list[bool]:
    """For each fact, whether the answer (citations out) states it."""
    text = normalise(without_citations(answer))
    return [fact_found(f, text) for f in facts]


def outcome(refuse: bool, refused: bool, found: list[bool]) -> str:
    """One question's outcome (see the module docstring) from what was expected, whether
    the answer was a refusal and which facts it holds."""
    if refuse:
        return "correct_refusal" if refused else "answered_unanswerable"
    if refused:
        return "false_refusal"
    if not found:
        return "unjudged"
    return "right" if all(found) else "partial" if any(found) else "wrong"


def outcome_table(rows: list[dict], key: str | None = None) -> dict:
    """Counts and shares of outcomes over `rows`, or per value of `key` (`lang`, `type`;
    a missing value is "-"). Shares are of the group's questions, 3 decimals."""
    if key is None:
        counts = {name: sum(r["outcome"] == name for r in rows) for name in OUTCOMES}
        counts = {name: n for name, n in counts.items() if n or name in GOOD_OUTCOMES}
        answerable = sum(not r["refuse"] for r in rows)
        return {"n": len(rows), "n_answerable": answerable, "n_refuse": len(rows) - answerable,
                "counts": counts, "shares": {name: round(n / len(rows), 3) if rows else 0.0
                                             for name, n in counts.items()}}
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r.get(key) or "-", []).append(r)
    return {value: outcome_table(part) for value, part in sorted(groups.items())}


def summarise_outcomes(rows: list[dict], questions: list[RefQuestion]) -> dict:
    """The `outcomes` part of a report: overall, per_lang, per_type and the missed list."""
    asked = {q.id: q.question for q in questions}
    missed = [{"id": r["id"], "question": asked.get(r["id"], ""), "lang": r.get("lang"),
               "type": r["type"], "outcome": r["outcome"],
               "facts_missing": r.get("facts_missing", []), "answer": r["answer"][:200],
               "top_hit": r.get("top_hit")}
              for r in rows if r["outcome"] not in GOOD_OUTCOMES]
    return {"overall": outcome_table(rows), "per_lang": outcome_table(rows, "lang"),
            "per_type": outcome_table(rows, "type"), "missed": missed}


def _cites_relevant(citations: list[dict], relevant: list[Relevant]) -> bool:
    for c in citations:
        for rel in relevant:
            if c.get("path") != rel.path:
                continue
            if rel.page is not None and c.get("page") != rel.page:
                continue
            if rel.lines is not None and c.get("start_line") is not None:
                if c["end_line"] < rel.lines[0] or c["start_line"] > rel.lines[1]:
                    continue
            return True
    return False


def judgment_numbers(answer) -> dict:
    """The refusal judgment's numbers of an answer (coverage, dense, agreement, ... and the
    defaults they were held to, `decided_by`), without the per-word table: what the
    evaluation report plots against the outcome."""
    explain = answer.explain or {}
    judgment = explain.get("judgment") or {}
    numbers = {key: value for key, value in judgment.items()
               if value is None or isinstance(value, int | float)}
    return {"numbers": numbers, "defaults": judgment.get("defaults") or {},
            "decided_by": explain.get("decided_by")}


def evaluate_answers(index: Index, path: str | Path, *, method: str | None = None,
                     k: int = ASK_K, generator=None) -> AnswerReport:
    questions = load_reference(path)
    rows = []
    for q in questions:
        answer = index.ask(q.question, method=method, k=k, as_of=q.as_of or "today",
                           audience=q.audience, generator=generator)
        shown_valid = None
        if not answer.refused:  # re-check what is shown, independently of ask's own check
            shown_valid = verify(answer.answer, answer.hits).ok
        found = [] if answer.refused else facts_in_answer(q.facts, answer.answer)
        rows.append({
            "id": q.id, "type": q.type, "lang": q.lang, "refuse": q.refuse,
            "refused": answer.refused, "reason": answer.reason, "evidence": answer.evidence,
            "valid": shown_valid,
            "cites_relevant": (not answer.refused) and _cites_relevant(answer.citations,
                                                                        q.relevant),
            "facts_found": sum(found), "facts": len(q.facts),
            "facts_missing": [str(f) for f, ok in zip(q.facts, found, strict=True) if not ok]
            if found else [],
            "outcome": outcome(q.refuse, answer.refused, found if q.facts else []),
            "top_hit": answer.hits[0].label if answer.hits else None,
            "answer": answer.answer,
            "judgment": judgment_numbers(answer),
        })
    answerable = [r for r in rows if not r["refuse"]]
    unanswerable = [r for r in rows if r["refuse"]]
    shown = [r for r in rows if not r["refused"]]
    shown_answerable = [r for r in answerable if not r["refused"]]
    with_facts = [r for r in shown_answerable if r["facts"]]

    def rate(part, whole):
        return round(len(part) / len(whole), 3) if whole else 0.0

    metrics = {
        "answered": rate(shown, rows),
        "correct_refusals": rate([r for r in unanswerable if r["refused"]], unanswerable),
        "wrong_refusals": rate([r for r in answerable if r["refused"]], answerable),
        "citation_validity": rate([r for r in shown if r["valid"]], shown),
        "cites_relevant": rate([r for r in shown_answerable if r["cites_relevant"]],
                               shown_answerable),
        "facts_found": round(sum(r["facts_found"] / r["facts"] for r in with_facts)
                             / len(with_facts), 3) if with_facts else 0.0,
        "n_answerable": len(answerable), "n_refuse": len(unanswerable),
    }
    return AnswerReport(len(rows), metrics, rows, summarise_outcomes(rows, questions))


def calibrate(index: Index, paths: str | Path | list, *, method: str | None = None,
              k: int = ASK_K) -> dict:
    """Choose and store the threshold that best separates answerable questions from those
    marked `refuse: true` in one or more reference files (balanced accuracy; ties go to
    the lower threshold, i.e. answering)."""
    paths = [paths] if isinstance(paths, str | Path) else list(paths)
    questions: list[RefQuestion] = [q for p in paths for q in load_reference(p)]
    path = ", ".join(str(p) for p in paths)
    points, measures = [], set()
    for q in questions:
        hits = index.search(q.question, method=method, k=k, as_of=q.as_of or "today",
                            audience=q.audience)
        measure, value = index.calibration.evidence(q.question, hits,
                                                    as_of=q.as_of or "today",
                                                    audience=q.audience)
        measures.add(measure)
        points.append((value or 0.0, not q.refuse, q.id))
    positives = sum(1 for _, answerable, _ in points if answerable)
    negatives = len(points) - positives
    if not positives or not negatives:
        raise InvalidInput(f"{path}: calibration needs both answerable questions and questions "
                           "marked refuse: true")
    values = sorted({e for e, _, _ in points})
    candidates = [values[0] - 1e-6] + [(a + b) / 2 for a, b in zip(values[:-1], values[1:],
                                                                  strict=True)]
    best = None
    for t in candidates:
        tp = sum(1 for e, ok, _ in points if ok and e >= t)
        tn = sum(1 for e, ok, _ in points if not ok and e < t)
        balanced = (tp / positives + tn / negatives) / 2
        if best is None or balanced > best[0] + 1e-12:
            best = (balanced, t, tp, tn)
    balanced, threshold, tp, tn = best
    measures.discard(None)
    if len(measures) != 1:
        raise InvalidInput(f"retrieval gave no comparable evidence score ({measures or 'none'})")
    measure = measures.pop()
    result = {
        "value": round(threshold, 4), "measure": measure, "method": method or
        index.engine.default_method(), "balanced_accuracy": round(balanced, 3),
        "answerable_kept": f"{tp}/{positives}", "refusals_caught": f"{tn}/{negatives}",
        "n": len(points), "source": path,
        "misjudged": sorted(qid for e, ok, qid in points if (e >= threshold) != ok),
    }
    index.calibration.save(result)
    return result


# ------------------------------------------------------------- answers on public collections


def token_f1(answer: str, gold: str) -> float:
    """SQuAD's token F1 between an answer and a gold span (folded words, citations out)."""
    from collections import Counter

    from preuve.text import fold

    def words(t: str) -> list[str]:
        return re.findall(r"\w+", fold(re.sub(r"\[[^\]]*\]\([^)]*\)|\[[^\]]*\]", " ", t)))

    a, g = words(answer), words(gold)
    common = sum((Counter(a) & Counter(g)).values())
    if not common:
        return 0.0
    precision, recall = common / len(a), common / len(g)
    return 2 * precision * recall / (precision + recall)


def squad_answers(path: str | Path) -> dict[str, list[str]]:
    """Gold answer spans by question id, from a SQuAD-layout file (ids as `load_squad`)."""
    data = json.loads(Path(path).read_text("utf-8"))
    out: dict[str, list[str]] = {}
    for a, article in enumerate(data["data"]):
        for p, paragraph in enumerate(article.get("paragraphs", [])):
            for q, qa in enumerate(paragraph.get("qas", [])):
                qid = str(qa.get("id") or f"q{a}-{p}-{q}")
                out[qid] = [x["text"] for x in qa.get("answers", [])]
    return out


def sample(queries: list, limit: int | None, seed: int = 13) -> list:
    """A fixed random subsample (all when `limit` is None)."""
    import random

    chosen = list(queries)
    random.Random(seed).shuffle(chosen)
    return chosen[:limit] if limit else chosen


def narrow(evalset, limit: int | None, records: int, seed: int = 13):
    """The collection cut to what `limit` questions need, to keep embedding affordable: the
    fixed-seed sample of questions (as `evaluate_collection_answers` draws it), their gold
    records and every record of the same article (same title), then a fixed-seed sample of
    the other records up to `records` in all (the gold side is never cut)."""
    import random
    from dataclasses import replace

    queries = sample(evalset.queries, limit, seed)
    gold = {doc for q in queries for doc in evalset.qrels.get(q.id, {})}
    titles = {r.title for r in evalset.corpus if r.id in gold and r.title}
    kept = [r for r in evalset.corpus if r.id in gold or (r.title and r.title in titles)]
    ids = {r.id for r in kept}
    others = [r for r in evalset.corpus if r.id not in ids]
    random.Random(seed).shuffle(others)
    kept += others[:max(0, records - len(kept))]
    ids = {r.id for r in kept}
    return replace(evalset, corpus=[r for r in evalset.corpus if r.id in ids],
                   queries=queries, qrels={q.id: evalset.qrels.get(q.id, {}) for q in queries})


def evaluate_collection_answers(index: Index, evalset, *, limit: int | None = 200,
                                gold_spans: dict[str, list[str]] | None = None,
                                foreign=None, seed: int = 13) -> AnswerReport:
    """`ask` on a public collection indexed in `index`: answered rate, citation on the gold
    record, share of the answer's words found in the gold record, and with `gold_spans`
    (SQuAD/PIAF) whether the answer holds a gold span and its token F1. With `foreign`
    (another collection), its questions asked here must be refused."""
    records = {r.id: f"{r.title}\n{r.text}" for r in evalset.corpus}
    rows = []
    for query in sample(evalset.queries, limit, seed):
        answer = index.ask(query.text, as_of="none")
        gold = set(evalset.qrels.get(query.id, {}))
        row = {"id": query.id, "refuse": False, "refused": answer.refused,
               "cites_gold": any(c.get("path") in gold for c in answer.citations)}
        if not answer.refused:
            row["words_in_gold"] = max((token_share(answer.answer, records[g]) for g in gold
                                        if g in records), default=0.0)
            if gold_spans is not None:
                spans = gold_spans.get(query.id, [])
                row["has_span"] = any(s.lower() in answer.answer.lower() for s in spans)
                row["f1"] = max((token_f1(answer.answer, s) for s in spans), default=0.0)
        rows.append(row)
    for query in sample(foreign.queries, limit, seed) if foreign is not None else []:
        answer = index.ask(query.text, as_of="none")
        rows.append({"id": f"foreign:{query.id}", "refuse": True, "refused": answer.refused})
    own = [r for r in rows if not r["refuse"]]
    shown = [r for r in own if not r["refused"]]
    alien = [r for r in rows if r["refuse"]]

    def mean(key, part):
        return round(sum(float(r[key]) for r in part) / len(part), 3) if part else 0.0

    metrics = {"n_answerable": len(own), "answered": round(len(shown) / len(own), 3) if own
               else 0.0, "cites_gold": mean("cites_gold", shown),
               "words_in_gold": mean("words_in_gold", shown)}
    if gold_spans is not None:
        metrics.update(has_span=mean("has_span", shown), token_f1=mean("f1", shown),
                       has_span_all=round(sum(r.get("has_span", False) for r in own)
                                          / len(own), 3) if own else 0.0)
    if alien:
        metrics.update(n_foreign=len(alien), foreign_refused=mean("refused", alien))
    return AnswerReport(len(rows), metrics, rows)


def token_share(answer: str, gold: str) -> float:
    """Share of the answer's words (citations out) found in the gold text."""
    from preuve.text import fold

    def words(t: str) -> list[str]:
        return re.findall(r"\w+", fold(re.sub(r"\[[^\]]*\]\([^)]*\)|\[[^\]]*\]", " ", t)))

    a, g = words(answer), set(words(gold))
    return sum(w in g for w in a) / len(a) if a else 0.0
