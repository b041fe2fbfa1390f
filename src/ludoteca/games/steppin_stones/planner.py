"""A fast planner for Steppin' Stones: greedy choices guided by the budget each suit still needs.

Level 5 of the computer player. Searching the game tree is hopeless here (a roll of four dice
has 1,296 outcomes, a turn is many moves long, a game hundreds of turns), so the planner looks
at one decision at a time: it tries every legal action on a copy of the position, estimates how
much work each result still needs, and keeps the action that leaves the least (ties go to the
lowest action, so the choice is deterministic). The whole choice is one compiled call.

**The estimate.** Everything a suit must still do is paid for in phase-2 steps, so the planner
counts, for each suit not yet home, the steps it will still have to spend (its *need*):

- *The pawn's route.* A shortest-path search from the pawn to its home tile, where every square
  the pawn enters costs one step, plus the cost of getting a stone of its suit there if none
  lies there yet (the distance the nearest stone would travel, going round what stones can't
  pass), plus a penalty when something else must first leave the square: another suit's stone,
  coin or pawn (less when its owner can still move it). Squares that will never clear (a
  retired suit's stone, a pawn at home, an ace, the hole) are walls.
- *Stones for the route.* The route's empty squares are matched, nearest first, with the
  suit's stones that are not already on the route; each costs the length of its stone's trip.
  A route longer than the stones available is walked by leapfrogging: the stone left behind
  by the pawn goes round it to the front, which is charged a fixed price per missing stone.
- *Phase 1.* A suit still turning coins plans the same way, counting its coins showing a
  value as the stones they will become (a coin on the route counts slightly less than a stone,
  so that a suit face turns the coins already in place first and keeps the others movable).

**The suits take turns.** The four pawns start packed in the centre, each in the way of two
others, and every route home runs round the same few squares. If each suit planned as though
the others would make way, none would move. So the suits are ranked (those in phase 2 first,
then in suit order): a suit's route goes round the pawns of the suits after it (a heavy
penalty) and through those before it (a light one: they will have moved on), and each suit's
need counts a tenth of the need of the suit before it. The leading suit thus goes its way
home, and the others use their dice where that costs the leader nothing; a move that helps one
suit and walls in another is still charged to both.

**Choosing.** A suit brought home earns a large bonus; steps left in a budget are worth a
little (the cheaper of two equal moves wins), but ``end`` keeps the budget's worth, so the
planner ends its turn rather than make a move that gains nothing. A stone put in front of a
pawn gains nothing until the pawn steps onto it, so a stone move is also judged by the best
pawn move of its suit that may follow it this turn. A rule kernel applies every action, so the
planner never bends a rule, and since each move uses a die or spends steps, a turn always ends.

**Jams.** Greedy choices can lock up: every stone that matters waits for another, no single
move lowers a need, and ending every turn runs into the 500-turn limit. A game won usually
ends within 80 turns, so from then on, when the planner would end its phase-2 turn with
nothing better to do, it draws lots (from a hash of the position, so it stays deterministic):
one time in four it ends, otherwise it makes one of the moves that lose at most a few steps of
need. The greedy choices after such a move often find the way the jam hid.

**The estimated return** reported with the choice is the progress of the four suits (a share
for coins turned, a share for the need already met, a whole suit once home) mapped onto
[-1, 1], like `heuristics.value`; a finished game is worth its result.

**Expert playouts** (`expert_playouts`): whole games played by the expert policy, in one
compiled call: how often it wins from a position. The policy is the strongest level's: the
planner's move (`choose`), replaced one time in two by a uniformly random legal move (the
random moves break the jams a greedy plan walks into; see `ludoteca.ai.levels`). Dice are
rolled fairly. Game reviews use the share of games won as the winning chance of a position
under good play (`ludoteca.core.GameInfo.expert_playouts`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.kernels import moves as m
from ludoteca.games.steppin_stones.kernels import rules
from ludoteca.games.steppin_stones.state import SteppinStonesState

Cells = npt.NDArray[np.int32]
Table = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Scratch = tuple[Table, Table, Floats]  # stone distances, integer rows, float rows

NUM_SUITS = c.NUM_SUITS
MAX_SQUARES = c.MAX_SQUARES
COINS_PER_SUIT = 5
HOME_COLUMN = m.HOME_COLUMN
HOLE_COLUMN = m.HOLE_COLUMN

# What it costs, in phase-2 steps, to clear a square of the pawn's route of ...
MOVABLE_STONE_PENALTY = 8.0  # another suit's stone, its owner in phase 2
VALUE_COIN_PENALTY = 10.0  # another suit's coin showing 2-5 (moved by the dice, then a stone)
NULL_COIN_PENALTY = 9.0  # another suit's null coin (it never moves in phase 1)
PAWN_PENALTY = 30.0  # another suit's pawn, not yet home, that does not give way (see below)
YIELDING_PAWN_PENALTY = 3.0  # another suit's pawn that goes first
UNFLIPPED_PENALTY = 0.5  # the suit's own coin still showing its value, on its route
LEAPFROG_COST = 8.0  # bringing the stone behind the pawn round to the front
UNREACHABLE_PENALTY = 10.0  # a stone boxed in: Manhattan distance plus this
NO_ROUTE_NEED = 80.0  # no route home at all, as things stand
WALL = 1.0e9

LATER_SUIT_WEIGHT = 0.1  # each suit's need counts this much less than that of the suit before
RETIRED_BONUS = 40.0  # a suit home, on top of its need dropping to 0
BUDGET_WORTH = 0.05  # a step left in a phase-2 budget
FOLLOW_UP_DISCOUNT = 0.01  # a gain that needs a second move, against the same gain at once
WIN_SCORE = 1.0e6
SHAKE_FROM_TURN = 80  # turns after which a stalled game tries moves that lose a little
SHAKE_SLACK = 6.0  # the most a shaking move may lose
NEED_SCALE = 40.0  # the need of a suit at the start of phase 2, roughly (for the return)
TURNED_SHARE = 0.4  # of a suit's progress, for its coins turned (the rest for need met)
NO_STONE = 1 << 20  # distance of a square no stone reaches


@njit(cache=True)
def _suit_retired(s: Cells, geo: Table, suit: int) -> bool:
    return bool(geo[k.pawn_square(s, suit), HOME_COLUMN] == suit)


@njit(cache=True)
def _stone_distances(
    s: Cells, geo: Table, squares: int, origin: int, dist: Table, queue: Table
) -> None:
    """Steps a stone on ``origin`` needs to reach each square, through what a stone may pass."""
    for q in range(squares):
        dist[q] = NO_STONE
    dist[origin] = 0
    queue[0] = origin
    head, tail = 0, 1
    while head < tail:
        q = queue[head]
        head += 1
        for direction in range(4):
            nxt = geo[q, direction]
            if nxt >= 0 and dist[nxt] == NO_STONE and m.can_pass(s, geo, nxt, 1):
                dist[nxt] = dist[q] + 1
                queue[tail] = nxt
                tail += 1


@njit(cache=True)
def _reach(dist: Table, geo: Table, size: int, origin: int, target: int) -> float:
    """The trip of a stone from ``origin`` to ``target`` (an occupied target: beside it, +1)."""
    best = dist[target]
    if best == NO_STONE:
        for direction in range(4):
            nxt = geo[target, direction]
            if nxt >= 0 and dist[nxt] + 1 < best:
                best = dist[nxt] + 1
    if best >= NO_STONE:
        gap = abs(origin % size - target % size) + abs(origin // size - target // size)
        return gap + UNREACHABLE_PENALTY
    return float(best)


@njit(cache=True)
def _goes_before(s: Cells, geo: Table, first: int, second: int) -> bool:
    """Whether ``first``'s pawn goes before ``second``'s: phase 2 before phase 1, then suit order.

    The four pawns start packed in the centre, each in another's way. If every suit waited for
    the pawn in its way, none would move, so the suits are ranked: a suit plans round the pawns
    of the suits after it, and through those before it, which will have moved on.
    """
    first_moving = not m.in_phase_one(s, first)
    second_moving = not m.in_phase_one(s, second)
    if first_moving != second_moving:
        return first_moving
    return first < second


@njit(cache=True)
def _square_costs(
    s: Cells,
    params: Table,
    geo: Table,
    suit: int,
    squares: int,
    penalty: Floats,
    filled: Table,
) -> None:
    """Per square: ``penalty`` (WALL where the pawn can never go) and ``filled`` (no stone needed).

    Filled squares hold a stone of the suit (or a coin that will become one), an ace the pawn
    may use, or are spaces of the suit's home tile.
    """
    aces_ok = params[m.P_ACES_AS_STONES] != 0
    for q in range(squares):
        penalty[q] = 0.0
        filled[q] = 0
        if geo[q, HOLE_COLUMN] != 0:
            penalty[q] = WALL
            continue
        pawn = k.pawn_cell(s, q) - 1
        code = k.coin_cell(s, q)
        if pawn >= 0 and pawn != suit:
            if _suit_retired(s, geo, pawn):
                penalty[q] = WALL
                continue
            if _goes_before(s, geo, pawn, suit):
                penalty[q] += YIELDING_PAWN_PENALTY
            else:
                penalty[q] += PAWN_PENALTY
        if code == 0:
            pass
        elif code == c.STONE_BASE + suit:
            filled[q] = 1
        elif code >= c.ACE_BASE:
            if aces_ok:
                filled[q] = 1
            else:
                penalty[q] = WALL
                continue
        elif code >= c.STONE_BASE:
            if _suit_retired(s, geo, code - c.STONE_BASE):
                penalty[q] = WALL
                continue
            penalty[q] += MOVABLE_STONE_PENALTY
        elif m.coin_suit(code) == suit:
            filled[q] = 1
            penalty[q] += UNFLIPPED_PENALTY
        elif m.coin_value(code) == 0:
            penalty[q] += NULL_COIN_PENALTY
        else:
            penalty[q] += VALUE_COIN_PENALTY
        if geo[q, HOME_COLUMN] == suit:
            filled[q] = 1


@njit(cache=True)
def new_scratch() -> Scratch:
    """Scratch space: stone distances (5 rows), queue, costs, search state, route."""
    dist = np.zeros((COINS_PER_SUIT, MAX_SQUARES), dtype=np.int64)
    ints = np.zeros((6, MAX_SQUARES), dtype=np.int64)
    floats = np.zeros((3, MAX_SQUARES), dtype=np.float64)
    return dist, ints, floats


@njit(cache=True)
def suit_need(s: Cells, params: Table, geo: Table, suit: int, scratch: Scratch) -> float:
    """The phase-2 steps ``suit`` still needs to bring its pawn home (0 once home)."""
    if _suit_retired(s, geo, suit):
        return 0.0
    dist, ints, floats = scratch
    squares = params[m.P_NUM_SQUARES]
    size = int(math.sqrt(squares) + 0.5)
    queue, filled, parent, in_queue, sources, on_route = (
        ints[0],
        ints[1],
        ints[2],
        ints[3],
        ints[4],
        ints[5],
    )
    penalty, cost, best = floats[0], floats[1], floats[2]
    _square_costs(s, params, geo, suit, squares, penalty, filled)

    # the suit's stones (and coins to be turned) free to move, and how far each travels
    count = 0
    for q in range(squares):
        code = k.coin_cell(s, q)
        own = code == c.STONE_BASE + suit or (m.is_value_coin(code) and m.coin_suit(code) == suit)
        if own and k.pawn_cell(s, q) == 0 and count < COINS_PER_SUIT:
            sources[count] = q
            _stone_distances(s, geo, squares, q, dist[count], queue)
            count += 1

    # cost of entering each square on the way home
    for q in range(squares):
        if penalty[q] >= WALL:
            cost[q] = WALL
            continue
        fill = 0.0
        if filled[q] == 0:
            fill = NO_ROUTE_NEED
            for j in range(count):
                fill = min(fill, _reach(dist[j], geo, size, sources[j], q))
            if count == 0:
                fill = LEAPFROG_COST
        cost[q] = 1.0 + penalty[q] + fill

    # cheapest route from the pawn to its home tile (label-correcting search)
    pawn = k.pawn_square(s, suit)
    for q in range(squares):
        best[q] = WALL
        parent[q] = -1
        in_queue[q] = 0
    best[pawn] = 0.0
    queue[0] = pawn
    in_queue[pawn] = 1
    head, size_q = 0, 1
    while size_q > 0:
        q = queue[head]
        head = (head + 1) % MAX_SQUARES
        size_q -= 1
        in_queue[q] = 0
        if q != pawn and geo[q, HOME_COLUMN] == suit:
            continue  # the journey ends on the home tile
        for direction in range(4):
            nxt = geo[q, direction]
            if nxt < 0 or cost[nxt] >= WALL:
                continue
            through = best[q] + cost[nxt]
            if through < best[nxt] - 1e-9:
                best[nxt] = through
                parent[nxt] = q
                if in_queue[nxt] == 0:
                    queue[(head + size_q) % MAX_SQUARES] = nxt
                    size_q += 1
                    in_queue[nxt] = 1
    home = -1
    for q in range(squares):
        if geo[q, HOME_COLUMN] == suit and best[q] < WALL and (home < 0 or best[q] < best[home]):
            home = q
    if home < 0:
        return NO_ROUTE_NEED

    # steps and penalties along the route; its empty squares matched with the spare stones
    for q in range(squares):
        on_route[q] = 0
    need = 0.0
    missing = 0
    q = home
    while q != pawn:
        on_route[q] = 1
        need += 1.0 + penalty[q]
        if filled[q] == 0:
            queue[missing] = q
            missing += 1
        q = parent[q]
    spare = 0
    for j in range(count):
        if on_route[sources[j]] == 0 or geo[sources[j], HOME_COLUMN] == suit:
            sources[spare] = sources[j]
            if spare != j:
                dist[spare, :squares] = dist[j, :squares]
            spare += 1
    while missing > 0 and spare > 0:
        pick_i, pick_j, pick = 0, 0, WALL
        for i in range(missing):
            for j in range(spare):
                trip = _reach(dist[j], geo, size, sources[j], queue[i])
                if trip < pick:
                    pick_i, pick_j, pick = i, j, trip
        need += pick
        missing -= 1
        queue[pick_i] = queue[missing]
        spare -= 1
        if pick_j != spare:
            sources[pick_j] = sources[spare]
            dist[pick_j, :squares] = dist[spare, :squares]
    return need + missing * LEAPFROG_COST


@njit(cache=True)
def score(s: Cells, params: Table, geo: Table, scratch: Scratch) -> float:
    """How good a position is for the planner: minus the needs, plus bonuses (higher is better)."""
    status = s[c.STATUS_AT]
    if status != c.ONGOING:
        return WIN_SCORE if status == c.WON else -WIN_SCORE
    total = 0.0
    for suit in range(NUM_SUITS):
        if _suit_retired(s, geo, suit):
            total += RETIRED_BONUS
            continue
        rank = 0
        for other in range(NUM_SUITS):
            if other != suit and not _suit_retired(s, geo, other):
                rank += _goes_before(s, geo, other, suit)
        weight = LATER_SUIT_WEIGHT**rank
        total -= weight * suit_need(s, params, geo, suit, scratch)
        total += BUDGET_WORTH * k.budget_left(s, suit)
    return total


@njit(cache=True)
def estimated_return(s: Cells, params: Table, geo: Table, scratch: Scratch) -> float:
    """The progress of the four suits mapped onto [-1, 1] (a finished game: its result)."""
    status = s[c.STATUS_AT]
    if status != c.ONGOING:
        return 1.0 if status == c.WON else -1.0
    total = 0.0
    for suit in range(NUM_SUITS):
        if _suit_retired(s, geo, suit):
            total += 1.0
            continue
        turned = COINS_PER_SUIT - k.value_coins_left(s, suit)
        met = 1.0 - suit_need(s, params, geo, suit, scratch) / NEED_SCALE
        met = min(max(met, 0.0), 1.0)
        total += TURNED_SHARE * turned / COINS_PER_SUIT + (1.0 - TURNED_SHARE) * met * 0.99
    return -1.0 + 2.0 * total / NUM_SUITS


@njit(cache=True)
def _best_pawn_follow_up(
    t: Cells,
    params: Table,
    geo: Table,
    action: int,
    work: Table,
    follow: Table,
    u: Cells,
    scratch: Scratch,
) -> float:
    """The best score after ``action`` (already played on ``t``) and one move of its pawn.

    Putting a stone in front of a pawn gains nothing until the pawn steps onto it, so a stone
    move is also judged by the best pawn move of its suit it makes possible this turn.
    """
    origin = action // c.STRIDE
    pawn_suit = k.pawn_cell(t, origin) - 1
    code = k.coin_cell(t, action % c.STRIDE)
    if pawn_suit >= 0 or code < c.STONE_BASE or code >= c.ACE_BASE:
        return -2.0 * WIN_SCORE  # a pawn move, or not a stone move
    suit = code - c.STONE_BASE
    budget = k.budget_left(t, suit)
    if budget <= 0:
        return -2.0 * WIN_SCORE
    pawn = k.pawn_square(t, suit)
    n = m.search_moves(t, params, geo, pawn, budget, suit, work, follow, 0)
    best = -2.0 * WIN_SCORE
    for i in range(n):
        u[:] = t
        k.apply_action_inplace(u, follow[i], params, geo, work)
        best = max(best, score(u, params, geo, scratch))
    return best - FOLLOW_UP_DISCOUNT  # what can be had at once is better had at once


@njit(cache=True)
def _position_hash(s: Cells) -> np.uint64:
    """A number drawn from the whole position (board, turn, dice): the same position, the same."""
    h = np.uint64(14695981039346656037)
    for i in range(c.CELLS_SIZE):
        h = (h ^ np.uint64(s[i] & 0xFFFF)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _shake(s: Cells, out: Table, values: Floats, n: int, here: float) -> int:
    """A stalled game's move: by lot, ``end`` one time in four, else a move that costs little.

    Past `SHAKE_FROM_TURN` a game has usually jammed: no single move (or stone move and pawn
    step) lowers any need, and ending every turn would run into the turn limit. A move that
    loses at most `SHAKE_SLACK` changes the position, and the greedy choices that follow may
    find a way the jammed position hid. The lot comes from the position itself, so the
    planner stays deterministic.
    """
    h = _position_hash(s)
    if h % np.uint64(4) == 0:
        return c.END
    count = 0
    for i in range(n):
        if out[i] != c.END and values[i] >= here - SHAKE_SLACK:
            count += 1
    if count == 0:
        return c.END
    pick = int((h // np.uint64(2)) % np.uint64(count))
    for i in range(n):
        if out[i] != c.END and values[i] >= here - SHAKE_SLACK:
            if pick == 0:
                return int(out[i])
            pick -= 1
    return c.END


@njit(cache=True)
def choose(s: Cells, params: Table, geo: Table) -> tuple[int, float]:
    """The planner's action for the decision node ``s``, and the estimated return after it."""
    work = m.new_work()
    out = np.empty(m.MAX_LEGAL, dtype=np.int64)
    n = k.legal_actions_into(s, params, geo, work, out)
    scratch = new_scratch()
    here = score(s, params, geo, scratch)
    t = s.copy()
    u = s.copy()
    follow = np.empty(m.MAX_SQUARES, dtype=np.int64)
    values = np.empty(n, dtype=np.float64)
    best_action = -1
    best_score = -2.0 * WIN_SCORE
    for i in range(n):
        action = out[i]
        if action == c.END:
            value = here  # ending keeps what the budget was worth: a move must gain to be made
        else:
            t[:] = s
            k.apply_action_inplace(t, action, params, geo, work)
            value = score(t, params, geo, scratch)
            if s[c.STAGE_AT] == c.PLAY2 and t[c.STATUS_AT] == c.ONGOING:
                value = max(
                    value, _best_pawn_follow_up(t, params, geo, action, work, follow, u, scratch)
                )
        values[i] = value
        better = value > best_score + 1e-9
        if action == c.END and value > best_score - 1e-9:
            better = True  # end rather than a move that gains nothing
        elif abs(value - best_score) <= 1e-9 and best_action != c.END and action < best_action:
            better = True
        if better:
            best_action, best_score = action, value
    if best_action == c.END and s[c.STAGE_AT] == c.PLAY2 and s[c.TURNS_AT] >= SHAKE_FROM_TURN:
        best_action = _shake(s, out, values, n, here)
    t[:] = s
    k.apply_action_inplace(t, best_action, params, geo, work)
    return best_action, estimated_return(t, params, geo, scratch)


