"""Lesson 05 · Simulation lab: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Callable

from .common import _others, _rules, _safe, _section, _tam, _w
from .core import Fact, Given


def _p_animal() -> Fraction:
    return Fraction(_w().match_count(_tam(), "animal"), _others())


def _p_four() -> Fraction:
    """Lesson 05's challenge question: 4 safe reveals in a row for the TAM Elephant on a fresh table."""
    return _w().p_streak_counts(_safe(), _others(), _rules()["min_safe"])


def _coverage(p: Fraction, n: int, method: str) -> float:
    """Exact coverage of a 95% interval from n trials, summing the binomial chances of every count
    whose interval holds p (computed here, independently of the Simulation lab's own function)."""
    from safari_kit.probability.distributions import Estimate

    x = float(p)
    total = 0.0
    for k in range(n + 1):
        lo, hi = Estimate(k, n).ci(0.95, method)
        if lo <= x <= hi:
            total += comb(n, k) * x ** k * (1 - x) ** (n - k)
    return total


def _coverage_pct(p: Fraction, n: int, method: str) -> str:
    return f"{100 * _coverage(p, n, method):.1f}"


LAB_05 = {"trials": 1_000, "size": 100, "small": 20}


def _l05():
    from safari_kit.teaching import lesson_05

    return lesson_05


def _pct(x) -> str:
    return f"{100 * float(x):.0f}"


def _se(p, n: int) -> float:
    return _l05().se_at(p, n)


def _z95() -> str:
    from safari_kit.probability.distributions import Estimate

    lo, hi = Estimate(50, 100).ci(float(_l05().LEVEL), "normal")
    return f"{(hi - lo) / 2 / Estimate(50, 100).se:.2f}"


def _precision(x: int) -> tuple[int, int]:
    """How many times the trials to divide the standard error by x (lesson 05: 100 times more trials, only
    10 times more precise; each extra digit costs 100×)."""
    n = LAB_05["trials"]
    more = _l05().trials_for_se(_p_animal(), _se(_p_animal(), n) / x) / n
    return round(more), x


def _slope() -> str:
    from math import log

    n = LAB_05["trials"]
    s = log(_se(_p_animal(), 100 * n) / _se(_p_animal(), n)) / log(100)
    return str(Fraction(s).limit_denominator(10)).replace("-", "−")


def _binom(n: int, p: float) -> list[float]:
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def _easily(n: int) -> tuple:
    """The extreme estimates after n trials that each come up at least 1 time in 20 (identify by animal)."""
    likely = [k for k, q in enumerate(_binom(n, float(_p_animal()))) if q >= 1 / 20]
    return n, f"{min(likely) / n:g}", f"{max(likely) / n:g}"


def _round_of_intervals() -> tuple:
    """A round of 100 intervals (identify by animal, n = 100): its mean coverage, and the central 19 rounds in 20
    of Binomial(100, coverage), computed here independently of the lab's typical_range."""
    level, rounds = _l05().LEVEL, _l05().INTERVALS
    cover = _coverage(_p_animal(), LAB_05["size"], "normal")
    cdf, tail, lo, hi = 0.0, (1 - float(level)) / 2, None, rounds
    for j, q in enumerate(_binom(rounds, cover)):
        cdf += q
        if lo is None and cdf > tail:
            lo = j
        if cdf >= 1 - tail:
            hi = j
            break
    return rounds, LAB_05["size"], _coverage_pct(_p_animal(), LAB_05["size"], "normal"), rounds, \
        level.numerator, level.denominator, lo, hi


def _rare_round(at_most: int) -> int:
    """About once in how many rounds a round covers at_most times or fewer (two significant figures)."""
    cover = _coverage(_p_animal(), LAB_05["size"], "normal")
    once_in = 1 / sum(_binom(_l05().INTERVALS, cover)[: at_most + 1])
    return int(round(once_in, -1))


def _zero_interval() -> tuple:
    from safari_kit.probability.distributions import Estimate

    est = Estimate(0, LAB_05["small"])
    lo, hi = est.ci(float(_l05().LEVEL), "normal")
    assert lo == hi == est.mean
    return f"{est.mean:g}", f"{(hi - lo) / 2:g}"


def _close_to_level() -> tuple:
    """Lesson 05 §4: at n = 100 both intervals come close to 95% (within 2 points)."""
    level = _pct(_l05().LEVEL)
    simple = _coverage_pct(_p_animal(), LAB_05["size"], "normal")
    wilson = _coverage_pct(_p_animal(), LAB_05["size"], "wilson")
    assert all(abs(float(x) - float(level)) < 2 for x in (simple, wilson))
    return LAB_05["size"], level, simple, wilson


