"""Finding a game's rules page: its declaration, docs/rules/<id>.md, or its docstring."""

from __future__ import annotations

import inspect
import sys
from importlib import resources
from pathlib import Path

from ludoteca.core.registry import game_class


def rules_text(game_id: str) -> str:
    """The rules page of a game (Markdown).

    In order: the page the game declares (``GameInfo.rules``); ``docs/rules/<id>.md`` from the
    installed package or the source tree; the docstring of the game's module (a plug-in game
    that declares no page), headed by the game's name.

    Raises:
        UnknownGameError: No such game.
    """
    cls = game_class(game_id)
    if cls.info.rules:
        return cls.info.rules
    name = f"{cls.id}.md"
    packaged = resources.files("ludoteca").joinpath("_docs", "rules", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    in_tree = Path(__file__).resolve().parents[3] / "docs" / "rules" / name
    if in_tree.is_file():
        return in_tree.read_text(encoding="utf-8")
    module = sys.modules.get(cls.__module__)
    doc = inspect.getdoc(module) or inspect.getdoc(cls) or "No rules page."
    return f"# {cls.name}\n\n{doc}\n"
