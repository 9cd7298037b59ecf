"""An exact chance written for the labs' HTML panels and for under a card, count first (issue 27).

Widget-free (issue 28), so the labs' widget-free flows and words (``identification_flow``, ``challenge_text``)
and the widgets (:mod:`safari_kit.widgets.labs.base` re-exports these) write a chance the same way; the words
come from :func:`safari_kit.presentation.numbers.count_first`.
"""
from __future__ import annotations

import html
import re
from fractions import Fraction

from safari_kit.core.i18n import _
from safari_kit.presentation.numbers import count_first, decimal

__all__ = ["count_of", "count_html", "count_lines", "fraction_html"]


def count_of(p):
    """The unreduced count behind an exact chance (favourable, total), when it is one, else None."""
    count = getattr(p, "count", None)
    if count:
        return tuple(count)
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", getattr(p, "formula", "") or "")
    if m and int(m[2]) and Fraction(int(m[1]), int(m[2])) == getattr(p, "value", None):
        return int(m[1]), int(m[2])
    return None


def count_html(p, digits: int = 3) -> str:
    """An exact chance in the lesson's form, count first: ``14/74 (= 7/37) ≈ 0.189``, never broken across lines.

    ``p``: an :class:`~safari_kit.probability.distributions.Exact` (its count is used when it has one) or a
    Fraction. The words come from :func:`safari_kit.presentation.numbers.count_first`.
    """
    value = getattr(p, "value", p)
    return f"<span class='safari-nowrap'>{html.escape(count_first(value, count_of(p), digits))}</span>"


def count_lines(p, digits: int = 2) -> str:
    """An exact chance as two short lines for under a card: ``14/74`` then ``≈ 0.19`` (plain text)."""
    value = Fraction(getattr(p, "value", p))
    count = count_of(p) or (value.numerator, value.denominator)
    if value.denominator == 1:
        return f"P = {value.numerator}" + (" " + _("(sure)") if value == 1 else "")
    return f"{count[0]}/{count[1]}\n≈ {decimal(value, digits)}"


def fraction_html(p, digits: int = 3) -> str:
    """An exact probability as a learner reads it: ``7/37 ≈ 0.189``."""
    if isinstance(p, Fraction):
        if p.denominator == 1:
            return f"{p.numerator}"
        return f"{p.numerator}/{p.denominator} &asymp; {decimal(p, digits)}"
    return decimal(p, digits)


count_of = count_of  # the name base.py had
