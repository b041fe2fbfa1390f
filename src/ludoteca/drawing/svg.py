"""Turning a `ludoteca.core.view.Drawing` into SVG markup.

Regions become focusable buttons (``data-region``, ``role="button"``, ``tabindex="0"``,
``aria-label``) the page script listens to; pieces are drawn in one of the shapes of
`ludoteca.core.view.PieceShape` with a ``<title>`` text alternative, laid out in a small grid
when several stand on one region so that every one stays visible; marks are texts and lines.
Style names become CSS classes (``region-dark``, ``piece-green``, ``mark-sacred``); the style
sheet gives every class a generic fallback, so an unknown style name is never invisible.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Collection
from functools import lru_cache
from html import escape

from ludoteca.core.view import Die, Drawing, Mark, Piece, Region

PIECE_FILL = 0.82  # a piece takes this share of its cell
_CLASS_SAFE = re.compile(r"[^a-z0-9_-]+")


def css_class(name: str) -> str:
    """A style name as a CSS class fragment (lower case, unsafe characters as ``-``)."""
    return _CLASS_SAFE.sub("-", name.lower()).strip("-") or "default"


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def render_svg(
    drawing: Drawing,
    *,
    interactive: bool = True,
    highlight: Collection[str] = (),
    title: str = "",
    game_id: str = "",
) -> str:
    """The drawing as one ``<svg>`` element.

    Args:
        drawing: What to draw.
        interactive: Whether regions are buttons (a lobby thumbnail is a plain picture).
        highlight: Region ids to mark with the class ``last-move`` (the last move's path).
        title: The accessible name of the whole picture.
        game_id: The game drawn: the picture gets the class ``game-<id>``, which scopes the
            colours the game declares (see `ludoteca.drawing.styles`).
    """
    pieces_by_region: dict[str, list[Piece]] = defaultdict(list)
    for piece in drawing.pieces:
        pieces_by_region[piece.region].append(piece)
    regions_by_id = {region.id: region for region in drawing.regions}
    role = 'role="group"' if interactive else 'role="img"'
    classes = f"board game-{css_class(game_id)}" if game_id else "board"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{classes}" {role} '
        f'viewBox="0 0 {_num(drawing.width)} {_num(drawing.height)}" '
        f'aria-label="{escape(title or "board")}">',
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append('<g class="regions">')
    parts.extend(_region(r, interactive, r.id in highlight) for r in drawing.regions)
    parts.append('</g><g class="marks" aria-hidden="true">')
    parts.extend(_mark(mark) for mark in drawing.marks)
    parts.append('</g><g class="pieces">')
    for region_id, pieces in pieces_by_region.items():
        region = regions_by_id.get(region_id)
        if region is not None:
            parts.extend(_stack(region, pieces))
    parts.append("</g></svg>")
    return "".join(parts)


# The parts are pure functions of frozen values, and most of a board is the same from one move
# to the next: each part's markup is kept, so a move redraws only what changed.
@lru_cache(maxsize=20_000)
def _region(region: Region, interactive: bool, is_last: bool) -> str:
    classes = f"region region-{css_class(region.style)}" + (" last-move" if is_last else "")
    if region.shape == "circle":
        radius = min(region.width, region.height) / 2
        shape = (
            f'<circle cx="{_num(region.x + region.width / 2)}" '
            f'cy="{_num(region.y + region.height / 2)}" r="{_num(radius)}"/>'
        )
    else:
        shape = (
            f'<rect x="{_num(region.x)}" y="{_num(region.y)}" width="{_num(region.width)}" '
            f'height="{_num(region.height)}"/>'
        )
    label = escape(region.label or region.id)
    attributes = f'class="{classes}" data-region="{escape(region.id)}"'
    if interactive:
        attributes += f' role="button" tabindex="0" aria-label="{label}"'
    return f"<g {attributes}><title>{label}</title>{shape}</g>"


@lru_cache(maxsize=5_000)
def _mark(mark: Mark) -> str:
    classes = f"mark mark-{css_class(mark.style)}"
    if mark.kind == "line":
        return (
            f'<line class="{classes}" x1="{_num(mark.x)}" y1="{_num(mark.y)}" '
            f'x2="{_num(mark.x2)}" y2="{_num(mark.y2)}"/>'
        )
    return (
        f'<text class="{classes}" x="{_num(mark.x)}" y="{_num(mark.y)}" '
        f'text-anchor="middle" dominant-baseline="central">{escape(mark.text)}</text>'
    )


def _stack(region: Region, pieces: list[Piece]) -> list[str]:
    """The pieces on one region, in a grid of cells so that all are visible."""
    count = len(pieces)
    columns = math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    if region.width >= region.height * 1.5:  # a long region: prefer one row
        columns, rows = count, 1
    elif region.height >= region.width * 1.5:
        columns, rows = 1, count
    cell = min(region.width / columns, region.height / rows)
    size = cell * PIECE_FILL
    left = region.x + (region.width - columns * cell) / 2
    top = region.y + (region.height - rows * cell) / 2
    return [
        _piece(
            piece,
            left + (i % columns + 0.5) * cell,
            top + (i // columns + 0.5) * cell,
            size,
        )
        for i, piece in enumerate(pieces)
    ]


@lru_cache(maxsize=20_000)
def _piece(piece: Piece, cx: float, cy: float, size: float) -> str:
    owner = "neutral" if piece.owner is None else str(piece.owner)
    classes = f"piece piece-{css_class(piece.style)} owner-{owner} shape-{css_class(piece.shape)}"
    label = escape(piece.label or piece.text or piece.shape)
    body = _shape(piece.shape, cx, cy, size / 2)
    text = ""
    if piece.text:
        text = (
            f'<text class="piece-text" x="{_num(cx)}" y="{_num(cy)}" text-anchor="middle" '
            f'dominant-baseline="central" font-size="{_num(size * 0.45)}">'
            f"{escape(piece.text)}</text>"
        )
    return (
        f'<g class="{classes}" data-region="{escape(piece.region)}" role="img" '
        f'aria-label="{label}"><title>{label}</title>{body}{text}</g>'
    )


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _star(cx: float, cy: float, r: float, tips: int = 5, inner: float = 0.45) -> str:
    points = []
    for i in range(tips * 2):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / tips
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return f'<polygon class="body" points="{_points(points)}"/>'


def _shape(shape: str, cx: float, cy: float, r: float) -> str:
    """The body of a piece of this shape, centred on ``cx, cy`` with radius ``r``."""
    if shape == "star":
        return _star(cx, cy, r)
    if shape == "sun":
        return _star(cx, cy, r, tips=12, inner=0.72)
    if shape == "moon":
        return (
            f'<path class="body" d="M {_num(cx + r * 0.3)} {_num(cy - r * 0.95)} '
            f"A {_num(r)} {_num(r)} 0 1 0 {_num(cx + r * 0.3)} {_num(cy + r * 0.95)} "
            f"A {_num(r * 0.75)} {_num(r * 0.75)} 0 1 1 {_num(cx + r * 0.3)} "
            f'{_num(cy - r * 0.95)} Z"/>'
        )
    if shape in ("square", "tile"):
        side = r * (1.6 if shape == "square" else 1.9)
        rounding = r * (0.1 if shape == "square" else 0.3)
        return (
            f'<rect class="body" x="{_num(cx - side / 2)}" y="{_num(cy - side / 2)}" '
            f'width="{_num(side)}" height="{_num(side)}" rx="{_num(rounding)}"/>'
        )
    if shape == "cross":
        a, b = r * 0.35, r * 0.95
        points = [
            (cx - a, cy - b), (cx + a, cy - b), (cx + a, cy - a), (cx + b, cy - a),
            (cx + b, cy + a), (cx + a, cy + a), (cx + a, cy + b), (cx - a, cy + b),
            (cx - a, cy + a), (cx - b, cy + a), (cx - b, cy - a), (cx - a, cy - a),
        ]  # fmt: skip
        return f'<polygon class="body" points="{_points(points)}"/>'
    if shape == "circle":
        return (
            f'<circle class="body ring" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r * 0.8)}" '
            f'stroke-width="{_num(r * 0.3)}"/>'
        )
    if shape == "coin":
        return (
            f'<circle class="body" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}"/>'
            f'<circle class="coin-rim" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r * 0.8)}"/>'
        )
    if shape == "pawn":
        base = [
            (cx - r * 0.25, cy - r * 0.15), (cx + r * 0.25, cy - r * 0.15),
            (cx + r * 0.7, cy + r * 0.9), (cx - r * 0.7, cy + r * 0.9),
        ]  # fmt: skip
        return (
            f'<circle class="body" cx="{_num(cx)}" cy="{_num(cy - r * 0.45)}" '
            f'r="{_num(r * 0.4)}"/><polygon class="body" points="{_points(base)}"/>'
        )
    # "disc" and any shape this module does not know: a plain round counter.
    return f'<circle class="body" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}"/>'


def die_faces(dice: tuple[Die, ...]) -> list[dict[str, object]]:
    """The dice as JSON-ready dictionaries for the page (value, face text, label, used)."""
    return [
        {
            "value": die.value,
            "faces": die.faces,
            "face": die.text or (str(die.value) if die.value else "–"),
            "label": die.label,
            "used": die.used,
        }
        for die in dice
    ]
