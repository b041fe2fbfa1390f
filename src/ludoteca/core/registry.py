"""The game registry: game ids, `make` to build a game with options, and plug-in games.

The built-in games are imported lazily, so ``import ludoteca`` compiles no kernels. Games from
other packages register in either of two ways, and then appear everywhere a game does (``ludoteca
games``, ``play``, ``arena``, the web lobby, the conformance tests):

- an entry point in the group ``ludoteca.games`` named by the game id, pointing at the `Game`
  class, in the plug-in's packaging metadata (``pyproject.toml``)::

      [project.entry-points."ludoteca.games"]
      nim = "ludoteca_nim:NimGame"

  Entry points are read the first time the list of games is needed or an id is not a built-in
  one; a plug-in that cannot be imported or declares itself badly is left out with a
  `PluginWarning` that names its entry point, and Ludoteca carries on;
- a call to `register` (``ludoteca.register(NimGame)``) in the running program.
"""

from __future__ import annotations

import importlib
import re
import warnings
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ludoteca.core.errors import LudotecaError, UnknownGameError
from ludoteca.core.game import Game
from ludoteca.core.info import declaration_problems

#: The entry point group plug-in games register under.
ENTRY_POINT_GROUP = "ludoteca.games"

_BUILT_IN: dict[str, str] = {
    "pente_grammai": "ludoteca.games.pente_grammai:PenteGrammaiGame",
    "salt_n_pepper": "ludoteca.games.salt_n_pepper:SaltNPepperGame",
    "salta": "ludoteca.games.salta:SaltaGame",
    "splinter": "ludoteca.games.splinter:SplinterGame",
    "steppin_stones": "ludoteca.games.steppin_stones:SteppinStonesGame",
}
_GAME_ID = re.compile(r"[a-z][a-z0-9_]*")
_LOADED: dict[str, type[Game]] = {}
_REGISTERED: dict[str, str] = {}  # id -> "module:qualname" of the games given to `register`
_plugin_problems: list[str] | None = None  # None until the entry points are read


class RegistrationError(LudotecaError):
    """A game cannot be registered: not a `Game` class, a bad declaration, or a taken id."""


class PluginWarning(UserWarning):
    """A plug-in game was left out (it cannot be imported, or declares itself badly)."""


def built_in_game_ids() -> tuple[str, ...]:
    """The ids of the games that come with Ludoteca, sorted (``ludoteca.GAMES``)."""
    return tuple(sorted(_BUILT_IN))


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, sorted: built-in, plug-ins and `register`-ed ones."""
    _read_plugins()
    return tuple(sorted(set(_BUILT_IN) | set(_LOADED)))


def register(game_class: type[Game]) -> type[Game]:
    """Register a game class under its ``id``; returns the class (so it works as a decorator).

    Registering the same class again does nothing.

    Raises:
        RegistrationError: ``game_class`` is not a `Game` subclass, its id or declaration is
            bad, or another game has its id; the message says which and why.
    """
    problems = class_problems(game_class)
    if problems:
        name = getattr(game_class, "__name__", repr(game_class))
        raise RegistrationError(f"cannot register {name}: {'; '.join(problems)}")
    game_id = game_class.id
    taken = _LOADED.get(game_id)
    if taken is game_class:
        return game_class
    if taken is not None or game_id in _BUILT_IN:
        owner = taken.__module__ if taken is not None else "Ludoteca's own games"
        raise RegistrationError(
            f"cannot register {game_class.__name__}: the game id {game_id!r} is taken "
            f"(by {owner}); choose another id"
        )
    _LOADED[game_id] = game_class
    _REGISTERED[game_id] = f"{game_class.__module__}:{game_class.__qualname__}"
    return game_class


def is_registered_as(game_id: str, cls: type[Game]) -> bool:
    """Whether `make` builds ``game_id`` from the class ``cls``."""
    if game_id not in _LOADED and game_id not in _BUILT_IN:
        _read_plugins()
    if game_id in _LOADED:
        return _LOADED[game_id] is cls
    path = _BUILT_IN.get(game_id)
    return path is not None and path == f"{cls.__module__}:{cls.__qualname__}"


def runtime_registrations() -> tuple[str, ...]:
    """The games given to `register` in this process, as ``"module:ClassName"`` paths.

    Worker processes started with ``spawn`` know only the built-in and entry point games; they
    call `register_path` with these to know the others too.
    """
    return tuple(_REGISTERED.values())


def register_path(path: str) -> type[Game]:
    """Import the class at ``"module:ClassName"`` and `register` it.

    Raises:
        RegistrationError: The class cannot be imported, or `register` refuses it.
    """
    module_name, _, qualname = path.partition(":")
    try:
        found: object = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except Exception as error:  # any error of a game's import is reported, not raised as is
        raise RegistrationError(
            f"cannot import the game class {path!r}: {type(error).__name__}: {error}"
        ) from None
    if not isinstance(found, type):
        raise RegistrationError(f"{path!r} is not a class")
    return register(found)


def unregister(game_id: str) -> None:
    """Forget a game registered with `register` or by a plug-in (for tests); built-ins stay.

    Raises:
        UnknownGameError: No such registered game, or ``game_id`` is a built-in game.
    """
    if game_id in _BUILT_IN or game_id not in _LOADED:
        raise UnknownGameError(f"{game_id!r} is not a registered plug-in game")
    del _LOADED[game_id]
    _REGISTERED.pop(game_id, None)


def class_problems(game_class: object) -> list[str]:
    """What keeps ``game_class`` from being registered (empty when it can be)."""
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        return [f"{game_class!r} is not a subclass of ludoteca.Game"]
    problems = []
    game_id = getattr(game_class, "id", None)
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        problems.append(
            f"its id must be lower-case letters, digits and _ starting with a letter; "
            f"got {game_id!r}"
        )
    for attribute in ("name", "num_players", "player_names", "num_actions", "version"):
        if not hasattr(game_class, attribute):
            problems.append(f"it does not set {attribute}")
    if getattr(game_class, "__abstractmethods__", None):
        missing = ", ".join(sorted(game_class.__abstractmethods__))
        problems.append(f"it does not implement {missing}")
    problems.extend(f"info: {problem}" for problem in declaration_problems(game_class.info))
    return problems


def load_plugins() -> tuple[str, ...]:
    """Register the games of the ``ludoteca.games`` entry points (once per process).

    Each plug-in left out raises a `PluginWarning` (the first time only); front ends that show
    the problems themselves ignore the warnings and print what this returns.

    Returns:
        One line per plug-in left out, naming its entry point and what is wrong.
    """
    global _plugin_problems
    if _plugin_problems is not None:
        return tuple(_plugin_problems)
    _plugin_problems = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        problem = _load_plugin(point)
        if problem is not None:
            message = (
                f"plug-in game left out: entry point {point.name!r} = {point.value!r} "
                f"(group {ENTRY_POINT_GROUP}{_distribution(point)}): {problem}"
            )
            _plugin_problems.append(message)
            warnings.warn(message, PluginWarning, stacklevel=2)
    return tuple(_plugin_problems)


def _read_plugins() -> None:
    if _plugin_problems is None:
        load_plugins()


def _load_plugin(point: EntryPoint) -> str | None:
    """Register one entry point's game; what went wrong, or ``None``."""
    try:
        loaded = point.load()
    except Exception as error:  # any error of a plug-in's import must not stop Ludoteca
        return f"cannot import it: {type(error).__name__}: {error}"
    problems = class_problems(loaded)
    if problems:
        return "; ".join(problems)
    if loaded.id != point.name:
        return f"the entry point's name must be the game id {loaded.id!r}"
    if _LOADED.get(loaded.id) is loaded:
        return None
    if loaded.id in _BUILT_IN or loaded.id in _LOADED:
        return f"the game id {loaded.id!r} is taken by another game"
    _LOADED[loaded.id] = loaded
    return None


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f", from {dist.name} {dist.version}" if dist is not None else ""


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
    if key not in _BUILT_IN:
        _read_plugins()
        if key in _LOADED:
            return _LOADED[key]
        raise UnknownGameError(f"unknown game {game_id!r}; accepted: {_accepted()}")
    module_name, _, class_name = _BUILT_IN[key].partition(":")
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
