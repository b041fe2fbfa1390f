"""The game-agnostic contract every game implements, and the services built on it."""

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
from ludoteca.core.game import Game, Move, PlayoutStats, State
from ludoteca.core.options import OptionSpec
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.core.registry import game_ids, make, register

__all__ = [
    "CHANCE",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidRecordError",
    "InvalidStateError",
    "LudotecaError",
    "Move",
    "OptionSpec",
    "Outcome",
    "PlayoutStats",
    "SaveError",
    "State",
    "UnknownGameError",
    "game_ids",
    "make",
    "register",
]
