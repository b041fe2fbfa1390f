"""Puzzles in the browser: ``/puzzles``, ``/puzzles/<game>`` and their JSON API, with ratings.

A game ships its puzzle set in its own package (``GameInfo.puzzles``, see
`ludoteca.analysis.puzzles`); only those games have puzzles here.

- ``GET /api/puzzles/<game>/next``: the puzzle for this browser's player: among the puzzles it
  has not answered yet (then those it has not solved), the one whose rating is closest to the
  player's puzzle rating (ties: the lower number). Its position text, side to move, the task
  and the board; the player's rating. ``"puzzle": null`` once every puzzle is solved.
- ``POST /api/puzzles/<id>/answer`` ``{"moves": ["W3-B3"]}``: whether the move is the
  solution (a whole-turn puzzle takes every move of the turn, ``end`` included, and is right
  when they leave the position its solution leaves), the solution, and the explanation: the
  winning chance of the move played against the best move's, exact (from the solved table)
  or estimated (the figures the set records, with their intervals, worded as estimates), and
  the engine's line (after the solution, each roll's best reply; for an estimated puzzle the
  reply found when it was made).
  The player's first answer to a puzzle is rated: both Glicko-2 ratings move
  (`ludoteca.web.puzzle_store`); later answers are not.
- ``GET /api/puzzles/<game>?page=N``: the set, `PER_PAGE` a page: position, solution, margin
  and the puzzle's current rating.

The player is the browser's session (the signed cookie the site already uses for names and
seats); ``next`` and ``answer`` start one when the browser has none. An unknown game, a game
without puzzles and an unknown puzzle id are 404 with the games that have puzzles; a
malformed body or an unparsable move 400; an illegal move 409 with the engine's reason.
"""

from __future__ import annotations

import asyncio
import functools
import math
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import Field

from ludoteca.analysis.glicko2 import Rating
from ludoteca.analysis.puzzle_turns import play_moves, play_turn, step_over
from ludoteca.analysis.puzzles import MARGIN, Puzzle, engine_line, judge, load, turn_played
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.registry import game_class, game_ids, make
from ludoteca.web.api_models import MAX_MOVE_TEXT
from ludoteca.web.boards import board_of
from ludoteca.web.catalogue import entry
from ludoteca.web.errors import BadRequestError, NotFoundError, http_error
from ludoteca.web.guards import session_of, session_or_new
from ludoteca.web.pages import TEMPLATES, error_page
from ludoteca.web.puzzle_store import Answered, PuzzleStore, Rated
from ludoteca.web.service import GameService

#: Puzzles on one page of the list.
PER_PAGE = 20
#: The most moves an answer may carry before it is refused unread (a puzzle asks for one move
#: or one whole turn, and a Steppin' Stones turn spends at most 24 phase-2 steps, then ``end``).
MAX_MOVES = 40

router = APIRouter()
pages = APIRouter(include_in_schema=False)


def games_with_puzzles() -> list[str]:
    """The ids of the registered games that ship a puzzle set."""
    return [game_id for game_id in game_ids() if game_class(game_id).info.puzzles is not None]


@functools.cache
def puzzle_set(game_id: str) -> tuple[Game, tuple[Puzzle, ...]]:
    """The game (default options) and its shipped puzzles, read and checked once."""
    game = make(game_id)
    path = game.info.puzzles
    assert path is not None
    return game, tuple(load(game, Path(path)))


def _with_puzzles() -> str:
    ids = games_with_puzzles()
    return f"games with puzzles: {', '.join(ids)}" if ids else "no game has puzzles yet"


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _store(request: Request) -> PuzzleStore:
    return PuzzleStore(_service(request).store)


async def _set(request: Request, game_id: str) -> tuple[Game, tuple[Puzzle, ...]]:
    """The game's puzzles; 404 for an unknown game or one without puzzles."""
    try:
        cls = game_class(game_id)
    except LudotecaError as error:
        raise NotFoundError(f"{error}; {_with_puzzles()}") from None
    if cls.info.puzzles is None:
        raise NotFoundError(f"{cls.name} has no puzzles yet; {_with_puzzles()}")
    _service(request).readiness.check(cls.id)
    return await asyncio.to_thread(puzzle_set, cls.id)


