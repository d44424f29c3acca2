"""A generated answer, sentence by sentence: each is kept only if a passage supports it
(`support.Judge`: what it says beyond the question, exact tokens verbatim, key claim words,
across languages by meaning).

* A sentence that cites passages is judged against what it cites (the cited passages read
  as one); unsupported, it is dropped — a valid citation is not enough. A sentence whose
  citation does not hold is kept as written, so that verification refuses the answer.
* A sentence that cites nothing is cited to the given passage that best supports it, or
  dropped (and, under `MIN_UNITS` units, dropped: "10.", "Oui, 2." are in any passage).
* A sentence that points back ("This...", "Cela...", "Ces fonctions...") can only be
  supported by the passage of the sentence it points to (`_REFERS_BACK`).
* Headings and titles copied from a passage, and sentences that only restate the question,
  are dropped; a line announcing a list ("Steps:") is kept only with what follows it;
  code fences are kept around the code lines kept.

What remains must still answer (`Attribution.refusal`, a clear rule):

* nothing supported remains: refused;
* the answer's *key claim* — its first sentence that says anything beyond the question —
  was dropped: refused, since what remains are details around a claim that did not hold;
* a yes/no ("Oui.", "No, ...") whose claim was dropped (a bare "Oui.", or a yes/no
  that only says the question back, stands or falls with the next sentence that says
  something): refused, never shown without its polarity — dropping a
  "Oui." can turn an answer into its opposite.

Only passages that were given can be cited; the citations added are verified like any
other. `Attribution.rows` keep each sentence's support numbers for the operator
(`explain.attribution`); the sentence text is under `sentence` only (the server strips it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from preuve.answer.citations import parse_citations, verify
from preuve.answer.support import Judge, Support, is_fence, is_heading
from preuve.answer.support import clean as clean_sentence
from preuve.models import Hit

# An uncited sentence with fewer units (content words and exact tokens, the question's
# included; code and identifiers count two: `Claim.units`) states nothing a passage can be
# seen to support: never attributed.
MIN_UNITS = 3
# a sentence ends before an upper-case letter ("p. 2" and "20 %. 3" do not end one)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"»”)]*\s+(?=[\"«“(]?[A-ZÀ-ÖØ-Þ])|\n+")
_BRACKETS = re.compile(r"\[[^\[\]\n]*\]")
_WORDISH = re.compile(r"\w")

KEPT, ATTRIBUTED, DROPPED, UNCHECKED = "kept", "attributed", "dropped", "unchecked"
# A sentence that opens by pointing back ("This prints...", "Cela installe...", "Ces
# fonctions..."): what it says is about the sentence before, so only the passage that
# supports that sentence can support it — words found in another passage say something
# else about something else.
_REFERS_BACK = re.compile(r"^\W*(?:this|that|these|those|such|cela|ceci|ça|ce|cet|cette|ces)"
                          r"\b(?!\s*(?:is|was)?\s*(?:why|how|because))", re.I)


@dataclass
class Attribution:
    text: str
    attributed: list[dict] = field(default_factory=list)  # uncited, cited by support
    dropped: list[dict] = field(default_factory=list)  # sentence, why, support numbers
    kept: list[dict] = field(default_factory=list)  # cited and supported
    refusal: str | None = None  # why what remains no longer answers (None: it may)
    cited_any: bool = False  # the model cited something itself
    footnote_marks: int = 0  # "[16]" copied from a passage's text: no citation, taken off

    @property
    def note(self) -> str | None:
        """What was done, for the answer's `reason` (None when nothing was)."""
        parts = []
        if self.attributed:
            parts.append(f"{len(self.attributed)} uncited sentence(s) attributed to the "
                         "passage that supports them")
        counts: dict[str, int] = {}
        for row in self.dropped:
            counts[row["dropped_as"]] = counts.get(row["dropped_as"], 0) + 1
        words = {"uncited": "sentence(s) no passage supports dropped",
                 "cited": "cited sentence(s) their passage does not support dropped",
                 "restates": "sentence(s) that only restate the question dropped",
                 "heading": "heading(s) or title(s) dropped",
                 "fragment": "fragment(s) too short to attribute dropped",
                 "code": "code line(s) of a block with an unsupported line dropped"}
        for key, said in words.items():
            if counts.get(key):
                parts.append(f"{counts[key]} {said}")
        return "; ".join(parts) or None

    def explain(self) -> dict:
        out = {"attributed": self.attributed, "dropped": self.dropped, "kept": self.kept}
        if self.footnote_marks:
            out["footnote_marks"] = self.footnote_marks
        return out


