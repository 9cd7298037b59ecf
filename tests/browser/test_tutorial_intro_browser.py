"""The Rules tutorial's intro is read on its first step in the classroom app at 1366x768 (issue 27, part E2).

The intro says what is special about the scripted game in plain words (Witness: what Advanced Mode does, and
why the deck has 9 cards always in the same order; Knockout: what Variation 1 does). It was "2 players,
Advanced Mode, a 9-card deck in a fixed order." The whole new intro is on the page, inside the 1366x768 window
on the first step (it sits under the side column, which is short on step 1). Screenshots:
``test-artifacts/issue27-tutorial-intro-witness.png``, ``...-knockout.png``.
"""
from __future__ import annotations

import pytest

from safari_kit.tutorial.tutorials import KNOCKOUT_INTRO, WITNESS_INTRO
from tests.browser.helpers import screenshot
from tests.browser.keys import app_page_for
from tests.browser.test_app_voila import app_errors, open_lab

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
