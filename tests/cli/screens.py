"""An 80x24 terminal session per game, captured as text: the tests check them, docs show them.

``python -m tests.cli.screens`` prints the captures that docs/terminal.md shows.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from rich.console import Console

import ludoteca
from ludoteca.ai import agent_from_spec
from ludoteca.cli.analyse import AnalysisBoard
from ludoteca.cli.play import PlaySession, Seat

WIDTH, HEIGHT = 80, 24


@dataclass(frozen=True)
class Scenario:
    """A short game: the options, who plays, and how many moves the person makes."""

    game_id: str
    options: dict[str, object]
    computer_seat: int | None
    human_moves: int
    seed: int


SCENARIOS = {
    "salta": Scenario("salta", {}, 1, 2, 3),
    "salt_n_pepper": Scenario("salt_n_pepper", {"first": 0}, 1, 2, 3),
    "splinter": Scenario("splinter", {}, 1, 2, 3),
    "pente_grammai": Scenario("pente_grammai", {"first": 0}, 1, 2, 5),
    "steppin_stones": Scenario("steppin_stones", {}, None, 1, 4),
}


class _Stop(Exception):
    """Ends the captured session at the prompt."""


def screen(game_id: str) -> str:
    """The last 24 lines of an 80-column session of ``game_id``, ending at a prompt."""
    scenario = SCENARIOS[game_id]
    game = ludoteca.make(game_id, **scenario.options)
    console = Console(width=WIDTH, height=HEIGHT, record=True, file=_Discard())
    seats = [Seat("human") for _ in range(game.num_players)]
    if scenario.computer_seat is not None:
        spec = "level:1"
        agent = agent_from_spec(spec, game, seed=scenario.seed)
        seats[scenario.computer_seat] = Seat(spec, agent)
    typed = 0

    def read_line(prompt: str) -> str:
        nonlocal typed
        if typed == scenario.human_moves:
            console.print(prompt, end="")
            raise _Stop
        typed += 1
        move = session.state.legal_moves()[0].text  # the first legal move, as a person might
        console.print(prompt + move)
        return move

    session = PlaySession(game, seats, console=console, read_line=read_line, seed=scenario.seed)
    with contextlib.suppress(_Stop):
        session.run()
    lines = console.export_text().rstrip("\n").split("\n")
    return "\n".join(line.rstrip() for line in lines[-HEIGHT:])


@dataclass(frozen=True)
class Typed:
    """A session where a person types ``lines``: ``play`` (two people) or ``analyse``."""

    title: str
    command: str
    game_id: str
    options: dict[str, object]
    lines: tuple[str, ...]


#: Sessions of the commands at the prompt, captured like the games above.
TYPED = {
    "help": Typed("help at the prompt", "play", "salta", {}, ("help",)),
    "moves": Typed("moves in Splinter", "play", "splinter", {}, ("moves",)),
    "analyse": Typed(
        "ludoteca analyse pente_grammai",
        "analyse",
        "pente_grammai",
        {},
        ("first-0", "5", "hand-W5", "back", "back", "3", "hand-W3", "tree"),
    ),
}


def typed_screen(name: str) -> str:
    """The last 24 lines of an 80-column session of ``TYPED[name]``, ending at its prompt."""
    scenario = TYPED[name]
    game = ludoteca.make(scenario.game_id, **scenario.options)
    console = Console(width=WIDTH, height=HEIGHT, record=True, file=_Discard())
    answers = iter(scenario.lines)

    def read_line(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            console.print(prompt, end="")
            raise _Stop
        console.print(prompt + answer)
        return answer

    with contextlib.suppress(_Stop):
        if scenario.command == "analyse":
            AnalysisBoard(game, game.initial_state(), console=console, read_line=read_line).run()
        else:
            seats = [Seat("human") for _ in range(game.num_players)]
            PlaySession(game, seats, console=console, read_line=read_line, seed=1).run()
    lines = console.export_text().rstrip("\n").split("\n")
    return "\n".join(line.rstrip() for line in lines[-HEIGHT:])


class _Discard:
    """A file that drops what is written (the console records it)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


if __name__ == "__main__":
    for game_id in SCENARIOS:
        print(f"### {ludoteca.make(game_id).name}\n\n```text\n{screen(game_id)}\n```\n")
    for name, typed in TYPED.items():
        print(f"#### {typed.title}\n\n```text\n{typed_screen(name)}\n```\n")
