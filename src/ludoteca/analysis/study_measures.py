"""Every measure of a study tested, with Holm's correction over all the tests at once.

Seat balance and the first move are tested against 50 %, and each variant against the baseline
on every measure.

**Balance tests** (two-player games, every variant): a seat's share of the games someone won
against 50 % (*seat imbalance*), and the first mover's share of those games against 50 %
(*first-move advantage*; not tested where the same seat always moves first, as it is then the
seat test again). Both use the score test, whose 95 % acceptance region is the Wilson interval
shown beside the share: a flagged imbalance is one whose interval excludes 50 % and that stays
significant after Holm's correction.

**Comparisons** (each variant against the baseline):

=====================  ============================================================
measure                test and interval
=====================  ============================================================
each seat's win rate   pooled two-proportion z test; Newcombe's interval
draws, safeguard ends  the same
first player's wins    the same
plies, turns           Mann-Whitney U test; Welch interval of the difference of means,
                       bootstrap interval of the difference of medians
legal moves/decision   z test of the difference of two ratios (delta method)
lead changes           Mann-Whitney U test; Welch interval of the means (agent play)
decisiveness           the same, over the games won (agent play)
=====================  ============================================================

A test that cannot show anything (both samples constant and alike, no game to count) or that
repeats another on the same counts (without draws, seat 1's win rate is one minus seat 0's) is
kept in the list with ``tested`` false and left out of Holm's family, which would otherwise pay
for it. Holm's correction then runs over every test of the study at once, so the chance of even
one false alarm in the whole study stays at most `LEVEL`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.analysis.proportions import holm_adjust, one_proportion_test, two_proportion_test
from ludoteca.analysis.study_games import NO_WINNER, GameTable
from ludoteca.analysis.study_statistics import (
    mean_difference,
    median_difference,
    rank_test,
    ratio_difference,
)

LEVEL = 0.05  # significance level of every test, after Holm's correction

#: What each measure is called in reports, by its id in ``study.json``.
MEASURE_NAMES = {
    "seat_balance": "seat balance",
    "first_move": "first-move advantage",
    "win_rate": "win rate",
    "draw_rate": "draws",
    "safeguard_rate": "safeguard ends",
    "first_player_win_rate": "first player's win rate",
    "plies": "game length in plies",
    "turns": "game length in turns",
    "legal_moves": "legal moves per decision",
    "lead_changes": "lead changes per game",
    "decisiveness": "decisiveness",
}


def balance_tests(
    variant: int, summary: dict[str, Any], players: Sequence[str]
) -> list[dict[str, Any]]:
    """The seat-balance and first-move tests of one two-player variant against 50 %."""
    decided = summary["decided_games"]
    tests = [
        _proportion_test(
            "seat_balance",
            variant,
            summary["wins"][0],
            decided,
            note=f"{players[0]}'s share of the {decided:,} games won",
        )
    ]
    always = summary["first_mover_always"]
    first = _proportion_test(
        "first_move",
        variant,
        summary["first_move_wins"],
        summary["first_move_games"],
        note=f"the first mover's share of the {summary['first_move_games']:,} games won",
    )
    if always is not None:
        first["tested"] = False
        first["note"] = f"{players[always]} always moves first: the seat-balance test says it all"
    tests.append(first)
    return tests


def _proportion_test(
    measure: str, variant: int, x: int, n: int, *, note: str, seat: int | None = None
) -> dict[str, Any]:
    result = one_proportion_test(x, n)
    return {
        "measure": measure,
        "seat": seat,
        "variant": variant,
        "against": None,
        "value": x / n if n else None,
        "reference": 0.5,
        "difference": result.difference,
        "ci": [result.low, result.high],
        "z": result.z,
        "p_value": result.p_value,
        "method": "score test against 50 %, Wilson interval",
        "counts": [x, n],
        "tested": n > 0,
        "note": note,
    }


def comparison_tests(
    variant: int,
    baseline: int,
    summaries: Sequence[dict[str, Any]],
    tables: Sequence[GameTable],
    *,
    players: Sequence[str],
    seed: int,
) -> list[dict[str, Any]]:
    """Every measure of ``variant`` against ``baseline``."""
    mine, base = summaries[variant], summaries[baseline]
    seats = len(players)
    tests: list[dict[str, Any]] = []

    def rate(measure: str, x: str | int, seat: int | None = None) -> None:
        mine_x = mine[x] if isinstance(x, str) else mine["wins"][x]
        base_x = base[x] if isinstance(x, str) else base["wins"][x]
        counts = [mine_x, mine["games"], base_x, base["games"]]
        result = two_proportion_test(*counts)
        test = _comparison(measure, variant, baseline, seat)
        test.update(
            value=mine_x / mine["games"],
            reference=base_x / base["games"],
            difference=result.difference,
            ci=[result.low, result.high],
            z=result.z,
            p_value=result.p_value,
            method="two-proportion z test, Newcombe's interval",
            counts=counts,
            tested=_informative(counts),
        )
        _mark_repeat(test, tests, players)
        tests.append(test)

    for seat in range(seats):
        rate("win_rate", seat, seat)
    if seats > 1:
        rate("draw_rate", "draws")
        rate("first_player_win_rate", "first_player_wins")
    rate("safeguard_rate", "safeguard_ends")
    a, b = tables[variant].columns, tables[baseline].columns
    for measure in ("plies", "turns"):
        tests.append(_length_test(measure, variant, baseline, a[measure], b[measure], seed))
    tests.append(_legal_moves_test(variant, baseline, a, b))
    lead_a, lead_b = a["lead_changes"], b["lead_changes"]
    if (lead_a >= 0).any() and (lead_b >= 0).any():
        tests.append(
            _mean_test("lead_changes", variant, baseline, lead_a[lead_a >= 0], lead_b[lead_b >= 0])
        )
    decided_a = a["decided_at"][~np.isnan(a["decided_at"])]
    decided_b = b["decided_at"][~np.isnan(b["decided_at"])]
    if decided_a.size and decided_b.size:
        tests.append(_mean_test("decisiveness", variant, baseline, decided_a, decided_b))
    return tests


def _comparison(measure: str, variant: int, baseline: int, seat: int | None) -> dict[str, Any]:
    return {"measure": measure, "seat": seat, "variant": variant, "against": baseline}


def _informative(counts: list[int]) -> bool:
    """Whether two rates can show a difference: not both 0 % or both 100 %, no empty sample."""
    x1, n1, x2, n2 = counts
    return n1 > 0 and n2 > 0 and not (x1 == x2 == 0 or (x1 == n1 and x2 == n2))


def _mark_repeat(
    test: dict[str, Any], earlier: list[dict[str, Any]], players: Sequence[str]
) -> None:
    """Mark a rate test that repeats an earlier one on the same (or complementary) counts."""
    x1, n1, x2, n2 = test["counts"]
    for other in earlier:
        if other["tested"] and other["counts"] in ([x1, n1, x2, n2], [n1 - x1, n1, n2 - x2, n2]):
            test["tested"] = False
            test["note"] = f"the same counts as {measure_name(other, players)}: tested there"
            return


def measure_name(test: dict[str, Any], players: Sequence[str]) -> str:
    """What a test measures, in words: ``Salt's win rate``, ``game length in plies``."""
    name = MEASURE_NAMES[test["measure"]]
    return name if test.get("seat") is None else f"{players[test['seat']]}'s {name}"


