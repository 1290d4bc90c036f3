"""A Norenberc position as the bots weigh it: holdings in compact form and their worth in VP.

``Position.from_view`` reads a seat's view (docs/norenberc.md); other seats' talers, which the
view hides, come in as estimates. ``worth(pos, seat)`` is the seat's expected final VP as far
as a quick formula can tell:

- the final-scoring categories on present holdings (majorities, 30+, all guilds, crests,
  sun citizens) — the engine's own scoring function;
- talers, at a weight falling from round 1 to 4 (money buys goods early; late it only buys
  the richest bonus);
- goods: what they could be sold for later, plus the chance of being the guild's favourite
  at this round end times what the favourite takes (master tile, guild crest, prestige crest);
- extra agents (more actions in the rounds to come) and musician income still to come.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from server.engine import View
from server.games.norenberc.scoring import (
    RICHEST_TIED_VP,
    RICHEST_VP,
    Holdings,
    crest_vp,
    score_holdings,
)

LAST_ROUND = 4
START_AGENTS = 4
Tile = dict[str, Any]
# A seat's craftsmen (guild, value), citizens (type, value), guild crests and prestige crests.
TilesKey = tuple[tuple[tuple[int, int], ...], tuple[tuple[str, Any], ...], frozenset[int], int]


@dataclass
class Seat:
    """One player's holdings (mutable copies: actions are tried on a ``clone``)."""

    talers: float
    goods: dict[str, int]
    craftsmen: list[Tile]
    citizens: list[Tile]
    crests: set[int]
    prestige: int
    agents: int  # agents owned (hand + roof), not counting the supply
    counts: list[int] | None = None  # favour counts per guild, filled on first use
    # what being favourite of each guild is worth to this seat; depends only on craftsmen,
    # crests and citizens, so a clone keeps it until one of those changes (``tiles_taken``)
    prizes: list[float] | None = None
    # its tiles and crests as the caches of scores and prizes know them (``_tiles_key``); a
    # clone keeps it until those change
    tiles: TilesKey | None = None

    def clone(self) -> Seat:
        # A plain constructor call: dataclasses.replace is several times slower, and the
        # heuristic clones a seat for every command it weighs.
        return Seat(
            self.talers,
            dict(self.goods),
            list(self.craftsmen),
            list(self.citizens),
            set(self.crests),
            self.prestige,
            self.agents,
            None,
            self.prizes,
            self.tiles,
        )

    def tiles_taken(self) -> None:
        """Forget what hangs on the seat's tiles: one was added (a clone's own lists)."""
        self.prizes = None
        self.tiles = None


@dataclass
class Position:
    """The board as one seat sees it (``seats[i].talers`` may be an estimate)."""

    round: int
    goods: list[str]  # good of guild g at index g - 1
    prices: list[int]  # current master value per guild (0 without a master)
    masters: list[list[Tile]]
    upcoming: list[list[int]]  # master values of the rounds still to come, per guild
    prestige_guild: int | None
    order: list[int]
    seats: list[Seat] = field(default_factory=list)
    resales: list[float] = field(default_factory=list)  # ``resale`` per guild, once computed
    scored: list[int] | None = None  # final-scoring VP on present holdings, once computed
    # final-scoring VP after the seat to move takes a given tile (hire options share them)
    scored_after: dict[str, tuple[list[int], list[float]]] = field(default_factory=dict)
    # per seat, the most goods any other seat counts for each guild's favour (``rivals``)
    rivals: dict[int, list[int]] = field(default_factory=dict)
    # per seat, its ``worth`` here, once computed (a position never changes once made)
    worths: dict[int, float] = field(default_factory=dict)
    # what one hire (guest, payment) leaves, shared by its orders (``norenberc_greedy``)
    hired: dict[Any, tuple[Position, float]] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: View, talers: list[float]) -> Position:
        """The position in ``view`` with ``talers[s]`` for every seat."""
        guilds = view["guilds"]
        left = LAST_ROUND - view["round"]
        return cls(
            round=view["round"],
            goods=[g["good"] for g in guilds],
            prices=[g["price"] or 0 for g in guilds],
            masters=[list(g["master"]) for g in guilds],
            upcoming=[[stack[0]["value"] for stack in g["queue"][:left]] for g in guilds],
            prestige_guild=view["prestige_guild"],
            order=list(view["play_order"]),
            seats=[_seat(p, talers[i]) for i, p in enumerate(view["players"])],
        )

    def with_seat(self, index: int, seat: Seat, same_holdings: bool = True) -> Position:
        """This position with seat ``index`` replaced (the rest is shared, not copied).

        ``same_holdings`` says the change touched only goods and talers, so the final-scoring
        VP computed for this position still hold (the richest bonus is ignored for speed).
        """
        seats = list(self.seats)
        seats[index] = seat
        # Only the changed seat's rivals are the same: they are every other seat's counts.
        rivals = {index: self.rivals[index]} if index in self.rivals else {}
        return Position(
            self.round,
            self.goods,
            self.prices,
            self.masters,
            self.upcoming,
            self.prestige_guild,
            self.order,
            seats,
            self.resales,
            self.scored if same_holdings else None,
            {},
            rivals,
        )


