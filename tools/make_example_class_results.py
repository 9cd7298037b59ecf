"""Write data/example-class-results.csv: a made-up class of 12 learners, played by the kit itself.

Lesson 05's class-experiment section loads this export so that it runs without a class
(issue 21). Nothing in it is typed in: every learner is a secret seed, as in the app,
and their records come from the kit's own code at a fixed seed:

* Simulate runs: the Simulation lab's questions at the learner's seed
  (:func:`safari_kit.widgets.labs.simulation_draws.questions`), each press drawn by the
  lab's own generator of that press (``draw_rng``): the same counts the lab would show;
* guesses: the exact chances of those questions, guessed with a learner's own amount
  of noise (one learner always says 1/2), the outcome drawn with the exact chance;
* Challenge decisions: the Challenge lab's position "stop-or-go" reached by play
  (:mod:`safari_kit.simulation.challenge_positions`), its counts and the exact values of
  stopping and continuing from :mod:`safari_kit.probability.witness`, the learner
  continuing with a boldness of their own, each reveal safe with its exact chance;
* Knockout plays: the lab's "win leading" question, outcome drawn with its chance;
* Rules tutorial quiz answers, before the labs: the tutorial's own questions and choices
  (:mod:`safari_kit.tutorial.tutorial_quiz`), a few skipped (a skipped question records
  nothing), each right with a chance that stands for how hard the class found that rule
  (``QUIZ_RIGHT``), a wrong answer one of the other choices at random. They draw from a
  generator of their own, so the other records are the same draws as without them.

Run:  .venv/bin/python tools/make_example_class_results.py [--out data/example-class-results.csv]
"""
from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from safari_kit.probability import witness as PW  # noqa: E402
from safari_kit.simulation import challenge_positions as CP  # noqa: E402
from safari_kit.class_results.class_export import write_csv  # noqa: E402
from safari_kit.class_results.class_records import (ChallengeDecision, Guess, KnockoutPlay, QuizAnswer,  # noqa: E402
                                                    SimulationRun)
from safari_kit.tutorial.tutorial_quiz import questions as quiz_questions  # noqa: E402
from safari_kit.tutorial.tutorials import script  # noqa: E402
from safari_kit.widgets.labs.simulation_draws import draw_rng, questions  # noqa: E402

SEED = 2126
NICKNAMES = ["Owlet", "Zebra7", "Koala", "Mole", "Tiger", "Sloth", "Gecko", "Lynx", "Otter", "Panda", "Raven",
             "Hare"]
START = datetime(2026, 11, 16, 9, 5, tzinfo=timezone.utc)
COMMAND = "python tools/make_example_class_results.py"
#: the made-up class's chance of answering each tutorial question right: the Challenge's "4 safe reveals
#: first" (witness-q3) and Knockout's tie rule (knockout-q2) were the rules this class had not taken in
QUIZ_RIGHT = {"witness-q1": 0.8, "witness-q2": 0.65, "witness-q3": 0.3, "witness-q4": 0.7, "knockout-q1": 0.75,
              "knockout-q2": 0.4, "knockout-q3": 0.85}
QUIZ_SKIP = 0.1


def _challenge_counts() -> dict:
    """The stop-or-go position's counts at the learner's choice: safe reveals sure to come, S, N, places."""
    game, state, seats = CP.reach("stop-or-go")
    CP.to_decision(state, seats, 0)
    pos = PW.challenge_position(CP.knowledge(state, 0))
    return {"s": pos["s"] + len(pos["safe_places"]), "a": pos["a"], "n": pos["n"],
            "f": len(pos["unknown_places"]), "blocked": pos["blocked"]}


def _challenge(counts: dict, boldness: float, rng: np.random.Generator) -> list[dict]:
    """One challenge from the position: each stop-or-continue moment, what the rule says and the learner did."""
    s, a, n, f = counts["s"], counts["a"], counts["n"], counts["f"]
    moments = []
    result = None
    while result is None:
        stop, cont = PW.stop_vs_continue_counts(s, a, n, f, counts["blocked"])
        if cont is None:  # nothing left to reveal: the stop is forced, not a decision
            result = 1 + s
            break
        rule = "continue" if stop is None or PW.one_step_continue(s, a, n) else "stop"
        choice = "continue" if stop is None or rng.random() < boldness else "stop"
        if stop is not None:
            moments.append({"safe_so_far": s, "p_next": Fraction(a, n), "stop_value": stop, "continue_value": cont,
                            "rule": rule, "choice": choice})
        if choice == "stop":
            result = 1 + s
        elif rng.random() < a / n:
            s, a, n, f = s + 1, a - 1, n - 1, f - 1
        else:
            result = 0
    return [dict(m, result=result) for m in moments]


