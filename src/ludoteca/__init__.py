"""Ludoteca: play, study and write computer players for five board games.

>>> import ludoteca
>>> game = ludoteca.make("salta")
>>> state = game.initial_state().apply("c3-d4")
>>> state.to_move
1
"""

from ludoteca.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidRecordError,
    InvalidStateError,
    LudotecaError,
    SaveError,
    UnknownGameError,
)
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.core.registry import game_ids, make

__version__ = "0.1.0"

GAMES: tuple[str, ...] = game_ids()
"""The ids of the games Ludoteca implements, sorted."""

__all__ = [
    "CHANCE",
    "GAMES",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidRecordError",
    "InvalidStateError",
    "LudotecaError",
    "Move",
    "Outcome",
    "SaveError",
    "State",
    "UnknownGameError",
    "make",
]
