"""Exact values and Monte Carlo estimates, side by side (empiricaldist-style).

A lesson computes an exact probability as an :class:`Exact` (a
``fractions.Fraction`` with a label and a formula a teacher can copy to the
board) and estimates the same quantity by simulation as an :class:`Estimate`
(mean, standard error, confidence intervals); :func:`compare` puts them
together.

>>> from fractions import Fraction
>>> p = Exact(Fraction(14, 74), "animal match", "14/74", count=(14, 74))
>>> p
7/37 ≈ 0.1892
>>> p.count, p == Fraction(7, 37)
((14, 74), True)
>>> est = Estimate(189, 1000)
>>> est
0.189 ± 0.012 (n=1000)
>>> est.within(p)
True
>>> compare(p, est).z < 1
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import Any

__all__ = ["Exact", "Estimate", "Comparison", "compare", "exact_value", "wilson"]


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes: float, n: int, z: float | None = None) -> tuple[float, float]:
    """The 95 % Wilson score interval for ``successes`` out of ``n`` (``z``: another level's z).

    It always holds successes/n, and stays inside 0..1: the class tables and the tournament's win rates
    use it because, unlike mean ± 1.96·se, it does not collapse to one point at 0 or n successes.

    >>> lo, hi = wilson(0, 20)
    >>> lo, round(hi, 3)
    (0.0, 0.161)
    >>> wilson(3, 0)
    (nan, nan)
    """
    if n <= 0:
        return (math.nan, math.nan)
    z = _z(0.95) if z is None else z
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))  # no rounding past p̂


def exact_value(x: Any) -> Fraction:
    """The Fraction inside ``x`` (an :class:`Exact`, a Fraction, an int or a float)."""
    if isinstance(x, Exact):
        return x.value
    if isinstance(x, Fraction):
        return x
    if hasattr(x, "__index__"):  # int, or an array library's integer scalar
        return Fraction(int(x))
    return Fraction(float(x))


@dataclass(frozen=True, slots=True)
class Exact:
    """An exact probability or expectation: ``value`` is a Fraction.

    ``label`` names the quantity; ``formula`` is plain text for the board,
    e.g. ``"C(34,4)/C(74,4)"``. ``count`` is the unreduced count
    ``(favourable, equally likely cases)`` when the answer *is* a count over
    equally likely cards (or sets of cards), e.g. ``(14, 74)`` for 7/37: a
    lesson shows it first, "14/74 (= 7/37)" (see
    :func:`safari_kit.presentation.numbers.count_first`). It is not part of
    equality or the hash: two Exacts are equal when their values are.
    """

    value: Fraction
    label: str = ""
    formula: str = ""
    count: tuple[int, int] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.value, Fraction):
            object.__setattr__(self, "value", Fraction(self.value))
        if self.count is not None:
            a, b = (int(x) for x in self.count)
            if b <= 0 or a < 0 or Fraction(a, b) != self.value:
                raise ValueError(f"count {a}/{b} does not give the value {self.value}")
            object.__setattr__(self, "count", (a, b))

    def __float__(self) -> float:
        return float(self.value)

    def __eq__(self, other) -> bool:
        if isinstance(other, Exact):
            return self.value == other.value
        if isinstance(other, (Fraction, int, float)):
            return self.value == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other) -> bool:
        return self.value < exact_value(other)

    def __le__(self, other) -> bool:
        return self.value <= exact_value(other)

    def __gt__(self, other) -> bool:
        return self.value > exact_value(other)

    def __ge__(self, other) -> bool:
        return self.value >= exact_value(other)

    @property
    def numerator(self) -> int:
        return self.value.numerator

    @property
    def denominator(self) -> int:
        return self.value.denominator

    def text(self) -> str:
        v = self.value
        if v.denominator == 1:
            return f"{v.numerator}"
        return f"{v.numerator}/{v.denominator} ≈ {float(v):.4f}"

    def __repr__(self) -> str:
        return self.text()

    def __str__(self) -> str:
        head = f"{self.label}: " if self.label else ""
        tail = f"  [{self.formula}]" if self.formula else ""
        return f"{head}{self.text()}{tail}"

    def _repr_html_(self) -> str:
        import html

        v = self.value
        frac = (f"{v.numerator}" if v.denominator == 1 else
                f"<sup>{v.numerator}</sup>&frasl;<sub>{v.denominator}</sub>")
        label = f"<b>{html.escape(self.label)}</b>: " if self.label else ""
        formula = (f" <span style='color:#666'>= {html.escape(self.formula)}</span>" if self.formula else "")
        return f"<span class='sk-exact'>{label}{frac}{formula} ≈ {float(v):.4f}</span>"


@dataclass(frozen=True, slots=True)
class Estimate:
    """A Monte Carlo estimate of a probability or a mean.

    ``Estimate(successes, n)`` estimates a proportion (``successes`` an
    integer count); ``Estimate(mean, n, sd=...)`` a mean with the sample
    standard deviation ``sd``. :meth:`from_samples` builds either from an array.
    """

    mean_or_successes: float
    n: int
    sd: float | None = None
    label: str = ""
    proportion: bool | None = None

    def __post_init__(self) -> None:
        n = int(self.n)
        if n <= 0:
            raise ValueError(f"n must be positive, got {self.n!r}")
        object.__setattr__(self, "n", n)
        prop = self.proportion
        if prop is None:
            prop = self.sd is None
        object.__setattr__(self, "proportion", bool(prop))
        if prop and self.sd is None:
            k = self.mean_or_successes
            if not 0 <= k <= n:
                raise ValueError(f"successes must be between 0 and n={n}, got {k!r}")

    @classmethod
    def from_samples(cls, samples, label: str = "") -> "Estimate":
        """From an array of samples: 0/1 (or bool) samples give a proportion, others a mean."""
        import numpy as np  # the simulators' samples are numpy arrays; the play path never comes here

        a = np.asarray(samples)
        if a.size == 0:
            raise ValueError("no samples")
        a = a.ravel()
        if a.dtype == bool or np.isin(a, (0, 1)).all():
            return cls(int(np.count_nonzero(a)), a.size, label=label)
        a = a.astype(float)
        sd = float(a.std(ddof=1)) if a.size > 1 else 0.0
        return cls(float(a.mean()), a.size, sd=sd, label=label, proportion=False)

    @property
    def successes(self) -> float:
        return self.mean_or_successes if self.sd is None else self.mean_or_successes * self.n

    @property
    def mean(self) -> float:
        if self.sd is None:
            return self.mean_or_successes / self.n
        return float(self.mean_or_successes)

    @property
    def se(self) -> float:
        """Standard error: sqrt(p(1-p)/n) for a proportion, sd/sqrt(n) for a mean."""
        if self.sd is None:
            p = self.mean
            return math.sqrt(p * (1 - p) / self.n)
        return self.sd / math.sqrt(self.n)

    def ci(self, level: float = 0.95, method: str = "normal") -> tuple[float, float]:
        """Confidence interval: ``"normal"`` (mean ± z·se) or ``"wilson"`` (proportions only)."""
        z = _z(level)
        if method == "normal":
            return self.mean - z * self.se, self.mean + z * self.se
        if method == "wilson":
            if self.sd is not None:
                raise ValueError("the Wilson interval is for proportions (successes out of n)")
            n, p = self.n, self.mean
            centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            return centre - half, centre + half
        raise ValueError(f"method must be 'normal' or 'wilson', got {method!r}")

    def wilson(self, level: float = 0.95) -> tuple[float, float]:
        return self.ci(level, "wilson")

    def z(self, exact) -> float:
        """(mean − exact) / se, with se floored as in :meth:`within`."""
        return (self.mean - float(exact_value(exact))) / self._se_floor()

    def _se_floor(self) -> float:
        # se = 0 happens when every sample agrees (p̂ = 0 or 1, or a constant mean):
        # use the standard error of one success/failure in n, 1/n, so that an exact
        # value of 0.0001 is "within" a run of 10 000 zeros but 0.01 is not.
        return max(self.se, 1.0 / self.n)

    def within(self, exact, k: float = 4) -> bool:
        """|mean − exact| ≤ k·se (se floored at 1/n when all samples agreed)."""
        return abs(self.mean - float(exact_value(exact))) <= k * self._se_floor() + 1e-12

    def __repr__(self) -> str:
        se = self.se
        d = 3 if se <= 0 else min(12, max(3, -int(math.floor(math.log10(se)))))
        return f"{self.mean:.{d}f} ± {se:.{d}f} (n={self.n})"

    def _repr_html_(self) -> str:
        lo, hi = self.ci()
        label = f"<b>{self.label}</b>: " if self.label else ""
        return (f"<span class='sk-estimate'>{label}{self.mean:.4f} ± {self.se:.4f} "
                f"(95% CI {lo:.4f}–{hi:.4f}, n={self.n})</span>")


@dataclass(frozen=True, slots=True)
class Comparison:
    """An exact value next to its estimate: difference = estimate − exact, z in standard errors."""

    exact: Fraction
    estimate: Estimate
    difference: float
    z: float

    @property
    def within(self) -> bool:
        return abs(self.z) <= 4

    def __repr__(self) -> str:
        return (f"exact {float(self.exact):.4f}, estimate {self.estimate!r}, "
                f"difference {self.difference:+.4f} ({self.z:+.2f} SE)")


def compare(exact, estimate: Estimate) -> Comparison:
    """Put an exact value and an estimate of it side by side."""
    value = exact_value(exact)
    diff = estimate.mean - float(value)
    return Comparison(value, estimate, diff, estimate.z(value))
