"""Evaluation-set loaders on tiny fixtures, and on the shared reference sets when present."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preuve.evaluate.datasets import (
    EvalSet,
    Query,
    Record,
    cranfield_gain,
    load,
    load_beir,
    load_cranfield,
    load_squad,
)

EVAL_DATA = Path(__file__).parents[2].parent / "shared" / "eval-data"


# --------------------------------------------------------------------------- fixtures


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


@pytest.fixture
def beir_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny-beir"
    (folder / "qrels").mkdir(parents=True)
    _write_jsonl(
        folder / "corpus.jsonl",
        [
            {"_id": "d1", "title": "Indentation", "text": "Python groups by indentation."},
            {"_id": "d2", "title": "", "text": "Floats are binary fractions."},
            {"_id": "d3", "text": "No title key at all."},
        ],
    )
    _write_jsonl(
        folder / "queries.jsonl",
        [
            {"_id": "q1", "text": "Why indentation?", "metadata": {"type": "design"}},
            {"_id": "q2", "text": "Why are floats inexact?"},
            {"_id": "q9", "text": "Judged only in another split"},
        ],
    )
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\nq2\td3\t0\n", encoding="utf-8"
    )
    return folder


SQUAD = {
    "version": "1.1",
    "data": [
        {
            "title": "Sport",
            "paragraphs": [
                {
                    "context": "Le ministère des sports emploie du monde.",
                    "qas": [
                        {"id": "a1", "question": "Qui emploie ?", "answers": []},
                        {"id": "a2", "question": "Combien ?", "answers": []},
                    ],
                },
                {"context": "Deuxième paragraphe.", "qas": [{"id": "a3", "question": "Quoi ?"}]},
            ],
        },
        {
            "title": "Histoire",
            "paragraphs": [
                {
                    "context": "Les orques guerrières.",
                    "qas": [
                        {"id": "b1", "question": "Quelles puissances ?"},
                        {"id": "b2", "question": "Sans réponse ?", "is_impossible": True},
                    ],
                }
            ],
        },
    ],
}


@pytest.fixture
def squad_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-piaf.json"
    path.write_text(json.dumps(SQUAD, ensure_ascii=False), encoding="utf-8")
    return path


# CRLF endings, queries numbered 001, 002, 004 (as in the real cran.qry), a stray ".A"
# inside an abstract, and grades 1, 2, 4, -1 with trailing spaces.
CRAN_ALL = """.I 1
.T
experimental investigation of a
wing in a slipstream .
.A
brenckman,m.
.B
j. ae. scs. 25, 1958, 324.
.W
experimental investigation of a
wing in a slipstream .
  an experimental study was made .