def _seat(p: dict[str, Any], talers: float) -> Seat:
    agents = p["agents"]
    return Seat(
        talers=talers,
        goods=dict(p["goods"]),
        craftsmen=list(p["craftsmen"]),
        citizens=list(p["citizens"]),
        crests={int(g) for g, n in p["guild_crests"].items() if n},
        prestige=p["prestige_crests"],
        agents=agents["hand"] + agents["roof"],
    )


MONEY_WEIGHTS = {1: 1.1, 2: 1.0, 3: 0.8}


def money_weight(round_: int) -> float:
    """VP per taler. Tuned by tournaments: money is worth more than its share of the final
    score suggests, because it buys goods (favour, crests, craftsmen) when masters are cheap."""
    return MONEY_WEIGHTS.get(round_, 0.5)


def resale(pos: Position, guild: int) -> float:
    """Talers one good of ``guild``'s kind can still be sold for, at best, this round or later."""
    if not pos.resales:
        pos.resales.extend(
            0.75 * max([price, *later])
            for price, later in zip(pos.prices, pos.upcoming, strict=True)
        )
    return pos.resales[guild - 1]


def favour_count(pos: Position, seat: int, guild: int) -> int:
    """Goods that count for the favourite of ``guild``: stock plus 4 per loaded peddler."""
    s = pos.seats[seat]
    if s.counts is None:
        peddled = [c.get("good") for c in s.citizens if c.get("citizen") == "peddler"]
        goods = s.goods
        if peddled:
            s.counts = [goods.get(good, 0) + 4 * peddled.count(good) for good in pos.goods]
        else:
            s.counts = [goods.get(good, 0) for good in pos.goods]
    return s.counts[guild - 1]


def favour_chance(pos: Position, seat: int, guild: int) -> float:
    """Rough chance that ``seat`` is the favourite of ``guild`` at this round end."""
    mine = favour_count(pos, seat, guild)
    others = [favour_count(pos, s, guild) for s in range(len(pos.seats)) if s != seat]
    return _chance(pos, seat, guild, mine, max(others, default=0))


def rivals(pos: Position, seat: int) -> list[int]:
    """Per guild, the most goods any seat but ``seat`` counts for its favour (cached)."""
    found = pos.rivals.get(seat)
    if found is None:
        found = [0] * len(pos.goods)
        for other in range(len(pos.seats)):
            if other != seat:
                favour_count(pos, other, 1)  # fills the seat's counts
                found = [
                    max(r, c) for r, c in zip(found, pos.seats[other].counts or [], strict=True)
                ]
        pos.rivals[seat] = found
    return found


