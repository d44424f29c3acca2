"""`preuve eval COLLECTION --answers` for a checkout that lacks it (the "before" column).

Runs the measurement code of this branch (`preuve/evaluate/answers.py`, loaded by file
path) against the `preuve` package found first on PYTHONPATH, so both columns of the
table in docs/answers.md are measured the same way:

    PYTHONPATH=OLD_CHECKOUT python bench/collection_answers.py \
        COLLECTION FOREIGN --limit N [--records M] --index PATH
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

from preuve import Index
from preuve.evaluate.datasets import load
from preuve.evaluate.run import eval_index_path

HERE = Path(__file__).resolve().parent.parent / "preuve" / "evaluate" / "answers.py"
spec = importlib.util.spec_from_file_location("branch_answers", HERE)
harness = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = harness  # dataclasses look their module up there
spec.loader.exec_module(harness)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("collection")
    parser.add_argument("foreign")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--records", type=int, default=0)
    parser.add_argument("--index", required=True)
    args = parser.parse_args()
    evalset = load(args.collection)
    if args.records:
        evalset = harness.narrow(evalset, args.limit, args.records)
    spans = harness.squad_answers(args.collection) if args.collection.endswith(".json") else None
    with Index(eval_index_path(args.index, evalset, "e5"), embedder="e5") as own:
        own.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                           language=evalset.language)
        report = harness.evaluate_collection_answers(own, evalset, limit=args.limit,
                                                     gold_spans=spans,
                                                     foreign=load(args.foreign))
    print(json.dumps(report.to_dict(), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
