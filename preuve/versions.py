"""Effective-dated versions of one document, and what changed between two of them:
`Index.versions`, behind `preuve diff PATH --from DATE --to DATE` and the answer to
"what changed in ... since ...?" (`preuve.answer.changes`).

    index.versions.of("handbook/retours-v2.md", audience="public")   # oldest first
    diff = index.versions.diff("handbook/retours-v2.md", since="2026-10-01",
                               until="2026-11-05", audience="public")
    for change in diff.changes: change.kind, change.old_label, change.new_label

Versions of a document are the documents of one folder with the same title (the sample's
`retours-v1.md` and `retours-v2.md`, both "Politique de retours"), or, without a title, the
same file name once a version mark is taken off (`guide-v2.md`, `guide_2025-01.pdf`). Only
versions the caller's audience may read take part; the one in force on a date is the latest
whose `effective_from` is on or before it and whose `effective_to` is not before it.

A diff compares the versions' indexed passages, cut into units a reader cites: paragraphs,
list items and headings with their lines where the format has lines (Markdown, text, code,
Word paragraphs, each its own unit), sentences on their page for a PDF (titles apart).
Units are aligned by `difflib`; every
run of units that differs is one change (`changed`, `added` or `removed`) with the units of
both sides, each carrying the citation label of where it is.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from preuve.errors import InvalidInput, NotFound
from preuve.models import Document, Filters, Hit
from preuve.retrieve.filters import parse_day

if TYPE_CHECKING:
    from preuve.index import Index

# a version mark at the end of a file name: -v2, _v2, .v2, -2025, -2025-11, -2025-11-01
_VERSION_MARK = re.compile(r"([-_.]v?\d+(?:[-_.]\d+)*|[-_.]v\d+[a-z]?)$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=\S)")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
MAX_UNIT_CHARS = 1200


def family_key(doc: Document) -> tuple[str, str]:
    """What the versions of one document share: their folder and title (else file name
    without its version mark)."""
    folder, _, name = doc.path.rpartition("/")
    if doc.title.strip():
        return folder, " ".join(doc.title.split()).casefold()
    stem, ext = os.path.splitext(name)
    return folder, _VERSION_MARK.sub("", stem).casefold() + ext.lower()


def in_force(versions: list[Document], day: dt.date | None) -> Document | None:
    """The version in force on `day` (None: the latest)."""
    if day is None:
        return versions[-1] if versions else None
    iso = day.isoformat()
    found = [d for d in versions if (d.effective_from or "") <= iso
             and (d.effective_to is None or d.effective_to >= iso)]
    return found[-1] if found else None


@dataclass
class Unit:
    """A paragraph, item, heading or sentence of one version, where it is."""

    text: str
    label: str
    passage: Hit = field(repr=False)
    heading: str = ""

    @property
    def key(self) -> str:
        return " ".join(self.text.split())


@dataclass
class Change:
    kind: str  # changed | added | removed
    old: list[Unit]
    new: list[Unit]

    @property
    def heading(self) -> str:
        units = self.new or self.old
        return units[0].heading if units else ""

    def words(self) -> list[tuple[str, str]]:
        """(removed words, added words) of each edit inside the change, word by word."""
        before = " ".join(u.key for u in self.old).split()
        after = " ".join(u.key for u in self.new).split()
        edits = []
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal":
                edits.append((" ".join(before[i1:i2]), " ".join(after[j1:j2])))
        return edits

    def marks(self) -> tuple[list[list], list[list]]:
        """Each unit of both sides as segments [text, changed]: its words, the runs that
        the other side does not have marked (what a diff view strikes out or inserts)."""
        sides = []
        for units in (self.old, self.new):
            sides.append([(n, word) for n, unit in enumerate(units)
                          for word in unit.key.split()])
        changed = [[True] * len(side) for side in sides]
        matcher = difflib.SequenceMatcher(None, [w for _, w in sides[0]],
                                          [w for _, w in sides[1]], autojunk=False)
        for block in matcher.get_matching_blocks():
            for i in range(block.size):
                changed[0][block.a + i] = changed[1][block.b + i] = False
        out = []
        for side, flags, units in zip(sides, changed, (self.old, self.new), strict=True):
            per_unit: list[list] = [[] for _ in units]
            for (n, word), flag in zip(side, flags, strict=True):
                segments = per_unit[n]
                if segments and segments[-1][1] == flag:
                    segments[-1][0] += " " + word
                else:
                    segments.append([word, flag])
            out.append(per_unit)
        return out[0], out[1]

    def to_dict(self) -> dict[str, Any]:
        old_marks, new_marks = self.marks()
        return {"kind": self.kind, "heading": self.heading,
                "old": [{"label": u.label, "text": u.text, "marks": m}
                        for u, m in zip(self.old, old_marks, strict=True)],
                "new": [{"label": u.label, "text": u.text, "marks": m}
                        for u, m in zip(self.new, new_marks, strict=True)],
                "words": [{"removed": a, "added": b} for a, b in self.words()]}


@dataclass
class VersionDiff:
    old: Document
    new: Document
    changes: list[Change]

    @property
    def passages(self) -> list[Hit]:
        """The passages the changes cite, each once (both versions)."""
        seen: dict[str, Hit] = {}
        for change in self.changes:
            for unit in change.old + change.new:
                seen.setdefault(unit.passage.chunk_id, unit.passage)
        return list(seen.values())

    def to_dict(self) -> dict[str, Any]:
        def version(doc: Document) -> dict:
            return {"path": doc.path, "doc_id": doc.doc_id, "title": doc.title,
                    "version": doc.version, "effective_from": doc.effective_from,
                    "effective_to": doc.effective_to}
        return {"old": version(self.old), "new": version(self.new),
                "changes": [c.to_dict() for c in self.changes]}


def _line_units(hit: Hit, seen_lines: set[int]) -> list[Unit] | None:
    """Paragraphs, items and headings of a chunk whose text is its lines; None when the
    text does not map onto them (then it is cut into sentences)."""
    lines = hit.text.split("\n")
    if hit.start_line is None or hit.end_line is None or \
            len(lines) != hit.end_line - hit.start_line + 1:
        return None
    units, block = [], []

    def flush():
        if block:
            first, last = block[0][0], block[-1][0]
            where = f"{first}" if first == last else f"{first}-{last}"
            units.append(Unit("\n".join(t for _, t in block), f"{hit.path}:{where}", hit,
                              hit.heading or ""))
            block.clear()

    for number, line in enumerate(lines, hit.start_line):
        if number in seen_lines:  # overlap with the chunk before
            continue
        seen_lines.add(number)
        if not line.strip():
            flush()
            continue
        alone = hit.kind == "docx" or line.lstrip().startswith("#")  # a Word paragraph
        if alone or _ITEM.match(line):
            flush()
        block.append((number, line))
        if alone:
            flush()
    flush()
    return units


def _is_title(line: str, following: str) -> bool:
    """A line of a PDF page that reads as a title: short, no closing punctuation, and the
    next line starts a sentence."""
    line = line.strip()
    return (0 < len(line) <= 70 and not line.endswith((".", ",", ";", ":", "!", "?"))
            and following[:1].isupper())


def _after_overlap(lines: list[str], before: list[str]) -> list[str]:
    """A passage's lines without the words it repeats from the end of the passage before
    (chunks overlap by words, and the overlap may start mid-sentence)."""
    words = " ".join(lines).split()
    n = next((n for n in range(min(len(words), len(before)), 0, -1)
              if before[-n:] == words[:n]), 0)
    out = []
    for line in lines:
        taken = line.split()
        if n >= len(taken):
            n -= len(taken)
            continue
        out.append(" ".join(taken[n:]))
        n = 0
    return out


def _sentence_units(hit: Hit, recent: list[str], before: list[str] | None = None) -> list[Unit]:
    """Sentences of a passage with no lines of its own (PDF), titles apart; the words it
    repeats from the passage `before` on the same page (their overlap) and a sentence
    already taken are skipped."""
    lines = [line for line in hit.text.split("\n") if line.strip()]
    if before:
        lines = _after_overlap(lines, before)
    pieces, block = [], []
    for n, line in enumerate(lines):
        following = lines[n + 1].strip() if n + 1 < len(lines) else ""
        if _is_title(line, following):
            pieces.append(" ".join(block))
            pieces.append(line)
            block = []
        else:
            block.append(line)
    pieces.append(" ".join(block))
    units = []
    for piece in pieces:
        for sentence in _SENTENCE_END.split(" ".join(piece.split())):
            key = " ".join(sentence.split())
            if not key or key in recent:
                continue
            recent.append(key)
            del recent[:-8]
            units.append(Unit(sentence[:MAX_UNIT_CHARS], hit.label, hit, hit.heading or ""))
    return units


def units_of(passages: list[Hit]) -> list[Unit]:
    """A version's passages (in document order) as the units a diff aligns."""
    units: list[Unit] = []
    seen_lines: set[int] = set()
    recent: list[str] = []
    previous = None
    for hit in passages:
        by_lines = _line_units(hit, seen_lines)
        if by_lines is None:
            before = (previous.text.split() if previous is not None
                      and (previous.path, previous.page) == (hit.path, hit.page) else None)
            by_lines = _sentence_units(hit, recent, before)
        units.extend(by_lines)
        previous = hit
    return units


