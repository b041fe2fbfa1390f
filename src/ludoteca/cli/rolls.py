"""Typing the results of real dice (``ludoteca play --dice manual``).

A roll can be typed in the game's notation (``d3``, ``S* M0 C4 A2``, ``first-1``) or in the
short forms people use at a table: the number alone (``3``), the faces without the suit letters
(``*042``), and for who starts ``0``/``1`` or the side's name (``white``, ``Blue``). The error for
a bad roll lists only the roll forms, not the move forms of the game.
"""

from __future__ import annotations

import re

from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.game import Game, Move, State

MAX_LISTED_OUTCOMES = 12
_FIRST = re.compile(r"first-(\d+)")
_SUIT_LETTER = re.compile(r"[A-Za-z]+(?=[0-9*])")


class RollReader:
    """Reads typed rolls for one game's chance nodes."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def prompt(self, state: State) -> str:
        """The prompt at a chance node, with the forms accepted there."""
        return f"Roll: type the result ({self.forms(state)})> "

    def forms(self, state: State) -> str:
        """The accepted roll forms at the chance node ``state``, in a few words."""
        outcomes = [move.text for move, _ in state.chance_outcomes()]
        if all(_FIRST.fullmatch(text) for text in outcomes):
            names = self.game.player_names
            return "who starts: " + ", ".join(
                f"{index} or {names[index]}" for index in range(len(names))
            )
        shorts = [_short(text) for text in outcomes]
        if all(short.isdigit() and len(short) == 1 for short in shorts):
            return f"{shorts[0]} to {shorts[-1]}, or {outcomes[0]} to {outcomes[-1]}"
        if len(outcomes) > MAX_LISTED_OUTCOMES:  # four dice have 1,296 outcomes
            return f"like {outcomes[-1]} or {shorts[-1]}; {len(outcomes)} outcomes"
        return ", ".join(outcomes)

    def parse(self, state: State, text: str) -> Move:
        """The chance outcome that ``text`` names.

        Raises:
            IllegalMoveError: ``text`` is no outcome here; the message lists the roll forms.
        """
        typed = " ".join(text.split())
        by_text = {move.text.lower(): move for move, _ in state.chance_outcomes()}
        move = by_text.get(typed.lower())
        if move is not None:
            return move
        for outcome, _ in state.chance_outcomes():
            first = _FIRST.fullmatch(outcome.text)
            if first is not None:
                seat = int(first.group(1))
                if typed.lower() in (str(seat), self.game.player_names[seat].lower()):
                    return outcome
            elif typed and _short(outcome.text).lower() == typed.replace(" ", "").lower():
                return outcome
        raise IllegalMoveError(f"{typed!r} is not a roll here; type {self.forms(state)}")


def _short(outcome: str) -> str:
    """An outcome without its die and suit letters: ``d3`` -> ``3``, ``S* M0`` -> ``*0``."""
    return _SUIT_LETTER.sub("", outcome).replace(" ", "")
