from __future__ import annotations

import pytest

import ludoteca
from ludoteca.core.options import OptionSpec, parse_option_assignments


def test_games_lists_the_registered_games_sorted() -> None:
    assert "salta" in ludoteca.GAMES
    assert list(ludoteca.GAMES) == sorted(ludoteca.GAMES)


def test_an_unknown_game_lists_the_accepted_ones() -> None:
    with pytest.raises(ludoteca.UnknownGameError, match="unknown game 'chess'; accepted: .*salta"):
        ludoteca.make("chess")


def test_unknown_game_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        ludoteca.make("go")


def test_game_names_are_read_as_people_type_them() -> None:
    assert ludoteca.make(" Salta ").id == "salta"


def test_an_unknown_option_lists_the_accepted_options() -> None:
    with pytest.raises(
        ludoteca.InvalidOptionError, match="no option 'speed'; accepted options: goal"
    ):
        ludoteca.make("salta", speed=3)


@pytest.mark.parametrize(
    ("options", "accepted"),
    [
        ({"scoring": "fast"}, "one of played, simplified"),
        ({"goal": 3}, "one of seed, ludii"),
        ({"move_limit": 0}, "an integer from 1 to 1000000 or none"),
        ({"move_limit": "many"}, "an integer from 1 to 1000000 or none"),
        ({"move_limit": True}, "an integer from 1 to 1000000 or none"),
        ({"scoring_cap": None}, "an integer from 1 to 1000000"),
    ],
)
def test_a_bad_option_value_lists_the_accepted_values(
    options: dict[str, object], accepted: str
) -> None:
    with pytest.raises(ludoteca.InvalidOptionError, match=accepted):
        ludoteca.make("salta", **options)


def test_options_are_given_as_values_or_as_text() -> None:
    from_text = ludoteca.make("salta", move_limit="50", scoring="simplified")
    from_values = ludoteca.make("salta", move_limit=50, scoring="simplified")
    assert from_text == from_values
    assert ludoteca.make("salta", move_limit="none").options["move_limit"] is None


def test_options_lists_every_option_and_is_a_copy() -> None:
    game = ludoteca.make("salta")
    options = game.options
    assert options == {
        "goal": "seed",
        "move_limit": 120,
        "scoring": "played",
        "scoring_cap": 400,
        "max_plies": 10_000,
    }
    options["goal"] = "ludii"
    assert game.options["goal"] == "seed"


def test_games_compare_by_id_and_options() -> None:
    assert ludoteca.make("salta") == ludoteca.make("salta", goal="seed")
    assert ludoteca.make("salta") != ludoteca.make("salta", goal="ludii")
    assert len({ludoteca.make("salta"), ludoteca.make("salta")}) == 1
    assert repr(ludoteca.make("salta", goal="ludii")) == "ludoteca.make('salta', goal='ludii')"


def test_boolean_options_read_true_and_false() -> None:
    spec = OptionSpec("capture", False, "knock-off mode")
    assert spec.coerce("true") is True
    assert spec.coerce(False) is False
    with pytest.raises(ludoteca.InvalidOptionError, match="true or false"):
        spec.coerce("yes")


def test_option_assignments_need_an_equals_sign() -> None:
    assert parse_option_assignments(["scoring = simplified"]) == {"scoring": "simplified"}
    with pytest.raises(ludoteca.InvalidOptionError, match="name=value"):
        parse_option_assignments(["scoring"])
