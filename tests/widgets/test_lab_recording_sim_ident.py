"""Issue 21: the Simulation and Identification labs record for the class experiment.

Driven from Python as a click would (``button.click()``), with a
:class:`~safari_kit.class_results.recorder.Recorder` handed to the lab as the chooser does
(``lab.use_recorder``). Each record must equal what the lab shows, and its exact chance an
independent computation (inclusion–exclusion, or counting the cards the learner cannot place);
nothing is recorded before joining, for a refused action, or twice for one action.
"""
from __future__ import annotations

import re
from fractions import Fraction
from math import comb

import pytest

pytest.importorskip("ipywidgets")

from safari_kit.probability import witness as PW  # noqa: E402
from safari_kit.probability.knowledge import Knowledge  # noqa: E402
from safari_kit.class_results.class_records import Guess, SimulationRun, to_dict  # noqa: E402
from safari_kit.class_results.class_tables import pool  # noqa: E402
from safari_kit.class_results.recorder import Recorder  # noqa: E402
from safari_kit.widgets.labs import simulation as S  # noqa: E402
from safari_kit.widgets.labs.identification import IdentificationLab, card_label  # noqa: E402
from safari_kit.widgets.labs.simulation import SimulationLab  # noqa: E402
from safari_kit.witness import WitnessGame  # noqa: E402

SHOWN = re.compile(r"Run (\d+)</b></td><td>([\d,]+) successes in ([\d,]+) trials")


def shown_run(lab) -> tuple[int, int, int]:
    """(run, successes, trials) as the lab's summary writes them for the run it shows."""
    m = SHOWN.search(lab.summary.value)
    assert m, lab.summary.value
    return int(m[1]), int(m[2].replace(",", "")), int(m[3].replace(",", ""))


def colors_exact(game) -> Fraction:
    """P(10 cards drawn from the whole deck show all 5 colors), by inclusion–exclusion over the missing colors."""
    from itertools import combinations

    counts: dict[str, int] = {}
    for card in game.cards:
        counts[card.color] = counts.get(card.color, 0) + 1
    total = len(game.cards)
    p = Fraction(0)
    for k in range(len(counts) + 1):
        for missing in combinations(counts, k):
            p += (-1) ** k * Fraction(comb(total - sum(counts[c] for c in missing), 10), comb(total, 10))
    return p


def animal_exact(seed: int) -> Fraction:
    """The 'identify-animal' question's chance at ``seed``, counted: the first face-down place holds any card
    the first player cannot place; how many of them share the clue card's animal, over how many there are."""
    game = WitnessGame(players=3)
    state = game.new_initial_state(seed=seed)
    kn = Knowledge.from_observation(state.observation(state.current_player), game=game)
    assert kn.available[0] in kn.unknown_places  # the start: nothing is known about the place
    clue = game.cards[kn.clue[0]]
    pool_cards = [game.cards[i] for i in kn.pool]
    return Fraction(sum(c.animal == clue.animal for c in pool_cards), len(pool_cards))


# ----------------------------------------------------------------------------- Simulation lab
def test_simulate_records_each_run_as_shown_and_pools_exactly():
    lab = SimulationLab(seed=5, run_tournament=False)
    rec = Recorder("Zed")
    lab.run_button.click()  # before joining: nothing is kept, the opening run neither (a run was drawn since)
    assert rec.records == [] and lab.recorder is None
    lab.use_recorder(rec, opening=True)
    assert rec.records == []
    shown = []
    for trials in (1_000, 1_000, 100, 1_000):
        lab.trials_slider.value = trials
        lab.run_button.click()
        shown.append(shown_run(lab))
    assert lab.errors == []
    runs = rec.records
    assert len(runs) == 4 and all(isinstance(r, SimulationRun) and r.lab == "simulation" for r in runs)
    exact = animal_exact(5)
    assert exact == lab.question.exact.value
    for r, (k, s, n) in zip(runs, shown):
        assert (r.question, r.run, r.successes, r.trials, r.exact, r.seed) == ("identify-animal", k, s, n, exact, 5)
    # run k of (question, N): the first run was before joining, so the 1,000-trial runs recorded are 3, 4, 5
    assert [r.run for r in runs] == [3, 4, 1, 5]
    # the class's pooled counts are the sums of what the learner saw, and of the lab's own pooled line
    pooled = pool(runs).pooled()
    assert pooled == {("identify-animal", exact): (sum(s for _, s, _ in shown), sum(n for _, _, n in shown))}
    lab_pooled = lab.results["pooled"]
    first = lab.history["identify-animal"][:2]  # the runs before joining are the lab's, not the record's
    assert lab_pooled.n - sum(r["n"] for r in first) == pooled["identify-animal", exact][1]


