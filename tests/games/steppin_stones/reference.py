"""A slow, plain-Python reference for Steppin' Stones, used for differential testing.

Written from the rules page (docs/rules/steppin_stones.md) alone: it imports nothing from
``ludoteca`` and shares no code with the engine, so that the two can be compared position text
against position text, move set against move set. It reads and writes the position text of the
rules page, and it favours obviousness over speed: squares are strings, the board is a dict, and
every path is found by a fresh breadth-first search.

What it models, rule by rule (the page's section in brackets):

* the two boards, the home tiles, the hole, the start position and the aces' squares
  [Equipment and board, Start position, Aces, The large board];
* phase 1, phase 2 and retired suits [Phases];
* a turn: the phase-1 roll, value moves, the suit faces that must be honoured, ``end``; the
  phase-2 roll of the suits that were in phase 2 when the turn began, budgets, ``end``
  [A turn];
* exact-length coin paths, shortest stone and pawn paths, what may be passed over and where a
  pawn may step, a pawn's journey ending on its first home space [Movement];
* a win, a dead position, resignation and the ``max_turns`` safeguard [End of the game].

Run ``python tests/games/steppin_stones/reference.py`` for a short self-check.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from dataclasses import dataclass, replace

SUITS = "SMCA"  # Suns, Moons, Crowns, Arms: always in this order
FACES = "*02345"  # a die: the suit face, null, 2-5
VALUES = "02345"  # the coins of a suit; "0" is the null coin

# -- options and boards ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """The options of the rules page, with their defaults."""

    stones: str = "any"
    aces: int = 0
    aces_as_stones: bool = False
    large_board: bool = False
    max_turns: int = 500


def size(options: Options) -> int:
    """Files and ranks of the board: 8, or 10 on the large board."""
    return 10 if options.large_board else 8


def square(file: int, rank: int) -> str:
    """The name of the square at 1-based ``file`` and ``rank`` (``(1, 1) -> "a1"``)."""
    return "abcdefghij"[file - 1] + str(rank)


def coords(name: str) -> tuple[int, int]:
    """The 1-based ``(file, rank)`` of a square name."""
    return "abcdefghij".index(name[0]) + 1, int(name[1:])


def hole(options: Options) -> frozenset[str]:
    """The four squares missing from the middle of the large board (none on the small one)."""
    return frozenset({"e5", "f5", "e6", "f6"}) if options.large_board else frozenset()


def board_squares(options: Options) -> list[str]:
    """Every square of the board (the hole excluded)."""
    n = size(options)
    squares = [square(f, r) for r in range(1, n + 1) for f in range(1, n + 1)]
    return [s for s in squares if s not in hole(options)]


def home_tile(suit: str, options: Options) -> frozenset[str]:
    """The 2x2 home tile of ``suit`` in its corner."""
    n = size(options)
    low, high = (1, 2), (n - 1, n)
    files, ranks = {"S": (low, high), "M": (high, high), "C": (high, low), "A": (low, low)}[suit]
    return frozenset(square(f, r) for f in files for r in ranks)


def neighbours(name: str, options: Options) -> list[str]:
    """The squares one orthogonal step away, on the board and outside the hole."""
    file, rank = coords(name)
    n = size(options)
    found = []
    for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        f, r = file + df, rank + dr
        if 1 <= f <= n and 1 <= r <= n and square(f, r) not in hole(options):
            found.append(square(f, r))
    return found


# The start squares, suit by suit: the null, 2, 3, 4 and 5 coins, then the pawn.
SMALL_START = {
    "S": ("c6", "b6", "a6", "c7", "c8", "e4"),
    "M": ("f6", "g6", "h6", "f7", "f8", "d4"),
    "C": ("f3", "g3", "h3", "f2", "f1", "d5"),
    "A": ("c3", "b3", "a3", "c2", "c1", "e5"),
}
LARGE_START = {
    "S": ("c8", "b8", "a8", "c9", "c10", "f5"),
    "M": ("h8", "i8", "j8", "h9", "h10", "e5"),
    "C": ("h3", "i3", "j3", "h2", "h1", "e6"),
    "A": ("c3", "b3", "a3", "c2", "c1", "f6"),
}
ACE_SQUARES = {  # (small board, large board)
    "S": ("b5", "b7"),
    "M": ("g5", "i7"),
    "C": ("g4", "i4"),
    "A": ("b4", "b4"),
}
ACES_PLACED = {0: "", 2: "SC", 4: "SMCA"}


def ace_squares(options: Options) -> dict[str, str]:
    """Square -> suit of every ace the options put on the board."""
    return {ACE_SQUARES[suit][options.large_board]: suit for suit in ACES_PLACED[options.aces]}


# -- positions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A position as the rules page describes it.

    ``coins`` maps a square to what lies on it: ``"S3"`` a coin showing its value, ``"s"`` a
    stone, ``"S*"`` an ace. ``pawns`` maps each suit to its pawn's square. ``stage`` is
    ``roll1``, ``play1``, ``roll2`` or ``play2``; ``dice`` holds ``(suit, face, used)`` in
    ``play1``, ``(suit, "", False)`` in ``roll2`` and ``(suit, steps, False)`` in ``play2``.
    """

    options: Options
    coins: dict[str, str]
    pawns: dict[str, str]
    turns: int = 0
    stage: str = "roll1"
    dice: tuple[tuple[str, str, bool], ...] = ()
    resigned: bool = False