def plan_value(
    cells: npt.NDArray[np.int32], params: npt.NDArray[np.int64], geometry: npt.NDArray[np.int64]
) -> float:
    """The planner's estimated return for a position array (see `estimated_return`)."""
    return float(estimated_return(cells, params, geometry, new_scratch()))


def expert_move(state: SteppinStonesState) -> tuple[int, float]:
    """The planner's action at a decision node, and its estimated return for the player.

    The caller makes sure ``state`` is a decision node of a game still running.
    """
    game = state.game
    action, value = choose(state.cells, game.params, game.geometry)
    return int(action), float(value)


#: How often the policy plays a random move instead of the planner's (as level 5 does).
RANDOM_MOVE_SHARE = 0.5


@njit(cache=True)
def _wins(
    start: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    geo: npt.NDArray[np.int64],
    count: int,
    seed: int,
    random_share: float,
) -> int:
    np.random.seed(seed)
    work = m.new_work()
    out = np.empty(m.MAX_LEGAL, dtype=np.int64)
    s = start.copy()
    wins = 0
    for _ in range(count):
        s[:] = start
        while s[k.STATUS_AT] == k.ONGOING:
            if k.is_chance_node(s):
                action = rules._roll(s)
            elif np.random.random() < random_share:
                n = k.legal_actions_into(s, params, geo, work, out)
                action = out[np.random.randint(n)]
            else:
                action, _ = choose(s, params, geo)
            k.apply_action_inplace(s, action, params, geo, work)
        if s[k.STATUS_AT] == k.WON:
            wins += 1
    return wins


def expert_playouts(state: SteppinStonesState, count: int, seed: int) -> int:
    """How many of ``count`` games played by the expert policy from ``state`` are won."""
    game = state.game
    return int(_wins(state.cells, game.params, game.geometry, count, seed, RANDOM_MOVE_SHARE))
