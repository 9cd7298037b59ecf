"""Property tests: random legal play from random seeds (hypothesis)."""
import dataclasses
import random
import typing
from collections import Counter
from types import UnionType

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from safari_kit.cards.model import ANIMALS, CLUE_TYPES, COLORS, TEXTURES
from safari_kit.cards.names import NAMES
from safari_kit.core.errors import IllegalActionError
from safari_kit.witness import WitnessGame, load
from safari_kit.witness import actions as A
from safari_kit.witness.cases import case_points

from .helpers import declare_succeeds, public_ids

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 2000


def check_invariants(state, seen):
    game = state.game
    # every card in exactly one place
    where = Counter(_locations(state))
    assert sorted(where) == list(range(len(game.cards))) and set(where.values()) == {1}, where
    # scores = archive sizes + case points
    cards = game.cards
    expected = [len(a) + (case_points(state.case_cards[p], [cards[i] for i in a])[0] if state.case_cards else 0)
                for p, a in enumerate(state.archives)]
    assert state.scores() == expected
    assert len(state.places) >= 4 or state.phase in ("archive", "over")  # W6 (refill happens on archiving)
    # observations: nothing from the deck, nothing never legitimately seen
    deck_ids = {cards[i].id for i in state.deck}
    for p in range(state.players):
        ids = state.observation(p).card_ids() & ALL_IDS_OF(game)
        assert not ids & deck_ids
        assert ids <= seen[p], (p, ids - seen[p])


def ALL_IDS_OF(game):
    return {c.id for c in game.cards}


def _locations(state):
    cards = list(state.deck) + [state.card_at[p] for p in state.places] + list(state.clue)
    for archive in state.archives:
        cards += archive
    if state.phase == "archive":
        cards += state.won + state.stacking
    return cards


def play(state, rnd, check_every=1):
    """Play random legal actions to the end, tracking what each player legitimately saw."""
    seen = [set() for _ in range(state.players)]

    def see_public(view):
        ids = public_ids(view)
        for s in seen:
            s |= ids

    see_public(state.full_view())
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal
        action = rnd.choice(legal)
        before = state.full_view()
        see_public(before)
        where = {p: cid for p, cid, _ in before["unidentified"]}
        player = state.current
        if isinstance(action, (A.Declare, A.RevealNext, A.UseKris)):
            for s in seen:
                s.add(where[action.place])
        if isinstance(action, A.UseTom):
            seen[player].add(where[action.place])
        state.apply(action)
        see_public(state.full_view())
        steps += 1
        assert steps < MAX_STEPS, "game does not end"
        if steps % check_every == 0 or state.is_terminal():
            check_invariants(state, seen)
    return seen


@SETTINGS
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False), players=st.integers(2, 7),
       case_module=st.booleans(), advanced=st.booleans())
def test_random_games_end_keep_every_card_once_and_never_leak(seed, rnd, players, case_module, advanced):
    game = WitnessGame(players=players, case_module=case_module, advanced=advanced)
    state = game.new_initial_state(seed=seed)
    play(state, rnd, check_every=3)
    assert state.phase == "over" and state.end_reason in ("archive", "deck")
    assert state.legal_actions() == [] and state.current_player is None
    if state.end_reason == "archive":
        assert max(state.archive_sizes()) >= 10
    else:
        assert not state.deck
    winners = state.winners()
    best = max(state.scores())
    assert winners and all(state.scores()[w] == best for w in winners)
    # save -> load replays to the same state; same seed + same actions -> same game
    again = load(state.save())
    assert again == state
    twin = game.new_initial_state(seed=seed)
    for action in state.history:
        twin.apply(action)
    assert twin == state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False), players=st.integers(2, 4))
