"""Passkeys (WebAuthn): a second way to log in to an account, through the ``webauthn`` library.

A browser logged in to an account registers a passkey from the account page; later, any browser
logs in with it instead of the name and password (the passkey is discoverable: the browser
offers the site's passkeys, nobody types a name). Each ceremony is two requests: the options
(with a random challenge) and the authenticator's answer. The challenge is kept server-side, in
the database (every server process sees it), for the browser session that asked, one per session
and purpose; it answers once (it is taken out before the answer is checked) and expires after
`CHALLENGE_SECONDS`.

The relying party is the site's public address (``ludoteca serve --public-url``) when it has one,
else the request's ``Host``: its host name is the relying-party id, its scheme and host the
origin the browser must name. Browsers allow passkeys on HTTPS sites and on ``localhost``, never
on a bare IP address. What the ceremonies keep between their two requests is stored by
`ludoteca.web.passkey_store`.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ludoteca.web.account_store import new_login
from ludoteca.web.accounts import (
    MAX_PASSKEY_NAME,
    NotLoggedInError,
    _accounts,
    _address,
    _check,
    _logged_in,
    _public,
    _renew,
    _same_site,
    _service,
)
from ludoteca.web.errors import BadRequestError, ConflictError, NotFoundError
from ludoteca.web.guards import public_url_of, session_of, session_or_new
from ludoteca.web.passkey_store import Challenge, Passkey, PasskeyStore, PasskeyTakenError

#: How long a challenge may be answered, in seconds (the browser is given as long).
CHALLENGE_SECONDS = 300
#: What the browser shows as the site asking for a passkey.
RP_NAME = "Ludoteca"
REGISTER = "register"
LOGIN = "login"

router = APIRouter(prefix="/api", tags=["accounts"])


def _clock() -> float:
    """Seconds since the epoch (the tests move it to expire a challenge)."""
    return time.time()


# -- the API ----------------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewPasskey(_Body):
    """The authenticator's answer to the registration options, and a name for the passkey."""

    credential: dict[str, Any]
    name: str = Field("Passkey", min_length=1, max_length=MAX_PASSKEY_NAME)


class PasskeyLogin(_Body):
    """The authenticator's answer to the login options."""

    credential: dict[str, Any]


@router.post("/account/passkeys/options", summary="Options to register a passkey")
async def registration_options(request: Request) -> dict[str, Any]:
    """WebAuthn options to create a passkey of this account (``navigator.credentials.create``).

    The challenge in them answers once, within five minutes, from this browser.
    """
    _same_site(request)
    account, session = await _logged_in(request)
    rp_id, _ = relying_party(request)
    existing = await _service(request).read(_passkeys(request).of_account, account.id)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_name=account.name,
        user_id=account.id.encode(),
        user_display_name=account.name,
        timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in existing
        ],
    )
    await _give(request, session, REGISTER, options.challenge, account.id)
    answer: dict[str, Any] = json.loads(options_to_json(options))
    return answer


