"""A game from outside Ludoteca (tests/example_game/ludoteca_nim) plugs in without editing it.

In this process it registers with `ludoteca.register`; in a subprocess it registers through a
real ``ludoteca.games`` entry point (a ``*.dist-info`` folder on a temporary path), as an
installed plug-in does. Either way it plays through the CLI (``play``, ``arena``), passes the
conformance check and shows in the web lobby with its declared colours.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from ludoteca.cli import main
from ludoteca.core import check_declaration
from ludoteca.core.conformance import check_game
from ludoteca.core.registry import RegistrationError, make, unregister
from ludoteca.web.app import ServerSettings, create_app

EXAMPLE = Path(__file__).resolve().parents[1] / "example_game"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Any]:
    """The example game, registered with `ludoteca.register` for this test only."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    import ludoteca_nim

    ludoteca.register(ludoteca_nim.NimGame)
    try:
        yield ludoteca_nim.NimGame
    finally:
        unregister("nim")


def test_register_makes_the_game_known_everywhere(nim: Any) -> None:
    assert "nim" in ludoteca.game_ids()
    assert "nim" not in ludoteca.GAMES  # the built-in games stay as they are
    game = ludoteca.make("nim", pile=10)
    assert game.initial_state().apply("t2").to_text() == "8 1 1"
    assert ludoteca.register(nim) is nim  # registering again changes nothing


def test_the_example_game_passes_conformance_and_its_declaration_check(nim: Any) -> None:
    check_game(ludoteca.make("nim"), games=5, seed=2)
    check_game(ludoteca.make("nim", pile=40, max_take=5), games=3, seed=7)
    check_declaration(ludoteca.make("nim"))


