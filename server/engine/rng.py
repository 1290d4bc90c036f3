"""A small seedable random generator whose whole state is one JSON integer.

Games keep ``Rng(state["rng"]).…`` calls inside ``apply`` and write ``rng.state``
back, so a game replays exactly from (seats, seed, options, commands). The global
``random`` module is never used by the engines.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_to_state(seed: str) -> int:
    """Turn any seed string into a 64-bit generator state (stable across versions).

    >>> seed_to_state("abc") == seed_to_state("abc")
    True
    """
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")


class Rng:
    """SplitMix64: tiny, fast, statistically good enough for shuffling tiles."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)``, without modulo bias.

        >>> all(0 <= Rng(1).below(6) < 6 for _ in range(10))
        True
        """
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]
