"""Simulation lab and Full game lab, driven from Python through the same handlers a click calls."""
from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("anywidget")
pytest.importorskip("matplotlib")

from safari_kit.probability import cases as PC  # noqa: E402
from safari_kit.probability import witness as PW  # noqa: E402
from safari_kit.widgets.labs.fullgame import FullGameLab  # noqa: E402
from safari_kit.widgets.labs.simulation import SimulationLab, questions  # noqa: E402
from safari_kit.witness import WitnessGame  # noqa: E402
from safari_kit.witness import actions as A  # noqa: E402
from safari_kit.witness.cases import CASE_BY_KEY  # noqa: E402

CARD_ID = re.compile(r"\bW\d{2}\b")


# ----------------------------------------------------------------------------- Simulation lab
@pytest.fixture(scope="module")
def sim():
    return SimulationLab(seed=1)


def test_simulation_default_state(sim):
    assert sim.errors == []
    r = sim.results
    q = questions(1)["identify-animal"]
    assert r["exact"] == q.exact
    from safari_kit.widgets.labs.simulation_draws import _witness_start

    game, state, kn = _witness_start(1)
    assert r["exact"] == PW.p_match(kn, kn.clue[0], kn.available[0], ("animal",))
    assert r["estimate"].n == 1000 and r["estimate"].within(r["exact"])
    assert sim.coverage["total"] == 100 and 80 <= sim.coverage["covered"] <= 100
    assert sim.tournament_result is not None and abs(sim.tournament_result.win_rates.sum() - 1) < 1e-9
    assert set(sim.figures) == {"convergence", "coverage", "tournament"}
    assert str(q.exact.numerator) in sim.summary.value


def test_simulation_every_question_converges_and_is_reproducible(sim):
    for key, q in questions(1).items():
        sim.question_box.value = key
        r = sim.run(10_000)
        assert r["question"] == key and r["estimate"].n == 10_000
        assert r["estimate"].within(q.exact, k=4), (key, r["estimate"], q.exact)
        mid = min(r["estimates"], key=lambda e: abs(e.n - 1000))
        assert 2 < mid.se / r["estimate"].se < 4.5  # about sqrt(10): SE ~ 1/sqrt(n)
        first = r["estimate"].successes
        again = sim.run(10_000)  # a new press: fresh trials (test_labs_simulation.py: reproducible ones)
        assert again["run"] == r["run"] + 1 and again["estimate"].successes != first
    assert sim.question_box.value == "knockout-lead"
    exact_case = PC.p_complete_set("color", [], list(WitnessGame().cards), 10)
    assert questions(1)["case-colors"].exact == exact_case
    assert sim.errors == []


def test_simulation_wrong_inputs_are_reported_not_raised(sim):
    sim.run(12345)  # not a slider choice
    assert sim.errors and "trials must be one of" in sim.errors[-1]
    sim.errors.clear()
    sim.run_button.click()
    sim.run_button.click()  # repeated click
    sim.cov_method.value = "wilson"
    sim.cov_button.click()
    assert sim.coverage["method"] == "wilson"
    sim.reset(2)
    assert sim.seed == 2 and sim.errors == []


def test_simulation_tournament_tab(sim):
    sim.game_box.value = "witness"
    assert [b.options for b in sim.seat_boxes.children][0][0] == ("Bot that plays at random", "random")
    sim.players_slider.value = 2
    sim.seat_boxes.children[0].value = "greedy"
    sim.seat_boxes.children[1].value = "memory:0.5"
    sim.games_slider.value = 10
    sim.tour_button.click()
    res = sim.tournament_result
    assert res.config["game"] == "witness" and res.config["games"] == 10
    assert list(res.config["bots"]) == ["greedy", "memory:0.5"]
    assert sim.progress.bar.value == 10 and sim.progress.bar.max == 10
    again = sim.run_tournament()  # a new press: fresh games (test_simulation_tournament_runs.py: reproducible ones)
    assert sim.tournament_run == 2 and again.games["seed"].tolist() != res.games["seed"].tolist()
    sim.run_tournament(game="knockout", bots="greedy,random,highcard", games=20)
    assert sim.tournament_result.config["players"] == 3
    assert sim.errors == []


# ----------------------------------------------------------------------------- Full game lab: driver
def _spot_click(spot: str):
    return ("place", int(spot[1:])) if spot[0] == "U" else ("archive", spot)


