"""The game contract: `Game`, `State` and `Move`.

Every game in Ludoteca is a `Game` (rules plus options) whose positions are immutable `State`
values. A state knows whose turn it is (a player index, `CHANCE` at a chance node, ``None`` once the
game is over), its legal moves in a fixed order, and how to apply one, returning a new state.
Moves and positions have canonical one-line texts that parse back to equal values.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, NoReturn

import numpy as np
import numpy.typing as npt

from ludoteca.core.errors import IllegalMoveError, InvalidMoveError
from ludoteca.core.info import GameInfo
from ludoteca.core.options import OptionSpec, OptionValue, format_option_value, resolve_options
from ludoteca.core.outcome import CHANCE, Outcome
from ludoteca.core.playouts import (
    T_DECISIONS,
    T_DRAWS,
    T_LEGAL_MOVES,
    T_LONGEST,
    T_PLIES,
    T_SAFEGUARD,
    T_TURNS,
    T_WINS,
)


@dataclass(frozen=True, slots=True)
class Move:
    """A move, or the outcome of a chance node, in canonical text and integer form.

    Attributes:
        index: The move's integer action (``0 <= index < game.num_actions``); for a chance
            outcome, its index among the game's chance outcomes.
        text: The canonical notation; ``str(move)`` returns it.
        is_chance: Whether this is the outcome of a chance node rather than a player's choice.
    """

    index: int
    text: str
    is_chance: bool = False

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class PlayoutStats:
    """Totals from a batch of uniformly random playouts (see `Game.random_playouts`).

    Attributes:
        games: Playouts run to the end.
        plies: Moves applied, chance outcomes included.
        decisions: Decision states visited (a player to move).
        legal_moves: Sum of the number of legal moves over those decision states.
        wins: Games won, per player.
        draws: Games without a winner (in a solitaire: lost games, which have no winner).
        longest: Plies in the longest game.
        turns: Turns played: one decision in Salta, Splinter and Salt 'n' Pepper; a roll and the
            move (or pass) after it in Pente Grammai; a roll and everything played until the
            turn ends in Steppin' Stones. The first-player draw is not a turn.
        safeguard_ends: Games ended by an engine safeguard (``max_plies``, ``max_turns``, Salt
            'n' Pepper's double-pass stop) rather than by a rule.
    """

    games: int
    plies: int
    decisions: int
    legal_moves: int
    wins: tuple[int, ...]
    draws: int
    longest: int
    turns: int = 0
    safeguard_ends: int = 0

    @classmethod
    def from_totals(cls, games: int, totals: Sequence[int], num_players: int) -> PlayoutStats:
        """Read the totals array of a ``random_playouts`` kernel (see `ludoteca.core.playouts`)."""
        return cls(
            games=games,
            plies=int(totals[T_PLIES]),
            decisions=int(totals[T_DECISIONS]),
            legal_moves=int(totals[T_LEGAL_MOVES]),
            wins=tuple(int(totals[T_WINS + p]) for p in range(num_players)),
            draws=int(totals[T_DRAWS]),
            longest=int(totals[T_LONGEST]),
            turns=int(totals[T_TURNS]),
            safeguard_ends=int(totals[T_SAFEGUARD]),
        )


class Game(ABC):
    """A game's rules with one choice of options.

    Subclasses set the class attributes and implement the abstract methods. Games compare equal
    when they have the same id and options.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[int]
    num_players: ClassVar[int]
    player_names: ClassVar[tuple[str, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    num_actions: ClassVar[int]
    info: ClassVar[GameInfo] = GameInfo()
    """What the AI, terminal and web need beyond the rules (levels, heuristics, view, styles)."""

    def __init__(self, **options: Any) -> None:
        self._options = resolve_options(self.id, self.option_specs, options)

    @property
    def options(self) -> dict[str, OptionValue]:
        """Every option with its value (a fresh dict; changing it changes nothing)."""
        return dict(self._options)

    @abstractmethod
    def initial_state(self) -> State:
        """The position before the first move (or the first chance node)."""

    @abstractmethod
    def parse_state(self, text: str) -> State:
        """Read a position written by `State.to_text`.

        Raises:
            InvalidStateError: The text is malformed or the position is impossible.
        """

    @abstractmethod
    def random_playouts(self, count: int, seed: int) -> PlayoutStats:
        """Play ``count`` uniformly random games from the start in compiled code (benchmarks)."""

    # -- for learning agents (ludoteca.rl); docs/rl.md describes each game's tensor ------------

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of `State.observation`'s float32 tensor with these options.

        Options may change it (a board with more ranks has bigger planes). Every game of
        Ludoteca declares it; a game that does not raises `NotImplementedError`.
        """
        raise NotImplementedError(f"{self.name} declares no observation tensor")

    @property
    def num_chance_outcomes(self) -> int:
        """How many chance outcomes the game has with these options (0 without chance nodes).

        Chance outcomes have their own index space, apart from the players' actions: the
        `Move.index` of a chance outcome (and each index of `State.chance_outcome_actions`) is
        its index among the game's chance outcomes, in ``range(num_chance_outcomes)``, the same
        in every position (a die roll of 3 has one index wherever it is rolled).
        """
        raise NotImplementedError(f"{self.name} declares no chance outcome count")

    @property
    def max_game_length(self) -> int:
        """An upper bound on the plies of a game, chance outcomes included.

        It comes from the rules and the engine safeguards (``max_plies``, ``max_turns``) with
        these options; no game ever runs longer.
        """
        raise NotImplementedError(f"{self.name} declares no maximum game length")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.id == other.id and self._options == other._options

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted(self._options.items(), key=lambda kv: kv[0]))))

    def __repr__(self) -> str:
        changed = [
            f"{spec.name}={self._options[spec.name]!r}"
            for spec in self.option_specs
            if self._options[spec.name] != spec.default
        ]
        return f"ludoteca.make({', '.join([repr(self.id), *changed])})"

    def describe_options(self) -> str:
        """The options as ``name=value`` text, e.g. ``"goal=seed move_limit=120"``."""
        return " ".join(f"{k}={format_option_value(v)}" for k, v in self._options.items())

    # A game is its id and options: it pickles as those, and a copy is the game itself (nothing
    # in it ever changes), so copying a state or an environment never copies kernel tables.
    def __reduce__(self) -> tuple[Any, ...]:
        from ludoteca.core.registry import is_registered_as

        if is_registered_as(self.id, type(self)):
            return (restore_game, (self.id, self.options))
        # A game class that is not registered (a test's toy game) is found by its import path.
        return (_restore_unregistered_game, (type(self), self.options))

    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self


class State(ABC):
    """An immutable position of a game.

    Subclasses implement the abstract members; the base class provides move parsing, checked
    `apply`, equality and hashing by value. Cached values are kept in ``_cache``; nothing else
    changes after construction.
    """

    __slots__ = ("_cache", "_game")
    _cache: dict[str, Any]
    _game: Game

    #: The accepted move forms, for error messages, e.g. ``"c3-d4 (step), e5xg7 (jump), pass"``.
    move_forms: ClassVar[str]
    #: A regular expression that every well-formed move text (after normalising) matches.
    move_syntax: ClassVar[re.Pattern[str]]

    def __init__(self, game: Game) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_cache", {})

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable; use apply() for a new state")

    @property
    def game(self) -> Game:
        """The game (rules and options) this position belongs to."""
        return self._game

    # -- what subclasses provide ------------------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The player to move, `CHANCE` at a chance node, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it runs."""

    @abstractmethod
    def _compute_legal_moves(self) -> tuple[Move, ...]:
        """All legal moves (or chance outcomes) in the game's fixed order."""

    @abstractmethod
    def _apply_legal(self, move: Move) -> State:
        """The position after ``move``, which is known to be legal."""

    @abstractmethod
    def to_text(self) -> str:
        """The canonical one-line position text; `Game.parse_state` reads it back."""

    @abstractmethod
    def _key(self) -> Any:
        """A hashable value that identifies the position within its game."""

    def _chance_probabilities(self) -> tuple[float, ...]:
        """Probabilities of `legal_moves` at a chance node (games with chance override this)."""
        raise NotImplementedError(f"{self._game.id} has no chance nodes")

    def _why_illegal(self, text: str) -> str:
        """Why a well-formed move is not legal here (games override this with their rules)."""
        return f"{text} is not a legal move in this position"

    def _normalise_move_text(self, text: str) -> str:
        """Canonical spelling of typed move text (games may relax case or spacing)."""
        return " ".join(text.split())

    # -- the public contract ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves in a fixed order; at a chance node, the possible outcomes."""
        moves: tuple[Move, ...] | None = self._cache.get("legal")
        if moves is None:
            moves = () if self.is_over else self._compute_legal_moves()
            self._cache["legal"] = moves
        return moves

    def _legal_by_text(self) -> Mapping[str, Move]:
        """The legal moves by their text (cached: a chance node may have a thousand)."""
        by_text: dict[str, Move] | None = self._cache.get("by_text")
        if by_text is None:
            by_text = {move.text: move for move in self.legal_moves()}
            self._cache["by_text"] = by_text
        return by_text

    def _legal_by_index(self) -> Mapping[int, Move]:
        """The legal moves by their integer action (cached)."""
        by_index: dict[int, Move] | None = self._cache.get("by_index")
        if by_index is None:
            by_index = {move.index: move for move in self.legal_moves()}
            self._cache["by_index"] = by_index
        return by_index

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """``((outcome, probability), ...)`` at a chance node; ``()`` elsewhere."""
        if self.to_move != CHANCE:
            return ()
        return tuple(zip(self.legal_moves(), self._chance_probabilities(), strict=True))

    # -- for learning agents (ludoteca.rl) -----------------------------------------------------

    def chance_outcome_actions(self) -> tuple[tuple[int, float], ...]:
        """``((index, probability), ...)`` at a chance node; ``()`` elsewhere.

        The indices are chance outcome indices (``range(game.num_chance_outcomes)``), the same
        numbers `apply_action` takes at a chance node.
        """
        return tuple((move.index, p) for move, p in self.chance_outcomes())

    def returns(self) -> tuple[float, ...]:
        """One return per player: zeros while the game runs, then the outcome's returns."""
        outcome = self.outcome
        if outcome is None:
            return (0.0,) * self._game.num_players
        return outcome.returns

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A fresh bool array of ``game.num_actions``: True at each legal action's index.

        All False at a chance node (chance outcomes have their own index space, see
        `chance_outcome_actions`) and once the game is over.
        """
        mask = np.zeros(self._game.num_actions, dtype=np.bool_)
        if self.to_move is not None and self.to_move != CHANCE:
            mask[list(self.legal_actions())] = True
        return mask

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """The position as ``player`` sees it: a fresh float32 tensor of the observation shape.

        The shape is ``game.observation_shape``; docs/rl.md gives each game's planes. Defined in
        every position, chance nodes and finished games included.

        Raises:
            ValueError: ``player`` is not a player index of this game.
        """
        raise NotImplementedError(f"{self._game.name} provides no observation tensor")

    def _check_player(self, player: int) -> int:
        """``player`` as an int, if it is a player index of this game."""
        num_players = self._game.num_players
        if (
            isinstance(player, bool)
            or not isinstance(player, (int, np.integer))
            or not 0 <= player < num_players
        ):
            raise ValueError(
                f"player must be a player index, 0 to {num_players - 1}; got {player!r}"
            )
        return int(player)

    def parse_move(self, text: str) -> Move:
        """Read move text and return the legal move it names.

        Raises:
            InvalidMoveError: The text is not a move in this game's notation.
            IllegalMoveError: The move is well formed but not legal here (the message says why).
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text such as {self.move_forms}; got {text!r}")
        canonical = self._normalise_move_text(text)
        if not self.move_syntax.fullmatch(canonical):
            raise InvalidMoveError(
                f"{text.strip()!r} is not a move in {self._game.name} notation; "
                f"accepted forms: {self.move_forms}"
            )
        if self.outcome is not None:
            raise IllegalMoveError(f"the game is over ({self.outcome.reason}); no move is legal")
        move = self._legal_by_text().get(canonical)
        if move is None:
            raise IllegalMoveError(self._why_illegal(canonical))
        return move

    def move_from_index(self, index: int) -> Move:
        """The legal move with this integer action (or chance outcome index).

        Raises:
            IllegalMoveError: No legal move has this index here.
        """
        move = self._legal_by_index().get(index)
        if move is not None:
            return move
        raise IllegalMoveError(
            f"action {index} is not legal here; legal actions: "
            + (", ".join(str(m.index) for m in self.legal_moves()) or "none (the game is over)")
        )

    def legal_actions(self) -> tuple[int, ...]:
        """The integer actions of `legal_moves`, in the same order (no move texts are built).

        Searching agents use this with `apply_action`; at a chance node these are the outcome
        indices.
        """
        return tuple(move.index for move in self.legal_moves())

    def apply_action(self, action: int) -> State:
        """The position after the legal move (or chance outcome) with integer ``action``.

        Raises:
            IllegalMoveError: No legal move has this index here.
        """
        return self._apply_legal(self.move_from_index(action))

    def random_rollout(self, max_plies: int, seed: int) -> State:
        """The position after at most ``max_plies`` random plies from this one.

        Chance outcomes are drawn with their probabilities and moves uniformly among the legal
        ones, from a generator seeded with ``seed``; the rollout stops early when the game ends.
        Kernel games override this with one compiled call.
        """
        rng = random.Random(seed)
        state: State = self
        for _ in range(max_plies):
            if state.is_over:
                break
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                move = rng.choice(state.legal_moves())
            state = state._apply_legal(move)
        return state

    def apply(self, move: Move | str) -> State:
        """Return the position after ``move`` (a `Move` or its text); this state is unchanged.

        Raises:
            InvalidMoveError: Unparsable move text, or a value that is not a move.
            IllegalMoveError: The move is not legal here.
        """
        if isinstance(move, str):
            return self._apply_legal(self.parse_move(move))
        if not isinstance(move, Move):
            raise InvalidMoveError(f"apply() takes a Move or move text; got {move!r}")
        if self._legal_by_index().get(move.index) != move:
            if self.outcome is not None:
                raise IllegalMoveError(
                    f"the game is over ({self.outcome.reason}); no move is legal"
                )
            if self.move_syntax.fullmatch(self._normalise_move_text(move.text)):
                raise IllegalMoveError(self._why_illegal(self._normalise_move_text(move.text)))
            raise IllegalMoveError(f"{move!r} is not a legal move in this position")
        return self._apply_legal(move)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            type(self) is type(other) and self._game == other._game and self._key() == other._key()
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._game, self._key()))

    def __repr__(self) -> str:
        return f"{self._game!r}.parse_state({self.to_text()!r})"

    # A state is a value: it pickles as its game (id and options) and its position text, which
    # `Game.parse_state` reads back to an equal state, and a copy is the state itself.
    def __reduce__(self) -> tuple[Any, ...]:
        return (restore_state, (self._game, self.to_text()))

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self


@lru_cache(maxsize=64)
def _cached_game(game_id: str, options: tuple[tuple[str, OptionValue], ...]) -> Game:
    from ludoteca.core.registry import make

    return make(game_id, **dict(options))


def restore_game(game_id: str, options: Mapping[str, OptionValue]) -> Game:
    """The game ``game_id`` with ``options``, as unpickled (games of one pickle share it).

    Raises:
        UnknownGameError, InvalidOptionError: The id or an option is not known here (a plug-in
            game that this process has not installed or registered, say).
    """
    return _cached_game(game_id, tuple(sorted(options.items())))


def _restore_unregistered_game(cls: type[Game], options: Mapping[str, OptionValue]) -> Game:
    return cls(**options)


def restore_state(game: Game, text: str) -> State:
    """The position ``text`` of ``game``, as unpickled (`Game.parse_state`).

    Raises:
        InvalidStateError: The text is not a position of this game (its rules changed since).
    """
    return game.parse_state(text)
