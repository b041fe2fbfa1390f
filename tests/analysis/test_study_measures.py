"""What a study's numbers mean: who counts as the first player, what gets flagged, seeds.

The summaries and tests are checked on tables of games written by hand, where the right answer
can be counted on one's fingers, and on real random games where the answer is known.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca.analysis import study as study_module
from ludoteca.analysis.proportions import holm_adjust
from ludoteca.analysis.study import (
    AGENT_BATCH,
    RANDOM_BATCH,
    GameTable,
    SeedBook,
    batch_seed,
    plan_study,
    run_study,
)
from ludoteca.analysis.study_measures import study_tests
from ludoteca.analysis.study_summary import summarise, summarise_variant
from tests.analysis.study_tables import table


def summary(games: GameTable) -> dict[str, Any]:
    return summarise_variant(ludoteca.make("splinter", first="random"), {}, games)


def test_the_first_player_is_whoever_moved_first_not_seat_0() -> None:
    # Six games with a random first mover. Seat 0 wins games 1, 2, 3; the first mover wins
    # games 1 (seat 0 first), 4 and 5 (seat 1 first, seat 1 wins); game 6 is drawn.
    winners = [0, 0, 0, 1, 1, -1]
    movers = [0, 1, 1, 1, 1, 0]
    counted = summary(table(winners, movers))
    assert counted["wins"] == [3, 2]
    assert counted["first_player_wins"] == 3
    assert counted["first_player_win_rate"] == pytest.approx(3 / 6)
    assert counted["first_mover_games"] == [2, 4]
    assert counted["first_mover_always"] is None
    # Shares of the five games someone won: seat 0 won 3, the first mover 3.
    assert counted["decided_games"] == 5
    assert counted["decided_share"] == [pytest.approx(3 / 5), pytest.approx(2 / 5)]
    assert counted["first_move_games"] == 5
    assert counted["first_move_share"] == pytest.approx(3 / 5)


def test_when_seat_1_always_moves_first_its_wins_are_the_first_players() -> None:
    counted = summary(table([0, 1, 1, 1], [1, 1, 1, 1]))
    assert counted["first_player_wins"] == 3
    assert counted["first_mover_always"] == 1


def test_in_random_first_games_both_seats_move_first_and_the_count_follows_the_games() -> None:
    plan = plan_study("salt_n_pepper", options=["ranks=6"], games=4000, seed=2)
    (games,) = run_study(plan)
    winners, movers = games.columns["winner"], games.columns["first_mover"]
    counted = summarise(plan, [games])["variants"][0]
    assert ludoteca.make("salt_n_pepper").options["first"] == "random"
    # The bag draw picks the first mover: about half the games each (4000 games: 47-53 %).
    assert 0.47 < counted["first_mover_games"][0] / 4000 < 0.53
    assert counted["first_player_wins"] == int(np.count_nonzero(winners == movers))
    assert counted["first_player_wins"] != counted["wins"][0]
    fixed = plan_study("salt_n_pepper", options=["ranks=6"], vary=["first=0,1"], games=50)
    first_0, first_1 = run_study(fixed)
    assert set(first_0.columns["first_mover"].tolist()) == {0}
    assert set(first_1.columns["first_mover"].tolist()) == {1}


def test_pepper_winning_most_random_games_is_flagged_and_longer_games_are_found() -> None:
    plan = plan_study("salt_n_pepper", vary=["ranks=8,10"], games=2000, seed=1)
    result = summarise(plan, run_study(plan))
    kinds = [(f["kind"], f["variant"], f["measure"]) for f in result["findings"]]
    for variant in (0, 1):
        assert result["variants"][variant]["decided_share"][1] > 0.8  # Pepper
        assert ("seat_imbalance", variant, "seat_balance") in kinds
    assert ("difference", 1, "plies") in kinds
    assert ("difference", 1, "turns") in kinds
    assert ("difference", 1, "legal_moves") in kinds
    plies = next(t for t in result["tests"] if t["measure"] == "plies")
    assert plies["significant"] and plies["difference"] > 50 and plies["ci"][0] > 50
    assert plies["relative"] == pytest.approx(plies["difference"] / plies["reference"])
    text = " ".join(f["text"] for f in result["findings"])
    assert "Pepper wins" in text and "random" in text and "--agents" in text


def test_a_fair_table_flags_nothing_and_a_lopsided_one_does() -> None:
    fair = table([0, 1] * 300, [0, 1, 1, 0] * 150)
    lopsided = table([0] * 420 + [1] * 180, [0, 1] * 300)
    players = ("Blue", "Red")
    summaries = [summary(fair), summary(lopsided)]
    tests = study_tests(summaries, [fair, lopsided], players=players, baseline=0, seed=0)
    flagged = {(t["measure"], t["variant"]) for t in tests if t["significant"]}
    assert ("seat_balance", 0) not in flagged and ("first_move", 0) not in flagged
    assert ("seat_balance", 1) in flagged  # 70 % of 600 games
    assert ("win_rate", 1) in flagged
    assert ("first_move", 1) not in flagged  # the first mover won 300 of 600
    seat = next(t for t in tests if t["measure"] == "seat_balance" and t["variant"] == 1)
    assert seat["value"] == pytest.approx(0.7)
    assert seat["ci"][0] + 0.5 > 0.5  # its Wilson interval excludes 50 %


def test_holms_correction_runs_over_every_test_of_the_study() -> None:
    plan = plan_study("salt_n_pepper", vary=["ranks=6,8,10"], games=500, seed=3)
    tests = summarise(plan, run_study(plan))["tests"]
    family = [t for t in tests if t["tested"]]
    assert len(family) > 6  # balance tests of 3 variants and 2 comparisons on every measure
    assert [t["p_adjusted"] for t in family] == pytest.approx(
        holm_adjust([t["p_value"] for t in family])
    )
    left_out = [t for t in tests if not t["tested"]]
    assert all(t["p_adjusted"] is None and not t["significant"] for t in left_out)
    # Without draws Pepper's win rate is one minus Salt's: one test, not two.
    repeats = [t for t in left_out if t["measure"] == "win_rate"]
    assert repeats and all("Salt's win rate" in t["note"] for t in repeats)


def test_no_two_batches_of_a_study_share_a_seed() -> None:
    plan = plan_study(
        "salt_n_pepper", vary=["ranks=6,8,10", "first=0,1"], games=3 * RANDOM_BATCH, seed=9
    )
    seeds = [b.seed for b in plan.batches]
    assert len(seeds) == 18 and len(set(seeds)) == 18
    by_variant = [{b.seed for b in plan.batches if b.variant == v} for v in range(6)]
    assert all(a.isdisjoint(b) for i, a in enumerate(by_variant) for b in by_variant[i + 1 :])
    agents = plan_study("salta", lineups=[["random:seed=1"], ["random:seed=2"]], games=9)
    assert [b.count for b in agents.batches] == [AGENT_BATCH, AGENT_BATCH, 1] * 2
    assert len({b.seed for b in agents.batches}) == 6


def test_variants_play_different_games() -> None:
    # Two variants whose rules agree until the end of most games would play the very same
    # games if they shared seeds; with their own seeds their games differ.
    plan = plan_study("salt_n_pepper", vary=["max_plies=1999,2000"], games=200, seed=4)
    a, b = run_study(plan)
    assert not np.array_equal(a.columns["plies"], b.columns["plies"])


def test_a_seed_drawn_twice_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def clashing(seed: int, variant: int, batch: int, attempt: int = 0) -> int:
        return 1000 + attempt  # every first draw collides

    monkeypatch.setattr(study_module, "batch_seed", clashing)
    book = SeedBook(0)
    seeds = [book.seed_for(v, b) for v in range(3) for b in range(2)]
    assert seeds == [1000, 1001, 1002, 1003, 1004, 1005]
    assert book.seed_for(1, 1) == 1003  # asked again: the same seed
    assert batch_seed(0, 0, 0) == batch_seed(0, 0, 0, attempt=0) != batch_seed(0, 0, 0, 1)
