"""Puzzles of a solitaire with dice: the whole turn for the roll, verified by expert playouts.

In Steppin' Stones a roll is followed by as many moves as its dice allow, and the step ends
with ``end`` (or with the win). A puzzle shows the position just after a roll and asks for the
whole turn: every move up to the end of the step. Two move orders that leave the same position
are the same turn. Each turn is worth the winning chance of the position it leaves, as the
game's expert policy plays it out (`GameInfo.expert_playouts`, the share of games won, as game
reviews read it); a turn that ends the game is worth exactly 1 (won) or 0 (lost).

1. **Turns.** From the position after a roll, every sequence of moves to the end of the step is
   walked, breadth first, and the distinct positions it can leave are kept, each with its
   shortest sequence (the first found). A step with more than `MAX_OUTCOMES` distinct outcomes,
   or more than `MAX_NODES` positions on the way, is not screened: its playouts would cost too
   much.
2. **Self-play and screen.** Game ``g`` of a set draws everything from a generator seeded by
   ``(seed, g)``: the dice, and the policy's moves (the game's strongest level: its planner,
   with a random move one time in two). At each step with two or more outcomes, the outcomes
   get `SCREEN_GAMES` playouts each, the most promising first (`screen_order`); a candidate is
   a step whose best turn leads every other by the margin, and the screen gives up on a step
   as soon as the two best turns read so far are within the margin (`screen`).
3. **Verification.** Every outcome of a candidate gets `VERIFY_GAMES` playouts, twice, with two
   seeds (within one reading, every outcome is played with the same seed: the same dice, so
   that the comparison is fairer). Both readings must name the same best turn, give it a lead
   of at least the margin over every other turn, and keep its 95 % Wilson interval clear of
   every other turn's. The recorded chance is the mean of the two readings, with the Wilson
   interval of the pooled games.
4. **Noise and margin.** The playouts are independent games, so the spread of an estimate is
   binomial: with ``n`` games a lead between two turns has a standard deviation of at most
   ``sqrt(0.5 / n)`` (0.035 at 400 games). The margin is the larger of ten points and four
   times that bound (`margin_for`), rounded up to a point. The difference between the two
   readings of every verified puzzle measures the noise again; the set records it.
"""

from __future__ import annotations

import functools
import math
import random
import statistics
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ludoteca.analysis.puzzle_collect import collect
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.core.errors import IllegalMoveError, LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make

#: Playouts per outcome in the screen.
SCREEN_GAMES: Final = 24
#: Playouts per outcome in each of the two verifying readings.
VERIFY_GAMES: Final = 400
#: Steps with more distinct outcomes than this are not screened (their playouts cost too much).
MAX_OUTCOMES: Final = 60
#: Steps whose walk passes more positions than this are not screened.
MAX_NODES: Final = 1_000
#: The least lead, in winning chance, whatever the noise.
MIN_MARGIN: Final = 0.10
#: The margin is at least this many (largest possible) standard deviations of a lead.
NOISE_FACTOR: Final = 4.0
#: The share of self-play moves drawn at random instead of the planner's (the strongest level).
RANDOM_SHARE: Final = 0.5
#: The most puzzles taken from one self-play game.
PER_GAME: Final = 3
#: Separates the moves of a turn in its text.
SEPARATOR: Final = ", "


class TurnError(IllegalMoveError):
    """Moves that are legal but not a whole turn: they stop short of, or go past, its end."""


@dataclass(frozen=True, slots=True)
class TurnBudget:
    """What a set is screened and verified with.

    Attributes:
        screen: Playouts per outcome in the screen.
        verify: Playouts per outcome in each verifying reading.
        max_outcomes: Steps with more outcomes are not screened.
        least_margin: A margin to use instead of `margin_for` where larger (``None``: none).
    """

    screen: int = SCREEN_GAMES
    verify: int = VERIFY_GAMES
    max_outcomes: int = MAX_OUTCOMES
    least_margin: float | None = None

    @property
    def margin(self) -> float:
        """The acceptance margin: `margin_for` the verifying playouts, or more if asked."""
        return max(margin_for(self.verify), self.least_margin or 0.0)

    def describe(self) -> str:
        """The verification in words, for explanations."""
        return f"expert playouts, {self.verify:,} games per turn, checked with a second seed"


