""""Reveal another", fast: the best two-clue plan for every possible second clue at once.

:func:`safari_kit.probability.witness.reveal_another_value` averages, over every
card X of the unknown pool (the deck's top card), the exact chance that the best
pair of declarations succeeds. :func:`~safari_kit.probability.witness.best_two_clue_plan`
answers one X; calling it for every X (about 66 times per position) made the
Simulation lab's 30-game tournament cost a second of CPU. This module gives
exactly the same plans and the same fractions, computed once per position.

Why it is the same computation
------------------------------
For positions with no SAM mixture among the places (the others: see the end),
:func:`best_two_clue_plan` for clue 1 ``c1`` and second clue X does this:

* representatives (``_place_classes``): the first two unknown places, the first two
  remembered cards useful to clue 1 (matching it for some type choice) and the first
  two useful to clue 2, in table order;
* pool' = pool − {X}, n = N − 1; ``a[i] = |match(c1, i) ∩ pool'|``,
  ``b[j] = |match(X, j) ∩ pool'|``, ``ab[i][j] = |match(c1, i) ∩ match(X, j) ∩ pool'|``;
* for each ordered pair of representatives, in order: two unknown places score all
  type pairs (i, j), P = (a[i]·b[j] − ab[i][j]) / (n(n−1)); otherwise each place gets
  its own best type (an unknown place: the first i with the largest a[i]; a
  remembered card: the first type it matches, or the first type) and
  P = (h1/n)·(h2/n), h = a (or b) for an unknown place, n or 0 for a remembered card;
* it keeps a candidate when its float value ``v > best + 1e-12``.

Every value is an integer over n²(n−1), so two different values differ by at least
1/(n²(n−1)) (over 2.5·10⁻⁶ for the 75-card deck; over 10⁻¹¹ while N ≤ 4000, which
:func:`fast_ok` checks). Each float is one correctly rounded division (and a product
by 1.0 or 0.0), within 2⁻⁵³ of the exact value, which is at most 1. So ``v > best +
1e-12`` holds exactly when the exact value is larger, and equal values never replace:
the reference keeps the **first candidate, in its order, with the largest exact
value**. Here the same candidates are compared as integers, in the same order, so
the plan is the same, ties included. Shortcuts, each exact:

* the reversed pair of unknown places has the same values, later: it never wins;
* the 16 type pairs of the unknown places are scored only if ``max a · max b`` (a
  bound) can beat the other pairs, or tie them from an earlier place in the order;
* clue 1's counts depend on X only through X's match bits for clue 1 (a[i] is
  ``|match(c1, i) ∩ pool|`` minus one when X matches), computed once for each;
* the scan of the other pairs depends on X only through (max b, its first type,
  which remembered cards are useful to clue 2 among the representatives), so it
  is kept for each such key.

The winner's exact chance is the integer above over n(n−1) (two unknown places:
a·b − ab; an unknown place and a remembered card: a·(n−1) or 0; two remembered
cards: n(n−1) or 0), the numbers ``_pair_joint`` turns into fractions; the sum
over X is one fraction at the end.

Positions where a place is a SAM mixture, with fewer than 3 unknown cards or more
than 4000, and second clues leaving fewer than two representatives, go through
:func:`best_two_clue_plan` for each X (the reference): same answers, no speed-up.
Grouping the X's by symmetry would save little: on the Simulation lab's
tournament, 12,550 of 13,181 second clues had a different tuple of the numbers
X enters through (its bits for clue 1, b, ab, its bits at the remembered cards).
"""
from __future__ import annotations

__all__ = ["fast_plans", "fast_ok"]


def _rows(t, choices) -> list:
    """For each card: (its match sets for each type choice, their union), cached on the game's tables."""
    cache: dict = t.__dict__.setdefault("_rows", {})
    rows: list[tuple[tuple[int, ...], int]] | None = cache.get(choices)
    if rows is None:
        rows = []
        for ms in zip(*(t.match[ty] for ty in choices)):
            union = 0
            for m in ms:
                union |= m
            rows.append((ms, union))
        cache[choices] = rows
    return rows


