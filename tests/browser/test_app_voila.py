"""The classroom app (Voilà, ``make app``) in headless chromium: choose, open and play two labs by clicking.

``voila_app`` (conftest) starts ``voila notebooks/app.ipynb`` (what ``make app`` runs) on a
free 127.0.0.1 port, from a temporary copy of ``notebooks/`` and ``data/``, with
fresh Jupyter folders, and stops it (its process group, kernels included) at the
end. The test opens the app and checks that Voilà shows no code, only the
chooser; then it chooses Safari Witness -> Identification, presses Open lab
(the secret deal may open on a bot's failed turn, its cards face up: Next turn
until the learner's turn) and plays one identification by clicking (Identify, a
clue type, a face-down place, Reveal); then Safari Knockout -> Knockout, Open lab, and plays Knockout turns by
clicking (a card, and a data item when leading, then Play; the result of the turn is read beside the
table, then Next turn) until it has led once, checking that the probability table changes after every click.
No cell error, no widget error, no JS error. Screenshots: ``test-artifacts/app-*.png``.
"""
from __future__ import annotations

import re
import time

import pytest

from tests.browser.app_pages import quiet_page
from tests.browser.helpers import WIDGET_ERROR_TEXTS, screenshot

pytestmark = pytest.mark.browser

ERROR_TEXTS = WIDGET_ERROR_TEXTS + ("Traceback", "There was an error when executing cell", "Something went wrong")