def test_illegal_actions_never_change_the_state(seed, rnd, players):
    state = WitnessGame(players=players, advanced=True).new_initial_state(seed=seed)
    probes = [A.Identify(), A.RevealAnother(), A.Challenge(), A.StopChallenge(), A.EndTurn(), A.AlanDone(),
              A.Declare("W01", ("animal",), 1), A.RevealNext(1), A.UseTom(1), A.UseKris("Owl", 2),
              A.UseTam("U1", "U2"), A.ArchiveCard("W02"), A.UseKim("W03"), A.UseAlan(), A.AlanTake("W04")]
    from safari_kit.core.errors import IllegalActionError
    steps = 0
    while not state.is_terminal() and steps < 100:
        legal = set(state.legal_actions())
        for probe in probes:
            if probe not in legal:
                before = state.full_view()
                try:
                    state.apply(probe)
                except IllegalActionError as err:
                    assert type(probe).__name__ in str(err) and err.reason
                else:
                    raise AssertionError(f"{probe} applied although not legal")
                assert state.full_view() == before
        state.apply(rnd.choice(sorted(legal, key=repr)))
        steps += 1


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_clone_is_independent(seed, rnd):
    state = WitnessGame(players=3, advanced=True, case_module=True).new_initial_state(seed=seed)
    for _ in range(20):
        if state.is_terminal():
            break
        state.apply(rnd.choice(state.legal_actions()))
    copy = state.clone()
    snapshot = state.full_view()
    while not copy.is_terminal():
        copy.apply(copy.legal_actions()[0])
    assert state.full_view() == snapshot


# ---------------------------------------------------------------- legal exactly when in legal_actions()
# Candidate actions are built from ``ACTION_TYPES`` by reading each dataclass's fields, so an action
# class added to the engine is probed too. Field values come from the position: card ids of the deck
# (and a few ids of no card), place ids near the table's, spots near the table's and archives', clue
# types (one, two, repeated, unknown), KRIS elements. Each position also gets legal actions and
# "mutants": a legal action with one field replaced.
_ELEMENTS = ANIMALS + TEXTURES + COLORS + NAMES
_BOGUS_TEXT = ("", "W00", "W76", "w05", "K03", "Owl ", "size", "U", "A0", "U1.0", "A.1")


def _places(state, rnd):
    """A place id near the table's: an existing one, a gap, one past the end, or below 1."""
    known = list(state.places)
    if known and rnd.random() < 0.6:
        return rnd.choice(known)
    return rnd.randint(-1, state.next_place + 2)


def _card_ids(state, rnd):
    cards = state.game.cards
    r = rnd.random()
    near = list(state.clue) + list(state.won) + [state.card_at[p] for p in state.places]
    near += [c for a in state.archives for c in a]
    if near and r < 0.55:
        return cards[rnd.choice(near)].id
    if r < 0.93:
        return rnd.choice(cards).id
    return rnd.choice(_BOGUS_TEXT)


def _spots(state, rnd):
    r = rnd.random()
    if r < 0.45:
        return f"U{_places(state, rnd)}"
    if r < 0.9:
        player = rnd.randint(-1, state.players)
        size = len(state.archives[player]) if 0 <= player < state.players else 1
        return f"A{player}.{rnd.randint(-1, size + 1)}"
    return rnd.choice(_BOGUS_TEXT)


def _clue_types(state, rnd):
    pool = CLUE_TYPES + ("size",) if rnd.random() < 0.1 else CLUE_TYPES
    return tuple(rnd.choice(pool) for _ in range(rnd.choice((1, 1, 2, 2, 2, 0, 3))))


def _elements(state, rnd):
    return rnd.choice(_ELEMENTS) if rnd.random() < 0.9 else rnd.choice(_BOGUS_TEXT + CLUE_TYPES)


def _field_value(state, cls, name, hint, rnd):
    """A random value of the field's declared type, drawn from what the position makes plausible."""
    if typing.get_origin(hint) in (typing.Union, UnionType):  # X | None
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) < len(typing.get_args(hint)) and rnd.random() < 0.2:
            return None
        hint = args[0]
    if hint is bool:
        return rnd.random() < 0.5
    if hint is int:
        return _places(state, rnd)
    if typing.get_origin(hint) is tuple:
        return _clue_types(state, rnd)
    if hint is str:
        if name in ("card", "clue", "top"):
            return _card_ids(state, rnd)
        if name == "element":
            return _elements(state, rnd)
        if name in ("first", "second"):
            return _spots(state, rnd)
        return rnd.choice((_card_ids, _spots, _elements))(state, rnd)
    raise NotImplementedError(f"{cls.__name__}.{name}: no candidate values for type {hint!r}; extend the test")


def _random_action(state, cls, rnd):
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: _field_value(state, cls, f.name, hints[f.name], rnd) for f in dataclasses.fields(cls)})