def test_the_opening_run_is_recorded_for_a_learner_who_had_joined():
    lab = SimulationLab(seed=5, run_tournament=False)  # the chooser builds the lab, then hands it the recorder
    opening = shown_run(lab)
    rec = Recorder("Zed")
    lab.use_recorder(rec, opening=True)
    (r,) = rec.records
    assert (r.question, r.run, r.successes, r.trials, r.exact) == ("identify-animal", *opening, animal_exact(5))
    lab.use_recorder(None)  # handed again: not recorded twice
    lab.use_recorder(rec, opening=True)
    lab.pool_box.value = True
    assert len(rec.records) == 1
    lab.run_button.click()
    assert [r.run for r in rec.records] == [1, 2] and lab.errors == []


def test_through_the_chooser_the_opening_run_counts_only_for_a_learner_who_had_joined(monkeypatch):
    from safari_kit.class_results.class_session import RESULTS_ENV
    from safari_kit.widgets.app import LabChooser

    monkeypatch.delenv(RESULTS_ENV, raising=False)
    chooser = LabChooser()
    before = chooser.open("Both games", "Simulation")  # opened, then joined: its opening run was before
    rec = chooser.join.join("Zed")
    assert rec is not None and before.recorder is rec and rec.records == []
    lab = chooser.open("Safari Witness", "Simulation")  # opened after joining: the opening run is the learner's
    (r,) = rec.records
    assert (r.run, r.successes, r.trials) == shown_run(lab) and r.seed is None and r.lab == "simulation"
    lab.run_button.click()
    assert [r.run for r in rec.records] == [1, 2] and (rec.records[1].successes, rec.records[1].trials) == \
        shown_run(lab)[1:]
    assert lab.errors == [] and before.errors == []


def test_joining_while_the_lab_is_open_keeps_no_run_drawn_before():
    lab = SimulationLab(seed=5, run_tournament=False)
    rec = Recorder("Zed")
    lab.use_recorder(rec)  # the learner joined with the lab open (the chooser: no opening=True)
    assert rec.records == []
    lab.run_button.click()
    assert [r.run for r in rec.records] == [2] and lab.errors == []


def test_a_question_change_and_reset_record_the_run_they_show():
    lab = SimulationLab(seed=5, run_tournament=False)
    rec = Recorder("Zed")
    lab.use_recorder(rec, opening=True)
    assert len(rec.records) == 1  # the opening run
    lab.question_box.value = "case-colors"  # the lab runs the new question at once: shown, so recorded
    r = rec.records[-1]
    assert (r.question, r.run) == ("case-colors", 1) and shown_run(lab) == (1, r.successes, r.trials)
    assert r.exact == colors_exact(WitnessGame(players=3))
    lab.reset_button.click()  # Reset draws run 1 of the question again: one record, nothing else
    assert len(rec.records) == 3 and rec.records[2].run == 1 and rec.records[2].question == "case-colors"
    assert (rec.records[2].successes, rec.records[2].trials) == (r.successes, r.trials)  # the same draw
    lab.pool_box.value = True  # pooling shows what is there: no new run, no record
    lab.run_coverage()  # a round of intervals is not a Simulate run
    assert len(rec.records) == 3 and lab.errors == []


