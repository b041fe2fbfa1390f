"""The rules of online play, through the API: draw offers, correspondence clocks, forced moves
that cost no time, and rematches with the seats swapped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.core.registry import make
from ludoteca.web.app import ServerSettings, create_app

#: How long a test lets a running clock run before the move it charges.
TICK = 0.05


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServerSettings(game_rate=0, hint_rate=0, warm_up=False)
    with TestClient(create_app(tmp_path / "g.sqlite3", seed=3, settings=settings)) as client:
        yield client


def new_game(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    """A Salta game between two people of this browser: its id and the seats' tokens."""
    answer = client.post("/api/games", json={"game": "salta", "seats": ["human", "human"], **body})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def play(client: TestClient, game_id: str, move: str, token: str) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/moves", json={"move": move, "token": token})
    assert answer.status_code == 200, answer.text
    game: dict[str, Any] = answer.json()
    return game


def first_move(client: TestClient, game_id: str) -> str:
    return str(client.get(f"/api/games/{game_id}").json()["legal_moves"][0])


def test_a_seat_cannot_accept_its_own_draw_offer(client: TestClient) -> None:
    game_id, (green, red) = new_game(client)
    draw = f"/api/games/{game_id}/draw"
    assert client.post(draw, json={"token": green}).json()["draw_offer"] == 0
    own = client.post(draw, json={"token": green, "action": "accept"})
    assert own.status_code == 409
    game = client.get(f"/api/games/{game_id}").json()
    assert game["outcome"] is None and game["draw_offer"] == 0
    ended = client.post(draw, json={"token": red, "action": "accept"}).json()
    assert ended["outcome"]["agreed"] == "draw"


def test_a_correspondence_clock_starts_afresh_for_every_move(client: TestClient) -> None:
    per_move = 86_400
    game_id, (green, red) = new_game(client, clock={"per_move": per_move})
    play(client, game_id, first_move(client, game_id), green)  # the clocks start
    time.sleep(TICK)  # Red's clock runs
    after_red = play(client, game_id, first_move(client, game_id), red)
    clock = after_red["clock"]
    assert clock["running"] == 0
    assert clock["remaining"][1] == per_move  # Red's time is whole again for the next move
    time.sleep(TICK)
    after_green = play(client, game_id, first_move(client, game_id), green)
    assert after_green["clock"]["remaining"][0] == per_move
    assert after_green["clock"]["running"] == 1


def forced_reply() -> tuple[str, str]:
    """A Salta position and a move by the seat to move after which the other has one move.

    Found by random play (seeded), so it follows the rules as they are.
    """
    game = make("salta")
    rng = random.Random(1)
    for _ in range(50):
        state = game.initial_state()
        while state.outcome is None:
            for move in state.legal_moves():
                after = state.apply(move)
                if (
                    after.outcome is None
                    and after.to_move not in (None, state.to_move)
                    and len(after.legal_moves()) == 1
                ):
                    return state.to_text(), move.text
            state = state.apply(rng.choice(state.legal_moves()))
    raise AssertionError("no forced reply found in 50 random Salta games")


def test_a_forced_move_is_not_charged_to_the_clock(client: TestClient) -> None:
    position, move = forced_reply()
    initial = 600
    game_id, tokens = new_game(client, position=position, clock={"initial": initial})
    mover = client.get(f"/api/games/{game_id}").json()["to_move"]
    after = play(client, game_id, move, tokens[mover])
    other = after["to_move"]
    assert other != mover and len(after["legal_moves"]) == 1
    assert after["clock"]["running"] is None  # one move: no clock runs
    time.sleep(TICK)
    forced = play(client, game_id, after["legal_moves"][0], tokens[other])
    assert forced["clock"]["remaining"][other] == initial  # nothing charged


def test_a_rematch_swaps_the_seats(client: TestClient) -> None:
    game_id, (green, red) = new_game(client, names=["Ada", "Bob"])
    client.post(f"/api/games/{game_id}/resign", json={"token": red})
    offered = client.post(f"/api/games/{game_id}/rematch", json={"token": green}).json()
    assert offered["rematch"] is None and offered["offered_by"] == 0
    accepted = client.post(f"/api/games/{game_id}/rematch", json={"token": red}).json()
    assert accepted["seat"] == 0  # Red plays first now
    again = client.post(f"/api/games/{game_id}/rematch", json={"token": green}).json()
    assert again["rematch"] == accepted["rematch"] and again["seat"] == 1
    rematch = client.get(f"/api/games/{accepted['rematch']}").json()
    assert [seat["name"] for seat in rematch["seats"]] == ["Bob", "Ada"]
    move = rematch["legal_moves"][0]
    refused = client.post(
        f"/api/games/{rematch['id']}/moves", json={"move": move, "token": again["token"]}
    )
    assert refused.status_code == 409  # Ada (now the second seat) is not to move
    play(client, rematch["id"], move, accepted["token"])