def _mutant(state, action, rnd):
    """A legal action with one field replaced by a random well-typed value."""
    fields = dataclasses.fields(action)
    if not fields:
        return action
    f = rnd.choice(fields)
    value = _field_value(state, type(action), f.name, typing.get_type_hints(type(action))[f.name], rnd)
    return dataclasses.replace(action, **{f.name: value})


def _candidates(state, rnd, count):
    legal = state.legal_actions()
    out = []
    for _ in range(count):
        r = rnd.random()
        if legal and r < 0.3:
            out.append(rnd.choice(legal))
        elif legal and r < 0.55:
            out.append(_mutant(state, rnd.choice(legal), rnd))
        else:
            out.append(_random_action(state, rnd.choice(list(A.ACTION_TYPES.values())), rnd))
    return out


def _walk_step(state, rnd):
    """Random play that reaches every phase: often a uniform action class first, often a
    successful identification (by name when possible: abilities, ALAN), often a safe reveal
    in a Challenge and Stop once allowed."""
    legal = state.legal_actions()
    if state.phase == "identify" and rnd.random() < 0.7:
        good = [a for a in legal if declare_succeeds(state, a)]
        by_name = [a for a in good if "name" in a.types]
        legal = by_name if by_name and rnd.random() < 0.7 else good or legal
    elif state.phase == "challenge" and rnd.random() < 0.7:
        unsafe = state.game.unsafe[state.challenged]
        safe = [a for a in legal if isinstance(a, A.RevealNext) and state.card_at[a.place] not in unsafe]
        legal = [a for a in legal if isinstance(a, A.StopChallenge)] or safe or legal
    elif rnd.random() < 0.5:
        kind = rnd.choice(sorted({type(a).__name__ for a in legal}))
        legal = [a for a in legal if type(a).__name__ == kind]
    state.apply(rnd.choice(legal))


def _where(state, steps, phase):
    """The position to reproduce a failure: the game, its seed and the first ``steps`` actions."""
    o = state.game.options
    return (f"WitnessGame(players={o.players}, case_module={o.case_module}, advanced={o.advanced})"
            f".new_initial_state(seed={state.seed}) after actions {list(state.history[:steps])!r} (phase {phase})")


def check_legal_iff_in_legal_actions(state, action):
    legal = state.legal_actions()
    expected = action in legal
    steps, phase = len(state.history), state.phase
    assert state.is_legal(action) == expected, f"is_legal({action!r}) != {expected} at {_where(state, steps, phase)}"
    if expected:
        copy = state.clone()
        copy.apply(action)  # must not raise
        return
    before = state.full_view()
    try:
        state.apply(action)
    except IllegalActionError as err:
        assert isinstance(err, ValueError)
    else:
        raise AssertionError(f"apply({action!r}) succeeded although not legal at {_where(state, steps, phase)}")
    assert state.full_view() == before and state.legal_actions() == legal, \
        f"apply({action!r}) changed the state at {_where(state, steps, phase)}"


_ON_THE_WAY = {"abilities": 6, "alan": 6, "archive": 2, "challenge": 2, "identify": 1}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), players=st.integers(2, 7), case_module=st.booleans(), advanced=st.booleans(),
       steps=st.integers(0, 250), walk=st.integers(0, 2**32), probe=st.integers(0, 2**32))
def test_legal_iff_in_legal_actions(seed, players, case_module, advanced, steps, walk, probe):
    """An action is legal exactly when legal_actions() lists it; apply accepts exactly those, and an
    illegal one raises IllegalActionError (a ValueError) and leaves the state as it was."""
    state = WitnessGame(players=players, case_module=case_module, advanced=advanced).new_initial_state(seed=seed)
    walk_rnd, probe_rnd = random.Random(walk), random.Random(probe)
    for _ in range(steps):
        if state.is_terminal():
            break
        # on the way: a few candidates in the phases random play visits least, fewer elsewhere
        for action in _candidates(state, probe_rnd, _ON_THE_WAY.get(state.phase, 0) + (probe_rnd.random() < 0.1)):
            check_legal_iff_in_legal_actions(state, action)
        _walk_step(state, walk_rnd)
    for action in _candidates(state, probe_rnd, 5 if state.is_terminal() else 30):
        check_legal_iff_in_legal_actions(state, action)
