"""Puzzles for games without exact values: found by a cheap search, proved by a deep one.

A game that is not solved has no exact move values, so its puzzles are judged by search
estimates instead, and accepted only where the estimates leave no doubt:

1. **Self-play.** The games are played by the *screen* search (MCTS, `SCREEN_ITERATIONS`
   iterations, the game's own rollout length and heuristic), with one move in four drawn at
   random among the legal ones (so that the games visit the positions mistakes lead to); dice
   and bag draws with their probabilities. Game ``g`` of a set draws everything from a
   generator seeded by ``(seed, g)``, so a set is the same for a seed whether its games are
   played one after another or in parallel (``jobs``).
2. **Screen.** At each decision with at least two legal moves, the screen search's estimates
   (each root move's mean return, read as a winning chance) make a candidate when the best
   move leads every other by the acceptance margin; a move that wins at once (checked exactly)
   always makes one.
3. **Verification.** A candidate is searched again by the *deep* search (`DEEP_ITERATIONS`
   iterations, ten times Salta's level 5), without early stop, twice
   with two different seeds. It is accepted only when both searches visit every legal move,
   agree on the best move, make it the most visited, and give it a lead of at least the
   game's margin over every other move. The margin is set from the deep search's measured
   noise (`measure_noise`: the spread, over several seeds, of the lead of the best move over
   the second on sample positions): it is the larger of `MIN_MARGIN` (ten points, as for the
   solved games) and `NOISE_FACTOR` times the largest standard deviation measured.

The estimates' intervals (below) of the best move and of every other move must not overlap
either.

A move that ends the game with a win is worth exactly 1 (a win of 100 %); every other value is
an estimate. The puzzle records each move's estimate (the mean of the two deep searches) and its
interval: the larger of the 95 % sampling half-width ``1.96 * sqrt(p * (1 - p) / n)`` (``n``
the move's visits in both searches) and twice the measured seed noise of one move's estimate;
zero for an exact value.
"""

from __future__ import annotations

import functools
import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ludoteca.ai.mcts import MCTSAgent, SearchResult
from ludoteca.analysis.puzzle_collect import collect
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make

#: Iterations of the screen search (it also plays the self-play games).
SCREEN_ITERATIONS: Final = 1_000
#: Iterations of the deep search: ten times Salta's level 5 (MCTS, 5,000 iterations), five times
#: the largest MCTS budget of any level, and far more positions than the alpha-beta level 5 of
#: Salt 'n' Pepper (40,000) and Splinter (80,000), since each iteration plays a rollout of up to
#: ten plies.
DEEP_ITERATIONS: Final = 50_000
#: The least lead, in estimated winning chance, whatever the noise.
MIN_MARGIN: Final = 0.10
#: The margin is at least this many standard deviations of the measured noise of the lead.
NOISE_FACTOR: Final = 4.0
#: Sample positions and seeds of the noise study that starts each set.
NOISE_POSITIONS: Final = 8
#: The share of self-play moves drawn at random instead of the screen search's choice.
RANDOM_SHARE: Final = 0.25
#: The most puzzles taken from one self-play game (so that a set spans many games).
PER_GAME: Final = 3
#: The seeds of the two deep searches of a candidate are drawn from the candidate's generator;
#: the noise study uses these many seeds per position.
NOISE_SEEDS: Final = 4


@dataclass(frozen=True, slots=True)
class Budget:
    """What a set is searched with.

    Attributes:
        screen: Iterations of the screen search.
        deep: Iterations of each of the two deep searches.
        margin: The least lead of the best move's estimate over every other's.
        noise: The seed noise of one move's estimate (a standard deviation), for intervals.
    """

    screen: int = SCREEN_ITERATIONS
    deep: int = DEEP_ITERATIONS
    margin: float = MIN_MARGIN
    noise: float = 0.0

    def describe(self) -> str:
        """The deep search in words, for explanations."""
        return f"MCTS, {self.deep:,} iterations, checked with a second seed"


