"""Rulings K1–K5, each checked with scripted deals (see docs/rules.md, Safari Knockout)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from safari_kit.cards import load_cards
from safari_kit.cards.model import DATA_ITEMS
from safari_kit.knockout import KnockoutGame, Play, cards_per_player
from tests.knockout.helpers import cid, make_cards, play_turn, scripted_deals, small_game

CARDS = make_cards(49)
IDS = [c.id for c in CARDS]


@pytest.fixture(scope="module")
def real_cards():
    return load_cards().knockout


# ---------------------------------------------------------------- K1
def test_k1_deck(real_cards):
    assert len(real_cards) >= 49
    names = [c.name for c in real_cards]
    assert len(set(names)) == len(names)
    assert len({c.id for c in real_cards}) == len(real_cards)
    for c in real_cards:
        assert c.id.startswith("K")
        for item in DATA_ITEMS:
            v = c.value(item)
            assert isinstance(v, float) and v > 0
    by_name = {c.name: c for c in real_cards}
    assert by_name["Cheetah"].top_speed_kmh == max(c.top_speed_kmh for c in real_cards)
    assert by_name["African Elephant"].weight_kg == max(c.weight_kg for c in real_cards)


def test_k1_default_game_uses_the_shipped_deck(real_cards):
    game = KnockoutGame(players=7)
    assert game.cards == tuple(real_cards) and game.default_deck
    assert game.items == DATA_ITEMS


def test_k1_every_item_higher_wins():
    for item in DATA_ITEMS:
        game = small_game(players=2, items=(item,))
        deals = scripted_deals({1: [[cid(i) for i in range(1, 8)], [cid(i) for i in range(11, 18)]]}, IDS)
        state = game.new_initial_state(deals=deals)
        state.apply(Play(cid(1), item))
        state.apply(Play(cid(11)))
        assert state.scores() == [0, 1]


# ---------------------------------------------------------------- K2
@pytest.mark.parametrize("players", [2, 4, 7])
def test_k2_deal_sizes_per_round(players):
    game = small_game(players=players)
    state = game.new_initial_state(seed=5)
    seen = set()
    while not state.is_terminal():
        if state.turn == 0 and not state.trick:
            r = state.round
            assert [len(h) for h in state.hands] == [cards_per_player(r)] * players == [8 - r] * players
            assert sum(len(h) for h in state.hands) == len(set().union(*map(set, state.hands)))
            seen.add(r)
        state.apply(state.legal_actions()[0])
    assert seen == set(range(1, 8))


def test_k2_dealing_one_card_at_a_time_from_the_dealers_left():
    game = small_game(players=3)          # dealer seat 2, so seat 0 is dealt first
    state = game.new_initial_state(deals=[IDS] * 7)
    assert state.dealer == 2
    assert state.hands[0] == tuple(cid(i) for i in range(1, 22, 3))
    assert state.hands[1] == tuple(cid(i) for i in range(2, 22, 3))
    assert state.hands[2] == tuple(cid(i) for i in range(3, 22, 3))


def test_k2_each_round_deals_from_a_fresh_full_deck():
    game = small_game(players=4)
    state = game.new_initial_state(seed=11)
    assert len(state._deals) == 7
    # of each round's shuffled full deck, the cards it deals: (8 − r) × players distinct cards
    for r, order in enumerate(state._deals, start=1):
        assert len(order) == (8 - r) * 4 == len(set(order)) and set(order) <= set(range(len(CARDS)))
    assert len(set(state._deals)) == 7           # 7 different shuffles
    # a fresh full deck each round: cards dealt in round 1 come back in later rounds
    assert set(state._deals[0]) & set().union(*state._deals[1:])
    # same seed: same deals; deals do not depend on play
    assert game.new_initial_state(seed=11)._deals == state._deals


def test_k2_dealer_and_lead_rotation():
    game = small_game(players=4)
    state = game.new_initial_state(seed=2)
    for r in range(1, 8):
        assert state.round == r
        dealer = (3 + r - 1) % 4
        assert state.dealer == dealer
        for t in range(8 - r):
            lead = (dealer + 1 + t) % 4
            assert state.lead == state.current_player == lead
            # seat 0 wins every turn it can: the lead still moves on, whoever won
            for k in range(4):
                assert state.current_player == (lead + k) % 4
                state.apply(state.legal_actions()[0])
    assert state.is_terminal()


def test_k2_first_dealer_option():
    game = small_game(players=5, first_dealer=2)
    state = game.new_initial_state(seed=1)
    assert (state.dealer, state.lead, state.current_player) == (2, 3, 3)
    with pytest.raises(ValueError, match="first_dealer"):
        small_game(players=5, first_dealer=5)


def _losers_low(winners_in_deal_order, losers_in_deal_order, h=7):
    """Hands in deal order: losers get the lowest cards, the others interleaved high ones."""
    hands = {}
    for k, s in enumerate(losers_in_deal_order):
        hands[s] = [cid(1 + k * h + j) for j in range(h)]
    m = len(winners_in_deal_order)
    for k, s in enumerate(winners_in_deal_order):
        hands[s] = [cid(49 - m * h + 1 + k + m * j) for j in range(h)]
    return hands


def test_k2_dealer_and_lead_rotation_with_eliminated_players():
    # 4 players, dealer 3 in round 1; seat 0 (next round's would-be dealer) wins nothing -> out.
    game = small_game(players=4, elimination=True)
    hands = _losers_low([1, 2, 3], [0])
    state = game.new_initial_state(deals=scripted_deals({1: [hands[s] for s in range(4)]}, IDS))
    for w in [1, 2, 3, 1, 2, 3, 1]:                         # seat 0 wins no turn in round 1
        play_turn(state, w)
    assert state.round == 2 and state.out == (0,)
    # dealer would move 3 -> 0, but seat 0 is out: skipped to seat 1; seat 2 leads
    assert state.dealer == 1 and state.lead == 2 and state.current_player == 2
    assert state.hands[0] == () and [len(h) for h in state.hands[1:]] == [6, 6, 6]
    after = {1: 2, 2: 3, 3: 1}
    leads = []
    for _ in range(6):
        lead = state.lead
        leads.append(lead)
        order = []
        for _ in range(3):
            order.append(state.current_player)
            state.apply(state.legal_actions()[0])
        assert order == [lead, after[lead], after[after[lead]]]   # seat 0 skipped in play order
    assert leads == [2, 3, 1, 2, 3, 1]                      # and for leading
    if not state.is_terminal():
        assert state.round == 3
        assert state.dealer == next(s for s in (2, 3, 1) if s in state.active)


def test_k2_dealer_skips_several_eliminated_seats():
    game = small_game(players=5, elimination=True)          # dealer 4 in round 1
    hands = _losers_low([3, 4], [0, 1, 2])
    state = game.new_initial_state(deals=scripted_deals({1: [hands[s] for s in range(5)]}, IDS))
    for w in [3, 4, 3, 4, 3, 4, 3]:                         # seats 0, 1, 2 win nothing
        play_turn(state, w)
    assert state.out == (0, 1, 2) and state.active == (3, 4)
    assert state.dealer == 3 and state.lead == 4            # 4 -> (0, 1, 2 skipped) -> 3


# ---------------------------------------------------------------- K3
def test_k3_highest_value_of_named_item_wins():
    cards = tuple(make_cards(49)[:46]) + (
        # a card that is heavy but slow, and one that is light but fast
        type(CARDS[0])("H1", "Heavy", 900.0, 10.0, 5.0, 10.0),
        type(CARDS[0])("F1", "Fast", 1.0, 10.0, 99.0, 10.0),
        type(CARDS[0])("X1", "Other", 2.0, 2.0, 2.0, 2.0),
    )
    ids = [c.id for c in cards]
    game = KnockoutGame(players=2, cards=cards)
    for item, winner in (("weight_kg", 0), ("top_speed_kmh", 1)):
        deals = scripted_deals({1: [["H1"] + ids[:6], ["F1"] + ids[6:12]]}, ids)
        state = game.new_initial_state(deals=deals)
        state.apply(Play("H1", item))
        state.apply(Play("F1"))
        assert state.scores()[winner] == 1 and sum(state.scores()) == 1


def test_k3_followers_may_play_any_card_and_see_cards_played():
    game = small_game(players=3)
    state = game.new_initial_state(deals=[IDS] * 7)
    lead_legal = state.legal_actions()
    assert len(lead_legal) == 7 * 4 and all(a.item is not None for a in lead_legal)
    state.apply(Play(cid(19), "size_cm"))
    follow = state.legal_actions()
    assert {a.card for a in follow} == set(state.hands[1]) and all(a.item is None for a in follow)
    obs = state.observation(1)
    assert obs.trick == ((0, cid(19)),) and obs.item == "size_cm" and obs.lead == 0
    state.apply(Play(cid(2)))                                # a weaker card is allowed
    assert state.observation(2).trick == ((0, cid(19)), (1, cid(2)))


def _real_ties(real_cards):
    ties = []
    for item in DATA_ITEMS:
        for a, b in combinations(real_cards, 2):
            if a.value(item) == b.value(item):
                ties.append((item, a, b))
    return ties


def test_k3_tie_goes_to_first_card_with_real_tied_data(real_cards):
    ties = _real_ties(real_cards)
    assert {item for item, _, _ in ties} >= {"top_speed_kmh", "lifespan_years", "weight_kg"}
    by_name = {c.name: c for c in real_cards}
    assert by_name["Plains Zebra"].top_speed_kmh == by_name["Grevy's Zebra"].top_speed_kmh == 64
    ids = [c.id for c in real_cards]
    game = KnockoutGame(players=3, cards=real_cards)
    for item, a, b in ties[:: max(1, len(ties) // 40)]:
        low = [c.id for c in sorted(real_cards, key=lambda c: c.value(item)) if c.value(item) < a.value(item)]
        filler = [c for c in ids if c not in (a.id, b.id)]
        for first, second in ((a, b), (b, a)):
            # seat 0 leads with `first`; seat 1 plays a lower card if any; seat 2 plays the tied `second`
            other = low[0] if low else [c for c in filler if c not in low][0]
            rest = [c for c in filler if c != other]
            deals = scripted_deals({1: [[first.id] + rest[:6], [other] + rest[6:12], [second.id] + rest[12:18]]}, ids)
            state = game.new_initial_state(deals=deals)
            state.apply(Play(first.id, item))
            state.apply(Play(other))
            state.apply(Play(second.id))
            winner = state.completed_turns[-1]["winner"]
            if game.by_id[other].value(item) > first.value(item):
                assert winner == 1
            else:
                assert winner == 0, (item, first.name, second.name)


def test_k3_tie_between_followers_goes_to_the_earlier_follower(real_cards):
    by_name = {c.name: c for c in real_cards}
    lion, caracal, meerkat = by_name["Lion"], by_name["Caracal"], by_name["Meerkat"]
    assert lion.top_speed_kmh == caracal.top_speed_kmh > meerkat.top_speed_kmh
    ids = [c.id for c in real_cards]
    rest = [c for c in ids if c not in (lion.id, caracal.id, meerkat.id)]
    game = KnockoutGame(players=3, cards=real_cards)
    deals = scripted_deals({1: [[meerkat.id] + rest[:6], [caracal.id] + rest[6:12], [lion.id] + rest[12:18]]}, ids)
    state = game.new_initial_state(deals=deals)
    state.apply(Play(meerkat.id, "top_speed_kmh"))
    state.apply(Play(caracal.id))
    state.apply(Play(lion.id))
    assert state.scores() == [0, 1, 0]


# ---------------------------------------------------------------- K4
def test_k4_scoring():
    game = small_game(players=4)
    state = game.new_initial_state(seed=3)
    totals = Counter()
    while not state.is_terminal():
        before = state.scores()
        for _ in range(4):
            state.apply(state.legal_actions()[-1])
        after = state.scores()
        diff = [a - b for a, b in zip(after, before)]
        assert sorted(diff) == [0, 0, 0, 1]                # one point per turn
        totals[diff.index(1)] += 1
    assert sum(state.scores()) == 28 == sum(8 - r for r in range(1, 8)) == state.turns_played
    assert state.scores() == [totals[s] for s in range(4)]
    assert state.returns() == [float(s) for s in state.scores()]
    best = max(state.scores())
    assert state.winners() == [s for s in range(4) if state.scores()[s] == best]


def test_k4_ties_share_the_victory():
    game = small_game(players=2)
    # seat 0 gets the higher cards in rounds 1, 2, 7 (7 + 6 + 1 = 14 turns), seat 1 in rounds 3-6 (5+4+3+2)
    rounds = {}
    for r in range(1, 8):
        h = 8 - r
        high, low = [cid(40 + j) for j in range(h)], [cid(1 + j) for j in range(h)]
        by_seat = {0: high, 1: low} if r in (1, 2, 7) else {0: low, 1: high}
        first = 0 if r % 2 else 1                            # dealer alternates 1, 0, 1, ...
        rounds[r] = [by_seat[first], by_seat[1 - first]]
    state = game.new_initial_state(deals=scripted_deals(rounds, IDS))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.scores() == [14, 14]
    assert state.winners() == [0, 1] and state.returns() == [14.0, 14.0]


def test_k4_returns_are_zero_before_the_end():
    state = small_game(players=3).new_initial_state(seed=0)
    assert state.returns() == [0.0, 0.0, 0.0] and state.winners() == [0, 1, 2]


# ---------------------------------------------------------------- K5
def test_k5_players_without_a_win_are_out():
    game = small_game(players=4, elimination=True)
    hands = _losers_low([0, 1, 2], [3])
    state = game.new_initial_state(deals=scripted_deals({1: [hands[s] for s in range(4)]}, IDS))
    for w in [0, 1, 0, 1, 2, 0, 1]:                         # seat 3 wins nothing
        play_turn(state, w)
    assert state.out == (3,) and state.active == (0, 1, 2)
    while not state.is_terminal():
        assert state.current_player != 3
        assert state.hands[3] == ()
        assert 3 not in [s for s, _ in state.trick]
        state.apply(state.legal_actions()[0])
    assert 3 not in [s for t in state.completed_turns if t["round"] > 1 for s, _ in t["plays"]]


def test_k5_without_elimination_nobody_is_out():
    game = small_game(players=4)
    hands = _losers_low([0, 1, 2], [3])
    state = game.new_initial_state(deals=scripted_deals({1: [hands[s] for s in range(4)]}, IDS))
    for w in [0, 1, 0, 1, 2, 0, 1]:
        play_turn(state, w)
    assert state.out == () and state.round == 2 and len(state.hands[3]) == 6


def test_k5_elimination_ends_game_early():
    game = small_game(players=2, elimination=True)
    r1 = [[cid(i) for i in range(1, 8)], [cid(i) for i in range(40, 47)]]
    state = game.new_initial_state(deals=scripted_deals({1: r1}, IDS))
    for _ in range(7):
        play_turn(state, 1)
    assert state.is_terminal() and state.round == 1
    assert state.out == (0,) and state.winners() == [1] and state.scores() == [0, 7]
    assert state.legal_actions() == []


def test_k5_eliminated_player_can_still_win_on_total():
    game = small_game(players=2, elimination=True)
    # hands make the scripted winners possible: seat 0 high cards, seat 1 middling, each with one low card
    r1 = [[cid(i) for i in (1, 40, 41, 42, 43, 44, 45)], [cid(i) for i in range(10, 17)]]
    r2 = [[cid(i) for i in (2, 40, 41, 42, 43, 44)], [cid(i) for i in range(10, 16)]]  # round 2: seat 1 dealt first
    r3 = [[cid(i) for i in range(10, 15)], [cid(i) for i in range(40, 45)]]
    state = game.new_initial_state(deals=scripted_deals({1: r1, 2: r2, 3: r3}, IDS))
    for w in [1] + [0] * 6:                                 # round 1: seat 0 wins 6, seat 1 wins 1
        play_turn(state, w)
    assert state.scores() == [6, 1] and state.lead == 1
    for w in [0] + [1] * 5:                                 # round 2: seat 1 leads first
        play_turn(state, w)
    assert state.scores() == [7, 6] and state.round == 3 and state.out == ()
    for _ in range(5):                                      # round 3: seat 1 wins all; seat 0 is out
        play_turn(state, 1)
    assert state.is_terminal() and state.out == (0,)
    assert state.scores() == [7, 11]
    # now the other way: the player who goes out is the winner
    r2b = [[cid(i) for i in (44, 2, 3, 4, 5, 6)], [cid(i) for i in range(20, 26)]]
    state = game.new_initial_state(deals=scripted_deals({1: r1, 2: r2b, 3: r3}, IDS))
    for w in [1] + [0] * 6:
        play_turn(state, w)
    for w in [1] + [0] * 5:
        play_turn(state, w)
    assert state.scores() == [11, 2]
    for _ in range(5):
        play_turn(state, 1)
    assert state.is_terminal() and state.out == (0,) and state.scores() == [11, 7]
    assert state.winners() == [0]                           # out, but highest total (K5)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_k5_pigeonhole_at_most_8_minus_r_players_survive_round_r(players):
    game = small_game(players=players, elimination=True)
    for seed in range(5):
        state = game.new_initial_state(seed=seed)
        last_round = 1
        while not state.is_terminal():
            if state.round != last_round:                   # round `last_round` just ended
                assert 2 <= len(state.active) <= 8 - last_round
                last_round = state.round
            state.apply(state.legal_actions()[0])
        assert len(state.active) == 1 or state.round == 7
        assert sum(state.scores()) == len(state.completed_turns)
