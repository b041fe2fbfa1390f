"""Online play through the HTTP API: names, open challenges, clocks, draws, rematches.

Clocks are checked against real servers: one restarted mid-game, and two processes sharing one
database (SQLite and PostgreSQL). Concurrent accepts of one challenge run in real threads.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ludoteca.core import records
from ludoteca.web.storage import GameStore
from tests.web.server import free_port, running_server, serve_process


def named(client: TestClient | httpx.Client, name: str) -> None:
    response = client.post("/api/session/name", json={"name": name})
    assert response.status_code == 200, response.text


def post_challenge(client: TestClient | httpx.Client, **body: Any) -> dict[str, Any]:
    response = client.post("/api/challenges", json={"game": "salta", **body})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def clocked_game(client: TestClient | httpx.Client, clock: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"game": "salta", "seats": ["human", "invite"], "clock": clock}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(client: TestClient | httpx.Client, game_id: str, token: str) -> httpx.Response:
    state = client.get(f"/api/games/{game_id}").json()
    return client.post(
        f"/api/games/{game_id}/moves", json={"move": state["legal_moves"][0], "token": token}
    )


def tokens(created: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in created["seats"]]


# Clock tests assert what the server's own timestamps imply (``since``: when it acknowledged the
# change that started a clock), and order and causality against the test's own readings of the
# same wall clock: never a window of seconds that a busy machine could overrun.


def clock_of(client: TestClient | httpx.Client, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/games/{game_id}/clock").json()["clock"]
    return answer


def eventually(condition: Callable[[], Any], what: str, limit: float = 120) -> Any:
    """Poll ``condition`` until it is true and return its value. The limit is a safety net
    against a hang, far beyond anything the test waits for, not a bound on the time taken."""
    deadline = time.monotonic() + limit
    while not (value := condition()):
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)
    return value


def timed_out_seat(db: Path, game_id: str) -> int | None:
    """The seat that lost on time, read from the database (not through any server)."""
    store = GameStore(db)
    try:
        row = store.load(game_id)
    finally:
        store.close()
    assert row is not None
    return row.timed_out


# -- names ------------------------------------------------------------------------------------


def test_a_name_is_kept_with_the_session_and_shown_escaped(client: TestClient) -> None:
    assert client.get("/api/session").json() == {"name": None}
    named(client, "  <script>x()</script>  ")
    assert client.get("/api/session").json() == {"name": "<script>x()</script>"}
    page = client.get("/").text
    assert "<script>x()</script>" not in page
    assert "&lt;script&gt;x()&lt;/script&gt;" in page
    created = client.post("/api/games", json={"game": "salta", "seats": ["human", "level:1"]})
    seats = created.json()["game"]["seats"]
    assert [s["name"] for s in seats] == ["<script>x()</script>", None]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("x" * 25, "at most 24"),
        ("   ", "visible"),
        ("a\u0000b", "control"),
        ("a\u200bb", "control or invisible"),
        (5, "name"),
    ],
)
def test_bad_names_are_refused(client: TestClient, name: object, says: str) -> None:
    response = client.post("/api/session/name", json={"name": name})
    assert response.status_code == 400
    assert says in response.json()["error"]


# -- open challenges ----------------------------------------------------------------------------


def test_a_challenge_is_posted_listed_accepted_once(client: TestClient) -> None:
    named(client, "Ada")
    posted = post_challenge(client, side="Red", clock={"initial": 300, "increment": 3})
    assert posted["poster_side"] == "Red" and posted["seat"] == 1
    assert posted["clock"]["description"] == "5 min + 3 s"
    lobby = client.get("/api/lobby").json()
    assert [c["id"] for c in lobby["challenges"]] == [posted["id"]]
    assert lobby["challenges"][0]["yours"] is True
    assert "secret" not in lobby["challenges"][0]
    response = client.post(f"/api/challenges/{posted['id']}/accept", json={})
    assert response.status_code == 409 and "your own" in response.json()["error"]
    client.cookies.clear()  # another browser
    response = client.post(f"/api/challenges/{posted['id']}/accept", json={"name": "Bob"})
    assert response.status_code == 201, response.text
    game = response.json()
    assert game["id"] == posted["game_id"] and game["seat"] == 0
    assert [s["name"] for s in game["game"]["seats"]] == ["Bob", "Ada"]
    assert client.get("/api/lobby").json()["challenges"] == []
    assert [g["id"] for g in client.get("/api/lobby").json()["mine"]] == [game["id"]]
    again = client.post(f"/api/challenges/{posted['id']}/accept", json={"name": "Cy"})
    assert again.status_code == 409 and "no longer open" in again.json()["error"]
    # The poster's seat token plays.
    assert move(client, game["id"], game["token"]).status_code == 200
    assert move(client, game["id"], posted["token"]).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"game": "salta", "name": "A", "side": "Blue"}, 400, "side must be Green, Red"),
        ({"game": "salta", "name": "A", "clock": {"initial": 0}}, 400, "from 1 to 10800"),
        ({"game": "salta", "name": "A", "clock": {"per_move": 5}}, 400, "from 60"),
        ({"game": "salta", "name": "A", "clock": {"minutes": 5}}, 400, "clock must be"),
        ({"game": "salta", "name": "A", "clock": {"initial": "x"}}, 400, "number of seconds"),
        ({"game": "salta", "name": "A", "clock": {"initial": True}}, 400, "clock"),
        ({"game": "salta", "name": "A", "clock": {"initial": 1e308}}, 400, "from 1 to 10800"),
        ({"game": "salta"}, 400, "choose a display name"),
        ({"game": "steppin_stones", "name": "A"}, 400, "two players"),
        ({"game": "chess", "name": "A"}, 400, "chess"),
        ({"game": "salta", "name": "A", "colour": "Red"}, 400, "colour"),
    ],
)
def test_bad_challenges_are_refused(
    client: TestClient, body: dict[str, Any], status: int, says: str
) -> None:
    response = client.post("/api/challenges", json=body)
    assert response.status_code == status, response.text
    assert says in response.json()["error"]


def test_withdrawing_needs_the_secret(client: TestClient) -> None:
    posted = post_challenge(client, name="Ada")
    url = f"/api/challenges/{posted['id']}/withdraw"
    assert client.post(url, json={"secret": "wrong"}).status_code == 403
    assert client.post(url, json={"secret": posted["secret"]}).json()["status"] == "withdrawn"
    assert client.post(url, json={"secret": posted["secret"]}).status_code == 409
    client.cookies.clear()
    taken = client.post(f"/api/challenges/{posted['id']}/accept", json={"name": "Bob"})
    assert taken.status_code == 409
    assert client.post("/api/challenges/nope/accept", json={"name": "B"}).status_code == 404


def test_concurrent_accepts_give_the_game_to_exactly_one(database: str, tmp_path: Path) -> None:
    """Eight browsers on two server processes accept one challenge at the same moment."""
    with running_server(database, seed=1) as one, running_server(database, seed=2) as two:
        with httpx.Client(base_url=one) as poster:
            posted = post_challenge(poster, name="Ada", side="Green")
        barrier = threading.Barrier(8)
        answers: list[int] = []

        def accept(index: int) -> None:
            with httpx.Client(base_url=one if index % 2 else two, timeout=30) as browser:
                barrier.wait()
                response = browser.post(
                    f"/api/challenges/{posted['id']}/accept", json={"name": f"P{index}"}
                )
                answers.append(response.status_code)

        threads = [threading.Thread(target=accept, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [201] + [409] * 7, answers
        game = httpx.get(f"{two}/api/games/{posted['game_id']}").json()
        assert game["seats"][0]["name"] == "Ada" and game["seats"][1]["name"].startswith("P")


# -- clocks ---------------------------------------------------------------------------------


def test_the_clock_charges_the_time_between_acknowledgements(client: TestClient) -> None:
    created = clocked_game(client, {"initial": 60, "increment": 2})
    game_id = created["id"]
    green, red = tokens(created)
    clock = client.get(f"/api/games/{game_id}/clock").json()["clock"]
    assert clock["running"] is None and clock["left"] == [60, 60]  # none runs before move 1
    assert move(client, game_id, green).status_code == 200
    red_started = clock_of(client, game_id)["since"]
    time.sleep(0.4)
    assert move(client, game_id, red).status_code == 200
    clock = client.get(f"/api/games/{game_id}/clock").json()["clock"]
    assert clock["running"] == 0
    assert clock["remaining"][0] == 60  # the first move is not charged
    spent = clock["since"] - red_started  # from Green's acknowledgement to Red's
    assert spent >= 0.4
    assert clock["remaining"][1] == pytest.approx(60 - spent + 2, abs=1e-6)
    bad = client.post("/api/games", json={"game": "salta", "clock": {"initial": -1}})
    assert bad.status_code == 400 and "from 1 to 10800" in bad.json()["error"]


def test_computer_seats_have_no_clock(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={"game": "salta", "seats": ["human", "random"], "clock": {"per_move": 86400}},
    ).json()
    game_id = created["id"]
    assert move(client, game_id, tokens(created)[0]).status_code == 200
    clock = client.get(f"/api/games/{game_id}/clock").json()["clock"]
    assert clock["remaining"][1] is None and clock["description"] == "1 day per move"
    state = client.get(f"/api/games/{game_id}").json()
    assert state["draw_possible"] is False
    answer = client.post(f"/api/games/{game_id}/draw", json={"token": tokens(created)[0]})
    assert answer.status_code == 409 and "computer" in answer.json()["error"]


def test_a_flag_ends_the_game_on_time_and_is_saved(tmp_path: Path) -> None:
    """The server's own timer flags the clock: nobody needs to look at the game."""
    db = tmp_path / "games.sqlite3"
    with running_server(db) as base, httpx.Client(base_url=base) as client:
        created = clocked_game(client, {"initial": 1, "increment": 0})
        game_id = created["id"]
        green, red = tokens(created)
        assert move(client, game_id, green).status_code == 200
        flag_at = clock_of(client, game_id)["flag_at"]
        assert eventually(lambda: timed_out_seat(db, game_id) is not None, "the flag") is True
        assert time.time() >= flag_at  # never before Red's second ran out
        assert timed_out_seat(db, game_id) == 1
        late = client.post(f"/api/games/{game_id}/moves", json={"move": "h8-g7", "token": red})
        assert late.status_code == 409 and "time out" in late.json()["error"]
        text = client.get(f"/api/games/{game_id}/record").text
        record = records.loads(text)
        assert record.ending == {"time out": 1}
        assert record.outcome is not None and record.outcome.winner == 0


