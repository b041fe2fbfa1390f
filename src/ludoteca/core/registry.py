"""The game registry: game ids, and `make` to build a game with options.

Games are imported lazily, so ``import ludoteca`` does not compile every game's kernels.
"""

from __future__ import annotations

import importlib
from typing import Any

from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import Game

_GAME_CLASSES: dict[str, str] = {
    "pente_grammai": "ludoteca.games.pente_grammai:PenteGrammaiGame",
    "salt_n_pepper": "ludoteca.games.salt_n_pepper:SaltNPepperGame",
    "salta": "ludoteca.games.salta:SaltaGame",
    "splinter": "ludoteca.games.splinter:SplinterGame",
    "steppin_stones": "ludoteca.games.steppin_stones:SteppinStonesGame",
}
_LOADED: dict[str, type[Game]] = {}


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, sorted."""
    return tuple(sorted(set(_GAME_CLASSES) | set(_LOADED)))


def register(game_class: type[Game]) -> None:
    """Register a game class under its ``id`` (for plug-ins and tests)."""
    _LOADED[game_class.id] = game_class


def normalise_game_id(name: str) -> str:
    """Read a game name as people type it: ``"Salt 'n' Pepper"`` -> ``"salt_n_pepper"``."""
    cleaned = name.strip().lower().replace("'", "").replace("-", " ").replace("_", " ")
    return "_".join(cleaned.split())


def game_class(game_id: str) -> type[Game]:
    """The class of the game ``game_id`` (names are read as by `normalise_game_id`).

    Raises:
        UnknownGameError: No such game; the message lists the registered ones.
    """
    if not isinstance(game_id, str):
        raise UnknownGameError(f"a game id is text; got {game_id!r}; accepted: {_accepted()}")
    key = normalise_game_id(game_id)
    if key in _LOADED:
        return _LOADED[key]
    if key not in _GAME_CLASSES:
        raise UnknownGameError(f"unknown game {game_id!r}; accepted: {_accepted()}")
    module_name, _, class_name = _GAME_CLASSES[key].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    _LOADED[key] = cls
    return cls


def make(game_id: str, **options: Any) -> Game:
    """Build the game ``game_id`` with the given options (unnamed options take their defaults).

    Raises:
        UnknownGameError: No such game.
        InvalidOptionError: An unknown option or a refused value; the message lists what is
            accepted.

    >>> import ludoteca
    >>> ludoteca.make("salta", scoring="simplified").options["scoring"]
    'simplified'
    """
    return game_class(game_id)(**options)


def _accepted() -> str:
    return ", ".join(game_ids())
