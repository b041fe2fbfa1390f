"""Several server processes on one database: the database is the authority.

A process whose copy of a game is stale can never overwrite or delete another process's move:
its write is refused, it reloads the game and decides again. Live updates cross processes
(SQLite: the change table; PostgreSQL: LISTEN/NOTIFY). Each test runs on SQLite and on
PostgreSQL (skipped where no PostgreSQL runs, except under CI=true).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx
from websockets.sync.client import connect

from ludoteca.core import records
from ludoteca.web.searches import SearchPool
from ludoteca.web.service import GameService
from ludoteca.web.storage import GameStore
from tests.web.server import running_server


def _service(database: str) -> GameService:
    """A process's game service; not started, so it hears nothing of the others' changes."""
    return GameService(GameStore(database), seed=1, pool=SearchPool())


def test_a_stale_process_cannot_delete_another_process_move(database: str) -> None:
    async def scenario() -> list[str]:
        first, stale = _service(database), _service(database)
        try:
            created = await first.create("salta", options={}, seats=["human", "human"])
            game_id = created.live.id
            green, red = created.tokens[0], created.tokens[1]
            await first.play(game_id, "c3-d4", green)
            assert (await stale.get(game_id)).ply == 1  # the stale process's copy: one move
            await first.play(game_id, "h8-g7", red)
            await first.play(game_id, "d4-e5", green)  # acknowledged by the first process
            # Green takes back their last move through the stale process. Decided on its copy,
            # that would be c3-d4 and everything after; decided on the stored game, d4-e5 only.
            after = await stale.undo(game_id, green)
            assert [m.text for m in after.moves] == ["c3-d4", "h8-g7"]
            row = first.store.load(game_id)
            assert row is not None
            return list(row.moves)
        finally:
            for service in (first, stale):
                await service.close()
                service.store.close()

    assert asyncio.run(scenario()) == ["c3-d4", "h8-g7"]


def test_a_stale_process_plays_on_the_stored_game_not_its_copy(database: str) -> None:
    async def scenario() -> None:
        first, stale = _service(database), _service(database)
        try:
            created = await first.create("salta", options={}, seats=["human", "human"])
            game_id = created.live.id
            green, red = created.tokens[0], created.tokens[1]
            await stale.get(game_id)  # a copy at move 0
            await first.play(game_id, "c3-d4", green)
            # Red's move is judged on the stored game (move 1, Red to move), not on the copy
            # (move 0, Green to move, which would call it "not your turn").
            played = await stale.play(game_id, "h8-g7", red)
            assert [m.text for m in played.moves] == ["c3-d4", "h8-g7"]
            row = first.store.load(game_id)
            assert row is not None and row.moves == ("c3-d4", "h8-g7") and row.version == 2
        finally:
            for service in (first, stale):
                await service.close()
                service.store.close()

    asyncio.run(scenario())


def test_a_read_on_a_stale_process_answers_the_stored_game(database: str) -> None:
    async def scenario() -> None:
        first, stale = _service(database), _service(database)
        try:
            created = await first.create("salta", options={}, seats=["human", "human"])
            game_id = created.live.id
            assert (await stale.get(game_id)).ply == 0
            await first.play(game_id, "c3-d4", created.tokens[0])
            assert (await stale.get(game_id)).ply == 0  # its copy, not yet told
            assert (await stale.current(game_id)).ply == 1  # what a read answers
        finally:
            for service in (first, stale):
                await service.close()
                service.store.close()

    asyncio.run(scenario())


def _create(base: str, seats: list[str]) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/games", json={"game": "salta", "seats": seats})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_watchers_on_one_process_see_moves_made_through_another(database: str) -> None:
    with running_server(database) as one, running_server(database) as other:
        created = _create(one, ["human", "human"])
        game_id, green = created["id"], created["seats"][0]["token"]
        with connect(other.replace("http", "ws") + f"/ws/games/{game_id}") as watcher:
            assert json.loads(watcher.recv(timeout=60))["game"]["ply"] == 0
            answer = httpx.post(
                f"{one}/api/games/{game_id}/moves", json={"move": "c3-d4", "token": green}
            )
            assert answer.status_code == 200
            update = json.loads(watcher.recv(timeout=60))
            assert update["game"]["moves"][0]["text"] == "c3-d4"
            assert update["board"]["last_move"] == "c3-d4"
        # The other process answers the new state too (it refreshed its copy).
        assert httpx.get(f"{other}/api/games/{game_id}").json()["ply"] == 1


def test_two_processes_accept_exactly_one_of_two_simultaneous_moves(database: str) -> None:
    with running_server(database) as one, running_server(database) as other:
        for _ in range(3):
            created = _create(one, ["human", "human"])
            token = created["seats"][0]["token"]
            barrier = threading.Barrier(2)
            answers: list[httpx.Response] = []

            def send(
                base: str,
                text: str,
                created: dict[str, Any] = created,
                token: str = token,
                barrier: threading.Barrier = barrier,
                answers: list[httpx.Response] = answers,
            ) -> None:
                barrier.wait()
                answers.append(
                    httpx.post(
                        f"{base}/api/games/{created['id']}/moves",
                        json={"move": text, "token": token, "ply": 0},
                    )
                )

            threads = [
                threading.Thread(target=send, args=(one, "c3-d4")),
                threading.Thread(target=send, args=(other, "a3-b4")),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
            record = records.loads(httpx.get(f"{other}/api/games/{created['id']}/record").text)
            accepted = next(a for a in answers if a.status_code == 200).json()
            assert [str(m) for m in record.moves] == [m["text"] for m in accepted["moves"]]


def test_a_process_catches_up_with_only_the_new_moves(database: str) -> None:
    """News of another process's change is read as the moves after the copy's, played in place;
    several changes missed are compared move by move; the whole game is never read again."""

    async def scenario() -> None:
        first, second = _service(database), _service(database)
        fetched: list[tuple[int, int]] = []  # (from move, moves read) per catch-up read
        changes_since = second.store.changes_since

        def counted(game_id: str, ply: int) -> Any:
            changes = changes_since(game_id, ply)
            fetched.append((ply, len(changes.moves) if changes else -1))
            return changes

        def whole(game_id: str) -> Any:
            raise AssertionError(f"game {game_id} was read whole")

        try:
            created = await first.create("salta", options={}, seats=["human", "human"])
            game_id = created.live.id
            green, red = created.tokens[0], created.tokens[1]
            await first.play(game_id, "c3-d4", green)
            copy = await second.get(game_id)  # the second process's copy: one move
            second.store.changes_since = counted  # type: ignore[method-assign]
            second.store.load = whole  # type: ignore[method-assign]
            await first.play(game_id, "h8-g7", red)
            assert await second.current(game_id) is copy  # caught up in place
            assert fetched == [(1, 1)]  # one change: only the new move was read
            for text, token in (("d4-e5", green), ("g7-f6", red), ("e5xg7", green)):
                await first.play(game_id, text, token)
            assert await second.current(game_id) is copy
            assert fetched[1:] == [(2, 3), (0, 5)]  # three changes: every move, compared
            await first.undo(game_id, green)
            assert await second.current(game_id) is copy
            assert fetched[3:] == [(5, 0)]  # an undo: nothing to read but the columns
            await first.resign(game_id, red)
            assert await second.current(game_id) is copy
            mine, theirs = await first.current(game_id), copy
            assert [m.text for m in theirs.moves] == ["c3-d4", "h8-g7", "d4-e5", "g7-f6"]
            assert second.snapshot(theirs).game == first.snapshot(mine).game
            assert second.board_json(theirs) == first.board_json(mine)
        finally:
            for service in (first, second):
                await service.close()
                service.store.close()

    asyncio.run(scenario())
