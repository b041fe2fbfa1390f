"""The ``ludoteca`` command, driven as a person would: typed lines in, text out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import ludoteca
from ludoteca import records
from ludoteca.ai import RandomAgent
from ludoteca.cli.play import PlaySession, Seat
from tests.core.toy_games import ToyDiceGame
from tests.support import flat, run, typed


def test_games_lists_salta_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["games"])
    assert status == 0
    assert "salta" in out and "move_limit=120" in out


def test_rules_shows_the_rules_page(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["rules", "salta"])
    assert status == 0
    assert "Büttgenbach" in out and "120" in out


def test_an_unknown_game_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ["play", "chess"])
    assert status == 2
    assert "unknown game 'chess'; accepted: " in err and "salta" in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "salta", "--option", "scoring=fast"], "accepted: one of played, simplified"),
        (["play", "salta", "--option", "scoring"], "name=value"),
        (["play", "salta", "--p1", "grandmaster"], "unknown agent 'grandmaster'"),
        (["replay", "missing.json"], "cannot read saved game"),
        (["bench", "--option", "goal=ludii"], "--option needs a game id"),
        (["bench", "salta", "--seconds", "0"], "--seconds must be a number of seconds above 0"),
        (["bench", "salta", "--seconds", "nan"], "--seconds must be a number of seconds above 0"),
        (["bench", "salta", "--seconds", "inf"], "--seconds must be a number of seconds above 0"),
        (["bench", "chess"], "unknown game 'chess'; accepted: "),
        (["bench", "--game", "chess"], "unknown game 'chess'; accepted: "),
        (["bench", "salta", "splinter", "-o", "goal=ludii"], "--option needs a game id"),
        (["bench", "salta", "-o", "scoring=fast"], "accepted: one of played, simplified"),
        (["bench", "salta", "--search-seconds", "0"], "--search-seconds must be a number of"),
        (["bench", "salta", "--search-seconds", "nan"], "--search-seconds must be a number of"),
        (["bench", "--cold", "chess"], "unknown game 'chess'"),
        (["bench", "--cold", "salta", "-o", "goal=ludii"], "--cold measures compiling"),
    ],
)
def test_bad_input_is_reported_without_a_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, argv)
    assert status == 2
    assert message in err
    assert "Traceback" not in err + out


def test_a_human_plays_against_the_random_agent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    status, out, _ = run(
        capsys,
        ["play", "salta", "--p1", "random", "--seed", "3"],
        "moves",
        "c3-e5",
        "z9-a1",
        "c3-d4",
        f"save {saved}",
        "quit",
    )
    assert status == 0
    assert "9 legal moves:\n  c3-  d4  b4\n" in out  # grouped by the square they start from
    assert "a step goes exactly 1 square diagonally" in flat(out)
    assert "squares run from a1 to j10" in flat(out)
    assert "Red (random) played" in out
    record = records.load(saved)
    assert record.moves[0] == "c3-d4" and len(record.moves) == 2
    assert record.players == ("human", "random")


def test_an_illegal_move_leaves_the_game_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["play", "salta"], "c3-c4", "moves")
    assert status == 0
    assert "a step goes exactly 1 square diagonally" in flat(out)
    assert "9 legal moves:\n  c3-  d4  b4\n" in out  # still Green's opening moves


def test_undo_against_the_computer_takes_back_the_reply_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "undone.json"
    run(
        capsys, ["play", "salta", "--p1", "random", "--seed", "1"], "c3-d4", "undo", f"save {saved}"
    )
    assert records.load(saved).moves == ()


def test_undo_between_two_people_takes_back_one_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "two.json"
    _, out, _ = run(capsys, ["play", "salta"], "undo", "c3-d4", "h8-g7", "undo", f"save {saved}")
    assert "Nothing to undo" in out
    assert records.load(saved).moves == ("c3-d4",)


def test_a_saved_game_can_be_continued(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    run(capsys, ["play", "salta"], "c3-d4", f"save {saved}")
    _, out, _ = run(capsys, ["play", "--load", str(saved)], "h8-g7", f"save {saved}")
    assert "Red to move" in out
    assert records.load(saved).moves == ("c3-d4", "h8-g7")


def test_saving_to_an_impossible_place_keeps_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out, _ = run(capsys, ["play", "salta"], f"save {tmp_path}/no/such/dir/g.json", "c3-d4")
    assert "Could not save" in out
    assert "Red to move" in out


def test_computer_against_computer_plays_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "play",
        "salta",
        "--p0",
        "random",
        "--p1",
        "random",
        "--seed",
        "2",
        "--option",
        "move_limit=5",
        "--option",
        "scoring=simplified",
    ]
    status, out, _ = run(capsys, argv)
    assert status == 0
    assert "Game over." in out and "simplified scoring" in out


def test_after_the_end_a_person_can_save(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "end.json"
    argv = [
        "play",
        "salta",
        "--p1",
        "random",
        "--seed",
        "2",
        "--option",
        "move_limit=1",
        "--option",
        "scoring=simplified",
    ]
    _, out, _ = run(capsys, argv, "c3-d4", "c3-d4", f"save {saved}", "quit")
    assert "The game is over" in out
    assert records.load(saved).outcome is not None


def test_replay_steps_through_a_saved_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "g.json"
    run(capsys, ["play", "salta"], "c3-d4", "h8-g7", f"save {saved}")
    status, out, _ = run(capsys, ["replay", str(saved)], "", "", "", "b", "0", "x", "q")
    assert status == 0
    assert "Ply 1 · 1. c3-d4" in out and "Ply 2 · 2. h8-g7" in out
    assert "That was the last move" in out and "Not understood: x" in out
    status, out, _ = run(capsys, ["replay", str(saved), "--all"])
    assert out.count("Ply ") == 2


def test_replay_refuses_a_tampered_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    run(capsys, ["play", "salta"], "c3-d4", f"save {saved}")
    data = json.loads(saved.read_text())
    data["moves"] = ["c3-d5"]
    saved.write_text(json.dumps(data))
    status, _, err = run(capsys, ["replay", str(saved)])
    assert status == 2
    assert "move 1 ('c3-d5') cannot be replayed" in err


def test_the_picker_asks_for_game_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    salta = str(ludoteca.GAMES.index("salta") + 1)
    status, out, _ = run(capsys, ["play"], "77", salta, "2", "9", "2", "", "moves", "quit")
    assert status == 0
    assert "Please type a number from 1 to" in out
    assert "Please type a number from 1 to 6" in out
    assert "Salta — Green: human, Red: level:2" in out
    assert "9 legal moves:" in out and "  a3-b4\n" in out


class TestDice:
    """Chance nodes in the terminal, shown with a toy dice game."""

    def session(self, *lines: str, manual: bool) -> tuple[PlaySession, Console]:
        console = Console(record=True, width=100)
        seats = [Seat("human"), Seat("random", RandomAgent(1))]
        game = ToyDiceGame()
        return PlaySession(
            game, seats, console=console, read_line=typed(*lines), seed=7, manual_dice=manual
        ), console

    def test_the_program_rolls_seeded_dice(self) -> None:
        session, console = self.session("advance", "quit", manual=False)
        session.run()
        text = console.export_text()
        # The toy game declares no words for its outcomes: the generic ones.
        assert "Chance: first-" in text and "Chance: r" in text

    def test_manual_dice_are_typed_in_and_checked(self, capsys: pytest.CaptureFixture[str]) -> None:
        session, console = self.session("first-0", "r7", "r2", "advance", "quit", manual=True)
        session.run()
        text = console.export_text()
        assert "type the result (who starts: 0 or " in capsys.readouterr().out
        assert "'r7' is not a roll here; type 1 to 3, or r1 to r3" in text  # roll forms only
        assert session.history[2][1].text == "advance"
        assert session.state.to_text().startswith("2 0")

    def test_undo_keeps_the_dice_already_rolled(self) -> None:
        session, _ = self.session("first-0", "r3", "wait", "r1", "undo", "quit", manual=True)
        session.run()
        assert [move.text for _, move in session.history] == ["first-0", "r3"]


@pytest.mark.parametrize(
    "command",
    [[str(Path(sys.executable).parent / "ludoteca")], [sys.executable, "-m", "ludoteca"]],
    ids=["script", "module"],
)
def test_the_installed_command_runs_as_a_program(command: list[str]) -> None:
    completed = subprocess.run(
        [*command, "play", "salta", "--p1", "random"],
        input="c3-d4\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Red (random) played" in completed.stdout


def test_manual_dice_with_many_outcomes_are_summarised(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["play", "steppin_stones", "--dice", "manual"], "quit")
    assert status == 0
    assert "like S5 M5 C5 A5 or 5555; 1296 outcomes" in out


def test_a_game_between_computers_can_be_saved_at_the_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "bots.json"
    argv = [
        "play",
        "pente_grammai",
        "--p0",
        "random",
        "--p1",
        "random",
        "--seed",
        "5",
        "--save",
        str(saved),
    ]
    status, out, _ = run(capsys, argv)
    assert status == 0
    record = records.load(saved)
    assert record.outcome is not None and record.players == ("random", "random")
    assert record.moves[0].startswith("first-") and f"Saved {len(record.moves)} moves" in out
