"""The HTTP API: JSON endpoints for games, moves, undo, resignation, hints and saved games.

Every error answers ``{"error": "..."}`` with its status: 400 a malformed request or move text,
403 a bad seat token, 404 an unknown game, 409 a move that is not possible now (illegal, not
your turn, the game is over), 501 a feature this installation lacks. FastAPI documents the
endpoints at ``/docs``.
"""

from __future__ import annotations

import asyncio
from asyncio import FIRST_COMPLETED
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class
from ludoteca.web.errors import http_error
from ludoteca.web.service import GameService

OptionInput = str | int | bool | None


class NewGameRequest(BaseModel):
    """A game to create."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="The game id, e.g. salta.", examples=["salta"])
    options: dict[str, OptionInput] = Field(
        default_factory=dict, description="Options by name; unnamed ones take their defaults."
    )
    seats: list[str] | None = Field(
        default=None,
        description="Who plays each seat, in player order: human (you, in this browser), "
        "invite (another person, by a link), random or level:1 … level:5 (the computer). "
        "Default: human for every seat.",
        examples=[["human", "level:3"]],
    )
    position: str | None = Field(
        default=None, description="A start position text (`State.to_text`); default the usual."
    )


class MoveRequest(BaseModel):
    """A move by the person holding a seat's token."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(description="The move in notation.", examples=["c3-d4"])
    token: str = Field(description="The secret token of the seat to move.")
    ply: int | None = Field(
        default=None,
        description="The number of moves the player has seen; if the game has moved on "
        "meanwhile, the move is refused with 409.",
    )


class TokenRequest(BaseModel):
    """A request made for a seat (undo, resign)."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(description="The secret token of your seat.")


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "content": {"application/json": {"example": {"error": "..."}}}}
    for status, text in (
        (400, "Malformed request or move text"),
        (403, "The token belongs to no seat of this game"),
        (404, "No such game"),
        (409, "Not possible now: illegal move, not your turn, game over"),
    )
}


def service_of(request: Request | WebSocket) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


def _page_url(request: Request, game_id: str, tokens: list[str]) -> str:
    url = str(request.url_for("board_page", game_id=game_id))
    return f"{url}?token={'.'.join(tokens)}" if tokens else url


router = APIRouter(prefix="/api", tags=["games"], responses=ERRORS)


@router.get("/games", summary="List the games, most recently changed first")
async def list_games(request: Request) -> dict[str, Any]:
    """Every stored game with its state (running or over) and result."""
    return {"games": service_of(request).list_games()}


@router.post("/games", status_code=201, summary="Create a game")
async def create_game(body: NewGameRequest, request: Request) -> dict[str, Any]:
    """Create a game; the answer holds a secret token per seat played by a person.

    The ``url`` opens the board for the creator's seats (``human``); each ``invite`` seat has
    its own link in ``seats`` to send to the other player.
    """
    service = service_of(request)
    seats = body.seats if body.seats is not None else ["human"] * _num_players(body.game)
    created = await service.create(
        body.game, options=body.options, seats=seats, position=body.position
    )
    live = created.live
    mine = [t for s, t in created.tokens.items() if live.seats[s].kind == "human"]
    return {
        "id": live.id,
        "url": _page_url(request, live.id, mine),
        "seats": [
            {
                "seat": seat.seat,
                "player": live.game.player_names[seat.seat],
                "kind": seat.kind,
                "agent": seat.agent,
                "token": seat.token,
                "link": _page_url(request, live.id, [seat.token]) if seat.token else None,
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


@router.get("/games/{game_id}", summary="A game: position, legal moves, history, outcome")
async def get_game(game_id: str, request: Request) -> dict[str, Any]:
    """The game's options, position text, player to move, legal moves, moves and outcome."""
    service = service_of(request)
    return service.get(game_id).to_dict()


@router.get("/games/{game_id}/board", summary="The board as the page draws it")
async def get_board(
    game_id: str,
    request: Request,
    at: Annotated[int | None, Query(description="Show the position after this many moves.")] = None,
) -> dict[str, Any]:
    """The SVG board, status, dice and click paths, now or after ``at`` moves (replay)."""
    service = service_of(request)
    return service.board(service.get(game_id), at)


@router.post("/games/{game_id}/moves", summary="Play a move")
async def play_move(game_id: str, body: MoveRequest, request: Request) -> dict[str, Any]:
    """Play a move for the seat whose token is given; answers the game's new state."""
    service = service_of(request)
    live = await service.play(game_id, body.move, body.token, ply=body.ply)
    return live.to_dict()


@router.post("/games/{game_id}/undo", summary="Take back your last move")
async def undo(game_id: str, body: TokenRequest, request: Request) -> dict[str, Any]:
    """Take back your last move and the computer's reply (not against an invited player)."""
    live = await service_of(request).undo(game_id, body.token)
    return live.to_dict()


@router.post("/games/{game_id}/resign", summary="Resign")
async def resign(game_id: str, body: TokenRequest, request: Request) -> dict[str, Any]:
    """Your seat resigns and the game is over."""
    live = await service_of(request).resign(game_id, body.token)
    return live.to_dict()


@router.get("/games/{game_id}/hint", summary="The computer's suggestion")
async def hint(game_id: str, request: Request) -> dict[str, Any]:
    """The move the computer suggests for the person to move, and its chance of winning."""
    return await service_of(request).hint(game_id)


@router.get(
    "/games/{game_id}/record",
    summary="Download the saved game",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}}},
)
async def download(game_id: str, request: Request) -> Response:
    """The game as a Ludoteca saved game (JSON; ``ludoteca play --load`` continues it)."""
    live = service_of(request).get(game_id)
    return Response(
        live.record().to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{live.game.id}-{live.id}.json"'},
    )


websocket_router = APIRouter()


@websocket_router.websocket("/ws/games/{game_id}")
async def game_updates(websocket: WebSocket, game_id: str) -> None:
    """Send the game's state at once and after every change, until the client leaves."""
    service = service_of(websocket)
    try:
        live = service.get(game_id)
    except LudotecaError as error:
        await websocket.close(code=4404, reason=str(error)[:120])
        return
    await websocket.accept()
    queue = service.subscribe(game_id)
    listener = asyncio.create_task(_until_closed(websocket))
    try:
        await websocket.send_json(service.payload(live))
        while True:
            update = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({update, listener}, return_when=FIRST_COMPLETED)
            if listener in done:
                update.cancel()
                break
            await websocket.send_json(update.result())
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away while we were sending
    finally:
        listener.cancel()
        service.unsubscribe(game_id, queue)


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it disconnects."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
