"""Issue 21: the Challenge and Knockout labs record for the class experiment.

Driven from Python through the labs' own buttons and table clicks. Checked: a record is made only after
joining; each stop-or-continue decision (Challenge) and each card the learner played (Knockout) gives exactly
one record, holding the numbers the lab showed, which are also computed here straight from the probability
module (and the n/(n+1) rule from its definition); pressing a finished step's button again, or an illegal
action, records nothing; no record names a card.
"""
from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

pytest.importorskip("anywidget")

from safari_kit.knockout import Play  # noqa: E402
from safari_kit.probability import witness as PW  # noqa: E402
from safari_kit.probability.knockout import best_play, p_win_following, p_win_leading, view_of  # noqa: E402
from safari_kit.probability.knowledge import Knowledge  # noqa: E402
from safari_kit.class_results.class_records import ChallengeDecision, KnockoutPlay, to_dict  # noqa: E402
from safari_kit.class_results.class_tables import pool  # noqa: E402
from safari_kit.class_results.recorder import Recorder  # noqa: E402
from safari_kit.widgets.labs.base import fraction_html  # noqa: E402
from safari_kit.widgets.labs.challenge import ChallengeLab  # noqa: E402
from safari_kit.widgets.labs.knockout import KnockoutLab, chance_html  # noqa: E402

CARD_ID = re.compile(r"\b[WK]\d{2}\b")
DECISION_FIELDS = {"challenge", "safe_so_far", "p_next", "stop_value", "continue_value", "rule", "choice", "result"}

_seq = iter(range(1, 10**6))


def joined(lab, nickname="Zed") -> Recorder:
    rec = Recorder(nickname)
    lab.use_recorder(rec)
    return rec


def no_card_in(records) -> None:
    for r in records:
        text = " ".join(str(v) for v in to_dict(r).values())
        assert not CARD_ID.search(text), f"a card id in a record: {to_dict(r)}"


# ----------------------------------------------------------------------------- Challenge lab
def knowledge(lab) -> Knowledge:
    return Knowledge.from_observation(lab.state.observation(lab.learner), game=lab.game)


def expected_decision(lab) -> dict:
    """The decision's numbers straight from the probability module, the rule from its definition
    (continue while P(next safe) > n/(n+1), n = cards a stop archives); and they are the ones shown."""
    kn = knowledge(lab)
    s = kn.safe_reveals
    p_next = PW.p_safe_next(kn).value
    stop, cont = PW.stop_vs_continue(kn)
    n = 1 + s
    want = {"safe_so_far": s, "p_next": p_next, "stop_value": None if stop is None else stop.value,
            "continue_value": None if cont is None else cont.value,
            "rule": "continue" if p_next > Fraction(n, n + 1) else "stop"}
    shown = lab.decide.value
    assert "safari-decision-now" in shown and f"Safe so far: <b>{s}</b>" in shown
    assert f"Chance the next reveal is safe: <b>{fraction_html(p_next)}</b>" in shown
    assert f"<b>{fraction_html(want['stop_value'])} cards</b> for sure" in shown
    if want["continue_value"] is not None:
        assert f"<b>{fraction_html(want['continue_value'])} cards</b> on average" in shown
    assert f"&rarr; <b>{'reveal on' if want['rule'] == 'continue' else 'stop'}</b>" in shown
    return want


def click_place(lab, place) -> None:
    lab.table.click = {"kind": "place", "id": place, "seq": next(_seq)}


def play_challenge(lab, choose) -> list[dict]:
    """Challenge, then reveal until a decision, where ``choose(lab)`` says "stop" or "continue"; forced moves
    are made without asking. Returns the decisions as computed here (choice added), in order."""
    lab.challenge_button.click()
    made = []
    while lab.in_challenge:
        if lab.decision_now:
            want = expected_decision(lab)
            want["choice"] = choose(lab)
            made.append(want)
            if want["choice"] == "stop":
                lab.stop_button.click()
            else:
                lab.reveal_button.click()
        elif not lab.stop_button.disabled:  # no place left: the forced Stop
            lab.stop_button.click()
        else:  # before 4 safe: reveal on, on a click of the safest place
            click_place(lab, lab.safest_place())
    assert lab.errors == []
    return made


def by_rule(lab) -> str:
    return "continue" if PW.challenge_decision(knowledge(lab))[0] == "reveal" else "stop"