def margin_for(games: int) -> float:
    """The margin for leads read from ``games`` playouts per turn (see the module's step 4)."""
    bound = math.sqrt(0.5 / games)
    return max(MIN_MARGIN, math.ceil(NOISE_FACTOR * bound * 100) / 100)


def turn_text(moves: Sequence[str]) -> str:
    """A turn's moves as one text: ``AP:c3-d3, end``."""
    return SEPARATOR.join(moves)


def split_turn(text: str) -> list[str]:
    """The moves of a turn's text (commas or semicolons between them)."""
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def step_over(state: State) -> bool:
    """Whether the step has ended: the game is over or the dice are to be rolled."""
    return state.is_over or state.to_move == CHANCE


def play_moves(state: State, moves: Sequence[str]) -> tuple[list[str], State]:
    """Play the first ``moves`` of a turn: their normalised texts and the position reached.

    Raises:
        LudotecaError: A move is not legal (the engine's error, its number in front).
        TurnError: A move follows the end of the step.
    """
    texts = []
    for number, text in enumerate(moves, start=1):
        if step_over(state):
            raise TurnError(f"the turn is over after move {number - 1}; {text!r} is one too many")
        try:
            move = state.parse_move(text)
        except LudotecaError as error:
            raise type(error)(f"move {number} of the turn: {error}") from None
        texts.append(move.text)
        state = state.apply(move)
    return texts, state


def play_turn(state: State, moves: Sequence[str]) -> tuple[list[str], State]:
    """Play a whole turn from ``state``: its moves' normalised texts and the position left.

    Raises:
        LudotecaError: A move is not legal (the engine's error, its number in front).
        TurnError: A move follows the end of the step, or the step is not finished.
    """
    texts, state = play_moves(state, moves)
    if not step_over(state):
        raise TurnError(
            "the turn is not finished: play every move up to the end of the step, "
            "`end` included (or until the game is won)"
        )
    return texts, state


def turns(
    state: State, max_nodes: int = MAX_NODES, max_outcomes: int | None = None
) -> dict[str, tuple[str, State]] | None:
    """The distinct positions the step can leave: key -> (its shortest turn's text, position).

    ``None`` when the walk passes more than ``max_nodes`` positions, or finds more than
    ``max_outcomes`` (the walk stops there: a step too big to judge costs little).
    """
    found: dict[str, tuple[str, State]] = {}
    seen = {state.to_text()}
    queue: deque[tuple[State, tuple[str, ...]]] = deque([(state, ())])
    while queue:
        here, moves = queue.popleft()
        for move in here.legal_moves():
            after = here.apply(move)
            key = after.to_text()
            path = (*moves, move.text)
            if step_over(after):
                found.setdefault(key, (turn_text(path), after))
                if max_outcomes is not None and len(found) > max_outcomes:
                    return None
            elif key not in seen:
                seen.add(key)
                if len(seen) > max_nodes:
                    return None
                queue.append((after, path))
    return found


def _rng(seed: int, *keys: int) -> random.Random:
    return random.Random(f"turns:{seed}:" + ":".join(map(str, keys)))


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of every turn: games won and played (exact values: 1 of 1 or 0 of 1)."""

    won: dict[str, int]
    games: dict[str, int]
    exact: frozenset[str]

    def chance(self, turn: str) -> float:
        """The turn's estimated (or exact) winning chance."""
        return self.won[turn] / self.games[turn]

    def interval(self, turn: str) -> tuple[float, float]:
        """The turn's 95 % Wilson interval (the value itself where exact)."""
        if turn in self.exact:
            return self.chance(turn), self.chance(turn)
        return wilson_interval(self.won[turn], self.games[turn])


def read(outcomes: dict[str, tuple[str, State]], games: int, seed: int) -> Reading:
    """Play ``games`` expert games from every outcome with the same ``seed``."""
    won: dict[str, int] = {}
    played: dict[str, int] = {}
    exact = set()
    for text, after in outcomes.values():
        if after.is_over:
            outcome = after.outcome
            assert outcome is not None
            won[text], played[text] = int(outcome.winner == 0), 1
            exact.add(text)
            continue
        playouts = after.game.info.expert_playouts
        assert playouts is not None
        won[text], played[text] = playouts(after, games, seed), games
    return Reading(won, played, frozenset(exact))


