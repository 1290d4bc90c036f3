"""The seat model (``docs/seats.md``), decided in one place.

Every route and websocket message that joins, plays, reads, hands over or takes back a seat
asks a function here; nothing else decides who a seat belongs to.

A seat has an *owner* (the person who took it: a name and the hash of their token) and a
*player*: the owner, or a bot. The owner never changes once set, so a seat's token is never
given to anybody else, and seat 0's owner is the table's creator for good. A bot that plays
an owned seat is a *stand-in*: the owner's token no longer plays or reads the seat, but it
can take the seat back at any time.

===========  =========  =======  =============================================
state        owner      bot      who may take it
===========  =========  =======  =============================================
free         –          –        anyone with the invite; anyone on a public table
bot          –          kind     anyone with the invite (the bot was never a person)
person       hash       –        nobody: it is the owner's
stand-in     hash       kind     only its owner, by taking it back
===========  =========  =======  =============================================
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from .data import SeatInfo, ServiceError, TableData, hash_token

CREATOR_SEAT: Final = 0


class _Bot:
    """The bot runner as an actor: it may only play seats a bot plays now."""

    def __repr__(self) -> str:
        return "BOT"


BOT: Final = _Bot()
Actor = str | _Bot  # a token hash (a person's connection) or BOT


@dataclass(frozen=True)
class Access:
    """What a token may do at a table: the seat it owns, and whether it plays it now."""

    seat: int
    plays: bool

    @property
    def is_creator(self) -> bool:
        return self.seat == CREATOR_SEAT

    @property
    def has_creator_rights(self) -> bool:
        """Seat 0's token while it plays seat 0: what the creator does during a game (added
        time, another's seat handed over, the webhook) needs the creator at the table."""
        return self.is_creator and self.plays


# -------------------------------------------------------------------- who may ask for what


class Right(Enum):
    """Which tokens a route or websocket message takes (``RIGHTS``; docs/seats.md)."""

    ANYONE = "anyone"  # no token needed; one sent is not looked at
    OWNER = "owner"  # a token owning a seat of the table, a bot standing in or not
    OWN_SEAT = "own seat"  # the token of the route's ``{seat}``, a bot standing in or not
    PLAYER = "player"  # a token that plays its seat now: no bot stands in for it
    OWN_SEAT_PLAYER = "own seat, playing"  # OWN_SEAT and PLAYER both
    HOST = "host"  # seat 0's token, a bot standing in or not (before the start)
    CREATOR = "creator"  # seat 0's token while it plays seat 0
    # OWN_SEAT; or for another seat CREATOR (HOST while the table waits for its start)
    OWN_SEAT_OR_CREATOR = "own seat or creator"
    WATCH = "watch"  # anyone watches; a token reads its seat's document only as PLAYER