async def _find(request: Request, puzzle_id: str) -> tuple[Game, int, Puzzle]:
    """The puzzle with this id and its number (from 1); 404 with the id's form otherwise."""
    game_id = puzzle_id.rpartition("-")[0]
    if game_id in games_with_puzzles():
        game, puzzles = await _set(request, game_id)
        for index, puzzle in enumerate(puzzles, start=1):
            if puzzle.id == puzzle_id:
                return game, index, puzzle
    examples = "; ".join(
        f"{game_id}-1 to {game_id}-{len(puzzle_set(game_id)[1])}"
        for game_id in games_with_puzzles()
    )
    raise NotFoundError(f"no puzzle has the id {puzzle_id!r}; puzzle ids: {examples}")


def _task(game: Game, puzzle: Puzzle) -> str:
    if puzzle.turn:
        return (
            f"{puzzle.to_move} to play the roll: find the clearly best whole turn, every move "
            "up to the end of the step (end included). By the expert's playouts, the position "
            f"it leaves wins at least {puzzle.margin * 100:.0f} points more often than any "
            "other turn's."
        )
    if puzzle.estimate is not None:
        return (
            f"{puzzle.to_move} to move: find the clearly best move. By a deep search's "
            f"estimate, its winning chance is at least {puzzle.margin * 100:.0f} points above "
            "every other move's."
        )
    return (
        f"{puzzle.to_move} to move: find the clearly best move. Its winning chance, with "
        f"best play afterwards, is at least {MARGIN * 100:.0f} points above every other move's."
    )


def _rating_of(ratings: dict[str, Rated], puzzle: Puzzle) -> Rated:
    return ratings.get(puzzle.id) or Rated(Rating())


def _public_puzzle(
    game: Game, number: int, puzzles: tuple[Puzzle, ...], puzzle: Puzzle, rated: Rated
) -> dict[str, Any]:
    state = game.parse_state(puzzle.position)
    return {
        "id": puzzle.id,
        "game": game.id,
        "number": number,
        "of": len(puzzles),
        "position": puzzle.position,
        "to_move": puzzle.to_move,
        "task": _task(game, puzzle),
        "turn": puzzle.turn,
        "rating": rated.public(),
        "board": board_of(state).to_dict(),
    }


def choose(
    puzzles: tuple[Puzzle, ...],
    ratings: dict[str, Rated],
    attempts: dict[str, bool],
    player: Rating,
) -> int | None:
    """The index of the next puzzle for a player, or ``None`` when every one is solved.

    The puzzles never answered come first, then those answered but never solved; among them
    the one whose rating is closest to the player's, the lowest number on a tie.
    """
    fresh = [i for i, p in enumerate(puzzles) if p.id not in attempts]
    pool = fresh or [i for i, p in enumerate(puzzles) if not attempts.get(p.id, False)]
    if not pool:
        return None
    return min(
        pool, key=lambda i: (abs(_rating_of(ratings, puzzles[i]).rating.rating - player.rating), i)
    )


@router.get("/api/puzzles/{game_id}/next", tags=["puzzles"])
async def next_puzzle(request: Request, response: Response, game_id: str) -> dict[str, Any]:
    """The next puzzle for this browser's player (``puzzle`` is null once all are solved)."""
    game, puzzles = await _set(request, game_id)
    session = session_or_new(request, response)
    service, store = _service(request), _store(request)
    player = await service.read(store.player, session, game.id)
    ratings = await service.read(store.puzzles, game.id)
    attempts = await service.read(store.attempts, session, game.id)
    index = choose(puzzles, ratings, attempts, player.rating)
    solved = sum(attempts.values())
    answer: dict[str, Any] = {
        "game": game.id,
        "player": player.public(),
        "solved": solved,
        "answered": len(attempts),
        "total": len(puzzles),
    }
    if index is None:
        return answer | {
            "puzzle": None,
            "message": f"You have solved all {len(puzzles)} {game.name} puzzles.",
        }
    puzzle = puzzles[index]
    public = await asyncio.to_thread(
        _public_puzzle, game, index + 1, puzzles, puzzle, _rating_of(ratings, puzzle)
    )
    return answer | {"puzzle": public, "message": ""}


