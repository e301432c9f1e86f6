"""A tiny seeded PRNG whose whole state is one integer.

The state lives inside the game state (so a stored game replays exactly and
survives a JSON round-trip); ``random.Random`` cannot be stored that way and
its algorithms are not promised stable across Python versions. SplitMix64 is
small, fast and well studied.
"""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """Draws numbers from, and advances, an integer state held by the caller."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffled(items)[:k]

    def chance(self, probability: float) -> bool:
        return self.next_u64() < probability * (1 << 64)


def seed_state(seed: int) -> int:
    """Spread a small user seed over 64 bits so seeds 1 and 2 differ at once."""
    return Rng(seed).next_u64()
