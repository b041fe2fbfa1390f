"""What a Steppin' Stones position looks like: the terminal text and the front ends' drawing.

`render` is what the terminal prints; `drawing` and `click_paths` are what the web page draws
and how clicks make moves (see `ludoteca.core.view`).


The board uses the tokens of the position text (``S2`` a coin showing its value, ``s`` a Sun
stepping stone, ``SP`` the Sun pawn, ``SP+s`` the pawn on a stone, ``S*`` an ace, ``#`` the hole)
and puts the spaces of the home tiles in brackets (``[S]`` an empty space of the Suns' home
tile). Below it, one line per suit says its phase, and the dice section says which dice are in
which phase this turn and what each die still left can do.

The drawing puts rank 8 (or 10) at the top, one unit per space, the file letters under the board
and the rank numbers at its left, with thin lines around the 2x2 tiles. Every space is a region
named as in the notation (``"b6"``), styled ``space``, ``home-suns`` ... ``home-arms`` (the
spaces of a home tile) or ``hole`` (the large board's centre, where the pawns start). Coins are
``coin`` pieces showing their value (``"0"`` for the null, ``"2"`` to ``"5"``) or, once turned
into stepping stones, their suit's symbol; aces show ``"A"``; pawns are ``pawn`` pieces. Pieces
are styled by suit: ``suns``, ``moons``, ``crowns``, ``arms``. The dice are the suits' dice, each
labelled with what it can still do.

A move is made by clicking the piece, then the space it ends on (``S2:b6-c5``: ``b6``, ``c5``);
turning a coin into a stone takes one click on it (``flip:S2``: the space of the Sun 2), which
the front end offers by text when the coin can also move; ``end`` has no click.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from ludoteca.core.grids import FILE_LETTERS
from ludoteca.core.outcome import CHANCE
from ludoteca.core.view import GRID_MARGIN, Die, Drawing, Mark, Piece, Region, grid_coordinates
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.layout import SUIT_NAME, SUIT_NAMES, SUITS
from ludoteca.games.steppin_stones.position import cell_token, face_text, roll_example

if TYPE_CHECKING:
    from ludoteca.core.game import Move
    from ludoteca.games.steppin_stones.state import SteppinStonesState

CELL_WIDTH = 6
SHORT_KEY = "Key: S2 coin · s stone · SP pawn, SP+s on a stone · S* ace · [S] home · # hole"
KEY = (
    "Key: S2 coin showing its value · s stepping stone · SP pawn · SP+s pawn on its stone · "
    "S* ace · [S] home tile · # hole"
)


def render(state: SteppinStonesState) -> str:
    """The whole picture: board, suits, dice and what comes next."""
    return "\n".join([*board_lines(state), KEY, *suit_lines(state), *dice_lines(state)])


def board_text(state: SteppinStonesState, *, marked: Collection[str] = frozenset()) -> str:
    """The terminal's board: at most 21 lines on the standard board.

    The spaces in ``marked`` are in angle brackets; under the board come a short key, one line
    per suit, and the dice in a few lines (each die's uses cut to one line; ``moves`` lists
    them all).
    """
    lines = board_lines(state, marked=marked)
    lines.append(SHORT_KEY)
    lines += suit_lines(state)
    lines += [_fit(line) for line in dice_lines(state, compact=True)]
    return "\n".join(lines)


def _fit(line: str, width: int = 79) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def board_lines(state: SteppinStonesState, *, marked: Collection[str] = frozenset()) -> list[str]:
    """The board with file letters and rank numbers, rank 8 (or 10) at the top.

    The spaces named in ``marked`` are shown in angle brackets (``<SP>``).
    """
    layout = state.layout
    size = layout.size
    files = "    " + "".join(letter.center(CELL_WIDTH) for letter in FILE_LETTERS[:size])
    lines = [f"Steppin' Stones · turn {state.turn}", files.rstrip()]
    coins, pawns = _contents(state)
    for rank in range(size - 1, -1, -1):
        cells = []
        for file in range(size):
            square = rank * size + file
            token = cell_token(coins[square], pawns[square])
            home = layout.home_of[square]
            if square in layout.hole_set and token == ".":
                token = "#"
            elif home is not None:
                token = f"[{SUITS[home] if token == '.' else token}]"
            if layout.names[square] in marked:
                token = f"<{token}>"
            cells.append(token.center(CELL_WIDTH))
        lines.append(f"{rank + 1:>2}  {''.join(cells)}  {rank + 1}".rstrip())
    lines.append(files.rstrip())
    return lines


def _contents(state: SteppinStonesState) -> tuple[list[int], list[int]]:
    """The coin code and the pawn (suit + 1, or 0) on each square."""
    squares = state.layout.num_squares
    cells = state.cells
    return c.coin_cells(cells)[:squares].tolist(), c.pawn_cells(cells)[:squares].tolist()


def suit_lines(state: SteppinStonesState) -> list[str]:
    """One line per suit: its phase, its coins still showing a value, or its pawn."""
    layout = state.layout
    coins, _ = _contents(state)
    showing: list[list[int]] = [[] for _ in range(c.NUM_SUITS)]
    for code in coins:
        if c.is_value_coin(code):
            showing[c.coin_suit(code)].append(c.coin_value(code))
    lines = []
    for suit in range(c.NUM_SUITS):
        label = f"{SUIT_NAMES[suit]:<7}"
        phase = state.phase(suit)
        values = sorted(showing[suit])
        if phase == c.RETIRED:
            lines.append(f"{label}home: retired, its die has left play")
        elif phase == c.PHASE_ONE:
            shown = " ".join(f"{SUITS[suit]}{v}" for v in values)
            lines.append(
                f"{label}phase 1: {5 - len(values)} of 5 coins are stones; to turn: {shown}"
            )
        else:
            pawn = layout.name(state.pawn_square(suit))
            lines.append(f"{label}phase 2: all five coins are stones; pawn on {pawn}")
    return lines


def dice_lines(state: SteppinStonesState, *, compact: bool = False) -> list[str]:
    """Which dice are in which phase this turn, and what each one left can still do.

    ``compact`` (the terminal after every move) puts the explanations on the first line and
    leaves one line per die.
    """
    outcome = state.outcome
    if outcome is not None:
        verdict = "Won" if outcome.winner == 0 else "Lost"
        return [f"{verdict}: {outcome.reason}."]
    stage = state.stage
    later = state.phase_two_dice
    if stage == c.ROLL1:
        lines = [f"Next: roll the phase-1 dice: {_names(state.rolling_suits)}{_typed(state)}."]
        if not compact:
            lines.append(_phase_two_note(later))
        return lines
    if stage == c.ROLL2:
        return [f"Next: roll the phase-2 dice: {_names(later)}{_typed(state)}."]
    if compact:
        if stage == c.PLAY1:
            after = f"; phase-2 dice after it: {_names(later)}" if later else ""
            heading = f"Phase-1 dice{after}. Type a move, or end to finish phase 1."
            return [heading, *_phase_one_dice(state)]
        return ["Phase-2 dice: steps left. Type a move, or end the turn.", *_phase_two_dice(state)]
    if stage == c.PLAY1:
        lines = ["Phase-1 dice (colour does not matter, except for the suit face *):"]
        lines += _phase_one_dice(state)
        lines.append(_phase_two_note(later))
        lines.append("Type a move, or end to finish phase 1 (or resign).")
        return lines
    lines = ["Phase-2 dice (steps left, spent on that suit's stones and pawn):"]
    lines += _phase_two_dice(state)
    lines.append("Type a move, or end to finish the turn (or resign).")
    return lines


def _phase_two_note(later: tuple[int, ...]) -> str:
    if later:
        return f"Phase-2 dice this turn: {_names(later)}, rolled after phase 1."
    return "No phase-2 dice this turn."


def _typed(state: SteppinStonesState) -> str:
    """How a roll of real dice is typed in, e.g. `` (typed like S* M0 C4 A2)``."""
    return f" (typed like {roll_example(state.rolling_suits)})"


def _names(suits: tuple[int, ...]) -> str:
    return ", ".join(SUIT_NAMES[suit] for suit in suits) or "none"


def _phase_one_dice(state: SteppinStonesState) -> list[str]:
    lines = []
    for suit, can in phase_one_dice_uses(state).items():
        face, _ = state.phase_one_die(suit) or (c.NO_FACE, False)
        lines.append(f"  {SUITS[suit]}{face_text(face)}  {can}")
    return lines


def phase_one_dice_uses(state: SteppinStonesState) -> dict[int, str]:
    """Suit -> what its phase-1 die rolled this turn can still do, for the suits that rolled."""
    moves_by_coin: dict[str, list[str]] = defaultdict(list)
    flips = []
    for move in state.legal_moves():
        if move.text.startswith("flip:"):
            flips.append(move.text)
        elif ":" in move.text:
            coin, _, path = move.text.partition(":")
            moves_by_coin[coin].append(path.partition("-")[2])
    uses = {}
    for suit in range(c.NUM_SUITS):
        die = state.phase_one_die(suit)
        if die is None:
            continue
        face, used = die
        if face == c.FACE_NULL:
            uses[suit] = "null: does nothing"
        elif used:
            uses[suit] = "used" if face != c.FACE_SUIT else "honoured: a coin turned"
        elif face == c.FACE_SUIT:
            uses[suit] = (
                f"must turn a {SUIT_NAME[suit]} coin into a stone: {' '.join(sorted(flips))}"
            )
        else:
            options = [
                f"{coin} -> {' '.join(targets)}"
                for coin, targets in moves_by_coin.items()
                if coin[1] == str(face)
            ]
            can = "; ".join(options) if options else "no coin showing it can move"
            uses[suit] = f"may move one coin showing {face} exactly {face} steps: {can}"
    return uses


def _phase_two_dice(state: SteppinStonesState) -> list[str]:
    lines = [
        f"  {SUIT_NAMES[suit]:<7}{state.budget(suit)} left: {can}"
        for suit, can in phase_two_dice_uses(state).items()
    ]
    if not lines:
        lines.append("  none left in play")
    return lines


def phase_two_dice_uses(state: SteppinStonesState) -> dict[int, str]:
    """Suit -> which of its stones and its pawn can use its phase-2 die, and where they go."""
    names = state.layout.names
    coins, pawns = _contents(state)
    targets: dict[tuple[int, str], list[str]] = defaultdict(list)
    keys: dict[int, tuple[int, str]] = {}
    for move in state.legal_moves():
        if move.index >= c.FLIP_BASE:
            continue
        origin, destination = divmod(move.index, c.STRIDE)
        key = keys.get(origin)
        if key is None:
            if pawns[origin]:
                key = (pawns[origin] - 1, f"pawn {names[origin]}")
            else:
                key = (c.coin_suit(coins[origin]), f"stone {names[origin]}")
            keys[origin] = key
        targets[key].append(names[destination])
    uses = {}
    for suit in state.phase_two_dice:
        pieces = [f"{who} -> {' '.join(to)}" for (s, who), to in targets.items() if s == suit]
        uses[suit] = "; ".join(pieces) if pieces else "nothing of theirs can move"
    return uses


# -- the front ends' drawing ----------------------------------------------------------------------

MARGIN: Final = GRID_MARGIN
SUIT_STYLES: Final = ("suns", "moons", "crowns", "arms")
SUIT_SYMBOLS: Final = ("☀", "☾", "♛", "⚜")


def drawing(state: SteppinStonesState) -> Drawing:
    """The whole position: the spaces, home tiles and hole, every coin and pawn, the dice."""
    layout = state.layout
    size = layout.size
    coins, pawns = _contents(state)
    regions = []
    pieces = []
    for square in range(layout.num_squares):
        rank, file = divmod(square, size)
        name = layout.name(square)
        home = layout.home_of[square]
        if square in layout.hole_set:
            style, where = "hole", "the hole"
        elif home is not None:
            style, where = f"home-{SUIT_STYLES[home]}", f"{SUIT_NAMES[home]}' home tile"
        else:
            style, where = "space", ""
        parts = [name, *([where] if where else [])]
        if coins[square]:
            coin = _coin(state, name, coins[square])
            pieces.append(coin)
            parts.append(coin.label)
        if pawns[square]:
            suit = pawns[square] - 1
            pawn = Piece(name, None, "pawn", "", f"{SUIT_NAME[suit]} pawn", SUIT_STYLES[suit])
            pieces.append(pawn)
            parts.append(pawn.label)
        regions.append(
            Region(
                id=name,
                x=MARGIN + file,
                y=float(size - 1 - rank),
                width=1.0,
                height=1.0,
                label=", ".join(parts),
                style=style,
            )
        )
    return Drawing(
        width=MARGIN + size,
        height=size + MARGIN,
        regions=tuple(regions),
        pieces=tuple(pieces),
        marks=_marks(size),
        dice=_dice(state),
        status=status_line(state),
        notes=(*suit_lines(state), _turns_note(state)),
    )


def _coin(state: SteppinStonesState, region: str, code: int) -> Piece:
    """A coin showing its value, a stepping stone (its suit side up) or an ace."""
    suit = c.coin_suit(code)
    style = SUIT_STYLES[suit]
    if c.is_value_coin(code):
        value = c.coin_value(code)
        kind = "null" if value == 0 else str(value)
        return Piece(region, None, "coin", str(value), f"{SUIT_NAME[suit]} {kind} coin", style)
    if c.is_stone(code):
        label = f"{SUIT_NAME[suit]} stepping stone"
        return Piece(region, None, "coin", SUIT_SYMBOLS[suit], label, style)
    role = "a stone for any pawn" if state.game.options["aces_as_stones"] else "an obstacle"
    return Piece(region, None, "coin", "A", f"{SUIT_NAME[suit]} ace, {role}", style)


def _marks(size: int) -> tuple[Mark, ...]:
    """The file letters, the rank numbers and the edges between the 2x2 tiles."""
    edges = [
        mark
        for at in range(0, size + 1, 2)
        for mark in (
            Mark("line", MARGIN + at, 0.0, x2=MARGIN + at, y2=float(size), style="tile"),
            Mark("line", MARGIN, float(at), x2=MARGIN + size, y2=float(at), style="tile"),
        )
    ]
    return (*edges, *grid_coordinates(size, size))


def _dice(state: SteppinStonesState) -> tuple[Die, ...]:
    """The dice of the suits still in play, each with what it can still do this turn."""
    if state.is_over:
        return ()
    stage = state.stage
    if stage == c.ROLL1:
        dice = [_unrolled(suit, "to be rolled (phase 1)") for suit in state.rolling_suits]
    elif stage == c.PLAY1:
        dice = [
            _phase_one_die(state, suit, can) for suit, can in phase_one_dice_uses(state).items()
        ]
    elif stage == c.ROLL2:
        return tuple(_unrolled(suit, "to be rolled (phase 2)") for suit in state.phase_two_dice)
    else:
        return tuple(
            _phase_two_die(state, suit, can) for suit, can in phase_two_dice_uses(state).items()
        )
    later = [_unrolled(suit, "phase 2, rolled after phase 1") for suit in state.phase_two_dice]
    return (*dice, *later)


def _unrolled(suit: int, what: str) -> Die:
    return Die(0, 6, f"{SUIT_NAME[suit]} die: {what}")


def _phase_one_die(state: SteppinStonesState, suit: int, can: str) -> Die:
    """A phase-1 die as rolled: a value, the null (``"0"``) or the suit face (its symbol)."""
    face, used = state.phase_one_die(suit) or (c.NO_FACE, False)
    text = {c.FACE_NULL: "0", c.FACE_SUIT: SUIT_SYMBOLS[suit]}.get(face, "")
    value = face if face >= 2 else 0
    return Die(value, 6, f"{SUIT_NAME[suit]} die {face_text(face)}: {can}", used, text)


def _phase_two_die(state: SteppinStonesState, suit: int, can: str) -> Die:
    """A phase-2 die, showing the steps it has left."""
    left = state.budget(suit)
    label = f"{SUIT_NAME[suit]} die: {left} step{'s' if left != 1 else ''} left: {can}"
    return Die(left, 6, label, left == 0)


def status_line(state: SteppinStonesState) -> str:
    """One line: the result, or the turn and what it asks for now."""
    outcome = state.outcome
    if outcome is not None:
        return f"{'Won' if outcome.winner == 0 else 'Lost'}: {outcome.reason}."
    turn = f"Turn {state.turn}"
    stage = state.stage
    if stage == c.ROLL1:
        return f"{turn}: roll the phase-1 dice ({_names(state.rolling_suits)})."
    if stage == c.PLAY1:
        return f"{turn}: use the phase-1 dice, then end phase 1."
    if stage == c.ROLL2:
        return f"{turn}: roll the phase-2 dice ({_names(state.phase_two_dice)})."
    return f"{turn}: spend the phase-2 dice on their stones and pawns, then end the turn."


def _turns_note(state: SteppinStonesState) -> str:
    limit = state.game.options["max_turns"]
    return f"Turns completed: {state.turn - 1} of {limit} (the game is lost after)."


def click_paths(state: SteppinStonesState) -> dict[str, tuple[str, ...]]:
    """Legal move text -> the spaces clicked: the piece and where it ends, or the coin to turn.

    ``end`` has the empty path; at a roll (a chance node) there are no paths.
    """
    if state.to_move is None or state.to_move == CHANCE:
        return {}
    names = state.layout.names
    paths: dict[str, tuple[str, ...]] = {}
    for move in state.legal_moves():
        if move.index < c.FLIP_BASE:
            origin, destination = divmod(move.index, c.STRIDE)
            paths[move.text] = (names[origin], names[destination])
        elif move.index < c.END:
            paths[move.text] = (names[move.index - c.FLIP_BASE],)
        else:
            paths[move.text] = ()
    return paths


_FACE_WORDS = {"*": "suit face", "0": "null"}


def chance_text(state: SteppinStonesState, move: Move, *, short: bool = False) -> str:
    """A roll in words, ``"rolled Suns 4, Moons null"`` (short: its notation, ``"S4 M0"``)."""
    if short:
        return move.text
    faces = (
        f"{SUIT_NAMES[SUITS.index(die[0])]} {_FACE_WORDS.get(die[1:], die[1:])}"
        for die in move.text.split()
    )
    return "rolled " + ", ".join(faces)
