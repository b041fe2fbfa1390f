"""`KernelGame` and `ArrayState`: the base classes for games whose rules run as compiled kernels.

The position lives in one small read-only numpy integer array. The game's kernels module
provides three functions with the same shape in every game, where ``args`` are the game's
`KernelGame.kernel_args` (its options and tables as arrays)::

    legal_actions(cells, *args) -> int64 array        # sorted; empty once the game is over
    apply_action(cells, *args, action) -> int32 array  # a new array; cells is read-only
    random_playouts(start, *args, count, seed) -> int64 totals (see ludoteca.core.playouts)

(docs/kernels.md has the whole contract, observation and batch kernels included.)

These classes turn those integers into `Move` values and `PlayoutStats`, and give states
equality and hashing by the array's contents.
"""

from __future__ import annotations

from abc import abstractmethod
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ludoteca.core.game import Game, Move, PlayoutStats, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.playouts import PlayoutRecords

Cells = npt.NDArray[np.int32]


class KernelGame(Game):
    """A game whose rules are the functions of a numba kernels module (see the module docs).

    Subclasses set ``kernels`` (the module) and, in ``__init__``, ``kernel_args`` (the arrays
    every kernel takes after the position).
    """

    kernels: ClassVar[ModuleType]
    kernel_args: tuple[npt.NDArray[Any], ...]

    @abstractmethod
    def initial_state(self) -> ArrayState:
        """The position before the first move (or the first chance node)."""

    def random_playouts(self, count: int, seed: int) -> PlayoutStats:
        """Play ``count`` random games from the start inside the compiled kernels.

        Chance outcomes are drawn with their probabilities and moves uniformly among the legal
        ones, from numba's generator seeded with ``seed``.
        """
        start = self.initial_state().cells
        totals = self.kernels.random_playouts(start, *self.kernel_args, count, seed)
        return PlayoutStats.from_totals(count, totals, self.num_players)

    def playout_records(self, count: int, seed: int) -> PlayoutRecords:
        """The games of ``random_playouts(count, seed)`` one by one (the very same games).

        Per game: plies, decisions, legal moves, turns, winner, whether a safeguard ended it and
        the first decision's player; and the mean legal-move count per decision index.
        """
        start = self.initial_state().cells
        records, curve = self.kernels.random_playout_records(start, *self.kernel_args, count, seed)
        return PlayoutRecords.from_arrays(records, curve)


