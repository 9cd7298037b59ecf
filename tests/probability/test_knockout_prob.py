"""Exact Knockout probabilities against brute-force enumeration, the engine's own turns, and Monte Carlo."""
from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from safari_kit.cards.model import DATA_ITEMS, SafariPal
from safari_kit.knockout import KnockoutGame, Play
from safari_kit.probability.knockout import (
    KnockoutView, best_fixed_plan, best_play, card_ranks, estimate_expected_turns_won, estimate_p_win,
    expected_turns_won, item_ranks, p_win_following, p_win_leading, p_win_leading_card_only,
    pigeonhole_out, ties_per_item, turns_in_round, unseen_pool, view_of, win_count,
)

ITEMS = DATA_ITEMS


def small_deck(n: int, seed: int, spread: int = 5) -> tuple[SafariPal, ...]:
    """n made-up cards whose values are small integers: plenty of ties (K3 matters)."""
    r = random.Random(seed)
    return tuple(SafariPal(f"S{i:02d}", f"Animal {i}", *(float(r.randint(1, spread)) for _ in range(4)))
                 for i in range(n))


def val(deck, cid, item):
    return getattr(next(c for c in deck if c.id == cid), item)


def resolve(deck, item, cards):
    """K3 by hand: index (in play order) of the winning card; the first of equal maxima."""
    vals = [val(deck, c, item) for c in cards]
    return vals.index(max(vals))


def ordered_hands(pool, sizes):
    """Every way to deal hands of the given sizes (in order) from pool: all equally likely."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(pool, sizes[0]):
        rest = [c for c in pool if c not in first]
        for others in ordered_hands(rest, sizes[1:]):
            yield (first,) + others


def brute_p_win(deck, view, card, item):
    """Enumerate every deal of the later players' hands; each plays its best card on the item."""
    pool = unseen_pool(deck, view)
    wins = total = 0
    for hands in ordered_hands(pool, list(view.later)):
        plays = list(view.trick) + [card] + [max(h, key=lambda c: val(deck, c, item)) for h in hands if h]
        wins += resolve(deck, item, plays) == len(view.trick)
        total += 1
    return Fraction(wins, total)


def random_views(deck, rng, players_choices=(2, 3), count=40):
    """Random small positions: hand, cards played this round, a partial trick."""
    ids = [c.id for c in deck]
    out = []
    while len(out) < count:
        m = rng.choice(players_choices)
        h = rng.randint(1, 3)
        cards = ids[:]
        rng.shuffle(cards)
        hand = tuple(cards[:h])
        before = rng.randint(0, m - 1)
        trick = tuple(cards[h:h + before])
        played = tuple(cards[h + before:h + before + rng.randint(0, 2)])
        later = tuple(rng.choice([h, h]) for _ in range(m - 1 - before))
        view = KnockoutView(hand, later, trick, rng.choice(ITEMS) if trick else None, played)
        if sum(later) <= len(deck) - len(hand) - len(trick) - len(played):
            out.append(view)
    return out


# ---------------------------------------------------------------------------- brute force, small decks
@pytest.mark.parametrize("seed", range(6))
def test_p_win_matches_brute_force_on_small_decks(seed):
    rng = random.Random(seed)
    deck = small_deck(rng.choice([8, 9, 10]), seed)
    for view in random_views(deck, rng, count=25):
        for card in view.hand:
            if view.leading:
                for item in ITEMS:
                    assert p_win_leading(deck, view, card, item).value == brute_p_win(deck, view, card, item)
            else:
                assert p_win_following(deck, view, card).value == brute_p_win(deck, view, card, view.item)


def test_formula_counts_n_h_k_explicitly():
    deck = tuple(SafariPal(f"C{i}", f"A{i}", float(i), 1.0, 1.0, 1.0) for i in range(1, 11))
    # hand C6, C1; played this round: C9, C2; two opponents of 2 cards each
    view = KnockoutView(("C6", "C1"), later=(2, 2), played=("C9", "C2"))
    p = p_win_leading(deck, view, "C6", "weight_kg")
    # N = 10 − 2 − 2 = 6 unseen (C3 C4 C5 C7 C8 C10); H = 3 (C7, C8, C10); k = 4
    assert p.formula == "C(6 − 3, 4) / C(6, 4)" and p.value == 0
    assert p_win_leading(deck, view, "C6", "size_cm").value == 1          # all equal: no strictly higher card
    assert p_win_leading_card_only(deck, "C6", "weight_kg", 2).value == Fraction(math.comb(5, 2), math.comb(9, 2))


