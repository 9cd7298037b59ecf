"""The Rules tutorial's rulings open their text in place, in JupyterLab and in the Voilà app (issues 18, 27).

The tutorial linked each ruling to ``../docs/rules.md``: resolved against the page's address, that 404ed in
JupyterLab (``make lab``'s root is ``my-lessons/``), in Voilà (no Markdown served) and in the static site.
Now a ruling is a ``<details>``: a click shows its words with no address involved. Since issue 27 those are a
learner's words (the ruling's section of the learners' rules page, safari_kit.tutorial.learner_rules), not
docs/rules.md's developer text, and they end with the name of the game's whole rules page. Here a click on a
ruling's line shows that text in both places (the static site: tests/browser/test_site_subpath.py), and the
tutorial holds no link. The JupyterLab test opens its notebook in the process's one JupyterLab page
(tests/browser/lab_tab.py; issue 28: it loaded JupyterLab for itself).
"""
from __future__ import annotations

import pytest

import html
import re

from safari_kit.tutorial import learner_rules, rulebook
from tests.browser.helpers import screenshot, write_notebook
from tests.browser.lab_tab import lab_tab, switch_and_run, tab_page  # noqa: F401 - lab_tab: the fixture
from tests.browser.test_app_voila import app_errors, button, open_lab

pytestmark = pytest.mark.browser

#: the process's JupyterLab page at 1366x768, console errors to the test's js_errors (as conftest's page did)
laptop = tab_page(1366, 768, console=True)


def learner_words(code: str) -> list[str]:
    """The words a learner reads for ruling ``code`` (its learner text, as the tutorial draws it)."""
    inline = re.sub(r"</?[bi]>", "", learner_rules.ruling_html(code))  # bold and italics: within a word's line
    return html.unescape(re.sub(r"<[^>]+>", " ", inline)).split()


def open_a_ruling(page, tutorial) -> str:
    """Step on until a ruling is listed, click its line; returns its code once its text is shown."""
    for _ in range(6):
        if tutorial.locator("details.safari-ruling").count():
            break
        button(tutorial, "Next").click()
        page.wait_for_timeout(300)
    ruling = tutorial.locator("details.safari-ruling").first
    text = ruling.locator(".safari-ruling-text")
    assert not text.is_visible()
    ruling.locator("summary").click()
    text.wait_for(state="visible", timeout=10_000)
    code = ruling.get_attribute("data-ruling")
    assert text.inner_text().split()[:5] == learner_words(code)[:5], (code, text.inner_text()[:200])
    assert rulebook.ruling_markdown(code).split()[:3] != text.inner_text().split()[:3]  # not the developers' text
    game = learner_rules.GAMES[learner_rules.ruling_game(code)]
    assert f"the page Rules of {game}" in text.inner_text()
    assert tutorial.locator("a[href]").count() == 0
    text.scroll_into_view_if_needed()
    return code


def test_a_ruling_opens_in_jupyterlab(laptop, js_errors, lab_server):
    page = laptop
    write_notebook(lab_server.root / "rulings.ipynb",
                   ["from safari_kit.widgets.labs import RulesTutorial\nlab = RulesTutorial('knockout')\nlab"])
    run = switch_and_run(page, lab_server, "rulings.ipynb", name="rulings-lab-run")
    assert run.ok, run.errors
    code = open_a_ruling(page, page.locator(".safari-tutorial").first)
    screenshot(page, f"tutorial-ruling-{code}-jupyterlab")
    assert not js_errors, js_errors


def test_a_ruling_opens_in_the_voila_app(page, js_errors, voila_app):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=90_000)
    open_lab(page, "Safari Witness", "Rules\u00a0tutorial", ".safari-tutorial")  # ipywidgets: no-break spaces
    code = open_a_ruling(page, page.locator(".safari-app .safari-tutorial"))
    screenshot(page, f"tutorial-ruling-{code}-voila")
    assert not app_errors(page), app_errors(page)
    assert not js_errors, js_errors
