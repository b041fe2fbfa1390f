"""``/api/lessons`` and the ``/learn`` pages, through the test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludoteca.core.lessons import course
from ludoteca.web.app import ServerSettings, create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("learn") / "games.sqlite3"
    app = create_app(db, seed=3, settings=ServerSettings(game_rate=0, hint_rate=0, warm_up=False))
    with TestClient(app) as test_client:
        yield test_client


def test_a_course_as_the_api_gives_it(client: TestClient) -> None:
    response = client.get("/api/lessons/salta")
    assert response.status_code == 200
    body = response.json()
    assert body["game"] == "salta"
    steps = course("salta").steps
    assert [s["id"] for s in body["steps"]] == [s.id for s in steps]
    first = body["steps"][0]
    assert set(first) >= {"id", "rule", "title", "text", "position", "task"}
    assert first["task"]["kind"] == "any" and ["c3-d4"] in first["task"]["solutions"]
    assert first["position"] == steps[0].position


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/api/lessons/chess", "unknown game 'chess'; accepted: "),
        ("/api/lessons/salta/nothing", "no step 'nothing'"),
    ],
)
def test_unknown_games_and_steps_are_404_with_the_reason(
    client: TestClient, path: str, message: str
) -> None:
    response = client.get(path) if path.count("/") == 3 else client.post(path, json={"moves": []})
    assert response.status_code == 404
    assert message in response.json()["error"]


def test_answers_are_checked_by_the_engine(client: TestClient) -> None:
    url = "/api/lessons/salta/jump"
    start = client.post(url, json={"moves": []}).json()
    assert start["verdict"] == "start" and start["board"]["svg"].startswith("<svg")
    assert start["board"]["click_paths"] == {"g5xi7": ["g5", "i7"]}
    wrong = client.post(url, json={"moves": ["a3-b4"]}).json()
    assert wrong["verdict"] == "refused"
    assert "a jump is compulsory; legal jumps: g5xi7" in wrong["message"]
    assert "Hint: Your Sun on g5" in wrong["message"]
    right = client.post(url, json={"moves": ["g5xi7"]}).json()
    assert right["verdict"] == "done" and right["made"] == ["g5xi7"]
    # A sequence: the scripted replies are played after a right move.
    sequence = client.post("/api/lessons/pente_grammai/six", json={"moves": ["hand-B1"]}).json()
    assert sequence["verdict"] == "right" and sequence["replies"] == ["d1", "pass", "d3"]
    # Moves after the end of a step are refused with the reason.
    late = client.post(url, json={"moves": ["a3-b4", "g5xi7"]})
    assert late.status_code == 400 and "already ended the step" in late.json()["error"]
    bad = client.post(url, json={"moves": "g5xi7"})
    assert bad.status_code == 400 and "Traceback" not in bad.text


def test_the_pages(client: TestClient) -> None:
    index = client.get("/learn")
    assert index.status_code == 200
    for name in ("Salta", "Pente Grammai", "Salt &#39;n&#39; Pepper", "Splinter", "Steppin"):
        assert name in index.text
    page = client.get("/learn/pente_grammai")
    assert page.status_code == 200 and "Learn Pente Grammai" in page.text
    missing = client.get("/learn/chess")
    assert missing.status_code == 404 and "unknown game" in missing.text
