"""Lesson 05 (simulation lab): answers and hints of its exercises (Monte Carlo, the 1/sqrt(n) law,
interval coverage, the class as one experiment).

The questions are in notebooks/05-simulation-lab.md. Every answer is computed
with the kit: standard errors with
:class:`~safari_kit.probability.distributions.Estimate`, the exact
probabilities with :mod:`safari_kit.probability.witness`, the class's tables with
:mod:`safari_kit.class_results.class_tables` from the class file the learner loaded
(:func:`load_class`: the shipped example export until they load their own class's).
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path

from safari_kit.core.i18n import N_, _
from safari_kit.teaching.exercises import Exercise, Hint, register

__all__ = ["p_animal", "se_at", "trials_for_se", "RATIO_FACTOR", "TARGET_SE", "INTERVALS", "LEVEL", "CLASS_QUESTION",
           "example_class", "load_class", "loaded_class", "class_trials", "lowest_brier", "closer_than_class"]

# the exercises' numbers, as the lesson states them (tests/notebooks/facts/lesson_05.py ties the text to these)
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
    hints=[Hint(lambda a: a == 4, N_("Four times the trials does not make the error four times smaller. The "
                                    "error falls like 1 over the square root of n, not like 1 over n.")),
           Hint(lambda a: a == 16, N_("That would be the square. The error shrinks like 1/√n, not 1/n².")),
           Hint(lambda a: float(a) < 1, N_("More trials make the error smaller, so the divisor is bigger than 1."))],
    tolerance=0.01,
    general_hint=N_("The standard error shrinks like 1/√n: 4 times the trials divide it by √4. What is √4?")))

register(Exercise(
    "05.trials-for-se", lambda: trials_for_se(p_animal(), TARGET_SE),
    hints=[Hint(lambda a: abs(float(a) - 100) < 1, N_("n = 1/0.01 forgets p(1 − p): SE = √(p(1 − p)/n).")),
           Hint(lambda a: abs(float(a) - 10000) < 1,
                N_("n = 1/0.01² forgets the factor p(1 − p), which is less than 1/4 here.")),
           Hint(lambda a: abs(float(a) - 0.25 / TARGET_SE ** 2) < 1,
                N_("That is the answer for p = 1/2, the worst case. Here p = 7/37, so p(1 − p) is smaller "
                  "than 1/4.")),
           Hint(lambda a: float(a) < 200, N_("Too few: SE = √(p(1 − p)/n) must be at most 0.01, so square "
                                            "both sides: 0.01 becomes 0.0001."))],
    tolerance=2,
    general_hint=N_("Square both sides of √(p(1 − p)/n) ≤ 0.01. You get p(1 − p)/n ≤ 0.0001, so n ≥ p(1 − "
                   "p)/0.0001. Use p = 7/37.")))

register(Exercise(
    "05.misses", lambda: INTERVALS * (1 - LEVEL),
    hints=[Hint(lambda a: a == 95, N_("95 is how many you expect to cover it. How many miss?")),
           Hint(lambda a: a == 0, N_("A 95% interval is allowed to miss: 1 time in 20 on average.")),
           Hint(lambda a: abs(float(a) - (1 - float(LEVEL))) < 1e-9,
                N_("That is the share of intervals that miss. How many of the 100 intervals is that?"))],
    # the expected number of misses is exactly 5; a looser tolerance took lesson 05's -4.727 (the Challenge table's
    # mean gain of continuing) for the answer
    tolerance=0.01,
    general_hint=N_("95% cover, so what percentage miss?")))


# ----------------------------------------------------------------------------- §6 the class as one experiment
#: the question lesson 05's class exercise pools (a key of the Simulation lab's questions)
CLASS_QUESTION = "identify-animal"


@functools.lru_cache(maxsize=1)
def example_class():
    """The shipped example class (data/example-class-results.csv) as
    :class:`~safari_kit.class_results.class_tables.ClassResults`."""
    from safari_kit.class_results.class_export import example_path
    from safari_kit.class_results.class_tables import ClassResults

    return ClassResults.from_csv(example_path())


_LOADED: list = []  # the class file the lesson loaded last (issue 26: the checks were tied to the example)


def load_class(path=None):
    """Load a class's CSV export (the teacher's page's download, ``safari-kit results export`` or ``pool --csv``)
    as :class:`~safari_kit.class_results.class_tables.ClassResults`, and make it the class the §6 exercises check
    against: the right answer is computed from the file the learner loaded. ``None``: the shipped example."""
    from safari_kit.class_results.class_export import example_path
    from safari_kit.class_results.class_tables import ClassResults

    same = path is None or Path(path).resolve() == example_path().resolve()
    results = example_class() if same else ClassResults.from_csv(path)
    _LOADED[:] = [results]
    return results


def loaded_class():
    """The class the exercises check against: the last :func:`load_class`, else the shipped example."""
    return _LOADED[0] if _LOADED else example_class()


def class_trials() -> int:
    """05.class-trials: every learner's trials of the class question, added up."""
    runs = [r for r in loaded_class().of_kind("simulation-run") if r.question == CLASS_QUESTION]
    return sum(r.trials for r in runs)


