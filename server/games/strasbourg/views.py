"""What one seat (or a spectator) may know: an allowlist built here and nowhere else.

Public: the board, council, round cards, starting player, prestige, stack *sizes* once
sealed, revealed stacks of the current step, planning status, the decision being made.
Private to its owner: deck size, drawn cards, own stack values, coins, goods,
privileges, task cards (and how many) and the task offer, until the game is over: then
every seat's screen is public (``players[i].screen``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from server.engine import View
from server.engine import planning as pl

from .clauses import SCORING, decision
from .data import DATA_NOTE, ROUNDS, components
from .legal import legal
from .scoring import final_result
from .state import DECK, STEPS, State, city_cells, council_count, step_kind


@cache
def _board() -> dict[str, Any]:
    """The static board, built once and shared by every view: never mutate it."""
    comp = components()
    return {
        "grid": list(comp.grid),
        "prices": [
            [comp.prices.get((r, c)) for c in range(len(row))] for r, row in enumerate(comp.grid)
        ],
        "building_spaces": [list(cell) for cell in comp.building_spaces],
        "chapel_sites": [list(site) for site in comp.chapel_sites],
        "guilds": {
            g.key: {"name": g.name, "letter": g.letter, "good": g.good, "good_value": g.good_value}
            for g in comp.guilds.values()
        },
    }


def _round_cards(state: State) -> list[dict[str, Any]]:
    comp = components()
    out = []
    for pos, (card, edifice) in enumerate(zip(state["cards"], state["edifice_order"], strict=True)):
        e = comp.edifices[edifice]
        out.append(
            {
                "card": card + 1,
                "guilds": list(comp.round_cards[card]),
                "edifice": {"key": e.key, "name": e.name, "value": e.value},
                "current": pos == state["round"] and state["phase"] != "over",
            }
        )
    return out


def _public_stacks(state: State, seat: int) -> list[int]:
    p = state["planning"]
    if state["phase"] == "planning" and p is not None:
        plan = pl.plan_of(p, seat)
        return [len(s) for s in plan] if plan is not None else []
    return [len(s) for s in state["players"][seat]["stacks"]]


def _public_player(state: State, seat: int) -> dict[str, Any]:
    p = state["planning"]
    inf = state["influence"]
    player = state["players"][seat]
    revealed = inf["revealed"][seat] if inf else None
    public = {
        "seat": seat,
        "prestige": player["prestige"],
        "stacks": _public_stacks(state, seat),
        "planning": pl.status_of(p, seat) if p is not None else None,
        "city_members": len(city_cells(state, seat)),
        "council_members": council_count(state, seat),
        "revealed": list(revealed) if revealed is not None else None,
        "passed": bool(inf and inf["passed"][seat]),
        # Derivable from public events: every card leaving the game is seen to leave.
        "cards_left": len(DECK) - player["out"] - len(revealed or []),
        "spent": list(player["spent"]),
    }
    # Once the game is over nothing is behind a screen any more (final scoring counts the
    # tasks and privileges aloud, and the record replays every hand): every seat's own
    # screen is everyone's, as Norenberc shows every seat's talers.
    if state["phase"] == "over":
        public["screen"] = _own(state, seat)
    return public


def _task(task_id: int) -> dict[str, Any]:
    t = components().tasks[task_id]
    return {"id": t.id, "kind": t.kind, "param": t.param, "value": t.value, "text": t.text}


def _own(state: State, seat: int) -> dict[str, Any]:
    player = state["players"][seat]
    p = state["planning"]
    plan = pl.plan_of(p, seat) if state["phase"] == "planning" and p is not None else None
    # While tasks are being chosen, the kept cards are the seat's sealed plan.
    kept = pl.plan_of(p, seat) if state["phase"] == "tasks" and p is not None else None
    tasks = kept if kept is not None else player["tasks"]
    return {
        "deck": len(player["deck"]),
        "hand": list(player["hand"]),
        "building": [list(s) for s in player["building"]],
        "stopped": player["stopped"],
        "stacks": [list(s) for s in (plan if plan is not None else player["stacks"])],
        "coins": player["coins"],
        "goods": dict(player["goods"]),
        "privileges": player["privileges"],
        "tasks": [_task(t) for t in tasks],
        "offer": [_task(t) for t in player["offer"]],
    }


def _city(state: State) -> dict[str, Any]:
    comp = components()
    return {
        "members": [list(row) for row in state["city"]],
        "chapels": sorted(state["chapels"]),
        "edifices": [
            {
                "cell": [r, c],
                "key": comp.edifices[i].key,
                "name": comp.edifices[i].name,
                "value": comp.edifices[i].value,
            }
            for r, c, i in state["built"]
        ],
    }


def _step(state: State) -> dict[str, Any] | None:
    if state["phase"] in ("tasks", "over"):
        return None
    step = state["step"]
    inf = state["influence"]
    choice = state["choices"][0] if state["choices"] else None
    return {
        "letter": STEPS[step],
        "kind": step_kind(step),
        "first": inf["start"] if inf else None,
        "queue": list(inf["queue"]) if inf else [],
        "ranking": list(state["ranking"]),
        "choice": dict(choice) if choice else None,
        "choices": [dict(c) for c in state["choices"]],
    }


def _planning(state: State) -> dict[str, Any] | None:
    """The public part of the planning record: order, whether it is ordered, each seat's
    status, and the order of sealing."""
    p = state["planning"]
    if p is None:
        return None
    return {
        **pl.public_view(p),
        "committed_at": list(p["committed_at"]),
        "counter": p["counter"],
    }


def build_view(state: State, seat: int | None, to_act: set[int]) -> View:
    """The allowlisted view for ``seat`` (None: spectator); ``legal`` only for that seat."""
    return seat_view(state, seat, spectator_view(state, to_act))


def spectator_view(state: State, to_act: set[int]) -> View:
    """What every seat may know: the spectator's view, and the base of every seat's."""
    over = state["phase"] == "over"
    return {
        "game": "strasbourg",
        "data_note": DATA_NOTE,
        "data_file": "seeds/strasbourg.json",
        "seats": state["seats"],
        "seat": None,
        "options": dict(state["options"]),
        "phase": state["phase"],
        "rule": decision(state, None),
        "round": min(state["round"] + 1, ROUNDS),
        "rounds": ROUNDS,
        "step": _step(state),
        "planning": _planning(state),
        "start_player": state["start"],
        "council": dict(state["council"]),
        "board": _board(),
        "city": _city(state),
        "round_cards": _round_cards(state),
        "players": [_public_player(state, s) for s in range(state["seats"])],
        "me": None,
        "to_act": sorted(to_act),
        "legal": [],
        "result": final_result(state) if over else None,
        "score_rules": dict(SCORING),
    }


def seat_view(state: State, seat: int | None, spectator: View) -> View:
    """``seat``'s view: ``spectator`` (shared, never changed) with the seat's own screen and
    legal commands put in their place (a seat not at the table sees what a spectator sees)."""
    if seat is None or not 0 <= seat < state["seats"]:
        return spectator
    view = dict(spectator)
    view["seat"] = seat
    view["me"] = _own(state, seat)
    view["legal"] = legal(state, seat)
    view["rule"] = decision(state, seat)
    return view
