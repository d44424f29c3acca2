"""Loaders for public evaluation collections, all returning the same ``EvalSet``.

Whatever the source layout, an ``EvalSet`` follows the conventions of
``preuve.evaluate.metrics``: ids are strings, and ``qrels[query_id][doc_id]`` is a gain
where bigger is better and 0/absent means "not relevant". Any conversion a collection
needs (Cranfield's 1 = best grades, for one) happens here, so metrics never have to know
which collection they are scoring.

Supported layouts:

* BEIR folders (``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv``);
* SQuAD-style JSON (``data`` -> ``paragraphs`` -> ``context``/``qas``), e.g. PIAF v1.1,
  turned into passage retrieval: each paragraph is a document, each question a query;
* the Cranfield 1400 text files (``cran.all.1400``, ``cran.qry``, ``cranqrel``).

``load(path)`` picks the right one from what is on disk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from preuve.errors import InvalidInput, NoSuchFile

DEFAULT_TYPE = "all"


@dataclass
class Record:
    """One retrievable document of an evaluation corpus."""

    id: str
    title: str
    text: str


@dataclass
class Query:
    """One evaluation question; ``type`` groups questions for per-type scores."""

    id: str
    text: str
    type: str = DEFAULT_TYPE


@dataclass
class EvalSet:
    """A corpus, its questions and their graded judgments (query id -> doc id -> gain).

    ``language`` is the corpus language when the loader knows it ("fr", "en"), else "".
    """

    name: str
    corpus: list[Record]
    queries: list[Query]
    qrels: dict[str, dict[str, int]]
    language: str = field(default="")


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path}:{line_no}: not valid JSON ({exc.msg})") from exc


# --------------------------------------------------------------------------- BEIR


def load_beir(folder: str | Path, split: str = "test") -> EvalSet:
    """Load a BEIR-format folder.

    ``corpus.jsonl`` rows carry ``_id``, ``title`` and ``text``; ``queries.jsonl`` rows
    carry ``_id``, ``text`` and optionally a type (``metadata.type``, or ``type``);
    ``qrels/<split>.tsv`` has tab-separated ``query-id corpus-id score`` rows after a
    header line. As in BEIR's own loader, only the queries judged in that split are kept:
    BEIR ships the queries of every split in one file.
    """
    folder = Path(folder)
    qrels_path = folder / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        raise InvalidInput(f"{folder}: BEIR folder without qrels/{split}.tsv")

    corpus = [
        Record(id=str(row["_id"]), title=row.get("title") or "", text=row.get("text") or "")
        for row in _read_jsonl(folder / "corpus.jsonl")
    ]

    qrels: dict[str, dict[str, int]] = {}
    with qrels_path.open(encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) < 3:
                raise InvalidInput(f"{qrels_path}:{line_no}: expected 'query-id corpus-id score'")
            qid, doc_id, score = parts[0], parts[1], parts[-1]
            try:
                gain = int(score)
            except ValueError:
                if line_no == 1:  # the "query-id corpus-id score" header
                    continue
                raise InvalidInput(
                    f"{qrels_path}:{line_no}: score {score!r} is not an integer"
                ) from None
            qrels.setdefault(qid, {})[doc_id] = gain

    queries = []
    for row in _read_jsonl(folder / "queries.jsonl"):
        qid = str(row["_id"])
        if qid not in qrels:
            continue
        metadata = row.get("metadata") or {}
        qtype = metadata.get("type") if isinstance(metadata, dict) else None
        queries.append(Query(id=qid, text=row["text"], type=qtype or row.get("type") or "all"))

    return EvalSet(name=folder.name, corpus=corpus, queries=queries, qrels=qrels)


# --------------------------------------------------------------------------- SQuAD / PIAF


def _is_squad(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("data"), list)


def _squad_eval_set(data: dict[str, Any], name: str, language: str) -> EvalSet:
    corpus: list[Record] = []
    queries: list[Query] = []
    qrels: dict[str, dict[str, int]] = {}
    for a_index, article in enumerate(data["data"]):
        title = article.get("title") or ""
        for p_index, paragraph in enumerate(article.get("paragraphs", [])):
            doc_id = f"p{a_index}-{p_index}"
            corpus.append(Record(id=doc_id, title=title, text=paragraph["context"]))
            for q_index, qa in enumerate(paragraph.get("qas", [])):
                if qa.get("is_impossible"):
                    continue  # SQuAD 2.0: the paragraph does not answer it, nothing does
                qid = str(qa.get("id") or f"q{a_index}-{p_index}-{q_index}")
                if qid in qrels:
                    raise InvalidInput(f"{name}: question id {qid!r} appears twice")
                queries.append(Query(id=qid, text=qa["question"]))
                qrels[qid] = {doc_id: 1}
    return EvalSet(name=name, corpus=corpus, queries=queries, qrels=qrels, language=language)


def load_squad(path: str | Path, language: str = "fr") -> EvalSet:
    """Load a SQuAD-layout JSON file (PIAF v1.1, SQuAD 1.1/2.0) as passage retrieval.

    Every paragraph ``context`` becomes a Record with id ``p{article}-{paragraph}``
    (0-based positions in the file) and the article title; every question becomes a
    Query (the file's question id) whose only relevant document, grade 1, is the
    paragraph it was written over. Unanswerable SQuAD 2.0 questions are left out, since
    no passage answers them. All queries have type "all".
    """
    path = Path(path)
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    if not _is_squad(data):
        raise InvalidInput(f"{path}: not a SQuAD-layout file (expected a top-level 'data' list)")
    return _squad_eval_set(data, name=path.stem, language=language)


# --------------------------------------------------------------------------- Cranfield

# Cleverdon's grades: 1 = complete answer ... 4 = minimum interest, 5 = no interest.
# Some copies also carry -1 rows (one per query in the usual distribution), which mean
# nothing usable. Gains must grow with relevance, so grade g in 1..4 becomes 5 - g
# (1 -> 4, 4 -> 1); anything else is not relevant and is dropped from the judgments.
CRANFIELD_GAINS = {1: 4, 2: 3, 3: 2, 4: 1}

_CRAN_FIELD = re.compile(r"^\.([ITABW])(?:\s+(\S+))?\s*$")


def cranfield_gain(grade: int) -> int:
    """Gain for a Cranfield relevance code: 5 - grade for 1..4, else 0 (not relevant)."""
    return CRANFIELD_GAINS.get(grade, 0)


def _cranfield_blocks(path: Path) -> list[tuple[str, dict[str, str]]]:
    """Split a Cranfield text file into (.I number, {field letter: text}) blocks.

    Everything after ``.W`` belongs to the text up to the next ``.I``: the standard
    cran.all.1400 has stray ``.A``/``.B``/``.W`` lines inside a few abstracts (documents
    240, 576, 578), and treating them as new fields would cut those abstracts short; the
    stray marker lines themselves are dropped.
    Whitespace is collapsed, since the files are hard-wrapped at about 70 columns.
    """
    blocks: list[tuple[str, dict[str, list[str]]]] = []
    current: str | None = None
    for line_no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = _CRAN_FIELD.match(raw)
        if match and match.group(1) == "I":
            if not match.group(2):
                raise InvalidInput(f"{path}:{line_no}: '.I' without a number")
            blocks.append((match.group(2), {}))
            current = None
        elif not blocks:
            if raw.strip():
                raise InvalidInput(f"{path}:{line_no}: text before the first '.I' line")
        elif match and not match.group(2):
            if current == "W":
                continue  # a stray marker inside the abstract: drop the line, stay in .W
            current = match.group(1)
            blocks[-1][1].setdefault(current, [])
        elif current is not None:
            blocks[-1][1][current].append(raw)
    return [
        (number, {key: " ".join(" ".join(lines).split()) for key, lines in fields.items()})
        for number, fields in blocks
    ]


def load_cranfield(folder: str | Path) -> EvalSet:
    """Load the Cranfield 1400 collection from its three text files.

    ``cran.all.1400``: documents with ``.I`` number, ``.T`` title, ``.A`` authors,
    ``.B`` bibliography and ``.W`` abstract; a Record keeps ``.T`` as title and ``.W``
    as text, with the ``.I`` number (without leading zeros) as id.

    ``cran.qry``: queries numbered 1, 2, 4, 8, ... in the file, while ``cranqrel`` numbers
    them 1..225 in file order; queries are therefore matched BY POSITION and their id is
    that position ("1".."225"), which is also what the judgments use.

    ``cranqrel``: ``query doc grade`` rows; grades become gains through
    ``cranfield_gain`` (1 best -> 4, ..., 4 -> 1; -1 and 5 dropped).
    """
    folder = Path(folder)
    corpus = [
        Record(id=str(int(number)), title=fields.get("T", ""), text=fields.get("W", ""))
        for number, fields in _cranfield_blocks(folder / "cran.all.1400")
    ]
    queries = [
        Query(id=str(position), text=fields.get("W", ""))
        for position, (_number, fields) in enumerate(
            _cranfield_blocks(folder / "cran.qry"), start=1
        )
    ]

    qrels: dict[str, dict[str, int]] = {}
    qrels_path = folder / "cranqrel"
    for line_no, line in enumerate(qrels_path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            qid, doc_id, grade = (int(part) for part in parts[:3])
        except ValueError:
            raise InvalidInput(
                f"{qrels_path}:{line_no}: expected 'query doc grade' integers"
            ) from None
        gain = cranfield_gain(grade)
        if gain > 0:
            qrels.setdefault(str(qid), {})[str(doc_id)] = gain

    unknown = sorted(set(qrels) - {query.id for query in queries}, key=int)
    if unknown:
        raise InvalidInput(
            f"{qrels_path}: judgments for query positions {unknown[:5]} but "
            f"{folder / 'cran.qry'} has only {len(queries)} queries"
        )
    return EvalSet(name=folder.name, corpus=corpus, queries=queries, qrels=qrels, language="en")


# --------------------------------------------------------------------------- dispatch


def load(path: str | Path) -> EvalSet:
    """Load an evaluation set, recognising its layout from what is on disk.

    * a folder containing ``corpus.jsonl`` -> ``load_beir``;
    * a folder containing ``cran.all.1400`` -> ``load_cranfield``;
    * a ``.json`` file with a top-level ``data`` list -> ``load_squad`` (language "fr").

    Raises FileNotFoundError if the path does not exist, ValueError if it matches none
    of these layouts.
    """
    path = Path(path)
    if not path.exists():
        raise NoSuchFile(f"{path}: no such file or folder")
    if path.is_dir():
        if (path / "corpus.jsonl").is_file():
            return load_beir(path)
        if (path / "cran.all.1400").is_file():
            return load_cranfield(path)
    elif path.suffix.lower() == ".json":
        try:
            with path.open(encoding="utf-8") as handle:
                data = json.load(handle)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidInput(f"{path}: not valid JSON ({exc})") from exc
        if _is_squad(data):
            return _squad_eval_set(data, name=path.stem, language="fr")
    raise InvalidInput(
        f"{path}: not a recognised evaluation set; expected a BEIR folder (corpus.jsonl, "
        "queries.jsonl, qrels/test.tsv), a Cranfield folder (cran.all.1400, cran.qry, "
        "cranqrel) or a SQuAD-layout .json file with a top-level 'data' list"
    )
