"""The teacher's page's HTML (issue 21): escaped nicknames, the empty store, numbers equal to ClassResults' tables."""
from __future__ import annotations

import datetime as dt
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

from safari_kit.class_results.class_records import ChallengeDecision, Guess, QuizAnswer, SimulationRun
from safari_kit.class_results.class_tables import ClassResults, pool
from safari_kit.classroom.lab_words import lab_words
from safari_kit.class_results.teacher_page import forbidden_page, render

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "data" / "example-class-results.csv"
NOW = dt.datetime(2026, 11, 16, 9, 30, tzinfo=dt.timezone.utc)


class Tables(HTMLParser):
    """Every <table> of a page as rows of cell texts, and every <svg>'s text (to count its circles)."""

    def __init__(self, page: str):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.svgs: list[str] = []
        self._cell: list[str] | None = None
        self._depth_svg = 0
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "svg":
            self.svgs.append("")
            self._depth_svg += 1
        if self._depth_svg and tag == "circle":
            self.svgs[-1] += "<circle>"

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "svg":
            self._depth_svg -= 1

    def handle_data(self, data):
        if self._cell is not None and not self._depth_svg:
            self._cell.append(data + " ")


def page_of(results: ClassResults) -> str:
    return render(results, db_path="/class/2026-11-16-0905.sqlite3", csv_href="/teacher/results.csv",
                  session="2026-11-16-0905", now=NOW, words=lab_words())


def test_every_number_of_the_page_is_the_class_tables_number():
    results = ClassResults.from_csv(EXAMPLE)
    page = page_of(results)
    tables = Tables(page).tables
    sim, cal, brier, challenge, _knockout, where, quiz = tables  # in the page's order (knockout: issue 26's test)
    expect = results.simulation()
    assert len(sim) - 1 == len(expect)
    for cells, row in zip(sim[1:], expect.itertuples(index=False)):
        assert cells[0].startswith(lab_words().question(row.question))  # the lab's words (issue 26)
        assert (f"{row.learners} learner{'s' * (row.learners != 1)}, {row.runs} run{'s' * (row.runs != 1)}"
                in cells[0])
        assert cells[1] == f"{row.successes:,} of {row.trials:,}"
        assert cells[2] == f"{row.estimate:.3f}"
        assert cells[3] == f"{row.ci_low:.3f} to {row.ci_high:.3f}"
        assert cells[4].startswith(f"{row.exact:.3f}")
        assert cells[5] == ("yes" if row.covers else "no")
    expect = results.calibration()
    assert [c[:3] for c in cal[1:]] == [[r.bin, str(r.guesses), str(r.learners)]
                                        for r in expect.itertuples(index=False)]
    assert [c[4] for c in cal[1:]] == [f"{100 * r.share_happened:.0f}%" for r in expect.itertuples(index=False)]
    expect = results.brier()
    assert [c for c in brier[1:]] == [[r.nickname, str(r.guesses), f"{r.brier:.3f}", f"{r.brier_exact:.3f}"]
                                      for r in expect.itertuples(index=False)]
    assert brier[-1][0] == "the class"
    expect = results.challenge()
    assert [c[1:4] for c in challenge[1:]] == [[str(r.decisions), str(r.stopped), str(r.continued)]
                                               for r in expect.itertuples(index=False)]
    expect = results.where()
    assert sorted((c[0], c[1], c[3]) for c in where[1:]) == sorted(
        (r.nickname, lab_words().lab(r.lab), str(r.records)) for r in expect.itertuples(index=False))
    expect = results.quiz()
    assert len(quiz) - 1 == len(expect) == 7  # the example class answered every question of the tutorial
    for cells, row in zip(quiz[1:], expect.itertuples(index=False)):
        assert cells[0].startswith(f"{row.game.title()} {row.number} ({row.rulings}) {row.text}")
        assert cells[0].endswith(f"Right: {row.right_answer}")
        assert cells[1:] == [str(row.answered), f"{row.right} ({100 * row.right_share:.0f}%)",
                             row.top_wrong or "–", str(row.top_wrong_count) if row.top_wrong_count else "–"]
    assert f"<b>{len(results.records)}</b> records from <b>{len(results.nicknames())}</b> learners" in page


