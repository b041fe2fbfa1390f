"""Puzzles over the API and in the browser, with Glicko-2 ratings kept in the games database.

The API tests run on each store (SQLite, then PostgreSQL); the browser test solves a Pente
Grammai puzzle after one wrong answer. Right and wrong are checked against the solved table
itself (`ludoteca.analysis.puzzles.move_chances`), not only against the shipped file.
"""

from __future__ import annotations

import gc
import html
import math
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect
from sqlalchemy import inspect

from ludoteca.analysis.glicko2 import Rating, expected_score, rate, rate_pair
from ludoteca.analysis.puzzles import MARGIN, move_chances
from ludoteca.core.registry import game_class, game_ids
from ludoteca.web.app import ServerSettings, create_app
from ludoteca.web.boards import board_of
from ludoteca.web.guards import SESSION_COOKIE
from ludoteca.web.migrations import alembic_config
from ludoteca.web.puzzle_store import PuzzleStore, Rated
from ludoteca.web.puzzles import PER_PAGE, choose, games_with_puzzles, puzzle_set
from ludoteca.web.storage import GameStore
from tests.web.server import running_server

SETTINGS = ServerSettings(game_rate=0, hint_rate=0, warm_up=False)
GAME = "pente_grammai"
WITHOUT_PUZZLES = [g for g in game_ids() if game_class(g).info.puzzles is None]


def _app_client(database: str) -> TestClient:
    return TestClient(create_app(database, seed=3, settings=SETTINGS))


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    """A server on each store in turn (for what the store is involved in)."""
    with _app_client(database) as test_client:
        yield test_client


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    """A server on SQLite (for refusals that never reach the store)."""
    with _app_client(str(tmp_path / "games.sqlite3")) as test_client:
        yield test_client


@pytest.fixture(autouse=True)
def _collect() -> Iterator[None]:
    """Collect garbage after each test: a leaked connection is reported by the test that
    leaked it, not by a later one."""
    yield
    gc.collect()


def _wrong_move(puzzle_id: str) -> str:
    """A legal move of the puzzle that is not its solution."""
    game, puzzles = puzzle_set(GAME)
    puzzle = next(p for p in puzzles if p.id == puzzle_id)
    state = game.parse_state(puzzle.position)
    return next(m.text for m in state.legal_moves() if m.text != puzzle.solution)


def _solution(puzzle_id: str) -> str:
    return next(p.solution for p in puzzle_set(GAME)[1] if p.id == puzzle_id)


def _answer(client: TestClient, puzzle_id: str, move: str) -> dict[str, Any]:
    response = client.post(f"/api/puzzles/{puzzle_id}/answer", json={"moves": [move]})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# -- Glicko-2 --------------------------------------------------------------------------------


def test_glicko2_reproduces_glickmans_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system": tau = 0.5; a 1500/200/0.06 player beats a
    # 1400/30 and loses to a 1550/100 and a 1700/300 in one rating period.
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_directions_idle_periods_and_bad_scores() -> None:
    fresh = Rating()
    won, beaten = rate_pair(fresh, fresh, 1.0)
    assert won.rating > 1500 > beaten.rating
    assert won.rating - 1500 == pytest.approx(1500 - beaten.rating)
    assert won.deviation < 350 and beaten.deviation < 350
    assert expected_score(won, beaten) > 0.5 > expected_score(beaten, won)
    idle = rate(Rating(1600, 100, 0.06), [])
    assert (idle.rating, idle.volatility) == (1600, 0.06)
    assert idle.deviation == pytest.approx(173.7178 * math.hypot(100 / 173.7178, 0.06))
    with pytest.raises(ValueError, match="a score is 1"):
        rate(fresh, [(fresh, 2.0)])


def test_the_next_puzzle_is_unanswered_then_unsolved_nearest_the_rating() -> None:
    puzzles = puzzle_set(GAME)[1][:4]
    ids = [p.id for p in puzzles]
    ratings = {
        ids[0]: Rated(Rating(1800)),
        ids[1]: Rated(Rating(1420)),
        ids[2]: Rated(Rating(1390)),
    }
    assert choose(puzzles, ratings, {}, Rating(1400)) == 2  # 1390 is nearest 1400
    assert choose(puzzles, ratings, {}, Rating(1410)) == 1  # 1420 and 1390: 1420 nearer
    assert choose(puzzles, ratings, {ids[1]: False, ids[2]: True}, Rating(1400)) == 3
    answered = {ids[0]: False, ids[1]: True, ids[2]: False, ids[3]: True}
    assert choose(puzzles, ratings, answered, Rating(1400)) == 2  # unsolved ones come back
    assert choose(puzzles, ratings, dict.fromkeys(ids, True), Rating(1400)) is None


