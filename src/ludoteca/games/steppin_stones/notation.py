"""Steppin' Stones notation: dice rolls, moves, and the tokens that name pieces.

Moves (suits ``S`` Suns, ``M`` Moons, ``C`` Crowns, ``A`` Arms; squares ``a1`` ... ``h8``, or
``j10`` on the large board):

- a roll lists the dice rolled, in suit order: ``S* M0 C4 A2`` (``*`` the suit face, ``0`` the
  null, ``2``-``5`` the values);
- ``S2:b6-c5`` moves the Sun 2 (a coin showing its value, phase 1);
- ``S:c5-c3`` moves a Sun stepping stone (phase 2);
- ``SP:e4-e6`` moves the Sun pawn (phase 2);
- ``flip:S2`` turns the Sun 2 to its suit side, making it a stepping stone;
- ``end`` finishes this part of the turn; ``resign`` gives the game up.

Typed moves may use any case and spacing: ``s2 : B6-C5`` reads as ``S2:b6-c5`` and ``s*m0``
as ``S* M0``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from ludoteca.core.array_state import Cells
from ludoteca.core.grids import SQUARE_PATTERN, square_names
from ludoteca.games.steppin_stones import cells as c
from ludoteca.games.steppin_stones.layout import SUITS

FACE_CHARACTERS = "0*2345"  # by face: null, suit face, 2..5

MOVE_FORMS = (
    "S* M0 C4 A2 (a roll, in suit order: * suit face, 0 null, 2-5), S2:b6-c5 (a coin), "
    "S:c5-c3 (a stepping stone), SP:e4-e6 (a pawn), flip:S2, end, resign"
)
MOVE_SYNTAX = re.compile(
    r"[SMCA][*02-5](?: [SMCA][*02-5]){0,3}"
    rf"|[SMCA](?:[02-5]|P)?:{SQUARE_PATTERN}-{SQUARE_PATTERN}"
    r"|flip:[SMCA][02-5]|end|resign"
)
_COMPACT_ROLL = re.compile(r"(?:[smca][*0-9])+")


def normalise(text: str) -> str:
    """The canonical spelling of typed move text (case and spacing relaxed)."""
    words = text.split()
    compact = "".join(words).lower()
    if compact in ("end", "resign"):
        return compact
    if ":" in compact:
        head, _, tail = compact.partition(":")
        if head == "flip":
            return f"flip:{tail.upper()}"
        return f"{head.upper()}:{tail}"
    if _COMPACT_ROLL.fullmatch(compact):
        return " ".join(compact[i : i + 2].upper() for i in range(0, len(compact), 2))
    return " ".join(words)


def face_text(face: int) -> str:
    """A die face as written: ``*`` for the suit face, ``0`` for the null, else the value."""
    return FACE_CHARACTERS[face]


def face_of(character: str) -> int:
    """The face written ``character`` (``*``, ``0``, ``2``-``5``)."""
    return FACE_CHARACTERS.index(character)


def roll_example(suits: tuple[int, ...]) -> str:
    """A sample roll of the dice of ``suits``, to show how a roll is typed: ``S* M0 C4 A2``."""
    return " ".join(f"{SUITS[suit]}{'*0425'[i % 5]}" for i, suit in enumerate(suits))


def roll_text(outcome: int, mask: int) -> str:
    """The text of a chance outcome for the suits in ``mask`` (bit per suit), e.g. ``S* M0``."""
    return " ".join(
        f"{SUITS[suit]}{face_text(c.outcome_face(outcome, suit))}"
        for suit in range(c.NUM_SUITS)
        if mask & (1 << suit)
    )


def coin_token(code: int) -> str:
    """How a coin is named in moves: ``S2`` (showing its value) or ``S`` (a stone)."""
    suit = SUITS[c.coin_suit(code)]
    if c.is_value_coin(code):
        return f"{suit}{c.coin_value(code)}"
    if c.is_ace(code):
        return f"{suit}*"
    return suit


@cache
def cell_token(code: int, pawn: int) -> str:
    """How a square is written in position text (see `position`): ``S2``, ``s``, ``SP+s``, ..."""
    under = ""
    if code:
        suit = SUITS[c.coin_suit(code)]
        if c.is_stone(code):
            under = suit.lower()
        elif c.is_ace(code):
            under = f"{suit}*"
        else:
            under = f"{suit}{c.coin_value(code)}"
    if pawn:
        return f"{SUITS[pawn - 1]}P" + (f"+{under}" if under else "")
    return under or "."


def action_text(cells: Cells, action: int, size: int) -> str:
    """The text of the decision ``action`` in the position ``cells``."""
    if action >= c.FLIP_BASE:
        code = c.coin_cell(cells, action - c.FLIP_BASE) if action < c.END else 0
        return decision_text(0, code, action, size)
    origin = action // c.STRIDE
    return decision_text(c.pawn_cell(cells, origin), c.coin_cell(cells, origin), action, size)


@lru_cache(maxsize=1 << 16)
def decision_text(pawn: int, code: int, action: int, size: int) -> str:
    """The text of ``action``, given the piece it concerns (cached: positions share texts).

    That piece is ``pawn`` (suit + 1, or 0) on the coin ``code``, at a move's origin or on the
    square a flip turns.
    """
    if action == c.END:
        return "end"
    if action == c.RESIGN:
        return "resign"
    if action >= c.FLIP_BASE:
        return f"flip:{coin_token(code)}"
    origin, destination = divmod(action, c.STRIDE)
    piece = f"{SUITS[pawn - 1]}P" if pawn else coin_token(code)
    names = square_names(size, size)
    return f"{piece}:{names[origin]}-{names[destination]}"
