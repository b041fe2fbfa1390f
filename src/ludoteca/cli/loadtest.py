"""``ludoteca loadtest``: concurrent games and live watchers against running Ludoteca servers.

Each of ``--games`` slots creates a game between people (``POST /api/games``), plays random
legal moves in it (``POST /api/games/{id}/moves``, continuing from each reply) and starts a new
game when it ends. ``--watchers`` WebSocket connections follow the slots' games
(``/ws/games/{id}``), spread evenly over the slots. After ``--seconds`` (or Ctrl+C) the load
stops, in-flight requests get a short grace, and every game the run created is downloaded as a
saved game and replayed through the rules (`ludoteca.core.records.loads`).

Several URLs are several server processes on one database: slots are spread round-robin over
them, each game's watchers connect through another URL than its moves, and a slot whose URL stops
answering fails over to another one, resynchronising from the server (the authority on every
game). The client is kept cheap on CPU, because it usually shares the machine with the server:
no per-move work beyond one JSON decode and a random choice, and the saved games are parsed only
at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import itertools
import json
import math
import os
import random
import signal
import socket
import ssl
import time
from array import array
from collections import Counter
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class, game_ids

MAX_GAMES = 2_000
MAX_WATCHERS = 5_000
MAX_SECONDS = 3_600
MAX_TIMEOUT = 600
MAX_RATE = 100_000
DEFAULT_TIMEOUT = 30.0
STOP_GRACE_S = 5.0
"""After the time is up, requests already sent get this long to be answered."""
WATCH_GRACE_S = 2.0
"""After the last move, watchers get this long to receive it (the wait ends as soon as they all
have): twice the 1 s a server process may take to pass on a move made through another."""
DOWN_FOR_S = 2.0
"""A URL that refused a connection is avoided this long before it is tried again."""
BACKOFF_S = 0.5
"""The pause after a failed request, so that a broken server is not hammered in a tight loop."""
STALE_WAIT_S = 3.0
"""How long a server may answer a game without moves already acknowledged (a stale read)."""
STALE_PAUSE_S = 0.1
MAX_RETRY_AFTER_S = 30.0
REPLAY_CONCURRENCY = 8
EXAMPLES_KEPT = 5
JSON_HEADERS = {"Content-Type": "application/json"}
LOOPBACK_NAMES = ("localhost",)


class LoadTestError(LudotecaError):
    """Bad ``loadtest`` arguments: a bound exceeded, a bad or remote URL."""


def add_loadtest_parser(commands: Any) -> None:
    """Add the ``loadtest`` command to the ``ludoteca`` subcommands."""
    parser = commands.add_parser(
        "loadtest",
        help="play many games at once against a running server and measure it",
        description=(
            "Play random legal moves in many concurrent games against running Ludoteca servers "
            "(several URLs: several processes on one database), with WebSocket watchers; print "
            "moves/s, move latency, errors and watcher lag, then check that every game replays "
            "from the server's saved record. Exit status 0 when there were no errors and every "
            "game replays, 1 otherwise."
        ),
    )
    parser.add_argument(
        "urls", nargs="+", metavar="URL", help="server address, e.g. http://127.0.0.1:8000"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=10,
        help=f"concurrent games (default 10, at most {MAX_GAMES:,})",
    )
    parser.add_argument(
        "--watchers",
        type=int,
        default=5,
        help=f"WebSocket watchers (default 5, at most {MAX_WATCHERS:,})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help=f"how long to play (default 10, at most {MAX_SECONDS:,})",
    )
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="GAME",
        help="play only this game (repeatable; default: every game in turn)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        metavar="MOVES_PER_S",
        help="ask for this many moves per second in all, each game moving every GAMES/RATE "
        "seconds like a player who thinks (default 0: each game moves as soon as it is "
        "answered, which measures capacity)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the random moves")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for one answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a server that is not on this machine (use only against your own servers)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object, no table")
    parser.set_defaults(handler=loadtest_command)


# -- arguments ---------------------------------------------------------------------------------


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


# -- the run -----------------------------------------------------------------------------------


@dataclass(eq=False)
class Track:
    """One game the run created: where its moves go, its seats and what the server last said.

    ``acked`` holds the ``moves`` of the server's last answer (dicts while the game runs, texts
    once it is over, so that finished games keep little memory); ``ack_times`` the time each ply
    was acknowledged (nan for plies learnt otherwise), for the watchers' lag.
    """

    id: str
    target: int
    tokens: list[str | None]
    state: dict[str, Any]
    acked: Sequence[Any] = ()
    ack_times: array[float] = field(default_factory=lambda: array("d"))
    early: dict[int, int] = field(default_factory=dict)
    over: bool = False

    @property
    def ply(self) -> int:
        """The number of moves the server last reported."""
        ply: int = self.state["ply"]
        return ply

    def acked_texts(self) -> list[str]:
        """The move texts of the server's last answer."""
        return [m if isinstance(m, str) else m["text"] for m in self.acked]