def start(options: Options) -> Position:
    """The start position of the rules page under ``options``."""
    table = LARGE_START if options.large_board else SMALL_START
    coins: dict[str, str] = {}
    pawns: dict[str, str] = {}
    for suit, squares in table.items():
        for value, name in zip(VALUES, squares[:5], strict=True):
            coins[name] = suit + value
        pawns[suit] = squares[5]
    for name, suit in ace_squares(options).items():
        coins[name] = suit + "*"
    return Position(options, coins, pawns)


TOKEN = re.compile(r"[SMCA]P\+(?:[smca]|[SMCA]\*)|[SMCA]P|[SMCA][0-5*]|[smca]|\.|#")


def parse(text: str, options: Options) -> Position:
    """Read position text (the format of the rules page)."""
    fields = text.split()
    board, turns, stage, rest = fields[0], int(fields[1]), fields[2], fields[3:]
    resigned = bool(rest) and rest[-1] == "resigned"
    if resigned:
        rest = rest[:-1]
    n = size(options)
    coins: dict[str, str] = {}
    pawns: dict[str, str] = {}
    for row, rank_text in enumerate(board.split("/")):
        rank = n - row
        tokens = TOKEN.findall(rank_text)
        assert "".join(tokens) == rank_text and len(tokens) == n, rank_text
        for file, token in enumerate(tokens, start=1):
            name = square(file, rank)
            if token in ".#":
                continue
            if token[1:2] == "P":
                pawns[token[0]] = name
                if "+" in token:
                    coins[name] = token.split("+")[1]
            else:
                coins[name] = token
    dice: list[tuple[str, str, bool]] = []
    for item in rest:
        if stage == "play1":
            dice.append((item[0], item[1], item.endswith("-")))
        elif stage == "roll2":
            dice.append((item, "", False))
        else:  # play2: suit and steps left
            dice.append((item[0], item[1:], False))
    return Position(options, coins, pawns, turns, stage, tuple(dice), resigned)


def to_text(position: Position) -> str:
    """The position text of the rules page."""
    options = position.options
    n = size(options)
    pawn_at = {name: suit for suit, name in position.pawns.items()}
    ranks = []
    for rank in range(n, 0, -1):
        cells = []
        for file in range(1, n + 1):
            name = square(file, rank)
            coin = position.coins.get(name)
            if name in pawn_at:
                cells.append(pawn_at[name] + "P" + ("" if coin is None else "+" + coin))
            elif coin is not None:
                cells.append(coin)
            else:
                cells.append("#" if name in hole(options) else ".")
        ranks.append("".join(cells))
    fields = ["/".join(ranks), str(position.turns), position.stage]
    for suit, face, used in position.dice:
        if position.stage == "play1":
            fields.append(suit + face + ("-" if used else ""))
        else:
            fields.append(suit + face)
    if position.resigned:
        fields.append("resigned")
    return " ".join(fields)


