"""Issue 26, the teacher's page: a Knockout section (plays were recorded but shown nowhere), labs and questions in
the labs' own words (not "identify animal", "challenge 4", "knockout"), which guesses count, and a wipe command
in its footer that runs as printed (at 9bdb9c7: "safari-kit results wipe ..." and safari-kit is in .venv/bin)."""
from __future__ import annotations

import html
import os
import re
import subprocess
from fractions import Fraction
from pathlib import Path

from safari_kit.classroom.lab_words import lab_words
from safari_kit.class_results.class_records import Guess, KnockoutPlay
from safari_kit.class_results.class_store import ResultStore, session_files
from safari_kit.class_results.class_tables import ClassResults, pool
from safari_kit.class_results.teacher_page import render, wipe_command
from tests.teaching.test_teacher_page import EXAMPLE, NOW, Tables, page_of

AT = "2026-11-16T09:05:00+00:00"


def section(page: str, heading: str) -> str:
    start = page.index(f"<h2>{heading}")
    return page[page.rindex("<section", 0, start):page.index("</section>", start)]


def test_the_knockout_section_shows_each_learners_plays_and_the_class_row():
    results = ClassResults.from_csv(EXAMPLE)
    page = page_of(results)
    knockout = Tables(section(page, "Knockout")).tables[0]
    expect = results.knockout()
    assert knockout[0] == ["Nickname", "Plays", "Played the best chance", "Chance shown (mean)", "Won"]
    assert len(knockout) - 1 == len(expect) == 13  # 12 learners and the class
    for cells, r in zip(knockout[1:], expect.itertuples(index=False)):
        assert cells[:2] == [r.nickname, str(r.plays)]
        assert cells[3] == f"{100 * r.mean_chance:.0f}%" and cells[4] == f"{r.won} ({100 * r.won_share:.0f}%)"
    assert knockout[-1][0] == "the class"


def test_a_learner_who_played_the_best_card_is_counted_so():
    plays = [KnockoutPlay(learner="ann", nickname="Ann", lab="knockout", at=AT, seq=k, chance=c, best=Fraction(3, 4),
                          outcome=o) for k, (c, o) in enumerate([(Fraction(3, 4), 1), (Fraction(1, 4), 0)], start=1)]
    rows = Tables(section(page_of(pool(plays)), "Knockout")).tables[0]
    assert rows[1] == ["Ann", "2", "50%", "50%", "1 (50%)"]


def test_labs_and_questions_are_named_in_the_labs_own_words():
    results = ClassResults.from_csv(EXAMPLE)
    page = page_of(results)
    words = lab_words()
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for key in {r.question for r in results.of_kind("simulation-run")}:
        assert words.question(key) in text and words.question(key) != key
        assert key not in text and key.replace("-", " ") not in text  # "identify animal", "challenge 4"
    where = Tables(section(page, "Who is in which lab")).tables[0]
    assert {row[1] for row in where[1:]} <= set(words.labs.values())
    # the words are the labs' own: the Simulation lab's dropdown and the chooser's list
    from safari_kit.widgets.app import LABS
    from safari_kit.widgets.labs.simulation_draws import questions

    assert dict(words.questions) == {k: q.label for k, q in questions().items()}
    assert words.lab("identification") == "Identification" and "Identification" in {e.title for e in LABS}
    assert words.lab("tutorial-knockout") == "Rules tutorial (Safari Knockout)"


def test_the_page_says_which_guesses_count():
    def guess(seq, seen):
        return Guess(learner="zed", nickname="Zed", lab="identification", at=AT, seq=seq, guess=1,
                     exact=Fraction(7, 37), outcome=0, chance_seen=seen)

    page = page_of(pool([guess(1, True), guess(2, True), guess(3, None), guess(4, False)]))
    note = html.unescape(re.sub(r"<[^>]+>", "", section(page, "Guesses")))
    assert "2 guesses made with the exact chance on screen are left out" in note
    assert "1 guess from an older kit" in note and "is counted" in note
    assert "Each learner weighs as one learner" in note
    assert Tables(section(page, "Brier")).tables[0][1][:2] == ["Zed", "2"]


def test_the_footers_wipe_command_runs_as_printed_from_another_folder(tmp_path):
    """The command the page prints, run by a shell in another folder whose PATH has no .venv/bin."""
    repo = Path(__file__).resolve().parents[2]
    folder = tmp_path / "class-results"
    folder.mkdir()
    with ResultStore(folder, "7b") as store:
        store.add(Guess(learner="ann", nickname="Ann", lab="identification", at=AT, seq=1, guess=Fraction(1, 5),
                        exact=Fraction(7, 37), outcome=0))
    page = render(ClassResults(()), db_path=str(store.path), csv_href="/teacher/results.csv", session="7b",
                  now=NOW)
    command = html.unescape(re.search(r"then wipe the session with <code>(.*?)</code>", page).group(1))
    assert command == wipe_command(str(store.path), "7b")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(["/bin/sh", "-c", command], cwd=elsewhere, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, (command, done.stderr)
    assert not session_files(folder, "7b") and "deleted" in done.stdout
    # from the checkout, as the docs start the server: a short command
    short = wipe_command(str(repo / "class-results" / "7b.sqlite3"), "7b", cwd=str(repo),
                         program=str(repo / ".venv" / "bin" / "safari-kit"))
    assert short == f"cd {repo} && .venv/bin/safari-kit results wipe class-results 7b"
