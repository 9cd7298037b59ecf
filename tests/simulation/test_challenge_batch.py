"""The vectorised Challenge-streak simulator agrees with the exact DP and is fast."""
import time

import numpy as np
import pytest

from safari_kit.probability.witness import challenge_dp, p_streak_counts
from safari_kit.simulation.challenge_batch import fixed_rule, simulate_streaks, streak_estimate


@pytest.mark.parametrize("safe,unknown,places", [(30, 74, 8), (38, 74, 4), (12, 20, 9), (50, 60, 14),
                                                  (5, 9, 6), (0, 10, 5)])
def test_optimal_rule_matches_dp(safe, unknown, places):
    est = streak_estimate(safe, unknown, places, 400_000, rng=safe + unknown)
    assert est.within(challenge_dp(0, safe, unknown, places))


def test_fixed_rule_is_a_streak_probability():
    x = simulate_streaks(30, 74, 10, 400_000, rng=3, rule=fixed_rule(4))
    assert set(np.unique(x).tolist()) <= {0, 5}
    from safari_kit.probability.distributions import Estimate

    assert Estimate.from_samples(x == 5).within(p_streak_counts(30, 74, 4))


def test_start_safe_and_blocked():
    # 2 safe already, 1 unknown place left, blocked: can never reach 4 -> always 0
    assert (simulate_streaks(10, 20, 1, 1000, rng=1, start_safe=2, blocked=True) == 0).all()
    # not blocked: stop when places run out
    est = streak_estimate(10, 20, 1, 200_000, rng=1, start_safe=2)
    assert est.within(challenge_dp(2, 10, 20, 1))


def test_speed_at_least_a_million_per_second():
    simulate_streaks(30, 74, 10, 10_000, rng=0)
    t = time.perf_counter()
    simulate_streaks(30, 74, 10, 2_000_000, rng=0, rule=fixed_rule(6))
    rate = 2_000_000 / (time.perf_counter() - t)
    assert rate >= 1_000_000, rate
