"""A computer player the example plug-in offers through the ``ludoteca.agents`` entry points.

A plug-in package declares it in its packaging metadata::

    [project.entry-points."ludoteca.agents"]
    nim_greedy = "ludoteca_nim.players:make_greedy"

and ``ludoteca arena nim nim_greedy random`` plays it. The player takes as many counters as it
may: a fair opponent for random play, and an easy one for perfect play.
"""

from __future__ import annotations

from ludoteca.core.game import Game, State


class GreedyPlayer:
    """Takes the most counters allowed (the legal move with the highest action index)."""

    def choose(self, state: State) -> str:
        """The text of the largest take, e.g. ``"t3"``."""
        return max(state.legal_moves(), key=lambda move: move.index).text


def make_greedy(game: Game, *, seed: int | None = None) -> GreedyPlayer:
    """The player for ``game`` (it needs no seed: it never draws)."""
    return GreedyPlayer()