@dataclass(eq=False)
class Slot:
    """One of the ``--games`` concurrent players, and the game it plays now."""

    index: int
    target: int
    client: httpx.AsyncClient
    track: Track | None = None
    new_game: asyncio.Event = field(default_factory=asyncio.Event)
    next_move_at: float = 0.0  # with --rate: when this slot's next move is due

    def start(self, track: Track) -> None:
        """Play ``track`` now and wake the watchers that wait for it."""
        self.track = track
        woken, self.new_game = self.new_game, asyncio.Event()
        woken.set()


@dataclass(eq=False)
class Watcher:
    """One WebSocket watcher: the game it follows and the last ply it received there."""

    index: int
    track: Track | None = None
    last_ply: int = -1
    connected: bool = False


@dataclass
class Measures:
    """What the run counted."""

    moves: int = 0
    latencies: array[float] = field(default_factory=lambda: array("d"))
    lags: array[float] = field(default_factory=lambda: array("d"))
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: list[str] = field(default_factory=list)
    conflicts: int = 0
    rate_limited: int = 0
    rate_limited_creation: int = 0
    failovers: int = 0
    stale_reads: int = 0
    games_created: int = 0
    games_finished: int = 0
    cancelled_at_stop: int = 0
    in_flight: int = 0

    def error(self, kind: str, detail: str = "") -> None:
        """Count an error of ``kind``; keep the first few details for the report."""
        self.errors[kind] += 1
        if len(self.error_examples) < EXAMPLES_KEPT:
            self.error_examples.append(f"{kind}: {detail}"[:300] if detail else kind)


