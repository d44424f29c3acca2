"""Questions about what changed between versions of a document ("qu'est-ce qui a changé
dans la politique de retours ?", "what changed in the expense policy since 2025-01-01?"):
recognised here (`what_changed`), answered with the differences of the version in force
at the caller's as-of date against the one before it (or the one in force on the date the
question names), each change citing both versions (`change_answer`).

`Index.ask` asks `what_changed` first; when the question is one and a document with
several versions the caller may read matches it, the answer comes from here, else the
question goes to the usual answerer. Every citation is verified like any answer's."""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass

from preuve.answer.citations import verify
from preuve.answer.links import link_for
from preuve.answer.pipeline import Answer, cite
from preuve.text import question_language
from preuve.versions import Change, VersionDiff

# what makes a question ask for changes, French and English
_ASKS = re.compile(
    r"qu['’]est[- ]ce qu(?:i|['’]il)\s+(?:a|ont|avait)?\s*(?:été\s+)?(?:chang|modifi)\w*"
    r"|qu['’]est[- ]ce qui\s+change"
    r"|quel(?:le)?s?\s+(?:sont\s+)?(?:les\s+)?(?:changements|modifications|nouveautés)"
    r"|(?:quel(?:le)?s?\s+sont\s+)?(?:les\s+)?différences?\s+entre\s+(?:les\s+|la\s+)?"
    r"versions?"
    r"|(?:what\s+are\s+)?(?:the\s+)?differences?\s+between\s+(?:the\s+)?versions?"
    r"|ce qui a (?:changé|été modifié)|quoi de neuf"
    r"|what(?:['’]s|\s+has|\s+have|\s+is|\s+was)?\s+(?:changed|new|different)"
    r"|what\s+changes|which\s+changes|(?:the\s+)?changes\s+(?:in|to|made\s+to)"
    r"|how\s+(?:has|did)\s+.+?\s+change",
    re.IGNORECASE)
_SINCE = re.compile(r"\b(?:since|depuis(?:\s+le)?|from|du)\s+(\d{4}-\d{2}-\d{2})\b",
                    re.IGNORECASE)
_FILLER = re.compile(r"\b(?:dans|de|du|des|la|le|les|l['’]|in|to|of|the|since|depuis|"
                     r"entre|between|versions?)\b", re.IGNORECASE)
MAX_CHANGES = 10
QUOTE = 90


@dataclass
class ChangeQuestion:
    subject: str  # what the question is about, without the asking words
    since: dt.date | None  # the date it names, if any


def what_changed(question: str) -> ChangeQuestion | None:
    """The question as a change question, or None when it is not one."""
    asked = _ASKS.search(question)
    if asked is None:
        return None
    since = None
    named = _SINCE.search(question)
    if named is not None:
        try:
            since = dt.date.fromisoformat(named.group(1))
        except ValueError:
            since = None
    rest = _SINCE.sub(" ", question[:asked.start()] + " " + question[asked.end():])
    subject = " ".join(_FILLER.sub(" ", rest).replace("?", " ").split())
    return ChangeQuestion(subject or question, since)


_WORDS = {
    "fr": {"intro": "« {title} » : {n} passage{s} {changed} entre la version {old} "
                    "({old_when}) et la version {new} ({new_when}) :",
           "changed": "modifié{s}", "added": "ajouté", "removed": "retiré",
           "since": "en vigueur depuis le {day}", "until": "en vigueur jusqu'au {day}",
           "always": "sans date", "more": "… et {n} autre{s} : `preuve diff {path}`.",
           "none": "« {title} » : aucun passage n'a changé entre la version {old} et la "
                   "version {new}.",
           "first": "« {title} » : la version {version} ({when}) est la première ; il n'y "
                    "a pas de version antérieure à comparer {label}."},
    "en": {"intro": "“{title}”: {n} passage{s} {changed} between version {old} "
                    "({old_when}) and version {new} ({new_when}):",
           "changed": "changed", "added": "added", "removed": "removed",
           "since": "in force from {day}", "until": "in force until {day}",
           "always": "undated", "more": "… and {n} more: `preuve diff {path}`.",
           "none": "“{title}”: no passage changed between version {old} and version {new}.",
           "first": "“{title}”: version {version} ({when}) is the first; there is no earlier "
                    "version to compare with {label}."},
}


