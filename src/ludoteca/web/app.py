"""The web application: `create_app` wires the store, the service, the pages and the API.

Run it with ``ludoteca serve``, or with any ASGI server::

    uvicorn --factory 'ludoteca.web.app:create_default_app'
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

import ludoteca
from ludoteca.core.errors import LudotecaError
from ludoteca.web import api, pages
from ludoteca.web.errors import http_error
from ludoteca.web.service import GameService
from ludoteca.web.storage import GameStore, default_db_path

DESCRIPTION = """Play Salta, Pente Grammai, Salt 'n' Pepper, Splinter and Steppin' Stones.

Moves and positions use each game's notation (see the rules pages). Every error answers
`{"error": "..."}`: 400 a malformed request or move, 403 a bad seat token, 404 an unknown game,
409 a move that is not possible now, 501 a feature this installation lacks. Live updates of a
game arrive on the WebSocket `/ws/games/{id}`.
"""


def create_app(
    db_path: str | os.PathLike[str] | None = None, *, seed: int | None = None
) -> FastAPI:
    """The Ludoteca web app, keeping its games in the SQLite file ``db_path``.

    Args:
        db_path: The games database (default: `ludoteca.web.storage.default_db_path`).
        seed: Seed of the server's dice and computer players (default: unpredictable).

    Raises:
        StorageError: The database cannot be opened.
    """
    store = GameStore(db_path if db_path is not None else default_db_path())
    service = GameService(store, seed=seed)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await service.close()
        store.close()

    app = FastAPI(
        title="Ludoteca",
        version=ludoteca.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.db_path = store.path
    app.include_router(api.router)
    app.include_router(api.websocket_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).with_name("static")), name="static")
    app.add_exception_handler(LudotecaError, _ludoteca_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_exception)
    app.add_exception_handler(Exception, _unexpected_error)
    return app


def create_default_app() -> FastAPI:
    """The app on the default database (for ``uvicorn --factory``)."""
    return create_app()


def _answer(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api") or "application/json" in request.headers.get(
        "accept", ""
    ):
        return JSONResponse({"error": message}, status_code=status)
    return pages.error_page(request, status, message)


async def _ludoteca_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, LudotecaError)
    web_error = http_error(error)
    return _answer(request, web_error.status, str(web_error))


async def _validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    return _answer(request, 400, validation_message(error.errors()))


def validation_message(errors: Sequence[Any]) -> str:
    """FastAPI's validation errors as one readable sentence."""
    parts = []
    for item in errors:
        location = [str(p) for p in item.get("loc", ()) if p not in ("body", "query", "path")]
        kind = item.get("type", "")
        if kind == "json_invalid":
            return "the request body is not valid JSON"
        if kind == "model_attributes_type" or (kind.endswith("_type") and not location):
            return "the request body must be a JSON object"
        where = ".".join(location)
        message = str(item.get("msg", "is invalid"))
        if kind == "missing":
            message = "is required"
        elif kind == "extra_forbidden":
            message = "is not a field of this request"
        parts.append(f"{where} {message}" if where else message)
    return "bad request: " + "; ".join(parts) if parts else "bad request"


async def _http_exception(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = str(error.detail)
    if error.status_code == 404:
        message = f"there is no page {request.url.path!r}"
    elif error.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path}"
    return _answer(request, error.status_code, message)


async def _unexpected_error(request: Request, error: Exception) -> Response:
    return _answer(request, 500, "internal error: the server could not answer this request")
