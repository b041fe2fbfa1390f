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
    """Why the well-formed move ``text`` is not legal in ``state``."""
    if text[1:2] in ("*", "0", "2", "3", "4", "5") and ":" not in text:
        return _why_roll(state, text)
    if state.to_move == CHANCE:
        return f"{text}: the dice come first; {_roll_prompt(state)}"
    if text == "end":
        return _why_end(state)
    if text.startswith("flip:"):
        return _why_flip(state, text)
    piece, _, squares = text.partition(":")
    origin_name, _, destination_name = squares.partition("-")
    size = state.layout.size
    origin = parse_square(origin_name, size, size)
    destination = parse_square(destination_name, size, size)
    if origin is None or destination is None:
        return f"{text}: squares run from a1 to {state.layout.name(size * size - 1)}"
    if destination in state.layout.hole:
        return f"{text}: {destination_name} is in the hole of the large board; nothing goes there"
    if piece.endswith("P"):
        return f"{text}: {_why_pawn(state, SUITS.index(piece[0]), origin, destination)}"
    if len(piece) == 2:
        return f"{text}: {_why_coin(state, piece, origin, destination)}"
    return f"{text}: {_why_stone(state, SUITS.index(piece), origin, destination)}"


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


def _why_end(state: SteppinStonesState) -> str:
    for suit in range(c.NUM_SUITS):
        if state.phase_one_die(suit) == (c.FACE_SUIT, False):
            return (
                f"end: the {SUITS[suit]}* must be honoured first by turning a {SUIT_NAME[suit]} "
                f"coin into a stepping stone ({_flips(state)})"
            )
    return "end is not possible here"


def _find_coin(state: SteppinStonesState, code: int) -> int | None:
    for square in range(state.layout.num_squares):
        if state.coin(square) == code:
            return square
    return None


def _why_flip(state: SteppinStonesState, text: str) -> str:
    suit, value = SUITS.index(text[5]), int(text[6])
    name = SUIT_NAME[suit]
    if state.stage != c.PLAY1:
        return f"{text}: coins are turned only in phase 1, by a die showing the suit face"
    if _find_coin(state, c.value_coin(suit, value)) is None:
        return f"{text}: the {name} {value or 'null'} is already a stepping stone"
    die = state.phase_one_die(suit)
    if die is None or die[0] != c.FACE_SUIT:
        shown = "did not roll in phase 1" if die is None else f"shows {face_text(die[0])}"
        return (
            f"{text}: only the {name} die showing the suit face ({SUITS[suit]}*) turns a {name} "
            f"coin, and this turn it {shown}"
        )
    if die[1]:
        return f"{text}: the {SUITS[suit]}* has been honoured already this turn"
    highest = int(k.highest_value(state.cells, state.game.params, suit))
    return (
        f"{text}: with stones=highest the {SUITS[suit]}* must turn the highest {name} coin "
        f"showing a value, {SUITS[suit]}{highest}"
    )


def _why_coin(state: SteppinStonesState, piece: str, origin: int, destination: int) -> str:
    suit, value = SUITS.index(piece[0]), int(piece[1])
    code = c.value_coin(suit, value)
    name = state.layout.name
    if value == 0:
        return "a null coin never moves (a null die does nothing)"
    if state.stage != c.PLAY1:
        return "coins showing a value move only with the phase-1 dice, earlier in the turn"
    if state.coin(origin) != code:
        where = _find_coin(state, code)
        found = "it is a stepping stone now" if where is None else f"it is on {name(where)}"
        return f"there is no {piece} on {name(origin)} ({found})"
    if not any(state.phase_one_die(s) == (value, False) for s in range(c.NUM_SUITS)):
        return f"no unused phase-1 die shows {value} (this turn's dice: {_dice_summary(state)})"
    if state.pawn(destination) is not None or state.coin(destination):
        held = describe(state, destination)
        return f"a coin ends on an empty space, and {name(destination)} holds {held}"
    return (
        f"{piece} moves exactly {value} orthogonal steps, {PASSING}; no such path leads from "
        f"{name(origin)} to {name(destination)}"
    )


def _phase_two_die_problem(state: SteppinStonesState, suit: int) -> str | None:
    """Why ``suit`` cannot spend steps now, or ``None`` if it can."""
    names = SUIT_NAMES[suit]
    if state.stage != c.PLAY2:
        return "stones and pawns move in phase 2, with their suit's die, later in the turn"
    if suit not in state.phase_two_dice:
        return (
            f"the {SUIT_NAME[suit]} die is not a phase-2 die this turn (a suit whose last coin "
            "turned this turn rolls in phase 2 from the next turn)"
        )
    if state.budget(suit) == 0:
        return f"the {SUIT_NAME[suit]} die has no steps left this turn (the {names} are done)"
    return None


def _cost_problem(
    state: SteppinStonesState, suit: int, origin: int, destination: int, pawn: bool
) -> str:
    cells, game = state.cells, state.game
    pawn_suit = suit if pawn else -1
    cost = int(k.shortest_cost(cells, game.geometry, game.params, origin, destination, pawn_suit))
    budget = state.budget(suit)
    if cost > budget:
        return f"that takes {cost} steps, and the {SUIT_NAME[suit]} die has {budget} left"
    name = state.layout.name
    if pawn:
        aces = " or an ace" if game.options["aces_as_stones"] else ""
        return (
            f"every step of a pawn lands on a stone of its suit, a space of its home tile{aces}; "
            f"no such path leads from {name(origin)} to {name(destination)}"
        )
    return (
        "a stone passes only over empty spaces and null coins, never over a pawn, an ace or "
        f"another stone; no such path leads from {name(origin)} to {name(destination)}"
    )


def _why_stone(state: SteppinStonesState, suit: int, origin: int, destination: int) -> str:
    name = state.layout.name
    if state.coin(origin) != c.STONE_BASE + suit:
        return f"there is no {SUIT_NAME[suit]} stepping stone on {name(origin)}"
    if state.pawn(origin) is not None:
        return f"{describe(state, origin)} stands on that stone; a stone carrying a pawn stays put"
    if state.phase(suit) == c.PHASE_ONE:
        return (
            f"the {SUIT_NAMES[suit]} are still in phase 1: their stones move once all five "
            f"{SUIT_NAME[suit]} coins are stones"
        )
    if state.phase(suit) == c.RETIRED:
        return f"the {SUIT_NAMES[suit]} are home: their die has left play"
    problem = _phase_two_die_problem(state, suit)
    if problem is not None:
        return problem
    if not _is_empty(state, destination):
        held = describe(state, destination)
        return f"a stone ends on an empty space, and {name(destination)} holds {held}"
    return _cost_problem(state, suit, origin, destination, pawn=False)


def _why_pawn(state: SteppinStonesState, suit: int, origin: int, destination: int) -> str:
    name = state.layout.name
    where = state.pawn_square(suit)
    if state.phase(suit) == c.RETIRED:
        return f"the {SUIT_NAME[suit]} pawn is home already"
    if where != origin:
        return f"the {SUIT_NAME[suit]} pawn is on {name(where)}, not on {name(origin)}"
    if state.phase(suit) == c.PHASE_ONE:
        return (
            f"the {SUIT_NAME[suit]} pawn moves only once all five {SUIT_NAME[suit]} coins are "
            "stepping stones"
        )
    problem = _phase_two_die_problem(state, suit)
    if problem is not None:
        return problem
    return _cost_problem(state, suit, origin, destination, pawn=True)


def _is_empty(state: SteppinStonesState, square: int) -> bool:
    layout = state.layout
    return state.coin(square) == 0 and state.pawn(square) is None and square not in layout.hole_set
