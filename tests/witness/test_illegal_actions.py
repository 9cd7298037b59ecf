"""Illegal actions in every phase raise IllegalActionError naming the action and a reason; nothing changes."""
import pytest

from safari_kit.core.errors import IllegalActionError
from safari_kit.witness import actions as A

from .helpers import assert_illegal, custom_deck, fail_turn, start
from .test_w10_abilities import ALAN_REST, name_success
from .test_w5_challenge import C, safe_for

ALL_SIMPLE = [A.Identify(), A.RevealAnother(), A.Challenge(), A.StopChallenge(), A.ArchiveCard("W01"), A.TurnFaceDown(),
              A.UseTam("U1", "U2"), A.UseTom(1), A.UseSam(1, 2), A.UseKim("W01"), A.UseKris("Owl", 1),
              A.UseAlan(), A.AlanTake("W01"), A.AlanDone(), A.EndTurn(), A.Declare("W01", ("animal",), 1),
              A.RevealNext(1)]


def wrong_phase(state):
    legal_types = {type(a) for a in state.legal_actions()}
    return [a for a in ALL_SIMPLE if type(a) not in legal_types]


def test_choose_phase():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    for a in wrong_phase(state):
        assert_illegal(state, a, "expects")
    assert_illegal(state, "Identify", "expects")  # not an action object at all


def test_identify_phase():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    state.apply(A.Identify())
    for a in wrong_phase(state):
        assert_illegal(state, a)
    assert_illegal(state, A.Declare("W16", ("animal",), 99), "no place")      # unknown place
    assert_illegal(state, A.Declare("W16", ("animal",), "1"), "no place")     # a place must be an int
    assert_illegal(state, A.Declare("W99", ("animal",), 1), "Clue Area")      # not a clue
    assert_illegal(state, A.Declare("W23", ("animal",), 1), "Clue Area")
    assert_illegal(state, A.Declare("W16", ("smell",), 1), "unknown clue type")
    assert_illegal(state, A.Declare("W16", (), 1), "one clue type")
    assert_illegal(state, A.Declare("W16", ("animal", "color", "name"), 1), "one clue type")
    assert_illegal(state, A.Declare("W16", ("animal", "color"), 1), "ALEX")  # two types without ALEX
    assert_illegal(state, A.Declare("W16", ("animal", "animal"), 1), "differ")
    assert_illegal(state, A.Declare("W16", "animal", 1))                     # a string, not a tuple


def test_identify_phase_unhashable_fields_are_illegal_not_crashes():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    state.apply(A.Identify())
    assert_illegal(state, A.Declare("W16", ["animal"], 1))  # a list instead of a tuple


def test_identify_revealed_place_after_failure_is_face_up_for_next_player_then_down():
    state = start(["W23", "W64", "W66", "W70"], ["W16", "W05"])
    state.apply(A.RevealAnother())
    state.apply(A.Declare("W16", ("animal",), 1))
    assert_illegal(state, A.Declare("W05", ("animal",), 1), "revealed earlier")


def test_challenge_phase():
    state = start(safe_for(C, 4), [C])
    state.apply(A.Challenge())
    for a in wrong_phase(state):
        assert_illegal(state, a)
    assert_illegal(state, A.StopChallenge(), "safe")                   # stop too early
    state.apply(A.RevealNext(1))
    assert_illegal(state, A.RevealNext(1), "revealed")
    assert_illegal(state, A.RevealNext(42), "no place")
    assert_illegal(state, A.StopChallenge(), "1 safe")


def test_archive_phase():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    state.apply(A.Identify())
    state.apply(A.Declare("W16", ("animal",), 1))
    for a in wrong_phase(state):
        assert_illegal(state, a)
    assert_illegal(state, A.ArchiveCard("W64"), "not among")
    assert_illegal(state, A.ArchiveCard("nope"), "not among")


def test_abilities_phase():
    state = name_success("W03", "W21")  # TAM pending
    for a in [A.UseTom(2), A.UseSam(2, 3), A.UseKim("W21"), A.UseKris("Owl", 2), A.UseAlan()]:
        assert_illegal(state, a, "no ", "ability")
    assert_illegal(state, A.UseTam("U2", "U2"), "two different")
    assert_illegal(state, A.UseTam("U2", "U99"), "not a spot")
    assert_illegal(state, A.UseTam("U2", "A1.0"), "not a spot")  # seat 1 has no archive
    assert_illegal(state, A.UseTam("U3", "U2"), "order")
    assert_illegal(state, A.Identify(), "expects")
    assert_illegal(state, A.AlanTake("W21"), "expects")


def test_abilities_phase_targets():
    state = name_success("W06", "W24", rest=["W64", "W66", "W01"])  # KRIS
    assert_illegal(state, A.UseKris("Smell", 2), "unknown element")
    assert_illegal(state, A.UseKris("Owl", 77), "no place")
    state = name_success("W05", "W10")  # TOM
    assert_illegal(state, A.UseTom(1), "no place")  # place 1 was won and is gone
    state = name_success("W08", "W15")  # SAM
    assert_illegal(state, A.UseSam(2, 2), "two different")
    assert_illegal(state, A.UseSam(3, 2), "order")
    assert_illegal(state, A.UseSam(2, 50), "no place")


def test_alan_phase():
    state = name_success("W09", "W13", rest=ALAN_REST)
    state.apply(A.UseAlan())
    assert_illegal(state, A.AlanDone(), "first")
    assert_illegal(state, A.AlanTake("W17"), "Archive Area")
    assert_illegal(state, A.EndTurn(), "expects")
    state.apply(A.AlanTake("W09"))
    assert_illegal(state, A.AlanTake("W09"), "Archive Area")


def test_over_phase():
    state = start([], players=2, cards=custom_deck(8))
    for _ in range(4):
        fail_turn(state)
    assert state.phase == "over"
    for a in ALL_SIMPLE:
        assert_illegal(state, a, "over")


def test_error_is_a_value_error_with_the_action_and_reason():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    with pytest.raises(ValueError) as info:
        state.apply(A.EndTurn())
    assert isinstance(info.value, IllegalActionError)
    assert info.value.action == A.EndTurn() and "EndTurn" in str(info.value)
    assert not state.history


def test_unhashable_fields_are_illegal_in_every_phase():
    # a notebook user may pass a list where a tuple, id or place belongs: IllegalActionError, never TypeError
    state = start(safe_for(C, 4), [C])
    assert_illegal(state, A.Declare(C, ["animal"], 1))
    state.apply(A.Challenge())
    assert_illegal(state, A.RevealNext([1]))
    assert_illegal(state, A.RevealNext({"place": 1}))
    state = name_success("W06", "W24", rest=["W64", "W66", "W01"])  # KRIS
    assert_illegal(state, A.UseKris("Owl", [2]))
    assert_illegal(state, A.UseKris(["Owl"], 2))
    assert_illegal(state, A.UseTom([2]))
    state = name_success("W09", "W13", rest=ALAN_REST)
    state.apply(A.UseAlan())
    assert_illegal(state, A.AlanTake(["W09"]))
