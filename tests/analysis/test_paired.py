"""The noise of a decision's cost (server/analysis/compute.py): the candidates are played out
in the same sampled worlds with the same generators, so their difference is paired, and its
noise is that of the mean of the per-world differences, never claiming certainty from a few
worlds; the decision's play-out budget goes to the comparison that decides its cost."""

from __future__ import annotations

from typing import Any

from server.analysis import Params, summarise
from server.analysis.compute import difference_margin, judge, paired_margin
from server.engine import Command, Rng, RuleError, State, View

from .records import played

# A one-decision game: seat 0 picks, then seat 1 rolls a die of two faces (the play-out's
# generator decides it). "sure" wins on a 1 and ties on a 0; "meek" ties on a 1 and loses on
# a 0: whatever the roll, "sure" is half a win better. "bold" wins on a 1 and loses on a 0,
# "calm" loses on a 1 and ties on a 0.
WINNERS = {
    ("sure", 1): [0],
    ("sure", 0): [0, 1],
    ("meek", 1): [0, 1],
    ("meek", 0): [1],
    ("bold", 1): [0],
    ("bold", 0): [1],
    ("calm", 1): [1],
    ("calm", 0): [0, 1],
}


class Pick:
    name = "pick"
    title = "Pick"
    min_seats = 2
    max_seats = 2

    def __init__(self, picks: list[str]) -> None:
        self.picks = picks

    def default_options(self) -> dict[str, Any]:
        return {}

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        return {"pick": None, "roll": None}

    def to_act(self, state: State) -> set[int]:
        if state["pick"] is None:
            return {0}
        return {1} if state["roll"] is None else set()

    def legal(self, state: State, seat: int) -> list[Command]:
        if seat not in self.to_act(state):
            return []
        if seat == 0:
            return [{"type": p} for p in self.picks]
        return [{"type": "roll", "face": 0}, {"type": "roll", "face": 1}]

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Any]]:
        if cmd not in self.legal(state, seat):
            raise RuleError("not_legal", f"{cmd} is not legal here")
        if seat == 0:
            return {**state, "pick": cmd["type"]}, []
        return {**state, "roll": cmd["face"]}, []

    def view(self, state: State, seat: int | None) -> View:
        return {**state, "legal": self.legal(state, seat) if seat is not None else []}

    def result(self, state: State) -> Any:
        if state["roll"] is None:
            return None
        return {"winners": WINNERS[(state["pick"], state["roll"])]}


class Rolls:
    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        return dict(view["legal"][0])

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        return {"pick": view["pick"], "roll": view["roll"]}

    def candidates(self, view: View, seat: int) -> list[Command]:
        return list(view["legal"])

    def rollout(self, game: Any, state: State, seat: int, rng: Rng) -> Command:
        return {"type": "roll", "face": rng.below(2)}

    def evaluate(self, game: Any, state: State, seat: int) -> float:
        return 0.5


def _judge(picks: list[str], made: str, params: Params) -> tuple[dict[str, Any], int]:
    game, playouts = Pick(picks), []
    view = game.view(game.new(2, "s", {}), 0)
    verdict = judge(game, Rolls(), view, 0, 0, {"type": made}, params, lambda: playouts.append(1))
    assert verdict is not None
    return verdict, len(playouts)


def test_paired_differences_that_agree_are_sure_and_ones_that_flip_are_not() -> None:
    agree = paired_margin([0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
    flip = paired_margin([1.0, -1.0, 1.0, -1.0, 1.0, 0.0])
    assert agree < 0.25 < 0.7 < flip
    # the same means from two candidates estimated apart (6 worlds each) read far noisier
    assert agree < difference_margin(0.75, 6, 0.25, 6) / 2
    # a floor: a few worlds that agree never claim certainty, and more worlds claim more
    assert paired_margin([1.0]) > paired_margin([1.0, 1.0]) > paired_margin([1.0] * 4) > 0.2
    assert paired_margin([1.0] * 4) > paired_margin([1.0] * 16) > 0
    assert paired_margin([0.0] * 4) == paired_margin([1.0] * 4)  # spread, not size
    assert paired_margin([]) == 1.0  # never tried side by side: nothing is known


def test_a_cost_clearly_beyond_its_paired_noise_is_listed() -> None:
    """Half a win lost whatever the roll: listed, with a paired noise far under the cost."""
    verdict, _ = _judge(["sure", "meek", "bold"], "meek", Params(playouts=16, samples=4))
    assert verdict["best"] == {"type": "sure"} and verdict["cost"] == 0.5
    assert verdict["worlds"] >= 4 and verdict["margin"] < 0.25
    record = played("norenberc", seats=2, seed="paired")
    record = {**record, "commands": record["commands"][:2]}
    position = {"step": 0, "round": 1, "chances": [0.5, 0.5], "playouts": 16}
    summary = summarise(record, {0: {**position, "decision": verdict}})
    assert [(d["step"], d["cost"]) for d in summary["costliest"]["0"]] == [(0, 0.5)]


def test_a_cost_that_flips_with_the_roll_is_not_listed() -> None:
    """Bold against calm: a whole win better on a 1, half a win worse on a 0; whatever
    the mean says, four worlds cannot tell them apart."""
    verdict, _ = _judge(["bold", "calm"], "calm", Params(playouts=16, samples=4))
    assert verdict["worlds"] == 4
    assert verdict["margin"] > verdict["cost"]
    assert verdict["margin"] > 0.5


def test_the_budget_goes_to_the_best_and_the_command_made() -> None:
    """``samples`` play-outs per candidate at most: half the worlds screen every candidate,
    the rest compares the best with the command made; nothing more when the command made is
    the best."""
    params = Params(playouts=16, samples=4)
    verdict, spent = _judge(["sure", "meek", "bold"], "meek", params)
    assert spent <= params.samples * 3
    counts = {o["cmd"]["type"]: o["playouts"] for o in verdict["options"]}
    assert counts["bold"] == 2 and counts["sure"] == counts["meek"] == verdict["worlds"] > 4
    verdict, spent = _judge(["sure", "meek", "bold"], "sure", params)
    assert verdict["cost"] == 0.0 and spent == 2 * 3
