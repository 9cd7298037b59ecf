"""Issue 9 (3, 4) in the classroom app (Voilà, real chromium): no learner can cheat, the server is safe to share.

A learner with only a browser tries what the issue found:

* two tabs on the same lab (Knockout) get different deals, and Reset deals
  afresh (Knockout; Identification, where the deal on screen is one clue card:
  three Resets never all bring back the same card);
* the Full game lab refuses to save an unfinished game and refuses Load while
  a game is in progress;
* a bad record name (``../../x``, an absolute path, ``app.ipynb``) is refused
  with a clear message and nothing is written outside the records folder
  (``notebooks/records/`` of the server's copy); a good name is saved there.

Screenshots at 1366x768: ``test-artifacts/fair-*.png``. One page on the app for both tests (the second tab is
its own), asking for less motion (tests/browser/app_pages.py).
"""
from __future__ import annotations

import re
import secrets
import time
from pathlib import Path

import pytest

from tests.browser.app_pages import shared_page_fixtures
from tests.browser.conftest import REPO
from tests.browser.test_app_voila import assert_app_clean, button, open_lab
from tests.browser.helpers import screenshot

pytestmark = pytest.mark.browser

SMALL = {"width": 1366, "height": 768}


#: one page on the app for the module's tests (tests/browser/app_pages.py)
shared_page, page = shared_page_fixtures(SMALL)


def server_root(server) -> Path:
    return server.log.parent / "root"


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")
            if ".ipynb_checkpoints" not in p.parts and "__pycache__" not in p.parts}


def open_app(page, server) -> None:
    """The app's chooser at the page's top: loaded in a new tab, scrolled to in the module's page (an earlier test
    of the module opened it)."""
    page.set_viewport_size(SMALL)
    if page.url.startswith(server.url) and page.locator(".safari-app .safari-lab-list select").count():
        page.evaluate("() => window.scrollTo(0, 0)")
        return
    page.goto(server.url, wait_until="domcontentloaded", timeout=90_000)
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=90_000)


def table_text(page, lab: str) -> str:
    return page.locator(f".safari-app {lab} .safari-table").inner_text()


def wait_table_change(page, lab: str, before: str, timeout: float = 30_000) -> str:
    page.wait_for_function(
        "([sel, before]) => { const el = document.querySelector(sel); return el && el.innerText !== before; }",
        arg=[f".safari-app {lab} .safari-table", before], timeout=timeout, polling=50)
    page.wait_for_timeout(300)
    return table_text(page, lab)


def status(page, lab: str) -> str:
    return page.locator(f".safari-app {lab} > .widget-html").last.inner_text()


def set_text(page, selector: str, value: str) -> None:
    box = page.locator(f"{selector} input").first
    box.fill(value)
    box.press("Tab")
    page.wait_for_timeout(250)  # the kernel has the value before the next click


def set_learners(page, lab: str, seats: set[int]) -> None:
    """Press exactly the Learners toggles of ``seats`` (one toggle per seat; the others are bots)."""
    toggles = page.locator(f".safari-app {lab} .safari-learners button")
    for i in range(toggles.count()):
        t = toggles.nth(i)
        seat = int(t.inner_text().split()[-1])
        if ("mod-active" in (t.get_attribute("class") or "")) != (seat in seats):
            t.click()
            page.wait_for_timeout(150)
    page.wait_for_timeout(250)  # the kernel has the value before the next click


def pick_bots(page, lab: str, spec: str) -> None:
    """Choose the bots by their spec in the Bots picker (its options read the learners' names since issue 27,
    e.g. "Bot that plays at random": the Full game's BOT_CHOICES pair each spec with its name)."""
    from safari_kit.presentation.fullgame_flow import BOT_CHOICES

    label = dict(BOT_CHOICES)[spec]
    options = page.locator(f".safari-app {lab} .safari-bots option").all_inner_texts()
    page.locator(f".safari-app {lab} .safari-bots select").select_option(
        label=next(t for t in options if " ".join(t.replace("\u00a0", " ").split()) == label))
    page.wait_for_timeout(250)


