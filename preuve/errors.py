"""Every error preuve shows a user, in one place.

Raise a subclass of `PreuveError` wherever a user-facing failure is found; each front end
maps it once, from the table below, to what its caller sees: the CLI's exit code, the HTTP
status, the MCP error. Anything else that escapes is a bug (exit 1, HTTP 500).

    PreuveError          exit 1   HTTP 400   the base: a failure the user can act on
    ├── InvalidInput     exit 2   HTTP 400   a bad argument, label, file, question or setting
    ├── NotFound         exit 3   HTTP 404   no such index, document, passage or conversation
    │   └── NoSuchFile   exit 3   HTTP 404   no index or file there (also a FileNotFoundError)
    ├── Conflict         exit 4   HTTP 409   the request contradicts what is stored
    └── Unavailable      exit 5   HTTP 503   an upstream service (model server, database) failed
        └── UpstreamError exit 5  HTTP 502   it answered, but with an error or garbage

`environmental` turns what the machine failed at (a full disk, a database that went away)
into one of these, so that no front end shows a traceback for it.
"""

from __future__ import annotations


class PreuveError(Exception):
    """A failure the user can act on; its message says which file/value and why."""

    exit_code = 1
    http_status = 400


class InvalidInput(PreuveError, ValueError):
    """Bad input: an argument, a label, a file, a setting. Also a ValueError, so code that
    validated with ValueError before keeps working."""

    exit_code = 2
    http_status = 400


class NotFound(PreuveError, KeyError):
    """No such index, document, passage or conversation (for this caller). Also a KeyError
    (so a LookupError), what lookups raised before; its message is shown unquoted."""

    exit_code = 3
    http_status = 404
    __str__ = BaseException.__str__


class NoSuchFile(NotFound, FileNotFoundError):
    """No index or file at the location given (also a FileNotFoundError, as before)."""


class Conflict(PreuveError, ValueError):
    """The request contradicts what is stored (another model's vectors, a changed file).
    Also a ValueError, what these checks raised before."""

    exit_code = 4
    http_status = 409


class Unavailable(PreuveError, RuntimeError):
    """An upstream service could not be reached or gave up (timeouts, 5xx, 429 after retries)."""

    exit_code = 5
    http_status = 503


class UpstreamError(Unavailable):
    """An upstream service answered with an error or an unreadable reply."""

    http_status = 502


def exit_code(exc: BaseException) -> int:
    return exc.exit_code if isinstance(exc, PreuveError) else 1


def http_status(exc: BaseException) -> int:
    return exc.http_status if isinstance(exc, PreuveError) else 500


# what the machine, not preuve, failed at: (words of the engine's message, what to say)
_DATABASE_FAILURES = (
    ("database or disk is full", Unavailable, "the disk is full"),
    ("disk i/o error", Unavailable, "the disk failed to read or write (is it full, or gone?)"),
    ("readonly database", Unavailable, "the index cannot be written (read-only)"),
    ("unable to open database file", Unavailable, "the index file cannot be opened"),
    ("database is locked", Unavailable, "another process holds the index locked"),
    ("file is not a database", InvalidInput, "not a preuve index (not a SQLite database)"),
    ("malformed", Unavailable, "the index file is damaged"),
)


def environmental(exc: BaseException, where: str) -> PreuveError | None:
    """A failure of the machine rather than a bug, as one line naming `where` (the index)
    and the cause: a full disk, a disk error, a read-only or locked or damaged index file,
    a database server that went away. None for anything else. A write that fails this way
    is rolled back whole: the index keeps its last complete state."""
    import errno
    import sqlite3

    message = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, sqlite3.Error):
        for words, kind, said in _DATABASE_FAILURES:
            if words in message.lower():
                return kind(f"{where}: {said} ({message}); the index keeps its last "
                            "complete state")
        return None
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS,
                                                   errno.EIO, errno.EFBIG):
        return Unavailable(f"{exc.filename or where}: {exc.strerror}")
    module = type(exc).__module__
    if module.startswith(("psycopg", "psycopg_pool")) and type(exc).__name__ in (
            "OperationalError", "InterfaceError", "PoolTimeout", "PoolClosed"):
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return Unavailable(f"{where}: the database went away or cannot be reached ({first})")
    return None
