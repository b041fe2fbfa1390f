"""The HTML pages: the lobby, a game's board, and a game's rules.

Seat tokens arrive in the board page's URL (``/games/{id}?token=...``, several joined by
``.``); the server remembers them for this browser's session (one signed cookie, whatever the
number of games; `ludoteca.web.guards.Sessions`) and redirects to the plain address, so the
address bar can be shared with spectators without giving a seat away. Cookies of the first
server (one per game) are taken over into the session and removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ludoteca.ai import LEVELS
from ludoteca.core.errors import LudotecaError
from ludoteca.web.catalogue import entries, entry, rules_html
from ludoteca.web.errors import http_error
from ludoteca.web.guards import (
    SESSION_COOKIE,
    Sessions,
    link,
    session_of,
    set_session_cookie,
)
from ludoteca.web.live import HUMAN, LiveGame
from ludoteca.web.service import GameService

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))
#: The first server kept one cookie per game under this prefix.
LEGACY_COOKIE_PREFIX = "ludoteca_"

router = APIRouter(include_in_schema=False)


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


@router.get("/", response_class=HTMLResponse, name="lobby")
async def lobby(request: Request, page: Annotated[int, Query(ge=1, le=1_000_000)] = 1) -> Response:
    """The games, the new-game form and a page of the saved games."""
    service = _service(request)
    saved = await service.list_games(page)
    name = await service.name_of(session_of(request))
    readiness = service.readiness
    return TEMPLATES.TemplateResponse(
        request,
        "lobby.html",
        {
            "games": entries(readiness.is_ready),
            "saved": saved["games"],
            "listing": saved,
            "name": name,
            "not_ready": readiness.summary(),
            "levels": LEVELS,
        },
    )


@router.get("/games/{game_id}", response_class=HTMLResponse, name="board_page")
async def board_page(
    request: Request,
    game_id: str,
    token: Annotated[str | None, Query(max_length=2000)] = None,
) -> Response:
    """A game's board; ``?token=`` adds seats to this browser's session and redirects."""
    service = _service(request)
    live = await service.current(game_id)
    sessions: Sessions = request.app.state.sessions
    session = sessions.read(request.cookies.get(SESSION_COOKIE))
    legacy_cookie = LEGACY_COOKIE_PREFIX + game_id
    legacy = [t for t in request.cookies.get(legacy_cookie, "").split(".") if t]
    given = [t for t in token.split(".") if t] if token is not None else []
    if token is not None and (not given or any(live.seat_of_token(t) is None for t in given)):
        return error_page(request, 403, "This link's seat token is not valid for this game.")
    adding = [seat for t in [*legacy, *given] if (seat := live.seat_of_token(t)) is not None]
    fresh = False
    if adding:
        fresh = session is None
        session = session or sessions.new_id()
        await service.add_session_seats(session, game_id, adding)
    if token is not None:  # the address bar must not keep the token: show the plain address
        response: Response = RedirectResponse(
            str(request.url_for("board_page", game_id=game_id)), 303
        )
    else:
        response = await _board(request, live, session)
    if fresh and session is not None:
        set_session_cookie(request, response, sessions, session)
    if legacy:
        response.delete_cookie(legacy_cookie, path="/")
    return response


async def _board(request: Request, live: LiveGame, session: str | None) -> Response:
    """The board page for a browser holding ``session``'s seats of the game."""
    service = _service(request)
    game_id = live.id
    held = await service.session_seats(session, game_id) if session is not None else []
    seats = {seat: token for seat in held if (token := live.seats[seat].token) is not None}
    page = {
        "id": live.id,
        "game": live.game.id,
        "tokens": {str(seat): t for seat, t in seats.items()},
        "invites": _invites(request, live, seats),
        "start": live.start.to_text(),  # the analysis board's link starts there
        "analysis": str(request.url_for("analysis_page", game_id=live.game.id)),
    }
    return TEMPLATES.TemplateResponse(
        request,
        "board.html",
        {
            "live": live,
            "entry": entry(live.game.id),
            "rules": rules_html(live.game.id),
            "page_json": json.dumps(page).replace("<", "\\u003c"),
            "is_player": bool(seats),
            "invites": page["invites"],
        },
    )


def _invites(request: Request, live: LiveGame, seats: dict[int, str]) -> list[dict[str, Any]]:
    """Invitation links, shown to the creator (who holds the tokens of the ``human`` seats).

    A seat a named person has taken (an accepted challenge, a rematch) is nobody's to give:
    its link is not shown, so one player never holds the other's token.
    """
    if not any(live.seats[seat].kind == HUMAN for seat in seats):
        return []
    base = link(request, "board_page", game_id=live.id)
    return [
        {"player": live.game.player_names[s.seat], "link": f"{base}?token={s.token}"}
        for s in live.seats
        if s.kind == "invite" and s.token and s.name is None
    ]


@router.get("/rules/{game_id}", response_class=HTMLResponse, name="rules_page")
async def rules_page(request: Request, game_id: str) -> Response:
    """A game's rules, rendered from docs/rules/<game>.md."""
    try:
        game = entry(game_id)
    except LudotecaError as error:
        return error_page(request, 404, str(http_error(error)))
    return TEMPLATES.TemplateResponse(
        request, "rules.html", {"entry": game, "rules": rules_html(game.id)}
    )


def error_page(request: Request, status: int, message: str) -> Response:
    """An HTML page that says what went wrong (also used by the app's error handlers)."""
    return TEMPLATES.TemplateResponse(
        request, "error.html", {"status": status, "message": message}, status_code=status
    )
