"""Feedback on answers: `Index.feedback`, the noun every front end records and reads it
through (the web page's buttons, `POST /feedback`, the MCP tool `feedback`, and
`preuve feedback` for the operator).

    index.feedback.add(question=..., answer=..., citations=answer.citations,
                       verdict="wrong", comment="it is 45 days now", audience="public",
                       owner=caller_digest, channel="http")
    index.feedback.list(audience="public", owner=caller_digest)   # that caller's own
    index.feedback.list(verdicts=["wrong"])                        # the operator: all
    index.feedback.review(3, relevant=["handbook/retours-v2.md:18-20"])
    index.feedback.to_eval(index.feedback.list(reviewed=True))    # reference questions

The audience boundary: a citation is stored only when its document is one the caller's
audience may read (the same refusal for a document that does not exist, so that feedback
cannot probe the index); a caller other than the operator reads only the feedback it gave
itself (`owner`: what the server derives from its key, never the key), and never another
caller's rows or their number. The operator (audience None, no owner) reads everything.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from preuve.answer.citations import parse_citations
from preuve.errors import InvalidInput, NotFound
from preuve.models import QUESTION_LIMIT, Filters
from preuve.retrieve.filters import parse_day
from preuve.store.sql import now

if TYPE_CHECKING:
    from preuve.index import Index

VERDICTS = ("right", "wrong", "incomplete")
CHANNELS = ("python", "cli", "http", "web", "mcp")
ANSWER_LIMIT = 20_000
COMMENT_LIMIT = 2_000
MAX_CITATIONS = 50
LABEL_LIMIT = 500
CITATION_KEYS = ("label", "path", "page", "start_line", "end_line", "chunk_id")
# what `export` writes as CSV, in this order (citations as their labels, `; `-joined)
CSV_COLUMNS = ("id", "created_at", "audience", "channel", "verdict", "question", "answer",
               "refused", "citations", "comment", "as_of", "reviewed_at", "review")


def _date(value: str | dt.date | None, what: str) -> str | None:
    day = parse_day(value, what)
    return day.isoformat() if day else None


def _text(value: Any, what: str, limit: int, required: bool = False) -> str:
    text = "" if value is None else str(value)
    if required and not text.strip():
        raise InvalidInput(f"feedback: the {what} is empty")
    if len(text) > limit:
        raise InvalidInput(f"feedback: the {what} is longer than {limit} characters")
    return text


def parse_source(label: str) -> dict:
    """A location as the operator writes it (`path:12-14`, `path:12`, `file.pdf p. 2`,
    `path`) as an entry of a reference question's `relevant` list."""
    label = str(label).strip()
    found = parse_citations(f"[{label}]") if label else []
    if not found or not found[0].path:
        raise InvalidInput(f"{label!r}: not a source (write path:START-END, path:LINE, "
                           "file.pdf p. N, or a path)")
    cited = found[0]
    entry: dict[str, Any] = {"path": cited.path}
    if cited.page is not None:
        entry["page"] = cited.page
    elif cited.start_line is not None:
        entry["lines"] = [cited.start_line, cited.end_line or cited.start_line]
    return entry


def _relevant_of(citation: dict) -> dict:
    entry: dict[str, Any] = {"path": citation["path"]}
    if citation.get("page") is not None:
        entry["page"] = citation["page"]
    elif citation.get("start_line") is not None:
        entry["lines"] = [citation["start_line"],
                          citation.get("end_line") or citation["start_line"]]
    return entry


def _cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: text a reader wrote that starts like a
    formula (`=`, `+`, `-`, `@`, tab, carriage return) gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


