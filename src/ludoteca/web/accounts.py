"""Player accounts: sign up, log in and out, change the password, delete.

Players' public profiles, game lists and ratings are `ludoteca.web.ratings`'.

Anonymous play is unchanged: a browser without an account plays with its session cookie
(`ludoteca.web.guards.Sessions`) as before. An account is a name (2 to 24 letters, digits,
``_`` or ``-``, unique whatever the case) and a password (8 to 128 characters, kept as an
argon2id hash, `ludoteca.web.passwords`). Signing up or logging in gives the browser a new
session id (a session id known before the login is worth nothing after it) and makes the seats
that browser played the account's; a browser logged in to an account plays the account's seats,
whichever browser took them (`ludoteca.web.account_store`).

Every change is refused (403) when the request's ``Origin`` or ``Referer`` names another site,
and login attempts are counted per address and per account name (429 with ``Retry-After``).
Passwords are never logged nor answered; a wrong name and a wrong password get the same 401.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict

from ludoteca.web.account_store import Account, AccountStore, NameTakenError, new_login
from ludoteca.web.errors import (
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    RateLimitedError,
    WebError,
)
from ludoteca.web.guards import (
    SESSION_COOKIE,
    RateLimiter,
    Sessions,
    public_url_of,
    session_of,
    set_session_cookie,
)
from ludoteca.web.passwords import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    hash_password,
    needs_rehash,
    password_matches,
    password_problem,
)
from ludoteca.web.service import GameService

MIN_NAME = 2
MAX_NAME = 24
NAME_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{{MIN_NAME},{MAX_NAME}}}")
#: One answer for a wrong name and a wrong password: nobody learns which names exist.
WRONG_LOGIN = "wrong name or password"
#: The longest name of a passkey (`ludoteca.web.passkeys`).
MAX_PASSKEY_NAME = 64

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).with_name("templates")))

router = APIRouter(prefix="/api", tags=["accounts"])
pages = APIRouter(include_in_schema=False)


class NotLoggedInError(WebError):
    """The request needs a browser logged in to an account."""

    status = 401


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Body):
    """A name and a password (sign up, log in)."""

    name: str
    password: str


class PasswordChange(_Body):
    """The password now and the new one."""

    old_password: str
    new_password: str


class PasswordConfirmation(_Body):
    """The account's password, to confirm a deletion."""

    password: str


# -- the API --------------------------------------------------------------------------------


@router.post("/accounts", status_code=201, summary="Create an account and log in")
async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account; this browser is logged in to it and its games become the account's.

    Names are 2 to 24 letters, digits, ``_`` or ``-``, unique whatever the case; passwords 8 to
    128 characters, not among the first ones guessed (`ludoteca.web.passwords`). 409 if the name
    is taken.
    """
    _same_site(request)
    _check(request, request.app.state.name_limiter, _address(request), "new accounts")
    name = _valid_name(body.name)
    _valid_password(body.password, name)
    hashed = await asyncio.to_thread(hash_password, body.password)
    session = _renew(request, response)
    try:
        account = await _service(request).write(
            _accounts(request).create,
            name,
            hashed,
            new_login(session, _address(request), request.headers.get("user-agent")),
            session_of(request),
        )
    except NameTakenError as error:
        raise ConflictError(str(error)) from None
    return _public(account)


@router.post("/login", summary="Log in to an account")
async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Log this browser in (with a new session id); 401 for a wrong name or password."""
    _same_site(request)
    _check(request, request.app.state.login_limiter, _address(request), "login attempts")
    _check(
        request,
        request.app.state.account_login_limiter,
        body.name.lower()[: MAX_NAME + 1],
        "login attempts for this account",
    )
    if len(body.password) > MAX_PASSWORD or not NAME_PATTERN.fullmatch(body.name):
        raise NotLoggedInError(WRONG_LOGIN)
    store = _accounts(request)
    service = _service(request)
    account = await service.read(store.by_name, body.name)
    stored = account.password if account is not None else None
    # Checked even without an account (against a stand-in hash): a wrong name takes as long as
    # a wrong password, so nobody learns which names exist by timing the answer.
    matches = await asyncio.to_thread(password_matches, stored, body.password)
    if account is None or not matches:
        raise NotLoggedInError(WRONG_LOGIN)
    if needs_rehash(account.password):
        hashed = await asyncio.to_thread(hash_password, body.password)
        await service.write(store.rehash, account.id, hashed)
    session = _renew(request, response)
    await service.write(
        store.log_in,
        account.id,
        new_login(session, _address(request), request.headers.get("user-agent")),
        session_of(request),
    )
    return _public(account)


@router.post("/logout", summary="Log out")
async def log_out(request: Request, response: Response) -> dict[str, Any]:
    """Log this browser out (its games stay the account's); nothing to do if it was not in."""
    _same_site(request)
    session = session_of(request)
    if session is not None:
        await _service(request).write(_accounts(request).log_out, session)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"logged_in": False}


@router.get("/account", summary="This browser's account")
async def get_account(request: Request) -> dict[str, Any]:
    """The account's name, creation date and logged-in browsers (``current``: this one)."""
    account, session = await _logged_in(request)
    service, store = _service(request), _accounts(request)
    await service.write(
        store.seen, session, _address(request), request.headers.get("user-agent", "")[:200]
    )
    logins = await service.read(store.logins, account.id)
    return _public(account) | {
        "sessions": [
            {
                "id": login.public_id,
                "created": login.created,
                "seen": login.seen,
                "address": login.address,
                "agent": login.agent,
                "current": login.session == session,
            }
            for login in logins
        ]
    }


