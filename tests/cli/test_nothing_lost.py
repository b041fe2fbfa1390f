"""The terminal never loses a game: autosave, --resume, interrupts, safe saves, --load.

Each test names the case it pins down; XDG_DATA_HOME points at a fresh folder (conftest.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

import ludoteca
from ludoteca import records
from ludoteca.ai import Agent
from ludoteca.cli import autosave
from ludoteca.cli.play import PlaySession, Seat
from ludoteca.core.game import Move, State
from tests.support import flat, run, run_combined, typed


def autosaves(data: Path) -> list[Path]:
    """The autosave files under the data folder ``data``."""
    return sorted((data / "ludoteca" / "autosave").glob("*.json"))


# -- 1. interrupts and quitting keep the game --------------------------------------------------


class InterruptedThinker(Agent):
    """A computer player whose think is cut short by Ctrl+C."""

    name = "thinker"

    def _choose(self, state: State) -> Move:
        raise KeyboardInterrupt


def test_ctrl_c_during_a_computer_think_keeps_the_game_and_resume_continues_it(
    capsys: pytest.CaptureFixture[str], private_data_folder: Path
) -> None:
    game = ludoteca.make("salta")
    path = autosave.new_path(game)
    console = Console(record=True, width=80)
    session = PlaySession(
        game,
        [Seat("human"), Seat("level:2", InterruptedThinker())],
        console=console,
        read_line=typed("c3-d4", "h8-g7"),
        autosave_path=path,
    )
    assert session.run() == 130
    text = console.export_text()
    assert "Interrupted." in text and f"autosaved in {path}" in flat(text)
    assert "ludoteca play --resume" in text
    assert records.load(path).moves == ("c3-d4",)
    assert records.load(path).players == ("human", "level:2")
    status, out = run_combined(capsys, ["play", "--resume", "--p1", "human"], "", "moves", "quit")
    assert status == 0
    assert "Salta (Green: human, Red: level:2) · 1 move · last played" in out
    assert "Red to move>" in out  # the same ply: Red answers c3-d4
    assert records.load(path).moves == ("c3-d4",)  # continued in the same file


def _hear_ctrl_c() -> None:
    """Restore the default SIGINT action in the child (a background test run ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM], ids=["int", "term"])