class ArrayState(State):
    """A position stored as a read-only ``int32`` array, with rules in compiled kernels."""

    __slots__ = ("_cells",)
    _cells: Cells
    _game: KernelGame

    move_class: ClassVar[type[Move]] = Move

    def __init__(self, game: KernelGame, cells: Cells) -> None:
        super().__init__(game)
        frozen = np.array(cells, dtype=np.int32, copy=True)
        frozen.flags.writeable = False
        object.__setattr__(self, "_cells", frozen)

    @property
    def cells(self) -> Cells:
        """The raw position array (read-only), for agents and kernels."""
        return self._cells

    def _legal_actions(self) -> npt.NDArray[np.int64]:
        """Legal action indices (chance outcome indices at a chance node), in a fixed order."""
        game = self._game
        actions: npt.NDArray[np.int64] = game.kernels.legal_actions(self._cells, *game.kernel_args)
        return actions

    def _successor(self, action: int) -> Cells:
        """The array of the position after the legal ``action``."""
        game = self._game
        cells: Cells = game.kernels.apply_action(self._cells, *game.kernel_args, action)
        return cells

    def legal_action_array(self) -> npt.NDArray[np.int64]:
        """The legal actions as a fresh int64 array, sorted (empty once the game is over).

        For searches: no tuple of Python ints is built.
        """
        if self.is_over:
            return np.empty(0, dtype=np.int64)
        return self._legal_actions()

    def chance_probability_array(self) -> npt.NDArray[np.float64]:
        """The probabilities of the chance outcomes at a chance node, as a fresh float64 array.

        In the order of `legal_action_array` (entry ``i`` is the probability of outcome
        ``legal_action_array()[i]``); empty where no chance outcome is due (a player to move,
        or the game over). For searches: no moves or tuples of pairs are built.
        """
        if self.to_move != CHANCE:
            return np.empty(0, dtype=np.float64)
        return np.array(self._chance_probabilities(), dtype=np.float64)

    def expand(self) -> tuple[npt.NDArray[np.int64], Cells, npt.NDArray[np.int64]]:
        """Every legal action with the position after it, in one compiled call.

        The ``expand`` kernel's ``(actions, children, players)``, where ``players[i]`` is the
        player to move after ``actions[i]``, `CHANCE` at a chance node, or `GAME_OVER` once the
        game is over.
        """
        game = self._game
        actions, children, players = game.kernels.expand(self._cells, *game.kernel_args)
        return actions, children, players

    def child(self, row: Cells) -> ArrayState:
        """The state of one row of `expand`'s ``children`` (copied)."""
        return self._adopt(np.array(row, dtype=np.int32, copy=True))

    def successor(self, action: int) -> ArrayState:
        """The position after ``action``, which the caller knows to be legal (no check).

        For searches that take their actions from `legal_action_array`; an illegal action gives
        an unspecified position. Everyone else uses `apply_action`.
        """
        return self._adopt(self._successor(action))

    def _adopt(self, cells: Cells) -> ArrayState:
        """A state of the same class holding ``cells``, which nobody else may change."""
        state = type(self).__new__(type(self))
        State.__init__(state, self._game)
        cells.flags.writeable = False
        object.__setattr__(state, "_cells", cells)
        return state

    def legal_actions(self) -> tuple[int, ...]:
        """The integer actions of `legal_moves`, straight from the kernel (cached)."""
        actions: tuple[int, ...] | None = self._cache.get("actions")
        if actions is None:
            actions = () if self.is_over else tuple(int(a) for a in self._legal_actions())
            self._cache["actions"] = actions
        return actions

    def apply_action(self, action: int) -> ArrayState:
        """The position after the legal ``action``, without building move texts.

        Raises:
            IllegalMoveError: No legal move has this index here.
        """
        if action not in self.legal_actions():
            self.move_from_index(action)  # raises with the list of legal actions
        return type(self)(self._game, self._successor(action))

    def random_rollout(self, max_plies: int, seed: int) -> ArrayState:
        """At most ``max_plies`` random plies in one compiled call (see `State.random_rollout`).

        A negative ``seed`` (`ludoteca.core.search.GOING_ON`) does not reseed numba's generator
        but goes on with its current stream: a search seeds it once and saves the reseeding.
        """
        game = self._game
        cells: Cells = game.kernels.random_rollout(self._cells, *game.kernel_args, max_plies, seed)
        return self._adopt(cells)

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The game's ``observation`` kernel's tensor for ``player`` (see `State.observation`).

        Raises:
            ValueError: ``player`` is not a player index of this game.
        """
        player = self._check_player(player)
        game = self._game
        shape = game.observation_shape
        out = np.empty(int(np.prod(shape)), dtype=np.float32)
        game.kernels.observation(self._cells, *game.kernel_args, player, out)
        return out.reshape(shape)

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """The ``action_mask`` kernel's mask (see `State.legal_action_mask`); a fresh array."""
        game = self._game
        out = np.empty(game.num_actions, dtype=np.bool_)
        game.kernels.action_mask(self._cells, *game.kernel_args, out)
        return out

    @abstractmethod
    def _action_text(self, action: int) -> str:
        """The canonical text of a legal ``action`` in this position."""

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        is_chance = self.to_move == CHANCE
        return tuple(
            self.move_class(int(a), self._action_text(int(a)), is_chance)
            for a in self._legal_actions()
        )

    def _apply_legal(self, move: Move) -> State:
        return type(self)(self._game, self._successor(move.index))

    def _key(self) -> Any:
        return self._cells.tobytes()
