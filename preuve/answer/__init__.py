"""Answers with verified citations: parse and check citations, refusal strings, links."""

from preuve.answer import citations
from preuve.answer.citations import *  # noqa: F403 (the names in citations.__all__)
from preuve.answer.links import link_for, linkify
from preuve.answer.refusals import REFUSAL, is_refusal, refusal

__all__ = [*citations.__all__, "REFUSAL", "is_refusal", "link_for", "linkify", "refusal"]
