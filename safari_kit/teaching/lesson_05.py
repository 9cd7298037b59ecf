"""Lesson 05 (simulation lab): answers and hints of its exercises (Monte Carlo, the 1/sqrt(n) law,
interval coverage).

The questions are in notebooks/05-simulation-lab.md. Every answer is computed
with the kit: standard errors with
:class:`~safari_kit.probability.distributions.Estimate`, the exact
probabilities with :mod:`safari_kit.probability.witness`.
"""
from __future__ import annotations

import math
from fractions import Fraction

from safari_kit.teaching.exercises import Exercise, Hint, register

__all__ = ["p_animal", "se_at", "trials_for_se", "RATIO_FACTOR", "TARGET_SE", "INTERVALS", "LEVEL"]

# the exercises' numbers, as the lesson states them (safari_kit/teaching/facts.py ties the text to these)
RATIO_FACTOR = 4        # 05.se-ratio: "You run 4 times as many trials"
TARGET_SE = 0.01        # 05.trials-for-se: "the standard error is at most 0.01"
INTERVALS = 100         # 05.misses: "You make 100 independent 95% intervals" (a round of the lab)
LEVEL = Fraction(95, 100)


def p_animal() -> Fraction:
    """P(an animal identification succeeds, knowing nothing): the probability layer's baseline."""
    from safari_kit.cards.load import load_cards
    from safari_kit.probability.witness import p_match_baseline

    card = load_cards().witness[0]
    return p_match_baseline(card.id, "animal").value


def se_at(p, n: int) -> float:
    """The standard error of an estimate from n trials when the true chance is p (Estimate's own formula)."""
    from safari_kit.probability.distributions import Estimate

    return Estimate(float(p) * n, n, sd=math.sqrt(float(p) * (1 - float(p))), proportion=False).se


def trials_for_se(p, target: float) -> int:
    """The fewest trials whose standard error is at most ``target`` (searched with :func:`se_at`)."""
    lo, hi = 1, 1
    while se_at(p, hi) > target:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if se_at(p, mid) <= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


register(Exercise(
    "05.se-ratio", lambda: round(se_at(p_animal(), 1000) / se_at(p_animal(), RATIO_FACTOR * 1000), 6),
    hints=[Hint(lambda a: a == 4, "Four times the trials does not make the error four times smaller: "
                                  "look at the slope of the log-log plot."),
           Hint(lambda a: a == 16, "That would be the square. The error shrinks like 1/√n, not 1/n²."),
           Hint(lambda a: float(a) < 1, "More trials make the error smaller, so the divisor is bigger than 1.")],
    tolerance=0.01,
    general_hint="SE is proportional to 1/√n. What is √4?"))

register(Exercise(
    "05.trials-for-se", lambda: trials_for_se(p_animal(), TARGET_SE),
    hints=[Hint(lambda a: abs(float(a) - 100) < 1, "n = 1/0.01 forgets p(1 − p): SE = √(p(1 − p)/n)."),
           Hint(lambda a: abs(float(a) - 10000) < 1,
                "n = 1/0.01² forgets the factor p(1 − p), which is less than 1/4 here."),
           Hint(lambda a: float(a) < 200, "Too few: SE = √(p(1 − p)/n) must be at most 0.01, so square both sides.")],
    tolerance=2,
    general_hint="Solve √(p(1 − p)/n) ≤ 0.01 for n with p = 7/37."))

register(Exercise(
    "05.misses", lambda: INTERVALS * (1 - LEVEL),
    hints=[Hint(lambda a: a == 95, "95 is how many you expect to cover it. How many miss?"),
           Hint(lambda a: a == 0, "A 95% interval is allowed to miss: 1 time in 20 on average.")],
    tolerance=0.5,
    general_hint="95% cover, so what percentage miss?"))
