"""Rated games: rated challenges between accounts, ratings moved once by every kind of end (in
the transaction that records it, also when two server processes race), profiles, filtered game
lists, exports, leaderboards, the lobby's ratings, and the migration that added them.

Every test that stores something runs on SQLite and on PostgreSQL (the ``database`` fixture).
Two ``TestClient``s on one app are two browsers (each keeps its own cookies).
"""

from __future__ import annotations

import io
import json
import threading
import zipfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from alembic import command
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, insert, inspect, select
from sqlalchemy.exc import IntegrityError

from ludoteca.analysis.glicko2 import Rating, rate_pair
from ludoteca.core.registry import make
from ludoteca.web.app import create_app
from ludoteca.web.migrations import alembic_config
from ludoteca.web.rated_games import rate_game, rate_result
from ludoteca.web.schema import player_ratings_table, rating_history_table
from ludoteca.web.storage import GameStore, SeatRow, VersionConflictError, database_url
from tests.web.server import running_server
from tests.web.test_accounts import PASSWORD, SETTINGS, assert_error, sign_up
from tests.web.test_online import eventually


@pytest.fixture
def app(database: str) -> FastAPI:
    return create_app(database, seed=3, settings=SETTINGS)


@pytest.fixture
def ada(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        sign_up(client, "Ada")
        yield client


@pytest.fixture
def bob(app: FastAPI, ada: TestClient) -> TestClient:
    client = TestClient(app)  # the same server (started by ``ada``), another browser
    sign_up(client, "Bob")
    return client


def rated_game(
    poster: TestClient, accepter: TestClient, game: str = "salta", **challenge: Any
) -> dict[str, Any]:
    """A rated game of ``poster`` and ``accepter``: each one's seat and token, the game's id."""
    body = {"game": game, "rated": True, "side": "0"} | challenge
    posted = poster.post("/api/challenges", json=body)
    assert posted.status_code == 201, posted.text
    assert posted.json()["rated"] is True and posted.json()["poster_rating"]["games"] >= 0
    accepted = accepter.post(f"/api/challenges/{posted.json()['id']}/accept", json={})
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["game"]["rated"] is True
    return {
        "id": accepted.json()["id"],
        "poster": (posted.json()["seat"], posted.json()["token"]),
        "accepter": (accepted.json()["seat"], accepted.json()["token"]),
    }


def rating(client: TestClient, name: str, game: str = "salta") -> dict[str, Any] | None:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] | None = answer.json()["ratings"].get(game)
    return found


def expected(score_of_ada: float) -> tuple[Rating, Rating]:
    """Ada's and Bob's ratings after their first game, in which Ada scored ``score_of_ada``."""
    return rate_pair(Rating(), Rating(), score_of_ada)


def assert_rated(client: TestClient, score_of_ada: float, game: str = "salta") -> None:
    """Both players' ratings are those of one game that Ada scored ``score_of_ada`` in."""
    ada_after, bob_after = expected(score_of_ada)
    for name, after, score in (
        ("Ada", ada_after, score_of_ada),
        ("Bob", bob_after, 1 - score_of_ada),
    ):
        found = rating(client, name, game)
        assert found is not None, name
        assert found["games"] == 1
        assert found["rating"] == pytest.approx(after.rating, abs=0.05)
        assert found["deviation"] == pytest.approx(after.deviation, abs=0.05)
        assert found["provisional"] is True and found["shown"].endswith("?")
        assert (found["wins"], found["draws"], found["losses"]) == (
            int(score == 1),
            int(score == 0.5),
            int(score == 0),
        )


# -- rated challenges ---------------------------------------------------------------------------