class LoadTest:
    """One run: the slots, the watchers, the clock, and the report at the end."""

    def __init__(self, settings: Settings, progress: Console | None) -> None:
        self.settings = settings
        self.targets = settings.targets
        self.progress = progress
        self.measures = Measures()
        self.tracks: list[Track] = []
        self.watchers = [Watcher(i) for i in range(settings.watchers)]
        self._game_cycle = itertools.cycle(settings.game_ids)
        self._stop = asyncio.Event()
        self._stop_watching = asyncio.Event()
        self.interrupted = False
        self.abandoned = False
        self._work: asyncio.Task[None] | None = None
        self.report: dict[str, Any] = {}
        # One client per slot: httpx's pool looks at every connection it holds on each request,
        # so one pool of 200 connections costs about three times the CPU per move of 200 pools
        # of one (measured). Each slot sends one request at a time: one connection per URL.
        # They share one TLS context (making one per client is slow), and trust_env=False: a
        # load test goes straight to the servers, never through a proxy.
        tls = ssl.create_default_context()
        timeout = httpx.Timeout(settings.timeout, connect=min(settings.timeout, 10.0))

        def client(connections: int) -> httpx.AsyncClient:
            limits = httpx.Limits(
                max_connections=connections, max_keepalive_connections=connections
            )
            return httpx.AsyncClient(limits=limits, timeout=timeout, trust_env=False, verify=tls)

        self.slots = [
            Slot(i, i % len(self.targets), client(len(self.targets))) for i in range(settings.games)
        ]
        self.client = client(REPLAY_CONCURRENCY)  # for the replay check

    @property
    def stopping(self) -> bool:
        """Whether the time is up (or Ctrl+C was pressed)."""
        return self._stop.is_set()

    async def run(self) -> dict[str, Any]:
        """Play, stop, check the records; return the report (`report_fields`)."""
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self._interrupt)
            handles_ctrl_c = True
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, Windows
            handles_ctrl_c = False
        try:
            self._work = asyncio.create_task(self._phases())
            with contextlib.suppress(asyncio.CancelledError):
                await self._work
        finally:
            if handles_ctrl_c:
                loop.remove_signal_handler(signal.SIGINT)
            await asyncio.gather(
                self.client.aclose(), *(slot.client.aclose() for slot in self.slots)
            )
        return self.report

    def _interrupt(self) -> None:
        """Ctrl+C: the first stops the load, the second skips what is left to wait for.

        After the first the run ends as if the time were up (grace, watchers, replay check);
        after the second it reports at once what was measured.
        """
        if not self.interrupted:
            self.interrupted = True
            self._stop.set()
            if self.progress is not None:
                self.progress.print("Stopping (Ctrl+C again to skip the replay check) ...")
        elif self._work is not None and not self.abandoned:
            self.abandoned = True
            self._work.cancel()

    async def _phases(self) -> None:
        measures = self.measures
        started = time.perf_counter()
        cpu_started = time.process_time()
        self.report = {"started": started, "cpu_started": cpu_started}
        slot_tasks = [asyncio.create_task(self._play_slot(slot)) for slot in self.slots]
        watcher_tasks = [asyncio.create_task(self._watch(w)) for w in self.watchers]
        ticker = asyncio.create_task(self._tick(started))
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=self.settings.seconds)
            self._stop.set()
            ticker.cancel()
            _, late = await asyncio.wait(slot_tasks, timeout=STOP_GRACE_S)
            measures.cancelled_at_stop = measures.in_flight
            for task in late:
                task.cancel()
            await asyncio.gather(*slot_tasks, return_exceptions=True)
            ended = time.perf_counter()
            self.report.update(ended=ended, cpu_ended=time.process_time())
            await self._watch_grace()
            self.report.update(
                watchers_connected=self.watchers_connected(),
                watchers_saw_last_move=self.watchers_current(),
                load_average=_load_average(),
            )
            self._stop_watching.set()
            for task in watcher_tasks:
                task.cancel()
            await asyncio.gather(*watcher_tasks, return_exceptions=True)
            await self._check_records()
        finally:
            # A second Ctrl+C lands here: what is still in flight is abandoned, and said so.
            measures.cancelled_at_stop = max(measures.cancelled_at_stop, measures.in_flight)
            for task in (*slot_tasks, *watcher_tasks, ticker):
                task.cancel()
            await asyncio.gather(*slot_tasks, *watcher_tasks, ticker, return_exceptions=True)

    async def _tick(self, started: float) -> None:
        """A progress line every few seconds (not in ``--json`` mode)."""
        if self.progress is None:
            return
        while True:
            await asyncio.sleep(5)
            elapsed = time.perf_counter() - started
            m = self.measures
            self.progress.print(
                f"{elapsed:4.0f} s: {m.moves:,} moves ({m.moves / elapsed:,.0f}/s), "
                f"{m.games_created:,} games, {sum(m.errors.values()):,} errors"
            )

    async def _pause(self, seconds: float) -> None:
        """Sleep ``seconds``, or less if the run stops meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), timeout=seconds)

    # -- players ---------------------------------------------------------------------------

    async def _play_slot(self, slot: Slot) -> None:
        rng = random.Random(f"{self.settings.seed}/{slot.index}")
        while not self.stopping:
            try:
                track = await self._create(slot)
                if track is None:
                    return
                slot.start(track)
                await self._play(slot, track, rng)
            except (ValueError, KeyError, TypeError, IndexError, httpx.HTTPError) as error:
                # An answer that is not what the API promises: count it, start a new game.
                self.measures.error("unexpected answer", f"{type(error).__name__}: {error}")
                await self._pause(BACKOFF_S)
            except Exception as error:  # a fault of the client itself: said, never hidden
                self.measures.error("load client failed", f"{type(error).__name__}: {error}")
                return

    async def _create(self, slot: Slot) -> Track | None:
        """Create the slot's next game; ``None`` once the run stops."""
        measures = self.measures
        game_id = next(self._game_cycle)
        seats = ["human"] * self.settings.seats[game_id]
        body = json.dumps({"game": game_id, "seats": seats}).encode()
        while not self.stopping:
            target = self._usable(slot.target)
            slot.target = target
            try:
                measures.in_flight += 1
                try:
                    response = await slot.client.post(
                        self.targets[target].api("/api/games"), content=body, headers=JSON_HEADERS
                    )
                finally:
                    measures.in_flight -= 1
            except httpx.TransportError as error:
                slot.target = self._connection_lost(target, "POST /api/games", error)
                await self._pause(BACKOFF_S)
                continue
            if response.status_code == 429:
                measures.rate_limited += 1
                measures.rate_limited_creation += 1
                await self._pause(_retry_after(response))
                continue
            if response.status_code == 503 and "still being prepared" in response.text:
                await self._pause(_retry_after(response))  # a server just started: not an error
                continue
            if response.status_code != 201:
                measures.error(f"POST /api/games {response.status_code}", _short(response.text))
                await self._pause(BACKOFF_S)
                continue
            created = json.loads(response.content)
            tokens: list[str | None] = [None] * len(created["seats"])
            for seat in created["seats"]:
                tokens[seat["seat"]] = seat["token"]
            track = Track(id=created["id"], target=target, tokens=tokens, state=created["game"])
            self.tracks.append(track)
            measures.games_created += 1
            self._acknowledge(track, created["game"], time.perf_counter())
            return track
        return None

    async def _play(self, slot: Slot, track: Track, rng: random.Random) -> None:
        """Play random legal moves in ``track`` until it is over or the run stops."""
        measures = self.measures
        url, url_target = None, -1
        while not track.over and not self.stopping:
            if url is None or url_target != track.target:
                # Parsed once per game and URL, not per move: httpx's URL parsing is ~15 % of
                # the client's CPU per request.
                url_target = track.target
                url = httpx.URL(self.targets[url_target].api(f"/api/games/{track.id}/moves"))
            state = track.state
            seat = state["to_move"]
            legal = state["legal_moves"]
            if not isinstance(seat, int) or not 0 <= seat < len(track.tokens) or not legal:
                measures.error("unexpected answer", f"game {track.id}: no person to move")
                track.over = True  # leave it (the replay check still checks it)
                return
            if not await self._wait_turn(slot):
                break
            move: str = rng.choice(legal)
            body = json.dumps({"move": move, "token": track.tokens[seat], "ply": state["ply"]})
            sent = time.perf_counter()
            try:
                measures.in_flight += 1
                try:
                    response = await slot.client.post(url, content=body, headers=JSON_HEADERS)
                finally:
                    measures.in_flight -= 1
            except httpx.TransportError as error:
                # The move may or may not have been stored: the server's state decides.
                track.target = self._connection_lost(track.target, "POST /moves", error)
                await self._resync(slot, track)
                continue
            status = response.status_code
            if status == 200:
                answered = time.perf_counter()
                measures.latencies.append(answered - sent)
                measures.moves += 1
                game = json.loads(response.content)
                self._check_reply(track, game, state["ply"], move)
                self._acknowledge(track, game, answered)
            elif status == 409:
                measures.conflicts += 1
                await self._resync(slot, track)
                if track.ply == state["ply"]:  # refused at the very ply the server reports
                    await self._pause(BACKOFF_S)  # a stale server: do not hammer it
            elif status == 429:
                measures.rate_limited += 1
                await self._pause(_retry_after(response))
            else:
                measures.error(f"POST /moves {status}", _short(response.text))
                await self._pause(BACKOFF_S)
                await self._resync(slot, track)
        slot.target = track.target

    async def _wait_turn(self, slot: Slot) -> bool:
        """With ``--rate``, wait until the slot's next move is due; ``False`` once stopping.

        The slots' moves are spread evenly: slot ``i`` starts ``i / rate`` seconds in, then
        moves every ``games / rate`` seconds. A slot that fell behind (a slow answer) moves at
        once and keeps its pace from then on, without a burst to catch up.
        """
        interval = self.settings.interval
        if not interval:
            return not self.stopping
        now = time.perf_counter()
        if not slot.next_move_at:
            slot.next_move_at = now + slot.index / self.settings.rate
        if slot.next_move_at > now:
            await self._pause(slot.next_move_at - now)
        slot.next_move_at = max(slot.next_move_at, time.perf_counter()) + interval
        return not self.stopping

    def _check_reply(self, track: Track, game: dict[str, Any], ply: int, move: str) -> None:
        """Check that the answer to a move holds it where it was played (one look, not a scan)."""
        moves = game["moves"]
        if len(moves) <= ply or moves[ply]["text"] != move:
            self.measures.error(
                "acknowledged move missing",
                f"game {track.id}: the answer to move {ply + 1} ({move}) does not hold it there",
            )

    def _acknowledge(self, track: Track, game: dict[str, Any], when: float) -> None:
        """Take the server's answer as the game's state; note when its ply was acknowledged."""
        track.state = game
        track.acked = game["moves"]
        ply: int = game["ply"]
        times = track.ack_times
        if len(times) <= ply:
            times.extend(itertools.repeat(math.nan, ply + 1 - len(times)))
        times[ply] = when
        early = track.early.pop(ply, 0)
        if early:  # watchers that had the ply before the reply arrived: no lag
            self.measures.lags.extend(itertools.repeat(0.0, early))
        if game["to_move"] is None or not game["legal_moves"]:
            self._finish(track)

    def _finish(self, track: Track) -> None:
        if not track.over:
            track.over = True
            self.measures.games_finished += 1
            track.acked = tuple(track.acked_texts())  # small, and all the replay check needs

    async def _resync(self, slot: Slot, track: Track) -> None:
        """Read the game from the server (the authority), trying every URL if need be.

        The answer must hold every move acknowledged so far. One that lacks only the last few
        is a stale read (a process that has not yet heard of them): it is asked again for up to
        `STALE_WAIT_S`; a move still missing then, or a different one, is an error.
        """
        measures = self.measures
        stale_since: float | None = None
        while not self.stopping:
            target = self._usable(track.target)
            try:
                measures.in_flight += 1
                try:
                    response = await slot.client.get(
                        self.targets[target].api(f"/api/games/{track.id}")
                    )
                finally:
                    measures.in_flight -= 1
            except httpx.TransportError as error:
                track.target = self._connection_lost(target, "GET /api/games/{id}", error)
                await self._pause(BACKOFF_S)
                continue
            if response.status_code != 200:
                measures.error(
                    f"GET /api/games/{{id}} {response.status_code}", _short(response.text)
                )
                track.over = True  # the slot starts a new game; the replay check reports this one
                return
            game = json.loads(response.content)
            texts = [move["text"] for move in game["moves"]]
            mine = track.acked_texts()
            if texts[: len(mine)] != mine:
                if len(texts) < len(mine) and texts == mine[: len(texts)]:  # behind
                    if stale_since is None:
                        stale_since = time.monotonic()
                        measures.stale_reads += 1
                    if time.monotonic() - stale_since < STALE_WAIT_S:
                        # Another process may learn of the last moves a moment later: ask again.
                        await self._pause(STALE_PAUSE_S)
                        continue
                measures.error(
                    "acknowledged move missing",
                    f"game {track.id}: {len(mine)} moves were acknowledged, and "
                    f"{self.targets[target].url} reports {len(texts)} that do not start "
                    "with them",
                )
                track.over = True  # leave the game: the replay check has the last word on it
                return
            track.target = target
            self._acknowledge(track, game, math.nan)
            return

    def _usable(self, preferred: int) -> int:
        """``preferred`` unless it refused a connection lately and another URL did not."""
        now = time.monotonic()
        count = len(self.targets)
        for step in range(count):
            index = (preferred + step) % count
            if self.targets[index].down_until <= now:
                return index
        return preferred

    def _connection_lost(self, target: int, what: str, error: Exception) -> int:
        """Count a request that got no answer; return the URL to use next.

        With several URLs a refused or reset connection is a failover to the next URL (a
        server process was stopped); with one URL, or a timeout, it is an error.
        """
        kind = type(error).__name__
        timed_out = isinstance(error, httpx.TimeoutException)
        if not timed_out:
            self.targets[target].down_until = time.monotonic() + DOWN_FOR_S
        following = self._usable(target)
        if timed_out or following == target:
            self.measures.error(f"{what}: {kind}", f"{self.targets[target].url}: {error}")
        else:
            self.measures.failovers += 1
        return following

    # -- watchers --------------------------------------------------------------------------

    async def _watch(self, watcher: Watcher) -> None:
        """Follow the games of one slot over WebSocket, through another URL than its moves."""
        slot = self.slots[watcher.index % len(self.slots)]
        turn = watcher.index // len(self.slots)  # spreads a slot's watchers over the other URLs
        watched: Track | None = None
        ended: Track | None = None
        while not self._stop_watching.is_set():
            track = slot.track
            if track is None or track is ended or (track is watched and track.over):
                await _first(slot.new_game.wait(), self._stop_watching.wait())
                continue
            watched = track
            target = self._watch_target(track.target, turn)
            try:
                if await self._follow(watcher, track, target):
                    ended = track
            except (OSError, WebSocketException, ValueError, KeyError, TypeError) as error:
                watcher.connected = False
                await self._watch_failed(target, error)
            except Exception as error:  # a fault of the client itself: said, never hidden
                watcher.connected = False
                self.measures.error("load client failed", f"{type(error).__name__}: {error}")
                return

    def _watch_target(self, moves_target: int, turn: int) -> int:
        count = len(self.targets)
        if count == 1:
            return 0
        preferred = (moves_target + 1 + turn % (count - 1)) % count
        target = self._usable(preferred)
        if target == moves_target:  # only the moves' URL answers: better than none
            return self._usable((target + 1) % count)
        return target

    async def _follow(self, watcher: Watcher, track: Track, target: int) -> bool:
        """Receive ``track``'s states until it is over (then answer True) or the watchers stop.

        ``watcher.connected`` stays True after a game's end: the watcher saw all of it.
        """
        url = f"{self.targets[target].ws_url}/ws/games/{track.id}"
        async with connect(
            url,
            proxy=None,
            open_timeout=self.settings.timeout,
            close_timeout=1,
            max_size=16 * 2**20,
        ) as connection:
            watcher.track, watcher.last_ply, watcher.connected = track, -1, True
            return await self._receive(watcher, track, connection)

    async def _receive(self, watcher: Watcher, track: Track, connection: ClientConnection) -> bool:
        lags = self.measures.lags
        first = True
        async for message in connection:
            seen = time.perf_counter()
            game = _game_of(message)
            ply: int = game["ply"]
            watcher.last_ply = ply
            times = track.ack_times
            if first:  # the state on connecting, not a push after a move: no lag to measure
                first = False
            elif ply < len(times):
                acknowledged = times[ply]
                if not math.isnan(acknowledged):
                    lags.append(max(0.0, seen - acknowledged))
            else:  # the push overtook the reply to the move
                track.early[ply] = track.early.get(ply, 0) + 1
            if game["outcome"] is not None or game["to_move"] is None:
                return True
        if not self._stop_watching.is_set():
            raise ConnectionError("the server closed the WebSocket")
        return False

    async def _watch_failed(self, target: int, error: Exception) -> None:
        lost = isinstance(error, ConnectionClosed) or (
            isinstance(error, OSError) and not isinstance(error, TimeoutError)
        )
        if lost and len(self.targets) > 1:  # that server process is gone: use another
            self.targets[target].down_until = time.monotonic() + DOWN_FOR_S
            self.measures.failovers += 1
        else:
            if isinstance(error, InvalidStatus):
                kind = f"WebSocket refused {error.response.status_code}"
            elif lost:
                kind = "WebSocket connection lost"
            elif isinstance(error, TimeoutError):
                kind = "WebSocket timeout"
            elif isinstance(error, WebSocketException):
                kind = f"WebSocket: {type(error).__name__}"
            else:
                kind = "unexpected WebSocket message"
            self.measures.error(kind, f"{self.targets[target].ws_url}: {error}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop_watching.wait(), timeout=BACKOFF_S)

    def watchers_connected(self) -> int:
        """How many watchers hold a connection (or saw their game to its end)."""
        return sum(w.connected for w in self.watchers)

    def watchers_current(self) -> int:
        """How many watchers have received their game's last acknowledged move."""
        return sum(
            w.connected and w.track is not None and w.last_ply >= w.track.ply for w in self.watchers
        )

    async def _watch_grace(self) -> None:
        """Give the watchers up to `WATCH_GRACE_S` to receive the last moves."""
        deadline = time.perf_counter() + WATCH_GRACE_S
        while time.perf_counter() < deadline and self.watchers_current() < len(self.watchers):
            await asyncio.sleep(0.05)

    # -- the replay check ------------------------------------------------------------------

    async def _check_records(self) -> None:
        """Download every game's saved record, replay it, compare with the acknowledged moves."""
        failures: list[str] = []
        self.report.update(games_replayed=0, replay_failures=failures, replay_checked=0)
        gate = asyncio.Semaphore(REPLAY_CONCURRENCY)

        async def check(track: Track) -> None:
            async with gate:
                problem = await self._check_record(track)
            self.report["replay_checked"] += 1
            if problem is None:
                self.report["games_replayed"] += 1
            else:
                failures.append(f"game {track.id}: {problem}")

        await asyncio.gather(*(check(track) for track in self.tracks))

    async def _check_record(self, track: Track) -> str | None:
        text = None
        problem = "no server answered"
        for step in range(len(self.targets)):
            target = self.targets[(track.target + step) % len(self.targets)]
            try:
                response = await self.client.get(target.api(f"/api/games/{track.id}/record"))
            except httpx.TransportError as error:
                problem = f"GET /record: {type(error).__name__} {error}"
                continue
            if response.status_code != 200:
                return f"GET /record answered {response.status_code}: {_short(response.text)}"
            text = response.text
            break
        if text is None:
            return problem
        try:
            record = records.loads(text)
        except LudotecaError as error:
            return f"the saved game does not replay: {error}"
        mine = track.acked_texts()
        if record.game.id != track.state["game"]:
            return f"the saved game is of {record.game.id}, not {track.state['game']}"
        if list(record.moves[: len(mine)]) != mine:
            return (
                f"the saved game's {len(record.moves)} moves do not start with the "
                f"{len(mine)} acknowledged"
            )
        return None


_STATE_PREFIX = '{"type":"state","game":'
_DECODER = json.JSONDecoder()


def _game_of(message: str | bytes) -> dict[str, Any]:
    """The game in a watcher's message, without decoding the board after it.

    The board (an SVG of tens of kilobytes) is most of each message, and a watcher only needs
    the game; decoding both would put the client's own work into the lag it measures.
    """
    text = message.decode() if isinstance(message, bytes) else message
    if text.startswith(_STATE_PREFIX):
        game, _ = _DECODER.raw_decode(text, len(_STATE_PREFIX))
    else:
        game = json.loads(text)["game"]
    if not isinstance(game, dict):
        raise ValueError("a watcher's message without a game")
    return game


async def _first(*waits: Coroutine[Any, Any, Any]) -> None:
    """Wait until one of ``waits`` is done; cancel the others."""
    tasks = [asyncio.create_task(wait) for wait in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


def _retry_after(response: httpx.Response) -> float:
    """The pause a 429 asks for (seconds; an HTTP date or nothing counts as 1 s)."""
    try:
        seconds = float(response.headers.get("Retry-After", "1"))
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 0.05), MAX_RETRY_AFTER_S) if math.isfinite(seconds) else 1.0


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _short(text: str) -> str:
    return text if len(text) <= 200 else text[:200] + "…"