def clicks_for(lab, action) -> list:
    """The clicks a learner makes for one engine action."""
    if isinstance(action, A.Identify):
        return [("button", "identify")]
    if isinstance(action, A.RevealAnother):
        return [("button", "reveal_another")]
    if isinstance(action, A.Challenge):
        return [("button", "challenge")]
    if isinstance(action, A.StopChallenge):
        return [("button", "stop")]
    if isinstance(action, A.EndTurn):
        return [("button", "end_turn")]
    if isinstance(action, A.AlanDone):
        return [("button", "alan_done")]
    if isinstance(action, A.UseAlan):
        return [("button", "use:ALAN")]
    if isinstance(action, A.Declare):
        return [("clue", action.clue), ("button", "type:" + "+".join(action.types)), ("place", action.place)]
    if isinstance(action, A.RevealNext):
        return [("place", action.place)]
    if isinstance(action, A.ArchiveCard):
        return [("card", action.card)]
    if isinstance(action, A.TurnFaceDown):
        return [("button", "face_down")]
    if isinstance(action, A.AlanTake):
        return [("card", action.card)]
    if isinstance(action, A.UseTom):
        return [("button", "use:TOM"), ("place", action.place)]
    if isinstance(action, A.UseSam):
        return [("button", "use:SAM"), ("place", action.second), ("place", action.first)]
    if isinstance(action, A.UseTam):
        return [("button", "use:TAM"), _spot_click(action.second), _spot_click(action.first)]
    if isinstance(action, A.UseKim):
        return [("button", "use:KIM"), ("card", action.card)]
    if isinstance(action, A.UseKris):
        return [("button", "use:KRIS"), ("kris", action.element), ("place", action.place)]
    raise AssertionError(action)


def page_text(lab) -> str:
    parts = [lab.events.value, lab.private.value, lab.picked.value, lab.over.value, lab.status.value,
             lab.pass_label.value]
    if lab.table is not None:
        state = {k: v for k, v in lab.table.get_state().items() if k not in ("_esm", "_css")}
        parts.append(json.dumps(state, default=str))
    return "\n".join(parts)


def assert_no_leak(lab):
    """Everything on screen is in the viewer's observation; other players' Case Cards stay hidden."""
    text = page_text(lab)
    if lab.viewer is None:
        assert lab.table is None and not CARD_ID.search(lab.events.value + lab.private.value)
        return
    obs = lab.state.observation(lab.viewer)
    allowed = obs.card_ids()
    leaked = set(CARD_ID.findall(text)) - allowed
    assert not leaked, f"cards the viewer never saw are on screen: {leaked}"
    if lab.state.case_cards is not None and not lab.state.is_terminal():
        for p, key in enumerate(lab.state.case_cards):
            if p != lab.viewer:
                assert CASE_BY_KEY[key].text not in text and f'"{key}"' not in text


