"""Tournament statistics: win shares with 95% confidence intervals, mean scores, timings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``share`` observed over ``n`` trials.

    Chosen over the normal approximation because it stays inside [0, 1] and does not
    collapse to zero width when a bot wins every game. Split ties make ``share`` a mean of
    fractions rather than of 0/1 outcomes; the interval is then slightly conservative.

    >>> [round(x, 3) for x in wilson(0.5, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameRecord:
    """One finished game: the bot kind at each seat, scores and winners."""

    kinds: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class KindSummary:
    """How one bot kind did: ``share`` is the win share *per seat* it held, with its CI."""

    kind: str
    seats: int
    games: int
    share: float
    low: float
    high: float
    mean_score: float


def summarize(records: Sequence[GameRecord]) -> list[KindSummary]:
    """Per bot kind, in first-seen order: win share per seat (ties split), 95% CI, mean score.

    A kind holding k seats of every game wins a total share X per game; its per-seat share is
    mean(X)/k and the interval is Wilson's on mean(X) over the games, divided by k.
    """
    kinds = list(dict.fromkeys(k for r in records for k in r.kinds))
    return [_summary(kind, records) for kind in kinds]


def _summary(kind: str, records: Sequence[GameRecord]) -> KindSummary:
    total_share, scores, seats = 0.0, [], 0
    for r in records:
        held = [seat for seat, k in enumerate(r.kinds) if k == kind]
        seats = max(seats, len(held))
        total_share += sum(1 / len(r.winners) for seat in held if seat in r.winners)
        scores += [r.scores[seat] for seat in held]
    n = len(records)
    mean_total = total_share / n if n else 0.0
    low, high = wilson(mean_total, n)
    per = max(seats, 1)
    return KindSummary(
        kind=kind,
        seats=seats,
        games=n,
        share=mean_total / per,
        low=low / per,
        high=high / per,
        mean_score=sum(scores) / len(scores) if scores else 0.0,
    )


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method; 0 when empty.

    >>> percentile([1, 2, 3, 4], 0.5)
    2
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]
