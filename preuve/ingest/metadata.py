"""Document metadata from YAML front matter or a sidecar `<file>.meta.yaml`.

The sidecar wins over front matter, so binary formats (PDF, DOCX) and files one cannot
edit get the same metadata as Markdown. Dates are validated here, once.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from preuve.ingest.base import ParseError
from preuve.ingest.limits import MAX_SIDECAR_BYTES, read_regular
from preuve.models import validate_label

SIDECAR_SUFFIX = ".meta.yaml"
KNOWN_KEYS = ("id", "title", "language", "access", "version", "effective_from", "effective_to")


def split_front_matter(text: str) -> tuple[dict[str, Any], str, int]:
    """(front matter, body, number of lines the front matter took) for `---` blocks."""
    if not text.startswith("---\n"):
        return {}, text, 0
    end = text.find("\n---", 4)
    if end == -1:
        return {}, text, 0
    close = text.find("\n", end + 4)
    close = len(text) if close == -1 else close + 1
    header = text[4:end]
    import yaml  # here: a question never reads YAML

    try:
        data = yaml.safe_load(header) or {}
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: impossible dates (02-30)
        raise ParseError(f"invalid YAML front matter: {exc}") from None
    if not isinstance(data, dict):
        raise ParseError("front matter is not a mapping of keys to values")
    return data, text[close:], text[:close].count("\n")


def read_sidecar(path: Path) -> tuple[dict[str, Any], bytes]:
    """The sidecar's metadata and raw bytes (for the change fingerprint); empty if none.

    A sidecar must be a small regular file of its own: one that is a link (it could carry
    an outside file's labels) fails its document, which keeps its indexed version."""
    sidecar = path.with_name(path.name + SIDECAR_SUFFIX)
    if sidecar.is_symlink():
        raise ParseError(f"sidecar {sidecar.name} is a symbolic link, not followed")
    if not sidecar.exists():
        return {}, b""
    try:
        raw = read_regular(sidecar, MAX_SIDECAR_BYTES)
    except ParseError as exc:
        raise ParseError(f"sidecar {sidecar.name}: {exc}") from None
    import yaml

    try:
        data = yaml.safe_load(raw.decode("utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError, ValueError) as exc:
        raise ParseError(f"invalid sidecar {sidecar.name}: {exc}") from None
    if not isinstance(data, dict):
        raise ParseError(f"sidecar {sidecar.name} is not a mapping of keys to values")
    return data, raw


def normalise(meta: dict[str, Any]) -> dict[str, Any]:
    """Known keys cleaned and validated; `lang` accepted for `language`."""
    out = dict(meta)
    if "lang" in out and "language" not in out:
        out["language"] = out.pop("lang")
    for key in ("effective_from", "effective_to"):
        if out.get(key) is not None:
            out[key] = _date(key, out[key])
    if out.get("effective_from") and out.get("effective_to"):
        if out["effective_to"] < out["effective_from"]:
            raise ParseError(
                f"effective_to {out['effective_to']} is before effective_from "
                f"{out['effective_from']}"
            )
    for key in ("id", "title", "language", "version"):
        if out.get(key) is not None:
            out[key] = str(out[key]).strip()
    if out.get("access") is not None:
        try:
            out["access"] = validate_label(str(out["access"]))
        except ValueError as exc:
            raise ParseError(str(exc)) from None
    return out


def _date(key: str, value: Any) -> str:
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return value.isoformat()
    try:
        return dt.date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise ParseError(f"{key}: {value!r} is not a date YYYY-MM-DD") from None
