"""Players from outside Ludoteca's agent specs, named ``tests.ai.outside_players:<name>``."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core.game import Game, Move, State

NOT_CALLABLE = 42


class LowestIndexPlayer:
    """Plays the legal move with the lowest action index, as a `Move`."""

    def __init__(self, game: Game, seed: int | None) -> None:
        self.game = game
        self.seed = seed

    def choose(self, state: State) -> Move:
        return min(state.legal_moves(), key=lambda move: move.index)


def make_lowest(game: Game, *, seed: int | None = None) -> LowestIndexPlayer:
    return LowestIndexPlayer(game, seed)


class _RandomIndexPlayer:
    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


def make_random_index(game: Game, *, seed: int | None = None) -> Any:
    """Answers with integer actions, drawn from a generator seeded by ``seed``."""
    return _RandomIndexPlayer(seed)


class _Cheat:
    def choose(self, state: State) -> str:
        return "z9-z10"


def make_cheat(game: Game, *, seed: int | None = None) -> Any:
    return _Cheat()


def make_nothing(game: Game, *, seed: int | None = None) -> Any:
    return object()


def make_failing(game: Game, *, seed: int | None = None) -> Any:
    raise RuntimeError("no weights for this board size")
