"""Steppin' Stones position text and move notation: writing them, and reading them back.

The text has these fields, separated by spaces:

1. The board, rank 8 (or 10) first, ranks separated by ``/``, each rank its cells from file a
   on, written one after the other: ``.`` an empty space, ``#`` an empty square of the large
   board's hole, ``S0`` ``S2`` ... ``S5`` a Sun coin showing its value, ``s`` a Sun stepping
   stone, ``S*`` the Sun ace (option ``aces``), ``SP`` the Sun pawn on a bare space, ``SP+s`` the
   Sun pawn on one of its stones, ``SP+M*`` the Sun pawn on the Moon ace (``aces_as_stones``);
   likewise ``M``/``m`` Moons, ``C``/``c`` Crowns, ``A``/``a`` Arms.
2. The number of turns completed.
3. The stage of the turn, and the dice:

   - ``roll1``: the phase-1 dice are to be rolled (every suit in phase 1 rolls);
   - ``play1 S* M0 C4- A2``: the phase-1 dice rolled, in suit order; ``-`` marks a die already
     used (a value moved, or the suit face honoured);
   - ``roll2 S M``: the phase-2 dice of these suits are to be rolled;
   - ``play2 S4 M0``: the steps each phase-2 die still has.

4. ``resigned``, when the player has given up.

The start position (default options), on one line::

    ..S5..M5../..S4..M4../S3S2S0..M0M2M3/...CPAP.../...MPSP.../A3A2A0..C0C2C3/
    ..A4..C4../..A5..C5.. 0 roll1

Move notation (suits ``S`` Suns, ``M`` Moons, ``C`` Crowns, ``A`` Arms; squares ``a1`` ...
``h8``, or ``j10`` on the large board):

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
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ludoteca.core.array_state import Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca.core.grids import SQUARE_PATTERN, square_names
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.layout import SUIT_NAME, SUIT_NAMES, SUITS, Layout

if TYPE_CHECKING:
    from ludoteca.games.steppin_stones import SteppinStonesGame


STAGE_WORDS = ("roll1", "play1", "roll2", "play2")
_CELL = re.compile(r"\.|#|[SMCA]P(?:\+(?:[smca]|[SMCA]\*))?|[SMCA][02-5*]|[smca]")
_PLAY1_DIE = re.compile(r"([SMCA])([*02-5])(-?)")
_PLAY2_DIE = re.compile(r"([SMCA])([0-6])")
FORM = (
    "'<ranks separated by /> <turns completed> <roll1 | play1 dice | roll2 suits | play2 "
    "budgets> [resigned]'"
)


def position_text(cells: Cells, layout: Layout) -> str:
    """The canonical one-line text of the position ``cells`` (see the module docstring)."""
    size = layout.size
    coins = c.coin_cells(cells)[: layout.num_squares].tolist()
    pawns = c.pawn_cells(cells)[: layout.num_squares].tolist()
    ranks = []
    for rank in range(size - 1, -1, -1):
        tokens = []
        for square in range(rank * size, rank * size + size):
            token = cell_token(coins[square], pawns[square])
            tokens.append("#" if token == "." and square in layout.hole_set else token)
        ranks.append("".join(tokens))
    stage = int(cells[c.STAGE_AT])
    fields = ["/".join(ranks), str(int(cells[c.TURNS_AT])), STAGE_WORDS[stage]]
    for suit, letter in enumerate(SUITS):
        face = c.die_face(cells, suit)
        if stage == c.PLAY1 and face != c.NO_FACE:
            fields.append(f"{letter}{face_text(face)}{'-' if c.die_used(cells, suit) else ''}")
        elif stage == c.ROLL2 and c.phase_two_die(cells, suit):
            fields.append(letter)
        elif stage == c.PLAY2 and c.phase_two_die(cells, suit):
            fields.append(f"{letter}{c.budget_left(cells, suit)}")
    if cells[c.RESIGNED_AT]:
        fields.append("resigned")
    return " ".join(fields)


def parse_position(game: SteppinStonesGame, text: str) -> Cells:
    """Read position text and check that it describes a position the rules can reach.

    Raises:
        InvalidStateError: What is wrong with the text, and the expected form.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"Steppin' Stones position text must be a string; got {text!r}")
    fields = text.split()
    if len(fields) < 3:
        raise InvalidStateError(f"position text has {len(fields)} fields; expected {FORM}")
    cells = np.zeros(c.CELLS_SIZE, dtype=np.int32)
    census = _read_board(cells, fields[0], game)
    if not fields[1].isdigit():
        raise InvalidStateError(f"turns completed must be a whole number; got {fields[1]!r}")
    cells[c.TURNS_AT] = int(fields[1])
    if fields[2] not in STAGE_WORDS:
        raise InvalidStateError(
            f"the stage must be one of {', '.join(STAGE_WORDS)}; got {fields[2]!r}"
        )
    dice = fields[3:]
    if dice and dice[-1] == "resigned":
        cells[c.RESIGNED_AT] = 1
        dice = dice[:-1]
    _read_dice(cells, STAGE_WORDS.index(fields[2]), dice, census, game.layout)
    return np.asarray(k.settled(cells, game.params, game.geometry), dtype=np.int32)


