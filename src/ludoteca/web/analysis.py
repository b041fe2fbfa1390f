"""The analysis board in the browser: ``/analysis/<game>`` and its JSON API.

The server keeps nothing: the page holds the tree of variations and sends, for the position it
shows, the start position, the game's options and the line of moves that leads there. Every
request replays that line through the rules, so an illegal move or a bad position is refused
with the rules' own message (400), and an unknown game with 404.

- ``GET /api/analysis/<game>?position=&options=&line=``: the position reached (its text, who
  is to move, the legal moves or the chance outcomes with their probabilities, the outcome),
  every ply of the line numbered as everywhere else, and the board drawn as the board page
  draws it, the last move highlighted.
- ``GET /api/analysis/<game>/evaluate?...``: the engine's view of that position
  (`ludoteca.analysis.position.evaluate`): exact for a solved game, else a search or playouts of
  a modest budget with the estimate's interval. It runs in the server's search pool (the hints'
  lane, never on the event loop) and counts against the hints' rate limit (429 beyond).
- ``GET /api/analysis/<game>/record?...``: the line as a saved game (`ludoteca.core.records`).

``position`` is the game's position text (absent: the start), ``options`` a JSON object of the
game's options (``{"scoring": "simplified"}``), ``line`` the moves' texts separated by commas
(no move text holds one; some hold spaces).
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from ludoteca.analysis.position import MAX_SEARCHED_OUTCOMES, default_budget
from ludoteca.core import records
from ludoteca.core.errors import LudotecaError, UnknownGameError
from ludoteca.core.game import Game, State
from ludoteca.core.notation import chance_text, numbered_plies
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make
from ludoteca.web.boards import board_of
from ludoteca.web.catalogue import entry, rules_html
from ludoteca.web.errors import BadRequestError, ConflictError, NotFoundError, http_error
from ludoteca.web.pages import TEMPLATES, error_page
from ludoteca.web.search_worker import SearchJob
from ludoteca.web.searches import HINTS
from ludoteca.web.service import GameService

#: The most plies a line may hold.
MAX_LINE = 600
#: The longest position text, options text and line text accepted.
MAX_POSITION_TEXT = 2000
MAX_OPTIONS_TEXT = 1000
MAX_LINE_TEXT = 12000
#: The engine's budget on the board: a modest share of the terminal's default, so that an
#: evaluation answers in about a second (search iterations, or the expert's playouts).
SEARCH_BUDGET = 1000
PLAYOUT_BUDGET = 8
LINE_SEPARATOR = ","

router = APIRouter(tags=["analysis"])
pages = APIRouter(include_in_schema=False)

PositionQuery = Annotated[
    str | None,
    Query(max_length=MAX_POSITION_TEXT, description="The start position (the game's text)."),
]
OptionsQuery = Annotated[
    str | None,
    Query(max_length=MAX_OPTIONS_TEXT, description='The options as JSON: {"name": value}.'),
]
LineQuery = Annotated[
    str,
    Query(max_length=MAX_LINE_TEXT, description="The moves from the start, separated by commas."),
]


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def parse_options(text: str | None) -> dict[str, Any]:
    """The options of ``options=`` (a JSON object), or ``{}``.

    Raises:
        BadRequestError: Not a JSON object.
    """
    if text is None or not text.strip():
        return {}
    try:
        options = json.loads(text)
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise BadRequestError(
            f'options must be a JSON object of the game\'s options, e.g. {{"name": "value"}}; '
            f"got {text[:80]!r}"
        )
    return options


def game_of(request: Request, game_id: str, options: dict[str, Any]) -> Game:
    """The game with these options, once its kernels are prepared.

    Raises:
        NotFoundError: No such game (the message lists the games).
        BadRequestError: A bad option (the message says what is accepted).
        RetryLaterError: The game is still being prepared.
    """
    try:
        game = make(game_id, **options)
    except UnknownGameError as error:
        raise NotFoundError(str(error)) from None
    except LudotecaError as error:
        raise http_error(error) from None
    _service(request).readiness.check(game.id)
    return game


def start_of(game: Game, text: str | None) -> State:
    """The position ``text`` names in ``game`` (its start when absent).

    Raises:
        BadRequestError: The game's parser refuses the text; its message says why.
    """
    if text is None or not text.strip():
        return game.initial_state()
    try:
        return game.parse_state(text.strip())
    except LudotecaError as error:
        raise BadRequestError(
            f"{text.strip()[:200]!r} is not a {game.name} position: {error}. The start is written "
            f"{game.initial_state().to_text()!r}"
        ) from None


def split_line(text: str) -> list[str]:
    """The move texts of ``line=``.

    Raises:
        BadRequestError: More than `MAX_LINE` plies.
    """
    if not text.strip():
        return []
    moves = [move.strip() for move in text.split(LINE_SEPARATOR)]
    if len(moves) > MAX_LINE:
        raise BadRequestError(f"a line holds at most {MAX_LINE} plies; got {len(moves)}")
    if "" in moves:
        raise BadRequestError(
            f"ply {moves.index('') + 1} of the line is empty: the line is the moves' texts "
            f"separated by {LINE_SEPARATOR!r}"
        )
    return moves


def replay(start: State, moves: list[str]) -> list[State]:
    """The positions along ``moves`` from ``start`` (``start`` first).

    Raises:
        BadRequestError: A move that cannot be read or is not legal where it comes; the message
            names its ply and gives the rules' reason.
    """
    states = [start]
    for ply, text in enumerate(moves, start=1):
        try:
            states.append(states[-1].apply(text))
        except LudotecaError as error:
            raise BadRequestError(
                f"ply {ply} of the line, {text!r}, cannot be played: {error}"
            ) from None
    return states


def _position(game: Game, states: list[State], moves: list[str]) -> dict[str, Any]:
    """What the page shows of the line's last position."""
    state = states[-1]
    previous = states[-2] if len(states) > 1 else None
    last = moves[-1] if moves else None
    board = board_of(state, previous=previous, last_move=last)
    outcome = state.outcome
    to_move = state.to_move
    chances: list[dict[str, Any]] = []
    if to_move == CHANCE:
        chances = [
            {"move": move.text, "probability": p, "label": chance_text(state, move)}
            for move, p in state.chance_outcomes()
        ]
    names = game.player_names
    return {
        "game": game.id,
        "name": game.name,
        "options": game.options,
        "players": list(names),
        "start": states[0].to_text(),
        "position": state.to_text(),
        "to_move": to_move,
        "to_move_name": names[to_move] if to_move is not None and to_move >= 0 else None,
        "is_chance": to_move == CHANCE,
        "legal_moves": [] if state.is_over else [move.text for move in state.legal_moves()],
        "chance_outcomes": chances,
        "outcome": None
        if outcome is None
        else {
            "winner": outcome.winner,
            "winner_name": None if outcome.winner is None else names[outcome.winner],
            "returns": list(outcome.returns),
            "reason": outcome.reason,
        },
        "plies": [
            {"ply": p.ply, "move": p.move, "label": p.label, "player": p.player, "number": p.number}
            for p in numbered_plies(states, moves)
        ],
        "exact": game.info.exact_values is not None,
        "board": {"ply": len(moves), "last_move": last, **board.to_dict()},
    }


