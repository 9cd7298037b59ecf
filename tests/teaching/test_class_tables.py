"""The class's pooled tables (issue 21): sums of the parts, Brier scores, calibration, Challenge, the tutorial's
quiz, pool_files."""
from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from safari_kit.class_results.class_export import read_csv
from safari_kit.class_results.class_records import ChallengeDecision, Guess, QuizAnswer, SimulationRun
from safari_kit.class_results.class_tables import (ClassResults, PoolError, brier, calibration_bin, pool, pool_files,
                                                   quiz_questions)
from safari_kit.class_results.results_file import write_results
from tests.teaching.test_class_records import session

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "data" / "example-class-results.csv"
AT = "2026-11-16T09:05:00+00:00"
QUESTIONS = {"identify-animal": Fraction(7, 37), "knockout-lead": Fraction(18, 35)}


def sim(learner: str, seq: int, question: str, trials: int, successes: int, exact=None) -> SimulationRun:
    return SimulationRun(learner=learner, nickname=learner.upper(), lab="simulation", at=AT, seq=seq,
                         question=question, trials=trials, successes=successes,
                         exact=QUESTIONS[question] if exact is None else exact)


runs = st.lists(st.tuples(st.sampled_from(["ann", "bo", "cy"]), st.sampled_from(sorted(QUESTIONS)),
                          st.integers(1, 500), st.floats(0, 1)), max_size=25)


@settings(max_examples=60, deadline=None)
@given(runs)
def test_pooled_successes_and_trials_are_the_sums_of_the_learners_runs(parts):
    recs = [sim(who, seq, q, n, int(share * n)) for seq, (who, q, n, share) in enumerate(parts, start=1)]
    results = pool(recs)
    for q in QUESTIONS:
        mine = [r for r in recs if r.question == q]
        if mine:
            assert results.pooled()[q, QUESTIONS[q]] == (sum(r.successes for r in mine), sum(r.trials for r in mine))
        else:
            assert (q, QUESTIONS[q]) not in results.pooled()
    table = results.simulation()
    learners = results.learners()
    for row in table.itertuples():
        assert (row.successes, row.trials) == results.pooled()[row.question, row.exact_fraction]
        own = learners[learners.question == row.question]
        assert own.successes.sum() == row.successes and own.trials.sum() == row.trials
        assert row.ci_low <= row.estimate <= row.ci_high
        assert row.covers == (row.ci_low <= row.exact_fraction <= row.ci_high)


def test_runs_of_the_same_question_with_different_exact_chances_are_not_pooled():
    recs = [sim("ann", 1, "identify-animal", 100, 20), sim("bo", 1, "identify-animal", 100, 30, Fraction(1, 5))]
    table = pool(recs).simulation()
    assert list(table.trials) == [100, 100] and list(table.exact_fraction) == [Fraction(7, 37), Fraction(1, 5)]


@pytest.mark.parametrize("chances", [(Fraction(1, 2),), (Fraction(1, 3), Fraction(3, 4)),
                                     (Fraction(7, 37), Fraction(18, 35), Fraction(1, 10))])
def test_the_brier_score_of_exact_guesses_is_its_expected_value_by_enumeration(chances):
    """Guessing the exact chance p of each event scores, on average over what can happen, the mean of
    p(1 − p): every outcome pattern weighted by its probability."""
    expected = Fraction(0)
    for outcomes in itertools.product((0, 1), repeat=len(chances)):
        weight = math.prod(p if o else 1 - p for p, o in zip(chances, outcomes))
        expected += weight * brier(zip(chances, outcomes))
    assert expected == sum(p * (1 - p) for p in chances) / len(chances)


