"""The database schema: tables, their seats, and the command log.

The table row holds ``version`` and a snapshot of the state as of step ``state_seq`` (written
every few steps, not at each); the command log holds every accepted command with its events,
so a table is the snapshot plus the commands after it, and can be re-derived from (seed,
seats, options, commands). ``(table_id, seq)`` is unique: two writers can never both append
step N.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING)


class TableRow(Base):
    """One game table. ``status`` is open → playing → finished; ``state`` is null until start."""

    __tablename__ = "tables"
    __table_args__ = (
        sa.Index("ix_tables_creator_key", "creator_key", "created_at"),
        sa.Index("ix_tables_updated_at", "updated_at"),
    )

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(32))
    seats: Mapped[int] = mapped_column(sa.Integer)
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    seed: Mapped[str] = mapped_column(sa.String(128))
    seed_sha256: Mapped[str] = mapped_column(sa.String(64))
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    version: Mapped[int] = mapped_column(sa.Integer)
    state: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    # The step (command ``seq``) ``state`` is at; later commands are replayed onto it on load.
    state_seq: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    result: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    # The events of the game's opening (``server.engine.opening``), written at the deal: the
    # log begins with them. Null: not dealt yet, or dealt before openings were stored (that
    # table's log begins with its first command's events, as it always did).
    opening: Mapped[list[dict[str, Any]] | None] = mapped_column(sa.JSON, nullable=True)
    # Listed in the lobby, and its free seats open to anyone (else: the invite link only).
    public: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    # Seat changes during the game, for the page's log (see TableData.seat_log).
    seat_log: Mapped[list[dict[str, Any]] | None] = mapped_column(sa.JSON, nullable=True)
    # The turn clock (server.clocks.model), written with every change; null: untimed.
    clock: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    # The first moment the clock wants something done (a deadline, a bot's move): the
    # sweep of every process finds due tables by it.
    due_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )
    updated_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )
    # The table of the rematch of this finished game (``server.tables.rematch``): set once,
    # by the change that makes it, so a finished table has at most one.
    rematch: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    # A keyed hash of the address the table was created from (``server.tables.limits``): the
    # per-address limits count by it; the address itself is never stored.
    creator_key: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    # Where "your move" notices of the table are POSTed (set by the creator, shown to nobody
    # else; ``server.notify.webhook``). Null: no webhook.
    webhook_url: Mapped[str | None] = mapped_column(sa.String(2000), nullable=True)


class SeatRow(Base):
    """One seat of a table: its owner (name + token hash), the bot playing it, both or neither.

    A bot on an owned seat stands in for the owner, who may take it back (server.tables.seats).
    """

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(sa.String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    # Unix time a process last saw a connection of this seat's owner (not versioned: it
    # changes without the table changing); decides when the creator may hand the seat over.
    seen_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    # Where the owner wants "your move" e-mails (set and read with the seat's own token only;
    # never in a document, record or log). Null: none.
    email: Mapped[str | None] = mapped_column(sa.String(254), nullable=True)
    # When its owner confirmed the address through the link mailed to it (null: waiting; no
    # notice goes to an address before), the link's token (SHA-256: the link alone holds the
    # token) and until when it works, and how many links this seat has had mailed.
    email_confirmed_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    email_token_hash: Mapped[str | None] = mapped_column(
        sa.String(64), nullable=True, index=True, unique=True
    )
    email_token_until: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    email_links: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")


# Who made a command (``CommandRow.by``) when it was not the seat's person.
BY_BOT = "bot"  # a bot playing the seat: a bot seat, or a bot standing in for its owner
BY_CLOCK = "clock"  # the clock's bot, covering a decision whose time ran out


class CommandRow(Base):
    """One accepted command: step ``seq`` of the table, the version it produced, its events.

    ``client_id`` is the id the client chose (null for bots); it makes retries idempotent.
    ``by`` says who made it: null for the seat's person (every command stored before the
    column was added reads so), ``BY_BOT`` or ``BY_CLOCK``; the post-game analysis judges
    only a person's own decisions.
    """

    __tablename__ = "commands"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seq", name="uq_commands_table_seq"),
        sa.UniqueConstraint("table_id", "seat", "client_id", name="uq_commands_client_id"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(sa.Integer)
    version: Mapped[int] = mapped_column(sa.Integer)
    seat: Mapped[int] = mapped_column(sa.Integer)
    client_id: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    command: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )
    by: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)


class ClockBeat(Base):
    """One row (``id`` 1): when a process last swept the clocks. A process starting after a
    longer gap knows the server was down that long and extends the live clocks."""

    __tablename__ = "clock_beat"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    at: Mapped[float] = mapped_column(sa.Float)


class PushSubscriptionRow(Base):
    """One device's Web Push subscription for one seat (``server.notify.subscriptions``).

    ``endpoint`` is a capability URL of the browser maker's push service and ``p256dh``/``auth``
    the keys a notice is encrypted to: none of them is ever shown, logged or put in a
    document, record or replay. ``endpoint_key`` (its SHA-256) makes one row per device.
    """

    __tablename__ = "push_subscriptions"
    __table_args__ = (
        sa.UniqueConstraint(
            "table_id", "seat", "endpoint_key", name="uq_push_subscriptions_device"
        ),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(sa.Integer)
    endpoint: Mapped[str] = mapped_column(sa.String(2048))
    endpoint_key: Mapped[str] = mapped_column(sa.String(64))
    p256dh: Mapped[str] = mapped_column(sa.String(100))
    auth: Mapped[str] = mapped_column(sa.String(40))
    # The language the notices are written in (a shipped dictionary's code).
    lang: Mapped[str] = mapped_column(sa.String(8))
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )


class VapidKeyRow(Base):
    """The server's one VAPID key pair (``id`` 1), made by whichever process starts first and
    shared by every process on the database (``server.notify.vapid``)."""

    __tablename__ = "vapid_keys"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=False)
    # The P-256 private value and public point, URL-safe base64 without padding.
    private_key: Mapped[str] = mapped_column(sa.String(64))
    public_key: Mapped[str] = mapped_column(sa.String(100))
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )


class NoticeRow(Base):
    """The outbox of "your move" notices (``server.notify.outbox``): one row per seat, holding
    the newest notice of that seat and how far its delivery got.

    ``decision`` is the moment the seat's decision began (its clock's ``since``), so a notice
    is sent once per decision and kind; ``status`` is ``pending`` (to deliver at ``due_at``),
    ``sent``, ``dropped`` (every try failed) or ``expired`` (the decision ended first).
    ``channels`` are the channels still to deliver to (null: all, not tried yet). ``rev``
    grows with every write: each write is a compare-and-set on it, and a claimed notice has
    its ``due_at`` moved to the end of the claim, so of two processes only one sends it.
    """

    __tablename__ = "notices"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seat", name="uq_notices_table_seat"),
        sa.Index("ix_notices_status_due", "status", "due_at"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE")
    )
    seat: Mapped[int] = mapped_column(sa.Integer)
    decision: Mapped[float] = mapped_column(sa.Float)
    kind: Mapped[str] = mapped_column(sa.String(16))
    status: Mapped[str] = mapped_column(sa.String(16))
    due_at: Mapped[float] = mapped_column(sa.Float)
    attempts: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    channels: Mapped[list[str] | None] = mapped_column(sa.JSON, nullable=True)
    rev: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")


class MailBudgetRow(Base):
    """Mails sent to one address in one clock hour, all tables together
    (``server.notify.budget``). ``address_key`` is a keyed hash of the address in lower case,
    never the address: the count outlives the seat that named it."""

    __tablename__ = "mail_budget"

    address_key: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    hour: Mapped[int] = mapped_column(sa.Integer, primary_key=True)  # unix time // 3600
    sent: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")


class TableActRow(Base):
    """One table act a seat token made (a pause proposal, "away", a hand-over …) within the
    last ``ACT_WINDOW`` seconds (``server.tables.limits.check_act``): what the act rate limit
    counts, in the database so that it holds for every process. Older rows are deleted as
    new acts come; what the acts did is in the table's seat log."""

    __tablename__ = "table_acts"
    __table_args__ = (sa.Index("ix_table_acts_table_at", "table_id", "at"),)

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE")
    )
    seat: Mapped[int] = mapped_column(sa.Integer)
    # Seconds since the epoch, by the service's clock (which tests replace).
    at: Mapped[float] = mapped_column(sa.Float)


