"""Reveal another, fast (safari_kit/probability/two_clues.py) = one best_two_clue_plan per second clue.

The fast search must give, for every possible second clue X, the same pair of
declarations (places and types, ties broken the same way) and the same fraction
as :func:`best_two_clue_plan`, the slow reference; and ``reveal_another_value``
the same fraction as ``reveal_another_value_reference``. Positions come from
random legal play (hypothesis draws the seed, the length of play, the memory,
the deck and the rules), from made-up positions (any clue, pool and remembered
cards on small decks, where ties are many) and from games of the bots the
Simulation lab plays.
"""
import dataclasses
from functools import lru_cache

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from safari_kit.cards.model import ANIMALS, COLORS, TEXTURES, Mugshot
from safari_kit.probability import two_clues as T
from safari_kit.probability import witness as W
from safari_kit.probability.knowledge import Knowledge, KnowledgeTracker, Memory
from safari_kit.simulation.play import play_game
from safari_kit.simulation.witness_bots import GreedyWitnessBot, MemoryWitnessBot
from safari_kit.witness.game import WitnessGame

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAME_POOL = ("TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX", "T?M", "??M", "AL??")


@lru_cache(maxsize=None)
def _game(players: int, advanced: bool, small: int):
    """The full deck, or (``small`` > 0) a small random deck of that many cards (small pools, many ties)."""
    if not small:
        return WitnessGame(players=players, advanced=advanced)
    rng = np.random.default_rng(small)
    cards = [Mugshot(f"S{k:02d}", ANIMALS[rng.integers(3)], TEXTURES[rng.integers(3)], COLORS[rng.integers(3)],
                     NAME_POOL[rng.integers(len(NAME_POOL))]) for k in range(small)]
    return WitnessGame(players=players, cards=cards, advanced=advanced)


def _position(game, seed: int, choose_phases: int, memory: Memory):
    """The knowledge of the player to move at the ``choose_phases``-th choice of a random game (or the last)."""
    state = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    trackers = [KnowledgeTracker(game, p) for p in range(game.players)]
    kn, seen = None, 0
    while not state.is_terminal():
        if state.phase == "choose":
            kn = trackers[state.current].knowledge(state.observation(state.current), memory)
            seen += 1
            if seen > choose_phases:
                break
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return kn


def _same(kn, places=None, type_choices=None) -> int:
    """Assert the fast plans equal the reference's for every second clue; returns how many were compared."""
    fast = W.two_clue_plans(kn, places, type_choices)
    slow = W.two_clue_plans_reference(kn, places, type_choices)
    assert fast.keys() == slow.keys() == set(kn.pool)
    for x, plan in slow.items():
        got = fast[x]
        if plan is None:
            assert got is None, x
        else:
            assert got is not None and (got[0], got[1], got[2].value) == (plan[0], plan[1], plan[2].value), (
                kn.describe(), x, got, plan)
    return len(slow)


memories = st.sampled_from([Memory(), Memory(remember_prob=0.5, seed=3), Memory(last_k=2), Memory(last_k=0)])


@SETTINGS
@given(seed=st.integers(0, 10_000), choose_phases=st.integers(0, 40), players=st.integers(2, 4),
       advanced=st.booleans(), small=st.sampled_from([0, 0, 10, 12, 14]), memory=memories)
def test_fast_plans_equal_the_reference(seed, choose_phases, players, advanced, small, memory):
    kn = _position(_game(players, advanced, small), seed, choose_phases, memory)
    if kn is None or not kn.clue:
        return
    _same(kn)
    assert W.reveal_another_value(kn).value == W.reveal_another_value_reference(kn).value


@SETTINGS
@given(seed=st.integers(0, 10_000), choose_phases=st.integers(2, 30), data=st.data())
def test_fast_plans_equal_the_reference_for_any_places_and_types(seed, choose_phases, data):
    """Places in any order (the scan order breaks ties), any subset of them, fewer type choices (more ties)."""
    kn = _position(_game(3, True, 0), seed, choose_phases, Memory())
    if kn is None or not kn.clue or len(kn.available) < 2:
        return
    places = data.draw(st.permutations(kn.available))
    places = places[:data.draw(st.integers(1, len(places)))]
    choices = data.draw(st.lists(st.sampled_from(W.ALEX_TYPES), min_size=1, max_size=4, unique=True))
    _same(kn, tuple(places), choices)


@st.composite
def made_up_positions(draw):
    """Any clue card, any remembered cards on the places (in any table order), any pool."""
    small = draw(st.sampled_from([8, 9, 10, 14, 0]))
    game = _game(2, True, small)
    state = game.new_initial_state(seed=0)
    base = Knowledge.from_observation(state.observation(0), game=game)
    n = len(game.cards)
    c1 = draw(st.integers(0, n - 1))
    others = draw(st.permutations([i for i in range(n) if i != c1]))
    kinds = draw(st.lists(st.booleans(), min_size=2, max_size=min(9, n - 2)))  # True: a remembered card
    known = {p: others[k] for k, p in enumerate(p for p, kind in enumerate(kinds) if kind)}
    rest = others[len(known):]
    unknown = [p for p, kind in enumerate(kinds) if not kind]
    size = draw(st.integers(min(len(rest), len(unknown) + 1), len(rest)))
    pool = frozenset(rest[:size])
    places = tuple(draw(st.permutations(range(len(kinds)))))
    kn = dataclasses.replace(
        base, known=known, mixed={}, groups={}, unknown_places=tuple(unknown), face_up={}, available=places,
        face_down=tuple(range(len(kinds))), pool=pool, pool_mask=sum(1 << i for i in pool),
        deck_count=len(pool) - len(unknown), clue=(c1,), unresolved=(c1,), alex=draw(st.booleans()))
    return kn


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kn=made_up_positions(), data=st.data())
def test_fast_plans_equal_the_reference_on_made_up_positions(kn, data):
    _same(kn)
    choices = data.draw(st.lists(st.sampled_from(W.ALEX_TYPES), min_size=1, max_size=4, unique=True))
    _same(kn, None, choices)
    if kn.deck_count > 0:
        assert W.reveal_another_value(kn).value == W.reveal_another_value_reference(kn).value


def test_fast_plans_equal_the_reference_in_bot_games():
    """The positions the Simulation lab's bots meet (greedy and memory bots, 3 and 4 players)."""
    compared = positions = 0
    for players, advanced in ((3, False), (4, True)):
        game = WitnessGame(players=players, advanced=advanced)
        seen: list = []

        class Spy(GreedyWitnessBot):
            def _choose(self, kn, obs, legal):
                seen.append(kn)
                return super()._choose(kn, obs, legal)

        bots = [Spy(), MemoryWitnessBot(remember_prob=0.5), MemoryWitnessBot(last_k=3), Spy()][:players]
        play_game(game, bots, seed=players)
        for kn in seen:
            compared += _same(kn)
            positions += 1
    assert positions >= 10 and compared >= 500


def test_positions_with_a_sam_mixture_use_the_reference():
    """A SAM mixture among the places: the plans are the reference's (not searched fast)."""
    for seed in range(400):
        kn = _position(_game(2, True, 12), seed, 30, Memory())
        if kn is not None and kn.clue and any(p in kn.mixed for p in kn.available):
            assert not T.fast_ok(kn, kn.available)
            _same(kn)
            without = tuple(p for p in kn.available if p not in kn.mixed)
            if len(without) >= 2 and len(kn.pool) >= 3:  # the other places alone: searched fast
                assert T.fast_ok(kn, without)
                _same(kn, without)
            return
    raise AssertionError("no position with a SAM mixture found")