def fast_plans(kn, t, places: tuple, choices: tuple):
    """Yield ``(x, plan)`` for every pool card x, clue 1 being ``kn.clue[0]``.

    ``t``: the game's tables (``witness.tables``); ``places``, ``choices``: as
    ``best_two_clue_plan`` uses them. ``plan`` is ``(pa, i1, pb, i2, numerator)``:
    the places, the indices in ``choices`` of the type choices, and the exact
    P(both succeed) = numerator / (n(n−1)); None when x needs the reference.
    Only for positions :func:`fast_ok` accepts.
    """
    c1 = kn.clue[0]
    nc = len(choices)
    rows = _rows(t, choices)
    m1s = rows[c1][0]
    pool_mask = kn.pool_mask
    n = pool_mask.bit_count() - 1
    known = kn.known
    P1 = [m & pool_mask for m in m1s]
    A1 = [m.bit_count() for m in P1]
    # the places in table order, each (place, card, P(clue 1 matches)·n, first best type for clue 1);
    # card None: an unknown place (its clue-1 numbers depend on x, filled in below)
    seq: list[tuple[int, int | None, int, int]] = []
    kmask = 0  # the remembered cards of the places
    for p in places:
        c = known.get(p)
        if c is None:
            seq.append((p, None, 0, 0))
        else:
            kmask |= 1 << c
            i1 = next((i for i, m in enumerate(m1s) if (m >> c) & 1), None)
            seq.append((p, c, 0, 0) if i1 is None else (p, c, n, i1))
    # the representatives (as _place_classes): the first two unknown places, the first two remembered
    # cards useful to clue 1 (fixed here) and the first two useful to clue 2 (found for each x)
    unknown_idx = [k for k, e in enumerate(seq) if e[1] is None][:2]
    fixed1 = [k for k, e in enumerate(seq) if e[1] is not None and e[2]][:2]
    fixed = sorted(unknown_idx + fixed1)
    klist = [(k, e[1]) for k, e in enumerate(seq) if e[1] is not None]
    fixed1_mask = 0  # their cards
    for k, c in klist:
        if k in fixed1:
            fixed1_mask |= 1 << c
    ij = [(i1, i2) for i1 in range(nc) for i2 in range(nc)]
    by_bits1: dict = {}  # clue 1's counts depend on x only through x's match bits for clue 1
    scans: dict = {}  # the scan of the pairs but the unknown-unknown one depends on x only through its key
    for x in kn.pool:
        m2s, useful2 = rows[x]
        xb = tuple([(m >> x) & 1 for m in m1s])
        u1 = by_bits1.get(xb)
        if u1 is None:
            a1 = [A1[i] - xb[i] for i in range(nc)]
            h = max(a1)
            u1 = by_bits1[xb] = (a1, h, a1.index(h))
        a1, h1u, i1u = u1
        pm = pool_mask & ~(1 << x)
        b2 = [(m & pm).bit_count() for m in m2s]
        h2u = max(b2)
        i2u = b2.index(h2u)
        hits = useful2 & kmask
        first2 = []
        if hits:
            for k, c in klist:
                if (hits >> c) & 1:
                    first2.append(k)
                    if len(first2) == 2:
                        break
        key = (h1u, i1u, h2u, i2u, tuple(first2), useful2 & fixed1_mask)
        scan = scans.get(key)
        if scan is None:
            idx = sorted(set(fixed + first2)) if first2 else fixed
            scan = scans[key] = _scan([seq[k] for k in idx], n, h1u, i1u, h2u, i2u, useful2)
        if scan is None:
            yield x, None
            continue
        best_v, best, uu = scan
        if uu is not None:
            pa, pb, before = uu
            if h1u * h2u * n > best_v or (h1u * h2u * n == best_v and h1u * h2u * n > before):
                m2p = [m & pm for m in m2s]
                nums = [a1[i1] * b2[i2] - (P1[i1] & m2p[i2]).bit_count() for i1, i2 in ij]
                m = max(nums)
                # the block wins if it beats what came after it, or ties it and was before it
                if m * n > best_v or (m * n == best_v and m * n > before):
                    k = nums.index(m)
                    best = (pa, ij[k][0], pb, ij[k][1], m)
        if best[3] < 0:  # a remembered card for clue 2: the first type it matches (0 if none)
            c = -1 - best[3]
            i2 = next((j for j, m in enumerate(m2s) if (m >> c) & 1), 0)
            best = best[:3] + (i2,) + best[4:]
        yield x, best


def _scan(seq, n, h1u, i1u, h2u, i2u, useful2):
    """The scan of the representatives' pairs (``seq``: they and maybe a few more places), but the pair
    of unknown places.

    Returns None (fewer than two representatives: the reference handles it) or
    ``(best value, best plan, uu)``: values are integers over n²(n−1); ``uu`` is
    (place a, place b, the best value before them) for the first pair of unknown
    places, whose 16 type pairs the caller scores for each x.
    """
    # the representatives (as _place_classes): two unknown places, the remembered cards useful to a
    # clue (at most two for each); each (place, unknown?, h1, i1, h2, i2), P(clue k matches) = hk/n
    reps = []
    unknown = k1 = k2 = 0
    for p, c, h1, i1 in seq:
        if c is None:
            if unknown < 2:
                reps.append((p, True, h1u, i1u, h2u, i2u))
                unknown += 1
        else:
            u2 = (useful2 >> c) & 1
            v1, v2 = h1 and k1 < 2, u2 and k2 < 2
            if v1 or v2:  # clue 2's type for a remembered card: found by the caller if it is the winner's
                reps.append((p, False, h1, i1, n if u2 else 0, -1 - c))
                k1 += bool(v1)
                k2 += bool(v2)
    if len(reps) < 2:
        return None
    # every candidate's value as an integer over n²(n−1), scanned in the reference's order;
    # the first strict maximum wins (see the module docstring)
    n1 = n - 1
    best_v, best = -1, None
    uu = None
    for pa, ua, h1, i1, _, _ in reps:
        for pb, ub, _, _, h2, i2 in reps:
            if pb == pa:
                continue
            if ua and ub:
                if uu is None:  # the reversed pair of unknown places is the same, and later
                    uu = (pa, pb, best_v)
                continue
            v = h1 * h2 * n1
            if v > best_v:
                best_v, best = v, (pa, i1, pb, i2, h1 * h2 // n * n1)
    return best_v, best, uu


def fast_ok(kn, places: tuple) -> bool:
    """Can :func:`fast_plans` search this position (no SAM mixture among the places, 3 to 4000 pool cards)?"""
    return 3 <= len(kn.pool) <= 4000 and not any(p in kn.mixed for p in places)