def _load_average() -> list[float] | None:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:  # not available on this system
        return None


# -- the report --------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The nearest-rank percentile of sorted ``values`` (``None`` when there are none)."""
    if not values:
        return None
    rank = max(1, math.ceil(fraction * len(values)))
    return values[rank - 1]


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def report_fields(test: LoadTest) -> dict[str, Any]:
    """The run's figures under the names ``--json`` prints."""
    settings, measures, raw = test.settings, test.measures, test.report
    ended = raw.get("ended", time.perf_counter())
    duration = max(ended - raw["started"], 1e-9)
    cpu = raw.get("cpu_ended", time.process_time()) - raw["cpu_started"]
    latencies = sorted(measures.latencies)
    lags = sorted(measures.lags)
    failures: list[str] = raw.get("replay_failures", [])
    unchecked = len(test.tracks) - raw.get("replay_checked", 0)
    return {
        "urls": [target.url for target in settings.targets],
        "seconds": round(duration, 2),
        "seconds_requested": settings.seconds,
        "interrupted": test.interrupted,
        "games": settings.games,
        "watchers": settings.watchers,
        "seed": settings.seed,
        "rate": settings.rate or None,
        "moves": measures.moves,
        "moves_per_s": round(measures.moves / duration, 1),
        "latency_ms": {
            name: _ms(percentile(latencies, fraction))
            for name, fraction in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
        },
        "errors": sum(measures.errors.values()),
        "errors_by_kind": dict(measures.errors.most_common()),
        "error_examples": measures.error_examples,
        "conflicts": measures.conflicts,
        "rate_limited": measures.rate_limited,
        "rate_limited_creation": measures.rate_limited_creation,
        "failovers": measures.failovers,
        "stale_reads": measures.stale_reads,
        "requests_cancelled_at_stop": measures.cancelled_at_stop,
        "games_created": measures.games_created,
        "games_finished": measures.games_finished,
        "watchers_connected": raw.get("watchers_connected", test.watchers_connected()),
        "watchers_saw_last_move": raw.get("watchers_saw_last_move", test.watchers_current()),
        "watcher_lag_ms": {
            name: _ms(percentile(lags, fraction))
            for name, fraction in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))
        },
        "games_replayed": raw.get("games_replayed", 0),
        "replay_failures": len(failures) + unchecked,
        "replay_failure_examples": [
            *failures[:EXAMPLES_KEPT],
            *([f"{unchecked} games not checked (interrupted)"] if unchecked else []),
        ],
        "client_cpu_s": round(cpu, 2),
        "client_cpu_ms_per_move": round(cpu * 1000 / measures.moves, 3) if measures.moves else None,
        "load_average": raw.get("load_average", _load_average()),
    }