def sentences(text: str) -> list[str]:
    """A generated answer cut into sentences (and lines), each with its trailing space."""
    inside = [m.span() for m in _BRACKETS.finditer(text)]
    out, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if any(a < match.start() < b for a, b in inside):
            continue  # "[guide.pdf p. 2]" is a citation, not a sentence end
        out.append(text[start:match.end()])
        start = match.end()
    if text[start:]:
        out.append(text[start:])
    return [s for s in out if s.strip()]


def _footnote_marks(text: str, passages: Sequence[Hit],
                    labels: Sequence[str]) -> tuple[str, int]:
    """`text` without the "[16]" marks that number no passage given but stand in a
    passage's text (footnote marks a model copied with the sentence: Qwen wrote "...par un
    chiffre (0-9). [16]"), and how many. They were never citations of a passage; the
    sentence is then judged as uncited. Any other bad number still refuses."""
    spans = []
    for c in parse_citations(text, labels):
        if c.number is not None and c.number > len(passages) and c.raw.startswith("[") \
                and any(c.raw in h.text for h in passages):
            spans.append(c.span)
    for start, end in reversed(spans):
        while start > 0 and text[start - 1] in " \t":
            start -= 1
        text = text[:start] + text[end:]
    return text, len(spans)


def unfinished(text: str) -> tuple[str, str]:
    """(text, tail): a reply the token limit cut ends in a sentence it never finished
    ("...dans le ré"); that tail is taken off (it says half of something)."""
    pieces = sentences(text)
    if not pieces:
        return text, ""
    last = pieces[-1].rstrip()
    if re.search(r"[.!?…:;)\]`\"»”]$", last) or is_fence(last):
        return text, ""
    cut = text.rstrip()[: len(text.rstrip()) - len(last)]
    return cut, last


def _pieces(text: str, labels: Sequence[str]) -> list[str]:
    """Sentences, a piece holding only citations joined to the sentence before it."""
    out: list[str] = []
    for piece in sentences(text):
        bare = piece
        for c in reversed(parse_citations(piece, labels)):
            bare = bare[:c.span[0]] + bare[c.span[1]:]
        if out and not _WORDISH.search(bare) and not is_fence(piece):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def _row(piece: str, support: Support | None, **extra) -> dict:
    row = {"sentence": piece.strip(), **extra}
    if support is not None:
        row.update(why=_why_code(support.why), share=round(support.share, 3),
                   cosine=None if support.cosine is None else round(support.cosine, 3),
                   new_units=len(support.new_words) + len(support.exact),
                   found_units=len(support.found_words) + len(support.exact)
                   - len(support.exact_missing),
                   exact_missing=len(support.exact_missing),
                   key_missing=len(support.key_missing),
                   cross_language=support.cross_language, route=support.route)
    return row


def _why_code(why: str) -> str:
    """The reason without any word of the sentence (rows may be shown to a caller)."""
    for prefix, code in (("not in the passage", "exact token not in the passage"),
                         ("key claim word absent", "key claim word absent from the passage"),
                         ("across languages", "meaning below threshold"),
                         ("share of new words", "share below threshold")):
        if why.startswith(prefix):
            return code
    return why


def attribute(text: str, passages: Sequence[Hit], embedder=None, *,
              question: str = "", judge: Judge | None = None) -> Attribution:
    """Judge each sentence of `text` against `passages` for `question` (see the module
    docstring): the kept text, what was dropped and why, and whether to refuse."""
    judge = judge or Judge(question, embedder)
    labels = [h.path for h in passages]
    result = Attribution("")
    text, result.footnote_marks = _footnote_marks(text, passages, labels)
    pieces = _pieces(text, labels)
    status: list[str] = []
    out: list[str] = []
    claims: list = []
    supports: list[Support | None] = []
    rows: dict[int, list[dict]] = {}  # a code line's row, moved if its block is dropped
    fence: int | None = None  # index of the open fence, inside a code block
    block_labels: dict[int, list[str]] = {}
    sources: list[set[str]] = []  # per piece: the chunks supporting it (judged ones)
    for piece in pieces:
        sources.append(set())
        claim = judge.claim(piece, labels)
        claims.append(claim)
        supports.append(None)
        if is_fence(piece):
            status.append("fence")
            out.append(piece)
            if fence is None:
                fence = len(out) - 1
            else:  # the block's lines are cited once, after it (never inside the code)
                cited = block_labels.get(fence)
                if cited:
                    body = piece.rstrip("\n")
                    out[-1] = (f"{body}\n{' '.join(f'[{c}]' for c in cited)}"
                               f"{piece[len(body):] or ''}")
                fence = None
            continue
        citations = parse_citations(piece, labels)
        if citations:
            result.cited_any = True
        if fence is not None and claim.units == 0:
            status.append("code")  # a brace, a blank line of code: kept with its block
            out.append(piece)
            continue
        # "Oui." alone, or "Yes, there is a limit" (the question said back with its
        # polarity): it stands or falls with the next sentence that says something
        if fence is None and (claim.polar == "bare" or (
                claim.polar == "lead" and judge.new_units(claim) == ([], []))):
            status.append("polar")
            out.append(piece)
            continue
        if claim.text.endswith(":") and not claim.exact and fence is None:
            status.append("intro")
            out.append(piece)
            continue
        if fence is None and is_heading(piece, passages, labels):
            result.dropped.append(_row(piece, None, why="a heading or title",
                                       dropped_as="heading"))
            status.append(DROPPED)
            out.append(piece)
            continue
        if citations:
            checked = verify(piece, passages)
            if not checked.ok:  # verification will refuse the answer and say why
                status.append(UNCHECKED)
                out.append(piece)
                continue
            cited = _cited_passages(checked.citations, passages)
            support = judge.support(claim, cited)
            supports[-1] = support
            label = ", ".join(dict.fromkeys(vc.label for vc in checked.citations))
            before = _antecedent(piece, status, sources)
            if support.supported and before and not before & {h.chunk_id for h in cited}:
                support.supported = False
                support.why = "refers back to a sentence another passage supports"
            if support.supported:
                sources[-1] = {h.chunk_id for h in cited}
                result.kept.append(_row(piece, support, cited=label))
                rows[len(status)] = result.kept
                status.append(KEPT)
            else:
                restates = support.why == "restates the question"
                result.dropped.append(_row(piece, support, cited=label,
                                           dropped_as="restates" if restates else "cited"))
                status.append(DROPPED)
            out.append(piece)
            continue
        # a sentence pointing back can only be the passage's of the sentence it points to
        before = _antecedent(piece, status, sources)
        scored = [judge.support(claim, [h]) for h in passages]
        if before:
            for h, one in zip(passages, scored, strict=True):
                if one.supported and h.chunk_id not in before:
                    one.supported = False
                    one.why = "refers back to a sentence another passage supports"
        best = max(range(len(scored)), key=lambda j: scored[j].rank(), default=None)
        support = scored[best] if best is not None else None
        supports[-1] = support
        if support is None:
            result.dropped.append(_row(piece, None, why="no passage given",
                                       dropped_as="uncited"))
            status.append(DROPPED)
            out.append(piece)
            continue
        if claim.units < MIN_UNITS and fence is None:
            result.dropped.append({**_row(piece, support), "why": "fewer than 3 units",
                                   "dropped_as": "fragment"})
            status.append(DROPPED)
            out.append(piece)
            continue
        if not support.supported:
            restates = support.why == "restates the question"
            result.dropped.append(_row(piece, support,
                                       dropped_as="restates" if restates else "uncited"))
            status.append(DROPPED)
            out.append(piece)
            continue
        hit = passages[best]
        sources[-1] = {hit.chunk_id}
        if fence is not None:
            block_labels.setdefault(fence, [])
            if hit.label not in block_labels[fence]:
                block_labels[fence].append(hit.label)
            out.append(piece)
            rows[len(status)] = result.attributed
            result.attributed.append(_row(piece, support, label=hit.label))
            status.append(ATTRIBUTED)
            continue
        body = piece.rstrip()
        tail = piece[len(body):]
        end = re.search(r"[.!?…]+$", body)
        cut = end.start() if end else len(body)
        out.append(f"{body[:cut]} [{hit.label}]{body[cut:]}{tail}")
        result.attributed.append(_row(piece, support, label=hit.label))
        status.append(ATTRIBUTED)

    judged = {KEPT, ATTRIBUTED, UNCHECKED}
    restating = {i for i, s in enumerate(supports)
                 if s is not None and s.why == "restates the question"}
    # a bare yes/no, an intro line: they stand or fall with the next sentence that says
    # something beyond the question; a fence stays around kept code
    for i in range(len(pieces) - 1, -1, -1):
        if status[i] in ("polar", "intro"):
            nxt = next((status[j] for j in range(i + 1, len(pieces))
                        if status[j] != "fence" and j not in restating), None)
            status[i] = KEPT if nxt in judged or nxt in ("polar", "intro") \
                else "lost-" + status[i]
    fences = [i for i, s in enumerate(status) if s == "fence"]
    for a, b in zip(fences[::2], fences[1::2], strict=False):
        # a block is one claim: shown whole, or not at all (a command missing a line
        # is another command)
        lines = [status[j] for j in range(a + 1, b) if status[j] not in ("code", "fence")]
        kept_code = bool(lines) and all(s in judged for s in lines)
        for j in range(a, b + 1):
            if not kept_code and j in rows:
                row = next(r for r in rows[j] if r["sentence"] == pieces[j].strip())
                rows[j].remove(row)
                result.dropped.append({**row, "why": "in a code block with an unsupported "
                                       "line", "dropped_as": "code"})
            if status[j] in ("fence", "code") or (not kept_code and status[j] in judged):
                status[j] = KEPT if kept_code else DROPPED
    if len(fences) % 2:  # a block left open: kept only around kept code
        last = fences[-1]
        status[last] = KEPT if any(s in judged for s in status[last:]) else DROPPED

    result.text = "".join(p for p, s in zip(out, status, strict=True)
                          if s in judged or s == KEPT).strip()
    fragments = {i for i, s in enumerate(supports)
                 if s is not None and claims[i].units < MIN_UNITS
                 and not parse_citations(pieces[i], labels)}
    result.refusal = _refusal(result, pieces, status, claims, supports,
                              restating | fragments, labels)
    return result


