"""Web Push "your move" notices (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID).

A notice leaves our server for the browser maker's push service (Google's, Mozilla's,
Apple's …) and reaches the player's device from there, so it carries nothing the table does
not show everyone: the table's name, that it is the player's move, the time left, and the
table page's path (never the seat token). The body is encrypted to the device's keys by
pywebpush (``aes128gcm``); the request carries

- ``Authorization: vapid t=<JWT>, k=<our public key>``: ``aud`` the push service's origin,
  ``exp`` twelve hours on, ``sub`` GUILDHALL_PUSH_CONTACT (``Settings.vapid_subject``);
- ``TTL``: the seconds left for the decision (a day on an untimed table): how long the push
  service keeps the notice for a device that is offline (0, the library's default, would
  drop it at once);
- ``Topic``: one per table, so a newer notice of the table replaces one not yet delivered;
- ``Urgency``: ``normal`` for the first notice, ``high`` for the reminder.

The POST is our own (aiohttp, which pywebpush brings): redirects are never followed, and the
connection's resolver refuses hosts with a non-public address at the moment of connecting,
so an endpoint whose name is later pointed at a private address is refused too
(``server.notify.push_resolver``; GUILDHALL_WEBHOOK_ALLOW_PRIVATE lifts it).

A device's push service answering 404 or 410 has forgotten the subscription: its row is
deleted. 429 and 5xx, time-outs and network errors are worth a retry.
"""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import hmac
import ipaddress
import json
import logging
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sqlalchemy.ext.asyncio import async_sessionmaker

from server.resources import ROOT
from server.settings import Settings

from . import subscriptions
from .addresses import Resolver, is_public, system_resolve
from .subscriptions import Subscription
from .vapid import VapidKeys, b64url, load_or_create

if TYPE_CHECKING:
    import aiohttp

log = logging.getLogger(__name__)

Outcome = Literal["sent", "retry", "gone", "failed"]
Urgency = Literal["very-low", "low", "normal", "high"]

UNTIMED_TTL = 86400  # how long a notice of a table without a clock waits for an offline device
TOPIC_LENGTH = 22  # URL-safe base64 characters (RFC 8030 allows 32): 132 bits of the HMAC
SEND_TIMEOUT = 10.0  # seconds for one push request, connecting included
I18N = ROOT / "web" / "i18n"
DEFAULT_LANG = "en"


def topic(table_id: str, secret_key: str) -> str:
    """The table's ``Topic``: the same for every notice of the table (a newer one replaces
    an undelivered older one), and not the table id (the push service learns no id)."""
    digest = hmac.new(secret_key.encode(), b"push-topic\0" + table_id.encode(), hashlib.sha256)
    return b64url(digest.digest())[:TOPIC_LENGTH]


@dataclass(frozen=True)
class PushMessage:
    """One notice as sent: what the service worker shows, and the delivery headers."""

    title: str
    body: str
    url: str
    topic: str
    ttl: int
    urgency: Urgency

    def payload(self) -> bytes:
        fields = {"title": self.title, "body": self.body, "url": self.url, "tag": self.topic}
        return json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode()


ChannelOutcome = Literal["sent", "retry", "gone"]


