"""Answers with verified citations: parse and check citations, refusal strings, links."""

from preuve.answer import citations
from preuve.answer.citations import *  # noqa: F403 (the names in citations.__all__)
from preuve.answer.links import link_for, linkify

__all__ = [*citations.__all__, "link_for", "linkify"]