@pytest.mark.parametrize("seed", range(4))
def test_win_count_is_the_count_behind_every_chance(seed):
    """win_count's U, H, k (what lesson 04 and the Knockout lab print) give the exact chance and its formula."""
    rng = random.Random(seed)
    deck = small_deck(rng.choice([8, 9, 10]), seed + 10)
    for view in random_views(deck, rng, count=25):
        pool = unseen_pool(deck, view)
        for card in view.hand:
            for item in (ITEMS if view.leading else (view.item,)):
                p = p_win_leading(deck, view, card, item) if view.leading else p_win_following(deck, view, card)
                c = win_count(deck, view, card, item)
                assert c.unseen == len(pool) == c.deck - c.hand - c.played
                assert c.higher == sum(1 for x in pool if val(deck, x, item) > val(deck, card, item))
                assert c.k == view.k and c.later == len(view.later)
                assert c.value == p.value and c.formula == p.formula
                if not c.beaten:
                    num, den = c.counts
                    assert Fraction(num, den) == p.value == Fraction(math.comb(c.unseen - c.higher, c.k),
                                                                     math.comb(c.unseen, c.k))
    with pytest.raises(ValueError):
        win_count(deck, KnockoutView(("S00",), later=(1,)), "S00")              # leading: the item is needed


def test_lesson_04_worked_step_from_one_card_to_the_whole_hand():
    """The numbers notebooks/04-knockout.md cites: the lab's first position (seed 1), the Springbok
    (K12) on top speed, H = 1, k = 21; U = 56 knowing only the card, U = 50 knowing the hand."""
    game = KnockoutGame(players=4)
    assert len(game.cards) == 57
    assert card_ranks(game, "K12")["top_speed_kmh"] == 2                     # one faster card: H = 1
    only = p_win_leading_card_only(game, "K12", "top_speed_kmh", 21)
    assert only.formula == "C(57 − 1 − 1, 21) / C(57 − 1, 21)"
    assert only.value == Fraction(math.comb(56 - 1, 21), math.comb(56, 21)) == Fraction(35, 56) == Fraction(5, 8)
    assert float(only) == 0.625
    view = view_of(game.new_initial_state(seed=1).observation(0))
    assert len(view.hand) == 7 and view.leading and view.later == (7, 7, 7)
    assert best_play(game, view).action == Play("K12", "top_speed_kmh")
    c = win_count(game, view, "K12", "top_speed_kmh")
    assert (c.unseen, c.higher, c.k) == (50, 1, 21)
    assert c.formula == p_win_leading(game, view, "K12", "top_speed_kmh").formula == "C(50 − 1, 21) / C(50, 21)"
    assert c.value == Fraction(29, 50) and float(c.value) == 0.58
    # with H = 1 the count is (U − k)/U
    assert only.value == Fraction(56 - 21, 56) and c.value == Fraction(50 - 21, 50)
    # following the Warthog (K36) with the seed-2 hand: U = 57 − 7 − 1 = 49, k = 14
    hand8 = view_of(game.new_initial_state(seed=2).observation(0)).hand
    follow = KnockoutView(hand=hand8, later=(7, 7), trick=("K36",), item="top_speed_kmh")
    fc = win_count(game, follow, hand8[0])
    assert (fc.unseen, fc.k) == (49, 14)


def test_following_ties_go_to_the_earlier_card():
    deck = tuple(SafariPal(f"C{i}", f"A{i}", float(min(i, 5)), 1.0, 1.0, 1.0) for i in range(1, 9))
    # C5..C8 all weigh 5
    first = KnockoutView(("C5",), later=(1,), trick=("C6",), item="weight_kg")
    assert p_win_following(deck, first, "C5").value == 0                    # equal to an earlier card: loses
    lead = KnockoutView(("C5",), later=(1,))
    assert p_win_leading(deck, lead, "C5", "weight_kg").value == 1          # later equal cards lose to it