def test_two_tabs_get_different_deals_and_reset_deals_afresh(page, js_errors, voila_app):
    open_app(page, voila_app)
    assert "no two tabs" in page.locator(".safari-app").inner_text()
    shot_path = screenshot(page, "fair-chooser")
    lab = ".safari-knockout-lab"
    open_lab(page, "Safari Knockout", "Knockout", lab)
    first = table_text(page, lab)
    # no seed on the page: the seed box is hidden, the note says the deal is secret
    assert not page.locator(f".safari-app {lab} .widget-text input[type='number']").first.is_visible()
    assert "shuffled in secret" in page.locator(f".safari-app {lab} .safari-deal-note").inner_text()
    screenshot(page, "fair-knockout-tab1")

    other = page.context.new_page()  # a second tab on the same app
    try:
        open_app(other, voila_app)
        open_lab(other, "Safari Knockout", "Knockout", lab)
        second = table_text(other, lab)
        screenshot(other, "fair-knockout-tab2")
    finally:
        other.close()
    assert first != second, "two tabs show the same deal"

    button(page.locator(f".safari-app {lab}"), "Reset").click()
    again = wait_table_change(page, lab, first)
    assert again not in (first, second)
    button(page.locator(f".safari-app {lab}"), "New game").click()
    wait_table_change(page, lab, again)

    lab = ".safari-identification-lab"
    open_lab(page, "Safari Witness", "Identification", lab)
    seen = [table_text(page, lab)]
    for _ in range(3):  # the deal on screen is one clue card (1 in 75 to repeat by chance)
        button(page.locator(f".safari-app {lab}"), "Reset").click()
        try:
            seen.append(wait_table_change(page, lab, seen[-1], timeout=15_000))
        except Exception:  # noqa: BLE001 - the same picture again (checked below)
            seen.append(table_text(page, lab))
        if seen[-1] != seen[0]:
            break
    assert seen[-1] != seen[0], "Reset brought back the same deal three times"
    screenshot(page, "fair-identification-after-reset")
    assert_app_clean(page, js_errors)
    print(f"\nscreens: {shot_path.parent}")


