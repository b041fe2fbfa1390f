"""Every text of a terminal session fits its width, moves read as a table, rolls read as words.

Sessions of every game are played at 40 and 80 columns with the commands a person types
(``help``, ``moves``, ``rules``, a word that is no command, a move that is no move, an
illegal move); no line of what they print is wider than the console.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

import ludoteca
from ludoteca.cli import autosave
from ludoteca.cli.picker import pick_game
from ludoteca.cli.play import HELP, PlaySession, Seat
from ludoteca.cli.play_command import _pick_unfinished
from ludoteca.cli.text import wrap
from ludoteca.core import records
from ludoteca.core.notation import chance_text, move_groups
from tests.support import flat, typed

WIDTHS = (40, 80)
#: The options that give each game a chance node to start with, where it has one.
OPTIONS: dict[str, dict[str, object]] = {
    "pente_grammai": {},
    "salt_n_pepper": {"first": "random"},
    "splinter": {"first": "random"},
    "salta": {},
    "steppin_stones": {},
}


class _Discard:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _console(width: int) -> Console:
    return Console(width=width, height=24, record=True, file=_Discard(), highlight=False)


def _lines(console: Console) -> list[str]:
    return [line.rstrip() for line in console.export_text().split("\n")]


def _session(game_id: str, width: int, *lines: str) -> tuple[PlaySession, Console]:
    game = ludoteca.make(game_id, **OPTIONS[game_id])
    console = _console(width)

    answers = iter(lines)

    def read_line(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise EOFError
        console.print(prompt + answer, soft_wrap=True)  # as the terminal shows it
        return answer

    seats = [Seat("human") for _ in range(game.num_players)]
    return PlaySession(game, seats, console=console, read_line=read_line, seed=1), console


def _too_wide(lines: list[str], width: int, prompts: tuple[str, ...] = ()) -> list[str]:
    return [line for line in lines if len(line) > width and not line.startswith(prompts)]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_no_line_of_the_session_texts_is_wider_than_the_terminal(game_id: str, width: int) -> None:
    session, console = _session(
        game_id, width, "help", "moves", "frobnicate", "q9-z1", "rules", "board", "quit"
    )
    session.run()
    lines = _lines(console)
    board = set(ludoteca.cli.screen.board_text(session.state).split("\n"))
    # The board is the game's own diagram (80 columns wide at most, checked in test_screen);
    # prompts are typed on by the person; the autosave path is kept whole to be copied.
    wide = [
        line
        for line in _too_wide(lines, width)
        if line not in board
        and "autosave" not in line
        and not line.endswith(">")
        and "> " not in line
    ]
    assert not wide, "\n".join(wide)
    assert "Unknown command: frobnicate" in flat("\n".join(lines))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_ending_fits_for_every_seat(game_id: str, width: int) -> None:
    game = ludoteca.make(game_id, **OPTIONS[game_id])
    for seat in range(game.num_players):
        session, console = _session(game_id, width, "resign", "board", "save", "rules", "quit")
        session.manual_dice = False
        while session.state.to_move is not None and session.state.to_move != seat:
            state = session.state
            move = state.chance_outcomes()[0][0] if state.to_move == -1 else state.legal_moves()[0]
            session.history.append((state, move))
            session.state = state.apply(move)
        session.run()
        text = flat(console.export_text())
        assert f"{game.player_names[seat]} resigned" in text or "Game over" in text
        board = set(ludoteca.cli.screen.board_text(session.state).split("\n"))
        wide = [
            line
            for line in _too_wide(_lines(console), width)
            if line not in board and "autosave" not in line and "> " not in line
        ]
        assert not wide, "\n".join(wide)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_help_wraps_between_words_under_its_own_column(width: int) -> None:
    text = wrap(HELP.format(example="h9-N"), width)
    lines = text.split("\n")
    assert all(len(line) <= width for line in lines)
    assert flat(text) == flat(HELP.format(example="h9-N"))  # no word cut or lost
    continued = [line for line in lines if line.startswith(" " * 15)]
    if width == 40:
        assert continued  # long descriptions continue under the description column
    first = next(i for i, line in enumerate(lines) if line.startswith("  moves"))
    last = next(i for i, line in enumerate(lines) if line.startswith("Ctrl+C"))
    assert all(line.startswith("  ") for line in lines[first:last])


def test_a_word_is_an_unknown_command_and_a_bad_move_keeps_the_engines_reason() -> None:
    session, console = _session("salta", 80, "hello", "c3-c4", "z9-a1", "q9", "quit")
    session.run()
    text = flat(console.export_text())
    assert "Unknown command: hello — type help" in text
    assert "a step goes exactly 1 square diagonally" in text  # c3-c4: the rules' refusal
    assert "squares run from a1 to j10" in text  # z9-a1: the engine's reason
    assert "'q9' is not a move in Salta notation; accepted forms:" in text
    assert "Unknown command: z9-a1" not in text
    assert session.history == []  # nothing was played


def test_history_numbers_the_moves_with_the_rolls_beside_them() -> None:
    session, console = _session("pente_grammai", 80, "first-0", "5", "hand-W5", "2", "history")
    session.manual_dice = True
    session.run()
    assert "Moves: 1. hand-W5 (White starts, 5)" in flat(console.export_text())


def test_words_that_are_moves_stay_moves() -> None:
    # Steppin' Stones' ``end`` and ``resign`` are moves, not commands or unknown words.
    session, console = _session("steppin_stones", 80, "S* M0 C4 A2", "resign", "quit")
    session.manual_dice = True
    session.run()
    assert [move.text for _, move in session.history][-1] == "resign"
    assert "Unknown command" not in console.export_text()


def test_splinter_moves_read_as_one_row_per_piece() -> None:
    session, console = _session("splinter", 80, "first-0", "moves", "quit")
    session.manual_dice = True
    session.run()
    lines = _lines(console)
    start = lines.index("120 legal moves:")
    rows = lines[start + 1 : start + 16]
    assert len(rows) == 15  # 15 pieces that can move, 8 directions each
    assert all(row.split()[1:] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] for row in rows)
    assert lines[start + 16].startswith("(a row's start and one of its ends make a move")


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_groups_hold_every_legal_move_once(game_id: str) -> None:
    state = ludoteca.make(game_id).initial_state()
    for _ in range(12):
        if state.is_over:
            break
        listed = [prefix + rest for prefix, rests in move_groups(state) for rest in rests]
        assert sorted(listed) == sorted(move.text for move in state.legal_moves())
        state = state.apply(state.legal_moves()[len(listed) // 2])


def test_rules_at_the_prompt_show_the_games_rules_page() -> None:
    session, console = _session("pente_grammai", 80, "rules", "quit")
    session.run()
    text = flat(console.export_text())
    page = ludoteca.core.rules_pages.rules_text("pente_grammai")
    heading = page.split("\n", 1)[0].lstrip("# ").strip()
    assert heading in text
    assert all(len(line) <= 80 for line in _lines(console) if "autosave" not in line)


@pytest.mark.parametrize(
    ("game_id", "options", "outcome", "words", "short"),
    [
        ("pente_grammai", {}, "first-1", "Blue starts", "Blue starts"),
        ("salt_n_pepper", {"first": "random"}, "first-0", "Salt starts (bag draw)", "Salt starts"),
        ("splinter", {"first": "random"}, "first-1", "Red starts (drawn)", "Red starts"),
        (
            "steppin_stones",
            {},
            "S* M0 C4 A2",
            "rolled Suns suit face, Moons null, Crowns 4, Arms 2",
            "S* M0 C4 A2",
        ),
    ],
)
def test_each_game_says_its_chance_outcomes_in_words(
    game_id: str, options: dict[str, object], outcome: str, words: str, short: str
) -> None:
    state = ludoteca.make(game_id, **options).initial_state()
    move = state.parse_move(outcome)
    assert chance_text(state, move) == words
    assert chance_text(state, move, short=True) == short


def test_a_pente_grammai_roll_reads_as_its_number() -> None:
    state = ludoteca.make("pente_grammai", first=0).initial_state()
    move = state.parse_move("d5")
    assert (chance_text(state, move), chance_text(state, move, short=True)) == ("rolled 5", "5")
    session, console = _session("pente_grammai", 80, "quit")
    session.manual_dice = False
    session.run()
    assert "Rolled first-" not in console.export_text()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pickers_questions_fit(width: int) -> None:
    console = _console(width)
    salta = str(ludoteca.GAMES.index("salta") + 1)
    pick_game(console, typed(salta, "2", "9", "3", ""), ludoteca.GAMES)
    lines = _lines(console)
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    assert "How strong is the computer?" in flat("\n".join(lines))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_resume_list_fits(width: int, tmp_path: Path) -> None:
    for game_id in ("salta", "splinter"):
        game = ludoteca.make(game_id)
        record = records.create(
            game, ["c3-d4"] if game_id == "salta" else [], players=["human", "level:3"]
        )
        autosave.write(autosave.new_path(game), record)
    console = _console(width)
    saved = _pick_unfinished(console, typed("q"), "")
    assert saved is None
    lines = _lines(console)
    assert "Unfinished games, the most recent first:" in flat("\n".join(lines))
    assert all(len(line) <= width for line in lines), max(lines, key=len)