def _length_test(
    measure: str,
    variant: int,
    baseline: int,
    a: npt.NDArray[np.int64],
    b: npt.NDArray[np.int64],
    seed: int,
) -> dict[str, Any]:
    ranks = rank_test(a, b)
    means = mean_difference(a, b)
    medians = median_difference(a, b, seed=_bootstrap_seed(seed, variant, baseline, measure))
    test = _comparison(measure, variant, baseline, None)
    reference = float(b.mean()) if b.size else None
    test.update(
        value=float(a.mean()) if a.size else None,
        reference=reference,
        difference=None if means is None else means.estimate,
        ci=None if means is None else [means.low, means.high],
        relative=None if means is None or not reference else means.estimate / reference,
        median=[float(np.median(a)), float(np.median(b))] if a.size and b.size else None,
        median_difference=None if medians is None else medians.estimate,
        median_ci=None if medians is None else [medians.low, medians.high],
        superiority=ranks.superiority,
        z=ranks.z,
        p_value=ranks.p_value,
        method="Mann-Whitney U test; Welch interval (means), bootstrap interval (medians)",
        tested=_varies(a, b),
    )
    return test


def _mean_test(
    measure: str, variant: int, baseline: int, a: npt.NDArray[Any], b: npt.NDArray[Any]
) -> dict[str, Any]:
    ranks = rank_test(a, b)
    means = mean_difference(a, b)
    test = _comparison(measure, variant, baseline, None)
    test.update(
        value=float(a.mean()),
        reference=float(b.mean()),
        difference=None if means is None else means.estimate,
        ci=None if means is None else [means.low, means.high],
        superiority=ranks.superiority,
        z=ranks.z,
        p_value=ranks.p_value,
        method="Mann-Whitney U test; Welch interval of the difference of means",
        counts=[int(a.size), int(b.size)],
        tested=_varies(a, b),
    )
    return test


