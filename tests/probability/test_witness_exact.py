"""Exact Witness probabilities: the lesson figures, and brute-force enumeration on small decks."""
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product
from math import comb

import numpy as np
import pytest

from safari_kit.cards.model import ANIMALS, COLORS, TEXTURES, Mugshot
from safari_kit.probability import witness as W
from safari_kit.probability.knowledge import Knowledge, KnowledgeTracker
from safari_kit.witness.game import WitnessGame

NAME_POOL = ("TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX", "T?M", "??M", "AL??")


@pytest.fixture(scope="module")
def game():
    return WitnessGame(players=3)


# ------------------------------------------------------------------ lesson figures (LESSONS 02, 03)
def test_lesson_02_figures(game):
    first = {}
    for c in game.cards:
        first.setdefault(c.name, c.id)
    assert W.match_count(first["TAM"], "name", game) == 12
    assert W.match_count(first["KRIS"], "name", game) == 9
    assert W.match_count(first["??M"], "name", game) == 42
    for c in game.cards:
        assert W.match_count(c.id, "animal", game) == 14
        assert W.p_match_baseline(c.id, "color", game).value == Fraction(14, 74)
    assert repr(W.p_match_baseline("W02", "animal", game)) == "7/37 ≈ 0.1892"


def test_lesson_03_figures(game):
    for c in game.cards:
        assert W.shared_element_count(c.id, game) == 36  # 14+14+14-2-2-2+0
        s = W.safe_count(c.id, game)
        assert s <= 74 - 36
    st = game.new_initial_state(seed=2)
    kn = Knowledge.from_observation(st.observation(st.current), game=game)
    s = W.safe_count(kn.clue[0], game)
    assert W.p_streak(kn, 4).value == Fraction(comb(s, 4), comb(74, 4))
    assert W.p_streak(kn, 4).value < Fraction(s, 74) ** 4
    assert W.p_safe_next(kn).value == Fraction(s, 74)


def test_alex_union(game):
    i = 5
    a = W.match_count(i, "animal", game)
    c = W.match_count(i, "color", game)
    both = W.tables(game).match[("animal",)][i] & W.tables(game).match[("color",)][i]
    assert W.match_count(i, ("animal", "color"), game) == a + c - both.bit_count()
    assert W.match_count(i, ("color", "animal"), game) == a + c - both.bit_count()


def test_start_identify_value_is_2p(game):
    st = game.new_initial_state(seed=4)
    kn = Knowledge.from_observation(st.observation(st.current), game=game)
    place, types, p = W.best_declaration(kn)
    assert W.identify_value(kn).value == 2 * p.value
    assert p.value == max(Fraction(W.match_count(kn.clue[0], t, game), 74) for t in ("animal", "texture",
                                                                                      "color", "name"))


# ------------------------------------------------------------------ optimal stopping
def test_one_step_rule_equals_dp():
    checked = 0
    for n in range(1, 40):
        for a in range(0, n + 1):
            for s in range(4, 12):
                for f in range(1, 10):
                    stop = Fraction(1 + s)
                    cont = Fraction(a, n) * W.challenge_dp(s + 1, a - 1, n - 1, f - 1) if a else Fraction(0)
                    assert (cont > stop) == W.one_step_continue(s, a, n), (s, a, n, f)
                    checked += 1
    assert checked > 10000


def test_dp_small_values():
    # 4 places, all must be safe: value 5 * C(a,4)/C(n,4)
    for a, n in [(30, 74), (5, 9), (4, 4)]:
        assert W.challenge_dp(0, a, n, 4) == 5 * Fraction(comb(a, 4), comb(n, 4))
    assert W.p_streak_counts(30, 74, 4) == Fraction(30 * 29 * 28 * 27, 74 * 73 * 72 * 71)
    assert W.challenge_dp(0, 0, 10, 5) == 0


# ------------------------------------------------------------------ brute force on small decks
def _small_deck(seed, n=10):
    rng = np.random.default_rng(seed)
    cards = []
    for k in range(n):
        cards.append(Mugshot(f"S{k:02d}", ANIMALS[rng.integers(3)], TEXTURES[rng.integers(3)],
                             COLORS[rng.integers(3)], NAME_POOL[rng.integers(len(NAME_POOL))]))
    return cards


def _worlds(kn, extra=0):
    """Every arrangement consistent with kn, with its probability: (weight, {place: card}, deck_top_cards)."""
    pool = sorted(kn.pool)
    unknown = list(kn.unknown_places)
    groups = []
    for gid, entries in kn.groups.items():
        groups.append(([p for p in kn.face_down if kn.mixed.get(p) == gid], entries))
    n_none = sum(sum(1 for x in e if x is None) for _, e in groups)
    slots = len(unknown) + n_none + extra
    perms = list(permutations(pool, slots))
    group_orders = [list(permutations(range(len(e)))) for _, e in groups]
    total = len(perms) * int(np.prod([len(o) for o in group_orders] or [1]))
    for perm in perms:
        base = dict(zip(unknown, perm[:len(unknown)]))
        base.update(kn.known)
        col = len(unknown)
        filled = []
        for _, entries in groups:
            f = []
            for x in entries:
                if x is None:
                    f.append(perm[col])
                    col += 1
                else:
                    f.append(x)
            filled.append(f)
        for orders in product(*group_orders):
            world = dict(base)
            for (gplaces, _), f, order in zip(groups, filled, orders):
                for p, k in zip(gplaces, order):
                    world[p] = f[k]
            yield Fraction(1, total), world, perm[col:]


