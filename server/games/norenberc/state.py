"""The state's shape (``NorenbercState`` and its parts, the command shapes) and small helpers
over it.

The state is JSON data only: the ``TypedDict``s below describe it for mypy (``setup.new_state``
builds the state as a ``NorenbercState`` literal) and ``tests/games/test_state_shapes.py``
checks every state of whole games against them; at run time they are plain dicts. Houses are
a list in guild order (``houses[g - 1]``), players a list indexed by seat. Goods are dicts
keyed by the good's name holding only positive counts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal, NotRequired, TypedDict

from server.engine import Rng, RuleError, own, own_item

from .data import Components, components

State = dict[str, Any]
Goods = dict[str, int]


class PlayerState(TypedDict):
    talers: int  # hidden from the other seats until the game is over
    goods: Goods
    hand: int  # agents in hand
    card: int  # 1 while an agent stands on a revealed card waiting to act
    disc: str
    craftsmen: list[str]  # tile ids
    citizens: list[str]
    peddlers: dict[str, str | None]  # peddler tile id -> good on it
    crests: dict[str, int]  # guild (as a string key) -> guild crests
    prestige: int


class HouseState(TypedDict):
    master: list[str]
    queue: list[list[str]]  # craftsman stacks in positions 1-3
    guests: list[str | None]  # windows 0-3
    store: Goods
    roof: list[int]  # per seat
    crests: int
    judges: list[str]
    _rest: NotRequired[list[str]]  # only while dealing: the tiles that go into the deck


class ChoiceState(TypedDict):
    seat: int
    citizen: str
    tile: str
    to_front: bool


class ActionState(TypedDict):
    guild: int  # the called guild
    cards: list[int]  # seats that revealed a card there
    acted: list[int]
    choice: dict[str, Any] | None  # an open citizen choice (``ChoiceState`` and its fields)


class NorenbercState(TypedDict):
    seats: int
    options: dict[str, Any]
    rng: int
    round: int
    turn: int
    phase: Literal["planning", "action", "over"]
    order: list[int]  # play order
    prestige_guild: int | None
    prestige_crest: bool
    prestige_left: int
    deck: list[str]  # the guest deck (hidden)
    box: list[str]  # tiles that left the game (openly)
    houses: list[HouseState]
    players: list[PlayerState]
    planning: dict[str, Any] | None  # ``server.engine.planning``'s record; plans are guild lists
    plans: list[list[int]] | None  # this turn's sealed plans once planning ended
    called: list[int]
    action: ActionState | None
    prestige_previous: NotRequired[int | None]  # promo only: the duchess's restriction


# The command shapes (``commands.COMMANDS`` checks the exact JSON types at run time).
class PlanCommand(TypedDict):
    type: Literal["plan"]
    guilds: list[int]


class BareCommand(TypedDict):
    type: Literal["pass", "wait", "retract", "nothing", "decline"]


class SellCommand(TypedDict):
    type: Literal["sell"]
    count: int
    total: NotRequired[int]


class BuyCommand(TypedDict):
    type: Literal["buy"]
    goods: Goods
    total: NotRequired[int]


class HireCommand(TypedDict):
    type: Literal["hire"]
    window: int
    payment: Goods
    to_front: bool
    tile: NotRequired[str]


class StealCommand(TypedDict):
    type: Literal["steal"]
    victim: int
    goods: Goods
    paid: NotRequired[int]


class BailiffCommand(TypedDict):
    type: Literal["bailiff"]
    tiles: list[str]


class PeddlerCommand(TypedDict):
    type: Literal["peddler_good"]
    good: str


class GuildCommand(TypedDict):
    type: Literal["judge_house", "duchess"]
    guild: int


class HistorianCommand(TypedDict):
    type: Literal["historian"]
    give: int
    take: int


NorenbercCommand = (
    PlanCommand
    | BareCommand
    | SellCommand
    | BuyCommand
    | HireCommand
    | StealCommand
    | BailiffCommand
    | PeddlerCommand
    | GuildCommand
    | HistorianCommand
)

AGENTS_PER_PLAYER = 8
LAST_ROUND = 4
UNCHANGING = frozenset({"options"})  # state keys no command changes


def comps() -> Components:
    return components()


def tile(tile_id: str) -> dict[str, Any]:
    """The public description of a tile (shared; never mutate it)."""
    return comps().tiles[tile_id]


def house(state: State, guild: int) -> dict[str, Any]:
    house_: dict[str, Any] = state["houses"][guild - 1]
    return house_


def player(state: State, seat: int) -> dict[str, Any]:
    player_: dict[str, Any] = state["players"][seat]
    return player_


# ``apply`` works on a draft (``server.engine.draft``): a part is taken with these before
# anything inside it changes, and only that part is copied. ``house`` and ``player`` read.


def own_house(state: State, guild: int) -> dict[str, Any]:
    """The house of ``guild``, to change (``server.engine.own_item``)."""
    house_: dict[str, Any] = own_item(state, "houses", guild - 1)
    return house_


def own_player(state: State, seat: int) -> dict[str, Any]:
    """The player at ``seat``, to change (``server.engine.own_item``)."""
    player_: dict[str, Any] = own_item(state, "players", seat)
    return player_


def own_action(state: State) -> dict[str, Any]:
    """The action at the called guild (``state["action"]``), to change."""
    action: dict[str, Any] = own(state, "action")
    return action


def own_list(state: State, key: str) -> list[Any]:
    """A top-level list (``deck``, ``box``, ``order``, ``called``), to change."""
    items: list[Any] = own(state, key)
    return items


def good_of(guild: int) -> str:
    return comps().good_of(guild)


def guilds_in_play(state: State) -> list[int]:
    return list(range(1, len(state["houses"]) + 1))


def good_names(state: State) -> list[str]:
    """Goods of the guilds in play, in guild order."""
    return list(_good_names(len(state["houses"])))


@lru_cache(maxsize=8)
def _good_names(guild_count: int) -> tuple[str, ...]:
    return tuple(good_of(g) for g in range(1, guild_count + 1))


def add_goods(target: Goods, good: str, n: int) -> None:
    """Add ``n`` (may be negative) of ``good`` to ``target``, dropping zero counts."""
    count = target.get(good, 0) + n
    if count < 0:
        raise ValueError(f"goods count of {good} would become {count}")
    if count:
        target[good] = count
    else:
        target.pop(good, None)


def move_goods(source: Goods, target: Goods, goods: Goods) -> None:
    for good, n in goods.items():
        add_goods(source, good, -n)
        add_goods(target, good, n)


def ordered_goods(state: State, goods: Goods) -> Goods:
    """``goods`` with keys in guild order (the canonical form views and commands use)."""
    return {g: goods[g] for g in _good_names(len(state["houses"])) if goods.get(g)}


def goods_count(goods: Goods) -> int:
    return sum(goods.values())


def master_value(state: State, guild: int) -> int | None:
    """The value of the current master (top tile) of ``guild``; None when it has none."""
    master = house(state, guild)["master"]
    return tile(master[0])["value"] if master else None


def price(state: State, guild: int) -> int:
    """The current price of one good at ``guild`` (its master's value)."""
    value = master_value(state, guild)
    if value is None:
        raise RuleError("no_master", f"guild {guild} has no master right now")
    return value


def roof_total(state: State, seat: int) -> int:
    return sum(h["roof"][seat] for h in state["houses"])


def agent_supply(state: State, seat: int) -> int:
    """Agents of ``seat`` still in the common supply."""
    p = player(state, seat)
    supply: int = AGENTS_PER_PLAYER - p["hand"] - p["card"] - roof_total(state, seat)
    return supply


def order_index(state: State, seat: int) -> int:
    index: int = state["order"].index(seat)
    return index


def rng_shuffle(state: State, items: list[Any]) -> None:
    """Shuffle ``items`` (a list the caller owns) in place with the state's generator,
    writing its new state back."""
    rng = Rng(state["rng"])
    rng.shuffle(items)
    state["rng"] = rng.state


def guild_name(guild: int) -> str:
    return comps().names[guild]


def describe_tile(tile_id: str) -> str:
    """A short English name of a tile for event texts ("a 5 brewer", "a musician (5)")."""
    t = tile(tile_id)
    if t["kind"] == "craftsman":
        return f"a {t['value']} {guild_name(t['guild'])[:-1]}"
    name = t["citizen"].replace("_", " ")
    return f"a {name}" + (f" ({t['value']})" if t["value"] is not None else "")


def tile_params(tile_id: str) -> dict[str, Any]:
    """A tile as event params carry it: its id and public description (a copy)."""
    return {"id": tile_id, **tile(tile_id)}


def describe_goods(goods: Goods) -> str:
    """ "2 beer and 1 shoes" for event texts."""
    parts = [f"{n} {g}" for g, n in goods.items()]
    return " and ".join(parts) if parts else "nothing"


def craftsmen_of(state: State, seat: int, guild: int) -> list[str]:
    return [t for t in player(state, seat)["craftsmen"] if tile(t)["guild"] == guild]


def owned_count(state: State, seat: int, citizen: str) -> int:
    """How many citizens of type ``citizen`` ``seat`` owns."""
    return sum(1 for t in player(state, seat)["citizens"] if tile(t)["citizen"] == citizen)


def sell_price(state: State, seat: int, guild: int) -> int:
    """What ``seat`` gets for one good at ``guild``: the price, +1 per merchant owned."""
    return price(state, guild) + owned_count(state, seat, "merchant")


def buy_price(state: State, seat: int, guild: int) -> int:
    """What ``seat`` pays for one good at ``guild``: the price, -1 per haggler, at least 1."""
    return max(1, price(state, guild) - owned_count(state, seat, "haggler"))
