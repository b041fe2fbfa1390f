"""Why a well-formed Steppin' Stones move is refused, said in the terms of the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludoteca.core.grids import parse_square
from ludoteca.core.outcome import CHANCE
from ludoteca.games.steppin_stones import cells as c
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones.layout import SUIT_NAME, SUIT_NAMES, SUITS
from ludoteca.games.steppin_stones.notation import face_text, roll_example

if TYPE_CHECKING:
    from ludoteca.games.steppin_stones.state import SteppinStonesState

PASSING = (
    "passing only over empty spaces and coins worth less than itself (a stone counts 1), never "
    "over a pawn or an ace, and never visiting a square twice"
)


def why_illegal(state: SteppinStonesState, text: str) -> str:
    """Why the well-formed move ``text`` is not legal in ``state``.

    The rule is found by the kernels (`kernels.illegal_reason`, with the checks that build the
    legal moves); this module only words it.
    """
    if text[1:2] in ("*", "0", "2", "3", "4", "5") and ":" not in text:
        return _why_roll(state, text)
    origin = destination = -1
    if text == "end":
        piece = k.END_PIECE
    elif text.startswith("flip:"):
        piece = k.FLIP_PIECE + c.value_coin(SUITS.index(text[5]), int(text[6]))
    else:
        name, _, squares = text.partition(":")
        origin_name, _, destination_name = squares.partition("-")
        size = state.layout.size
        first = parse_square(origin_name, size, size)
        last = parse_square(destination_name, size, size)
        if first is None or last is None:
            return f"{text}: squares run from a1 to {state.layout.name(size * size - 1)}"
        origin, destination = first, last
        piece = _piece_code(name)
    params, geometry = state.game.params, state.game.geometry
    code = int(k.illegal_reason(state.cells, params, geometry, piece, origin, destination))
    if code == k.LEGAL_MOVE:  # cannot happen for a move the legal list lacks
        return f"{text} is not possible here"
    return _words(state, text, code, piece, origin, destination)


def _piece_code(name: str) -> int:
    """The `illegal_reason` code of the piece a move names: ``SP``, ``S2``, ``S``."""
    suit = SUITS.index(name[0])
    if name.endswith("P"):
        return int(k.PAWN_PIECE) + suit
    if len(name) == 2:
        return c.value_coin(suit, int(name[1]))
    return c.STONE_BASE + suit


def describe(state: SteppinStonesState, square: int) -> str:
    """What stands on ``square``, for messages: ``"the Sun 2"``, ``"a Moon stone"``, ..."""
    pawn = state.pawn(square)
    if pawn is not None:
        return f"the {SUIT_NAME[pawn]} pawn"
    code = state.coin(square)
    if code == 0:
        return "nothing"
    suit = SUIT_NAME[c.coin_suit(code)]
    if c.is_value_coin(code):
        value = c.coin_value(code)
        return f"the {suit} {'null' if value == 0 else value}"
    return f"a {suit} stone" if c.is_stone(code) else f"the {suit} ace"


def _roll_prompt(state: SteppinStonesState) -> str:
    part = "phase-1" if state.stage == c.ROLL1 else "phase-2"
    names = ", ".join(SUIT_NAMES[suit] for suit in state.rolling_suits)
    return (
        f"roll the {part} dice of the {names} and name each die once, in suit order S M C A, "
        f"e.g. {roll_example(state.rolling_suits)}"
    )


def _why_roll(state: SteppinStonesState, text: str) -> str:
    if state.to_move != CHANCE:
        return f"{text}: the dice for this part of the turn have been rolled; use them, then end"
    return f"{text}: {_roll_prompt(state)}"


def _dice_summary(state: SteppinStonesState) -> str:
    dice = []
    for suit in range(c.NUM_SUITS):
        die = state.phase_one_die(suit)
        if die is not None:
            dice.append(f"{SUITS[suit]}{face_text(die[0])}{' (used)' if die[1] else ''}")
    return ", ".join(dice) or "none"


def _flips(state: SteppinStonesState) -> str:
    return ", ".join(sorted(m.text for m in state.legal_moves() if m.text.startswith("flip:")))


def _find_coin(state: SteppinStonesState, code: int) -> int | None:
    for square in range(state.layout.num_squares):
        if state.coin(square) == code:
            return square
    return None


def _words(
    state: SteppinStonesState, text: str, code: int, piece: int, origin: int, destination: int
) -> str:
    """The reason ``code`` of `kernels.illegal_reason` in words, prefixed by the move."""
    if code == k.WHY_DICE_FIRST:
        return f"{text}: the dice come first; {_roll_prompt(state)}"
    if code == k.WHY_SUIT_FACE_FIRST:
        return _why_end(state)
    if piece >= k.FLIP_PIECE:
        return f"{text}: {_flip_words(state, code, piece - k.FLIP_PIECE)}"
    name = state.layout.name
    if code == k.WHY_IN_HOLE:
        return f"{text}: {name(destination)} is in the hole of the large board; nothing goes there"
    if c.is_value_coin(piece):
        return f"{text}: {_coin_words(state, code, piece, origin, destination)}"
    pawn = piece >= k.PAWN_PIECE
    suit = piece - k.PAWN_PIECE if pawn else c.coin_suit(piece)
    return f"{text}: {_piece_words(state, code, suit, pawn, (origin, destination))}"


def _why_end(state: SteppinStonesState) -> str:
    for suit in range(c.NUM_SUITS):
        if state.phase_one_die(suit) == (c.FACE_SUIT, False):
            return (
                f"end: the {SUITS[suit]}* must be honoured first by turning a {SUIT_NAME[suit]} "
                f"coin into a stepping stone ({_flips(state)})"
            )
    return "end is not possible here"


def _flip_words(state: SteppinStonesState, code: int, coin: int) -> str:
    suit, value = c.coin_suit(coin), c.coin_value(coin)
    name, letter = SUIT_NAME[suit], SUITS[suit]
    if code == k.WHY_FLIP_NOT_NOW:
        return "coins are turned only in phase 1, by a die showing the suit face"
    if code == k.WHY_ALREADY_STONE:
        return f"the {name} {value or 'null'} is already a stepping stone"
    if code == k.WHY_NO_SUIT_FACE:
        die = state.phase_one_die(suit)
        shown = "did not roll in phase 1" if die is None else f"shows {face_text(die[0])}"
        return (
            f"only the {name} die showing the suit face ({letter}*) turns a {name} coin, and "
            f"this turn it {shown}"
        )
    if code == k.WHY_FACE_HONOURED:
        return f"the {letter}* has been honoured already this turn"
    highest = int(k.highest_value(state.cells, state.game.params, suit))
    return (
        f"with stones=highest the {letter}* must turn the highest {name} coin showing a value, "
        f"{letter}{highest}"
    )


def _coin_words(
    state: SteppinStonesState, code: int, coin: int, origin: int, destination: int
) -> str:
    value = c.coin_value(coin)
    label = f"{SUITS[c.coin_suit(coin)]}{value}"
    name = state.layout.name
    if code == k.WHY_NULL_NEVER_MOVES:
        return "a null coin never moves (a null die does nothing)"
    if code == k.WHY_COIN_NOT_NOW:
        return "coins showing a value move only with the phase-1 dice, earlier in the turn"
    if code == k.WHY_NO_SUCH_COIN:
        where = _find_coin(state, coin)
        found = "it is a stepping stone now" if where is None else f"it is on {name(where)}"
        return f"there is no {label} on {name(origin)} ({found})"
    if code == k.WHY_NO_DIE_VALUE:
        return f"no unused phase-1 die shows {value} (this turn's dice: {_dice_summary(state)})"
    if code == k.WHY_COIN_LANDS_ON_PIECE:
        held = describe(state, destination)
        return f"a coin ends on an empty space, and {name(destination)} holds {held}"
    return (
        f"{label} moves exactly {value} orthogonal steps, {PASSING}; no such path leads from "
        f"{name(origin)} to {name(destination)}"
    )


def _piece_words(
    state: SteppinStonesState, code: int, suit: int, pawn: bool, squares: tuple[int, int]
) -> str:
    """Why a stone (or the pawn) of ``suit`` may not move (`illegal_reason` code ``code``)."""
    origin, destination = squares
    name, one, many = state.layout.name, SUIT_NAME[suit], SUIT_NAMES[suit]
    simple = {
        k.WHY_NO_SUCH_STONE: f"there is no {one} stepping stone on {name(origin)}",
        k.WHY_SUIT_HOME: f"the {many} are home: their die has left play",
        k.WHY_PAWN_HOME: f"the {one} pawn is home already",
        k.WHY_NOT_PHASE_TWO_NOW: (
            "stones and pawns move in phase 2, with their suit's die, later in the turn"
        ),
        k.WHY_NOT_A_PHASE_TWO_DIE: (
            f"the {one} die is not a phase-2 die this turn (a suit whose last coin turned this "
            "turn rolls in phase 2 from the next turn)"
        ),
        k.WHY_NO_STEPS_LEFT: f"the {one} die has no steps left this turn (the {many} are done)",
    }
    if code in simple:
        return simple[code]
    if code == k.WHY_STONE_CARRIES_PAWN:
        return f"{describe(state, origin)} stands on that stone; a stone carrying a pawn stays put"
    if code == k.WHY_PAWN_ELSEWHERE:
        return f"the {one} pawn is on {name(state.pawn_square(suit))}, not on {name(origin)}"
    if code == k.WHY_SUIT_IN_PHASE_ONE and pawn:
        return f"the {one} pawn moves only once all five {one} coins are stepping stones"
    if code == k.WHY_SUIT_IN_PHASE_ONE:
        return (
            f"the {many} are still in phase 1: their stones move once all five {one} coins are "
            "stones"
        )
    if code == k.WHY_STONE_LANDS_ON_PIECE:
        held = describe(state, destination)
        return f"a stone ends on an empty space, and {name(destination)} holds {held}"
    if code == k.WHY_TOO_FAR:
        game = state.game
        pawn_suit = suit if pawn else -1
        cost = int(
            k.shortest_cost(state.cells, game.params, game.geometry, origin, destination, pawn_suit)
        )
        budget = state.budget(suit)
        return f"that takes {cost} steps, and the {one} die has {budget} left"
    if code == k.WHY_NO_PAWN_PATH:
        aces = " or an ace" if state.game.options["aces_as_stones"] else ""
        return (
            f"every step of a pawn lands on a stone of its suit, a space of its home tile{aces}; "
            f"no such path leads from {name(origin)} to {name(destination)}"
        )
    return (
        "a stone passes only over empty spaces and null coins, never over a pawn, an ace or "
        f"another stone; no such path leads from {name(origin)} to {name(destination)}"
    )