# -- phases ---------------------------------------------------------------------------------------


def is_home(position: Position, suit: str) -> bool:
    """Whether ``suit``'s pawn is home, so the suit has retired."""
    return position.pawns[suit] in home_tile(suit, position.options)


def value_coins(position: Position, suit: str) -> dict[str, str]:
    """Square -> coin of ``suit``'s coins still showing a value."""
    return {
        name: coin for name, coin in position.coins.items() if coin[0] == suit and shows_value(coin)
    }


def phase(position: Position, suit: str) -> str:
    """``"retired"``, ``"1"`` (a coin still shows a value) or ``"2"`` (five stones)."""
    if is_home(position, suit):
        return "retired"
    return "1" if value_coins(position, suit) else "2"


# -- paths ------------------------------------------------------------------------------------


def shows_value(coin: str) -> bool:
    """Whether ``coin`` is a coin showing its value (``"S3"``), not a stone or an ace."""
    return len(coin) == 2 and coin[1] in VALUES


def is_ace(coin: str) -> bool:
    """Whether ``coin`` is an ace (``"S*"``)."""
    return coin.endswith("*")


def worth(coin: str) -> int:
    """What a coin is worth when it moves or is passed over: its value; a stone or ace 1."""
    return int(coin[1]) if shows_value(coin) else 1


def exact_paths(position: Position, origin: str, steps: int) -> set[str]:
    """Where a coin on ``origin`` may end after exactly ``steps`` orthogonal steps.

    The path never visits a square twice; every square it passes over is empty or holds a coin
    worth strictly less than the moving coin (never a pawn or an ace); it ends on an empty space.
    """
    options = position.options
    mover = worth(position.coins[origin])
    pawn_squares = set(position.pawns.values())
    ends: set[str] = set()

    def walk(at: str, visited: frozenset[str], left: int) -> None:
        for nxt in neighbours(at, options):
            if nxt in visited or nxt in pawn_squares:
                continue
            coin = position.coins.get(nxt)
            if left == 1:
                if coin is None:
                    ends.add(nxt)
                continue
            if coin is None or (not is_ace(coin) and worth(coin) < mover):
                walk(nxt, visited | {nxt}, left - 1)

    walk(origin, frozenset({origin}), steps)
    return ends


def stone_distances(position: Position, origin: str) -> dict[str, int]:
    """Empty space -> length of the shortest legal path of the stone on ``origin``.

    A stone is worth 1, so it passes over empty spaces and nulls only.
    """
    options = position.options
    pawn_squares = set(position.pawns.values())
    distance = {origin: 0}
    queue = deque([origin])
    ends: dict[str, int] = {}
    while queue:
        at = queue.popleft()
        for nxt in neighbours(at, options):
            if nxt in distance or nxt in pawn_squares:
                continue
            coin = position.coins.get(nxt)
            if coin is None:
                ends[nxt] = distance[at] + 1
            elif is_ace(coin) or worth(coin) >= 1:
                continue
            distance[nxt] = distance[at] + 1
            queue.append(nxt)
    return ends


def pawn_may_step(position: Position, suit: str, name: str) -> bool:
    """Whether ``suit``'s pawn may step onto ``name``."""
    if name in position.pawns.values():
        return False
    coin = position.coins.get(name)
    if coin == suit.lower():
        return True
    if name in home_tile(suit, position.options):
        return coin is None
    return coin is not None and is_ace(coin) and position.options.aces_as_stones


def pawn_distances(position: Position, suit: str) -> dict[str, int]:
    """Square -> length of the pawn's shortest path there; its journey ends on a home space."""
    options = position.options
    home = home_tile(suit, options)
    origin = position.pawns[suit]
    distance = {origin: 0}
    queue = deque([origin])
    while queue:
        at = queue.popleft()
        if at in home and at != origin:
            continue  # arrived: the journey ends here
        for nxt in neighbours(at, options):
            if nxt not in distance and pawn_may_step(position, suit, nxt):
                distance[nxt] = distance[at] + 1
                queue.append(nxt)
    del distance[origin]
    return distance


