"""Answered / supported rates of generated answers with a local GGUF (`--generator local`)
on the sample corpus (issue 11 item 6): a fixed-seed sample of the answerable questions of
examples/questions.yaml and all its out-of-scope ones, asked as each question's audience.

    python bench/local_answers.py INDEX GGUF [--answerable 10] [--seed 13] [--max-tokens 160]

INDEX is the sample corpus (examples/handbook, examples/facturo) ingested with e5, no
calibrate. Per question: refused or not, by what (judgment before any call, or the
citation check), sentences attributed / dropped, citation on a relevant passage, facts."""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from preuve import Index
from preuve.answer.generators import LocalGenerator
from preuve.evaluate.answers import _cites_relevant
from preuve.evaluate.reference import load_reference

QUESTIONS = Path(__file__).resolve().parent.parent / "examples" / "questions.yaml"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("index")
    parser.add_argument("gguf")
    parser.add_argument("--answerable", type=int, default=10)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--max-tokens", type=int, default=160)
    args = parser.parse_args()
    questions = load_reference(QUESTIONS)
    answerable = [q for q in questions if not q.refuse]
    random.Random(args.seed).shuffle(answerable)
    chosen = answerable[:args.answerable] + [q for q in questions if q.refuse]
    rows = []
    local = LocalGenerator(args.gguf, max_tokens=args.max_tokens)
    with Index(args.index, embedder="e5") as index, local:
        for q in chosen:
            started = time.perf_counter()
            answer = index.ask(q.question, as_of=q.as_of or "today", audience=q.audience,
                               generator=local)
            attribution = (answer.explain or {}).get("attribution") or {}
            rows.append({
                "id": q.id, "refuse": q.refuse, "refused": answer.refused,
                "model_called": any(c.get("generator") != "extractive"
                                    for c in answer.usage.get("calls", [])),
                "reason": answer.reason, "answer": answer.answer,
                "rejected": answer.rejected,
                "attributed": len(attribution.get("attributed", [])),
                "dropped": len(attribution.get("dropped", [])),
                "cites_relevant": not answer.refused and _cites_relevant(answer.citations,
                                                                         q.relevant),
                "facts": f"{sum(f.lower() in answer.answer.lower() for f in q.facts)}"
                         f"/{len(q.facts)}",
                "seconds": round(time.perf_counter() - started, 1)})
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    own = [r for r in rows if not r["refuse"]]
    shown = [r for r in own if not r["refused"]]
    print(json.dumps({
        "answerable": len(own), "answered": len(shown),
        "answered_citing_relevant": sum(r["cites_relevant"] for r in shown),
        "refused_before_any_call": sum(not r["model_called"] for r in own if r["refused"]),
        "out_of_scope": len(rows) - len(own),
        "out_of_scope_refused": sum(r["refused"] for r in rows if r["refuse"]),
        "sentences_attributed": sum(r["attributed"] for r in rows),
        "sentences_dropped": sum(r["dropped"] for r in rows)}))


if __name__ == "__main__":
    main()
