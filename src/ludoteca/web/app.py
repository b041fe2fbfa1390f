"""The web application: `create_app` wires the store, the service, the pages and the API.

Run it with ``ludoteca serve``, or with any ASGI server::

    uvicorn --factory 'ludoteca.web.app:create_default_app'
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import os
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match

import ludoteca
from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import PluginWarning, game_ids, load_plugins
from ludoteca.web import accounts, analysis, api, lessons, pages, passkeys, puzzles, ratings
from ludoteca.web.catalogue import styles_css
from ludoteca.web.errors import RetryLaterError, http_error
from ludoteca.web.fastpath import MAX_MESSAGE, MoveFastPath, error_json
from ludoteca.web.guards import (
    BodyLimit,
    RateLimiter,
    SecurityHeaders,
    Sessions,
    install_log_scrubbing,
)
from ludoteca.web.readiness import Readiness
from ludoteca.web.reviews import DEFAULT_STALE_SECONDS
from ludoteca.web.searches import DEFAULT_LANES, DEFAULT_TIME_LIMIT, LaneSize, SearchPool
from ludoteca.web.service import DEFAULT_CACHE_SIZE, GameService
from ludoteca.web.storage import GameStore, default_db_path

log = logging.getLogger(__name__)

DESCRIPTION = """Play Salta, Pente Grammai, Salt 'n' Pepper, Splinter and Steppin' Stones.

