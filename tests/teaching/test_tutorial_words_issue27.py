"""The Rules tutorial's own words for a 15-year-old (issue 27, part E2): its intro, its steps, its rulings' lines.

Before: the intro read "2 players, Advanced Mode, a 9-card deck in a fixed order." (three terms a new player
had not met), steps had sentences of up to 63 words ("Every card revealed this turn goes ...") and a formula
("Round r deals 8 - r cards"), and three rulings' one-line summaries were 27 to 41 words long. Now every
sentence a learner reads there has at most 25 words (the measure of the lessons, learner_words), the intro
says what Advanced Mode and Variation 1 do, and the steps say "say" and "turn over" as the learners' rules do.
"""
from __future__ import annotations

import re

import pytest

from safari_kit.tutorial import tutorials as T
from safari_kit.authoring.learner_words import count_words, split_sentences

LIMIT = 25


def learner_texts() -> list[tuple[str, str]]:
    out = []
    for script in (T.witness_script(), T.knockout_script()):
        out.append((f"{script.game} intro", script.intro))
        out += [(f"{script.game} {step.key}", script.explain(k)) for k, step in enumerate(script.steps)]
    out += [(f"ruling {code}", f"{name}: {line}") for code, (name, line) in T.RULINGS.items()]
    return out


@pytest.mark.parametrize("where, text", learner_texts(), ids=[w for w, _ in learner_texts()])
def test_every_sentence_is_short(where, text):
    long = [(count_words(s), s) for s in split_sentences(text) if count_words(s) > LIMIT]
    assert long == [], long


def test_each_rulings_line_fits_in_25_words():
    """The line beside a ruling's name (shown on the step; a click opens its full text) is one short read."""
    assert {code: count_words(line) for code, (_n, line) in T.RULINGS.items() if count_words(line) > LIMIT} == {}


def test_the_intros_say_what_their_terms_mean():
    w, k = T.witness_script().intro, T.knockout_script().intro
    assert "fixed order" not in w and "9-card deck" not in w
    assert "Advanced Mode: a pair that succeeds by name gives you that name's power." in w
    assert "only 9 cards, always in the same order, so the game is short" in w
    assert "Variation 1: a player who wins no turn in a round is out of the game." in k and "(elimination)" not in k


def test_no_formula_or_engine_words_in_the_steps():
    steps = " ".join(text for where, text in learner_texts() if " intro" not in where)
    assert not re.search(r"\b8 - r\b|Round r\b|\bdeclares?\b|\bdeclaring\b|option \([abc]\)|strictly", steps)
