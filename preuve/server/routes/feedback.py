"""Feedback on answers: any key that reads may give it (about citations its audience may
read); a key reads back only the feedback it gave, an admin key all of it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from preuve.feedback import VERDICTS
from preuve.server.config import ANONYMOUS_OWNER
from preuve.server.routes.models import FeedbackRequest
from preuve.server.state import App, Refused, Who

router = APIRouter(tags=["feedback"])
Verdicts = Annotated[list[str] | None, Query(max_length=len(VERDICTS))]
Labels = Annotated[list[str] | None, Query(max_length=20)]
Day = Annotated[str | None, Query(max_length=20)]


@router.post("/feedback", status_code=201)
def give_feedback(app: App, who: Who, body: FeedbackRequest):
    """Say whether an answer was right, wrong or incomplete (with an optional comment).
    Stored with the question, the answer, its citations, your audience and the time;
    the key itself is never stored."""
    return app.engine(lambda ix: ix.feedback.add(
        question=body.question, answer=body.answer, refused=body.refused,
        citations=[c.model_dump(exclude_none=True) for c in body.citations],
        verdict=body.verdict, comment=body.comment, as_of=body.as_of,
        audience=who.audience, owner=who.owner, channel=body.channel))


@router.get("/feedback")
def list_feedback(app: App, who: Who, verdict: Verdicts = None, since: Day = None,
                  until: Day = None, audience: Labels = None):
    """Feedback, newest first: all of it for an admin key (`audience` filters by who gave
    it), else only what your key gave. `verdict`, `since`, `until` (YYYY-MM-DD) filter."""
    if who.admin:
        items = app.engine(lambda ix: ix.feedback.list(verdicts=verdict or (), since=since,
                                                       until=until, given_by=audience or ()))
        return {"items": items}
    if who.owner == ANONYMOUS_OWNER:  # anonymous callers share one identity
        raise Refused(403, "anonymous callers cannot read feedback back; use an API key")
    items = app.engine(lambda ix: ix.feedback.list(audience=who.audience, owner=who.owner,
                                                   verdicts=verdict or (), since=since,
                                                   until=until))
    return {"items": items}
