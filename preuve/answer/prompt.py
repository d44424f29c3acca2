"""Chat messages for a grounded answer: a short system prompt, the conversation so far, and
the passages (each under the header that is its citation label) followed by the question.

The prompt is in English whatever the question's language (small and mid-size models follow
English instructions best); the model is told to answer in the question's language and, when
the passages do not hold the answer, to reply with the exact refusal string of that language,
which the answer pipeline compares verbatim.
"""

from __future__ import annotations

from collections.abc import Iterable

from preuve.answer.refusals import REFUSAL

# The exact refusal per language (SPEC: Answer), defined once in citations.py.
REFUSALS: dict[str, str] = REFUSAL

_LANGUAGE_NAMES: dict[str, str] = {
    "fr": "French", "en": "English", "de": "German", "es": "Spanish", "it": "Italian",
    "nl": "Dutch", "pt": "Portuguese",
}

SYSTEM_PROMPT = """\
You answer questions using only the passages given by the user. Each passage starts with a \
header line that is its citation label.
Rules:
1. Use only facts stated in the passages. Do not use outside knowledge and do not guess.
2. Answer in {language}, the language of the question, briefly.
3. After each claim, cite the passage it comes from by copying its header exactly as \
written, in square brackets, for example [facturo/tva.py:6-10] or \
[handbook/teletravail.pdf p. 2]. Never invent a header or a line number.
4. If the passages do not contain the answer, reply exactly: {refusal}
   Write nothing else in that case."""


def normalize_language(language: str | None) -> str:
    """'fr', 'fr-FR', 'fr_CA', 'French', 'français' -> 'fr'; empty -> 'en'."""
    code = (language or "").strip().lower().replace("_", "-").split("-")[0]
    if not code:
        return "en"
    for short, name in _LANGUAGE_NAMES.items():
        if code == name.lower():
            return short
    if code in ("francais", "français"):
        return "fr"
    return code


def refusal_for(language: str | None) -> str:
    """The exact refusal string for `language` (English when the language has none)."""
    return REFUSALS.get(normalize_language(language), REFUSALS["en"])


def system_prompt(language: str | None, refusal: str | None = None) -> str:
    code = normalize_language(language)
    return SYSTEM_PROMPT.format(
        language=_LANGUAGE_NAMES.get(code, code),
        refusal=refusal if refusal is not None else refusal_for(code),
    )


def _history_messages(history: Iterable[dict] | None) -> list[dict]:
    out: list[dict] = []
    for turn in history or ():
        role = turn.get("role")
        content = turn.get("content")
        if role not in ("user", "assistant"):
            continue  # system turns and tool calls of earlier exchanges are not replayed
        if not isinstance(content, str) or not content.strip():
            continue
        out.append({"role": role, "content": content})
    return out


def build_messages(
    question: str,
    context: str,
    language: str,
    history: list[dict] | None = None,
    *,
    refusal: str | None = None,
) -> list[dict]:
    """OpenAI chat messages asking `question` over `context`.

    `context` is the passages as assembled by the caller, each under a header line that is
    its citation label. `language` is the question's language ('fr', 'en', ...); `refusal`
    overrides the exact refusal string (default: the language's, see `REFUSALS`).
    `history` is earlier turns ({"role": "user"|"assistant", "content": ...}), oldest first;
    only user and assistant turns with text are kept.
    """
    user = (
        "Passages:\n\n"
        f"{context.strip()}\n\n"
        f"Question: {question.strip()}"
    )
    return [
        {"role": "system", "content": system_prompt(language, refusal)},
        *_history_messages(history),
        {"role": "user", "content": user},
    ]