def test_full_game_records_refused_and_contained(page, js_errors, voila_app):
    from playwright.sync_api import expect

    root = server_root(voila_app)
    tok = secrets.token_hex(4)
    outside = [root.parent / f"escape-{tok}.json", Path(f"/tmp/abs-{tok}.json"), root / "notebooks" / f"x-{tok}.json"]
    before = files_under(root)
    open_app(page, voila_app)
    lab = ".safari-fullgame-lab"
    open_lab(page, "Safari Witness", "Full\u00a0game", lab)  # ipywidgets' dropdown shows spaces as no-break spaces
    scope = page.locator(f".safari-app {lab}")
    save = scope.locator("button.safari-save")
    assert save.is_disabled(), "Save must be off while the game is in progress"
    screenshot(page, "fair-fullgame-start")

    # a game the bots play to the end at once
    set_learners(page, lab, set())
    pick_bots(page, lab, "random")
    button(scope, "New game").click()
    scope.locator("h3", has_text="Game over").wait_for(timeout=60_000)
    page.wait_for_function("(sel) => !document.querySelector(sel).disabled",
                           arg=f".safari-app {lab} button.safari-save")

    for bad in (f"../../escape-{tok}", f"/tmp/abs-{tok}.json", "app.ipynb", f"../x-{tok}.json", "my game.json"):
        set_text(page, f".safari-app {lab} .safari-record-name", bad)
        save.click()
        refused = scope.locator(".widget-html", has_text="Not saved:").filter(has_text=f"'{bad}' is not a record name")
        refused.first.wait_for(timeout=15_000)
        assert "letters" in refused.first.inner_text()
        if bad == "app.ipynb":
            refused.first.evaluate("(el) => el.scrollIntoView({block: 'end'})")
            page.wait_for_timeout(200)
            screenshot(page, "fair-fullgame-bad-name")
    for path in outside:
        assert not path.exists(), f"{path} was written"
    assert files_under(root) == before, "a refused name changed a file on the server"
    assert (root / "notebooks" / "app.ipynb").read_bytes() == (REPO / "notebooks" / "app.ipynb").read_bytes()

    name = f"class-game-{tok}"
    set_text(page, f".safari-app {lab} .safari-record-name", name)
    save.click()
    scope.locator(".widget-html", has_text="Record saved as").first.wait_for(timeout=15_000)
    # issue 19: the server adds five letters to the learner's name (nobody can take a name another needs)
    said = re.search(rf"Record saved as ({re.escape(name)}-[a-z2-9]{{5}}\.json)",
                     scope.locator(".widget-html", has_text="Record saved as").first.inner_text())
    assert said, "the page does not say the saved name"
    saved = root / "notebooks" / "records" / said[1]
    for _ in range(50):
        if saved.exists():
            break
        time.sleep(0.1)
    assert saved.is_file(), sorted(files_under(root) - before)
    written = {"notebooks/records", f"notebooks/records/{said[1]}"}
    assert files_under(root) - before == written

    # Load mid-game is refused: a new game, one move by the learner, then Load
    set_learners(page, lab, {0})
    button(scope, "New game").click()
    choice = scope.locator(".safari-table .st-selectable[data-key='button:\"challenge\"']")
    any_button = scope.locator(".safari-table .st-selectable[data-key^='button:']")
    for _ in range(20):  # e.g. "Next turn" after a failed turn comes before the learner's choice
        any_button.first.wait_for(timeout=60_000)
        if choice.count():
            break
        shown = table_text(page, lab)
        any_button.first.click()
        wait_table_change(page, lab, shown)
    # the new game's table and Save's state come in separate messages: Save must turn off, looked at again until
    # it does (read once, it was still on in one fresh-clone run; the kernel refuses a save mid-game anyway)
    expect(save).to_be_disabled(timeout=15_000)
    choice.click()
    scope.locator(".safari-table .st-selectable[data-key^='place:']").first.wait_for(timeout=30_000)
    board = table_text(page, lab)
    load = scope.locator("button.safari-load")
    load.click()
    scope.locator(".widget-html", has_text="Load is refused while a game is in progress").first.wait_for(timeout=15_000)
    page.wait_for_timeout(500)
    assert table_text(page, lab) == board, "Load changed the game"
    assert save.is_disabled()
    screenshot(page, "fair-fullgame-load-refused")
    assert files_under(root) - before == written
    assert_app_clean(page, js_errors)

    # hot-seat: every "I am player N" press is written where the whole table sees it
    set_learners(page, lab, {0, 1})
    button(scope, "New game").click()
    passes = scope.locator(".safari-passes")
    passes.filter(has_text="none yet").wait_for(timeout=60_000)
    confirm = scope.locator("button", has_text="I am player")
    remember = scope.locator("button", has_text="Next turn")
    for _ in range(20):  # a game opens on a learner's turn (issue 27); a bot's failure later pauses with Next turn
        scope.locator("button", has_text=re.compile("I am player|Next turn")).first.wait_for(timeout=60_000)
        if confirm.count() and confirm.first.is_visible():
            break
        remember.first.click()
        page.wait_for_timeout(500)
    who = confirm.inner_text().strip()
    screenshot(page, "fair-fullgame-pass-screen")
    confirm.click()
    passes.filter(has_text="the table was opened").wait_for(timeout=30_000)
    assert f"Player {who.split()[-1]}: the table was opened" in passes.inner_text()
    passes.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    screenshot(page, "fair-fullgame-device-passes")
    assert_app_clean(page, js_errors)