def _triple(values: dict[str, float | None]) -> str:
    return " / ".join("–" if v is None else f"{v:,.1f}" for v in values.values())


def print_report(console: Console, fields: dict[str, Any]) -> None:
    """The report as a table, with hints below it."""
    table = Table(title="Ludoteca load test")
    table.add_column("measure")
    table.add_column("value", justify="right")
    interrupted = " (stopped by Ctrl+C)" if fields["interrupted"] else ""
    by_kind = ", ".join(f"{k}: {n}" for k, n in fields["errors_by_kind"].items())
    load = fields["load_average"]
    rows = [
        ("servers", "\n".join(fields["urls"])),
        ("duration", f"{fields['seconds']:.1f} s of {fields['seconds_requested']:g}{interrupted}"),
        ("games / watchers asked", f"{fields['games']:,} / {fields['watchers']:,}"),
        (
            "moves/s asked (--rate)",
            "as fast as answered" if fields["rate"] is None else f"{fields['rate']:,g}",
        ),
        ("moves acknowledged", f"{fields['moves']:,}"),
        ("moves/s", f"{fields['moves_per_s']:,.1f}"),
        ("move latency p50 / p95 / p99 / max (ms)", _triple(fields["latency_ms"])),
        ("games created / finished", f"{fields['games_created']:,} / {fields['games_finished']:,}"),
        ("errors", f"{fields['errors']:,}" + (f" ({by_kind})" if by_kind else "")),
        ("409 conflicts (resynced)", f"{fields['conflicts']:,}"),
        ("429 rate limited", f"{fields['rate_limited']:,}"),
        ("failovers", f"{fields['failovers']:,}"),
        ("stale reads (asked again)", f"{fields['stale_reads']:,}"),
        ("requests cancelled at the stop", f"{fields['requests_cancelled_at_stop']:,}"),
        ("watchers connected", f"{fields['watchers_connected']:,} of {fields['watchers']:,}"),
        (
            "watchers that saw the last move",
            f"{fields['watchers_saw_last_move']:,} of {fields['watchers']:,}",
        ),
        ("watcher lag p50 / p95 / max (ms)", _triple(fields["watcher_lag_ms"])),
        (
            "games replayed from the saved records",
            f"{fields['games_replayed']:,} of {fields['games_created']:,}"
            + (f" ({fields['replay_failures']:,} failed)" if fields["replay_failures"] else ""),
        ),
        (
            "client CPU",
            f"{fields['client_cpu_s']:.2f} s"
            + (
                f" ({fields['client_cpu_ms_per_move']:.2f} ms per move)"
                if fields["client_cpu_ms_per_move"] is not None
                else ""
            ),
        ),
        ("load average 1 / 5 / 15 min", "–" if load is None else " / ".join(map(str, load))),
    ]
    for name, value in rows:
        table.add_row(name, escape(value))
    console.print(table)
    for example in fields["error_examples"]:
        console.print(f"error: {escape(example)}")
    for failure in fields["replay_failure_examples"]:
        console.print(f"replay failure: {escape(failure)}")
    console.print(
        "The load client ran on this machine too: its CPU time and the load average are beside "
        "the wall time above."
    )


