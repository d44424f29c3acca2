"""The last evaluation report (`preuve eval FILE --report report.html` keeps it in the
index), for admin keys only: it shows passages of every audience."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from preuve.errors import NotFound
from preuve.server.state import Admin, App

router = APIRouter(tags=["service"])


@router.get("/eval", response_class=HTMLResponse)
def last_report(app: App, who: Admin):
    """The last evaluation report of this index, as a self-contained HTML page."""
    html = app.engine(lambda ix: ix.calibration.kept_report())
    if not html:
        raise NotFound("no evaluation report yet: run `preuve eval QUESTIONS.yaml --report "
                       "report.html` on this index")
    return HTMLResponse(html)
