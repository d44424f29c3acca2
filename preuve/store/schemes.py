"""The built-in stores, registered by URL scheme in `preuve.registry.stores`: a file path
(no `scheme://`) is a SQLite index, `postgresql://` (or `postgres://`) a PostgreSQL one.
A plugin adds a store for its own scheme through the `preuve.stores` entry points."""

from __future__ import annotations

import os

from preuve.registry import StoreSpec, stores


def open_sqlite(location: str, settings=None):
    from preuve.store.sqlite import SQLiteStore

    if settings is None:
        return SQLiteStore(location)
    return SQLiteStore(location, ann_threshold=settings.ann_threshold,
                       bm25_engine=settings.bm25 != "sql")


def open_postgres(location: str, settings=None):
    from preuve.extras import needs

    with needs("postgres", "a PostgreSQL index"):
        from preuve.store.postgres import PostgresStore

        if settings is None:
            return PostgresStore(location)
        return PostgresStore(location, pool_size=settings.pg_pool,
                             hnsw_threshold=settings.hnsw_threshold,
                             ef_search=settings.hnsw_ef_search,
                             bm25_engine=settings.bm25 != "sql", cache=settings.cache)


def sqlite_beside(main: str, name: str) -> str:
    """`<main's folder>/eval/<name>.sqlite`."""
    folder = os.path.dirname(os.path.abspath(main))
    return os.path.join(folder, "eval", f"{name}.sqlite")


def postgres_beside(main: str, name: str) -> str:
    """The schema `name` (lower case, `-` as `_`) of the same database."""
    from preuve.store.postgres import with_schema

    return with_schema(main, name.replace("-", "_").lower())


def postgres_shown(location: str) -> str:
    from preuve.store.postgres import redact

    return redact(location)


for _spec in (
    StoreSpec("sqlite", open_sqlite, paths=True, exists=os.path.exists, beside=sqlite_beside,
              help="a SQLite file (a location without scheme://)"),
    StoreSpec("postgresql", open_postgres, server=True, shown=postgres_shown,
              beside=postgres_beside, help="a PostgreSQL database (preuve[postgres])"),
    StoreSpec("postgres", open_postgres, server=True, shown=postgres_shown,
              beside=postgres_beside, help="the same as postgresql://"),
):
    stores.register(_spec.name, _spec, replace=True)