def test_a_real_signal_during_a_think_leaves_a_resumable_game(
    private_data_folder: Path, tmp_path: Path, signal_number: int
) -> None:
    command = [sys.executable, "-m", "ludoteca", "play", "salta"]
    command += ["--p1", "mcts:seconds=30", "--save", str(tmp_path / "cc4.json")]
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_DATA_HOME": str(private_data_folder)},
        preexec_fn=_hear_ctrl_c,
    )
    assert process.stdin is not None
    process.stdin.write("c3-d4\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        # the autosave after c3-d4 is written before the computer starts to think
        files = autosaves(private_data_folder)
        if files and records.load(files[0]).moves == ("c3-d4",):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(signal_number)
    out, err = process.communicate(timeout=60)
    assert process.returncode == (130 if signal_number == signal.SIGINT else 143), err
    assert "Interrupted." in out and "autosaved in" in out and "Traceback" not in err
    assert records.load(autosaves(private_data_folder)[0]).moves == ("c3-d4",)
    assert records.load(tmp_path / "cc4.json").moves == ("c3-d4",)  # --save is written too


@pytest.mark.parametrize("leave", ["quit", None], ids=["quit", "ctrl-d"])
def test_leaving_an_unfinished_game_says_it_is_autosaved_and_how_to_resume(
    capsys: pytest.CaptureFixture[str], private_data_folder: Path, leave: str | None
) -> None:
    lines = ["c3-d4", "h8-g7", *([leave] if leave else [])]
    status, out = run_combined(capsys, ["play", "salta"], *lines)
    assert status == 0
    (path,) = autosaves(private_data_folder)
    assert f"The game is autosaved in {path}" in flat(out)
    assert "Continue it with: ludoteca play --resume" in out
    assert records.load(path).moves == ("c3-d4", "h8-g7")


def test_ctrl_c_at_a_manual_roll_keeps_the_game(private_data_folder: Path) -> None:
    game = ludoteca.make("pente_grammai", first=0)
    path = autosave.new_path(game)

    def read_line(prompt: str) -> str:
        if prompt.startswith("Roll:") and "d4" in session.record().moves:
            raise KeyboardInterrupt
        return "4" if prompt.startswith("Roll:") else "hand-W4"

    session = PlaySession(
        game,
        [Seat("human"), Seat("human")],
        console=Console(record=True, width=80),
        read_line=read_line,
        manual_dice=True,
        autosave_path=path,
    )
    assert session.run() == 130
    assert records.load(path).moves == ("d4", "hand-W4")


def test_resume_lists_the_unfinished_games_and_picks_one_by_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    run(capsys, ["play", "salta"], "c3-d4", "quit")
    run(capsys, ["play", "splinter", "--p1", "level:2"], "h9-N", "quit")
    status, out = run_combined(capsys, ["play", "--resume"], "2", "quit")
    assert status == 0
    assert "1. Splinter (Blue: human, Red: level:2) · 2 moves" in out
    assert "2. Salta (Green: human, Red: human) · 1 move" in out
    assert "Red to move>" in out
    status, out, err = run(capsys, ["play", "--resume", "7"])
    assert status == 2 and "there are 2 unfinished games" in err


def test_resume_without_games_says_how_to_start_one(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["play", "--resume"])
    assert status == 0 and "No unfinished games to resume" in out


def test_an_unwritable_data_folder_is_reported_once_and_the_game_goes_on(
    capsys: pytest.CaptureFixture[str], private_data_folder: Path, tmp_path: Path
) -> None:
    private_data_folder.write_text("a file where the data folder should be")
    saved = tmp_path / "kept.json"
    status, out = run_combined(capsys, ["play", "salta"], "c3-d4", "h8-g7", f"save {saved}")
    assert status == 0
    assert out.count("Autosave failed") == 1
    assert records.load(saved).moves == ("c3-d4", "h8-g7")


# -- 2. and 3. saving never overwrites other files; errors name the user's path ----------------


def test_save_refuses_to_replace_a_file_that_is_not_a_saved_game_unless_told_to(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("README.md").write_text("# my notes\n")
    _, out = run_combined(capsys, ["play", "salta"], "c3-d4", "save README.md", "no", "quit")
    assert "README.md exists and is not a Ludoteca saved game. Replace it?" in out
    assert "Not saved: README.md is left as it was." in out
    assert Path("README.md").read_text() == "# my notes\n"
    _, out = run_combined(capsys, ["play", "salta"], "c3-d4", "save README.md", "yes", "quit")
    assert records.load("README.md").moves == ("c3-d4",)


def test_save_replaces_an_earlier_saved_game_without_asking(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "g.json"
    run(capsys, ["play", "salta"], "c3-d4", f"save {saved}")
    _, out = run_combined(capsys, ["play", "salta"], "a3-b4", f"save {saved}", "quit")
    assert "Replace it?" not in out and records.load(saved).moves == ("a3-b4",)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("README.md", "that file exists and is not a Ludoteca saved game; add --force"),
        ("missing-dir/x.json", "the folder missing-dir does not exist"),
        (".", "that is a folder; give a file name"),
    ],
)
def test_a_bad_save_path_is_refused_before_the_game_starts(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    target: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("README.md").write_text("# notes\n")
    status, out, err = run(capsys, ["play", "salta", "--save", target], "c3-d4")
    assert status == 2
    assert f"--save {target}: {message}" in err
    assert "Green to move" not in out  # refused before the first move
    assert ".tmp" not in err and Path("README.md").read_text() == "# notes\n"


def test_force_lets_save_replace_another_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("notes")
    status, _ = run_combined(capsys, ["play", "salta", "--save", str(other), "--force"], "c3-d4")
    assert status == 0 and records.load(other).moves == ("c3-d4",)


def test_a_save_that_fails_at_the_end_exits_non_zero_and_names_the_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    target = folder / "g.json"

    def remove_the_folder_then_quit(prompt: str) -> str:
        folder.rmdir()
        raise EOFError

    status = ludoteca.cli.main(
        ["play", "salta", "--save", str(target)], read_line=remove_the_folder_then_quit
    )
    out = capsys.readouterr().out
    assert status == 1
    assert f"Could not save: cannot save to '{target}'" in flat(out) and ".tmp" not in out


def test_saving_to_a_folder_at_the_prompt_names_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out = run_combined(capsys, ["play", "salta"], f"save {tmp_path}", "quit")
    assert f"cannot save to '{tmp_path}': it is a folder" in flat(out) and ".tmp" not in out


def test_saved_games_are_created_with_the_umask(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "g.json"
    old = os.umask(0o022)
    try:
        run(capsys, ["play", "salta"], "c3-d4", f"save {saved}")
    finally:
        os.umask(old)
    assert saved.stat().st_mode & 0o777 == 0o644


# -- 4. and 5. --load continues the game as it was; arguments that do not apply are refused ------


def _saved(tmp_path: Path, game_id: str, players: list[str], moves: list[str]) -> Path:
    path = tmp_path / f"{game_id}.json"
    game = ludoteca.make(game_id, first=0) if game_id == "pente_grammai" else ludoteca.make(game_id)
    records.save(records.create(game, moves, players=players), path)
    return path


def test_load_keeps_the_computer_player_and_its_level(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _saved(tmp_path, "salta", ["human", "level:2"], ["c3-d4"])
    status, out = run_combined(capsys, ["play", "--load", str(path)], "quit")
    assert status == 0
    assert "Salta — Green: human, Red: level:2." in out
    assert "Red (level:2) played" in out and "Green to move>" in out


def test_load_with_p0_or_p1_changes_only_that_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _saved(tmp_path, "salta", ["level:3", "alice"], [])
    _, out = run_combined(capsys, ["play", "--load", str(path), "--p0", "human"], "quit")
    assert "Green: human, Red: alice." in out  # a person's name is a person


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["splinter"], "is a game of Salta (salta), not splinter; leave out the game id"),
        (["-o", "scoring=simplified"], "was played with scoring=played; options cannot change"),
        (["--dice", "manual"], "Salta has no dice or other chance here"),
        (["--resume"], "--load and --resume both name a game"),
    ],
)
def test_load_refuses_arguments_that_contradict_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], message: str
) -> None:
    path = _saved(tmp_path, "salta", ["human", "human"], ["c3-d4"])
    argv = ["play", *extra[:1], "--load", str(path), *extra[1:]]
    if extra[0].startswith("-"):
        argv = ["play", "--load", str(path), *extra]
    status, out, err = run(capsys, argv)
    assert status == 2 and message in err and "Traceback" not in out + err


