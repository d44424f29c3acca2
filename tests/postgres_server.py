"""The PostgreSQL server of the test session: `$PREUVE_TEST_PG_URL` (the base URL of a
database, as `.ci/run` exports it) or one started for the session with
`preuve.store.pgserver` (fsync off) and stopped at its end; each test index lives in a
schema of its own (`pg_location`), dropped at the end on a server that is not ours. When
the server cannot be reached or started the PostgreSQL tests FAIL: both stores must run.
tests/conftest.py imports the `pg_base` fixture from here."""

from __future__ import annotations

import os
import uuid

import pytest

_PG: dict = {"base": None, "schemas": []}


@pytest.fixture(scope="session")
def pg_base(tmp_path_factory):
    """Base URL of the test PostgreSQL database: `$PREUVE_TEST_PG_URL`, or a local server
    started for the session (fsync off) and stopped at its end. Never skipped: a server
    that cannot start fails the tests that need it."""
    from preuve.store import pgserver

    given = os.environ.get("PREUVE_TEST_PG_URL")
    data = None
    if given:
        base = given
        _reachable(base)
    else:
        data = tmp_path_factory.mktemp("pgdata")
        try:
            base = pgserver.start(data, durable=False)
        except Exception as exc:  # noqa: BLE001 - any cause: the message says what failed
            detail = getattr(exc, "stderr", b"") or b""
            if isinstance(detail, bytes):
                detail = detail.decode(errors="replace")
            pytest.fail(f"cannot start the test PostgreSQL server in {data}: {exc} "
                        f"{detail.strip()} (set PREUVE_TEST_PG_URL to use a running one)",
                        pytrace=False)
    _PG["base"] = base
    yield base
    _PG["base"] = None
    if data is None:
        _drop_schemas(base)  # a server of our own goes away with its data folder
    else:
        pgserver.stop(data)


def _reachable(base: str) -> None:
    import psycopg

    from preuve.store.postgres import redact

    try:
        psycopg.connect(base, connect_timeout=10).close()
    except psycopg.Error as exc:
        pytest.fail(f"PREUVE_TEST_PG_URL={redact(base)}: cannot connect "
                    f"({str(exc).strip().splitlines()[0]})", pytrace=False)


def _drop_schemas(base: str) -> None:
    """Best effort: leave an outside server as we found it."""
    import psycopg

    try:
        with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
            conn.execute("SET lock_timeout = '5s'")
            for schema in _PG["schemas"]:
                try:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                except psycopg.Error:
                    pass
    except psycopg.Error:
        pass
    _PG["schemas"].clear()


def pg_location(base: str | None = None) -> str:
    """A new, empty PostgreSQL index: its own schema on the test server."""
    from preuve.store.postgres import with_schema

    base = base or _PG["base"]
    assert base, "the pg_base fixture must be set up first"
    schema = f"t_{uuid.uuid4().hex[:16]}"
    _PG["schemas"].append(schema)
    return with_schema(base, schema)
