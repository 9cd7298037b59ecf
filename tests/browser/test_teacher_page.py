"""The teacher's page in Chromium at 1366x768 (a school projector), with the shipped example class (issues 21, 26).

The class server records into a temporary folder; the example export
(data/example-class-results.csv, 12 learners) is loaded into the session's store
from the test process, and the page is opened with the printed address. One server
for the module (issue 28: the two tests each started their own, with the same settings
and the same records); each test opens its own page.

* the whole page: saves test-artifacts/issue21-teacher-page.png (the first screen),
  issue21-teacher-page-full.png (the whole page) and teacher-quiz.png (scrolled to the
  Rules tutorial quiz);
* the Knockout section, the labs' own words, which guesses count, and the footer's wipe
  command, all inside the screen's width: saves issue26-teacher-knockout.png (scrolled to
  the Knockout section) and issue26-teacher-page-full.png (the whole page).
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from safari_kit.class_results.class_export import read_csv
from safari_kit.class_results.class_records import QuizAnswer
from safari_kit.class_results.class_store import ResultStore
from safari_kit.classroom.lab_words import lab_words
from tests.browser.helpers import capture
from tests.server.class_server import class_server

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def example_class():
    """(server, the teacher's address it printed, the example's records) of a class server recording the
    shipped example class."""
    folder = Path(tempfile.mkdtemp(prefix="safari-results-"))
    with class_server("--results", str(folder), "--session", "example") as server:
        example = read_csv(REPO / "data" / "example-class-results.csv")
        with ResultStore(folder, "example", create=False) as store:
            store.add_many(example)
        address = re.search(r"http://127\.0\.0\.1:\d+/teacher\?token=\S+", server.log_text()).group(0)
        yield server, address, example


def teacher_page(browser, address: str):
    """(context, page) of the teacher's page opened with ``address``. The page allows no script (CSP
    default-src 'none'): the test's own probes need the policy bypassed."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page = context.new_page()
    page.goto(address)
    return context, page


def test_the_teacher_page_fits_a_projector_and_refreshes_itself(browser, example_class):
    server, address, example = example_class
    context, page = teacher_page(browser, address)
    try:
        assert page.url == server.url + "teacher"  # the token is gone from the address bar
        for heading in ("Simulation lab", "calibration", "Brier scores", "Challenge", "Who is in which lab",
                        "Rules tutorial quiz"):
            assert page.get_by_role("heading", name=re.compile(heading)).count() == 1, heading
        # the simulation table, its first question's plot and the header are on the first screen
        assert page.locator("header").bounding_box()["y"] == 0
        plot = page.locator("section.wide svg").first.bounding_box()
        assert plot["y"] + plot["height"] <= 768 and plot["x"] + plot["width"] <= 1366
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366  # no sideways scrolling
        ARTIFACTS.mkdir(exist_ok=True)
        capture(page, ARTIFACTS / "issue21-teacher-page.png")
        page.screenshot(path=str(ARTIFACTS / "issue21-teacher-page-full.png"), full_page=True)
        # the quiz: one row per question answered, the whole section on one screen when scrolled to
        quiz = page.locator("section", has=page.get_by_role("heading", name="Rules tutorial quiz"))
        questions = {r.question for r in example if isinstance(r, QuizAnswer)}
        assert quiz.locator("tbody tr").count() == len(questions) == 7
        quiz.scroll_into_view_if_needed()
        box = quiz.bounding_box()
        assert box["height"] <= 768 - 60 and box["x"] + box["width"] <= 1366
        capture(page, ARTIFACTS / "teacher-quiz.png")
        page.evaluate("window.scrollTo(0, 0)")
        first = page.locator("header").inner_text()
        assert f"{len(example)} records from 12 learners" in first.replace("\n", " ")
        page.mouse.wheel(0, 900)  # the teacher scrolled to the Challenge: the refresh keeps the place
        page.wait_for_function("window.scrollY >= 800")
        with page.expect_navigation(timeout=20_000):  # the meta refresh, with the cookie alone
            pass
        assert page.url == server.url + "teacher" and page.locator("h2").count() >= 5
        page.wait_for_timeout(300)
        assert page.evaluate("window.scrollY") >= 800
    finally:
        context.close()


def test_the_knockout_section_and_the_labs_words_fit_a_projector(browser, example_class):
    _server, address, _example = example_class
    context, page = teacher_page(browser, address)
    try:
        knockout = page.locator("section", has=page.get_by_role("heading", name=re.compile("^Knockout")))
        assert knockout.count() == 1
        assert knockout.locator("tbody tr").count() == 13  # 12 learners and the class
        knockout.scroll_into_view_if_needed()
        box = knockout.bounding_box()
        assert box["x"] + box["width"] <= 1366 and box["height"] <= 768 - 40
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366  # no sideways scrolling
        ARTIFACTS.mkdir(exist_ok=True)
        capture(page, ARTIFACTS / "issue26-teacher-knockout.png")
        page.screenshot(path=str(ARTIFACTS / "issue26-teacher-page-full.png"), full_page=True)
        text = page.locator("body").inner_text()
        for words in ("Identify by animal, knowing nothing", "Case Card: 5 colors among 10 cards",
                      "Each learner weighs as one learner"):
            assert words in text, words
        assert "identify animal" not in text and "challenge 4" not in text
        where = page.locator("section", has=page.get_by_role("heading", name="Who is in which lab"))
        labs = {row.locator("td").nth(1).inner_text() for row in where.locator("tbody tr").all()}
        assert labs and labs <= set(lab_words().labs.values()), labs  # the chooser's names, not record keys
        wipe = page.locator("code", has_text="results wipe")
        assert wipe.count() == 1 and "safari-kit results wipe" in wipe.inner_text()
        assert "stop the class server first" in text
    finally:
        context.close()
