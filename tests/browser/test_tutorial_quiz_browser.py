"""The Rules tutorial's quiz in the classroom app (Voilà) at 1366x768, by keyboard (issue 21).

The Witness tutorial is stepped on with Next to its Challenge question (the longest: three remembered places
to choose from): the question, its choices and the table must all be on the screen at once once the lab's
top is at the top of the window. A choice is then reached with Tab and pressed with Enter: the live region
says "Right" or "Not quite" with the why, the buttons go off and the focus stays in the lab (on Next, the
button to press now). axe finds no critical or serious violation in the quiz, asked or answered (the red
"Not quite" line, the ✓ / ✗ buttons). Screenshots: ``test-artifacts/issue21-tutorial-quiz-asked.png`` (the question) and
``test-artifacts/issue21-tutorial-quiz.png`` (answered).

The intro of each tutorial is read on its first step (issue 27, part E2;
``test_the_intro_is_on_screen_on_the_first_step``, which was tests/browser/test_tutorial_intro_browser.py's, a visit
of the app of its own: issue 28). The intro says what is special about the scripted game in plain words (Witness:
what Advanced Mode does, and why the deck has 9 cards always in the same order; Knockout: what Variation 1 does). It
was "2 players, Advanced Mode, a 9-card deck in a fixed order." The whole new intro is on the page, inside the
1366x768 window on the first step (it sits under the side column, which is short on step 1). Screenshots:
``test-artifacts/issue27-tutorial-intro-witness.png``, ``...-knockout.png``.

One page on the app for the module, asking for less motion (tests/browser/app_pages.py).
"""
from __future__ import annotations

import pytest

from safari_kit.tutorial.tutorial_quiz import questions
from safari_kit.tutorial.tutorials import KNOCKOUT_INTRO, WITNESS_INTRO, witness_script
from tests.browser.a11y import describe, failing, run_axe
from tests.browser.app_pages import app_page_for
from tests.browser.helpers import screenshot
from tests.browser.keys import button_named, live_text, tab_to, wait_focus, wait_said
from tests.browser.test_app_voila import app_errors, button, open_lab

pytestmark = pytest.mark.browser

LAB = ".safari-app .safari-tutorial"


@pytest.fixture(scope="module")
def app_page(browser, voila_app):
    yield from app_page_for(browser, voila_app)


@pytest.mark.parametrize("game, intro", [("Safari Witness", WITNESS_INTRO), ("Safari Knockout", KNOCKOUT_INTRO)])
def test_the_intro_is_on_screen_on_the_first_step(app_page, game, intro):
    page = app_page
    page.evaluate("() => window.scrollTo(0, 0)")
    open_lab(page, game, "Rules\u00a0tutorial", ".safari-tutorial")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    lab = page.locator(LAB)
    shown = lab.locator(".widget-html").filter(has_text=intro[:30]).first
    assert " ".join(shown.inner_text().split()) == intro
    box = shown.bounding_box()
    size = page.viewport_size
    screenshot(page, f"issue27-tutorial-intro-{game.split()[-1].lower()}")
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= size["height"], (box, size)
    assert not app_errors(page), app_errors(page)
    assert not page.errors, page.errors


def _inside_window(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    size = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, (selector, box, size)
    return box


def test_the_challenge_question_fits_and_is_answered_by_keys(app_page):
    page = app_page
    q = next(q for q in questions(witness_script()) if q.id == "witness-q2")
    open_lab(page, "Safari Witness", "Rules\u00a0tutorial", ".safari-tutorial")
    quiz = page.locator(f"{LAB} .safari-tutorial-quiz")
    for _ in range(q.step):
        before = live_text(page, LAB)
        button(page.locator(LAB), "Next").click()
        wait_said(page, LAB, before)
    page.wait_for_function("([sel, text]) => { const el = document.querySelector(sel);"
                           " return el && el.innerText.includes(text); }",
                           arg=[f"{LAB} .safari-tutorial-quiz", "which one is safe"], timeout=30_000)
    assert quiz.is_visible()
    page.locator(LAB).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    screenshot(page, "issue21-tutorial-quiz-asked")
    for part in (".safari-table", ".safari-tutorial-quiz", ".safari-tutorial-quiz button:visible"):
        _inside_window(page, f"{LAB} {part}")
    for choice in q.choices:  # every choice on screen, whole (no button cut short)
        b = quiz.locator("button").filter(has_text=choice).first
        assert b.is_visible(), choice
        assert b.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), f"{choice!r} is cut"
    bad = failing(run_axe(page, f"{LAB} .safari-tutorial-quiz"))
    assert not bad, describe(bad)

    wrong = next(i for i in range(len(q.choices)) if i != q.correct)
    f = tab_to(page, button_named(q.choices[wrong]))
    assert f["ring"], f
    before = live_text(page, LAB)
    page.keyboard.press("Enter")
    said = wait_said(page, LAB, before)
    assert said.startswith("Not quite") and q.why.split(":")[0] in said, said
    f = wait_focus(page, ".safari-tutorial", button_named("Next"), "an answer")  # the button to press now
    page.wait_for_function("(sel) => [...document.querySelectorAll(sel)].every(b => b.disabled)",
                           arg=f"{LAB} .safari-tutorial-quiz button", timeout=10_000)
    result = quiz.locator(".safari-quiz-result").inner_text()
    assert result.startswith("Not quite") and q.answer in result, result
    _inside_window(page, f"{LAB} .safari-quiz-result")
    screenshot(page, "issue21-tutorial-quiz")
    bad = failing(run_axe(page, [f"{LAB} .safari-tutorial-quiz", f"{LAB} .safari-status"]))
    assert not bad, describe(bad)
    assert not app_errors(page), app_errors(page)
    assert not page.errors, page.errors


