"""Run the app with uvicorn in a background thread (tests, benchmarks, notebooks)."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class ServerThread:
    """`with ServerThread(app) as url:` a real HTTP server on 127.0.0.1 until the block
    ends."""

    def __init__(self, app, host: str = "127.0.0.1", port: int | None = None,
                 timeout: float = 15.0):
        self.host, self.port = host, port or free_port(host)
        config = getattr(getattr(app, "state", None), "config", None)
        options = config.uvicorn_options() if hasattr(config, "uvicorn_options") else {}
        self.server = uvicorn.Server(uvicorn.Config(app, host=self.host, port=self.port,
                                                    log_level="warning", lifespan="on",
                                                    **options))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.timeout = timeout

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + self.timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"server on {self.url} did not start")
            time.sleep(0.02)
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(self.timeout)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