def _refusal(result: Attribution, pieces: list[str], status: list[str], claims: list,
             supports: list[Support | None], not_claims: set[int],
             labels: Sequence[str]) -> str | None:
    if UNCHECKED in status:
        return None  # verification refuses, naming the citation
    content = [i for i, s in enumerate(supports) if s is not None and i not in not_claims]
    note = f" ({result.note})" if result.note else ""
    if not result.text.strip() or not any(s in (KEPT, ATTRIBUTED) for s in status):
        if not result.cited_any:
            return ("citation check failed: the answer cites nothing and no passage "
                    f"supports it{note}")
        if not content:
            return f"support check failed: the answer only restates the question{note}"
        return f"support check failed: no sentence is supported by its passage{note}"
    for i, s in enumerate(status):
        if s == "lost-polar" or (claims[i].polar == "lead" and s == DROPPED):
            return ("support check failed: the answer's yes/no rests on a claim no "
                    "passage supports; shown without it, the answer could say the "
                    f"opposite{note}")
    if content and status[content[0]] == DROPPED:
        first = content[0]
        where = ("the passage it cites" if parse_citations(pieces[first], labels)
                 else "any passage")
        return (f"support check failed: the answer's first claim is not supported by "
                f"{where} ({_reason_of(result, pieces[first])}); what remains would not "
                f"answer the question{note}")
    return None


def _antecedent(piece: str, status: list[str], sources: list[set[str]]) -> set[str]:
    """For a sentence pointing back (`_REFERS_BACK`), the chunks supporting the sentence
    it points to: the last judged one before it (empty when there is none, or when the
    sentence points nowhere)."""
    if not _REFERS_BACK.match(clean_sentence(piece)):
        return set()
    for i in range(len(status) - 1, -1, -1):  # the piece itself is not in it yet
        if status[i] in (KEPT, ATTRIBUTED):
            return sources[i]
        if status[i] in (DROPPED, UNCHECKED):
            return set()
    return set()


def _cited_passages(citations, passages: Sequence[Hit]) -> list[Hit]:
    """The given passages a sentence's valid citations cover: every passage of a cited
    page (a page can be several chunks), of a cited file, or overlapping cited lines."""
    out: dict[str, Hit] = {}
    for vc in citations:
        if vc.passage is None:
            continue
        out[vc.passage.chunk_id] = vc.passage
        c = vc.citation
        for h in passages:
            if h.path != vc.passage.path:
                continue
            if c.kind == "page" and h.page is not None and vc.page is not None:
                last = vc.page + ((c.end_page - c.page) if c.end_page and c.page else 0)
                if vc.page <= h.page <= last:
                    out[h.chunk_id] = h
            elif c.kind == "file":
                out[h.chunk_id] = h
            elif c.kind == "lines" and h.start_line is not None and c.start_line is not None:
                end = h.end_line if h.end_line is not None else h.start_line
                if h.start_line <= (c.end_line or c.start_line) and c.start_line <= end:
                    out[h.chunk_id] = h
    return list(out.values())


def _reason_of(result: Attribution, piece: str) -> str:
    for row in result.dropped:
        if row["sentence"] == piece.strip():
            return str(row.get("why"))
    return "unsupported"