# -- the API, on each store ------------------------------------------------------------------


def test_next_gives_a_puzzle_with_its_board_and_task(client: TestClient) -> None:
    response = client.get(f"/api/puzzles/{GAME}/next")
    assert response.status_code == 200
    assert client.cookies.get(SESSION_COOKIE)  # the player: this browser's session
    body = response.json()
    game, puzzles = puzzle_set(GAME)
    first = puzzles[0]
    # Every puzzle starts at 1500: the tie goes to the lowest number.
    puzzle = body["puzzle"]
    assert puzzle["id"] == first.id and puzzle["number"] == 1 and puzzle["of"] == len(puzzles)
    assert puzzle["position"] == first.position and puzzle["to_move"] == first.to_move
    assert puzzle["task"].startswith(f"{first.to_move} to move: find the clearly best move")
    state = game.parse_state(puzzle["position"])
    assert set(puzzle["board"]["click_paths"]) == {m.text for m in state.legal_moves()}
    assert puzzle["board"]["svg"].startswith("<svg")
    assert puzzle["rating"]["rating"] == 1500 and puzzle["rating"]["deviation"] == 350
    assert body["player"] == {
        "rating": 1500.0,
        "deviation": 350.0,
        "volatility": 0.06,
        "rated": 0,
        "solved": 0,
    }
    assert (body["solved"], body["answered"], body["total"]) == (0, 0, len(puzzles))


def test_a_right_answer_raises_the_player_and_lowers_the_puzzle(client: TestClient) -> None:
    puzzle_id = client.get(f"/api/puzzles/{GAME}/next").json()["puzzle"]["id"]
    body = _answer(client, puzzle_id, _solution(puzzle_id))
    assert body["correct"] is True and body["rated"] is True and body["tries"] == 1
    assert body["solution"] == _solution(puzzle_id)
    assert body["player"]["rating"] > 1500 and body["player_change"] > 0
    assert body["player"]["deviation"] < 350
    assert (body["player"]["rated"], body["player"]["solved"]) == (1, 1)
    assert body["puzzle_rating"]["rating"] < 1500
    assert body["puzzle_rating"]["rating"] == pytest.approx(3000 - body["player"]["rating"])
    # Stored: the next puzzle's answer carries the player's rating, the list the puzzle's.
    after = client.get(f"/api/puzzles/{GAME}/next").json()
    assert after["player"] == body["player"]
    assert after["puzzle"]["id"] != puzzle_id and (after["solved"], after["answered"]) == (1, 1)
    listed = client.get(f"/api/puzzles/{GAME}?page=1").json()["puzzles"]
    assert next(p for p in listed if p["id"] == puzzle_id)["rating"] == body["puzzle_rating"]


def test_a_wrong_answer_is_explained_by_the_solved_table(client: TestClient) -> None:
    puzzle_id = client.get(f"/api/puzzles/{GAME}/next").json()["puzzle"]["id"]
    wrong = _wrong_move(puzzle_id)
    body = _answer(client, puzzle_id, wrong)
    assert body["correct"] is False and body["move"] == wrong and body["rated"] is True
    assert body["player"]["rating"] < 1500 and body["player_change"] < 0
    assert body["puzzle_rating"]["rating"] > 1500
    # The why: exact chances, recomputed here from the solved table.
    game, puzzles = puzzle_set(GAME)
    puzzle = next(p for p in puzzles if p.id == puzzle_id)
    state = game.parse_state(puzzle.position)
    chances = move_chances(state)
    explanation = body["explanation"]
    best = max(chances, key=lambda m: chances[m])
    assert best == body["solution"]
    assert explanation["played"]["chance"] == pytest.approx(chances[wrong], abs=1e-6)
    assert explanation["best"]["chance"] == pytest.approx(chances[best], abs=1e-6)
    assert chances[best] - chances[wrong] >= MARGIN
    assert explanation["why"] == (
        f"{wrong} wins {chances[wrong]:.1%} of the time with best play; "
        f"{best} wins {chances[best]:.1%}."
    )
    # The engine's line: after the solution, each roll and the opponent's exact best reply.
    after = state.apply(best)
    line = explanation["line"]
    assert [r["roll"] for r in line] == [m.text for m, _ in after.chance_outcomes()]
    assert sum(r["probability"] for r in line) == pytest.approx(1.0)
    for reply in line:
        replies = move_chances(after.apply(reply["roll"]))
        assert reply["chance"] == pytest.approx(max(replies.values()), abs=1e-6)
        assert replies[reply["move"]] == pytest.approx(max(replies.values()))
        assert f"{reply['roll']} {reply['move']}" in explanation["line_text"]
    # A second answer to the same puzzle is kept but not rated.
    again = _answer(client, puzzle_id, best)
    assert again["correct"] is True and again["rated"] is False and again["tries"] == 2
    assert again["player"] == body["player"] and again["puzzle_rating"] == body["puzzle_rating"]
    assert again["player_change"] == 0


