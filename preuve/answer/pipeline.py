"""`ask`: retrieve, check the evidence, build the context, generate, verify every
citation, link the verified ones. A citation the code cannot verify never reaches the
user: the answer becomes the refusal, and the rejected text and reasons are kept."""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass, field
from typing import Any

from preuve.answer.answerability import Judgment, decide
from preuve.answer.attribution import attribute, unfinished
from preuve.answer.citations import verify
from preuve.answer.context import build_context, fallback_count
from preuve.answer.extractive import ExtractiveAnswerer
from preuve.answer.links import link_for, linkify, quoted_before, with_quote
from preuve.answer.prompt import build_messages
from preuve.answer.refusals import is_refusal, refusal
from preuve.answer.support import degenerate
from preuve.models import Hit
from preuve.text import question_language


@dataclass
class Answer:
    question: str
    answer: str
    refused: bool
    reason: str | None
    citations: list[dict] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    language: str = "en"
    rejected: str | None = None  # the generated text that failed verification
    standalone_question: str | None = None  # the rewritten follow-up, in a conversation
    evidence: float | None = None
    explain: dict[str, Any] = field(default_factory=dict)  # why: judgment, sentence scores

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question, "answer": self.answer, "refused": self.refused,
            "reason": self.reason, "citations": self.citations,
            "hits": [h.to_dict() for h in self.hits], "usage": self.usage,
            "language": self.language, "rejected": self.rejected,
            "standalone_question": self.standalone_question, "evidence": self.evidence,
            "explain": self.explain,
        }


def evidence_score(hits: list[Hit]) -> tuple[str | None, float | None]:
    """(measure, value): how strongly the retrieved passages match. The best dense cosine
    when the method used vectors (comparable across questions), else the best BM25 score;
    a threshold is only ever compared with the measure it was calibrated on."""
    for measure in ("dense", "bm25"):
        values = [h.scores[measure]["score"] for h in hits
                  if isinstance(h.scores.get(measure), dict)
                  and h.scores[measure].get("score") is not None]
        if values:
            return measure, float(max(values))
    return None, None


