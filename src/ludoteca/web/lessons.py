"""Lessons in the browser: ``/learn``, ``/learn/<game>`` and their JSON API.

- ``GET /api/lessons/<game>``: the game's course (`ludoteca.core.lessons.Course.public`);
  404 with the reason for an unknown game or a game without a course.
- ``POST /api/lessons/<game>/<step>`` ``{"moves": [...]}``: the learner's moves in the step so
  far, checked by the rules engine one after the other (`ludoteca.core.lessons.Lesson`); the
  answer gives the last move's verdict (``right``, ``done``, ``refused``, ``not-asked``), the
  message (the engine's refusal and the hint), the scripted replies, and the board reached
  (drawn as the board page draws it). No moves: the step's starting board.

Progress is the browser's own (``localStorage``, kept by the page script): the server keeps
nothing, so the lessons need no account and no database.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import HTMLResponse, Response

from ludoteca.core.errors import LudotecaError
from ludoteca.core.lessons import Course, Lesson, course, has_course
from ludoteca.core.registry import game_class, game_ids
from ludoteca.web.boards import board_of
from ludoteca.web.catalogue import entry
from ludoteca.web.errors import BadRequestError, NotFoundError, http_error
from ludoteca.web.pages import TEMPLATES, error_page
from ludoteca.web.service import GameService

#: The most moves a step's answer may carry (the longest course sequence is far shorter).
MAX_MOVES = 50

router = APIRouter()
pages = APIRouter(include_in_schema=False)


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def _course(request: Request, game_id: str) -> Course:
    """The game's course, read in a thread (its first reading plays every step's moves)."""
    try:
        cls = game_class(game_id)
        if not has_course(cls.id):
            raise NotFoundError(f"{cls.name} has no course of lessons yet")
    except LudotecaError as error:
        raise NotFoundError(str(error)) from None
    _service(request).readiness.check(cls.id)
    return await asyncio.to_thread(course, cls.id)


@router.get("/api/lessons/{game_id}", tags=["lessons"])
async def lessons(request: Request, game_id: str) -> dict[str, Any]:
    """A game's course of lessons: every step with its rule section, text, position and task."""
    return (await _course(request, game_id)).public()


@router.post("/api/lessons/{game_id}/{step_id}", tags=["lessons"])
async def answer(
    request: Request,
    game_id: str,
    step_id: str,
    moves: Annotated[list[str], Body(embed=True, max_length=MAX_MOVES)],
) -> dict[str, Any]:
    """Check the learner's moves in one step; the verdict of the last and the board reached."""
    lessons = await _course(request, game_id)
    step = next((s for s in lessons.steps if s.id == step_id), None)
    if step is None:
        ids = ", ".join(s.id for s in lessons.steps)
        raise NotFoundError(f"the {game_id} course has no step {step_id!r}; steps: {ids}")
    return await asyncio.to_thread(_play, lessons.game_id, step, moves)


def _play(game_id: str, step: Any, moves: list[str]) -> dict[str, Any]:
    lesson = Lesson.of(game_id, step)
    verdict, message, replies = "start", "", []
    for number, move in enumerate(moves, start=1):
        if verdict in ("done", "refused", "not-asked"):
            raise BadRequestError(
                f"move {number - 1} of {len(moves)} already ended the step ({verdict}); "
                "send the moves made so far and the new one last"
            )
        result = lesson.answer(move)
        verdict, message, replies = result.verdict, result.message, list(result.replies)
    board = board_of(lesson.state, with_clicks=verdict not in ("done",)).to_dict()
    return {
        "step": step.id,
        "verdict": verdict,
        "message": message,
        "replies": replies,
        "made": list(lesson.made),
        "position": lesson.state.to_text(),
        "board": board,
    }


@pages.get("/learn", response_class=HTMLResponse, name="learn_index")
async def learn_index(request: Request) -> Response:
    """The courses: one per game that declares one."""
    courses = [
        {"id": game_id, "name": game_class(game_id).name}
        for game_id in game_ids()
        if has_course(game_id)
    ]
    return TEMPLATES.TemplateResponse(request, "learn_index.html", {"courses": courses})


@pages.get("/learn/{game_id}", response_class=HTMLResponse, name="learn_page")
async def learn_page(request: Request, game_id: str) -> Response:
    """One game's course, played step by step."""
    try:
        lessons = await _course(request, game_id)
    except LudotecaError as error:
        web_error = http_error(error)
        return error_page(request, web_error.status, str(web_error))
    return TEMPLATES.TemplateResponse(
        request,
        "learn.html",
        {"entry": entry(lessons.game_id), "course": lessons, "steps": lessons.steps},
    )
