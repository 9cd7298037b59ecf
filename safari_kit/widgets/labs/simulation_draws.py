"""The Simulation lab's draws: its questions, its reproducible runs and rounds, and its default seed.

Pure functions (no widgets), so the lab, lesson 05, the tests and
``tools/choose_simulation_seed.py`` share them:

* :func:`questions`: the lab's questions at a seed, each with an exact answer from
  :mod:`safari_kit.probability` and its Monte Carlo twin;
* :func:`running_estimate`, :func:`coverage_run`: one press of **Simulate** and one
  round of **Run the intervals**; :func:`draw_rng` is the generator of press k
  (keyed by the seed and the press, so run k is the same draw on every screen);
* :func:`exact_coverage`, :func:`typical_range`, :func:`count_at_most`: what the
  lab writes under a round (how often an interval covers, the range a round
  of intervals falls in 19 times in 20);
* :data:`DEFAULT_SEED` and :func:`atypical_draws`: the lab opens where a class
  starts, so its default seed is chosen (issue 17: seed 1 showed "100 of 100"
  in round 2 of the Challenge question, right under "a round of 100 usually
  covers between 88 and 98", about 1 round in 700). The default is the
  smallest seed whose first presses of every question are typical and whose
  Challenge question is the lesson's (``tools/choose_simulation_seed.py`` runs
  the search; ``tests/widgets/test_labs_simulation.py`` keeps the property).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from safari_kit.core.chance import Chance
from safari_kit.core.i18n import _
from safari_kit.presentation.card_words import mugshot_elements
from safari_kit.presentation.numbers import whole
from safari_kit.probability.distributions import Estimate, Exact

__all__ = ["Question", "questions", "count_words", "running_estimate", "coverage_run", "exact_coverage",
           "count_at_most", "typical_range", "tournament_seed", "draw_rng", "interval_estimates", "atypical_draws",
           "DEFAULT_SEED", "TYPICAL_PRESSES", "Z95"]

#: The lab's default seed (and lesson 05's): the smallest seed that passes :func:`atypical_draws` with
#: nothing atypical and deals the lesson's Challenge question (31 safe cards of 74, p = C(31,4)/C(74,4)).
#: Found by ``tools/choose_simulation_seed.py``; the tests recompute the property, so a change of the
#: generators or of the questions that broke it fails a test instead of showing every class an odd start.
DEFAULT_SEED = 28
#: How many first presses of each button :func:`atypical_draws` checks at the default seed.
TYPICAL_PRESSES = 3
Z95 = 1.959963984540054  # the 95% normal quantile (Estimate.ci's own)


def draw_rng(seed: int, *key) -> np.random.Generator:
    """The numpy generator of one press: seeded from the Chance words of (seed, "simulation-lab", *key).

    Simulate's press k with a question and N: key ("run", question, N, k); round k of the intervals with a
    question, n per interval and a count: ("coverage", question, n, count, k).
    """
    return np.random.default_rng(Chance(seed).derive("simulation-lab", *key))


def tournament_seed(seed: int, run: int) -> int:
    """The tournament seed of run ``run`` (1, 2, ...) of the lab's tournaments at ``seed``.

    Run 1 is the lab's seed itself (``tournament(game, ..., seed=seed)`` in Python
    plays the same games); run k > 1 draws from the generator keyed by
    (seed, "tournament", k). It does not depend on the line-up, so run k of two
    line-ups deals the same games (a paired comparison of bots).

    >>> tournament_seed(1, 1), tournament_seed(1, 2) == tournament_seed(1, 2) != tournament_seed(2, 2)
    (1, True)
    """
    if isinstance(run, bool) or not isinstance(run, int) or run < 1:
        raise ValueError(f"run must be a whole number >= 1, got {run!r}")
    if run == 1:
        return Chance(seed).seed
    return int(Chance(seed).generator("simulation-lab", "tournament", run).integers(0, 2**62))


# ----------------------------------------------------------------------------- questions
@dataclass(frozen=True)
class Question:
    """A question with an exact answer and a Monte Carlo twin.

    ``exact``: the :class:`Exact` value; ``sample(n, rng)``: an :class:`Estimate`
    from n fresh trials drawn with the numpy generator ``rng``; ``about``: one
    sentence for the learner; ``formula``: the board formula.
    """

    key: str
    label: str
    about: str
    exact: Exact
    sample: Callable[[int, np.random.Generator], Estimate]

    @property
    def formula(self) -> str:
        return self.exact.formula


def _witness_start(seed: int):
    from safari_kit.probability.knowledge import Knowledge
    from safari_kit.witness import WitnessGame

    game = WitnessGame(players=3)
    state = game.new_initial_state(seed=seed)
    obs = state.observation(state.current_player)
    return game, state, Knowledge.from_observation(obs, game=game)


def questions(seed: int = 1) -> dict[str, Question]:
    """The lab's questions for the position dealt by ``seed`` (every exact value from the probability layer)."""
    from safari_kit.knockout import KnockoutGame
    from safari_kit.presentation.table_words import ITEM_LABELS  # the catalogue's copy of DATA_ITEM_LABELS
    from safari_kit.probability import cases as PC
    from safari_kit.probability import knockout as PK
    from safari_kit.probability import witness as PW

    game, state, kn = _witness_start(seed)
    clue = kn.clue[0]
    card = game.cards[clue]
    place = kn.available[0]
    out: dict[str, Question] = {}

    exact = PW.p_match(kn, clue, place, ("animal",))
    out["identify-animal"] = Question(
        "identify-animal", _("Identify by animal, knowing nothing"),
        _("The clue card is a {color} {animal}. You name its animal at place {place}. Does the face-down card there "
          "share its animal?").format(**mugshot_elements(card), place=place),
        exact, lambda n, rng: PW.mc_p_match(kn, clue, place, ("animal",), n=n, rng=rng))

    exact = PW.p_streak(kn, 4)
    out["challenge-4"] = Question(
        "challenge-4", _("Challenge: 4 safe reveals in a row"),
        _("You challenge with the clue card, the {color} {animal} ({texture}, named {name}). Are the 4 face-down "
          "cards all safe? Safe means sharing no animal, texture, color or name.").format(
            **mugshot_elements(card)),
        exact, lambda n, rng: PW.mc_p_streak(kn, 4, n=n, rng=rng))

    deck = list(game.cards)
    exact = PC.p_complete_set("color", [], deck, 10, game=game)
    out["case-colors"] = Question(
        "case-colors", _("Case Card: 5 colors among 10 cards"),
        _("You archive 10 random cards. Do they show all 5 colors? That is a set for the 'set of colors' Case Card."),
        exact, lambda n, rng: PC.mc_complete_set("color", [], deck, 10, n=n, rng=rng, game=game))

    kgame = KnockoutGame(players=3)
    kstate = kgame.new_initial_state(seed=seed)
    kobs = kstate.observation(kstate.current_player)
    options = [(PK.p_win_leading(kgame, kobs, c, item), c, item) for c in kobs.hand for item in kgame.items]
    p, kcard, kitem = min(options, key=lambda o: (abs(float(o[0]) - 0.5), o[1], o[2]))
    pal = kgame.by_id[kcard]
    out["knockout-lead"] = Question(
        "knockout-lead", _("Knockout: win leading"),
        _("Safari Knockout, 3 players: you lead the {pal} and name {item}. Do you win the turn when the others play "
          "their best card?").format(pal=pal.name, item=ITEM_LABELS[kitem]),
        p, lambda n, rng: PK.estimate_p_win(kgame, kobs, kcard, kitem, n=n, rng=rng))
    return out


