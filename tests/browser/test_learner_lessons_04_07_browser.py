"""Lessons 04-07 as a learner meets them (issue 27, part C): the learners' copies in JupyterLab in Chromium at
1366x768.

Each learner's copy (no solutions, no teacher notes, as ``make student`` makes it) is opened, run top to bottom
and saved screen by screen as ``test-artifacts/learner-NN-<k>.png`` for a person to read. The test asserts what
a machine can: no cell error, no widget error, no JS error; no card id (W37, K42), no data item's code name
(top_speed_kmh), no bot code (memory:0.5) and no Python repr in what the lesson prints.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.helpers import ARTIFACTS, assert_clean, open_notebook, output_texts, run_all_cells, settle

pytestmark = pytest.mark.browser

LESSONS = ["04-knockout", "05-simulation-lab", "06-cases-and-abilities", "07-rules-tutorial"]
#: computer talk a learner must not read in a lesson's printed output (the labs' own words are the labs' tests)
CODE_TALK = [re.compile(p) for p in (r"\b[WK]\d{2}\b", r"\b(?:weight_kg|size_cm|top_speed_kmh|lifespan_years)\b",
                                       r"\b(?:memory|lastk):\d", r"Fraction\(", r"\{'", r"\[\d+(?:, \d+)+\]",
                                       r"<safari_kit", r"\bidentify-animal:")]


@pytest.fixture(scope="module")
def learner_copies(lab_server):
    from safari_kit.teaching.student import write_student_copies
    from tests.browser.conftest import REPO

    write_student_copies(REPO / "notebooks", lab_server.root / "student-c")
    return "student-c"


def _screens(page, stem: str) -> int:
    """Save the notebook screen by screen; the number of screens."""
    ARTIFACTS.mkdir(exist_ok=True)
    scroller = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer"
    height = page.evaluate(f"() => document.querySelector('{scroller}').scrollHeight")
    step, k, top = 640, 0, 0
    while top < height and k < 80:
        page.evaluate(f"(y) => document.querySelector('{scroller}').scrollTo(0, y)", top)
        page.wait_for_timeout(250)
        page.screenshot(path=str(ARTIFACTS / f"learner-{stem[:2]}-{k:02d}.png"))
        k, top = k + 1, top + step
        height = page.evaluate(f"() => document.querySelector('{scroller}').scrollHeight")
    return k


def _printed_outputs(page, saved: Path) -> str:
    """The text outputs of the code cells, read from the notebook as JupyterLab saves it (the page draws only the
    cells near the screen), without the rulings' numbers lesson 07 lists ("rulings W4, W6, W10": W10 is the
    ruling on Advanced Mode, not a card id)."""
    before = saved.stat().st_mtime
    page.keyboard.press("Control+s")
    for _ in range(100):
        if saved.stat().st_mtime != before:
            break
        page.wait_for_timeout(100)
    texts = list(output_texts(page))
    for cell in json.loads(saved.read_text(encoding="utf-8"))["cells"]:
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            texts.append("".join(text) if isinstance(text, list) else text)
    return re.sub(r"\brulings? [WK]\d+(?:, [WK]\d+)*", "", "\n".join(texts))


@pytest.mark.parametrize("stem", LESSONS)
def test_learner_copy_reads_cleanly(stem, browser, js_errors, lab_server, learner_copies):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.on("pageerror", lambda e: js_errors.append(str(e)))
    try:
        open_notebook(page, lab_server, f"{learner_copies}/{stem}.ipynb")
        run = run_all_cells(page, timeout=480_000)
        settle(page)
        assert_clean(page, js_errors, run)
        printed = _printed_outputs(page, lab_server.root / learner_copies / f"{stem}.ipynb")
        assert "Lion" in printed or not stem.startswith("04"), "the saved notebook holds the printouts"
        talk = [m.group(0) for p in CODE_TALK for m in p.finditer(printed)]
        assert not talk, f"{stem} prints computer talk: {talk}"
        assert _screens(page, stem) >= 3
    finally:
        context.close()