# The seat model, once: every HTTP route (by method and path) and websocket message (by
# ``type``) of the app with the tokens it takes. ``server.api.rights`` enforces it in front of
# every route, the websocket session at ``hello`` (a command then needs the seat the hello
# gave, and ``check_plays`` on the version it is decided on); a route missing here is refused
# at start-up, and tests/security/test_seat_rights.py tries each with every kind of token.
RIGHTS: Final[dict[str, Right]] = {
    # Pages, files and the public API: what anyone who knows a table id may see.
    "GET /": Right.ANYONE,
    "GET /t/{table_id}": Right.ANYONE,
    "GET /static/{path:path}": Right.ANYONE,
    "GET /strings/{version}/{lang}/{scope}.js": Right.ANYONE,
    "GET /sw.js": Right.ANYONE,
    "GET /manifest.webmanifest": Right.ANYONE,
    "GET /healthz": Right.ANYONE,
    "GET /metrics": Right.ANYONE,
    "GET /openapi.json": Right.ANYONE,
    "GET /docs": Right.ANYONE,
    "GET /docs/oauth2-redirect": Right.ANYONE,
    "GET /redoc": Right.ANYONE,
    "GET /api/games": Right.ANYONE,
    "GET /rules/{game}": Right.ANYONE,
    "GET /api/rules/{game}": Right.ANYONE,
    "GET /api/rules/{game}/pieces": Right.ANYONE,
    "GET /api/push/key": Right.ANYONE,
    "POST /api/tables": Right.ANYONE,
    "GET /api/tables": Right.ANYONE,
    "POST /api/tables/mine": Right.ANYONE,  # each token in the body answers for itself
    "GET /api/tables/{table_id}": Right.ANYONE,
    "POST /api/tables/{table_id}/join": Right.ANYONE,  # the invite decides (seat_to_join)
    "GET /api/tables/{table_id}/record": Right.ANYONE,  # once the game is over
    "GET /api/tables/{table_id}/replay/{step}": Right.ANYONE,  # once the game is over
    "GET /api/tables/{table_id}/analysis": Right.ANYONE,  # once the game is over
    # The chat's file, once the game is over (the players' room of a private table only with
    # a seat token: server.chat.service).
    "GET /api/tables/{table_id}/chat": Right.ANYONE,
    # The link mailed to confirm an address: its own secret decides (server.notify.contacts).
    "GET /email/confirm/{token}": Right.ANYONE,
    "POST /email/confirm/{token}": Right.ANYONE,
    # The owner, whoever plays the seat now: to know their seat, to come back, to play again.
    "GET /api/tables/{table_id}/me": Right.OWNER,
    "POST /api/tables/{table_id}/rematch": Right.OWNER,
    "POST /api/tables/{table_id}/seats/{seat}/reclaim": Right.OWN_SEAT,
    # Where one's own notices go is the person's, not the seat's player's: set or stopped
    # while a bot stands in too (the notifications answer shows the webhook only to CREATOR).
    "GET /api/tables/{table_id}/notifications": Right.OWNER,
    "POST /api/tables/{table_id}/seats/{seat}/email": Right.OWN_SEAT,
    "POST /api/tables/{table_id}/seats/{seat}/push": Right.OWN_SEAT,
    "GET /api/tables/{table_id}/seats/{seat}/push": Right.OWN_SEAT,
    "DELETE /api/tables/{table_id}/seats/{seat}/push/{subscription_id}": Right.OWN_SEAT,
    # Letting a bot play: one's own seat always (or changing one's bot); another's, the
    # creator at the table (handover rules: check_handover).
    "POST /api/tables/{table_id}/seats/{seat}/bot": Right.OWN_SEAT_OR_CREATOR,
    # The waiting room's host: a creator who lets a bot play for them still starts the table.
    "POST /api/tables/{table_id}/start": Right.HOST,
    "POST /api/tables/{table_id}/clock": Right.HOST,
    # Creator powers during the game: only while the creator plays seat 0.
    "POST /api/tables/{table_id}/seats/{seat}/time": Right.CREATOR,
    "POST /api/tables/{table_id}/webhook": Right.CREATOR,
    # What the people at the table decide or do (docs/clocks.md).
    "POST /api/tables/{table_id}/pause": Right.PLAYER,
    "POST /api/tables/{table_id}/pause/agree": Right.PLAYER,
    "POST /api/tables/{table_id}/pause/decline": Right.PLAYER,
    "POST /api/tables/{table_id}/resume": Right.PLAYER,
    "POST /api/tables/{table_id}/seats/{seat}/away": Right.OWN_SEAT_PLAYER,
    # A learning table's "what would the bot do?": the seat's own view, so its own token,
    # while it plays the seat (server.tables.suggest).
    "POST /api/tables/{table_id}/seats/{seat}/suggest": Right.OWN_SEAT_PLAYER,
    "POST /api/tables/{table_id}/seats/{seat}/nudge": Right.PLAYER,
    "POST /api/tables/{table_id}/seats/{seat}/vote": Right.PLAYER,
    # The websocket: anyone may connect and watch; messages as below.
    "WS /ws/tables/{table_id}": Right.ANYONE,
    "WS hello": Right.WATCH,
    "WS command": Right.PLAYER,
    "WS ping": Right.ANYONE,
    "WS snapshot_request": Right.ANYONE,
    # The table chat (docs/protocol.md, "Table chat"): the room one writes in is the chat's own
    # rule (a seat's owner, covered or not, in the players' room; anyone else in the
    # spectators'); hiding a message and closing the spectators' room are seat 0's owner's.
    "WS chat": Right.ANYONE,
    "WS chat_history": Right.ANYONE,
    "WS chat_hide": Right.HOST,
    "WS chat_room": Right.HOST,
}


