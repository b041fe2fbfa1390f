"""Every piece stands out from every place it stands on: the WCAG contrast ratio of each piece
style's colour against the colour of each region style it is drawn on is at least 3:1 (the
ratio WCAG 2.1 asks of the parts of a picture one must see, 1.4.11).

The colours are the ones the page draws: a game's declared ``GameInfo.piece_styles`` and
``region_styles``, else the shared region styles of ``app.css``. Where each piece style stands
is read from the game's own drawings, along seeded random games from the start.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import ludoteca
from ludoteca.core.info import GameInfo

APP_CSS = Path(ludoteca.__file__).parent / "web" / "static" / "app.css"
MINIMUM = 3.0
GAMES_PLAYED = 6
MAX_PLIES = 300


def luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#rrggbb`` colour."""
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", colour), f"{colour!r} is not #rrggbb"
    channels = []
    for start in (1, 3, 5):
        value = int(colour[start : start + 2], 16) / 255
        channels.append(value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def shared_region_colours() -> tuple[dict[str, str], str]:
    """The region styles ``app.css`` colours for every game, and the colour of any other."""
    css = APP_CSS.read_text(encoding="utf-8")
    rule = r"\.region-([\w-]+) > (?:rect|circle)[^{]*\{ fill: (#[0-9a-f]{6})"
    shared = dict(re.findall(rule, css))
    default = re.search(r"\.region > rect, \.region > circle \{ fill: (#[0-9a-f]{6})", css)
    assert shared and default is not None, "app.css no longer colours regions as this test reads"
    return shared, default[1]


def where_pieces_stand(game_id: str) -> set[tuple[str, str]]:
    """(piece style, region style) of every piece drawn along seeded random games."""
    game = ludoteca.make(game_id)
    drawing = type(game).info.view.drawing
    assert drawing is not None
    seen: set[tuple[str, str]] = set()
    rng = random.Random(game_id)
    for _ in range(GAMES_PLAYED):
        state = game.initial_state()
        for _ in range(MAX_PLIES):
            picture = drawing(state)
            styles = {region.id: region.style for region in picture.regions}
            seen.update((piece.style, styles[piece.region]) for piece in picture.pieces)
            if state.is_over:
                break
            state = state.apply(rng.choice(list(state.legal_moves())))
    return seen


def test_contrast_ratio_matches_wcag_examples() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#2f8f46", "#2f8f46") == pytest.approx(1)


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_every_piece_stands_out_from_every_place_it_stands_on(game_id: str) -> None:
    info: GameInfo = type(ludoteca.make(game_id)).info
    shared, default = shared_region_colours()
    regions = {**shared, **{style.name: style.fill for style in info.region_styles}}
    pieces = {style.name: style.fill for style in info.piece_styles}
    pairs = where_pieces_stand(game_id)
    assert pairs, f"{game_id}: no piece drawn"
    too_faint = []
    for piece, region in sorted(pairs):
        assert piece in pieces, f"{game_id}: piece style {piece!r} has no declared colour"
        ratio = contrast(pieces[piece], regions.get(region, default))
        if ratio < MINIMUM:
            too_faint.append(
                f"{piece} {pieces[piece]} on {region or 'unstyled'} "
                f"{regions.get(region, default)}: {ratio:.2f}:1"
            )
    assert too_faint == [], f"{game_id}: under {MINIMUM}:1: " + "; ".join(too_faint)
