"""Web Push routes: the server's public key, a seat's devices (subscribe, list, remove), and
the two files a browser needs at the site's root, the service worker and the manifest.

A seat's devices are its owner's business: every route under ``…/seats/{seat}/push`` takes
that seat's own token (``Authorization: Bearer``), as the other seat routes do
(docs/seats.md); any other token gets ``not_your_seat``. Nothing here ever answers with an
endpoint or a key: a device is named by a hash of its endpoint and its push service's host.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from server.notify import subscriptions
from server.notify.push import PushNotices, languages
from server.resources import ROOT
from server.tables import ServiceError, TableService

from .deps import Service, Token
from .models import ErrorBody

ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 422)}
router = APIRouter(tags=["push"], responses=ERRORS)  # type: ignore[arg-type]
STATIC = ROOT / "web" / "static"


def get_push(request: Request) -> PushNotices:
    push: PushNotices = request.app.state.push
    return push


Push = Annotated[PushNotices, Depends(get_push)]


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=100, description="the device's P-256 public key (base64url)")
    auth: str = Field(max_length=40, description="the device's 16-byte auth secret (base64url)")


class Subscribe(BaseModel):
    """What ``PushSubscription.toJSON()`` gives, and the language notices are written in."""

    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(max_length=subscriptions.MAX_ENDPOINT, description="https URL")
    keys: SubscriptionKeys
    expirationTime: float | None = Field(None, description="ignored (browsers send null)")
    lang: str = Field("en", max_length=8, description="en, hu, nl or de; else English")


class Device(BaseModel):
    id: int
    device: str = Field(description="16 hex digits of the SHA-256 of the endpoint")
    service: str = Field(description="the push service's host")
    lang: str
    created_at: datetime | None


class Devices(BaseModel):
    public_key: str = Field(description="the applicationServerKey to subscribe with")
    devices: list[Device]


class PublicKey(BaseModel):
    public_key: str = Field(description="the server's VAPID public key (base64url)")


def _device(sub: subscriptions.Subscription) -> Device:
    return Device(
        id=sub.id, device=sub.device, service=sub.service, lang=sub.lang, created_at=sub.created_at
    )


async def _own_seat(service: TableService, table_id: str, seat: int, token: str) -> None:
    access = await service.authenticate(table_id, token)
    if access.seat != seat:
        raise ServiceError("not_your_seat", f"only seat {seat}'s own link may manage its notices")


@router.get("/api/push/key")
async def public_key(push: Push) -> PublicKey:
    """The server's VAPID public key: browsers subscribe with it as ``applicationServerKey``."""
    return PublicKey(public_key=push.public_key)


@router.post("/api/tables/{table_id}/seats/{seat}/push", status_code=201)
async def subscribe(
    table_id: str, seat: int, body: Subscribe, service: Service, push: Push, token: Token
) -> Device:
    """Send this seat's "your move" notices to one more device (the same device again
    replaces its keys). Refused: ``bad_subscription``, ``unknown_push_service``,
    ``private_endpoint`` (400), ``too_many_devices``, ``finished`` (409)."""
    await _own_seat(service, table_id, seat, token)
    if (await service.get_stored(table_id)).status == "finished":
        raise ServiceError("finished", "the game is over: no notice will follow")
    settings = push.settings
    host = subscriptions.check_endpoint(
        body.endpoint, settings.push_allow_http, settings.push_host_patterns
    )
    subscriptions.check_keys(body.keys.p256dh, body.keys.auth)
    await subscriptions.check_host(host, settings.webhook_allow_private, push.resolve)
    lang = body.lang if body.lang in languages() else "en"
    sub, _ = await subscriptions.add(
        push.sessions, table_id, seat, body.endpoint, (body.keys.p256dh, body.keys.auth), lang
    )
    return _device(sub)


@router.get("/api/tables/{table_id}/seats/{seat}/push")
async def list_devices(
    table_id: str, seat: int, service: Service, push: Push, token: Token
) -> Devices:
    """The devices this seat's notices go to (never their endpoints or keys)."""
    await _own_seat(service, table_id, seat, token)
    found = await subscriptions.for_seat(push.sessions, table_id, seat)
    return Devices(public_key=push.public_key, devices=[_device(s) for s in found])


@router.delete("/api/tables/{table_id}/seats/{seat}/push/{subscription_id}", status_code=204)
async def remove_device(
    table_id: str, seat: int, subscription_id: int, service: Service, push: Push, token: Token
) -> Response:
    """Stop sending this seat's notices to one device. ``unknown_subscription`` (404) if the
    seat has no device of that id."""
    await _own_seat(service, table_id, seat, token)
    if not await subscriptions.remove(push.sessions, table_id, seat, subscription_id):
        raise ServiceError("unknown_subscription", f"seat {seat} has no device {subscription_id}")
    return Response(status_code=204)


# The service worker must be served from the root to control the whole site (scope "/");
# browsers check it for updates themselves, so it is revalidated rather than kept.
@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> FileResponse:
    return FileResponse(
        STATIC / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )
