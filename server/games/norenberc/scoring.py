"""Final scoring: sun citizens, craftsman majorities, 30+, all guilds, richest, crests.

``score_holdings`` works on plain holdings so the rulebook example can be checked without
playing a game; ``result`` builds them from a finished state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any

from .state import State, guilds_in_play, player, tile

CATEGORIES = ("citizens", "majorities", "thirty", "all_guilds", "richest", "crests")
# With the promo option the breakdown has one more category: merchant and haggler penalties.
PROMO_CATEGORY = "promo"
PROMO_PENALTY = {"merchant": -2, "haggler": -2}
# distinct crests -> VP (0-2 score nothing, 7 or more score 20)
CREST_VP = {3: 2, 4: 5, 5: 9, 6: 14}
CREST_VP_MAX = 20
THIRTY = 30
THIRTY_VP = 2
ALL_GUILDS_VP = 5
RICHEST_VP, RICHEST_TIED_VP = 5, 2
PLACE_VP = {1: 5, 2: 3, 3: 1}
TIED_VP = {1: 4, 2: 2, 3: 0}


@dataclass
class Holdings:
    """What one player owns at the end, as scoring needs it.

    ``craftsmen`` is a list of (guild, value); ``citizens`` a list of (type, printed value);
    ``guild_crests`` the set of guilds whose crest the player holds.
    """

    talers: int = 0
    craftsmen: list[tuple[int, int]] = field(default_factory=list)
    citizens: list[tuple[str, int | None]] = field(default_factory=list)
    guild_crests: set[int] = field(default_factory=set)
    prestige: int = 0


def majority_places(totals: dict[int, tuple[int, int]]) -> tuple[dict[int, int], dict[int, int]]:
    """VP and place for each ranking seat, from ``totals[seat] = (value, tiles)``.

    Only seats with craftsmen of the guild should be passed. Returns ``(vp, place)``; a seat
    whose place scores nothing because of a tie still has its place (for the apprentice).

    >>> majority_places({0: (13, 2), 1: (10, 2), 2: (9, 2)})
    ({0: 5, 1: 3, 2: 1}, {0: 1, 1: 2, 2: 3})
    >>> majority_places({0: (20, 3), 1: (10, 2)})
    ({0: 6, 1: 3}, {0: 1, 1: 2})
    """
    ranked = sorted(totals, key=lambda s: totals[s], reverse=True)
    groups: list[list[int]] = []
    for seat in ranked:
        if groups and totals[groups[-1][0]] == totals[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    vp: dict[int, int] = {}
    place: dict[int, int] = {}
    at = 1
    for group in groups:
        if at > 3:
            break
        for seat in group:
            place[seat] = at
            vp[seat] = PLACE_VP[at] if len(group) == 1 else TIED_VP[at]
        # A tie at 1st or 2nd removes the next place ("no 2nd" / "no 3rd"); three or more
        # tied for 1st leave no 2nd and no 3rd (our decision), so the walk simply stops.
        at = at + 1 if len(group) == 1 else (at + 2 if at == 1 and len(group) == 2 else 4)
    _give_empty_places(groups, vp)
    return vp, place


@lru_cache(maxsize=4096)
def _places(
    totals: tuple[tuple[int, tuple[int, int]], ...],
) -> tuple[dict[int, int], dict[int, int]]:
    """``majority_places`` of ``dict(totals)``, made once per guild standing (the bots score
    positions by the thousand, and a guild's standing changes seldom). Read, never change."""
    return majority_places(dict(totals))


def _give_empty_places(groups: list[list[int]], vp: dict[int, int]) -> None:
    """Places left empty because fewer players rank go to a sole 1st player."""
    if not groups or len(groups[0]) != 1 or any(len(g) > 1 for g in groups[:3]):
        return
    for empty in range(len(groups) + 1, 4):
        vp[groups[0][0]] += PLACE_VP[empty]


def crest_vp(distinct: int) -> int:
    """VP for ``distinct`` different crests."""
    if distinct >= 7:
        return CREST_VP_MAX
    return CREST_VP.get(distinct, 0)


def _citizen_vp(h: Holdings, apprentice_places: int) -> int:
    vp = 0
    for kind, value in h.citizens:
        if kind == "nobleman":
            vp += int(value or 0)
        elif kind == "tax_collector":
            vp += h.talers // 10
        elif kind == "foreman":
            vp += sum(1 for _, v in h.craftsmen if v == value)
        elif kind == "apprentice":
            vp += apprentice_places
    return vp


def score_holdings(
    holdings: list[Holdings], guilds: list[int], promo: bool = False
) -> list[dict[str, int]]:
    """The per-category breakdown for every player (index = seat); with ``promo`` the
    ``promo`` category holds the merchant and haggler penalties."""
    seats = range(len(holdings))
    majorities = [0 for _ in seats]
    second_third = [0 for _ in seats]
    thirty = [0 for _ in seats]
    # Each seat's craftsmen by guild, read once (the bots score positions by the thousand).
    by_guild: list[dict[int, list[int]]] = []
    for h in holdings:
        values_of: dict[int, list[int]] = {}
        for g, v in h.craftsmen:
            values_of.setdefault(g, []).append(v)
        by_guild.append(values_of)
    for guild in guilds:
        totals = {}
        for s in seats:
            values = by_guild[s].get(guild)
            if values:
                total = sum(values)
                totals[s] = (total, len(values))
                thirty[s] += THIRTY_VP if total >= THIRTY else 0
        vp, place = _places(tuple(totals.items()))
        for s, points in vp.items():
            majorities[s] += points
            second_third[s] += 1 if place[s] in (2, 3) else 0
    richest = max(h.talers for h in holdings)
    rich = [s for s in seats if holdings[s].talers == richest]
    breakdown = []
    for s in seats:
        h = holdings[s]
        owned = {g for g, _ in h.craftsmen}
        engravers = sum(1 for kind, _ in h.citizens if kind == "engraver")
        distinct = len(h.guild_crests) + h.prestige + engravers
        breakdown.append(
            {
                "citizens": _citizen_vp(h, second_third[s]),
                "majorities": majorities[s],
                "thirty": thirty[s],
                "all_guilds": ALL_GUILDS_VP if owned >= set(guilds) else 0,
                "richest": (RICHEST_VP if len(rich) == 1 else RICHEST_TIED_VP) if s in rich else 0,
                "crests": crest_vp(distinct),
            }
        )
        if promo:
            breakdown[-1][PROMO_CATEGORY] = sum(PROMO_PENALTY.get(k, 0) for k, _ in h.citizens)
    return breakdown


def place_jacks(holdings: list[Holdings], guilds: list[int], promo: bool = True) -> list[list[int]]:
    """Count every jack of all trades as a craftsman of the guild that maximises its owner's
    final score, seat by seat in seat order (ties: lower guild numbers). The chosen
    (guild, value) pairs are added to the holdings' craftsmen; returns each seat's guilds."""
    chosen: list[list[int]] = []
    for seat, h in enumerate(holdings):
        jacks = [int(v or 0) for kind, v in h.citizens if kind == "jack_of_all_trades"]
        if not jacks:
            chosen.append([])
            continue
        base = list(h.craftsmen)
        best: tuple[int, list[int]] | None = None
        for picks in product(guilds, repeat=len(jacks)):
            h.craftsmen = base + list(zip(picks, jacks, strict=True))
            total = sum(score_holdings(holdings, guilds, promo)[seat].values())
            if best is None or total > best[0]:
                best = (total, list(picks))
        assert best is not None
        h.craftsmen = base + list(zip(best[1], jacks, strict=True))
        chosen.append(best[1])
    return chosen


def holdings_of(state: State, seat: int) -> Holdings:
    """A seat's holdings from a game state."""
    p = player(state, seat)
    return Holdings(
        talers=p["talers"],
        craftsmen=[(tile(t)["guild"], tile(t)["value"]) for t in p["craftsmen"]],
        citizens=[(tile(t)["citizen"], tile(t)["value"]) for t in p["citizens"]],
        guild_crests={int(g) for g, n in p["crests"].items() if n > 0},
        prestige=p["prestige"],
    )


def winners(scores: list[int], holdings: list[Holdings]) -> list[int]:
    """Most VP; ties → more craftsman tiles, then higher craftsman total; else shared."""

    def key(s: int) -> tuple[int, int, int]:
        crafts = holdings[s].craftsmen
        return scores[s], len(crafts), sum(v for _, v in crafts)

    best = max(key(s) for s in range(len(scores)))
    return [s for s in range(len(scores)) if key(s) == best]


# The categories that hang on money: talers are hidden until the end (docs/norenberc.md), so
# during play nobody can know who is richest, and a tax collector is known to its owner only.
MONEY_CATEGORIES = ("richest",)


def _moneyless(state: State) -> list[Holdings]:
    """Every seat's holdings with its talers left out (0)."""
    holdings = [holdings_of(state, s) for s in range(state["seats"])]
    for h in holdings:
        h.talers = 0
    return holdings


def _public(breakdown: dict[str, int]) -> dict[str, int]:
    return {c: vp for c, vp in breakdown.items() if vp and c not in MONEY_CATEGORIES}


def score_now(state: State) -> list[dict[str, int]]:
    """Each seat's score "if the game ended now" for what everyone can see: the final
    scoring of the current holdings without the money (``MONEY_CATEGORIES`` left out, a tax
    collector counting no talers); categories scoring 0 are left out, to keep views small.

    A jack goes where it scores its owner most (``place_jacks``); the owner's money adds the
    same to every placement, so leaving the talers out places it as the end will."""
    promo = bool(state["options"]["promo"])
    holdings = _moneyless(state)
    if promo:
        place_jacks(holdings, guilds_in_play(state))
    return [_public(b) for b in score_holdings(holdings, guilds_in_play(state), promo)]


def own_now(state: State, seat: int) -> dict[str, int]:
    """What ``seat``'s own talers add to ``score_now``, per category: only ``seat`` may see
    it. Besides the richest (unknown until the end), money scores only through the sun
    citizens (``_citizen_vp``: tax collectors), so their VP with and without the talers differ
    by exactly that; the apprentice's places, the same in both, are left at 0."""
    h = holdings_of(state, seat)
    with_money = _citizen_vp(h, 0)
    h.talers = 0
    added = with_money - _citizen_vp(h, 0)
    return {"citizens": added} if added else {}


def result(state: State) -> dict[str, Any] | None:
    """The final result once the game is over, else None."""
    if state["phase"] != "over":
        return None
    holdings = [holdings_of(state, s) for s in range(state["seats"])]
    promo = bool(state["options"]["promo"])
    jacks = place_jacks(holdings, guilds_in_play(state)) if promo else []
    breakdown = score_holdings(holdings, guilds_in_play(state), promo)
    scores = [sum(b.values()) for b in breakdown]
    outcome = {"scores": scores, "breakdown": breakdown, "winners": winners(scores, holdings)}
    if promo:
        outcome["jack_guilds"] = jacks
    return outcome
