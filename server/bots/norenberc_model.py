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
from typing import Any

from server.engine import View
from server.games.norenberc.scoring import Holdings, crest_vp, score_holdings

LAST_ROUND = 4
START_AGENTS = 4
Tile = dict[str, Any]


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
    # crests and citizens, so a clone keeps it until one of those changes (``taken``)
    prizes: list[float] | None = None

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
        )


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


def money_weight(round_: int) -> float:
    """VP per taler. Tuned by tournaments: money is worth more than its share of the final
    score suggests, because it buys goods (favour, crests, craftsmen) when masters are cheap."""
    return {1: 1.1, 2: 1.0, 3: 0.8}.get(round_, 0.5)


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
        s.counts = [s.goods.get(good, 0) + 4 * peddled.count(good) for good in pos.goods]
    return s.counts[guild - 1]


def favour_chance(pos: Position, seat: int, guild: int) -> float:
    """Rough chance that ``seat`` is the favourite of ``guild`` at this round end."""
    mine = favour_count(pos, seat, guild)
    others = [favour_count(pos, s, guild) for s in range(len(pos.seats)) if s != seat]
    return _chance(pos, seat, guild, mine, max(others, default=0))


def _chance(pos: Position, seat: int, guild: int, mine: int, rival: int) -> float:
    if mine == 0:
        return 0.0
    lead = mine - rival
    if lead > 0:
        return 1.0 - 0.45 * math.exp(-0.9 * lead)
    if lead == 0:
        return 0.4 if _wins_tie(pos, seat, guild, mine) else 0.25
    return 0.25 * math.exp(0.9 * lead)


def _wins_tie(pos: Position, seat: int, guild: int, count: int) -> bool:
    tied = [s for s in range(len(pos.seats)) if favour_count(pos, s, guild) == count]
    best = max(tied, key=lambda s: (pos.seats[s].talers, -pos.order.index(s)))
    return best == seat


def favour_prize(pos: Position, seat: int, guild: int) -> float:
    """VP the favourite of ``guild`` gains (cached on the seat, see ``Seat.prizes``)."""
    return prizes(pos, seat)[guild - 1]


def prizes(pos: Position, seat: int) -> list[float]:
    """``favour_prize`` of every guild for ``seat``, computed once per holdings."""
    s = pos.seats[seat]
    if s.prizes is None:
        s.prizes = [_prize(pos, seat, g) for g in range(1, len(pos.goods) + 1)]
    return s.prizes


def _prize(pos: Position, seat: int, guild: int) -> float:
    """VP the favourite of ``guild`` gains: master tile(s), guild crest, prestige crest."""
    tiles = pos.masters[guild - 1]
    s = pos.seats[seat]
    prize: float = sum(0.8 + 0.45 * t["value"] + (0.8 if t["agent"] else 0.0) for t in tiles)
    if not any(c["guild"] == guild for c in s.craftsmen):
        prize += 1.2  # a first craftsman of a guild counts towards "all guilds"
    distinct = len(s.crests) + s.prestige + _engravers(s)
    if guild not in s.crests:
        prize += crest_step(distinct)
        distinct += 1
    if guild == pos.prestige_guild:
        prize += crest_step(distinct)
    return prize


def _engravers(s: Seat) -> int:
    return sum(1 for c in s.citizens if c.get("citizen") == "engraver")


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
        guilds = list(range(1, len(pos.goods) + 1))
        breakdown = score_holdings([holdings(s) for s in pos.seats], guilds)
        pos.scored = [sum(b.values()) for b in breakdown]
    return pos.scored


def worth(pos: Position, seat: int) -> float:
    """Expected final VP of ``seat`` (see the module docstring)."""
    s = pos.seats[seat]
    base = scored_now(pos)[seat]
    m = money_weight(pos.round)
    rounds_after = LAST_ROUND - pos.round
    value: float = base + m * s.talers
    guilds = len(pos.goods)
    favour_count(pos, seat, 1)  # fills the seat's counts
    rivals = [0] * guilds
    for other, o in enumerate(pos.seats):
        if other != seat:
            favour_count(pos, other, 1)
            rivals = [max(r, c) for r, c in zip(rivals, o.counts or [], strict=True)]
    mine = s.counts or []
    for guild in range(1, guilds + 1):
        count = s.goods.get(pos.goods[guild - 1], 0)
        value += 0.8 * m * count * resale(pos, guild)
        if mine[guild - 1]:
            chance = _chance(pos, seat, guild, mine[guild - 1], rivals[guild - 1])
            value += chance * favour_prize(pos, seat, guild)
    value += 1.2 * rounds_after * max(0, s.agents - START_AGENTS)
    musicians = sum(c["value"] for c in s.citizens if c.get("citizen") == "musician")
    value += m * musicians * (rounds_after + 1)
    return value


def worths(pos: Position) -> list[float]:
    """``worth`` of every seat."""
    return [worth(pos, seat) for seat in range(len(pos.seats))]