def test_a_refused_or_failed_run_records_nothing(monkeypatch):
    lab = SimulationLab(seed=5, run_tournament=False)
    lab.run_button.click()  # drawn before joining: the opening run is not recorded later
    rec = Recorder("Zed")
    lab.use_recorder(rec, opening=True)
    lab._job = object()  # a tournament is being played: every other action is refused
    lab.run_button.click()
    assert rec.records == [] and "wait" in lab.status.value
    lab._job = None

    def broken(*_a, **_k):
        raise RuntimeError("no trials today")

    monkeypatch.setattr(S, "running_estimate", broken)
    lab.run_button.click()
    assert rec.records == [] and lab.errors  # the failure is shown, no half run is kept
    monkeypatch.undo()
    lab.errors.clear()
    lab.run_button.click()
    assert len(rec.records) == 1 and lab.errors == []


def test_seed_recorded_only_when_the_learner_sees_it():
    import json

    secret = SimulationLab(seed=None, fair=True, run_tournament=False)
    rec = Recorder("Zed")
    secret.use_recorder(rec, opening=True)
    secret.run_button.click()
    secret.question_box.value = "knockout-lead"
    assert len(rec.records) == 3 and all(r.seed is None for r in rec.records)
    text = json.dumps([to_dict(r) for r in rec.records]) + rec.results_text()
    assert str(secret.seed) not in text  # the secret seed is in no record and not in the download
    assert rec.records[2].exact == secret.question.exact.value
    shared = SimulationLab(seed=42, fair=True, run_tournament=False)  # the teacher's class seed, shown
    rec2 = Recorder("Amy")
    shared.use_recorder(rec2, opening=True)
    shared.run_button.click()
    assert [r.seed for r in rec2.records] == [42, 42] and rec2.records[1].exact == animal_exact(42)
    # two learners on the class seed: run k is the same draw, which the class's table counts
    other = SimulationLab(seed=42, fair=True, run_tournament=False)
    rec3 = Recorder("Bea")
    other.use_recorder(rec3, opening=True)
    other.run_button.click()
    row = pool(rec2.records + rec3.records).simulation().iloc[0]
    assert row["same_draws"] == 2 and row["learners"] == 2 and row["runs"] == 4  # runs 1 and 2: each drawn twice


# ----------------------------------------------------------------------------- Identification lab
seq = iter(range(1, 10**6))


def click_place(lab, place):
    lab.table.click = {"kind": "place", "id": place, "seq": next(seq)}


def declare(lab, types, place, guess):
    """Identify with the one clue card, declare ``types`` at ``place`` with ``guess`` typed; the exact chance,
    counted independently before the reveal (the cards the learner cannot place that match the clue)."""
    lab.identify_button.click()
    lab.type_buttons.value = types
    kn = Knowledge.from_observation(lab.state.observation(lab.learner), game=lab.game)
    clue = lab.game.cards[kn.unresolved[0]]
    if place in kn.unknown_places:
        pool_cards = [lab.game.cards[i] for i in kn.pool]
        counted = Fraction(sum(any(getattr(c, t) == getattr(clue, t) for t in types) for c in pool_cards),
                           len(pool_cards))
    else:
        counted = None
    exact = PW.p_match(kn, kn.unresolved[0], place, types).value
    assert counted is None or counted == exact
    click_place(lab, place)
    lab.guess_box.value = guess
    lab.reveal_button.click()
    return clue, exact, counted


def test_reveal_with_a_guess_records_guess_exact_outcome_and_what_was_declared():
    lab = IdentificationLab(seed=3, players=2)
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    place = lab.state.available_places()[1]
    clue, exact, counted = declare(lab, ("color",), place, "1/5")
    assert lab.errors == [] and counted == exact  # the place was unknown: a count of the cards it may hold
    (g,) = rec.records
    (pred,) = lab.predictions
    event = [e for e, _, _ in lab.state.log if e["kind"] == "identify"][-1]
    assert isinstance(g, Guess) and g.lab == "identification"
    assert g.guess == Fraction(1, 5) and g.exact == exact == pred.exact
    assert g.outcome == (1 if event["success"] else 0) == int(pred.success)
    assert g.context == f"Color: {clue.color} at place {place}"
    # the tally's row shows the same exact chance and outcome
    row = re.search(r"<tr><td>1</td>.*?</tr>", lab.tally.value)[0]
    assert f"{float(exact):.3f}" in row and ("✔ match" if g.outcome else "✘ no") in row
    lab.reveal_button.click()  # Reveal again after the turn's reveal: refused, nothing doubled
    assert len(rec.records) == 1


