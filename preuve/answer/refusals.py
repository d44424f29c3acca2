"""The exact refusal strings: what `ask` says when the passages do not hold the answer
(and what a model is told to say), one per language."""

from __future__ import annotations

__all__ = ["REFUSAL", "is_refusal", "refusal"]

REFUSAL = {"fr": "Je ne sais pas.", "en": "I don't know."}


def refusal(language: str | None = "en") -> str:
    """The exact refusal string for `language` (`fr`, `fr-CA`, `FR`…); English otherwise."""
    lang = (language or "").strip().lower().replace("_", "-").split("-")[0]
    return REFUSAL.get(lang, REFUSAL["en"])


def is_refusal(text: str | None) -> bool:
    """True when `text` is exactly a refusal string (either language), ignoring outer space."""
    return text is not None and text.strip() in REFUSAL.values()
