"""Touch, small screens and less motion (issue 20), in the app (Voilà, ``make app``).

* ``test_identification_turn_by_taps_on_a_tablet``: a 1024x768 touch screen (Playwright ``has_touch``): the
  chooser and an Identification turn are played by taps only (Next turn until the learner's turn,
  Identify, a clue type, a place, Reveal); every button, card and summary line of the app and the lab that
  can be tapped is at least 24 x 24 CSS px (WCAG 2.2, 2.5.8); then the same page at 800 px wide has no
  sideways scrolling (screenshot ``test-artifacts/a11y-800px.png``).
* ``test_reduced_motion_stops_animation``: with ``prefers-reduced-motion: reduce`` the selectable cards do not
  pulse and nothing moves (no animation, no transition); without it they pulse (so the check can fail).
"""
from __future__ import annotations

import pytest

from tests.browser.helpers import screenshot
from tests.browser.test_a11y_axe import APP_LABS, APP_ROOT, choose
from tests.browser.test_app_voila import button

pytestmark = pytest.mark.browser

LAB = f"{APP_ROOT} .safari-identification-lab"
MIN_TARGET = 24
#: what a learner taps: buttons, the table's cards, places and buttons, summaries, select lists, checkboxes
TARGETS = (f"{APP_ROOT} button, {APP_ROOT} select, {APP_ROOT} summary, {APP_ROOT} .st-selectable, "
           f"{APP_ROOT} input[type='checkbox']")


def open_by_taps(page, game: str, lab: str, ready: str) -> None:
    """The chooser, by taps."""
    choose(page, game, lab, ready, press="tap")


def small_targets(page) -> list[str]:
    """Visible tap targets smaller than 24 x 24 CSS px (a checkbox counts with its label, which taps it too)."""
    return page.locator(TARGETS).evaluate_all(f"""(els) => els.filter(el => el.getClientRects().length)
        .map(el => {{
            const target = el.matches("input[type='checkbox']") && el.closest('label') ? el.closest('label') : el;
            const r = target.getBoundingClientRect();
            return {{what: (el.innerText || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 40),
                     w: Math.round(r.width), h: Math.round(r.height)}};
        }})
        .filter(t => t.w > 0 && (t.w < {MIN_TARGET} || t.h < {MIN_TARGET}))
        .map(t => `${{t.what}} ${{t.w}}x${{t.h}}`)""")


def tap_and_wait(page, locator, watch: str, timeout: float = 30_000) -> None:
    before = page.locator(watch).first.inner_html()
    locator.tap()
    page.wait_for_function("([sel, before]) => { const el = document.querySelector(sel);"
                           " return el && el.innerHTML !== before; }", arg=[watch, before], timeout=timeout)


def test_identification_turn_by_taps_on_a_tablet(browser, js_errors, voila_app):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda exc: js_errors.append(f"pageerror: {exc}"))
    try:
        page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
        page.locator(f"{APP_ROOT} .widget-dropdown select").wait_for(timeout=90_000)
        small = small_targets(page)
        open_by_taps(page, "Safari Witness", "Identification", APP_LABS[0][2])
        for _ in range(12):  # a bot's failed turn first: Next turn (tapped) until ours
            if page.locator(f"{LAB} button.safari-identify:not([disabled])").count():
                break
            small += small_targets(page)
            tap_and_wait(page, button(page.locator(LAB), "Next turn"), f"{LAB} .safari-table", timeout=60_000)
            page.wait_for_timeout(300)
        tap_and_wait(page, button(page.locator(LAB), "Identify"), f"{LAB} .safari-prob")
        best = page.locator(f"{LAB} .safari-prob-all td.safari-best").first
        best.wait_for(state="attached")
        types, place = best.get_attribute("data-types"), best.get_attribute("data-place")
        words = {"animal": "Animal", "texture": "Texture", "color": "Color", "name": "Name"}
        kind = button(page.locator(f"{LAB} .safari-types"), " + ".join(words[t] for t in types.split("+")))
        if "mod-active" not in (kind.get_attribute("class") or ""):
            kind.tap()
            page.wait_for_timeout(300)
        tap_and_wait(page, page.locator(f"{LAB} .safari-table .st-selectable[data-key='place:{place}']"),
                     f"{LAB} .safari-prob")
        small += small_targets(page)
        tap_and_wait(page, button(page.locator(LAB), "Reveal"), f"{LAB} .safari-prob")
        page.locator(f"{LAB} .safari-tally table.safari-tally-table tr").nth(1).wait_for()
        result = page.locator(f"{LAB} .safari-status").inner_text()
        assert "Match!" in result or "No match" in result, result
        small += small_targets(page)
        assert not small, f"tap targets under {MIN_TARGET}x{MIN_TARGET} CSS px: {sorted(set(small))}"

        # 800 px wide: everything reflows, nothing needs a sideways scroll
        page.set_viewport_size({"width": 800, "height": 1000})
        page.wait_for_timeout(500)
        page.locator(LAB).evaluate("(el) => el.scrollIntoView({block: 'start'})")
        screenshot(page, "a11y-800px")
        wide = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert wide <= 800 + 2, f"the app at 800 px wide scrolls sideways ({wide} px of content)"
        assert not js_errors, js_errors
    finally:
        context.close()


MOTION = """(el) => { const s = getComputedStyle(el);
    return {animation: s.animationName, transition: s.transitionDuration}; }"""


def test_reduced_motion_stops_animation(browser, voila_app):
    seen = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=motion)
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
            page.locator(f"{APP_ROOT} .widget-dropdown select").wait_for(timeout=90_000)
            open_by_taps_or_clicks(page)
            card = page.locator(f"{APP_ROOT} .safari-table .st-card.st-selectable").first
            card.wait_for(timeout=30_000)
            seen[motion] = card.evaluate(MOTION)
        finally:
            context.close()
    assert seen["no-preference"]["animation"] != "none", seen  # the pulse is there to be stopped
    assert seen["reduce"] == {"animation": "none", "transition": "0s"}, seen


def open_by_taps_or_clicks(page) -> None:
    """The Knockout lab (its hand is selectable at once), opened with clicks."""
    from tests.browser.test_a11y_axe import choose

    choose(page, "Safari Knockout", "Knockout", APP_LABS[5][2])
