"""Answers over a reference collection indexed with `ingest_records` (both stores): record
ids such as ``library#how-do-i-copy-a-file`` are outside the path grammar of citations,
yet an extractive answer cites its record and verifies (it was refused with "the answer
cites nothing" before), and `eval --answers` finds the citation on the gold record."""

from __future__ import annotations

from preuve import Index
from preuve.answer import verify
from preuve.evaluate.answers import evaluate_collection_answers
from preuve.evaluate.datasets import EvalSet, Query, Record

RECORDS = [
    Record("library#how-do-i-copy-a-file", "How do I copy a file?",
           "The shutil module contains a copyfile() function that copies the contents of "
           "a file to another file. Use shutil.copy2() to keep the metadata as well."),
    Record("library#how-do-i-delete-a-file", "How do I delete a file?",
           "Use os.remove(filename) or os.unlink(filename) to delete a file. To remove a "
           "directory, use os.rmdir() for an empty one and shutil.rmtree() otherwise."),
    Record("p12-3", "Tour Eiffel",
           "La tour Eiffel a été construite par Gustave Eiffel pour l'Exposition "
           "universelle de 1889 à Paris. Elle mesure environ trois cents mètres."),
    Record("42", "Random numbers",
           "The random module implements pseudo-random number generators for various "
           "distributions. Call random.seed() to make a sequence reproducible."),
]
QUESTIONS = [Query("q1", "How do I copy a file with shutil?"),
             Query("q2", "How can I delete a file or remove a directory?"),
             Query("q3", "Pour quelle exposition universelle la tour Eiffel a-t-elle été "
                         "construite ?"),
             Query("q4", "How do I make a sequence of random numbers reproducible?")]
GOLD = {"q1": {"library#how-do-i-copy-a-file": 1}, "q2": {"library#how-do-i-delete-a-file": 1},
        "q3": {"p12-3": 1}, "q4": {"42": 1}}


def test_extractive_answers_over_records_cite_their_record(fresh_index):
    with Index(fresh_index, embedder="none") as index:
        index.ingest_records(RECORDS, source="eval:toy", language="")
        for query in QUESTIONS:
            answer = index.ask(query.text, as_of="none")
            assert not answer.refused, (query.text, answer.reason)
            cited = [c["path"] for c in answer.citations]
            assert cited == list(GOLD[query.id]), (query.text, answer.answer)
            assert verify(answer.answer, answer.hits).ok  # the linked answer verifies again


def test_eval_answers_on_a_collection_counts_citations_on_the_gold_record(fresh_index):
    with Index(fresh_index, embedder="none") as index:
        index.ingest_records(RECORDS, source="eval:toy", language="")
        report = evaluate_collection_answers(
            index, EvalSet("toy", RECORDS, QUESTIONS, GOLD), limit=None)
    assert report.metrics["answered"] == 1.0 and report.metrics["cites_gold"] == 1.0
    assert report.metrics["words_in_gold"] > 0.9


def test_narrow_keeps_the_sampled_questions_records_and_their_articles():
    from preuve.evaluate.answers import narrow, sample

    corpus = [Record(f"p{a}-{p}", f"Article {a}", f"text {a} {p}")
              for a in range(20) for p in range(5)]
    queries = [Query(f"q{a}", f"question {a}") for a in range(20)]
    qrels = {f"q{a}": {f"p{a}-2": 1} for a in range(20)}
    evalset = EvalSet("toy", corpus, queries, qrels)
    small = narrow(evalset, 3, 30)
    asked = sample(queries, 3)
    assert [q.id for q in small.queries] == [q.id for q in asked]
    ids = {r.id for r in small.corpus}
    articles = {q.id[1:] for q in asked}
    assert {f"p{a}-{p}" for a in articles for p in range(5)} <= ids
    assert len(ids) == 30 and narrow(evalset, 3, 30).corpus == small.corpus
    assert narrow(evalset, 3, 5).corpus  # never cut below the gold side
    assert len(narrow(evalset, 3, 5).corpus) == 15
