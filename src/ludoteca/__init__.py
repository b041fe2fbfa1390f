"""Ludoteca: play, study and write computer players for five board games.

>>> import ludoteca
>>> game = ludoteca.make("salta")
>>> state = game.initial_state().apply("c3-d4")
>>> state.to_move
1
"""

# First: numba's cache directory is chosen before anything can import numba.
from ludoteca import kernel_cache  # noqa: F401

# isort: split
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
from ludoteca.core.info import GameInfo
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.core.registry import built_in_game_ids, game_ids, make, register

__version__ = "0.1.0"

GAMES: tuple[str, ...] = built_in_game_ids()
"""The ids of the games Ludoteca implements, sorted (`game_ids` adds the plug-in games)."""

__all__ = [
    "CHANCE",
    "GAMES",
    "Game",
    "GameInfo",
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
    "game_ids",
    "make",
    "register",
]
