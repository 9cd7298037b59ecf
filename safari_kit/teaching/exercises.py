"""Exercise checks that give hints, not answers.

An exercise's question is written once, in its lesson's text
(``notebooks/NN-*.md``, see docs/teachers.md "How to change a lesson"). The
lesson's module ``safari_kit/teaching/lesson_NN.py`` registers, under the same
key, a function that *computes* the right answer with the kit (never a
typed-in number) and hints for the wrong answers learners commonly give.
``check(key, answer)`` then says "correct" or gives the first hint that fits,
never the answer itself. Checking needs only the kit's base install (no
widgets, no Jupyter).

>>> from fractions import Fraction
>>> ex = Exercise("demo-owl", lambda: Fraction(15, 75),
...               hints=[Hint(lambda a: a == Fraction(1, 15), "Count Owls out of all 75 cards, not out of 15.")])
>>> ex.check("1/5").correct
True
>>> print(ex.check(1/15).text)
Not yet. Count Owls out of all 75 cards, not out of 15.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any, Callable

from safari_kit.core.i18n import N_, _
from safari_kit.presentation.numbers import as_number, decimal

Number = int | float | Fraction


def close(a: Fraction | float, b: Fraction | float, tolerance: float) -> bool:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b
    return abs(float(a) - float(b)) <= tolerance


@dataclass(frozen=True)
class Hint:
    """A hint shown when ``applies(answer)`` is true (answer already read as a number)."""

    applies: Callable[[Any], bool]
    text: str


@dataclass(frozen=True)
class Feedback:
    correct: bool
    text: str

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        color = "#1b7f3b" if self.correct else "#9a5b00"
        mark = "✔" if self.correct else "✎"
        return f'<div style="border-left:4px solid {color};padding:4px 8px"><b>{mark}</b> {escape(self.text)}</div>'


@dataclass
class Exercise:
    """One exercise: its key (as in the lesson's ``check("KEY", my_answer)``), how to compute
    the answer, and hints. The question itself is only in the lesson's text."""

    key: str
    answer: Callable[[], Any]
    hints: list[Hint] = field(default_factory=list)
    tolerance: float = 0.005  # for decimal answers to a Fraction
    # the hints are English in the lessons' modules (N_), said in the learner's language when a check fails
    # (or a function that says it, for a hint that names words said elsewhere, such as the data items' names)
    general_hint: str | Callable[[], str] = N_("Check your counting: which cards are still possible?")
    compare: Callable[[Any, Any], bool] | None = None  # for answers that are not numbers

    def check(self, answer: Any) -> Feedback:
        if answer is Ellipsis or answer is None:
            return Feedback(False, _("Type your answer in place of the ... above, then run both cells again."))
        expected = self.answer()
        if self.compare is not None:
            ok = self.compare(answer, expected)
            value = answer
        else:
            value = as_number(comma_typed_as_code(answer))
            if value is None:
                return Feedback(False, _("I could not read {answer} as a number; try a fraction like 2/9 or a "
                                         "decimal.").format(answer=repr(answer)))
            if isinstance(expected, (int, float, Fraction)):
                ok = close(value, expected, self.tolerance)
            else:
                ok = value == expected
        if ok:
            return Feedback(True, _("Correct!") + " " + _praise(value, expected))
        # a decimal answer is matched against hints as the nearest simple fraction
        hint_value = Fraction(value).limit_denominator(200) if isinstance(value, float) else value
        for hint in self.hints:
            try:
                if hint.applies(hint_value):
                    return Feedback(False, _("Not yet.") + " " + _(hint.text))
            except (TypeError, ValueError, ZeroDivisionError):
                continue
        general = self.general_hint() if callable(self.general_hint) else _(self.general_hint)
        return Feedback(False, _("Not yet.") + " " + general)


def comma_typed_as_code(answer: Any) -> Any:
    """A Spanish learner's ``my_answer = 0,189`` (no quotes) as the text ``"0,189"`` they meant.

    Python reads ``0,189`` as the pair ``(0, 189)``. Where the learner's language writes a decimal comma
    (:data:`~safari_kit.presentation.numbers.NUMBER_STYLES`), such a pair is the decimal: Python refuses a
    leading zero in a whole number (``0,05`` is a SyntaxError, not ``(0, 5)``), so no reading is ambiguous.
    Anything else, and every answer in a language with a decimal point, comes back as it was.

    >>> from safari_kit.core.i18n import language
    >>> with language("es"):
    ...     comma_typed_as_code((0, 189)), comma_typed_as_code((18, 9)), comma_typed_as_code((1, 2, 3))
    ('0,189', '18,9', (1, 2, 3))
    >>> comma_typed_as_code((0, 189))
    (0, 189)
    """
    if (isinstance(answer, tuple) and len(answer) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in answer) and answer[1] >= 0
            and decimal(0.5, 1) == "0,5"):  # the learner's language writes a decimal comma
        return f"{answer[0]},{answer[1]}"
    return answer


def _praise(value, expected) -> str:
    if isinstance(expected, Fraction) and isinstance(value, float):
        return _("As an exact fraction it is {fraction}.").format(fraction=expected)
    return ""


_REGISTRY: dict[str, Exercise] = {}


def register(exercise: Exercise) -> Exercise:
    if exercise.key in _REGISTRY:
        raise ValueError(f"exercise {exercise.key!r} is registered twice")
    _REGISTRY[exercise.key] = exercise
    return exercise


def check(key: str, answer: Any) -> Feedback:
    """Check a learner's answer to exercise ``key`` (hints, never the answer)."""
    from safari_kit.teaching import lessons  # noqa: F401  (registers the lessons' exercises)

    if key not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"no exercise {key!r}; the exercises are: {known}")
    return _REGISTRY[key].check(answer)


def exercises() -> dict[str, Exercise]:
    from safari_kit.teaching import lessons  # noqa: F401

    return dict(_REGISTRY)