def under_a_pawn(position: Position, name: str) -> bool:
    """Whether a pawn stands on ``name`` (a stone carrying a pawn stays put)."""
    return name in position.pawns.values()


# -- the game's end ---------------------------------------------------------------------------


def outcome(position: Position) -> tuple[int, str] | None:
    """``(+1 or -1, reason)`` once the game is over, else ``None``."""
    if all(is_home(position, suit) for suit in SUITS):
        return 1, "all four pawns are home"
    if position.resigned:
        return -1, "the player resigned"
    if position.turns >= position.options.max_turns:
        turns = position.options.max_turns
        return -1, f"engine safeguard: {turns} turns played without bringing every pawn home"
    if position.stage == "roll2" and is_dead(position):
        return -1, "the position is dead: no suit is in phase 1 and no stone or pawn can move"
    return None


def is_dead(position: Position) -> bool:
    """No suit in phase 1, and no stone or pawn of a suit in play can take a single step."""
    in_play = [suit for suit in SUITS if phase(position, suit) != "retired"]
    if any(phase(position, suit) == "1" for suit in in_play):
        return False
    for suit in in_play:
        if 1 in pawn_distances(position, suit).values():
            return False
        stones = [n for n, c in position.coins.items() if c == suit.lower()]
        if any(
            1 in stone_distances(position, name).values()
            for name in stones
            if not under_a_pawn(position, name)
        ):
            return False
    return True


# -- moves ------------------------------------------------------------------------------------


def chance_outcomes(position: Position) -> dict[str, float]:
    """Roll text -> probability at a roll (``roll1`` or ``roll2``); empty elsewhere."""
    if outcome(position) is not None:
        return {}
    if position.stage == "roll1":
        suits = [suit for suit in SUITS if phase(position, suit) == "1"]
    elif position.stage == "roll2":
        suits = [suit for suit, _, _ in position.dice]
    else:
        return {}
    rolls = itertools.product(FACES, repeat=len(suits))
    return {
        " ".join(s + f for s, f in zip(suits, roll, strict=True)): 6.0 ** -len(suits)
        for roll in rolls
    }


def legal_moves(position: Position) -> set[str]:
    """The texts of the legal moves (the rolls at a chance node; ``resign`` is not listed)."""
    if outcome(position) is not None:
        return set()
    if position.stage in ("roll1", "roll2"):
        return set(chance_outcomes(position))
    if position.stage == "play1":
        return phase_one_moves(position)
    return phase_two_moves(position)


def phase_one_moves(position: Position) -> set[str]:
    """Value moves, the flips the suit faces demand, and ``end`` once every face is honoured."""
    moves = set()
    unused = [(suit, face) for suit, face, used in position.dice if not used]
    for value in {face for _, face in unused if face in "2345"}:
        for name, coin in position.coins.items():
            if shows_value(coin) and coin[1] == value:
                for end in exact_paths(position, name, int(value)):
                    moves.add(f"{coin}:{name}-{end}")
    faces_due = [suit for suit, face in unused if face == "*"]
    for suit in faces_due:
        coins = sorted(value_coins(position, suit).values())  # "S0" < "S2" < ... < "S5"
        choices = coins[-1:] if position.options.stones == "highest" else coins
        moves.update(f"flip:{coin}" for coin in choices)
    if not faces_due:
        moves.add("end")
    return moves


def phase_two_moves(position: Position) -> set[str]:
    """Stone and pawn moves within each suit's budget, and ``end``."""
    moves = {"end"}
    for suit, steps, _ in position.dice:
        budget = int(steps)
        if budget == 0 or phase(position, suit) != "2":
            continue
        for name, coin in position.coins.items():
            if coin == suit.lower() and not under_a_pawn(position, name):
                for end, cost in stone_distances(position, name).items():
                    if cost <= budget:
                        moves.add(f"{suit}:{name}-{end}")
        origin = position.pawns[suit]
        for end, cost in pawn_distances(position, suit).items():
            if cost <= budget:
                moves.add(f"{suit}P:{origin}-{end}")
    return moves


