"""The HTTP API: creating games, moves, every error status, undo, resign, hints, saved games."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.core import records


def create(client: TestClient, game: str = "salta", **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(client: TestClient, game_id: str, text: str, token: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json={"move": text, "token": token, **extra})


def wait_for_ply(client: TestClient, game_id: str, ply: int) -> dict[str, Any]:
    deadline = time.monotonic() + 120  # a safety net against a hang, not a bound
    while True:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if state["ply"] >= ply or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def assert_error(response: Any, status: int, *fragments: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    for fragment in fragments:
        assert fragment in body["error"]


# -- creating and reading games -------------------------------------------------------------


def test_create_returns_the_game_and_one_token_per_person(client: TestClient) -> None:
    created = create(client, seats=["human", "invite"])
    seats = created["seats"]
    assert [s["kind"] for s in seats] == ["human", "invite"]
    assert seats[0]["token"] and seats[1]["token"] and seats[0]["token"] != seats[1]["token"]
    assert created["url"].endswith(f"/games/{created['id']}?token={seats[0]['token']}")
    assert seats[1]["link"].endswith(f"?token={seats[1]['token']}")
    state = client.get(f"/api/games/{created['id']}").json()
    start = ludoteca.make("salta").initial_state()
    assert state["position"] == start.to_text()
    assert state["to_move"] == 0 and state["to_move_name"] == "Green"
    assert state["legal_moves"] == [m.text for m in start.legal_moves()]
    assert state["moves"] == [] and state["outcome"] is None
    assert state["options"] == ludoteca.make("salta").options


def test_options_are_checked_and_applied(client: TestClient) -> None:
    created = create(client, options={"scoring": "simplified", "move_limit": "60"})
    assert created["game"]["options"]["scoring"] == "simplified"
    assert created["game"]["options"]["move_limit"] == 60


def test_a_chance_node_at_the_start_is_rolled_and_recorded(client: TestClient) -> None:
    created = create(client, "pente_grammai", seats=["human", "human"])
    state = created["game"]
    assert state["to_move"] in (0, 1)
    assert [m["is_chance"] for m in state["moves"]] == [True, True]  # who starts, then the die
    assert state["moves"][0]["player_name"] == "chance"


def test_moves_are_numbered_by_players_moves_with_the_rolls_beside_them(
    client: TestClient,
) -> None:
    created = create(client, "pente_grammai", seats=["human", "human"])
    game_id, state = created["id"], created["game"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    for _ in range(2):
        move = state["legal_moves"][0]
        answer = client.post(
            f"/api/games/{game_id}/moves",
            json={"move": move, "token": tokens[state["to_move"]], "ply": state["ply"]},
        )
        assert answer.status_code == 200, answer.text
        state = answer.json()
    moves = state["moves"]
    players = [m for m in moves if not m["is_chance"]]
    assert [m["move_number"] for m in players] == [1, 2]
    assert all(m["move_number"] is None for m in moves if m["is_chance"])
    # The first move carries the draw of who starts and the first roll; the second its own roll.
    first, second = players
    assert first["label"].startswith(f"1. {first['text']} (") and first["label"].count(",") == 1
    assert second["label"].startswith(f"2. {second['text']} (")
    assert state["move_number"] == 3


def test_a_start_position_can_be_given(client: TestClient) -> None:
    state = ludoteca.make("salta").initial_state().apply("c3-d4")
    created = create(client, position=state.to_text())
    assert created["game"]["position"] == state.to_text()
    assert created["game"]["to_move"] == 1


def test_the_list_shows_running_and_finished_games(client: TestClient) -> None:
    first = create(client)
    second = create(client, "steppin_stones", seats=["human"])
    client.post(f"/api/games/{second['id']}/resign", json={"token": second["seats"][0]["token"]})
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[first["id"]]["status"] == "running"
    assert listed[second["id"]]["status"] == "over"
    assert "resigned" in listed[second["id"]]["result"]


# -- moves ----------------------------------------------------------------------------------


def test_a_legal_move_is_played_and_the_computer_replies(client: TestClient) -> None:
    created = create(client, seats=["human", "random"])
    token = created["seats"][0]["token"]
    response = move(client, created["id"], "c3-d4", token, ply=0)
    assert response.status_code == 200
    assert response.json()["moves"][0]["text"] == "c3-d4"
    state = wait_for_ply(client, created["id"], 2)
    assert state["ply"] == 2 and state["moves"][1]["player_name"] == "Red"
    assert state["to_move"] == 0


def test_unparsable_and_illegal_moves_have_their_own_status(client: TestClient) -> None:
    created = create(client)
    token = created["seats"][0]["token"]
    assert_error(move(client, created["id"], "hello", token), 400, "accepted forms")
    assert_error(move(client, created["id"], "d4-e5", token), 409, "no Green piece on d4")


def test_not_your_turn_is_409(client: TestClient) -> None:
    created = create(client, seats=["human", "invite"])
    red = created["seats"][1]["token"]
    assert_error(move(client, created["id"], "h8-g7", red), 409, "not your turn", "Green")


def test_a_stale_ply_is_409(client: TestClient) -> None:
    created = create(client)
    token = created["seats"][0]["token"]
    assert_error(move(client, created["id"], "c3-d4", token, ply=5), 409, "moved on")


def test_a_bad_token_is_403_and_an_unknown_game_404(client: TestClient) -> None:
    created = create(client)
    assert_error(move(client, created["id"], "c3-d4", "not-a-token"), 403, "token")
    assert_error(move(client, "nosuchgame", "c3-d4", "x"), 404, "no game 'nosuchgame'")
    assert_error(client.get("/api/games/nosuchgame"), 404, "no game")
    assert_error(client.get("/api/games/nosuchgame/record"), 404)


def test_moves_after_the_end_are_409(client: TestClient) -> None:
    created = create(client, "steppin_stones", seats=["human"])
    token = created["seats"][0]["token"]
    client.post(f"/api/games/{created['id']}/resign", json={"token": token})
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["outcome"]["reason"] == "Player resigned"
    assert state["to_move"] is None and state["legal_moves"] == []
    assert_error(move(client, created["id"], "end", token), 409, "game is over")
    assert_error(
        client.post(f"/api/games/{created['id']}/resign", json={"token": token}), 409, "over"
    )


# -- bad requests ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "salta", "options": {"scoring": "best"}}, "option 'scoring'"),
        ({"game": "salta", "options": {"colour": "blue"}}, "no option 'colour'"),
        ({"game": "salta", "seats": ["human"]}, "2 seat(s)"),
        ({"game": "salta", "seats": ["human", "wizard"]}, "'wizard' is not a seat"),
        ({"game": "salta", "seats": ["human", "level:9"]}, "accepted: human, invite, random"),
        ({"game": "salta", "seats": ["alphabeta:depth=30", "random"]}, "is not a seat"),
        ({"game": "salta", "seats": ["mcts:iters=99999999", "human"]}, "level:5"),
        ({"game": "salta", "position": "nonsense"}, ""),
        ({"options": {}}, "game is required"),
        ({"game": "salta", "colour": "red"}, "colour is not a field"),
        ({"game": 5}, "game"),
    ],
)
def test_bad_new_games_are_400(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    assert_error(client.post("/api/games", json=body), 400, fragment)


def test_malformed_bodies_are_400_with_a_readable_message(client: TestClient) -> None:
    created = create(client)
    url = f"/api/games/{created['id']}/moves"
    assert_error(
        client.post(url, content=b"{not json", headers={"Content-Type": "application/json"}),
        400,
        "not valid JSON",
    )
    assert_error(client.post(url, json=["c3-d4"]), 400, "JSON object")
    assert_error(client.post(url, json={"move": "c3-d4"}), 400, "token is required")
    assert_error(client.post(url, json={"move": 3, "token": "x"}), 400, "move")
    assert_error(client.get(f"/api/games/{created['id']}/board?at=99"), 400, "from 0 to 0")
    assert_error(client.get(f"/api/games/{created['id']}/board?at=x"), 400, "at")


def test_unknown_api_paths_and_methods_answer_json(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), 404, "no page")
    assert_error(client.delete("/api/games"), 405, "not allowed")


# -- undo, resign, hint ------------------------------------------------------------------------


def test_undo_takes_back_your_move_and_the_computer_reply(client: TestClient) -> None:
    created = create(client, seats=["human", "random"])
    game_id, token = created["id"], created["seats"][0]["token"]
    move(client, game_id, "c3-d4", token)
    wait_for_ply(client, game_id, 2)
    response = client.post(f"/api/games/{game_id}/undo", json={"token": token})
    assert response.status_code == 200
    assert response.json()["ply"] == 0 and response.json()["to_move"] == 0
    assert_error(client.post(f"/api/games/{game_id}/undo", json={"token": token}), 409, "no move")
    assert_error(client.post(f"/api/games/{game_id}/undo", json={"token": "bad"}), 403)


def test_undo_is_refused_against_an_invited_player(client: TestClient) -> None:
    created = create(client, seats=["human", "invite"])
    token = created["seats"][0]["token"]
    move(client, created["id"], "c3-d4", token)
    assert created["game"]["undo_allowed"] is False
    assert_error(
        client.post(f"/api/games/{created['id']}/undo", json={"token": token}),
        409,
        "invited player",
    )


def test_resigning_ends_the_game_for_the_other_side(client: TestClient) -> None:
    """A bad token resigns nobody (a mutant resigning the side to move must fail here)."""
    created = create(client, seats=["human", "invite"])
    red = created["seats"][1]["token"]
    url = f"/api/games/{created['id']}/resign"
    for forged in ("x" * 24, "", created["id"]):
        assert_error(client.post(url, json={"token": forged}), 403)
    assert client.get(f"/api/games/{created['id']}").json()["outcome"] is None
    response = client.post(f"/api/games/{created['id']}/resign", json={"token": red})
    assert response.json()["outcome"] == {
        "winner": 0,
        "winner_name": "Green",
        "returns": [1.0, -1.0],
        "reason": "Red resigned",
        "resigned": 1,
        "timed_out": None,
        "agreed": None,
    }
    record = records.loads(client.get(f"/api/games/{created['id']}/record").text)
    assert record.resigned == 1 and record.outcome is not None
    assert record.outcome.reason == "Red resigned" and record.outcome.winner == 0


def test_a_hint_is_the_strongest_levels_move_for_the_seat_to_move(client: TestClient) -> None:
    """A hint asks level 5 (a mutant asking level 1 must fail here), for its token's holder."""
    created = create(client, "pente_grammai", seats=["human", "level:1"])
    game_id, token = created["id"], created["seats"][0]["token"]
    response = client.post(f"/api/games/{game_id}/hint", json={"token": token})
    assert response.status_code == 200, response.text
    hint = response.json()
    position = ludoteca.make("pente_grammai").parse_state(created["game"]["position"])
    strongest = ludoteca.ai.hint(position)
    assert hint["move"] == strongest.move.text
    assert hint["win_chance"] == pytest.approx(strongest.win_chance)
    assert hint["move"] in created["game"]["legal_moves"]
    by_query = client.get(f"/api/games/{game_id}/hint", params={"token": token}).json()
    assert by_query["move"] == hint["move"]


