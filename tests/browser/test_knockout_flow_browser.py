"""The Knockout lab's turn in JupyterLab at 1366x768: pick in any order, change your mind, Play, see the result.

Issue 17: a learner clicked the data item Weight, then a card, and the card was played on Weight at once;
after a play the lab went straight on to the bots' next lead, so who won the learner's turn was below the
fold. Now a card and a data item are *picked* (in any order, each pick replacing the last), nothing is
played until **Play** beside the table, and the finished turn stays on the table (all its cards, the named
item) with the result in words beside it, e.g. "You lost: Player 2's Cheetah (112 km/h) beat your
Springbok (88 km/h) on Top speed.", until **Next turn**.

Played here with the mouse (seed 1: the first lead) and then with the keyboard only (Tab, Enter) for the
follow that comes next; the page must not scroll, and the result must be readable without scrolling.
Screenshots: ``test-artifacts/ko-flow-*.png``.
"""
from __future__ import annotations

import pytest

from tests.browser.helpers import screenshot, write_notebook
from tests.browser.lab_tab import lab_tab, switch_and_run, tab_page  # noqa: F401 - lab_tab: the fixture
from tests.browser.test_no_scroll import Screen, widget_button

pytestmark = pytest.mark.browser

LAB = ".safari-knockout-lab"


#: the process's one JupyterLab page at 1366x768 (tests/browser/lab_tab.py, issue 28: it loaded JupyterLab itself)
laptop = tab_page(1366, 768)


def _wait_text(page, selector: str, text: str, timeout: float = 30_000) -> None:
    page.wait_for_function("([sel, text]) => { const el = document.querySelector(sel);"
                           " return !!el && el.innerText.includes(text); }", arg=[selector, text],
                           timeout=timeout, polling=50)


def test_pick_in_any_order_play_then_read_the_result(laptop, js_errors, lab_server):
    page = laptop
    write_notebook(lab_server.root / "ko_flow.ipynb",
                   ["from safari_kit.widgets.labs import KnockoutLab\nlab = KnockoutLab(seed=1)\nlab"])
    run = switch_and_run(page, lab_server, "ko_flow.ipynb", name="ko-flow-run", timeout=180_000)
    assert run.ok, run.errors
    scope = page.locator(LAB).first
    screen = Screen(page, LAB)
    table = f"{LAB} .safari-table"
    status = f"{LAB} .safari-status"
    play = widget_button(scope, "Play")
    nxt = widget_button(scope, "Next turn")
    assert play.is_disabled() and nxt.is_disabled()

    # the accident of the issue: the data item first, then a card: nothing is played, both are picked
    screen.click(scope.locator(".safari-table [data-key='item:\"weight_kg\"']"), "the data item Weight", watch=status)
    screen.click(scope.locator(".safari-table [data-key='card:\"K12\"']"), "the Springbok", watch=status)
    _wait_text(page, status, "Springbok, naming Weight: press Play")
    assert scope.locator(".safari-table .st-highlight[data-key='card:\"K12\"']").count() == 1
    assert scope.locator(".safari-ko-log").inner_text().strip().startswith("No turn finished yet")
    screenshot(page, "ko-flow-picked-weight")
    # a change of mind: Top speed instead of Weight
    screen.click(scope.locator(".safari-table [data-key='item:\"top_speed_kmh\"']"), "Top speed", watch=status)
    _wait_text(page, status, "Springbok, naming Top speed: press Play")
    assert play.is_enabled()
    screen.click(play, "Play", watch=f"{LAB} .safari-prob")

    # the finished turn stays: its four cards on the table, the result in words beside it, Next turn
    page.locator(f"{LAB} .safari-prob-table[data-phase='done']").wait_for()
    result = scope.locator(".safari-ko-result")
    screen.assert_visible(result, "the result of the turn")
    text = result.inner_text()
    assert text.startswith("You lost: Player 2's Cheetah (112 km/h) beat your Springbok (88 km/h) on Top speed"), text
    assert scope.locator(".safari-table .st-zone", has_text="Played this turn").locator(".st-card").count() == 4
    assert "Springbok" in page.locator(f"{table} .st-message").inner_text()
    screen.assert_visible(nxt, "Next turn")
    assert nxt.is_enabled() and play.is_disabled()
    screenshot(page, "ko-flow-result")
    # a click on a card now is answered in words: the turn is over
    scope.locator(".safari-table .st-hand .st-card").first.click()
    _wait_text(page, f"{table} .st-message", "press Next turn")

    # Next turn: the bots lead, and it is the learner's turn to follow; played with the keyboard only
    screen.click(nxt, "Next turn", watch=f"{LAB} .safari-prob")
    page.locator(f"{LAB} .safari-prob-table[data-phase='follow']").wait_for()
    best = page.locator(f"{LAB} .safari-prob-table").get_attribute("data-best-card")
    card = scope.locator(f".safari-table .st-hand [data-key='card:\"{best}\"']")
    card.focus()
    page.keyboard.press("Enter")
    _wait_text(page, status, "picked: press Play")
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset"
                           f" && document.activeElement.dataset.key === 'card:\"{best}\"'", timeout=10_000)
    for _ in range(20):  # Tab on from the card to the Play button beside the table
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.innerText") == "Play":
            break
    else:
        raise AssertionError("Tab from the picked card never reached Play")
    page.keyboard.press("Enter")
    page.locator(f"{LAB} .safari-prob-table[data-phase='done']").wait_for()
    assert scope.locator(".safari-ko-result").inner_text().startswith(("You won", "You lost"))
    screenshot(page, "ko-flow-follow-result")
    screen.assert_not_scrolled()
    assert "Something went wrong" not in scope.inner_text()
    assert not js_errors, js_errors
