"""Issue 27, part D: the Witness labs open on the learner's turn, and *Mid-game: stop or go on?* keeps its promise.

* The Challenge and Full game labs used to open on a bot's failed turn ("Player 2 failed: remember the face-up
  cards ..."): learners thought they had done something wrong. Every lab now opens on the learner's own turn,
  on many seeds, fair (secret) deals too.
* Lesson 03 promises that *Mid-game: stop or go on?* reaches the stop-or-go decision for sure. On the app's
  secret deals it did not (4 Resets; deals where P(4 safe) = 0). Now every deal the lab serves for that position
  is of its kind: 5 remembered safe places, a real risk after them, and Challenge the better choice.
"""
from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

pytest.importorskip("ipywidgets")

from safari_kit.simulation import challenge_positions as CP  # noqa: E402
from safari_kit.simulation.registry import learner_name  # noqa: E402
from safari_kit.widgets.labs.challenge import ChallengeLab  # noqa: E402
from safari_kit.widgets.labs.fullgame import BOT_CHOICES, FullGameLab  # noqa: E402
from safari_kit.widgets.labs.identification import IdentificationLab  # noqa: E402

#: seeds like the app's secret ones (63 random bits), fixed so a failure replays
SECRET_LIKE = [random.Random(27).getrandbits(63) for _ in range(12)]


def _text(widget) -> str:
    return re.sub(r"<[^>]+>", " ", widget.value)


# ----------------------------------------------------------------------------- 1. the learner's own turn
@pytest.mark.parametrize("key", ["close-call", "identify-sure", "fresh"])
def test_challenge_lab_opens_on_the_learners_turn_on_many_seeds(key):
    for seed in list(range(25)) + SECRET_LIKE[:4]:
        lab = ChallengeLab(position=key, seed=seed)
        assert lab.errors == [], (key, seed, lab.errors)
        if lab.state.is_terminal():
            continue
        assert lab.choosing, (key, seed, lab.state.phase, lab.state.current_player)
        status = _text(lab.status).strip()
        assert "failed" not in status and status.startswith(("Your turn", "The other players went first")), status
        assert not lab.identify_button.disabled and not lab.challenge_button.disabled


def test_challenge_lab_in_fair_mode_opens_on_the_learners_turn_and_says_why():
    for _ in range(6):
        lab = ChallengeLab(fair=True, position="close-call")
        assert lab.errors == [] and lab.choosing
        said = _text(lab.status)
        assert "The other players went first" in said and "What you remember" in said, said
        lab.reset()
        assert lab.errors == [] and lab.choosing


def test_full_game_opens_on_the_learners_turn_on_many_seeds():
    opened_after_a_failure = 0
    for seed in range(40):
        players = 2 + seed % 6
        bots = ("greedy", "random", "memory:0.5", "lastk:3", "greedy,random")[seed % 5]
        lab = FullGameLab(seed=seed, players=players, bots=bots)
        assert lab.errors == [], (seed, lab.errors)
        if lab.state.is_terminal():
            continue
        assert lab._pause is None and lab.state.current_player == 0 and lab.state.phase == "choose", seed
        assert lab.viewer == 0 and "failed" not in _text(lab.status)
        before = [e for e in lab.state.observation(0).log if e.get("player") not in (None, 0)]
        if any(e.get("kind") == "fail" or e.get("success") is False for e in before):
            opened_after_a_failure += 1
            # whose turn and why: the table's line says it, and the bots' turns are listed below the table
            assert "The other players went first" in lab.table.message, lab.table.message
            assert "Since your last turn" in lab.events.value
    assert opened_after_a_failure > 0  # the seeds do cover the case the issue is about


def test_full_game_fair_mode_opens_on_the_learners_turn():
    for _ in range(8):
        lab = FullGameLab(seed=None, fair=True, players=4, bots="random")
        assert lab.errors == [] and lab._pause is None
        assert lab.state.is_terminal() or (lab.state.current_player == 0 and lab.state.phase == "choose")


def test_identification_lab_opens_on_the_learners_turn():
    for seed in range(15):
        lab = IdentificationLab(seed=seed, players=3 + seed % 3, learner=seed % 3)
        assert lab.errors == []
        assert lab.state.is_terminal() or (lab.state.current_player == lab.learner
                                           and lab.state.phase == "choose"), seed


# ----------------------------------------------------------------------------- 2. the promise of stop-or-go
def _reaches_the_decision(lab: ChallengeLab) -> bool:
    """Challenge, then "Reveal one more" (the safest place) until the stop-or-go moment or the end."""
    lab.challenge_button.click()
    for _ in range(12):
        if lab.decision_now:
            return True
        if not lab.in_challenge:
            return False
        lab.reveal_button.click()
    return False


