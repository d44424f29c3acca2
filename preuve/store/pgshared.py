"""What several servers on one PostgreSQL database share: the bytes of uploaded files and
the rate limits' token buckets (`PostgresStore.files`, `PostgresStore.rates`)."""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from preuve.store.sql import now as sql_now

if TYPE_CHECKING:
    from preuve.store.postgres import PostgresStore

_FILES_LOCK = 0x70726575 + 2  # uploads and deletions of uploaded files, across servers


class StoredFiles:
    """The bytes of uploaded files, kept in the database so that every server on it shows
    them (`files`, by SHA-256). Whoever stores or removes them holds `exclusive()`, across
    processes: a sweep never removes bytes an upload is about to commit a document for."""

    def __init__(self, store: PostgresStore):
        self._store = store

    def put(self, data: bytes) -> str:
        """Keep `data` (once per content); returns its digest."""
        digest = hashlib.sha256(data).hexdigest()
        with self._store._cursor() as cur:
            cur.execute("INSERT INTO files (sha256, bytes, stored_at) VALUES (%s, %s, %s) "
                        "ON CONFLICT (sha256) DO NOTHING", (digest, data, sql_now()))
        return digest

    def get(self, digest: str) -> bytes | None:
        """The bytes with this digest, checked against it (None: not kept here)."""
        with self._store._cursor() as cur:
            row = cur.execute("SELECT bytes FROM files WHERE sha256 = %s",
                              (digest,)).fetchone()
        if row is None or hashlib.sha256(row[0]).hexdigest() != digest:
            return None
        return bytes(row[0])

    def sweep(self) -> int:
        """Remove the bytes no document records (a document deleted or replaced)."""
        with self._store._cursor() as cur:
            cur.execute("DELETE FROM files f WHERE NOT EXISTS (SELECT 1 FROM documents d "
                        "WHERE d.meta::jsonb ->> 'file_sha256' = f.sha256)")
            return cur.rowcount

    def digests(self) -> list[str]:
        with self._store._cursor() as cur:
            return [row[0] for row in cur.execute("SELECT sha256 FROM files ORDER BY sha256")]

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """One writer of uploaded files at a time, whichever process it is in (a lock held
        by an open transaction: a killed process lets it go with its connection)."""
        with self._store.pool.connection() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_FILES_LOCK,))
            yield


class BucketTable:
    """Token buckets in the database (`rate_buckets`): each take is one statement, on the
    database's clock, so every server on it spends from the same buckets."""

    PRUNE_EVERY = 60.0  # seconds between removals of full buckets (no row = full)

    def __init__(self, store: PostgresStore):
        self._store = store
        self._pruned = 0.0

    def take(self, name: str, rate: float, burst: float) -> float:
        """Spend a token of bucket `name` (`rate` a second, at most `burst`): 0.0 when there
        was one, else the seconds until there is."""
        burst = max(1.0, burst)
        avail = "least(%(burst)s, b.tokens + greatest(0, excluded.at - b.at) * %(rate)s)"
        left = f"({avail} - CASE WHEN {avail} >= 1 THEN 1 ELSE 0 END)"
        with self._store._cursor() as cur:
            tokens, spent = cur.execute(
                "INSERT INTO rate_buckets AS b (name, tokens, at, full_at, spent) "
                "SELECT %(name)s, %(burst)s - 1, t, t + 1 / %(rate)s, true FROM "
                "(SELECT extract(epoch FROM clock_timestamp())::float8 AS t) AS clock "
                f"ON CONFLICT (name) DO UPDATE SET spent = {avail} >= 1, tokens = {left}, "
                f"at = excluded.at, full_at = excluded.at + (%(burst)s - {left}) / %(rate)s "
                "RETURNING tokens, spent",
                {"name": name, "rate": float(rate), "burst": burst}).fetchone()
            if time.monotonic() - self._pruned > self.PRUNE_EVERY:
                self._pruned = time.monotonic()
                cur.execute("DELETE FROM rate_buckets "
                            "WHERE full_at < extract(epoch FROM clock_timestamp())")
        return 0.0 if spent else (1 - tokens) / rate