class ChatRow(Base):
    """One entry of a table's chat log (``server.chat``), beside the game and never in it.

    The log only grows: ``seq`` numbers a table's entries from 1 (unique per table, so two
    processes cannot both write entry N), and every reader catches up by ``seq``. ``kind`` is
    ``text`` (``text`` holds what a person typed), ``phrase`` (``text`` holds a quick
    phrase's id), ``hide`` (the creator hid entry ``target``, whose ``hidden`` is set in the
    same transaction) or ``room`` (the creator opened or closed the spectators' room:
    ``text`` is ``open`` or ``closed``). ``room`` of a message is ``players`` or
    ``spectators``; ``seat`` is the author's seat (null for a spectator), ``name`` the name
    shown. ``author`` and ``client_id`` make a resent message idempotent: ``author`` is the
    author's token hash, or a spectator connection's own random key. ``person`` is who the
    chat's rate limit counts (``server.chat.rules.person_key``: a keyed hash of the token hash
    or of a spectator's address), so that every process counts the same messages; null on
    entries written before it was kept.
    """

    __tablename__ = "chat"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seq", name="uq_chat_table_seq"),
        sa.UniqueConstraint("table_id", "author", "client_id", name="uq_chat_client_id"),
        sa.Index("ix_chat_person_at", "table_id", "person", "at"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE")
    )
    seq: Mapped[int] = mapped_column(sa.Integer)
    kind: Mapped[str] = mapped_column(sa.String(8))
    room: Mapped[str] = mapped_column(sa.String(16))
    seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    name: Mapped[str] = mapped_column(sa.String(40))
    text: Mapped[str] = mapped_column(sa.String(2000))
    target: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    hidden: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    author: Mapped[str] = mapped_column(sa.String(64))
    client_id: Mapped[str] = mapped_column(sa.String(64))
    at: Mapped[float] = mapped_column(sa.Float)
    person: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)