# ----------------------------------------------------------------------------- helpers
def app_errors(page) -> list[str]:
    """Widget and cell errors visible in the Voilà page."""
    errors = []
    icons = page.locator(".jupyter-widgets-error-widget.icon-error")
    for _ in range(20):
        if icons.count() == 0:
            break
        try:
            icons.first.click(timeout=2_000)
        except Exception:  # noqa: BLE001 - report what we have
            errors.append("widget error (icon, message not readable)")
            break
    errors += [" | ".join(t.split()) for t in page.locator(".jupyter-widgets-error-widget").all_inner_texts()]
    errors += page.locator("[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()
    body = page.locator("body").inner_text()
    errors += [line.strip() for line in body.splitlines() if any(m in line for m in ERROR_TEXTS)]
    return errors


def assert_app_clean(page, js_errors) -> None:
    problems = app_errors(page)
    assert not problems and not js_errors, f"page errors: {problems}\nJS errors: {js_errors}"


def button(scope, text: str):
    """A button by its exact text (an icon's glyph would spoil get_by_role's accessible name)."""
    return scope.locator("button").filter(has_text=re.compile(rf"^\s*{re.escape(text)}\s*$")).first


def html_of(page, selector: str) -> str:
    return page.evaluate("(sel) => { const el = document.querySelector(sel); return el ? el.innerHTML : ''; }",
                         selector)


def click_and_wait_change(page, click, watch: str, timeout: float = 15_000) -> None:
    before = html_of(page, watch)
    click.click()
    page.wait_for_function(
        "([sel, before]) => { const el = document.querySelector(sel); return el && el.innerHTML !== before; }",
        arg=[watch, before], timeout=timeout, polling=20)


def identification_result(page, lab: str) -> str:
    """The status line's words once it says the Identification's result ("Match!" or "No match").

    After Reveal the kernel redraws the chances panel and the tally first and the status line a moment later:
    a read at once can find the words from before (the race three tests met, issue 28)."""
    page.wait_for_function("(sel) => /Match!|No match/.test(document.querySelector(sel).innerText)",
                           arg=f"{lab} .safari-status", timeout=30_000)
    return page.locator(f"{lab} .safari-status").inner_text()


def shot(page, name: str, selector: str | None = None, height: int = 1700):
    """A screenshot of the page, made tall enough for a lab, scrolled to ``selector``."""
    old = page.viewport_size
    page.set_viewport_size({"width": old["width"], "height": height})
    try:
        if selector:
            page.locator(selector).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        return screenshot(page, name)
    finally:
        page.set_viewport_size(old)


def open_lab(page, game: str, lab: str, root_class: str) -> None:
    """Open ``lab`` of ``game`` from the app's chooser and wait for that new lab's table.

    The list is read once it holds this game's labs (both games have a "Rules tutorial": an option of the
    other game's list would be picked before the kernel swaps the list, and Open lab would open the game's
    first lab), and a lab already open is waited out of the page (the two tutorials share a root class)."""
    from safari_kit.widgets.app import LABS

    app = page.locator(".safari-app")
    button(app.locator(".widget-toggle-buttons"), game).click()
    titles = [e.title for e in LABS if e.game == game]
    page.wait_for_function(  # the chooser's own list (the first select: a lab may have its own)
        "([titles]) => { const s = document.querySelector('.safari-app .safari-lab-list select');"
        " const now = s ? [...s.options].map(o => o.textContent.replace(/\\s+/g, ' ').trim()) : [];"
        " return JSON.stringify(now) === JSON.stringify(titles); }", arg=[titles])
    old = page.locator(".safari-app .safari-lab").first
    old = old.element_handle() if old.count() else None
    app.locator(".safari-lab-list select").first.select_option(
        index=titles.index(lab.replace("\u00a0", " ")))
    page.wait_for_timeout(200)  # the kernel has the choice before Open lab
    button(app, "Open lab").click()
    if old is not None:
        page.wait_for_function("(el) => !el.isConnected", arg=old, timeout=60_000)
    page.locator(f".safari-app {root_class} .safari-table .st-card").first.wait_for(timeout=60_000)
    page.wait_for_timeout(300)


def pick_best_declaration(page, lab: str) -> tuple[str, str]:
    """In the Identification lab (after Identify): pick the clue type and the place of the best declaration
    (marked in the every-chance table, a closed <details> under the lab); returns (types, place)."""
    best = page.locator(f"{lab} .safari-prob-all td.safari-best").first
    best.wait_for(state="attached")
    types, place = best.get_attribute("data-types"), best.get_attribute("data-place")
    words = {"animal": "Animal", "texture": "Texture", "color": "Color", "name": "Name"}
    type_button = button(page.locator(f"{lab} .safari-types"), " + ".join(words[t] for t in types.split("+")))
    if "mod-active" not in (type_button.get_attribute("class") or ""):
        type_button.click()
        page.wait_for_timeout(200)
    click_and_wait_change(page, page.locator(f"{lab} .safari-table .st-selectable[data-key='place:{place}']"),
                          f"{lab} .safari-prob")
    return types, place


# ----------------------------------------------------------------------------- the test
@pytest.fixture
def page(browser, js_errors, request):
    """conftest's ``page`` (1400x900) asking for less motion (tests/browser/app_pages.py, issue 28)."""
    yield from quiet_page(browser, js_errors, request)


def test_app_chooser_identification_and_knockout(page, js_errors, voila_app):
    t0 = time.perf_counter()
    # nothing may be downloaded at run time: the app's template ("safari") drops Voila's CDN links
    outside = []
    page.on("request", lambda req: outside.append(req.url)
            if not req.url.startswith(("http://127.0.0.1", "http://localhost", "data:", "blob:")) else None)
    page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
    app = page.locator(".safari-app")
    app.wait_for(timeout=90_000)  # Voilà runs the notebook, then shows the chooser
    page.locator(".safari-app .safari-lab-list select").wait_for()
    print(f"\napp ready in {time.perf_counter() - t0:.1f} s")
    # issue 19: no Shared class seed box unless the teacher turns it on for the server (SAFARI_KIT_CLASS_SEED)
    assert not page.locator(".safari-app .safari-shared-seed").is_visible(), "the class-seed box is offered"
    assert "Shared class seed" not in app.inner_text()

    # Voilà: outputs only, no code cells, no prompts, no editor
    body = page.locator("body").inner_text()
    assert "from safari_kit" not in body and "LabChooser(" not in body, "code is shown"
    for sel in (".jp-CodeCell .jp-InputArea", ".jp-InputArea-editor", ".jp-InputPrompt", ".cm-editor", ".CodeMirror",
                "pre code"):
        visible = [el for el in page.locator(sel).all() if el.is_visible()]
        assert not visible, f"{sel} is visible"
    assert "Choose a game and a lab" in body
    assert button(app, "Open lab").is_visible()
    assert_app_clean(page, js_errors)
    shot(page, "app-chooser", height=900)

    # ---------------------------------------------------------------- Safari Witness -> Identification
    open_lab(page, "Safari Witness", "Identification", ".safari-identification-lab")
    lab = ".safari-app .safari-identification-lab"
    prob = f"{lab} .safari-prob"
    # the secret deal may open on a bot's failed turn (its cards face up, W4/W5): Next turn until ours
    for _ in range(12):
        if page.locator(f"{lab} button.safari-identify:not([disabled])").count():
            break
        assert page.locator(f"{lab} .st-remember-banner").count(), page.locator(f"{lab} .safari-table").inner_text()
        click_and_wait_change(page, button(page.locator(lab), "Next turn"), f"{lab} .safari-table", timeout=60_000)
        page.wait_for_timeout(200)
    assert "Identify now" in page.locator(prob).inner_text()
    click_and_wait_change(page, button(page.locator(lab), "Identify"), prob)
    every = f"{lab} .safari-prob-all"
    types, place = pick_best_declaration(page, lab)
    picked = page.locator(f"{every} td.safari-picked[data-place='{place}']")
    picked.wait_for(state="attached")
    assert picked.get_attribute("data-types") == types
    exact = picked.text_content().split("knowing nothing")[0].strip()
    under = page.locator(f"{lab} .safari-table .st-slot:has([data-key='place:{place}']) .st-under").inner_text()
    assert exact.split(" ")[0] in under.replace("\n", " "), (exact, under)  # the chance under the place
    shot(page, "app-identification-picked", lab)
    click_and_wait_change(page, button(page.locator(lab), "Reveal"), prob)
    page.locator(f"{lab} .safari-tally table.safari-tally-table tr").nth(1).wait_for()
    result = identification_result(page, lab)
    assert ("Match!" in result or "No match" in result) and exact.split(" ")[0] in result, (result, exact)
    print(f"identification: {types} at place {place}, exact {exact}: {result}")
    assert_app_clean(page, js_errors)
    shot(page, "app-identification", lab)

    # ---------------------------------------------------------------- Safari Knockout -> Knockout
    open_lab(page, "Safari Knockout", "Knockout", ".safari-knockout-lab")
    assert page.locator(".safari-app .safari-identification-lab").count() == 0, "the old lab is still shown"
    lab = ".safari-app .safari-knockout-lab"
    table = f"{lab} .safari-prob-table"
    plays = []
    for _ in range(8):  # play until we have led once (and followed, if the deal starts that way)
        page.locator(f"{table}[data-phase='lead'], {table}[data-phase='follow']").first.wait_for(timeout=30_000)
        phase = page.locator(table).get_attribute("data-phase")
        step = page.locator(table).get_attribute("data-step")
        card = page.locator(table).get_attribute("data-best-card")
        item = page.locator(table).get_attribute("data-best-item")
        p_best = page.locator(f"{table} td.safari-best").first.inner_text().splitlines()[-1].replace("★", "").strip()
        if phase == "lead" and not plays:
            shot(page, "app-knockout-lead", lab)
        wait_step = "([sel, step]) => { const t = document.querySelector(sel); return t && t.dataset.step !== step; }"
        page.locator(f"{lab} .safari-table .st-selectable[data-key='card:\"{card}\"']").click()
        page.wait_for_function(wait_step, arg=[table, step], timeout=30_000, polling=20)
        page.locator(f"{table} tr.safari-picked-row[data-card='{card}']").wait_for()  # picked, not played
        if phase == "lead":
            step = page.locator(table).get_attribute("data-step")
            page.locator(f"{lab} .safari-table .st-selectable[data-key='item:\"{item}\"']").click()
            page.wait_for_function(wait_step, arg=[table, step], timeout=30_000, polling=20)
        button(page.locator(lab), "Play").click()
        # the finished turn stays on the table, its result in words beside it, until Next turn
        page.locator(f"{table}[data-phase='done'], {table}[data-phase='over']").first.wait_for(timeout=30_000)
        result = page.locator(f"{lab} .safari-ko-result").inner_text()
        assert result.startswith(("You won: ", "You lost: ")), result
        plays.append((phase, card, item or None, p_best, result))
        assert "Something went wrong" not in page.locator(f"{lab}").inner_text()
        if phase == "lead":
            shot(page, "app-knockout-result", lab)
            break
        button(page.locator(lab), "Next turn").click()
    assert plays and plays[-1][0] == "lead", f"never led in {len(plays)} plays: {plays}"
    page.locator(f"{lab} .safari-ko-log", has_text="Round 1, turn").wait_for(timeout=30_000)
    log = page.locator(f"{lab} .safari-ko-log").inner_text()
    assert "You" in log, log
    print(f"knockout plays (phase, card, item, P shown): {plays}")
    assert_app_clean(page, js_errors)
    shot(page, "app-knockout", lab)
    assert not outside, f"the app page fetched from outside this machine: {outside}"
