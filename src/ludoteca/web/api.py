"""The HTTP API: JSON endpoints for games, moves, undo, resignation, hints and saved games.

Every error answers ``{"error": "..."}`` with its status: 400 a malformed request or move text,
403 a bad seat token, 404 an unknown game, 409 a move that is not possible now (illegal, not
your turn, the game is over), 413 a body over 64 KiB, 429 too many requests and 503 busy (both
with ``Retry-After``). A change (move, undo, resign) answers the game (with ``?board=true`` also its
``board``, as the WebSocket pushes it), so a page needs one round trip per move. FastAPI documents
the endpoints at ``/docs``.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class
from ludoteca.web.account_store import AccountStore
from ludoteca.web.errors import RateLimitedError, http_error
from ludoteca.web.guards import (
    RateLimiter,
    link,
    session_of,
)
from ludoteca.web.live import LiveGame
from ludoteca.web.lobby import PER_PAGE
from ludoteca.web.messages import to_json, with_now
from ludoteca.web.service import GameService
from ludoteca.web.sessions import MAX_NAME

# A float too: a huge or fractional number then reaches the option's own check, which names
# the accepted values.
OptionInput = Annotated[str, Field(max_length=100)] | int | float | bool | None
# Strict numbers: true is not one second. A text reaches the clock's own check, which says why.
ClockInput = (
    dict[
        Annotated[str, Field(max_length=20)],
        StrictInt | StrictFloat | Annotated[str, Field(max_length=20)],
    ]
    | None
)
CLOCK_FIELD = Field(
    default=None,
    description='The clock: {"initial": 600, "increment": 5} (real time, seconds) or '
    '{"per_move": 86400} (correspondence); null for none. Computer seats have no clock.',
    examples=[{"initial": 600, "increment": 5}],
)
NameInput = Annotated[str, Field(max_length=MAX_NAME)]
#: What a game or challenge id looks like (`ludoteca.web.live.new_game_id`; the fast path's too).
ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
GameId = Annotated[
    str, PathParam(pattern=ID_PATTERN, description="The game's id.", examples=["Xk3_q9Za"])
]
ChallengeId = Annotated[str, PathParam(pattern=ID_PATTERN, description="The challenge's id.")]
MAX_MOVE_TEXT = 200
MAX_TOKEN_TEXT = 200


class NewGameRequest(BaseModel):
    """A game to create."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="The game id, e.g. salta.", examples=["salta"], max_length=40)
    options: dict[str, OptionInput] = Field(
        default_factory=dict,
        description="Options by name; unnamed ones take their defaults.",
        max_length=20,
    )
    seats: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None,
        max_length=8,
        description="Who plays each seat, in player order: human (you, in this browser), "
        "invite (another person, by a link), random or level:1 … level:5 (the computer). "
        "Default: human for every seat.",
        examples=[["human", "level:3"]],
    )
    position: str | None = Field(
        default=None,
        description="A start position text (`State.to_text`); default the usual.",
        max_length=4000,
    )
    hints: bool | None = Field(
        default=None,
        description="Whether the players may ask for hints. Default: only in games against "
        "the computer (in a game between people a hint would be cheating).",
    )
    clock: ClockInput = CLOCK_FIELD
    names: list[NameInput | None] | None = Field(
        default=None,
        max_length=8,
        description="Display names of the seats played by people (at most 24 characters "
        "each); a browser's own seats default to the name it chose.",
    )


class MoveRequest(BaseModel):
    """A move by the person holding a seat's token."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(
        description="The move in notation.", examples=["c3-d4"], max_length=MAX_MOVE_TEXT
    )
    token: str = Field(
        description="The secret token of the seat to move.", max_length=MAX_TOKEN_TEXT
    )
    ply: int | None = Field(
        default=None,
        ge=0,
        le=10**9,
        description="The number of moves the player has seen; if the game has moved on "
        "meanwhile, the move is refused with 409.",
    )


class TokenRequest(BaseModel):
    """A request made for a seat (undo, resign)."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(description="The secret token of your seat.", max_length=MAX_TOKEN_TEXT)


class DrawRequest(TokenRequest):
    """A draw offer, or the answer to one."""

    action: Literal["offer", "accept", "decline"] = Field(
        default="offer", description="offer, accept or decline."
    )


