"""What evaluation keeps in an index: `Index.calibration`, the noun `preuve calibrate`,
`preuve eval` and the server's `/eval` page go through.

    measure, value = index.calibration.evidence(question, hits, audience="public")
    index.calibration.save({"measure": "dense", "value": 0.81, "method": "hybrid"})
    index.calibration.thresholds()          # {"dense": 0.81}: what `ask` refuses below
    index.calibration.keep_report(html)     # the last `preuve eval --report`, for /eval

A calibrated refusal threshold is kept per evidence measure ("dense": the best cosine among
the passages the caller may read, whatever method ranked them; "bm25" on a keyword-only
index), so that one threshold serves every method.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from preuve.answer.pipeline import evidence_score
from preuve.engine import NO_EMBEDDER
from preuve.models import Hit

if TYPE_CHECKING:
    from preuve.index import Index

THRESHOLDS = "refusal_threshold"  # meta key of the calibrations, by measure
EVAL_REPORT = "eval_report"  # meta key of the last evaluation report's HTML


class Calibration:
    """The refusal calibrations and the last evaluation report of one index."""

    def __init__(self, index: Index):
        self._index = index
        self._store = index.engine.store

    def stored(self) -> dict[str, dict]:
        """What `save` stored: evidence measure ("dense", "bm25") -> its result."""
        raw = self._store.get_meta(THRESHOLDS)
        data = json.loads(raw) if raw else {}
        return data if all(isinstance(v, dict) for v in data.values()) else {}

    def save(self, result: dict) -> None:
        """Store what `calibrate` chose (`result["measure"]` names the evidence measure),
        beside the other measures' results."""
        stored = self.stored()
        stored[result["measure"]] = result
        self._store.set_meta(THRESHOLDS, json.dumps(stored))

    def thresholds(self) -> dict[str, float]:
        """Calibrated evidence thresholds, by the measure they were calibrated on."""
        return {measure: float(r["value"]) for measure, r in self.stored().items()}

    def evidence(self, question: str, hits: list[Hit], **filters) -> tuple[str | None,
                                                                         float | None]:
        """(measure, value) of how well the index can answer `question`: with vectors, the
        best cosine among the chunks the filters allow, whatever method ranked `hits`
        (so one calibrated threshold serves every method); else the best BM25 score."""
        measure, value = evidence_score(hits)
        if measure == "dense" or self._index.engine.embedder_name == NO_EMBEDDER:
            return measure, value
        best = self._index.search(question, method="dense", k=1, **filters)
        return ("dense", best[0].score) if best else (None, None)

    def keep_report(self, html: str) -> None:
        """Keep the last evaluation report (`preuve eval --report`) in the index, where
        every server on it shows it to admin keys (`/eval`)."""
        self._store.set_meta(EVAL_REPORT, html)

    def kept_report(self) -> str | None:
        """The last evaluation report kept by `keep_report`, or None."""
        return self._store.get_meta(EVAL_REPORT)
