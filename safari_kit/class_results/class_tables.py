"""The class as one experiment: the learners' records pooled into the class's tables.

:class:`ClassResults` holds a class session's records (from the store, from a folder of
results files with :func:`pool_files`, or from a CSV export) and answers the class's
questions with pandas frames (pandas is imported inside the methods that make frames):

* :meth:`ClassResults.simulation`: per question of the Simulation lab, the class's pooled
  successes and trials, the pooled estimate with its 95% Wilson interval
  (:func:`safari_kit.probability.distributions.wilson`), against the exact value
  the lab recorded; :meth:`ClassResults.learners`: each learner's own estimate beside it
  (the law of large numbers made by the whole class);
* :meth:`ClassResults.calibration`: guessed chances binned (tenths) against how often the
  event happened; :meth:`ClassResults.brier`: each nickname's Brier score and the class's,
  beside the Brier score of always guessing the exact chance;
* :meth:`ClassResults.challenge`: how often the class did what the n/(n+1) rule says, and
  what continuing gave compared with stopping;
* :meth:`ClassResults.quiz`: per question of the Rules tutorial's quiz, how many learners
  answered, how many were right, and the wrong answer chosen most (the rule to explain again).

Runs pool only with runs of the same question *and the same exact chance*: learners on
different seeds may face different positions (the Challenge question's chance depends on
the cards dealt), and trials of different chances are not one experiment. The pooled
counts are exact integers (:meth:`ClassResults.pooled`), so a test can check that they
are the sums of the parts.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from safari_kit.class_results.class_records import (ChallengeDecision, Guess, KnockoutPlay, QuizAnswer, Record,
                                                    SimulationRun)
from safari_kit.class_results.results_file import SUFFIX
from safari_kit.class_results.results_pool import Located, PoolNote, read_files, trusted

__all__ = ["ClassResults", "PoolError", "PoolWarning", "PoolNote", "pool", "pool_files", "brier", "calibration_bin",
           "same_draws", "quiz_questions"]


class PoolError(ValueError):
    """Records that cannot be pooled (two different records under one learner and seq, no files)."""


def brier(pairs: Iterable[tuple[Fraction, int]]) -> Fraction:
    """The Brier score of (guessed chance, outcome 0/1) pairs: the mean of (guess − outcome)², exact.
    0 is perfect; always guessing 1/2 scores 1/4."""
    pairs = list(pairs)
    if not pairs:
        raise PoolError("a Brier score needs at least one guess")
    return sum(((Fraction(g) - o) ** 2 for g, o in pairs), Fraction(0)) / len(pairs)


def calibration_bin(guess: Fraction, bins: int = 10) -> int:
    """The bin of a guessed chance: 0 for [0, 1/bins), ..., bins − 1 for [(bins−1)/bins, 1] (exact)."""
    return min(int(Fraction(guess) * bins), bins - 1)


def same_draws(runs: Iterable[SimulationRun]) -> int:
    """How many runs repeat another learner's draw: same seed (not secret), question, trials and run
    number. With a shared class seed, run k is the same draw on every screen (the lab makes it so, to
    compare), so pooling it adds no information: the pooled interval is then too narrow."""
    seen: set[tuple] = set()
    repeats = 0
    for r in runs:
        if r.seed is None or r.run is None:
            continue
        key = (r.seed, r.question, r.trials, r.run)
        repeats += key in seen
        seen.add(key)
    return repeats


@lru_cache(maxsize=1)
def quiz_questions() -> tuple:
    """The Rules tutorial's quiz questions in the order the tutorial asks them (the Witness script's, then the
    Knockout script's): :class:`~safari_kit.tutorial.tutorial_quiz.Question` objects, read from the engine's
    replay of the scripts once (the teacher's page asks on every refresh)."""
    from safari_kit.tutorial.tutorial_quiz import questions
    from safari_kit.tutorial.tutorials import script

    return tuple(q for game in ("witness", "knockout") for q in questions(script(game)))


def pool(records: Iterable[Record], notes: Iterable[PoolNote] = ()) -> "ClassResults":
    """The class's records: the same record met twice (a file downloaded twice) counts once. The records of a
    learner id that cannot be trusted (two nicknames, or two different records under one seq) are left out with a
    sentence each in :attr:`ClassResults.notes`, and the rest are pooled (issue 26: one learner never stops the
    class's pool; :mod:`safari_kit.class_results.results_pool`)."""
    return _pool_located((("the records", None, r) for r in records), notes)


def _pool_located(located: Iterable[Located], notes: Iterable[PoolNote] = ()) -> "ClassResults":
    records, said = trusted(located)
    return ClassResults(tuple(sorted(records, key=lambda r: (r.learner, r.seq))), notes=(*notes, *said))


class PoolWarning(UserWarning):
    """A results file or a learner's records left out of the pool (the sentence says which, where and why)."""


def pool_files(folder: str | Path, pattern: str = f"*{SUFFIX}", warn: bool = True) -> "ClassResults":
    """Pool every results file (``*.safari-results.jsonl``) in ``folder``: the route without a class server.
    A file that cannot be read or trusted is left out and the others pooled (issue 26): each is a sentence in
    :attr:`ClassResults.notes` naming the file and line (and, with ``warn``, a :class:`PoolWarning`, which a
    notebook shows). :class:`PoolError` when no file is left to pool."""
    import warnings

    folder = Path(folder)
    if not folder.is_dir():
        raise PoolError(f"{str(folder)!r} is not a folder")
    files = sorted(p for p in folder.glob(pattern) if p.is_file())
    if not files:
        raise PoolError(f"no results files ({pattern}) in {str(folder)!r}")
    located, notes = read_files(files)
    results = _pool_located(located, notes)
    if not results.records:
        said = " | ".join(str(n) for n in results.notes[:5]) + (" | ..." if len(results.notes) > 5 else "")
        raise PoolError(f"nothing to pool in {str(folder)!r}: every file was left out: {said}")
    if warn:
        for note in results.notes:
            if note.skipped:
                warnings.warn(note.text, PoolWarning, stacklevel=2)
    return results


def _interval(successes: int, trials: int) -> tuple[float, float, float]:
    """(estimate, low, high): the 95% Wilson interval as the tournaments give it, which always contains
    the estimate (Estimate.wilson's rounding can put the low end of 0 successes a hair above 0)."""
    from safari_kit.probability.distributions import wilson

    lo, hi = wilson(successes, trials)
    return successes / trials, lo, hi


@dataclass(frozen=True)
class ClassResults:
    """A class session's records, one per (learner, seq), sorted; see the module's docstring."""

    records: tuple[Record, ...]
    #: what the pool left out or counted once, one sentence each naming the file and line (:mod:`results_pool`)
    notes: tuple[PoolNote, ...] = field(default=(), compare=False)

    @classmethod
    def from_store(cls, store) -> "ClassResults":
        """From a :class:`~safari_kit.class_results.class_store.ResultStore`."""
        return pool(store.records())

    @classmethod
    def from_csv(cls, path: str | Path) -> "ClassResults":
        """From a CSV export (:func:`safari_kit.class_results.class_export.write_csv`): chances read by the same bounded
        parser as every record's, and a learner id that cannot be trusted left out with a note naming the lines."""
        from safari_kit.class_results.class_export import read_csv_lines

        return _pool_located((str(path), line, record) for line, record in read_csv_lines(path))

    def of(self, kind: type[Record]) -> list:
        """The records of one class, e.g. ``results.of(Guess)``."""
        return [r for r in self.records if isinstance(r, kind)]

    def of_kind(self, kind: str) -> list:
        """The records of one kind by name, e.g. ``results.of_kind("guess")``."""
        return [r for r in self.records if r.kind == kind]

    def nicknames(self) -> dict[str, str]:
        """learner id -> nickname."""
        return {r.learner: r.nickname for r in self.records}

    def where(self):
        """Who is where: one row per learner with the lab of their latest record and its time (the
        teacher's "who is in which lab right now", as far as the records tell)."""
        import pandas as pd

        last: dict[str, Record] = {}
        for r in self.records:
            if r.learner not in last or (r.at, r.seq) > (last[r.learner].at, last[r.learner].seq):
                last[r.learner] = r
        counts = Counter(r.learner for r in self.records)
        rows = [{"nickname": r.nickname, "learner": k, "lab": r.lab, "at": r.at, "records": counts[k]}
                for k, r in sorted(last.items())]
        return pd.DataFrame(rows, columns=["nickname", "learner", "lab", "at", "records"])

    # ------------------------------------------------------------------ simulation
    def pooled(self) -> dict[tuple[str, Fraction], tuple[int, int]]:
        """(question, exact chance) -> (successes, trials) of the whole class: exact sums."""
        out: dict[tuple[str, Fraction], tuple[int, int]] = {}
        for r in self.of(SimulationRun):
            s, n = out.get((r.question, r.exact), (0, 0))
            out[r.question, r.exact] = (s + r.successes, n + r.trials)
        return out

    def simulation(self):
        """One row per (question, exact chance): learners, runs, successes, trials, the pooled
        estimate and its 95% Wilson interval, the exact value, and whether the interval covers it."""
        import pandas as pd

        runs: dict[tuple[str, Fraction], list[SimulationRun]] = defaultdict(list)
        for r in self.of(SimulationRun):
            runs[r.question, r.exact].append(r)
        rows = []
        for (question, exact), rs in sorted(runs.items()):
            s, n = sum(r.successes for r in rs), sum(r.trials for r in rs)
            est, lo, hi = _interval(s, n)
            rows.append({"question": question, "exact": float(exact), "exact_fraction": exact,
                         "learners": len({r.learner for r in rs}), "runs": len(rs), "successes": s, "trials": n,
                         "estimate": est, "ci_low": lo, "ci_high": hi, "covers": lo <= exact <= hi,
                         "same_draws": same_draws(rs)})
        return pd.DataFrame(rows, columns=["question", "exact", "exact_fraction", "learners", "runs", "successes",
                                           "trials", "estimate", "ci_low", "ci_high", "covers", "same_draws"])

    def learners(self):
        """One row per (question, exact chance, learner): the learner's own pooled runs, estimate and
        95% Wilson interval, beside the exact value."""
        import pandas as pd

        runs: dict[tuple[str, Fraction, str], list[SimulationRun]] = defaultdict(list)
        for r in self.of(SimulationRun):
            runs[r.question, r.exact, r.learner].append(r)
        names = self.nicknames()
        rows = []
        for (question, exact, learner), rs in sorted(runs.items()):
            s, n = sum(r.successes for r in rs), sum(r.trials for r in rs)
            est, lo, hi = _interval(s, n)
            rows.append({"question": question, "exact": float(exact), "nickname": names[learner],
                         "learner": learner, "runs": len(rs), "successes": s, "trials": n, "estimate": est,
                         "ci_low": lo, "ci_high": hi, "covers": lo <= exact <= hi})
        return pd.DataFrame(rows, columns=["question", "exact", "nickname", "learner", "runs", "successes", "trials",
                                           "estimate", "ci_low", "ci_high", "covers"])

    # ------------------------------------------------------------------ guesses
    def counted_guesses(self) -> list[Guess]:
        """The guesses the class's calibration and Brier tables count: every guess but those made with the exact
        chance on the learner's screen (``chance_seen`` True: a copy, not a guess; issue 26: one page copied the
        shown chance 351 times). A guess whose record does not say (``None``: a file of an older kit) counts."""
        return [g for g in self.of(Guess) if getattr(g, "chance_seen", None) is not True]

    def guess_counts(self) -> dict[str, int]:
        """How many guesses were recorded, counted, left out because the chance was on screen, and counted
        without knowing (older files): the words under the tables say it."""
        seen = [getattr(g, "chance_seen", None) for g in self.of(Guess)]
        return {"recorded": len(seen), "counted": sum(v is not True for v in seen),
                "chance_seen": sum(v is True for v in seen), "unknown": sum(v is None for v in seen)}

    def _guess_weights(self) -> dict[str, Fraction]:
        """learner -> the weight of each of their counted guesses, 1/(their counted guesses): every learner
        weighs as one learner in the class's rows, however many guesses they made."""
        counts = Counter(g.learner for g in self.counted_guesses())
        return {k: Fraction(1, n) for k, n in counts.items()}

    def calibration(self, bins: int = 10):
        """One row per bin of guessed chance (tenths by default) holding any counted guess
        (:meth:`counted_guesses`): how many guesses and learners, the bin's ``weight`` in learners (each
        guess weighs 1/(its learner's counted guesses), so each learner adds 1 in all), and, weighted so,
        the mean guess, the share that happened and the mean exact chance; ``happened`` is the plain count."""
        import pandas as pd

        if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
            raise PoolError(f"bins must be a whole number >= 1, got {bins!r}")
        weights = self._guess_weights()
        groups: dict[int, list[Guess]] = defaultdict(list)
        for g in self.counted_guesses():
            groups[calibration_bin(g.guess, bins)].append(g)
        rows = []
        for b, gs in sorted(groups.items()):
            w = sum((weights[g.learner] for g in gs), Fraction(0))

            def mean(values, gs=gs, w=w) -> float:
                return float(sum((weights[g.learner] * Fraction(v) for g, v in zip(gs, values)), Fraction(0)) / w)

            rows.append({"bin": f"{b / bins:.2g}–{(b + 1) / bins:.2g}", "guesses": len(gs),
                         "learners": len({g.learner for g in gs}), "weight": float(w),
                         "mean_guess": mean(g.guess for g in gs), "happened": sum(g.outcome for g in gs),
                         "share_happened": mean(g.outcome for g in gs), "mean_exact": mean(g.exact for g in gs)})
        return pd.DataFrame(rows, columns=["bin", "guesses", "learners", "weight", "mean_guess", "happened",
                                           "share_happened", "mean_exact"])

    def brier_scores(self) -> dict[str | None, tuple[int, Fraction, Fraction]]:
        """learner id -> (counted guesses, Brier score of the guesses, Brier score of guessing the exact chance
        each time), exact; None -> the whole class: (all counted guesses, the mean over learners of each
        learner's score, the same mean of the exact chance's scores): each learner weighs one learner."""
        by: dict[str, list[Guess]] = defaultdict(list)
        for g in self.counted_guesses():
            by[g.learner].append(g)
        out: dict[str | None, tuple[int, Fraction, Fraction]] = {
            k: (len(gs), brier((g.guess, g.outcome) for g in gs), brier((g.exact, g.outcome) for g in gs))
            for k, gs in by.items()}
        if by:
            mine = list(out.values())
            out[None] = (sum(n for n, _, _ in mine), sum((b for _, b, _ in mine), Fraction(0)) / len(mine),
                         sum((e for _, _, e in mine), Fraction(0)) / len(mine))
        return out

    def brier(self):
        """One row per learner (lowest score first) and a last row for the class (the mean of the learners'
        scores, :meth:`brier_scores`): counted guesses, the Brier score of the guesses, and the Brier score
        "always guess the exact chance" got on the same events."""
        import pandas as pd

        scores = self.brier_scores()
        names = self.nicknames()
        rows = [{"nickname": names[k], "learner": k, "guesses": n, "brier": float(b), "brier_exact": float(e)}
                for k, (n, b, e) in scores.items() if k is not None]
        rows.sort(key=lambda row: (row["brier"], row["nickname"]))
        if None in scores:
            n, b, e = scores[None]
            rows.append({"nickname": "the class", "learner": "", "guesses": n, "brier": float(b),
                         "brier_exact": float(e)})
        return pd.DataFrame(rows, columns=["nickname", "learner", "guesses", "brier", "brier_exact"])

    # ------------------------------------------------------------------ knockout
    def knockout(self):
        """One row per learner who played in the Knockout lab, and a last row for the class: plays, the plays
        whose best chance in the hand is known (``with_best``) and the share of those where the learner played
        it (``best_share``), the mean chance of winning the lab showed for the cards played, and the share of
        plays that won (what the shown chances promised, against what happened). The class row sums the
        plays and takes every share and mean as the mean over learners: each learner weighs one learner."""
        import pandas as pd

        by: dict[str, list[KnockoutPlay]] = defaultdict(list)
        for play in self.of(KnockoutPlay):
            by[play.learner].append(play)
        names = self.nicknames()
        nan = float("nan")
        rows: list[dict[str, Any]] = []
        for learner, plays in by.items():
            known = [(p.chance, p.best) for p in plays if p.best is not None]
            rows.append({"nickname": names[learner], "learner": learner, "plays": len(plays), "with_best": len(known),
                         "best_share": sum(chance >= best for chance, best in known) / len(known) if known else nan,
                         "mean_chance": float(sum((p.chance for p in plays), Fraction(0)) / len(plays)),
                         "won": sum(p.outcome for p in plays),
                         "won_share": sum(p.outcome for p in plays) / len(plays)})
        rows.sort(key=lambda row: (row["nickname"], row["learner"]))
        if rows:
            def mean(key: str) -> float:
                values = [row[key] for row in rows if row[key] == row[key]]  # NaN: no best known for that learner
                return sum(values) / len(values) if values else nan

            rows.append({"nickname": "the class", "learner": "", "plays": sum(row["plays"] for row in rows),
                         "with_best": sum(row["with_best"] for row in rows), "best_share": mean("best_share"),
                         "mean_chance": mean("mean_chance"), "won": sum(row["won"] for row in rows),
                         "won_share": mean("won_share")})
        return pd.DataFrame(rows, columns=["nickname", "learner", "plays", "with_best", "best_share", "mean_chance",
                                           "won", "won_share"])

    # ------------------------------------------------------------------ challenge
    def challenge(self):
        """One row per thing the n/(n+1) rule said ("stop", "continue"): decisions, how many the learners
        stopped and continued, the share that followed the rule, the expected cards lost by not following
        it (mean over those decisions, exact values from the lab), and what continuing gave compared with
        stopping there: the mean of (cards archived in the end − cards a stop would have archived) over
        the continued decisions whose challenge has ended."""
        import pandas as pd

        rows = []
        for rule in ("stop", "continue"):
            ds: list[ChallengeDecision] = [d for d in self.of(ChallengeDecision) if d.rule == rule]
            if not ds:
                continue
            other = [d for d in ds if d.choice != rule and d.stop_value is not None and d.continue_value is not None]
            lost = [abs(d.stop_value - d.continue_value) for d in other]  # type: ignore[operator]
            went_on = [d.result - d.n_if_stop for d in ds if d.choice == "continue" and d.result is not None]
            rows.append({"rule": rule, "decisions": len(ds), "stopped": sum(d.choice == "stop" for d in ds),
                         "continued": sum(d.choice == "continue" for d in ds),
                         "followed_share": sum(d.choice == rule for d in ds) / len(ds),
                         "expected_cards_lost": float(sum(lost, Fraction(0)) / len(lost)) if lost else 0.0,
                         "continued_result_vs_stop": sum(went_on) / len(went_on) if went_on else float("nan")})
        return pd.DataFrame(rows, columns=["rule", "decisions", "stopped", "continued", "followed_share",
                                           "expected_cards_lost", "continued_result_vs_stop"])

    # ------------------------------------------------------------------ rules tutorial quiz
    def quiz(self):
        """One row per quiz question answered, in the order the tutorial asks them (a question id the kit does
        not know comes after them, by id, with its id as its words): the game, the question's number in its
        game, the rulings it asks about, its words and right answer (from
        :mod:`~safari_kit.tutorial.tutorial_quiz`), how many learners answered, how many of them were right and
        their share, and the wrong answer chosen most with how many chose it (ties: the first in the
        question's choices, then by its words; "" when nobody was wrong). Each learner counts once per
        question, with their first answer (the tutorial records only that; a second page of the same learner
        id could record another); right or wrong is the record's own ``correct``."""
        import pandas as pd

        first: dict[tuple[str, str], QuizAnswer] = {}
        for a in self.of(QuizAnswer):  # records are sorted by (learner, seq): the first answer is met first
            first.setdefault((a.question, a.learner), a)
        by: dict[str, list[QuizAnswer]] = defaultdict(list)
        for (question, _), a in first.items():
            by[question].append(a)
        known = {q.id: q for q in quiz_questions()}
        order = [q for q in known if q in by] + sorted(q for q in by if q not in known)
        numbers: Counter[str] = Counter()
        number: dict[str, int] = {}
        for q in known.values():
            game = q.id.split("-")[0]
            numbers[game] += 1
            number[q.id] = numbers[game]
        rows = []
        for qid in order:
            answers = by[qid]
            q = known.get(qid)
            wrong = Counter(a.answer for a in answers if not a.correct)
            rank = {c: i for i, c in enumerate(q.choices)} if q else {}
            top = min(wrong, key=lambda w: (-wrong[w], rank.get(w, len(rank)), w)) if wrong else ""
            right = sum(a.correct for a in answers)
            rows.append({"question": qid, "game": qid.split("-")[0] if q else "", "number": number.get(qid, 0),
                         "rulings": " ".join(q.rulings) if q else "", "text": q.text if q else qid,
                         "right_answer": q.answer if q else "", "answered": len(answers), "right": right,
                         "right_share": right / len(answers), "top_wrong": top,
                         "top_wrong_count": wrong[top] if wrong else 0})
        return pd.DataFrame(rows, columns=["question", "game", "number", "rulings", "text", "right_answer",
                                           "answered", "right", "right_share", "top_wrong", "top_wrong_count"])
