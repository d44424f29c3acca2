"""Check a question file against an index of its corpus, before any answer is asked.

    .venv/bin/python evalsets/check.py QUESTIONS INDEX

INDEX is the corpus ingested on its own (`preuve ingest DEST --index X --embedder none`
is enough: only chunk texts are read; nothing is ingested here). Checks, for every
question of QUESTIONS (the reference format of preuve/evaluate/reference.py):

* every relevant entry names a document of the index, matches at least one body chunk
  (path, then page, lines and section as retrieval evaluation matches a hit) and, for an
  answerable question, states at least one of its facts there;
* answerable questions list 1-3 facts, and every wording of every fact occurs in a body
  chunk of one relevant entry, compared as answer evaluation compares (`normalise`);
* no fact is only words of its question;
* `refuse: true` questions list no relevant passage, and each of their `absent` words
  occurs in no chunk of the index (a near miss stays unanswerable);
* `lang` and `type` are set.

Prints one line per problem and exits 1 if there is any, else prints the counts per lang
and type and exits 0."""

from __future__ import annotations

import sys
from collections import Counter
from types import SimpleNamespace

from preuve import Index
from preuve.evaluate.answers import fact_found, normalise
from preuve.evaluate.reference import load_reference


def chunks_by_path(index_path: str) -> dict[str, list[SimpleNamespace]]:
    """Every chunk of the index, as the hit-like records `Relevant.matches` reads."""
    out: dict[str, list[SimpleNamespace]] = {}
    with Index(index_path) as index:
        for batch in index.engine.store.export_documents():
            for doc, chunks in batch:
                out[doc.path] = [SimpleNamespace(
                    path=doc.path, page=c.page, start_line=c.start_line, end_line=c.end_line,
                    heading=c.heading, role=c.role, text=normalise(c.text)) for c in chunks]
    return out


def problems(questions, chunks: dict[str, list[SimpleNamespace]]) -> list[str]:
    out = []
    everything = [c.text for part in chunks.values() for c in part]
    for q in questions:
        where = f"{q.id}:"
        if not q.lang:
            out.append(f"{where} no lang")
        if q.type in ("", "all"):
            out.append(f"{where} no type")
        if q.refuse:
            if q.relevant or q.facts:
                out.append(f"{where} refuse: true with relevant passages or facts")
            for word in q.absent:
                if any(normalise(word) in text for text in everything):
                    out.append(f"{where} 'absent' word {word!r} occurs in the corpus")
            continue
        matched = []
        for rel in q.relevant:
            if rel.path not in chunks:
                out.append(f"{where} relevant path {rel.path} is not in the index")
                continue
            hits = [c for c in chunks[rel.path] if c.role == "body" and rel.matches(c)]
            if not hits:
                out.append(f"{where} relevant {rel} matches no body chunk")
            elif q.facts and not any(fact_found(f, c.text) for f in q.facts for c in hits):
                out.append(f"{where} relevant {rel} states none of the facts")
            matched += hits
        if not 1 <= len(q.facts) <= 3:
            out.append(f"{where} {len(q.facts)} facts (1-3 expected)")
        question = normalise(q.question)
        for fact in q.facts:
            for wording in fact.alternatives:
                if not any(fact_found(wording, c.text) for c in matched):
                    out.append(f"{where} fact wording {wording!r} is in no relevant chunk")
            if all(normalise(w) in question for w in fact.alternatives):
                out.append(f"{where} fact {list(fact.alternatives)} is words of the question")
    return out


def main() -> None:
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        raise SystemExit(2)
    questions = load_reference(sys.argv[1])
    found = problems(questions, chunks_by_path(sys.argv[2]))
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} problems in {len(questions)} questions", file=sys.stderr)
        raise SystemExit(1)
    answerable = [q for q in questions if not q.refuse]
    print(f"{len(questions)} questions ({len(answerable)} answerable, "
          f"{len(questions) - len(answerable)} to refuse): facts and passages check")
    for key in ("lang", "type"):
        counts = Counter((getattr(q, key), q.refuse) for q in questions)
        print(f"  per {key}: " + ", ".join(
            f"{value}{' (refuse)' if refuse else ''} {n}"
            for (value, refuse), n in sorted(counts.items(), key=lambda kv: (kv[0][1],
                                                                             str(kv[0][0])))))


if __name__ == "__main__":
    main()
