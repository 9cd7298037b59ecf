"""The Rules tutorial's quiz (issue 21): every right answer is the engine's, no question tells a hidden card,
and the lab records each question's first answer once the learner joined — right, wrong, twice, skipped.

The engine checks here are independent of :mod:`safari_kit.tutorial.tutorial_quiz`: each one replays the
step a question asks about (or asks ``is_legal``) on a clone of the position and compares.
"""
from __future__ import annotations

import dataclasses
import json
import re

import pytest

pytest.importorskip("anywidget")

from safari_kit.knockout.actions import Play  # noqa: E402
from safari_kit.tutorial import tutorials as T  # noqa: E402
from safari_kit.class_results.recorder import Recorder  # noqa: E402
from safari_kit.tutorial.tutorial_quiz import known_places, questions, visible_cards  # noqa: E402
from safari_kit.widgets.labs.tutorial import RulesTutorial  # noqa: E402
from safari_kit.witness import actions as A  # noqa: E402
from safari_kit.witness.rules import MIN_SAFE, UNIDENTIFIED_SIZE  # noqa: E402

GAMES = ("witness", "knockout")


def _after(script, q):
    """The position after the step the question asks about, replayed here on a clone."""
    trial = script.states()[q.step].clone()
    for action in script.steps[q.step + 1].actions:
        trial.apply(action)
    return trial


def _safe(state, place: int) -> bool:
    trial = state.clone()
    trial.apply(A.RevealNext(place))
    new = [e for e, _, _ in trial.log[len(state.log):]]
    assert new[0]["kind"] == "challenge_reveal" and new[0]["place"] == place
    assert new[0]["safe"] == (len(new) == 1 or new[1]["kind"] != "fail")  # unsafe: the Challenge fails
    return new[0]["safe"]


# ----------------------------------------------------------------------------- the answers are the engine's
def test_every_witness_answer_is_what_the_engine_does():
    script = T.witness_script()
    states = script.states()
    qs = {q.id: q for q in questions(script)}
    assert sorted(qs) == ["witness-q1", "witness-q2", "witness-q3", "witness-q4"]

    q = qs["witness-q1"]  # the refill after your archive (W6)
    before, after = states[q.step], _after(script, q)
    assert len(before.places) < UNIDENTIFIED_SIZE == len(after.places) and len(after.deck) == len(before.deck) - 1
    assert q.answer == f"Refilled to {UNIDENTIFIED_SIZE} from the deck"
    assert f"{len(before.places)} face-down cards" in q.text and f"holds {len(before.deck)}" in q.text

    q = qs["witness-q2"]  # which remembered place is safe (W5)
    before = states[q.step]
    places = [int(re.match(r"Place (\d+):", c)[1]) for c in q.choices]
    safe = [p for p in places if _safe(before, p)]
    assert len(safe) == 1 and q.answer.startswith(f"Place {safe[0]}:")
    assert script.steps[q.step + 1].actions == (A.RevealNext(safe[0]),)  # the next step reveals it
    for p, choice in zip(places, q.choices):  # the words are the card at that place, as the engine holds it
        card = before.game.cards[before.card_at[p]]
        assert choice == f"Place {p}: {card.color} {card.animal}, {card.texture}, {card.name}"

    q = qs["witness-q3"]  # may the Challenge stop (W5)
    before = states[q.step]
    assert not before.is_legal(A.StopChallenge()) and q.answer.startswith("No")
    assert _after(script, q).is_legal(A.StopChallenge())  # one safe reveal more, and it may
    assert f"{MIN_SAFE - 1} safe reveals so far" in q.text

    q = qs["witness-q4"]  # the end (W7)
    after = _after(script, q)
    assert after.is_terminal() and after.end_reason == "deck" and q.answer == "The game ends"


def test_every_knockout_answer_is_what_the_engine_does():
    script = T.knockout_script()
    states = script.states()
    qs = {q.id: q for q in questions(script)}
    assert sorted(qs) == ["knockout-q1", "knockout-q2", "knockout-q3"]
    game = states[0].game

    q = qs["knockout-q1"]  # a follower may play any card (K3)
    before = states[q.step]
    seat, item = before.current_player, before.item
    lead_value = game.by_id[before.trick[0][1]].value(item)
    hand = before.hand(seat)
    assert all(before.is_legal(Play(c)) for c in hand)
    # the question means something: Player 1 holds a card that would beat the lead and one that would not
    assert {game.by_id[c].value(item) > lead_value for c in hand} == {True, False}
    assert q.answer == "No: any card may be played"

    q = qs["knockout-q2"]  # the tie goes to the card played first (K3)
    before, after = states[q.step], _after(script, q)
    turn = after.completed_turns[len(before.completed_turns)]
    values = [game.by_id[c].value(turn["item"]) for _, c in turn["plays"]]
    assert values[-1] < max(values)  # the question's "if Player 2's card is lower" held
    assert values.count(max(values)) == 2  # a real tie
    assert q.answer == ("You" if turn["winner"] == script.viewer else f"Player {turn['winner']}") == "You"

    q = qs["knockout-q3"]  # whoever won no turn in a round is out (K5)
    before, after = states[q.step], _after(script, q)
    last = after.completed_turns[len(before.completed_turns):]
    assert len(last) == 1 and last[0]["winner"] != 2 and before.round_wins()[2] == 0  # the "if" held
    assert after.out == (2,) and q.answer == "Player 2 is out of the game"


