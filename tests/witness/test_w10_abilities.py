"""W10: Advanced Mode abilities (TAM, TOM, SAM, KIM, KRIS, ALAN), ALEX passive, order and options."""
import pytest

from safari_kit.witness import actions as A

from .helpers import archive_top, failed_then_next, archive_ids, assert_illegal, fail_turn, start, view_places

REST = ["W64", "W66", "W70"]  # Pig Wood Teal ALAN, Pig Wood Orange SAM, Pig Diamond Tile Orange KRIS


def name_success(clue, target, rest=REST, more=(), advanced=True, players=3, seed=0):
    state = start([target, *rest], [clue, *more], players=players, advanced=advanced, seed=seed)
    state.apply(A.Identify())
    state.apply(A.Declare(clue, ("name",), 1))
    archive_top(state, clue)
    return state


def test_w10_abilities_only_in_advanced_mode():
    state = name_success("W03", "W21", advanced=False)
    assert state.phase == "choose" and state.current == 1
    state = name_success("W03", "W21")
    assert state.phase == "abilities" and state.current == 0
    assert state.full_view()["pending"] == [["TAM"]]


def test_w10_abilities_are_optional():
    state = name_success("W03", "W21")
    assert A.EndTurn() in state.legal_actions()
    before = view_places(state)
    state.apply(A.EndTurn())
    assert state.phase == "choose" and state.current == 1
    assert view_places(state) == before
    assert state.full_view()["pending"] == []


# ---------------------------------------------------------------- TAM
def test_w10_tam_swaps_two_unidentified_places():
    state = name_success("W03", "W21")
    before = view_places(state)
    state.apply(A.UseTam("U2", "U3"))
    after = view_places(state)
    assert after[2] == before[3] and after[3] == before[2]
    assert state.current == 1 and state.phase == "choose"


def test_w10_tam_swaps_archive_and_unidentified_changing_archive_order():
    state = name_success("W03", "W21")
    assert archive_ids(state, 0) == ["W21", "W03"]
    state.apply(A.UseTam("U2", "A0.1"))  # the top of seat 0's archive <-> place 2
    assert archive_ids(state, 0) == ["W21", "W64"]
    assert view_places(state)[2] == ("W03", False)  # face down at place 2, everyone knows it
    event = [e for e in state.full_view()["log"] if e["kind"] == "tam"][-1]
    assert event["cards"] == {"U2": "W03", "A0.1": "W64"}
    for p in range(3):
        assert {"W64", "W03"} <= state.observation(p).card_ids()


def test_w10_tam_swaps_within_an_archive():
    state = name_success("W03", "W21")
    state.apply(A.UseTam("A0.0", "A0.1"))
    assert archive_ids(state, 0) == ["W03", "W21"]


def test_w10_tam_spots_include_every_archive():
    # seat 1 archives, then seat 2 can TAM with seat 1's and its own archive
    state = start(["W23", "W21", "W66", "W70"], ["W16", "W64", "W03"], advanced=True)
    fail_turn(state)  # seat 0
    state.apply(A.Identify())
    state.apply(A.Declare("W64", ("animal",), 3))  # Pig Wood Teal vs Pig: success
    archive_top(state, "W64")
    assert state.current == 2
    state.apply(A.Identify())
    state.apply(A.Declare("W03", ("name",), 2))  # TAM vs TAM
    archive_top(state, "W03")
    spots = {s for a in state.legal_actions() if isinstance(a, A.UseTam) for s in (a.first, a.second)}
    assert {"A1.0", "A1.1", "A2.0", "A2.1"} <= spots and "A0.0" not in spots
    state.apply(A.UseTam("A1.1", "A2.1"))
    assert archive_ids(state, 1)[1] == "W03" and archive_ids(state, 2)[1] == "W64"


# ---------------------------------------------------------------- TOM
def test_w10_tom_is_private_to_the_looker():
    state = name_success("W05", "W10")  # TOM + TOM
    assert state.full_view()["pending"] == [["TOM"]]
    looked = view_places(state)[2][0]
    state.apply(A.UseTom(2))
    assert view_places(state)[2] == (looked, False)  # stays put, face down
    assert looked in state.observation(0).card_ids()
    tom0 = [e for e in state.observation(0).log if e["kind"] == "tom"]
    assert tom0 and tom0[-1]["card"] == looked
    for p in (1, 2):
        obs = state.observation(p)
        assert looked not in obs.card_ids()
        assert [e for e in obs.log if e["kind"] == "tom"][-1] == {"turn": 1, "player": 0, "kind": "tom", "place": 2}
    # and stays private for the rest of the game
    state2 = state.clone()
    while not state2.is_terminal():
        state2.apply(state2.legal_actions()[-1])
        if looked in {c for _, c, up in state2.full_view()["unidentified"] if up} or looked in sum(
                state2.full_view()["archives"], []) or looked in state2.full_view()["clue"]:
            break
        for p in (1, 2):
            assert looked not in state2.observation(p).card_ids()