@router.post("/api/puzzles/{puzzle_id}/answer", tags=["puzzles"])
async def answer_puzzle(
    request: Request,
    response: Response,
    puzzle_id: str,
    moves: Annotated[
        list[Annotated[str, Field(max_length=MAX_MOVE_TEXT)]],
        Body(embed=True, max_length=MAX_MOVES),
    ],
) -> dict[str, Any]:
    """Check one move against the puzzle; rate the player's first answer to it."""
    game, number, puzzle = await _find(request, puzzle_id)
    if puzzle.turn:
        if not moves:
            raise BadRequestError(
                "a whole-turn puzzle is answered with the moves of the turn, in order: "
                '{"moves": ["<first move>", ..., "end"]}; got none'
            )
    elif len(moves) != 1:
        raise BadRequestError(
            'a puzzle is answered with one move: {"moves": ["<your move>"]}; '
            f"got {len(moves)} moves"
        )
    try:
        verdict = await asyncio.to_thread(_verdict, game, puzzle, moves)
    except LudotecaError as error:
        raise http_error(error) from None
    session = session_or_new(request, response)
    service, store = _service(request), _store(request)
    answered: Answered = await service.write(
        store.answer, session, game.id, puzzle.id, verdict["correct"]
    )
    return verdict | {
        "puzzle": puzzle.id,
        "number": number,
        "rated": answered.rated,
        "tries": answered.tries,
        "player": answered.player.public(),
        "player_change": round(
            answered.player.rating.rating - answered.player_before.rating.rating, 1
        ),
        "puzzle_rating": answered.puzzle.public(),
    }


def _verdict(game: Game, puzzle: Puzzle, moves: list[str]) -> dict[str, Any]:
    """Judge the move (or whole turn); explain it with the chances and the engine's line."""
    state = game.parse_state(puzzle.position)
    if puzzle.turn:
        right, why = judge(game, puzzle, moves)
        played = turn_played(game, puzzle, moves)
        after = play_turn(state, puzzle.solution_moves)[1]
    else:
        right, why = judge(game, puzzle, moves[0])
        played = state.parse_move(moves[0]).text
        after = state.apply(puzzle.solution)
    line = engine_line(game, puzzle)
    return {
        "correct": right,
        "move": played,
        "solution": puzzle.solution,
        "solution_moves": puzzle.solution_moves,
        "explanation": {
            "why": why,
            "played": {"move": played, "chance": round(puzzle.chances[played], 6)},
            "best": {"move": puzzle.solution, "chance": round(puzzle.chances[puzzle.solution], 6)},
            "chances": {m: round(c, 6) for m, c in puzzle.chances.items()},
            "exact": puzzle.estimate is None,
            "estimate": puzzle.estimate,
            "intervals": None if puzzle.intervals is None else dict(puzzle.intervals),
            "line": [
                {
                    "roll": reply.roll,
                    "probability": reply.probability,
                    "player": reply.player,
                    "move": reply.move,
                    "chance": None if math.isnan(reply.chance) else round(reply.chance, 6),
                }
                for reply in line
            ],
            "line_text": _line_text(puzzle, line),
        },
        "board": board_of(after, with_clicks=False).to_dict(),
    }


