"""The load test's run: the slots that play, the clock, Ctrl+C, and the phases of the end.

Each of ``--games`` slots creates a game between people (``POST /api/games``), plays random
legal moves in it (``POST /api/games/{id}/moves``, continuing from each reply) and starts a new
game when it ends. A slot whose URL stops answering fails over to another one, resynchronising
from the server (the authority on every game). No per-move work beyond one JSON decode and a
random choice: the client usually shares the machine with the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import random
import signal
import ssl
import time
from typing import Any

import httpx
from rich.console import Console

from ludoteca.loadtest.replay import REPLAY_CONCURRENCY, check_records
from ludoteca.loadtest.report import load_average
from ludoteca.loadtest.settings import Settings
from ludoteca.loadtest.tracks import (
    BACKOFF_S,
    DOWN_FOR_S,
    Measures,
    Slot,
    Track,
    short,
    usable,
)
from ludoteca.loadtest.watchers import Watchers

STOP_GRACE_S = 5.0
"""After the time is up, requests already sent get this long to be answered."""
STALE_WAIT_S = 3.0
"""How long a server may answer a game without moves already acknowledged (a stale read)."""
STALE_PAUSE_S = 0.1
MAX_RETRY_AFTER_S = 30.0
JSON_HEADERS = {"Content-Type": "application/json"}


class LoadTest:
    """One run: the slots, the watchers, the clock, and the report at the end."""

    def __init__(self, settings: Settings, progress: Console | None) -> None:
        self.settings = settings
        self.targets = settings.targets
        self.progress = progress
        self.measures = Measures()
        self.tracks: list[Track] = []
        self._game_cycle = itertools.cycle(settings.game_ids)
        self._stop = asyncio.Event()
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
        self.watchers = Watchers(
            settings.watchers, self.slots, self.targets, self.measures, timeout=settings.timeout
        )

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
        watcher_tasks = [asyncio.create_task(self.watchers.watch(w)) for w in self.watchers.all]
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
            await self.watchers.grace()
            self.report.update(
                watchers_connected=self.watchers.connected(),
                watchers_saw_last_move=self.watchers.current(),
                load_average=load_average(),
            )
            self.watchers.stopped.set()
            for task in watcher_tasks:
                task.cancel()
            await asyncio.gather(*watcher_tasks, return_exceptions=True)
            await check_records(self.tracks, self.targets, self.client, self.report)
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
            target = usable(self.targets, slot.target)
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
                measures.error(f"POST /api/games {response.status_code}", short(response.text))
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
                measures.error(f"POST /moves {status}", short(response.text))
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
            target = usable(self.targets, track.target)
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
                    f"GET /api/games/{{id}} {response.status_code}", short(response.text)
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

    def _connection_lost(self, target: int, what: str, error: Exception) -> int:
        """Count a request that got no answer; return the URL to use next.

        With several URLs a refused or reset connection is a failover to the next URL (a
        server process was stopped); with one URL, or a timeout, it is an error.
        """
        kind = type(error).__name__
        timed_out = isinstance(error, httpx.TimeoutException)
        if not timed_out:
            self.targets[target].down_until = time.monotonic() + DOWN_FOR_S
        following = usable(self.targets, target)
        if timed_out or following == target:
            self.measures.error(f"{what}: {kind}", f"{self.targets[target].url}: {error}")
        else:
            self.measures.failovers += 1
        return following


def _retry_after(response: httpx.Response) -> float:
    """The pause a 429 asks for (seconds; an HTTP date or nothing counts as 1 s)."""
    try:
        seconds = float(response.headers.get("Retry-After", "1"))
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 0.05), MAX_RETRY_AFTER_S) if math.isfinite(seconds) else 1.0
