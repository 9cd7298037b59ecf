"""The rules-tutorial scripts agree with the engine: every action is legal, every explanation names
the rulings the engine actually applied, and nothing hidden from the learner's seat is named."""
from __future__ import annotations

import re

import pytest

from safari_kit.knockout import KnockoutGame
from safari_kit.probability.knockout import ties_per_item
from safari_kit.tutorial import tutorials as T
from safari_kit.witness import WitnessGame
from safari_kit.witness.state import MIN_SAFE, UNIDENTIFIED_SIZE

SCRIPTS = {"witness": T.witness_script, "knockout": T.knockout_script}


@pytest.fixture(params=sorted(SCRIPTS))
def script(request):
    return SCRIPTS[request.param]()


def test_every_scripted_action_is_legal_when_replayed(script):
    state = script.new_state()
    for step in script.steps:
        for action in step.actions:
            assert state.is_legal(action), (step.key, action)
            state.apply(action)
    assert state == script.states()[-1]


def test_the_script_replays_from_its_record(script):
    final = script.states()[-1]
    record = final.to_record()
    if script.game == "witness":
        again = WitnessGame.replay(record, cards=final.game.cards)
    else:
        again = KnockoutGame.replay(record)
    assert again == final


def test_each_step_cites_rulings_the_engine_applied(script):
    before = None
    for k, (step, state) in enumerate(zip(script.steps, script.states())):
        applied = T.engine_rulings(before, state)
        assert step.rulings, step.key
        assert set(step.rulings) <= applied, (step.key, step.rulings, applied)
        text = script.explain(k)
        for code in step.rulings:
            assert re.search(rf"\b{code}\b", text), (step.key, code)
        before = state


def test_rulings_have_a_summary_and_their_full_text(script):
    """Each ruling a step names has its line here and its text in docs/rules.md (shown inline, issue 18)."""
    from safari_kit.tutorial import rulebook

    for step in script.steps:
        for code in step.rulings:
            assert code in T.RULINGS
            assert len(rulebook.ruling_markdown(code)) > 80, code


def test_explanations_name_only_cards_the_learner_may_see(script):
    for k, (step, state) in enumerate(zip(script.steps, script.states())):
        named = T.template_cards(step.text)
        obs = state.observation(script.viewer)
        if script.game == "witness":
            visible = obs.card_ids()
        else:
            d = obs.to_dict()
            visible = set(d["hand"]) | {c for _, c in d["trick"]} | {c for t in d["turns"] for _, c in t["plays"]}
        assert named <= visible, (step.key, named - visible)


# ----------------------------------------------------------------------------- Safari Witness specifics
def _events(script, key):
    states = script.states()
    k = script.index(key)
    start = len(states[k - 1].log) if k else 0
    return [e for e, _, _ in states[k].log[start:]], states[k]


def test_witness_setup_refills_to_four_and_reveals_a_clue():
    s = T.witness_script()
    events, state = _events(s, "setup")
    assert [e["kind"] for e in events].count("deal") == UNIDENTIFIED_SIZE
    assert len(state.places) == UNIDENTIFIED_SIZE and len(state.clue) == 1
    assert state.game.options.advanced and len(state.game.cards) == len(T.WITNESS_DECK)


def test_witness_success_archive_top_choice_and_tom():
    s = T.witness_script()
    events, state = _events(s, "declare-success")
    assert events[-1]["kind"] == "identify" and events[-1]["success"] and events[-1]["types"] == ["name"]
    events, state = _events(s, "archive")
    assert state.archives[0][-1] == state.game.index["W16"]  # the chosen card is on top
    assert any(e["kind"] == "deal" for e in events) and len(state.places) == UNIDENTIFIED_SIZE
    assert state.phase == "abilities" and ["TOM"] in [sorted(p) for p in state.pending]
    events, state = _events(s, "tom")
    tom = next(e for e in events if e["kind"] == "tom")
    assert "card" not in tom  # public log: the look is private ...
    assert any(e["kind"] == "tom" and e.get("card") == "W44" for e in state.observation(0).log)  # ... to seat 0
    assert all("card" not in e for e in state.observation(1).log if e["kind"] == "tom")