def test_clocks_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with running_server(db) as base, httpx.Client(base_url=base) as client:
        created = clocked_game(client, {"initial": 30, "increment": 2})
        game_id = created["id"]
        green, red = tokens(created)
        assert move(client, game_id, green).status_code == 200
        moved = time.time()
        red_started = clock_of(client, game_id)["since"]
    assert red_started <= moved
    time.sleep(1.0)  # the server is down: Red's clock runs on
    with running_server(db) as base, httpx.Client(base_url=base) as client:
        clock = client.get(f"/api/games/{game_id}/clock").json()["clock"]
        assert clock["running"] == 1 and clock["since"] == red_started
        assert clock["now"] - red_started >= 1.0  # it ran on while the server was down
        assert clock["left"][0] == 30
        assert clock["left"][1] == pytest.approx(30 - (clock["now"] - red_started), abs=1e-6)
        assert move(client, game_id, red).status_code == 200
        after = client.get(f"/api/games/{game_id}/clock").json()["clock"]
        spent = after["since"] - red_started  # the time the server was down included
        assert spent >= 1.0
        assert after["remaining"][1] == pytest.approx(32 - spent, abs=1e-6)


def test_clocks_with_two_server_processes(database: str) -> None:
    """A move on one process starts the clock that the other process charges and flags."""
    with (
        running_server(database, seed=1) as one,
        running_server(database, seed=2) as two,
        httpx.Client(base_url=one) as first,
        httpx.Client(base_url=two) as second,
    ):
        created = clocked_game(first, {"initial": 2, "increment": 1})
        game_id = created["id"]
        green, red = tokens(created)
        assert move(first, game_id, green).status_code == 200
        red_started = clock_of(first, game_id)["since"]
        time.sleep(0.3)
        assert move(second, game_id, red).status_code == 200
        clock = clock_of(first, game_id)
        assert clock["running"] == 0
        spent = clock["since"] - red_started  # Red's time, charged by the other process
        assert spent >= 0.3
        assert clock["remaining"][1] == pytest.approx(2 - spent + 1, abs=1e-6)
        assert clock["flag_at"] == pytest.approx(clock["since"] + clock["remaining"][0])
        # Green's time runs out; both processes see the same end, and not before it.
        for client in (first, second):
            outcome = eventually(
                lambda client=client: client.get(f"/api/games/{game_id}").json()["outcome"],
                "the flag",
            )
            assert time.time() >= clock["flag_at"]
            assert outcome["timed_out"] == 0
            assert outcome["reason"] == "Green ran out of time (time out)"


