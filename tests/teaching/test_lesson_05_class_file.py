"""Issue 26, lesson 05 §6 on a class's own file: the exercises check against the file the learner loaded (at
9bdb9c7 they were tied to the shipped example and refused the right answers for any other class), the text's
claim about the class's total is true for the example class shown under it, and the Brier exercise no longer
calls the lowest score "best calibrated" (that learner scores worse than always guessing the exact chance)."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from safari_kit.teaching import lesson_05
from safari_kit.class_results.class_export import example_path, read_csv, write_csv
from safari_kit.teaching.exercises import check

ROOT = Path(__file__).resolve().parents[2]
LESSON = (ROOT / "notebooks" / "05-simulation-lab.md").read_text(encoding="utf-8")


@pytest.fixture
def another_class(tmp_path):
    """The example class without its lowest Brier scorer and two others: another class's export."""
    records = read_csv(example_path())
    gone = {"Gecko", "Zebra7", "Hare"}
    path = tmp_path / "class.csv"
    write_csv(path, [r for r in records if r.nickname not in gone])
    yield path
    lesson_05.load_class()  # back to the example for the other tests


def answers_from(path: Path) -> tuple[int, str]:
    """The two answers computed from the file with pandas, as a learner does (independent of the kit's tables)."""
    raw = pd.read_csv(path, comment="#")
    runs = raw[(raw.kind == "simulation-run") & (raw.question == lesson_05.CLASS_QUESTION)]
    guesses = raw[(raw.kind == "guess") & raw.chance_seen.ne(True)]
    g = guesses.guess.map(lambda x: float(Fraction(str(x))))
    scores = ((g - guesses.outcome) ** 2).groupby(guesses.nickname).mean()
    return int(runs.trials.sum()), str(scores.idxmin())


def test_the_exercises_check_against_the_class_file_loaded(another_class):
    trials, lowest = answers_from(another_class)
    example_trials, example_lowest = answers_from(example_path())
    assert (trials, lowest) != (example_trials, example_lowest)
    lesson_05.load_class(another_class)
    assert check("05.class-trials", trials).correct and check("05.lowest-brier", lowest).correct
    assert not check("05.class-trials", example_trials).correct
    assert not check("05.lowest-brier", example_lowest).correct
    lesson_05.load_class(example_path())
    assert check("05.class-trials", example_trials).correct and check("05.lowest-brier", example_lowest).correct


def test_the_lesson_loads_the_class_file_once_and_says_where_to_put_it():
    assert 'CLASS_FILE = example_path()' in LESSON and "results = load_class(CLASS_FILE)" in LESSON
    assert 'raw = pd.read_csv(CLASS_FILE, comment="#")' in LESSON
    assert "Download all records (CSV)" in LESSON and "Put it beside this notebook" in LESSON


def test_the_class_total_is_closer_than_most_learners_own_in_the_example_but_not_than_everyones():
    """Computed from the example's rows, independently of the kit's tables: per question and exact chance with
    several learners, the class's pooled estimate against each learner's own."""
    raw = pd.read_csv(example_path(), comment="#")
    runs = raw[raw.kind == "simulation-run"].copy()
    runs["p"] = runs.exact.map(lambda x: float(Fraction(str(x))))
    shown = None
    for (question, p), rs in runs.groupby(["question", "p"]):
        mine = rs.groupby("learner")[["successes", "trials"]].sum()
        if len(mine) < 2:
            continue
        class_error = abs(rs.successes.sum() / rs.trials.sum() - p)
        closer = int(((mine.successes / mine.trials - p).abs() < class_error).sum())
        assert closer < len(mine) / 2, (question, closer, len(mine))  # closer than most learners' own
        if question == lesson_05.CLASS_QUESTION:
            shown = (closer, len(mine))
    assert shown is not None and shown[0] > 0  # the question the lesson shows: not closer than everyone's
    assert lesson_05.closer_than_class(lesson_05.example_class()) == shown
    assert "closer to the truth than most learners' own" in " ".join(LESSON.split())
    assert "far closer to the truth than anyone's own" not in " ".join(LESSON.split())


def test_the_brier_exercise_says_lowest_score_and_compares_with_the_exact_chance():
    table = lesson_05.example_class().brier()
    best = table.iloc[0]
    assert best.nickname == lesson_05.lowest_brier()
    assert best.brier > best.brier_exact  # why "best calibrated" was wrong
    text = " ".join(LESSON.split())
    assert "best calibrated" not in text and "05.best-calibrated" not in text
    assert "which nickname has the lowest Brier score?" in text
    assert 'table["beat_the_exact_chance"] = table.brier < table.brier_exact' in LESSON
