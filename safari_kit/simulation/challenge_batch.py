"""Many Challenge streaks at once (numpy): S safe cards among N unknown, f face-down places.

Each trial reveals unknown places one at a time without replacement: while r
cards have been revealed safely, the next is safe with probability
(S − r)/(N − r), the exact sequential form of the hypergeometric draw. A
stopping rule decides, before each reveal, whether to continue; a failure
archives nothing, stopping archives the challenged card and every safe card
(1 + s0 + r). Trials are processed in chunks of uniforms, so a million
trials take well under a second.

numpy is imported by the simulators only: the stopping rules are plain Python, so a lesson that imports them
runs its exact part where numpy cannot be installed (the offline static site, issue 18).

>>> from safari_kit.probability.witness import challenge_dp
>>> sizes = simulate_streaks(30, 74, 8, 200_000, rng=1)
>>> est = streak_estimate(30, 74, 8, 200_000, rng=1)
>>> est.within(challenge_dp(0, 30, 74, 8))
True
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from safari_kit.probability.distributions import Estimate
from safari_kit.probability.witness import MIN_SAFE, one_step_continue

if TYPE_CHECKING:
    import numpy as np

__all__ = ["simulate_streaks", "streak_estimate", "optimal_rule", "fixed_rule", "trials_per_second"]


def optimal_rule(s: int, a: int, n: int) -> bool:
    """Continue while P(next safe) = a/n > (1+s)/(2+s); always before 4 safe reveals."""
    return one_step_continue(s, a, n)


def fixed_rule(k: int) -> Callable[[int, int, int], bool]:
    """Stop as soon as k safe reveals are made (k ≥ 4)."""
    def rule(s: int, a: int, n: int) -> bool:
        return s < max(k, MIN_SAFE)
    return rule


def simulate_streaks(safe: int, unknown: int, places: int, trials: int, rng=None,
                     rule: Callable[[int, int, int], bool] = optimal_rule, start_safe: int = 0,
                     blocked: bool = False, chunk: int = 262_144) -> np.ndarray:
    """Archive sizes (int16 array of length ``trials``) of Challenge streaks.

    ``safe``/``unknown``: S safe among N unknown cards; ``places``: unknown
    face-down places; ``start_safe``: safe reveals already made (known-safe
    places count here); ``rule(s, a, n)`` -> continue?; ``blocked``: other
    face-down places forbid stopping before 4 safe when the unknown places run
    out (scored 0, as in :func:`safari_kit.probability.witness.challenge_dp`).
    """
    import numpy as np

    if not 0 <= safe <= unknown:
        raise ValueError("need 0 <= safe <= unknown")
    rng = np.random.default_rng(rng)
    f = min(places, unknown)
    # along an all-safe path the state is deterministic: precompute the plan
    thresholds = []
    r = 0
    while r < f:
        s, a, n = start_safe + r, safe - r, unknown - r
        must = s < MIN_SAFE
        if not must and not rule(s, a, n):
            break
        thresholds.append(a / n if n else 0.0)
        r += 1
    planned = r
    final_s = start_safe + planned
    win = 0 if (final_s < MIN_SAFE and blocked and planned == f) else 1 + final_s
    out = np.empty(trials, dtype=np.int16)
    if planned == 0:
        out[:] = win
        return out
    th = np.asarray(thresholds, dtype=np.float64)
    done = 0
    while done < trials:
        m = min(chunk, trials - done)
        u = rng.random((m, planned))
        ok = (u < th).all(axis=1)
        out[done:done + m] = np.where(ok, win, 0)
        done += m
    return out


def streak_estimate(safe: int, unknown: int, places: int, trials: int, rng=None, **kw) -> Estimate:
    """The mean archive size of :func:`simulate_streaks` as an :class:`Estimate`."""
    import numpy as np

    x = simulate_streaks(safe, unknown, places, trials, rng, **kw).astype(np.float64)
    return Estimate(float(x.mean()), trials, sd=float(x.std(ddof=1)) if trials > 1 else 0.0, proportion=False)


def trials_per_second(trials: int = 2_000_000, safe: int = 30, unknown: int = 74, places: int = 10,
                      rng=0) -> float:
    """Measure the simulator's speed (trials per second) on a typical position."""
    t = time.perf_counter()
    simulate_streaks(safe, unknown, places, trials, rng, rule=fixed_rule(6))
    return trials / (time.perf_counter() - t)
