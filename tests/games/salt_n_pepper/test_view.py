"""What the front ends draw of a Salt 'n' Pepper position, and the clicks that make its moves."""

from __future__ import annotations

from collections import Counter

from ludoteca.games.salt_n_pepper.view import click_paths, drawing
from tests.games.salt_n_pepper.helpers import make, state_at
from tests.games.salt_n_pepper.test_home_and_end import (
    NEAR_HOME,
    TWO_PEPPER_PIECES_ON_TOP,
    WAITING_AND_A_LEAP_HOME,
)
from tests.support import play


def test_the_start_shows_15_salt_and_15_pepper_discs_on_their_squares() -> None:
    picture = drawing(make(first=0).initial_state())
    assert Counter(piece.style for piece in picture.pieces) == {"salt": 15, "pepper": 15}
    assert {piece.shape for piece in picture.pieces} == {"disc"}
    salt_squares = {piece.region for piece in picture.pieces if piece.style == "salt"}
    assert {"a10", "b9", "j9", "a8"} < salt_squares
    assert {picture.region(square).style for square in salt_squares} == {"dark"}
    assert picture.region("a1").label == "a1, light square, Pepper piece"


def test_each_home_is_a_region_beyond_its_back_rank() -> None:
    picture = drawing(make(first=0).initial_state())
    salt_home, pepper_home = picture.region("home-salt"), picture.region("home-pepper")
    a1, a10 = picture.region("a1"), picture.region("a10")
    assert pepper_home.y + pepper_home.height <= a10.y  # Pepper goes home above rank 10
    assert salt_home.y >= a1.y + a1.height  # Salt goes home below rank 1
    assert salt_home.label == "Salt's home, below rank 1: 0 of 15 pieces"
    assert len(picture.regions) == 102


def test_pieces_home_are_drawn_on_their_home_region() -> None:
    picture = drawing(state_at(NEAR_HOME, "s"))
    assert Counter((p.region, p.style) for p in picture.pieces if p.region.startswith("home")) == {
        ("home-salt", "salt"): 13,
        ("home-pepper", "pepper"): 14,
    }
    assert len(picture.pieces) == 30
    assert picture.notes[0] == "Home: Salt 13/15, Pepper 14/15."


def test_the_board_follows_the_ranks_option() -> None:
    picture = drawing(make(first=1, ranks=7).initial_state())
    assert len(picture.regions) == 72
    assert "j7" in {r.id for r in picture.regions} and "a8" not in {r.id for r in picture.regions}
    assert picture.region("home-pepper").label.startswith("Pepper's home, above rank 7")


def test_a_step_and_a_leap_are_clicked_as_origin_then_destination() -> None:
    paths = click_paths(make(first=0).initial_state())
    assert paths["c8-d7"] == ("c8", "d7")
    assert len(paths) == 9


def test_going_home_is_clicked_as_the_piece_then_its_home() -> None:
    waiting = state_at(WAITING_AND_A_LEAP_HOME, "s")
    assert click_paths(waiting) == {"b1-home": ("b1", "home-salt")}
    leap_home = play(waiting, "b1-home", "a3-a4")
    assert click_paths(leap_home)["c2xhome"] == ("c2", "home-salt")
    pepper = state_at(TWO_PEPPER_PIECES_ON_TOP, "p")
    assert click_paths(pepper) == {
        "a10-home": ("a10", "home-pepper"),
        "e10-home": ("e10", "home-pepper"),
    }


def test_at_the_bag_draw_nothing_is_clicked() -> None:
    state = make().initial_state()
    assert click_paths(state) == {}
    assert drawing(state).status == "Bag draw: who moves first? (first-0: Salt, first-1: Pepper)"
