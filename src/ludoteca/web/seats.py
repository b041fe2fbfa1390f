"""Who may change a game: seats, their tokens, and the rules a new game is made with."""

from __future__ import annotations

from typing import Any

from ludoteca.ai import LEVELS
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make
from ludoteca.web.errors import BadRequestError, ConflictError, ForbiddenError, http_error
from ludoteca.web.live import COMPUTER, HUMAN, INVITE, LiveGame, new_token
from ludoteca.web.storage import SeatRow

SEAT_FORMS = "human, invite, random, level:1, level:2, level:3, level:4 or level:5"
COMPUTER_SEATS = ("random", *(f"level:{level}" for level in LEVELS))


def seat_of(live: LiveGame, token: str | None) -> int:
    """The seat the token belongs to.

    Raises:
        ForbiddenError: It belongs to none.
    """
    seat = live.seat_of_token(token)
    if seat is None:
        raise ForbiddenError("this token does not belong to a seat of this game")
    return seat


def is_person(live: LiveGame, seat: int | None) -> bool:
    """Whether ``seat`` is played by a person (not the computer, not chance)."""
    return seat is not None and seat != CHANCE and not live.is_computer(seat)


def check_running(live: LiveGame) -> None:
    """Refuse a change of a finished game (409)."""
    result = live.result
    if result is not None:
        raise ConflictError(f"the game is over ({result.reason}); no move is possible")


def seat_row(index: int, spec: object) -> SeatRow:
    """The seat a new game's ``seats[index]`` asks for (`SEAT_FORMS`)."""
    kind = spec.strip().lower() if isinstance(spec, str) else ""
    if kind in (HUMAN, INVITE):
        return SeatRow(seat=index, kind=kind, agent=None, token=new_token())
    if kind in COMPUTER_SEATS:
        return SeatRow(seat=index, kind=COMPUTER, agent=kind, token=None)
    shown = str(spec)[:40]
    raise BadRequestError(f"seat {index}: {shown!r} is not a seat; accepted: {SEAT_FORMS}")


def rules(game_id: str, options: dict[str, Any], position: str | None) -> tuple[Game, State]:
    """The game with these options and its start (``position``, or the usual one).

    Raises:
        BadRequestError: An unknown game or option, or a bad position.
    """
    try:
        game = make(game_id, **options)
        start = game.parse_state(position) if position is not None else game.initial_state()
    except LudotecaError as error:
        raise http_error(error) from None
    return game, start
