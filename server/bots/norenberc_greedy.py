"""The heuristic ("greedy") Norenberc player: one step of look-ahead on the seat's own view.

Every legal command is tried on a compact copy of the position (``norenberc_model``) and
scored by how much it raises the seat's expected final VP; the best one is played. Planning
looks one step further: for each guild it prices the best sell, buy or hire the seat could
make there now, and plays cards where that gain is worth an agent; otherwise it passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.engine import Command, Rng, View

from .norenberc_model import (
    LAST_ROUND,
    Position,
    Seat,
    money_weight,
    prizes,
    scored_now,
    worth,
)

PLAN_THRESHOLD = 0.35  # VP a card must promise to be worth an agent
FRONT_BONUS = 0.25  # acting first and winning favour ties
# Citizens whose worth is not in the final scoring of present holdings, in VP.
CITIZEN_BONUS = {
    "councillor": 1.6,
    "thief": 1.5,
    "bailiff": 0.2,
    "tax_collector": 2.0,
    "engraver": 1.5,
    "apprentice": 1.0,
    "chief_judge": 0.5,
    "peddler": 1.5,
}


def choose(view: View, seat: int, rng: Rng, talers: list[float] | None = None) -> Command:
    """The heuristic command for ``seat``; always one of ``view["legal"]``."""
    legal: list[Command] = view["legal"]
    pos = Position.from_view(view, talers or estimate_talers(view, seat))
    if view["phase"] == "planning":
        return _plan(view, pos, seat, legal)
    base = worth(pos, seat)
    scores = [_gain(view, pos, seat, cmd, base) for cmd in legal]
    best = max(scores)
    ties = [cmd for cmd, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
    return ties[rng.below(len(ties))] if len(ties) > 1 else ties[0]


def ranked(view: View, seat: int, limit: int) -> list[Command]:
    """Up to ``limit`` legal commands worth a closer look, the heuristic's favourite first:
    the best by one-step gain, or for planning the heuristic's plan and its neighbours
    (the best k guilds for every k, the plan less one guild, passing)."""
    legal = view["legal"]
    pos = Position.from_view(view, estimate_talers(view, seat))
    if view["phase"] == "planning":
        return _plan_variants(view, pos, seat, legal)[:limit]
    base = worth(pos, seat)
    gains = [_gain(view, pos, seat, cmd, base) for cmd in legal]
    order = sorted(range(len(legal)), key=lambda i: -gains[i])
    return [legal[i] for i in order[:limit]]


def gains(view: View, seat: int, cmds: list[Command]) -> list[float | None]:
    """The heuristic's estimate of the VP each of ``cmds`` adds (a learning table's reason):
    an action tried on the position; None for what one step does not price (a plan, whose
    worth lies in actions still to come, passing, waiting, taking a plan back)."""
    if view["phase"] == "planning":
        return [None] * len(cmds)
    pos = Position.from_view(view, estimate_talers(view, seat))
    base = worth(pos, seat)
    return [_gain(view, pos, seat, cmd, base) if cmd["type"] in _EFFECTS else None for cmd in cmds]


def _plan_variants(view: View, pos: Position, seat: int, legal: list[Command]) -> list[Command]:
    plans = {tuple(c["guilds"]): c for c in legal if c["type"] == "plan"}
    passing = [c for c in legal if c["type"] == "pass"]
    if not plans:
        return passing or legal
    hand = view["players"][seat]["agents"]["hand"]
    gains = planned_gains(view, pos, seat)
    by_gain = sorted(gains, key=lambda g: -gains[g])
    wanted = [g for g in by_gain if gains[g] > PLAN_THRESHOLD][:hand]
    variants = [wanted, *(by_gain[:k] for k in range(1, hand + 1))]
    variants += [[g for g in wanted if g != left] for left in wanted]
    found: list[Command] = []
    for guilds in variants:
        cmd = plans.get(tuple(sorted(guilds))) if guilds else next(iter(passing), None)
        if cmd is not None and cmd not in found:
            found.append(cmd)
    return found + [c for c in passing if c not in found]


def estimate_talers(view: View, seat: int) -> list[float]:
    """Talers per seat: the viewer's own, and for others the start money plus income so far
    (the view does not show what they spent)."""
    guess = 25 + 3 * (view["round"] - 1)
    return [p["talers"] if p["talers"] is not None else float(guess) for p in view["players"]]


# --- planning ---------------------------------------------------------------------------


def _plan(view: View, pos: Position, seat: int, legal: list[Command]) -> Command:
    plans = [c for c in legal if c["type"] == "plan"]
    if not plans:
        return next(c for c in legal if c["type"] in ("pass", "retract", "wait"))
    hand = view["players"][seat]["agents"]["hand"]
    gains = planned_gains(view, pos, seat)
    wanted = sorted((g for g in gains if gains[g] > PLAN_THRESHOLD), key=lambda g: -gains[g])
    chosen = sorted(wanted[:hand])
    for cmd in plans:
        if cmd["guilds"] == chosen:
            return cmd
    return next(c for c in legal if c["type"] == "pass")


def planned_gains(view: View, pos: Position, seat: int) -> dict[int, float]:
    """VP the best action at each guild would add, taken in guild order (the order in which
    the guilds are called), each on the position the earlier ones leave behind."""
    gains = {}
    for g in view["guilds"]:
        guild = g["guild"]
        gain, cmd = best_action_at(view, pos, seat, guild)
        gains[guild] = gain
        if cmd is not None and gain > PLAN_THRESHOLD:
            pos, _ = _EFFECTS[cmd["type"]](view, pos, seat, cmd, guild)
    return gains


def best_action_at(
    view: View, pos: Position, seat: int, guild: int
) -> tuple[float, Command | None]:
    """The best single sell, buy or hire at ``guild`` if the seat acted there now, with its
    gain in VP (0 and None when nothing helps)."""
    base = worth(pos, seat)
    options = [_sell_all(view, pos, seat, guild), _best_buy(view, pos, seat, guild, base)]
    options += _cheapest_hires(view, pos, seat, guild)
    best: tuple[float, Command | None] = (0.0, None)
    for cmd in options:
        if cmd is not None:
            gain = _gain(view, pos, seat, cmd, base, guild)
            if gain > best[0]:
                best = (gain, cmd)
    return best


def _sell_all(view: View, pos: Position, seat: int, guild: int) -> Command | None:
    good = pos.goods[guild - 1]
    have = pos.seats[seat].goods.get(good, 0)
    return {"type": "sell", "count": have} if have else None


def _best_buy(view: View, pos: Position, seat: int, guild: int, base: float) -> Command | None:
    """Goods bought one at a time while each adds value (at most 3, as affordable)."""
    g = view["guilds"][guild - 1]
    unit = g["price"]
    if not unit:
        return None
    store: dict[str, int] = dict(g["storehouse"])
    picked: dict[str, int] = {}
    best_cmd, best = None, 0.0
    for _ in range(min(3, int(pos.seats[seat].talers // unit))):
        trials = []
        for good in store:
            if store[good] > picked.get(good, 0):
                goods = {**picked, good: picked.get(good, 0) + 1}
                cmd = {"type": "buy", "goods": goods}
                trials.append((_gain(view, pos, seat, cmd, base, guild), good, cmd))
        if not trials:
            break
        value, good, cmd = max(trials, key=lambda t: t[0])
        if value <= best:
            break
        best, best_cmd, picked = value, cmd, {**picked, good: picked.get(good, 0) + 1}
    return best_cmd


def _cheapest_hires(view: View, pos: Position, seat: int, guild: int) -> list[Command]:
    g = view["guilds"][guild - 1]
    have = {good: n for good, n in pos.seats[seat].goods.items() if n > 0}
    found = []
    for window, guest in enumerate(g["guests"], start=1):
        payment = guest and _payment(window, g["good"], have)
        if payment:
            found.append(
                {
                    "type": "hire",
                    "window": window,
                    "payment": payment,
                    "tile": guest["id"],
                    "to_front": False,
                }
            )
    return found


def _payment(window: int, own_good: str, have: dict[str, int]) -> dict[str, int] | None:
    """A way to pay for ``window`` using as few of the seat's goods as the table allows."""
    own = have.get(own_good, 0)
    needs = {1: [(1, 0)], 2: [(1, 1)], 3: [(2, 0), (1, 2)], 4: [(3, 0), (2, 2)]}[window]
    spare = sorted(((n, g) for g, n in have.items() if g != own_good), reverse=True)
    for own_n, any_n in needs:
        if own < own_n:
            continue
        pay = {own_good: own_n}
        left = any_n
        extra = own - own_n
        for n, g in [(extra, own_good), *spare]:
            take = min(n, left)
            if take:
                pay[g] = pay.get(g, 0) + take
                left -= take
        if left == 0:
            return pay
    return None


