"""Interface text of the web page, in French and English, and the language of a request (the text
itself is data: i18n.json beside this file)."""

import json
from pathlib import Path

LANGS = ("fr", "en")

TEXT: dict[str, dict[str, str]] = json.loads(
    (Path(__file__).parent / "i18n.json").read_text(encoding="utf-8"))


def language(request) -> str:
    """`?lang=`, else the `preuve_lang` cookie, else Accept-Language; English by default."""
    asked = request.query_params.get("lang") or request.cookies.get("preuve_lang")
    if asked in LANGS:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"
