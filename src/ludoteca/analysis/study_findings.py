"""A study's findings in plain words: what was played, what is flagged, what changed.

`findings` reads the study's dictionary (`ludoteca.analysis.study_summary.summarise`) and returns
one entry per statement, in the order a reader needs them: what the games were (and what random
play can and cannot say), each seat imbalance and first-move advantage, each significant
difference from the baseline with its size and interval, and warnings (safeguard ends). The
report puts them at its top and the command prints them; ``study.json`` keeps them.

Every statement is built from the tests of `ludoteca.analysis.study_measures`: a difference is
stated only when it is significant after Holm's correction over the whole study.
"""

from __future__ import annotations

from typing import Any

from ludoteca.analysis.study_measures import measure_name

SAFEGUARD_WARNING = 0.01  # share of games ended by a safeguard worth a warning


def findings(study: dict[str, Any]) -> list[dict[str, Any]]:
    """The study's statements: ``{"kind", "variant", "measure", "text"}`` each."""
    found = [_played(study)]
    tests = study["tests"]
    for test in tests:
        if test["significant"] and test["against"] is None:
            found.append(_balance(study, test))
    if len(study["players"]) == 2 and not any(
        t["significant"] and t["against"] is None for t in tests
    ):
        found.append(
            _entry(
                "balanced",
                None,
                None,
                "No seat imbalance or first-move advantage found: every share of the games won "
                "is consistent with 50 %.",
            )
        )
    for test in tests:
        if test["significant"] and test["against"] is not None:
            found.append(_difference(study, test))
    for index, variant in enumerate(study["variants"]):
        if variant["safeguard_rate"] >= SAFEGUARD_WARNING:
            found.append(
                _entry(
                    "safeguard",
                    index,
                    "safeguard_rate",
                    f"{variant['label']}: {variant['safeguard_rate']:.1%} of the games were "
                    "ended by an engine safeguard, not by the rules; its numbers measure the "
                    "safeguard as much as the game.",
                )
            )
    exact = [v["exact_first_player_value"] for v in study["variants"]]
    if any(value is not None for value in exact):
        known = {value for value in exact if value is not None}
        values = (
            f"{known.pop():.1%}"
            if len(known) == 1
            else ", ".join(
                f"{v['label']} {value:.1%}"
                for v, value in zip(study["variants"], exact, strict=True)
                if value is not None
            )
        )
        found.append(
            _entry(
                "exact",
                None,
                "first_move",
                "Under perfect play (the solved game) the first mover's chance of winning, a "
                f"draw counting half, is {values}.",
            )
        )
    tested = sum(t["tested"] for t in tests)
    significant = sum(t["significant"] for t in tests)
    comparisons = any(t["against"] is not None for t in tests)
    found.append(
        _entry(
            "tests",
            None,
            None,
            f"{tested} test{'' if tested == 1 else 's'} in all, {significant} significant "
            "after Holm's correction "
            f"(level {study['level']:.0%} for the whole study)."
            + (
                ""
                if not comparisons
                or any(t["significant"] and t["against"] is not None for t in tests)
                else " No measure differs significantly from the baseline."
            ),
        )
    )
    return found


def _entry(kind: str, variant: int | None, measure: str | None, text: str) -> dict[str, Any]:
    return {"kind": kind, "variant": variant, "measure": measure, "text": text}


def _played(study: dict[str, Any]) -> dict[str, Any]:
    games = study["games_per_variant"]
    count = len(study["variants"])
    what = f"{games:,} games of each of {count} variants" if count > 1 else f"{games:,} games"
    if study["random_play"]:
        text = (
            f"{what}, every seat playing uniformly random legal moves. Random play measures the "
            "rules' raw shape (length, choices, how the start and the dice tilt a game), not "
            "the balance between people who play well: a side that wins most random games may "
            "not win between skilled players. For balance questions, repeat the study with "
            "agents of equal strength (--agents level:2, or several strengths)."
        )
    else:
        lineups = [
            f"{lineup[0]} on every seat" if len(set(lineup)) == 1 else " vs ".join(lineup)
            for lineup in study["lineups"]
        ]
        selfplay = all(len(set(lineup)) == 1 for lineup in study["lineups"])
        text = f"{what}, played by {', then '.join(lineups)}." + (
            " Each lineup is one agent on every seat, so its seat and first-move shares are "
            "the balance at that strength."
            if selfplay
            else " The first spec plays the first seat throughout."
        )
    return _entry("played", None, None, text)


def _balance(study: dict[str, Any], test: dict[str, Any]) -> dict[str, Any]:
    variant = study["variants"][test["variant"]]
    low, high = test["ci"][0] + 0.5, test["ci"][1] + 0.5
    share = test["value"]
    where = f"{variant['label']}: " if len(study["variants"]) > 1 else ""
    if test["measure"] == "seat_balance":
        players = study["players"]
        ahead = 0 if share > 0.5 else 1
        shown, shown_low, shown_high = (
            (share, low, high) if ahead == 0 else (1 - share, 1 - high, 1 - low)
        )
        always = variant["first_mover_always"]
        text = (
            f"Seat imbalance. {where}{players[ahead]} wins {shown:.1%} of the games won "
            f"[{shown_low:.1%}–{shown_high:.1%}]"
            + (
                f"; {players[always]} always moves first, so the seat and the first move "
                "cannot be told apart here."
                if always is not None
                else "."
            )
        )
        return _entry("seat_imbalance", test["variant"], "seat_balance", text)
    kind = "First-move advantage" if share > 0.5 else "Second-move advantage"
    text = (
        f"{kind}. {where}the first mover wins {share:.1%} of the games won [{low:.1%}–{high:.1%}]."
    )
    return _entry("first_move_advantage", test["variant"], "first_move", text)


def _difference(study: dict[str, Any], test: dict[str, Any]) -> dict[str, Any]:
    variant = study["variants"][test["variant"]]
    base = study["variants"][test["against"]]
    name = measure_name(test, study["players"])
    low, high = test["ci"]
    if test["measure"] in ("plies", "turns", "legal_moves", "lead_changes", "decisiveness"):
        digits = 2 if test["measure"] in ("legal_moves", "decisiveness", "lead_changes") else 1
        text = (
            f"{name}: {test['value']:.{digits}f} against {test['reference']:.{digits}f} on "
            f"average, {test['difference']:+.{digits}f} [{low:+.{digits}f} to {high:+.{digits}f}]"
        )
        if test.get("relative") is not None:
            text += f" ({test['relative']:+.0%})"
        if test.get("median_difference") is not None:
            m_low, m_high = test["median_ci"]
            text += (
                f"; median {test['median'][0]:g} against {test['median'][1]:g}, "
                f"{test['median_difference']:+g} [{m_low:+g} to {m_high:+g}]"
            )
    else:
        text = (
            f"{name}: {test['value']:.1%} against {test['reference']:.1%}, "
            f"{100 * test['difference']:+.1f} points [{100 * low:+.1f} to {100 * high:+.1f}]"
        )
    adjusted = _p(test["p_adjusted"])
    text = f"{variant['label']} against {base['label']}, {text} (adjusted p {adjusted})."
    return _entry("difference", test["variant"], test["measure"], text)


def _p(value: float) -> str:
    return "< 0.0001" if value < 0.0001 else f"= {value:.4f}"
