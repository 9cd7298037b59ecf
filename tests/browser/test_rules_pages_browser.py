"""The learners' rules pages show their card pictures, in the app and in JupyterLab, at 1366x768 (issue 27).

In the app (Voilà): the chooser's "Rules of Safari Witness" / "Rules of Safari Knockout" opens the page under
the chooser, every picture drawn (a loaded <img>, not a broken one), the title on the first screen. In
JupyterLab: the lessons' page shows its pictures without running a cell (markdown cells with ``data:``
images). axe finds no serious violation on the app's page. Screenshots in test-artifacts/ (rules-page-*.png).
"""
from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from safari_kit.tutorial import learner_rules as LR
from tests.browser.a11y import describe, failing, run_axe
from tests.browser.app_pages import LAPTOP, shared_page_fixtures
from tests.browser.helpers import screenshot, switch_notebook
from tests.browser.lab_tab import lab_tab, tab_page  # noqa: F401 - lab_tab: the fixture
from tests.browser.test_app_voila import app_errors, button

pytestmark = pytest.mark.browser

#: one page on the app for both games' tests (1366x768, less motion: no test here looks at motion)
shared_page, page = shared_page_fixtures(LAPTOP)
#: the process's JupyterLab page at 1366x768, console errors to the test's js_errors (as conftest's page did)
laptop = tab_page(1366, 768, console=True)

LOADED = "(imgs) => imgs.map(i => i.complete && i.naturalWidth > 0)"


def open_rules_page(page, game: str, title: str) -> None:
    from safari_kit.widgets.app import LABS

    app = page.locator(".safari-app")
    button(app.locator(".widget-toggle-buttons"), game).click()
    titles = [e.title for e in LABS if e.game == game]
    page.wait_for_function(
        "([titles]) => { const s = document.querySelector('.safari-app .safari-lab-list select');"
        " const now = s ? [...s.options].map(o => o.textContent.replace(/\\s+/g, ' ').trim()) : [];"
        " return JSON.stringify(now) === JSON.stringify(titles); }", arg=[titles])
    app.locator(".safari-lab-list select").first.select_option(index=titles.index(title))
    page.wait_for_timeout(200)  # the kernel has the choice before Open lab
    button(app, "Open lab").click()
    page.locator(".safari-app .safari-rules-page[data-game]").first.wait_for(timeout=60_000)


@pytest.mark.parametrize("game, key", [("Safari Witness", "witness"), ("Safari Knockout", "knockout")])
def test_the_apps_rules_page_shows_the_card_pictures(page, js_errors, voila_app, game, key):
    if not page.url.startswith(voila_app.url):  # the module's page, on the app once
        page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=90_000)
    page.evaluate("() => window.scrollTo(0, 0)")  # the other game's pictures were scrolled to: the top, as on arrival
    open_rules_page(page, game, f"Rules of {game}")
    rules = page.locator(f".safari-app .safari-rules-page[data-game='{key}']")
    rules.wait_for(timeout=60_000)
    title = rules.locator("h2")
    assert title.inner_text() == f"Rules of {game}"
    assert title.bounding_box()["y"] < 768, "the page's title is below the first screen"
    chosen = page.locator(".safari-app .safari-lab-list select").first
    assert chosen.evaluate("s => s.scrollWidth <= s.clientWidth + 1"), "the entry's name is cut in the Lab list"
    images = rules.locator("figure.safari-rules-picture img")
    assert images.count() == len(LR.pictures(key))
    page.wait_for_function("(n) => [...document.querySelectorAll('.safari-rules-page img')]"
                           ".filter(i => i.complete && i.naturalWidth > 0).length === n",
                           arg=images.count(), timeout=30_000)
    for i in range(images.count()):
        box = images.nth(i).bounding_box()
        assert box["width"] > 100 and box["height"] > 60, (i, box)  # drawn, not a broken-image icon
        assert box["x"] + box["width"] <= 1366, (i, box)            # no picture runs off the screen
    screenshot(page, f"rules-page-app-{key}-top")
    bad = failing(run_axe(page, ".safari-rules-page"))  # pictures named (alt), headings in order, contrast
    assert not bad, describe(bad)
    for i in range(images.count()):
        images.nth(i).scroll_into_view_if_needed()
        screenshot(page, f"rules-page-app-{key}-picture-{i + 1}")
    assert not app_errors(page), app_errors(page)
    assert not js_errors, js_errors


def test_the_lessons_page_shows_its_pictures_without_running(laptop, js_errors, lab_server):
    page = laptop
    switch_notebook(page, lab_server, "notebooks/rules-safari-witness.ipynb")
    first = page.locator(".jp-MarkdownCell img").first
    first.wait_for(timeout=30_000)
    first.scroll_into_view_if_needed()
    page.wait_for_function("() => { const i = document.querySelector('.jp-MarkdownCell img');"
                           " return i && i.complete && i.naturalWidth > 0; }", timeout=30_000)
    assert first.get_attribute("src").startswith("data:image/svg+xml;base64,")
    assert first.get_attribute("alt").startswith("A Mugshot")
    assert page.locator(".jp-CodeCell").count() == 0
    screenshot(page, "rules-page-jupyterlab-witness")
    assert not js_errors, js_errors


def test_the_pictures_are_what_the_card_table_draws_today(tmp_path, chromium_path):
    """The stored pictures were drawn by table.js: drawn again now, the Mugshots' SVGs are the same bytes and
    the Safari Pals' PNGs the same size (a change to how the labs draw cards asks for tools/draw_rules_cards.py)."""
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, str(root / "tools" / "draw_rules_cards.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True, timeout=300)
    from safari_kit.tutorial.learner_rules.notebook import page_languages

    # every language's drawings (issue 30: the Spanish page's cards say Spanish words, knockout-K04.es.png)
    for picture in (p for lang in page_languages() for game in LR.GAMES for p in LR.pictures(game, lang)):
        stored, fresh = picture.path.read_bytes(), (tmp_path / picture.file_name).read_bytes()
        if picture.file_name.endswith(".svg"):
            assert fresh == stored, f"{picture.file_name} is stale: run tools/draw_rules_cards.py"
        else:  # a PNG's width and height, from its header
            assert struct.unpack(">II", fresh[16:24]) == struct.unpack(">II", stored[16:24]), picture.file_name
