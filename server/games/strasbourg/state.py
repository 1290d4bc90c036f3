"""The state's shape (``StrasbourgState`` and its parts, the command shapes) and small shared
facts about the turn structure: steps, council seats, seat order.

The ``TypedDict``s describe the plain JSON state for mypy (``setup.new_state`` builds it as a
``StrasbourgState`` literal); ``tests/games/test_state_shapes.py`` checks every state of whole
games against them. At run time they are plain dicts.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from server.engine import own_item

from .data import GUILD_KEYS, components

State = dict[str, Any]


class PlayerState(TypedDict):
    deck: list[int]  # influence cards still to draw, top first (hidden, also from the owner)
    hand: list[int]  # drawn this round, not yet stacked (the owner's)
    building: list[list[int]]  # stacks being built (the owner's)
    stopped: bool
    stacks: list[list[int]]  # sealed stacks on the table (values hidden, sizes public)
    coins: int
    goods: dict[str, int]  # guild key -> goods
    privileges: int
    prestige: int
    offer: list[int]  # task cards offered at setup (the owner's)
    tasks: list[int]  # task cards kept (the owner's)
    out: int  # cards out of the game
    spent: list[int]  # values turned over in earlier steps (public)


class InfluenceState(TypedDict):
    start: int
    queue: list[int]  # who decides next, first first
    revealed: list[list[int] | None]  # per seat, the stack it turned over
    passed: list[bool]


class ChoiceState(TypedDict):
    seat: int
    kind: str  # build, apprentice, sell, return, chapel, edifice
    guild: str | None
    role: str | None


class StrasbourgState(TypedDict):
    game: Literal["strasbourg"]
    seats: int
    options: dict[str, Any]
    rng: int
    phase: Literal["tasks", "planning", "influence", "choice", "over"]
    round: int  # 0-based
    step: int  # 0 = A … 8 = I
    cards: list[int]  # round-card order
    edifice_order: list[int]
    start: int
    council: dict[str, int | None]  # council seat -> the seat on it
    city: list[list[int | None]]  # rows of cells: the seat whose member is there
    built: list[list[int]]  # [row, col, edifice index]
    chapels: list[int]  # chapel sites taken
    players: list[PlayerState]
    planning: dict[str, Any] | None  # ``server.engine.planning``'s record
    influence: InfluenceState | None
    ranking: list[int]
    choices: list[ChoiceState]


# The command shapes (``commands.COMMANDS`` checks the exact JSON types at run time).
class KeepCommand(TypedDict):
    type: Literal["keep"]
    tasks: list[int]


class BareCommand(TypedDict):
    type: Literal[
        "draw",
        "stop",
        "wait",
        "seal",
        "retract",
        "pass",
        "privilege",
        "decline",
        "take_good",
        "done",
        "return_none",
    ]


class StackCommand(TypedDict):
    type: Literal["stack"]
    cards: list[int]


class RevealCommand(TypedDict):
    type: Literal["reveal"]
    stack: int


class CellCommand(TypedDict):
    type: Literal["build", "edifice"]
    cell: list[int]  # [row, col]


class SellCommand(TypedDict):
    type: Literal["sell"]
    guild: str


class ReturnCardCommand(TypedDict):
    type: Literal["return_card"]
    card: int


class ChapelCommand(TypedDict):
    type: Literal["chapel"]
    site: int


StrasbourgCommand = (
    KeepCommand
    | BareCommand
    | StackCommand
    | RevealCommand
    | CellCommand
    | SellCommand
    | ReturnCardCommand
    | ChapelCommand
)

UNCHANGING = frozenset({"options", "cards", "edifice_order"})  # state keys no command changes
STEPS = "ABCDEFGHI"
COUNCIL_SEATS = ("nobility", "church", "merchants", *GUILD_KEYS)
COUNCIL_NAMES = {
    "nobility": "Nobility",
    "church": "Church",
    "merchants": "Merchants'",
    **{key: f"{key.capitalize()}'" for key in GUILD_KEYS},
}
# Round-card step index -> which of the card's three guilds it influences.
GUILD_STEP = {1: 0, 3: 1, 5: 2}
MERCHANT_STEPS = (2, 4, 6)
INFLUENCE_STEPS = range(7)
CHAPEL_STEP, EDIFICE_STEP = 7, 8
DECK = [value for value in range(1, 7) for _ in range(4)]


def clockwise(start: int, seats: int) -> list[int]:
    """Seats in clockwise order beginning with ``start``.

    >>> clockwise(2, 4)
    [2, 3, 0, 1]
    """
    return [(start + i) % seats for i in range(seats)]


def step_kind(step: int) -> str:
    """'nobility_church', 'guild', 'merchants', 'chapel' or 'edifice' for step index 0..8."""
    if step == 0:
        return "nobility_church"
    if step in GUILD_STEP:
        return "guild"
    if step in MERCHANT_STEPS:
        return "merchants"
    return "chapel" if step == CHAPEL_STEP else "edifice"


def step_guild(state: State) -> str | None:
    """The guild the current step influences (B, D, F), else None."""
    if state["step"] not in GUILD_STEP:
        return None
    card = components().round_cards[state["cards"][state["round"]]]
    guild: str | None = card[GUILD_STEP[state["step"]]]
    return guild


def action_slots(step: int, seats: int) -> int:
    """How many ranked players act in influence step ``step`` (3 players: no journeyman)."""
    kind = step_kind(step)
    if kind == "nobility_church":
        return 2
    if kind == "guild":
        return 3 if seats >= 4 else 2
    return 1


def rank(totals: dict[int, int], start: int, seats: int) -> list[int]:
    """Seats that revealed, best first: higher total, ties to the seat nearer the starting
    player clockwise (the starting player wins every tie it is in).

    >>> rank({0: 5, 1: 3, 2: 5, 3: 6}, start=0, seats=4)
    [3, 0, 2, 1]
    """
    return sorted(totals, key=lambda s: (-totals[s], (s - start) % seats))


def own_player(state: State, seat: int) -> dict[str, Any]:
    """The player at ``seat``, to change: ``apply`` works on a draft
    (``server.engine.draft``), which copies a part only when the rules take it."""
    player: dict[str, Any] = own_item(state, "players", seat)
    return player


def city_cells(state: State, seat: int) -> list[tuple[int, int]]:
    """Cells of the city where ``seat`` has a family member."""
    return [
        (r, c)
        for r, row in enumerate(state["city"])
        for c, occupant in enumerate(row)
        if occupant == seat
    ]


def council_count(state: State, seat: int) -> int:
    """How many council seats ``seat``'s family holds."""
    return sum(1 for holder in state["council"].values() if holder == seat)


def built_edifices(state: State) -> dict[tuple[int, int], int]:
    """Built edifices: cell -> edifice index."""
    return {(r, c): idx for r, c, idx in state["built"]}


def cards_held(player: dict[str, Any], plan: list[list[int]] | None) -> int:
    """Influence cards a player still holds anywhere (deck, hand, stacks, sealed plan)."""
    in_stacks = sum(len(s) for s in player["stacks"]) + sum(len(s) for s in player["building"])
    return len(player["deck"]) + len(player["hand"]) + in_stacks + sum(len(s) for s in plan or [])


def edifice_of_round(state: State) -> int:
    """Index (in the data file) of the edifice built in the current round's step I."""
    edifice: int = state["edifice_order"][state["round"]]
    return edifice


def edifice_name(index: int) -> str:
    """The printed name of edifice ``index``."""
    return components().edifices[index].name


def counted(n: int, noun: str) -> str:
    """``n`` things in words as a person writes them in a log line: "1 card", "3 cards"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