@pytest.mark.parametrize("game_id", ["salta", "splinter"])
def test_an_estimated_puzzle_is_answered_with_its_estimates(
    sqlite_client: TestClient, game_id: str
) -> None:
    """A game without exact values: right and wrong answers, worded as estimates."""
    body = sqlite_client.get(f"/api/puzzles/{game_id}/next").json()
    puzzle_id = body["puzzle"]["id"]
    assert "estimate" in body["puzzle"]["task"]
    _game, puzzles = puzzle_set(game_id)
    puzzle = next(p for p in puzzles if p.id == puzzle_id)
    assert puzzle.estimate is not None and puzzle.intervals is not None
    wrong = next(m for m in puzzle.chances if m != puzzle.solution)
    answer = _answer(sqlite_client, puzzle_id, wrong)
    assert answer["correct"] is False and answer["solution"] == puzzle.solution
    explanation = answer["explanation"]
    assert explanation["exact"] is False and explanation["estimate"] == puzzle.estimate
    assert explanation["played"]["chance"] == pytest.approx(puzzle.chances[wrong])
    assert explanation["intervals"][wrong] == pytest.approx(puzzle.intervals[wrong])
    assert f"{wrong} wins about" in explanation["why"]
    assert "(the engine's estimates: MCTS" in explanation["why"]
    assert f"{puzzle.solution} wins " in explanation["why"]
    assert explanation["line_text"].startswith(f"The engine's line: {puzzle.solution}")
    again = _answer(sqlite_client, puzzle_id, puzzle.solution)
    assert again["correct"] is True and again["rated"] is False
    assert again["explanation"]["why"].startswith(f"{puzzle.solution} wins ")


def test_the_next_puzzle_follows_the_ratings(database: str) -> None:
    with _app_client(database) as first, _app_client(database) as second:
        # Another player solves puzzle 2: it drops below 1500, to where a player who has
        # failed one puzzle stands.
        _answer(second, f"{GAME}-2", _solution(f"{GAME}-2"))
        failed = _answer(first, f"{GAME}-3", _wrong_move(f"{GAME}-3"))
        assert failed["player"]["rating"] < 1500
        assert first.get(f"/api/puzzles/{GAME}/next").json()["puzzle"]["id"] == f"{GAME}-2"
        # The second player rose as much as puzzle 3 did: it is the nearest for them.
        assert second.get(f"/api/puzzles/{GAME}/next").json()["puzzle"]["id"] == f"{GAME}-3"
        # A newcomer, at 1500, gets the first puzzle still at 1500.
        with _app_client(database) as newcomer:
            puzzle = newcomer.get(f"/api/puzzles/{GAME}/next").json()["puzzle"]
            assert puzzle["id"] == f"{GAME}-1"


def test_ratings_survive_a_new_server_on_the_same_database(database: str) -> None:
    with _app_client(database) as client:
        body = _answer(client, f"{GAME}-5", _wrong_move(f"{GAME}-5"))
        cookies = dict(client.cookies)
    with _app_client(database) as client:
        client.cookies.update(cookies)
        again = client.get(f"/api/puzzles/{GAME}/next").json()
        assert again["player"] == body["player"] and again["answered"] == 1
        listed = client.get(f"/api/puzzles/{GAME}").json()["puzzles"]
        assert listed[4]["id"] == f"{GAME}-5" and listed[4]["rating"] == body["puzzle_rating"]
    with _app_client(database) as stranger:
        assert stranger.get(f"/api/puzzles/{GAME}/next").json()["player"]["rated"] == 0