def test_a_rated_challenge_needs_an_account_on_both_sides(
    app: FastAPI, ada: TestClient, bob: TestClient
) -> None:
    anonymous = TestClient(app)  # the same server (started by ``ada``), another browser
    anonymous.post("/api/session/name", json={"name": "Anon"})
    refused = anonymous.post("/api/challenges", json={"game": "salta", "rated": True})
    assert_error(refused, 401, "rated challenge", "logged in to an account", "rated false")
    casual = anonymous.post("/api/challenges", json={"game": "salta"})
    assert casual.status_code == 201 and casual.json()["rated"] is False
    posted = ada.post("/api/challenges", json={"game": "salta", "rated": True}).json()
    taken = anonymous.post(f"/api/challenges/{posted['id']}/accept", json={})
    assert_error(taken, 401, "this challenge is rated", "logged in to an account")
    ada_elsewhere = TestClient(app)  # Ada's account in another browser
    logged_in = ada_elsewhere.post("/api/login", json={"name": "Ada", "password": PASSWORD})
    assert logged_in.status_code == 200
    own = ada_elsewhere.post(f"/api/challenges/{posted['id']}/accept", json={})
    assert_error(own, 409, "a rated game needs two")
    by_id = {c["id"]: c for c in anonymous.get("/api/lobby").json()["challenges"]}
    assert by_id[posted["id"]]["status"] == "open"  # nothing changed
    assert by_id[posted["id"]]["rated"] is True
    assert by_id[posted["id"]]["poster_rating"]["shown"] == "1500?"
    assert by_id[casual.json()["id"]]["poster_rating"] is None  # no account, no rating
    ranged = anonymous.get("/api/lobby", params={"min_rating": 1400, "max_rating": 1600}).json()
    assert [c["id"] for c in ranged["challenges"]] == [posted["id"]]
    above = anonymous.get("/api/lobby", params={"min_rating": 1600}).json()
    assert above["challenges"] == []
    assert_error(anonymous.get("/api/lobby", params={"min_rating": -5}), 400)
    bad = ada.post("/api/challenges", json={"game": "salta", "rated": "yes please"})
    assert bad.status_code == 400
    assert rating(ada, "Ada") is None


@pytest.mark.parametrize("resigner", ["poster", "accepter"])
@pytest.mark.parametrize("poster_side", ["0", "1"])
def test_a_resignation_moves_both_ratings_once(
    ada: TestClient, bob: TestClient, resigner: str, poster_side: str
) -> None:
    game = rated_game(ada, bob, side=poster_side)
    seat, token = game[resigner]
    client = ada if resigner == "poster" else bob
    assert game["poster"][0] == int(poster_side)
    resigned = client.post(f"/api/games/{game['id']}/resign", json={"token": token})
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["outcome"]["resigned"] == seat
    assert_rated(bob, 0.0 if resigner == "poster" else 1.0)
    again = client.post(f"/api/games/{game['id']}/resign", json={"token": token})
    assert_error(again, 409, "the game is over")
    assert_rated(bob, 0.0 if resigner == "poster" else 1.0)  # not twice


def test_an_agreed_draw_moves_both_ratings(ada: TestClient, bob: TestClient) -> None:
    game = rated_game(ada, bob)
    url = f"/api/games/{game['id']}/draw"
    offered = ada.post(url, json={"token": game["poster"][1], "action": "offer"})
    assert offered.status_code == 200, offered.text
    assert rating(ada, "Ada") is None  # an offer ends nothing
    accepted = bob.post(url, json={"token": game["accepter"][1], "action": "accept"})
    assert accepted.status_code == 200 and accepted.json()["outcome"]["agreed"] == "draw"
    assert_rated(ada, 0.5)


@pytest.mark.parametrize("loser", ["poster", "accepter"])
def test_a_time_out_moves_both_ratings(ada: TestClient, bob: TestClient, loser: str) -> None:
    """The loser plays the second player: once the first player has moved, the loser's clock
    (one second) runs, and it runs out."""
    side = "1" if loser == "poster" else "0"
    game = rated_game(ada, bob, clock={"initial": 1, "increment": 0}, side=side)
    first = "accepter" if loser == "poster" else "poster"
    state = ada.get(f"/api/games/{game['id']}").json()
    moved = (bob if first == "accepter" else ada).post(
        f"/api/games/{game['id']}/moves",
        json={"token": game[first][1], "move": state["legal_moves"][0]},
    )
    assert moved.status_code == 200, moved.text

    def flagged() -> Any:
        return ada.get(f"/api/games/{game['id']}/clock").json()["outcome"]

    outcome = eventually(flagged, "the clock to run out")
    assert outcome["timed_out"] == game[loser][0]
    assert_rated(ada, 0.0 if loser == "poster" else 1.0)
    rated = ada.get("/api/players/Ada").json()["time_controls"]["salta"]
    assert set(rated) == {"realtime"}  # a real-time clock is rated in real time