# -- draws and rematches --------------------------------------------------------------------


def test_draw_offers_and_rematch(client: TestClient) -> None:
    created = clocked_game(client, {"initial": 600, "increment": 5})
    game_id = created["id"]
    green, red = tokens(created)
    draw = f"/api/games/{game_id}/draw"
    assert client.post(draw, json={"token": red, "action": "accept"}).status_code == 409
    offered = client.post(draw, json={"token": green}).json()
    assert offered["draw_offer"] == 0 and offered["draw_possible"] is True
    assert client.post(draw, json={"token": green}).status_code == 409
    assert client.post(draw, json={"token": red, "action": "decline"}).json()["draw_offer"] is None
    assert client.post(draw, json={"token": red, "action": "maybe"}).status_code == 400
    client.post(draw, json={"token": red})
    assert move(client, game_id, green).status_code == 200  # a move declines the offer
    assert client.get(f"/api/games/{game_id}").json()["draw_offer"] is None
    rematch = f"/api/games/{game_id}/rematch"
    assert client.post(rematch, json={"token": green}).status_code == 409  # not over yet
    client.post(draw, json={"token": red})
    ended = client.post(draw, json={"token": green, "action": "accept"}).json()
    assert ended["outcome"]["reason"] == "draw agreed by the players"
    assert ended["clock"]["running"] is None
    assert client.post(rematch, json={"token": red}).json() == {
        "rematch": None,
        "offered_by": 1,
        "rated": False,  # the rematch of a casual game is casual
    }
    made = client.post(rematch, json={"token": green}).json()
    again = client.post(rematch, json={"token": red}).json()
    assert made["rematch"] == again["rematch"] and made["seat"] == 1 and again["seat"] == 0
    new = client.get(f"/api/games/{made['rematch']}").json()
    assert new["clock"]["initial"] == 600 and new["ply"] == 0
    assert move(client, made["rematch"], again["token"]).status_code == 200  # Red is Green now
    assert client.get(f"/api/games/{game_id}").json()["rematch"] == made["rematch"]
    record = records.loads(client.get(f"/api/games/{game_id}/record").text)
    assert record.ending == {"agreed": "draw"}