def test_stop_or_go_every_deal_is_of_its_kind():
    pos = CP.position("stop-or-go")
    assert CP.seed_of_kind(pos, pos.seed) == pos.seed  # the lesson's own deal is unchanged
    for seed in SECRET_LIKE + list(range(12)):
        game, state, seats = CP.reach(pos, seed)
        CP.to_decision(state, seats, pos.learner)
        f = CP.facts(state, pos.learner)
        assert f["remembered_safe"] == 5, (seed, f)  # "you remember 5 safe places" (lesson 03)
        assert f["unknown_places"] > 0 and 0 < f["safe_unknown"] < f["unknown_cards"], (seed, f)  # a real risk
        assert f["challenge"] > f["identify"], (seed, f)
        assert CP.seed_of_kind(pos, seed) == CP.seed_of_kind(pos, seed)  # a pure function of the seed


def test_stop_or_go_reaches_the_decision_on_the_apps_secret_deals():
    pos = CP.position("stop-or-go")
    for _ in range(6):
        lab = ChallengeLab(fair=True)
        assert lab.secret and lab.start_position.key == "stop-or-go" and lab.choosing, lab.errors
        assert "Why this position" in lab.why.value and "surely reach" in lab.why.value, lab.why.value
        assert lab._better() == "challenge"
        assert _reaches_the_decision(lab), lab.status.value
        # a meaningful decision: once the remembered places are used, the next place is a real risk
        while lab.decision_now and lab.position()["p_next"] == 1:
            lab.reveal_button.click()
        assert lab.decision_now and 0 < lab.position()["p_next"] < 1, lab.position()["p_next"]
        assert lab.errors == []
    assert pos.kind_why and all(len(s.split()) <= 25 for s in re.split(r"(?<=[.!?])\s+", pos.kind_why))


def test_stop_or_go_with_a_class_seed_is_the_same_deal_on_every_screen():
    a, b = ChallengeLab(seed=123456789, fair=True), ChallengeLab(seed=123456789, fair=True)
    assert a.state.observation(0).to_dict() == b.state.observation(0).to_dict()
    assert _reaches_the_decision(a)


# ----------------------------------------------------------------------------- 3. bots' names
@pytest.mark.parametrize("spec, words", [("memory:0.25", "Bot that remembers a quarter of the cards it sees"),
                                         ("lastk:6", "Bot that remembers only the last 6 cards it saw"),
                                         ("memory:0.5", "Bot that remembers half of the cards it sees"),
                                         ("memory:0.3", "Bot that remembers about 3 in 10 of the cards it sees"),
                                         ("random", "Bot that plays at random")])
def test_bots_have_learner_names(spec, words):
    assert learner_name("witness", spec) == words


def test_full_game_shows_no_bot_code_names():
    for spec, words in BOT_CHOICES:
        assert ":" not in words and "legal" not in words and "memory" not in words and "lastk" not in words, words
    lab = FullGameLab(seed=2, players=3, bots="memory:0.5")
    labels = [label for label, _ in lab.bots_box.options]
    assert "Bot that remembers half of the cards it sees" in labels
    assert not any(re.search(r"\b(memory|lastk|greedy):?", x) for x in labels), labels


# ----------------------------------------------------------------------------- 4. smaller points
def _reveal_first_place(lab: IdentificationLab, seq: int) -> None:
    lab.identify_button.click()
    lab.type_buttons.value = ("animal",)
    lab.table.click = {"kind": "place", "id": lab.state.available_places()[0], "seq": seq}
    lab.guess_box.value = "0.2"
    lab.reveal_button.click()


def test_identification_tally_writes_the_count_first_in_both_columns():
    """The tally's "Knowing nothing" column wrote 7/37 where the lessons write 14/74 (= 7/37)."""
    lab = IdentificationLab(seed=3)
    _reveal_first_place(lab, 1)
    rows = re.findall(r"<tr><td>\d+</td>.*?</tr>", lab.tally.value)
    assert rows, lab.tally.value
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[0])]
    r = lab.predictions[0]
    assert r.nothing == Fraction(7, 37) and r.nothing_count == (14, 74)
    assert cells[6].startswith("14/74 (= 7/37)"), cells


def test_no_lab_line_says_where_the_buttons_are_and_no_card_ids():
    """The buttons sit beside the table, or under it in a narrow notebook: the lines name no place."""
    ident = IdentificationLab(seed=3)
    chal = ChallengeLab()
    for lab in (ident, chal):
        for words in (lab.table.message, _text(lab.status)):
            assert "beside" not in words and "below the table" not in words, words
    chal.challenge_button.click()
    assert "Reveal one more" in chal.table.message  # the click and the button, said as one way
    # the places remembered are named by their cards, never by ids such as W37
    ident = next(lab for lab in (IdentificationLab(seed=s) for s in range(40)) if lab.my_turn and lab.knowledge().known)
    ident.identify_button.click()
    ident.type_buttons.value = ("animal",)
    assert not re.search(r"\bW\d\d\b", re.sub(r"<[^>]+>", " ", ident.all_chances.value + ident.prob.value))


def test_a_refused_move_is_said_as_a_learners_sentence():
    """The rules' own reason, as a sentence: a capital first, a full stop, no rule numbers (not the raw text)."""
    lab = ChallengeLab()
    lab.challenge_button.click()
    lab._reveal(99)
    said = _text(lab.status).strip()
    assert said.startswith("There is no place 99") and said.endswith("."), said
