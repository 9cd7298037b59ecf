"""Knockout's pause on "Round 1 is over" shows the round that ended (issue 27, part E2).

Before this, the pause said "Round 1 is over" beside a table that already showed round 2: the learner's new
hand of 6 cards, the chip "Round 2 of 7", no turn of round 1, round 2's dealer and lead. Now, until Next round,
the table is round 1 as it ended: its chip, its 7 turns with their winners, the last turn's cards where they were
played, each seat's points and turns won, an empty hand; then Next round draws round 2. Nothing of round 2 that
the learner may not know yet reaches the page during the pause: no card of any round-2 hand (the learner's own
included) that was not played in round 1 is in any synced state of the lab's widgets.
"""
from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("anywidget")

from tests.widgets.test_knockout_round_over import play_round_one  # noqa: E402

from safari_kit.widgets.labs.knockout import KnockoutLab  # noqa: E402


def synced(widget, seen=None) -> list[dict]:
    """The synced state of ``widget`` and every widget under it (what the page receives)."""
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return []
    seen.add(id(widget))
    out = [{k: v for k, v in widget.get_state().items() if k not in ("_esm", "_css")}]  # (the table's code)
    for name in ("children", "layout"):
        value = getattr(widget, name, None)
        for child in value if isinstance(value, (tuple, list)) else [value]:
            if hasattr(child, "get_state"):
                out += synced(child, seen)
    return out


def assert_table_shows_round_one(lab: KnockoutLab) -> None:
    s, view = lab.state, lab.table.view
    assert lab.round_over == 1 and s.round == 2 and not s.trick
    turns = [t for t in s.completed_turns if t["round"] == 1]
    # round 1's chip, its turns and the last turn's cards on the table
    assert view["round"] == 1, view["round"]
    assert [(t["item"], [[p["player"], p["card"]] for p in t["plays"]], t["winner"])
            for t in view["turns_this_round"]] == [(t["item"], t["plays"], t["winner"]) for t in turns]
    assert [[p["player"], p["card"]] for p in view["trick"]] == turns[-1]["plays"]
    assert view["item"] == turns[-1]["item"] and view["earlier_rounds"] == []
    # each seat as round 1 ended: every card played, its points and turns won, round 1's dealer
    wins = [sum(t["winner"] == seat for t in turns) for seat in range(lab.players)]
    assert [p["round_wins"] for p in view["seats"]] == wins
    assert [p["score"] for p in view["seats"]] == s.scores() == view["scores"]
    assert [p["hand_size"] for p in view["seats"]] == [0] * lab.players
    assert [p["player"] for p in view["seats"] if p["dealer"]] == [lab.game.first_dealer]
    assert not any(p["to_play"] for p in view["seats"]) and not view["my_turn"]
    assert view["out"] == sorted(s.out) and view["you_are_out"] == (0 in s.out)
    # the learner's hand as round 1 ended: empty (round 2's hand waits for Next round)
    assert view["hand"] == []
    assert "Round 1 is over" in view["phase_words"] and lab.table.selectable == []
    # nothing of round 2 the learner may not know: no card of a round-2 hand that round 1 did not show
    public = {c for t in turns for _, c in t["plays"]}
    secret = {c for hand in s.hands for c in hand} - public
    assert len(secret) >= 6, secret  # round 2 dealt 6 cards a seat: most of them were not played in round 1
    assert set(view["cards"]) <= public
    page = json.dumps(synced(lab.layout), default=str)
    leaked = [c for c in secret if re.search(rf"\b{c}\b", page)
              or re.search(rf"{re.escape(lab.game.by_id[c].name)}(?! Tortoise)", page)]
    assert leaked == [], [(c, lab.game.by_id[c].name) for c in leaked]


def assert_next_round_draws_round_two(lab: KnockoutLab) -> None:
    lab.next_button.click()
    view = lab.table.view
    assert lab.errors == [] and lab.round_over is None
    assert view["round"] == 2 and view["hand"] == list(lab.state.hand(0))
    if 0 not in lab.state.out:
        assert view["hand"] and lab._my_turn()


@pytest.mark.parametrize("seed", [1, 3])
def test_the_last_play_of_round_one_leaves_round_one_on_the_table(seed):
    lab = KnockoutLab(seed=seed)
    play_round_one(lab)
    assert_table_shows_round_one(lab)
    assert_next_round_draws_round_two(lab)


@pytest.mark.parametrize("seed", [1, 7])
def test_play_to_end_of_round_leaves_round_one_on_the_table(seed):
    lab = KnockoutLab(seed=seed)
    lab.end_round_button.click()
    assert_table_shows_round_one(lab)
    assert_next_round_draws_round_two(lab)


@pytest.mark.parametrize("seed, worst", [(20, False), (1, True)])
def test_variation_1_round_one_on_the_table_with_who_goes_out(seed, worst):
    """Seed 20: Player 2 goes out; seed 1 played badly: the learner goes out (its hand stays empty after)."""
    lab = KnockoutLab(seed=seed, elimination=True)
    play_round_one(lab, worst=worst)
    assert lab.state.out
    assert_table_shows_round_one(lab)
    assert [p["player"] for p in lab.table.view["seats"] if p["out"]] == list(lab.state.out)
    assert_next_round_draws_round_two(lab)


def test_a_later_round_too():
    """Round 2's end: the chip says round 2, only round 2's turns are listed, round 1 is a count."""
    lab = KnockoutLab(seed=3)
    lab.end_round_button.click()
    lab.next_button.click()
    lab.end_round_button.click()
    view = lab.table.view
    assert lab.round_over == 2 and view["round"] == 2 and view["hand"] == []
    assert len(view["turns_this_round"]) == 6 and [r["round"] for r in view["earlier_rounds"]] == [1]
    lab.next_button.click()
    assert lab.table.view["round"] == 3 and len(lab.table.view["hand"]) == 5