def test_the_example_game_plays_through_the_cli(
    nim: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games"]) == 0
    assert "Nim" in capsys.readouterr().out
    assert main(["play", "nim", "--p0", "level:5", "--p1", "random", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "First took the last counter" in out  # perfect play wins from 15 counters
    arena = ["arena", "nim", "expert", "random", "--games", "4", "--jobs", "1", "--no-save"]
    assert main([*arena, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "nim" and len(report["results"]) == 4
    best = report["standings"][0]
    assert best["spec"] == "expert" and best["score"] >= 0.75


def test_the_web_lobby_lists_the_example_game_with_its_colours(nim: Any, tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, hint_rate=0, warm_up=False)
    with TestClient(create_app(tmp_path / "games.sqlite3", seed=1, settings=settings)) as client:
        lobby = client.get("/")
        assert lobby.status_code == 200
        assert "Nim" in lobby.text and "game-nim" in lobby.text  # the entry and its picture
        css = client.get("/styles/games.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
        assert "svg.board.game-nim .piece-amber .body { fill: #e0a030; }" in css.text
        green = next(style for style in make("salta").info.piece_styles if style.name == "green")
        assert f"svg.board.game-salta .piece-green .body {{ fill: {green.fill}; }}" in css.text
        created = client.post("/api/games", json={"game": "nim", "seats": ["human", "level:5"]})
        assert created.status_code in (200, 201), created.text
        rules = client.get("/rules/nim")
        assert rules.status_code == 200 and "who takes the last counter wins" in rules.text


@pytest.mark.slow  # starts a search worker, which loads every game's kernels
def test_the_servers_search_workers_know_a_registered_game(nim: Any, tmp_path: Path) -> None:
    settings = ServerSettings(game_rate=0, hint_rate=0, warm_up=False)
    with TestClient(create_app(tmp_path / "games.sqlite3", seed=1, settings=settings)) as client:
        created = client.post("/api/games", json={"game": "nim", "seats": ["level:5", "human"]})
        assert created.status_code in (200, 201), created.text
        game_id = created.json()["id"]
        deadline = time.monotonic() + 60
        state = client.get(f"/api/games/{game_id}").json()
        while state["ply"] < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
            state = client.get(f"/api/games/{game_id}").json()
        assert state["ply"] == 1, state
        assert state["moves"][0]["text"] == "t3"  # perfect play leaves 12 of 15


def test_a_game_id_that_is_taken_is_refused(nim: Any) -> None:
    class OtherNim(nim):  # type: ignore[misc, valid-type]
        pass

    with pytest.raises(RegistrationError, match="'nim' is taken"):
        ludoteca.register(OtherNim)

    class FakeSalta(nim):  # type: ignore[misc, valid-type]
        id = "salta"

    with pytest.raises(RegistrationError, match="'salta' is taken"):
        ludoteca.register(FakeSalta)


def test_a_bad_declaration_is_refused_with_every_problem(nim: Any) -> None:
    class BadNim(nim):  # type: ignore[misc, valid-type]
        id = "bad_nim"
        info = ludoteca.GameInfo(
            rollout_plies=4,  # no evaluate to score where rollouts stop
            levels=ludoteca.core.levels_with(
                {5: ludoteca.core.LevelSetting("strongest", "expert", 0)}  # no expert
            ),
            piece_styles=(ludoteca.core.PieceStyle("amber", "red; } body { x: y"),),
        )

    with pytest.raises(RegistrationError) as refused:
        ludoteca.register(BadNim)
    message = str(refused.value)
    assert "no evaluate" in message
    assert "level 5 plays the expert, but the game declares no expert" in message
    assert "is not a CSS colour" in message
    with pytest.raises(RegistrationError, match="not a subclass of ludoteca.Game"):
        ludoteca.register(dict)  # type: ignore[arg-type]


def _plugin_path(tmp_path: Path, entry_points: str, modules: dict[str, str]) -> dict[str, str]:
    """A folder with an installed distribution's metadata, and the environment that sees it."""
    dist_info = tmp_path / "site" / "ludoteca_nim-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: ludoteca-nim\nVersion: 1.0\n")
    (dist_info / "entry_points.txt").write_text(f"[ludoteca.games]\n{entry_points}\n")
    for name, source in modules.items():
        (tmp_path / "site" / f"{name}.py").write_text(textwrap.dedent(source))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "site"), str(EXAMPLE), str(ROOT)])
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    return env


def _run(env: dict[str, str], script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def test_an_entry_point_registers_the_game_in_a_fresh_process(tmp_path: Path) -> None:
    env = _plugin_path(tmp_path, "nim = ludoteca_nim:NimGame", {})
    result = _run(
        env,
        """
        import ludoteca
        from ludoteca.cli import main
        from ludoteca.core.conformance import check_game
        from ludoteca.web.catalogue import entries

        assert ludoteca.GAMES == ("pente_grammai", "salt_n_pepper", "salta", "splinter",
                                  "steppin_stones"), ludoteca.GAMES
        assert "nim" in ludoteca.game_ids()
        check_game(ludoteca.make("nim"), games=3)
        assert "Nim" in [entry.name for entry in entries()]
        assert main(["games"]) == 0
        assert main(["play", "nim", "--p0", "level:5", "--p1", "level:2", "--seed", "1"]) == 0
        assert main(["arena", "nim", "expert", "random", "--games", "2", "--no-save"]) == 0
        """,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "warning" not in result.stderr
    assert "Nim" in result.stdout and "First took the last counter" in result.stdout


def test_broken_plug_ins_are_left_out_with_a_warning_naming_the_entry_point(
    tmp_path: Path,
) -> None:
    env = _plugin_path(
        tmp_path,
        "\n".join(
            [
                "nim = ludoteca_nim:NimGame",
                "missing = no_such_module:Game",
                "crashes = crashing_plugin:Game",
                "not_a_game = ludoteca_nim:heuristics",
                "salta = duplicate_plugin:SaltaAgain",
                "wrong_name = ludoteca_nim:NimGame",
                "bad_nim = bad_plugin:BadNim",
            ]
        ),
        {
            "crashing_plugin": "raise RuntimeError('the plug-in is broken')\n",
            "duplicate_plugin": """
                from ludoteca_nim import NimGame
                class SaltaAgain(NimGame):
                    id = "salta"
            """,
            "bad_plugin": """
                from ludoteca.core import GameInfo, View
                from ludoteca_nim import NimGame
                class BadNim(NimGame):
                    id = "bad_nim"
                    info = GameInfo(view=View(click_paths=lambda state: {}))
            """,
        },
    )
    games = subprocess.run(
        [sys.executable, "-m", "ludoteca", "games"],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert games.returncode == 0, games.stderr
    assert "Traceback" not in games.stderr
    warnings = [line for line in games.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 6, games.stderr
    for name, why in [
        ("missing", "cannot import it: ModuleNotFoundError"),
        ("crashes", "cannot import it: RuntimeError: the plug-in is broken"),
        ("not_a_game", "is not a subclass of ludoteca.Game"),
        ("salta", "the game id 'salta' is taken"),
        ("wrong_name", "the entry point's name must be the game id 'nim'"),
        ("bad_nim", "view.click_paths needs view.drawing"),
    ]:
        assert any(f"entry point '{name}'" in line and why in line for line in warnings), name
    assert "from ludoteca-nim 1.0" in warnings[0]
    assert "Nim" in games.stdout and "Salta" in games.stdout  # the good ones are all there
    # The web server starts anyway, and the Python API warns instead of failing.
    result = _run(
        env,
        """
        import warnings
        import ludoteca
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ids = ludoteca.game_ids()
        assert "nim" in ids and "bad_nim" not in ids, ids
        assert len([w for w in caught if w.category.__name__ == "PluginWarning"]) == 6
        from ludoteca.web.app import ServerSettings, create_app
        import sys
        create_app(sys.argv[1], settings=ServerSettings(warm_up=False))
        """,
        str(tmp_path / "games.sqlite3"),
    )
    assert result.returncode == 0, result.stderr
