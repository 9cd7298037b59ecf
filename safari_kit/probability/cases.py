"""Case Cards (W9): the chance of completing a goal if m more random cards are archived.

The m new cards are a uniformly random m-subset of the unknown pool (what the
player cannot place), so counts per element follow a multivariate
hypergeometric law:

    P(k_1, …, k_5 of the five colors, rest other) = Π C(n_e, k_e) · C(n_0, m − Σk) / C(N, m)

A set of 5 colors needs every color at least once (two sets: twice); we sum
that law over the count vectors that reach the goal. For one set the same
number is an inclusion–exclusion over the missing colors J:
Σ_J (−1)^|J| C(N − n_J, m) / C(N, m).

Names (W9): clear names count once each, ink cards each add one name they
match, by a maximum matching (:func:`safari_kit.witness.cases.distinct_names`).
We enumerate which clear names and which ink cards appear among the m cards
(a subset-sum over 7 names and the ink cards in the pool).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

from safari_kit.cards.model import ANIMALS, COLORS, TEXTURES, Mugshot
from safari_kit.cards.names import NAMES, is_ink
from safari_kit.probability.distributions import Estimate, Exact
from safari_kit.witness.cases import distinct_names

__all__ = ["p_complete_set", "p_complete_set_inclusion_exclusion", "p_names", "case_goal_probability",
           "mc_complete_set", "mc_names", "ELEMENTS_OF"]

ELEMENTS_OF = {"animal": ANIMALS, "texture": TEXTURES, "color": COLORS}


def _cards(game, cards):
    return [game.cards[c] if hasattr(c, "__index__") else
            (game.cards[game.index[c]] if isinstance(c, str) else c) for c in cards]


def p_complete_set(kind: str, archive, pool, m: int, sets: int = 1, game=None) -> Exact:
    """P(the archive plus m random pool cards holds ``sets`` complete sets of 5 ``kind`` s).

    ``kind``: "animal", "texture" or "color"; ``archive``/``pool``: cards (Mugshots, ids or indices).
    """
    game = _game(game)
    archive, pool = _cards(game, archive), _cards(game, pool)
    elements = ELEMENTS_OF[kind]
    have = [sum(1 for c in archive if getattr(c, kind) == e) for e in elements]
    sizes = [sum(1 for c in pool if getattr(c, kind) == e) for e in elements]
    n = len(pool)
    if not 0 <= m <= n:
        raise ValueError(f"m must be between 0 and the pool size {n}, got {m}")
    other = n - sum(sizes)
    need = [max(0, sets - h) for h in have]
    ways = 0

    def rec(i, left, w):
        nonlocal ways
        if i == len(elements):
            ways += w * comb(other, left)
            return
        for k in range(need[i], min(sizes[i], left) + 1):
            rec(i + 1, left - k, w * comb(sizes[i], k))

    rec(0, m, 1)
    return Exact(Fraction(ways, comb(n, m)), f"P({sets} set(s) of 5 {kind}s after {m} more cards)",
                 f"Σ Π C(n_e,k_e)·C(n_0, m−Σk) / C({n},{m}) over k_e ≥ need_e")


def p_complete_set_inclusion_exclusion(kind: str, archive, pool, m: int, game=None) -> Exact:
    """One set of 5 by inclusion–exclusion over the missing elements J: Σ (−1)^|J| C(N − n_J, m)/C(N, m)."""
    game = _game(game)
    archive, pool = _cards(game, archive), _cards(game, pool)
    elements = ELEMENTS_OF[kind]
    missing = [e for e in elements if not any(getattr(c, kind) == e for c in archive)]
    size = {e: sum(1 for c in pool if getattr(c, kind) == e) for e in missing}
    n = len(pool)
    total = 0
    for r in range(len(missing) + 1):
        for J in combinations(missing, r):
            total += (-1) ** r * comb(n - sum(size[e] for e in J), m)
    return Exact(Fraction(total, comb(n, m)), f"P(a set of 5 {kind}s after {m} more cards)",
                 "Σ_J (−1)^|J| C(N − n_J, m) / C(N, m)")


def p_names(archive, pool, m: int, target: int = 5, game=None) -> Exact:
    """P(at least ``target`` different names (W9 matching) after archiving m random pool cards)."""
    game = _game(game)
    archive, pool = _cards(game, archive), _cards(game, pool)
    n = len(pool)
    if not 0 <= m <= n:
        raise ValueError(f"m must be between 0 and the pool size {n}, got {m}")
    inks = [c for c in pool if is_ink(c.name)]
    clear_sizes = [sum(1 for c in pool if c.name == name) for name in NAMES]
    # DP over clear-name categories: state (cards used, mask of names present) -> ways
    states = {(0, 0): 1}
    for bit, size in enumerate(clear_sizes):
        nxt: dict = {}
        for (k, mask), w in states.items():
            nxt[(k, mask)] = nxt.get((k, mask), 0) + w
            for j in range(1, min(size, m - k) + 1):
                key = (k + j, mask | (1 << bit))
                nxt[key] = nxt.get(key, 0) + w * comb(size, j)
        states = nxt
    # ink cards, each alone
    full = {(k, mask, 0): w for (k, mask), w in states.items()}
    for i in range(len(inks)):
        nxt = {}
        for (k, mask, im), w in full.items():
            nxt[(k, mask, im)] = nxt.get((k, mask, im), 0) + w
            if k < m:
                key3 = (k + 1, mask, im | (1 << i))
                nxt[key3] = nxt.get(key3, 0) + w
        full = nxt
    archive_key = tuple(sorted(c.name for c in archive))
    ink_names = tuple(c.name for c in inks)
    ways = 0
    for (k, mask, im), w in full.items():
        if k != m:
            continue
        if _names_count(archive_key, ink_names, mask, im) >= target:
            ways += w
    return Exact(Fraction(ways, comb(n, m)), f"P(≥ {target} names after {m} more cards)",
                 "enumeration over which names and ink cards appear (W9 matching)")


@lru_cache(maxsize=65536)
def _names_count(archive_names: tuple, ink_names: tuple, mask: int, ink_mask: int) -> int:
    cards = [Mugshot(f"a{i}", "", "", "", nm) for i, nm in enumerate(archive_names)]
    cards += [Mugshot(f"c{b}", "", "", "", NAMES[b]) for b in range(len(NAMES)) if mask >> b & 1]
    cards += [Mugshot(f"i{i}", "", "", "", nm) for i, nm in enumerate(ink_names) if ink_mask >> i & 1]
    return distinct_names(cards)[0]


def case_goal_probability(kn, case: str, m: int) -> Exact | None:
    """For the player's own Case Card: P(reaching its first goal) after m more random cards.

    set_* cards: a set of 5 (one set); "names": 5 different names. ``kn`` is a
    :class:`~safari_kit.probability.knowledge.Knowledge`. Other cards: None.
    """
    archive = kn.archives[kn.player]
    if case.startswith("set_"):
        return p_complete_set(case.removeprefix("set_")[:-1], archive, sorted(kn.pool), m, game=kn.game)
    if case == "names":
        return p_names(archive, sorted(kn.pool), m, 5, game=kn.game)
    return None


# ------------------------------------------------------------------ Monte Carlo
def mc_complete_set(kind, archive, pool, m, sets=1, n=20000, rng=None, game=None) -> Estimate:
    """Estimate :func:`p_complete_set` by drawing m of the pool n times."""
    import numpy as np  # the Monte Carlo twins only (the Simulation lab); the exact answers need none

    game = _game(game)
    rng = np.random.default_rng(rng)
    archive, pool = _cards(game, archive), _cards(game, pool)
    elements = ELEMENTS_OF[kind]
    code = {e: i for i, e in enumerate(elements)}
    have = np.array([sum(1 for c in archive if getattr(c, kind) == e) for e in elements])
    labels = np.array([code[getattr(c, kind)] for c in pool])
    keys = rng.random((n, len(pool)))
    draws = np.argpartition(keys, m - 1, axis=1)[:, :m] if m else np.zeros((n, 0), dtype=int)
    counts = np.zeros((n, 5), dtype=int)
    for e in range(5):
        counts[:, e] = (labels[draws] == e).sum(axis=1)
    ok = ((counts + have) >= sets).all(axis=1)
    return Estimate.from_samples(ok)


def mc_names(archive, pool, m, target=5, n=4000, rng=None, game=None) -> Estimate:
    import numpy as np

    game = _game(game)
    rng = np.random.default_rng(rng)
    archive, pool = _cards(game, archive), _cards(game, pool)
    hits = 0
    for _ in range(n):
        pick = rng.choice(len(pool), size=m, replace=False)
        if distinct_names(archive + [pool[i] for i in pick])[0] >= target:
            hits += 1
    return Estimate(hits, n)


def _game(game):
    if game is None:
        from safari_kit.probability.knowledge import _default_game

        return _default_game()
    return game
