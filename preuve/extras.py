"""The optional parts of the install, in one place: which pip extra brings which modules.

The core install (`pip install preuve`) runs the CLI and the library on SQLite. The
extras add, as pyproject.toml declares them:

    server    `preuve serve` (FastAPI, uvicorn) and `preuve mcp` (the MCP SDK)
    postgres  a postgresql:// index (psycopg and its pool)
    local     `--generator local` (llama.cpp in-process: xllamacpp)

Code that uses one imports its modules inside `needs(extra, what)`: a module of that
extra that is not installed becomes one line naming the extra to install (`MissingExtra`,
exit code 5), never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from preuve.errors import Unavailable

# extra -> the top-level modules it installs that preuve imports (or that those need)
MODULES = {
    "server": ("fastapi", "starlette", "uvicorn", "jinja2", "multipart",
               "python_multipart", "mcp", "pydantic"),
    "postgres": ("psycopg", "psycopg_pool", "psycopg_binary"),
    "local": ("xllamacpp",),
}


class MissingExtra(Unavailable):
    """A feature whose optional dependencies are not installed."""


def install_hint(extra: str) -> str:
    return f"pip install 'preuve[{extra}]'"


@contextmanager
def needs(extra: str, what: str) -> Iterator[None]:
    """Imports inside the block that fail for a module of `extra` become MissingExtra:
    "`what` needs the [extra] extra: pip install 'preuve[extra]'"."""
    try:
        yield
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing not in MODULES[extra]:
            raise
        raise MissingExtra(f"{what} needs the [{extra}] extra ({missing} is not installed): "
                           f"{install_hint(extra)}") from None
