"""Saved games: ``ludoteca.records`` is `ludoteca.core.records` under its public name."""

from ludoteca.core.records import (
    FORMAT,
    FORMAT_VERSION,
    GameRecord,
    create,
    from_dict,
    load,
    loads,
    save,
)

__all__ = ["FORMAT", "FORMAT_VERSION", "GameRecord", "create", "from_dict", "load", "loads", "save"]