def right_of(key: str) -> Right:
    """The right ``key`` ("METHOD /path" or "WS type") takes. KeyError: it has none, which
    start-up refuses (``server.api.rights.check_every_route``)."""
    return RIGHTS[key]


def check_right(right: Right, data: TableData, by: Access | None, seat: int | None) -> None:
    """Refuse ``by`` (None: no token) for a route or message of ``right`` at ``data``;
    ``seat``: the route's ``{seat}`` (None: it has none).

    Raises ServiceError: 'no_token' (401), 'not_your_seat', 'not_creator', 'seat_lost'
    (403). A token of no seat never gets here (``access`` gave None: 'bad_token').
    """
    if right in (Right.ANYONE, Right.WATCH):
        return
    if by is None:
        raise ServiceError("no_token", "send the seat token as 'Authorization: Bearer <token>'")
    own = seat is None or by.seat == seat
    if right is Right.OWNER or (own and right in (Right.OWN_SEAT, Right.OWN_SEAT_OR_CREATOR)):
        return
    if (right in (Right.OWN_SEAT, Right.OWN_SEAT_PLAYER) and not own) or (
        right is Right.OWN_SEAT_OR_CREATOR and not by.is_creator
    ):
        raise ServiceError("not_your_seat", f"only seat {seat}'s own link may do this")
    if right in (Right.HOST, Right.CREATOR) and not by.is_creator:
        raise ServiceError("not_creator", "only seat 0 (the table's creator) may do this")
    # PLAYER, OWN_SEAT_PLAYER, CREATOR and the creator's hand-over of another's seat during
    # the game: only while the token plays its seat. In the waiting room the creator is the
    # host, who seats bots whoever will play seat 0.
    hosting = right is Right.HOST or (right is Right.OWN_SEAT_OR_CREATOR and data.status == "open")
    if hosting or data.seats[by.seat].bot is None:
        return
    raise ServiceError(
        "seat_lost",
        f"a bot plays seat {by.seat} for you now; take it back first "
        f"(POST /api/tables/{data.id}/seats/{by.seat}/reclaim)",
    )


# -------------------------------------------------------------------- tokens and invites


def owned_seat(data: TableData, token_hash: str) -> int | None:
    """The seat whose owner has ``token_hash`` (None if none), compared in constant time."""
    found = None
    for seat in data.seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, token_hash):
            found = seat.seat
    return found


def access(data: TableData, secret_key: str, token: str) -> Access | None:
    """The access ``token`` gives at ``data`` (None: it owns no seat of the table)."""
    seat = owned_seat(data, hash_token(secret_key, token))
    if seat is None:
        return None
    return Access(seat=seat, plays=data.seats[seat].bot is None)


def known_access(data: TableData, secret_key: str, token: str) -> Access:
    """``access``, refusing a token of no seat: ServiceError('bad_token', 403)."""
    found = access(data, secret_key, token)
    if found is None:
        raise ServiceError("bad_token", "this token belongs to no seat of the table")
    return found


