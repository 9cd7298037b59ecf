"""Exact.count: the unreduced count over equally likely cards (issue 12, part 3: count first).

The count is extra information for display; it never changes equality or the hash.
"""
from fractions import Fraction
from math import comb

import pytest

from safari_kit.presentation.numbers import count_first
from safari_kit.probability import witness as W
from safari_kit.probability.distributions import Exact
from safari_kit.knockout import KnockoutGame
from safari_kit.probability.knockout import ties_per_item
from safari_kit.probability.knowledge import Knowledge
from safari_kit.witness import WitnessGame


def test_count_is_not_part_of_equality_or_hash():
    a = Exact(Fraction(7, 37), "x", count=(14, 74))
    b = Exact(Fraction(7, 37), "y")
    assert a == b and hash(a) == hash(b) and a == Fraction(7, 37)
    assert {a, b} == {a} and a.count == (14, 74) and b.count is None
    assert repr(a) == repr(b) == "7/37 ≈ 0.1892"  # the reduced text is unchanged


def test_a_count_must_give_the_value():
    with pytest.raises(ValueError):
        Exact(Fraction(7, 37), count=(14, 75))
    with pytest.raises(ValueError):
        Exact(Fraction(0), count=(0, 0))
    assert Exact(Fraction(0), count=(0, 74)).count == (0, 74)


def test_baseline_and_fresh_table_counts():
    game = WitnessGame(players=2)
    tam = "W03"  # the first clear TAM, an Elephant
    assert W.p_match_baseline(tam, "animal", game).count == (14, 74)
    assert W.p_match_baseline(tam, "name", game).count == (12, 74)
    assert count_first(W.p_match_baseline(tam, "animal", game)) == "14/74 (= 7/37) ≈ 0.189"
    state = game.new_initial_state(seed=3)
    kn = Knowledge.from_observation(state.observation(state.current_player), game=game)
    clue, place = kn.clue[0], kn.available[0]
    p = W.p_match(kn, clue, place, "animal")
    m = W.tables(game).match[("animal",)][clue] & kn.pool_mask
    assert p.count == (m.bit_count(), len(kn.pool)) and p.count[1] == 74
    S = W.safe_count(clue, game)
    assert W.p_safe_next(kn).count == (S, 74)
    assert W.p_streak(kn, 4).count == (comb(S, 4), comb(74, 4))
    assert W.p_streak(kn, 4).value == Fraction(comb(S, 4), comb(74, 4))


def test_remembered_places_have_no_count():
    game = WitnessGame(players=2)
    state = game.new_initial_state(seed=3)
    obs = state.observation(state.current_player)
    kn = Knowledge.from_observation(obs, game=game)
    for place in kn.available:
        p = W.p_match(kn, kn.clue[0], place, "color")
        if place in kn.known:
            assert p.count is None and p.value in (0, 1)


def test_tie_counts_are_pairs():
    for t in ties_per_item(KnockoutGame(players=2)).values():
        pairs = sum(comb(len(g), 2) for g in t.groups)
        assert t.p_tie.count == (pairs, comb(57, 2))
