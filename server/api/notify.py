"""The "your move" notice routes: a seat's e-mail address (its own token) and the table's webhook
URL (the creator's token). What is sent, and when: docs/notifications.md."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from server.notify.contacts import ContactBook, Contacts

from .deps import Token
from .models import ErrorBody

ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 422, 429, 503)}
router = APIRouter(prefix="/api/tables", tags=["notifications"], responses=ERRORS)  # type: ignore[arg-type]


class NotifySettings(BaseModel):
    """What a seat token may know of its table's notices."""

    seat: int
    creator: bool
    email: str | None = Field(description="this seat's own address (null: none)")
    email_on: bool = Field(description="whether this server sends e-mail at all")
    webhook: str | None = Field(description="the table's webhook URL: the creator's only")
    email_confirmed: bool = Field(
        description="the address was confirmed through the link mailed to it; until then "
        "no notice goes to it"
    )
    email_links_left: int = Field(
        description="confirmation links this seat may still have mailed (typing an address, "
        "or the same one again while it waits, mails one)"
    )


class SetEmail(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str | None = Field(max_length=320, description="an address; null removes it")


class SetWebhook(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(max_length=4000, description="an http(s) URL; null removes it")


def _book(request: Request) -> ContactBook:
    book: ContactBook = request.app.state.contacts
    return book


def _answer(contacts: Contacts) -> NotifySettings:
    return NotifySettings(
        seat=contacts.seat,
        creator=contacts.creator,
        email=contacts.email,
        email_on=contacts.email_on,
        webhook=contacts.webhook,
        email_confirmed=contacts.email_confirmed,
        email_links_left=contacts.email_links_left,
    )


@router.get("/{table_id}/notifications")
async def read_notifications(table_id: str, request: Request, token: Token) -> NotifySettings:
    """This seat's e-mail address, whether e-mail is on, and (creator) the webhook URL."""
    return _answer(await _book(request).read(table_id, token))


@router.post("/{table_id}/seats/{seat}/email")
async def set_email(
    table_id: str, seat: int, body: SetEmail, request: Request, token: Token
) -> NotifySettings:
    """Set or remove the address "your move" e-mails of ``seat`` go to (its own token). A new
    address is mailed a link to confirm it, and gets no notice before; the same address
    again while it waits mails the link again. Refused: ``too_many_links``, ``mail_budget``
    (429); ``email_not_sent`` (503) when the mail server did not take the link."""
    return _answer(await _book(request).set_email(table_id, token, seat, body.email))


@router.post("/{table_id}/webhook")
async def set_webhook(
    table_id: str, body: SetWebhook, request: Request, token: Token
) -> NotifySettings:
    """Set or remove the URL every notice of the table is POSTed to (the creator's token)."""
    return _answer(await _book(request).set_webhook(table_id, token, body.url))