def invite_code(secret_key: str, table_id: str) -> str:
    """The table's invite secret: derived from the server key, so nothing is stored for it.

    128 bits; a different table or key gives an unrelated code.
    """
    digest = hmac.new(secret_key.encode(), f"invite:{table_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:16]).decode().rstrip("=")


def is_invited(secret_key: str, table_id: str, invite: str | None) -> bool:
    """True when ``invite`` is the table's invite secret (constant-time comparison)."""
    if not invite:
        return False
    return hmac.compare_digest(invite_code(secret_key, table_id).encode(), invite.encode())


# -------------------------------------------------------------------- playing and reading


def check_plays(data: TableData, seat: int, actor: Actor) -> None:
    """Refuse a command for ``seat`` unless ``actor`` plays it in ``data`` (the current version).

    A person's token plays its seat while no bot stands in; the bot runner plays a seat only
    while a bot does (so a bot that was still thinking when its owner came back loses the
    move). Raises ServiceError('seat_lost', 403).
    """
    if not 0 <= seat < len(data.seats):
        raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")
    info = data.seats[seat]
    if isinstance(actor, _Bot):
        if info.bot is None:
            raise ServiceError("seat_lost", f"seat {seat} is not played by a bot now")
        return
    if (
        info.bot is not None
        or info.token_hash is None
        or not hmac.compare_digest(info.token_hash, actor)
    ):
        raise ServiceError(
            "seat_lost", f"this token no longer plays seat {seat}; a bot plays it now"
        )


def plays(data: TableData, seat: int, token_hash: str) -> bool:
    """True while ``token_hash`` plays ``seat`` in ``data`` (its owner, no bot standing in)."""
    try:
        check_plays(data, seat, token_hash)
    except ServiceError:
        return False
    return True


# -------------------------------------------------------------------- joining


def seat_to_join(data: TableData, wanted: int | None, invited: bool) -> int:
    """The seat a newcomer gets: ``wanted``, else the first free one, else (invited) a bot's.

    ``invited``: the joiner brought the invite secret. Without it a table must be public,
    and only its free seats can be taken. A stand-in seat is never taken by anybody: it is
    kept for its owner. Raises ServiceError: 'invite_required', 'finished', 'bad_seat',
    'seat_taken', 'seat_kept', 'table_full'.
    """
    if not invited and not data.public:
        raise ServiceError(
            "invite_required", "this table is private: join it through its invite link"
        )
    if data.status == "finished":
        raise ServiceError("finished", "the game is over; nobody can join")
    if wanted is not None:
        if not 0 <= wanted < len(data.seats):
            raise ServiceError("bad_seat", f"no seat {wanted} (0-{len(data.seats) - 1})")
        _check_joinable(data.seats[wanted], invited)
        return wanted
    free = [s.seat for s in data.seats if not s.is_taken]
    bots = [s.seat for s in data.seats if s.token_hash is None and s.bot is not None]
    for candidates in (free, bots if invited else []):
        if candidates:
            return candidates[0]
    if not invited and bots:
        raise ServiceError(
            "table_full", "no free seat; a bot's seat can be taken only with the invite"
        )
    raise ServiceError("table_full", "every seat has a player")


def _check_joinable(info: SeatInfo, invited: bool) -> None:
    if info.token_hash is not None and info.bot is not None:
        raise ServiceError(
            "seat_kept", f"seat {info.seat} is kept for its player; a bot plays it meanwhile"
        )
    if info.token_hash is not None:
        raise ServiceError("seat_taken", f"seat {info.seat} already has a player")
    if info.bot is not None and not invited:
        raise ServiceError(
            "seat_taken", f"a bot plays seat {info.seat}; only the invite can replace it"
        )


# -------------------------------------------------------------------- handing over


def check_handover(
    data: TableData, by: Access, seat: int, away_seconds: float | None, after: float
) -> None:
    """May ``by`` hand ``seat`` to a bot?

    The seat's own player may, always. The creator may for a seat nobody owns (free, or a
    bot's), and for another person's seat once that person has been away ``after`` seconds
    (``away_seconds`` None: connected now); during the game only while playing seat 0.
    Raises ServiceError: 'finished', 'bad_seat', 'not_your_seat', 'seat_lost',
    'player_present'.
    """
    if data.status == "finished":
        raise ServiceError("finished", "the game is over")
    if not 0 <= seat < len(data.seats):
        raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")
    info = data.seats[seat]
    if by.seat == seat:
        return
    if not by.is_creator:
        raise ServiceError(
            "not_your_seat",
            "only a seat's own player, or the creator for a player who is away, hands it to a bot",
        )
    # Decided on the version the hand-over is stored on, not the one the token was read at.
    check_right(Right.OWN_SEAT_OR_CREATOR, data, by, seat)
    if info.token_hash is None:
        return
    if away_seconds is None or away_seconds < after:
        wait = after if away_seconds is None else after - away_seconds
        name = info.name or f"seat {seat}"
        raise ServiceError(
            "player_present",
            f"{name} is {'connected' if away_seconds is None else 'only briefly away'}; "
            f"their seat can go to a bot after {after:g} s away ({math.ceil(wait)} s from now "
            "at the soonest)",
        )


def check_reclaim(data: TableData, by: Access, seat: int) -> None:
    """May ``by`` take ``seat`` back from the bot standing in? Only its owner, while a bot
    plays it. Raises ServiceError: 'finished', 'bad_seat', 'not_your_seat', 'not_stand_in'."""
    if data.status == "finished":
        raise ServiceError("finished", "the game is over")
    if not 0 <= seat < len(data.seats):
        raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")
    if by.seat != seat:
        raise ServiceError("not_your_seat", "only a seat's own player takes it back")
    if data.seats[seat].bot is None:
        raise ServiceError("not_stand_in", "you play this seat already; no bot to replace")


def people(data: TableData) -> set[int]:
    """The people at the table now: seats their person plays (no bot, stand-in or not). Only
    they take part in what the table decides together: a pause, a vote (docs/clocks.md)."""
    return {s.seat for s in data.seats if s.bot is None and s.token_hash is not None}


def check_person(data: TableData, seat: int, token_hash: str) -> None:
    """Refuse a table act (a pause, a nudge, a vote, "away until") unless ``token_hash``
    plays ``seat`` in ``data`` now: a stand-in's owner only takes the seat back. Raises
    ServiceError('seat_lost', 403) or, before the start or after the end, 'not_started'
    / 'finished' (409)."""
    if data.status == "open":
        raise ServiceError("not_started", "the game has not started yet")
    if data.status == "finished":
        raise ServiceError("finished", "the game is over")
    check_plays(data, seat, token_hash)


def check_creator(by: Access, playing: bool = False) -> None:
    """Creator-only actions need seat 0's own token: the host's (start, the clock) whoever
    plays seat 0; with ``playing``, the creator's during the game (added time, the webhook)
    only while no bot stands in for them. Raises ServiceError('not_creator', 'seat_lost')."""
    if not by.is_creator:
        raise ServiceError("not_creator", "only seat 0 (the table's creator) may do this")
    if playing and not by.plays:
        raise ServiceError(
            "seat_lost", "a bot plays seat 0 for you now; take it back to act as the creator"
        )


# -------------------------------------------------------------------- presence


def heartbeat_interval(handover_after: float) -> float:
    """How often each process notes the seats it has connections for (``seen_at``).

    Often enough that a connected player is never mistaken for one away ``handover_after``.
    """
    return max(0.05, min(5.0, handover_after / 4))


def away_seconds(
    seen_at: float | None, connected_here: bool, now: float, handover_after: float
) -> float | None:
    """How long a seat's person has been away, or None while they may be connected.

    ``seen_at`` is the last moment any process saw a connection of the seat (written at
    connect, every heartbeat and at disconnect); within two heartbeats of it the person may
    still be connected through another process.
    """
    if connected_here:
        return None
    if seen_at is None:
        return math.inf
    gone = now - seen_at
    if gone < 2 * heartbeat_interval(handover_after):
        return None
    return gone


def logged_change(data: TableData, entry: dict[str, Any]) -> dict[str, Any]:
    """The table values that add ``entry`` to the seat log, placed after the log so far."""
    return {"seat_log": [*data.seat_log, {**entry, "at": len(data.log)}]}