@dataclass(frozen=True, slots=True)
class Found:
    """One verified puzzle, before it gets its number in the set.

    Attributes:
        position: The position text.
        to_move: The mover's name.
        solution: The best move.
        chances: Each legal move's estimated winning chance (mean of the two deep searches).
        intervals: Each move's half-width (0 where the value is exact).
        margin: The smaller lead of the two deep searches.
        source: Where it was met.
        reply: The opponent's most visited reply after the solution, where a decision follows.
        reply_chance: The replier's estimated winning chance after that reply.
    """

    position: str
    to_move: str
    solution: str
    chances: dict[str, float]
    intervals: dict[str, float]
    margin: float
    source: str
    reply: str | None
    reply_chance: float | None


def _chance(value: float) -> float:
    return (value + 1.0) / 2.0


def _agent(game: Game, iterations: int, seed: int) -> MCTSAgent:
    return MCTSAgent(
        game,
        iterations=iterations,
        rollout_plies=game.info.rollout_plies,
        seed=seed,
        stop_early=False,
    )


def search(state: State, iterations: int, seed: int, *, without: str | None = None) -> SearchResult:
    """One seeded MCTS search of ``iterations`` from ``state``: every move, but ``without``."""
    exclude = frozenset() if without is None else frozenset({state.parse_move(without).index})
    return _agent(state.game, iterations, seed).search(state, win_at_once=False, exclude=exclude)


def wins_at_once(state: State) -> set[str]:
    """The moves that end the game at once with the mover's win (exact)."""
    mover = state.to_move
    winning = set()
    for move in state.legal_moves():
        outcome = state.apply(move).outcome
        if outcome is not None and outcome.winner == mover:
            winning.add(move.text)
    return winning


def lead(chances: dict[str, float]) -> tuple[str, float]:
    """The best move by estimate and its lead over the second (ties: the lower text)."""
    ranked = sorted(chances.items(), key=lambda item: (-item[1], item[0]))
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def accepts(results: Sequence[SearchResult], legal: int, margin: float) -> tuple[str, float] | None:
    """The acceptance rule: the best move and its smallest lead, or ``None`` when refused.

    Every search must have visited all ``legal`` moves, name the same best move by estimate,
    make it the most visited, and give it a lead of at least ``margin`` over every other move.
    """
    best: str | None = None
    smallest = math.inf
    for result in results:
        if len(result.values) != legal or legal < 2:
            return None
        chances = {m: _chance(v) for m, v in result.values.items()}
        move, gap = lead(chances)
        if gap < margin or (best is not None and move != best):
            return None
        if max(result.visits, key=lambda m: (result.visits[m], m)) != move:
            return None
        best, smallest = move, min(smallest, gap)
    return None if best is None else (best, smallest)


def verify(
    state: State, budget: Budget, seeds: tuple[int, int, int]
) -> tuple[str, float, dict[str, float], dict[str, float]] | None:
    """The deep searches of a candidate: (best, lead, chances, intervals), or ``None``."""
    first = search(state, budget.deep, seeds[0])
    legal = len(state.legal_moves())
    if accepts([first], legal, budget.margin) is None:
        return None
    second = search(state, budget.deep, seeds[1])
    found = accepts([first, second], legal, budget.margin)
    if found is None:
        return None
    # Without the best move, the others get the whole budget: a second move that only lacked
    # visits (two moves winning alike, say) shows its worth here.
    rest = search(state, budget.deep, seeds[2], without=found[0])
    exact = wins_at_once(state)
    chances: dict[str, float] = {}
    intervals: dict[str, float] = {}
    for move in sorted(first.values):
        if move in exact:
            chances[move], intervals[move] = 1.0, 0.0
            continue
        p = (_chance(first.values[move]) + _chance(second.values[move])) / 2
        n = first.visits[move] + second.visits[move]
        if move != found[0] and move in rest.values and _chance(rest.values[move]) > p:
            p, n = _chance(rest.values[move]), rest.visits[move]  # the higher reading counts
        sampling = 1.96 * math.sqrt(max(p * (1 - p), 1e-4) / n)
        chances[move] = round(p, 4)
        intervals[move] = round(max(sampling, 2 * budget.noise), 4)
    best = found[0]
    lead_now = chances[best] - max(c for m, c in chances.items() if m != best)
    if lead_now < budget.margin:
        return None
    for move, chance in chances.items():  # the intervals must not overlap either
        if move != best and chance + intervals[move] >= chances[best] - intervals[best]:
            return None
    return best, min(found[1], lead_now), chances, intervals


