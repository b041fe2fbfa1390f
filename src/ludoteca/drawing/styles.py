"""The style sheet of the games' own colours, made from their declarations.

Each game declares the colours of its piece styles and of its own region styles
(`ludoteca.core.GameInfo.piece_styles`, ``region_styles``). This module turns them into CSS
rules scoped to that game's boards (``svg.board.game-<id>``), so two games may give the same
style name different colours. The page links it after ``app.css``, whose generic rules make any
undeclared name visible anyway.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from ludoteca.core.game import Game
from ludoteca.core.info import declaration_problems
from ludoteca.drawing.svg import css_class


def game_class_name(game_id: str) -> str:
    """The class a game's boards carry, e.g. ``game-salta``."""
    return f"game-{css_class(game_id)}"


def game_styles_css(games: Iterable[type[Game]]) -> str:
    """CSS rules for the piece and region styles every game in ``games`` declares.

    A game whose declaration has problems is left out (the registry refuses those anyway), so a
    bad colour can never inject other CSS.
    """
    lines = ["/* Generated from each game's declaration (GameInfo); do not edit. */"]
    for cls in games:
        info = cls.info
        if declaration_problems(info):
            continue
        board = f"svg.board.{game_class_name(cls.id)}"
        if info.piece_styles or info.region_styles:
            lines.append(f"/* {cls.name} */")
        for piece in info.piece_styles:
            scope = f"{board} .piece-{piece.name}"
            lines.append(f"{scope} .body {{ fill: {piece.fill}; }}")
            lines.append(f"{scope} .body.ring {{ fill: none; stroke: {piece.fill}; }}")
            if piece.text:
                lines.append(f"{scope} .piece-text {{ fill: {piece.text}; }}")
        for region in info.region_styles:
            scope = f"{board} .region-{region.name}"
            lines.append(f"{scope} > rect, {scope} > circle {{ fill: {region.fill}; }}")
    return "\n".join(lines) + "\n"


def styles_version(css: str) -> str:
    """A short digest of the style sheet, for cache-busting its URL."""
    return hashlib.sha256(css.encode()).hexdigest()[:12]
