"""Finding a game's rules page (docs/rules/<id>.md), installed or in a source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ludoteca.core.registry import game_class


def rules_text(game_id: str) -> str:
    """The rules page of a game, from the installed package or the source tree.

    Raises:
        UnknownGameError: No such game.
    """
    name = f"{game_class(game_id).id}.md"
    packaged = resources.files("ludoteca").joinpath("_docs", "rules", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    in_tree = Path(__file__).resolve().parents[3] / "docs" / "rules" / name
    return in_tree.read_text(encoding="utf-8")
