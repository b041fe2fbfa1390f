"""The computer players' process pool: lanes, the hard time limit, the bounded queue.

And through a real server: a level-1 reply while two level-5 searches run, the server answering
while the computer thinks, a restart while the computer thinks, Ctrl+C during a search.
"""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import ludoteca
from ludoteca.web.app import ServerSettings
from ludoteca.web.search_worker import SearchJob
from ludoteca.web.searches import (
    DEEP,
    QUICK,
    LaneSize,
    PoolBusyError,
    SearchPool,
    SearchTimeoutError,
)
from tests.web.server import free_port, running_server, serve_process


def _job(agent: str, game: str = "salta", seed: int = 0) -> SearchJob:
    position = ludoteca.make(game).initial_state().to_text()
    return SearchJob("move", game, {}, position, agent, seed)


def test_a_quick_reply_does_not_wait_for_two_deep_searches() -> None:
    """Order, not seconds: the level-1 reply comes while every deep search is still running.

    The deep searches would think for ten minutes, so none of them can be over when the reply
    comes unless the reply took that long: a reply that waited for a deep worker could not come.
    """

    async def scenario() -> tuple[str, int]:
        pool = SearchPool(time_limit=900)
        await pool.start([QUICK, DEEP])
        try:
            deep = [
                asyncio.ensure_future(pool.run(DEEP, _job("mcts:seconds=600", seed=seed)))
                for seed in range(3)  # both deep workers busy, one more waiting
            ]
            await asyncio.sleep(0)  # the deep searches are sent first
            quick: str = await pool.run(QUICK, _job("level:1"))
            still_searching = sum(not task.done() for task in deep)
            for task in deep:
                task.cancel()
            return quick, still_searching
        finally:
            await pool.close()

    quick, still_searching = asyncio.run(scenario())
    assert quick in {m.text for m in ludoteca.make("salta").initial_state().legal_moves()}
    assert still_searching == 3, "a deep search was over before the level-1 reply"


def test_a_search_over_the_time_limit_is_stopped_and_its_worker_replaced() -> None:
    """A ten-minute search under a 3-s limit: stopped no sooner than the limit, its worker
    process killed, and a new process answers the next job (a random move, far inside 3 s)."""

    async def scenario() -> tuple[str, float, bool, int, int]:
        pool = SearchPool({DEEP: LaneSize(workers=1, queue=4)}, time_limit=3)
        try:
            await pool.start([DEEP])
            first = pool._lanes[DEEP].workers[0]  # the pool's own record of its worker
            assert first is not None
            started = time.monotonic()
            with pytest.raises(SearchTimeoutError, match="longer than 3 s"):
                await pool.run(DEEP, _job("mcts:seconds=600"))
            stopped_after = time.monotonic() - started
            first.process.join(timeout=60)  # a safety net: it was killed already
            answer: str = await pool.run(DEEP, _job("random"))
            second = pool._lanes[DEEP].workers[0]
            assert second is not None
            return (
                answer,
                stopped_after,
                first.process.is_alive(),
                first.process.pid or 0,
                second.process.pid or 0,
            )
        finally:
            await pool.close()

    answer, stopped_after, first_alive, first_pid, second_pid = asyncio.run(scenario())
    assert stopped_after >= 3.0  # never before the limit
    assert not first_alive and second_pid != first_pid
    assert answer in {m.text for m in ludoteca.make("salta").initial_state().legal_moves()}


def test_a_full_queue_refuses_at_once() -> None:
    async def scenario() -> None:
        pool = SearchPool({DEEP: LaneSize(workers=1, queue=1)}, time_limit=5)
        try:
            running = asyncio.ensure_future(pool.run(DEEP, _job("mcts:seconds=1")))
            await asyncio.sleep(0.05)
            waiting = asyncio.ensure_future(pool.run(DEEP, _job("mcts:seconds=1")))
            await asyncio.sleep(0.05)
            with pytest.raises(PoolBusyError, match="busy"):
                await pool.run(DEEP, _job("random"))
            running.cancel()
            waiting.cancel()
        finally:
            await pool.close()

    asyncio.run(scenario())