def _chance(pos: Position, seat: int, guild: int, mine: int, rival: int) -> float:
    if mine == 0:
        return 0.0
    lead = mine - rival
    if lead > 0:
        return _AHEAD[lead] if lead < len(_AHEAD) else 1.0 - 0.45 * math.exp(-0.9 * lead)
    if lead == 0:
        return 0.4 if _wins_tie(pos, seat, guild, mine) else 0.25
    return _BEHIND[-lead] if -lead < len(_BEHIND) else 0.25 * math.exp(0.9 * lead)


# ``_chance`` of the usual leads, computed once (the very same floats as the formulas).
_AHEAD = [1.0 - 0.45 * math.exp(-0.9 * lead) for lead in range(32)]
_BEHIND = [0.25 * math.exp(0.9 * -behind) for behind in range(32)]


def _wins_tie(pos: Position, seat: int, guild: int, count: int) -> bool:
    """Whether ``seat`` beats every other seat counting ``count`` for ``guild``: more talers,
    else earlier in play order (no two seats tie on both)."""
    me = pos.seats[seat]
    mine = (me.talers, -pos.order.index(seat))
    return not any(
        other != seat
        and favour_count(pos, other, guild) == count
        and (o.talers, -pos.order.index(other)) > mine
        for other, o in enumerate(pos.seats)
    )


def favour_prize(pos: Position, seat: int, guild: int) -> float:
    """VP the favourite of ``guild`` gains (cached on the seat, see ``Seat.prizes``)."""
    return prizes(pos, seat)[guild - 1]


def prizes(pos: Position, seat: int) -> list[float]:
    """``favour_prize`` of every guild for ``seat``, computed once per holdings."""
    s = pos.seats[seat]
    if s.prizes is None:
        masters = tuple(tuple((t["value"], t["agent"]) for t in tiles) for tiles in pos.masters)
        s.prizes = list(_prizes(masters, _tiles_key(s), pos.prestige_guild))
    return s.prizes


@lru_cache(maxsize=1 << 14)
def _prizes(
    masters: tuple[tuple[tuple[int, bool], ...], ...], tiles: TilesKey, prestige_guild: int | None
) -> tuple[float, ...]:
    """``_prize`` of every guild, for the masters on offer and a seat's tiles: the same few
    recur all game long, so each is weighed once."""
    crafts, citizens, crests, prestige = tiles
    owned = {g for g, _ in crafts}
    engravers = sum(1 for kind, _ in citizens if kind == "engraver")
    return tuple(
        _prize(
            masters[guild - 1], guild, guild in owned, crests, prestige + engravers, prestige_guild
        )
        for guild in range(1, len(masters) + 1)
    )


def _prize(
    tiles: tuple[tuple[int, bool], ...],
    guild: int,
    owned: bool,
    crests: frozenset[int],
    others: int,
    prestige_guild: int | None,
) -> float:
    """VP the favourite of ``guild`` gains: master tile(s) (value, agent), guild crest,
    prestige crest; ``others``: the seat's distinct crests that are not guild crests."""
    prize: float = sum(0.8 + 0.45 * value + (0.8 if agent else 0.0) for value, agent in tiles)
    if not owned:
        prize += 1.2  # a first craftsman of a guild counts towards "all guilds"
    distinct = len(crests) + others
    if guild not in crests:
        prize += crest_step(distinct)
        distinct += 1
    if guild == prestige_guild:
        prize += crest_step(distinct)
    return prize


def crest_step(distinct: int) -> float:
    """What one more distinct crest is worth to a seat holding ``distinct``: the next step of
    the crest table, averaged with the one after (crests are collected over the game)."""
    return max(1.5, (crest_vp(distinct + 2) - crest_vp(distinct)) / 2)


def holdings(seat: Seat) -> Holdings:
    return Holdings(
        talers=int(seat.talers),
        craftsmen=[(t["guild"], t["value"]) for t in seat.craftsmen],
        citizens=[(c["citizen"], c["value"]) for c in seat.citizens],
        guild_crests=set(seat.crests),
        prestige=seat.prestige,
    )