def count_words(q: Question) -> tuple[str, str]:
    """The exact chance count first, as the lessons write it (issue 27: the reduced fraction came first):
    ``("14/74 =", "14 of the 74 cards you cannot see share ...")``. The head is the unreduced count (the
    lab writes the reduced fraction and its decimal after it); the words say the count and every C(n, k) in
    plain words. Every number is read from the question's own formula and exact value (a formula of another
    shape gets the formula as its head and no words).

    >>> count_words(questions(DEFAULT_SEED)["identify-animal"])[0]
    '14/74 ='
    """
    import re
    from fractions import Fraction

    f = q.formula.replace(" ", "").replace("\u2212", "-")
    p = Fraction(q.exact.value)
    m = re.fullmatch(r"(\d+)/(\d+)", f)
    if q.key == "identify-animal" and m:
        a, b = int(m[1]), int(m[2])
        if Fraction(a, b) == p:
            return f"{a}/{b} =", _("{a} of the {b} cards you cannot see share the clue card's animal.").format(a=a, b=b)
    m = re.fullmatch(r"C\((\d+),(\d+)\)/C\((\d+),(\d+)\)", f)
    if q.key == "challenge-4" and m and m[2] == m[4]:
        safe, k, unseen = int(m[1]), int(m[2]), int(m[3])
        a, b = math.comb(safe, k), math.comb(unseen, k)
        if Fraction(a, b) == p:
            return (f"{whole(a)}/{whole(b)} =",
                    _("Count the ways: {a} ways to choose {k} of the {safe} safe cards, out of {b} ways to choose "
                      "{k} of the {unseen} cards you cannot see. C({safe}, {k}) = {a} means the number of ways to "
                      "choose {k} cards out of {safe}.").format(a=whole(a), b=whole(b), k=k, safe=safe,
                                                                 unseen=unseen))
    m = re.search(r"/C\((\d+),(\d+)\)", f)
    if q.key == "case-colors" and m:
        cards, k = int(m[1]), int(m[2])
        total = math.comb(cards, k)
        fav = p * total
        if fav.denominator == 1:
            return (f"{whole(int(fav))}/{whole(total)} =",
                    _("Count the ways: of all {total} ways to pick {k} of the {cards} cards, {fav} show all 5 "
                      "colors.").format(total=whole(total), k=k, cards=cards, fav=whole(int(fav))))
    m = re.fullmatch(r"C\((\d+)-(\d+),(\d+)\)/C\((\d+),(\d+)\)", f)
    if q.key == "knockout-lead" and m and m[1] == m[4] and m[3] == m[5]:
        unseen, higher, k = int(m[1]), int(m[2]), int(m[3])
        a, b = math.comb(unseen - higher, k), math.comb(unseen, k)
        if Fraction(a, b) == p:
            return (f"{whole(a)}/{whole(b)} =",
                    _("The others hold {k} of the {unseen} cards you cannot see, and {higher} of those beat yours. "
                      "You win when none of the {higher} is among their {k}: {a} ways of {b}. C({unseen}, {k}) "
                      "means the number of ways to choose {k} cards out of {unseen}.").format(
                        k=k, unseen=unseen, higher=higher, a=whole(a), b=whole(b)))
    return f"{q.formula} =", ""