def best_of(reading: Reading) -> tuple[str, float]:
    """The best turn by its chance (ties: the lower text) and its lead over the second."""
    ranked = sorted(reading.won, key=lambda t: (-reading.chance(t), t))
    return ranked[0], reading.chance(ranked[0]) - reading.chance(ranked[1])


def clear(reading: Reading, margin: float) -> tuple[str, float] | None:
    """The best turn and its lead when it leads every other by ``margin``, intervals apart."""
    if len(reading.won) < 2:
        return None
    best, lead = best_of(reading)
    if lead < margin:
        return None
    low = reading.interval(best)[0]
    if any(reading.interval(t)[1] >= low for t in reading.won if t != best):
        return None
    return best, lead


def screen_order(outcomes: dict[str, tuple[str, State]]) -> list[tuple[str, State]]:
    """The turns in the order the screen reads them, the most promising first.

    Those that end the game come first, won before lost, then the rest by the game's heuristic
    value of the position they leave, the highest first (the shorter, then lower text first
    among equals).
    """

    def rank(turn: tuple[str, State]) -> tuple[int, float, int, str]:
        text, after = turn
        if after.is_over:
            outcome = after.outcome
            assert outcome is not None
            return 0, -float(outcome.returns[0]), len(text), text
        evaluate = after.game.info.evaluate
        return 1, -float(evaluate(after)[0]) if evaluate is not None else 0.0, len(text), text

    return sorted(outcomes.values(), key=rank)


def screen(outcomes: dict[str, tuple[str, State]], budget: TurnBudget, seed: int) -> bool:
    """Whether a step is a candidate: its best turn leads every other by the margin.

    Each turn is read from `TurnBudget.screen` playouts (one seed for all).

    The turns are read one at a time in `screen_order`, and the screen gives up as soon as the
    two best read so far are within the margin of each other: most steps have several good
    turns, and the heuristic's favourites show it after two or three readings instead of all
    of them. A step it passes has had every turn read and leads by the margin, as a full
    reading would say; a step it gives up on might still have led had a later turn read higher
    by the margin (a puzzle missed, never one let through: the verification decides).
    """
    if len(outcomes) < 2:
        return False
    top: list[float] = []  # the two best chances read so far, the best first
    for text, after in screen_order(outcomes):
        reading = read({text: (text, after)}, budget.screen, seed)
        top = sorted([*top, reading.chance(text)], reverse=True)[:2]
        if len(top) == 2 and top[0] - top[1] < budget.margin:
            return False
    return True


@dataclass(frozen=True, slots=True)
class TurnFound:
    """One verified turn puzzle, before its number (as `ludoteca.analysis.puzzles.Puzzle`)."""

    position: str
    to_move: str
    solution: str
    chances: dict[str, float]
    intervals: dict[str, float]
    margin: float
    source: str
    seed_gap: float


def verify(
    outcomes: dict[str, tuple[str, State]], budget: TurnBudget, seeds: tuple[int, int]
) -> tuple[str, float, dict[str, float], dict[str, float], float] | None:
    """Two readings of a candidate: (best, lead, chances, intervals, seed gap), or ``None``.

    The seed gap is the difference between the two readings' leads (the measured noise).
    """
    first = read(outcomes, budget.verify, seeds[0])
    accepted = clear(first, budget.margin)
    if accepted is None:
        return None
    second = read(outcomes, budget.verify, seeds[1])
    again = clear(second, budget.margin)
    if again is None or again[0] != accepted[0]:
        return None
    best = accepted[0]
    chances: dict[str, float] = {}
    intervals: dict[str, float] = {}
    for turn in sorted(first.won):
        won, games = first.won[turn] + second.won[turn], first.games[turn] + second.games[turn]
        chances[turn] = round(won / games, 4)
        if turn in first.exact:
            intervals[turn] = 0.0
        else:
            low, high = wilson_interval(won, games)
            intervals[turn] = round(max(chances[turn] - low, high - chances[turn]), 4)
    lead = chances[best] - max(c for t, c in chances.items() if t != best)
    if lead < budget.margin:
        return None
    for turn, chance in chances.items():
        if turn != best and chance + intervals[turn] >= chances[best] - intervals[best]:
            return None
    gap = abs(accepted[1] - again[1])
    return best, round(min(accepted[1], again[1], lead), 4), chances, intervals, gap


