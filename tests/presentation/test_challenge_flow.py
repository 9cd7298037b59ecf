"""The Challenge lab's flow without widgets (issue 28): positions, the bots' turns before the learner's, Identify,
Challenge, reveal and Stop, refusals that change nothing, and the decisions kept for the class experiment.

Nothing here imports ipywidgets: :mod:`safari_kit.presentation.challenge_flow` is the lab's state machine,
:mod:`safari_kit.presentation.challenge_text` its words (the lab, ``safari_kit.widgets.labs.challenge``, is the
layout; its tests are in tests/widgets/).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from safari_kit.presentation import challenge_text as T
from safari_kit.presentation.challenge_flow import ChallengeFlow, Said
from safari_kit.probability import witness as PW
from safari_kit.simulation import challenge_positions as CP

WIDGET_PACKAGES = ("ipywidgets", "anywidget", "IPython", "traitlets")


def test_the_flow_and_its_words_import_no_widget_package():
    code = ("import sys\nimport safari_kit.presentation.challenge_flow, safari_kit.presentation.challenge_text\n"
            f"print([m for m in {WIDGET_PACKAGES!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def _flow(key="stop-or-go", seed=None, **kw) -> tuple[ChallengeFlow, Said]:
    flow = ChallengeFlow(key, **kw)
    said = flow.reset(CP.position(key).seed if seed is None else seed)
    return flow, said


def _refused(flow: ChallengeFlow, act) -> Said:
    """``act`` is refused: done False, a 'bad' line, and the game exactly as it was."""
    before, log, steps = flow.state.full_view(), list(flow.lines), list(flow.steps)
    said = act()
    assert not said.done and said.kind == "bad", said
    assert flow.state.full_view() == before and flow.lines == log and flow.steps == steps
    return said


@pytest.mark.parametrize("key", [p.key for p in CP.POSITIONS])
def test_every_position_opens_on_the_learners_own_turn_after_the_bots(key):
    flow, said = _flow(key)
    assert flow.choosing and flow.state.current_player == flow.learner == 0, said
    assert said.done and said.text.endswith("the cards each choice archives, on average.")
    assert flow.first_facts == flow.turn_facts and flow.choice_values == CP.lab_choice_values(flow.knowledge())
    others = [e for e in flow.state.observation(0).log if e.get("player") not in (None, 0)]
    assert bool(others) == said.text.startswith("The other players went first."), said.text


def test_a_learner_outside_the_table_is_refused_with_the_seats_named():
    with pytest.raises(ValueError, match="learner must be a seat from 0 to 2, got 3"):
        ChallengeFlow("fresh", learner=3)


def test_choosing_a_position_twice_changes_nothing():
    flow, _ = _flow("fresh")
    assert flow.choose_position("fresh") is False
    assert flow.choose_position("close-call") is True and flow.start_position.key == "close-call"


def test_refusals_change_nothing():
    flow, _ = _flow()
    assert _refused(flow, flow.stop).text.startswith("You may stop once 4 reveals")  # no challenge yet
    assert _refused(flow, flow.next_turn).text.startswith("Finish your turn first")
    assert flow.challenge().done and flow.in_challenge
    assert _refused(flow, flow.challenge).text == "You can choose Challenge at the start of your turn."
    assert _refused(flow, flow.identify).text == "You can choose Identify at the start of your turn."
    said = _refused(flow, lambda: flow.reveal(99))
    assert said.text.startswith("There is no place 99") and said.text.endswith("."), said
    if flow.state.safe < PW.MIN_SAFE:
        assert _refused(flow, flow.stop).text.startswith("You may stop once 4 reveals are safe")


def _play_challenge_by_the_rule(flow: ChallengeFlow) -> Said:
    said = flow.challenge()
    while flow.in_challenge:
        what = flow.optimal_decision()
        said = flow.stop() if what == "stop" or not flow.state.face_down_places() else flow.reveal(flow.safest_place())
        assert said.done, said
    return said


def test_a_challenge_by_the_rule_keeps_each_step_and_ends_the_turn():
    flow, _ = _flow()
    said = _play_challenge_by_the_rule(flow)
    last = flow.history[-1]
    assert last["kind"] == "challenge" and last["steps"] == flow.steps and all(st.agrees for st in flow.steps)
    assert last["archived"] == (0 if last["how"] == "fail" else 1 + sum(bool(st.safe) for st in flow.steps))
    assert said.text.startswith("You stopped and archived" if last["how"] == "stop" else "Not safe: place")
    assert not flow.my_turn or flow.state.phase == "face_up" or flow.state.is_terminal()
    assert "safari-steps" in T.summary_html(flow) and flow.result in T.decide_html(flow).replace("&#x27;", "'")


def test_next_turn_lets_the_bots_play_to_the_learners_turn_or_a_failure_to_remember():
    flow, _ = _flow("fresh")
    flow.identify()
    for _ in range(20):
        if flow.state.is_terminal():
            assert not flow.next_turn().done
            break
        said = flow.next_turn()
        assert said.done
        if flow.state.phase == "face_up":  # a bot failed: the flow pauses so its face-up cards can be remembered
            assert flow.state.current_player != flow.learner and said.text == flow.result
            assert "failed" in said.text and said.text.endswith("then press Next turn.")
            assert T.table_message(flow).endswith("remember the face-up cards, then press Next turn.")
            continue
        assert flow.choosing and said.text.startswith("Your turn: Identify or Challenge?")
        flow.identify() if flow.better() == "identify" else _play_challenge_by_the_rule(flow)
    assert len(flow.history) >= 2


def test_decisions_are_handed_over_once_when_the_challenge_ends_and_only_when_recording():
    got: list = []
    recording = [False]
    flow, _ = _flow(recording=lambda: recording[0], on_decisions=lambda steps, result: got.append((steps, result)))
    _play_challenge_by_the_rule(flow)
    assert got == []  # not joined: nothing kept
    flow.reset(CP.position("stop-or-go").seed)
    recording[0] = True
    _play_challenge_by_the_rule(flow)
    decisions = [st for st in flow.steps if st.stop_value is not None]
    result = flow.history[-1]["archived"]
    assert got and got[0][1] == result and len(got) == 1
    assert len(got[0][0]) <= len(decisions)  # a forced Stop with no place left is no decision
    flow.record_decisions(result)
    assert len(got) == 1  # each once


def test_a_challenge_left_unfinished_hands_its_decisions_over_without_a_result():
    got: list = []
    flow, _ = _flow(recording=lambda: True, on_decisions=lambda steps, result: got.append((steps, result)))
    flow.challenge()
    while flow.in_challenge and not flow.decision_now:
        flow.reveal(flow.safest_place())
    if not flow.decision_now:
        pytest.skip("this deal ended before a decision")
    flow.reveal(flow.safest_place())
    if flow.in_challenge:  # still going: a new deal leaves it unfinished
        flow.reset(CP.position("stop-or-go").seed)
        assert len(got) == 1 and got[0][1] is None and len(got[0][0]) == 1


def test_the_decision_box_shows_the_rule_at_the_moment_of_decision():
    flow, _ = _flow()
    assert "safari-choice" in T.decide_html(flow) and "safari-memory" in T.panel_html(flow)
    flow.challenge()
    while flow.in_challenge and not flow.decision_now:
        flow.reveal(flow.safest_place())
    assert flow.decision_now, "stop-or-go surely reaches the decision"
    box = T.decide_html(flow)
    assert "safari-decision-now" in box and "Decide: Stop now, or reveal one more?" in box and "safari-rule" in box
    notes = T.safe_notes(flow)
    assert set(notes) == {("place", q) for q in flow.state.face_down_places()}