class ChatNoticeRow(Base):
    """The outbox of "Anna wrote at table …" notices (``server.notify.chat_notices``): one
    row per seat of a table, the newest such notice owed to that seat's person and how far
    its delivery got, beside the "your move" rows (``notices``), which it never replaces.

    ``wrote_at`` is when the first message the person has not been told of was written (a
    person seen at the table since has read it: the notice expires); ``by_name`` who wrote
    it; ``sent_at`` when the last one went out, so that the next one waits an hour after it.
    ``status``, ``channels``, ``attempts`` and ``rev`` work as in ``notices``.
    """

    __tablename__ = "chat_notices"
    __table_args__ = (
        sa.UniqueConstraint("table_id", "seat", name="uq_chat_notices_table_seat"),
        sa.Index("ix_chat_notices_status_due", "status", "due_at"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE")
    )
    seat: Mapped[int] = mapped_column(sa.Integer)
    by_name: Mapped[str] = mapped_column(sa.String(40))
    wrote_at: Mapped[float] = mapped_column(sa.Float)
    status: Mapped[str] = mapped_column(sa.String(16))
    due_at: Mapped[float] = mapped_column(sa.Float)
    sent_at: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    attempts: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    channels: Mapped[list[str] | None] = mapped_column(sa.JSON, nullable=True)
    rev: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")


class AnalysisRow(Base):
    """A finished game's post-game analysis (``server.analysis.job``): one row per table.

    ``status`` is ``queued``, ``running`` (claimed by the process ``lease_owner`` until
    ``lease_until``; after that any process may take it over), ``done`` or ``failed`` (the
    record did not replay). ``done`` counts the positions stored in ``analysis_positions``
    out of ``steps``; ``params`` are the play-out counts it runs with.
    """

    __tablename__ = "analyses"
    __table_args__ = (sa.Index("ix_analyses_status_lease", "status", "lease_until"),)

    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(sa.String(16))
    lease_owner: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    steps: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    done: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    params: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    queued_at: Mapped[float] = mapped_column(sa.Float)


class AnalysisPositionRow(Base):
    """One analysed position of a game (``server.analysis.compute.analyse_step``'s figures):
    written once, so a resumed analysis never computes it again."""

    __tablename__ = "analysis_positions"

    table_id: Mapped[str] = mapped_column(
        sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    step: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    figures: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
