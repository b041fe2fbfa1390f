"""A real uvicorn server in a thread, on a free port, for the web tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from ludoteca.web.app import ServerSettings, create_app
from ludoteca.web.connections import ConnectionLimits, uvicorn_config

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def running_server(
    db: Path | str,
    *,
    port: int | None = None,
    seed: int = 7,
    settings: ServerSettings | None = None,
    limits: ConnectionLimits | None = None,
    app: FastAPI | None = None,
) -> Iterator[str]:
    """Serve a fresh app on ``db`` (a path or a URL); yield its base URL; stop it after.

    Several may run at once on one database, like the processes of ``serve --workers``.
    The connections keep ``limits`` as under ``ludoteca serve``; ``app``: serve this app
    (made by the caller, who may then look inside it) instead of a fresh one.
    """
    port = port or free_port()
    settings = settings or ServerSettings(game_rate=0, hint_rate=0)
    config = uvicorn_config(
        app if app is not None else create_app(db, seed=seed, settings=settings),
        limits,
        host="127.0.0.1",
        port=port,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    # Start-up compiles every game's kernels first: seconds with numba's cache, a minute or
    # more on a fresh clone with an empty cache.
    deadline = time.monotonic() + 600
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def serve_process(port: int, data_home: Path) -> subprocess.Popen[str]:
    """``ludoteca serve`` in a child process on ``port``, its data under ``data_home``.

    The child hears SIGINT even when the test run was started in the background (which ignores
    it, and children inherit that).
    """
    return subprocess.Popen(
        [sys.executable, "-m", "ludoteca", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(data_home)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