@dataclass
class _Census:
    """What the board holds, per suit: the values still shown, the stones, the pawn; the aces."""

    values: list[list[int]] = field(default_factory=lambda: [[] for _ in range(c.NUM_SUITS)])
    stones: list[int] = field(default_factory=lambda: [0] * c.NUM_SUITS)
    pawns: dict[int, int] = field(default_factory=dict)
    aces: dict[int, int] = field(default_factory=dict)

    def in_phase_one(self, suit: int) -> bool:
        return bool(self.values[suit])


def _read_board(cells: Cells, board: str, game: SteppinStonesGame) -> _Census:
    layout = game.layout
    size = layout.size
    ranks = board.split("/")
    if len(ranks) != size:
        raise InvalidStateError(f"the board has {len(ranks)} ranks; expected {size} separated by /")
    census = _Census()
    for row, rank_text in enumerate(ranks):
        tokens = _CELL.findall(rank_text)
        rank = size - 1 - row
        if "".join(tokens) != rank_text or len(tokens) != size:
            raise InvalidStateError(
                f"rank {rank + 1} ({rank_text!r}) must be {size} cells, each '.', '#', a coin "
                "such as S2, a stone such as s, an ace such as S*, or a pawn such as SP or SP+s"
            )
        for file, token in enumerate(tokens):
            _place(cells, rank * size + file, token, layout, census)
    for suit in range(c.NUM_SUITS):
        _check_suit(cells, suit, game, census)
    if census.aces != layout.aces:
        raise InvalidStateError(
            f"with aces={game.options['aces']} the aces stand on fixed squares: "
            f"{_ace_places(layout.aces, layout)}; found {_ace_places(census.aces, layout)}"
        )
    return census


def _ace_places(aces: dict[int, int], layout: Layout) -> str:
    places = [f"{SUITS[suit]}* on {layout.name(sq)}" for suit, sq in sorted(aces.items())]
    return ", ".join(places) or "none"


def _place(cells: Cells, square: int, token: str, layout: Layout, census: _Census) -> None:
    in_hole = square in layout.hole_set
    if token == "#" or in_hole:
        name = layout.name(square)
        if not in_hole:
            raise InvalidStateError(f"{name}: '#' marks the hole of the large board only")
        if token not in ("#", *(f"{letter}P" for letter in SUITS)):
            raise InvalidStateError(f"{name} is in the hole: only a pawn at its start stands there")
        if token == "#":
            return
    head, _, under = token.partition("+")
    if len(head) == 2 and head[1] == "P":
        suit = SUITS.index(head[0])
        if suit in census.pawns:
            raise InvalidStateError(f"the {SUIT_NAME[suit]} pawn stands on two squares")
        census.pawns[suit] = square
        c.place_pawn(cells, suit, square)
        token = under
    if token in ("", "."):
        return
    suit = SUITS.index(token[0].upper())
    if token.islower():
        c.set_coin_cell(cells, square, c.STONE_BASE + suit)
        census.stones[suit] += 1
    elif token[1] == "*":
        if suit in census.aces:
            raise InvalidStateError(f"the {SUIT_NAME[suit]} ace stands on two squares")
        c.set_coin_cell(cells, square, c.ACE_BASE + suit)
        census.aces[suit] = square
    else:
        c.set_coin_cell(cells, square, c.value_coin(suit, int(token[1])))
        census.values[suit].append(int(token[1]))


def _check_suit(cells: Cells, suit: int, game: SteppinStonesGame, census: _Census) -> None:
    layout = game.layout
    names, name = SUIT_NAMES[suit], SUIT_NAME[suit]
    values, stones = census.values[suit], census.stones[suit]
    if len(set(values)) != len(values) or len(values) + stones != 5:
        raise InvalidStateError(
            f"the {names} have five coins (0, 2, 3, 4, 5), each showing its value or turned "
            f"into a stone; found values {sorted(values)} and {stones} stones"
        )
    if suit not in census.pawns:
        raise InvalidStateError(f"the {name} pawn is missing")
    square = census.pawns[suit]
    code = c.coin_cell(cells, square)
    at_start = square == layout.pawn_start[suit]
    at_home = square in layout.home[suit]
    if c.is_stone(code) and c.coin_suit(code) != suit:
        raise InvalidStateError(f"the {name} pawn stands only on {name} stones")
    if c.is_ace(code) and not game.options["aces_as_stones"]:
        raise InvalidStateError("a pawn stands on an ace only with aces_as_stones=true")
    if not code and not at_start and not at_home:
        raise InvalidStateError(
            f"the {name} pawn stands on a stone, its home tile or its start square "
            f"{layout.name(layout.pawn_start[suit])}; not on the bare space {layout.name(square)}"
        )
    if not at_start and values:
        raise InvalidStateError(
            f"the {name} pawn has moved, so every {name} coin must be a stone (phase 2)"
        )


