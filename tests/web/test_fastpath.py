"""The move fast path answers exactly as the documented FastAPI route would."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ludoteca.web.fastpath import _well_formed


def test_only_requests_the_api_takes_as_they_are_are_well_formed() -> None:
    assert _well_formed(b'{"move": "c3-d4", "token": "abc"}') == ("c3-d4", "abc", None)
    assert _well_formed(b'{"move": "c3-d4", "token": "abc", "ply": 3}') == ("c3-d4", "abc", 3)
    for body in (
        b"not json",
        b"[1, 2]",
        b'{"move": "c3-d4"}',
        b'{"move": "c3-d4", "token": "abc", "colour": 1}',
        b'{"move": 5, "token": "abc"}',
        b'{"move": "c3-d4", "token": "abc", "ply": "3"}',
        b'{"move": "c3-d4", "token": "abc", "ply": true}',
        b'{"move": "c3-d4", "token": "abc", "ply": -1}',
        b'{"move": "c3-d4", "token": "abc", "ply": 10000000000}',
        b'{"move": "' + b"x" * 201 + b'", "token": "abc"}',
    ):
        assert _well_formed(body) is None, body  # left to the FastAPI route to word the error


def _play(client: TestClient, game: dict[str, Any], body: dict[str, Any], query: str = "") -> Any:
    return client.post(f"/api/games/{game['id']}/moves{query}", json=body)


def test_the_fast_and_the_documented_paths_answer_alike(client: TestClient) -> None:
    fast = client.post("/api/games", json={"game": "salta", "seats": ["human", "human"]}).json()
    slow = client.post("/api/games", json={"game": "salta", "seats": ["human", "human"]}).json()
    green_fast, green_slow = fast["seats"][0]["token"], slow["seats"][0]["token"]
    red_fast, red_slow = fast["seats"][1]["token"], slow["seats"][1]["token"]
    # ply 0.0 is taken by the API as 0 but is not well formed for the fast path: the slow path.
    a = _play(client, fast, {"move": "c3-d4", "token": green_fast, "ply": 0})
    b = _play(client, slow, {"move": "c3-d4", "token": green_slow, "ply": 0.0})
    assert a.status_code == b.status_code == 200
    strip = ("id", "created", "updated", "now")
    assert {k: v for k, v in a.json().items() if k not in strip} == {
        k: v for k, v in b.json().items() if k not in strip
    }
    for token_fast, token_slow, move, status in (
        (green_fast, green_slow, "d4-e5", 409),  # not your turn
        (red_fast, red_slow, "h8-h7", 409),  # illegal
        (red_fast, red_slow, "nonsense", 400),
        ("x" * 24, "x" * 24, "h8-g7", 403),
    ):
        a = _play(client, fast, {"move": move, "token": token_fast, "ply": 1})
        b = _play(client, slow, {"move": move, "token": token_slow, "ply": 1.0})
        assert a.status_code == b.status_code == status, (a.text, b.text)
        assert a.json() == b.json() and set(a.json()) == {"error"}
    with_board = _play(client, fast, {"move": "h8-g7", "token": red_fast}, "?board=true").json()
    assert with_board["board"]["last_move"] == "h8-g7" and with_board["ply"] == 2
    assert "board" not in _play(client, slow, {"move": "h8-g7", "token": red_slow}).json()
    missing = client.post("/api/games/nosuchgame/moves", json={"move": "c3-d4", "token": "t"})
    assert missing.status_code == 404 and "no game" in missing.json()["error"]
    assert missing.headers["X-Frame-Options"] == "DENY"  # the headers wrap the fast path too
