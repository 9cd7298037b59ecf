"""RulesTutorial driven through its whole flow with the handlers a click calls.

Next / Back / Restart, repeated and out-of-range clicks; the table always shows
the engine's state replayed from the script, and nothing hidden from the
learner's seat reaches the page or the lab's HTML.
"""
from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("anywidget")

from safari_kit.teaching import tutorials as T  # noqa: E402
from safari_kit.widgets.labs.tutorial import RulesTutorial  # noqa: E402

GAMES = ("witness", "knockout")


def page_text(lab) -> str:
    """What the page receives: the table's synced state and every HTML widget of the lab."""
    table = {k: v for k, v in lab.table.get_state().items() if k not in ("_esm", "_css")}
    htmls = [lab.explanation.value, lab.facts.value, lab.revealed.value, lab.step_title.value,
             lab.counter.value, lab.intro.value, lab.status.value, lab.header.value]
    return json.dumps(table, default=str) + "\n".join(htmls)


def hidden_cards(lab) -> set[str]:
    """Card ids the learner's seat may not see in the state shown now."""
    state = lab.state
    obs = state.observation(lab.viewer)
    if lab.game_name == "witness":
        return {c.id for c in state.game.cards} - obs.card_ids()
    d = obs.to_dict()
    seen = set(d["hand"]) | {c for _, c in d["trick"]} | {c for t in d["turns"] for _, c in t["plays"]}
    return set(state.game.card_ids) - seen


def card_words(state, cid) -> list[str]:
    if hasattr(state, "log"):
        c = state.game.cards[state.game.index[cid]]
        return [cid, f"the {c.color} {c.animal} ({c.texture}"]
    return [cid]


def assert_no_leak(lab):
    text = page_text(lab)
    for cid in hidden_cards(lab):
        for w in card_words(lab.state, cid):
            assert not re.search(rf"\b{re.escape(w)}", text), (lab.game_name, lab.step, cid)
    if lab.game_name == "knockout":  # other hands: never as cards in the view
        view = lab.table.view
        assert set(view["cards"]) <= set(lab.state.hand(lab.viewer)) | {
            c for t in lab.state.completed_turns for _, c in t["plays"]} | {c for _, c in lab.state.trick}


@pytest.mark.parametrize("game", GAMES)
def test_whole_flow_next_back_restart(game):
    lab = RulesTutorial(game)
    script = T.script(game)
    states = script.states()
    assert lab.step == 0 and lab.steps == len(script.steps)
    assert "Step 1 of" in lab.counter.value and lab.back_button.disabled
    for k in range(lab.steps):
        assert lab.step == k
        assert lab.state == states[k]  # the engine's replay of the script
        assert lab.table.state is lab.state and lab.table.view["game"] == game
        assert lab.table.selectable == []  # nothing to click on the table: the script plays
        assert f"Step {k + 1} of {lab.steps}" in lab.counter.value
        for code in script.steps[k].rulings:
            assert code in lab.explanation.value and T.rules_link(code) in lab.explanation.value
        assert_no_leak(lab)
        lab.next_button.click()
    assert lab.step == lab.steps - 1 and lab.next_button.disabled
    lab.next_button.click()  # repeated clicks past the end
    lab.next_button.click()
    assert lab.step == lab.steps - 1 and "last step" in lab.status.value
    for k in range(lab.steps - 1, 0, -1):
        lab.back_button.click()
        assert lab.step == k - 1 and lab.state == states[k - 1]
    lab.back_button.click()  # before the first step
    assert lab.step == 0 and "first step" in lab.status.value
    lab.next_button.click()
    lab.next_button.click()
    lab.reset_button.click()  # Restart
    assert lab.step == 0 and lab.state == states[0] and lab.reset_button.description == "Restart"
    lab.go(99)
    lab.go(-1)
    assert lab.step == 0
    assert lab.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_table_clicks_change_nothing(game):
    lab = RulesTutorial(game)
    lab.go(2)
    before = lab.state.clone()
    lab.table.click = {"kind": "place", "id": 1, "seq": 1}
    lab.table.click = {"kind": "card", "id": "K01", "seq": 2}
    lab.table.click = {"kind": "button", "id": "identify", "seq": 2}  # a repeated message
    assert lab.state == before and lab.step == 2 and lab.errors == []
    assert lab.table.last_error is None


def test_witness_failed_turn_shows_the_cards_everybody_saw():
    lab = RulesTutorial("witness")
    lab.go(T.witness_script().index("declare-fail"))
    for cid in ("W33", "W53", "W38", "W66"):
        assert cid in lab.revealed.value
    marked = {m["id"] for m in lab.table.highlight}
    assert {2, 3, 6, 7} <= marked
    assert "everybody" in lab.revealed.value
    lab.go(T.witness_script().index("tom"))
    assert "W44" in lab.revealed.value and "you only" in lab.revealed.value
    assert lab.errors == []


def test_witness_from_the_other_seat_never_shows_the_tom_look():
    lab = RulesTutorial("witness", viewer=1)
    lab.go(T.witness_script().index("tom"))
    assert "W44" not in lab.revealed.value and "W44" not in json.dumps(lab.table.get_state(), default=str)
    assert lab.errors == []


def test_knockout_marks_the_card_that_won_the_tie():
    lab = RulesTutorial("knockout")
    lab.go(T.knockout_script().index("tie-won"))
    assert lab.table.highlight[0]["id"] == "K08"
    assert "Player 0: 1" in lab.facts.value
    lab.go(T.knockout_script().index("elimination"))
    assert "Out: Player 2" in lab.facts.value
    assert lab.errors == []


def test_facts_are_read_from_the_engine():
    lab = RulesTutorial("witness")
    lab.go(lab.steps - 1)
    final = lab.state
    assert f"Deck: {len(final.deck)} cards" in lab.facts.value
    assert f"Player 0: {len(final.archives[0])}" in lab.facts.value
    assert "deck ran out" in lab.facts.value
