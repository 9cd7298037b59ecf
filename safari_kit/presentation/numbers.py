"""Numbers between the kit and a learner: reading what a learner types, writing a chance in the lesson's form.

:func:`as_number` reads ``14/74``, ``0.19``, ``19%``, or a Fraction; it is used
by the exercise checks (teaching) and by the labs' guess boxes (widgets), so
both read an answer the same way.

>>> as_number("14/74"), as_number("19%"), as_number(" 0.5 "), as_number("two")
(Fraction(7, 37), 0.19, 0.5, None)

:func:`count_first` writes a chance the way the lessons do: where the chance
is a count over equally likely cards, the count comes first, then the reduced
fraction, then a decimal.

>>> from fractions import Fraction
>>> count_first(Fraction(7, 37), (14, 74))
'14/74 (= 7/37) ≈ 0.189'

Every decimal and percent a learner reads is written here, in the learner's language (issue 30): English
0.189 and 18.9%, Spanish 0,189 and 18,9 % (:data:`NUMBER_STYLES`, the one table of how a language writes
numbers; the standard library only, no Babel in the learner's kernel).

>>> from safari_kit.core.i18n import language
>>> decimal(0.18919, 3), percent(0.18919), whole(12345)
('0.189', '18.9%', '12,345')
>>> with language("es"):
...     decimal(0.18919, 3), percent(0.18919), whole(12345), as_number("0,189"), count_first(Fraction(7, 37))
('0,189', '18,9\xa0%', '12.345', 0.189, '7/37 ≈ 0,189')
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from safari_kit.core.i18n import current_language

__all__ = ["as_number", "count_first", "decimal", "percent", "whole", "NUMBER_STYLES"]

NBSP = "\u00a0"


class NumberStyle(NamedTuple):
    """How a language writes numbers (CLDR's, kept by hand for the kit's few languages)."""

    decimal_mark: str
    group_mark: str
    percent: str  # "{}" is the number
    min_grouping: int  # digits before a whole number gets group marks (Spanish: 5, "1000" but "10.000")


#: the one table of how each language writes numbers; a language missing here writes them as English does
NUMBER_STYLES: dict[str, NumberStyle] = {
    "en": NumberStyle(".", ",", "{}%", 4),
    "es": NumberStyle(",", ".", "{}" + NBSP + "%", 5),
}


def _style() -> NumberStyle:
    lang = current_language()
    return NUMBER_STYLES.get(lang) or NUMBER_STYLES.get(lang.split("_")[0]) or NUMBER_STYLES["en"]


def decimal(value: Any, digits: int = 3) -> str:
    """``value`` with ``digits`` decimals, in the learner's language (``0.189``, ``0,189``)."""
    text = f"{float(value):.{int(digits)}f}"
    return text.replace(".", _style().decimal_mark)


def percent(value: Any, digits: int = 1) -> str:
    """A share (0.189) as a percent in the learner's language (``18.9%``, ``18,9 %``)."""
    return _style().percent.format(decimal(float(value) * 100, digits))


def whole(value: int) -> str:
    """A whole number with the language's group marks (``12,345``, ``12.345``; Spanish groups from 10.000)."""
    style = _style()
    n = int(value)
    if len(str(abs(n))) < style.min_grouping:
        return str(n)
    return f"{n:,}".replace(",", style.group_mark)


def as_number(answer: Any) -> Fraction | float | None:
    """Read a learner's answer: a Fraction, an int, a float, or text like "14/74", "0.19", "19%"."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, (int, Fraction)):
        return Fraction(answer)
    if isinstance(answer, float):
        return answer
    if isinstance(answer, str):
        text = answer.strip().replace(" ", "").replace(NBSP, "")
        if _style().decimal_mark == "," and "," in text:  # a Spanish learner's 0,189 (and 18,9 %)
            text = text.replace(".", "").replace(",", ".")
        try:
            if text.endswith("%"):
                return float(text[:-1]) / 100
            if "/" in text:
                return Fraction(text)
            return float(text) if "." in text or "e" in text.lower() else Fraction(int(text))
        except (ValueError, ZeroDivisionError):
            return None
    try:
        return float(answer)
    except (TypeError, ValueError):
        return None


def count_first(value: Any, count: tuple[int, int] | None = None, digits: int = 3, nobreak: bool = False) -> str:
    """A chance in the lessons' form: the count first, ``"14/74 (= 7/37) ≈ 0.189"``.

    ``value``: an :class:`~safari_kit.probability.distributions.Exact` (its own
    ``count`` is used when ``count`` is not given), a Fraction or an int.
    ``count``: ``(favourable, equally likely cases)``; it must give ``value``.
    Without a count, or when the count is already reduced, the fraction is
    written once; 0 and 1 (and whole numbers) are written plainly. ``digits``:
    decimals of the approximation. ``nobreak``: join the parts with no-break
    spaces, so that a narrow screen never splits "7/37 ≈ 0.189" across lines
    (for HTML and printed output alike).

    >>> from fractions import Fraction
    >>> count_first(Fraction(7, 37), (14, 74))
    '14/74 (= 7/37) ≈ 0.189'
    >>> count_first(Fraction(7, 37))
    '7/37 ≈ 0.189'
    >>> count_first(Fraction(12, 74), (12, 74), digits=4)
    '12/74 (= 6/37) ≈ 0.1622'
    >>> count_first(Fraction(9, 74), (9, 74))
    '9/74 ≈ 0.122'
    >>> count_first(Fraction(1), (5, 5)), count_first(0), count_first(Fraction(145, 69), digits=2)
    ('1', '0', '145/69 ≈ 2.10')
    >>> count_first(Fraction(1, 2), (37, 74), nobreak=True) == "37/74\u00a0(=\u00a01/2)\u00a0=\u00a00.5"
    True

    An :class:`Exact` carries its count (here P(animal match) for the TAM
    Elephant, knowing nothing):

    >>> from safari_kit.probability.witness import p_match_baseline
    >>> count_first(p_match_baseline("W03", "animal"))
    '14/74 (= 7/37) ≈ 0.189'
    """
    if count is None:
        count = getattr(value, "count", None)
    value = getattr(value, "value", value)
    v = Fraction(value)
    if count is not None:
        a, b = int(count[0]), int(count[1])
        if b <= 0 or Fraction(a, b) != v:
            raise ValueError(f"the count {a}/{b} does not give {v}")
    sp = NBSP if nobreak else " "
    if v.denominator == 1:
        return str(v.numerator)
    reduced = f"{v.numerator}/{v.denominator}"
    head = reduced
    if count is not None and (a, b) != (v.numerator, v.denominator):
        head = f"{a}/{b}{sp}(={sp}{reduced})"
    approx = f"{float(v):.{digits}f}"
    mark = _style().decimal_mark
    if Fraction(approx) == v:  # a terminating decimal is exact: say "=", trimmed
        return f"{head}{sp}={sp}{approx.rstrip('0').rstrip('.').replace('.', mark)}"
    return f"{head}{sp}≈{sp}{approx.replace('.', mark)}"
