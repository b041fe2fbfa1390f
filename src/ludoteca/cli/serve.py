"""``ludoteca serve``: the web UI, with games kept in SQLite or PostgreSQL.

The port is bound before the server starts, so a port in use or a bad address is one clear line
(exit status 2) rather than a traceback; so is a database that cannot be opened. The server answers
at once: every game's kernels are compiled (or loaded from numba's cache) meanwhile, in parallel
processes, one per game (`ludoteca.preparation`), reported as by ``ludoteca warmup``; the lobby
says which games are still being prepared, and each game can be played as soon as its own kernels
are ready (`ludoteca.web.readiness`). ``--workers N`` starts N server processes on the one port,
sharing the database and the one preparation, whose outcomes they read from a status directory.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import socket
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rich.console import Console
from rich.markup import escape

from ludoteca.core.errors import LudotecaError

if TYPE_CHECKING:
    from ludoteca.web.connections import ConnectionLimits

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_WORKERS = 64
#: Seconds uvicorn waits for requests in progress when stopping (a hint's search is abandoned).
GRACEFUL_SECONDS = 1
#: The largest value of the timeout options, in seconds.
MAX_TIMEOUT = 3600
#: Open files a server process asks for (every connection is one), up to the system's hard
#: limit: with the common soft limit of 1,024, a thousand idle connections left nothing for
#: real requests, even though idle ones are closed after ``--request-timeout``.
OPEN_FILES = 65_536
#: Below this many open files a server says that its connections are few.
FEW_OPEN_FILES = 4_096


class ServeError(LudotecaError):
    """The server cannot start: a bad port, an address it cannot listen on, a bad database."""


def add_serve_parser(commands: Any) -> None:
    """Add the ``serve`` command to the ``ludoteca`` subcommands."""
    serve = commands.add_parser(
        "serve",
        help="play in the browser: start the web UI",
        description="Start the web UI. Games are saved in SQLite (a file in your data "
        "directory, or --db PATH) or in PostgreSQL (--db postgresql://...). Open the printed "
        "address.",
    )
    serve.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on ({DEFAULT_HOST})"
    )
    serve.add_argument("--port", default=str(DEFAULT_PORT), help=f"port ({DEFAULT_PORT})")
    serve.add_argument(
        "--db",
        metavar="PATH|URL",
        default=None,
        help="the games database: an SQLite file, or postgresql://user@host/database "
        "(default: games.sqlite3 in your data directory)",
    )
    serve.add_argument(
        "--workers",
        default="1",
        metavar="N",
        help="server processes sharing the port and the database (default 1)",
    )
    serve.add_argument(
        "--game-rate",
        default="30",
        metavar="N",
        help="new games one client may create per minute (default 30; 0: no limit)",
    )
    serve.add_argument(
        "--hint-rate",
        default="30",
        metavar="N",
        help="hints one client may ask for per minute (default 30; 0: no limit)",
    )
    serve.add_argument(
        "--login-rate",
        default="10",
        metavar="N",
        help="login attempts per minute from one address, and for one account name (default "
        "10; 0: no limit)",
    )
    serve.add_argument(
        "--request-timeout",
        default="20",
        metavar="S",
        help="seconds a connection may take to send a whole request, and the longest an idle "
        "connection is kept (default 20)",
    )
    serve.add_argument(
        "--max-header-size",
        default="16",
        metavar="KIB",
        help="the largest request head (request line and headers) in KiB (default 16)",
    )
    serve.add_argument(
        "--ws-timeout",
        default="20",
        metavar="S",
        help="seconds between pings on a live-update socket, and how long its client may leave "
        "a ping unanswered or stop reading before it is dropped (default 20)",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address players reach the site at (https://games.example.org): invitation "
        "links use it, live updates accept its pages, HTTPS makes cookies Secure (default: "
        "links follow each request's Host header)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="comma-separated addresses of the reverse proxies trusted to say the client's "
        "address and scheme (X-Forwarded-For, X-Forwarded-Proto); '*' trusts all (default "
        "127.0.0.1,::1, or $FORWARDED_ALLOW_IPS)",
    )
    serve.add_argument(
        "--access-log",
        action="store_true",
        help="log every request (seat tokens in addresses are hidden)",
    )
    serve.set_defaults(handler=serve_command)


def _whole_number(text: str, name: str, maximum: int) -> int:
    value = text.strip()
    if not value.isdigit() or int(value) > maximum:
        raise ServeError(f"{name} must be a whole number from 0 to {maximum}; got {text!r}")
    return int(value)


def _seconds(text: str, name: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not 0.1 <= value <= MAX_TIMEOUT:  # also refuses nan and inf
        raise ServeError(
            f"{name} must be a number of seconds from 0.1 to {MAX_TIMEOUT}; got {text!r}"
        )
    return value


def connection_limits(arguments: argparse.Namespace) -> ConnectionLimits:
    """Read ``--request-timeout``, ``--max-header-size`` and ``--ws-timeout``.

    Raises:
        ServeError: A value out of its range (the message says which).
    """
    from ludoteca.web.connections import ConnectionLimits

    request = _seconds(arguments.request_timeout, "--request-timeout")
    head_kib = _whole_number(arguments.max_header_size, "--max-header-size", 1024)
    if head_kib < 1:
        raise ServeError("--max-header-size must be a whole number from 1 to 1024; got 0")
    ws = _seconds(arguments.ws_timeout, "--ws-timeout")
    return ConnectionLimits(
        request_timeout=request,
        keep_alive=request,
        max_head_bytes=head_kib * 1024,
        ws_ping_interval=ws,
        ws_ping_timeout=ws,
        ws_send_timeout=ws,
    )


def parse_public_url(text: str | None) -> str | None:
    """Read ``--public-url``: an ``http://`` or ``https://`` address with a host and no query.

    Raises:
        ServeError: Anything else (the message says what is accepted).
    """
    if text is None:
        return None
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ServeError(
            "--public-url must be an address like https://games.example.org (http or https, "
            f"a host, optionally a port and path); got {text!r}"
        )
    return text.strip().rstrip("/")


def parse_port(text: str) -> int:
    """Read ``--port``.

    Raises:
        ServeError: Not a whole number from 1 to 65535.
    """
    value = text.strip()
    if not value.isdigit() or not 1 <= int(value) <= 65_535:
        raise ServeError(f"--port must be a whole number from 1 to 65535; got {text!r}")
    return int(value)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``.

    Raises:
        ServeError: The address cannot be used (the message says why).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise ServeError(f"--host {host!r} is not an address this machine knows: {error}") from None
    family, kind, protocol, _, address = infos[0]
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.set_inheritable(True)
    return listener


def raise_open_file_limit(wanted: int = OPEN_FILES) -> int | None:
    """Raise this process's soft limit of open files to ``wanted`` (or the hard limit, if lower).

    Returns the soft limit now (``None``: no limit, or not a Unix). The server processes
    ``--workers`` starts inherit it.
    """
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


def serve_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Run the server until interrupted; return the exit status."""
    from ludoteca.cli.warmup import PreparationReport
    from ludoteca.core.registry import game_ids, runtime_registrations
    from ludoteca.preparation import Preparation, default_processes
    from ludoteca.web import app as web_app
    from ludoteca.web.storage import GameStore, StorageError, default_db_path

    port = parse_port(arguments.port)
    workers = _whole_number(arguments.workers, "--workers", MAX_WORKERS)
    if workers < 1:
        raise ServeError(f"--workers must be a whole number from 1 to {MAX_WORKERS}; got 0")
    game_rate = _whole_number(arguments.game_rate, "--game-rate", 100_000)
    hint_rate = _whole_number(arguments.hint_rate, "--hint-rate", 100_000)
    login_rate = _whole_number(arguments.login_rate, "--login-rate", 100_000)
    limits = connection_limits(arguments)
    public_url = parse_public_url(arguments.public_url)
    db = arguments.db if arguments.db is not None else str(default_db_path())
    try:  # opens and upgrades the database once, before any worker starts
        store = GameStore(db)
    except StorageError as error:
        raise ServeError(str(error)) from None
    shown_db = store.shown
    store.close()
    open_files = raise_open_file_limit()
    listener = bind(arguments.host, port)
    shown_host = f"[{arguments.host}]" if ":" in arguments.host else arguments.host
    processes = f" in {workers} processes" if workers > 1 else ""
    console.print(
        f"Ludoteca is running at [bold]http://{escape(shown_host)}:{port}/[/bold]{processes} "
        f"(games saved in {escape(shown_db)}). Press Ctrl+C to stop."
    )
    if open_files is not None and open_files < FEW_OPEN_FILES:
        console.print(
            f"This system lets a process open {open_files:,} files (ulimit -Hn), so each server "
            "process holds fewer connections than that; raise the hard limit for more."
        )

    # One preparation for every server process; each reads the outcomes from this directory.
    status_dir = Path(tempfile.mkdtemp(prefix="ludoteca-prepare-"))
    games = game_ids()
    report = PreparationReport(console, games, min(default_processes(), len(games)))
    preparation = Preparation(
        games,
        status_dir=status_dir,
        on_event=report.event,
        processes=report.processes,
        registrations=runtime_registrations(),
    )
    os.environ[web_app.ENV_DB] = db  # what each server process reads (the app's factory)
    os.environ[web_app.ENV_GAME_RATE] = str(game_rate)
    os.environ[web_app.ENV_HINT_RATE] = str(hint_rate)
    os.environ[web_app.ENV_LOGIN_RATE] = str(login_rate)
    os.environ[web_app.ENV_PREPARATION] = str(status_dir)
    if public_url is not None:
        os.environ[web_app.ENV_PUBLIC_URL] = public_url
    try:
        report.start()
        preparation.start()
        _run(arguments, listener, workers, limits)
    finally:
        preparation.close()
        report.stop()
        shutil.rmtree(status_dir, ignore_errors=True)
        del os.environ[web_app.ENV_PREPARATION]
        os.environ.pop(web_app.ENV_PUBLIC_URL, None)
    console.print("Ludoteca has stopped; your games are saved.")
    return 0


def _run(
    arguments: argparse.Namespace,
    listener: socket.socket,
    workers: int,
    limits: ConnectionLimits,
) -> None:
    """Run uvicorn on ``listener`` until interrupted (the app's settings are in the environment)."""
    import uvicorn

    from ludoteca.web.connections import uvicorn_config

    config = uvicorn_config(
        "ludoteca.web.app:create_app_from_environment",
        limits,
        factory=True,
        workers=workers,
        log_level="info" if arguments.access_log else "warning",
        access_log=arguments.access_log,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        forwarded_allow_ips=arguments.forwarded_allow_ips,
    )
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops cleanly, then passes it on
        if workers > 1:
            from uvicorn.supervisors import Multiprocess

            Multiprocess(config, sockets=[listener]).run()
        else:
            uvicorn.Server(config).run(sockets=[listener])
