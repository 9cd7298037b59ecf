"""Exercise checks: correct answers pass, common wrong answers get hints, never the answer."""
import re
from fractions import Fraction

import pytest

from safari_kit.teaching import check, exercises
from safari_kit.teaching.exercises import as_number


def test_every_exercise_accepts_its_own_computed_answer():
    for key, ex in exercises().items():
        expected = ex.answer()
        assert check(key, expected).correct, key


def test_wrong_answers_get_a_hint_not_the_answer():
    for key, ex in exercises().items():
        expected = ex.answer()
        if ex.compare is not None or not isinstance(expected, (int, Fraction)):
            continue  # answers that are not exact numbers have their own tests
        for wrong in (Fraction(1, 5), Fraction(1, 2), Fraction(0)):
            if wrong == expected:
                continue
            fb = check(key, wrong)
            assert not fb.correct
            for shown in (str(expected), f"{float(expected):.3f}"):
                assert not re.search(rf"(?<![\d./]){re.escape(shown)}(?![\d/])", fb.text), (key, fb.text)


def test_lesson_figures_come_from_the_deck():
    assert check("02.animal", "14/74").correct
    assert check("02.tam-name", "12/74").correct
    assert check("01.owl", 0.2).correct
    assert "clue card" in check("02.animal", "1/5").text


@pytest.mark.parametrize("text,value", [("14/74", Fraction(7, 37)), ("20%", 0.2), ("0.25", 0.25), ("3", Fraction(3))])
def test_answers_are_read_from_text(text, value):
    assert as_number(text) == value


def test_unreadable_answer_says_so():
    fb = check("01.owl", "an owl")
    assert not fb.correct and "could not read" in fb.text


def test_unknown_exercise_names_the_known_ones():
    with pytest.raises(KeyError, match="01.owl"):
        check("99.nope", 1)
