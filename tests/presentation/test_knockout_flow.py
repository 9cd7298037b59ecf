"""The Knockout lab's flow without widgets (issue 28): picks then Play, refusals that change nothing, the pause on a
finished turn and on a round's end, the class record of a settled play, and a whole game to the end.

Nothing here imports ipywidgets: :mod:`safari_kit.presentation.knockout_flow` is the lab's state machine,
:mod:`safari_kit.presentation.knockout_panels` and :mod:`~safari_kit.presentation.knockout_text` its words (the lab,
``safari_kit.widgets.labs.knockout``, is the layout; its tests are in tests/widgets/).
"""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from safari_kit.knockout import Play
from safari_kit.presentation.knockout_flow import KnockoutFlow, Said

WIDGET_PACKAGES = ("ipywidgets", "anywidget", "IPython", "traitlets")


def test_the_flow_and_its_words_import_no_widget_package_nor_numpy():
    code = ("import sys\nimport safari_kit.presentation.knockout_flow, safari_kit.presentation.knockout_text\n"
            f"print([m for m in {WIDGET_PACKAGES + ('numpy', 'pandas')!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def _flow(seed: int = 1, **kw) -> tuple[KnockoutFlow, list[dict]]:
    records: list[dict] = []
    flow = KnockoutFlow(on_play=records.append, **kw)
    flow.reset(seed)
    assert flow.refresh() == "mine"
    return flow, records


def _refused(flow: KnockoutFlow, act) -> Said:
    before, picked, preds = flow.state.full_view(), flow.picked, list(flow.predictions)
    said = act()
    assert said.kind == "bad", said
    assert flow.state.full_view() == before and flow.picked == picked and flow.predictions == preds
    return said


def test_a_seat_is_checked_before_the_deal():
    with pytest.raises(ValueError, match="learner must be a seat from 0 to 3"):
        KnockoutFlow(players=4, learner=4)


def test_picks_then_play_then_the_pause_on_the_finished_turn():
    flow, records = _flow()
    assert flow.best.action == Play("K12", "top_speed_kmh") and flow.best.p.value == Fraction(29, 50)
    assert flow.pick_words().startswith("You lead: pick a card and a data item")
    assert "Pick a card" in _refused(flow, lambda: flow.pick({"kind": "seat", "id": 1})).text
    assert _refused(flow, flow.play).text == flow.pick_words()  # nothing picked: nothing played
    assert flow.pick({"kind": "card", "id": "K12"}).text.startswith("Springbok picked: now pick the data item")
    assert not flow.ready() and flow.history == ()
    flow.pick({"kind": "item", "id": "top_speed_kmh"})
    assert flow.ready() and flow.pick_marks() == [{"kind": "card", "id": "K12"},
                                                   {"kind": "item", "id": "top_speed_kmh"}]
    said = flow.play()
    assert flow.history[0] == Play("K12", "top_speed_kmh") and flow.predictions[0].p == Fraction(29, 50)
    assert flow.paused and said.text.startswith("You lost this turn") and "Cheetah (112 km/h)" in said.spoken
    assert records == [{"chance": Fraction(29, 50), "outcome": 0, "best": Fraction(29, 50), "item": "top_speed_kmh"}]
    assert flow.refresh() == "finished" and flow.best is None
    words = flow.finished_turn()
    assert words["message"].endswith("Press Next turn.") and words["round_end"] is None
    assert "This turn is over: press Next turn." == _refused(flow, lambda: flow.pick({"kind": "card",
                                                                                       "id": "K12"})).text
    assert "safari-ko-result" in flow.result_html() and "You lost: Player 2's Cheetah (112 km/h)" in flow.result_html()
    said = flow.next_turn()
    assert not flow.paused and said is not None and flow.next_turn() is None


def test_play_to_end_of_round_pauses_on_the_round_and_records_nothing():
    flow, records = _flow(seed=3)
    said = flow.end_round()
    assert flow.round_over == 1 and flow.paused and said.text.startswith("Round 1 is over.")
    assert said.spoken.endswith("Press Next round to start round 2.")
    w = flow.finished_turn()
    before, after = w["round_end"]
    assert before.round == 1 and after.round == 2 and w["busy_words"].startswith("Round 1 is over")
    assert records == [] and all(p.auto for p in flow.predictions)  # the lab's plays, not the learner's
    assert "safari-ko-round-over" in flow.result_html()
    flow.next_turn()
    assert flow.round_over is None and flow.state.round == 2


def test_a_whole_game_to_the_end():
    flow, records = _flow(seed=7)
    for _ in range(200):
        if flow.state.is_terminal():
            break
        if flow.paused:
            flow.next_turn()
        elif flow.my_turn():
            flow.refresh()
            flow.pick({"kind": "card", "id": flow.best.action.card})
            if flow.best.leading:
                flow.pick({"kind": "item", "id": flow.best.action.item})
            assert flow.play().kind == "info"
        else:
            flow.end_round()
    assert flow.state.is_terminal() and flow.status_text().startswith("Game over")
    assert _refused(flow, flow.end_round).text == "The game is over: press New game to play again."
    settled = [p for p in flow.predictions if not p.auto]
    assert len(records) == len(settled) > 0 and all(p.won is not None for p in settled)
    assert "safari-game-over" in flow.log_html() or "Turn log" in flow.log_html()