# ---------------------------------------------------------------- SAM
def sam_state(seed):
    state = name_success("W08", "W15", seed=seed)  # SAM + SAM
    before = view_places(state)
    state.apply(A.UseSam(2, 3))
    return state, before


def test_w10_sam_result_is_in_no_observation():
    state, before = sam_state(0)
    twin = state.clone()
    twin.card_at[2], twin.card_at[3] = twin.card_at[3], twin.card_at[2]  # the other outcome
    assert state != twin
    for p in range(3):
        assert state.observation(p) == twin.observation(p)
    event = [e for e in state.full_view()["log"] if e["kind"] == "sam"][-1]
    assert set(event) == {"turn", "player", "kind", "places"}


def test_w10_sam_is_reproducible_from_the_seed_and_both_orders_happen():
    outcomes = set()
    for seed in range(24):
        s1, before = sam_state(seed)
        s2, _ = sam_state(seed)
        assert s1 == s2
        after = view_places(s1)
        assert {after[2][0], after[3][0]} == {before[2][0], before[3][0]}
        assert not after[2][1] and not after[3][1]
        outcomes.add(after[2][0] == before[2][0])
    assert outcomes == {True, False}


# ---------------------------------------------------------------- KIM
def test_w10_kim_takes_from_another_players_archive_to_a_new_face_down_place():
    state = start(["W23", *REST], ["W16", "W07", "W02"], advanced=True)
    state.apply(A.Identify())
    state.apply(A.Declare("W16", ("animal",), 1))
    archive_top(state, "W16")
    assert view_places(state)[5] == ("W07", False)
    state.apply(A.Identify())  # seat 1: KIM + KIM
    state.apply(A.Declare("W02", ("name",), 5))
    archive_top(state, "W02")
    assert state.phase == "abilities"
    kims = {a.card for a in state.legal_actions() if isinstance(a, A.UseKim)}
    assert kims == {"W23", "W16", "W07", "W02"}
    nxt = state.next_place
    state.apply(A.UseKim("W16"))
    assert archive_ids(state, 0) == ["W23"]
    places = view_places(state)
    assert places[nxt] == ("W16", False) and len(places) == 5
    event = [e for e in state.full_view()["log"] if e["kind"] == "kim"][-1]
    assert event["card"] == "W16" and event["from_player"] == 0 and event["place"] == nxt
    assert state.current == 2


# ---------------------------------------------------------------- KRIS
KRIS_REST = ["W64", "W66", "W01"]  # Pig Wood Teal ALAN, Pig Wood Orange SAM, ??M Elephant Brick Teal


@pytest.mark.parametrize("element,place,hit", [
    ("Pig", 2, True), ("Wood", 2, True), ("Teal", 2, True), ("ALAN", 2, True),
    ("Owl", 2, False), ("Brick", 2, False), ("Violet", 2, False), ("ALEX", 2, False),
    ("KIM", 4, True), ("TAM", 4, True), ("KRIS", 4, False), ("ALAN", 4, False),
])
def test_w10_kris_hit_and_miss(element, place, hit):
    state = name_success("W06", "W24", rest=KRIS_REST)  # KRIS + KRIS
    card = view_places(state)[place][0]
    deck_before = len(state.full_view()["deck"])
    state.apply(A.UseKris(element, place))
    event = [e for e in state.full_view()["log"] if e["kind"] == "kris"][-1]
    assert event["card"] == card and event["archived"] is hit  # everyone has seen it
    if hit:
        assert archive_ids(state, 0)[-1] == card and len(archive_ids(state, 0)) == 3
        assert place not in view_places(state) and len(view_places(state)) == 4  # W6 refill
        assert len(state.full_view()["deck"]) == deck_before - 1 - 1  # refill + next clue
    else:
        assert view_places(state)[place] == (card, False) and len(archive_ids(state, 0)) == 2
    for p in range(3):
        assert card in state.observation(p).card_ids()


