"""W3 (a turn's three options) and W4 (identification, archive order, failure)."""
from itertools import permutations

import pytest

from safari_kit.witness import actions as A

from .helpers import (archive_top, failed_then_next, BY_ID, archive_ids, assert_illegal, custom_deck, fail_turn,
                      start, view_places)

# An Owl clue, Owl targets, and non-Owl fillers that share no texture/color with the clue
CLUE1 = "W16"   # TOM Owl Brick Yellow
CLUE2 = "W20"   # ALEX Owl Wood Pink
T1 = "W23"      # TOM Owl Circular Tile Pink
T2 = "W27"      # KIM Owl Diamond Tile Violet
MISS = "W70"    # KRIS Pig Diamond Tile Orange: no animal/texture/name shared with CLUE1 or CLUE2
F1, F2 = "W64", "W66"  # Pig Wood Teal ALAN, Pig Wood Orange SAM


def test_helpers_cards_are_what_the_tests_assume():
    assert BY_ID[CLUE1].animal == BY_ID[CLUE2].animal == BY_ID[T1].animal == BY_ID[T2].animal == "Owl"
    assert BY_ID[MISS].animal == "Pig" and BY_ID[F1].animal == "Pig"


# ---------------------------------------------------------------- W3
def test_w3_three_options_after_the_first_reveal():
    state = start([T1, T2, F1, F2], [CLUE1])
    assert state.phase == "choose" and state.current_player == 0
    assert state.full_view()["clue"] == [CLUE1]
    assert state.legal_actions() == [A.Identify(), A.RevealAnother(), A.Challenge()]


def test_w3_reveal_another_puts_a_second_clue_and_forbids_challenge():
    state = start([T1, T2, F1, F2], [CLUE1, CLUE2])
    state.apply(A.RevealAnother())
    assert state.phase == "identify"
    assert state.full_view()["clue"] == [CLUE1, CLUE2]
    assert {a.clue for a in state.legal_actions()} == {CLUE1, CLUE2}
    assert_illegal(state, A.Challenge(), "Challenge")


def test_w3_identify_and_challenge_use_the_single_clue():
    state = start([T1, T2, F1, F2], [CLUE1])
    state.apply(A.Challenge())
    assert state.phase == "challenge" and state.full_view()["challenged"] == CLUE1


def test_w3_reveal_another_not_legal_with_an_empty_deck():
    # 8 cards that share nothing: 4 places, then each failed turn uses one clue
    state = start([], players=2, cards=custom_deck(8))
    for _ in range(3):
        fail_turn(state)
    assert state.phase == "choose" and state.full_view()["deck"] == []
    assert state.legal_actions() == [A.Identify(), A.Challenge()]
    assert_illegal(state, A.RevealAnother(), "deck is empty")


# ---------------------------------------------------------------- W4
def test_w4_success_with_one_clue_archives_clue_and_identified_and_refills():
    state = start([T1, F1, F2, MISS], [CLUE1])
    state.apply(A.Identify())
    state.apply(A.Declare(CLUE1, ("animal",), 1))
    assert state.phase == "archive" and state.current == 0
    assert set(state.full_view()["won"]) == {CLUE1, T1}
    archive_top(state, T1)
    assert archive_ids(state, 0) == [CLUE1, T1]
    places = view_places(state)
    assert 1 not in places and len(places) == 4 and 5 in places  # W6: refilled with a new place id
    assert state.phase == "choose" and state.current == 1


def test_w4_two_clues_both_succeed_archive_four_in_chosen_order():
    state = start([T1, T2, F1, F2], [CLUE1, CLUE2])
    state.apply(A.RevealAnother())
    state.apply(A.Declare(CLUE2, ("animal",), 2))  # any order of clues (W4)
    assert state.phase == "identify"
    state.apply(A.Declare(CLUE1, ("animal",), 1))
    assert state.phase == "archive"
    assert {a.card for a in state.legal_actions()} == {CLUE1, CLUE2, T1, T2}
    archive_top(state, CLUE1)
    arch = archive_ids(state, 0)
    assert sorted(arch) == sorted([CLUE1, CLUE2, T1, T2]) and arch[-1] == CLUE1
    assert len(view_places(state)) == 4