def set_header(budget: Budget, noise: Noise) -> dict[str, Any]:
    """What a set of estimated puzzles records about how it was searched."""
    return {
        "margin": budget.margin,
        "method": {
            "kind": "estimate",
            "engine": "mcts",
            "screen_iterations": budget.screen,
            "deep_iterations": budget.deep,
            "searches": 3,
            "noise_factor": NOISE_FACTOR,
            "noise": noise.summary(),
            "random_share": RANDOM_SHARE,
        },
    }


def budget_of_header(header: dict[str, Any]) -> Budget:
    """The budget that a set's header (`set_header`) records."""
    method = header["method"]
    return Budget(
        screen=method["screen_iterations"],
        deep=method["deep_iterations"],
        margin=header["margin"],
        noise=method["noise"]["move_sd_median"],
    )


def budget_for(noise: Noise) -> Budget:
    """The budget whose margin the measured noise calls for."""
    return Budget(margin=noise.margin(), noise=noise.summary()["move_sd_median"])


def _rng(seed: int, *keys: int) -> random.Random:
    return random.Random(f"{seed}:" + ":".join(map(str, keys)))


def _roll(state: State, rng: random.Random) -> State:
    outcomes = state.chance_outcomes()
    move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
    return state.apply(move)


def self_play(
    game: Game, seed: int, number: int, screen: int, margin: float
) -> Iterator[tuple[State, int, bool]]:
    """The decisions of self-play game ``number``: (state, ply, candidate by the screen).

    The screen search that plays the move also screens the position; the caller may verify it.
    """
    rng = _rng(seed, number)
    state = game.initial_state()
    ply = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            state = _roll(state, rng)
            ply += 1
            continue
        legal = state.legal_moves()
        if len(legal) == 1:
            state = state.apply(legal[0])
            ply += 1
            continue
        result = search(state, screen, rng.getrandbits(31))
        chances = {m: _chance(v) for m, v in result.values.items()}
        yield (
            state,
            ply,
            bool(wins_at_once(state))
            or (len(chances) == len(legal) and lead(chances)[1] >= margin),
        )
        move = rng.choice(legal).text if rng.random() < RANDOM_SHARE else result.move.text
        state = state.apply(move)
        ply += 1


def _reply(
    state: State, solution: str, budget: Budget, seed: int
) -> tuple[str | None, float | None]:
    after = state.apply(solution)
    if after.is_over or after.to_move == CHANCE or after.to_move is None:
        return None, None
    if len(after.legal_moves()) == 1:
        return after.legal_moves()[0].text, None
    result = _agent(after.game, budget.screen * 10, seed).search(after)
    return result.move.text, round(min(1.0, max(0.0, result.win_chance)), 4)


def puzzles_of_game(
    game_id: str, options: dict[str, Any], seed: int, number: int, budget: Budget
) -> list[Found]:
    """The verified puzzles of self-play game ``number`` (at most `PER_GAME`)."""
    game = make(game_id, **options)
    found: list[Found] = []
    for state, ply, candidate in self_play(game, seed, number, budget.screen, budget.margin):
        if not candidate:
            continue
        rng = _rng(seed, number, ply)
        seeds = (rng.getrandbits(31), rng.getrandbits(31), rng.getrandbits(31))
        verified = verify(state, budget, seeds)
        if verified is None:
            continue
        best, margin, chances, intervals = verified
        reply, reply_chance = _reply(state, best, budget, rng.getrandbits(31))
        assert state.to_move is not None
        found.append(
            Found(
                position=state.to_text(),
                to_move=game.player_names[state.to_move],
                solution=best,
                chances=chances,
                intervals=intervals,
                margin=round(margin, 4),
                source=f"self-play seed {seed}, game {number}, ply {ply}",
                reply=reply,
                reply_chance=reply_chance,
            )
        )
        if len(found) >= PER_GAME:
            break
    return found