def test_the_answer_follows_the_script_not_the_wording():
    """Change the script (reveal place 2 first): the question's right choice moves with the engine."""
    script = T.witness_script()
    k1, k2 = script.index("safe-1"), script.index("safe-2")
    steps = list(script.steps)
    steps[k1] = dataclasses.replace(steps[k1], actions=(A.RevealNext(2),))
    steps[k2] = dataclasses.replace(steps[k2], actions=(A.RevealNext(4),))
    variant = dataclasses.replace(script, steps=tuple(steps))
    q = next(q for q in questions(variant) if q.id == "witness-q2")
    assert q.answer.startswith("Place 2:") and [c.split(":")[0] for c in q.choices] == ["Place 2", "Place 3",
                                                                                         "Place 7"]
    assert q.answer != next(q for q in questions(script) if q.id == "witness-q2").answer


# ----------------------------------------------------------------------------- nothing hidden in a question
def _hidden_words(state, viewer) -> dict[str, list[str]]:
    visible = visible_cards(state, viewer)
    out = {}
    if hasattr(state, "log"):
        for c in state.game.cards:
            if c.id not in visible:
                out[c.id] = [c.id, f"{c.color} {c.animal}, {c.texture}", f"{c.color} {c.animal} ({c.texture}"]
    else:
        for cid in state.game.card_ids:
            if cid not in visible:
                out[cid] = [cid, state.game.by_id[cid].name]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_questions_name_only_what_the_learner_knows(game):
    script = T.script(game)
    states = script.states()
    for q in questions(script):
        state = states[q.step]
        assert q.cards <= visible_cards(state, script.viewer), (q.id, q.cards - visible_cards(state, 0))
        words = " ".join([q.text, *q.choices, q.why])
        for cid, names in _hidden_words(state, script.viewer).items():
            for w in names:
                assert not re.search(rf"(?<![\w']){re.escape(w)}(?!\w)", words), (q.id, cid, w)
        # the step it asks about is not explained yet
        assert script.explain(q.step + 1) not in words


def test_known_places_are_the_engines_cards():
    script = T.witness_script()
    for state in script.states():
        for place, cid in known_places(state, script.viewer).items():
            assert state.game.cards[state.card_at[place]].id == cid
    assert known_places(script.states()[script.index("challenge")], 1).get(4) is None  # TOM was seat 0's look


@pytest.mark.parametrize("game", GAMES)
def test_the_lab_page_shows_no_hidden_card_at_a_question(game):
    lab = RulesTutorial(game)
    for q in questions(lab.script):
        lab.go(q.step)
        table = {k: v for k, v in lab.table.get_state().items() if k not in ("_esm", "_css")}  # code, not data
        page = json.dumps(table, default=str) + lab.quiz_text.value + lab.quiz_result.value + \
            " ".join(b.description for b in lab.quiz_buttons) + lab.live.text
        for cid, names in _hidden_words(lab.state, lab.viewer).items():
            for w in names:
                assert not re.search(rf"(?<![\w']){re.escape(w)}(?!\w)", page.replace("&#x27;", "'")), (q.id, w)
        lab.quiz_buttons[0].click()  # the verdict names nothing hidden either
        said = lab.live.text + lab.quiz_result.value
        for cid, names in _hidden_words(lab.state, lab.viewer).items():
            assert not any(re.search(rf"(?<![\w']){re.escape(w)}(?!\w)", said.replace("&#x27;", "'"))
                           for w in names), (q.id, cid)
    assert lab.errors == []


# ----------------------------------------------------------------------------- the lab: answer, skip, record
def _to_question(lab, qid):
    """Press Next from the first step until the question ``qid`` is shown (as a learner would)."""
    lab.reset_button.click()
    while lab.question is None or lab.question.id != qid:
        assert lab.step < lab.steps - 1, qid
        lab.next_button.click()
    return lab.question


