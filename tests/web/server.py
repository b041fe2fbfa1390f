"""A real uvicorn server in a thread, on a free port, for the web tests."""

from __future__ import annotations

import dataclasses
import os
import resource
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
from ludoteca.web.searches import DEFAULT_LANES

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


#: The search lanes of the test servers: the server's own, but at normal priority. A deep search
#: or hint worker runs niced (it gives way to the server), and on a busy machine it got so small
#: a share of the processor that loading the games' kernels at its start overran the pool's
#: start limit: a test failed for the machine's load. The tests of the priorities themselves
#: set their lanes explicitly.
TEST_LANES = {name: dataclasses.replace(lane, niceness=0) for name, lane in DEFAULT_LANES.items()}
#: A test server's hard limit on one search: a search that the server stops after 10 s on a quiet
#: machine can take longer on a busy one, and a test would fail for the machine's load. Tests of
#: the limit itself set their own.
TEST_SEARCH_TIME_LIMIT = 600.0
#: The settings of a test server: no rate limits (tests create games quickly), normal priority.
TEST_SETTINGS = ServerSettings(
    game_rate=0, hint_rate=0, lanes=TEST_LANES, search_time_limit=TEST_SEARCH_TIME_LIMIT
)


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
    settings = settings or TEST_SETTINGS
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


def serve_process(
    port: int,
    data_home: Path,
    *options: str,
    open_files: tuple[int, int] | None = None,
) -> subprocess.Popen[str]:
    """``ludoteca serve`` in a child process on ``port``, its data under ``data_home``.

    The child hears SIGINT even when the test run was started in the background (which ignores
    it, and children inherit that). ``options`` are more of the command's options;
    ``open_files`` (soft, hard) starts it with that limit of open files.
    """

    def prepare_child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, open_files)

    return subprocess.Popen(
        [sys.executable, "-m", "ludoteca", "serve", "--port", str(port), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(data_home)},
        preexec_fn=prepare_child,
    )