def _checkpoints(n: int, points: int = 60) -> list[int]:
    xs = np.unique(np.geomspace(1, n, points).astype(int))
    xs = [int(x) for x in xs if x >= 1]
    if xs[-1] != n:
        xs.append(n)
    return xs


def running_estimate(question: Question, n: int, rng) -> dict:
    """Simulate n trials in growing batches; the running estimate at each checkpoint.

    Returns ``{"n": [...], "estimates": [Estimate, ...]}``: ``estimates[i]``
    pools all trials up to ``n[i]``.
    """
    rng = np.random.default_rng(rng)
    xs = _checkpoints(int(n))
    done, successes, ests = 0, 0.0, []
    for x in xs:
        batch = question.sample(x - done, rng)
        successes += batch.successes
        done = x
        ests.append(Estimate(int(round(successes)), done))
    return {"n": xs, "estimates": ests}


def interval_estimates(question: Question, size: int, intervals: int, rng) -> list[Estimate]:
    """``intervals`` independent estimates of ``size`` fresh trials each (the trials of one round)."""
    rng = np.random.default_rng(rng)
    return [question.sample(int(size), rng) for _ in range(int(intervals))]


def coverage_run(question: Question, size: int, intervals: int, rng, method: str = "normal") -> dict:
    """``intervals`` independent estimates of ``size`` trials each and their 95% intervals.

    Returns ``{"intervals": [(lo, hi, covers)], "covered": k, "total": intervals}``. The same ``rng``
    gives the same trials whatever the ``method``: switching the interval re-counts the same round.
    """
    exact = float(question.exact)
    rows = []
    for est in interval_estimates(question, size, intervals, rng):
        lo, hi = est.ci(0.95, method)
        rows.append((lo, hi, lo <= exact <= hi))
    covered = sum(1 for r in rows if r[2])
    return {"intervals": rows, "covered": covered, "total": len(rows), "size": int(size), "method": method}


