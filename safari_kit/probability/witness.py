"""Exact Safari Witness probabilities (fractions.Fraction), from one player's knowledge.

Everything is computed from a :class:`~safari_kit.probability.knowledge.Knowledge`
(what the player knows, memory included) and the game's card data. Card sets
are Python integers used as bitsets, precomputed once per game, so a query is
a few bit counts and one Fraction (see ``tools``/the report for timings).

Board formulas
--------------
* Identification, knowing nothing: P(match) = m / (N) where m is the number
  of the other cards sharing the declared element and N the unknown cards
  (74 at the start: an Owl clue matches 14/74).
* With memory: P(match at place) = Σ P(place holds x)·[x matches]; a
  remembered card gives 1 or 0, an unknown place m/N, a SAM pair a 1/2-mixture.
* ALEX (two types): the union, |A ∪ B| = |A| + |B| − |A ∩ B|.
* Challenge: S safe among N unknown; P(k safe in a row) = S(S−1)…(S−k+1) /
  (N(N−1)…(N−k+1)) = C(S,k)/C(N,k), known-safe places revealed first.
* Optimal stopping: with n cards archived by stopping now, continue while
  P(next safe) > n/(n+1).

One concern, and why it is long (issue 28 allows three modules over 600 lines):
the chances of Safari Witness from one player's knowledge. Every question the
lessons ask (identify, reveal another, two clues, challenge, stop or go on) has
its exact answer here and, for the Simulation lab and
``tests/probability/test_witness_montecarlo.py``, its Monte Carlo estimate
(``sample_worlds``, ``mc_*``) drawn from the same precomputed bitset tables;
``query_timings`` times the exact queries on those tables. Exact answers and
estimates share those private tables, which is why they stay in one module. If
it grows, the seam is the ``mc_*`` block (with ``sample_worlds`` and
``query_timings``), which would need the tables made public.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from weakref import WeakKeyDictionary

from safari_kit.cards.model import CLUE_TYPES
from safari_kit.probability import two_clues
from safari_kit.probability.distributions import Exact
from safari_kit.witness.rules import ALEX_TYPES, MIN_SAFE, SINGLE_TYPES

__all__ = [
    "tables", "match_count", "shared_element_count", "safe_count", "p_match_baseline", "p_match",
    "best_declaration", "declaration_table", "identify_value", "p_two_clues", "reveal_another_value",
    "best_two_clue_plan", "two_clue_plans", "two_clue_plans_reference", "reveal_another_value_reference",
    "p_reveal_another_success", "memory_comparison", "sample_worlds", "mc_p_match",
    "mc_two_clues", "mc_p_streak", "mc_challenge_value", "query_timings", "p_safe_next", "p_streak",
    "p_streak_counts", "challenge_dp", "one_step_continue",
    "stop_vs_continue_counts",
    "challenge_position", "challenge_value", "challenge_decision", "stop_vs_continue", "choice_values",
    "SINGLE_TYPES", "ALEX_TYPES", "MIN_SAFE",
]

_ONE = Fraction(1)
_ZERO = Fraction(0)


class Tables:
    """Per-game bitsets: ``match[types][i]`` = cards sharing an element of ``types`` with card i."""

    def __init__(self, game):
        n = len(game.cards)
        self.n = n
        single = {t: tuple(sum(1 << j for j in game.shares[t][i]) for i in range(n)) for t in CLUE_TYPES}
        self.match = {}
        for types in ALEX_TYPES:
            self.match[types] = tuple(_or(single[t][i] for t in types) for i in range(n))
        self.unsafe = tuple(sum(1 << j for j in game.unsafe[i]) | (1 << i) for i in range(n))
        self.all = (1 << n) - 1


def _or(xs) -> int:
    out = 0
    for x in xs:
        out |= x
    return out


_TABLES: "WeakKeyDictionary" = WeakKeyDictionary()


#: Tables by the deck's share lists (games built from one deck share them, see WitnessGame): the lists are kept
#: beside their tables, so their ``id`` stays theirs while the entry lives; a few decks at most
_TABLES_BY_SHARES: dict[int, tuple[dict, Tables]] = {}


def tables(game) -> Tables:
    t = _TABLES.get(game)
    if t is None:
        entry = _TABLES_BY_SHARES.get(id(game.shares))
        if entry is not None and entry[0] is game.shares:
            t = entry[1]
        else:
            t = Tables(game)
            if len(_TABLES_BY_SHARES) >= 8:
                _TABLES_BY_SHARES.clear()
            _TABLES_BY_SHARES[id(game.shares)] = (game.shares, t)
        _TABLES[game] = t
    return t


def _game(game):
    if game is None:
        from safari_kit.probability.knowledge import _default_game

        return _default_game()
    return game


def _types(types) -> tuple:
    if isinstance(types, str):
        return (types,)
    types = tuple(types)
    if len(types) == 2 and types not in ALEX_TYPES:  # normalise the order of a pair
        types = (types[1], types[0])
    return types


def _card(game, card) -> int:
    return game.index[card] if isinstance(card, str) else int(card)


# ------------------------------------------------------------------ the lesson figures
def match_count(card, clue_type="animal", game=None) -> int:
    """How many of the other cards share an element of ``clue_type`` (or a pair of types) with ``card``.

    Over the full deck: an animal 14, a TAM name 12, KRIS 9, ``??M`` 42.
    """
    game = _game(game)
    return tables(game).match[_types(clue_type)][_card(game, card)].bit_count()


def shared_element_count(card, game=None) -> int:
    """Cards sharing an animal, texture or color with ``card`` (inclusion–exclusion: 14+14+14−2−2−2+0 = 36)."""
    game = _game(game)
    i = _card(game, card)
    t = tables(game)
    return (t.match[("animal",)][i] | t.match[("texture",)][i] | t.match[("color",)][i]).bit_count()


def safe_count(card, game=None) -> int:
    """Of the other cards, how many are safe for a Challenge of ``card`` (no element, no possible name, W5)."""
    game = _game(game)
    t = tables(game)
    return (t.all & ~t.unsafe[_card(game, card)]).bit_count()


def p_match_baseline(card, clue_type="animal", game=None) -> Exact:
    """Knowing nothing: P(match) = m / (n − 1) (e.g. 14/74)."""
    game = _game(game)
    m = match_count(card, clue_type, game)
    n = len(game.cards) - 1
    return Exact(Fraction(m, n), f"P({'+'.join(_types(clue_type))} match), knowing nothing", f"{m}/{n}",
                 count=(m, n))


# ------------------------------------------------------------------ identification
def _entry_p(x, mask: int, pool_mask: int, n_pool: int) -> Fraction:
    if x is None:
        return Fraction((mask & pool_mask).bit_count(), n_pool) if n_pool else _ZERO
    return _ONE if (mask >> x) & 1 else _ZERO


def p_match(kn, clue, place: int, types=("animal",)) -> Exact:
    """P(the card at ``place`` shares an element of ``types`` with ``clue``), given knowledge ``kn``.

    Formula: Σ over what the place may hold: remembered card → 1 or 0;
    unknown → m/N (m matching cards among the N unknown); SAM pair → average.
    """
    game = kn.game
    types = _types(types)
    c = _card(game, clue)
    mask = tables(game).match[types][c]
    n = len(kn.pool)
    total = _ZERO
    for x, w in kn.place_dist(place).items():
        total += w * _entry_p(x, mask, kn.pool_mask, n)
    m = (mask & kn.pool_mask).bit_count()
    unknown = place in kn.unknown_places
    formula = (f"{m}/{n}" if unknown else
               "remembered" if place in kn.known else "mixture over the SAM pair")
    # an unknown place holds any of the n unknown cards with equal chance: m of them match
    count = (m, n) if unknown and n else None
    return Exact(total, f"P({'+'.join(types)} match at place {place})", formula, count=count)


def _type_choices(kn) -> tuple:
    return ALEX_TYPES if kn.alex else SINGLE_TYPES


def declaration_table(kn, clue=None, places=None, type_choices=None) -> list:
    """[(place, types, Exact)] for every declaration of ``clue`` (default: the first unresolved clue)."""
    clue = kn.unresolved[0] if clue is None else _card(kn.game, clue)
    places = kn.available if places is None else places
    out = []
    for types in (type_choices or _type_choices(kn)):
        for p in places:
            out.append((p, types, p_match(kn, clue, p, types)))
    return out


def best_declaration(kn, clue=None, places=None, type_choices=None):
    """The (place, types, Exact P(match)) with the highest probability.

    Ties go to the first type choice (single types before ALEX pairs) and then to table order;
    a remembered matching card (P = 1) wins at once.
    """
    clue = kn.unresolved[0] if clue is None else _card(kn.game, clue)
    places = kn.available if places is None else tuple(places)
    if not places:
        return None
    t = tables(kn.game)
    choices = type_choices or _type_choices(kn)
    masks = [t.match[types][clue] for types in choices]
    known = [(p, kn.known[p]) for p in places if p in kn.known]
    for types, mask in zip(choices, masks):  # a remembered match is certain
        for p, c in known:
            if (mask >> c) & 1:
                return p, types, Exact(_ONE, f"best: {'+'.join(types)} at place {p}", "remembered")
    n = len(kn.pool)
    first_unknown = next((p for p in places if p in kn.unknown_places_set), None)
    best_v, best = -1.0, None
    for types, mask in zip(choices, masks):
        if first_unknown is not None and n:
            v = (mask & kn.pool_mask).bit_count() / n
            if v > best_v + 1e-15:
                best_v, best = v, (first_unknown, types)
        for p in places:
            if p in kn.mixed:
                v = sum(float(w) * float(_entry_p(x, mask, kn.pool_mask, n)) for x, w in kn.place_dist(p).items())
                if v > best_v + 1e-15:
                    best_v, best = v, (p, types)
    if best is None:  # only remembered non-matching places
        p, types = places[0], choices[0]
    else:
        p, types = best
    return p, types, Exact(p_match(kn, clue, p, types).value, f"best: {'+'.join(types)} at place {p}")


def identify_value(kn) -> Exact:
    """Expected cards archived by identifying the one clue now: 2·p (clue + identified card)."""
    best = best_declaration(kn)
    p = best[2].value if best else _ZERO
    return Exact(2 * p, "E[archived], identify", f"2·{p}")


def _pair_joint(kn, p1, m1, p2, m2, pool_mask, n):
    """P(place p1 matches set m1 and place p2 matches set m2), p1 ≠ p2, pool given as mask/size."""
    d1, d2 = kn.place_dist(p1), kn.place_dist(p2)
    g1, g2 = kn.mixed.get(p1), kn.mixed.get(p2)
    if g1 is not None and g1 == g2:
        entries = kn.groups[g1]
        g = len(entries)
        pairs = [((entries[i], entries[j]), Fraction(1, g * (g - 1))) for i in range(g) for j in range(g) if i != j]
    else:
        pairs = [((x1, x2), w1 * w2) for x1, w1 in d1.items() for x2, w2 in d2.items()]
    total = _ZERO
    for (x1, x2), w in pairs:
        if x1 is None and x2 is None:
            if n < 2:
                continue
            a = (m1 & pool_mask).bit_count()
            b = (m2 & pool_mask).bit_count()
            ab = (m1 & m2 & pool_mask).bit_count()
            total += w * Fraction(a * b - ab, n * (n - 1))
        else:
            total += w * _entry_p(x1, m1, pool_mask, n) * _entry_p(x2, m2, pool_mask, n)
    return total


def _place_classes(kn, places, useful1: int = -1, useful2: int = -1):
    """Representatives: SAM places, at most two unknown places (they are exchangeable), and at
    most two remembered places holding a card useful for each clue (the others only give 0)."""
    reps, unknown, k1, k2 = [], 0, 0, 0
    for p in places:
        if p in kn.mixed:
            reps.append(p)
        elif p in kn.known:
            c = kn.known[p]
            u1, u2 = (useful1 >> c) & 1 and k1 < 2, (useful2 >> c) & 1 and k2 < 2
            if u1 or u2:
                reps.append(p)
                k1 += bool(u1)
                k2 += bool(u2)
        elif unknown < 2:
            reps.append(p)
            unknown += 1
    return reps


def best_two_clue_plan(kn, clue1, clue2, places=None, type_choices=None):
    """Best pair of declarations for two clue cards, chosen before either place is revealed.

    Returns ((place1, types1), (place2, types2), Exact P(both succeed)); the
    pool is the knowledge's pool minus ``clue2`` when ``clue2`` is still in it
    (the hypothetical second clue of "reveal another"). The search runs in
    floating point over exchangeable place classes; the winner is recomputed exactly.
    """
    game = kn.game
    t = tables(game)
    c1, c2 = _card(game, clue1), _card(game, clue2)
    pool_mask = kn.pool_mask & ~(1 << c2)
    n = pool_mask.bit_count()
    places = kn.available if places is None else tuple(places)
    choices = type_choices or _type_choices(kn)
    m1s = [t.match[t1][c1] for t1 in choices]
    m2s = [t.match[t2][c2] for t2 in choices]
    reps = _place_classes(kn, places, _or(m1s), _or(m2s))
    if len(reps) < 2:
        reps = list(places[:2])
    if len(reps) < 2:
        return None
    a1 = [(m & pool_mask).bit_count() for m in m1s]
    b2 = [(m & pool_mask).bit_count() for m in m2s]
    nf = float(n) if n else 1.0
    fa1 = [a / nf for a in a1]
    fb2 = [b / nf for b in b2]
    known, mixed = kn.known, kn.mixed
    dists: dict[int, tuple[tuple[int | None, float], ...]] = {}
    pooled: dict[int, bool] = {}
    v1: dict[int, list[float]] = {}
    v2: dict[int, list[float]] = {}
    for p in reps:
        if p in known:
            c = known[p]
            dists[p] = ((c, 1.0),)
            pooled[p] = False
            v1[p] = [float((m >> c) & 1) for m in m1s]
            v2[p] = [float((m >> c) & 1) for m in m2s]
        elif p in mixed:
            d = dists[p] = tuple((x, float(w)) for x, w in kn.place_dist(p).items())
            pooled[p] = any(x is None for x, _ in d)
            v1[p] = [sum(w * (fa1[i] if x is None else float((m >> x) & 1)) for x, w in d)
                     for i, m in enumerate(m1s)]
            v2[p] = [sum(w * (fb2[i] if x is None else float((m >> x) & 1)) for x, w in d)
                     for i, m in enumerate(m2s)]
        else:
            dists[p] = ((None, 1.0),)
            pooled[p] = True
            v1[p], v2[p] = fa1, fb2

    def _arg(values):
        best_i, best_x = 0, values[0]
        for i in range(1, len(values)):
            if values[i] > best_x:
                best_i, best_x = i, values[i]
        return best_i

    arg1 = {p: _arg(v1[p]) for p in reps}
    arg2 = {p: _arg(v2[p]) for p in reps}
    best_v, best = -1.0, None
    nn = float(n * (n - 1)) if n > 1 else 1.0
    for pa in reps:
        da, ga = dists[pa], kn.mixed.get(pa)
        for pb in reps:
            if pa == pb:
                continue
            gb = kn.mixed.get(pb)
            same_group = ga is not None and ga == gb
            if not same_group and not (pooled[pa] and pooled[pb]):
                # independent places: the best types are chosen separately
                i1, i2 = arg1[pa], arg2[pb]
                v = v1[pa][i1] * v2[pb][i2]
                if v > best_v + 1e-12:
                    best_v, best = v, ((pa, choices[i1]), (pb, choices[i2]))
                continue
            if same_group:
                entries = kn.groups[ga]
                g = len(entries)
                pairs = [(entries[i], entries[j], 1.0 / (g * (g - 1))) for i in range(g) for j in range(g) if i != j]
            else:
                pairs = [(x1, x2, w1 * w2) for x1, w1 in da for x2, w2 in dists[pb]]
            for i1, m1 in enumerate(m1s):
                a = a1[i1]
                for i2, m2 in enumerate(m2s):
                    v = 0.0
                    for x1, x2, w in pairs:
                        if x1 is None and x2 is None:
                            v += w * (a * b2[i2] - (m1 & m2 & pool_mask).bit_count()) / nn
                        else:
                            v += w * (a / nf if x1 is None else float((m1 >> x1) & 1)) * (
                                b2[i2] / nf if x2 is None else float((m2 >> x2) & 1))
                    if v > best_v + 1e-12:
                        best_v, best = v, ((pa, choices[i1]), (pb, choices[i2]))
    assert best is not None  # reps has two places or more, so some pair was scored
    (pa, t1), (pb, t2) = best
    exact = _pair_joint(kn, pa, t.match[t1][c1], pb, t.match[t2][c2], pool_mask, n)
    return (pa, t1), (pb, t2), Exact(exact, "P(both clues succeed)")


def p_two_clues(kn, clue2) -> Exact:
    """P(a two-clue turn fully succeeds) when the second clue turns out to be ``clue2`` (best plan)."""
    plan = best_two_clue_plan(kn, kn.clue[0], clue2)
    return plan[2] if plan else Exact(_ZERO)


def reveal_another_value(kn) -> Exact:
    """Expected cards archived by "reveal another", before the second clue is seen.

    Definition: the second clue X is uniform over the unknown pool (the deck's top
    card is any unknown card with equal chance); seeing X, the player picks the
    best pair of declarations (places and types, chosen before revealing either
    place) and wins 4 cards when both succeed:
    E = (1/N) Σ_X 4·P(both succeed | X). A player who adapts the second
    declaration after seeing the first revealed card can do slightly better.
    """
    if not kn.clue or kn.deck_count == 0 or len(kn.available) < 2:
        return Exact(_ZERO, "E[archived], reveal another", "impossible now")
    # the same plans and fractions as best_two_clue_plan for each X, searched once per position
    # (two_clues.py says why they are the same; reveal_another_value_reference is the per-X loop)
    n = len(kn.pool) - 1
    num, rest = 0, _ZERO
    for x, plan in _two_clue_plans_fast(kn, kn.available, _type_choices(kn)):
        if plan is None:
            ref = best_two_clue_plan(kn, kn.clue[0], x)
            rest += ref[2].value if ref else _ZERO
        else:
            num += plan[4]
    total = (Fraction(num, n * (n - 1)) if num else _ZERO) + rest
    return Exact(4 * total / len(kn.pool), "E[archived], reveal another", "(4/N)·Σ_X P(both | X)")


def _two_clue_plans_fast(kn, places, choices):
    """(x, fast plan or None) for every pool card x (None: ask ``best_two_clue_plan``)."""
    if not two_clues.fast_ok(kn, places):
        return ((x, None) for x in kn.pool)
    return two_clues.fast_plans(kn, tables(kn.game), tuple(places), tuple(choices))


def two_clue_plans(kn, places=None, type_choices=None) -> dict:
    """{X: best_two_clue_plan(kn, clue 1, X, places, type_choices)} for every pool card X, searched at once."""
    places = kn.available if places is None else tuple(places)
    choices = tuple(type_choices or _type_choices(kn))
    n = len(kn.pool) - 1
    out = {}
    for x, plan in _two_clue_plans_fast(kn, places, choices):
        if plan is None:
            out[x] = best_two_clue_plan(kn, kn.clue[0], x, places, type_choices)
        else:
            pa, i1, pb, i2, num = plan
            out[x] = (pa, choices[i1]), (pb, choices[i2]), Exact(Fraction(num, n * (n - 1)), "P(both clues succeed)")
    return out


def two_clue_plans_reference(kn, places=None, type_choices=None) -> dict:
    """:func:`two_clue_plans` by one :func:`best_two_clue_plan` per second clue X (slow; for tests)."""
    return {x: best_two_clue_plan(kn, kn.clue[0], x, places, type_choices) for x in kn.pool}


def reveal_another_value_reference(kn) -> Exact:
    """:func:`reveal_another_value` by one :func:`best_two_clue_plan` per second clue X (slow; for tests)."""
    if not kn.clue or kn.deck_count == 0 or len(kn.available) < 2:
        return Exact(_ZERO, "E[archived], reveal another", "impossible now")
    total = _ZERO
    for x in kn.pool:
        plan = best_two_clue_plan(kn, kn.clue[0], x)
        total += plan[2].value if plan else _ZERO
    return Exact(4 * total / len(kn.pool), "E[archived], reveal another", "(4/N)·Σ_X P(both | X)")


def p_reveal_another_success(kn) -> Exact:
    """P(a "reveal another" turn fully succeeds), averaged over the unknown second clue (best plans).

    Compare with one clue's P(match): reveal another pays 4 cards with this
    probability, identify pays 2 with P(match) (break-even: P(both) = p/2).
    """
    v = reveal_another_value(kn).value / 4
    return Exact(v, "P(both clues succeed), second clue unknown", "(1/N)·Σ_X P(both | X)")


def memory_comparison(obs, memory=None, game=None, clue=None) -> dict:
    """The best identification "knowing nothing" (no sighting remembered) vs "with what you remember".

    Returns {"knowing nothing": (place, types, Exact), "with what you remember": (...)}; both see the
    face-up cards and the archives, which are on the table.
    """
    from safari_kit.probability.knowledge import Knowledge, Memory

    game = _game(game)
    blank = Knowledge.from_observation(obs, Memory(remember_prob=0.0), game=game)
    kn = Knowledge.from_observation(obs, memory, game=game)
    return {"knowing nothing": best_declaration(blank, clue), "with what you remember": best_declaration(kn, clue)}


# ------------------------------------------------------------------ challenge
def p_streak_counts(safe: int, unknown: int, k: int, places: int | None = None) -> Fraction:
    """P(k reveals in a row are safe) drawing without replacement: C(S,k)/C(N,k).

    ``places``: the face-down places left to reveal; fewer than ``k`` gives 0.
    """
    if k < 0:
        raise ValueError("k must be non-negative")
    if k > unknown or (places is not None and k > places):
        return _ZERO
    return Fraction(comb(safe, k), comb(unknown, k))


@lru_cache(maxsize=None)
def challenge_dp(s: int, a: int, n: int, f: int, blocked: bool = False) -> Fraction:
    """Expected archive size (challenged card included) under optimal play.

    State: ``s`` safe reveals so far, ``a`` safe cards among the ``n`` unknown,
    ``f`` unknown face-down places left. Stopping (allowed when s ≥ 4, or when no
    face-down place is left) archives 1 + s; revealing is safe with chance a/n:
    V(s,a,n,f) = max(1+s, a/n · V(s+1, a−1, n−1, f−1)). ``blocked``: other
    face-down places (known unsafe, or a SAM mixture we never reveal) forbid
    stopping with fewer than 4 safe reveals when the unknown places run out,
    which counts as a failure (0).
    """
    stop = None
    if s >= MIN_SAFE or (f == 0 and not blocked):
        stop = Fraction(1 + s)
    if f == 0 or n == 0:
        return stop if stop is not None else _ZERO
    cont = Fraction(a, n) * challenge_dp(s + 1, a - 1, n - 1, f - 1, blocked) if a else _ZERO
    if stop is None:
        return cont
    return cont if cont > stop else stop


def stop_vs_continue_counts(s: int, a: int, n: int, f: int, blocked: bool = False) -> tuple:
    """(value of stopping now or None, value of revealing one more or None), from counts.

    The counts of :func:`challenge_dp`. W5: stopping is allowed after 4 or more
    safe reveals, and is the only choice when no face-down place is left (it
    then archives the challenged card and the ``s`` revealed ones even with
    fewer than 4); revealing needs an unknown place (``f`` > 0). The larger of
    the two is ``challenge_dp(s, a, n, f, blocked)``.
    """
    stop = Fraction(1 + s) if (s >= MIN_SAFE or (f == 0 and not blocked)) else None
    if f > 0 and n > 0:
        cont = Fraction(a, n) * challenge_dp(s + 1, a - 1, n - 1, f - 1, blocked) if a else _ZERO
    else:
        cont = None
    return stop, cont


def one_step_continue(s: int, a: int, n: int) -> bool:
    """The one-step rule: continue while P(next safe) = a/n > (1+s)/(2+s) (always before 4 safe)."""
    if s < MIN_SAFE:
        return True
    return n > 0 and Fraction(a, n) > Fraction(1 + s, 2 + s)


def challenge_position(kn, challenged=None) -> dict:
    """The counts a challenge decision depends on, from knowledge ``kn``.

    ``safe_places``: face-down places known to hold a safe card (revealed first);
    ``unknown_places``: places holding a pool card; ``a``/``n``: safe/all pool cards;
    ``blocked``: other face-down places (known unsafe or a SAM mixture).
    """
    game = kn.game
    t = tables(game)
    c = kn.challenged if challenged is None else _card(game, challenged)
    if c is None:
        c = kn.clue[0]
    safe_mask = kn.pool_mask & ~t.unsafe[c]
    unsafe = t.unsafe[c]
    safe_places: list[int] = []
    other: list[int] = []
    for p in kn.face_down:
        if p in kn.known:
            (other if (unsafe >> kn.known[p]) & 1 else safe_places).append(p)
        elif p in kn.mixed:
            entries = kn.groups[kn.mixed[p]]
            if all(x is not None and not (unsafe >> x) & 1 for x in entries):
                safe_places.append(p)
            else:
                other.append(p)
    unknown = list(kn.unknown_places)
    return {"card": c, "s": kn.safe_reveals if kn.challenged is not None else 0,
            "safe_places": safe_places, "unknown_places": unknown, "other_places": other,
            "a": safe_mask.bit_count(), "n": len(kn.pool), "blocked": bool(other)}


def p_safe_next(kn, challenged=None) -> Exact:
    """P(the next reveal is safe): 1 with a known-safe place left, else S/N."""
    pos = challenge_position(kn, challenged)
    if pos["safe_places"]:
        return Exact(_ONE, "P(next safe)", "a remembered safe place")
    if not pos["unknown_places"] or pos["n"] == 0:
        return Exact(_ZERO, "P(next safe)", "no unknown place")
    return Exact(Fraction(pos["a"], pos["n"]), "P(next safe)", f"{pos['a']}/{pos['n']}", count=(pos["a"], pos["n"]))


def p_streak(kn, k: int, challenged=None) -> Exact:
    """P(the next k reveals are all safe), remembered safe places first, then C(S,j)/C(N,j)."""
    pos = challenge_position(kn, challenged)
    j = max(0, k - len(pos["safe_places"]))
    if j > len(pos["unknown_places"]):
        return Exact(_ZERO, f"P({k} safe in a row)", "not enough places")
    v = p_streak_counts(pos["a"], pos["n"], j)
    # the j unknown places hold a random j-set of the N unknown cards: C(S,j) of the C(N,j) sets are all safe
    count = (comb(pos["a"], j), comb(pos["n"], j)) if 0 < j <= pos["n"] else None
    return Exact(v, f"P({k} safe in a row)", f"C({pos['a']},{j})/C({pos['n']},{j})", count=count)


def challenge_value(kn, challenged=None) -> Exact:
    """Exact expected archive size of a Challenge (from now) under the optimal stopping rule."""
    pos = challenge_position(kn, challenged)
    s = pos["s"] + len(pos["safe_places"])
    v = challenge_dp(s, pos["a"], pos["n"], len(pos["unknown_places"]), pos["blocked"])
    return Exact(v, "E[archived], challenge (optimal stopping)",
                 f"DP over (s={s}, S={pos['a']}, N={pos['n']}, f={len(pos['unknown_places'])})")


def stop_vs_continue(kn) -> tuple:
    """(value of stopping now or None if not allowed, value of revealing one more or None)."""
    pos = challenge_position(kn)
    s, f, blocked = pos["s"], len(pos["unknown_places"]), pos["blocked"]
    stop, cont = stop_vs_continue_counts(s, pos["a"], pos["n"], f, blocked)
    if pos["safe_places"]:  # a place is left: stop only after 4 safe; known-safe places go first
        stop = Fraction(1 + s) if s >= MIN_SAFE else None
        cont = challenge_dp(s + len(pos["safe_places"]), pos["a"], pos["n"], f, blocked)
    return (None if stop is None else Exact(stop, "stop now")), (None if cont is None else Exact(cont, "continue"))


def challenge_decision(kn):
    """("reveal", place) or ("stop",): known-safe places first, then the optimal rule on unknown places."""
    pos = challenge_position(kn)
    s = pos["s"]
    if pos["safe_places"]:
        return ("reveal", pos["safe_places"][0])
    can_stop = s >= MIN_SAFE or not (pos["unknown_places"] or pos["other_places"])
    if pos["unknown_places"] and pos["n"]:
        if not can_stop or one_step_continue(s, pos["a"], pos["n"]):
            return ("reveal", pos["unknown_places"][0])
    if can_stop:
        return ("stop",)
    # forced to reveal: the most likely safe of what is left
    best = max(pos["other_places"], key=lambda p: p_safe_place(kn, p, pos["card"]))
    return ("reveal", best)


def p_safe_place(kn, place, challenged) -> Fraction:
    unsafe = tables(kn.game).unsafe[challenged]
    return sum((w * _entry_p(x, ~unsafe, kn.pool_mask, len(kn.pool)) for x, w in kn.place_dist(place).items()),
               _ZERO)


# ------------------------------------------------------------------ the turn choice
def choice_values(kn, with_reveal_another: bool = True) -> dict:
    """Expected archived cards of each W3 choice: {"identify", "reveal_another", "challenge"} -> Exact."""
    out = {"identify": identify_value(kn), "challenge": challenge_value(kn, kn.clue[0])}
    if with_reveal_another and kn.deck_count > 0:
        out["reveal_another"] = reveal_another_value(kn)
    return out


# ------------------------------------------------------------------ Monte Carlo (same questions, sampled)
def sample_worlds(kn, n: int, rng=None, deck_depth: int | None = None):
    """Sample n arrangements consistent with ``kn``.

    Returns ``(places, deck)``: ``places`` maps each face-down place to an int array
    (n,) of card indices; ``deck`` is an (n, deck_count) array, top card first. Pool
    cards fill the unknown places, the pool slots of SAM groups and the deck
    uniformly at random; each SAM group is shuffled uniformly. ``deck_depth``
    keeps only the top cards of the deck (faster).
    """
    import numpy as np

    rng = np.random.default_rng(rng)
    pool = np.array(sorted(kn.pool), dtype=np.int64)
    N = len(pool)
    depth = kn.deck_count if deck_depth is None else min(deck_depth, kn.deck_count)
    need = min(N, kn.unknown_slots() + depth)
    if need == 0:
        perm = np.zeros((n, 0), dtype=np.int64)
    else:
        keys = rng.random((n, N))
        if need < N:
            part = np.argpartition(keys, need - 1, axis=1)[:, :need]
            order = np.argsort(np.take_along_axis(keys, part, axis=1), axis=1)
            perm = pool[np.take_along_axis(part, order, axis=1)]
        else:
            perm = pool[np.argsort(keys, axis=1)]
    col = 0
    places = {}
    for p in kn.unknown_places:
        places[p] = perm[:, col]
        col += 1
    for gid, entries in kn.groups.items():
        gplaces = [p for p in kn.face_down if kn.mixed.get(p) == gid]
        filled = np.empty((n, len(entries)), dtype=np.int64)
        for k, x in enumerate(entries):
            if x is None:
                filled[:, k] = perm[:, col]
                col += 1
            else:
                filled[:, k] = x
        order = np.argsort(rng.random((n, len(entries))), axis=1)
        shuffled = np.take_along_axis(filled, order, axis=1)
        for k, p in enumerate(gplaces):
            places[p] = shuffled[:, k]
    for p, c in kn.known.items():
        places[p] = np.full(n, c, dtype=np.int64)
    deck = perm[:, col:col + depth]
    return places, deck


def _mask_array(mask: int, size: int):
    import numpy as np

    return np.array([(mask >> i) & 1 for i in range(size)], dtype=bool)


def mc_p_match(kn, clue, place: int, types=("animal",), n: int = 20000, rng=None):
    """Estimate :func:`p_match` by sampling where the unknown cards are."""
    from safari_kit.probability.distributions import Estimate

    game = kn.game
    hit = _mask_array(tables(game).match[_types(types)][_card(game, clue)], len(game.cards))
    places, _ = sample_worlds(kn, n, rng, deck_depth=0)
    return Estimate.from_samples(hit[places[place]])


def mc_two_clues(kn, n: int = 20000, rng=None):
    """Estimate :func:`reveal_another_value` (cards archived, 0 or 4) by sampling the second clue and the places."""
    import numpy as np

    from safari_kit.probability.distributions import Estimate

    game = kn.game
    t = tables(game)
    if not kn.clue or kn.deck_count == 0 or len(kn.available) < 2:
        return Estimate(0.0, n, sd=0.0, proportion=False)
    places, deck = sample_worlds(kn, n, rng, deck_depth=1)
    x = deck[:, 0]
    out = np.zeros(n)
    c1 = kn.clue[0]
    size = len(game.cards)
    for card in np.unique(x):
        plan = best_two_clue_plan(kn, c1, int(card))
        if plan is None:
            continue
        (pa, t1), (pb, t2), _ = plan
        sel = x == card
        h1 = _mask_array(t.match[t1][c1], size)[places[pa][sel]]
        h2 = _mask_array(t.match[t2][int(card)], size)[places[pb][sel]]
        out[sel] = 4.0 * (h1 & h2)
    return Estimate(float(out.mean()), n, sd=float(out.std(ddof=1)), proportion=False)


def _challenge_samples(kn, n, rng, challenged=None):
    import numpy as np

    pos = challenge_position(kn, challenged)
    safe = ~_mask_array(tables(kn.game).unsafe[pos["card"]], len(kn.game.cards))
    places, _ = sample_worlds(kn, n, rng, deck_depth=0)
    if pos["unknown_places"]:
        cards = np.stack([places[p] for p in pos["unknown_places"]], axis=1)
        ok = safe[cards]
        leading = np.where(ok.all(axis=1), ok.shape[1], np.argmin(ok, axis=1))
    else:
        leading = np.zeros(n, dtype=np.int64)
    return pos, leading


def mc_p_streak(kn, k: int, n: int = 20000, rng=None, challenged=None):
    """Estimate :func:`p_streak`: the next k reveals (known-safe places first, then unknown places) all safe."""
    from safari_kit.probability.distributions import Estimate

    pos, leading = _challenge_samples(kn, n, rng, challenged)
    j = max(0, k - len(pos["safe_places"]))
    if j > len(pos["unknown_places"]):
        return Estimate(0, n)
    return Estimate.from_samples(leading >= j)


def mc_challenge_value(kn, n: int = 20000, rng=None, challenged=None):
    """Estimate :func:`challenge_value` by playing the optimal rule on sampled arrangements."""
    import numpy as np

    from safari_kit.probability.distributions import Estimate

    pos, leading = _challenge_samples(kn, n, rng, challenged)
    s = pos["s"] + len(pos["safe_places"])
    a, N, f = pos["a"], pos["n"], len(pos["unknown_places"])
    r = 0  # along an all-safe path the state is deterministic: find where the rule stops
    while r < f and N - r > 0 and one_step_continue(s + r, a - r, N - r):
        r += 1
    if r == f and s + r < MIN_SAFE and pos["blocked"]:
        value = 0  # forced onto places the DP scores as failures
    else:
        value = 1 + s + r
    samples = np.where(leading >= r, value, 0).astype(float)
    return Estimate(float(samples.mean()), n, sd=float(samples.std(ddof=1)), proportion=False)


# ------------------------------------------------------------------ timing
def query_timings(game=None, seed: int = 1, steps: int = 60, repeat: int = 2000) -> dict:
    """Microseconds per query on a mid-game position (tables precomputed): for the report and ``bench``.

    ``python -c "from safari_kit.probability.witness import query_timings; print(query_timings())"``
    """
    import time

    import numpy as np

    from safari_kit.probability.knowledge import KnowledgeTracker

    game = _game(game)
    st = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
    while not st.is_terminal() and st.phase != "choose":
        legal = st.legal_actions()
        st.apply(legal[int(rng.integers(len(legal)))])
    obs = st.observation(st.current)
    tracker = KnowledgeTracker(game, st.current)
    kn = tracker.knowledge(obs)
    tables(game)
    clue, place = kn.clue[0], kn.available[0]
    x = next(iter(kn.pool))
    queries = {
        "knowledge (incremental update + snapshot)": lambda: tracker.knowledge(obs),
        "p_match": lambda: p_match(kn, clue, place, ("animal",)),
        "best_declaration": lambda: best_declaration(kn),
        "identify_value": lambda: identify_value(kn),
        "p_two_clues (one second clue)": lambda: p_two_clues(kn, x),
        "reveal_another_value (average over the pool)": lambda: reveal_another_value(kn),
        "reveal_another_value_reference (average over the pool, one search per card)":
            lambda: reveal_another_value_reference(kn),
        "p_safe_next": lambda: p_safe_next(kn),
        "p_streak(4)": lambda: p_streak(kn, 4),
        "challenge_value": lambda: challenge_value(kn),
        "challenge_decision": lambda: challenge_decision(kn),
    }
    out = {}
    for name, f in queries.items():
        f()
        n = repeat if "average" not in name else max(1, repeat // 100)
        t = time.perf_counter()
        for _ in range(n):
            f()
        out[name] = (time.perf_counter() - t) / n * 1e6
    return out