def _small_positions(n_positions=30, need_sam=False, seeds=range(200)):
    out = []
    for seed in seeds:
        cards = _small_deck(seed, 10 + seed % 3)
        g = WitnessGame(players=2, cards=cards, advanced=True)
        st = g.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        tracker = KnowledgeTracker(g, 0)
        while not st.is_terminal():
            if st.phase == "choose":
                kn = tracker.knowledge(st.observation(st.current))
                small = len(kn.pool) <= (9 if need_sam else 8) and kn.unknown_slots() <= 4
                if small and (kn.mixed or not need_sam):
                    out.append((g, st.clone(), kn))
                    break
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
        if len(out) >= n_positions:
            break
    return out


@pytest.fixture(scope="module")
def small_positions():
    pos = _small_positions()
    assert len(pos) >= 15
    assert sum(1 for _, _, kn in pos if kn.known) >= 5  # memory matters in some
    sam = _small_positions(4, need_sam=True, seeds=[107, 118, 142, 289, *range(300, 700)])
    assert len(sam) >= 3 and all(kn.mixed for _, _, kn in sam)  # SAM pairs (1/2 mixtures)
    return pos + sam


def test_p_match_brute_force(small_positions):
    for g, st, kn in small_positions:
        worlds = list(_worlds(kn))
        assert sum(w for w, _, _ in worlds) == 1
        clue = kn.clue[0]
        for place in kn.available:
            for types in W.ALEX_TYPES:
                mask = W.tables(g).match[types][clue]
                brute = sum(w for w, world, _ in worlds if (mask >> world[place]) & 1)
                assert W.p_match(kn, clue, place, types).value == brute


def test_two_clue_brute_force(small_positions):
    for g, st, kn in small_positions[:8] + small_positions[-4:]:
        if kn.deck_count == 0 or len(kn.available) < 2:
            continue
        t = W.tables(g)
        clue = kn.clue[0]
        total = Fraction(0)
        per_x: dict = {}
        for w, world, top in _worlds(kn, extra=1):
            per_x.setdefault(top[0], []).append((w, world))
        for x, worlds in per_x.items():
            wx = sum(w for w, _ in worlds)
            best = Fraction(-1)
            for pa in kn.available:
                for pb in kn.available:
                    if pa == pb:
                        continue
                    choices = W.ALEX_TYPES if kn.alex else W.SINGLE_TYPES
                    for t1 in choices:
                        for t2 in choices:
                            m1, m2 = t.match[t1][clue], t.match[t2][x]
                            v = sum(w for w, world in worlds if (m1 >> world[pa]) & 1 and (m2 >> world[pb]) & 1) / wx
                            best = max(best, v)
            assert W.p_two_clues(kn, x).value == best
            total += wx * best
        assert W.reveal_another_value(kn).value == 4 * total


def test_streak_and_challenge_brute_force(small_positions):
    for g, st, kn in small_positions:
        pos = W.challenge_position(kn)
        unsafe = W.tables(g).unsafe[pos["card"]]
        worlds = list(_worlds(kn))
        order = pos["safe_places"] + pos["unknown_places"]
        for k in range(0, len(order) + 1):
            brute = sum(w for w, world, _ in worlds if all(not (unsafe >> world[p]) & 1 for p in order[:k]))
            assert W.p_streak(kn, k).value == brute
        # optimal value by expectimax over explicit card sets
        pool = frozenset(kn.pool)
        k0 = len(pos["safe_places"])

        @lru_cache(maxsize=None)
        def value(rest, s, f):
            can_stop = s >= 4 or (f == 0 and not pos["blocked"])
            best = Fraction(1 + s) if can_stop else Fraction(0)
            if f and rest:
                cont = sum((value(rest - {c}, s + 1, f - 1) for c in rest if not (unsafe >> c) & 1),
                           Fraction(0)) / len(rest)
                best = max(best, cont)
            return best

        assert W.challenge_value(kn).value == value(pool, k0, len(pos["unknown_places"]))


# ------------------------------------------------------------------ the full deck: plan search is exhaustive
def _engine_positions(advanced, n=3):
    game = WitnessGame(players=3, advanced=advanced)
    out = []
    for seed in range(40):
        st = game.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        tracker = KnowledgeTracker(game, 0)
        step = 0
        while not st.is_terminal():
            if st.phase == "choose" and step > 8:
                kn = tracker.knowledge(st.observation(st.current))
                if kn.known and len(kn.available) <= 14:
                    out.append(kn)
                    break
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
            step += 1
        if len(out) >= n:
            break
    return out


@pytest.mark.parametrize("advanced,choices", [(False, W.SINGLE_TYPES), (True, W.ALEX_TYPES)])
def test_two_clue_plan_is_best_of_all_pairs(advanced, choices):
    positions = _engine_positions(advanced, n=2 if advanced else 4)
    assert positions
    for kn in positions:
        t = W.tables(kn.game)
        c1 = kn.clue[0]
        for x in sorted(kn.pool)[:3 if advanced else 5]:
            pool_mask = kn.pool_mask & ~(1 << x)
            n = pool_mask.bit_count()
            best = max(W._pair_joint(kn, pa, t.match[t1][c1], pb, t.match[t2][x], pool_mask, n)
                       for pa in kn.available for pb in kn.available if pa != pb
                       for t1 in choices for t2 in choices)
            assert W.best_two_clue_plan(kn, c1, x, type_choices=choices)[2].value == best


def test_memory_comparison():
    game = WitnessGame(players=3)
    for seed in range(30):
        st = game.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(40):
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
        while not st.is_terminal() and st.phase != "choose":
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
        if st.is_terminal():
            continue
        cmp = W.memory_comparison(st.observation(st.current), game=game)
        nothing, memory = cmp["knowing nothing"][2], cmp["with what you remember"][2]
        assert memory.value >= nothing.value
        if memory.value == 1:
            return
    pytest.fail("memory never made an identification certain")
