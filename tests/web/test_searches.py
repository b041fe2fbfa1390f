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
from ludoteca.web.searches import (
    DEEP,
    QUICK,
    LaneSize,
    PoolBusyError,
    SearchJob,
    SearchPool,
    SearchTimeoutError,
)
from tests.web.server import free_port, running_server, serve_process


def _job(agent: str, game: str = "salta", seed: int = 0) -> SearchJob:
    position = ludoteca.make(game).initial_state().to_text()
    return SearchJob("move", game, {}, position, agent, seed)


def test_a_quick_reply_does_not_wait_for_two_deep_searches() -> None:
    async def scenario() -> tuple[float, int, list[str]]:
        pool = SearchPool()
        await pool.start([QUICK, DEEP])
        try:
            # Six level-5 searches (a fraction of a second to 1.8 s each) keep both deep
            # workers busy, with more waiting, for well over a second.
            deep = [
                asyncio.ensure_future(pool.run(DEEP, _job("level:5", seed=seed)))
                for seed in range(6)
            ]
            await asyncio.sleep(0.1)
            started = time.monotonic()
            quick = await pool.run(QUICK, _job("level:1"))
            waited = time.monotonic() - started
            still_searching = sum(not task.done() for task in deep)
            moves = [quick, *await asyncio.gather(*deep)]
            return waited, still_searching, moves
        finally:
            await pool.close()

    waited, still_searching, moves = asyncio.run(scenario())
    legal = {m.text for m in ludoteca.make("salta").initial_state().legal_moves()}
    assert set(moves) <= legal
    assert still_searching >= 2, "the level-5 searches were over before the level-1 reply"
    assert waited < 1.0, f"the level-1 reply waited {waited:.2f} s behind level-5 searches"


def test_a_search_over_the_time_limit_is_stopped_and_its_worker_replaced() -> None:
    async def scenario() -> str:
        pool = SearchPool({DEEP: LaneSize(workers=1, queue=4)}, time_limit=0.5)
        try:
            with pytest.raises(SearchTimeoutError, match="longer than 0.5 s"):
                await pool.run(DEEP, _job("mcts:seconds=30"))
            answer: str = await pool.run(DEEP, _job("random"))  # a fresh worker answers
            return answer
        finally:
            await pool.close()

    started = time.monotonic()
    answer = asyncio.run(scenario())
    assert answer in {m.text for m in ludoteca.make("salta").initial_state().legal_moves()}
    assert time.monotonic() - started < 20


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
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_the_server_answers_and_level_1_replies_while_level_5_thinks(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, start_workers=True)
    with running_server(tmp_path / "g.sqlite3", settings=settings) as base:
        thinkers = [_create(base, "salta", ["level:5", "level:5"]) for _ in range(2)]
        _wait_for(
            lambda: all(
                httpx.get(f"{base}/api/games/{t['id']}").json()["ply"] >= 1 for t in thinkers
            ),
            30,
        )  # the workers are up and both deep searches are running
        created = _create(base, "salta", ["human", "level:1"])
        token = created["seats"][0]["token"]
        sent = time.monotonic()
        answer = httpx.post(
            f"{base}/api/games/{created['id']}/moves", json={"move": "c3-d4", "token": token}
        )
        assert answer.status_code == 200
        assert time.monotonic() - sent < 0.5  # the server kept answering
        _wait_for(lambda: httpx.get(f"{base}/api/games/{created['id']}").json()["ply"] >= 2, 10)
        replied = time.monotonic() - sent
        assert replied < 1.0, f"the level-1 reply took {replied:.2f} s"


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
        _wait_for(lambda: httpx.get(url).json()["ply"] >= 2, 30)
        assert httpx.get(url).json()["to_move"] == 0


def test_ctrl_c_stops_the_server_during_searches(tmp_path: Path) -> None:
    port = free_port()
    with serve_process(port, tmp_path / "data") as process:
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_for(lambda: _answers(base), 60)
            games = [_create(base, "salta", ["level:5", "level:5"]) for _ in range(3)]
            _wait_for(lambda: httpx.get(f"{base}/api/games/{games[0]['id']}").json()["ply"], 30)
            time.sleep(0.3)  # searches are running now
        finally:
            process.send_signal(signal.SIGINT)
            sent = time.monotonic()
            process.wait(timeout=20)
            stopped = time.monotonic() - sent
        assert process.stderr is not None and process.stdout is not None
        err = process.stderr.read()
        assert process.returncode == 0, err
        assert "Traceback" not in err
        assert "stopped" in process.stdout.read()
    assert stopped < 2.0, f"the server took {stopped:.2f} s to stop"


def _answers(base: str) -> bool:
    """Whether the server answers and Salta is ready (it is prepared while the server runs)."""
    try:
        lobby = httpx.get(f"{base}/api/lobby")
    except httpx.TransportError:
        return False
    return lobby.status_code == 200 and "salta" not in lobby.json()["preparing"]