def _legal_moves_test(
    variant: int, baseline: int, a: dict[str, npt.NDArray[Any]], b: dict[str, npt.NDArray[Any]]
) -> dict[str, Any]:
    result = ratio_difference(a["legal_moves"], a["decisions"], b["legal_moves"], b["decisions"])
    test = _comparison("legal_moves", variant, baseline, None)
    mine = a["legal_moves"].sum() / max(1, a["decisions"].sum())
    base = b["legal_moves"].sum() / max(1, b["decisions"].sum())
    test.update(
        value=float(mine),
        reference=float(base),
        difference=None if result is None else result.estimate,
        ci=None if result is None else [result.low, result.high],
        relative=None if result is None or not base else result.estimate / float(base),
        z=0.0 if result is None else result.z,
        p_value=1.0 if result is None else result.p_value,
        method="z test of two ratios (all legal moves over all decisions), delta method",
        tested=result is not None and (result.estimate != 0 or result.high > result.low),
    )
    return test


def _varies(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> bool:
    """Whether two samples can differ: both non-empty and not one value throughout."""
    if a.size == 0 or b.size == 0:
        return False
    both = np.concatenate([a, b])
    return bool(both.min() != both.max())


def _bootstrap_seed(seed: int, variant: int, baseline: int, measure: str) -> int:
    """The bootstrap's seed: fixed by the study's seed and what is compared."""
    code = sum(ord(c) * 31**i for i, c in enumerate(measure)) % 2**31
    return int(np.random.SeedSequence([seed, variant, baseline, code]).generate_state(1)[0])


def study_tests(
    summaries: Sequence[dict[str, Any]],
    tables: Sequence[GameTable],
    *,
    players: Sequence[str],
    baseline: int,
    seed: int,
) -> list[dict[str, Any]]:
    """Every test of the study, Holm-corrected together: balance first, then comparisons."""
    tests: list[dict[str, Any]] = []
    if len(players) == 2:
        for index, summary in enumerate(summaries):
            tests += balance_tests(index, summary, players)
    for index in range(len(summaries)):
        if index != baseline:
            tests += comparison_tests(
                index, baseline, summaries, tables, players=players, seed=seed
            )
    family = [test for test in tests if test["tested"]]
    for test, adjusted in zip(family, holm_adjust([t["p_value"] for t in family]), strict=True):
        test["p_adjusted"] = adjusted
        test["significant"] = adjusted < LEVEL
    for test in tests:
        test.setdefault("note", None)
        if not test["tested"]:
            test["p_adjusted"] = None
            test["significant"] = False
    return tests


def first_mover_always(first_movers: npt.NDArray[np.int64]) -> int | None:
    """The seat that made every game's first decision, or ``None`` if it varies."""
    seats = np.unique(first_movers[first_movers != NO_WINNER])
    return int(seats[0]) if seats.size == 1 else None
