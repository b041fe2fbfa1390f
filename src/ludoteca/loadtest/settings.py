"""The settings of a load test: the bounds, the servers' URLs, and the check of the arguments."""

from __future__ import annotations

import argparse
import ipaddress
import random
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class, game_ids

MAX_GAMES = 2_000
MAX_WATCHERS = 5_000
MAX_SECONDS = 3_600
MAX_TIMEOUT = 600
MAX_RATE = 100_000
DEFAULT_TIMEOUT = 30.0
LOOPBACK_NAMES = ("localhost",)


class LoadTestError(LudotecaError):
    """Bad ``loadtest`` arguments: a bound exceeded, a bad or remote URL."""


@dataclass
class Target:
    """One server process: its base URL and WebSocket base, and when it last refused us."""

    url: str
    ws_url: str
    down_until: float = 0.0

    def api(self, path: str) -> str:
        """The full URL of an API path (``/api/...``)."""
        return self.url + path


@dataclass(frozen=True)
class Settings:
    """What one load test does."""

    targets: tuple[Target, ...]
    games: int
    watchers: int
    seconds: float
    game_ids: tuple[str, ...]
    seats: dict[str, int]
    seed: int
    timeout: float
    rate: float = 0.0

    @property
    def interval(self) -> float:
        """Seconds between two moves of one game with ``--rate`` (0: no pacing)."""
        return self.games / self.rate if self.rate else 0.0


def settings_from(arguments: argparse.Namespace) -> Settings:
    """Check the arguments of ``ludoteca loadtest``.

    Raises:
        LoadTestError: A count or duration out of bounds, a bad URL, or a remote one without
            ``--allow-remote``.
    """
    if not 1 <= arguments.games <= MAX_GAMES:
        raise LoadTestError(f"--games must be from 1 to {MAX_GAMES:,}; got {arguments.games}")
    if not 0 <= arguments.watchers <= MAX_WATCHERS:
        raise LoadTestError(
            f"--watchers must be from 0 to {MAX_WATCHERS:,}; got {arguments.watchers}"
        )
    if not 0 < arguments.seconds <= MAX_SECONDS:  # also refuses nan
        raise LoadTestError(
            f"--seconds must be above 0 and at most {MAX_SECONDS:,}; got {arguments.seconds:g}"
        )
    if not 0 <= arguments.rate <= MAX_RATE:  # also refuses nan
        raise LoadTestError(
            f"--rate must be from 0 to {MAX_RATE:,} moves per second; got {arguments.rate:g}"
        )
    if not 0 < arguments.timeout <= MAX_TIMEOUT:
        raise LoadTestError(
            f"--timeout must be above 0 and at most {MAX_TIMEOUT}; got {arguments.timeout:g}"
        )
    chosen = tuple(dict.fromkeys(game_class(name).id for name in arguments.game))
    targets = tuple(
        parse_target(text, allow_remote=arguments.allow_remote) for text in arguments.urls
    )
    if len({target.url for target in targets}) != len(targets):
        raise LoadTestError("each URL must be given once")
    ids = chosen or game_ids()
    # One connection per slot and URL, one per watcher, the replay check's and a margin.
    ensure_open_files(arguments.games * len(targets) + arguments.watchers + 64)
    seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(2**32)
    return Settings(
        targets=targets,
        games=arguments.games,
        watchers=arguments.watchers,
        seconds=arguments.seconds,
        game_ids=ids,
        # The rules modules are imported now, not during the timed run.
        seats={game_id: game_class(game_id).num_players for game_id in ids},
        seed=seed,
        timeout=arguments.timeout,
        rate=arguments.rate,
    )


def ensure_open_files(needed: int) -> None:
    """Raise the limit on open files to ``needed`` if it is lower and the system allows it.

    Raises:
        LoadTestError: The system's hard limit is lower than ``needed``.
    """
    try:
        import resource
    except ImportError:  # not a Unix: nothing to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise LoadTestError(
            f"this load needs about {needed:,} open connections, and this system allows "
            f"{hard:,} open files (ulimit -Hn); ask for fewer games or watchers"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def parse_target(text: str, *, allow_remote: bool) -> Target:
    """Read a server URL (``http`` or ``https``, an optional path prefix, no query).

    Raises:
        LoadTestError: Not such a URL, or a host that is not this machine without
            ``allow_remote``.
    """
    try:
        parts = urlsplit(text.strip())
        host = parts.hostname
        port = parts.port
    except ValueError as error:
        raise LoadTestError(f"{text!r} is not a URL: {error}") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise LoadTestError(f"a server URL starts with http:// or https://; got {text!r}")
    if not host:
        raise LoadTestError(f"{text!r} names no host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise LoadTestError(f"a server URL has no query, fragment or user name; got {text!r}")
    if not allow_remote and not is_loopback(host):
        raise LoadTestError(
            f"{host} is not this machine (only 127.0.0.0/8, ::1 and localhost are); a load test "
            "of another machine needs --allow-remote, and only against servers you run"
        )
    scheme = parts.scheme.lower()
    shown_host = f"[{host}]" if ":" in host else host
    authority = shown_host if port is None else f"{shown_host}:{port}"
    path = parts.path.rstrip("/")
    ws_scheme = "wss" if scheme == "https" else "ws"
    return Target(url=f"{scheme}://{authority}{path}", ws_url=f"{ws_scheme}://{authority}{path}")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine.

    It is if it is ``localhost``, or if every address it resolves to is in 127.0.0.0/8 or ::1.

    Raises:
        LoadTestError: The host name does not resolve.
    """
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return _loopback_address(host)
    except ValueError:
        pass  # a name, not an address: resolve it
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise LoadTestError(f"cannot resolve the host {host!r}: {error}") from None
    return bool(infos) and all(_loopback_address(str(info[4][0])) for info in infos)


def _loopback_address(text: str) -> bool:
    address = ipaddress.ip_address(text.split("%", 1)[0])  # drop an IPv6 zone
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback
