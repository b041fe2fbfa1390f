"""Saved games: ``ludoteca.records`` is `ludoteca.core.records` under its public name."""

from ludoteca.core.records import (
    FORMAT,
    FORMAT_VERSION,
    READABLE_VERSIONS,
    Agreed,
    GameRecord,
    create,
    from_dict,
    is_saved_game,
    load,
    loads,
    save,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "READABLE_VERSIONS",
    "Agreed",
    "GameRecord",
    "create",
    "from_dict",
    "is_saved_game",
    "load",
    "loads",
    "save",
]
