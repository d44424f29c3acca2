"""Conversations: `Index.conversations`, the noun a conversation is opened and read
through (`Index.chat` answers one turn of one).

    cid = index.conversations.open(audience="public", owner=caller_digest)
    index.chat("Combien de jours de télétravail ?", conversation=cid, audience="public",
               owner=caller_digest)
    index.conversations.history(cid, audience="public", owner=caller_digest)

A conversation keeps the audience and the owner (the server's digest of an API key; None:
the operator) it was opened with: another audience or owner gets the same NotFound as for
an id that does not exist. Turns are kept in the index's database (`SqlStore.conversations`),
so every process on one database sees the same ones.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from preuve.answer.pipeline import Answer
from preuve.errors import NotFound

if TYPE_CHECKING:
    from preuve.store import IndexStore


class Conversations:
    """The conversations of one index (see the module's docstring)."""

    def __init__(self, store: IndexStore):
        self._rows = store.conversations

    def open(self, audience: str | None = None, owner: str | None = None) -> str:
        """A new, empty conversation bound to `audience` and `owner`; returns its id."""
        conversation = uuid.uuid4().hex[:12]
        self._rows.create(conversation, audience, owner)
        return conversation

    def history(self, conversation: str, audience: str | None = None,
                owner: str | None = None) -> list[dict]:
        """A conversation's turns, for the audience and owner that opened it only; anyone
        else gets NotFound, as for an id that does not exist."""
        exists, opened_for = self._rows.audience(conversation)
        if (not exists or opened_for != audience
                or self._rows.owner(conversation) != owner):
            raise NotFound(f"no conversation {conversation!r}")
        return self._rows.messages(conversation)

    def add_turn(self, conversation: str, question: str, standalone: str,
                 answer: Answer) -> None:
        """Keep one turn: the question (and the standalone question it was searched as),
        then the answer with its refusal and citations."""
        self._rows.add(conversation, "user", question, standalone)
        self._rows.add(conversation, "assistant", answer.answer,
                       data={"refused": answer.refused, "reason": answer.reason,
                             "citations": answer.citations})