def test_load_accepts_options_that_agree_with_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _saved(tmp_path, "salta", ["human", "human"], ["c3-d4"])
    status, _ = run_combined(capsys, ["play", "salta", "--load", str(path), "-o", "goal=seed"])
    assert status == 0


def test_load_refuses_a_computer_player_it_does_not_know(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _saved(tmp_path, "salta", ["human", "level:9"], [])
    status, _, err = run(capsys, ["play", "--load", str(path)])
    assert status == 2
    assert "the saved game's Red player 'level:9' is not a computer player" in err
    assert "choose one with --p1" in err
    status, _ = run_combined(capsys, ["play", "--load", str(path), "--p1", "level:1"], "quit")
    assert status == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "salta", "--dice", "manual"], "Salta has no dice or other chance here"),
        (["play", "steppin_stones", "--p1", "level:2"], "so --p1 does not apply"),
        (["play", "salta", "--force"], "--force only applies to --save FILE"),
        (["play", "--resume", "-o", "goal=seed"], "leave out the game id and --option"),
        (["play", "-o", "scoring=simplified"], "--option need a game id"),
        (["play", "--p1", "level:2"], "--p1 need a game id"),
    ],
)
def test_arguments_that_do_not_apply_are_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, argv)
    assert status == 2 and message in err and "Traceback" not in out + err