# ---------------------------------------------------------------- ALAN
ALAN_REST = ["W17", "W66", "W70"]  # ALAN Owl Brick Orange, Pig Wood Orange SAM, Pig DT Orange KRIS


def alan_state():
    state = name_success("W09", "W13", rest=ALAN_REST)  # ALAN + ALAN
    assert archive_ids(state, 0) == ["W13", "W09"]
    state.apply(A.UseAlan())
    assert state.phase == "alan"
    assert set(state.legal_actions()) == {A.AlanTake("W13"), A.AlanTake("W09")}
    state.apply(A.AlanTake("W09"))
    assert archive_ids(state, 0) == ["W13"] and state.full_view()["clue"] == ["W09"]
    assert A.AlanDone() in state.legal_actions()
    state.apply(A.AlanDone())
    assert state.phase == "identify"
    return state


def test_w10_alan_success_by_name_gives_another_ability():
    state = alan_state()
    state.apply(A.Declare("W09", ("name",), 2))  # W17 is ALAN
    assert state.phase == "archive"
    archive_top(state, "W09")
    assert archive_ids(state, 0) == ["W13", "W17", "W09"]
    view = state.full_view()
    assert state.phase == "abilities" and view["usable"] == ["ALAN"]
    assert view["pending"] == [["ALAN"], ["ALAN"]] and view["used"] == ["ALAN"]  # two successes, one spent
    assert A.UseAlan() in state.legal_actions()


def test_w10_alan_failure_sends_formerly_archived_cards_face_up_to_the_area():
    state = alan_state()
    state.apply(A.Declare("W09", ("animal",), 3))  # Elephant vs Pig: failure
    assert archive_ids(state, 0) == ["W13"]
    shown = failed_then_next(state, 1)  # the formerly archived card lay face up too
    assert "W09" in shown.values()
    view = state.full_view()
    fail = [e for e in view["log"] if e["kind"] == "fail"][-1]
    assert [m["card"] for m in fail["to_places"]] == ["W09"]
    new_place = fail["to_places"][0]["place"]
    assert view_places(state)[new_place][0] == "W09"
    assert view_places(state)[3][0] == "W66"
    assert new_place in [e for e in view["log"] if e["kind"] == "face_down"][-1]["places"]


def test_w10_alan_can_take_several_cards():
    state = name_success("W09", "W13", rest=ALAN_REST)
    state.apply(A.UseAlan())
    state.apply(A.AlanTake("W09"))
    state.apply(A.AlanTake("W13"))
    assert archive_ids(state, 0) == []
    assert state.legal_actions() == [A.AlanDone()]
    state.apply(A.AlanDone())
    assert {a.clue for a in state.legal_actions()} == {"W09", "W13"}


# ---------------------------------------------------------------- two abilities in one turn
@pytest.mark.parametrize("order", [("SAM", "TOM"), ("TOM", "SAM")])
def test_w10_two_name_successes_give_two_abilities_in_the_players_order(order):
    state = start(["W10", "W15", "W64", "W66"], ["W05", "W08"], advanced=True)
    state.apply(A.RevealAnother())
    state.apply(A.Declare("W05", ("name",), 1))  # TOM + TOM
    state.apply(A.Declare("W08", ("name",), 2))  # SAM + SAM
    archive_top(state, "W05")
    assert sorted(state.full_view()["pending"]) == [["SAM"], ["TOM"]]
    use = {"SAM": A.UseSam(3, 4), "TOM": A.UseTom(3)}
    state.apply(use[order[0]])
    assert state.phase == "abilities" and state.current == 0
    assert state.full_view()["usable"] == [order[1]] and state.full_view()["used"] == [order[0]]
    assert_illegal(state, use[order[0]], order[0])
    state.apply(use[order[1]])
    assert state.phase == "choose" and state.current == 1


# ---------------------------------------------------------------- ALEX
def alex_script(top_clue, top_target, advanced=True):
    """Seat 0 archives ``top_clue`` on top; seats 1, 2 fail; seat 0 then holds W16 (Owl Brick Yellow TOM)
    and place 5 holds W65 (KIM Pig Wood Yellow): they share only the color."""
    state = start([top_target, *REST], [top_clue, "W65", "W31", "W45", "W16"], advanced=advanced)
    state.apply(A.Identify())
    state.apply(A.Declare(top_clue, ("animal",), 1))
    archive_top(state, top_clue)
    fail_turn(state)
    fail_turn(state)
    assert state.current == 0 and state.full_view()["clue"] == ["W16"]
    assert view_places(state)[5][0] == "W65"
    state.apply(A.Identify())
    return state


