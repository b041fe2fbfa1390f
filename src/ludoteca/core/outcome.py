"""The result of a finished game, and the marker for chance nodes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

CHANCE: Final = -1
"""``State.to_move`` at a chance node (a die roll, a random first player)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    Attributes:
        winner: The winning player's index, or ``None`` for a draw (and for a lost solitaire).
        returns: One number per player: +1 for a win, -1 for a loss, 0 for a draw.
        reason: A sentence for people, e.g. ``"Red reached its goal"``.
    """

    winner: int | None
    returns: tuple[float, ...]
    reason: str

    @classmethod
    def win(cls, winner: int, num_players: int, reason: str) -> Outcome:
        """The outcome in which ``winner`` wins and everybody else loses."""
        returns = tuple(1.0 if p == winner else -1.0 for p in range(num_players))
        return cls(winner, returns, reason)

    @classmethod
    def draw(cls, num_players: int, reason: str) -> Outcome:
        """A draw: every player's return is 0."""
        return cls(None, (0.0,) * num_players, reason)

    @classmethod
    def solitaire_loss(cls, reason: str) -> Outcome:
        """The single player of a solitaire has lost."""
        return cls(None, (-1.0,), reason)
