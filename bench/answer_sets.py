"""Right answers over every answer set kept here, with the defaults (no calibrate): each
set's corpus built from its Debian packages (`evalsets/SET/corpus.py`), indexed, and
`preuve eval SET/questions.yaml --answers` run on it; a table per set, then all sets
together and per question language (the README's "all answer sets" row).

    .venv/bin/python bench/answer_sets.py [--work DIR] [--only manuals,trial13] [--keep]

The corpora and indexes go under DIR (default: a temporary folder, removed at the end
unless --keep; an index already there is brought up to date, not rebuilt). About twenty
minutes for the twenty-three sets on two cores, their corpora built.
Outcomes are graded by facts (the strings a right answer must hold); docs/answers.md
holds the stricter hand verdicts."""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# -P: the installed preuve (or PYTHONPATH's), not the folder the eval runs in
PREUVE = [sys.executable, "-P", "-m", "preuve"]
# name: (its questions, its corpus script; None: the bundled sample, `examples/`)
SETS = {name: (ROOT / "evalsets" / name / "questions.yaml", ROOT / "evalsets" / name / "corpus.py")
        for name in ("manuals", "handbook", "blind", "trial6", "trial8", "trial9", "trial10",
                     "trial11", "trial12", "trial13", "trial14", "trial15", "trial16", "trial17",
                     "trial18", "trial19", "trial21", "trial22", "trial23", "trial25",
                     "trial26", "trial27")}
SETS["sample"] = (ROOT / "examples" / "questions.yaml", None)
ANSWERABLE = ("right", "partial", "wrong", "false_refusal", "unjudged")
TO_REFUSE = ("correct_refusal", "answered_unanswerable")


def outcomes(name: str, work: Path) -> list[dict]:
    """The per-question outcomes of one set, its corpus and index built under `work`."""
    questions, corpus = SETS[name]
    docs = ROOT / "examples" if corpus is None else work / "corpus" / name
    if corpus is not None:
        subprocess.run([sys.executable, str(corpus), str(docs)], check=True,
                       stdout=subprocess.DEVNULL)
    index = work / f"{name}.sqlite"
    subprocess.run(PREUVE + ["ingest", str(docs), "--index", str(index)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run(PREUVE + ["eval", str(questions), "--answers", "--index", str(index),
                                   "--json"], check=True, capture_output=True, text=True,
                         cwd=ROOT).stdout
    return json.loads(out)["per_question"]


def row(label: str, counts: collections.Counter) -> str:
    answerable = sum(counts[o] for o in ANSWERABLE)
    refuse = sum(counts[o] for o in TO_REFUSE)

    def share(n: int, d: int) -> str:
        return f"{n / d:.0%}" if d else "-"
    return (f"| {label} | {answerable} | {counts['right']} ({share(counts['right'], answerable)}) "
            f"| {counts['wrong'] + counts['partial']} "
            f"({share(counts['wrong'] + counts['partial'], answerable)}) "
            f"| {counts['false_refusal']} ({share(counts['false_refusal'], answerable)}) "
            f"| {counts['correct_refusal']}/{refuse} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="corpora and indexes (default: temporary)")
    parser.add_argument("--only", help="comma-separated set names (default: all)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(SETS)
    unknown = [n for n in names if n not in SETS]
    if unknown:
        parser.error(f"unknown sets {', '.join(unknown)}; known: {', '.join(SETS)}")
    temporary = None if args.work or args.keep else tempfile.TemporaryDirectory(
        prefix="answer-sets-")
    work = args.work or (Path(temporary.name) if temporary else
                         Path(tempfile.mkdtemp(prefix="answer-sets-")))
    work.mkdir(parents=True, exist_ok=True)
    header = ("| {} | answerable | right | wrong or partial | false refusals | "
              "out of scope refused |\n|---|---|---|---|---|---|")
    by_set, by_language, total = {}, collections.defaultdict(collections.Counter), \
        collections.Counter()
    for name in names:
        counts = collections.Counter()
        for q in outcomes(name, work):
            counts[q["outcome"]] += 1
            by_language[q.get("lang") or "(sample: none)"][q["outcome"]] += 1
        by_set[name] = counts
        total.update(counts)
        print(f"{name}: {dict(counts)}", file=sys.stderr)
    print(header.format("set"))
    for name, counts in by_set.items():
        print(row(name, counts))
    print(row("**all**", total))
    print()
    print(header.format("question language"))
    for language, counts in sorted(by_language.items()):
        print(row(language, counts))
    if args.keep and not args.work:
        print(f"\ncorpora and indexes kept in {work}", file=sys.stderr)


if __name__ == "__main__":
    main()