def test_a_hint_needs_the_token_of_the_seat_to_move(client: TestClient) -> None:
    created = create(client, seats=["human", "level:3"])
    game_id = created["id"]
    assert_error(client.post(f"/api/games/{game_id}/hint", json={"token": "x" * 24}), 403)
    assert_error(client.get(f"/api/games/{game_id}/hint"), 400, "token")
    people = create(client, seats=["human", "human"], hints=True)
    red = people["seats"][1]["token"]
    assert_error(
        client.post(f"/api/games/{people['id']}/hint", json={"token": red}), 409, "not your turn"
    )


def test_hints_are_off_between_people_unless_the_game_turns_them_on(client: TestClient) -> None:
    plain = create(client, seats=["human", "invite"])
    assert plain["game"]["hints"] is False
    token = plain["seats"][0]["token"]
    assert_error(
        client.post(f"/api/games/{plain['id']}/hint", json={"token": token}), 409, "hints are off"
    )
    allowed = create(client, seats=["human", "invite"], hints=True)
    answer = client.post(
        f"/api/games/{allowed['id']}/hint", json={"token": allowed["seats"][0]["token"]}
    )
    assert answer.status_code == 200, answer.text
    assert create(client, seats=["human", "level:2"])["game"]["hints"] is True


# -- boards, saved games, pages ----------------------------------------------------------------