def test_brier_table_per_nickname_and_class():
    def guess(who, seq, g, exact, outcome):
        return Guess(learner=who, nickname=who.title(), lab="simulation", at=AT, seq=seq, guess=g, exact=exact,
                     outcome=outcome)

    recs = [guess("ann", 1, Fraction(1, 2), Fraction(1, 4), 1), guess("ann", 2, Fraction(1, 2), Fraction(1, 4), 0),
            guess("bo", 1, Fraction(9, 10), Fraction(3, 4), 1)]
    results = pool(recs)
    scores = results.brier_scores()
    assert scores["ann"] == (2, Fraction(1, 4), Fraction(9 / 16 + 1 / 16) / 2)
    assert scores["bo"] == (1, Fraction(1, 100), Fraction(1, 16))
    # the class: the mean of the learners' scores (issue 26: one learner, one weight), not of all guesses pooled
    assert scores[None] == (3, (Fraction(1, 4) + Fraction(1, 100)) / 2,
                            ((Fraction(9, 16) + Fraction(1, 16)) / 2 + Fraction(1, 16)) / 2)
    table = results.brier()
    assert list(table.nickname) == ["Bo", "Ann", "the class"]  # best calibrated first, the class last
    assert table.brier.iloc[-1] == pytest.approx(float(scores[None][1]))
    with pytest.raises(PoolError, match="at least one guess"):
        brier([])


def test_calibration_bins_are_exact_tenths():
    assert [calibration_bin(Fraction(k, 10)) for k in range(11)] == [*range(10), 9]
    assert calibration_bin(Fraction(3, 10) - Fraction(1, 10**9)) == 2
    recs = [Guess(learner="ann", nickname="Ann", lab="simulation", at=AT, seq=i, guess=g, exact=Fraction(1, 3),
                  outcome=o) for i, (g, o) in enumerate([(0.3, 1), (0.35, 0), (0.05, 0), (1, 1)], start=1)]
    table = pool(recs).calibration()
    assert list(table.bin) == ["0–0.1", "0.3–0.4", "0.9–1"]
    assert list(table.guesses) == [1, 2, 1] and list(table.happened) == [0, 1, 1]
    assert table.mean_guess[1] == pytest.approx(0.325) and table.share_happened[1] == 0.5


def test_challenge_table_counts_the_rule_and_what_continuing_gave():
    def decision(seq, rule, choice, result, stop=Fraction(6), cont=Fraction(182, 69)):
        return ChallengeDecision(learner="ann", nickname="Ann", lab="challenge", at=AT, seq=seq, challenge=seq,
                                 safe_so_far=5, p_next=Fraction(26, 69), stop_value=stop, continue_value=cont,
                                 rule=rule, choice=choice, result=result)

    recs = [decision(1, "stop", "stop", 6), decision(2, "stop", "continue", 0), decision(3, "stop", "continue", 7),
            decision(4, "stop", "continue", None), decision(5, "continue", "stop", 6, Fraction(6), Fraction(7))]
    table = pool(recs).challenge().set_index("rule")
    assert table.loc["stop", "decisions"] == 4 and table.loc["stop", "stopped"] == 1
    assert table.loc["stop", "followed_share"] == 0.25
    assert table.loc["stop", "expected_cards_lost"] == pytest.approx(6 - 182 / 69)
    assert table.loc["stop", "continued_result_vs_stop"] == pytest.approx(((0 - 6) + (7 - 6)) / 2)  # 1 not over
    assert table.loc["continue", "expected_cards_lost"] == 1 and table.loc["continue", "followed_share"] == 0


def test_pool_files_reads_every_results_file_of_a_folder(tmp_path):
    write_results(tmp_path / "zed.safari-results.jsonl", session())
    ann = [sim("ann", 1, "identify-animal", 50, 11), sim("ann", 2, "identify-animal", 150, 25)]
    write_results(tmp_path / "ann.safari-results.jsonl", ann)
    write_results(tmp_path / "ann-again.safari-results.jsonl", ann[:1])  # downloaded twice: counted once
    (tmp_path / "notes.txt").write_text("not a results file")
    results = pool_files(tmp_path)
    assert len(results.records) == 7
    assert results.pooled()["identify-animal", Fraction(7, 37)] == (11 + 25 + 21, 50 + 150 + 100)
    assert set(results.where().lab) == {"simulation", "tutorial"}
    (tmp_path / "ann-again.safari-results.jsonl").write_text(
        (tmp_path / "ann-again.safari-results.jsonl").read_text().replace('"successes": 11', '"successes": 12'))
    # issue 26: a learner's conflicting files are left out, with a sentence; the rest of the class is pooled
    results = pool_files(tmp_path, warn=False)
    assert {r.learner for r in results.records} == {"k3f9"}
    assert any("two different records number 1" in str(n) and "successes 12 and 11" in str(n) for n in results.notes)
    (tmp_path / "ann-again.safari-results.jsonl").unlink()
    (tmp_path / "broken.safari-results.jsonl").write_text("{}\n")
    results = pool_files(tmp_path, warn=False)  # a file that cannot be read is left out, named, never dropped silently
    assert len(results.records) == 7
    assert [str(n) for n in results.notes if "broken" in str(n)][0].endswith(
        "broken.safari-results.jsonl: line 1: field format: expected 'safari-kit-results', got None")
    with pytest.raises(PoolError, match="no results files"):
        pool_files(tmp_path / "..", pattern="*.nothing")


