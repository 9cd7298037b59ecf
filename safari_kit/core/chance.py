"""Seeded chance, kept outside the rules logic, from the standard library alone.

The rules never call a global random function. A game draws its chance from a
:class:`Chance`: a seed plus one :class:`Generator` derived from ``(seed, key)``
for each chance event (the deck order, the k-th SAM shuffle, the deals of a
Knockout game). Deriving a fresh generator per chance event means a state holds
no mutable generator: cloning a state is cheap and the same seed with the same
actions always gives the same game, however the state was copied or replayed.

Why the standard library: the play path (the engines, the bots the labs use,
the labs themselves) must run where numpy cannot be installed, e.g. Python in
the browser. :class:`Generator` is a :class:`random.Random` (Mersenne Twister)
seeded with a SHA-256 hash of the seed and the key words, and every draw it
makes is built from :meth:`random.Random.random`, the one stream Python
promises stays the same across versions for the same integer seed. So a seed
deals the same cards on every platform and every Python the kit supports.

Batch simulators that want numpy seed their own numpy generator from
:meth:`Chance.derive` (the same 256-bit number), so they stay a pure function
of the seed too.

Games dealt by this generator are recorded as record version 3; version 1 and
2 records were dealt by numpy's generator (see :mod:`safari_kit.core.records`).
"""
from __future__ import annotations

import hashlib
import json
import random
import secrets
from typing import Sequence, TypeVar

__all__ = ["Chance", "Generator", "fresh_seed"]

T = TypeVar("T")

_DOMAIN = "safari_kit chance v3"  # part of the hashed words: a new dealer gets a new name


def fresh_seed() -> int:
    """A random seed for a game whose caller gave none (recorded, so it still replays)."""
    return secrets.randbits(63)


class Generator(random.Random):
    """The generator of one chance event: :class:`random.Random` plus the few draws the kit needs.

    Every draw is made from :meth:`random` (53 random bits a call): ``k`` bits
    (``k`` ≤ 32) are the top ``k`` bits of one draw, and :meth:`below` rejects
    out-of-range values, so each integer drawn is exactly uniform. What the kit
    calls: ``permutation`` (the Witness deck, the Case Cards), ``deal`` (the
    Knockout deals), ``integers`` (first player, SAM's coin, seeds for
    tournaments and memory bots) and ``randoms`` (the random bots' blocks).

    >>> g = Generator(5)
    >>> sorted(g.permutation(6)) == list(range(6))
    True
    >>> all(0 <= g.integers(3) < 3 for _ in range(100))
    True
    >>> len(set(g.deal(57, 28)))
    28
    """

    def bits(self, k: int) -> int:
        """A uniform integer in ``[0, 2**k)``."""
        out = 0
        rand = self.random
        while k > 32:
            out = (out << 32) | int(rand() * 4294967296.0)
            k -= 32
        return (out << k) | int(rand() * (1 << k))

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, as :mod:`random` does it)."""
        if n <= 0:
            raise ValueError(f"below(n) needs n > 0, got {n}")
        k = n.bit_length()
        r = self.bits(k)
        while r >= n:
            r = self.bits(k)
        return r

    def integers(self, low: int, high: int | None = None, size: int | None = None):
        """Uniform integer(s) in ``[low, high)`` (``[0, low)`` when ``high`` is None); a list when ``size`` is given."""
        if high is None:
            low, high = 0, low
        span = high - low
        if span <= 0:
            raise ValueError(f"integers: empty range [{low}, {high})")
        if size is None:
            return low + self.below(span)
        return [low + self.below(span) for _ in range(size)]

    def permutation(self, n: int | Sequence[T]) -> list:
        """A shuffled list of ``range(n)`` (or of the items of a sequence).

        The order of ``n`` draws of :meth:`random`: every order is equally likely
        (two equal draws, chance below n²/2⁵⁴, keep their index order). Sorting
        the draws runs in C, about twice as fast as a Fisher-Yates loop in Python.
        """
        rand = self.random
        if isinstance(n, int):
            keys = [rand() for _ in range(n)]
            return sorted(range(n), key=keys.__getitem__)
        items = list(n)
        keys = [rand() for _ in items]
        return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]

    def deal(self, n: int, k: int) -> list[int]:
        """The first ``k`` of a shuffled ``range(n)``: every ordered choice of k of the n equally likely.

        Only the k dealt positions are drawn (a partial Fisher-Yates shuffle, each
        swap chosen by :meth:`below`'s exact rejection), which is what a deal needs.
        """
        if not 0 <= k <= n:
            raise ValueError(f"deal: need 0 <= k <= n, got k={k}, n={n}")
        items = list(range(n))
        rand = self.random
        for i in range(k):
            m = n - i
            scale = 1 << m.bit_length()
            j = int(rand() * scale)
            while j >= m:
                j = int(rand() * scale)
            j += i
            items[i], items[j] = items[j], items[i]
        del items[k:]
        return items

    def randoms(self, size: int) -> list[float]:
        """``size`` floats in ``[0, 1)``, e.g. a bot's block of decisions."""
        rand = self.random
        return [rand() for _ in range(size)]


class Chance:
    """Deterministic generators derived from one integer seed.

    >>> Chance(7).generator("deck").permutation(5) == Chance(7).generator("deck").permutation(5)
    True
    >>> Chance(7).generator("deck").permutation(5) == Chance(8).generator("deck").permutation(5)
    False
    """

    __slots__ = ("seed",)

    def __init__(self, seed: int | None = None):
        if seed is None:
            seed = fresh_seed()
        if isinstance(seed, bool) or not _is_integer(seed) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)

    def derive(self, *key: str | int) -> int:
        """The 256-bit number that seeds the generator of ``key`` (also a numpy seed for batch simulators)."""
        words = json.dumps([_DOMAIN, self.seed, *[_key_word(k) for k in key]], separators=(",", ":"))
        return int.from_bytes(hashlib.sha256(words.encode("utf-8")).digest(), "big")

    def generator(self, *key: str | int) -> Generator:
        """A generator for one named chance event, e.g. ``generator("sam", 3)``."""
        return Generator(self.derive(*key))

    def __repr__(self) -> str:
        return f"Chance(seed={self.seed})"


def _is_integer(x) -> bool:
    """An int, or an integer scalar of an array library (numpy's int64) without importing it."""
    return isinstance(x, int) or (hasattr(x, "__index__") and not isinstance(x, float) and
                                  type(x).__module__.split(".")[0] == "numpy")


def _key_word(k: str | int) -> str | int:
    if isinstance(k, str):
        return k
    if isinstance(k, bool) or not _is_integer(k):
        raise ValueError(f"a chance key is made of strings and integers, got {k!r}")
    return int(k)
