"""Lessons 00-03 as a learner meets them (issue 27): the learners' copies in JupyterLab in Chromium at 1366x768.

Each learner's copy (no solutions, no teacher notes, as ``make student`` makes it) is opened, run top to bottom
and read screen by screen: every screen is saved as ``test-artifacts/learner-NN-<k>.png`` for a person to read.
The test asserts what a machine can: no cell error, no widget error, no JS error; no card id (W37, K42) and no
Python repr (``places [...]``, ``Fraction(``) in what the lesson prints; the display tables of lesson 00 say
they are pictures.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.helpers import ARTIFACTS, assert_clean, open_notebook, output_texts, run_all_cells, settle

pytestmark = pytest.mark.browser

LESSONS = ["00-start-here", "01-meet-the-cards", "02-identification", "03-challenge"]
#: computer talk a learner must not read in a lesson's printed output
CODE_TALK = [re.compile(p) for p in (r"\b[WK]\d{2}\b", r"places \[", r"Fraction\(", r"\bDP\b", r"n=\d{3}",
                                       r"legal", r"<safari_kit")]


@pytest.fixture(scope="module")
def learner_copies(lab_server):
    from tests.browser.conftest import REPO
    from safari_kit.teaching.student import write_student_copies

    write_student_copies(REPO / "notebooks", lab_server.root / "student")
    return "student"


def _screens(page, stem: str) -> int:
    """Save the notebook screen by screen; the number of screens."""
    ARTIFACTS.mkdir(exist_ok=True)
    scroller = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer"
    height = page.evaluate(f"() => document.querySelector('{scroller}').scrollHeight")
    step, k, top = 640, 0, 0
    while top < height and k < 60:
        page.evaluate(f"(y) => document.querySelector('{scroller}').scrollTo(0, y)", top)
        page.wait_for_timeout(250)
        page.screenshot(path=str(ARTIFACTS / f"learner-{stem[:2]}-{k:02d}.png"))
        k, top = k + 1, top + step
        height = page.evaluate(f"() => document.querySelector('{scroller}').scrollHeight")
    return k


@pytest.mark.parametrize("stem", LESSONS)
def test_learner_copy_reads_cleanly(stem, browser, js_errors, lab_server, learner_copies):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.on("pageerror", lambda e: js_errors.append(str(e)))
    try:
        open_notebook(page, lab_server, f"{learner_copies}/{stem}.ipynb")
        run = run_all_cells(page, timeout=240_000)
        settle(page)
        assert_clean(page, js_errors, run)
        printed = "\n".join(output_texts(page))
        talk = [m.group(0) for p in CODE_TALK for m in p.finditer(printed)]
        assert not talk, f"{stem} prints computer talk: {talk}"
        if stem.startswith("00"):
            assert printed.count("nothing here can be clicked") >= 3, printed
        assert _screens(page, stem) >= 3
    finally:
        context.close()
