"""The teacher's page in Chromium at 1366x768 (a school projector), with the shipped example class (issue 21).

The class server records into a temporary folder; the example export
(data/example-class-results.csv, 12 learners) is loaded into the session's store
from the test process, and the page is opened with the printed address. Saves
test-artifacts/issue21-teacher-page.png (the first screen),
issue21-teacher-page-full.png (the whole page) and teacher-quiz.png (scrolled to the
Rules tutorial quiz).
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from safari_kit.class_results.class_export import read_csv
from safari_kit.class_results.class_records import QuizAnswer
from safari_kit.class_results.class_store import ResultStore
from tests.server.class_server import class_server

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
pytestmark = pytest.mark.browser


def test_the_teacher_page_fits_a_projector_and_refreshes_itself(browser):
    folder = Path(tempfile.mkdtemp(prefix="safari-results-"))
    with class_server("--results", str(folder), "--session", "example") as server:
        example = read_csv(REPO / "data" / "example-class-results.csv")
        with ResultStore(folder, "example", create=False) as store:
            store.add_many(example)
        address = re.search(r"http://127\.0\.0\.1:\d+/teacher\?token=\S+", server.log_text()).group(0)
        # the page allows no script (CSP default-src 'none'): the test's own probes need the policy bypassed
        context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
        try:
            page = context.new_page()
            page.goto(address)
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
            page.screenshot(path=str(ARTIFACTS / "issue21-teacher-page.png"))
            page.screenshot(path=str(ARTIFACTS / "issue21-teacher-page-full.png"), full_page=True)
            # the quiz: one row per question answered, the whole section on one screen when scrolled to
            quiz = page.locator("section", has=page.get_by_role("heading", name="Rules tutorial quiz"))
            questions = {r.question for r in example if isinstance(r, QuizAnswer)}
            assert quiz.locator("tbody tr").count() == len(questions) == 7
            quiz.scroll_into_view_if_needed()
            box = quiz.bounding_box()
            assert box["height"] <= 768 - 60 and box["x"] + box["width"] <= 1366
            page.screenshot(path=str(ARTIFACTS / "teacher-quiz.png"))
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
