"""Property tests: random legal play from random seeds (hypothesis)."""
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from safari_kit.witness import WitnessGame, load
from safari_kit.witness import actions as A
from safari_kit.witness.cases import case_points

from .helpers import ALL_IDS, public_ids

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
        cards += state.won
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
              A.UseTam("U1", "U2"), A.ArchiveTop("W02"), A.UseKim("W03"), A.UseAlan(), A.AlanTake("W04")]
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