def play_by_clicks(lab, rng, max_actions=4000, wrong_every=7, prefer_abilities=True):
    """Play the learners' seats by clicks until the game ends; returns how many learner actions were made."""
    done = 0
    lab.pauses = {"bot_failed": 0, "tom": 0, "own_failure": 0}
    while not lab.state.is_terminal() and done < max_actions:
        assert lab.errors == [], lab.errors
        assert_no_leak(lab)
        if lab._pause is not None:
            lab.pauses[lab._pause] += 1
            if lab._pause == "bot_failed":  # W4/W5: the bot's revealed cards lie face up on the learner's table
                assert lab.state.phase == "face_up" and lab.state.current_player not in lab.humans
                full = {p: cid for p, cid, up in lab.state.full_view()["unidentified"] if up}
                if lab.table is not None:
                    on_table = {p["place"]: p["card"] for p in lab.table.view["places"] if p["face_up"]}
                    assert on_table == full and lab.table.view["remember"]
                else:
                    assert all(lab._face(cid) in lab.pass_label.value for cid in full.values())
            else:  # W10 TOM: the look is on the looker's screen at once
                assert "only you see this" in lab.table.message and "TOM looks" in lab.private.value
            lab.go_on()
            continue
        if lab.state.phase == "face_up":
            lab.pauses["own_failure"] += 1
            assert lab.table.view["remember"] and lab.table.view["my_turn"]
        if lab.viewer != lab.state.current_player:
            assert lab.table is None  # the pass screen hides the table
            lab.confirm_button.click()
            lab.confirm_button.click()  # a repeated press changes nothing
            assert lab.viewer == lab.state.current_player
            assert_no_leak(lab)
        legal = lab.state.legal_actions()
        uses = [a for a in legal if type(a).__name__.startswith("Use")]
        action = rng.choice(uses) if (prefer_abilities and uses and rng.random() < 0.8) else rng.choice(legal)
        if lab.state.phase == "abilities" and rng.random() < 0.25:
            action = A.EndTurn()
        if uses and prefer_abilities:  # every kind of ability equally often, whatever its number of targets
            kinds = sorted({type(a).__name__ for a in uses})
            kind = rng.choice(kinds)
            action = rng.choice([a for a in uses if type(a).__name__ == kind]) if rng.random() < 0.75 else action
        if isinstance(action, A.Declare) and rng.random() < 0.8:
            # the test driver peeks (a learner cannot): succeed often, by name when possible, to earn abilities
            st, g = lab.state, lab.state.game
            wins = [a for a in legal if isinstance(a, A.Declare)
                    and any(st.card_at[a.place] in g.shares[t][g.index[a.clue]] for t in a.types)]
            names = [a for a in wins if "name" in a.types]
            action = rng.choice(names or wins or [action])
        if done % wrong_every == 3:  # a wrong click: a place that does not exist
            before = len(lab.state.history)
            lab.click("place", 999)
            assert len(lab.state.history) == before
            assert lab.table.message  # explained on the table
        history = len(lab.state.history)
        player = lab.state.current_player
        for kind, id_ in clicks_for(lab, action):
            if kind == "kris":
                lab.kris_box.value = id_
                continue
            lab.click(kind, id_)
        assert lab.errors == [], lab.errors
        assert lab.state.history[history] == action, (action, lab.state.history[history:])
        assert player is not None
        done += 1
    return done


def replayed(lab):
    return WitnessGame.replay(lab.state.to_record())


# ----------------------------------------------------------------------------- Full game lab: tests
def test_fullgame_against_bots_to_the_end():
    lab = FullGameLab(seed=4, players=3, humans=(0,), bots="greedy")
    assert lab.viewer == 0 and lab.table is not None and lab.errors == []
    n = play_by_clicks(lab, random.Random(1))
    assert n > 0 and lab.state.is_terminal() and lab.errors == []
    assert replayed(lab) == lab.state
    assert "Game over" in lab.over.value
    for w in lab.state.winners():
        assert f"Player {w}" in lab.over.value
    assert lab.table.selectable == []


def test_fullgame_wrong_and_repeated_clicks_use_the_engine_words():
    lab = FullGameLab(seed=2, players=2, humans=(0,), bots="random", first_player=0)
    lab.click("button", "stop")  # not clickable now: refused by the table
    assert "not clickable" in lab.table.message.lower() or "expects" in lab.table.message
    lab.press("identify")
    assert lab.state.phase == "identify"
    lab.click("place", lab.state.available_places()[0])  # no type yet: the lab asks for one
    assert lab.state.phase == "identify" and "type" in lab.table.message.lower()
    lab.press("type:color")
    lab.press("type:animal")  # changing one's mind
    assert lab.picked.value.count("Animal") == 1
    seq = lab.table._last_seq
    lab.table.click = {"kind": "button", "id": "type:color", "seq": seq}  # a repeated message
    assert "already handled" in lab.table.message
    place = lab.state.available_places()[0]
    clue = lab.state.card_id(lab.state.clue[0])
    k = len(lab.state.history)
    lab.click("place", place)
    assert lab.state.history[k] == A.Declare(clue, ("animal",), place)
    assert lab.errors == []
    assert replayed(lab) == lab.state


def test_fullgame_illegal_assembled_action_shows_why_illegal():
    lab = FullGameLab(seed=5, players=2, humans=(0,), bots="random", first_player=0)
    lab.press("reveal_another")
    assert len(lab.state.clue) == 2
    clue = lab.state.card_id(lab.state.clue[0])
    lab.click("clue", clue)
    lab.press("type:animal")
    place = lab.state.available_places()[0]
    # the learner assembles a Declare with two types, which needs ALEX: the engine's reason is shown
    lab._pick["types"] = ("animal", "color")
    lab.click("place", place)
    assert "ALEX" in lab.table.message and lab.state.phase == "identify"
    assert lab.errors == []