def test_best_play_table_and_tie_rules():
    rng = random.Random(3)
    deck = small_deck(9, 3)
    for view in random_views(deck, rng, count=30):
        best = best_play(deck, view)
        expected_rows = len(view.hand) * (len(ITEMS) if view.leading else 1)
        assert len(best.table) == expected_rows
        assert best.p.value == max(o.p.value for o in best.table)
        assert best.card in view.hand
        assert (best.action.item is not None) == view.leading
        assert len(best.rows()) == expected_rows


def reference_rounds(deck, view, plan, items):
    """Every equally likely continuation against random opponents: (weight, turns won)."""
    pool = unseen_pool(deck, view)
    h, m, a0 = len(view.hand), view.players, len(view.trick)
    sizes = [h - 1] * a0 + list(view.later)
    places = list(range(a0)) + list(range(a0 + 1, m))
    for hands in ordered_hands(pool, sizes):
        orders = [list(itertools.permutations(hd)) for hd in hands]
        for seqs in itertools.product(*orders):
            seq = dict(zip(places, seqs))
            opp_leads = [j for j in range(h) if (a0 - j) % m != 0 and not (j == 0 and view.trick)]
            for named in itertools.product(items, repeat=len(opp_leads)):
                names = dict(zip(opp_leads, named))
                used = {p: 0 for p in places}
                won = 0
                for j, (card, item) in enumerate(plan):
                    if j == 0 and view.trick:
                        item = view.item
                    elif j in names:
                        item = names[j]
                    lead = j % m
                    plays, me = [], None
                    for q in range(m):
                        p = (lead + q) % m
                        if p == a0:
                            me = len(plays)
                            plays.append(card)
                        elif j == 0 and p < a0:
                            plays.append(view.trick[p])
                        else:
                            plays.append(seq[p][used[p]])
                            used[p] += 1
                    won += resolve(deck, item, plays) == me
                yield won


@pytest.mark.parametrize("seed", range(4))
def test_expected_turns_won_matches_brute_force(seed):
    rng = random.Random(100 + seed)
    deck = small_deck(8, 100 + seed, spread=4)
    ids = [c.id for c in deck]
    items = ITEMS[:2]
    sub = tuple(SafariPal(c.id, c.name, c.weight_kg, c.size_cm, 0.0, 0.0) for c in deck)
    game_like = _Items(sub, items)
    cases = [
        KnockoutView(tuple(ids[:2]), later=(2, 2)),                                  # 3 players, I lead
        KnockoutView(tuple(ids[:2]), later=(2,), trick=(ids[2],), item=items[1]),   # 3 players, I am second
        KnockoutView(tuple(ids[:2]), later=(), trick=(ids[2], ids[3]), item=items[0]),  # I am last
        KnockoutView(tuple(ids[:3]), later=(3,), played=(ids[5], ids[6])),         # 2 players, 3 turns
    ]
    for view in cases:
        hand = list(view.hand)
        rng.shuffle(hand)
        plan = [(c, rng.choice(items)) for c in hand]
        exact = expected_turns_won(game_like, view, plan)
        samples = list(reference_rounds(sub, view, exact.plan, items))
        assert exact.expected.value == Fraction(sum(samples), len(samples))
        best = best_fixed_plan(game_like, view)
        assert best.expected.value >= exact.expected.value
        # the best plan really is the best over all orders and items
        for order in itertools.permutations(view.hand):
            for named in itertools.product(items, repeat=len(order)):
                other = expected_turns_won(game_like, view, list(zip(order, named)))
                assert other.expected.value <= best.expected.value


class _Items:
    """A game-like object: a deck and a subset of the items (what KnockoutGame offers)."""

    def __init__(self, cards, items):
        self.cards, self.items = cards, tuple(items)


# ---------------------------------------------------------------------------- the engine's own turns
def engine_cards(n):
    r = random.Random(n)
    return tuple(SafariPal(f"E{i:02d}", f"Animal {i}", *(float(r.randint(1, 6)) for _ in range(4)))
                 for i in range(n))


