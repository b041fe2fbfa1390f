"""A tiny pure-Python dice game, used to exercise the contract's chance nodes.

Two players race to 10. Who starts is a chance node (``first-0`` / ``first-1``); each turn
begins with a chance node rolling 1-3 (``r1`` .. ``r3``), then the player may ``advance`` by
the roll or ``wait``. Position text: ``<pos0> <pos1> <player> <roll or -> <ply>`` with player
``-`` before the first player is drawn.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ludoteca.core.errors import InvalidStateError
from ludoteca.core.game import Game, Move, PlayoutStats, State
from ludoteca.core.options import OptionSpec
from ludoteca.core.outcome import CHANCE, Outcome

GOAL = 10


class ToyState(State):
    __slots__ = ("_fields",)
    move_forms: ClassVar[str] = "first-0, first-1, r1, r2, r3, advance, wait"
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(r"first-[01]|r[1-3]|advance|wait")

    def __init__(
        self, game: Game, positions: tuple[int, int], player: int | None, roll: int | None, ply: int
    ) -> None:
        super().__init__(game)
        object.__setattr__(self, "_fields", (positions, player, roll, ply))

    @property
    def to_move(self) -> int | None:
        _, player, roll, _ = self._fields
        if self.outcome is not None:
            return None
        return CHANCE if player is None or roll is None else player

    @property
    def outcome(self) -> Outcome | None:
        positions, _, _, ply = self._fields
        for player in (0, 1):
            if positions[player] >= GOAL:
                return Outcome.win(player, 2, f"player {player} reached {GOAL}")
        if ply >= self._game.options["max_plies"]:
            return Outcome.draw(2, "ply cap")
        return None

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        _, player, roll, _ = self._fields
        if player is None:
            return (Move(0, "first-0", True), Move(1, "first-1", True))
        if roll is None:
            return tuple(Move(n - 1, f"r{n}", True) for n in (1, 2, 3))
        return (Move(0, "advance"), Move(1, "wait"))

    def _chance_probabilities(self) -> tuple[float, ...]:
        _, player, _, _ = self._fields
        return (0.5, 0.5) if player is None else (1 / 3, 1 / 3, 1 / 3)

    def _apply_legal(self, move: Move) -> State:
        positions, player, roll, ply = self._fields
        if move.text.startswith("first-"):
            return ToyState(self._game, positions, int(move.text[-1]), None, ply + 1)
        if move.is_chance:
            return ToyState(self._game, positions, player, int(move.text[1]), ply + 1)
        assert player is not None and roll is not None
        moved = list(positions)
        if move.text == "advance":
            moved[player] += roll
        return ToyState(self._game, (moved[0], moved[1]), 1 - player, None, ply + 1)

    def to_text(self) -> str:
        positions, player, roll, ply = self._fields
        return (
            f"{positions[0]} {positions[1]} {'-' if player is None else player} "
            f"{'-' if roll is None else roll} {ply}"
        )

    def _key(self) -> Any:
        return self._fields

    def __str__(self) -> str:
        return f"toy race: {self.to_text()}"


class ToyDiceGame(Game):
    id: ClassVar[str] = "toy_dice"
    name: ClassVar[str] = "Toy dice race"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("One", "Two")
    num_actions: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("max_plies", 200, "ply cap", minimum=1),
    )

    def initial_state(self) -> ToyState:
        return ToyState(self, (0, 0), None, None, 0)

    def parse_state(self, text: str) -> ToyState:
        fields = text.split()
        if len(fields) != 5:
            raise InvalidStateError("expected '<pos0> <pos1> <player> <roll> <ply>'")
        try:
            player = None if fields[2] == "-" else int(fields[2])
            roll = None if fields[3] == "-" else int(fields[3])
            return ToyState(self, (int(fields[0]), int(fields[1])), player, roll, int(fields[4]))
        except ValueError:
            raise InvalidStateError(f"bad toy position {text!r}") from None

    def random_playouts(self, count: int, seed: int) -> PlayoutStats:
        raise NotImplementedError("the toy game has no kernels")


class TakeAwayState(State):
    """A pile of stones; the player to move takes 1, 2 or 3; whoever takes the last one wins."""

    __slots__ = ("_fields",)
    move_forms: ClassVar[str] = "take-1, take-2, take-3"
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(r"take-[1-3]")

    def __init__(self, game: Game, pile: int, player: int) -> None:
        super().__init__(game)
        object.__setattr__(self, "_fields", (pile, player))

    @property
    def to_move(self) -> int | None:
        pile, player = self._fields
        return None if pile == 0 else player

    @property
    def outcome(self) -> Outcome | None:
        pile, player = self._fields
        if pile > 0:
            return None
        return Outcome.win(1 - player, 2, f"player {1 - player} took the last stone")

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        pile, _ = self._fields
        return tuple(Move(n - 1, f"take-{n}") for n in (1, 2, 3) if n <= pile)

    def _apply_legal(self, move: Move) -> State:
        pile, player = self._fields
        return TakeAwayState(self._game, pile - (move.index + 1), 1 - player)

    def to_text(self) -> str:
        pile, player = self._fields
        return f"{pile} {player}"

    def _key(self) -> Any:
        return self._fields

    def __str__(self) -> str:
        return f"take-away: {self.to_text()}"


class TakeAwayGame(Game):
    """Take-away (a Nim): the player to move loses exactly when the pile is a multiple of 4.

    From any other pile the one winning move leaves a multiple of 4, and the win comes only at
    the end, several plies later: a solved game for testing searches beyond a win in one.
    """

    id: ClassVar[str] = "toy_take_away"
    name: ClassVar[str] = "Toy take-away"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("One", "Two")
    num_actions: ClassVar[int] = 3
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def initial_state(self) -> TakeAwayState:
        return TakeAwayState(self, 10, 0)

    def parse_state(self, text: str) -> TakeAwayState:
        try:
            pile, player = map(int, text.split())
        except ValueError:
            raise InvalidStateError("expected '<pile> <player>'") from None
        return TakeAwayState(self, pile, player)

    def random_playouts(self, count: int, seed: int) -> PlayoutStats:
        raise NotImplementedError("the toy game has no kernels")


class StagedState(State):
    """A state that is one named stage of a game, its position text that name."""

    __slots__ = ("_fields",)

    def __init__(self, game: Game, stage: str) -> None:
        super().__init__(game)
        object.__setattr__(self, "_fields", (stage,))

    @property
    def _stage(self) -> str:
        return str(self._fields[0])

    def to_text(self) -> str:
        return self._stage

    def _key(self) -> Any:
        return self._fields


class BetState(StagedState):
    """Player 0 bets or folds; a bet is won or lost by a weighted chance node, then it is over."""

    __slots__ = ()
    move_forms: ClassVar[str] = "bet, fold, won, lost"
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(r"bet|fold|won|lost")

    @property
    def to_move(self) -> int | None:
        return {"start": 0, "betting": CHANCE}.get(self._stage)

    @property
    def outcome(self) -> Outcome | None:
        stage = self._stage
        if stage == "folded":
            return Outcome.draw(2, "player 0 folded")
        if stage in ("won", "lost"):
            winner = 0 if stage == "won" else 1
            return Outcome.win(winner, 2, f"the bet was {stage}")
        return None

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        if self._stage == "start":
            return (Move(0, "bet"), Move(1, "fold"))
        return (Move(0, "won", True), Move(1, "lost", True))

    def _chance_probabilities(self) -> tuple[float, ...]:
        won = self._game.options["won_percent"] / 100
        return (won, 1 - won)

    def _apply_legal(self, move: Move) -> State:
        stage = {"bet": "betting", "fold": "folded"}.get(move.text, move.text)
        return BetState(self._game, stage)


class BetGame(Game):
    """A bet won with probability ``won_percent``: worth ``2 p - 1`` to player 0; folding is 0."""

    id: ClassVar[str] = "toy_bet"
    name: ClassVar[str] = "Toy bet"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("One", "Two")
    num_actions: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "won_percent", 30, "chance of winning the bet, in percent", minimum=1, maximum=99
        ),
    )

    def initial_state(self) -> BetState:
        return BetState(self, "start")

    def parse_state(self, text: str) -> BetState:
        if text not in ("start", "betting", "folded", "won", "lost"):
            raise InvalidStateError("expected start, betting, folded, won or lost")
        return BetState(self, text)

    def random_playouts(self, count: int, seed: int) -> PlayoutStats:
        raise NotImplementedError("the toy game has no kernels")


class LotteryState(StagedState):
    """Player 0 plays or passes; playing draws gold, silver or lead with unequal chances."""

    __slots__ = ()
    move_forms: ClassVar[str] = "play, pass, gold, silver, lead"
    move_syntax: ClassVar[re.Pattern[str]] = re.compile(r"play|pass|gold|silver|lead")

    @property
    def to_move(self) -> int | None:
        return {"start": 0, "drawing": CHANCE}.get(self._stage)

    @property
    def outcome(self) -> Outcome | None:
        stage = self._stage
        if stage in ("pass", "silver"):
            return Outcome.draw(2, f"player 0 got {stage}")
        if stage in ("gold", "lead"):
            return Outcome.win(0 if stage == "gold" else 1, 2, f"player 0 drew {stage}")
        return None

    def _compute_legal_moves(self) -> tuple[Move, ...]:
        if self._stage == "start":
            return (Move(0, "play"), Move(1, "pass"))
        return tuple(Move(index, name, True) for index, name in enumerate(LOTTERY_PRIZES))

    def _chance_probabilities(self) -> tuple[float, ...]:
        return tuple(LOTTERY_PRIZES.values())

    def _apply_legal(self, move: Move) -> State:
        return LotteryState(self._game, "drawing" if move.text == "play" else move.text)


#: The lottery's outcomes and their chances: unequal, so a sampler that ignores them shows.
LOTTERY_PRIZES = {"gold": 0.7, "silver": 0.2, "lead": 0.1}


class LotteryGame(Game):
    """A weighted chance node of three outcomes: playing is worth 0.7 - 0.1 = 0.6 to player 0."""

    id: ClassVar[str] = "toy_lottery"
    name: ClassVar[str] = "Toy lottery"
    version: ClassVar[int] = 1
    num_players: ClassVar[int] = 2
    player_names: ClassVar[tuple[str, ...]] = ("One", "Two")
    num_actions: ClassVar[int] = 3
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def initial_state(self) -> LotteryState:
        return LotteryState(self, "start")

    def parse_state(self, text: str) -> LotteryState:
        if text not in ("start", "drawing", "pass", *LOTTERY_PRIZES):
            raise InvalidStateError("expected start, drawing, pass, gold, silver or lead")
        return LotteryState(self, text)

    def random_playouts(self, count: int, seed: int) -> PlayoutStats:
        raise NotImplementedError("the toy game has no kernels")
