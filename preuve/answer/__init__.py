"""Answers with verified citations: parse and check citations, refusal strings, links."""

from preuve.answer.citations import (
    REFUSAL,
    Citation,
    Verification,
    VerifiedCitation,
    is_refusal,
    parse_citations,
    refusal,
    verify,
)
from preuve.answer.links import link_for, linkify

__all__ = [
    "REFUSAL",
    "Citation",
    "Verification",
    "VerifiedCitation",
    "is_refusal",
    "link_for",
    "linkify",
    "parse_citations",
    "refusal",
    "verify",
]