def _quiz(learner: str, nickname: str, rng: np.random.Generator) -> list[QuizAnswer]:
    """A learner's first answers to the Rules tutorial's quiz (Witness, then Knockout), in the minutes before
    the labs: seq 1, 2, ..."""
    answers: list[QuizAnswer] = []
    clock = START - timedelta(minutes=15) + timedelta(seconds=int(rng.integers(0, 120)))
    for game in ("witness", "knockout"):
        for q in quiz_questions(script(game)):
            clock += timedelta(seconds=int(rng.integers(20, 90)))
            if rng.random() < QUIZ_SKIP:
                continue
            right = bool(rng.random() < QUIZ_RIGHT[q.id])
            others = [c for c in q.choices if c != q.answer]
            answer = q.answer if right else str(rng.choice(others))
            answers.append(QuizAnswer(learner=learner, nickname=nickname, lab=f"tutorial-{game}",
                                      at=clock.isoformat(), seq=len(answers) + 1, question=q.id, answer=answer,
                                      correct=int(right)))
    return answers


def make_records(seed: int = SEED) -> list:
    rng = np.random.default_rng(seed)
    quiz_rng = np.random.default_rng([seed, 21])  # its own draws: the labs' records stay as they were
    counts = _challenge_counts()
    records: list = []
    for i, nickname in enumerate(NICKNAMES):
        learner = f"L{rng.integers(16**6):06x}"
        lab_seed = int(rng.integers(10**6))
        qs = questions(lab_seed)
        noise = 0.0 if i == 5 else float(rng.choice([0.03, 0.07, 0.12, 0.2]))
        boldness = float(rng.choice([0.1, 0.3, 0.6]))
        clock = START + timedelta(seconds=int(rng.integers(0, 120)))
        quiz = _quiz(learner, nickname, quiz_rng)
        records.extend(quiz)
        seq = len(quiz)  # the learner's records go on counting after their quiz answers

        def common(lab: str) -> dict:
            nonlocal seq, clock
            seq += 1
            clock += timedelta(seconds=int(rng.integers(8, 60)))
            return {"learner": learner, "nickname": nickname, "lab": lab, "at": clock.isoformat(), "seq": seq}

        for key, sizes in (("identify-animal", (100, 200, 500)), ("challenge-4", (1000,)),
                           ("case-colors", (200,))):
            q = qs[key]
            for press, trials in enumerate(sizes[: 1 + int(rng.integers(len(sizes)))] if len(sizes) > 1 else sizes,
                                           start=1):
                est = q.sample(trials, draw_rng(lab_seed, "run", key, trials, press))
                records.append(SimulationRun(**common("simulation"), question=key, trials=trials,
                                             successes=int(round(est.successes)), exact=q.exact.value, seed=lab_seed,
                                             run=press))
        for _ in range(10):
            q = qs[str(rng.choice(["identify-animal", "challenge-4", "case-colors", "knockout-lead"]))]
            exact = q.exact.value
            if i == 5:
                guess = Fraction(1, 2)
            else:
                guess = Fraction(int(np.clip(round((float(exact) + rng.normal(0, noise)) * 20), 0, 20)), 20)
            records.append(Guess(**common("simulation"), guess=guess, exact=exact,
                                 outcome=int(rng.random() < float(exact)), context=q.label))
        for number in range(1, 4):
            for m in _challenge(counts, boldness, rng):
                records.append(ChallengeDecision(**common("challenge"), challenge=number, **m))
        lead = qs["knockout-lead"].exact.value
        for _ in range(3):
            records.append(KnockoutPlay(**common("knockout"), chance=lead, outcome=int(rng.random() < float(lead)),
                                        item="leading"))
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "data" / "example-class-results.csv"))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    records = make_records(args.seed)
    header = (f"A made-up class of {len(NICKNAMES)} learners, played by the kit (not typed in): "
              f"{COMMAND} --seed {args.seed}\nsafari-kit class results export (issue 21); see lesson 05, section 6.")
    path = write_csv(args.out, records, header=header)
    print(f"{path}: {len(records)} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