def test_fullgame_hot_seat_pass_screen_and_privacy():
    lab = FullGameLab(seed=7, players=3, case_module=True, advanced=True, humans=(0, 1, 2))
    assert lab.viewer is None and lab.table is None
    assert "Pass the device" in lab.pass_label.value
    seat = lab.state.current_player
    lab.confirm_player(seat=(seat + 1) % 3)  # the wrong learner presses
    assert lab.viewer is None and lab.table is None
    n = play_by_clicks(lab, random.Random(3), max_actions=400)
    assert n > 0 and lab.errors == []
    assert replayed(lab) == lab.state


def test_fullgame_advanced_abilities_all_reachable():
    """Many short advanced games by clicks: every ability the engine offers is used at least once somewhere."""
    used = set()
    for seed in range(6):
        lab = FullGameLab(seed=seed, players=2, advanced=True, case_module=True, humans=(0, 1))
        play_by_clicks(lab, random.Random(seed), max_actions=600)
        assert lab.errors == []
        used |= {type(a).__name__ for a in lab.state.history}
        assert replayed(lab) == lab.state
    print(sorted(used))
    assert {"UseTom", "UseSam", "UseTam", "UseKris", "UseKim", "Declare", "RevealNext", "ArchiveCard", "TurnFaceDown",
            "EndTurn"} <= used, used


def test_fullgame_save_and_load(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFARI_KIT_RECORDS", str(tmp_path / "records"))  # records live in the records folder
    lab = FullGameLab(seed=9, players=3, case_module=True, humans=(0,), bots="greedy,memory:0.5")
    play_by_clicks(lab, random.Random(9), max_actions=6)
    path = tmp_path / "records" / "game.json"
    text = lab.save_record("game")
    assert path.exists() and json.loads(text)["seed"] == 9
    before = lab.state.full_view()
    lab.reset(9)
    assert lab.state.history == [] or lab.state.full_view() != before
    lab.load_record("game.json")
    assert lab.state.full_view() == before and lab.errors == []
    lab.record_box.value = text
    lab.path_box.value = ""
    lab.load_button.click()
    assert lab.state.full_view() == before
    lab.load_record("{not json")
    assert lab.errors and "Record" in lab.errors[-1]
    lab.errors.clear()
    play_by_clicks(lab, random.Random(10), max_actions=3000)
    assert lab.state.is_terminal() and lab.errors == []


def test_fullgame_options_from_the_widgets():
    lab = FullGameLab(seed=1)
    lab.players_box.value = 4
    lab.learner_seats = (0, 2)
    lab.bots_box.value = "random"
    lab.advanced_box.value = True
    lab.new_button.click()
    assert lab.state.players == 4 and lab.humans == (0, 2) and lab.game.options.advanced
    assert set(lab.bot_specs) == {1, 3}
    lab.learner_seats = (9,)
    lab.new_button.click()
    assert lab.errors and "between 0 and 3" in lab.errors[-1]


def test_w4_w10_fullgame_shows_failures_and_tom_looks_at_once():
    """One learner against bots: the learner's own failures, every bot failure and each TOM look are shown."""
    totals = {"bot_failed": 0, "tom": 0, "own_failure": 0}
    for seed in range(3):
        lab = FullGameLab(seed=seed, players=3, advanced=True, humans=(0,), bots="random")
        play_by_clicks(lab, random.Random(seed), max_actions=400)
        assert lab.errors == []
        for k, v in lab.pauses.items():
            totals[k] += v
        assert replayed(lab) == lab.state
    assert all(v > 0 for v in totals.values()), totals


def test_fullgame_learners_and_bots_are_pickers():
    lab = FullGameLab(seed=1, players=3)
    toggles = lab.learner_picker.children
    assert [t.description for t in toggles] == ["Player 0", "Player 1", "Player 2"]
    assert [t.value for t in toggles] == [True, False, False]
    toggles[2].value = True  # a second learner, by pressing the seat's toggle
    assert lab.learner_seats == (0, 2)
    assert "random" in [v for _, v in lab.bots_box.options]  # the bots are picked from a list, not typed
    lab.bots_box.value = "random"
    lab.new_button.click()
    assert lab.humans == (0, 2) and set(lab.bot_specs.values()) == {"random"}
    lab.players_box.value = 2  # fewer seats: the toggles follow, seat 2 is no longer a learner
    assert len(lab.learner_picker.children) == 2 and lab.learner_seats == (0,)