def _conf() -> Callable[[], tuple]:
    return lambda: (_pct(_l05().LEVEL),)


def _brier_of_perfect_guesses() -> int:
    """The Brier score of guessing 1 for what happens and 0 for what does not (lesson 05 §6)."""
    from safari_kit.class_results.class_tables import brier

    return int(brier([(Fraction(1), 1), (Fraction(0), 0)]))


_RARE_ROUND = 86  # the Given above


def _brier_example() -> tuple:
    """Lesson 05 §6: what one guess of 0.2 adds to a Brier score when the event happens, and when it does not."""
    from safari_kit.class_results.class_tables import brier

    guess = Fraction(1, 5)
    g = f"{float(guess):g}"
    return g, 1, f"{float(brier([(guess, 1)])):g}", g, 0, f"{float(brier([(guess, 0)])):g}"


def _precision_of(factor: int) -> int:
    """By how much the standard error falls when the trials are multiplied by factor."""
    n = LAB_05["trials"]
    return round(_se(_p_animal(), n) / _se(_p_animal(), factor * n))


FACTS: tuple[Fact, ...] = (
    Fact("05", "{} times more trials, only {} times more precise", lambda: _precision(10)),
    Fact("05", 'understand what "{}% confidence" means, by making {} intervals',
         lambda: (_pct(_l05().LEVEL), _l05().INTERVALS)),
    Fact("05", "identify by animal, knowing nothing, with {} trials", lambda: (f"{LAB_05['trials']:,}",)),
    Fact("05", "with its {}% band", _conf()),
    Fact("05", "Below: {} confidence intervals, each made from its own fresh trials (section {} explains them)",
         lambda: (_l05().INTERVALS, _section("05", "What"))),
    Fact("05", "with N = {} at is the same on every screen", lambda: (f"{LAB_05['trials']:,}",)),
    Fact("05", "after {} trials it can easily be {} or {}", lambda: _easily(10)),
    Fact("05", "(section {} says what that is)", lambda: (_section("05", "Why the error"),)),
    Fact("05", "√{} ≈ {} times smaller",
         lambda: (10, round(_se(_p_animal(), LAB_05["trials"]) / _se(_p_animal(), 10 * LAB_05["trials"])))),
    Fact("05", "Multiply n by {} and the error is divided by only √{} = {}",
         lambda: (_precision(10)[0], _precision(10)[0], _precision(10)[1])),
    Fact("05", "It has slope {}", lambda: (_slope(),)),
    Fact("05", "Exercise . You run {} times as many trials", lambda: (_l05().RATIO_FACTOR,)),
    Fact("05", "For identify by animal, p = {}/{} (= {})",
         lambda: (_w().match_count(_tam(), "animal"), _others(), _p_animal())),
    Fact("05", "the standard error is at most {}?", lambda: (f"{_l05().TARGET_SE:g}",)),
    Fact("05", 'The simple one is "estimate ± {} × SE": from the estimate minus {} standard errors to the estimate '
               "plus {} standard errors", lambda: (_z95(),) * 3),
    Fact("05", "there is about a {}% chance it will contain the true value. One interval either contains it or not. "
               "But if {} classes each made one, about {} of them would be right",
         lambda: (_pct(_l05().LEVEL), _l05().INTERVALS, _l05().INTERVALS * _l05().LEVEL)),
    Fact("05", "One round of {} intervals is itself random", lambda: (_l05().INTERVALS,)),
    Fact("05", "With {} trials per interval both intervals come close to {}%: {}% (simple) and {}% (Wilson) for "
               "identify by animal", _close_to_level),
    Fact("05", 'The simple interval "estimate ± {} × SE" gets into trouble', lambda: (_z95(),)),
    Fact("05", "Take the challenge question ({} safe cards in a row, p ≈ {}%) with {} trials per interval. The simple "
               "interval covers the truth only {}% of the time, while Wilson's interval covers it {}% of the time",
         lambda: (_rules()["min_safe"], f"{100 * float(_p_four()):.1f}", LAB_05["small"],
                  _coverage_pct(_p_four(), LAB_05["small"], "normal"),
                  _coverage_pct(_p_four(), LAB_05["small"], "wilson"))),
    Fact("05", "With {} trials there is a {}% chance of seeing no success at all. Then the simple interval is "
               '"{} ± {}"', lambda: (LAB_05["small"], f"{100 * (1 - float(_p_four())) ** LAB_05['small']:.1f}")
         + _zero_interval()),
    Fact("05", "choose the question Challenge and set n per interval to {}", lambda: (LAB_05["small"],)),
    Fact("05", "makes a new round of {} intervals from fresh trials. For identify by animal with n = {}, a round "
               "covers on average {} times out of {}. In {} rounds out of {} it covers between {} and {} times",
         _round_of_intervals),
    Fact("05", "So a round with {} or fewer happens about once in {} rounds",
         lambda: (_RARE_ROUND, _rare_round(_RARE_ROUND))),
    Fact("05", "is much closer to {}% than one round usually is",
         lambda: (_coverage_pct(_p_animal(), LAB_05["size"], "normal"),)),
    Fact("05", "You make {} independent {}% intervals", lambda: (_l05().INTERVALS, _pct(_l05().LEVEL))),
    Fact("05", "Lower is better: {} is a perfect prophet", lambda: (_brier_of_perfect_guesses(),)),
    Fact("05", "a guess of {} for an event that happened adds ({} − {})² = {}; if it did not happen, it adds "
               "({} − {})² = {}", lambda: (_brier_example()[0],) + _brier_example()),
    Fact("05", "the two ends of the {}% interval", _conf()),
    Fact("05", "each extra digit costs {}×", lambda: (_precision(10)[0],)),
    Fact("05", '"{}% confidence" is about the method', _conf()),
    Fact("05", "(the challenge question at n = {})", lambda: (LAB_05["small"],)),
    Fact("05", "At n = {} both are close to {}%", lambda: _close_to_level()[:2]),
    Fact("05", '"{} times the trials, {} times more precise" (it is {}). "{} trials for SE {}"',
         lambda: (_l05().RATIO_FACTOR, _l05().RATIO_FACTOR, _precision_of(_l05().RATIO_FACTOR),
                  f"{round(1 / _l05().TARGET_SE ** 2):,}", f"{_l05().TARGET_SE:g}")),
    Fact("05", '"A {}% interval contains the true value with {}% probability"',
         lambda: (_pct(_l05().LEVEL), _pct(_l05().LEVEL))),
)

