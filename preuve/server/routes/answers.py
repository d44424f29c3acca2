"""Answer routes: ask, and conversations (bound to the key that opened them)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request

from preuve.errors import NotFound
from preuve.server.oplog import note_refusal
from preuve.server.routes.models import AskRequest, MessageRequest
from preuve.server.state import App, Services, Who
from preuve.server.stream import stream_answer, wants_stream
from preuve.server.views import public_answer, public_message, viewer_link

router = APIRouter(tags=["answers"])
log = logging.getLogger("preuve.server")
NO_CONVERSATION = "no such conversation"  # the same for an id that exists for another key


def _answered(app: Services, answer, audience: str | None) -> dict:
    app.metrics.record_stages(answer.usage)
    if answer.refused and not answer.hits:  # the operator's log only, never the caller
        app.engine(lambda ix: note_refusal(log, ix, audience, answer))
    return public_answer(answer)


@router.post("/ask")
def ask(request: Request, app: App, who: Who, body: AskRequest):
    """An answer with verified citations; Server-Sent Events with `stream: true` or
    `Accept: text/event-stream` (`token` events, then `done` with the Answer)."""
    app.check_method(body.method)

    def run(on_token=None):
        return _answered(app, app.engine(lambda ix: ix.ask(
            body.question, method=body.method, k=body.k, as_of=body.as_of,
            audience=who.audience, paths=body.paths, generator=app.generator,
            link=viewer_link, on_token=on_token if app.generator is not None else None)),
            who.audience)

    if wants_stream(request, body.stream):
        return stream_answer(request, run)
    return run()


@router.post("/conversations", status_code=201)
def new_conversation(app: App, who: Who):
    """Open a conversation, bound to your key (and its audience)."""
    return {"id": app.engine(lambda ix: ix.conversations.open(who.audience, who.owner))}


@router.post("/conversations/{conversation_id}/messages")
def add_message(request: Request, app: App, who: Who, conversation_id: str,
                body: MessageRequest):
    """Ask in a conversation: follow-ups are made standalone before retrieval."""
    app.check_method(body.method)

    def run(on_token=None):
        try:
            _, answer = app.engine(lambda ix: ix.chat(
                body.question, conversation=conversation_id, audience=who.audience,
                owner=who.owner, generator=app.generator, method=body.method, k=body.k,
                as_of=body.as_of, link=viewer_link,
                on_token=on_token if app.generator is not None else None))
        except NotFound:
            raise NotFound(NO_CONVERSATION) from None
        return {"conversation": conversation_id, **_answered(app, answer, who.audience)}

    if wants_stream(request, body.stream):
        return stream_answer(request, run)
    return run()


@router.get("/conversations/{conversation_id}")
def get_conversation(app: App, who: Who, conversation_id: str):
    """A conversation's turns (only for the key that opened it)."""
    try:
        messages = app.engine(lambda ix: ix.conversations.history(
            conversation_id, audience=who.audience, owner=who.owner))
    except NotFound:
        raise NotFound(NO_CONVERSATION) from None
    return {"id": conversation_id, "messages": [public_message(m) for m in messages]}
