"""What the operator's log (the server's stderr) says about callers, and never the callers.

A caller whose audience may read no document gets "I don't know." to every question, as
any refusal: telling it that the index holds documents it may not read would be a count
of the hidden ones. The operator, who can label the documents, is told once per audience
per index (and again after `REMIND_AFTER` seconds), in the log of the server (HTTP or MCP) that
refused it."""

from __future__ import annotations

import logging
import threading
import time

from preuve.index import shown_location

REMIND_AFTER = 300.0  # seconds before the same audience is noted again
_noted: dict[tuple[int, str, str], float] = {}
_lock = threading.Lock()


def note_refusal(log: logging.Logger, index, audience: str | None, answer) -> None:
    """Log, when `answer` is a refusal with nothing retrieved and `audience` reads no
    document of `index`, that this audience reads nothing and how to label documents."""
    if not answer.refused or answer.hits or audience is None:
        return
    key = (id(log), index.location, audience)
    now = time.monotonic()
    with _lock:
        if now - _noted.get(key, -REMIND_AFTER) < REMIND_AFTER:
            return
    if index.documents(audience=audience):
        return
    with _lock:
        _noted[key] = now
    log.warning("refused a question of audience %r, which reads no document of %s: every "
                "answer to it is \"I don't know\" (the caller is not told why). Label "
                "documents for it: preuve ingest PATH --access %s (or `access:` in front "
                "matter or a .meta.yaml sidecar)", audience, shown_location(index.location),
                audience)
