"""Errors over HTTP, mapped once: a `PreuveError` becomes its `http_status` (400 invalid
input, 404 not found, 409 conflict, 502 upstream error, 503 upstream unavailable; a
refusal of the server's own, 401/403/413/415/422, carries its status) with
``{"error": message}``; anything else is a 500 that names only the exception's type.

Messages never show the server's paths or database URL; an upstream failure's message
(which names the model server) goes to the log, the caller reads that it failed."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from preuve.errors import PreuveError, Unavailable, UpstreamError, environmental

log = logging.getLogger("preuve.server")


def error_body(request: Request, exc: BaseException) -> tuple[int, dict]:
    """(status, JSON body) for an exception raised while serving `request`."""
    if not isinstance(exc, PreuveError):
        # a full disk, a database gone: the machine failed, not the code (a 503, no trace)
        exc = environmental(exc, request.app.state.services.index_path) or exc
    if not isinstance(exc, PreuveError):
        log.exception("internal error on %s", request.url.path, exc_info=exc)
        return 500, {"error": f"internal error ({type(exc).__name__})"}
    if isinstance(exc, Unavailable):
        log.warning("upstream failure on %s: %s", request.url.path, exc)
        said = ("answered with an error" if isinstance(exc, UpstreamError)
                else "could not be reached")
        return exc.http_status, {"error": f"an upstream service ({type(exc).__name__}) "
                                          f"{said}; try again later"}
    return exc.http_status, {"error": request.app.state.services.clean(str(exc))}


def install(app: FastAPI) -> None:
    """The exception handlers of the app."""

    @app.exception_handler(PreuveError)
    async def _preuve_error(request: Request, exc: PreuveError):
        status, body = error_body(request, exc)
        return JSONResponse(body, status_code=status)

    @app.exception_handler(HTTPException)
    async def _http_error(request, exc: HTTPException):
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request, exc: RequestValidationError):
        problems = []
        for e in exc.errors():
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {e.get('msg')}")
        return JSONResponse({"error": "bad request: " + "; ".join(problems)}, status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        status, body = error_body(request, exc)
        return JSONResponse(body, status_code=status)
