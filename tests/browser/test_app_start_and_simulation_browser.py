"""Issue 17 in chromium at 1366x768: the app's start page, the app's Simulation lab, simple intervals below 0.

* ``test_app_start_page_and_simulation_lab`` (Voilà, ``make app``): before any lab is opened the page says
  what to do under the controls ("Pick a game ..., then press Open lab: the lab opens here"); it goes when a
  lab opens. Safari Witness -> Simulation: the app's sentence "every lab shuffles its cards in secret" holds
  for it too: no Seed box (no number input visible in the lab), its note says its draws come from a secret
  seed; two presses of Run tournament say "Run 2" and the page shows no raw seed (no run of 10 or more
  digits anywhere in its text). Screenshots ``app-start.png``, ``app-simulation.png``,
  ``app-simulation-tournament.png``.
* ``test_simple_intervals_below_0_are_explained``: in JupyterLab, ``SimulationLab()`` (the default seed);
  the Challenge question with 20 trials per interval: the remark under the round says why simple intervals
  reach below 0, and the picture shades the impossible part. Screenshot ``simulation-below-0.png``.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.helpers import current_notebook, open_and_run, screenshot, write_notebook
from tests.browser.test_app_voila import assert_app_clean, button, shot
from tests.browser.test_labs_browser import kernel_eval

pytestmark = pytest.mark.browser


@pytest.fixture
def laptop(warm_contexts, js_errors, request):
    """A page at 1366x768 in the process's warm context (conftest, issue 28), its uncaught errors in ``js_errors``."""
    with warm_contexts.page_for(request, js_errors, {"width": 1366, "height": 768}, console=False) as pg:
        yield pg


def _wait_text(page, selector: str, pattern: str, timeout: float = 60_000) -> None:
    page.wait_for_function("([sel, pat]) => { const el = document.querySelector(sel);"
                           " return !!el && new RegExp(pat).test(el.innerText); }", arg=[selector, pattern],
                           timeout=timeout, polling=50)


def test_app_start_page_and_simulation_lab(laptop, js_errors, voila_app):
    page = laptop
    page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
    app = page.locator(".safari-app")
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=90_000)
    hint = page.locator(".safari-app .safari-start-hint")
    hint.wait_for()
    box = hint.bounding_box()
    assert box and box["y"] + box["height"] <= 768, f"the start sentence is below the fold: {box}"
    assert "then press Open lab" in hint.inner_text()
    assert hint.inner_text().startswith("New to the games? Start with the Rules tutorial.")  # issue 27
    screenshot(page, "app-start")

    button(app.locator(".widget-toggle-buttons"), "Safari Witness").click()
    page.wait_for_function("() => [...document.querySelectorAll("
                           "'.safari-app .safari-lab-list select option')]"
                           ".some(o => o.textContent.trim() === 'Simulation')")
    app.locator(".safari-lab-list select").first.select_option(label="Simulation")
    page.wait_for_timeout(200)
    button(app, "Open lab").click()
    lab = ".safari-app .safari-lab"
    _wait_text(page, f"{lab} .safari-sim-round", r"Round 1: \d+ of 100", timeout=120_000)
    _wait_text(page, f"{lab} .safari-tour-run", r"Run 1")
    assert hint.count() == 0, "the start sentence stays after a lab is opened"
    numbers = [el for el in page.locator(f"{lab} .safari-top input[type='number']").all() if el.is_visible()]
    assert not numbers, "the app's Simulation lab offers a Seed box"
    note = page.locator(f"{lab} .safari-deal-note").inner_text()
    assert "secret seed" in note and "No two screens" in note, note
    text = page.locator(lab).inner_text()
    assert not re.search(r"\d{10,}", text), re.search(r"\d{10,}", text)
    assert "seed" not in page.locator(f"{lab} .safari-sim-run").inner_text().lower()
    shot(page, "app-simulation", lab, height=1400)

    page.locator(f"{lab} .lm-TabBar-tab", has_text="Tournament").first.click()   # the tab
    button(page.locator(lab), "Run tournament").click()
    _wait_text(page, f"{lab} .safari-tour-run", r"Run 2</?b?>? of this line-up|Run 2 of this line-up")
    text = page.locator(lab).inner_text()
    assert not re.search(r"\d{10,}", text), re.search(r"\d{10,}", text)
    assert "tournament seed" not in text and "Another screen plays its own games" in text
    shot(page, "app-simulation-tournament", lab, height=1100)
    assert_app_clean(page, js_errors)


def test_simple_intervals_below_0_are_explained(laptop, js_errors, lab_server):
    page = laptop
    write_notebook(lab_server.root / "sim_below0.ipynb",
                   ["from safari_kit.widgets.labs.simulation import SimulationLab\n"
                    "lab = SimulationLab(run_tournament=False)\nlab"])
    run = open_and_run(page, lab_server, "sim_below0.ipynb", name="simulation-below-0-run", timeout=180_000)
    assert run.ok, run.errors
    kernel_eval(page, "lab.question_box.value = 'challenge-4'\nlab.run_coverage(size=20)")
    nb = current_notebook(page)
    remark = nb.locator(".safari-lab .safari-sim-outside").last
    remark.wait_for(timeout=30_000)
    words = remark.inner_text()
    assert "reach below 0" in words and "A probability cannot be below 0" in words, words
    assert "impossible: below 0 or above 1" in nb.locator(".safari-lab .safari-sim-coverage").inner_html()
    nb.locator(".safari-lab .safari-sim-round").first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    screenshot(page, "simulation-below-0")
    out = kernel_eval(page, "print(lab.errors, lab.coverage['below_0'] > 0)")
    assert "[] True" in out, out