class Feedback:
    """Feedback on the answers of one index (see the module's docstring)."""

    def __init__(self, index: Index):
        self._index = index

    @property
    def _rows(self):
        return self._index.engine.store.feedback

    # -- writing ----------------------------------------------------------------------
    def add(self, *, question: str, answer: str, verdict: str,
            citations: Iterable[dict | str] = (), refused: bool = False, comment: str = "",
            audience: str | None = None, owner: str | None = None, channel: str = "python",
            as_of: str | dt.date | None = None) -> dict:
        """Store one verdict on one answer; returns the stored item. `citations`: the
        answer's (dicts as `Answer.citations`, or labels such as `path:12-14`), each of a
        document `audience` may read (None: the operator), else InvalidInput naming it."""
        verdict = str(verdict or "").strip().lower()
        if verdict not in VERDICTS:
            raise InvalidInput(f"feedback: verdict {verdict!r} is not one of "
                               f"{', '.join(VERDICTS)}")
        if channel not in CHANNELS:
            raise InvalidInput(f"feedback: channel {channel!r} is not one of "
                               f"{', '.join(CHANNELS)}")
        row = {
            "created_at": now(), "audience": audience, "owner": owner, "channel": channel,
            "question": _text(question, "question", QUESTION_LIMIT, required=True),
            "answer": _text(answer, "answer", ANSWER_LIMIT),
            "refused": int(bool(refused)),
            "citations": json.dumps(self._readable_citations(citations, audience),
                                    ensure_ascii=False),
            "as_of": _date(as_of, "feedback: as_of"), "verdict": verdict,
            "comment": _text(comment, "comment", COMMENT_LIMIT),
            "reviewed_at": None, "review": "{}",
        }
        row["id"] = self._rows.add(row)
        return self._shown(row, operator=audience is None and owner is None)

    def _readable_citations(self, citations: Iterable[dict | str],
                            audience: str | None) -> list[dict]:
        citations = list(citations or [])
        if len(citations) > MAX_CITATIONS:
            raise InvalidInput(f"feedback: more than {MAX_CITATIONS} citations")
        kept = []
        for number, cited in enumerate(citations, 1):
            if isinstance(cited, str):
                label = _text(cited, f"citation {number}", LABEL_LIMIT)
                entry = parse_source(label)
                cited = {"label": label, "path": entry["path"], "page": entry.get("page"),
                         "start_line": (entry.get("lines") or [None])[0],
                         "end_line": (entry.get("lines") or [None, None])[1]}
            if not isinstance(cited, dict) or not cited.get("path"):
                raise InvalidInput(f"feedback: citation {number} names no document")
            entry = {key: cited.get(key) for key in CITATION_KEYS
                     if cited.get(key) is not None}
            for key in ("label", "path", "chunk_id"):
                if key in entry:
                    entry[key] = _text(entry[key], f"citation {number}'s {key}", LABEL_LIMIT)
            for key in ("page", "start_line", "end_line"):
                if key in entry and not isinstance(entry[key], int):
                    raise InvalidInput(f"feedback: citation {number}'s {key} is not a number")
            path = str(entry["path"]).removeprefix("./")
            # the same words for a document that does not exist and for one the caller
            # may not read: feedback is not a way to learn what the index holds
            if not any(d.path == path for d in self._index.documents(
                    audience=audience, as_of="none", paths=[path])):
                raise InvalidInput(f"feedback: citation {number} ({entry.get('label') or path})"
                                   " is not a document you can read")
            chunk = entry.get("chunk_id")
            if chunk is not None:
                found = self._index.engine.store.chunks([chunk], Filters(audience=audience))
                if not found or found[0].path != path:
                    raise InvalidInput(f"feedback: citation {number}'s passage is not one "
                                       "you can read")
            entry["path"] = path
            entry.setdefault("label", path)
            kept.append(entry)
        return kept

    def review(self, feedback_id: int, *, relevant: Sequence[str | dict] = (),
               facts: Sequence[str] = (), refuse: bool = False, note: str = "") -> dict:
        """The operator's review of one item: where the right answer is (`relevant`,
        labels such as `path:12-14`, checked against the index), what a right answer
        states (`facts`), or that nothing answers it (`refuse`). A wrong or incomplete
        verdict needs one of them (else the item cannot become an evaluation question);
        a right one may keep the answer's own citations."""
        item = self.get(feedback_id)
        entries = [parse_source(r) if isinstance(r, str) else dict(r) for r in relevant]
        held = {d.path for d in self._index.documents()}
        for entry in entries:
            if entry.get("path") not in held:
                raise InvalidInput(f"feedback {feedback_id}: {entry.get('path')!r} is not a "
                                   "document of this index")
        if refuse and entries:
            raise InvalidInput(f"feedback {feedback_id}: give sources or --refuse, not both")
        if item["verdict"] != "right" and not (entries or refuse):
            raise InvalidInput(f"feedback {feedback_id} says the answer was "
                               f"{item['verdict']}: give the correct source (path:lines, "
                               "file.pdf p. N), or say that nothing answers it (refuse)")
        review = {"relevant": entries, "facts": [str(f) for f in facts if str(f).strip()],
                  "refuse": bool(refuse), "note": _text(note, "note", COMMENT_LIMIT)}
        self._rows.set_review(feedback_id, json.dumps(review, ensure_ascii=False))
        return self.get(feedback_id)

    # -- reading ----------------------------------------------------------------------
    def list(self, *, audience: str | None = None, owner: str | None = None,
             verdicts: Sequence[str] = (), since: str | dt.date | None = None,
             until: str | dt.date | None = None, given_by: Sequence[str] = (),
             reviewed: bool | None = None, limit: int | None = None) -> list[dict]:
        """Feedback newest first. The operator (`audience` and `owner` None) reads every
        item; any other caller only the items it gave (same audience and owner), and
        nothing without an owner. Filters: `verdicts`, `since`/`until` (dates, both
        inclusive), `given_by` (the audiences that gave it), `reviewed`."""
        for verdict in verdicts:
            if verdict not in VERDICTS:
                raise InvalidInput(f"feedback: verdict {verdict!r} is not one of "
                                   f"{', '.join(VERDICTS)}")
        operator = audience is None and owner is None
        if not operator and not owner:
            return []
        until_day = _date(until, "until")
        if until_day:
            until_day = (dt.date.fromisoformat(until_day) + dt.timedelta(days=1)).isoformat()
        rows = self._rows.select(owner=None if operator else owner, verdicts=tuple(verdicts),
                                 since=_date(since, "since"), until=until_day,
                                 audiences=tuple(given_by), reviewed=reviewed, limit=limit)
        if not operator:
            rows = [r for r in rows if r["audience"] == audience]
        return [self._shown(r, operator) for r in rows]

    def get(self, feedback_id: int, *, audience: str | None = None,
            owner: str | None = None) -> dict:
        """One item, for the operator or the caller that gave it; NotFound otherwise."""
        operator = audience is None and owner is None
        found = self._rows.select(ids=(int(feedback_id),))
        if not found or not (operator or (owner and found[0]["owner"] == owner
                                          and found[0]["audience"] == audience)):
            raise NotFound(f"no feedback {feedback_id}")
        return self._shown(found[0], operator)

    @staticmethod
    def _shown(row: dict, operator: bool) -> dict:
        item = dict(row)
        item["refused"] = bool(item["refused"])
        item["citations"] = json.loads(item["citations"] or "[]")
        item["review"] = json.loads(item["review"] or "{}")
        if not operator:  # the caller's own rows: who they are is not news to them
            item.pop("owner", None)
        return item

    # -- exporting --------------------------------------------------------------------
    @staticmethod
    def export(items: Sequence[dict], fmt: str = "json") -> str:
        """Items as JSON (a list) or CSV (one row each, citations as labels)."""
        if fmt == "json":
            return json.dumps(list(items), ensure_ascii=False, indent=1)
        if fmt != "csv":
            raise InvalidInput(f"feedback export: format {fmt!r} is not json or csv")
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for item in items:
            row = {**item, "citations": "; ".join(
                c.get("label") or c["path"] for c in item["citations"]),
                "review": json.dumps(item["review"], ensure_ascii=False)
                if item["review"] else ""}
            writer.writerow({key: _cell(value) for key, value in row.items()})
        return out.getvalue()

    @staticmethod
    def to_eval(items: Sequence[dict]) -> tuple[list[dict], list[str]]:
        """Reviewed items as reference questions (`preuve.evaluate.reference`'s format),
        oldest first, and a line for each item left out and why. The correct source is
        the operator's review when it gives one, else, for an answer judged right, the
        passages it cited; a refusal judged right, or a review saying nothing answers
        it, becomes a `refuse: true` question."""
        questions, skipped = [], []
        for item in sorted(items, key=lambda i: i["id"]):
            review = item.get("review") or {}
            if not item.get("reviewed_at"):
                skipped.append(f"feedback {item['id']}: not reviewed")
                continue
            entry: dict[str, Any] = {"id": f"feedback-{item['id']}",
                                     "question": item["question"], "type": "feedback"}
            if item.get("as_of"):
                entry["as_of"] = item["as_of"]
            if item.get("audience"):
                entry["audience"] = item["audience"]
            relevant = review.get("relevant") or []
            right = item["verdict"] == "right"
            if review.get("refuse") or (right and item["refused"] and not relevant):
                entry["refuse"] = True
            elif relevant:
                entry["relevant"] = relevant
            elif right and item["citations"]:
                entry["relevant"] = [_relevant_of(c) for c in item["citations"]]
            else:
                skipped.append(f"feedback {item['id']}: no correct source")
                continue
            if review.get("facts"):
                entry["facts"] = list(review["facts"])
            questions.append(entry)
        return questions, skipped

    @staticmethod
    def eval_yaml(questions: list[dict]) -> str:
        import yaml  # here: a question never writes YAML

        return yaml.safe_dump(questions, allow_unicode=True, sort_keys=False, width=100)
