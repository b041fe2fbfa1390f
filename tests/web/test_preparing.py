"""A server that answers while the games are prepared: the lobby, the refusals, the release.

The tests play the part of ``ludoteca serve``'s preparation: they write each game's outcome to
the status directory the server reads (`ludoteca.preparation.write_status`), holding one game
back until they release it, or reporting its preparation failed. Every wait is on an event
(the lobby saying a game is ready), with a generous guard against a hang, never on a duration.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from numba.core.registry import CPUDispatcher

import ludoteca
from ludoteca.preparation import Failed, Prepared, write_status
from ludoteca.warmup import warm_up_game
from ludoteca.web.app import ServerSettings, create_app

HELD = "salta"
#: The game ready from the start (the one of smallest kernels: cheap to load, or to compile).
READY = "salt_n_pepper"
#: The games the tests do not need, reported as failed so that they are never loaded.
LEFT_OUT = {
    game: "not prepared for this test" for game in ludoteca.GAMES if game not in (HELD, READY)
}
#: Only against a hang: the ready games load from numba's cache in a thread meanwhile.
HANG_GUARD_SECONDS = 240


def _settings(status: Path) -> ServerSettings:
    return ServerSettings(
        game_rate=0, hint_rate=0, serve_while_preparing=True, preparation_dir=status
    )


def _prepared(status: Path, *games: str) -> None:
    for game in games:
        write_status(status, Prepared(game, seconds=1.0, cpu_seconds=1.0))


@pytest.fixture
def status(tmp_path: Path) -> Path:
    """A status directory where Salt 'n' Pepper is prepared, and Salta not yet."""
    directory = tmp_path / "status"
    directory.mkdir()
    _prepared(directory, READY)
    for game, reason in LEFT_OUT.items():
        write_status(directory, Failed(game, reason))
    return directory


@pytest.fixture
def held(tmp_path: Path, status: Path) -> Iterator[TestClient]:
    """A server started while Salta's preparation is held back."""
    app = create_app(tmp_path / "games.sqlite3", seed=1, settings=_settings(status))
    with TestClient(app) as client:
        yield client


def _lobby(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/lobby")
    assert answer.status_code == 200, answer.text
    lobby: dict[str, Any] = answer.json()
    return lobby


def _until_only(client: TestClient, preparing: list[str]) -> dict[str, Any]:
    """The lobby, once exactly these games are still being prepared."""
    guard = time.monotonic() + HANG_GUARD_SECONDS
    while (lobby := _lobby(client))["preparing"] != preparing:
        assert time.monotonic() < guard, f"still preparing: {lobby['preparing']}"
        time.sleep(0.05)
    return lobby


def _until_ply(client: TestClient, game_id: str, ply: int) -> None:
    guard = time.monotonic() + HANG_GUARD_SECONDS
    while client.get(f"/api/games/{game_id}").json()["ply"] < ply:
        assert time.monotonic() < guard, "the computer did not move"
        time.sleep(0.05)


def _new_salta(client: TestClient) -> Any:
    return client.post("/api/games", json={"game": "salta", "seats": ["human", "random"]})


def _create(client: TestClient, game: str, seats: list[str]) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": game, "seats": seats})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_the_lobby_answers_while_a_game_is_prepared_and_the_game_starts_once_released(
    held: TestClient, status: Path
) -> None:
    lobby = held.get("/")
    assert lobby.status_code == 200
    card = lobby.text.split('id="game-salta"')[1].split("</li>")[0]
    assert "Being prepared" in card
    assert "disabled>Start Salta" in card
    assert "salta" in _lobby(held)["preparing"]

    refused = _new_salta(held)
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "5"
    assert refused.json()["error"] == "Salta is still being prepared; try again in a few seconds"
    challenge = held.post("/api/challenges", json={"game": "salta", "name": "Ada"})
    assert challenge.status_code == 503 and "still being prepared" in challenge.text
    assert held.get("/rules/salta").status_code == 200  # the rules need no kernel

    # Another game is ready on its own, while Salta is still held back.
    ready = _until_only(held, ["salta"])
    assert ready["unavailable"] == LEFT_OUT
    other = held.post("/api/games", json={"game": READY, "seats": ["human", "random"]})
    assert other.status_code == 201, other.text
    card = held.get("/").text.split(f'id="game-{READY}"')[1].split("</li>")[0]
    assert "Being prepared" not in card and "disabled>Start" not in card

    _prepared(status, HELD)
    _until_only(held, [])
    created = _new_salta(held)
    assert created.status_code == 201, created.text
    game = created.json()
    token = game["seats"][0]["token"]
    moved = held.post(f"/api/games/{game['id']}/moves", json={"move": "c3-d4", "token": token})
    assert moved.status_code == 200, moved.text
    _until_ply(held, game["id"], 2)  # and the computer answered
    assert "Being prepared" not in held.get("/").text