def _quiz_html(lab):
    return (lab.quiz_text.value, lab.quiz_result.value, [(b.description, b.disabled, b.tooltip)
                                                         for b in lab.quiz_buttons], lab.status.value)


def test_a_right_answer_is_recorded_once():
    lab = RulesTutorial("witness")
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    q = _to_question(lab, "witness-q2")
    assert lab.quiz_box.layout.display is None and "What happens next?" in lab.quiz_text.value
    assert "Quiz question" in lab.live.text and all(c in lab.live.text for c in q.choices)  # said, choices too
    assert [b.description for b in lab.quiz_buttons[:len(q.choices)]] == list(q.choices)
    assert not any(b.disabled for b in lab.quiz_buttons[:len(q.choices)])
    lab.quiz_buttons[q.correct].click()
    [r] = rec.records
    assert (r.kind, r.lab, r.question, r.answer, r.correct) == ("quiz-answer", "tutorial-witness", "witness-q2",
                                                                q.answer, 1)
    assert "Right" in lab.status.value and f"Right: {q.why}" in lab.live.text  # words, not colour only
    assert q.why in lab.quiz_result.value and "Right" in lab.quiz_result.value
    assert lab.quiz_buttons[q.correct].description.startswith("\u2713 ")
    assert all(b.disabled for b in lab.quiz_buttons)
    shown = _quiz_html(lab)
    for b in lab.quiz_buttons:  # a second click (a stale page, a Python call): nothing changes, nothing recorded
        b.click()
    lab.answer(1 - q.correct if q.correct < 2 else 0)
    assert len(rec.records) == 1 and _quiz_html(lab) == shown
    lab.next_button.click()  # then the learner continues: the step the question was about
    assert lab.step == q.step + 1 and lab.question is None and lab.quiz_box.layout.display == "none"
    assert lab.errors == []


def test_a_wrong_answer_says_not_quite_and_why():
    lab = RulesTutorial("knockout")
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    q = _to_question(lab, "knockout-q2")
    wrong = next(i for i in range(len(q.choices)) if i != q.correct)
    lab.quiz_buttons[wrong].click()
    [r] = rec.records
    assert (r.lab, r.question, r.answer, r.correct) == ("tutorial-knockout", "knockout-q2", q.choices[wrong], 0)
    assert "Not quite" in lab.status.value and "Right" not in lab.status.value
    assert f"the answer is \u201c{q.answer}\u201d. {q.why}" in lab.live.text
    assert lab.quiz_buttons[wrong].description == "\u2717 " + q.choices[wrong]
    assert lab.quiz_buttons[q.correct].description == "\u2713 " + q.answer
    lab.quiz_buttons[q.correct].click()  # trying again: the first answer stands
    assert len(rec.records) == 1 and lab.answers == {"knockout-q2": wrong}
    assert lab.errors == []


def test_skipping_records_nothing_and_the_question_waits():
    lab = RulesTutorial("witness")
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    q = _to_question(lab, "witness-q1")
    lab.next_button.click()  # Next without answering
    assert lab.step == q.step + 1 and rec.records == [] and lab.answers == {}
    lab.back_button.click()  # back: the question is still open
    assert lab.question == q and not lab.quiz_buttons[0].disabled and "Choose an answer" in lab.quiz_result.value
    lab.quiz_buttons[q.correct].click()
    assert [r.question for r in rec.records] == ["witness-q1"]
    lab.reset_button.click()  # Restart: the answer stands, shown again, never recorded again
    _to_question(lab, "witness-q1")
    assert all(b.disabled for b in lab.quiz_buttons) and "Right" in lab.quiz_result.value
    assert "You answered this step's question" in lab.live.text
    lab.quiz_buttons[0].click()
    lab.quiz_buttons[1].click()
    assert len(rec.records) == 1 and lab.errors == []