def _quote(text: str, language: str) -> str:
    text = " ".join(text.split())
    text = text if len(text) <= QUOTE else text[:QUOTE].rstrip() + "…"
    return f"« {text} »" if language == "fr" else f"“{text}”"


def _when(doc, words: dict) -> str:
    if doc.effective_to:
        return words["until"].format(day=doc.effective_to)
    if doc.effective_from:
        return words["since"].format(day=doc.effective_from)
    return words["always"]


def _labels(units) -> str:
    labels = list(dict.fromkeys(u.label for u in units))
    shown = labels[:1] if len(labels) == 1 else [labels[0], labels[-1]]
    return " ".join(f"[{label}]" for label in shown)


def _line(change: Change, language: str) -> str:
    words = _WORDS[language]
    heading = change.heading.split(" > ")[-1].strip()
    head = f"{heading} : " if language == "fr" and heading else f"{heading}: " if heading else ""
    if change.kind in ("added", "removed"):
        units = change.new if change.kind == "added" else change.old
        quoted = _quote(" ".join(u.text for u in units), language)
        return f"- {head}{words[change.kind]} {quoted} {_labels(units)}"
    edits = [(a, b) for a, b in change.words() if a or b][:2]
    shown = "; ".join(f"{_quote(a, language) if a else '∅'} → {_quote(b, language) if b else '∅'}"
                      for a, b in edits)
    return f"- {head}{shown} {_labels(change.old)} → {_labels(change.new)}"


def change_text(diff: VersionDiff, language: str) -> str:
    """The differences as an answer's text, every change citing the version(s) it is in."""
    words = _WORDS["fr" if language == "fr" else "en"]
    language = "fr" if language == "fr" else "en"
    title = diff.new.title or diff.new.path
    old, new = diff.old.version or diff.old.path, diff.new.version or diff.new.path
    if not diff.changes:
        return words["none"].format(title=title, old=old, new=new)
    n = len(diff.changes)
    plural = "s" if n > 1 else ""
    lines = [words["intro"].format(
        title=title, n=n, s=plural, changed=words["changed"].format(s=plural), old=old,
        new=new, old_when=_when(diff.old, words), new_when=_when(diff.new, words))]
    lines += [_line(change, language) for change in diff.changes[:MAX_CHANGES]]
    if n > MAX_CHANGES:
        more = n - MAX_CHANGES
        lines.append(words["more"].format(n=more, s="s" if more > 1 else "",
                                          path=diff.new.path))
    return "\n".join(lines)


def first_version_answer(question: str, doc, passage, *, link=None,
                         link_base: str | None = None) -> Answer | None:
    """The answer when the version in force is a document's first: nothing before it to
    compare with (a later version, not yet in force on the caller's date, is not named)."""
    language = "fr" if question_language(question) == "fr" else "en"
    words = _WORDS[language]
    text = words["first"].format(title=doc.title or doc.path, version=doc.version or "1",
                                 when=_when(doc, words), label=f"[{passage.label}]")
    verification = verify(text, [passage])
    if not verification.ok:
        return None
    linked, citations = cite(text, verification, [passage],
                             link or functools.partial(link_for, base=link_base))
    return Answer(question, linked, False, None, citations, [passage],
                  {"calls": [{"generator": "changes"}]}, language,
                  explain={"decided_by": "what changed between versions",
                           "changes": {"first": doc.path}})


def change_answer(question: str, diff: VersionDiff, *, link=None,
                  link_base: str | None = None, on_token=None) -> Answer | None:
    """The answer listing `diff`'s changes, its citations verified against the passages
    of both versions; None when they do not verify (the usual answerer takes over)."""
    language = question_language(question)
    text = change_text(diff, language)
    passages = diff.passages or []
    explain = {"changes": diff.to_dict(), "decided_by": "what changed between versions"}
    if not diff.changes:
        return Answer(question, text, False, None, [], passages, {}, language,
                      explain=explain)
    verification = verify(text, passages)
    if not verification.ok:
        return None
    linked, citations = cite(text, verification, passages,
                             link or functools.partial(link_for, base=link_base))
    if on_token is not None:
        for piece in re.findall(r"\S+\s*|\s+", linked):
            on_token(piece)
    return Answer(question, linked, False, None, citations, passages,
                  {"calls": [{"generator": "changes"}]}, language, explain=explain)