def test_undo_keeps_the_time_spent(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={"game": "salta", "seats": ["human", "human"], "clock": {"initial": 60}},
    ).json()
    game_id = created["id"]
    green, red = tokens(created)
    assert move(client, game_id, green).status_code == 200
    red_started = clock_of(client, game_id)["since"]
    time.sleep(0.3)
    assert move(client, game_id, red).status_code == 200
    spent = clock_of(client, game_id)["since"] - red_started
    assert spent >= 0.3
    undone = client.post(f"/api/games/{game_id}/undo", json={"token": red}).json()
    assert undone["ply"] == 1 and undone["clock"]["running"] == 1
    assert undone["clock"]["remaining"][1] == pytest.approx(60 - spent, abs=1e-6)  # stays spent


def _salta_is_ready(base: str, process: subprocess.Popen[str]) -> bool:
    """Whether the server answers and Salta is ready (it is prepared while the server runs).
    A server that has stopped fails the test at once, with what it printed."""
    if process.poll() is not None:
        _, errors = process.communicate()
        pytest.fail(f"the server at {base} stopped (exit code {process.returncode}):\n{errors}")
    try:
        lobby = httpx.get(f"{base}/api/lobby")
    except httpx.TransportError:
        return False
    return lobby.status_code == 200 and "salta" not in lobby.json()["preparing"]


@pytest.mark.slow
@pytest.mark.timeout(900)  # two processes that may compile every game's kernels at start-up
def test_clocks_across_two_serve_processes_one_killed(tmp_path: Path) -> None:
    """Two `ludoteca serve` processes on one database; the one that took the last move is
    killed (SIGKILL); the other flags the clock by itself, nobody reading the game."""
    ports = [free_port(), free_port()]
    processes = [serve_process(port, tmp_path / "data") for port in ports]
    one, two = (f"http://127.0.0.1:{port}" for port in ports)
    try:
        for base, process in zip((one, two), processes, strict=True):
            eventually(
                lambda base=base, process=process: _salta_is_ready(base, process),
                f"{base} to serve Salta",
                600,
            )
        with httpx.Client(base_url=one) as first, httpx.Client(base_url=two) as second:
            created = clocked_game(first, {"initial": 3, "increment": 1})
            game_id = created["id"]
            green, red = tokens(created)
            assert move(second, game_id, green).status_code == 200
            red_started = clock_of(second, game_id)["since"]
            time.sleep(0.5)
            assert move(first, game_id, red).status_code == 200
            clock = clock_of(second, game_id)
            spent = clock["since"] - red_started
            assert clock["running"] == 0 and spent >= 0.5
            assert clock["remaining"][1] == pytest.approx(3 - spent + 1, abs=1e-6)
        processes[0].kill()  # the process that acknowledged Red's move dies
        processes[0].wait(timeout=20)
        # Green's 3 s run out; process two's timer flags it, nobody reading the game.
        db = tmp_path / "data" / "ludoteca" / "games.sqlite3"
        eventually(lambda: timed_out_seat(db, game_id) is not None, "the flag")
        assert time.time() >= clock["flag_at"]
        assert timed_out_seat(db, game_id) == 0
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=20)
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
