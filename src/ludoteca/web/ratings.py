"""Players' ratings, profiles, game lists, exports and leaderboards (pages and API).

Rated games are Glicko-2 rated per game and time control (`ludoteca.web.rating_store`): a
challenge posted with ``"rated": true`` by a player logged in to an account, and accepted by
another account, makes a rated game, and its end moves both ratings in the transaction that
records it. A rating whose deviation is above 110 is provisional, shown with "?".

- ``GET /api/players/{name}``: the profile: ratings, recent games, games in progress.
- ``GET /api/players/{name}/games``: the player's games, filtered and paginated.
- ``GET /api/players/{name}/export``: all of them as saved games (JSON Lines or a zip).
- ``GET /api/leaderboard/{game}``: the rated players of a game, best first, and the computer
  levels' arena Elo where `LEVEL_ARENA_ELO` has it.
- ``/@/{name}`` and ``/leaderboard/{game}``: the same as pages, the rating histories drawn as
  SVG charts on the server.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from html import escape
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response

from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import game_class, game_ids
from ludoteca.web.account_store import Account
from ludoteca.web.accounts import TEMPLATES, _player, _public
from ludoteca.web.errors import BadRequestError
from ludoteca.web.live import LiveGame
from ludoteca.web.rated_games import (
    ARENA_GAMES_A_PAIR,
    LEVEL_ARENA_ELO,
    PROVISIONAL_DEVIATION,
    RESULTS,
    TIME_CONTROLS,
    HistoryPoint,
    PlayerRating,
)
from ludoteca.web.rating_store import GameFilter, RatingStore
from ludoteca.web.service import GameService, _summary_dict
from ludoteca.web.storage import GameSummary

#: Games on a page of a player's games, in a profile's recent games, on a leaderboard's page.
PER_PAGE = 20
RECENT = 10
BOARD_PAGE = 50

router = APIRouter(prefix="/api", tags=["players"])
pages = APIRouter(include_in_schema=False)

GameParam = Annotated[str | None, Query(max_length=64, description="Only this game's (a game id).")]
ResultParam = Annotated[
    Literal["running", "over", "won", "lost", "drawn"] | None,
    Query(
        description="Only running games, or over; or only those the player won, lost or drew "
        "against someone else (games whose winner was recorded)."
    ),
]
OpponentParam = Annotated[
    str | None, Query(max_length=24, description="Only games against this name (any case).")
]
RatedParam = Annotated[bool | None, Query(description="Only rated (true) or casual (false).")]
PageParam = Annotated[int, Query(ge=1, le=1_000_000, description="The page, from 1.")]
TimeControl = Literal["realtime", "correspondence"]


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _ratings(request: Request) -> RatingStore:
    return RatingStore(_service(request).store)


def _check_game(game: str | None) -> None:
    if game is not None and game not in game_ids():
        raise BadRequestError(f"no game is called {game[:64]!r}; games: {', '.join(game_ids())}")


def _game_name(game: str) -> str:
    try:
        return str(game_class(game).name)
    except LudotecaError:
        return game


# -- what a profile shows ---------------------------------------------------------------------


def ratings_by_game(ratings: Sequence[PlayerRating]) -> dict[str, Any]:
    """``{game: rating}``: per game, the rating of the time control with the most rated games."""
    best: dict[str, PlayerRating] = {}
    for rating in ratings:
        held = best.get(rating.game)
        if held is None or rating.games > held.games:
            best[rating.game] = rating
    return {game: rating.public() for game, rating in sorted(best.items())}


def ratings_by_time_control(ratings: Sequence[PlayerRating]) -> dict[str, Any]:
    """``{game: {time control: rating}}``."""
    found: dict[str, dict[str, Any]] = {}
    for rating in ratings:
        found.setdefault(rating.game, {})[rating.time_control] = rating.public()
    return found


def _game_dicts(
    games: Sequence[tuple[GameSummary, bool]], history: Sequence[HistoryPoint]
) -> list[dict[str, Any]]:
    changes = {point.game_id: point for point in history}
    answer = []
    for summary, rated in games:
        entry = _summary_dict(summary) | {"rated": rated}
        point = changes.get(summary.id)
        if point is not None:
            entry["rating_change"] = {
                "before": round(point.rating_before, 1),
                "after": round(point.rating_after, 1),
                "score": point.score,
            }
        answer.append(entry)
    return answer


async def profile_of(request: Request, account: Account) -> dict[str, Any]:
    """A player's profile: ratings, recent games and games in progress."""
    service, store = _service(request), _ratings(request)
    ratings = (await service.read(store.ratings, [account.id]))[account.id]
    history = await service.read(store.history, account.id)
    recent, total = await service.read(store.player_games, account.id, limit=RECENT)
    playing, _ = await service.read(
        store.player_games, account.id, GameFilter(result="running"), limit=PER_PAGE
    )
    return _public(account) | {
        "ratings": ratings_by_game(ratings),
        "time_controls": ratings_by_time_control(ratings),
        "recent": _game_dicts(recent, history),
        "playing": _game_dicts(playing, history),
        "games": total,
    }