def test_a_finished_game_is_not_continued(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = ludoteca.make("salta", move_limit=1, scoring="simplified")
    path = tmp_path / "over.json"
    records.save(records.create(game, ["c3-d4", "h8-g7"]), path)
    status, _, err = run(capsys, ["play", "--load", str(path)])
    assert status == 2 and "that game is over" in err and "ludoteca replay" in err


def test_a_record_from_the_web_with_an_invited_player_loads(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _saved(tmp_path, "salta", ["human", "invite"], ["c3-d4"])
    status, out = run_combined(capsys, ["play", "--load", str(path)], "quit")
    assert status == 0 and "Red to move>" in out


# -- 6. the picker ---------------------------------------------------------------------------


def test_the_picker_knows_the_solitaire_and_accepts_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run_combined(capsys, ["play"], "steppin_stones", "1", "", "1", "quit")
    assert status == 0
    assert "Steppin' Stones (steppin_stones, solitaire)" in out
    assert "1. you\n  2. the computer, while you watch" in out
    assert "Steppin' Stones — Player: human." in out


def test_the_picker_offers_options_and_manual_dice(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play"]
    lines = ["pente_grammai", "1", "first=nobody", "first=0", "", "2", "4", "quit"]
    status, out = run_combined(capsys, argv, *lines)
    assert status == 0
    assert "option 'first' does not accept 'nobody'" in out
    assert "Options: first=0 " in out
    assert "Dice:\n  1. the program rolls them\n  2. you roll real dice" in out
    assert "Rolled 4" in out  # the typed 4 was the roll


def test_the_picker_does_not_ask_about_dice_given_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out = run_combined(capsys, ["play", "--dice", "manual"], "pente_grammai", "1", "", "quit")
    assert "Dice:" not in out and "Roll: type the result (who starts" in out


def test_the_picker_skips_the_dice_question_for_games_without_dice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out = run_combined(capsys, ["play"], "salta", "1", "", "quit")
    assert "Dice:" not in out and "Green to move>" in out


# -- 8. manual dice -----------------------------------------------------------------------------


@pytest.mark.parametrize("typed_roll", ["3", "d3", "D3"])
def test_a_die_is_typed_as_a_number_or_in_notation(
    capsys: pytest.CaptureFixture[str], typed_roll: str
) -> None:
    argv = ["play", "pente_grammai", "--dice", "manual"]
    status, out = run_combined(capsys, argv, "white", typed_roll, "moves", "quit")
    assert status == 0
    assert "White starts. Rolled 3." in out
    assert "1 legal move:\n  hand-W3\n" in out


@pytest.mark.parametrize(
    ("typed_first", "starts"), [("0", "White"), ("1", "Blue"), ("blue", "Blue")]
)
def test_who_starts_is_typed_as_a_seat_or_a_name(
    capsys: pytest.CaptureFixture[str], typed_first: str, starts: str
) -> None:
    argv = ["play", "pente_grammai", "--dice", "manual"]
    _, out = run_combined(capsys, argv, typed_first, "2", "quit")
    assert f"{starts} rolled a 2." in out


def test_four_dice_are_typed_by_their_faces(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "steppin_stones", "--dice", "manual"]
    _, out = run_combined(capsys, argv, "*042", "quit")
    assert "Rolled Suns suit face, Moons null, Crowns 4, Arms 2." in flat(out)


# -- 10. small things -------------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        ludoteca.cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"ludoteca {ludoteca.__version__}"


def test_arena_help_shows_a_plain_percent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ludoteca.cli.main(["arena", "--help"])
    out = capsys.readouterr().out
    assert "95% Wilson" in " ".join(out.split()) and "%%" not in out


def test_undo_counts_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run_combined(capsys, ["play", "salta"], "c3-d4", "undo", "c3-d4", "h8-g7", "undo")
    assert "Took back 1 move." in out


def test_ctrl_c_in_replay_ends_the_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _saved(tmp_path, "salta", ["human", "human"], ["c3-d4"])

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    assert ludoteca.cli.main(["replay", str(path)], read_line=interrupt) == 0
    assert capsys.readouterr().out.endswith("\n")


def test_the_steppin_stones_hint_says_what_its_number_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out = run_combined(capsys, ["play", "steppin_stones", "--seed", "1"], "hint", "quit")
    assert "by the planner's measure; not a win chance" in flat(out)
    assert "win chance" not in flat(out).replace("not a win chance", "")


def test_the_autosave_is_an_ordinary_saved_game(private_data_folder: Path) -> None:
    game = ludoteca.make("splinter")
    path = autosave.new_path(game)
    autosave.write(path, records.create(game, ["h9-N"], players=["human", "random"]))
    data = json.loads(path.read_text())
    assert data["format"] == "ludoteca-game" and data["moves"] == ["h9-N"]
    assert path.parent == private_data_folder / "ludoteca" / "autosave"


def test_an_interrupt_numba_wrapped_in_a_system_error_still_counts_as_the_interrupt() -> None:
    from ludoteca.cli.play import Terminated, _interrupt_behind

    terminated = Terminated(15)
    try:
        try:
            raise terminated
        except Terminated as cause:
            raise SystemError("returned a result with an exception set") from cause
    except SystemError as wrapped:
        assert _interrupt_behind(wrapped) is terminated
    plain = SystemError("a real error")
    assert _interrupt_behind(plain) is plain
