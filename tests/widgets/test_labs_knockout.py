"""KnockoutLab driven from Python through whole games with the handlers a click calls.

``lab.table.click = {...}`` is what the page sends on a click; buttons are
pressed with ``.click()``; the checkbox is set. Checked: no error ever lands in
``lab.errors``, the lab's state equals the engine replaying its history, the
chances shown are the probability module's, and no card the learner has not
seen reaches any synced widget state.
"""
from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("anywidget")

from safari_kit.knockout import KnockoutGame  # noqa: E402
from safari_kit.probability.knockout import best_play, p_win_following, p_win_leading, view_of  # noqa: E402
from safari_kit.widgets.labs.knockout import KnockoutLab, chance_html  # noqa: E402

KID = re.compile(r"\bK\d{2}\b")


class Clicker:
    def __init__(self, lab):
        self.lab, self.seq = lab, 0

    def __call__(self, kind, id_, seq=None):
        self.seq += 1
        self.lab.table.click = {"kind": kind, "id": id_, "seq": self.seq if seq is None else seq}


def replayed(lab):
    state = KnockoutGame(players=lab.players, elimination=lab.game.elimination).new_initial_state(seed=lab.seed)
    for action in lab.history:
        state.apply(action)
    return state


def page_text(lab) -> str:
    table = {k: v for k, v in lab.table.get_state().items() if k not in ("_esm", "_css")}
    widgets = [lab.prob.value, lab.log.value, lab.tally.value, lab.status.value]
    return json.dumps(table, default=str) + "\n".join(widgets)


def assert_no_leak(lab):
    obs = lab.state.observation(lab.learner)
    public = set(obs.hand) | {c for _, c in obs.trick} | {c for _, _, plays, _ in obs.turns for _, c in plays}
    text = page_text(lab)
    shown = set(KID.findall(text))
    assert shown <= public, f"cards the learner never saw reached the page: {sorted(shown - public)}"
    names = {lab.game.by_id[c].name for c in public}
    for seat, hand in enumerate(lab.state.hands):
        if seat == lab.learner:
            continue
        for cid in hand:
            name = lab.game.by_id[cid].name
            if cid not in public and not any(name in n for n in names):
                assert name not in text, f"{name} ({cid}) of player {seat}'s hand reached the page"


def assert_panel_matches_module(lab):
    obs = lab.state.observation(lab.learner)
    view = view_of(obs)
    best = best_play(lab.game, view)
    assert lab.best is not None
    assert lab.best.action == best.action
    panel = lab.prob.value
    assert f"data-best-card='{best.action.card}'" in panel
    assert f"data-best-item='{best.action.item or ''}'" in panel
    for row in lab.best.rows():
        if view.leading:
            p = p_win_leading(lab.game, view, row["card"], row["item"])
        else:
            p = p_win_following(lab.game, view, row["card"])
        assert row["p"] == p.value
        assert chance_html(p.value) in panel
    assert {r["card"] for r in lab.best.rows()} == set(obs.hand)


def play_whole_game(lab, rng, best_share=0.5):
    click = Clicker(lab)
    decisions = 0
    while not lab.state.is_terminal():
        if lab.learner in lab.state.out:
            before = lab.state.round
            lab.end_round_button.click()
            assert lab.state.is_terminal() or lab.state.round == before + 1
            continue
        assert lab.state.current_player == lab.learner, "the bots stop at the learner's turn"
        assert_panel_matches_module(lab)
        assert_no_leak(lab)
        obs = lab.state.observation(lab.learner)
        best = lab.best
        if rng.random() < best_share:
            card, item = best.action.card, best.action.item
        else:
            card = rng.choice(obs.hand)
            item = rng.choice(lab.game.items) if not obs.trick else None
        n = len(lab.history)
        # wrong clicks first: a card of nobody's hand we know, an item while following, a repeated click
        hidden = next(c for c in lab.game.card_ids if c not in obs.hand)
        click("card", hidden)
        assert len(lab.history) == n and "not" in lab.table.message.lower()
        if obs.trick:
            click("item", "weight_kg")
            assert len(lab.history) == n
            click("card", card)
        else:
            if rng.random() < 0.5:
                click("item", item)
                assert len(lab.history) == n
                click("card", card, seq=click.seq)          # a repeated message: ignored
                assert len(lab.history) == n
                click("card", card)
            else:
                other = next(c for c in obs.hand if c != card) if len(obs.hand) > 1 else card
                click("card", other)                         # change of mind
                click("card", card)
                assert len(lab.history) == n
                assert {"kind": "card", "id": card} in [{k: t[k] for k in ("kind", "id")} for t in lab.table.highlight]
                click("item", item)
        assert len(lab.history) > n, "the learner's play went through"
        assert lab.history[n].card == card and lab.history[n].item == item
        assert lab.predictions[-1].card == card
        decisions += 1
    return decisions