def self_play(
    game: Game, seed: int, number: int, start: str | None = None
) -> Iterator[tuple[State, int]]:
    """The positions just after each roll of self-play game ``number``, with their ply.

    ``start``: position text to play on from instead of the start of the game.
    """
    info = game.info
    assert info.expert is not None
    rng = _rng(seed, number)
    state = game.initial_state() if start is None else game.parse_state(start)
    ply = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            roll = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            state = state.apply(roll)
            ply += 1
            if not state.is_over and state.to_move != CHANCE and len(state.legal_moves()) > 1:
                yield state, ply
            continue
        if rng.random() < RANDOM_SHARE:
            move = rng.choice(state.legal_moves())
        else:
            move = state.move_from_index(info.expert(state)[0])
        state = state.apply(move)
        ply += 1


def puzzles_of_game(
    game_id: str,
    options: dict[str, Any],
    seed: int,
    number: int,
    budget: TurnBudget,
    start: str | None = None,
) -> list[TurnFound]:
    """The verified turn puzzles of self-play game ``number`` (at most `PER_GAME`)."""
    game = make(game_id, **options)
    found: list[TurnFound] = []
    for state, ply in self_play(game, seed, number, start):
        outcomes = turns(state, max_outcomes=budget.max_outcomes)
        if outcomes is None or len(outcomes) < 2:
            continue
        rng = _rng(seed, number, ply)
        screen_seed, seeds = rng.getrandbits(31), (rng.getrandbits(31), rng.getrandbits(31))
        if not screen(outcomes, budget, screen_seed):
            continue
        verified = verify(outcomes, budget, seeds)
        if verified is None:
            continue
        best, lead, chances, intervals, gap = verified
        assert state.to_move is not None
        found.append(
            TurnFound(
                position=state.to_text(),
                to_move=game.player_names[state.to_move],
                solution=best,
                chances=chances,
                intervals=intervals,
                margin=lead,
                source=f"self-play seed {seed}, game {number}, ply {ply}",
                seed_gap=round(gap, 4),
            )
        )
        if len(found) >= PER_GAME:
            break
    return found


def generate_found(
    game: Game,
    count: int,
    seed: int,
    budget: TurnBudget,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    max_games: int = 10_000,
    keep: Callable[[list[TurnFound], int], None] | None = None,
) -> tuple[list[TurnFound], int]:
    """``count`` verified turn puzzles from self-play games 1, 2, ... taken in order; games.

    The same for a seed whatever ``jobs``; ``keep`` is called as in
    `ludoteca.analysis.puzzle_search.generate_found`.
    """
    return collect(
        functools.partial(puzzles_of_game, game.id, dict(game.options), seed, budget=budget),
        lambda item: item.position.rsplit(" ", 2)[0],  # the board and the turns played
        count,
        jobs=jobs,
        progress=progress,
        max_games=max_games,
        keep=keep,
    )


def set_header(budget: TurnBudget, found: Sequence[TurnFound]) -> dict[str, Any]:
    """What a set of turn puzzles records: the playouts, the margin and the noise measured."""
    gaps = [item.seed_gap for item in found]
    return {
        "margin": budget.margin,
        "method": {
            "kind": "turn",
            "engine": "expert playouts",
            "screen_games": budget.screen,
            "verify_games": budget.verify,
            "readings": 2,
            "max_outcomes": budget.max_outcomes,
            "noise_factor": NOISE_FACTOR,
            "lead_sd_bound": round(math.sqrt(0.5 / budget.verify), 4),
            # Two readings differ by sqrt(2) standard deviations of one on average.
            "lead_sd_measured": round(math.sqrt(statistics.fmean(g * g for g in gaps) / 2), 4)
            if gaps
            else None,
            "random_share": RANDOM_SHARE,
        },
    }
