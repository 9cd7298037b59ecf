"""The Identification lab's flow without widgets (issue 28): the opening on the learner's turn, Identify, a pick,
a reveal with a guess, refusals that change nothing, the guess kept for the class once per reveal of a deal, the
chances panel (hidden until the guess for a joined learner), the tally and a whole game to the end.

Nothing here imports ipywidgets: :mod:`safari_kit.presentation.identification_flow` is the lab's state machine and
its words (the lab, ``safari_kit.widgets.labs.identification``, is the layout; its tests are in tests/widgets/).
"""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

from safari_kit.presentation.identification_flow import NOTHING, IdentificationFlow, Revealed, Said, brier
from safari_kit.probability import witness as PW
from safari_kit.witness import actions as A

WIDGET_PACKAGES = ("ipywidgets", "anywidget", "IPython", "traitlets")


def test_the_flow_imports_no_widget_package_nor_numpy():
    code = ("import sys\nimport safari_kit.presentation.identification_flow\n"
            f"print([m for m in {WIDGET_PACKAGES + ('numpy', 'pandas')!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def _flow(seed: int = 4, **kw) -> IdentificationFlow:
    flow = IdentificationFlow(**kw)
    flow.reset(seed)
    return flow


def _identifying(seed: int = 4) -> IdentificationFlow:
    flow = _flow(seed)
    assert flow.why_not_choose(A.Identify()) is None
    said = flow.choose(A.Identify())
    assert said.text.startswith("Identify with one clue card") and flow.identifying
    return flow


def _refused(flow: IdentificationFlow, act) -> Said:
    """``act`` is refused: a 'bad' line, and the game, the log and the tally exactly as they were."""
    before, lines, preds = flow.state.full_view(), list(flow.lines), list(flow.predictions)
    said = act()
    assert isinstance(said, Said) and said.kind == "bad", said
    assert flow.state.full_view() == before and flow.lines == lines and flow.predictions == preds
    return said


def test_a_deal_opens_on_the_learners_turn_with_the_chances_of_each_choice():
    flow = _flow()
    assert flow.my_turn and flow.state.phase == "choose"
    assert flow.opening_text().endswith("Look at the chances, then Identify or Reveal another.")
    c = flow.controls()
    assert c.identify and not c.identifying and not c.reveal and not c.next
    assert c.table["message"] == "Your turn: press Identify, or Reveal another clue card."
    side, everything, notes = flow.panel_html(None, show_exact=True, joined=False)
    assert "Expected cards archived" in side and "safari-prob-table" in everything and flow.chance_shown


def test_a_reveal_with_a_guess_is_tallied_and_its_record_names_only_the_face_up_clue():
    flow = _identifying()
    place = flow.state.available_places()[0]
    types = flow.state.type_choices()[0]
    kn = flow.knowledge()
    clue = flow.game.cards[kn.unresolved[0]].id
    exact = PW.p_match(kn, clue, place, types).value
    assert flow.pick({"kind": "place", "id": place}).text.startswith(f"Place {place} picked.")
    assert flow.controls().reveal and flow.pick_marks() == ([{"kind": "place", "id": place}],
                                                           f"Place {place} picked: type your guess, then press Reveal.")
    out = flow.reveal(types, "1/5", joined=True)
    assert isinstance(out, Revealed)
    (p,) = flow.predictions
    assert (p.place, p.types, p.guess, p.exact) == (place, tuple(types), 0.2, exact)
    assert out.record == {"guess": Fraction(1, 5), "exact": exact, "outcome": int(p.success),
                          "context": flow.declared_words(clue, types, place), "chance_seen": False}
    assert out.record["context"].endswith(f" at place {place}") and p.card not in out.record["context"]
    assert out.said.kind == ("good" if p.success else "bad") and "The exact chance was" in out.said.text
    assert flow.last_result and flow.picked_place is None and not flow.chance_shown
    assert "safari-tally-table" in flow.tally_html() and flow.tally_summary()["guesses"] == 1


def test_the_same_reveal_of_the_same_deal_is_recorded_once():
    flow = _identifying()
    place, types = flow.state.available_places()[0], flow.state.type_choices()[0]
    flow.pick({"kind": "place", "id": place})
    assert flow.reveal(types, "0.3", joined=True).record is not None
    flow.reset(4)  # the same seed deals the same cards: the learner knows what lies there now
    flow.choose(A.Identify())
    flow.pick({"kind": "place", "id": place})
    again = flow.reveal(types, "0.9", joined=True)
    assert again.record is None and "keep your first guess only" in again.said.text
    assert len(flow.predictions) == 1  # the tally of the new deal has it


def test_no_guess_and_not_joined_record_nothing():
    for guess, joined in (("", True), ("0.4", False)):
        flow = _identifying()
        flow.pick({"kind": "place", "id": flow.state.available_places()[0]})
        out = flow.reveal(flow.state.type_choices()[0], guess, joined=joined)
        assert isinstance(out, Revealed) and out.record is None and len(flow.predictions) == 1


def test_refusals_change_nothing():
    flow = _flow()
    types = flow.state.type_choices()[0]
    assert "press Identify first" in _refused(flow, lambda: flow.reveal(types, "0.2")).text
    assert _refused(flow, flow.why_not_next).text == "It is your turn now: play it first."
    flow.choose(A.Identify())
    assert _refused(flow, lambda: flow.reveal((), "0.2")).text == "Pick a clue type first."
    assert _refused(flow, lambda: flow.reveal(types, "0.2")).text == "Click a face-down place on the table first."
    flow.pick({"kind": "place", "id": flow.state.available_places()[0]})
    for text in ("two", "1.5", "-1"):
        assert "between 0 and 1" in _refused(flow, lambda t=text: flow.reveal(types, t)).text
    assert flow.why_not_choose(A.Identify()) == "That choice is made at the start of your turn."


def test_a_joined_learner_guesses_first_the_panel_hides_every_chance():
    flow = _identifying()
    flow.chance_shown = False
    side, everything, notes = flow.panel_html(flow.state.type_choices()[0], show_exact=False, joined=True)
    assert "hidden until you guess" in side and everything == "" and notes == {} and not flow.chance_shown
    assert "≈" not in side
    side, everything, notes = flow.panel_html(flow.state.type_choices()[0], show_exact=True, joined=True)
    assert flow.chance_shown and "will not count for the class" in side and notes


def test_the_chances_are_the_learners_own_knowledge():
    flow = _identifying()
    types = flow.state.type_choices()[0]
    kn, kn0 = flow.knowledge(), flow.knowledge(NOTHING)
    clue = kn.unresolved[0]
    _side, _everything, notes = flow.panel_html(types, show_exact=True, joined=False)
    for place in kn.available:
        assert notes[("place", place)][0].startswith(
            f"{PW.p_match(kn, clue, place, types).count[0]}/") or notes[("place", place)][0].startswith("P = ")
    assert len(kn0.pool) >= len(kn.pool)


def test_a_whole_game_to_the_end_without_widgets():
    flow = _flow(seed=2)
    for _ in range(400):
        if flow.state.is_terminal():
            break
        if flow.my_turn and flow.state.phase == "choose":
            flow.choose(A.Identify())
        elif flow.identifying:
            flow.pick({"kind": "place", "id": flow.state.available_places()[0]})
            assert isinstance(flow.reveal(flow.state.type_choices()[0], "0.5"), Revealed)
        else:
            assert flow.why_not_next() is None
            said = flow.next_turn()
            assert said.spoken and said.kind == "info"
    assert flow.state.is_terminal() and flow.over_text().startswith("Game over. Scores: You ")
    assert flow.why_not_next() == Said(flow.over_text())
    summary = flow.tally_summary()
    assert summary["reveals"] == len(flow.predictions) > 0 and summary["guesses"] == summary["reveals"]
    assert summary["brier_guess"] == brier((0.5, p.success) for p in flow.predictions) == 0.25
    assert "Miss score" in flow.tally_text() and flow.lines