def compare(old: list[Unit], new: list[Unit]) -> list[Change]:
    """The runs of units that differ between two versions, in the new version's order."""
    matcher = difflib.SequenceMatcher(None, [u.key for u in old], [u.key for u in new],
                                      autojunk=False)
    changes = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        kind = {"replace": "changed", "delete": "removed", "insert": "added"}[op]
        changes.append(Change(kind, old[i1:i2], new[j1:j2]))
    return changes


class Versions:
    """The effective-dated versions of the index's documents (module docstring)."""

    def __init__(self, index: Index):
        self._index = index

    def of(self, target: str, *, audience: str | None = None,
           readable: list[Document] | None = None) -> list[Document]:
        """The versions `audience` may read of the document `target` names (a path or
        doc_id of any of its versions), oldest first; NotFound when it names none.
        `readable`: the documents `audience` may read, when the caller has them already."""
        target = str(target).removeprefix("./").rstrip("/")
        if readable is None:
            readable = self._index.documents(audience=audience)
        named = [d for d in readable if target in (d.path, d.doc_id)
                 or d.path.endswith("/" + target)]
        if not named:
            raise NotFound(f"{target}: no such document")
        key = family_key(named[0])
        return sorted((d for d in readable if family_key(d) == key),
                      key=lambda d: (d.effective_from or "", d.version or "", d.path))

    def diff(self, target: str, *, since: str | dt.date | None = None,
             until: str | dt.date | None = "today", audience: str | None = None) -> VersionDiff:
        """What changed in `target` between the version in force on `since` (None: the
        version before the one of `until`) and the one in force on `until` (None: the
        latest), for `audience`."""
        versions = self.of(target, audience=audience)
        if len(versions) < 2:
            raise InvalidInput(f"{versions[0].path}: only one version (nothing to compare; "
                               "versions share a folder and a title, with effective dates)")
        until_day, since_day = parse_day(until, "--to"), parse_day(since, "--from")
        new = in_force(versions, until_day)
        if new is None:
            raise NotFound(f"{versions[0].path}: no version in force on {until_day}")
        if since_day is None:
            older = versions[:versions.index(new)]
            if not older:
                raise InvalidInput(f"{new.path}: the first version in force on {until_day}; "
                                   "nothing before it to compare with")
            old = older[-1]
        else:
            if until_day is not None and since_day > until_day:
                raise InvalidInput(f"--from {since_day} is after --to {until_day}")
            old = in_force(versions, since_day)
            if old is None:
                raise NotFound(f"{versions[0].path}: no version in force on {since_day} "
                               f"(the first is in force from {versions[0].effective_from})")
        return self.between(old, new, audience=audience)

    def between(self, old: Document, new: Document, *,
                audience: str | None = None) -> VersionDiff:
        """The changes from `old` to `new` (two documents `audience` may read)."""
        filters = Filters(audience=audience)
        store = self._index.engine.store
        before = units_of(store.document_chunks(old.doc_id, filters))
        after = units_of(store.document_chunks(new.doc_id, filters))
        return VersionDiff(old, new, compare(before, after) if old.doc_id != new.doc_id
                           else [])

    def first_in_force(self, versions: list[Document], as_of, *,
                       audience: str | None = None) -> tuple[Document, Hit] | None:
        """(the first version, its first passage) when the version in force on `as_of`
        is the first of `versions`; else None."""
        current = in_force(versions, parse_day(as_of, "as_of"))
        if current is None or current is not versions[0]:
            return None
        passages = self._index.engine.store.document_chunks(current.doc_id,
                                                            Filters(audience=audience))
        return (current, passages[0]) if passages else None

    def changed_document(self, subject: str, *, audience: str | None = None,
                         as_of: str | dt.date | None = "today",
                         paths=()) -> list[Document] | None:
        """The versions of the document a "what changed" question is about: the first
        document found for `subject` (for `audience`, any date; another document with
        versions further down is about something else), when one of its versions is in
        force on `as_of`; None when nothing is found."""
        hits = self._index.search(subject, k=1, as_of="none", audience=audience, paths=paths)
        if not hits:
            return None
        versions = self.of(hits[0].doc_id, audience=audience)
        return versions if in_force(versions, parse_day(as_of, "as_of")) is not None else None