def scored_now(pos: Position) -> list[int]:
    """Final-scoring VP of every seat on present holdings (the engine's scoring), cached."""
    if pos.scored is None:
        pos.scored = _scores(pos.seats, len(pos.goods))
    return pos.scored


def _scores(seats: list[Seat], guilds: int) -> list[int]:
    """``score_holdings`` of ``seats``, summed per seat. Money scores in two categories only,
    the richest bonus and the tax collector's VP per 10 talers; the rest of the score, which
    hangs on tiles and crests that seldom change, is computed once per holdings of the table
    (``_moneyless``) and the money's part added here: the same integers, far cheaper."""
    moneyless = _moneyless(tuple(_tiles_key(s) for s in seats), guilds)
    talers = [int(s.talers) for s in seats]  # as ``holdings`` counts them
    richest = max(talers)
    rich = [t == richest for t in talers]
    richest_vp = RICHEST_VP if rich.count(True) == 1 else RICHEST_TIED_VP
    return [
        vp + collectors * (t // 10) + (richest_vp if r else 0)
        for (vp, collectors), t, r in zip(moneyless, talers, rich, strict=True)
    ]


def _tiles_key(seat: Seat) -> TilesKey:
    """What of ``seat`` the final scoring reads besides money (cached on the seat)."""
    if seat.tiles is None:
        seat.tiles = (
            tuple((t["guild"], t["value"]) for t in seat.craftsmen),
            tuple((c["citizen"], c["value"]) for c in seat.citizens),
            frozenset(seat.crests),
            seat.prestige,
        )
    return seat.tiles


@lru_cache(maxsize=1 << 14)
def _moneyless(keys: tuple[TilesKey, ...], guilds: int) -> tuple[tuple[int, int], ...]:
    """Per seat, its final score with no money anywhere, but the richest bonus (every seat
    holds 0 talers then, so all would tie), and how many tax collectors it holds."""
    table = [
        Holdings(0, list(crafts), list(citizens), set(crests), prestige)
        for crafts, citizens, crests, prestige in keys
    ]
    breakdown = score_holdings(table, list(range(1, guilds + 1)))
    return tuple(
        (
            sum(vp for category, vp in b.items() if category != "richest"),
            sum(1 for kind, _ in citizens if kind == "tax_collector"),
        )
        for b, (_, citizens, _, _) in zip(breakdown, keys, strict=True)
    )


def worth(pos: Position, seat: int) -> float:
    """Expected final VP of ``seat`` (see the module docstring), cached per position."""
    known = pos.worths.get(seat)
    if known is None:
        known = pos.worths[seat] = _worth(pos, seat)
    return known


def _worth(pos: Position, seat: int) -> float:
    # The sum is taken term by term in a fixed order (guild by guild): the bots' choices
    # compare these floats, so any change to the order of the additions changes choices.
    s = pos.seats[seat]
    base = scored_now(pos)[seat]
    m = MONEY_WEIGHTS.get(pos.round, 0.5)
    rounds_after = LAST_ROUND - pos.round
    value: float = base + m * s.talers
    favour_count(pos, seat, 1)  # fills the seat's counts
    mine = s.counts or []
    rival = rivals(pos, seat)
    if not pos.resales:
        resale(pos, 1)
    resales = pos.resales
    goods = s.goods
    prize: list[float] | None = None
    for i, good in enumerate(pos.goods):
        value += 0.8 * m * goods.get(good, 0) * resales[i]
        if mine[i]:
            chance = _chance(pos, seat, i + 1, mine[i], rival[i])
            if prize is None:
                prize = prizes(pos, seat)
            value += chance * prize[i]
    value += 1.2 * rounds_after * max(0, s.agents - START_AGENTS)
    musicians = sum(c["value"] for c in s.citizens if c.get("citizen") == "musician")
    value += m * musicians * (rounds_after + 1)
    return value


def worths(pos: Position) -> list[float]:
    """``worth`` of every seat."""
    return [worth(pos, seat) for seat in range(len(pos.seats))]