def answer_from_hits(question: str, hits: list[Hit], *, generator=None, embedder=None,
                     thresholds: dict[str, float] | None = None, link_base: str | None = None,
                     link=None,
                     budget: int = 3000, count_tokens=None, history: list[dict] | None = None,
                     on_token=None, timings: dict | None = None,
                     evidence: tuple[str | None, float | None] | None = None,
                     judgment: Judgment | None = None) -> Answer:
    """Everything after retrieval. `generator` None means extractive.

    Before anything is generated the evidence is judged: a threshold `calibrate` stored for
    the evidence measure decides alone (it was measured on this corpus); without one, the
    default `judgment` (answerability.judge) does. A refusal calls no generator.

    A generated answer is refused when it is degenerate (`support.degenerate`: a loop,
    the question or the prompt echoed); then each of its sentences must be supported by
    the passage it cites, or, uncited, is cited to the passage that supports it, else it
    is dropped; when what remains no longer answers, the answer is refused
    (`attribution.attribute`); every citation is verified. With
    `on_token`, the model's tokens are kept back: `on_token` gets only the final, verified
    answer (or the refusal), in word pieces, once verification is done.

    `link(verified_citation) -> url` builds each citation's link, in the text and in
    `citations` alike (default: `link_for` under `link_base`, else the passage's folder)."""
    language = question_language(question)
    refuse = refusal(language)
    timings = dict(timings or {})
    usage: dict[str, Any] = {"calls": [], "tokens_in": 0, "tokens_out": 0}

    explain: dict[str, Any] = {}

    def done(text: str, refused: bool, reason: str | None, citations=(), rejected=None):
        if on_token is not None and generator is not None:  # the verified text only
            for piece in re.findall(r"\S+\s*|\s+", text):
                on_token(piece)
        usage["latency_s"] = {k: round(v, 4) for k, v in timings.items()}
        usage["latency_s"]["total"] = round(sum(timings.values()), 4)
        return Answer(question, text, refused, reason, list(citations), hits, usage, language,
                      rejected, evidence=evidence, explain=explain)

    measure, evidence = evidence or evidence_score(hits)
    if judgment is not None:
        explain["judgment"] = judgment.numbers
    if not hits:
        return done(refuse, True, "no passage retrieved")
    verdict = decide(judgment, measure, evidence, thresholds)
    if verdict is not None:
        explain["decided_by"] = verdict.numbers["decided_by"]
        if not verdict.answerable:
            return done(refuse, True, verdict.reason)
    started = time.perf_counter()
    if generator is None:
        subject = judgment.numbers.get("read_first") if judgment is not None else None
        text, _, info = ExtractiveAnswerer(embedder).answer(question, hits, subject)
        passages = hits
        explain["sentences"] = info.pop("sentences", [])
        explain["kind"] = info.pop("kind", None)  # what the question asks for
        explain["choice"] = info.pop("choice", None)  # which passage answers, and why
        if info.get("refusal"):  # the quote lacks what the question asks for
            timings["generate"] = time.perf_counter() - started
            return done(refuse, True, info.pop("refusal"))
        usage["calls"].append({"generator": "extractive", **info})
    else:
        context = build_context(hits, budget, count_tokens or fallback_count)
        passages = context.passages
        messages = build_messages(question, context.text, language, history)
        # streamed tokens stay here: nothing reaches the client before it is verified
        generation = generator.generate(messages, stream=on_token is not None,
                                        on_token=(lambda _token: None) if on_token else None)
        text = generation.text
        usage["calls"].extend(generation.calls or [{"model": generation.model,
                                                     **generation.usage}])
        usage["tokens_in"] += int(generation.usage.get("prompt_tokens") or 0)
        usage["tokens_out"] += int(generation.usage.get("completion_tokens") or 0)
        usage["context_tokens"] = context.tokens
        usage["model"] = generation.model
    timings["generate"] = time.perf_counter() - started
    started = time.perf_counter()
    if not text.strip() or is_refusal(text):
        timings["verify"] = time.perf_counter() - started
        return done(refuse, True, "the generator found no answer in the passages")
    note = None
    if generator is not None:
        labels = [h.path for h in passages]
        why = degenerate(text, question, messages[0]["content"] if messages else "", labels)
        if why is not None:
            explain["attribution"] = {"degenerate": why}
            timings["verify"] = time.perf_counter() - started
            return done(refuse, True, f"degenerate answer: {why}", rejected=text)
        generated, tail = text, ""
        if generation.finish_reason == "length":  # the token limit cut the last sentence
            text, tail = unfinished(text)
        attribution = attribute(text, passages, embedder, question=question)
        explain["attribution"] = attribution.explain()
        if tail:
            # what was cut, in words (the text is the operator's: `rejected`)
            explain["attribution"]["unfinished_words"] = len(tail.split())
        note = attribution.note
        checked = verify(attribution.text, passages) if attribution.text.strip() else None
        if checked is not None and not checked.ok:
            timings["verify"] = time.perf_counter() - started
            return done(refuse, True, f"citation check failed: {checked.reason}",
                        rejected=generated)
        if attribution.refusal is not None:
            timings["verify"] = time.perf_counter() - started
            for row in explain["attribution"]["kept"]:  # a refused answer's text is in
                row.pop("sentence", None)  # `rejected` only (the server strips the rest)
            return done(refuse, True, attribution.refusal, rejected=generated)
        text = attribution.text
    verification = verify(text, passages)
    timings["verify"] = time.perf_counter() - started
    if not verification.ok:
        return done(refuse, True, f"citation check failed: {verification.reason}",
                    rejected=generated if generator is not None else text)
    linked, citations = cite(text, verification, passages,
                             link or functools.partial(link_for, base=link_base))
    return done(linked, False, note, citations)


def cite(text: str, verification, passages: list[Hit], link) -> tuple[str, list[dict]]:
    """A verified answer's text with its citations as links, and its `citations` entries
    (what `Answer.citations` holds), each linked by `link(verified_citation)`."""
    linked = linkify(text, verification, passages=passages, link=link)
    citations = []
    for cited in verification.citations:
        entry = cited.to_dict()
        entry["link"] = with_quote(link(cited), cited.passage,
                                   quoted_before(text, cited, verification))
        if cited.passage is not None:
            entry["doc_id"] = cited.passage.doc_id
            if cited.printed_page is not None:  # the page's printed label, where it differs
                entry["printed_page"] = cited.printed_page
                entry["shown_label"] = cited.shown_label
        citations.append(entry)
    return linked, citations