def _line_text(puzzle: Puzzle, line: list[Any]) -> str:
    """The engine's line in words."""
    if puzzle.estimate is not None:
        if not line:
            return f"The engine's line: {puzzle.solution}."
        reply = line[0]
        after = (
            ""
            if math.isnan(reply.chance)
            else f" ({reply.player} then wins about {reply.chance:.0%}, by estimate)"
        )
        return (
            f"The engine's line: {puzzle.solution}, then {reply.player}'s expected reply "
            f"{reply.move}{after}."
        )
    if not line:
        return f"The engine's line: {puzzle.solution} ends the game."
    who = line[0].player
    if line[0].roll is None:
        reply = line[0]
        return (
            f"The engine's line: {puzzle.solution}, then {who}'s best reply {reply.move} "
            f"({who} then wins {reply.chance:.1%})."
        )
    replies = ", ".join(f"{r.roll} {r.move} ({r.chance:.1%})" for r in line)
    return (
        f"The engine's line: {puzzle.solution}; then {who} rolls, and for each roll {who}'s "
        f"best reply and winning chance: {replies}."
    )


@router.post("/api/puzzles/{puzzle_id}/turn", tags=["puzzles"])
async def turn_so_far(
    request: Request,
    puzzle_id: str,
    moves: Annotated[
        list[Annotated[str, Field(max_length=MAX_MOVE_TEXT)]],
        Body(embed=True, max_length=MAX_MOVES),
    ],
) -> dict[str, Any]:
    """A whole-turn puzzle's turn so far: the moves checked, the board, whether it is whole.

    Nothing is rated: the browser builds the turn move by move here, then answers with it.
    """
    game, _, puzzle = await _find(request, puzzle_id)
    if not puzzle.turn:
        raise BadRequestError(f"puzzle {puzzle.id} asks for one move, not a whole turn")
    try:
        return await asyncio.to_thread(_turn_so_far, game, puzzle, moves)
    except LudotecaError as error:
        raise http_error(error) from None


def _turn_so_far(game: Game, puzzle: Puzzle, moves: list[str]) -> dict[str, Any]:
    texts, state = play_moves(game.parse_state(puzzle.position), moves)
    return {"moves": texts, "complete": step_over(state), "board": board_of(state).to_dict()}


@router.get("/api/puzzles/{game_id}", tags=["puzzles"])
async def list_puzzles(request: Request, game_id: str, page: int = 1) -> dict[str, Any]:
    """A game's puzzles, `PER_PAGE` a page: position, solution, margin and rating."""
    game, puzzles = await _set(request, game_id)
    pages_count = max(1, math.ceil(len(puzzles) / PER_PAGE))
    if not 1 <= page <= pages_count:
        raise NotFoundError(f"there is no page {page}: pages run from 1 to {pages_count}")
    ratings = await _service(request).read(_store(request).puzzles, game.id)
    first = (page - 1) * PER_PAGE
    return {
        "game": game.id,
        "page": page,
        "pages": pages_count,
        "per_page": PER_PAGE,
        "total": len(puzzles),
        "puzzles": [
            {
                "id": puzzle.id,
                "number": number,
                "position": puzzle.position,
                "to_move": puzzle.to_move,
                "solution": puzzle.solution,
                "margin": puzzle.margin,
                "rating": _rating_of(ratings, puzzle).public(),
            }
            for number, puzzle in enumerate(puzzles[first : first + PER_PAGE], start=first + 1)
        ],
    }


@pages.get("/puzzles", response_class=HTMLResponse, name="puzzles_index")
async def puzzles_index(request: Request) -> Response:
    """The games that have puzzles."""
    games = [
        {"id": game_id, "name": game_class(game_id).name, "count": len(puzzle_set(game_id)[1])}
        for game_id in games_with_puzzles()
    ]
    return TEMPLATES.TemplateResponse(request, "puzzles_index.html", {"games": games})


@pages.get("/puzzles/{game_id}", response_class=HTMLResponse, name="puzzles_page")
async def puzzles_page(request: Request, game_id: str) -> Response:
    """One game's puzzles, one at a time, with the player's rating."""
    try:
        game, puzzles = await _set(request, game_id)
    except LudotecaError as error:
        web_error = http_error(error)
        return error_page(request, web_error.status, str(web_error))
    player = await _service(request).read(_store(request).player, session_of(request), game.id)
    return TEMPLATES.TemplateResponse(
        request,
        "puzzles.html",
        {"entry": entry(game.id), "count": len(puzzles), "player": player.public()},
    )