async def _line(
    request: Request, game_id: str, position: str | None, options: str | None, line: str
) -> tuple[Game, list[State], list[str]]:
    """The game, the positions along the line and its moves (rules replayed in a thread)."""
    game = game_of(request, game_id, parse_options(options))
    moves = split_line(line)

    def work() -> list[State]:
        return replay(start_of(game, position), moves)

    return game, await asyncio.to_thread(work), moves


@router.get("/api/analysis/{game_id}", summary="A position of the analysis board")
async def position(
    request: Request,
    game_id: str,
    position: PositionQuery = None,
    options: OptionsQuery = None,
    line: LineQuery = "",
) -> dict[str, Any]:
    """The position after ``line`` from ``position``: legal moves, numbered plies, the board."""
    game, states, moves = await _line(request, game_id, position, options, line)
    return await asyncio.to_thread(_position, game, states, moves)


@router.get("/api/analysis/{game_id}/evaluate", summary="The engine's view of a position")
async def evaluate_position(
    request: Request,
    game_id: str,
    position: PositionQuery = None,
    options: OptionsQuery = None,
    line: LineQuery = "",
) -> dict[str, Any]:
    """Each player's chance of winning, how it was found, its interval and the best line.

    ``method`` is ``exact`` (a solved game), ``search`` (MCTS; a rough interval),
    ``playouts`` (the expert's games to the end; a Wilson interval) or ``over``. Counts
    against the hints' rate limit (429); 503 when the computer is busy.
    """
    from ludoteca.web.api import check_rate

    check_rate(request, request.app.state.hint_limiter, "evaluations")
    game, states, _ = await _line(request, game_id, position, options, line)
    state = states[-1]
    info = game.info
    if (
        state.to_move == CHANCE
        and info.exact_values is None
        and info.expert_playouts is None
        and len(state.chance_outcomes()) > MAX_SEARCHED_OUTCOMES
    ):
        raise ConflictError(
            f"the engine is not asked before a roll with {len(state.chance_outcomes())} "
            "outcomes: choose the roll first"
        )
    budget = PLAYOUT_BUDGET if default_budget(state) < SEARCH_BUDGET else SEARCH_BUDGET
    job = SearchJob("evaluate", game.id, dict(game.options), state.to_text(), task=budget)
    try:
        value = await _service(request).pool.run(HINTS, job)
    except LudotecaError as error:
        raise http_error(error) from None
    return {
        "position": state.to_text(),
        "players": list(game.player_names),
        "chances": list(value.chances),
        "method": value.method,
        "interval": None if value.interval is None else list(value.interval),
        "best_line": list(value.best_line),
        "budget": value.budget,
    }