.I 2
.T
simple shear flow .
.A
.B
.W
flow past a flat plate .
.A
the abstract goes on after a stray marker .
.I 3
.T
empty abstract .
.A
.B
.W
"""

CRAN_QRY = """.I 001
.W
what similarity laws must be obeyed
when constructing aeroelastic models .
.I 002
.W
what are the structural problems .
.I 004
.W
what problems of heat conduction .
"""

CRAN_QREL = "1 2 2 \n1 1 1\n1 3 -1 \n2 3 4\n3 1 2 \n3 2 3\n"


@pytest.fixture
def cranfield_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny-cran"
    folder.mkdir()
    for name, text in [
        ("cran.all.1400", CRAN_ALL),
        ("cran.qry", CRAN_QRY),
        ("cranqrel", CRAN_QREL),
    ]:
        (folder / name).write_bytes(text.replace("\n", "\r\n").encode("ascii"))
    return folder


# --------------------------------------------------------------------------- BEIR


def test_load_beir(beir_folder: Path):
    evalset = load_beir(beir_folder)
    assert isinstance(evalset, EvalSet)
    assert evalset.name == "tiny-beir"
    assert evalset.corpus == [
        Record("d1", "Indentation", "Python groups by indentation."),
        Record("d2", "", "Floats are binary fractions."),
        Record("d3", "", "No title key at all."),
    ]
    # q9 has no judgment in the test split: dropped, as BEIR's own loader does
    assert evalset.queries == [
        Query("q1", "Why indentation?", "design"),
        Query("q2", "Why are floats inexact?", "all"),
    ]
    assert evalset.qrels == {"q1": {"d1": 1}, "q2": {"d2": 2, "d3": 0}}


def test_load_beir_rejects_a_bad_score(beir_folder: Path):
    with (beir_folder / "qrels" / "test.tsv").open("a", encoding="utf-8") as handle:
        handle.write("q1\td2\thigh\n")
    with pytest.raises(ValueError, match="test.tsv:5"):
        load_beir(beir_folder)


# --------------------------------------------------------------------------- SQuAD


def test_load_squad(squad_file: Path):
    evalset = load_squad(squad_file)
    assert evalset.name == "tiny-piaf"
    assert evalset.language == "fr"
    assert [(r.id, r.title) for r in evalset.corpus] == [
        ("p0-0", "Sport"),
        ("p0-1", "Sport"),
        ("p1-0", "Histoire"),
    ]
    assert evalset.corpus[2].text == "Les orques guerrières."
    # b2 is unanswerable (SQuAD 2.0 style): no relevant passage, so not a query
    assert [q.id for q in evalset.queries] == ["a1", "a2", "a3", "b1"]
    assert all(q.type == "all" for q in evalset.queries)
    assert evalset.queries[3].text == "Quelles puissances ?"
    assert evalset.qrels == {
        "a1": {"p0-0": 1},
        "a2": {"p0-0": 1},
        "a3": {"p0-1": 1},
        "b1": {"p1-0": 1},
    }
    assert load_squad(squad_file, language="en").language == "en"


def test_load_squad_rejects_duplicate_question_ids(tmp_path: Path):
    data = json.loads(json.dumps(SQUAD))
    data["data"][1]["paragraphs"][0]["qas"][0]["id"] = "a1"
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="'a1' appears twice"):
        load_squad(path)


# --------------------------------------------------------------------------- Cranfield


@pytest.mark.parametrize(
    ("grade", "gain"), [(1, 4), (2, 3), (3, 2), (4, 1), (5, 0), (-1, 0), (0, 0)]
)
def test_cranfield_gain(grade: int, gain: int):
    assert cranfield_gain(grade) == gain


def test_load_cranfield(cranfield_folder: Path):
    evalset = load_cranfield(cranfield_folder)
    assert evalset.name == "tiny-cran"
    assert evalset.language == "en"
    assert [r.id for r in evalset.corpus] == ["1", "2", "3"]
    first = evalset.corpus[0]
    assert first.title == "experimental investigation of a wing in a slipstream ."
    assert first.text == (
        "experimental investigation of a wing in a slipstream . an experimental study was made ."
    )
    # the stray ".A" line is dropped and the abstract continues
    assert evalset.corpus[1].text == (
        "flow past a flat plate . the abstract goes on after a stray marker ."
    )
    assert evalset.corpus[2].text == ""
    assert "\r" not in "".join(r.text + r.title for r in evalset.corpus)


def test_cranfield_queries_match_judgments_by_position(cranfield_folder: Path):
    evalset = load_cranfield(cranfield_folder)
    # numbered 001, 002, 004 in the file; ids are the positions the qrels use
    assert [q.id for q in evalset.queries] == ["1", "2", "3"]
    assert evalset.queries[0].text == (
        "what similarity laws must be obeyed when constructing aeroelastic models ."
    )
    assert evalset.queries[2].text == "what problems of heat conduction ."
    # grades become gains (1 -> 4 ... 4 -> 1); the -1 row is dropped
    assert evalset.qrels == {
        "1": {"2": 3, "1": 4},
        "2": {"3": 1},
        "3": {"1": 3, "2": 2},
    }


def test_cranfield_judgment_for_an_unknown_query(cranfield_folder: Path):
    with (cranfield_folder / "cranqrel").open("a", encoding="ascii") as handle:
        handle.write("4 1 1\n")
    with pytest.raises(ValueError, match="only 3 queries"):
        load_cranfield(cranfield_folder)


# --------------------------------------------------------------------------- dispatch


def test_load_dispatches_on_layout(beir_folder: Path, squad_file: Path, cranfield_folder: Path):
    assert load(beir_folder) == load_beir(beir_folder)
    assert load(squad_file) == load_squad(squad_file)
    assert load(str(cranfield_folder)) == load_cranfield(cranfield_folder)


def test_load_explains_what_it_expected(tmp_path: Path):
    empty = tmp_path / "empty"
    empty.mkdir()
    not_squad = tmp_path / "list.json"
    not_squad.write_text("[1, 2]", encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    for path in (empty, not_squad, text):
        with pytest.raises(ValueError, match="expected a BEIR folder") as info:
            load(path)
        assert str(path) in str(info.value)
    with pytest.raises(ValueError, match="not valid JSON"):
        load(broken)
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing")


# --------------------------------------------------------------------------- real sets


def _shared(relative: str) -> Path:
    path = EVAL_DATA / relative
    if not path.exists():
        pytest.skip(f"{path} not available")
    return path


def _check_consistent(evalset: EvalSet) -> None:
    doc_ids = {record.id for record in evalset.corpus}
    query_ids = {query.id for query in evalset.queries}
    assert len(doc_ids) == len(evalset.corpus)
    assert len(query_ids) == len(evalset.queries)
    assert set(evalset.qrels) == query_ids
    assert all(doc_id in doc_ids for rel in evalset.qrels.values() for doc_id in rel)
    assert all(any(g > 0 for g in rel.values()) for rel in evalset.qrels.values())


def test_real_python_faq():
    evalset = load(_shared("python311-faq-en"))
    assert (len(evalset.queries), len(evalset.corpus)) == (171, 171)
    _check_consistent(evalset)


def test_real_piaf():
    evalset = load(_shared("piaf/piaf-v1.1.json"))
    assert (len(evalset.corpus), len(evalset.queries)) == (1518, 7569)
    assert evalset.language == "fr"
    _check_consistent(evalset)


def test_real_cranfield():
    evalset = load(_shared("cranfield"))
    assert (len(evalset.corpus), len(evalset.queries)) == (1400, 225)
    # 1,837 rows in cranqrel, 225 of them graded -1 (one per query) and dropped
    assert sum(len(rel) for rel in evalset.qrels.values()) == 1612
    assert {g for rel in evalset.qrels.values() for g in rel.values()} == {1, 2, 3, 4}
    _check_consistent(evalset)
