"""The terminal's ``hint`` is the strongest level's move.

A mutant that asked level 1 for the hint instead of level 5 passed every CLI test: the only
hint test checked that the move was legal. This test loads a Splinter position where level 5
(alpha-beta, 80,000 positions) plays g11-SW whatever its seed, and level 1 (MCTS, 50
iterations) never does, so a hint from any level but the strongest shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ludoteca
from ludoteca import records
from ludoteca.ai import hint, levels
from tests.ai.test_search import AVOID_LOSS_IN_ONE
from tests.support import run_combined

SEEDS = range(4)


def test_the_hint_is_the_level_five_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The levels' node budget alone decides (no 1.8 s cap), so a busy machine cannot change
    # the moves compared here.
    monkeypatch.setattr(levels, "MOVE_TIME_CAP", 600.0)
    ((_, options, text, safe),) = [case for case in AVOID_LOSS_IN_ONE if case[0] == "splinter"]
    state = ludoteca.make("splinter", **options).parse_state(text)
    strongest = {hint(state, level=5, seed=seed) for seed in SEEDS}
    assert {h.move.text for h in strongest} == {"g11-SW"} and "g11-SW" in safe
    weakest = {hint(state, level=1, seed=seed).move.text for seed in SEEDS}
    assert "g11-SW" not in weakest  # the test tells the levels apart

    saved = tmp_path / "position.json"
    records.save(records.create(state.game, [], start=state, players=["human", "human"]), saved)
    status, out = run_combined(capsys, ["play", "--load", str(saved)], "hint")
    assert status == 0
    found = re.search(r"Hint: (\S+) \(estimated win chance (\d+%)\)", out)
    assert found is not None, out
    assert found.group(1) == "g11-SW"
    assert found.group(2) in {f"{h.win_chance:.0%}" for h in strongest}
