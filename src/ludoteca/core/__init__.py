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
from ludoteca.core.info import (
    DEFAULT_LEVELS,
    BenchRow,
    GameInfo,
    LearnedPlayer,
    LevelSetting,
    PieceStyle,
    RegionStyle,
    View,
    check_declaration,
    levels_with,
)
from ludoteca.core.options import OptionSpec
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.core.registry import (
    PluginWarning,
    RegistrationError,
    built_in_game_ids,
    game_ids,
    load_plugins,
    make,
    register,
)

__all__ = [
    "CHANCE",
    "DEFAULT_LEVELS",
    "BenchRow",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidRecordError",
    "InvalidStateError",
    "LearnedPlayer",
    "LevelSetting",
    "LudotecaError",
    "Move",
    "OptionSpec",
    "Outcome",
    "PieceStyle",
    "PlayoutStats",
    "PluginWarning",
    "RegionStyle",
    "RegistrationError",
    "SaveError",
    "State",
    "UnknownGameError",
    "View",
    "built_in_game_ids",
    "check_declaration",
    "game_ids",
    "levels_with",
    "load_plugins",
    "make",
    "register",
]
