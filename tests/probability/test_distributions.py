"""Exact / Estimate / compare (safari_kit.probability.distributions)."""
from fractions import Fraction

import numpy as np
import pytest

from safari_kit.probability.distributions import Estimate, Exact, compare


def test_exact_repr_and_float():
    x = Exact(Fraction(14, 74), "animal", "14/74")
    assert repr(x) == "7/37 ≈ 0.1892"
    assert float(x) == pytest.approx(14 / 74)
    assert x.value == Fraction(7, 37) and x.formula == "14/74"
    assert "7" in x._repr_html_() and "14/74" in x._repr_html_()
    assert Exact(Fraction(1, 2)) == Fraction(1, 2) and Exact(1) < Exact(2)
    assert Exact(3).value == Fraction(3)


def test_estimate_proportion():
    e = Estimate(1890, 10000)
    assert repr(e) == "0.189 ± 0.004 (n=10000)"
    assert e.mean == pytest.approx(0.189)
    assert e.se == pytest.approx((0.189 * 0.811 / 10000) ** 0.5)
    lo, hi = e.ci()
    assert lo < 0.189 < hi and hi - lo == pytest.approx(2 * 1.959964 * e.se, rel=1e-5)
    wlo, whi = e.ci(method="wilson")
    assert wlo < 0.189 < whi
    assert e.within(Fraction(7, 37)) and not e.within(Fraction(1, 4))


def test_estimate_se_zero_is_handled():
    zeros = Estimate(0, 1000)
    assert zeros.se == 0
    assert zeros.within(0) and zeros.within(Fraction(1, 2000)) and not zeros.within(Fraction(1, 10))
    ones = Estimate.from_samples(np.ones(50, dtype=bool))
    assert ones.mean == 1 and ones.within(1)
    const = Estimate.from_samples(np.full(100, 5.0))
    assert const.within(5) and not const.within(6)


def test_from_samples_mean_and_proportion():
    rng = np.random.default_rng(3)
    x = rng.normal(2.0, 1.0, 40000)
    e = Estimate.from_samples(x)
    assert e.n == 40000 and not e.proportion
    assert e.se == pytest.approx(x.std(ddof=1) / 200)
    assert e.within(2.0)
    with pytest.raises(ValueError):
        e.ci(method="wilson")
    b = Estimate.from_samples(rng.random(20000) < 0.3)
    assert b.proportion and b.within(Fraction(3, 10))


def test_compare():
    c = compare(Exact(Fraction(1, 2)), Estimate(520, 1000))
    assert c.exact == Fraction(1, 2)
    assert c.difference == pytest.approx(0.02)
    assert c.z == pytest.approx(0.02 / (0.52 * 0.48 / 1000) ** 0.5)
    assert c.within


def test_bad_inputs():
    with pytest.raises(ValueError):
        Estimate(5, 0)
    with pytest.raises(ValueError):
        Estimate(11, 10)
    with pytest.raises(ValueError):
        Estimate.from_samples([])
    with pytest.raises(ValueError):
        Estimate(1, 10).ci(level=1.5)