def test_the_list_in_pages(client: TestClient) -> None:
    puzzles = puzzle_set(GAME)[1]
    pages = math.ceil(len(puzzles) / PER_PAGE)
    seen = []
    for page in range(1, pages + 1):
        response = client.get(f"/api/puzzles/{GAME}", params={"page": page})
        assert response.status_code == 200
        body = response.json()
        assert (body["page"], body["pages"], body["total"]) == (page, pages, len(puzzles))
        assert len(body["puzzles"]) == min(PER_PAGE, len(puzzles) - (page - 1) * PER_PAGE)
        seen.extend(body["puzzles"])
    assert [p["id"] for p in seen] == [p.id for p in puzzles]
    assert [p["number"] for p in seen] == list(range(1, len(puzzles) + 1))
    assert [(p["position"], p["solution"]) for p in seen] == [
        (p.position, p.solution) for p in puzzles
    ]
    assert all(p["rating"]["rating"] == 1500 for p in seen)
    assert client.get(f"/api/puzzles/{GAME}").json()["page"] == 1
    for page, status, message in [
        (pages + 1, 404, f"there is no page {pages + 1}: pages run from 1 to {pages}"),
        (0, 404, f"there is no page 0: pages run from 1 to {pages}"),
        ("two", 400, "page"),
    ]:
        response = client.get(f"/api/puzzles/{GAME}", params={"page": page})
        assert response.status_code == status and message in response.json()["error"]


def test_every_puzzle_solved_then_none_is_left(client: TestClient) -> None:
    puzzles = puzzle_set(GAME)[1]
    for number in range(len(puzzles)):
        puzzle = client.get(f"/api/puzzles/{GAME}/next").json()["puzzle"]
        assert puzzle is not None, f"no puzzle after {number} solved"
        assert _answer(client, puzzle["id"], _solution(puzzle["id"]))["correct"]
    body = client.get(f"/api/puzzles/{GAME}/next").json()
    assert body["puzzle"] is None and body["solved"] == len(puzzles)
    assert body["message"] == f"You have solved all {len(puzzles)} Pente Grammai puzzles."
    assert body["player"]["rated"] == len(puzzles) == body["player"]["solved"]


@pytest.mark.parametrize("game_id", WITHOUT_PUZZLES)
def test_a_game_without_puzzles_is_404_with_the_games_that_have_them(
    sqlite_client: TestClient, game_id: str
) -> None:
    name = game_class(game_id).name
    for url in (f"/api/puzzles/{game_id}/next", f"/api/puzzles/{game_id}?page=1"):
        response = sqlite_client.get(url)
        assert response.status_code == 404
        assert response.json()["error"] == (
            f"{name} has no puzzles yet; games with puzzles: {', '.join(games_with_puzzles())}"
        )
    page = sqlite_client.get(f"/puzzles/{game_id}")
    assert page.status_code == 404 and "has no puzzles yet; games with puzzles" in page.text


