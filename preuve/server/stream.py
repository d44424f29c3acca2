"""The thread-to-SSE bridge: an answer produced in the threadpool, streamed to the client as
Server-Sent Events (`token` events while it is produced, then `done` or `error`)."""

from __future__ import annotations

import asyncio
import json
import re

from fastapi import Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from preuve.server.errors import error_body


def wants_stream(request: Request, flag: bool) -> bool:
    return flag or "text/event-stream" in request.headers.get("accept", "")


def sse(event: str, data) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def pieces(text: str) -> list[str]:
    """The answer cut into small pieces for streaming (words with their spacing)."""
    return re.findall(r"\S+\s*|\s+", text)


def stream_answer(request: Request, run) -> StreamingResponse:
    """SSE of `run(on_token)`, which returns the answer's JSON. An error becomes an `error`
    event with the status a plain request would have had (`errors.error_body`)."""

    async def body():
        loop = asyncio.get_running_loop()
        events: asyncio.Queue = asyncio.Queue()
        streamed = []

        def put(kind: str, data) -> None:
            loop.call_soon_threadsafe(events.put_nowait, (kind, data))

        def on_token(text: str) -> None:
            streamed.append(text)
            put("token", {"text": text})

        def work():
            try:
                put("result", run(on_token))
            except Exception as exc:  # noqa: BLE001 - reported to the client, mapped once
                status, payload = error_body(request, exc)
                put("error", {**payload, "status": status})

        task = asyncio.ensure_future(run_in_threadpool(work))
        try:
            while True:
                kind, data = await events.get()
                if kind == "token":
                    yield sse("token", data)
                elif kind == "error":
                    yield sse("error", data)
                    return
                else:
                    if not streamed:  # extractive: the verified text, piece by piece
                        for piece in pieces(data["answer"]):
                            yield sse("token", {"text": piece})
                    yield sse("done", data)
                    return
        finally:
            await task

    return StreamingResponse(body(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
