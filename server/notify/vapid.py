"""The server's VAPID key pair (RFC 8292), and the ``Authorization`` header it signs.

A browser subscribes to push with the public key (``applicationServerKey``) and its push
service then accepts only pushes signed by the private key, so every app process on one
database must sign with the same pair. It lives in the one-row ``vapid_keys`` table: the first
process to start makes it; two processes starting at once both try to insert row 1, the
database's primary key lets exactly one of them in, and the other reads the winner's pair.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from server.store.models import VapidKeyRow

KEY_ROW = 1
# How long a signed token is good for. RFC 8292 allows at most 24 hours; push services refuse
# a token whose ``exp`` is further away, so a signature outlives no clock skew worth fearing.
TOKEN_LIFETIME = 12 * 3600


def b64url(data: bytes) -> str:
    """URL-safe base64 without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of URL-safe base64 with or without padding. Raises ValueError."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class VapidKeys:
    """The key pair: ``private_key`` the P-256 private value, ``public_key`` its uncompressed
    point (the ``applicationServerKey`` browsers subscribe with), both URL-safe base64."""

    private_key: str
    public_key: str

    @classmethod
    def generate(cls) -> VapidKeys:
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        return cls(b64url(private), b64url(_point(key.public_key())))

    def signer(self) -> Any:
        # ``no-strict``: the subject is checked by the settings (mailto: or https:, any port),
        # more accurately than py_vapid's pattern, which refuses an https URL with a port.
        key = ec.derive_private_key(
            int.from_bytes(unb64url(self.private_key), "big"), ec.SECP256R1()
        )
        return Vapid(key, conf={"no-strict": True})

    def authorization(self, endpoint: str, subject: str, now: float | None = None) -> str:
        """The ``Authorization: vapid t=…, k=…`` value for a push to ``endpoint``: a JWT for the
        push service's origin (``aud``), good for ``TOKEN_LIFETIME`` (``exp``), naming whom
        to contact (``sub``)."""
        issued = time.time() if now is None else now
        claims = {
            "aud": audience(endpoint),
            "exp": int(issued) + TOKEN_LIFETIME,
            "sub": subject,
        }
        return str(self.signer().sign(claims)["Authorization"])


def _point(public: ec.EllipticCurvePublicKey) -> bytes:
    return public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def audience(endpoint: str) -> str:
    """The origin of ``endpoint`` (scheme, host, port if any): the JWT's ``aud``."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"


async def load_or_create(sessions: async_sessionmaker[Any]) -> VapidKeys:
    """The stored key pair; made and stored first if there is none yet (race-safe: of
    processes starting together, one insert wins and every process returns that pair)."""
    found = await _read(sessions)
    if found is not None:
        return found
    made = VapidKeys.generate()
    try:
        async with sessions() as session, session.begin():
            session.add(
                VapidKeyRow(id=KEY_ROW, private_key=made.private_key, public_key=made.public_key)
            )
    except IntegrityError:
        pass  # another process stored its pair first: use that one
    found = await _read(sessions)
    if found is None:  # pragma: no cover - the row was just written by us or another
        raise RuntimeError("the VAPID key pair could not be stored")
    return found


async def _read(sessions: async_sessionmaker[Any]) -> VapidKeys | None:
    async with sessions() as session:
        row = (
            await session.execute(sa.select(VapidKeyRow).where(VapidKeyRow.id == KEY_ROW))
        ).scalar_one_or_none()
    return None if row is None else VapidKeys(row.private_key, row.public_key)