def test_the_shipped_example_is_what_the_tool_makes(tmp_path):
    """data/example-class-results.csv is generated, not typed: the tool at its seed writes it again."""
    out = tmp_path / "example.csv"
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_example_class_results.py"), "--out", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    assert out.read_text(encoding="utf-8") == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_holds_the_simulation_labs_exact_values():
    from safari_kit.widgets.labs.simulation_draws import questions

    results = ClassResults.from_csv(EXAMPLE)
    for r in results.of(SimulationRun):
        assert r.exact == questions(r.seed)[r.question].exact.value
    assert len(read_csv(EXAMPLE)) == len(results.records)  # nothing in it repeated or dropped


def test_runs_that_repeat_a_shared_seeds_draw_are_counted():
    """With a shared class seed, run k of the same trials is one draw on every screen: the table says how
    many pooled runs only repeat another's (they still count in the sums, which the class can see)."""
    def shared(learner, run, seed=28, trials=100):
        return SimulationRun(learner=learner, nickname=learner, lab="simulation", at=AT, seq=run,
                             question="identify-animal", trials=trials, successes=19, exact=Fraction(7, 37),
                             seed=seed, run=run)

    recs = [shared("ann", 1), shared("bo", 1), shared("cy", 1), shared("cy", 2), shared("dee", 1, seed=29),
            shared("eve", 1, trials=200), sim("fay", 1, "identify-animal", 100, 19)]
    row = pool(recs).simulation().iloc[0]
    assert row.same_draws == 2 and row.runs == 7 and row.trials == 800


# ---------------------------------------------------------------------- the Rules tutorial's quiz
def _tutorial_ids() -> list[str]:
    """The quiz's ids in the order the tutorial asks them, read from the tutorial itself (not class_tables)."""
    from safari_kit.tutorial.tutorial_quiz import questions
    from safari_kit.tutorial.tutorials import knockout_script, witness_script

    return [q.id for s in (witness_script(), knockout_script()) for q in questions(s)]


def _choices() -> dict[str, tuple[tuple[str, ...], str]]:
    from safari_kit.tutorial.tutorial_quiz import questions
    from safari_kit.tutorial.tutorials import knockout_script, witness_script

    return {q.id: (q.choices, q.answer) for s in (witness_script(), knockout_script()) for q in questions(s)}


UNKNOWN = "witness-q9"  # an id this kit's tutorial does not ask (an older or newer kit's question)
answers = st.lists(st.tuples(st.sampled_from(["ann", "bo", "cy", "dee"]),
                             st.sampled_from([*_tutorial_ids(), UNKNOWN]), st.integers(0, 3)), max_size=40)


def quiz_answer(learner: str, seq: int, question: str, answer: str, correct: bool) -> QuizAnswer:
    return QuizAnswer(learner=learner, nickname=learner.title(), lab=f"tutorial-{question.split('-')[0]}", at=AT,
                      seq=seq, question=question, answer=answer, correct=int(correct))