def generate_found(
    game: Game,
    count: int,
    seed: int,
    budget: Budget,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    max_games: int = 10_000,
    keep: Callable[[list[Found], int], None] | None = None,
    found_before: Sequence[Found] = (),
    games_before: int = 0,
) -> tuple[list[Found], int]:
    """``count`` verified puzzles from self-play games 1, 2, ... taken in order; games played.

    ``keep`` is called with the puzzles found so far and the games played after each game that
    found any (so that an interrupted run leaves a prefix of the same set). ``found_before``
    and ``games_before`` resume such a prefix: games 1 to ``games_before`` gave
    ``found_before``, and the set goes on from the next game, as the whole run would have.
    """
    return collect(
        functools.partial(puzzles_of_game, game.id, dict(game.options), seed, budget=budget),
        lambda item: item.position.rsplit(" ", 1)[0],  # without the move count
        count,
        jobs=jobs,
        progress=progress,
        max_games=max_games,
        keep=keep,
        found_before=found_before,
        games_before=games_before,
    )


@dataclass(frozen=True, slots=True)
class Noise:
    """The deep search's seed noise, measured on sample positions.

    Attributes:
        positions: How many positions were searched.
        seeds: Searches per position.
        lead_sd: The standard deviation of the best move's lead over the second, per position
            where every search found the same best move.
        move_sd: The standard deviation of each move's estimate, pooled over all positions.
        leads: Per position, the lead measured by each search.
        unstable: Positions where the searches disagreed on the best move (such a position is
            refused by the acceptance rule, so its spread sets no margin).
    """

    positions: int
    seeds: int
    lead_sd: list[float]
    move_sd: list[float]
    leads: list[list[float]]
    unstable: int = 0

    @property
    def largest_lead_sd(self) -> float:
        """The largest standard deviation of the lead measured."""
        return max(self.lead_sd, default=0.0)

    def margin(self) -> float:
        """The acceptance margin this noise calls for."""
        return max(MIN_MARGIN, math.ceil(NOISE_FACTOR * self.largest_lead_sd * 100) / 100)

    def summary(self) -> dict[str, Any]:
        """The JSON-ready figures."""
        move = sorted(self.move_sd)
        return {
            "positions": self.positions,
            "seeds": self.seeds,
            "unstable": self.unstable,
            "lead_sd_largest": round(self.largest_lead_sd, 4),
            "lead_sd_median": round(statistics.median(self.lead_sd), 4) if self.lead_sd else 0,
            "move_sd_median": round(statistics.median(move), 4) if move else 0,
            "move_sd_p95": round(move[int(0.95 * (len(move) - 1))], 4) if move else 0,
        }


def measure_noise(
    game: Game, positions: int, seed: int, *, deep: int = DEEP_ITERATIONS, seeds: int = NOISE_SEEDS
) -> Noise:
    """Search sample candidate positions of self-play ``seeds`` times each; the spread.

    The positions are the screen's candidates (where the deep search is used), taken from
    self-play games in order, at most two from a game. The lead is measured for the move that
    the first search finds best.
    """
    lead_sd: list[float] = []
    move_sd: list[float] = []
    all_leads: list[list[float]] = []
    unstable = 0
    number = 0
    while len(all_leads) < positions:
        number += 1
        taken = 0
        for state, ply, candidate in self_play(game, seed, number, SCREEN_ITERATIONS, MIN_MARGIN):
            if not candidate or wins_at_once(state):
                continue
            rng = _rng(seed, number, ply, 1)
            runs = [search(state, deep, rng.getrandbits(31)) for _ in range(seeds)]
            legal = len(state.legal_moves())
            if any(len(r.values) != legal for r in runs):
                continue
            best, _ = lead({m: _chance(v) for m, v in runs[0].values.items()})
            leads = []
            for run in runs:
                chances = {m: _chance(v) for m, v in run.values.items()}
                leads.append(chances[best] - max(c for m, c in chances.items() if m != best))
            all_leads.append([round(x, 4) for x in leads])
            if min(leads) <= 0:
                unstable += 1
            else:
                lead_sd.append(statistics.stdev(leads))
            for move in runs[0].values:
                move_sd.append(statistics.stdev(_chance(r.values[move]) for r in runs))
            taken += 1
            if taken >= 2 or len(all_leads) >= positions:
                break
    return Noise(positions, seeds, lead_sd, move_sd, all_leads, unstable)
