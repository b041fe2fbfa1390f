"""A software WebAuthn authenticator for the API tests of passkeys (no browser needed).

It answers the server's options as a platform authenticator would: an ES256 key pair per
passkey, attestation ``none``, the flags "user present" and "user verified". The answers are the
JSON a browser's page sends (base64url for binary fields), so the server's checks run on them
exactly as on a browser's.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from base64 import urlsafe_b64encode
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class SoftAuthenticator:
    """One passkey on a software authenticator, for the site at ``origin``."""

    origin: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    sign_count: int = 0
    user_handle: str | None = None

    @property
    def id(self) -> str:
        return b64url(self.credential_id)

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer to registration options (``navigator.credentials.create``)."""
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose_key = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id
        auth_data = self._auth_data(options["rp"]["id"], ATTESTED) + attested + cose_key
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
        }

    def get(
        self, options: dict[str, Any], *, origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        """The answer to login options (``navigator.credentials.get``), signed by the key."""
        self.sign_count += 1
        auth_data = self._auth_data(rp_id or options["rpId"], 0)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        response = {
            "clientDataJSON": b64url(client_data),
            "authenticatorData": b64url(auth_data),
            "signature": b64url(signature),
        }
        if self.user_handle is not None:
            response["userHandle"] = self.user_handle
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
            "response": response,
        }

    def _auth_data(self, rp_id: str, flags: int) -> bytes:
        flags |= USER_PRESENT | USER_VERIFIED
        return (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([flags])
            + self.sign_count.to_bytes(4, "big")
        )

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        ).encode()
