"""The project's own reference questions: a YAML list or JSONL file.

    - id: tele-jours
      question: "Combien de jours de télétravail par semaine ?"
      type: factual                 # free label, for the per-type breakdown
      lang: fr                      # optional label for the per-language breakdown, e.g.
                                    # en, fr, fr-en (a French question, English documents)
      as_of: 2026-11-05             # optional: versions in force that day
      audience: public              # optional: absent = the operator (sees everything)
      relevant:                     # a hit is relevant if it matches any entry
        - {path: handbook/teletravail.pdf, page: 2}
        - {path: facturo/numerotation.py, lines: [7, 20]}   # overlapping lines
        - {path: handbook/conges.md, section: "Congés payés"}  # heading contains
      facts: ["2 jours"]            # what a right answer says (answer evaluation): each
                                    # fact a string, or a list of accepted wordings
                                    # (any one counts): [["dpkg -L", "dpkg --listfiles"]]
      refuse: true                  # nothing in the corpus answers it
      absent: ["flatpak"]           # refuse questions: words the corpus must not hold
                                    # (checked by evalsets/check.py, not by evaluation)
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from preuve.errors import InvalidInput
from preuve.models import Hit


@dataclass
class Relevant:
    path: str
    page: int | None = None
    lines: tuple[int, int] | None = None
    section: str | None = None

    def matches(self, hit: Hit) -> bool:
        if hit.path != self.path.removeprefix("./"):
            return False
        if self.page is not None and hit.page != self.page:
            return False
        if self.lines is not None:
            if hit.start_line is None:
                return False
            end = hit.end_line if hit.end_line is not None else hit.start_line
            if end < self.lines[0] or hit.start_line > self.lines[1]:
                return False
        if self.section is not None and self.section.lower() not in (hit.heading or "").lower():
            return False
        return True


class Fact(str):
    """One fact a right answer states. The string is its first wording; `alternatives`
    holds every accepted wording (a plain string in the file is the only one), so code
    that treats facts as strings keeps working."""

    alternatives: tuple[str, ...]

    def __new__(cls, wordings: str | list | tuple) -> Fact:
        if isinstance(wordings, str):
            wordings = [wordings]
        if not isinstance(wordings, list | tuple):
            raise ValueError(f"a fact is a string or a list of strings, not {wordings!r}")
        alternatives = tuple(str(w) for w in wordings if str(w).strip())
        if not alternatives:
            raise ValueError("a fact needs at least one non-empty wording")
        fact = super().__new__(cls, alternatives[0])
        fact.alternatives = alternatives
        return fact

    def __getnewargs__(self) -> tuple:
        return (self.alternatives,)

    def __repr__(self) -> str:
        return f"Fact({list(self.alternatives)!r})"


@dataclass
class RefQuestion:
    id: str
    question: str
    type: str = "all"
    lang: str | None = None
    as_of: str | None = None
    audience: str | None = None
    relevant: list[Relevant] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    refuse: bool = False
    absent: list[str] = field(default_factory=list)


def load_reference(path: str | Path) -> list[RefQuestion]:
    """Questions from a `.yaml`/`.yml` list or a `.jsonl` file; errors name the entry."""
    path = Path(path)
    try:
        raw = path.read_text("utf-8")
        if path.suffix in (".jsonl", ".ndjson"):
            entries = [json.loads(line) for line in raw.splitlines() if line.strip()]
        else:
            entries = yaml.safe_load(raw) or []
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path}: cannot read it ({exc})") from None
    except (ValueError, yaml.YAMLError) as exc:  # json's and YAML's syntax errors
        syntax = "JSON lines" if path.suffix in (".jsonl", ".ndjson") else "YAML"
        raise InvalidInput(f"{path}: not valid {syntax} ({' '.join(str(exc).split())})") \
            from None
    if not isinstance(entries, list):
        raise InvalidInput(f"{path}: expected a list of questions")
    questions, seen = [], set()
    for number, entry in enumerate(entries, 1):
        try:
            question = _question(entry, number)
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"{path}: question {number}: {exc}") from None
        if question.id in seen:
            raise InvalidInput(f"{path}: question id {question.id!r} appears twice")
        seen.add(question.id)
        questions.append(question)
    return questions


def _question(entry: dict[str, Any], number: int) -> RefQuestion:
    if not isinstance(entry, dict) or not entry.get("question"):
        raise InvalidInput("needs at least a 'question'")
    relevant = []
    for spec in entry.get("relevant") or []:
        lines = spec.get("lines")
        relevant.append(Relevant(
            path=str(spec["path"]),
            page=int(spec["page"]) if spec.get("page") is not None else None,
            lines=(int(lines[0]), int(lines[-1])) if lines else None,
            section=spec.get("section"),
        ))
    as_of = entry.get("as_of")
    if isinstance(as_of, dt.date):
        as_of = as_of.isoformat()
    refuse = bool(entry.get("refuse", False))
    if not relevant and not refuse:
        raise InvalidInput("lists no relevant passage and is not marked refuse: true")
    facts = entry.get("facts") or []
    if not isinstance(facts, list):
        raise InvalidInput("'facts' is a list (of strings, or of lists of alternatives)")
    lang = entry.get("lang")
    return RefQuestion(
        id=str(entry.get("id") or f"q{number}"), question=str(entry["question"]),
        type=str(entry.get("type") or "all"), lang=str(lang) if lang else None, as_of=as_of,
        audience=entry.get("audience"), relevant=relevant, facts=[Fact(f) for f in facts],
        refuse=refuse, absent=[str(a) for a in entry.get("absent") or []],
    )
