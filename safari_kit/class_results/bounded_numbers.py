"""Numbers read from files anyone could have written, bounded *before* they cost anything (issue 26).

A class's records come back from places a learner can edit: a downloaded results file,
a CSV export, a notebook. Python's own parsers trust their input too much for that:
``Fraction("1e-300000000")`` builds 10**300000000 (minutes of CPU for 12 bytes), a
5,000-digit whole number is refused by ``int()`` with a message naming no field, and a
count of ``10**15`` trials is a valid int that drowns every other learner's runs.
So every chance, count and number of cards a record holds goes through this module:

* :func:`fraction`: a number as an exact :class:`~fractions.Fraction` from a Fraction, an int,
  a float (its decimal digits: 0.3 is 3/10) or a text like ``"7/37"``, ``"0.25"`` or ``"1e-3"``,
  refused unless the text is at most :data:`NUMBER_TEXT_MAX` characters, its exponent at most
  :data:`EXPONENT_MAX` and its numerator and denominator at most :data:`BITS_MAX` bits;
* :func:`whole`: a whole number between a low and a high bound (:data:`COUNT_MAX` unless
  the field has its own, :data:`LIMITS`).

Errors are :class:`NumberError` (a ValueError) naming the field, what was expected, and
the input shortened by :func:`shown` (a 900 kB text is not printed back whole).

>>> fraction("7/37", "exact", high=1)
Fraction(7, 37)
>>> fraction("1e-300000000", "exact", high=1)
Traceback (most recent call last):
...
safari_kit.class_results.bounded_numbers.NumberError: exact: the exponent must be between -60 and 60, got '1e-300000000'
>>> whole(10**15, "trials", 1)
Traceback (most recent call last):
...
safari_kit.class_results.bounded_numbers.NumberError: trials must be at most 100,000, got 1000000000000000
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

__all__ = ["NumberError", "NUMBER_TEXT_MAX", "EXPONENT_MAX", "BITS_MAX", "COUNT_MAX", "TRIALS_MAX", "SEED_MAX",
           "LIMITS", "DIGITS_MAX", "shown", "fraction", "whole", "whole_text"]

NUMBER_TEXT_MAX = 100  # characters of a number written as text ("7/37", "0.25", "1e-3")
EXPONENT_MAX = 60      # |e| in "1e-3": 1e-60 is far below any chance a lab shows
BITS_MAX = 256         # numerator and denominator of an exact value (77 digits; the example class's: 11): sums of many
                       # distinct huge denominators grow without end (2,000 guesses of 300 digits: 27 s of Brier)
DIGITS_MAX = 30        # digits of a whole number written as text (a seed below 2**63 has 19)
COUNT_MAX = 1_000_000  # any count without its own limit: seq, run, challenge, cards, ...
TRIALS_MAX = 100_000   # trials of one Simulate press: the Simulation lab's largest choice (TRIAL_CHOICES)
SEED_MAX = 2**63 - 1   # the largest class seed (safari_kit.widgets.app.MAX_SEED)

#: field -> its highest value; any other count: :data:`COUNT_MAX`
LIMITS = {"trials": TRIALS_MAX, "successes": TRIALS_MAX, "seed": SEED_MAX}

_RATIO = re.compile(r"[+-]?\d+/\d+")
_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE](?P<exp>[+-]?\d+))?")
_WHOLE = re.compile(r"[+-]?\d+")


class NumberError(ValueError):
    """A number that is not what its field expects: the message names the field and shows the input, shortened."""


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters with the full length said (a huge int's digits are never
    made: Python refuses to print more than 4,300 of them)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"a whole number of about {int(value.bit_length() * math.log10(2)) + 1:,} digits"
    if isinstance(value, Fraction) and max(value.numerator.bit_length(), value.denominator.bit_length()) > 4 * limit:
        return f"a fraction of about {int(value.denominator.bit_length() * math.log10(2)) + 1:,}-digit denominator"
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else f"{text[:limit]}... ({len(text):,} characters)"


def fraction(value: Any, field: str, low: Fraction | int = 0, high: Fraction | int | None = None,
             what: str | None = None, out_of_range: str | None = None) -> Fraction:
    """``value`` as an exact Fraction between ``low`` and ``high`` (None: no upper end); ``what`` says what the field
    holds when the value is no number (default: "a number between low and high"), ``out_of_range`` when it is one
    outside the bounds (default: "between low and high")."""
    span = f"between {low} and {high}" if high is not None else f">= {low}"
    what = what or f"a number {span}"
    original = value
    bad = NumberError(f"{field} must be {what}, got {shown(value)}")
    if isinstance(value, bool):
        raise bad
    if isinstance(value, float):
        if not math.isfinite(value):
            raise bad
        value = repr(value)  # its decimal digits: 0.1 is 1/10, not 3602879701896397/36028797018963968
    if isinstance(value, str):
        text = value.strip()
        if len(text) > NUMBER_TEXT_MAX:
            raise NumberError(f"{field}: a number of at most {NUMBER_TEXT_MAX} characters, got {shown(original)}")
        decimal = _DECIMAL.fullmatch(text)
        if decimal is None and not _RATIO.fullmatch(text):
            raise bad
        if decimal is not None and decimal["exp"] is not None and abs(int(decimal["exp"])) > EXPONENT_MAX:
            raise NumberError(f"{field}: the exponent must be between -{EXPONENT_MAX} and {EXPONENT_MAX}, "
                              f"got {shown(original)}")
        try:
            frac = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise bad from None
    elif isinstance(value, (int, Fraction)):
        frac = Fraction(value)
    else:
        raise bad
    if max(frac.numerator.bit_length(), frac.denominator.bit_length()) > BITS_MAX:
        raise NumberError(f"{field}: a number of at most about {int(BITS_MAX * math.log10(2))} digits above and "
                          f"below the fraction bar, got {shown(original)}")
    if frac < low or (high is not None and frac > high):
        raise NumberError(f"{field} must be {out_of_range or span}, got {shown(original)}")
    return frac


def whole(value: Any, field: str, low: int = 0, high: int | None = None) -> int:
    """``value`` (an int, not a bool or a float) between ``low`` and ``high`` (default: ``LIMITS`` of the field, else
    :data:`COUNT_MAX`)."""
    high = LIMITS.get(field, COUNT_MAX) if high is None else high
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise NumberError(f"{field} must be a whole number >= {low}, got {shown(value)}")
    if value > high:
        raise NumberError(f"{field} must be at most {high:,}, got {shown(value)}")
    return value


def whole_text(text: str, field: str) -> int:
    """A whole number written as text (a CSV cell): at most :data:`DIGITS_MAX` digits, so ``int()`` never meets a
    5,000-digit text; the bounds are :func:`whole`'s, checked by the record."""
    stripped = text.strip()
    if len(stripped) > DIGITS_MAX + 1 and _WHOLE.fullmatch(stripped):
        raise NumberError(f"{field} must be a whole number of at most {DIGITS_MAX} digits, got {shown(text)}")
    if not _WHOLE.fullmatch(stripped):
        raise NumberError(f"{field} must be a whole number, got {shown(text)}")
    return int(stripped)