@router.get(
    "/api/analysis/{game_id}/record",
    summary="The line as a saved game",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}}},
)
async def record(
    request: Request,
    game_id: str,
    position: PositionQuery = None,
    options: OptionsQuery = None,
    line: LineQuery = "",
) -> Response:
    """The line as a Ludoteca saved game (``ludoteca replay`` shows it, ``play --load`` goes on)."""
    game, states, moves = await _line(request, game_id, position, options, line)
    saved = records.create(
        game, moves, players=["analysis"] * game.num_players, start=states[0]
    ).to_json()
    return Response(
        saved,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{game.id}-analysis.json"'},
    )


@pages.get("/analysis/{game_id}", response_class=HTMLResponse, name="analysis_page")
async def analysis_page(
    request: Request,
    game_id: str,
    position: PositionQuery = None,
    options: OptionsQuery = None,
    line: LineQuery = "",
    ply: Annotated[int | None, Query(ge=0, le=MAX_LINE)] = None,
) -> Response:
    """The analysis board, at ``ply`` of ``line`` from ``position`` (the start by default).

    A bad position or line is shown in the page (the editor holds the text to mend); an
    unknown game or a bad option is an error page.
    """
    try:
        game = game_of(request, game_id, parse_options(options))
    except LudotecaError as error:
        web_error = http_error(error)
        return error_page(request, web_error.status, str(web_error))
    page = {
        "game": game.id,
        "options": game.options,
        "position": (position or "").strip() or game.initial_state().to_text(),
        "line": [move.strip() for move in line.split(LINE_SEPARATOR)][:MAX_LINE]
        if line.strip()
        else [],
        "ply": ply,
        "initial": game.initial_state().to_text(),
    }
    return TEMPLATES.TemplateResponse(
        request,
        "analysis.html",
        {
            "entry": entry(game.id),
            "rules": rules_html(game.id),
            "page_json": json.dumps(page).replace("<", "\\u003c"),
        },
    )