@settings(max_examples=80, deadline=None)
@given(answers)
def test_the_quiz_table_counts_each_learners_first_answer(parts):
    choices = _choices()
    recs = []
    for seq, (who, qid, k) in enumerate(parts, start=1):
        options, right = choices.get(qid, (("A", "B", "C"), "A"))
        answer = options[k % len(options)]
        recs.append(quiz_answer(who, seq, qid, answer, answer == right))
    recs.reverse()  # pool sorts them: "first" is by seq, not by the order the records come in
    table = pool(recs).quiz()
    # the independent count: per question, each learner's answer with the lowest seq
    first: dict[str, dict[str, QuizAnswer]] = {}
    for r in sorted(recs, key=lambda r: r.seq):
        first.setdefault(r.question, {}).setdefault(r.learner, r)
    expected_order = [q for q in _tutorial_ids() if q in first] + ([UNKNOWN] if UNKNOWN in first else [])
    assert list(table.question) == expected_order  # the tutorial's order; the unknown id kept, after them
    for row in table.itertuples(index=False):
        mine = list(first[row.question].values())
        assert row.answered == len(mine) == len({r.learner for r in mine})
        assert row.right == sum(r.correct for r in mine)
        assert row.right_share == row.right / row.answered
        wrong = [r.answer for r in mine if not r.correct]
        most = max((wrong.count(w) for w in wrong), default=0)
        assert row.top_wrong_count == most
        assert (row.top_wrong in wrong and wrong.count(row.top_wrong) == most) if wrong else row.top_wrong == ""
        if row.question in choices:
            assert row.right_answer == choices[row.question][1]


def test_the_quiz_table_words_each_question_and_keeps_an_unknown_id():
    witness, knockout = [q for q in quiz_questions() if q.id.startswith("witness")], \
        [q for q in quiz_questions() if q.id.startswith("knockout")]
    assert (len(witness), len(knockout)) == (4, 3)
    q3 = quiz_questions()[2]
    assert q3.id == "witness-q3"
    wrong = next(c for c in q3.choices if c != q3.answer)
    recs = [quiz_answer("ann", 1, "knockout-q2", "You", True), quiz_answer("ann", 2, "witness-q3", wrong, False),
            quiz_answer("ann", 3, "witness-q3", q3.answer, True),  # a second answer: the first one counts
            quiz_answer("bo", 1, "witness-q3", wrong, False), quiz_answer("bo", 2, "old-question", "<b>yes</b>", False),
            quiz_answer("cy", 1, "witness-q3", q3.answer, True)]
    table = pool(recs).quiz()
    assert list(table.question) == ["witness-q3", "knockout-q2", "old-question"]
    row = table.iloc[0]
    assert (row.game, row.number, row.rulings, row.text, row.right_answer) == ("witness", 3, "W5", q3.text, q3.answer)
    assert (row.answered, row.right, row.top_wrong, row.top_wrong_count) == (3, 1, wrong, 2)
    assert row.right_share == pytest.approx(1 / 3)
    row = table.iloc[1]
    assert (row.game, row.number, row.answered, row.right, row.top_wrong, row.top_wrong_count) == \
        ("knockout", 2, 1, 1, "", 0)
    row = table.iloc[2]  # never dropped: shown by its id
    assert (row.game, row.number, row.rulings, row.text, row.right_answer) == ("", 0, "", "old-question", "")
    assert (row.answered, row.right, row.top_wrong, row.top_wrong_count) == (1, 0, "<b>yes</b>", 1)
    assert pool([]).quiz().empty and list(pool([]).quiz().columns) == list(table.columns)


def test_the_example_holds_the_tutorials_own_quiz_answers():
    """The example class answered the tutorial's real questions with their real choices; the first answer each."""
    results = ClassResults.from_csv(EXAMPLE)
    choices = _choices()
    quiz = results.of(QuizAnswer)
    assert quiz and {a.question for a in quiz} == set(choices)
    for a in quiz:
        options, right = choices[a.question]
        assert a.answer in options and a.correct == (a.answer == right)
        assert a.lab == f"tutorial-{a.question.split('-')[0]}"
    assert len({(a.learner, a.question) for a in quiz}) == len(quiz)
    assert list(results.quiz().question) == _tutorial_ids()
