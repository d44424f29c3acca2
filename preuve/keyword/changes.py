"""The change log: what each ingest changed, recorded in the store with its own transaction.

Each ingest writes, in the transaction of its writes, a record under the meta key
`<LOG_PREFIX><generation>` (`log_entry`): the state it started from, the state it made,
the chunk ids it deleted and the id range it inserted. A searcher made for an earlier
state is reloaded by reading only the rows written since (`ChangeSet.between`), provided
the records lead from its state to the current one without a gap; otherwise it is
rebuilt. A state key is "<generation>x<token>", the token a random value drawn by every
write: a file made for another index (deleted and made again, restored, copied over)
never matches.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

LOG_PREFIX = "bm25log."  # meta keys of the per-ingest change records
LOG_KEEP = 200  # change records kept (a searcher older than that is rebuilt)


def generation_of(key: str) -> int:
    return int(key.split("x", 1)[0] or 0)


def token_of(key: str) -> str:
    """The random token of a state key ("" for an index no ingest wrote to since tokens
    were drawn: such a state is kept in memory only, never saved nor loaded)."""
    return key.split("x", 1)[1] if "x" in key else ""


def log_entry(parent: str, state: str, deleted: Sequence[int], low: int, high: int,
              inserted: int) -> str:
    """The change record an ingest writes with its own transaction: the state it started
    from (`parent`), the one it made, the chunk ids it deleted, and the `inserted` rows it
    wrote (all with ids within (low, high]: a PostgreSQL sequence leaves gaps, so the span
    may be much wider than the count)."""
    return json.dumps({"parent": parent, "state": state, "deleted": sorted(deleted),
                       "low": low, "high": high, "rows": inserted})


@dataclass
class ChangeSet:
    """What changed between two states: rows that are gone, and the rows written since."""

    dead_ids: np.ndarray  # int64 rowids deleted (some may not be the searcher's)
    ranges: list[tuple[int, int]]  # (low, high] id ranges inserted since
    inserted: int = 0  # rows inserted since (some may be deleted again): a bound

    @classmethod
    def between(cls, start: str, current: str, records: dict[int, str]) -> ChangeSet | None:
        """The changes from state key `start` to state key `current`, or None when the
        records do not lead from one to the other without a gap."""
        start_generation, generation = generation_of(start), generation_of(current)
        if generation < start_generation or generation - start_generation > LOG_KEEP:
            return None
        dead: list[int] = []
        ranges: list[tuple[int, int]] = []
        inserted = 0
        state = token_of(start)
        for g in range(start_generation + 1, generation + 1):
            raw = records.get(g)
            if raw is None:
                return None
            entry = json.loads(raw)
            if entry["parent"] != state:
                return None
            state = entry["state"]
            dead.extend(entry["deleted"])
            if entry["high"] > entry["low"]:
                ranges.append((entry["low"], entry["high"]))
                # (records written before the count was: the span bounds it)
                inserted += entry.get("rows", entry["high"] - entry["low"])
        if state != token_of(current):
            return None
        return cls(np.unique(np.asarray(dead, dtype=np.int64)), ranges, inserted)


def merged_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(low, high] ranges as the fewest disjoint ones covering the same ids, ascending."""
    out: list[tuple[int, int]] = []
    for low, high in sorted(r for r in ranges if r[1] > r[0]):
        if out and low <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out