Moves and positions use each game's notation (see the rules pages). Every error answers
`{"error": "..."}`: 400 a malformed request or move, 403 a bad seat token, 404 an unknown game,
409 a move that is not possible now, 413 a request body over 64 KiB, 429 too many requests
(see `Retry-After`), 503 the server cannot take it now (the database or the computer players are
busy, or the game is still being prepared after the server started; see `Retry-After`). Live
updates of a game arrive on the WebSocket `/ws/games/{id}`.
"""

#: Seconds a thread may hold the interpreter lock while another waits for it (Python: 0.005).
SWITCH_INTERVAL = 0.0005

#: Environment variables read by `create_app_from_environment` (set by ``ludoteca serve``).
ENV_DB = "LUDOTECA_DB"
ENV_GAME_RATE = "LUDOTECA_GAME_RATE"
ENV_HINT_RATE = "LUDOTECA_HINT_RATE"
ENV_LOGIN_RATE = "LUDOTECA_LOGIN_RATE"
ENV_PREPARATION = "LUDOTECA_PREPARATION_DIR"
ENV_PUBLIC_URL = "LUDOTECA_PUBLIC_URL"


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """How one server process runs.

    Attributes:
        game_rate: New games a client may create per minute (0: no limit); also how many
            display names it may set.
        hint_rate: Hints a client may ask for per minute (0: no limit).
        login_rate: Login attempts per minute from one address, and for one account name
            (0: no limit).
        search_time_limit: Hard limit on one computer search, in seconds.
        lanes: The search pool's lanes (`ludoteca.web.searches`).
        cache_size: Games kept in memory.
        warm_up: Prepare every game's kernels (`ludoteca.web.readiness`): compile them in
            other processes, then load them here. ``False``: every game counts as ready and
            its kernels compile on first use (for tests that need no game's kernels early).
        serve_while_preparing: Accept requests while the games are being prepared (the lobby
            says which are not ready yet); ``False``: start-up waits for every game.
        preparation_dir: Where another process (``ludoteca serve``) reports each game's
            preparation (`ludoteca.preparation.read_status`); ``None``: this app prepares the
            games it has not loaded yet itself.
        start_workers: Start the search workers at once (else on first use): in the
            background when serving while preparing, else before accepting requests.
        tune_interpreter: Set the process's switch interval and garbage collector for latency
            (process-wide, so only for a process that is the server).
        busy_seconds: How long an SQLite write waits for another process's transaction.
        review_budget: The search budget of each position of a game review (``None``: the
            review's default; `ludoteca.analysis.review`).
        review_stale_seconds: How long a running review's heartbeat may be silent before the
            review counts as abandoned and may be started again.
        public_url: The site's public address (``https://games.example.org``): invitation
            links are built on it, WebSockets from its pages are accepted and cookies are
            ``Secure`` if it is HTTPS. ``None``: links follow each request's ``Host``.
    """

    game_rate: float = 30.0
    hint_rate: float = 30.0
    login_rate: float = 10.0
    search_time_limit: float = DEFAULT_TIME_LIMIT
    lanes: dict[str, LaneSize] = field(default_factory=lambda: dict(DEFAULT_LANES))
    cache_size: int = DEFAULT_CACHE_SIZE
    warm_up: bool = True
    serve_while_preparing: bool = False
    preparation_dir: Path | None = None
    start_workers: bool = False
    busy_seconds: float = 5.0
    tune_interpreter: bool = False
    review_budget: Any = None
    review_stale_seconds: float = DEFAULT_STALE_SECONDS
    public_url: str | None = None


def create_app(
    db: str | os.PathLike[str] | None = None,
    *,
    seed: int | None = None,
    settings: ServerSettings | None = None,
) -> FastAPI:
    """The Ludoteca web app, keeping its games in ``db``.

    Args:
        db: An SQLite file path or a ``postgresql://`` URL (default:
            `ludoteca.web.storage.default_db_path`).
        seed: Seed of the server's dice and computer players (default: unpredictable).
        settings: Limits and start-up behaviour (default: `ServerSettings()`).

    Raises:
        StorageError: The database cannot be opened.
    """
    settings = settings or ServerSettings()
    store = GameStore(
        db if db is not None else default_db_path(), busy_seconds=settings.busy_seconds
    )
    _load_plugins()
    readiness = Readiness(game_ids() if settings.warm_up else ())
    # The workers load each game once it is ready (with no warm-up, every game as they start).
    pool = SearchPool(
        settings.lanes,
        time_limit=settings.search_time_limit,
        games=() if settings.warm_up else None,
    )
    service = GameService(
        store,
        seed=seed,
        pool=pool,
        readiness=readiness,
        cache_size=settings.cache_size,
        review_budget=settings.review_budget,
        review_stale_seconds=settings.review_stale_seconds,
    )
    install_log_scrubbing()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.tune_interpreter:
            _tune_interpreter()
        app.state.sessions = Sessions(await service.session_secret())
        await service.start()
        readiness.start(settings.preparation_dir, on_ready=_when_ready(service))
        if not settings.serve_while_preparing:
            await readiness.settled()
        background = []
        if settings.start_workers and settings.serve_while_preparing:
            background.append(asyncio.create_task(_start_workers(pool)))
        elif settings.start_workers:
            await _start_workers(pool)
        if settings.tune_interpreter:
            background.append(asyncio.create_task(_freeze_when_ready(readiness)))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
            await readiness.close()
            await service.close()
            store.close()

    app = FastAPI(
        title="Ludoteca",
        version=ludoteca.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        **_without_telemetry(),
    )
    app.state.service = service
    app.state.db_path = store.shown
    app.state.public_url = settings.public_url.rstrip("/") if settings.public_url else None
    app.state.game_limiter = RateLimiter(settings.game_rate, burst=10)
    app.state.hint_limiter = RateLimiter(settings.hint_rate, burst=5)
    # Each new browser's name is a database row: as many a minute as new games, in a bucket
    # of their own.
    app.state.name_limiter = RateLimiter(settings.game_rate, burst=10)
    app.state.login_limiter = RateLimiter(settings.login_rate, burst=10)
    app.state.account_login_limiter = RateLimiter(settings.login_rate, burst=10)
    # Every page's navigation names the account its browser is logged in to.
    with_account = [Depends(accounts.nav_account)]
    app.include_router(api.router)
    app.include_router(api.websocket_router)
    app.include_router(pages.router, dependencies=with_account)
    app.include_router(lessons.router)
    app.include_router(lessons.pages, dependencies=with_account)
    app.include_router(puzzles.router)
    app.include_router(puzzles.pages, dependencies=with_account)
    app.include_router(analysis.router)
    app.include_router(analysis.pages, dependencies=with_account)
    app.include_router(accounts.router)
    app.include_router(passkeys.router)
    app.include_router(accounts.pages, dependencies=with_account)
    app.include_router(ratings.router)
    app.include_router(ratings.pages, dependencies=with_account)
    app.add_api_route(
        "/styles/games.css", _game_styles, name="game_styles", include_in_schema=False
    )
    app.mount("/static", StaticFiles(directory=Path(__file__).with_name("static")), name="static")
    app.add_exception_handler(LudotecaError, _ludoteca_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_exception)
    app.add_exception_handler(Exception, _unexpected_error)
    app.add_middleware(MoveFastPath)  # innermost: after the body limit, with the headers
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)
    return app


def _load_plugins() -> None:
    """Register the plug-in games now, logging any left out (the server runs without them)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PluginWarning)
        for problem in load_plugins():
            log.warning("%s", problem)


async def _game_styles() -> Response:
    """The games' own piece and region colours, from their declarations."""
    return Response(styles_css(), media_type="text/css", headers={"Cache-Control": "no-cache"})


def _without_telemetry() -> dict[str, Any]:
    """FastAPI's OpenTelemetry hooks turned off, where this FastAPI has them.

    Ludoteca exports no telemetry, and the hooks' per-request check of the environment cost about
    a tenth of the server's time per move (measured with py-spy under ``ludoteca loadtest``).
    """
    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


