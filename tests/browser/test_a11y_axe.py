"""axe-core (pinned, offline: tests/browser/a11y.py) finds no critical or serious violation in the kit's DOM.

* ``test_axe_app_chooser_and_every_lab`` (Voilà, ``make app``, 1366x768): the chooser before any lab is
  opened, then every lab of the chooser (both games' Identification, Challenge, Full game, Rules
  tutorial, Knockout, the three Simulation entries), each just opened and, for the card-table labs, after
  each of up to 6 actions (the button to press now, else a card or place not pressed yet), scoped to
  ``.safari-app``. Before the fixes axe found: the chooser's ``<select>`` with no accessible name (every
  lab), white text on the orange "Next turn" button (2.7:1) and on the "Named: ..." badge (2.6:1), the
  sliders' handles with no name (Full game, Simulation), white names on the Pals' heads (4.3:1, Knockout),
  grey "knowing nothing" text (4.47:1, Identification), the Simulation lab's tab labels (4.45:1).
* the lessons: tests/browser/test_learner_lessons_browser.py runs axe on every output of each learner's copy
  in JupyterLab (the kit's outputs; JupyterLab's own page is printed for the record, never asserted), while it
  reads them: each lesson is run once for both (issue 28).
* the offline static site's app page: in tests/browser/test_site_browser.py's play test (it shares the site's
  build and that test's page).
"""
from __future__ import annotations

import pytest

from safari_kit.widgets.app import LABS
from tests.browser.a11y import describe, failing, run_axe
from tests.browser.test_app_voila import button

pytestmark = pytest.mark.browser

APP_ROOT = ".safari-app"
#: (game, lab, a selector that shows the lab is drawn)
APP_LABS = (
    ("Safari Witness", "Identification", ".safari-identification-lab .safari-table .st-card"),
    ("Safari Witness", "Challenge", ".safari-challenge-lab .safari-table .st-card"),
    ("Safari Witness", "Full game", ".safari-lab .safari-table .st-card"),
    ("Safari Witness", "Rules tutorial", ".safari-lab .safari-table .st-card"),
    ("Safari Witness", "Simulation", ".safari-lab .safari-sim-round"),
    ("Safari Knockout", "Knockout", ".safari-knockout-lab .safari-table .st-card"),
    ("Safari Knockout", "Rules tutorial", ".safari-lab .safari-table .st-card"),
    ("Safari Knockout", "Simulation", ".safari-lab .safari-sim-round"),
    ("Both games", "Simulation", ".safari-lab .safari-sim-round"),
)
#: actions played in each card-table lab, axe after each (the deals are secret: each run sees other states)
ACTIONS = 6


@pytest.fixture
def laptop(browser, js_errors):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.on("pageerror", lambda exc: js_errors.append(f"pageerror: {exc}"))
    yield pg
    context.close()


def choose(page, game: str, lab: str, ready: str, press: str = "click") -> None:
    """Open ``lab`` of ``game`` in the app's chooser; wait until ``ready`` (under .safari-app) is drawn.

    ``press``: how the buttons are pressed, ``"click"`` or ``"tap"`` (a touch screen; the list is a
    <select>: a tablet opens its own picker, here ``select_option``)."""
    app = page.locator(APP_ROOT)
    getattr(button(app.locator(".widget-toggle-buttons"), game), press)()
    titles = [e.title for e in LABS if e.game == game]
    # the chooser's own list (the first select: a lab may have its own) once it holds this game's labs;
    # the options' texts hold no-break spaces ("Full\u00a0game")
    page.wait_for_function(
        "([titles]) => { const s = document.querySelector('.safari-app .safari-lab-list select');"
        " const now = s ? [...s.options].map(o => o.textContent.replace(/\\s+/g, ' ').trim()) : [];"
        " return JSON.stringify(now) === JSON.stringify(titles); }", arg=[titles])
    app.locator(".safari-lab-list select").first.select_option(index=titles.index(lab))
    page.wait_for_timeout(200)  # the kernel has the choice before Open lab
    getattr(button(app, "Open lab"), press)()
    page.locator(f"{APP_ROOT} {ready}").first.wait_for(timeout=120_000)
    page.wait_for_timeout(400)


def one_action(page, done: set[str]) -> str:
    """One action of the learner, to see the lab in another state: the lab's coloured button (the one to press
    now: Next turn, Identify, Challenge, Play), else a selectable card or place of the table, else a button beside
    the table, not pressed before (``done``: their keys and texts); say which."""
    coloured = ":is(.mod-warning, .mod-info, .mod-primary):not([disabled])"
    target = page.locator(f"{APP_ROOT} .safari-lab {coloured}").first
    if target.count():
        what = target.inner_text().strip()
    else:
        keys = page.locator(f"{APP_ROOT} .safari-table .st-selectable").evaluate_all(
            "(els) => els.map(el => el.dataset.key)")
        fresh = [k for k in keys if k and k not in done]
        if fresh:
            what = fresh[0]
            target = page.locator(f"{APP_ROOT} .safari-table .st-selectable[data-key='{what}']").first
        else:  # a button beside the table not pressed yet (Identify, a clue type, ...)
            texts = page.locator(f"{APP_ROOT} .safari-lab .safari-side button:not([disabled])").all_inner_texts()
            fresh = [t.strip() for t in texts if t.strip() and t.strip() not in done]
            if not fresh:
                return "nothing to press"
            what = fresh[0]
            target = button(page.locator(f"{APP_ROOT} .safari-lab .safari-side"), what)
        done.add(what)
    target.click()
    page.wait_for_timeout(700)
    return what


def test_axe_app_chooser_and_every_lab(laptop, js_errors, voila_app):
    page = laptop
    page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
    page.locator(f"{APP_ROOT} .safari-lab-list select").wait_for(timeout=90_000)
    found: dict[str, list[dict]] = {"chooser": run_axe(page, APP_ROOT)}
    for game, lab, ready in APP_LABS:
        choose(page, game, lab, ready)
        found[f"{game} / {lab}"] = run_axe(page, APP_ROOT)
        done: set[str] = set()
        for step in range(ACTIONS if ".st-card" in ready else 0):
            what = one_action(page, done)
            found[f"{game} / {lab}, action {step + 1}: {what}"] = run_axe(page, APP_ROOT)
    for where, violations in found.items():
        print(f"\n{where}: {len(failing(violations))} critical/serious, {len(violations)} in all\n"
              f"{describe(violations)}")
    bad = {where: describe(failing(v)) for where, v in found.items() if failing(v)}
    assert not bad, "\n".join(f"{where}:\n{text}" for where, text in bad.items())
    assert not js_errors, js_errors
