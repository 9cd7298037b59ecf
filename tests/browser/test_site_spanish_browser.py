"""A Spanish learner on the offline static site (issue 30), in headless Debian chromium, on the shared build.

* a learner whose browser speaks English opens the landing page (English: the control), picks **Español** at the
  top: the page is Spanish (``lang="es"``, axe finds no critical or serious violation) and stays so on the next
  visit; "Jugar en los laboratorios" opens the app in Spanish, where the learner plays a Knockout turn with the
  Spanish buttons; back on the landing page, a Spanish lesson opens in JupyterLab with its menus in Spanish
  (JupyterLab's language pack), the start-up sentence in Spanish, and its cells answer in Spanish;
* a learner whose browser speaks Spanish gets the Spanish landing page and app without choosing anything, and
  ``?lang=en`` gives them English.

The words are read from the kit's catalogue (``with language("es")``), never copied here.
"""
from __future__ import annotations

import time

import pytest

from tests.browser.a11y import describe, failing, run_axe
from tests.browser.helpers import play_best_knockout_turn
from tests.browser.site_fixtures import KERNEL_IDLE
from tests.browser.test_app_voila import app_errors, button

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "notebooks/es/02-identification.ipynb"


def es(text: str) -> str:
    from safari_kit.core.i18n import _, language

    with language("es"):
        return _(text)


def _landing_language(page) -> tuple[str, str]:
    """The landing page's language and the heading of its visible block."""
    return tuple(page.evaluate("""() => [document.documentElement.lang,
        document.querySelector('.safari-lang:not([hidden]) h2').textContent]"""))


def _open_knockout_and_play(page) -> None:
    """In the Spanish app: open the Knockout lab and play until the learner has played one card."""
    app = page.locator(".safari-app")
    assert es("Open lab") != "Open lab"
    button(app.locator(".widget-toggle-buttons"), "Safari Knockout").click()
    knockout = es("Knockout")
    page.wait_for_function("(t) => [...document.querySelectorAll('.safari-app .safari-lab-list select option')]"
                           ".some(o => o.textContent.trim() === t)", arg=knockout, timeout=30_000)
    app.locator(".safari-lab-list select").first.select_option(label=knockout)
    page.wait_for_timeout(200)  # the kernel has the choice before the button
    button(app, es("Open lab")).click()
    lab = ".safari-app .safari-knockout-lab"
    page.locator(f"{lab} .safari-table .st-card").first.wait_for(timeout=60_000)
    for _ in range(8):
        if play_best_knockout_turn(page, lab, button(page.locator(lab), es("Play"))) == "lead":
            return
        button(page.locator(lab), es("Next turn")).click()
    pytest.fail("the learner never led a trick in 8 turns")


def test_a_spanish_learner_picks_espanol_plays_a_lab_and_opens_a_spanish_lesson(site_page, js_errors,
                                                                                   offline_site):
    page = site_page
    page.set_viewport_size({"width": 1366, "height": 768})
    t0 = time.perf_counter()
    page.goto(offline_site.url, wait_until="domcontentloaded")
    assert page.evaluate("navigator.language").startswith("en")
    assert _landing_language(page) == ("en", "The rules of the games")  # the control: an English browser
    page.get_by_role("link", name="Español").click()
    page.wait_for_url("**/?lang=es")
    assert _landing_language(page) == ("es", es("The rules of the games"))
    assert page.title() == es("safari_kit: Safari Witness and Safari Knockout in your browser")
    assert page.get_by_role("link", name="Español").get_attribute("aria-current") == "true"
    violations = run_axe(page, "body")
    assert not failing(violations), describe(failing(violations))
    page.goto(offline_site.url, wait_until="domcontentloaded")  # the next visit keeps the choice
    assert _landing_language(page)[0] == "es"

    page.get_by_role("link", name=es("Play the labs")).click()
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=180_000)
    print(f"\nSpanish app shown {time.perf_counter() - t0:.1f} s after the landing page")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert button(page.locator(".safari-app"), es("Open lab")).count() == 1
    assert page.locator(".safari-app .safari-language select").input_value() == "Español"
    _open_knockout_and_play(page)
    assert not app_errors(page), app_errors(page)

    page.goto(offline_site.url, wait_until="domcontentloaded")
    with page.expect_navigation():
        page.locator(".safari-lang:not([hidden]) a", has_text="Identificación").first.click()
    assert "path=notebooks/es/02-identification.ipynb" in page.url
    starting = page.locator("#safari-starting")
    starting.wait_for(timeout=30_000)
    said = starting.text_content()
    assert said.startswith(es("Starting Python in your browser: about {estimate} seconds on this computer "
                              "({elapsed} seconds so far).").split("{")[0]), said
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=120_000, polling=200)
    menus = page.locator(".lm-MenuBar-content").first.inner_text()
    assert "Archivo" in menus and "Ayuda" in menus and "File" not in menus, menus
    # the lesson's cells up to its first check, run: the check answers in Spanish
    index = page.evaluate("""() => window.jupyterapp.shell.currentWidget.model.sharedModel.cells
        .findIndex(c => c.cell_type === 'code' && c.getSource().startsWith('check("02.animal"'))""")
    assert index > 0
    page.evaluate("""async (i) => {
        const w = window.jupyterapp.shell.currentWidget;
        w.content.activeCellIndex = i;
        await window.jupyterapp.commands.execute('notebook:run-all-above');
        await window.jupyterapp.commands.execute('notebook:run-cell');
    }""", index)
    output = page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".jp-OutputArea-output").first
    output.wait_for(timeout=120_000)
    # the kit's sentence for a check without an answer (safari_kit/teaching/exercises.py), in Spanish
    expected = es("Type your answer in place of the ... above, then run both cells again.")
    assert expected.startswith("Escribe") and expected in output.inner_text(), (expected, output.inner_text())
    assert not page.outside, f"requests to other hosts: {page.outside}"


def test_a_browser_in_spanish_gets_spanish_without_choosing(browser, offline_site):
    context = browser.new_context(locale="es-MX", viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(offline_site.url, wait_until="domcontentloaded")
        assert page.evaluate("navigator.language") == "es-MX"
        assert _landing_language(page) == ("es", es("The rules of the games"))
        page.goto(offline_site.url + "?lang=en", wait_until="domcontentloaded")  # the learner's own choice wins
        assert _landing_language(page) == ("en", "The rules of the games")
        page.evaluate("localStorage.clear()")
        page.goto(offline_site.url + "voici/render/notebooks/app.html", wait_until="domcontentloaded")
        page.locator(".safari-app .safari-lab-list select").wait_for(timeout=180_000)
        assert page.evaluate("document.documentElement.lang") == "es"
        assert button(page.locator(".safari-app"), es("Open lab")).count() == 1
    finally:
        context.close()