# --- trying a command on the position ---------------------------------------------------


def _gain(
    view: View, pos: Position, seat: int, cmd: Command, base: float, guild: int | None = None
) -> float:
    """How much ``cmd`` raises the seat's worth (VP), trying it on a copy of the position."""
    at = guild or (view["action"] or {}).get("guild")
    effect = _EFFECTS.get(cmd["type"])
    if effect is None:
        return 0.0
    after, bonus = effect(view, pos, seat, cmd, at)
    return worth(after, seat) + bonus - base


def _sell(view: View, pos: Position, seat: int, cmd: Command, guild: int) -> tuple[Position, float]:
    me = pos.seats[seat].clone()
    good = pos.goods[guild - 1]
    me.goods[good] -= cmd["count"]
    me.talers += cmd["count"] * pos.prices[guild - 1]
    return pos.with_seat(seat, me), 0.0


def _buy(view: View, pos: Position, seat: int, cmd: Command, guild: int) -> tuple[Position, float]:
    me = pos.seats[seat].clone()
    for good, n in cmd["goods"].items():
        me.goods[good] = me.goods.get(good, 0) + n
    me.talers -= sum(cmd["goods"].values()) * pos.prices[guild - 1]
    return pos.with_seat(seat, me), 0.0


def _hire(view: View, pos: Position, seat: int, cmd: Command, guild: int) -> tuple[Position, float]:
    bonus = FRONT_BONUS if cmd.get("to_front") else 0.0
    # A hire with and without moving to the front leaves the same holdings: made once.
    key = (seat, guild, cmd["window"], tuple(cmd["payment"].items()))
    made = pos.hired.get(key)
    if made is None:
        made = pos.hired[key] = _hired(view, pos, seat, cmd, guild)
    after, taken = made
    bonus += taken
    return after, bonus