GIVEN: tuple[Given, ...] = (
    Given("05", "(√ is the square root: 10 × 10 = 100.)", "what a square root is, on the example just above"),
    Given("05", "the last 6 cards it saw", "the lab's plain name of the bot lastk:6 (registry.learner_name)"),
    Given("05", "each time you go one step right (10 times more trials), it goes half a step down. Half a step down "
                "means the error is divided by √10, about 3",
          "what slope −1/2 means on base-10 log scales: a factor 10 in n is a factor √10 ≈ 3.16 in the error"),
    Given("05", "√10", "the cell pools ten runs: the lab's first and nine more presses"),
    Given("05", "after 10 trials", "an early point of the running estimate, where it still jumps"),
    Given("05", "a 2-player tournament", "the cell's line-up: one memory bot against the greedy bot"),
    Given("05", "50% would mean", "one of two players: as good as the other, by symmetry (seats rotate)"),
    Given("05", "(m = 1)", "remembering with probability 1 is remembering every card"),
    Given("05", "Are 30 games enough", "the cell's small tournaments, chosen to run quickly"),
    Given("05", "for m = 0, 0.25, …, 1", "an extension: memory from none to perfect in quarter steps"),
    Given("05", "a round with 86 or fewer", "a rare round chosen as the example (the lab once opened on one)"),
    Given("05", "its lower end falls below 0", "no probability is smaller than 0: the bound a simple interval crosses"),
    Given("05", 'they said "about 0.3", the event happened about 3 times in 10',
          "an illustration of calibration: a guess of 3/10 met by the event 3 times in 10"),
    Given("05", "the outcome: 1 if the event happened and 0 if not", "the outcome's coding in the Brier score"),
    Given("05", "who always says 1 for what happens and 0 for what does not",
          "a perfect prophet's guesses, in the outcome's coding"),
    Given("05", "each step along an axis multiplies by 10 (10, 100, 1000 …)",
          "what a log scale is, with base 10: the lab's error plot marks its axes in powers of ten"),
    Given("05", "It is never below 0 or above 1", "probabilities lie between 0 and 1, and Wilson's interval stays "
                                                  "inside them"),
    Given("05", "With m = 1 it remembers everything; with m = 0 it forgets everything",
          "what remembering with probability 1 or 0 means"),
)