def test_the_board_has_svg_click_paths_and_the_last_move(client: TestClient) -> None:
    created = create(client, seats=["human", "human"])
    game_id, token = created["id"], created["seats"][0]["token"]
    board = client.get(f"/api/games/{game_id}/board").json()
    assert board["svg"].startswith("<svg") and 'data-region="c3"' in board["svg"]
    assert board["click_paths"]["c3-d4"] == ["c3", "d4"]
    move(client, game_id, "c3-d4", token)
    board = client.get(f"/api/games/{game_id}/board").json()
    assert board["last_move"] == "c3-d4"
    assert board["svg"].count("last-move") == 2
    start = client.get(f"/api/games/{game_id}/board?at=0").json()
    assert start["ply"] == 0 and start["last_move"] is None and start["click_paths"] == {}


def test_the_saved_game_downloads_as_a_valid_record(client: TestClient) -> None:
    created = create(client, "pente_grammai", seats=["human", "random"])
    response = client.get(f"/api/games/{created['id']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = records.loads(response.text)
    assert record.game.id == "pente_grammai"
    assert list(record.moves) == [m["text"] for m in created["game"]["moves"]]
    assert record.players == ("human", "random")
    assert json.loads(response.text)["format"] == "ludoteca-game"


def test_the_pages_render(client: TestClient) -> None:
    created = create(client)
    lobby = client.get("/")
    assert lobby.status_code == 200
    for game_id in ludoteca.GAMES:
        assert f'data-game="{game_id}"' in lobby.text
    assert created["id"] in lobby.text
    assert client.get("/rules/salta").status_code == 200
    assert "<h1>Salta</h1>" in client.get("/rules/salta").text
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/docs").status_code == 200
    assert client.get("/openapi.json").json()["paths"]["/api/games/{game_id}/moves"]
    page = client.get(f"/games/{created['id']}")
    assert page.status_code == 200 and "Rules of Salta" in page.text
    missing = client.get("/games/nosuchgame")
    assert missing.status_code == 404 and "no game" in missing.text
    assert "<html" in missing.text


def test_a_token_link_sets_a_cookie_and_redirects(client: TestClient) -> None:
    created = create(client, seats=["human", "invite"])
    response = client.get(created["url"], follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"/games/{created['id']}")
    page = client.get(f"/games/{created['id']}")
    assert created["seats"][0]["token"] in page.text  # the page script gets the seat token
    assert created["seats"][1]["link"] in page.text  # and the creator sees the invitation
    bad = client.get(f"/games/{created['id']}?token=forged", follow_redirects=False)
    assert bad.status_code == 403


def test_a_computer_level_plays_its_turn(client: TestClient) -> None:
    created = create(client, seats=["level:1", "human"])
    state = wait_for_ply(client, created["id"], 1)
    assert state["moves"][0]["player_name"] == "Green" and state["to_move"] == 1
    assert created["seats"][0]["agent"] == "level:1" and created["seats"][0]["token"] is None
