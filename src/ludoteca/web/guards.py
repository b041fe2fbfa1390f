"""What keeps the server safe from careless and hostile clients.

- `BodyLimit`: a request body larger than `MAX_BODY_BYTES` is refused with 413 before it is read
  whole (the declared ``Content-Length`` and the bytes actually sent are both counted).
- `SecurityHeaders`: every HTTP answer says what a browser may do with it (a content security
  policy that allows this site's own scripts, styles and sockets only; no framing; no MIME
  sniffing; no referrer sent to other sites).
- `RateLimiter`: per-client token buckets (game creation, hints); a client over its limit gets
  429 with ``Retry-After``. Limits are per server process.
- `ScrubTokens`: a logging filter that hides seat tokens (``token=...``) in access logs.
- Browser sessions: one signed cookie per browser (`SESSION_COOKIE`), holding a random session
  id; which seats a session plays is kept in the database, so the cookie stays small whatever
  the number of games.
"""

from __future__ import annotations

import logging
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from itsdangerous import BadSignature, Signer
from starlette.datastructures import URLPath
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024
SESSION_COOKIE = "ludoteca_session"
SESSION_AGE_SECONDS = 60 * 60 * 24 * 365
#: The pages' policy: nothing but this site (inline SVG is markup, not style or script).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'"
)
#: FastAPI's interactive API docs load Swagger UI's script and style from a CDN.
DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: https://fastapi.tiangolo.com; "
    "style-src 'self' https://cdn.jsdelivr.net; "
    "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (JSON)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the body's size, then pass the request on (or answer 413)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        length = headers.get(b"content-length")
        if length is not None:
            # The server frames the body by this length, so checking it is enough.
            if not length.isdigit() or int(length) > self.limit:
                await self._refuse(send)
                return
            await self.app(scope, receive, send)
            return
        if b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        # A chunked body of unknown length: read it (up to the limit) before the app sees it.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replay_body(b"".join(chunks), receive), send)

    async def _refuse(self, send: Send) -> None:
        body = (
            b'{"error":"the request body is larger than '
            + str(self.limit // 1024).encode()
            + b' KiB; moves and options are short texts"}'
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives a body already read, then what the client sends next."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class SecurityHeaders:
    """Add the security headers to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        docs = path.startswith(DOCS_PATHS)
        policy = DOCS_CONTENT_SECURITY_POLICY if docs else CONTENT_SECURITY_POLICY
        extra = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
        ]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [
                    *message.get("headers", ()),
                    *(item for item in extra if item[0] not in present),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """Per-client token buckets: ``per_minute`` requests a minute, ``burst`` at once.

    A ``per_minute`` of 0 turns the limit off. At most `MAX_CLIENTS` clients are remembered
    (the least recently seen are forgotten, which only ever forgives). ``clock`` gives the
    seconds that refill the buckets (`time.monotonic`; tests set a clock of their own).
    """

    MAX_CLIENTS = 10_000

    def __init__(
        self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_minute = per_minute
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def check(self, client: str) -> float:
        """Take one request for ``client``: 0 if allowed, else the seconds until it would be."""
        if self.per_minute <= 0:
            return 0.0
        now = self.clock()
        rate = self.per_minute / 60.0
        bucket = self._buckets.pop(client, None) or _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * rate)
        bucket.stamp = now
        self._buckets[client] = bucket
        while len(self._buckets) > self.MAX_CLIENTS:
            self._buckets.popitem(last=False)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / rate


def retry_after_header(seconds: float) -> str:
    """Whole seconds for ``Retry-After`` (at least 1)."""
    return str(max(1, math.ceil(seconds)))


_TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']+")


def scrub_tokens(text: str) -> str:
    """``text`` with every ``token=...`` value replaced by ``***``."""
    return _TOKEN_IN_TEXT.sub(r"\1***", text)


class ScrubTokens(logging.Filter):
    """Hide seat tokens in log records (uvicorn's access log prints request paths)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Scrub the record's message and arguments; keep the record."""
        if record.args:
            record.args = tuple(
                scrub_tokens(arg) if isinstance(arg, str) else arg
                for arg in (record.args if isinstance(record.args, tuple) else (record.args,))
            )
        if isinstance(record.msg, str):
            record.msg = scrub_tokens(record.msg)
        return True


def install_log_scrubbing() -> None:
    """Scrub tokens from uvicorn's access and error logs (once per process)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, ScrubTokens) for f in logger.filters):
            logger.addFilter(ScrubTokens())


class Sessions:
    """Signed session ids for the session cookie."""

    def __init__(self, secret: str) -> None:
        self._signer = Signer(secret, salt="ludoteca-session")

    @staticmethod
    def new_id() -> str:
        """A fresh random session id."""
        return secrets.token_urlsafe(18)

    def sign(self, session: str) -> str:
        """The cookie value for ``session``."""
        return self._signer.sign(session).decode()

    def read(self, cookie: str | None) -> str | None:
        """The session id in a cookie value, or ``None`` if it is missing, forged or damaged."""
        if not cookie or len(cookie) > 200 or not cookie.isascii():
            return None
        try:
            return self._signer.unsign(cookie).decode()
        except BadSignature:
            return None


def set_session_cookie(
    connection: HTTPConnection, response: Response, sessions: Sessions, session: str
) -> None:
    """Give the browser its signed session cookie (HttpOnly, SameSite=Lax, a year).

    The cookie is ``Secure`` when the request came over HTTPS (directly, or through a proxy
    the server trusts to say so: uvicorn's ``forwarded_allow_ips``) or the site's public
    address is ``https://``.
    """
    response.set_cookie(
        SESSION_COOKIE,
        sessions.sign(session),
        max_age=SESSION_AGE_SECONDS,
        httponly=True,
        samesite="lax",
        path="/",
        secure=connection.url.scheme in ("https", "wss")
        or (public_url_of(connection) or "").startswith("https://"),
    )


def public_url_of(connection: HTTPConnection) -> str | None:
    """The site's configured public address (``https://games.example.org``), if any."""
    url = getattr(connection.app.state, "public_url", None)
    return url if isinstance(url, str) else None


def link(connection: HTTPConnection, route: str, **params: str) -> str:
    """The absolute address of a route, on the configured public address if there is one.

    Without one it is built from the request (its ``Host`` header), as for a server used on
    one machine.
    """
    url = URLPath(_route_path(connection, route, params)).make_absolute_url(connection.base_url)
    base = public_url_of(connection)
    return f"{base}{url.path}" if base else str(url)


def _route_path(connection: HTTPConnection, route: str, params: dict[str, str]) -> str:
    """The path of ``route`` with ``params`` (`Router.url_path_for`), its pattern found once.

    Looking a route up walks and prepares every route of the app (a good part of creating a
    game); the pattern is kept per app and the parameters put in, as the lookup does.
    """
    state = connection.app.state
    paths: dict[tuple[str, tuple[str, ...]], str | None] | None = getattr(state, "link_paths", None)
    if paths is None:
        paths = state.link_paths = {}
    router = connection.scope.get("router") or connection.app
    key = (route, tuple(sorted(params)))
    if key not in paths:
        marked = {name: f"\x00{name}\x00" for name in params}
        try:
            paths[key] = str(router.url_path_for(route, **marked))
        except (AssertionError, ValueError):  # a parameter that is no text: not kept
            paths[key] = None
    pattern = paths[key]
    if pattern is None or any("/" in value or not value for value in params.values()):
        return str(router.url_path_for(route, **params))
    for name, value in params.items():
        pattern = pattern.replace(f"\x00{name}\x00", value)
    return pattern


def origin_allowed(connection: HTTPConnection) -> bool:
    """Whether a request's ``Origin`` (if it sent one) is this site.

    This site is its public address, or the address the request itself was made to. Browsers
    always send an ``Origin`` on WebSockets; other clients may send none.
    """
    origin = connection.headers.get("origin")
    if origin is None:
        return True  # not a browser: nothing to protect it from
    host = connection.headers.get("host", "")
    secure = connection.url.scheme in ("https", "wss")
    own = {f"{'https' if secure else 'http'}://{host}".lower()}
    public = public_url_of(connection)
    if public:
        parts = urlsplit(public)
        own.add(f"{parts.scheme}://{parts.netloc}".lower())
    return origin.lower() in own


def session_of(connection: HTTPConnection) -> str | None:
    """The browser session of a request, or ``None`` (no cookie, or a forged one)."""
    sessions: Sessions = connection.app.state.sessions
    return sessions.read(connection.cookies.get(SESSION_COOKIE))


def session_or_new(connection: HTTPConnection, response: Response) -> str:
    """The browser session of a request; a new one (its cookie set on ``response``) if none."""
    session = session_of(connection)
    if session is None:
        sessions: Sessions = connection.app.state.sessions
        session = sessions.new_id()
        set_session_cookie(connection, response, sessions, session)
    return session