def test_an_end_by_the_rules_moves_both_ratings(ada: TestClient, bob: TestClient) -> None:
    """Splinter's safeguard ends a game after ``max_plies`` turns, a draw by the rules."""
    game = rated_game(ada, bob, "splinter", options={"max_plies": 2})
    tokens = {
        game["poster"][0]: (ada, game["poster"][1]),
        game["accepter"][0]: (bob, game["accepter"][1]),
    }
    state = ada.get(f"/api/games/{game['id']}").json()
    while state["outcome"] is None:
        client, token = tokens[state["to_move"]]
        moved = client.post(
            f"/api/games/{game['id']}/moves", json={"token": token, "move": state["legal_moves"][0]}
        )
        assert moved.status_code == 200, moved.text
        state = moved.json()
    assert state["outcome"]["winner"] is None and "safeguard" in state["outcome"]["reason"]
    assert_rated(ada, 0.5, "splinter")
    assert set(ada.get("/api/players/Bob").json()["time_controls"]["splinter"]) == {
        "correspondence"  # no clock: rated as correspondence
    }


def test_casual_games_move_no_rating(ada: TestClient, bob: TestClient) -> None:
    posted = ada.post("/api/challenges", json={"game": "salta", "side": "0"}).json()
    accepted = bob.post(f"/api/challenges/{posted['id']}/accept", json={}).json()
    assert accepted["game"]["rated"] is False
    resigned = bob.post(f"/api/games/{accepted['id']}/resign", json={"token": accepted["token"]})
    assert resigned.status_code == 200
    assert rating(ada, "Ada") is None and rating(ada, "Bob") is None


# -- rematches -----------------------------------------------------------------------------------