BUDGET = {"0": 1, "*": 6, "2": 2, "3": 3, "4": 4, "5": 5}


def apply(position: Position, move: str) -> Position:
    """The position after ``move``: the text of a move of `legal_moves`, or ``resign``.

    It trusts that the move is legal (the tests compare the move sets first).
    """
    if move == "resign":
        return replace(position, resigned=True)
    if position.stage == "roll1":
        dice = tuple((item[0], item[1], False) for item in move.split())
        return replace(position, stage="play1", dice=dice)
    if position.stage == "roll2":
        dice = tuple((item[0], str(BUDGET[item[1]]), False) for item in move.split())
        return replace(position, stage="play2", dice=dice)
    if move == "end":
        return end_of_step(position)
    coins = dict(position.coins)
    pawns = dict(position.pawns)
    dice = list(position.dice)
    if move.startswith("flip:"):
        coin = move[5:]
        (name,) = [n for n, c in coins.items() if c == coin]
        coins[name] = coin[0].lower()
        (at,) = [i for i, (s, f, u) in enumerate(dice) if s == coin[0] and f == "*" and not u]
        dice[at] = (coin[0], "*", True)
        return replace(position, coins=coins, dice=tuple(dice))
    piece, origin, end = re.fullmatch(r"(\w+):(\w+)-(\w+)", move).groups()  # type: ignore[union-attr]
    if position.stage == "play1":  # a value move: the first unused die of that value is used
        value = piece[1]
        at = next(i for i, (s, f, u) in enumerate(dice) if f == value and not u)
        dice[at] = (dice[at][0], value, True)
        coins[end] = coins.pop(origin)
        return replace(position, coins=coins, dice=tuple(dice))
    suit = piece[0]
    if piece.endswith("P"):
        cost = pawn_distances(position, suit)[end]
        pawns[suit] = end
    else:
        cost = stone_distances(position, origin)[end]
        coins[end] = coins.pop(origin)
    at = next(i for i, (s, _, _) in enumerate(dice) if s == suit)
    dice[at] = (suit, str(int(dice[at][1]) - cost), False)
    after = replace(position, coins=coins, pawns=pawns, dice=tuple(dice))
    if piece.endswith("P") and is_home(after, suit):  # home: the suit's die leaves play
        after = replace(after, dice=tuple(d for d in dice if d[0] != suit))
    return after


def end_of_step(position: Position) -> Position:
    """``end``: from step 1 to the phase-2 roll of the suits in phase 2 when the turn began, or
    on to the next turn."""
    if position.stage == "play1":
        rolled = {suit for suit, _, _ in position.dice}
        waiting = [s for s in SUITS if s not in rolled and phase(position, s) == "2"]
        if waiting:
            return replace(position, stage="roll2", dice=tuple((s, "", False) for s in waiting))
    return next_turn(position)


def next_turn(position: Position) -> Position:
    """The next turn: a phase-1 roll when a suit is in phase 1, else the phase-2 roll."""
    turns = position.turns + 1
    if any(phase(position, suit) == "1" for suit in SUITS):
        return replace(position, turns=turns, stage="roll1", dice=())
    suits = tuple((s, "", False) for s in SUITS if phase(position, s) == "2")
    return replace(position, turns=turns, stage="roll2", dice=suits)


if __name__ == "__main__":  # a short self-check: the designer's example turn
    here = start(Options())
    assert to_text(here) == (
        "..S5..M5../..S4..M4../S3S2S0..M0M2M3/...CPAP.../...MPSP.../A3A2A0..C0C2C3/..A4..C4../"
        "..A5..C5.. 0 roll1"
    )
    for step in ("S* M0 C4 A2", "S2:b6-c5", "S4:c7-a5", "flip:S2"):
        here = apply(here, step)
    assert to_text(here) == (
        "..S5..M5../.....M4../S3.S0..M0M2M3/S4.sCPAP.../...MPSP.../A3A2A0..C0C2C3/..A4..C4../"
        "..A5..C5.. 0 play1 S*- M0 C4- A2-"
    ), to_text(here)
    print("the designer's example turn plays as on the rules page")