def _tune_interpreter() -> None:
    """Settings of the whole process for a server's latency (``ludoteca serve`` asks for them).

    - The switch interval: the database threads give up the interpreter lock while SQLite works
      and must win it back from the event loop; at Python's 5 ms each write waited for it
      several times, which capped a server near 250 moves/s with its processor half idle.
    - The garbage collector: what exists once the server is ready (modules, compiled kernels,
      caches) lives as long as the process, so it is frozen and never scanned again, and the
      thresholds are raised. Full passes over it took up to 290 ms each under ``ludoteca
      loadtest`` (200 games, 100 watchers), which was the whole tail of the move latency.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _when_ready(service: GameService) -> Callable[[str], Awaitable[None]]:
    """What a server does once a game is ready: its workers load it, its clocks are armed."""

    async def ready(game_id: str) -> None:
        service.pool.load(game_id)
        await service.sweep_clocks(game_id)  # its running games were not loaded until now

    return ready


async def _start_workers(pool: SearchPool) -> None:
    """Start the search workers now, in the background; one that fails starts on first use."""
    try:
        await pool.start()
    except LudotecaError as error:
        log.warning("%s; it will be started again when needed", error)


async def _freeze_when_ready(readiness: Readiness) -> None:
    """Once every game's kernels are loaded, leave them out of the collector's scans too."""
    await readiness.settled()
    gc.freeze()


#: Young objects before a collection, and collections before an older generation's (Python:
#: 700, 10, 10). A move makes some thousands of short-lived objects.
GC_THRESHOLDS = (10_000, 20, 100)


def create_default_app() -> FastAPI:
    """The app on the default database (for ``uvicorn --factory``)."""
    return create_app()


def create_app_from_environment() -> FastAPI:
    """The app as ``ludoteca serve`` configures it for each worker process (from the env)."""
    preparation = os.environ.get(ENV_PREPARATION)
    settings = ServerSettings(
        game_rate=float(os.environ.get(ENV_GAME_RATE, "30")),
        hint_rate=float(os.environ.get(ENV_HINT_RATE, "30")),
        login_rate=float(os.environ.get(ENV_LOGIN_RATE, "10")),
        serve_while_preparing=True,
        preparation_dir=Path(preparation) if preparation else None,
        start_workers=True,
        public_url=os.environ.get(ENV_PUBLIC_URL) or None,
        tune_interpreter=True,
    )
    return create_app(os.environ.get(ENV_DB) or None, settings=settings)


def _answer(
    request: Request, status: int, message: str, headers: dict[str, str] | None = None
) -> Response:
    if request.url.path.startswith("/api") or "application/json" in request.headers.get(
        "accept", ""
    ):
        return Response(
            error_json(message), status_code=status, headers=headers, media_type="application/json"
        )
    if len(message) > MAX_MESSAGE:  # never echo a huge input back
        message = message[:MAX_MESSAGE] + "…"
    page = pages.error_page(request, status, message)
    page.headers.update(headers or {})
    return page


async def _ludoteca_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, LudotecaError)
    web_error = http_error(error)
    headers = None
    if isinstance(web_error, RetryLaterError):
        headers = {"Retry-After": str(web_error.retry_after)}
    return _answer(request, web_error.status, str(web_error), headers)


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


#: What FastAPI says of a body it cannot parse (bad JSON, or JSON nested too deeply).
BODY_PARSE_ERROR = "There was an error parsing the body"


async def _http_exception(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = str(error.detail)
    if error.status_code == 400 and message == BODY_PARSE_ERROR:
        message = "the request body is not valid JSON, or is nested too deeply to read"
    if error.status_code == 404:
        message = f"there is no page {request.url.path!r}"
    headers = dict(error.headers or {})
    if error.status_code == 405:
        allowed = _allowed_methods(request)
        headers["Allow"] = ", ".join(allowed)
        message = f"{request.method} is not allowed on {request.url.path}; allowed: " + (
            ", ".join(allowed)
        )
    return _answer(request, error.status_code, message, headers)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route answers on this path (the router names only the first route's)."""
    allowed: set[str] = set()
    for route in _flat_routes(request.app.router.routes):
        match, _ = route.matches(request.scope)  # PARTIAL: the path matches, the method not
        methods = getattr(route, "methods", None)
        if match != Match.NONE and methods:
            allowed.update(methods)
    return sorted(allowed)


def _flat_routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route of every feature's router (FastAPI keeps an included router as one entry).

    The routers are included without a prefix: each route's path is its whole path.
    """
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is None:
            yield route
        else:
            yield from _flat_routes(included.routes)


async def _unexpected_error(request: Request, error: Exception) -> Response:
    log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    return _answer(request, 500, "internal error: the server could not answer this request")
