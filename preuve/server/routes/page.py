"""The web page: ask, read cited passages, compare methods."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from preuve.registry import comparable_methods
from preuve.server.i18n import TEXT, language
from preuve.server.state import App

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def page(request: Request, app: App):
    lang = language(request)
    return app.templates.TemplateResponse(request, "index.html", {
        "lang": lang, "t": TEXT[lang], "text_json": json.dumps(TEXT[lang]),
        "anonymous": bool(app.settings.anonymous),
        "methods": comparable_methods()})