@pytest.mark.parametrize("top_clue,top_target", [("W11", "W03"), ("W55", "W46")])  # ALEX, AL??
def test_w10_alex_on_top_allows_two_types(top_clue, top_target):
    state = alex_script(top_clue, top_target)
    types = {a.types for a in state.legal_actions()}
    assert ("animal", "color") in types and ("animal",) in types and len(types) == 4 + 6
    assert state.observation(0).alex and state.observation(1).alex
    state.apply(A.Declare("W16", ("animal", "color"), 5))  # animal misses, color hits
    assert state.phase == "archive"


def test_w10_alex_one_type_still_fails_and_two_types_without_alex_are_illegal():
    state = alex_script("W11", "W03")
    clone = state.clone()
    clone.apply(A.Declare("W16", ("animal",), 5))
    failed_then_next(clone, 1)
    plain = alex_script("W11", "W03", advanced=False)
    assert all(len(a.types) == 1 for a in plain.legal_actions())
    assert_illegal(plain, A.Declare("W16", ("animal", "color"), 5), "ALEX")
    no_alex = alex_script("W03", "W02")  # TAM on top
    assert_illegal(no_alex, A.Declare("W16", ("animal", "color"), 5), "ALEX")


def test_w10_ink_that_can_be_alex_on_top_counts_per_w2():
    # ?L?? can be ALEX (W2: the player chooses among its names); the engine lets it act as ALEX
    state = alex_script("W74", "W61")  # ?L?? Pig Wavy Pink on top (W61 ALEX Pig Brick Teal)
    assert ("animal", "color") in {a.types for a in state.legal_actions()}


# ---------------------------------------------------------------- overlapping successes (a matching)
def overlapping_successes():
    """Two name successes earning {TAM, TOM} (T?M + ??M) and {SAM, TAM} (?AM + ??M), on a made-up deck."""
    from safari_kit.cards.model import Mugshot

    def card(i, name):
        return Mugshot(f"M{i:02d}", f"animal{i}", f"texture{i}", f"color{i}", name)

    names = ["??M", "??M", "KRIS", "KRIS", "T?M", "?AM"] + ["ALAN"] * 10
    cards = tuple(card(i, n) for i, n in enumerate(names))
    state = start(["M00", "M01", "M02", "M03"], ["M04", "M05"], cards=cards, advanced=True)
    state.apply(A.RevealAnother())
    state.apply(A.Declare("M04", ("name",), 1))  # T?M + ??M: TAM or TOM
    state.apply(A.Declare("M05", ("name",), 2))  # ?AM + ??M: TAM or SAM
    archive_top(state, "M05")
    assert state.phase == "abilities"
    assert sorted(state.full_view()["pending"]) == [["SAM", "TAM"], ["TAM", "TOM"]]
    return state


def offered(state) -> set[str]:
    return {type(a).__name__[3:].upper() for a in state.legal_actions() if type(a).__name__.startswith("Use")}


def test_w10_overlapping_successes_keep_every_ability_some_assignment_allows():
    state = overlapping_successes()
    assert offered(state) == {"TAM", "TOM", "SAM"}
    state.apply(A.UseTam("U3", "U4"))
    # TAM may be paid by either success, so both TOM and SAM stay usable (a greedy choice would drop one);
    # TAM itself too: each success allowed it
    assert state.phase == "abilities" and offered(state) == {"TAM", "TOM", "SAM"}
    assert state.observation(1).usable_abilities == ("SAM", "TAM", "TOM")
    state.apply(A.UseTom(3))
    assert state.phase == "choose" and state.current == 1  # two successes, two abilities: done


@pytest.mark.parametrize("first,then", [("TOM", {"TAM", "SAM"}), ("SAM", {"TAM", "TOM"})])
def test_w10_overlapping_successes_first_use_decides_what_is_left(first, then):
    state = overlapping_successes()
    use = {"TOM": A.UseTom(3), "SAM": A.UseSam(3, 4)}
    state.apply(use[first])
    assert offered(state) == then
    assert_illegal(state, use[first] if first == "TOM" else A.UseSam(3, 4), "not usable")
