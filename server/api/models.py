"""Request and response bodies of the HTTP API (pydantic), shown at ``/docs``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from server.engine.registry import KNOWN_GAMES


def _printable(name: str) -> str:
    """A name others will read: no control characters (a NUL would not even store in
    Postgres). Lone surrogates never get here: they are not valid strings for pydantic."""
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name):
        raise ValueError("a name may not hold control characters")
    return name


Name = Field(min_length=1, max_length=40, description="the player's name as others see it")
PlayerName = Annotated[str, AfterValidator(_printable)]


class TableOptions(BaseModel):
    """The table's options. ``planning`` is the engine's (sealed planning), for every game;
    a game's own options (``schema`` in ``GET /api/games``) are checked against its manifest
    when the table is made (``bad_option``)."""

    model_config = ConfigDict(extra="allow")

    planning: Literal["simultaneous", "ordered"] = Field(
        "simultaneous",
        description="'ordered': every seat but the first waits on every turn, in the game's order",
    )


class ClockSettings(BaseModel):
    """A table's turn clock (docs/clocks.md); a setting left out keeps its default."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["live", "days", "untimed"] = Field(
        "untimed", description="live: free time per decision, then a bank; days: a fixed time"
    )
    plan: float | None = Field(None, description="live: free seconds to plan (5-3600)")
    action: float | None = Field(None, description="live: free seconds per action (5-3600)")
    bank: float | None = Field(None, description="live: the bank each seat starts with (s)")
    increment: float | None = Field(None, description="live: seconds a decision adds to the bank")
    per_decision: int | None = Field(
        None, description="days: seconds per decision, one of 12 h, 1, 2, 3, 5 or 7 days"
    )

    def config(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class AddTime(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The range (1 s to 7 days) is the clock model's: outside it the answer is 'bad_time'.
    seconds: float = Field(description="seconds more for the seat, 1 to 604800 (7 days)")


class ProposePause(BaseModel):
    model_config = ConfigDict(extra="forbid")

    until: float | None = Field(
        None,
        allow_inf_nan=False,
        description="when the pause ends by itself (s since the epoch, within 30 days)",
    )


class AnswerPause(BaseModel):
    model_config = ConfigDict(extra="forbid")

    proposal: int = Field(ge=1, le=2**31, description="the open proposal's id (clock.proposal)")


class AwayUntil(BaseModel):
    model_config = ConfigDict(extra="forbid")

    until: float | None = Field(
        None,
        allow_inf_nan=False,
        description="back by then (s since the epoch, within 60 days); null: back now",
    )


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(examples=sorted(KNOWN_GAMES))
    seats: int = Field(ge=2, le=5)
    options: TableOptions = Field(default_factory=lambda: TableOptions(planning="simultaneous"))
    bots: list[Literal["random", "greedy", "mcts"] | None] = Field(
        default_factory=list,
        description="one entry per seat (null: a person); seat 0 is the creator's",
    )
    name: PlayerName = Name
    public: bool = Field(
        False,
        description="listed in the lobby, its free seats open to anyone (default: invite only)",
    )
    clock: ClockSettings | None = Field(None, description="the turn clock (default: untimed)")
    learning: bool = Field(
        False,
        description="a learning table: each seat may ask what the strong bot would do "
        "(POST /api/tables/{id}/seats/{seat}/suggest); shown to everyone",
    )


Invite = Field(
    None,
    max_length=64,
    description="the table's invite secret (the invite link's #invite=…); needed unless public",
)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: PlayerName = Name
    seat: int | None = Field(
        None, ge=0, description="a free seat (or, with the invite, a bot's); default: the first"
    )
    invite: str | None = Invite


class AssignBot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["random", "greedy", "mcts"]


class SeatLink(BaseModel):
    """A seat and the secret link that plays it. Share the link only with that player.

    ``invite_link`` is the one to share with friends: it lets them take free seats.
    """

    table_id: str
    seat: int
    token: str
    link: str
    invite: str
    invite_link: str


class MySeat(BaseModel):
    """What a seat token is at its table (``GET /api/tables/{id}/me``)."""

    table_id: str
    seat: int
    plays: bool = Field(description="false while a bot stands in; take the seat back then")
    creator: bool
    invite: str
    invite_link: str


class SeatSummary(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    connected: bool
    stand_in: bool = Field(
        False, description="the bot plays for the named person, who may take the seat back"
    )
    away_seconds: float | None = Field(
        None, description="how long the seat's person has been away; null if connected or none"
    )


class TableSummary(BaseModel):
    id: str
    game: str
    title: str
    status: Literal["open", "playing", "finished"]
    version: int
    seed_sha256: str
    options: dict[str, Any]
    public: bool = False
    handover_after: float = Field(
        description="seconds a person must be away before the creator may hand the seat over"
    )
    seats: list[SeatSummary]
    clock: dict[str, Any] | None = Field(
        None, description="the turn clock: mode, settings, each seat's absolute deadline"
    )
    server_time: float = Field(0.0, description="the server's time (s since the epoch)")
    clock_rules: dict[str, float] = Field(
        default_factory=dict,
        description="untimed tables: nudge_after, nudge_every, vote_after (s; docs/clocks.md)",
    )
    rematch: str | None = Field(None, description="the id of this finished game's rematch")
    learning: bool = Field(False, description="a learning table: the bot's suggestions are on")


class SeatToken(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table_id: str = Field(max_length=64)
    token: str = Field(max_length=128, description="the seat link's token (#seat=…)")


class MyTablesAsked(BaseModel):
    """The seat links a browser keeps (``POST /api/tables/mine``)."""

    model_config = ConfigDict(extra="forbid")

    seats: list[SeatToken] = Field(max_length=50, description="at most 50 seat links")


class MySeatAt(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    stand_in: bool


class MyTableResult(BaseModel):
    scores: list[Any] | None
    winners: list[int] | None


class MyTable(BaseModel):
    """One seat link's table at a glance; only ``table_id`` and ``error`` when the server
    cannot answer for it (``unknown_table``, ``bad_token``)."""

    table_id: str
    error: str | None = None
    game: str | None = None
    title: str | None = None
    status: Literal["open", "playing", "finished"] | None = None
    seat: int | None = None
    plays: bool | None = Field(None, description="false while a bot stands in for the seat")
    creator: bool | None = None
    seats: list[MySeatAt] | None = None
    round: int | None = None
    rounds: int | None = None
    to_act: list[int] | None = Field(None, description="the seats the game waits for")
    your_move: bool | None = None
    clock: str | None = Field(None, description="the clock's mode (null: no clock)")
    deadline: float | None = Field(
        None, description="when your move's time runs out (server seconds since the epoch)"
    )
    result: MyTableResult | None = None
    rematch: str | None = None
    learning: bool | None = Field(None, description="a learning table (the bot's suggestions)")
    chat: int | None = Field(
        None,
        description="the seq of the newest chat message someone else wrote (0: none): newer"
        " than the one the browser last read means unread messages",
    )


class MyTables(BaseModel):
    tables: list[MyTable]
    server_time: float = Field(description="the server's time (s since the epoch)")


class TableList(BaseModel):
    tables: list[TableSummary]


def _is_none(value: Any) -> bool:
    return value is None


class CommandRecord(BaseModel):
    seat: int
    cmd: dict[str, Any]
    # Left out when null, so that a game people played alone has the record it always had.
    by: Literal["bot", "clock"] | None = Field(
        None,
        exclude_if=_is_none,
        description="who made the command when not the seat's person: 'bot' (a bot seat, or a "
        "bot standing in for its player), 'clock' (the clock's bot, covering a decision whose "
        "time ran out); absent for the person's own",
    )


class TableRecord(BaseModel):
    """A finished game, enough to replay it: ``guildhall verify RECORD.json``."""

    table_id: str
    game: str
    seats: int
    names: list[str | None]
    bots: list[str | None]
    options: dict[str, Any]
    learning: bool = Field(False, description="whether the bot's suggestions were on")
    seed: str
    seed_sha256: str
    commands: list[CommandRecord]
    result: dict[str, Any] | None
    seat_log: list[dict[str, Any]] = Field(
        default_factory=list,
        description="every seat change and table act of the game (documents carry the newest)",
    )
    opening: list[dict[str, Any]] | None = Field(
        None,
        description="the events of the game's opening, with which the log began; null for a "
        "table dealt before openings were stored. guildhall verify checks them when present",
    )


class OptionChoice(BaseModel):
    value: str
    label: str = Field(description="dictionary key of the choice's text")


class OptionInfo(BaseModel):
    """One table option of a game, as the lobby draws it (``server.engine.manifest``)."""

    key: str
    type: Literal["bool", "choice", "int"]
    default: bool | int | str
    label: str = Field(description="dictionary key of the option's label")
    choices: list[OptionChoice] | None = None
    help: str | None = Field(None, description="dictionary key of a line on the option")
    minimum: int | None = None
    maximum: int | None = None


class ScoreInfo(BaseModel):
    key: str = Field(description="a key of the result's breakdown")
    label: str = Field(description="dictionary key of the category's name")


class Suggestion(BaseModel):
    cmd: dict[str, Any] = Field(description="the command, as the view's legal list has it")
    visits: int = Field(description="simulated games the search played with it")
    total: int = Field(description="simulated games the search played in all")
    win: float | None = Field(
        description="the search's win estimate, 0-1 (null: not simulated in time, or the "
        "only command)"
    )
    points: float | None = Field(
        description="the game heuristic's estimate of the points it adds (null: none)"
    )


class Suggestions(BaseModel):
    """What the strong bot would do, best first (at most three)."""

    table_id: str
    seat: int
    version: int = Field(description="the table version the suggestions are for")
    suggestions: list[Suggestion]


class GameInfo(BaseModel):
    """A game's manifest: what the lobby, the table page and tools need to know of it."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: dict[str, Any] = Field(description="every option at its default")
    schema_: list[OptionInfo] = Field(
        default_factory=list, alias="schema", description="the options the lobby offers"
    )
    title_key: str = ""
    page_module: str = Field("", description="the table page's module, under /static/js/")
    strings_prefix: str = Field("", description="the prefix of the game's own dictionary keys")
    log_prefix: str = Field("log.", description="the prefix of its log line templates")
    scores: list[ScoreInfo] = Field(default_factory=list, description="final score categories")


class GameList(BaseModel):
    games: list[GameInfo]


class ErrorBody(BaseModel):
    code: str
    message: str
    retry_after: int | None = Field(
        None, description="rate limits: seconds to wait before asking again (also Retry-After)"
    )
