"""Post-game analysis of a finished game's record: win chances and the cost of decisions.

The game is over, so the analysis may look at the true state of every step. Two figures are
computed, one *position* (step) at a time, so that a background job can store and resume
them one by one (``analyse_step``):

- **win chances**: each seat's chance to win from the true state after ``step`` commands,
  estimated by ``playouts`` play-outs with the bots' play-out policy (``adapter.rollout``,
  the policy ISMCTS simulates with, with some noise: ``NOISE``); ties are split, as the
  tournaments count them;
- **a person's decision** (the command made at ``step`` by a seat no bot plays, and by its
  person: not one a bot made for them, standing in or covering a timeout, which the record
  marks with ``by``): judged from that seat's own view at the time only. Its hidden parts
  are sampled by the game's determinizer with a generator seeded from the view itself (and
  the step), so two games that differ only in what the seat could not see get the same
  verdict: the analysis never blames a player for what they could not know. Each candidate
  (the bot's candidates, all legal commands when there are few, and the command made) is
  tried on the same sampled worlds with the same play-out generators (common random numbers,
  so the comparison is not drowned in the play-outs' noise): all of them in the first few
  worlds, which pick the best, the bot's choice; the rest of the decision's budget
  (``samples`` play-outs per candidate) compares the best with the command made alone. The
  cost is how much win chance the command made gave away against the best, and its noise is
  that of the mean of their paired per-world differences (``paired_margin``).

``summarise`` turns the stored positions into what the page and ``guildhall analyse`` show:
the chances per step, each person's three costliest decisions and the game's three biggest
swings.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.bots.adapters import BotAdapter, adapter_for
from server.bots.ismcts import command_key
from server.engine import Command, Game, Rng, RuleError, State, get_game, replay, seed_to_state

TOP = 3  # costliest decisions per person, biggest swings per game
MAX_COMMANDS = 5000  # a play-out longer than this is a stalled game, not a long one
# Per cent of play-out commands that are a random one of the bot's candidates instead of its
# policy's choice: the greedy policy is (nearly) deterministic, so without this noise every
# play-out of a position would end alike and every chance would read 0 or 100 %.
NOISE = 15

# How sure a chance is: the half-width of its 95 % interval (normal quantile), taken
# around the estimate shrunk towards 1/2 by two wins and two losses (Agresti-Coull), so that
# a chance that read 0 or 100 % in a few play-outs still owns up to its noise.
Z95 = 1.96


def margin(chance: float, playouts: int) -> float:
    """The play-outs' noise on ``chance`` estimated from ``playouts`` of them: the
    half-width of its 95 % interval (0 when exact: no play-outs, the game's result).

    >>> round(margin(0.0, 16), 3), round(margin(0.5, 16), 3), margin(1.0, 0)
    (0.131, 0.219, 0.0)
    """
    if playouts <= 0:
        return 0.0
    shrunk = (chance * playouts + 2) / (playouts + 4)
    return Z95 * math.sqrt(shrunk * (1 - shrunk) / (playouts + 4))


def difference_margin(first: float, n_first: int, second: float, n_second: int) -> float:
    """The noise on ``first - second`` of two chances estimated apart: their margins
    added in quadrature (a conservative figure when they share play-outs)."""
    return math.hypot(margin(first, n_first), margin(second, n_second))


# The paired noise's floor: the spread of the per-world differences is pooled with this many
# made-up worlds whose difference has the variance of one coin toss at 1/2 (a share of 0 or 1
# against a sure thing), so that two to four worlds that happened to agree never claim
# certainty (four worlds that all agree: +-25 points).
PRIOR_WORLDS = 1.0
PRIOR_VARIANCE = 0.25


def paired_margin(differences: Sequence[float]) -> float:
    """The noise on the mean of ``differences``, one per sampled world, of two candidates
    played out in the same world with the same generator: the half-width of a 95 % interval
    from the standard error of their mean, their variance pooled with ``PRIOR_WORLDS`` of
    ``PRIOR_VARIANCE`` (the floor). 1 when there is none (nothing is known).

    >>> agree, flip = paired_margin([1.0, 1.0, 1.0, 1.0]), paired_margin([1.0, -1.0, 1.0, 1.0])
    >>> round(agree, 3), round(flip, 3)
    (0.245, 0.883)
    """
    n = len(differences)
    if n == 0:
        return 1.0
    mean = sum(differences) / n
    spread = sum((d - mean) ** 2 for d in differences)
    variance = (spread + PRIOR_WORLDS * PRIOR_VARIANCE) / (n - 1 + PRIOR_WORLDS)
    return Z95 * math.sqrt(variance / n)


# What the best candidate and the command made may spend on more worlds once the screen has
# picked the best (which took about half the decision's budget), as a share of that budget.
PAIR_BUDGET = 0.5

# Called after every play-out: the background job sleeps there to keep to its CPU share.
Pause = Callable[[], None]


def _go_on() -> None:
    pass


@dataclass(frozen=True)
class Params:
    """How hard the analysis looks: play-outs per position, play-outs per candidate of a
    decision (``samples``: half of them screen every candidate in as many sampled worlds,
    the rest go to the best and the command made, see ``judge``), candidates compared per
    decision. The defaults keep a 4-player game to a few CPU
    minutes (docs/bots.md)."""

    playouts: int = 16
    samples: int = 4
    candidates: int = 4

    @classmethod
    def for_playouts(cls, playouts: int) -> Params:
        """``playouts`` per position and a quarter as many sampled worlds per decision."""
        return cls(playouts=playouts, samples=max(1, playouts // 4))

    def as_dict(self) -> dict[str, int]:
        return {"playouts": self.playouts, "samples": self.samples, "candidates": self.candidates}


DEFAULT_PARAMS = Params()


@dataclass
class Replayed:
    """The true state before every command (``states[k]``: after ``k`` commands, the last
    one the final state) and the round each step belongs to."""

    game: Game
    adapter: BotAdapter
    states: list[State]
    rounds: list[int]


def replay_record(record: Mapping[str, Any]) -> Replayed:
    """Replay ``record``; the engine's RuleError if it does not replay."""
    game = get_game(record["game"])
    states: list[State] = []
    rounds: list[int] = []
    current = 1
    for step in replay(game, record):
        for event in step.events:
            number = (event.get("params") or {}).get("round")
            if event["type"] == "RoundStarted" and isinstance(number, int):
                current = number
        states.append(step.state)
        rounds.append(current)
    return Replayed(game, adapter_for(record["game"]), states, rounds)


def steps_of(record: Mapping[str, Any]) -> int:
    """How many positions the record has: one per command, and the final one."""
    return len(record["commands"]) + 1


def is_person(record: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat`` is a person's (the commands its person made are judged; a bot's are
    not).

    A seat no bot plays at the end is. One a bot plays at the end is a bot seat, or a
    person's seat a bot was standing in for when the game ended: the latter has its owner's
    name, and a record that says who made each command (``by``) tells the person's commands
    from the stand-in's, so it is the person's. A record from before ``by`` was stored cannot
    tell them apart: none of such a seat's commands is judged.
    """
    bots = record.get("bots") or []
    if not (seat < len(bots) and bots[seat]):
        return True
    names = record.get("names") or []
    owned = seat < len(names) and names[seat] is not None
    return owned and says_who_made(record)


def says_who_made(record: Mapping[str, Any]) -> bool:
    """Whether the record names who made its commands: a bot made at least one (``by``);
    only a record from before ``by`` was stored, or one nobody but people played, has none."""
    return any(entry.get("by") is not None for entry in record["commands"])


def made_by_a_bot(record: Mapping[str, Any], step: int) -> bool:
    """Whether the record says a bot made the command at ``step`` (its ``by``: a bot seat, a
    stand-in, or the clock's bot covering a timeout). Never in a record from before ``by``
    was stored."""
    commands = record["commands"]
    return step < len(commands) and commands[step].get("by") is not None


def is_persons_decision(record: Mapping[str, Any], step: int) -> bool:
    """Whether the command made at ``step`` was a person's own: its seat is a person's and
    no bot made it for them. A record from before ``by`` was stored is judged by the seat
    alone."""
    seat = int(record["commands"][step]["seat"])
    return is_person(record, seat) and not made_by_a_bot(record, step)


def _share(result: Mapping[str, Any], seat: int) -> float:
    winners = result["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def playout(game: Game, adapter: BotAdapter, state: State, rng: Rng) -> Mapping[str, Any]:
    """Play ``state`` to the end with the bots' play-out policy (and ``NOISE``); the
    result."""
    for _ in range(MAX_COMMANDS):
        result = game.result(state)
        if result is not None:
            return result
        actors = game.to_act(state)
        if not actors:
            raise RuntimeError("play-out has no seat to act but no result either")
        actor = min(actors)
        if rng.below(100) < NOISE:
            view = game.view(state, actor)
            options = adapter.candidates(view, actor) or view["legal"]
            cmd = options[rng.below(len(options))]
        else:
            cmd = adapter.rollout(game, state, actor, rng)
        state, _ = game.apply(state, actor, cmd)
    raise RuntimeError(f"play-out did not end within {MAX_COMMANDS} commands")


def win_chances(
    game: Game,
    adapter: BotAdapter,
    state: State,
    seats: int,
    playouts: int,
    seed: str,
    pause: Pause = _go_on,
) -> list[float]:
    """Each seat's estimated chance to win from the true ``state`` (ties split)."""
    result = game.result(state)
    if result is not None:
        return [_share(result, seat) for seat in range(seats)]
    totals = [0.0] * seats
    for i in range(playouts):
        end = playout(game, adapter, state, Rng(seed_to_state(f"{seed}:{i}")))
        for seat in range(seats):
            totals[seat] += _share(end, seat)
        pause()
    return [total / playouts for total in totals]


def view_seed(view: Mapping[str, Any], seat: int, step: int) -> str:
    """The seed of a decision's sampled worlds: made of what the seat saw, nothing else."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(text.encode()).hexdigest()
    return f"analysis:{seat}:{step}:{digest}"


def candidates_of(
    adapter: BotAdapter, view: Mapping[str, Any], seat: int, made: Command, limit: int
) -> list[Command]:
    """What a decision is compared against: all legal commands when they are few, else the
    bot's candidates (best first); always the command made."""
    legal = {command_key(c): c for c in view.get("legal") or []}
    if len(legal) <= limit:
        picked = list(legal.values())
    else:
        offered = [command_key(c) for c in adapter.candidates(dict(view), seat)]
        picked = [legal[k] for k in offered if k in legal][:limit]
    if command_key(made) not in {command_key(c) for c in picked}:
        picked.append(made)
    return picked


def judge(
    game: Game,
    adapter: BotAdapter,
    view: Mapping[str, Any],
    seat: int,
    step: int,
    made: Command,
    params: Params,
    pause: Pause = _go_on,
) -> dict[str, Any] | None:
    """The verdict on ``made`` from ``seat``'s ``view`` alone: each candidate's estimated
    win chance, the best one and the cost of the command made. None when there was no
    choice (one legal command).

    The decision's budget is ``samples`` play-outs per candidate, spent in two stages on
    sampled worlds that every candidate shares (world ``i`` and its play-out generator are
    the same for each, so they differ by the command alone): every candidate is tried in
    the first half of the worlds (``screen``), which picks the best; if that is not the
    command made, the rest of the budget goes to the best and the command made alone, one
    more world each at a time, so that the cost (their difference) rests on as many worlds
    as the budget buys. Its ``margin`` is the noise of the mean of the per-world paired
    differences (``paired_margin``), from the ``worlds`` both were tried in."""
    if len(view.get("legal") or []) < 2:
        return None
    options = candidates_of(adapter, view, seat, made, params.candidates)
    seed = view_seed(view, seat, step)
    # shares[j][i]: candidate j's share in sampled world i, None where it was not legal
    # there or not tried
    shares: list[list[float | None]] = [[] for _ in options]
    budget = params.samples * len(options)
    spent = 0

    def world_at(i: int, tried: Sequence[int]) -> None:
        nonlocal spent
        world = adapter.determinize(dict(view), seat, Rng(seed_to_state(f"{seed}:world:{i}")))
        for j, row in enumerate(shares):
            row.append(None)
            if j not in tried:
                continue
            try:
                after, _ = game.apply(world, seat, options[j])
            except RuleError:
                continue  # not legal in this sampled world: it counts in the others
            end = playout(game, adapter, after, Rng(seed_to_state(f"{seed}:play:{i}")))
            row[i] = _share(end, seat)
            spent += 1
            pause()

    def chance_of(row: Sequence[float | None]) -> tuple[float, int]:
        known = [x for x in row if x is not None]
        return (sum(known) / len(known) if known else 0.0, len(known))

    everyone = range(len(options))
    screen = max(1, (params.samples + 1) // 2)
    for i in range(screen):
        world_at(i, everyone)
    made_key = command_key(made)
    made_at = next(j for j, c in enumerate(options) if command_key(c) == made_key)
    best_at = max(everyone, key=lambda j: (chance_of(shares[j])[0], -j))
    if best_at != made_at:
        # each further world costs two play-outs; give up on worlds where neither is legal
        limit = spent + int(PAIR_BUDGET * budget)
        for i in range(screen, screen + budget):
            if spent + 2 > limit:
                break
            world_at(i, (best_at, made_at))
    counted = [chance_of(row) for row in shares]
    best, chance = counted[best_at][0], counted[made_at][0]
    paired = [
        b - m
        for b, m in zip(shares[best_at], shares[made_at], strict=True)
        if b is not None and m is not None
    ]
    return {
        "seat": seat,
        "made": made,
        "chance": chance,
        "best": options[best_at],
        "best_chance": best,
        "cost": max(0.0, best - chance),
        "margin": paired_margin(paired),
        "worlds": len(paired),
        "options": [
            {"cmd": c, "chance": p, "playouts": n}
            for c, (p, n) in zip(options, counted, strict=True)
        ],
    }


def analyse_step(
    record: Mapping[str, Any],
    replayed: Replayed,
    step: int,
    params: Params = DEFAULT_PARAMS,
    pause: Pause = _go_on,
) -> dict[str, Any]:
    """One position: the win chances after ``step`` commands and, when a person made the
    next command, the verdict on it. Deterministic for the record, step and params."""
    seats = int(record["seats"])
    game, adapter, state = replayed.game, replayed.adapter, replayed.states[step]
    chances = win_chances(
        game, adapter, state, seats, params.playouts, f"analysis:{record['seed']}:{step}", pause
    )
    exact = game.result(state) is not None
    decision = None
    if step < len(record["commands"]):
        entry = record["commands"][step]
        seat, made = int(entry["seat"]), entry["cmd"]
        if is_persons_decision(record, step):
            view = game.view(state, seat)
            decision = judge(game, adapter, view, seat, step, made, params, pause)
    return {
        "step": step,
        "round": replayed.rounds[step],
        "chances": chances,
        "playouts": 0 if exact else params.playouts,
        "decision": decision,
    }


def summarise(
    record: Mapping[str, Any],
    positions: Mapping[int, Mapping[str, Any]],
    playouts: int = DEFAULT_PARAMS.playouts,
) -> dict[str, Any]:
    """What is shown of the positions done so far: the chances per step (null where not yet
    done), how many play-outs each rests on and its noise (``margins``: each seat's 95 %
    half-width), each person's costliest decisions and the biggest swings between done
    steps; both lists leave out what is within the noise. ``playouts`` stands in for a
    position stored without its count."""
    total = steps_of(record)
    seats = int(record["seats"])
    chances: list[list[float] | None] = [
        list(positions[k]["chances"]) if k in positions else None for k in range(total)
    ]
    counts: list[int | None] = [
        int(positions[k].get("playouts", playouts)) if k in positions else None
        for k in range(total)
    ]
    margins = [
        None if c is None or n is None else [round(margin(p, n), 4) for p in c]
        for c, n in zip(chances, counts, strict=True)
    ]
    rounds = [positions[k]["round"] if k in positions else None for k in range(total)]
    return {
        "game": record["game"],
        "seats": seats,
        "names": list(record.get("names") or [None] * seats),
        "steps": total,
        "done": len(positions),
        "chances": chances,
        "playouts": counts,
        "margins": margins,
        "rounds": rounds,
        "costliest": costliest(record, positions, rounds),
        "swings": swings(record, chances, margins, rounds),
    }


def costliest(
    record: Mapping[str, Any], positions: Mapping[int, Mapping[str, Any]], rounds: Sequence[Any]
) -> dict[str, list[dict[str, Any]]]:
    """Each person's costliest decisions, those whose cost is larger than its noise (a
    person who made few or none of their seat's commands has a short or empty list)."""
    seats = int(record["seats"])
    decisions: dict[int, list[dict[str, Any]]] = {
        s: [] for s in range(seats) if is_person(record, s)
    }
    for k in sorted(positions):
        found = positions[k].get("decision")
        if (
            found
            and found["cost"] > found.get("margin", 0.0)
            and found["seat"] in decisions
            and not made_by_a_bot(record, k)
        ):
            decisions[found["seat"]].append({"step": k, "round": rounds[k], **found})
    return {
        str(seat): sorted(found, key=lambda d: (-d["cost"], d["step"]))[:TOP]
        for seat, found in decisions.items()
    }


def swings(
    record: Mapping[str, Any],
    chances: Sequence[Sequence[float] | None],
    margins: Sequence[Sequence[float] | None],
    rounds: Sequence[Any],
) -> list[dict[str, Any]]:
    """The biggest moves of one seat's win chance over one command (both ends done) that
    are larger than the noise of both ends together (``margin``)."""
    found = []
    for k in range(1, len(chances)):
        before, after = chances[k - 1], chances[k]
        noise_before, noise_after = margins[k - 1], margins[k]
        if before is None or after is None or noise_before is None or noise_after is None:
            continue
        noise = [math.hypot(a, b) for a, b in zip(noise_before, noise_after, strict=True)]
        seat = max(range(len(after)), key=lambda s: (abs(after[s] - before[s]) - noise[s], -s))
        if abs(after[seat] - before[seat]) <= noise[seat]:
            continue
        entry = record["commands"][k - 1]
        found.append(
            {
                "step": k,
                "round": rounds[k - 1],
                "by": int(entry["seat"]),
                "cmd": entry["cmd"],
                "seat": seat,
                "before": before[seat],
                "after": after[seat],
                "margin": round(noise[seat], 4),
            }
        )
    found.sort(key=lambda s: (-abs(s["after"] - s["before"]), s["step"]))
    return found[:TOP]


def analyse(record: Mapping[str, Any], params: Params = DEFAULT_PARAMS) -> dict[str, Any]:
    """The whole analysis of a finished game's record, as ``guildhall analyse`` prints it."""
    replayed = replay_record(record)
    if replayed.game.result(replayed.states[-1]) is None:
        raise ValueError("the record's game is not finished")
    positions = {k: analyse_step(record, replayed, k, params) for k in range(steps_of(record))}
    return {**summarise(record, positions, params.playouts), "params": params.as_dict()}
