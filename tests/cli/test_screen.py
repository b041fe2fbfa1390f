"""Readable at 80x24: one board per turn, the last move marked, the computer's move in words
right above the prompt, and nothing wider than 80 columns."""

from __future__ import annotations

from pathlib import Path

import pytest

import ludoteca
from ludoteca.cli.screen import board_text, moved_regions
from tests.cli.screens import HEIGHT, SCENARIOS, TYPED, WIDTH, screen, typed_screen

DOCS = Path(__file__).resolve().parents[2] / "docs" / "terminal.md"

#: The first line of each game's board, and how a marked square looks there.
TOP_LINE = {
    "salta": ("10 ", "["),
    "salt_n_pepper": ("   Salt (S) home", "["),
    "splinter": ("18 ", "["),
    "pente_grammai": ("                         Blue", "[>"),
    "steppin_stones": ("Steppin' Stones · turn", "<"),
}


@pytest.fixture(scope="module", params=list(SCENARIOS))
def captured(request: pytest.FixtureRequest) -> tuple[str, list[str]]:
    game_id: str = request.param
    return game_id, screen(game_id).split("\n")


def test_the_whole_last_board_fits_with_the_prompt(captured: tuple[str, list[str]]) -> None:
    game_id, lines = captured
    top, mark = TOP_LINE[game_id]
    assert len(lines) <= HEIGHT
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    starts = [number for number, line in enumerate(lines) if line.startswith(top)]
    assert starts, f"the board's first line {top!r} scrolled off:\n" + "\n".join(lines)
    board = lines[starts[-1] :]
    assert any(mark in line for line in board[1:-2]), "the last move is not marked"
    assert lines[-1].endswith("to move>")


def test_the_computers_move_is_the_line_above_the_prompt(captured: tuple[str, list[str]]) -> None:
    game_id, lines = captured
    if SCENARIOS[game_id].computer_seat is None:
        assert " played " in lines[-2]  # the solitaire: the person's own move
        return
    assert "(level:1) played " in lines[-2]


def test_the_docs_show_these_screens(captured: tuple[str, list[str]]) -> None:
    _, lines = captured
    assert "\n".join(lines) in DOCS.read_text(encoding="utf-8"), (
        "docs/terminal.md is out of date: python -m tests.cli.screens prints the screens"
    )


@pytest.mark.parametrize("name", list(TYPED))
def test_the_commands_screens_fit_and_the_docs_show_them(name: str) -> None:
    lines = typed_screen(name).split("\n")
    assert len(lines) <= HEIGHT
    assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    assert lines[-1].endswith(">")
    assert "\n".join(lines) in DOCS.read_text(encoding="utf-8"), (
        "docs/terminal.md is out of date: python -m tests.cli.screens prints the screens"
    )


def test_one_board_per_turn_with_dice(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support import run_combined

    argv = ["play", "pente_grammai", "--p1", "level:1", "--seed", "5", "-o", "first=0"]
    _, out = run_combined(capsys, argv, "moves", "quit")
    assert out.count("Circuit:") == 1  # the draw and the roll fold into one board's line
    assert "Rolled " in out and "Rolled d" not in out  # rolls in words: "Rolled 5"


@pytest.mark.parametrize(
    ("game_id", "options", "moves", "marked"),
    [
        ("salta", {}, ["c3-d4"], {"c3", "d4"}),
        ("salt_n_pepper", {"first": 0}, ["a8-b7"], {"a8", "b7"}),
        ("splinter", {}, ["h9-N"], {"h9", "h10", "h13"}),
        ("pente_grammai", {"first": 0}, ["d4", "hand-W4"], {"hand-white", "W4"}),
    ],
)
def test_the_last_move_marks_its_origin_and_target(
    game_id: str, options: dict[str, object], moves: list[str], marked: set[str]
) -> None:
    state = ludoteca.make(game_id, **options).initial_state()
    for text in moves[:-1]:
        state = state.apply(text)
    move = state.parse_move(moves[-1])
    after = state.apply(move)
    regions = moved_regions(state, move, after)
    assert marked <= regions
    drawn = board_text(after, regions)
    assert drawn != board_text(after)  # the marks show


def test_salta_counts_down_to_the_120_move_rule() -> None:
    state = ludoteca.make("salta", move_limit=3, scoring="simplified").initial_state()
    assert board_text(state).endswith("Moves left before the 3-move rule: Green 3, Red 3.")
    state = state.apply("c3-d4")
    assert board_text(state).endswith("Moves left before the 3-move rule: Green 2, Red 3.")
    unlimited = ludoteca.make("salta", move_limit=None).initial_state()
    assert "Moves left" not in board_text(unlimited)


def test_every_board_fits_80_columns_under_the_default_options() -> None:
    for game_id in ludoteca.GAMES:
        state = ludoteca.make(game_id).initial_state()
        for _ in range(40):  # a few plies in, where the status and dice lines are longest
            if state.is_over:
                break
            state = state.apply(state.legal_moves()[-1])
            lines = board_text(state).split("\n")
            rows = sum(max(1, -(-len(line) // WIDTH)) for line in lines)  # long lines wrap
            assert rows <= HEIGHT - 2, game_id  # leaves the line of moves and the prompt
            assert all(len(line) <= WIDTH for line in lines[:-1] if not state.is_over), game_id
