"""The Full game lab's flow without widgets (issue 28): seats and bots, the bots' turns before a learner's, the
hot-seat passes, clicks that become actions, refusals that change nothing, the pauses (a bot's failure, TOM), and
what Save and Load refuse.

Nothing here imports ipywidgets: :mod:`safari_kit.presentation.fullgame_flow` is the lab's state machine,
:mod:`~safari_kit.presentation.fullgame_text` its words, :mod:`~safari_kit.presentation.fullgame_records` its
records (the lab, ``safari_kit.widgets.labs.fullgame``, is the layout; its tests are in tests/widgets/).
"""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

from safari_kit.core.errors import SafariKitError
from safari_kit.presentation import fullgame_records as R
from safari_kit.presentation import fullgame_text as T
from safari_kit.presentation.fullgame_flow import FullGameFlow, parse_humans
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A


def test_the_flow_and_its_words_import_no_widget_package():
    code = ("import sys\nimport safari_kit.presentation.fullgame_flow, safari_kit.presentation.fullgame_text, "
            "safari_kit.presentation.fullgame_records\n"
            "print([m for m in ('ipywidgets', 'anywidget', 'IPython', 'traitlets') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def _flow(seed=3, players=3, humans=(0,), bots="greedy", **options) -> tuple[FullGameFlow, object]:
    game = WitnessGame(players=players, **options)
    flow = FullGameFlow()
    flow.start(game, game.new_initial_state(seed=seed), humans, bots)
    return flow, flow.advance(opening=True)


def test_learner_seats_outside_the_table_are_refused_naming_the_range():
    assert parse_humans("2, 0,2", 3) == (0, 2) and parse_humans([1], 2) == (1,)
    with pytest.raises(ValueError, match=r"learner seats must be between 0 and 2, got \[5\]"):
        parse_humans("0,5", 3)


@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_bots_play_their_turns_before_the_learners_and_the_game_opens_on_the_learners_table(first):
    flow, screen = _flow(first_player=first)
    assert screen.kind == "table" and screen.seat == flow.viewer == 0 == flow.state.current_player
    assert flow.pause is None and set(flow.bot_specs) == {1, 2}
    assert (screen.message is not None) == (first != 0)  # "The other players went first" only when they did
    assert bool(flow.bot_log) == (first != 0)


def test_hot_seat_the_pass_screen_shows_nobody_until_the_right_learner_presses():
    flow, screen = _flow(players=2, humans=(0, 1))
    assert screen.kind == "pass" and flow.viewer is None and flow.waiting_for == screen.seat
    seat = screen.seat
    assert flow.confirm(1 - seat) == "refused" and flow.viewer is None and flow.passes == []
    assert flow.confirm(seat) == "open" and flow.viewer == seat and flow.waiting_for is None
    assert flow.confirm() == "repeat" and [p["repeat"] for p in flow.passes] == [False, True]
    assert flow.touched and "Device passes" in T.passes_html(flow)
    # the learner finishes the turn: the next learner's turn opens on a pass screen again
    while flow.state.current_player == seat and not flow.state.is_terminal():
        flow.act(flow.state.legal_actions()[0])
    screen = flow.advance()
    if screen.kind == "pass":
        assert flow.viewer is None and screen.seat == 1 - seat


def test_a_press_while_no_pass_screen_waits_changes_nothing():
    for seed in range(20):  # play on to a bot's failure
        flow, screen = _flow(seed=seed, players=3, humans=(0, 2))
        while screen.kind != "bot_failed" and not flow.state.is_terminal():
            if screen.kind == "pass":
                flow.confirm(screen.seat)
            flow.act(flow.state.legal_actions()[-1])
            screen = flow.advance()
        if screen.kind == "bot_failed":
            break
    assert screen.kind == "bot_failed" and flow.pause == "bot_failed"
    before, viewer = flow.state.full_view(), flow.viewer
    assert flow.confirm() == "ignored" and flow.viewer == viewer and flow.state.full_view() == before


def test_an_illegal_click_or_action_leaves_the_game_as_it_was():
    flow, _ = _flow()
    before = flow.state.full_view()
    done = flow.act(A.RevealNext(99))
    assert done.refused and done.refused.endswith(".") and flow.state.full_view() == before
    assert flow.click({"kind": "place", "id": 0}).kind in ("ignore", "render")  # no declaration picked yet
    assert flow.state.full_view() == before


def _target(flow: FullGameFlow, kind: str, prefix: str = "") -> dict:
    return next(t for t in flow.targets()[0] if t["kind"] == kind and str(t["id"]).startswith(prefix))


def test_a_declaration_by_clicks_picks_a_clue_a_type_then_a_place():
    flow, _ = _flow()
    click = flow.click(_target(flow, "button", "identify"))
    assert click.kind == "act" and flow.act(click.action).refused is None and flow.state.phase == "identify"
    flow.pick["clue"] = None
    assert flow.click({"kind": "place", "id": 0}).message == "Pick a clue card first."
    assert flow.click(_target(flow, "clue")).kind == "render" and flow.pick["clue"] is not None
    if flow.pick["types"] is None:
        assert flow.click({"kind": "place", "id": 0}).message.startswith("Pick a clue type first")
    assert "Declaring" in T.picked_html(flow)
    assert flow.click(_target(flow, "button", "type:")).message.startswith("Clue type")
    before = flow.state.full_view()
    click = flow.click(_target(flow, "place"))
    assert click.kind == "act" and type(click.action) is A.Declare and flow.state.full_view() == before


def _play(flow: FullGameFlow, rng: random.Random, limit: int = 3000) -> dict:
    """The learners' seats played by the flow, their actions chosen by a best-chance bot (TOM whenever it can)."""
    from safari_kit.core.chance import Chance
    from safari_kit.simulation.registry import make_bot

    chooser = {}
    for h in flow.humans:
        chooser[h] = make_bot("witness", "greedy")
        chooser[h].start(flow.game, h, Chance(rng.randrange(10**6)).generator("learner", h))
    seen = {"bot_failed": 0, "tom": 0, "pass": 0}
    screen = flow.advance(opening=True)
    for _ in range(limit):
        if flow.state.is_terminal():
            break
        if screen.kind == "bot_failed":
            seen["bot_failed"] += 1
            assert flow.pause == "bot_failed" and flow.state.phase == "face_up"
            text, _ = flow.bot_failure()
            assert text.endswith("Remember them, then press Next turn.")
            assert flow.click({"kind": "button", "id": "go_on"}).kind == "go_on"
            flow.go_on()
            screen = flow.advance()
            continue
        if screen.kind == "pass":
            seen["pass"] += 1
            assert flow.confirm(screen.seat) == "open"
        legal = flow.state.legal_actions()
        toms = [a for a in legal if type(a) is A.UseTom]
        bot = chooser[flow.state.current_player]
        obs = flow.state.observation(flow.state.current_player) if bot.needs_observation else None
        done = flow.act(rng.choice(toms) if toms else bot.choose(obs, flow.state.legal_sequence()))
        assert done.refused is None
        if done.tom is not None:
            seen["tom"] += 1
            assert flow.pause == "tom" and done.tom.startswith("TOM: only you see this.")
            assert "your TOM looks" in T.tom_html(flow)
            flow.go_on()
        screen = flow.advance()
    return seen


def test_whole_games_by_the_flow_pause_on_bot_failures_and_tom_and_end():
    totals = {"bot_failed": 0, "tom": 0, "pass": 0}
    # three games with a bot (its failures pause the table), one of two learners where a TOM is won and used
    for seed, players in ((0, 3), (1, 3), (2, 3), (5, 2)):
        flow, _ = _flow(seed=seed, players=players, humans=(0, 1), advanced=True)
        seen = _play(flow, random.Random(seed))
        assert flow.state.is_terminal()
        page, said = T.over_html(flow)
        assert "Game over" in page and said.startswith("Game over after")
        totals = {k: totals[k] + seen[k] for k in totals}
    assert totals["bot_failed"] and totals["pass"] and totals["tom"], totals


def test_records_refuse_a_bad_name_and_in_fair_mode_a_record_that_does_not_replay():
    flow, _ = _flow()
    with pytest.raises(SafariKitError):
        R.save_text(flow.state, "../escape", fair=False)
    text, fname = R.save_text(flow.state, None, fair=False)
    assert fname is None and R.load_state(text, fair=False).full_view() == flow.state.full_view()
    broken = text.replace('"seed"', '"seeds"', 1)
    with pytest.raises(SafariKitError, match="not a Safari Witness game record that replays here"):
        R.load_state(broken, fair=True)