class NameRequest(BaseModel):
    """A display name."""

    model_config = ConfigDict(extra="forbid")

    name: NameInput = Field(description="At most 24 characters.", examples=["Ada"])


class ChallengeRequest(BaseModel):
    """An open challenge to post in the lobby."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="The game id (two players).", max_length=40)
    options: dict[str, OptionInput] = Field(default_factory=dict, max_length=20)
    side: Annotated[str, Field(max_length=40)] = Field(
        default="random", description="Your side: a player name (Green) or random."
    )
    clock: ClockInput = CLOCK_FIELD
    name: NameInput | None = Field(
        default=None, description="Your display name (default: the browser's chosen name)."
    )
    rated: bool = Field(
        default=False,
        description="Whether the game is rated (Glicko-2): only between two players logged in "
        "to accounts; false (the default) for a casual game open to anyone.",
    )


class AcceptRequest(BaseModel):
    """Accepting an open challenge."""

    model_config = ConfigDict(extra="forbid")

    name: NameInput | None = Field(
        default=None, description="Your display name (default: the browser's chosen name)."
    )


class WithdrawRequest(BaseModel):
    """Withdrawing one's open challenge."""

    model_config = ConfigDict(extra="forbid")

    secret: str = Field(description="The secret the posting answered.", max_length=200)


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "content": {"application/json": {"example": {"error": "..."}}}}
    for status, text in (
        (400, "Malformed request or move text"),
        (403, "The token belongs to no seat of this game"),
        (404, "No such game"),
        (409, "Not possible now: illegal move, not your turn, game over"),
        (413, "The request body is over 64 KiB"),
        (429, "Too many requests from this client; see Retry-After"),
        (503, "Busy (database or computer players); see Retry-After"),
    )
}


def service_of(request: Request | WebSocket) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


def page_url(request: Request, game_id: str, tokens: list[str]) -> str:
    """The address of a game's page (with the seats' tokens, if any, for the link to play)."""
    url = link(request, "board_page", game_id=game_id)
    return f"{url}?token={'.'.join(tokens)}" if tokens else url


def check_rate(request: Request | WebSocket, limiter: RateLimiter, what: str) -> None:
    """Count one request of this client against ``limiter``.

    Raises:
        RateLimitedError: The client is over the limit (429 with ``Retry-After``).
    """
    client = request.client.host if request.client is not None else "unknown"
    wait = limiter.check(client)
    if wait > 0:
        seconds = max(1, round(wait + 0.5))
        raise RateLimitedError(
            f"too many {what} from this address; try again in {seconds} s", retry_after=seconds
        )


def json_reply(text: str) -> Response:
    """An already serialised JSON answer."""
    return Response(text, media_type="application/json")


def _change_reply(service: GameService, live: LiveGame, with_board: bool) -> Response:
    board = service.board_json(live) if with_board else None
    return json_reply(with_now(service.snapshot(live).reply(board)))


WithBoard = Annotated[
    bool,
    Query(
        alias="board",
        description="Add the new board (as GET .../board answers it) under `board`: what a "
        "page needs to redraw, in the same round trip.",
    ),
]


router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)

CHANGE_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The game (as GET /api/games/{id}); with `?board=true` its board too.",
        "content": {"application/json": {}},
    }
}


@router.get("/games", summary="List the games, most recently changed first")
async def list_games(
    request: Request,
    page: Annotated[int, Query(ge=1, le=1_000_000, description="The page, from 1.")] = 1,
    per_page: Annotated[int, Query(ge=1, le=200, description="Games per page.")] = PER_PAGE,
) -> dict[str, Any]:
    """A page of the stored games with their state (running or over) and result."""
    return await service_of(request).list_games(page, per_page)


