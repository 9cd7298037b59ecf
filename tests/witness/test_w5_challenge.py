"""W5: Challenge: safe reveals, stopping after 4, failing, forced stop."""
import pytest

from safari_kit.witness import actions as A

from .helpers import (archive_top, failed_then_next, BY_ID, CARDS, archive_ids, assert_illegal, fail_turn, safe_for,
                      shares_any, start, view_places)

C = "W03"  # TAM Elephant Brick Orange: the Challenged Mugshot


def unsafe_for(challenged, exclude=()):
    return [c.id for c in CARDS if c.id != challenged and c.id not in exclude and shares_any(challenged, c.id)]


def challenge_with_six_places(sixth_safe: bool):
    """Seat 0 and 1 fail (their clues join the area), seat 2 challenges C over 6 places."""
    safe = safe_for(C, 6)
    bad = unsafe_for(C)[0]
    sixth = safe[5] if sixth_safe else bad
    # places 1-4, then the clues of seats 0 and 1 (which go to places 5 and 6 after failing)
    state = start(safe[:4], [safe[4], sixth, C], players=3)
    fail_turn(state)
    fail_turn(state)
    assert state.current == 2 and state.full_view()["clue"] == [C]
    assert {cid for cid, _ in view_places(state).values()} == set(safe[:5]) | {sixth}
    return state, safe, sixth


def test_w5_stop_after_four_safe_archives_five():
    state, safe, _ = challenge_with_six_places(True)
    state.apply(A.Challenge())
    places = sorted(view_places(state))
    for k, p in enumerate(places[:4]):
        assert A.StopChallenge() not in state.legal_actions()
        if k < 4:
            assert_illegal(state, A.StopChallenge(), "safe")
        state.apply(A.RevealNext(p))
        assert state.phase == "challenge" and state.safe == k + 1
    assert A.StopChallenge() in state.legal_actions()
    assert A.RevealNext(places[4]) in state.legal_actions()  # may continue
    state.apply(A.StopChallenge())
    assert state.phase == "archive"
    archive_top(state, C)
    arch = archive_ids(state, 2)
    assert len(arch) == 5 and arch[-1] == C
    assert len(view_places(state)) == 4  # 6 - 4 = 2 left, refilled to 4


def test_w5_continue_and_fail_on_the_sixth_card():
    state, safe, bad = challenge_with_six_places(False)
    state.apply(A.Challenge())
    places = sorted(view_places(state))
    order = [p for p in places if view_places(state)[p][0] != bad]
    bad_place = next(p for p in places if view_places(state)[p][0] == bad)
    for p in order:
        state.apply(A.RevealNext(p))
    assert state.safe == 5
    state.apply(A.RevealNext(bad_place))
    view = state.full_view()
    assert view["archives"] == [[], [], []]
    shown = failed_then_next(state, 0)  # W5: all revealed cards, the challenged one included, lie face up
    assert set(shown.values()) == set(safe[:5]) | {bad, C}
    view = state.full_view()
    placed = view_places(state)
    assert len(placed) == 7  # the six stay in place, the Challenged Mugshot takes a new place
    assert placed[7][0] == C
    fail = [e for e in view["log"] if e["kind"] == "fail"][-1]
    assert fail["to_places"] == [{"card": C, "place": 7}]
    face_down = [e for e in view["log"] if e["kind"] == "face_down"][-1]
    assert face_down["places"] == [1, 2, 3, 4, 5, 6, 7]


def test_w5_forced_stop_when_no_face_down_place_is_left():
    safe = safe_for(C, 4)
    state = start(safe, [C])
    state.apply(A.Challenge())
    for p in (1, 2, 3, 4):
        state.apply(A.RevealNext(p))
    assert state.legal_actions() == [A.StopChallenge()]
    state.apply(A.StopChallenge())
    archive_top(state, C)
    assert len(archive_ids(state, 0)) == 5


def pick(challenged, pred):
    c = BY_ID[challenged]
    for x in CARDS:
        if x.id != challenged and pred(c, x):
            return x.id
    raise AssertionError("no such card")


def only(kind):
    def pred(c, x):
        same = {"animal": c.animal == x.animal, "texture": c.texture == x.texture, "color": c.color == x.color,
                "name": bool(c.possible_names & x.possible_names)}
        return same[kind] and sum(same.values()) == 1
    return pred


@pytest.mark.parametrize("kind", ["animal", "texture", "color", "name"])
def test_w5_a_single_shared_element_is_unsafe(kind):
    card = pick(C, only(kind))
    rest = safe_for(C, 3, exclude=[card])
    state = start([card, *rest], [C])
    state.apply(A.Challenge())
    state.apply(A.RevealNext(1))
    assert failed_then_next(state, 1)[1] == card  # failed: the unsafe card lay face up
    log = state.full_view()["log"]
    assert [e for e in log if e["kind"] == "challenge_reveal"][-1]["safe"] is False


def test_w5_ink_card_that_could_carry_the_name_is_unsafe():
    # C is TAM; ??M could be TAM; pick a challenged TAM card sharing nothing else with ??M
    ink = next(c.id for c in CARDS if c.name == "??M")
    challenged = pick(ink, lambda i, x: x.name == "TAM" and x.animal != i.animal and x.texture != i.texture
                      and x.color != i.color)
    rest = safe_for(challenged, 3, exclude=[ink])
    state = start([ink, *rest], [challenged])
    state.apply(A.Challenge())
    state.apply(A.RevealNext(1))
    failed_then_next(state, 1)


def test_w5_ink_card_that_cannot_carry_the_name_is_safe():
    ink = next(c.id for c in CARDS if c.name == "??M")  # never KRIS
    challenged = pick(ink, lambda i, x: x.name == "KRIS" and x.animal != i.animal and x.texture != i.texture
                      and x.color != i.color)
    rest = safe_for(challenged, 3, exclude=[ink])
    state = start([ink, *rest], [challenged])
    state.apply(A.Challenge())
    state.apply(A.RevealNext(1))
    assert state.phase == "challenge" and state.safe == 1


def test_w5_the_challenged_card_is_the_turns_clue_and_reveals_are_face_down_places_only():
    safe = safe_for(C, 4)
    state = start(safe, [C])
    state.apply(A.Challenge())
    state.apply(A.RevealNext(2))
    assert {a.place for a in state.legal_actions() if isinstance(a, A.RevealNext)} == {1, 3, 4}
    assert_illegal(state, A.RevealNext(2), "revealed")
    assert_illegal(state, A.RevealNext(99), "no place")
