"""Seeded chance, kept outside the rules logic.

The rules never call a global random function. A game draws its chance from a
:class:`Chance`, a seed plus ``numpy.random.Generator`` objects derived from
``(seed, key)``. Deriving a fresh generator per chance event (the deck order,
the k-th SAM shuffle, the deal of round r) means a state holds no mutable
generator: cloning a state is cheap and the same seed with the same actions
always gives the same game, however the state was copied or replayed.
"""
from __future__ import annotations

import secrets

import numpy as np


def fresh_seed() -> int:
    """A random seed for a game whose caller gave none (recorded, so it still replays)."""
    return secrets.randbits(63)


class Chance:
    """Deterministic generators derived from one integer seed.

    >>> Chance(7).generator("deck").permutation(5).tolist() == Chance(7).generator("deck").permutation(5).tolist()
    True
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int | None = None):
        if seed is None:
            seed = fresh_seed()
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)

    def generator(self, *key: str | int) -> np.random.Generator:
        """A generator for one named chance event, e.g. ``generator("sam", 3)``."""
        words = [self.seed] + [_key_word(k) for k in key]
        return np.random.default_rng(words)

    def __repr__(self) -> str:
        return f"Chance(seed={self.seed})"


def _key_word(k: str | int) -> int:
    if isinstance(k, str):
        return int.from_bytes(k.encode("utf-8")[:8].ljust(8, b"\0"), "little")
    return int(k)
