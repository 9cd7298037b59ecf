"""Issue 26, the teacher's page in Chromium at 1366x768 with the shipped example class: the Knockout section,
the labs' own words, which guesses count, and the footer's wipe command, all inside the screen's width.

Saves test-artifacts/issue26-teacher-knockout.png (scrolled to the Knockout section) and
issue26-teacher-page-full.png (the whole page)."""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from safari_kit.classroom.lab_words import lab_words
from safari_kit.class_results.class_export import read_csv
from safari_kit.class_results.class_store import ResultStore
from tests.server.class_server import class_server

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
pytestmark = pytest.mark.browser


def test_the_knockout_section_and_the_labs_words_fit_a_projector(browser):
    folder = Path(tempfile.mkdtemp(prefix="safari-results-"))
    with class_server("--results", str(folder), "--session", "example") as server:
        with ResultStore(folder, "example", create=False) as store:
            store.add_many(read_csv(REPO / "data" / "example-class-results.csv"))
        address = re.search(r"http://127\.0\.0\.1:\d+/teacher\?token=\S+", server.log_text()).group(0)
        context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
        try:
            page = context.new_page()
            page.goto(address)
            knockout = page.locator("section", has=page.get_by_role("heading", name=re.compile("^Knockout")))
            assert knockout.count() == 1
            assert knockout.locator("tbody tr").count() == 13  # 12 learners and the class
            knockout.scroll_into_view_if_needed()
            box = knockout.bounding_box()
            assert box["x"] + box["width"] <= 1366 and box["height"] <= 768 - 40
            assert page.evaluate("document.documentElement.scrollWidth") <= 1366  # no sideways scrolling
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "issue26-teacher-knockout.png"))
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