def deals_for(game, last_round_hands_in_deal_order, others, round_no=7):
    ids = list(game.card_ids)
    order = [c for k in range(len(last_round_hands_in_deal_order[0])) for hand in last_round_hands_in_deal_order
             for c in [hand[k]]]
    order += [c for c in others if c not in order] + [c for c in ids if c not in order and c not in others]
    deals = [ids] * 7
    deals[round_no - 1] = order
    return deals


def play_to_last_round(state):
    while state.round < 7:
        state.apply(state.legal_actions()[0])
    return state


def test_engine_leading_and_following_in_the_last_round_3_players():
    """Round 7 (one card each), 3 players: seat 0 leads, 1 and 2 follow. Every deal of the unknown cards."""
    game = KnockoutGame(players=3, cards=engine_cards(21))
    ids = list(game.card_ids)
    mine = ids[4]
    pool = [c for c in ids if c != mine]
    # seat 0 (me) leads: the dealer of round 7 is seat 2, so dealing goes 0, 1, 2
    for item in game.items:
        wins = total = 0
        exact = None
        for a, b in itertools.permutations(pool, 2):
            state = play_to_last_round(game.new_initial_state(0, deals=deals_for(game, [[mine], [a], [b]], [])))
            if exact is None:
                exact = p_win_leading(game, state.observation(0), mine, item)
            assert p_win_leading(game, state.observation(0), mine, item) == exact   # the view hides a, b
            state.apply(Play(mine, item))
            for seat in (1, 2):
                state.apply(state.legal_actions()[0])
            wins += state.completed_turns[-1]["winner"] == 0
            total += 1
        assert exact.value == Fraction(wins, total)
    # seat 1 (me) follows seat 0's card: every card of seat 0, every card of seat 2
    item = game.items[0]
    for a in pool[:8]:
        rest = [c for c in pool if c != a]
        wins = total = 0
        exact = None
        for b in rest:
            state = play_to_last_round(game.new_initial_state(0, deals=deals_for(game, [[a], [mine], [b]], [])))
            state.apply(Play(a, item))
            obs = state.observation(1)
            if exact is None:
                exact = p_win_following(game, obs, mine)
                assert view_of(obs).later == (1,) and view_of(obs).trick == (a,)
            state.apply(Play(mine))
            state.apply(state.legal_actions()[0])
            wins += state.completed_turns[-1]["winner"] == 1
            total += 1
        assert exact.value == Fraction(wins, total)


def test_engine_round_6_two_players_best_cards():
    """Round 6 (two cards each), 2 players: every opponent hand; the opponent plays its best card."""
    game = KnockoutGame(players=2, cards=engine_cards(16))
    ids = list(game.card_ids)
    hand = [ids[3], ids[9]]
    pool = [c for c in ids if c not in hand]
    # round 6: dealer seat 0 (first dealer 1, rotating), so seat 1 leads and is dealt first
    exact = {}
    counts = {}
    for opp in itertools.combinations(pool, 2):
        deals = deals_for(game, [list(hand), list(opp)], [], round_no=6)
        base = play_to_last_round_minus_one(game.new_initial_state(0, deals=deals))
        assert base.current_player == 1 and base.hand(1) == tuple(hand)
        obs = base.observation(1)
        for card in hand:
            for item in game.items:
                key = (card, item)
                if key not in exact:
                    exact[key] = p_win_leading(game, obs, card, item)
                s = base.clone()
                s.apply(Play(card, item))
                best = max(s.hand(0), key=lambda c: game.card(c).value(item))
                s.apply(Play(best))
                counts.setdefault(key, []).append(s.completed_turns[-1]["winner"] == 1)
    for key, wins in counts.items():
        assert exact[key].value == Fraction(sum(wins), len(wins)), key


def play_to_last_round_minus_one(state):
    while state.round < 6:
        state.apply(state.legal_actions()[0])
    return state


# ---------------------------------------------------------------------------- Monte Carlo twins
def random_positions(game, seeds, rng):
    """Positions reached by random play of the real engine: (state, seat to play)."""
    out = []
    for seed in seeds:
        state = game.new_initial_state(seed)
        stop = rng.randrange(0, 27 * game.players)
        for _ in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_terminal():
            out.append(state)
    return out


