"""The web page: ask, read cited passages, compare methods."""

from __future__ import annotations

import functools
import json
import struct

import numpy as np
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from preuve.registry import comparable_methods
from preuve.server.i18n import TEXT, language
from preuve.server.pdfpage import png
from preuve.server.state import App

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def page(request: Request, app: App):
    lang = language(request)
    return app.templates.TemplateResponse(request, "index.html", {
        "lang": lang, "t": TEXT[lang], "text_json": json.dumps(TEXT[lang]),
        "anonymous": bool(app.settings.anonymous),
        "methods": comparable_methods()})


@router.get("/favicon.ico")
def favicon():
    return Response(icon(), media_type="image/x-icon",
                    headers={"Cache-Control": "public, max-age=86400"})


@functools.cache
def icon(size: int = 32) -> bytes:
    """The page's icon, drawn here (no binary in the repository): a check mark on the
    header's colour, as a PNG inside an ICO container."""
    y, x = np.mgrid[0:size, 0:size] + 0.5
    pixels = np.zeros((size, size, 4), np.uint8)
    pixels[:] = (0x1d, 0x23, 0x30, 255)
    corner = 6.0  # rounded corners: transparent outside
    cx, cy = np.clip(x, corner, size - corner), np.clip(y, corner, size - corner)
    pixels[(x - cx) ** 2 + (y - cy) ** 2 > corner ** 2, 3] = 0
    for (ax, ay), (bx, by) in (((8, 17), (13, 22)), ((13, 22), (24, 10))):
        t = np.clip(((x - ax) * (bx - ax) + (y - ay) * (by - ay))
                    / ((bx - ax) ** 2 + (by - ay) ** 2), 0, 1)
        near = (x - ax - t * (bx - ax)) ** 2 + (y - ay - t * (by - ay)) ** 2 <= 2.6 ** 2
        pixels[near] = (0x33, 0xbb, 0x77, 255)
    image = png(pixels)
    return (struct.pack("<HHH", 0, 1, 1)
            + struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(image), 22) + image)