def rematch(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/rematch", json={"token": token})


def ended_rated_game(ada: TestClient, bob: TestClient) -> dict[str, Any]:
    """A rated game of Ada (the poster, seat 0) and Bob that Bob resigned."""
    game = rated_game(ada, bob)
    resigned = bob.post(f"/api/games/{game['id']}/resign", json={"token": game["accepter"][1]})
    assert resigned.status_code == 200, resigned.text
    return game


def test_the_rematch_of_a_rated_game_is_rated_between_the_same_accounts(
    app: FastAPI, ada: TestClient, bob: TestClient
) -> None:
    # The server rates through the store's own hook, not a second subscriber of its own.
    assert app.state.service.store.result_hooks.count(rate_result) == 1
    game = ended_rated_game(ada, bob)
    offered = rematch(ada, game["id"], game["poster"][1])
    assert offered.status_code == 200, offered.text
    assert offered.json()["rematch"] is None and offered.json()["rated"] is True
    accepted = rematch(bob, game["id"], game["accepter"][1])
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["rated"] is True
    new_id, bob_seat = accepted.json()["rematch"], accepted.json()["seat"]
    assert bob_seat == 0  # the seats are swapped
    assert ada.get(f"/api/games/{new_id}").json()["rated"] is True
    ada_token = rematch(ada, game["id"], game["poster"][1]).json()["token"]
    resigned = ada.post(f"/api/games/{new_id}/resign", json={"token": ada_token})
    assert resigned.status_code == 200, resigned.text
    assert rating(ada, "Ada")["games"] == 2  # type: ignore[index]
    assert rating(ada, "Bob")["games"] == 2  # type: ignore[index]
    assert (rating(ada, "Bob")["wins"], rating(ada, "Ada")["losses"]) == (1, 1)  # type: ignore[index]


def test_the_rematch_of_a_casual_game_stays_casual(ada: TestClient, bob: TestClient) -> None:
    posted = ada.post("/api/challenges", json={"game": "salta", "side": "0"}).json()
    accepted = bob.post(f"/api/challenges/{posted['id']}/accept", json={}).json()
    bob.post(f"/api/games/{accepted['id']}/resign", json={"token": accepted["token"]})
    assert rematch(ada, accepted["id"], posted["token"]).json()["rated"] is False
    made = rematch(bob, accepted["id"], accepted["token"]).json()
    assert made["rated"] is False
    assert ada.get(f"/api/games/{made['rematch']}").json()["rated"] is False
    resigned = bob.post(f"/api/games/{made['rematch']}/resign", json={"token": made["token"]})
    assert resigned.status_code == 200
    assert rating(ada, "Ada") is None and rating(ada, "Bob") is None


def test_a_logged_out_player_asks_no_rematch_of_a_rated_game(
    app: FastAPI, ada: TestClient, bob: TestClient
) -> None:
    """The browser keeps the seat's token after logging out; in a rated game the token alone
    offers, accepts or fetches nothing: only the seat's account does."""
    game = ended_rated_game(ada, bob)
    assert ada.post("/api/logout").status_code == 200
    refused = rematch(ada, game["id"], game["poster"][1])
    assert_error(refused, 401, "rated", "logged in to the account that played this seat")
    assert ada.get(f"/api/games/{game['id']}").json()["rematch_offer"] is None  # nothing offered
    carol = TestClient(app)
    sign_up(carol, "Carol")
    other = rematch(carol, game["id"], game["poster"][1])  # the token, another account
    assert_error(other, 403, "another account")
    assert rematch(bob, game["id"], game["accepter"][1]).json()["rematch"] is None  # offered
    assert_error(rematch(ada, game["id"], game["poster"][1]), 401)  # nor accepts
    assert ada.get(f"/api/games/{game['id']}").json()["rematch"] is None
    assert ada.post("/api/login", json={"name": "Ada", "password": PASSWORD}).status_code == 200
    made = rematch(ada, game["id"], game["poster"][1])
    assert made.status_code == 200 and made.json()["rated"] is True
    assert ada.post("/api/logout").status_code == 200
    # Logged out again: the new rated game's seat is not handed to the token's holder.
    assert_error(rematch(ada, game["id"], game["poster"][1]), 401)


def test_a_rematch_offered_by_a_deleted_account_makes_no_rated_game(
    ada: TestClient, bob: TestClient
) -> None:
    game = ended_rated_game(ada, bob)
    assert rematch(ada, game["id"], game["poster"][1]).json()["rematch"] is None  # offered
    deleted = ada.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    refused = rematch(bob, game["id"], game["accepter"][1])
    assert_error(refused, 409, "account was deleted", "post a new challenge")
    assert bob.get(f"/api/games/{game['id']}").json()["rematch"] is None  # no new game
    # The deleted player's browser, anonymous now, still has the token: it asks nothing either.
    assert_error(rematch(ada, game["id"], game["poster"][1]), 403, "was deleted")
    assert bob.get(f"/api/games/{game['id']}").json()["rematch"] is None
    assert rating(bob, "Bob")["games"] == 1  # type: ignore[index]


# -- never twice, also with two processes --------------------------------------------------------


def _rated_row(store: GameStore, game_id: str) -> None:
    for name in ("a1", "b2"):
        with store.engine.begin() as db:
            from ludoteca.web.schema import accounts_table

            db.execute(
                insert(accounts_table).values(
                    id=name, name=name, name_key=name, password="-", created="2026"
                )
            )
    store.create_game(
        game_id,
        game="salta",
        options={},
        start=None,
        seats=[
            SeatRow(0, "human", None, "t0", "a1", account="a1"),
            SeatRow(1, "invite", None, "t1", "b2", account="b2"),
        ],
        rated=True,
    )


def _counts(store: GameStore) -> tuple[int, list[int]]:
    with store.engine.connect() as db:
        history = db.execute(select(func.count()).select_from(rating_history_table)).scalar()
        games = db.execute(
            select(player_ratings_table.c.games).order_by(player_ratings_table.c.account_id)
        ).scalars()
        return int(history or 0), [int(g) for g in games]


def test_a_game_is_never_rated_twice(database: str) -> None:
    store = GameStore(database)  # a store alone, no server: it rates by itself
    try:
        assert store.result_hooks == [rate_result]
        _rated_row(store, "g1")
        store.set_resigned("g1", 0, based_on=0, result="Green resigned")
        assert _counts(store) == (2, [1, 1])
        # A late end recorded on top (a stale process's time out) rates nothing again.
        store.update_game("g1", based_on=1, timed_out=1, result="Red ran out of time")
        assert _counts(store) == (2, [1, 1])
        with store.engine.begin() as db:
            assert rate_game(db, "g1") is False
        with pytest.raises(IntegrityError), store.engine.begin() as db:  # the constraint
            db.execute(
                insert(rating_history_table).values(
                    game_id="g1",
                    account_id="a1",
                    game="salta",
                    time_control="correspondence",
                    seat=0,
                    score=0.0,
                    rating_before=1500,
                    deviation_before=350,
                    volatility_before=0.06,
                    rating_after=1400,
                    deviation_after=300,
                    volatility_after=0.06,
                    at="2026",
                )
            )
        assert _counts(store) == (2, [1, 1])
    finally:
        store.close()


def test_the_end_of_a_rated_game_reported_by_two_processes_rates_it_once(database: str) -> None:
    """Two stores on one database are two server processes: both record the game's end at once
    (one a resignation, the other a time out), from the same version; one wins, ratings move once.
    """
    first, second = GameStore(database), GameStore(database)
    try:
        for round_ in range(4):
            game_id = f"race{round_}"
            if round_ == 0:
                _rated_row(first, game_id)
            else:
                first.create_game(
                    game_id,
                    game="salta",
                    options={},
                    start=None,
                    seats=[
                        SeatRow(0, "human", None, "t0", "a1", account="a1"),
                        SeatRow(1, "invite", None, "t1", "b2", account="b2"),
                    ],
                    rated=True,
                )
            barrier = threading.Barrier(2)
            outcomes: list[str] = []

            def end(
                store: GameStore,
                how: str,
                game_id: str = game_id,
                barrier: threading.Barrier = barrier,
                outcomes: list[str] = outcomes,
            ) -> None:
                barrier.wait()
                try:
                    if how == "resign":
                        store.set_resigned(game_id, 0, based_on=0, result="Green resigned")
                    else:
                        store.update_game(
                            game_id, based_on=0, timed_out=1, result="Red ran out of time"
                        )
                    outcomes.append(how)
                except VersionConflictError:
                    outcomes.append("conflict")

            threads = [
                threading.Thread(target=end, args=(first, "resign")),
                threading.Thread(target=end, args=(second, "time out")),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(outcomes)[0] == "conflict" and len(set(outcomes)) == 2, outcomes
            assert _counts(first) == (2 * (round_ + 1), [round_ + 1, round_ + 1])
            row = second.load(game_id)
            assert row is not None and row.rated
            winner = 1 if "resign" in outcomes else 0
            with first.engine.connect() as db:
                scores = dict(
                    db.execute(
                        select(rating_history_table.c.seat, rating_history_table.c.score).where(
                            rating_history_table.c.game_id == game_id
                        )
                    ).all()
                )
            assert scores == {winner: 1.0, 1 - winner: 0.0}
    finally:
        first.close()
        second.close()


def test_two_server_processes_ending_one_rated_game_at_once_rate_it_once(database: str) -> None:
    """Two servers on one database, like the processes of ``serve --workers``: Ada resigns
    through one while Bob resigns through the other, at the same moment. One resignation is
    recorded (the other gets 409: the game is over), and the ratings move once."""
    with (
        running_server(database) as one,
        running_server(database) as two,
        httpx.Client(base_url=one) as ada,
        httpx.Client(base_url=two) as bob,
    ):
        for client, name in ((ada, "Ada"), (bob, "Bob")):
            body = {"name": name, "password": PASSWORD}
            assert client.post("/api/accounts", json=body).status_code == 201
        for round_ in range(3):
            posted = ada.post("/api/challenges", json={"game": "salta", "rated": True}).json()
            accepted = bob.post(f"/api/challenges/{posted['id']}/accept", json={}).json()
            game_id = accepted["id"]
            for client in (ada, bob):  # both processes hold the running game
                assert client.get(f"/api/games/{game_id}").json()["outcome"] is None
            barrier = threading.Barrier(2)
            answers: dict[str, int] = {}

            def resign(
                client: httpx.Client,
                token: str,
                who: str,
                game_id: str = game_id,
                barrier: threading.Barrier = barrier,
                answers: dict[str, int] = answers,
            ) -> None:
                barrier.wait()
                answer = client.post(f"/api/games/{game_id}/resign", json={"token": token})
                answers[who] = answer.status_code

            threads = [
                threading.Thread(target=resign, args=(ada, posted["token"], "Ada")),
                threading.Thread(target=resign, args=(bob, accepted["token"], "Bob")),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(answers.values()) == [200, 409], answers
            for client in (ada, bob):
                for name in ("Ada", "Bob"):
                    found = client.get(f"/api/players/{name}").json()["ratings"]["salta"]
                    assert found["games"] == round_ + 1
                    assert found["wins"] + found["losses"] == round_ + 1
        store = GameStore(database)
        try:
            assert _counts(store)[0] == 6  # two rows a game, three games
        finally:
            store.close()


# -- profiles, game lists, exports, leaderboards -------------------------------------------------


def test_profiles_lists_exports_and_leaderboards(ada: TestClient, bob: TestClient) -> None:
    won = rated_game(ada, bob)
    assert (
        bob.post(f"/api/games/{won['id']}/resign", json={"token": won["accepter"][1]}).status_code
        == 200
    )
    running = rated_game(bob, ada, "pente_grammai")
    casual = ada.post("/api/challenges", json={"game": "salta"}).json()
    casual_game = bob.post(f"/api/challenges/{casual['id']}/accept", json={}).json()
    profile = ada.get("/api/players/ada").json()
    assert profile["name"] == "Ada"
    assert profile["ratings"]["salta"]["games"] == 1 and profile["ratings"]["salta"]["wins"] == 1
    assert {g["id"] for g in profile["playing"]} == {running["id"], casual_game["id"]}
    recent = {g["id"]: g for g in profile["recent"]}
    assert recent[won["id"]]["rated"] is True
    assert recent[won["id"]]["rating_change"]["before"] == 1500.0
    assert recent[won["id"]]["rating_change"]["after"] > 1500
    assert (
        recent[casual_game["id"]]["rated"] is False
        and "rating_change" not in recent[casual_game["id"]]
    )

    def listed(**query: Any) -> list[str]:
        answer = ada.get("/api/players/Ada/games", params=query)
        assert answer.status_code == 200, answer.text
        return sorted(g["id"] for g in answer.json()["games"])

    assert listed() == sorted([won["id"], running["id"], casual_game["id"]])
    assert listed(result="won") == [won["id"]]
    assert listed(result="lost") == [] and listed(result="drawn") == []
    assert listed(rated="true") == sorted([won["id"], running["id"]])
    assert listed(rated="false") == [casual_game["id"]]
    assert listed(opponent="BOB", game="pente_grammai") == [running["id"]]
    assert listed(opponent="nobody") == []
    assert sorted(
        g["id"]
        for g in bob.get("/api/players/Bob/games", params={"result": "lost"}).json()["games"]
    ) == [won["id"]]
    assert_error(ada.get("/api/players/Ada/games", params={"result": "bogus"}), 400)
    assert_error(ada.get("/api/players/Ada/games", params={"rated": "maybe"}), 400)
    assert_error(ada.get("/api/players/Ada/games", params={"opponent": "x" * 25}), 400)

    export = ada.get("/api/players/Ada/export")
    assert export.status_code == 200 and export.headers["content-type"].startswith(
        "application/x-ndjson"
    )
    saved = [json.loads(line) for line in export.text.splitlines()]
    assert len(saved) == 3 and {s["format"] for s in saved} == {"ludoteca-game"}
    assert {s["game"] for s in saved} == {"salta", "pente_grammai"}
    archive = zipfile.ZipFile(
        io.BytesIO(
            ada.get("/api/players/Ada/export", params={"format": "zip", "rated": "true"}).content
        )
    )
    assert sorted(archive.namelist()) == sorted(
        [f"salta-{won['id']}.json", f"pente_grammai-{running['id']}.json"]
    )
    assert_error(ada.get("/api/players/Ada/export", params={"format": "pgn"}), 400)

    board = ada.get("/api/leaderboard/salta", params={"time_control": "correspondence"}).json()
    assert [(p["rank"], p["name"]) for p in board["players"]] == [(1, "Ada"), (2, "Bob")]
    assert board["players"][0]["shown"].endswith("?") and board["total"] == 2
    assert [level["level"] for level in board["levels"]] == [1, 2, 3, 4, 5]
    assert board["levels"][4]["arena_elo"] > board["levels"][0]["arena_elo"]
    assert ada.get("/api/leaderboard/salta").json()["players"] == []  # nobody in real time
    assert ada.get("/api/leaderboard/steppin_stones").json()["levels"] == []
    lobby = ada.get("/").text  # the new-game forms say what a level means
    assert "computer level 4: " in lobby and "arena Elo +114 ± 105" in lobby
    assert_error(ada.get("/api/leaderboard/chess"), 400, "salta")
    assert_error(ada.get("/api/leaderboard/salta", params={"time_control": "blitz"}), 400)

    page = ada.get("/@/ada")
    assert page.status_code == 200
    assert 'class="rating-chart"' in page.text and "1 won, 0 drawn, 0 lost" in page.text
    assert f"/games/{running['id']}" in page.text.split('id="profile-playing"')[1]
    filtered = ada.get("/@/ada", params={"result": "won"})
    assert (
        f"/games/{won['id']}" in filtered.text
        and f"/games/{casual_game['id']}" not in filtered.text.split('id="games-title"')[1]
    )
    any_filter = ada.get("/@/ada?game=&result=&opponent=&rated=")  # the form's "any"
    assert any_filter.status_code == 200 and "3 games" in any_filter.text
    casual_only = ada.get("/@/ada?game=salta&result=&opponent=&rated=false")
    assert "1 game " in casual_only.text and f"/games/{casual_game['id']}" in casual_only.text
    assert ada.get("/@/ada", params={"result": "bogus"}).status_code == 400
    assert ada.get("/@/ada", params={"rated": "maybe"}).status_code == 400
    schema = ada.get("/openapi.json").json()
    rated_field = schema["components"]["schemas"]["ChallengeRequest"]["properties"]["rated"]
    assert rated_field["type"] == "boolean" and rated_field["default"] is False
    listed_params = schema["paths"]["/api/players/{name}/games"]["get"]["parameters"]
    assert {"game", "result", "opponent", "rated", "page"} <= {p["name"] for p in listed_params}
    assert {"/api/leaderboard/{game}", "/api/players/{name}/export"} <= set(schema["paths"])
    lobby_params = schema["paths"]["/api/lobby"]["get"]["parameters"]
    assert {p["name"] for p in lobby_params} == {"min_rating", "max_rating"}
    html_board = ada.get("/leaderboard/salta", params={"time_control": "correspondence"})
    assert (
        html_board.status_code == 200
        and "/@/Ada" in html_board.text
        and "+549 ± 170" in html_board.text
    )


def test_deleting_an_account_removes_its_ratings(ada: TestClient, bob: TestClient) -> None:
    game = rated_game(ada, bob)
    bob.post(f"/api/games/{game['id']}/resign", json={"token": game["accepter"][1]})
    deleted = bob.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200
    board = ada.get("/api/leaderboard/salta", params={"time_control": "correspondence"}).json()
    assert [p["name"] for p in board["players"]] == ["Ada"]
    assert rating(ada, "Ada") is not None
    names = ada.get(f"/api/games/{game['id']}").json()["seats"]
    assert [s["name"] for s in names][game["accepter"][0]] == "deleted player"


# -- the migration ---------------------------------------------------------------------------


def test_a_database_of_revision_0008_is_upgraded_in_place(database: str) -> None:
    engine = create_engine(database_url(database))
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0008")
        connection.exec_driver_sql(
            "INSERT INTO games (id, game, options, created, updated, result, resigned, agreed) "
            "VALUES ('old', 'salta', '{}', '2026', '2026', 'Green resigned', 0, NULL), "
            "('drawn', 'salta', '{}', '2026', '2026', 'draw agreed by the players', NULL, 'draw'), "
            "('running', 'salta', '{}', '2026', '2026', NULL, NULL, NULL)"
        )
        rules = make("splinter", max_plies=2)  # its safeguard ends it after two moves: a draw
        state, moves = rules.initial_state(), []
        while state.outcome is None:
            moves.append(state.legal_moves()[0].text)
            state = state.apply(moves[-1])
        connection.exec_driver_sql(
            "INSERT INTO games (id, game, options, created, updated, result) VALUES "
            f"('ruled', 'splinter', '{json.dumps(rules.options)}', '2026', '2026', 'safeguard')"
        )
        for number, text in enumerate(moves, start=1):
            connection.exec_driver_sql(
                "INSERT INTO moves (game_id, number, text, played) VALUES "
                f"('ruled', {number}, '{text}', '2026')"
            )
        for game_id in ("old", "drawn", "running", "ruled"):
            connection.exec_driver_sql(
                "INSERT INTO seats (game_id, seat, kind, token, name) VALUES "
                f"('{game_id}', 0, 'human', 't0', 'Ada'), ('{game_id}', 1, 'invite', 't1', 'Bob')"
            )
    engine.dispose()
    store = GameStore(database)
    try:
        row = store.load("old")
        assert row is not None and row.rated is False and row.seats[0].account is None
        with store.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(player_ratings_table)).scalar() == 0
            winners = dict(db.exec_driver_sql("SELECT id, winner FROM games").all())
            assert winners == {"old": 1, "drawn": -1, "running": None, "ruled": -1}  # once
            assert (
                db.exec_driver_sql(
                    "SELECT COUNT(*) FROM settings WHERE name = 'winners_pending'"
                ).scalar()
                == 0
            )
        with store.engine.begin() as connection:  # and back down to 0008
            config.attributes["connection"] = connection
            command.downgrade(config, "0008")
        inspector = inspect(store.engine)
        assert not {"player_ratings", "rating_history"} & set(inspector.get_table_names())
        assert "rated" not in {c["name"] for c in inspector.get_columns("games")}
        assert "account_id" not in {c["name"] for c in inspector.get_columns("seats")}
    finally:
        store.close()


def test_time_controls_are_the_clocks_kinds() -> None:
    from ludoteca.web import clocks, rated_games

    assert rated_games.TIME_CONTROLS == (clocks.REALTIME, clocks.CORRESPONDENCE)
    for spec, control in (
        ({"initial": 60, "increment": 1}, "realtime"),
        ({"per_move": 86400}, "correspondence"),
        (None, "correspondence"),
    ):
        stored = clocks.spec_to_json(clocks.parse_spec(spec))
        assert rated_games.time_control(stored) == control


def test_the_levels_arena_elo_is_the_one_docs_ai_md_reports() -> None:
    """`LEVEL_ARENA_ELO` copies the round-robin table of docs/ai.md; they must not drift."""
    from pathlib import Path

    from ludoteca.web.rated_games import LEVEL_ARENA_ELO

    text = (Path(__file__).parents[2] / "docs" / "ai.md").read_text(encoding="utf-8")
    header = (
        "| level | Salta (4 games a pair) | Pente Grammai (200) | Salt 'n' Pepper (4) "
        "| Splinter (4) |"
    )
    rows = text.split(header, 1)[1].split("\n\n", 1)[0].strip().splitlines()[1:]
    columns = ("salta", "pente_grammai", "salt_n_pepper", "splinter")
    found: dict[str, dict[int, tuple[int, int]]] = {game: {} for game in columns}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        for game, cell in zip(columns, cells[1:], strict=True):
            elo, error = cell.replace("−", "-").replace("+", "").split("±")
            found[game][int(cells[0])] = (int(elo), int(error))
    assert found == LEVEL_ARENA_ELO