def _read_dice(cells: Cells, stage: int, dice: list[str], census: _Census, layout: Layout) -> None:
    cells[c.STAGE_AT] = stage
    for suit in range(c.NUM_SUITS):
        c.set_die_face(cells, suit, c.NO_FACE)
    phase_one = [suit for suit in range(c.NUM_SUITS) if census.in_phase_one(suit)]
    in_play = [s for s in range(c.NUM_SUITS) if census.pawns[s] not in layout.home[s]]
    listed = _listed_suits(dice, stage)
    for suit in listed:
        if suit not in in_play:
            raise InvalidStateError(f"the {SUIT_NAMES[suit]} are home: their die has left play")
    if stage == c.ROLL1:
        if not phase_one:
            raise InvalidStateError("no suit is in phase 1, so a turn begins with roll2")
        for suit in in_play:
            c.set_phase_two_die(cells, suit, suit not in phase_one)
    elif stage == c.PLAY1:
        if missing := [SUITS[suit] for suit in phase_one if suit not in listed]:
            raise InvalidStateError(
                f"every suit in phase 1 rolls its die; missing: {' '.join(missing)}"
            )
        _read_play1(cells, dice, census)
        for suit in in_play:
            c.set_phase_two_die(cells, suit, suit not in listed)
    else:
        for suit in listed:
            if census.in_phase_one(suit):
                raise InvalidStateError(f"the {SUIT_NAMES[suit]} are still in phase 1")
            c.set_phase_two_die(cells, suit, True)
        if stage == c.ROLL2 and not listed:
            raise InvalidStateError("roll2 names the suits whose phase-2 dice are rolled")
        if stage == c.PLAY2:
            for token in dice:
                c.set_budget_left(cells, SUITS.index(token[0]), int(token[1]))


_DICE_TOKENS = {
    c.PLAY1: (_PLAY1_DIE, "dice such as S* M0 C4- A2"),
    c.ROLL2: (re.compile("[SMCA]"), "suit letters such as S M"),
    c.PLAY2: (_PLAY2_DIE, "budgets such as S4 M0"),
}


def _listed_suits(dice: list[str], stage: int) -> list[int]:
    word = STAGE_WORDS[stage]
    if stage == c.ROLL1:
        if dice:
            raise InvalidStateError(f"roll1 is followed by nothing (or resigned); got {dice}")
        return []
    pattern, example = _DICE_TOKENS[stage]
    suits = []
    for token in dice:
        if not pattern.fullmatch(token):
            raise InvalidStateError(f"{word} is followed by {example}; got {token!r}")
        suits.append(SUITS.index(token[0]))
    if suits != sorted(set(suits)):
        raise InvalidStateError(f"dice are listed once each, in suit order S M C A; got {dice}")
    return suits


def _read_play1(cells: Cells, dice: list[str], census: _Census) -> None:
    used_by_value: dict[int, int] = {}
    for token in dice:
        match = _PLAY1_DIE.fullmatch(token)
        assert match is not None
        suit, face, used = SUITS.index(match.group(1)), face_of(match.group(2)), match.group(3)
        c.set_die_face(cells, suit, face)
        if used and face == c.FACE_NULL:
            raise InvalidStateError(f"{token}: a null die does nothing, so it is never marked used")
        if not census.in_phase_one(suit) and (face != c.FACE_SUIT or not used):
            raise InvalidStateError(
                f"{token}: the {SUIT_NAMES[suit]} show no value any more, so their die rolled in "
                f"phase 1 only if its suit face turned their last coin ({SUITS[suit]}*-)"
            )
        if face == c.FACE_SUIT:
            c.set_die_used(cells, suit, bool(used))
        elif used:
            used_by_value[face] = used_by_value.get(face, 0) + 1
    # Dice showing the same value are interchangeable: the first ones in suit order are used.
    for suit in range(c.NUM_SUITS):
        face = c.die_face(cells, suit)
        if face >= 2 and used_by_value.get(face, 0) > 0:
            c.set_die_used(cells, suit, True)
            used_by_value[face] -= 1


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