@router.post("/account/passkeys", status_code=201, summary="Register a passkey")
async def register_passkey(body: NewPasskey, request: Request) -> dict[str, Any]:
    """Check the authenticator's answer (``credential``) and keep the passkey (201).

    400 if there is no challenge to answer (none asked, answered already, or expired) or the
    answer does not check; 409 if this passkey is registered already.
    """
    _same_site(request)
    account, session = await _logged_in(request)
    challenge = await _take(request, session, REGISTER)
    if challenge.account_id != account.id:
        raise BadRequestError("that challenge was given to another account; ask for new options")
    rp_id, origin = relying_party(request)
    try:
        verified = verify_registration_response(
            credential=parse_registration_credential_json(body.credential),
            expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except _MALFORMED as error:
        raise BadRequestError(f"the passkey could not be checked: {_reason(error)}") from None
    try:
        passkey = await _service(request).write(
            _passkeys(request).add,
            account.id,
            bytes_to_base64url(verified.credential_id),
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
            body.name.strip() or "Passkey",
        )
    except PasskeyTakenError as error:
        raise ConflictError(str(error)) from None
    return _shown(passkey)


@router.get("/account/passkeys", summary="This account's passkeys")
async def list_passkeys(request: Request) -> dict[str, Any]:
    """The passkeys of the account this browser is logged in to."""
    account, _ = await _logged_in(request)
    passkeys = await _service(request).read(_passkeys(request).of_account, account.id)
    return {"passkeys": [_shown(p) for p in passkeys]}


@router.delete("/account/passkeys/{passkey_id}", summary="Remove a passkey")
async def remove_passkey(
    request: Request,
    passkey_id: Annotated[str, PathParam(pattern=r"^[0-9a-f]{1,64}$")],
) -> dict[str, Any]:
    """Remove the passkey ``passkey_id`` (an ``id`` of GET /api/account/passkeys)."""
    _same_site(request)
    account, _ = await _logged_in(request)
    if not await _service(request).write(_passkeys(request).remove, account.id, passkey_id):
        raise NotFoundError(f"this account has no passkey {passkey_id!r}")
    return {"removed": passkey_id}


@router.post("/login/passkey/options", summary="Options to log in with a passkey")
async def login_options(request: Request, response: Response) -> dict[str, Any]:
    """WebAuthn options to log in with a passkey (``navigator.credentials.get``).

    Counted as a login attempt of this address (429 past ``--login-rate``). The challenge answers
    once, within five minutes, from this browser (which is given a session cookie if it had none).
    """
    _same_site(request)
    _check(request, request.app.state.login_limiter, _address(request), "login attempts")
    session = session_or_new(request, response)
    rp_id, _ = relying_party(request)
    options = generate_authentication_options(
        rp_id=rp_id,
        timeout=CHALLENGE_SECONDS * 1000,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    await _give(request, session, LOGIN, options.challenge, None)
    answer: dict[str, Any] = json.loads(options_to_json(options))
    return answer


@router.post("/login/passkey", summary="Log in with a passkey")
async def log_in_with_passkey(
    body: PasskeyLogin, request: Request, response: Response
) -> dict[str, Any]:
    """Check the authenticator's answer and log this browser in (with a new session id).

    400 if there is no challenge to answer (none asked, answered already, or expired) or the
    answer is malformed; 401 if the passkey is not registered here or its signature is wrong.
    """
    _same_site(request)
    session = session_of(request)
    if session is None:
        raise BadRequestError(_NO_CHALLENGE.format(options="/api/login/passkey/options"))
    challenge = await _take(request, session, LOGIN)
    try:
        credential = parse_authentication_credential_json(body.credential)
    except (WebAuthnException, ValueError) as error:
        raise BadRequestError(
            f"the credential is not a passkey's answer: {_reason(error)}"
        ) from None
    store, service = _passkeys(request), _service(request)
    passkey = await service.read(store.by_credential, bytes_to_base64url(credential.raw_id))
    if passkey is None:
        raise NotLoggedInError("this passkey is not registered here (it may have been removed)")
    handle = credential.response.user_handle
    if handle is not None and handle != passkey.account_id.encode():
        raise NotLoggedInError("this passkey belongs to another account than it says")
    rp_id, origin = relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except _MALFORMED as error:
        raise NotLoggedInError(f"the passkey login failed: {_reason(error)}") from None
    await service.write(store.used, passkey.id, verified.new_sign_count)
    accounts = _accounts(request)
    account = await service.read(accounts.by_id, passkey.account_id)
    if account is None:
        raise NotLoggedInError("this passkey's account was deleted")
    new_session = _renew(request, response)
    await service.write(
        accounts.log_in,
        account.id,
        new_login(new_session, _address(request), request.headers.get("user-agent")),
        session,
    )
    return _public(account)


# -- helpers ----------------------------------------------------------------------------------

#: What the library raises for an answer that does not check, or is malformed in a way its
#: parser lets through (base64url, CBOR or key data that does not decode).
_MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError, IndexError)

_NO_CHALLENGE = (
    "no passkey challenge is waiting for this browser (none was asked for, it was answered "
    "already, or it expired); ask POST {options} for new options"
)


def relying_party(request: Request) -> tuple[str, str]:
    """The relying-party id and the origin expected of the browser, for ``request``.

    The site's public address (``--public-url``) if it has one, else the request's ``Host``.
    """
    public = public_url_of(request)
    if public:
        parts = urlsplit(public)
        return parts.hostname or "", f"{parts.scheme}://{parts.netloc}"
    host = request.headers.get("host") or request.url.netloc
    return urlsplit(f"//{host}").hostname or "", f"{request.url.scheme}://{host}"


def _passkeys(request: Request) -> PasskeyStore:
    return PasskeyStore(_service(request).store)


def _shown(passkey: Passkey) -> dict[str, Any]:
    return {
        "id": passkey.id,
        "name": passkey.name,
        "created": passkey.created,
        "used": passkey.used,
    }


async def _give(
    request: Request, session: str, purpose: str, challenge: bytes, account_id: str | None
) -> None:
    now = _clock()
    await _service(request).write(
        _passkeys(request).give_challenge,
        session,
        purpose,
        Challenge(bytes_to_base64url(challenge), account_id, now + CHALLENGE_SECONDS),
        now,
    )


async def _take(request: Request, session: str, purpose: str) -> Challenge:
    """The session's challenge for ``purpose``, taken out (400 if none, or expired)."""
    options = (
        "/api/account/passkeys/options" if purpose == REGISTER else "/api/login/passkey/options"
    )
    challenge = await _service(request).write(_passkeys(request).take_challenge, session, purpose)
    if challenge is None:
        raise BadRequestError(_NO_CHALLENGE.format(options=options))
    if challenge.expires < _clock():
        raise BadRequestError(
            f"the passkey challenge expired (it answers within {CHALLENGE_SECONDS} s); "
            f"ask POST {options} for new options"
        )
    return challenge


def _reason(error: BaseException) -> str:
    """The library's reason, short (never echoes a huge input back)."""
    text = str(error) or type(error).__name__
    return text if len(text) <= 200 else text[:200] + "…"
