"""The HTML pages: the lobby, a game's board, and a game's rules.

Seat tokens arrive in the board page's URL (``/games/{id}?token=...``, several joined by
``.``); the page keeps them in a per-game cookie and redirects to the plain address, so the
address bar can be shared with spectators without giving a seat away.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ludoteca.core.errors import LudotecaError
from ludoteca.web.catalogue import entries, entry, rules_html
from ludoteca.web.errors import http_error
from ludoteca.web.live import HUMAN, LiveGame
from ludoteca.web.service import GameService

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))
COOKIE_PREFIX = "ludoteca_"
COOKIE_AGE = 60 * 60 * 24 * 365

router = APIRouter(include_in_schema=False)


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


@router.get("/", response_class=HTMLResponse, name="lobby")
async def lobby(request: Request) -> Response:
    """The games, the new-game form and the saved games."""
    return TEMPLATES.TemplateResponse(
        request,
        "lobby.html",
        {"games": entries(), "saved": _service(request).list_games()},
    )


@router.get("/games/{game_id}", response_class=HTMLResponse, name="board_page")
async def board_page(request: Request, game_id: str, token: str | None = None) -> Response:
    """A game's board; ``?token=`` stores seat tokens in a cookie and redirects."""
    live = _service(request).get(game_id)
    cookie = COOKIE_PREFIX + game_id
    known = [t for t in request.cookies.get(cookie, "").split(".") if t]
    if token is not None:
        given = [t for t in token.split(".") if t]
        valid = [t for t in given if live.seat_of_token(t) is not None]
        if len(valid) != len(given):
            return error_page(request, 403, "This link's seat token is not valid for this game.")
        response = RedirectResponse(str(request.url_for("board_page", game_id=game_id)), 303)
        merged = ".".join(dict.fromkeys([*known, *valid]))
        response.set_cookie(
            cookie, merged, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/"
        )
        return response
    seats = {seat: t for t in known if (seat := live.seat_of_token(t)) is not None}
    page = {
        "id": live.id,
        "game": live.game.id,
        "tokens": {str(seat): t for seat, t in seats.items()},
        "invites": _invites(request, live, seats),
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
    """Invitation links, shown to the creator (who holds the tokens of the ``human`` seats)."""
    if not any(live.seats[seat].kind == HUMAN for seat in seats):
        return []
    base = str(request.url_for("board_page", game_id=live.id))
    return [
        {"player": live.game.player_names[s.seat], "link": f"{base}?token={s.token}"}
        for s in live.seats
        if s.kind == "invite" and s.token
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