def test_each_learner_estimate_is_one_dot_of_its_question():
    results = ClassResults.from_csv(EXAMPLE)
    svgs = Tables(page_of(results)).svgs
    learners = results.learners()
    for svg, row in zip(svgs, results.simulation().itertuples(index=False)):
        own = learners[(learners.question == row.question) & (learners.exact == row.exact)]
        assert svg.count("<circle>") == len(own) == row.learners


AT = "2026-11-16T09:25:00+00:00"
EVIL = "<script>alert(1)</script>"


def test_nicknames_and_texts_from_the_records_are_escaped():
    recs = [SimulationRun(learner="L1", nickname=EVIL, lab="simulation", at=AT, seq=1, question="q<b>x</b>",
                          trials=10, successes=3, exact=Fraction(1, 3)),
            Guess(learner="L1", nickname=EVIL, lab="identification", at=AT, seq=2, guess=Fraction(1, 2),
                  exact=Fraction(1, 3), outcome=1),
            Guess(learner="L2", nickname="Bo & 'Co'", lab="<lab>", at=AT, seq=1, guess=Fraction(1, 5),
                  exact=Fraction(1, 3), outcome=0)]
    page = page_of(pool(recs))
    assert "<script" not in page and "<b>x</b>" not in page and "<lab>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "Bo &amp; &#39;Co&#39;" in page
    assert "q&lt;b&gt;x&lt;/b&gt;" in page


def test_an_empty_store_is_a_friendly_page_that_refreshes():
    page = page_of(pool([]))
    assert "Nothing recorded yet" in page and "<table" not in page
    assert "http-equiv='refresh' content='10'" in page
    assert "/class/2026-11-16-0905.sqlite3" in page and "/teacher/results.csv" in page
    assert "safari-kit results wipe /class 2026-11-16-0905" in page


def test_only_some_kinds_recorded_says_which_are_missing():
    recs = [ChallengeDecision(learner="L1", nickname="Ann", lab="challenge", at=AT, seq=1, challenge=1,
                              safe_so_far=3, p_next=Fraction(2, 3), stop_value=Fraction(3),
                              continue_value=Fraction(8, 3), rule="stop", choice="continue", result=0)]
    page = page_of(pool(recs))
    assert "No Simulate runs yet" in page and "No guesses yet" in page
    assert "the class stopped <b>0 of 1</b> times (0%)" in page


def test_the_refusal_says_who_the_page_is_for_and_nothing_more():
    page = forbidden_page()
    assert "for the teacher" in page and "token" not in page and "refresh" not in page


def test_the_quiz_section_is_shown_with_escaped_answers_and_only_when_there_are_answers():
    quiz = [QuizAnswer(learner="L1", nickname=EVIL, lab="tutorial-witness", at=AT, seq=1, question="witness-q3",
                       answer="Yes: stop now", correct=0),
            QuizAnswer(learner="L2", nickname="Bo", lab="tutorial-witness", at=AT, seq=1, question="witness-q3",
                       answer="No: reveal another card first", correct=1),
            QuizAnswer(learner="L2", nickname="Bo", lab="<tutorial>", at=AT, seq=2, question="q<i>9</i>",
                       answer="<img src=x onerror=alert(1)>", correct=0)]
    page = page_of(pool(quiz))
    assert "<h2>Rules tutorial quiz</h2>" in page
    assert "<img" not in page and "<i>9</i>" not in page and "<script" not in page and "<tutorial>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "q&lt;i&gt;9&lt;/i&gt;" in page
    rows = Tables(page).tables[-1]
    assert rows[0] == ["Question", "Answered", "Right", "Wrong answer chosen most", "Chose it"]
    assert rows[1][0].startswith("Witness 3 (W5) Your Challenge has")
    assert rows[1][1:] == ["2", "1 (50%)", "Yes: stop now", "1"]
    assert rows[2] == ["q<i>9</i> not a question of this kit's tutorial", "1", "0 (0%)",
                       "<img src=x onerror=alert(1)>", "1"]  # the unknown id is kept, as text
    others = [SimulationRun(learner="L1", nickname="Ann", lab="simulation", at=AT, seq=1, question="identify-animal",
                            trials=10, successes=3, exact=Fraction(7, 37))]
    page = page_of(pool(others))
    assert "Rules tutorial quiz" not in page and "class='quiz'" not in page
