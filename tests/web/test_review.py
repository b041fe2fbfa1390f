"""Reviews of finished games on the server: the API, the pool, one at a time, restarts.

Reviews run in real search workers with a tiny budget, so each takes seconds. The tests that
share a database between server processes run on SQLite and on PostgreSQL (the latter skipped
where no server runs, except under CI=true).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ludoteca.analysis.review import review_tasks
from ludoteca.core.registry import make
from ludoteca.web.app import ServerSettings, create_app
from ludoteca.web.search_worker import SearchJob
from ludoteca.web.searches import (
    DEFAULT_LANES,
    DEFAULT_REVIEW_TIME_LIMIT,
    QUICK,
    REVIEW,
    LaneSize,
    SearchPool,
)
from ludoteca.web.storage import GameStore
from tests.web.server import TEST_LANES, running_server

#: The smallest review budget that still searches (a few iterations per position).
BUDGET = 8
#: One review worker per server (the default two start two processes, each loading the kernels).
ONE_REVIEW_WORKER = {
    **TEST_LANES,  # at normal priority (tests/web/server.py)
    REVIEW: LaneSize(workers=1, queue=8, niceness=0, time_limit=DEFAULT_REVIEW_TIME_LIMIT),
}
SETTINGS = ServerSettings(
    game_rate=0, hint_rate=0, review_budget=BUDGET, warm_up=False, lanes=ONE_REVIEW_WORKER
)
#: A review's worker starts and loads the kernels first: seconds, more on a busy machine.
WAIT_SECONDS = 120.0
OPENING = ("c3-d4", "h8-g7", "b2-c3", "g7-f6", "d4-e5")

Get = Callable[..., Any]  # a client's get (httpx or the test client)


def finished_game(post: Callable[..., Any]) -> str:
    """A Salta game between two people: five moves, then Red resigns. Returns its id."""
    created = post("/api/games", json={"game": "salta", "seats": ["human", "human"]}).json()
    game_id = str(created["id"])
    tokens = [seat["token"] for seat in created["seats"]]
    for ply, text in enumerate(OPENING):
        answer = post(f"/api/games/{game_id}/moves", json={"move": text, "token": tokens[ply % 2]})
        assert answer.status_code == 200, answer.text
    assert post(f"/api/games/{game_id}/resign", json={"token": tokens[1]}).status_code == 200
    return game_id


def wait_for_review(get: Get, game_id: str, status: str = "done") -> dict[str, Any]:
    """Ask for the review until it has ``status``; fail if it does not within the wait."""
    deadline = time.monotonic() + WAIT_SECONDS
    seen = []
    while time.monotonic() < deadline:
        answer = get(f"/api/games/{game_id}/review")
        assert answer.status_code == 200, answer.text
        review: dict[str, Any] = answer.json()
        seen.append(review["status"])
        if review["status"] == status:
            return review
        assert review["status"] in ("running", "none", "interrupted"), review
        time.sleep(0.1)
    raise AssertionError(f"the review is not {status} after {WAIT_SECONDS} s: {seen[-5:]}")


def check_review(review: dict[str, Any], game_id: str) -> None:
    """A finished review of `finished_game`: one decision per move, chances in [0, 1]."""
    assert review["id"] == game_id and review["status"] == "done"
    assert review["done"] == review["total"] > 0
    decisions = review["decisions"]
    assert [d["ply"] for d in decisions] == list(range(len(OPENING)))
    assert [d["move"] for d in decisions] == list(OPENING)
    assert [d["player"] for d in decisions] == [0, 1, 0, 1, 0]
    for d in decisions:
        for key in ("chance_before", "chance_after", "best_chance"):
            assert 0.0 <= d[key] <= 1.0, d
        assert d["label"] in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert len(review["players"]) == 2
    for ply, paths in review["paths"].items():  # the better moves' regions, for the board
        assert decisions[int(ply)]["best_move"] != decisions[int(ply)]["move"]
        assert paths["best"], paths


@pytest.fixture
def reviewing(tmp_path: Path) -> Iterator[TestClient]:
    """A server reviewing with the usual lanes (at normal priority): two positions at a time."""
    settings = replace(SETTINGS, lanes=dict(TEST_LANES))
    app = create_app(tmp_path / "games.sqlite3", seed=3, settings=settings)
    with TestClient(app) as client:
        yield client


def test_reviews_of_unknown_games_are_404(reviewing: TestClient) -> None:
    for method in ("GET", "POST"):
        answer = reviewing.request(method, "/api/games/nosuchgame/review")
        assert answer.status_code == 404, (method, answer.text)
        assert "there is no game" in answer.json()["error"]
        for game_id in ("x" * 300, "%3Cscript%3E"):  # no game id has this shape (the schema's)
            answer = reviewing.request(method, f"/api/games/{game_id}/review")
            assert answer.status_code == 400, (method, game_id, answer.text)
            assert "game_id" in answer.json()["error"]
            assert "script" not in answer.json()["error"] and "xxx" not in answer.json()["error"]


def test_a_game_in_progress_cannot_be_reviewed(reviewing: TestClient) -> None:
    created = reviewing.post("/api/games", json={"game": "salta", "seats": ["human", "human"]})
    game_id = created.json()["id"]
    answer = reviewing.post(f"/api/games/{game_id}/review")
    assert answer.status_code == 409
    assert answer.json() == {
        "error": f"game {game_id!r} is still being played; a review is made of a finished game"
    }
    assert reviewing.get(f"/api/games/{game_id}/review").json() == {
        "id": game_id,
        "status": "none",
    }


def test_a_review_runs_in_the_pool_and_is_stored_with_the_game(reviewing: TestClient) -> None:
    game_id = finished_game(reviewing.post)
    assert reviewing.get(f"/api/games/{game_id}/review").json()["status"] == "none"
    started = reviewing.post(f"/api/games/{game_id}/review")
    assert started.status_code == 202, started.text
    progress = started.json()
    assert progress["status"] == "running" and progress["done"] == 0
    assert progress["total"] > len(OPENING) and progress["budget"] == BUDGET  # and the end
    again = reviewing.post(f"/api/games/{game_id}/review")  # the same review, not a second one
    assert again.status_code in (200, 202) and again.json()["started"] == progress["started"]
    review = wait_for_review(reviewing.get, game_id)
    check_review(review, game_id)
    done = reviewing.post(f"/api/games/{game_id}/review")
    assert done.status_code == 200 and done.json() == review


def test_progress_and_the_review_are_pushed_to_watchers(reviewing: TestClient) -> None:
    game_id = finished_game(reviewing.post)
    with reviewing.websocket_connect(f"/ws/games/{game_id}") as socket:
        assert socket.receive_json()["type"] == "state"
        assert reviewing.post(f"/api/games/{game_id}/review").status_code == 202
        pushed: list[dict[str, Any]] = []
        while not pushed or pushed[-1]["status"] != "done":
            message = socket.receive_json()
            assert message["type"] == "review", message
            pushed.append(message["review"])
    assert {p["status"] for p in pushed[:-1]} == {"running"}
    check_review(pushed[-1], game_id)
    assert pushed[-1] == reviewing.get(f"/api/games/{game_id}/review").json()


def test_one_review_at_a_time_across_two_server_processes(database: str) -> None:
    """Eight requests on two processes sharing the database start one review between them."""
    with (
        running_server(database, seed=1, settings=SETTINGS) as one,
        running_server(database, seed=2, settings=SETTINGS) as two,
    ):
        with httpx.Client(base_url=one, timeout=30) as client:
            game_id = finished_game(client.post)
        barrier = threading.Barrier(8)
        answers: list[httpx.Response] = []

        def ask(index: int) -> None:
            with httpx.Client(base_url=one if index % 2 else two, timeout=60) as browser:
                barrier.wait()
                answers.append(browser.post(f"/api/games/{game_id}/review"))

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [a.status_code for a in answers] == [202] * 8, [a.text for a in answers]
        assert len({a.json()["started"] for a in answers}) == 1  # one claim, one review
        with httpx.Client(base_url=two, timeout=30) as client:
            review = wait_for_review(client.get, game_id)
        check_review(review, game_id)
        with httpx.Client(base_url=one, timeout=30) as client:
            assert client.get(f"/api/games/{game_id}/review").json() == review


def test_claims_are_conditional_writes(database: str) -> None:
    """The store's claim: one owner at a time; a silent owner's review may be taken over."""
    first, second = GameStore(database), GameStore(database)
    try:
        claim: dict[str, Any] = {"total": 3, "moves": 3, "budget": "8", "seed": 0}
        assert first.start_review("g1", owner="a", stale_before=time.time() - 30, **claim)
        assert not second.start_review("g1", owner="b", stale_before=time.time() - 30, **claim)
        assert first.review_progress("g1", "a", 1)
        assert not second.review_progress("g1", "b", 2)  # not b's
        # a's heartbeat is older than "now + 1": b takes the review over, a's writes are refused
        assert second.start_review("g1", owner="b", stale_before=time.time() + 1, **claim)
        assert not first.review_progress("g1", "a", 2)
        assert not first.finish_review("g1", "a", "{}", "{}")
        assert second.finish_review("g1", "b", '{"decisions": []}', "{}")
        row = first.load_review("g1")
        assert row is not None and row.status == "done" and row.owner == "b"
        # a finished review may be started again (a later claim replaces it)
        assert first.start_review("g1", owner="a", stale_before=time.time() - 30, **claim)
        results: list[bool] = []
        barrier = threading.Barrier(6)

        def claim_new(index: int) -> None:
            store = (first, second)[index % 2]
            barrier.wait()
            results.append(
                store.start_review("g2", owner=f"o{index}", stale_before=time.time() - 30, **claim)
            )

        threads = [threading.Thread(target=claim_new, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [False] * 5 + [True]
    finally:
        first.close()
        second.close()


def test_reviews_survive_a_restart_and_an_interrupted_one_starts_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    # Long enough for any machine to start a server within it: staleness comes from the
    # heartbeat's age, which the test sets below rather than waiting for it.
    settings = replace(SETTINGS, review_stale_seconds=60)
    with TestClient(create_app(db, seed=1, settings=settings)) as first:
        done_id = finished_game(first.post)
        first.post(f"/api/games/{done_id}/review")
        review = wait_for_review(first.get, done_id)
        stopped_id = finished_game(first.post)
        assert first.post(f"/api/games/{stopped_id}/review").status_code == 202
    # A server killed during a review leaves it running, with a heartbeat that stops.
    crashed_id = "crashed"
    with TestClient(create_app(db, seed=2, settings=settings)) as second:
        crashed_id = finished_game(second.post)
    store = GameStore(db)
    try:
        assert store.start_review(
            crashed_id, owner="gone", total=5, moves=5, budget="8", seed=0, stale_before=0
        )
    finally:
        store.close()
    with TestClient(create_app(db, seed=3, settings=settings)) as third:
        assert third.get(f"/api/games/{done_id}/review").json() == review
        stopped = third.get(f"/api/games/{stopped_id}/review").json()
        assert stopped["status"] == "interrupted", stopped  # the server stopped cleanly
        assert "stopped" in stopped["error"]
        assert third.get(f"/api/games/{crashed_id}/review").json()["status"] == "running"
        with sqlite3.connect(db) as raw:  # the crashed server's last heartbeat, 2 minutes ago
            raw.execute(
                "UPDATE reviews SET heartbeat = heartbeat - 120 WHERE game_id = ?", (crashed_id,)
            )
        assert third.get(f"/api/games/{crashed_id}/review").json()["status"] == "interrupted"
        for game_id in (stopped_id, crashed_id):
            assert third.post(f"/api/games/{game_id}/review").status_code == 202
        for game_id in (stopped_id, crashed_id):
            check_review(wait_for_review(third.get, game_id), game_id)


def test_a_review_does_not_delay_the_computers_moves() -> None:
    """A review too long to finish holds the review lane; a level-1 move asked after it is
    answered while the review still runs."""
    game = make("salta")
    # Far above what a review may ask for, so that it cannot end before the move.
    endless = replace(review_tasks((game, list(OPENING)))[0], budget=100_000_000)

    async def scenario() -> tuple[str, bool]:
        review_lane = replace(DEFAULT_LANES[REVIEW], workers=1, time_limit=24 * 3600.0)
        pool = SearchPool({**DEFAULT_LANES, REVIEW: review_lane})
        try:
            position = game.initial_state().to_text()
            reviewing = SearchJob("review", "salta", {}, "", task=endless)
            review = asyncio.create_task(pool.run(REVIEW, reviewing))
            while pool.waiting(REVIEW):  # the review is taken by its worker first
                await asyncio.sleep(0.01)
            asking = SearchJob("move", "salta", {}, position, "level:1", seed=1)
            move = await pool.run(QUICK, asking)
            still_reviewing = not review.done()
            review.cancel()
        finally:
            await pool.close()
        return move, still_reviewing

    move, still_reviewing = asyncio.run(scenario())
    assert move in {m.text for m in game.initial_state().legal_moves()}
    assert still_reviewing