def test_whole_game_by_clicks_matches_engine_and_module():
    lab = KnockoutLab(seed=3)
    decisions = play_whole_game(lab, random.Random(0))
    assert decisions == 28                              # 7 + 6 + ... + 1 turns, one card each
    assert lab.errors == []
    assert lab.state == replayed(lab)
    assert all(p.won is not None for p in lab.predictions)
    assert sum(p.won for p in lab.predictions) == lab.state.scores()[lab.learner]
    assert "safari-game-over" in lab.log.value and "data-phase='over'" in lab.prob.value
    assert_no_leak(lab)
    # clicks after the end: refused by the table, nothing changes, no error
    n = len(lab.history)
    Clicker(lab)("card", lab.game.card_ids[0], seq=10_000)
    lab._on_table_click({"kind": "card", "id": lab.game.card_ids[0]})
    lab.end_round_button.click()
    assert len(lab.history) == n and lab.errors == []


def test_elimination_other_seat_and_bots():
    lab = KnockoutLab(seed=5, players=5, learner=2, bot="random", elimination=True)
    assert lab.state.current_player == 2 and len(lab.history) == 2   # seats 0 and 1 played first
    play_whole_game(lab, random.Random(1), best_share=0.2)
    assert lab.errors == []
    assert lab.state == replayed(lab)
    assert lab.game.elimination and lab.state.out
    assert "Out now" in lab.log.value


def test_play_to_end_of_round_checkbox_and_new_game():
    lab = KnockoutLab(seed=1)
    lab.end_round_button.click()                          # round 1 played with the best options
    assert lab.state.round == 2 and lab.state.current_player == lab.learner
    assert len(lab.predictions) == 7 and all(p.auto and p.p == p.best_p for p in lab.predictions)
    assert "End of round 1" in lab.log.value
    lab.elimination_box.value = True                      # Variation 1: a fresh game, same seed
    assert lab.game.elimination and lab.state.round == 1 and lab.history == () and lab.seed == 1
    rounds = 0
    while not lab.state.is_terminal():
        lab.end_round_button.click()
        lab.end_round_button.click()                      # pressed twice: still one round each time at most
        rounds += 1
        assert_no_leak(lab)
        assert rounds <= 7
    assert lab.state == replayed(lab) and lab.errors == []
    lab.new_game_button.click()
    assert lab.seed == 2 and lab.history == () and not lab.state.is_terminal()
    lab.reset_button.click()
    assert lab.seed == 2 and lab.errors == []


def test_learner_out_waits_for_the_button():
    # find a game where the learner is out before the end (greedy play for the learner)
    for seed in range(1, 30):
        lab = KnockoutLab(seed=seed, elimination=True)
        while not lab.state.is_terminal() and lab.learner not in lab.state.out:
            lab.end_round_button.click()
        if not lab.state.is_terminal():
            break
    else:
        pytest.skip("no seed put the learner out early")
    n = len(lab.history)
    lab._advance()
    assert len(lab.history) == n, "nothing is played while the learner is out until the button is pressed"
    assert "data-phase='wait'" in lab.prob.value and "out" in lab.status.value
    r = lab.state.round
    lab.end_round_button.click()
    assert lab.state.is_terminal() or lab.state.round == r + 1
    assert lab.errors == []


def test_bad_arguments():
    with pytest.raises(ValueError):
        KnockoutLab(players=4, learner=4)
    from safari_kit.simulation.registry import BotSpecError

    with pytest.raises(BotSpecError):
        KnockoutLab(bot="memory:0.5")
