"""W2: names and ink patterns, through real identifications by name (and W10 ability choice)."""
import pytest

from safari_kit.witness import actions as A

from .helpers import archive_top, failed_then_next, BY_ID, CARDS, archive_ids, one, start

T_M, ANY_M, _AM, AL__, _L__ = one(name="T?M"), one(name="??M"), one(name="?AM"), one(name="AL??"), one(name="?L??")
KIM, KRIS, SAM, ALEX = one(name="KIM"), one(name="KRIS"), one(name="SAM"), one(name="ALEX")
TAM1, TAM2 = [c.id for c in CARDS if c.name == "TAM"][:2]
TOM = one(name="TOM")

CASES = [
    (T_M, ANY_M, {"TAM", "TOM"}),      # ink + ink sharing two names
    (_AM, T_M, {"TAM"}),               # ink + ink sharing one name
    (ANY_M, _AM, {"TAM", "SAM"}),
    (AL__, ANY_M, set()),              # lengths differ: nothing
    (_L__, AL__, {"ALAN", "ALEX"}),
    (ANY_M, KIM, {"KIM"}),             # ink vs clear
    (ANY_M, KRIS, set()),
    (T_M, SAM, set()),
    (_AM, SAM, {"SAM"}),
    (AL__, ALEX, {"ALEX"}),
    (_L__, KRIS, set()),               # same length, clear L differs from R
    (TAM1, TAM2, {"TAM"}),             # clear vs clear
    (TAM1, TOM, set()),
]


def fillers(*used):
    return [c.id for c in CARDS if c.id not in used][:3]


def name_identify(clue, target, **options):
    state = start([target, *fillers(clue, target)], [clue], **options)
    state.apply(A.Identify())
    state.apply(A.Declare(clue, ("name",), 1))
    return state


@pytest.mark.parametrize("clue,target,shared", CASES, ids=lambda x: x if isinstance(x, str) else None)
def test_w2_shared_names_match_the_ruling(clue, target, shared):
    from safari_kit.witness import WitnessGame
    game = WitnessGame(players=2)
    i, j = game.index[clue], game.index[target]
    assert set(game.shared_names(i, j)) == shared
    assert game.shared(i, j, "name") == bool(shared) == game.shared(j, i, "name")


@pytest.mark.parametrize("clue,target,shared", CASES, ids=lambda x: x if isinstance(x, str) else None)
def test_w2_identification_by_name_succeeds_iff_a_name_is_shared(clue, target, shared):
    state = name_identify(clue, target)
    event = [e for e in state.full_view()["log"] if e["kind"] == "identify"][-1]
    assert event["success"] is bool(shared)
    if shared:
        assert state.phase == "archive" and state.current == 0
        archive_top(state, clue)
        assert archive_ids(state, 0) == [target, clue]
    else:
        failed_then_next(state, 1)
        assert archive_ids(state, 0) == []


@pytest.mark.parametrize("clue,target,shared", [c for c in CASES if c[2]],
                         ids=lambda x: x if isinstance(x, str) else None)
def test_w2_w10_ability_choice_is_every_shared_ability_name(clue, target, shared):
    state = name_identify(clue, target, advanced=True)
    archive_top(state, clue)
    abilities = shared - {"ALEX"}  # ALEX is passive
    if not abilities:
        assert state.phase == "choose" and state.current == 1
        return
    assert state.phase == "abilities"
    assert state.full_view()["pending"] == [sorted(abilities)]
    offered = {type(a).__name__ for a in state.legal_actions()}
    expected = {"Use" + n.title() for n in abilities} | {"EndTurn"}
    assert offered == expected


def test_w2_ambiguous_tam_tom_offers_both_and_one_use_spends_it():
    state = name_identify(T_M, ANY_M, advanced=True)
    archive_top(state, T_M)
    legal = state.legal_actions()
    assert any(isinstance(a, A.UseTam) for a in legal) and any(isinstance(a, A.UseTom) for a in legal)
    tom = next(a for a in legal if isinstance(a, A.UseTom))
    state.apply(tom)
    # one success gives one ability, even if two names were possible
    assert state.phase == "choose" and state.current == 1


def test_w2_real_deck_patterns_are_as_expected():
    assert {BY_ID[c].name for c in (T_M, ANY_M, _AM, AL__, _L__)} == {"T?M", "??M", "?AM", "AL??", "?L??"}