def test_nothing_is_recorded_before_joining():
    lab = RulesTutorial("knockout")
    q1 = _to_question(lab, "knockout-q1")
    lab.quiz_buttons[q1.correct].click()  # not joined: the lab answers, nothing is kept
    assert lab.recorder is None and "Right" in lab.status.value and lab.errors == []
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    lab.back_button.click()
    lab.next_button.click()
    lab.quiz_buttons[0].click()  # the question answered before joining stays answered
    assert rec.records == []
    q3 = _to_question(lab, "knockout-q3")
    lab.quiz_buttons[1].click()
    [r] = rec.records
    assert (r.question, r.answer, r.correct) == ("knockout-q3", q3.choices[1], int(q3.correct == 1))
    assert lab.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_the_whole_quiz_by_clicks(game):
    """Every question of a game, answered as a learner would (the right one for odd questions): one record
    each, in order, equal to what the engine says."""
    lab = RulesTutorial(game)
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    asked = []
    for _ in range(lab.steps):
        q = lab.question
        if q is not None:
            pick = q.correct if len(asked) % 2 == 0 else (q.correct + 1) % len(q.choices)
            lab.quiz_buttons[pick].click()
            asked.append((q.id, q.choices[pick], int(pick == q.correct)))
        else:
            assert lab.quiz_box.layout.display == "none"
        lab.next_button.click()
    assert 3 <= len(asked) <= 4
    assert [(r.question, r.answer, r.correct) for r in rec.records] == asked
    assert {r.lab for r in rec.records} == {f"tutorial-{game}"}
    assert lab.errors == []


def test_no_quiz_from_another_seat_and_bad_choices():
    lab = RulesTutorial("witness", viewer=1)
    rec = Recorder("Zed")
    lab.use_recorder(rec)
    for _ in range(lab.steps):
        assert lab.question is None and lab.quiz_box.layout.display == "none"
        lab.next_button.click()
    lab.answer(0)
    assert "no question" in lab.status.value and rec.records == []
    lab = RulesTutorial("witness")
    lab.use_recorder(rec)
    lab.answer(0)  # step 0: no question
    assert "no question" in lab.status.value
    _to_question(lab, "witness-q3")
    for bad in (7, -1, "1", True):
        lab.answer(bad)
        assert "There is no choice" in lab.status.value
    lab.quiz_buttons[3].click()  # a hidden button (2 choices here)
    assert rec.records == [] and lab.answers == {} and lab.errors == []


def test_what_the_lab_records_is_what_the_teachers_quiz_table_counts():
    """Issue 21 (follow-up): two learners answer every question in the labs, one always right, one always with
    the choice after the right one; the class's quiz table (the teacher's page) reads their records."""
    from safari_kit.class_results.class_tables import pool

    records = []
    for nickname, off in (("Ann", 0), ("Bo", 1)):
        rec = Recorder(nickname)
        for game in GAMES:
            lab = RulesTutorial(game)
            lab.use_recorder(rec)
            for q in questions(T.script(game)):
                _to_question(lab, q.id)
                lab.quiz_buttons[(q.correct + off) % len(q.choices)].click()
            assert lab.errors == []
        records += rec.records
    table = pool(records).quiz()
    asked = [q for game in GAMES for q in questions(T.script(game))]
    assert list(table.question) == [q.id for q in asked]
    for row, q in zip(table.itertuples(index=False), asked):
        assert (row.answered, row.right, row.right_answer, row.text) == (2, 1, q.answer, q.text)
        assert (row.top_wrong, row.top_wrong_count) == (q.choices[(q.correct + 1) % len(q.choices)], 1)


@pytest.mark.parametrize("game", ["witness", "knockout"])
def test_the_quiz_is_named_and_sits_under_next(game):
    """Issue 27: nobody found the quiz (the word "quiz" was nowhere; the question sat under the cards, below a
    768 px screen in the app). It sits right under Back / Next in the side column, says "Quiz: question n of N",
    and the first step says that quiz questions come."""
    lab = RulesTutorial(game)
    side = list(lab.side_column.children)
    assert lab.quiz_box in side and lab.quiz_box not in lab.main_column.children
    assert side.index(lab.quiz_box) < side.index(lab.explanation)
    n = len(lab.questions)
    assert f"{n} quiz questions" in lab.status.value and f"{n} quiz questions" in lab.live.text
    for number, step in enumerate(sorted(lab.questions), start=1):
        lab.go(step)
        assert f"Quiz: question {number} of {n}" in lab.quiz_text.value
        assert lab.status.value.count("Quiz") == 1 and f"Quiz question {number} of {n}:" in lab.live.text


def test_the_quiz_words_are_short_sentences():
    """Issue 27: one idea a sentence, at most about 25 words. The questions, their choices, and the whys the quiz
    builds itself (a ruling's own line is the rulings' text, checked with them)."""
    from safari_kit.tutorial.tutorials import knockout_script, witness_script

    for script in (witness_script(), knockout_script()):
        for q in questions(script):
            built = [q.text, *q.choices] + ([q.why] if q.id in ("witness-q2", "witness-q3", "knockout-q2") else [])
            for words in built:
                for sentence in re.split(r"(?<=[.?!])\s+", words):
                    assert len(sentence.split()) <= 25, (q.id, sentence)