def test_the_default_challenge_records_its_two_decisions_with_the_shown_numbers_and_the_result():
    lab = ChallengeLab()
    rec = joined(lab)
    made = play_challenge(lab, by_rule)
    (h,) = lab.history
    assert h["archived"] == 6 and [d["choice"] for d in made] == ["continue", "stop"]
    records = rec.records
    assert all(isinstance(r, ChallengeDecision) and r.lab == "challenge" for r in records)
    assert [{k: getattr(r, k) for k in DECISION_FIELDS} for r in records] == [{**d, "challenge": 1, "result": 6}
                                                                               for d in made]
    # the records are the numbers, as the teacher's table reads them: the rule's stop was followed
    assert records[1].stop_value == 6 and records[1].threshold == Fraction(6, 7) and records[1].rule == "stop"
    table = pool(records).challenge().set_index("rule")
    assert table.loc["stop", "followed_share"] == 1 and table.loc["continue", "followed_share"] == 1
    no_card_in(records)
    # a finished challenge: pressing Stop, Reveal or a place again is refused and records nothing
    lab.stop_button.click()
    lab.reveal_button.click()
    click_place(lab, 1)
    lab.challenge_button.click()  # not at the start of a turn: refused
    assert rec.records == records
    assert [r.seq for r in records] == [1, 2]


def test_nothing_is_recorded_before_joining_and_a_decision_before_joining_stays_out():
    lab = ChallengeLab()
    play_challenge(lab, by_rule)
    rec = joined(lab)  # joined after a whole challenge: nothing of it
    assert rec.records == []
    lab = ChallengeLab()
    lab.challenge_button.click()
    while not lab.decision_now:
        lab.reveal_button.click()
    lab.reveal_button.click()  # the first decision (continue), before joining
    rec = joined(lab)
    want = expected_decision(lab)  # the second one, after joining
    lab.stop_button.click()
    (r,) = rec.records
    assert r.safe_so_far == want["safe_so_far"] == 5 and r.choice == "stop" and r.result == 6


def test_forced_moves_and_illegal_actions_record_nothing():
    lab = ChallengeLab()
    rec = joined(lab)
    lab.stop_button.click()  # not in a challenge
    lab.reveal_button.click()
    lab.next_button.click()  # the turn is not finished
    lab.challenge_button.click()
    lab.challenge_button.click()  # pressed twice
    for _ in range(4):  # the reveals before 4 safe are forced: no decision
        lab.stop_button.click()  # illegal before 4 safe
        assert not lab.decision_now
        lab.reveal_button.click()
    assert lab.decision_now and rec.records == []
    lab.reveal_button.click()
    assert rec.records == []  # the challenge has not ended: its result is not known yet
    lab.stop_button.click()
    lab.stop_button.click()
    assert [r.choice for r in rec.records] == ["continue", "stop"] and lab.errors == []


def test_a_challenge_left_by_reset_records_its_decisions_once_without_a_result():
    lab = ChallengeLab()
    rec = joined(lab)
    lab.challenge_button.click()
    while not lab.decision_now:
        lab.reveal_button.click()
    want = expected_decision(lab)
    lab.reveal_button.click()
    lab.reset_button.click()
    (r,) = rec.records
    assert (r.challenge, r.safe_so_far, r.p_next, r.choice, r.result) == (1, 4, want["p_next"], "continue", None)
    lab.reset_button.click()
    assert len(rec.records) == 1
    # the next challenge (in this lab, or in the lab opened again) goes on counting
    play_challenge(lab, by_rule)
    again = ChallengeLab()
    again.use_recorder(rec)
    play_challenge(again, by_rule)
    assert [r.challenge for r in rec.records] == [1, 2, 2, 3, 3] and len({r.seq for r in rec.records}) == 5


def test_whole_games_record_one_record_per_decision_with_the_challenges_result():
    rng = random.Random(7)
    decisions, failed, stopped_early = 0, 0, 0
    for seed in range(4):
        for key in ("stop-or-go", "fresh"):
            lab = ChallengeLab(position=key, seed=seed)
            rec = joined(lab)
            made_all: list[list[dict]] = []
            while not lab.state.is_terminal():
                while lab.state.phase == "face_up":
                    lab.next_button.click()
                if lab.state.is_terminal():
                    break
                if rng.random() < 0.3:
                    lab.identify_button.click()
                else:
                    made = play_challenge(lab, lambda _lab: rng.choice(["stop", "continue"]))
                    if made:
                        made_all.append([{**d, "result": lab.history[-1]["archived"]} for d in made])
                lab.next_button.click()
            assert lab.errors == []
            records = rec.records
            assert len(records) == sum(len(m) for m in made_all)
            it = iter(records)
            for number, made in enumerate(made_all, 1):
                for d in made:
                    r = next(it)
                    assert {k: getattr(r, k) for k in d} == d and r.challenge == number
                    failed += d["result"] == 0
                    stopped_early += d["choice"] == "stop" and d["rule"] == "continue"
            decisions += len(records)
            no_card_in(records)
    assert decisions >= 10 and failed >= 1 and stopped_early >= 1, (decisions, failed, stopped_early)