def _hired(
    view: View, pos: Position, seat: int, cmd: Command, guild: int
) -> tuple[Position, float]:
    """The position after the hire ``cmd`` and what the guest is worth beyond it."""
    me = pos.seats[seat].clone()
    for good, n in cmd["payment"].items():
        me.goods[good] -= n
    me.talers += sum(view["guilds"][guild - 1]["roof"])
    guest = view["guilds"][guild - 1]["guests"][cmd["window"] - 1]
    taken = _take(pos, me, guest)
    after = pos.with_seat(seat, me, same_holdings=False)
    # Every payment for one guest leads to the same holdings: score them once.
    known = pos.scored_after.get(guest["id"])
    if known is None:
        known = pos.scored_after[guest["id"]] = (scored_now(after), prizes(after, seat))
    after.scored, me.prizes = known
    return after, taken


def _take(pos: Position, me: Seat, guest: dict[str, Any]) -> float:
    """Give ``guest`` to ``me``; returns the VP it is worth beyond present-holdings scoring."""
    rounds_after = LAST_ROUND - pos.round
    me.tiles_taken()  # new holdings: what favour is worth to the seat changes
    if guest["kind"] == "craftsman":
        me.craftsmen.append(guest)
        if guest["agent"]:
            me.agents += 1
        return 0.3 * rounds_after
    citizen = guest["citizen"]
    if citizen in ("councillor",):
        me.agents += 1
    elif guest["symbol"] in ("sun", "moon") and citizen not in ("peddler", "chief_judge"):
        me.citizens.append(guest)
    if citizen == "foreman":
        return 0.6 * rounds_after
    bonus = CITIZEN_BONUS.get(citizen, 0.0)
    return bonus * (1.0 if citizen != "councillor" else rounds_after / 2 + 0.5)


def _steal(
    view: View, pos: Position, seat: int, cmd: Command, guild: int
) -> tuple[Position, float]:
    me, victim = pos.seats[seat].clone(), pos.seats[cmd["victim"]].clone()
    for good, n in cmd["goods"].items():
        me.goods[good] = me.goods.get(good, 0) + n
        victim.goods[good] -= n
    return pos.with_seat(seat, me).with_seat(cmd["victim"], victim), 0.0


def _peddler(
    view: View, pos: Position, seat: int, cmd: Command, guild: int
) -> tuple[Position, float]:
    me = pos.seats[seat].clone()
    me.goods[cmd["good"]] -= 1
    me.citizens.append(
        {"kind": "citizen", "citizen": "peddler", "value": None, "good": cmd["good"]}
    )
    me.tiles = None  # (a peddler changes no favour prize: ``prizes`` stays)
    return pos.with_seat(seat, me), 0.0


def _judge(
    view: View, pos: Position, seat: int, cmd: Command, guild: int
) -> tuple[Position, float]:
    target = cmd["guild"]
    mine = sum(1 for t in pos.seats[seat].craftsmen if t["guild"] == target)
    best_other = max(
        (
            sum(1 for t in s.craftsmen if t["guild"] == target)
            for i, s in enumerate(pos.seats)
            if i != seat
        ),
        default=0,
    )
    rounds = LAST_ROUND - pos.round + 1
    return pos, money_weight(pos.round) * rounds * (mine - 0.5 * best_other)


def _bailiff(
    view: View, pos: Position, seat: int, cmd: Command, guild: int
) -> tuple[Position, float]:
    return pos, -0.01  # declining is as good as a swap the heuristic cannot judge


_EFFECTS: dict[str, Callable[[View, Position, int, Command, Any], tuple[Position, float]]] = {
    "sell": _sell,
    "buy": _buy,
    "hire": _hire,
    "steal": _steal,
    "peddler_good": _peddler,
    "judge_house": _judge,
    "bailiff": _bailiff,
}