def test_a_saved_game_opens_once_its_game_is_ready(tmp_path: Path, status: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, settings=ServerSettings(game_rate=0, warm_up=False))) as first:
        saved = _new_salta(first).json()["id"]
    with TestClient(create_app(db, settings=_settings(status))) as client:
        page = client.get(f"/games/{saved}")
        assert page.status_code == 503
        assert "Salta is still being prepared" in page.text
        answer = client.get(f"/api/games/{saved}")
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
        _prepared(status, HELD)
        _until_only(client, [])
        assert client.get(f"/api/games/{saved}").json()["ply"] == 0
        assert client.get(f"/games/{saved}").status_code == 200


def test_a_failed_preparation_is_reported_and_the_game_refused(
    tmp_path: Path, status: Path
) -> None:
    write_status(status, Failed(HELD, "its preparation process was killed by SIGKILL"))
    with TestClient(create_app(tmp_path / "g.sqlite3", settings=_settings(status))) as client:
        lobby = _until_only(client, [])
        assert lobby["unavailable"] == {
            **LEFT_OUT,
            "salta": "its preparation process was killed by SIGKILL",
        }
        card = client.get("/").text.split('id="game-salta"')[1].split("</li>")[0]
        assert "Not available on this server" in card and "SIGKILL" in card
        assert "disabled>Start Salta" in card
        refused = _new_salta(client)
        assert refused.status_code == 503
        assert "Retry-After" not in refused.headers
        assert refused.json()["error"] == (
            "Salta cannot be played on this server: its preparation failed "
            "(its preparation process was killed by SIGKILL)"
        )
        other = client.post("/api/games", json={"game": READY, "seats": ["human", "random"]})
        assert other.status_code == 201


def _compiled_signatures() -> dict[str, int]:
    """How many compiled signatures each numba function of Ludoteca's modules has."""
    return {
        f"{name}.{attribute}": len(value.overloads)
        for name, module in list(sys.modules.items())
        if name.startswith("ludoteca.")
        for attribute, value in list(vars(module).items())
        if isinstance(value, CPUDispatcher)
    }


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_serving_a_prepared_game_neither_compiles_nor_loads_a_kernel(
    client: TestClient, game_id: str
) -> None:
    # What a person does first: the lobby, a new game against the computer, a few moves with
    # the board drawn after each, the board page, the record.
    warm_up_game(game_id)
    before = _compiled_signatures()
    assert client.get("/").status_code == 200
    players = ludoteca.make(game_id).num_players
    created = _create(client, game_id, ["human"] + ["random"] * (players - 1))
    game, token = created["id"], created["seats"][0]["token"]
    for _ in range(4):
        state = client.get(f"/api/games/{game}").json()
        if state["outcome"] is not None or state["to_move"] != 0:
            break
        assert client.get(f"/api/games/{game}/board").status_code == 200
        move = state["legal_moves"][0]
        played = client.post(f"/api/games/{game}/moves", json={"move": move, "token": token})
        assert played.status_code == 200, played.text
    assert client.get(f"/games/{game}").status_code == 200
    assert client.get(f"/api/games/{game}/record").status_code == 200
    added = {
        name: count
        for name, count in _compiled_signatures().items()
        if count != before.get(name, 0)
    }
    assert added == {}, f"the warm-up misses what the server calls: {added}"
