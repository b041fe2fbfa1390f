"""Drawings as SVG: focusable regions, pieces with text alternatives, stacks, fallbacks."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import ludoteca
from ludoteca.core.view import Die, Drawing, Mark, Piece, Region
from ludoteca.drawing.svg import die_faces, render_svg
from ludoteca.web.boards import board_of

SVG = "{http://www.w3.org/2000/svg}"
SHAPES = ("disc", "star", "moon", "sun", "square", "cross", "circle", "coin", "pawn", "tile")


def drawing(*pieces: Piece, style: str = "dark") -> Drawing:
    return Drawing(
        width=2,
        height=1,
        regions=(
            Region("a1", 0, 0, 1, 1, "a1, dark square", style),
            Region("hand", 1, 0, 1, 1, "White's hand", "hand", "circle"),
        ),
        pieces=pieces,
        marks=(Mark("text", 0.5, 1.2, "a", style="coordinate"), Mark("line", 0, 0, x2=2, y2=1)),
    )


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_regions_are_focusable_buttons_named_by_their_label() -> None:
    root = parse(render_svg(drawing()))
    regions = root.findall(f".//{SVG}g[@data-region]")
    assert [(r.get("data-region"), r.get("role"), r.get("tabindex")) for r in regions] == [
        ("a1", "button", "0"),
        ("hand", "button", "0"),
    ]
    assert regions[0].get("aria-label") == "a1, dark square"
    assert "region-dark" in (regions[0].get("class") or "")
    assert regions[1].find(f"{SVG}circle") is not None
    assert root.get("viewBox") == "0 0 2 1"


def test_a_thumbnail_has_no_buttons() -> None:
    svg = render_svg(drawing(), interactive=False, title="start")
    assert 'role="button"' not in svg and "tabindex" not in svg
    assert parse(svg).get("role") == "img"


@pytest.mark.parametrize("shape", SHAPES)
def test_every_piece_shape_is_drawn_with_a_title(shape: str) -> None:
    piece = Piece("a1", 0, shape, "3", f"Green {shape} 3", "green")  # type: ignore[arg-type]
    root = parse(render_svg(drawing(piece)))
    (group,) = root.findall(f".//{SVG}g[@role='img']")
    assert group.findtext(f"{SVG}title") == f"Green {shape} 3"
    assert group.get("aria-label") == f"Green {shape} 3"
    assert "piece-green" in (group.get("class") or "")
    assert len(group) >= 3  # title, at least one body element, the text


def test_unknown_styles_and_shapes_still_draw_something() -> None:
    piece = Piece("a1", None, "blob", "", "a mystery", "glitter")  # type: ignore[arg-type]
    svg = render_svg(drawing(piece, style="weird style!"))
    assert "region-weird-style" in svg
    assert "piece-glitter owner-neutral" in svg
    assert '<circle class="body"' in svg  # the fallback shape: a disc


def test_several_pieces_on_one_region_are_all_visible() -> None:
    pieces = [Piece("a1", i % 2, "disc", "", f"counter {i}") for i in range(5)]
    root = parse(render_svg(drawing(*pieces)))
    centres = set()
    for group in root.findall(f".//{SVG}g[@role='img']"):
        circle = group.find(f"{SVG}circle")
        assert circle is not None
        x, y, r = (float(circle.get(k, "0")) for k in ("cx", "cy", "r"))
        assert x - r >= 0 and x + r <= 1 and y - r >= 0 and y + r <= 1
        centres.add((x, y))
    assert len(centres) == 5


def test_text_is_escaped() -> None:
    piece = Piece("a1", 0, "coin", "<b>", 'say "hi" & <go>')
    svg = render_svg(drawing(piece))
    parse(svg)  # well-formed XML
    assert "<b>" not in svg and "&lt;b&gt;" in svg


def test_marks_and_highlights() -> None:
    svg = render_svg(drawing(), highlight={"hand"})
    assert re.search(r'class="region region-hand last-move" data-region="hand"', svg)
    assert '<text class="mark mark-coordinate"' in svg and '<line class="mark mark-default"' in svg


def test_dice_as_data() -> None:
    faces = die_faces(
        (Die(4, 6, "die 4: unused"), Die(0, 6, "not rolled"), Die(1, 6, "x", True, "☀"))
    )
    assert [f["face"] for f in faces] == ["4", "–", "☀"]
    assert faces[2]["used"] is True


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_every_game_board_is_well_formed_svg(game_id: str) -> None:
    state = ludoteca.make(game_id).initial_state()
    board = board_of(state)
    assert board.svg is not None, f"{game_id} has no drawing"
    root = parse(board.svg)
    regions = {g.get("data-region") for g in root.findall(f".//{SVG}g[@role='button']")}
    for path in board.click_paths.values():
        assert set(path) <= regions