def _create(base: str, game: str, seats: list[str]) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/games", json={"game": game, "seats": seats})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def _wait_for(condition: Any, seconds: float) -> None:
    """Poll ``condition`` until it holds; ``seconds`` is a safety net against a hang, far beyond
    what a busy machine needs, never a bound that the test checks."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"gave up after {seconds} s"
        time.sleep(0.05)


def test_the_server_answers_and_level_1_replies_while_level_5_thinks(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, start_workers=True)
    with running_server(tmp_path / "g.sqlite3", settings=settings) as base:
        thinkers = [_create(base, "salta", ["level:5", "level:5"]) for _ in range(2)]
        _wait_for(
            lambda: all(
                httpx.get(f"{base}/api/games/{t['id']}").json()["ply"] >= 1 for t in thinkers
            ),
            120,
        )  # the workers are up and both deep searches are running
        created = _create(base, "salta", ["human", "level:1"])
        token = created["seats"][0]["token"]
        answer = httpx.post(
            f"{base}/api/games/{created['id']}/moves", json={"move": "c3-d4", "token": token}
        )
        assert answer.status_code == 200  # the server kept answering
        _wait_for(lambda: httpx.get(f"{base}/api/games/{created['id']}").json()["ply"] >= 2, 120)
        # ... and level 1 replied while the level-5 games still played (the lanes themselves are
        # checked by order in test_a_quick_reply_does_not_wait_for_two_deep_searches).
        for thinker in thinkers:
            assert httpx.get(f"{base}/api/games/{thinker['id']}").json()["outcome"] is None


def test_a_restart_while_the_computer_thinks_resumes_its_turn(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with running_server(db) as base:
        created = _create(base, "salta", ["human", "level:4"])
        token = created["seats"][0]["token"]
        url = f"{base}/api/games/{created['id']}"
        httpx.post(f"{url}/moves", json={"move": "c3-d4", "token": token})
        # Stopped while level 4 searches its reply.
    with running_server(db) as base:
        url = f"{base}/api/games/{created['id']}"
        state = httpx.get(url).json()
        assert state["ply"] >= 1 and state["moves"][0]["text"] == "c3-d4"
        _wait_for(lambda: httpx.get(url).json()["ply"] >= 2, 120)
        assert httpx.get(url).json()["to_move"] == 0


def test_ctrl_c_stops_the_server_during_searches(tmp_path: Path) -> None:
    port = free_port()
    with serve_process(port, tmp_path / "data") as process:
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_for(lambda: _answers(base), 600)
            games = [_create(base, "salta", ["level:5", "level:5"]) for _ in range(3)]
            _wait_for(lambda: httpx.get(f"{base}/api/games/{games[0]['id']}").json()["ply"], 120)
            workers = [pid for pid in _children(process.pid) if not _is_resource_tracker(pid)]
            assert workers, "no search worker is running"  # searches are running now
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=120)  # a safety net against a hang, not a bound
        assert process.stderr is not None and process.stdout is not None
        err = process.stderr.read()
        assert process.returncode == 0, err
        assert "Traceback" not in err
        assert "stopped" in process.stdout.read()
    # Its search workers stopped with it: none is left running their searches.
    assert not [pid for pid in workers if _alive(pid)], "search workers outlived the server"


def _children(pid: int) -> list[int]:
    """The processes that ``pid`` started (Linux's /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _is_resource_tracker(pid: int) -> bool:
    """Whether ``pid`` is multiprocessing's resource tracker, which every process started by
    ``spawn`` shares and which ends by itself once the last of them has (so a moment after the
    server, on a busy machine): it runs no search."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return False


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, whose parent has not reaped it, counts as stopped)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


def _answers(base: str) -> bool:
    """Whether the server answers and Salta is ready (it is prepared while the server runs)."""
    try:
        lobby = httpx.get(f"{base}/api/lobby")
    except httpx.TransportError:
        return False
    return lobby.status_code == 200 and "salta" not in lobby.json()["preparing"]