def test_estimates_agree_with_exact_at_random_engine_positions():
    game = KnockoutGame(players=4)
    rng = random.Random(5)
    gen = np.random.default_rng(5)
    checked = 0
    for state in random_positions(game, range(40), rng):
        obs = state.observation(state.current_player)
        view = view_of(obs)
        card = rng.choice(view.hand)
        item = rng.choice(game.items) if view.leading else None
        exact = (p_win_leading(game, view, card, item) if view.leading
                 else p_win_following(game, view, card))
        est = estimate_p_win(game, view, card, item, n=3000, rng=gen)
        assert est.within(exact, k=4), (state, card, item, exact, est)
        checked += 1
    assert checked >= 30


def test_expected_turns_estimate_agrees_at_random_engine_positions():
    game = KnockoutGame(players=4)
    rng = random.Random(8)
    gen = np.random.default_rng(8)
    for state in random_positions(game, range(100, 112), rng):
        view = view_of(state.observation(state.current_player))
        value = best_fixed_plan(game, view)
        est = estimate_expected_turns_won(game, view, value.plan, n=3000, rng=gen)
        assert est.within(value.expected, k=4), (state, value.expected, est)


def test_expected_turns_against_the_engine_with_random_opponents():
    """Round 1 of the real engine: my hand fixed, the rest dealt at random, opponents RandomBot-like."""
    game = KnockoutGame(players=3)
    ids = list(game.card_ids)
    r = random.Random(11)
    hand = r.sample(ids, 7)
    view = KnockoutView(tuple(hand), later=(7, 7))
    value = best_fixed_plan(game, view)
    plan = list(value.plan)
    wins = []
    for g in range(1500):
        rest = [c for c in ids if c not in hand]
        r.shuffle(rest)
        order = [c for k in range(7) for c in (hand[k], rest[2 * k], rest[2 * k + 1])] + rest[14:]
        state = game.new_initial_state(g, deals=[order] + [ids] * 6)
        j = 0
        while state.round == 1:
            seat = state.current_player
            if seat == 0:
                card, item = plan[j]
                state.apply(Play(card, item) if not state.trick else Play(card))
                j += 1
            else:
                legal = state.legal_actions()
                state.apply(legal[r.randrange(len(legal))])
        wins.append(state.scores()[0])
    from safari_kit.probability.distributions import Estimate
    est = Estimate.from_samples(np.array(wins))
    assert est.within(value.expected, k=4), (value.expected, est)


# ---------------------------------------------------------------------------- lesson helpers
def test_ranks_ties_and_pigeonhole_on_the_real_deck():
    game = KnockoutGame(players=4)
    ranks = item_ranks(game, "top_speed_kmh")
    assert min(ranks.values()) == 1
    ties = ties_per_item(game)
    speed = ties["top_speed_kmh"]
    assert speed.groups and speed.p_tie.value > 0            # real figures tie (K1: zebras, 80 km/h)
    N = len(game.cards)
    assert speed.p_tie.value == Fraction(sum(math.comb(len(g), 2) for g in speed.groups), math.comb(N, 2))
    for cid in game.card_ids[:5]:
        assert card_ranks(game, cid)["top_speed_kmh"] == ranks[cid]
    assert [turns_in_round(r) for r in range(1, 8)] == [7, 6, 5, 4, 3, 2, 1]
    assert pigeonhole_out(4, 5) == 1 and pigeonhole_out(7, 1) == 0 and pigeonhole_out(7, 7) == 6


def test_view_rejects_inconsistent_input():
    with pytest.raises(ValueError):
        KnockoutView(("A",), trick=("B",))            # no item
    with pytest.raises(ValueError):
        KnockoutView(("A",), played=("A",))           # a card twice
    deck = small_deck(8, 1)
    view = KnockoutView(("S00",), later=(1,))
    with pytest.raises(ValueError):
        p_win_following(deck, view, "S00")
    with pytest.raises(ValueError):
        p_win_leading(deck, view, "S01", "weight_kg")  # not in hand