@pytest.mark.parametrize("typed, kept", [("14/74", Fraction(7, 37)), ("0.2", Fraction(1, 5)),
                                         ("20%", Fraction(1, 5)), ("1", Fraction(1))])
def test_the_guess_is_kept_as_typed(typed, kept):
    lab = IdentificationLab(seed=3, players=2)
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    declare(lab, ("animal",), lab.state.available_places()[0], typed)
    assert [r.guess for r in rec.records] == [kept] and lab.errors == []


def test_no_guess_no_record_and_a_refused_guess_records_nothing():
    lab = IdentificationLab(seed=3, players=2)
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    lab.identify_button.click()
    click_place(lab, lab.state.available_places()[0])
    for bad in ("two", "1.5", "-0.1", "nan"):
        lab.guess_box.value = bad
        lab.reveal_button.click()
        assert rec.records == [] and not lab.predictions, bad
    lab.guess_box.value = ""
    lab.reveal_button.click()  # a reveal without a guess: a row in the tally, no record
    assert len(lab.predictions) == 1 and rec.records == [] and lab.errors == []


def hidden_from_learner(lab) -> set[str]:
    """Card ids the learner has never seen (the deck, and face-down places never revealed to them)."""
    full = lab.state.full_view()
    down = {cid for _, cid, up in full["unidentified"] if not up}
    return (set(full["deck"]) | down) - lab.state.observation(lab.learner).card_ids()


@pytest.mark.parametrize("seed", [7, None])  # a class seed, and a secret deal as in the app
def test_nothing_before_joining_and_no_hidden_card_in_a_record(seed):
    lab = IdentificationLab(seed=seed, players=3, fair=True)
    rec = Recorder("Zed")
    exacts, secret_seeds, resets = [], {lab.seed}, 0
    for _ in range(100):
        if len(exacts) == 6:
            break
        while not lab.state.is_terminal() and not (lab.my_turn and lab.state.phase == "choose"):
            lab.next_button.click()  # a bot's failure lies face up first, or the bots play
        if lab.state.is_terminal():
            lab.reset_button.click()  # a new deal (a fresh secret one, or the class deal again)
            secret_seeds.add(lab.seed)
            resets += 1
            continue
        if len(exacts) == 2:
            assert rec.records == []  # two reveals with a guess before joining: nothing kept
            lab.use_recorder(rec)
        lab.identify_button.click()
        while lab.my_turn and lab.state.phase == "identify" and len(exacts) < 6:
            before = len(rec.records)
            lab.type_buttons.value = lab.type_buttons.options[0][1]
            places = lab.state.available_places()  # another place after each Reset: the class deal replays
            click_place(lab, places[-1 - resets % len(places)])
            lab.guess_box.value = "0.3"
            lab.reveal_button.click()
            # one record per reveal; the same reveal of the class deal again (after Reset) is not kept twice
            again = "You guessed this same reveal before" in (lab.last_result or "")
            assert len(rec.records) == before + (lab.recorder is not None and not again)
            if not again:
                exacts.append(lab.predictions[-1].exact)
        # what the learner has not seen may be in no record (records go to the teacher and the download)
        text = rec.results_text()
        for cid in hidden_from_learner(lab):
            assert cid not in text and card_label(lab.game, cid) not in text
    assert lab.errors == []
    assert [r.exact for r in rec.records] == exacts[2:] and len(exacts) == 6
    assert all(r.guess == Fraction(3, 10) and r.lab == "identification" for r in rec.records)
    if seed is None:
        for secret in secret_seeds:
            assert str(secret) not in rec.results_text()
