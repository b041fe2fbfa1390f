"""The kernels' `illegal_reason` agrees with the legal moves: a candidate move is refused exactly
when it is not legal, so the explanation of a refused move cannot drift from the rules."""

from __future__ import annotations

import random

import ludoteca
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.state import SaltaState


def _positions(options: dict[str, object], count: int, seed: int) -> list[SaltaState]:
    game = ludoteca.make("salta", **options)
    rng = random.Random(seed)
    state = game.initial_state()
    found = []
    while len(found) < count and not state.is_over:
        assert isinstance(state, SaltaState)
        found.append(state)
        for _ in range(rng.randint(1, 12)):
            if not state.is_over:
                state = state.apply(rng.choice(state.legal_moves()))
    return found


def test_every_candidate_is_refused_exactly_when_it_is_not_legal() -> None:
    for options in ({}, {"move_limit": 20, "scoring_cap": 40}):
        for state in _positions(options, 12, seed=4):
            legal = set(state.legal_actions())
            game = state.game
            for action in range(k.PASS):
                origin, destination = (
                    int(k.ACTION_ORIGIN[action]),
                    int(k.ACTION_DESTINATION[action]),
                )
                if destination < 0:
                    continue
                code = k.illegal_reason(
                    state.cells, game.params, game.goals, origin, destination, k.is_jump(action)
                )
                assert (code == k.LEGAL_MOVE) == (action in legal), (state.to_text(), action, code)
            passing = k.illegal_reason(state.cells, game.params, game.goals, -1, -1, False)
            assert (passing == k.LEGAL_MOVE) == (k.PASS in legal)