@router.post("/account/password", summary="Change the password")
async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
    """Change the password (the old one is asked); other browsers are logged out."""
    _same_site(request)
    account, session = await _logged_in(request)
    await _confirm(request, account, body.old_password)
    _valid_password(body.new_password, account.name)
    hashed = await asyncio.to_thread(hash_password, body.new_password)
    await _service(request).write(_accounts(request).set_password, account.id, hashed, session)
    return {"changed": True}


@router.delete("/account", summary="Delete the account")
async def delete_account(
    body: PasswordConfirmation, request: Request, response: Response
) -> dict[str, Any]:
    """Delete the account (its password is asked); its games stay, as "deleted player"'s."""
    _same_site(request)
    account, _ = await _logged_in(request)
    await _confirm(request, account, body.password)
    await _service(request).write(_accounts(request).delete, account.id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"deleted": True}


@router.post("/account/sessions/{session_id}/revoke", summary="Log out one browser")
async def revoke_session(
    request: Request,
    response: Response,
    session_id: Annotated[str, PathParam(pattern=r"^[0-9a-f]{1,64}$")],
) -> dict[str, Any]:
    """Log out the account's browser ``session_id`` (an ``id`` of GET /api/account)."""
    _same_site(request)
    account, session = await _logged_in(request)
    current = [
        login.public_id
        for login in await _service(request).read(_accounts(request).logins, account.id)
        if login.session == session
    ]
    if not await _service(request).write(_accounts(request).revoke, account.id, session_id):
        raise NotFoundError(f"this account has no logged-in session {session_id!r}")
    if session_id in current:
        response.delete_cookie(SESSION_COOKIE, path="/")
    return {"revoked": session_id}


# -- the pages ------------------------------------------------------------------------------


@pages.get("/account", response_class=HTMLResponse, name="account_page")
async def account_page(request: Request) -> Response:
    """Sign up or log in; logged in: the account, its sessions, password and deletion."""
    account: Account | None = request.state.account  # read once, by `nav_account`
    return TEMPLATES.TemplateResponse(
        request,
        "account.html",
        {
            "account": account,
            "min_password": MIN_PASSWORD,
            "max_password": MAX_PASSWORD,
            "min_name": MIN_NAME,
            "max_name": MAX_NAME,
            "max_passkey_name": MAX_PASSKEY_NAME,
        },
    )


# -- helpers ----------------------------------------------------------------------------------


async def refuse_if_logged_in(request: Request) -> None:
    """Refuse (409) a display name for a browser logged in: it plays under the account's."""
    account = await _service(request).read(_accounts(request).of_session, session_of(request))
    if account is not None:
        raise ConflictError(
            f"this browser is logged in as {account.name!r} and plays under that name; "
            "log out (POST /api/logout) to play anonymously under another"
        )


async def nav_account(request: Request) -> None:
    """Note the account this browser is logged in to, for the pages' navigation and the page.

    ``request.state.account``: the `Account` or ``None``; ``request.state.account_name``: its
    name, or ``None`` (the navigation says "Log in"). The pages read them instead of asking
    the database again.
    """
    account = None
    session = session_of(request)
    if session is not None:
        account = await _service(request).read(_accounts(request).of_session, session)
    request.state.account = account
    request.state.account_name = None if account is None else account.name


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _accounts(request: Request) -> AccountStore:
    return AccountStore(_service(request).store)


def _public(account: Account) -> dict[str, Any]:
    return {"name": account.name, "created": account.created}


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _check(request: Request, limiter: RateLimiter, key: str, what: str) -> None:
    wait = limiter.check(key)
    if wait > 0:
        seconds = max(1, round(wait + 0.5))
        raise RateLimitedError(f"too many {what}; try again in {seconds} s", retry_after=seconds)


def _valid_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise BadRequestError(
            f"a name is {MIN_NAME} to {MAX_NAME} letters (a-z, A-Z), digits, '_' or '-'"
        )
    return name


def _valid_password(password: str, name: str) -> None:
    problem = password_problem(password, name)
    if problem is not None:
        raise BadRequestError(problem)


def _renew(request: Request, response: Response) -> str:
    """A new session id for this browser (its cookie set on ``response``)."""
    sessions: Sessions = request.app.state.sessions
    session = sessions.new_id()
    set_session_cookie(request, response, sessions, session)
    return session


async def _logged_in(request: Request) -> tuple[Account, str]:
    session = session_of(request)
    account = await _service(request).read(_accounts(request).of_session, session)
    if account is None or session is None:
        raise NotLoggedInError("log in first (POST /api/login)")
    return account, session


async def _confirm(request: Request, account: Account, password: str) -> None:
    """Check the account's password (counted as a login attempt); 403 if wrong."""
    _check(request, request.app.state.account_login_limiter, account.name.lower(), "attempts")
    if len(password) > MAX_PASSWORD or not await asyncio.to_thread(
        password_matches, account.password, password
    ):
        raise ForbiddenError("the password is wrong")


async def _player(request: Request, name: str) -> Account:
    account = None
    if NAME_PATTERN.fullmatch(name):
        account = await _service(request).read(_accounts(request).by_name, name)
    if account is None:
        raise NotFoundError(f"no player has the name {name[:MAX_NAME]!r}")
    return account


def _same_site(request: Request) -> None:
    """Refuse (403) a request whose ``Origin`` or ``Referer`` is another site."""
    origin = request.headers.get("origin")
    if origin is None:
        referer = request.headers.get("referer")
        if referer is None:
            return  # not a browser's cross-site request: nothing to protect
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    host = request.headers.get("host", "")
    own = {f"{request.url.scheme}://{host}".lower()}
    public = public_url_of(request)
    if public:
        parts = urlsplit(public)
        own.add(f"{parts.scheme}://{parts.netloc}".lower())
    if origin.lower() not in own:
        raise ForbiddenError("a request from another site is refused (Origin or Referer)")
