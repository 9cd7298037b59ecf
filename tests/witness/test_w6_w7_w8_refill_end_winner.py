"""W6 (refill), W7 (the two ends) and W8 (winners and ties)."""
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A

from .helpers import archive_top, face_down, CARDS, custom_deck, fail_turn, find, start, view_places


def succeed_by(state, clue_type="animal", top=None):
    state.apply(A.Identify())
    clue = state.full_view()["clue"][0]
    place = next(a.place for a in state.legal_actions()
                 if a.clue == clue and a.types == (clue_type,) and pick_ok(state, a))
    state.apply(A.Declare(clue, (clue_type,), place))
    archive_top(state, top or clue)


def pick_ok(state, a):
    from .helpers import declare_succeeds
    return declare_succeeds(state, a)


# ---------------------------------------------------------------- W6
def test_w6_set_up_deals_four_face_down_places_1_to_4():
    for seed in range(5):
        state = WitnessGame(players=4).new_initial_state(seed=seed)
        view = state.full_view()
        assert [(p, up) for p, _, up in view["unidentified"]] == [(1, False), (2, False), (3, False), (4, False)]
        assert len(view["deck"]) == 75 - 5 and len(view["clue"]) == 1


def test_w6_refill_to_four_after_archiving():
    state = start([], players=2, cards=custom_deck(12, animal="Owl"))
    succeed_by(state)
    assert sorted(view_places(state)) == [2, 3, 4, 5]
    assert len(state.full_view()["deck"]) == 12 - 4 - 1 - 1 - 1  # set-up, clue, refill, next clue


def test_w6_no_refill_while_more_than_four_remain():
    # two failures grow the area to 6 places (two revealed + two clues) ... then one success leaves 5
    cards = custom_deck(12, animal="Owl")
    state = start([], players=3, cards=cards)
    for _ in range(2):
        state.apply(A.Identify())
        clue = state.full_view()["clue"][0]
        state.apply(A.Declare(clue, ("color",), state.available_places()[0]))  # colors all differ: fail
        face_down(state)
    assert len(view_places(state)) == 6
    deck_before = len(state.full_view()["deck"])
    succeed_by(state)
    assert len(view_places(state)) == 5
    assert len(state.full_view()["deck"]) == deck_before - 1  # only the next turn's clue left the deck


# ---------------------------------------------------------------- W7
def test_w7_archive_of_ten_ends_at_once_no_ability_no_refill():
    cards = custom_deck(30, animal="Owl", name="TOM")
    state = start([], players=2, cards=cards, advanced=True)
    for _ in range(8):  # 4 turns each: both archives reach 8, by animal (no ability)
        succeed_by(state)
    assert state.archive_sizes() == [8, 8] and state.current == 0
    state.apply(A.Identify())
    clue = state.full_view()["clue"][0]
    state.apply(A.Declare(clue, ("name",), state.available_places()[0]))
    deck_before = list(state.full_view()["deck"])
    archive_top(state, clue)
    assert state.phase == "over" and state.end_reason == "archive"
    assert state.current_player is None and state.legal_actions() == []
    assert state.archive_sizes() == [10, 8]
    assert state.full_view()["pending"] == []  # the earned TOM never resolves
    assert state.full_view()["deck"] == deck_before  # no refill
    assert len(view_places(state)) == 3  # the identified card left; nothing refilled
    assert state.winners() == [0] and state.scores() == [10, 8]


def test_w7_challenge_can_pass_ten():
    cards = custom_deck(30)  # nothing shared: every reveal is safe
    state = start([], players=2, cards=cards)
    # grow the area to 10 face-down places with failed turns
    while len(view_places(state)) < 10:
        fail_turn(state)
    state.apply(A.Challenge())
    while A.RevealNext in {type(a) for a in state.legal_actions()}:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, A.RevealNext)))
    state.apply(A.StopChallenge())
    while state.phase == "archive":  # eleven cards, ordered one by one
        state.apply(state.legal_actions()[0])
    assert state.phase == "over" and state.end_reason == "archive"
    assert max(state.archive_sizes()) == 11


def test_w7_deck_empty_at_a_turns_first_reveal_ends_it_and_w8_tie_is_shared():
    state = start([], players=2, cards=custom_deck(8))
    for _ in range(4):
        fail_turn(state)
    assert state.phase == "over" and state.end_reason == "deck"
    assert state.legal_actions() == [] and state.full_view()["clue"] == []
    assert state.scores() == [0, 0] and state.winners() == [0, 1]
    assert state.returns() == [0.0, 0.0]


def test_w7_deck_empty_at_a_refill_ends_it():
    state = start([], players=2, cards=custom_deck(8, animal="Owl"))
    succeed_by(state)                      # deck: 8-4-1 = 3, refill 1 -> 2; next clue -> 1
    state.apply(A.RevealAnother())         # deck 0
    clues = state.full_view()["clue"]
    for clue in clues:
        state.apply(A.Declare(clue, ("animal",), state.available_places()[0]))
    archive_top(state, clues[0])    # archive 4, refill needs 2 cards: deck empty
    assert state.phase == "over" and state.end_reason == "deck"
    assert state.archive_sizes() == [2, 4]
    assert len(view_places(state)) == 2
    assert state.winners() == [1]


# ---------------------------------------------------------------- W8
def finished(case_module, archives, case_cards=None):
    state = WitnessGame(players=len(archives), case_module=case_module).new_initial_state(seed=3)
    state.archives = [[state.game.index[c] for c in a] for a in archives]
    if case_module:
        state.case_cards = tuple(case_cards)
    return state


def colors_set():
    return [next(c.id for c in CARDS if c.color == col) for col in ("Teal", "Yellow", "Orange", "Pink", "Violet")]


def test_w8_tie_is_shared_without_case_module():
    teal = find(color="Teal")
    state = finished(False, [teal[:5], teal[5:10], teal[10:13]])
    assert state.scores() == [5, 5, 3] and state.winners() == [0, 1]


def test_w8_with_case_module_a_tie_goes_to_more_mugshots():
    five = colors_set()
    teal = [c for c in find(color="Teal") if c not in five]
    # seat 0: 5 cards, one set of colors = 5 + 2; seat 1: 7 Teal cards, no set = 7 + 0
    state = finished(True, [five, teal[:7], teal[7:9]], ["set_colors", "set_colors", "set_colors"])
    assert state.scores() == [7, 7, 2]
    assert state.winners() == [1]


def test_w8_with_case_module_an_equal_count_tie_is_shared():
    five = colors_set()
    other = [next(c.id for c in CARDS if c.color == col and c.id not in five)
             for col in ("Teal", "Yellow", "Orange", "Pink", "Violet")]
    state = finished(True, [five, other, []], ["set_colors", "set_colors", "set_animals"])
    assert state.scores() == [7, 7, 0] and state.winners() == [0, 1]