@pytest.mark.parametrize("order", list(permutations(range(4))))
def test_w4_player_picks_the_full_archive_order_last_on_top(order):
    """W4: every one of the 24 orders of four won cards can be chosen, card by card."""
    state = start([T1, T2, F1, F2], [CLUE1, CLUE2])
    state.apply(A.RevealAnother())
    state.apply(A.Declare(CLUE1, ("animal",), 1))
    state.apply(A.Declare(CLUE2, ("animal",), 2))
    won = [CLUE1, T1, CLUE2, T2]
    wanted = [won[k] for k in order]
    for k, card in enumerate(wanted[:-1]):
        assert state.phase == "archive" and archive_ids(state, 0) == []  # nothing archived until all are placed
        assert {a.card for a in state.legal_actions()} == set(wanted[k:])
        assert state.observation(1).archive_order == tuple(wanted[:k])
        state.apply(A.ArchiveCard(card))
    assert archive_ids(state, 0) == wanted  # the last card went on by itself, on top
    assert state.phase == "choose" and state.current == 1


@pytest.mark.parametrize("top", [CLUE1, T1])
def test_w4_archive_top_puts_the_chosen_card_on_top(top):
    state = start([T1, F1, F2, MISS], [CLUE1], advanced=True)
    state.apply(A.Identify())
    state.apply(A.Declare(CLUE1, ("animal",), 1))
    archive_top(state, top)
    assert archive_ids(state, 0)[-1] == top
    assert state.archives[0][-1] == state.game.index[top]


def test_w4_failure_after_a_success_archives_nothing_and_returns_everything_face_up():
    state = start([T1, MISS, F1, F2], [CLUE1, CLUE2])
    state.apply(A.RevealAnother())
    state.apply(A.Declare(CLUE1, ("animal",), 1))   # success
    state.apply(A.Declare(CLUE2, ("texture",), 2))  # Wood vs Diamond Tile: failure
    assert state.full_view()["archives"] == [[], [], []]
    # W4: everything revealed lies face up for every player until the next turn begins
    shown = failed_then_next(state, 1)
    assert shown == {1: T1, 2: MISS, 5: CLUE1, 6: CLUE2}
    view = state.full_view()
    places = view_places(state)
    # identified cards stayed at their places, clue cards took new places, in clue order
    assert places[1][0] == T1 and places[2][0] == MISS
    assert places[5][0] == CLUE1 and places[6][0] == CLUE2
    assert len(places) == 6
    fail = [e for e in view["log"] if e["kind"] == "fail"][-1]
    assert fail["to_places"] == [{"card": CLUE1, "place": 5}, {"card": CLUE2, "place": 6}]
    # every player saw them face up (public log), then they were turned face down at the next turn's start
    face_down = [e for e in view["log"] if e["kind"] == "face_down"][-1]
    assert face_down["places"] == [1, 2, 5, 6]
    assert all(not up for _, up in places.values())
    for p in range(3):
        obs = state.observation(p)
        assert {T1, MISS, CLUE1, CLUE2} <= obs.card_ids()
        assert all(cid is None for _, cid in obs.unidentified)
    # the next player may use those places again
    state.apply(A.Identify())
    assert {a.place for a in state.legal_actions()} == {1, 2, 3, 4, 5, 6}


def test_w4_failure_on_the_first_clue_ends_at_once():
    state = start([MISS, T1, F1, F2], [CLUE1, CLUE2])
    state.apply(A.RevealAnother())
    state.apply(A.Declare(CLUE1, ("animal",), 1))  # Owl vs Pig: failure
    failed_then_next(state, 1)
    assert state.full_view()["archives"] == [[], [], []]
    assert {cid for cid, _ in view_places(state).values()} >= {CLUE1, CLUE2, MISS}


def test_w4_a_revealed_place_cannot_be_chosen_again_this_turn():
    state = start([T1, T2, F1, F2], [CLUE1, CLUE2])
    state.apply(A.RevealAnother())
    state.apply(A.Declare(CLUE1, ("animal",), 1))
    assert 1 not in {a.place for a in state.legal_actions()}
    assert all(a.clue == CLUE2 for a in state.legal_actions())
    assert_illegal(state, A.Declare(CLUE2, ("animal",), 1), "revealed earlier this turn")
    assert_illegal(state, A.Declare(CLUE1, ("animal",), 2), "already identified")


def test_w4_identify_reveals_only_face_down_places():
    state = start([T1, T2, F1, F2], [CLUE1])
    state.apply(A.Identify())
    assert {a.place for a in state.legal_actions()} == {1, 2, 3, 4}
    assert {a.types for a in state.legal_actions()} == {("animal",), ("texture",), ("color",), ("name",)}