def test_witness_failed_identification_puts_every_revealed_card_in_the_unidentified_area():
    s = T.witness_script()
    before = s.states()[s.index("declare-fail") - 1]
    assert len(before.clue) == 2  # two clue cards
    events, state = _events(s, "declare-fail")
    assert [e["kind"] for e in events][-1] == "fail" and state.phase == "face_up"
    fail = next(e for e in events if e["kind"] == "fail")
    assert {m["card"] for m in fail["to_places"]} == {"W38", "W66"}
    on_table = {state.card_id(state.card_at[p]) for p in state.places}
    assert {"W33", "W53", "W38", "W66"} <= on_table
    assert state.archives == [before.archives[0], []]
    # the step shows the four cards face up on the learner's table (W4) ...
    shown = {cid for _, cid in state.observation(0).unidentified if cid is not None}
    assert shown == {"W33", "W53", "W38", "W66"}
    # ... and the next step turns them face down as the next turn starts
    events, after = _events(s, "face-down")
    kinds = [e["kind"] for e in events]
    assert kinds.index("face_down") < kinds.index("clue")
    assert not after.face_up and after.current == 0


def test_witness_challenge_stops_after_four_safe():
    s = T.witness_script()
    k = s.index("stop")
    state = s.states()[k - 1]
    assert state.phase == "challenge" and state.safe == MIN_SAFE
    earlier = s.states()[s.index("safe-3")]
    assert earlier.safe == MIN_SAFE - 1
    assert not any(type(a).__name__ == "StopChallenge" for a in earlier.legal_actions())
    assert s.states()[k].phase == "archive"


def test_witness_game_ends_when_the_deck_is_empty():
    final = T.witness_script().states()[-1]
    assert final.is_terminal() and final.end_reason == "deck" and final.winners() == [0]


# ----------------------------------------------------------------------------- Safari Knockout specifics
def test_knockout_tie_is_real_data_and_goes_to_the_earlier_card():
    s = T.knockout_script()
    state = s.states()[s.index("tie-won")]
    turn = state.completed_turns[0]
    cards = [c for _, c in turn["plays"]]
    groups = ties_per_item(state.game)[turn["item"]].groups
    assert any(cards[0] in g and cards[1] in g for g in groups)
    assert turn["winner"] == turn["plays"][0][0]
    assert state.scores()[turn["winner"]] == 1
    assert len(T.tie_turns(s.states()[-1])) >= 2


def test_knockout_deal_sizes_and_elimination():
    s = T.knockout_script()
    first = s.states()[0]
    assert [len(h) for h in first.hands] == [7, 7, 7]
    assert [tuple(h) for h in first.hands] == [tuple(h) for h in T.KNOCKOUT_HANDS]
    k = s.index("elimination")
    before, after = s.states()[k - 1], s.states()[k]
    assert before.out == () and after.out == (2,)
    assert after.round == 2 and [len(h) for h in after.hands][:2] == [6, 6] and after.hands[2] == ()
    assert after.lead == 1 and after.dealer == 0
    last = s.states()[-1]
    assert all(2 not in [seat for seat, _ in t["plays"]] for t in last.completed_turns if t["round"] == 2)


def test_unknown_game_is_refused():
    with pytest.raises(ValueError):
        T.script("poker")


def test_witness_challenge_text_matches_what_the_learner_knows():
    """The tutorial says you know 5 of the 6 face-down cards and the last unseen one is certain: check it."""
    from fractions import Fraction

    from safari_kit.probability import witness as PW
    from safari_kit.probability.knowledge import Knowledge

    s = T.witness_script()
    step = s.steps[s.index("challenge")]
    assert "you know 5 of the 6 face-down cards" in step.text
    state = s.states()[s.index("challenge")]
    kn = Knowledge.from_observation(state.observation(0), game=state.game)
    assert len(kn.face_down) == 6 and len(kn.known) == 5 and kn.unknown_places == (5,)
    before = s.states()[s.index("safe-4") - 1]
    kn = Knowledge.from_observation(before.observation(0), game=before.game)
    assert PW.p_safe_place(kn, 5, kn.challenged) == 1  # "the chance is 1"
    assert "the chance is 1" in s.steps[s.index("safe-4")].text
    left = [p for p in kn.face_down if p != 5]
    assert left and all(PW.p_safe_place(kn, p, kn.challenged) == Fraction(0) for p in left)  # "unsafe ones"