@router.post("/games", status_code=201, summary="Create a game")
async def create_game(body: NewGameRequest, request: Request) -> dict[str, Any]:
    """Create a game; the answer holds a secret token per seat played by a person.

    The ``url`` opens the board for the creator's seats (``human``); each ``invite`` seat has
    its own link in ``seats`` to send to the other player.
    """
    check_rate(request, request.app.state.game_limiter, "new games")
    service = service_of(request)
    seats = body.seats if body.seats is not None else ["human"] * _num_players(body.game)
    names: list[str | None] = list(body.names or [])
    own = await service.name_of(session_of(request))
    if own is not None:  # the browser's own seats carry its chosen name
        names += [None] * (len(seats) - len(names))
        names = [
            name if name is not None or str(spec).strip().lower() != "human" else own
            for name, spec in zip(names, seats, strict=False)
        ]
    created = await service.create(
        body.game,
        options=body.options,
        seats=seats,
        position=body.position,
        hints=body.hints,
        clock=body.clock,
        names=names,
    )
    live = created.live
    mine = [t for s, t in created.tokens.items() if live.seats[s].kind == "human"]
    return {
        "id": live.id,
        "url": page_url(request, live.id, mine),
        "seats": [
            {
                "seat": seat.seat,
                "player": live.game.player_names[seat.seat],
                "kind": seat.kind,
                "agent": seat.agent,
                "token": seat.token,
                "link": page_url(request, live.id, [seat.token]) if seat.token else None,
            }
            for seat in live.seats
        ],
        "game": live.to_dict(),
    }


def _num_players(game_id: str) -> int:
    try:
        return game_class(game_id).num_players
    except LudotecaError as error:
        raise http_error(error) from None


@router.get(
    "/games/{game_id}",
    summary="A game: position, legal moves, history, outcome",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}}},
)
async def get_game(game_id: GameId, request: Request) -> Response:
    """The game's options, position text, player to move, legal moves, moves and outcome."""
    service = service_of(request)
    return json_reply(with_now(service.snapshot(await service.current(game_id)).game))


@router.get(
    "/games/{game_id}/board",
    summary="The board as the page draws it",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}}},
)
async def get_board(
    game_id: GameId,
    request: Request,
    at: Annotated[
        int | None, Query(ge=0, le=10**9, description="Show the position after this many moves.")
    ] = None,
) -> Response:
    """The SVG board, status, dice and click paths, now or after ``at`` moves (replay)."""
    service = service_of(request)
    live = await service.current(game_id)
    if at is None or at == live.ply:
        return json_reply(service.board_json(live))
    return json_reply(to_json(service.board(live, at)))


@router.post(
    "/games/{game_id}/moves",
    summary="Play a move",
    response_class=Response,
    responses=CHANGE_ANSWER,
)
async def play_move(
    game_id: GameId, body: MoveRequest, request: Request, with_board: WithBoard = False
) -> Response:
    """Play a move for the seat whose token is given; answers the game's new state."""
    service = service_of(request)
    live = await service.play(game_id, body.move, body.token, ply=body.ply)
    return _change_reply(service, live, with_board)


@router.post(
    "/games/{game_id}/undo",
    summary="Take back your last move",
    response_class=Response,
    responses=CHANGE_ANSWER,
)
async def undo(
    game_id: GameId, body: TokenRequest, request: Request, with_board: WithBoard = False
) -> Response:
    """Take back your last move and the computer's reply (not against an invited player)."""
    service = service_of(request)
    return _change_reply(service, await service.undo(game_id, body.token), with_board)


@router.post(
    "/games/{game_id}/resign", summary="Resign", response_class=Response, responses=CHANGE_ANSWER
)
async def resign(
    game_id: GameId, body: TokenRequest, request: Request, with_board: WithBoard = False
) -> Response:
    """Your seat resigns and the game is over."""
    service = service_of(request)
    return _change_reply(service, await service.resign(game_id, body.token), with_board)


@router.post("/games/{game_id}/hint", summary="The computer's suggestion")
async def hint(game_id: GameId, body: TokenRequest, request: Request) -> dict[str, Any]:
    """The strongest level's move for you (you must be to move), and its chance of winning.

    Hints are offered in games against the computer, and in games created with ``hints``
    on; each client may ask for a limited number a minute (429 beyond).
    """
    check_rate(request, request.app.state.hint_limiter, "hints")
    return await service_of(request).hint(game_id, body.token)


@router.get("/games/{game_id}/hint", summary="The computer's suggestion (token in the query)")
async def hint_by_query(
    game_id: GameId,
    request: Request,
    token: Annotated[str, Query(max_length=MAX_TOKEN_TEXT, description="Your seat's token.")],
) -> dict[str, Any]:
    """As ``POST .../hint``, for clients that cannot send a body."""
    check_rate(request, request.app.state.hint_limiter, "hints")
    return await service_of(request).hint(game_id, token)