class NoticeLike(Protocol):
    """What the outbox's notice tells a channel (``server.notify.notice.Notice``)."""

    @property
    def table_id(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...  # "turn" or "reminder"
    @property
    def table_name(self) -> str: ...
    @property
    def seat_name(self) -> str: ...
    @property
    def seconds_left(self) -> float | None: ...


@dataclass(frozen=True)
class YourMove:
    """What a "your move" notice says: the table's name, whose move (the seat's name), and
    the seconds left for the decision as the notice goes out (None: the table is untimed)."""

    table_id: str
    table_name: str
    seat: int
    seat_name: str
    seconds_left: float | None
    reminder: bool = False
    # A chat notice: who wrote (never what).
    chat_by: str | None = None


# ------------------------------------------------------------------------------ text


@lru_cache(maxsize=8)
def strings(lang: str) -> dict[str, str]:
    """The shared dictionary of ``lang`` (English for a language not shipped) with the
    notices' own strings (``web/i18n/notices/``, which the table page loads with its card)."""
    path = I18N / f"{lang}.json"
    if not lang.isalpha() or not path.is_file():
        path = I18N / f"{DEFAULT_LANG}.json"
    found: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    found.update(json.loads((I18N / "notices" / path.name).read_text(encoding="utf-8")))
    return found


def languages() -> frozenset[str]:
    return frozenset(p.stem for p in I18N.glob("*.json"))


def _t(words: dict[str, str], key: str, **params: Any) -> str:
    if params.get("n") == 1 and key + ".one" in words:
        key += ".one"
    text = words[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def time_left(seconds: float, words: dict[str, str]) -> str:
    """``seconds`` in the largest unit that reads well: "40 s", "12 min", "5 h", "2 days"."""
    if seconds < 90:
        return _t(words, "push.left_seconds", n=max(0, round(seconds)))
    if seconds < 90 * 60:
        return _t(words, "push.left_minutes", n=round(seconds / 60))
    if seconds < 36 * 3600:
        return _t(words, "push.left_hours", n=round(seconds / 3600))
    return _t(words, "push.left_days", n=round(seconds / 86400))


def message(move: YourMove, lang: str, secret_key: str) -> PushMessage | None:
    """The notice for ``move`` in ``lang``; None once the decision's time is up."""
    words = strings(lang)
    if move.chat_by is not None:
        # Its own topic: it must not replace a "your move" the phone has not fetched yet.
        return PushMessage(
            title=_t(words, "push.chat", name=move.chat_by, table=move.table_name),
            body=_t(words, "push.chat_body"),
            url=f"/t/{move.table_id}",
            topic=topic(move.table_id + "\0chat", secret_key),
            ttl=UNTIMED_TTL,
            urgency="normal",
        )
    left = move.seconds_left
    if left is not None and left < 1:
        return None
    title = _t(words, "push.title", table=move.table_name)
    if left is None:
        body = _t(words, "push.body", name=move.seat_name)
    else:
        key = "push.reminder" if move.reminder else "push.body_left"
        body = _t(words, key, name=move.seat_name, left=time_left(left, words))
    return PushMessage(
        title=title,
        body=body,
        url=f"/t/{move.table_id}",
        topic=topic(move.table_id, secret_key),
        ttl=UNTIMED_TTL if left is None else int(left),
        urgency="high" if move.reminder else "normal",
    )


# ------------------------------------------------------------------------------ sending


@dataclass(frozen=True)
class Delivery:
    """How one push went: ``sent`` (the push service took it), ``gone`` (the subscription is
    no more: delete it), ``retry`` (try again later, after ``retry_after`` seconds if the
    service said), ``failed`` (this notice cannot be delivered to this device)."""

    outcome: Outcome
    status: int | None = None
    retry_after: float | None = None


class PushSender:
    """Sends encrypted, VAPID-signed pushes over one aiohttp session."""

    def __init__(self, keys: VapidKeys, settings: Settings, timeout: float = SEND_TIMEOUT) -> None:
        self.keys = keys
        self.subject = settings.vapid_subject
        self.allow_private = settings.webhook_allow_private
        self.allow_http = settings.push_allow_http
        self.extra_hosts = settings.push_host_patterns
        self.timeout = timeout
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        # aiohttp (and pywebpush, below) are imported at the first push, not with the app:
        # they are a third of the app's import time, paid by every server process started,
        # and most servers never push.
        import aiohttp

        from .push_resolver import GuardedResolver

        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                resolver=None if self.allow_private else GuardedResolver(), limit=20
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                timeout=aiohttp.ClientTimeout(total=self.timeout),
                trust_env=False,  # never through a proxy from the environment
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def request(
        self, sub: Subscription, msg: PushMessage, now: float
    ) -> tuple[dict[str, str], bytes]:
        """The headers and encrypted body of a push of ``msg`` to ``sub``."""
        from pywebpush import WebPusher

        body = WebPusher(sub.info()).encode(msg.payload(), "aes128gcm")["body"]
        headers = {
            "Authorization": self.keys.authorization(sub.endpoint, self.subject, now),
            "TTL": str(msg.ttl),
            "Topic": msg.topic,
            "Urgency": msg.urgency,
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
        }
        return headers, bytes(body)

    def refusal(self, endpoint: str) -> str | None:
        """Why ``endpoint`` may not be sent to now (the settings may have changed since it
        was stored), or None."""
        try:
            host = subscriptions.check_endpoint(endpoint, self.allow_http, self.extra_hosts)
        except Exception as exc:
            return str(getattr(exc, "message", exc))
        literal = host.strip("[]")
        if not self.allow_private and _is_ip(literal) and not is_public(literal):
            return "a non-public address"
        return None

    async def send(self, sub: Subscription, msg: PushMessage, now: float | None = None) -> Delivery:
        """Push ``msg`` to ``sub``'s device; never raises for what the network or the push
        service does."""
        why = self.refusal(sub.endpoint)
        if why is not None:
            log.warning("push endpoint refused", extra={"subscription": sub.id, "why": why})
            return Delivery("gone")
        import aiohttp

        from .push_resolver import RefusedAddress

        headers, body = self.request(sub, msg, time.time() if now is None else now)
        try:
            async with self._client().post(
                sub.endpoint, data=body, headers=headers, allow_redirects=False
            ) as response:
                status = response.status
                retry_after = _retry_after(response.headers.get("Retry-After"))
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, RefusedAddress):
                log.warning("push endpoint refused", extra={"subscription": sub.id})
                return Delivery("gone")
            return self._network_error(sub, exc)
        except (aiohttp.ClientError, TimeoutError) as exc:
            return self._network_error(sub, exc)
        return _judge(status, retry_after)

    def _network_error(self, sub: Subscription, exc: BaseException) -> Delivery:
        # The exception's text may quote the endpoint: only its kind is logged.
        log.info("push not delivered", extra={"subscription": sub.id, "error": type(exc).__name__})
        return Delivery("retry")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _judge(status: int, retry_after: float | None) -> Delivery:
    if status in (200, 201, 202):
        return Delivery("sent", status)
    if status in (404, 410):
        return Delivery("gone", status)
    if status == 429 or status >= 500:
        return Delivery("retry", status, retry_after)
    # 400 (a bad request), 401/403 (a key the subscription was not made with), 413, a redirect:
    # sending the same again would fail again.
    return Delivery("failed", status)


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (a number, or an HTTP date)."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


# ------------------------------------------------------------------------------ a seat


class PushNotices:
    """A seat's devices: their subscriptions and the pushes to them. ``start`` reads (or
    makes, on the first start) the server's VAPID key pair, before anything is sent."""

    def __init__(self, sessions: async_sessionmaker[Any], settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings
        self._sender: PushSender | None = None
        self.sent = 0  # pushes the push services took, from this process
        self.resolve: Resolver = system_resolve  # the subscribe-time check's (tests replace it)
        self._tasks: set[asyncio.Task[int]] = set()

    async def start(self) -> PushNotices:
        if self._sender is None:
            self._sender = PushSender(await load_or_create(self.sessions), self.settings)
        return self

    @property
    def sender(self) -> PushSender:
        if self._sender is None:
            raise RuntimeError("PushNotices.start() reads the key pair first")
        return self._sender

    @property
    def public_key(self) -> str:
        return self.sender.keys.public_key

    async def deliver(self, notice: NoticeLike) -> ChannelOutcome:
        """The push channel of the notices' outbox: ``notice`` pushed to the seat's devices,
        answered as a channel answers (``sent``, ``retry``, or ``gone``: this notice will
        never reach a device of the seat, so it is not tried again)."""
        move = YourMove(
            table_id=notice.table_id,
            table_name=notice.table_name,
            seat=notice.seat,
            seat_name=notice.seat_name,
            seconds_left=notice.seconds_left,
            reminder=notice.kind == "reminder",
            # A chat notice names who wrote (``by_name``, which a notice may lack).
            chat_by=(getattr(notice, "by_name", None) or "") if notice.kind == "chat" else None,
        )
        outcome = await self.notify(move)
        return "gone" if outcome == "failed" else outcome

    async def notify(self, move: YourMove) -> Outcome:
        """Push ``move`` to every device of its seat at once; delete those whose push service
        says they are gone. ``sent`` if any device took it; else ``retry`` if one may later;
        else ``gone`` (no device left) or ``failed``. Takes at most one push's time-out."""
        devices = await subscriptions.for_seat(self.sessions, move.table_id, move.seat)
        # The newest few: a seat may hold more, subscribed before the cap came down.
        devices = devices[-subscriptions.MAX_DEVICES :]
        messages = [message(move, sub.lang, self.settings.secret_key) for sub in devices]
        if None in messages:
            return "failed"  # the decision's time is up: the notice is stale
        results = await asyncio.gather(
            *(self._push(move, sub, msg) for sub, msg in zip(devices, messages, strict=True) if msg)
        )
        self.sent += results.count("sent")
        order: tuple[Outcome, ...] = ("sent", "retry", "failed")
        return next((outcome for outcome in order if outcome in results), "gone")

    async def _push(self, move: YourMove, sub: Subscription, msg: PushMessage) -> Outcome:
        result = await self.sender.send(sub, msg)
        if result.outcome == "gone":
            await subscriptions.drop(self.sessions, sub.id)
        log.info(
            "push",
            extra={"table_id": move.table_id, "seat": move.seat, "subscription": sub.id,
                   "outcome": result.outcome, "status": result.status},
        )  # fmt: skip
        return result.outcome

    def finished(self, data: Any) -> None:
        """A change this process stored (``TableService.on_change``): once a table has
        finished, no notice will follow, so its devices are forgotten."""
        if data.status != "finished":
            return
        task = asyncio.get_running_loop().create_task(
            subscriptions.forget_table(self.sessions, data.id)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the forgetting of finished tables this process has begun."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        await self.settle()
        if self._sender is not None:
            await self._sender.close()
