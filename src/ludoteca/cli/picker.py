"""``ludoteca play`` without a game id: ask which game, who plays, the options and the dice."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console

from ludoteca.cli.play import ReadLine
from ludoteca.cli.text import say
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.options import format_option_value, parse_option_assignments
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import game_class, make

COMPUTER_CHOICES = "1 (beginner) to 5 (strongest), or 6 for random moves"
CHANCE_PROBE_PLIES = 400


def has_chance_nodes(game: Game, start: State | None = None) -> bool:
    """Whether dice (or another chance) come up in ``game`` from ``start``.

    The rules say so only position by position, so a seeded random game is played to the end
    (or for `CHANCE_PROBE_PLIES` plies): a game with dice meets them at once, one whose only
    chance is who starts meets it at the start.
    """
    rng = random.Random(0)
    state = start if start is not None else game.initial_state()
    for _ in range(CHANCE_PROBE_PLIES):
        if state.is_over:
            return False
        if state.to_move == CHANCE:
            return True
        state = state.apply(rng.choice(state.legal_moves()))
    return False


@dataclass(frozen=True)
class Choices:
    """What the person picked."""

    game_id: str
    players: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    manual_dice: bool = False


def pick_game(
    console: Console,
    read_line: ReadLine,
    game_ids: Sequence[str],
    *,
    ask_dice: bool = True,
) -> Choices:
    """Ask which game to play, who plays it, its options and how dice are rolled.

    A game is picked by its number or its id. The dice question is asked for games with chance
    nodes, unless ``ask_dice`` is false (``--dice`` was given).

    Raises:
        EOFError: Input ended before the choices were made.
    """
    say(console, "Ludoteca — pick a game:", style="bold")
    for number, game_id in enumerate(game_ids, start=1):
        cls = game_class(game_id)
        seats = "solitaire" if cls.num_players == 1 else f"{cls.num_players} players"
        say(console, f"  {number}. {cls.name} ({game_id}, {seats})")
    game_id = _choose_game(console, read_line, game_ids)
    cls = game_class(game_id)
    players = _choose_players(console, read_line, cls.num_players, cls.player_names)
    options = _choose_options(console, read_line, game_id)
    game = make(game_id, **options)
    manual = False
    if ask_dice and has_chance_nodes(game):
        say(console, "Dice:\n  1. the program rolls them\n  2. you roll real dice and type them")
        manual = _choose_number(console, read_line, "Dice> ", 2) == 2
    return Choices(game_id, players, options, manual)


def _choose_game(console: Console, read_line: ReadLine, game_ids: Sequence[str]) -> str:
    while True:
        answer = read_line("Game (number or id)> ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(game_ids):
            return game_ids[int(answer) - 1]
        if answer.lower() in game_ids:
            return answer.lower()
        say(
            console,
            f"Please type a number from 1 to {len(game_ids)} or a game id ({', '.join(game_ids)}).",
            style="red",
        )


def _choose_players(
    console: Console, read_line: ReadLine, seats: int, names: Sequence[str]
) -> tuple[str, ...]:
    if seats == 1:
        say(console, "Who plays?\n  1. you\n  2. the computer, while you watch")
        if _choose_number(console, read_line, "Choice> ", 2) == 1:
            return ("human",)
        return (_choose_level(console, read_line),)
    say(
        console,
        "Who plays?\n  1. two people at this screen\n"
        f"  2. you first ({names[0]}), against the computer\n"
        f"  3. the computer first, you second ({names[1]})",
    )
    choice = _choose_number(console, read_line, "Choice> ", 3)
    if choice == 1:
        return ("human", "human")
    computer = _choose_level(console, read_line)
    return ("human", computer) if choice == 2 else (computer, "human")


def _choose_level(console: Console, read_line: ReadLine) -> str:
    say(console, f"How strong is the computer? {COMPUTER_CHOICES}.")
    strength = _choose_number(console, read_line, "Level> ", 6)
    return "random" if strength == 6 else f"level:{strength}"


def _choose_options(console: Console, read_line: ReadLine, game_id: str) -> dict[str, str]:
    specs = game_class(game_id).option_specs
    if not specs:
        return {}
    chosen: dict[str, str] = {}
    while True:
        current = make(game_id, **chosen).options
        say(
            console,
            "Options: " + " ".join(f"{n}={format_option_value(v)}" for n, v in current.items()),
        )
        answer = read_line("Change one (name=value), or Enter to play> ").strip()
        if not answer:
            return chosen
        try:
            change = parse_option_assignments([answer])
            make(game_id, **{**chosen, **change})
        except LudotecaError as error:
            say(console, str(error), style="red")
            continue
        chosen.update(change)


def _choose_number(console: Console, read_line: ReadLine, prompt: str, count: int) -> int:
    while True:
        answer = read_line(prompt).strip()
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer)
        say(console, f"Please type a number from 1 to {count}.", style="red")