@router.get(
    "/games/{game_id}/record",
    summary="Download the saved game",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}}},
)
async def download(game_id: GameId, request: Request) -> Response:
    """The game as a Ludoteca saved game (JSON; ``ludoteca play --load`` continues it)."""
    live = await service_of(request).current(game_id)
    return Response(
        live.record().to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{live.game.id}-{live.id}.json"'},
    )


@router.get("/games/{game_id}/clock", summary="The clocks now")
async def clock(game_id: GameId, request: Request) -> dict[str, Any]:
    """Each seat's seconds left now (``left``), whose clock runs, and when it would flag.

    A game without a clock answers ``{"clock": null}``. Asking changes nothing: a clock that has
    run out shows no time left until the server's timer ends the game on time (at once).
    """
    live = await service_of(request).current(game_id)
    return {"clock": live.clocks(time.time()), "outcome": live.to_dict()["outcome"]}


@router.post(
    "/games/{game_id}/draw",
    summary="Offer, accept or decline a draw",
    response_class=Response,
    responses=CHANGE_ANSWER,
)
async def draw(
    game_id: GameId, body: DrawRequest, request: Request, with_board: WithBoard = False
) -> Response:
    """Offer a draw, or accept or decline the other player's offer.

    ``draw_possible`` in the game says where one may be offered. A move declines a standing
    offer; accepting ends the game ("draw agreed by the players").
    """
    service = service_of(request)
    live = await service.draw(game_id, body.token, body.action)
    return _change_reply(service, live, with_board)


@router.post("/games/{game_id}/rematch", summary="Offer or accept a rematch")
async def rematch(game_id: GameId, body: TokenRequest, request: Request) -> dict[str, Any]:
    """After the game, offer a rematch (the same game and clock, seats swapped), or accept one.

    The first player asking offers it; when the other asks too, it is created. The answer has
    ``rematch`` (the new game's id, or null while offered) and, once created, your ``seat`` and
    ``token`` there. Creating it counts against this client's limit of new games (429).
    The rematch of a rated game is rated (``rated``): each player asks logged in to the account
    that played the seat (401 not logged in, 403 another account), and both accounts must still
    exist (409).
    """
    limiter = request.app.state.game_limiter
    service = service_of(request)
    account = await service.read(AccountStore(service.store).of_session, session_of(request))
    answer = await service.rematch(
        game_id,
        body.token,
        before_create=lambda: check_rate(request, limiter, "new games"),
        account=None if account is None else account.id,
    )
    if answer.get("rematch") is not None:
        answer["url"] = link(request, "board_page", game_id=answer["rematch"])
    return answer


REVIEW_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"description": "The finished review (status done).", "content": {"application/json": {}}},
    202: {
        "description": "The review runs: its progress (status running, done, total).",
        "content": {"application/json": {}},
    },
}


@router.post(
    "/games/{game_id}/review",
    status_code=202,
    summary="Review a finished game",
    responses=REVIEW_ANSWER,
)
async def start_review(game_id: GameId, request: Request, response: Response) -> dict[str, Any]:
    """Start the review of a finished game in the background; answers its progress (202).

    Anyone may ask. One review per game runs at a time: asking again while it runs answers
    the same review's progress (202); once it is done, the review itself (200). A review
    that failed or was interrupted (its server stopped) is started again. 409 while the game
    is being played; 503 when this server runs too many reviews (see ``Retry-After``).
    Progress and the review are pushed on the game's WebSocket (``{"type": "review"}``).
    """
    check_rate(request, request.app.state.hint_limiter, "review requests")
    status, answer = await service_of(request).reviews.start(game_id)
    response.status_code = status
    return answer


@router.get("/games/{game_id}/review", summary="A game's review or its progress")
async def get_review(game_id: GameId, request: Request) -> dict[str, Any]:
    """The review, or how far it is.

    ``status`` is none, running (``done`` of ``total`` positions), interrupted, failed (with
    ``error``) or done (with the decisions and the players' accuracy).
    """
    return await service_of(request).reviews.get(game_id)
