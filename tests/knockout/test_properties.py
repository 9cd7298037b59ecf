"""Property tests: random legal play (seeds and choices from hypothesis), 2-7 players, with and without K5."""
from __future__ import annotations

import functools
import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from safari_kit.knockout import KnockoutGame
from tests.knockout.helpers import random_play


@functools.lru_cache(maxsize=None)
def game(players: int, elimination: bool) -> KnockoutGame:
    return KnockoutGame(players=players, elimination=elimination)   # the shipped (real) deck


games = st.tuples(st.integers(2, 7), st.booleans())
seeds = st.integers(0, 2**32)
choices = st.lists(st.integers(0, 10_000), max_size=60)


def conservation(state):
    """Within the round: hands + cards on the table + cards won = cards dealt, per seat and in all."""
    if state.is_terminal():
        return
    dealt = state.dealt
    played = Counter()
    for seat, card in state.trick:
        played[seat, card] += 1
    round_turns = [t for t in state.completed_turns if t["round"] == state.round]
    for t in round_turns:
        for seat, card in t["plays"]:
            played[seat, card] += 1
    for seat in range(state.players):
        now = Counter(state.hands[seat]) + Counter(c for (s, c) in played if s == seat)
        assert now == Counter(dealt[seat]), seat
    won = [c for w in state.won_this_round() for c in w]
    table = [c for _, c in state.trick]
    everything = [c for h in state.hands for c in h] + table + won
    assert sorted(everything) == sorted(c for h in dealt for c in h)
    assert len(set(everything)) == len(everything)


def no_peeking(state):
    for p in range(state.players):
        d = state.observation(p).to_dict()
        assert d["hand"] == list(state.hands[p])
        assert d["hand_sizes"] == [len(h) for h in state.hands]
        # earlier rounds were dealt from their own full deck, so their (public) turns may name
        # the same card ids as this round's hands: only this round's information is checked
        d["turns"] = [t for t in d["turns"] if t["round"] == d["round"]]
        text = json.dumps(d)
        for q in range(state.players):
            if q != p:
                for card in state.hands[q]:
                    assert f'"{card}"' not in text, (p, q, card)


@settings(max_examples=40, deadline=None)
@given(games, seeds, choices)
def test_random_play_ends_and_conserves_cards(g, seed, picks):
    state = game(*g).new_initial_state(seed=seed)
    steps = random_play(state, picks, check=conservation)
    assert state.is_terminal() and state.legal_actions() == []
    assert steps == len(state.history) == sum(len(t["plays"]) for t in state.completed_turns)
    assert sum(state.scores()) == len(state.completed_turns)
    assert state.winners() and max(state.scores()) == state.scores()[state.winners()[0]]
    if not g[1]:
        assert state.round == 7 and len(state.completed_turns) == 28


@settings(max_examples=25, deadline=None)
@given(games, seeds, choices)
def test_observation_never_shows_another_hand(g, seed, picks):
    state = game(*g).new_initial_state(seed=seed)
    no_peeking(state)
    k = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[(picks[k % len(picks)] if picks else 0) % len(legal)])
        k += 1
        if k % 3 == 0:
            no_peeking(state)


@settings(max_examples=30, deadline=None)
@given(games, seeds, choices, st.integers(0, 200))
def test_replay_from_json_record_is_identical(g, seed, picks, stop):
    state = game(*g).new_initial_state(seed=seed)
    k = 0
    while not state.is_terminal() and k < stop:
        legal = state.legal_actions()
        state.apply(legal[(picks[k % len(picks)] if picks else 0) % len(legal)])
        k += 1
    text = json.dumps(state.to_record())
    back = KnockoutGame.replay(text)
    assert back == state
    assert back.full_view() == state.full_view()
    assert [back.observation(p).to_dict() for p in range(state.players)] == \
           [state.observation(p).to_dict() for p in range(state.players)]


@settings(max_examples=20, deadline=None)
@given(games, seeds, choices)
def test_same_seed_same_actions_same_game(g, seed, picks):
    a = game(*g).new_initial_state(seed=seed)
    b = game(*g).new_initial_state(seed=seed)
    c = a.clone()
    assert a == b == c
    random_play(a, picks)
    random_play(b, picks)
    random_play(c, picks)
    assert a == b == c and a.to_record() == b.to_record()