# ----------------------------------------------------------------------------- Knockout lab
def pick_and_play(lab, card, item) -> None:
    seq = iter(range(next(_seq) * 10, 10**9))
    lab.table.click = {"kind": "card", "id": card, "seq": next(seq)}
    if item is not None:
        lab.table.click = {"kind": "item", "id": item, "seq": next(seq)}
    lab.play_button.click()


def play_knockout_game(lab, rec, rng) -> int:
    """The learner's plays chosen at random (the ★ option half the time); after each, one record with the
    chance computed here from the learner's view, as the panel showed it. Returns the plays made."""
    plays = 0
    while not lab.state.is_terminal():
        if lab.learner in lab.state.out:
            n = len(rec.records)
            lab.end_round_button.click()  # the round is played without the learner: nothing recorded
            assert len(rec.records) == n
            continue
        view = view_of(lab.state.observation(lab.learner))
        best = best_play(lab.game, view)
        if rng.random() < 0.5:
            card, item = best.action.card, best.action.item
        else:
            card = rng.choice(list(view.hand))
            item = rng.choice(lab.game.items) if view.leading else None
        p = (p_win_leading(lab.game, view, card, item) if view.leading else p_win_following(lab.game, view, card)).value
        row = re.search(rf"<tr data-card='{card}'.*?</tr>", lab.prob.value).group(0)
        cell = re.search(rf"<td data-item='{item or view.item}'[^>]*>(.*?)</td>", row).group(1)
        assert cell.startswith(chance_html(p, short=True))  # the chance the panel showed for this play
        n, done = len(rec.records), len(lab.state.completed_turns)
        pick_and_play(lab, card, item)
        turn = lab.state.completed_turns[done]
        assert any(seat == lab.learner and c == card for seat, c in turn["plays"])
        (r,) = rec.records[n:]
        assert isinstance(r, KnockoutPlay) and r.lab == "knockout"
        assert (r.chance, r.best, r.outcome, r.item) == (p, best.p.value, int(turn["winner"] == lab.learner),
                                                         turn["item"])
        assert r.item == (item if view.leading else view.item)
        assert chance_html(p) in lab.prob.value  # said again beside the finished turn
        lab.play_button.click()  # pressed again on the finished turn: refused
        pick_and_play(lab, lab.state.hand(lab.learner)[0] if lab.state.hand(lab.learner) else card, None)
        assert len(rec.records) == n + 1
        plays += 1
        if lab.paused:
            lab.next_button.click()
        lab.next_button.click()  # not paused any more: nothing
        assert len(rec.records) == n + 1
    assert lab.errors == []
    return plays


def test_each_knockout_play_records_once_with_the_shown_chance_and_its_outcome():
    lab = KnockoutLab(seed=3)
    rec = joined(lab)
    plays = play_knockout_game(lab, rec, random.Random(0))
    assert plays == 28 == len(rec.records)
    assert sum(r.outcome for r in rec.records) == lab.state.scores()[lab.learner]
    assert [r.chance for r in rec.records] == [p.p for p in lab.predictions]
    no_card_in(rec.records)


def test_knockout_with_elimination_and_another_seat():
    lab = KnockoutLab(seed=5, players=5, learner=2, bot="random", elimination=True)
    rec = joined(lab)
    plays = play_knockout_game(lab, rec, random.Random(1))
    assert plays == len(rec.records) >= 1 and lab.state.out
    no_card_in(rec.records)


def test_knockout_records_nothing_before_joining_nor_for_play_to_end_of_round():
    lab = KnockoutLab(seed=1)
    best = lab.best.action
    pick_and_play(lab, best.card, best.item)
    rec = joined(lab)
    assert rec.records == [] and lab.predictions[0].won is not None
    lab.next_button.click()
    lab.end_round_button.click()  # the lab plays the learner's seat with the best option: not the learner's
    assert rec.records == [] and all(p.auto for p in lab.predictions[1:]) and len(lab.predictions) == 7
    lab.next_button.click()  # Next round (issue 27: the lab pauses on the round's end)
    best = lab.best.action
    pick_and_play(lab, best.card, best.item)
    (r,) = rec.records
    assert r.chance == lab.predictions[-1].p and not lab.predictions[-1].auto
    assert Play(best.card, best.item) in lab.history