def test_unknown_games_and_puzzle_ids_are_404(sqlite_client: TestClient) -> None:
    for url in ("/api/puzzles/chess/next", "/api/puzzles/chess", "/puzzles/chess"):
        response = sqlite_client.get(url)
        assert response.status_code == 404
        text = html.unescape(response.text)
        assert "unknown game 'chess'" in text and "games with puzzles: pente_grammai" in text
    count = len(puzzle_set(GAME)[1])
    for puzzle_id in (f"{GAME}-0", f"{GAME}-{count + 1}", "steppin_stones-1", "nothing"):
        response = sqlite_client.post(f"/api/puzzles/{puzzle_id}/answer", json={"moves": ["W3-B3"]})
        assert response.status_code == 404
        ranges = "; ".join(f"{g}-1 to {g}-{len(puzzle_set(g)[1])}" for g in games_with_puzzles())
        assert f"{GAME}-1 to {GAME}-{count}" in ranges
        assert response.json()["error"] == (
            f"no puzzle has the id {puzzle_id!r}; puzzle ids: {ranges}"
        )


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"{not json", 400, "the request body is not valid JSON"),
        (b"[]", 400, "bad request"),
        (b"{}", 400, "moves is required"),
        (b'{"moves": "W3-B3"}', 400, "moves"),
        (b'{"moves": []}', 400, "a puzzle is answered with one move"),
        (b'{"moves": ["W3-B3", "B3-W3"]}', 400, "got 2 moves"),
        (b'{"moves": ["nonsense"]}', 400, "is not a move in Pente Grammai notation"),
        (b'{"moves": ["W1-W2"]}', 409, "there is no White counter on W1"),
        (b'{"moves": ["' + b"W" * 1000 + b'"]}', 400, "at most 200 characters"),
        (b'{"moves": [' + b'"W3-B3", ' * 40 + b'"W3-B3"]}', 400, "at most 40 items"),
    ],
)
def test_bad_answers_are_refused_and_rate_nothing(
    client: TestClient, body: bytes, status: int, message: str
) -> None:
    # Puzzle 1: White to move with a 5 on the die, W1 empty.
    response = client.post(
        f"/api/puzzles/{GAME}-1/answer",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == status, response.text
    assert message in response.json()["error"]
    after = client.get(f"/api/puzzles/{GAME}/next").json()
    assert after["answered"] == 0 and after["player"]["rated"] == 0


def test_the_pages_link_the_puzzles(sqlite_client: TestClient) -> None:
    index = sqlite_client.get("/puzzles")
    assert index.status_code == 200
    for game_id in games_with_puzzles():
        assert re.search(f'href="[^"]*/puzzles/{game_id}" data-puzzles="{game_id}"', index.text)
    page = sqlite_client.get(f"/puzzles/{GAME}")
    assert page.status_code == 200
    assert 'id="player-rating">1500<' in page.text and "puzzles.js" in page.text
    assert re.search('href="[^"]*/puzzles">Puzzles</a>', sqlite_client.get("/").text)
    assert 'id="puzzles-link"' in sqlite_client.get("/learn").text


def test_the_migration_adds_the_puzzle_tables_and_takes_them_away(database: str) -> None:
    tables = {"puzzle_ratings", "puzzle_players", "puzzle_attempts"}
    store = GameStore(database)
    try:
        assert tables <= set(inspect(store.engine).get_table_names())
        config = alembic_config()
        with store.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0004")
        assert not tables & set(inspect(store.engine).get_table_names())
    finally:
        store.close()
    store = GameStore(database)  # opening upgrades the database again
    try:
        assert tables <= set(inspect(store.engine).get_table_names())
        ratings = PuzzleStore(store)
        answered = ratings.answer("someone", GAME, f"{GAME}-1", True)
        assert answered.rated and ratings.player("someone", GAME) == answered.player
    finally:
        store.close()


def test_answers_at_the_same_moment_lose_no_update(database: str) -> None:
    store = GameStore(database)
    try:
        ratings = PuzzleStore(store)
        sessions = [f"player-{number}" for number in range(8)]
        with ThreadPoolExecutor(len(sessions)) as pool:
            answers = list(pool.map(lambda s: ratings.answer(s, GAME, f"{GAME}-7", True), sessions))
        stored = ratings.puzzles(GAME)[f"{GAME}-7"]
        assert (stored.rated, stored.solved) == (len(sessions), len(sessions))
        # A chain: each answer was rated against the puzzle as the answer before left it.
        befores = sorted((a.puzzle_before.rating.rating for a in answers), reverse=True)
        afters = sorted((a.puzzle.rating.rating for a in answers), reverse=True)
        assert befores[0] == 1500 and befores[1:] == afters[:-1]
        assert stored.rating.rating == afters[-1] < 1500
    finally:
        store.close()


# -- in Chromium ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("puzzles") / "games.sqlite3"
    with running_server(db, settings=SETTINGS) as url:
        yield url


@pytest.mark.browser
def test_a_puzzle_solved_in_the_browser_after_one_wrong_answer(page: Page, base: str) -> None:
    game, puzzles = puzzle_set(GAME)
    first = puzzles[0]
    wrong = _wrong_move(first.id)
    page.goto(f"{base}/learn")
    page.click("#puzzles-link")
    page.click(f'a[data-puzzles="{GAME}"]')
    expect(page.locator("#puzzle-title")).to_have_text(f"Puzzle 1 of {len(puzzles)}")
    expect(page.locator("#task")).to_contain_text(f"{first.to_move} to move")
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#player-rating")).to_have_text("1500")
    # A wrong move, typed: the solution, the why and the engine's line; the rating drops.
    page.fill("#move-input", wrong)
    page.press("#move-input", "Enter")
    expect(page.locator("#feedback")).to_contain_text(
        f"Not the best: the solution is {first.solution}"
    )
    expect(page.locator("#why")).to_contain_text(f"{wrong} wins")
    expect(page.locator("#line")).to_contain_text(f"The engine's line: {first.solution}")
    expect(page.locator("#rating-change")).to_have_text(re.compile(r"^\(-\d+\.\d\)$"))
    dropped = int(page.locator("#player-rating").inner_text())
    assert dropped < 1500
    # The solution, clicked on the board along its click path: right, and not rated again.
    path = board_of(game.parse_state(first.position)).click_paths[first.solution]
    for region in path:
        page.click(f'#board .region[data-region="{region}"]')
    expect(page.locator("#feedback")).to_contain_text(f"Right! {first.solution} is the best move.")
    expect(page.locator("#rating-change")).to_have_text("")
    expect(page.locator("#player-rating")).to_have_text(str(dropped))
    expect(page.locator("#player-count")).to_have_text("0 of 1 right at the first try")
    page.click("#next-puzzle")
    expect(page.locator("#puzzle-title")).to_have_text(re.compile(r"^Puzzle \d+ of "))
    expect(page.locator("#puzzle-title")).not_to_have_text(f"Puzzle 1 of {len(puzzles)}")