def _learner_trials() -> set[int]:
    """Each learner's own trials of the class question (a common wrong answer: one learner's)."""
    table = loaded_class().learners()
    return set(table[table.question == CLASS_QUESTION].trials)


def _all_questions_trials() -> int:
    """Every run's trials, whatever its question (a common wrong answer: the question left unfiltered)."""
    return sum(r.trials for r in loaded_class().of_kind("simulation-run"))


def _class_runs() -> int:
    return len([r for r in loaded_class().of_kind("simulation-run") if r.question == CLASS_QUESTION])


def closer_than_class(results=None) -> tuple[int, int]:
    """(learners whose own estimate of the class question is closer to the exact chance than the class's pooled
    estimate, learners): the lesson says the class's total is closer than *most* learners' own, not everyone's
    (in the example class some learners are closer). Runs of the class question with one exact chance only."""
    results = results or loaded_class()
    sim, own = results.simulation(), results.learners()
    row = sim[sim.question == CLASS_QUESTION].iloc[0]
    mine = own[(own.question == CLASS_QUESTION) & (own.exact == row.exact)]
    closer = int(((mine.estimate - mine.exact).abs() < abs(row.estimate - row.exact)).sum())
    return closer, len(mine)


def _scores() -> dict[str, tuple]:
    """nickname -> (Brier score, Brier score of always guessing the exact chance), over the counted guesses."""
    names = loaded_class().nicknames()
    return {names[k]: (b, e) for k, (_, b, e) in loaded_class().brier_scores().items() if k is not None}


def lowest_brier() -> str:
    """05.lowest-brier: the nickname with the lowest Brier score (mean of (guess − outcome)²) over the guesses
    the class's tables count (made with the exact chance hidden)."""
    return min((b, name) for name, (b, _) in _scores().items())[1]


def _highest_brier() -> str:
    return max((b, name) for name, (b, _) in _scores().items())[1]


def _lowest_exact() -> str:
    """The nickname whose *exact-chance* score is lowest (a learner who mixed up the columns)."""
    return min((e, name) for name, (_, e) in _scores().items())[1]


def _same_name(a, b) -> bool:
    return isinstance(a, str) and a.strip().casefold() == str(b).casefold()


register(Exercise(
    "05.class-trials", class_trials,
    hints=[Hint(lambda a: a in _learner_trials(), N_("That is one learner's trials. Pool the class: add up "
                                                    "every learner's trials of the question.")),
           Hint(lambda a: a == _class_runs(), N_("That counts the runs (presses of Simulate); add up their trials.")),
           Hint(lambda a: a == _all_questions_trials() != class_trials(),
                N_("That adds the trials of every question. Keep only the runs of identify by animal.")),
           Hint(lambda a: float(a) < 100, N_("Each run has at least 100 trials, and the whole class ran it."))],
    tolerance=0.5,
    general_hint=N_("Keep the rows of kind 'simulation-run' whose question is 'identify-animal', then add up "
                   "their trials column. Did you load the same class file as the exercise (CLASS_FILE, then "
                   "run the cells again)?")))

register(Exercise(
    "05.lowest-brier", lowest_brier, compare=_same_name,
    hints=[Hint(lambda a: _same_name(a, _highest_brier()), N_("That nickname has the highest Brier score: a "
                                                             "lower score is better (0 is perfect).")),
           Hint(lambda a: _same_name(a, _lowest_exact()) and _lowest_exact() != lowest_brier(),
                N_("That is the lowest score of always guessing the exact chance. Score the learners' own guesses.")),
           Hint(lambda a: _same_name(a, N_("the class")) or _same_name(a, _("the class")),  # also "la clase"
                N_("The question asks for one learner's nickname."))],
    general_hint=N_("Answer with a nickname. The Brier score is the mean of (guess − outcome)² over a "
                   "learner's guesses made with the chance hidden: group by nickname, take the mean, and "
                   "pick the smallest.")))
