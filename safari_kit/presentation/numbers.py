"""Reading the numbers a learner types: ``14/74``, ``0.19``, ``19%``, or a Fraction.

Used by the exercise checks (teaching) and by the labs' guess boxes (widgets),
so both read an answer the same way.

>>> as_number("14/74"), as_number("19%"), as_number(" 0.5 "), as_number("two")
(Fraction(7, 37), 0.19, 0.5, None)
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["as_number"]


def as_number(answer: Any) -> Fraction | float | None:
    """Read a learner's answer: a Fraction, an int, a float, or text like "14/74", "0.19", "19%"."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, (int, Fraction)):
        return Fraction(answer)
    if isinstance(answer, float):
        return answer
    if isinstance(answer, str):
        text = answer.strip().replace(" ", "")
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
