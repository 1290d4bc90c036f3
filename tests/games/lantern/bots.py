"""What the bots know of Lantern market (``server/bots/<name>.py`` for a real game); importing
this module registers it."""

from __future__ import annotations

from server.bots.adapters import register_adapter
from server.bots.plain import PlainAdapter
from server.engine import Command, Rng, State, View
from server.engine.phases import sample_from_public

from .rules import components, final_result, value_of


def heuristic(view: View, seat: int, rng: Rng) -> Command:
    """Bid a little under the lantern's value, never more than the coins held."""
    bids = [c for c in view["legal"] if c["type"] == "bid"]
    if not bids:
        first: Command = view["legal"][0]
        return first
    wanted = max(0, value_of(view["shown"]) - 1 - rng.below(2))
    return max((c for c in bids if c["amount"] <= wanted), key=lambda c: c["amount"])


def sample_state(view: View, seat: int, rng: Rng) -> State:
    """A full state behind ``view``: the deck order and other seats' sealed bids sampled."""
    seen = {t for p in view["players"] for t in p["lanterns"]} | {view["shown"]}
    deck = [t for t in components()["lanterns"] if t not in seen]
    rng.shuffle(deck)
    players = [{"coins": p["coins"], "lanterns": list(p["lanterns"])} for p in view["players"]]
    state: State = {key: view[key] for key in ("seats", "round", "phase", "shown")}
    state |= {"options": dict(view["options"]), "rng": rng.next_u64(), "players": players}
    state |= {"deck": deck[: view["lanterns_left"]], "planning": None}
    if view["planning"] is not None:
        coins, mine = [p["coins"] for p in players], view["my_bid"]
        plan = lambda s: mine if s == seat else rng.below(coins[s] + 1)  # noqa: E731
        state["planning"] = sample_from_public(view["planning"], plan)
    return state


BOTS = register_adapter("lantern", PlainAdapter(heuristic, sample_state, final_result))
