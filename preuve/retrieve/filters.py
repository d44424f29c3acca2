"""Turning what a user types (`--as-of today`, `--kind pdf,code`) into `Filters`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from preuve.errors import InvalidInput
from preuve.models import Filters
from preuve.registry import kinds as registered_kinds


def parse_as_of(value: str | dt.date | None) -> dt.date | None:
    """'today' (or None) -> today, 'none' -> no date filter, 'YYYY-MM-DD' -> that day."""
    if isinstance(value, dt.date):
        return value
    if value is None or value.strip().lower() == "today":
        return dt.date.today()
    if value.strip().lower() in ("none", "all", "any"):
        return None
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(f"--as-of: {value!r} is not YYYY-MM-DD, 'today' or 'none'") from None


def parse_day(value: str | dt.date | None, what: str) -> dt.date | None:
    """A date as `parse_as_of` reads it, but None (or empty) stays None, no date, and an
    error names `what` (the option or field it came from)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return parse_as_of(value)
    except InvalidInput:
        raise InvalidInput(f"{what}: {value!r} is not a date (YYYY-MM-DD, 'today' or "
                           "'none')") from None


def make_filters(
    as_of: str | dt.date | None = "today",
    audience: str | None = None,
    paths: Iterable[str] = (),
    kinds: Iterable[str] = (),
    navigation: bool = False,
) -> Filters:
    """Validated `Filters`; kinds may be given comma-separated. `navigation` brings back
    tables of contents and indexes, which are left out by default."""
    kind_list = tuple(k.strip() for item in kinds for k in item.split(",") if k.strip())
    known = registered_kinds.names() if kind_list else ()
    unknown = [k for k in kind_list if k not in known]
    if unknown:
        raise InvalidInput(f"--kind: unknown kind {', '.join(unknown)} (known: {', '.join(known)})")
    return Filters(
        as_of=parse_as_of(as_of),
        audience=audience,  # None: the operator; anything else is checked by Filters
        path_prefixes=tuple(p for p in paths if p),
        kinds=kind_list,
        navigation=navigation,
    )


def code_filters(kinds: str | Iterable[str] = (), languages: str | Iterable[str] = (),
                 ) -> tuple[frozenset[str], frozenset[str]]:
    """`where --kind function --lang go`: the symbol kinds and languages asked (each may
    be comma-separated), checked against the known names."""
    from preuve.ingest.code import resolve_kinds, resolve_language

    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    languages = [languages] if isinstance(languages, str) else list(languages)
    wanted = {resolve_language(name) for item in languages for name in item.split(",")
              if name.strip()}
    return resolve_kinds(kinds), frozenset(wanted)
