"""Property tests: random legal play (seeds and choices from hypothesis), 2-7 players, with and without K5."""
from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from safari_kit.cards.model import DATA_ITEMS
from safari_kit.core.errors import IllegalActionError
from safari_kit.knockout import KnockoutGame, KnockoutState
from safari_kit.knockout.actions import ACTION_TYPES
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


# ---------------------------------------------------------------- legal exactly when in legal_actions()
_BOGUS = ("", "K00", "K99", "k03", "W05", "weight", "Weight_kg")


@functools.lru_cache(maxsize=None)
def optioned_game(players: int, elimination: bool, items: tuple, first_dealer: int) -> KnockoutGame:
    return KnockoutGame(players=players, elimination=elimination, items=items, first_dealer=first_dealer)


def _card_value(state, rnd):
    """A card id: the hand of the seat to play, another hand, any card of the deck, or no card."""
    r = rnd.random()
    seat = state.current_player
    if seat is not None and state.hand(seat) and r < 0.4:
        return rnd.choice(state.hand(seat))
    others = [c for h in state.hands for c in h]
    if others and r < 0.6:
        return rnd.choice(others)
    return rnd.choice(state.game.card_ids) if r < 0.92 else rnd.choice(_BOGUS)


def _item_value(state, rnd):
    """A data item of this game, None (a follower's play), one not in play, or no item."""
    r = rnd.random()
    if r < 0.45:
        return rnd.choice(state.game.items)
    if r < 0.75:
        return None
    return rnd.choice(DATA_ITEMS) if r < 0.92 else rnd.choice(_BOGUS)


_VALUES = {"card": _card_value, "item": _item_value}


def _random_action(state, cls, rnd):
    return cls(**{f.name: _VALUES[f.name](state, rnd) for f in dataclasses.fields(cls)})


def _candidates(state, rnd, count):
    legal = state.legal_actions()
    out = []
    for _ in range(count):
        r = rnd.random()
        if legal and r < 0.3:
            out.append(rnd.choice(legal))
        elif legal and r < 0.6:  # a legal action with one field replaced
            a = rnd.choice(legal)
            f = rnd.choice(dataclasses.fields(a)).name
            out.append(dataclasses.replace(a, **{f: _VALUES[f](state, rnd)}))
        else:
            out.append(_random_action(state, rnd.choice(list(ACTION_TYPES.values())), rnd))
    return out


def _exact(state):
    """Every slot of the state (lists copied; what they hold is immutable) and the full view:
    ``helpers.snapshot`` without its deep copies, which are too slow to take at every step."""
    slots = {name: (list(v) if isinstance(v, list) else v)
             for name in KnockoutState.__slots__ for v in [getattr(state, name)]}
    return slots, state.full_view()


def _where(state, options, steps):
    """The position to reproduce a failure: the game, its seed and the first ``steps`` actions."""
    players, elimination, items, dealer = options
    return (f"KnockoutGame(players={players}, elimination={elimination}, items={items!r}, first_dealer={dealer})"
            f".new_initial_state(seed={state.seed}) after actions {list(state.history[:steps])!r}")


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 7), elimination=st.booleans(),
       items=st.lists(st.sampled_from(DATA_ITEMS), min_size=1, unique=True), dealer=st.integers(0, 6),
       seed=seeds, steps=st.integers(0, 200), walk=st.integers(0, 2**32), probe=st.integers(0, 2**32))
def test_legal_iff_in_legal_actions(players, elimination, items, dealer, seed, steps, walk, probe):
    """An action is legal exactly when legal_actions() lists it; apply accepts exactly those, and an
    illegal one raises IllegalActionError (a ValueError) and leaves the state as it was."""
    options = (players, elimination, tuple(i for i in DATA_ITEMS if i in items), dealer % players)
    state = optioned_game(*options).new_initial_state(seed=seed)
    walk_rnd, probe_rnd = random.Random(walk), random.Random(probe)
    for k in range(steps + 1):
        last = k == steps or state.is_terminal()
        for action in _candidates(state, probe_rnd, 25 if last else 1):
            legal, steps_so_far = state.legal_actions(), len(state.history)
            expected = action in legal
            assert state.is_legal(action) == expected, f"is_legal({action!r}) at {_where(state, options, steps_so_far)}"
            if expected:
                state.clone().apply(action)
                continue
            before = _exact(state)
            try:
                state.apply(action)
            except IllegalActionError as err:
                assert isinstance(err, ValueError)
            else:
                raise AssertionError(f"apply({action!r}) succeeded although not legal at "
                                     f"{_where(state, options, steps_so_far)}")
            assert _exact(state) == before and state.legal_actions() == legal, \
                f"apply({action!r}) changed the state at {_where(state, options, steps_so_far)}"
        if last:
            break
        state.apply(walk_rnd.choice(state.legal_actions()))