# -- the API ----------------------------------------------------------------------------------


@router.get("/players/{name}", summary="A player's profile")
async def player(request: Request, name: str) -> dict[str, Any]:
    """The account's ratings, its most recent games and the games it is playing.

    ``ratings``: per game id, the rating (``rating``, ``deviation``, ``games``, ``provisional``
    while the deviation is above 110, ``shown`` as people read it, with "?" while provisional,
    wins, draws, losses) in the time control the player has played most rated games of;
    ``time_controls``: per game id, each time control's (``realtime``, ``correspondence``).
    ``recent``: the 10 most recent games (rated ones with their ``rating_change``); ``playing``:
    games in progress; ``games``: how many games in all.
    """
    return await profile_of(request, await _player(request, name))


@router.get("/players/{name}/games", summary="A player's games")
async def player_games(
    request: Request,
    name: str,
    game: GameParam = None,
    result: ResultParam = None,
    opponent: OpponentParam = None,
    rated: RatedParam = None,
    page: PageParam = 1,
) -> dict[str, Any]:
    """A page of the account's games, most recently changed first, filtered."""
    account = await _player(request, name)
    _check_game(game)
    service, store = _service(request), _ratings(request)
    where = GameFilter(game=game, result=result, opponent=opponent, rated=rated)
    games, total = await service.read(
        store.player_games, account.id, where, offset=(page - 1) * PER_PAGE, limit=PER_PAGE
    )
    history = await service.read(store.history, account.id)
    return {
        "name": account.name,
        "games": _game_dicts(games, history),
        "page": page,
        "per_page": PER_PAGE,
        "total": total,
        "pages": max(1, -(-total // PER_PAGE)),
    }


@router.get(
    "/players/{name}/export",
    summary="All of a player's games as saved games",
    response_class=Response,
    responses={200: {"content": {"application/x-ndjson": {}, "application/zip": {}}}},
)
async def export_games(
    request: Request,
    name: str,
    format: Annotated[
        Literal["jsonl", "zip"],
        Query(description="jsonl: one saved game a line; zip: one saved-game file each."),
    ] = "jsonl",
    game: GameParam = None,
    result: ResultParam = None,
    opponent: OpponentParam = None,
    rated: RatedParam = None,
) -> Response:
    """Every game of the account as Ludoteca saved games, oldest first.

    Filtered as ``.../games`` filters; ``ludoteca play --load`` reads each saved game.
    """
    account = await _player(request, name)
    _check_game(game)
    service, store = _service(request), _ratings(request)
    where = GameFilter(game=game, result=result, opponent=opponent, rated=rated)
    ids = await service.read(store.game_ids, account.id, where)
    records = await service.read(_saved_games, store, ids)
    stem = f"ludoteca-{account.name}-games"
    if format == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for file_name, text in records:
                archive.writestr(file_name, text)
        return Response(
            buffer.getvalue(),
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="{stem}.zip"'},
        )
    lines = "".join(json.dumps(json.loads(text), ensure_ascii=False) + "\n" for _, text in records)
    return Response(
        lines,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{stem}.jsonl"'},
    )


def _saved_games(store: RatingStore, ids: Sequence[str]) -> list[tuple[str, str]]:
    """``(file name, saved game)`` of each game; one the rules no longer replay is left out."""
    saved = []
    for row in store.records(ids):
        try:
            live = LiveGame.from_row(row)
            saved.append((f"{row.game}-{row.id}.json", live.record().to_json()))
        except LudotecaError:
            continue
    return saved


def _leaderboard_game(game: str) -> str:
    _check_game(game)
    return game


@router.get("/leaderboard/{game}", summary="A game's rated players, best first")
async def leaderboard(
    request: Request,
    game: Annotated[str, PathParam(max_length=64, description="The game id.")],
    time_control: Annotated[
        TimeControl, Query(description="realtime or correspondence.")
    ] = "realtime",
    page: PageParam = 1,
) -> dict[str, Any]:
    """A page of the players rated in ``game`` and ``time_control``, by rating.

    Provisional ratings (deviation above 110) are listed too, marked so. ``levels``: the
    computer levels' Elo from the arena's round robins (relative, mean 0 over the levels; empty
    where none was run).
    """
    return await _leaderboard(request, _leaderboard_game(game), time_control, page)


async def _leaderboard(request: Request, game: str, control: str, page: int) -> dict[str, Any]:
    rows, total = await _service(request).read(
        _ratings(request).leaderboard,
        game,
        control,
        offset=(page - 1) * BOARD_PAGE,
        limit=BOARD_PAGE,
    )
    first = (page - 1) * BOARD_PAGE
    return {
        "game": game,
        "name": _game_name(game),
        "time_control": control,
        "players": [
            {"rank": first + index + 1, "name": row.name} | row.rating.public()
            for index, row in enumerate(rows)
        ],
        "page": page,
        "per_page": BOARD_PAGE,
        "total": total,
        "pages": max(1, -(-total // BOARD_PAGE)),
        "levels": level_elo(game),
    }


def level_elo(game: str) -> list[dict[str, Any]]:
    """The computer levels' arena Elo in ``game`` (empty where no round robin was run)."""
    figures = LEVEL_ARENA_ELO.get(game, {})
    return [
        {
            "level": level,
            "agent": f"level:{level}",
            "arena_elo": elo,
            "error": error,
            "games_a_pair": ARENA_GAMES_A_PAIR[game],
        }
        for level, (elo, error) in sorted(figures.items())
    ]


# -- the pages --------------------------------------------------------------------------------


@pages.get("/@/{name}", response_class=HTMLResponse, name="profile_page")
async def profile_page(
    request: Request,
    name: str,
    game: Annotated[str | None, Query(max_length=64)] = None,
    result: Annotated[str | None, Query(max_length=16)] = None,
    opponent: Annotated[str | None, Query(max_length=24)] = None,
    rated: Annotated[str | None, Query(max_length=8)] = None,
    page: PageParam = 1,
) -> Response:
    """A player's profile: ratings with their charts, games in progress, all games filtered.

    The filters are those of ``GET /api/players/{name}/games``; an empty one (the form's "any")
    filters nothing.
    """
    account = await _player(request, name)
    game, opponent = game or None, opponent or None
    _check_game(game)
    result = result or None
    if result is not None and result not in RESULTS:
        raise BadRequestError(f"result is one of {', '.join(RESULTS)}; got {result!r}")
    if rated not in (None, "", "true", "false"):
        raise BadRequestError(f"rated is true or false; got {rated!r}")
    profile = await profile_of(request, account)
    service, store = _service(request), _ratings(request)
    where = GameFilter(
        game=game, result=result, opponent=opponent, rated=None if not rated else rated == "true"
    )
    games, total = await service.read(
        store.player_games, account.id, where, offset=(page - 1) * PER_PAGE, limit=PER_PAGE
    )
    history = await service.read(store.history, account.id)
    ratings = (await service.read(store.ratings, [account.id]))[account.id]
    charts = [
        {
            "game": rating.game,
            "name": _game_name(rating.game),
            "time_control": rating.time_control,
            "rating": rating,
            "svg": rating_chart(
                [
                    p
                    for p in history
                    if p.game == rating.game and p.time_control == rating.time_control
                ]
            ),
        }
        for rating in ratings
        if rating.games > 0
    ]
    filters = {"game": game, "result": result, "opponent": opponent, "rated": where.rated}
    query = urlencode(
        {k: str(v).lower() if k == "rated" else v for k, v in filters.items() if v is not None}
    )
    return TEMPLATES.TemplateResponse(
        request,
        "profile.html",
        {
            "player": account,
            "profile": profile,
            "charts": charts,
            "games": _game_dicts(games, history),
            "total": total,
            "all_games": profile["games"],
            "page": page,
            "pages": max(1, -(-total // PER_PAGE)),
            "filters": filters,
            "query": query,
            "game_choices": [(g, _game_name(g)) for g in game_ids()],
            "provisional_deviation": PROVISIONAL_DEVIATION,
        },
    )


@pages.get("/leaderboard/{game}", response_class=HTMLResponse, name="leaderboard_page")
async def leaderboard_page(
    request: Request,
    game: Annotated[str, PathParam(max_length=64)],
    time_control: Annotated[TimeControl, Query()] = "realtime",
    page: PageParam = 1,
) -> Response:
    """A game's leaderboard in one time control, and its computer levels' arena Elo."""
    board = await _leaderboard(request, _leaderboard_game(game), time_control, page)
    return TEMPLATES.TemplateResponse(
        request,
        "leaderboard.html",
        {
            "board": board,
            "time_controls": TIME_CONTROLS,
            "games": [(g, _game_name(g)) for g in game_ids()],
        },
    )


def rating_chart(points: Sequence[HistoryPoint], width: int = 480, height: int = 160) -> str:
    """An SVG line chart of the ratings after each rated game (the first point: before it)."""
    if not points:
        return ""
    values = [points[0].rating_before, *(p.rating_after for p in points)]
    low, high = min(values), max(values)
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    pad = 28
    step = (width - 2 * pad) / max(1, len(values) - 1)

    def y(value: float) -> float:
        return height - pad - (value - low) / (high - low) * (height - 2 * pad)

    coordinates = " ".join(f"{pad + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    titles = [f"start: {round(values[0])}", *(_point_title(p) for p in points)]
    dots = "".join(
        f'<circle cx="{pad + i * step:.1f}" cy="{y(v):.1f}" r="3">'
        f"<title>{escape(titles[i])}</title></circle>"
        for i, v in enumerate(values)
    )
    return (
        f'<svg class="rating-chart" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="rating after each rated game, from '
        f'{round(values[0])} to {round(values[-1])}">'
        f'<text x="2" y="{y(high) + 4:.1f}" font-size="11">{round(high)}</text>'
        f'<text x="2" y="{y(low) + 4:.1f}" font-size="11">{round(low)}</text>'
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{coordinates}"/>'
        f"{dots}</svg>"
    )


def _point_title(point: HistoryPoint) -> str:
    outcome = {1.0: "won", 0.5: "drew", 0.0: "lost"}.get(point.score, "played")
    against = f" against {point.opponent}" if point.opponent else ""
    return f"{outcome}{against}: {round(point.rating_before)} → {round(point.rating_after)}"
