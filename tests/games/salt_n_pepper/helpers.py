"""Shared helpers for the Salt 'n' Pepper tests: the game and positions from diagrams.

Playing, refusing and listing moves are in `tests.support`.
"""

from __future__ import annotations

from ludoteca.games.salt_n_pepper import SaltNPepperGame, SaltNPepperState
from tests.games.salt_n_pepper.diagrams import position
from tests.support import make_game

SALT, PEPPER = 0, 1


def make(**options: object) -> SaltNPepperGame:
    return make_game("salt_n_pepper", SaltNPepperGame, **options)


def state_at(
    diagram: str, side: str, ply: int = 10, passes: int = 0, **options: object
) -> SaltNPepperState:
    """The position drawn in ``diagram`` with ``side`` (``"s"`` or ``"p"``) to move."""
    return make(**options).parse_state(position(diagram, side, ply, passes))