def loadtest_command(arguments: argparse.Namespace, console: Console, read_line: object) -> int:
    """Run ``ludoteca loadtest``; return 0 with no errors and every game replayed, else 1."""
    settings = settings_from(arguments)
    progress = None if arguments.json else Console(stderr=True, highlight=False, soft_wrap=True)
    if progress is not None:
        progress.print(
            f"Playing {_count(settings.games, 'game')} with "
            f"{_count(settings.watchers, 'watcher')} for "
            f"{settings.seconds:g} s against {', '.join(t.url for t in settings.targets)} "
            f"(seed {settings.seed}). Ctrl+C stops early."
        )
    # asyncio's events bind to the loop on first use, and httpx's client on its first request,
    # so both can be made before the loop starts.
    test = LoadTest(settings, progress)
    asyncio.run(test.run())
    fields = report_fields(test)
    if arguments.json:
        console.print_json(json.dumps(fields))
    else:
        print_report(console, fields)
    if fields["rate_limited_creation"]:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"The server limited game creation ({fields['rate_limited_creation']:,} answers 429). "
            "For a load test, start it with its limits raised: ludoteca serve --game-rate 0"
        )
    if test.abandoned:
        return 130
    return 0 if fields["errors"] == 0 and fields["replay_failures"] == 0 else 1