def test_a_knockout_question_fits_under_the_cards(app_page):
    """The Knockout table is taller (hands, the trick): its first question still fits under it."""
    page = app_page
    page.evaluate("() => window.scrollTo(0, 0)")
    open_lab(page, "Safari Knockout", "Rules\u00a0tutorial", ".safari-tutorial")
    before = live_text(page, LAB)
    button(page.locator(LAB), "Next").click()
    said = wait_said(page, LAB, before)
    assert "Quiz question 1 of 3:" in said and "Must Player 1 beat" in said, said
    page.locator(LAB).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    screenshot(page, "issue21-tutorial-quiz-knockout")
    for part in (".safari-table", ".safari-tutorial-quiz"):
        _inside_window(page, f"{LAB} {part}")
    assert not app_errors(page), app_errors(page)
    assert not page.errors, page.errors


def _in_view_now(page, locator, what: str) -> dict:
    """``locator`` is drawn inside the 1366x768 window as the page stands (no scrolling to it)."""
    box = locator.bounding_box()
    assert box is not None, f"{what} is not drawn"
    size = page.viewport_size
    inside = (box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1
              and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1)
    assert inside, f"{what} is not on the screen without scrolling: {box} in {size}"
    return box


@pytest.mark.parametrize("game", ["Safari Witness", "Safari Knockout"])
def test_every_quiz_question_is_named_and_seen_without_scrolling(app_page, game):
    """Issue 27: a learner played both tutorials to the end in the app and never saw a question. Opened from the
    chooser at the page's top and stepped on with Next (as a learner does, no scrolling), each quiz step shows a
    box named "Quiz", its question and every answer inside the 1366x768 window."""
    from safari_kit.tutorial.tutorials import knockout_script

    page = app_page
    script = witness_script() if game == "Safari Witness" else knockout_script()
    asked = {q.step: q for q in questions(script)}
    page.evaluate("() => window.scrollTo(0, 0)")
    open_lab(page, game, "Rules\u00a0tutorial", ".safari-tutorial")
    page.evaluate("() => window.scrollTo(0, 0)")
    lab = page.locator(LAB)
    quiz = lab.locator(".safari-tutorial-quiz")
    for step in range(max(asked) + 1):
        if step:
            before = live_text(page, LAB)
            # a click by the page's own code: Playwright's click() would scroll the button into view first
            button(lab, "Next").evaluate("(b) => b.click()")
            wait_said(page, LAB, before)
            page.wait_for_timeout(150)
        if step not in asked:
            continue
        q = asked[step]
        assert page.evaluate("() => window.scrollY") == 0
        assert quiz.is_visible(), f"step {step + 1}: no quiz box"
        screenshot(page, f"issue27-quiz-{game.split()[-1].lower()}-step{step + 1}")
        question = quiz.locator(".widget-html").first  # the question's words
        assert q.text in " ".join(question.inner_text().split())
        _in_view_now(page, question, f"step {step + 1}: the question")
        for choice in q.choices:
            _in_view_now(page, quiz.locator("button").filter(has_text=choice).first, f"step {step + 1}: {choice!r}")
        assert "Quiz" in question.inner_text(), f"step {step + 1}: the box does not say it is a quiz"
    assert not app_errors(page), app_errors(page)
    assert not page.errors, page.errors