def exact_coverage(p, size: int, method: str = "normal", level: float = 0.95) -> float:
    """P(an interval from ``size`` trials covers p): the sum of the binomial chances of the counts k
    whose interval (:meth:`Estimate.ci`, the lab's own) contains p.

    >>> round(exact_coverage(0.5, 100), 4)
    0.9431
    """
    p, n = float(p), int(size)
    total = 0.0
    for k in range(n + 1):
        lo, hi = Estimate(k, n).ci(level, method)
        if lo <= p <= hi:
            total += _binom_pmf(k, n, p)
    return total


def _binom_pmf(k: int, n: int, p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return float(k == (0 if p <= 0.0 else n))
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(p) + (n - k) * math.log1p(-p))


def count_at_most(k: int, n: int, p: float) -> float:
    """P(X ≤ k) for X ~ Binomial(n, p): e.g. the chance that a round of n intervals covers k or fewer times."""
    return sum(_binom_pmf(j, int(n), float(p)) for j in range(0, int(k) + 1))


def typical_range(n: int, p: float, mass: float = 0.95) -> tuple[int, int]:
    """The central ``mass`` of Binomial(n, p): (lo, hi) with P(X < lo) ≤ (1 − mass)/2 and P(X > hi) ≤ (1 − mass)/2.

    >>> typical_range(100, 0.95)
    (90, 99)
    """
    tail = (1 - mass) / 2
    cdf, lo, hi = 0.0, None, int(n)
    for j in range(int(n) + 1):
        cdf += _binom_pmf(j, int(n), float(p))
        if lo is None and cdf > tail:
            lo = j
        if cdf >= 1 - tail:
            hi = j
            break
    return int(lo or 0), hi


# ----------------------------------------------------------------------------- the default seed
def atypical_draws(seed: int, presses: int = TYPICAL_PRESSES, trials: int = 1_000, size: int = 100,
                   count: int = 100, small: int = 20) -> list[str]:
    """What a class would find unusual in the first ``presses`` presses of each button at ``seed``.

    For every question of :func:`questions` (``seed``) and k = 1 .. ``presses``:

    * run k of Simulate with N = ``trials`` must lie inside its own 95% interval of the exact value
      (``|z| < 1.96``: what the lab's summary says a run does 95 times in 100);
    * round k of the intervals, with ``size`` trials per interval (the lab's default) and with ``small``
      (the smallest n the lab offers, where lesson 05 sends the class), must cover the exact value a
      number of times inside :func:`typical_range` of its exact coverage, for the simple (mean ± 1.96·SE)
      and for Wilson's interval (the Interval menu re-counts the same trials): "a round of 100 usually
      covers between lo and hi (19 rounds in 20)", as the lab writes under every round.

    Returns one line per atypical draw (an empty list: a typical start). The draws are the lab's own:
    :func:`draw_rng` with the lab's keys.
    """
    out = []
    for q in questions(seed).values():
        exact = float(q.exact)
        for k in range(1, presses + 1):
            est = running_estimate(q, trials, draw_rng(seed, "run", q.key, trials, k))["estimates"][-1]
            if abs(est.z(q.exact)) >= Z95:
                out.append(f"{q.key}: run {k} (N = {trials}) is {est.mean:.4f}, z = {est.z(q.exact):+.2f}")
            for n in (size, small):
                ests = interval_estimates(q, n, count, draw_rng(seed, "coverage", q.key, n, count, k))
                for method in ("normal", "wilson"):
                    covered = sum(1 for e in ests if e.ci(0.95, method)[0] <= exact <= e.ci(0.95, method)[1])
                    lo, hi = typical_range(count, exact_coverage(q.exact, n, method))
                    if not lo <= covered <= hi:
                        out.append(f"{q.key}: round {k} (n = {n}, {method}) covers {covered} of {count}, "
                                   f"usually {lo} to {hi}")
    return out
