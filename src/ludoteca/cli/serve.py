"""``ludoteca serve``: the web UI, with games kept in SQLite.

The port is bound before the server starts, so a port in use or a bad address is one clear line
(exit status 2) rather than a traceback; so is a database that cannot be opened.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
from typing import Any

from rich.console import Console
from rich.markup import escape

from ludoteca.core.errors import LudotecaError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class ServeError(LudotecaError):
    """The server cannot start: a bad port, an address it cannot listen on, a bad database."""


def add_serve_parser(commands: Any) -> None:
    """Add the ``serve`` command to the ``ludoteca`` subcommands."""
    serve = commands.add_parser(
        "serve",
        help="play in the browser: start the web UI",
        description="Start the web UI (games are saved in SQLite). Open the printed address.",
    )
    serve.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on ({DEFAULT_HOST})"
    )
    serve.add_argument("--port", default=str(DEFAULT_PORT), help=f"port ({DEFAULT_PORT})")
    serve.add_argument(
        "--db", metavar="PATH", default=None, help="the games database (default: in your data dir)"
    )
    serve.set_defaults(handler=serve_command)


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


def serve_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Run the server until interrupted; return the exit status."""
    import uvicorn

    from ludoteca.web.app import create_app
    from ludoteca.web.storage import StorageError

    port = parse_port(arguments.port)
    try:
        app = create_app(arguments.db)
    except StorageError as error:
        raise ServeError(str(error)) from None
    listener = bind(arguments.host, port)
    shown_host = f"[{arguments.host}]" if ":" in arguments.host else arguments.host
    console.print(
        f"Ludoteca is running at [bold]http://{escape(shown_host)}:{port}/[/bold] "
        f"(games saved in {escape(str(app.state.db_path))}). Press Ctrl+C to stop."
    )
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops cleanly, then passes it on
        uvicorn.Server(config).run(sockets=[listener])
    console.print("Ludoteca has stopped; your games are saved.")
    return 0
