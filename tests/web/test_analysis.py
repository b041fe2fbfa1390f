"""The analysis board's API and page, for every game: positions parse, lines replay through the
rules, illegal moves and bad positions are clean 400s, the engine answers as the library does,
and the line downloads as a saved game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.analysis.position import evaluate
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make
from ludoteca.web.analysis import PLAYOUT_BUDGET, SEARCH_BUDGET
from ludoteca.web.app import ServerSettings, create_app
from tests.web.server import TEST_LANES, TEST_SETTINGS


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server for the module (its search worker loads the kernels once).

    Its search time limit is a safety net only: on a busy machine the expert's playouts of
    Steppin' Stones may take longer than a server's usual limit.
    """
    settings = replace(TEST_SETTINGS, search_time_limit=600.0)
    db = tmp_path_factory.mktemp("analysis") / "games.sqlite3"
    with TestClient(create_app(db, seed=3, settings=settings)) as test_client:
        yield test_client


def _line_to_a_player(game_id: str) -> tuple[list[str], ludoteca.core.game.State]:
    """The first outcomes and moves from the start until a player is to move, then one move."""
    state = make(game_id).initial_state()
    moves: list[str] = []
    while state.to_move == CHANCE:
        move = state.legal_moves()[0]
        moves.append(move.text)
        state = state.apply(move)
    move = state.legal_moves()[-1]
    moves.append(move.text)
    return moves, state.apply(move)


def _ask(client: TestClient, game_id: str, path: str = "", **params: Any) -> Any:
    return client.get(f"/api/analysis/{game_id}{path}", params=params)


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_start_and_a_line_are_shown_as_the_rules_say(client: TestClient, game_id: str) -> None:
    game = make(game_id)
    start = game.initial_state()
    answer = _ask(client, game_id).json()
    assert answer["position"] == answer["start"] == start.to_text()
    assert answer["is_chance"] == (start.to_move == CHANCE)
    if start.to_move == CHANCE:
        assert [c["move"] for c in answer["chance_outcomes"]] == [
            m.text for m, _ in start.chance_outcomes()
        ]
        assert sum(c["probability"] for c in answer["chance_outcomes"]) == pytest.approx(1.0)
    assert answer["legal_moves"] == [m.text for m in start.legal_moves()]
    moves, reached = _line_to_a_player(game_id)
    played = _ask(client, game_id, position=start.to_text(), line=",".join(moves)).json()
    assert played["position"] == reached.to_text()
    assert [p["move"] for p in played["plies"]] == moves
    assert played["legal_moves"] == [m.text for m in reached.legal_moves()]
    assert played["board"]["ply"] == len(moves)
    assert played["board"]["svg"] or played["board"]["text"]


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_a_position_text_is_parsed_by_the_games_own_parser(
    client: TestClient, game_id: str
) -> None:
    _, reached = _line_to_a_player(game_id)
    answer = _ask(client, game_id, position=reached.to_text()).json()
    assert answer["start"] == answer["position"] == reached.to_text()
    assert answer["plies"] == []
    bad = reached.to_text() + " !!"
    with pytest.raises(LudotecaError) as refused:
        make(game_id).parse_state(bad)
    response = _ask(client, game_id, position=bad)
    assert response.status_code == 400
    assert str(refused.value) in response.json()["error"]
    assert "is not a" in response.json()["error"]


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_an_illegal_or_unreadable_move_is_a_clean_400(client: TestClient, game_id: str) -> None:
    moves, reached = _line_to_a_player(game_id)
    legal = {m.text for m in reached.legal_moves()}
    illegal = next(text for text in moves if text not in legal)  # an earlier move, played again
    for wrong in (illegal, "zz-zz"):
        response = _ask(client, game_id, line=",".join([*moves, wrong]))
        assert response.status_code == 400, wrong
        error = response.json()["error"]
        assert f"ply {len(moves) + 1} of the line, {wrong!r}, cannot be played" in error
    empty = _ask(client, game_id, line=f"{moves[0]},,{moves[0]}")
    assert empty.status_code == 400
    assert "ply 2 of the line is empty" in empty.json()["error"]


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_engine_answers_as_the_library_does(client: TestClient, game_id: str) -> None:
    moves, reached = _line_to_a_player(game_id)
    response = _ask(client, game_id, "/evaluate", line=",".join(moves))
    assert response.status_code == 200, response.text
    value = response.json()
    info = reached.game.info
    budget = PLAYOUT_BUDGET if info.expert_playouts is not None else SEARCH_BUDGET
    expected = evaluate(reached, budget=budget)
    assert value["position"] == reached.to_text()
    assert value["method"] == expected.method
    assert value["chances"] == pytest.approx(list(expected.chances))
    assert value["best_line"] == list(expected.best_line)
    assert (value["interval"] is None) == (expected.interval is None)
    if info.exact_values is not None:
        assert value["method"] == "exact" and value["interval"] is None
    else:
        low, high = value["interval"]
        assert 0 <= low <= value["chances"][0] <= high <= 1
    if value["best_line"]:
        assert value["best_line"][0] in {m.text for m in reached.legal_moves()}


def test_a_bad_game_options_or_line_on_the_engine_are_4xx(client: TestClient) -> None:
    assert _ask(client, "chess").status_code == 404
    assert "salta" in _ask(client, "chess").json()["error"]
    assert _ask(client, "chess", "/evaluate").status_code == 404
    bad_option = _ask(client, "salta", options=json.dumps({"scoring": "never"}))
    assert bad_option.status_code == 400 and "scoring" in bad_option.json()["error"]
    not_json = _ask(client, "salta", options="scoring=simplified")
    assert not_json.status_code == 400 and "JSON object" in not_json.json()["error"]
    assert _ask(client, "salta", "/evaluate", line="zz").status_code == 400
    assert _ask(client, "salta", "/record", position="nonsense").status_code == 400


def test_options_reach_the_rules(client: TestClient) -> None:
    options = {"scoring": "simplified"}
    answer = _ask(client, "salta", options=json.dumps(options)).json()
    assert answer["options"]["scoring"] == "simplified"


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_line_downloads_as_a_saved_game(client: TestClient, game_id: str) -> None:
    moves, reached = _line_to_a_player(game_id)
    response = _ask(client, game_id, "/record", line=",".join(moves))
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    saved = records.loads(response.text)
    assert list(saved.moves) == moves
    assert saved.states[-1] == reached


def test_evaluations_count_against_the_hint_limit(tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, hint_rate=1, lanes=TEST_LANES, warm_up=False)
    app = create_app(tmp_path / "games.sqlite3", seed=3, settings=settings)
    with TestClient(app) as limited:
        answers = [_ask(limited, "pente_grammai", "/evaluate").status_code for _ in range(7)]
    assert answers[0] == 200
    assert answers[-1] == 429


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_page_opens_for_every_game(client: TestClient, game_id: str) -> None:
    moves, _ = _line_to_a_player(game_id)
    response = client.get(f"/analysis/{game_id}", params={"line": ",".join(moves), "ply": 1})
    assert response.status_code == 200
    data = response.text.split('id="page-data" type="application/json">')[1].split("</script>")[0]
    page = json.loads(data)
    assert page["game"] == game_id and page["line"] == moves and page["ply"] == 1


def test_the_page_of_an_unknown_game_or_bad_option_says_why(client: TestClient) -> None:
    missing = client.get("/analysis/chess")
    assert missing.status_code == 404 and "salta" in missing.text
    bad = client.get("/analysis/salta", params={"options": '{"scoring": "never"}'})
    assert bad.status_code == 400 and "scoring" in bad.text
