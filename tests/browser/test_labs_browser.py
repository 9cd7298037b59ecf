"""The Identification and Challenge labs in JupyterLab, driven by clicks in headless chromium.

* The lessons ``02-identification`` and ``03-challenge`` running top to bottom with their lab drawn: in
  tests/browser/test_learner_lessons_browser.py, on the learners' copies (issue 28: the teachers' copies were
  run here a second time for it).
* ``test_identification_and_challenge_by_clicking``: a small notebook written
  into the server root shows ``IdentificationLab(seed=...)`` and
  ``ChallengeLab()`` (its default position, "Mid-game: stop or go on?"). The
  Identification seed opens on a bot's failed turn (its cards face up, W4/W5):
  ``Next turn`` is pressed until the learner's turn. One identification is
  played by clicking (Identify, a clue type, a face-down place on the card
  table, a guess, Reveal) and one turn of the Challenge lab: the choice box
  shows Identify and Challenge with their expected cards archived, Challenge
  is pressed, places are revealed by the rule (the safest place) until the
  orange stop-or-continue box appears (screenshot
  ``test-artifacts/challenge-decision.png`` and ``challenge-decision-stop.png``
  at 1366x768), where the rule's
  verdict is followed, until Stop; after every click the probability text
  (``.safari-prob``/``.safari-decide``) must change. The click -> kernel -> DOM latency is measured over many place
  clicks and clue-type toggles and printed (median, p95), not asserted (only a
  2 s sanity bound). Afterwards the kernel is asked for ``lab.errors`` (the
  errors the labs caught in their callbacks): none. Screenshots
  ``test-artifacts/labs-*.png``.

The notebook is opened in the process's one JupyterLab page (tests/browser/lab_tab.py, issue 28), with the
cards' glow off (reduced motion): the latency printed is a little below a learner's.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from tests.browser.helpers import (
    assert_clean, click_latency_ms, current_notebook, latency_summary, screenshot,
    write_notebook,
)
from tests.browser.lab_tab import lab_tab, switch_and_run, tab_page  # noqa: F401 - lab_tab: the fixture

pytestmark = pytest.mark.browser
#: the process's JupyterLab page, console errors counted as in conftest's ``page``
page = tab_page(1400, 900, console=True)

ID_LAB = ".safari-identification-lab"
CH_LAB = ".safari-challenge-lab"
SEED = 4            # Identification: the learner's turn at once (seed 4, 3 players)
SANITY_MS = 2_000

CELLS = [
    ("markdown", "# Labs driven by clicks (browser test)"),
    "from safari_kit.widgets.labs.identification import IdentificationLab\n"
    f"ident = IdentificationLab(seed={SEED}, players=3)\n"
    "ident",
    "from safari_kit.widgets.labs.challenge import ChallengeLab\n"
    "chal = ChallengeLab()  # the default position: you remember 5 safe places, so the decision comes\n"
    "chal",
]


# ----------------------------------------------------------------------------- small helpers
def lab_shot(page, selector: str, name: str, scroll_to: str | None = None, height: int = 1900):
    """Screenshot of one lab as test-artifacts/<name>.png.

    The notebook scrolls inside JupyterLab, so an element screenshot of a lab taller
    than the window is clipped: the window is made taller for the shot, the lab (or
    ``scroll_to`` inside it) scrolled to the top, and the window captured.
    """
    old = page.viewport_size
    page.set_viewport_size({"width": old["width"], "height": height})
    try:
        target = current_notebook(page).locator(f"{selector} {scroll_to}" if scroll_to else selector).first
        target.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        return screenshot(page, name)
    finally:
        page.set_viewport_size(old)


def kernel_eval(page, code: str, timeout: float = 30_000) -> str:
    """Run ``code`` in the current notebook's kernel (no cell); return its stdout (and any error)."""
    return page.evaluate(
        """async ([code, timeoutMs]) => {
            const w = window.jupyterapp.shell.currentWidget;
            const k = w.sessionContext.session.kernel;
            const fut = k.requestExecute({code, silent: false, store_history: false});
            let out = '';
            fut.onIOPub = (msg) => {
                const t = msg.header.msg_type;
                if (t === 'stream') out += msg.content.text;
                if (t === 'error') out += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
            };
            const timer = new Promise((_, rej) => setTimeout(() => rej(new Error('kernel_eval timeout')), timeoutMs));
            await Promise.race([fut.done, timer]);
            return out;
        }""",
        [code, timeout],
    )


def bring_into_view(page, lab: str) -> None:
    """Scroll a lab into view: JupyterLab skips rendering cells far off screen (innerText is then empty)."""
    page.locator(lab).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(100)


def text_of(page, selector: str) -> str:
    loc = page.locator(selector)
    return loc.first.inner_text() if loc.count() else ""


def html_of(page, selector: str) -> str:
    return page.evaluate("(sel) => { const el = document.querySelector(sel); return el ? el.innerHTML : ''; }",
                         selector)


def click_and_wait_change(page, click, watch: str, timeout: float = 10_000) -> str:
    """Click (a locator), then wait until the HTML under ``watch`` differs; return its new inner text."""
    before = html_of(page, watch)
    click.click()
    page.wait_for_function(
        "([sel, before]) => { const el = document.querySelector(sel); return el && el.innerHTML !== before; }",
        arg=[watch, before], timeout=timeout, polling=20,
    )
    assert html_of(page, watch) != before
    return text_of(page, watch)


def widget_button(page, lab: str, text: str):
    """An ipywidgets button of a lab, by its exact text ("Reveal" is not "Reveal another")."""
    return page.locator(lab).get_by_role("button", name=text, exact=True).first


def status(page, lab: str) -> str:
    return text_of(page, f"{lab} .safari-status")


def assert_status_ok(page, lab: str) -> None:
    st = status(page, lab)
    assert "Something went wrong" not in st, st


# ----------------------------------------------------------------------------- clicking through the labs
def next_until_my_turn(page, lab: str, next_text: str, ready: str, tries: int = 12) -> int:
    """Press the lab's ``next_text`` button until ``ready`` (a selector) is on the page; returns the presses.

    The bots pause after each failed turn (phase face_up, W4/W5: its cards lie
    face up until the next turn), so reaching the learner's turn may take
    several presses.
    """
    nxt = widget_button(page, lab, next_text)
    for n in range(tries):
        if page.locator(ready).count():
            return n
        assert nxt.is_enabled(), f"neither the learner's turn nor {next_text!r}: {status(page, lab)}"
        click_and_wait_change(page, nxt, f"{lab} .safari-table", timeout=60_000)
        page.wait_for_timeout(150)  # the buttons' state (another message) lands too
    assert page.locator(ready).count(), f"not the learner's turn after {tries} presses: {status(page, lab)}"
    return tries


IDENTIFY_READY = f"{ID_LAB} button.safari-identify:not([disabled])"


def play_identification(page) -> dict:
    lab = ID_LAB
    bring_into_view(page, lab)
    if page.locator(f"{lab} .st-remember-banner").count():  # the deal opens on a bot's failure
        next_until_my_turn(page, lab, "Next turn", IDENTIFY_READY)
    prob = f"{lab} .safari-prob"
    places = f"{lab} .safari-table .st-selectable[data-key^='place:']"
    texts = [text_of(page, prob)]
    assert "Identify now" in texts[0], texts[0]  # the choose phase: Identify vs Reveal another

    # 1. Identify (an ipywidgets button -> kernel -> new panel for the identify phase)
    texts.append(click_and_wait_change(page, widget_button(page, lab, "Identify"), prob))
    page.locator(f"{lab} .safari-prob-table").wait_for(state="attached")  # every chance, in a <details> below
    try:  # the card table is its own widget: its redraw may land after the panel's
        page.wait_for_function("(sel) => document.querySelectorAll(sel).length >= 2", arg=places, timeout=10_000)
    except Exception:
        pass
    assert page.locator(places).count() >= 2, "no face-down place is clickable after Identify"

    # 2. a clue type (ToggleButtons): the type of the best declaration the panel marks
    best = page.locator(f"{lab} .safari-prob-all td.safari-best").first
    best_types, place = best.get_attribute("data-types"), int(best.get_attribute("data-place"))
    words = {"animal": "Animal", "texture": "Texture", "color": "Color", "name": "Name"}
    type_name = " + ".join(words[t] for t in best_types.split("+"))
    type_button = page.locator(f"{lab} .safari-types").get_by_role("button", name=type_name, exact=True)
    if "mod-active" not in (type_button.get_attribute("class") or ""):
        type_button.click()  # nothing in the panel changes until a place is picked
        page.wait_for_function("(el) => el.classList.contains('mod-active')", arg=type_button.element_handle(),
                               timeout=10_000)
    page.wait_for_timeout(100)  # the kernel has the type before the place click

    # 3. that face-down place on the card table: the panel marks the picked cell, the table highlights it
    place_key = f"place:{place}"
    htmls = [html_of(page, prob)]
    click_and_wait_change(page, page.locator(f"{lab} .safari-table .st-selectable[data-key='{place_key}']"), prob)
    picked = page.locator(f"{lab} .safari-prob-all td.safari-picked")
    picked.wait_for(state="attached", timeout=10_000)
    htmls.append(html_of(page, prob))
    assert picked.get_attribute("data-place") == str(place)
    assert picked.get_attribute("data-types") == best_types
    exact = picked.text_content().split("knowing nothing")[0].strip()
    assert "/" in exact or exact in ("0", "1"), exact
    under = text_of(page, f"{lab} .safari-table .st-slot:has([data-key='{place_key}']) .st-under")
    assert exact.split(" ")[0] in under or exact in under, (exact, under)  # the same chance under the place
    page.locator(f"{lab} .safari-table .st-highlight[data-key='{place_key}']").wait_for(timeout=10_000)
    assert f"Place {place} picked" in status(page, lab)

    # keyboard: Tab/Enter on another place works like a click
    other = page.locator(f"{places}:not([data-key='{place_key}'])").first
    other_key = other.get_attribute("data-key")
    other.focus()
    page.keyboard.press("Enter")
    other_place = other_key.split(":")[1]
    picked_cell = f"{lab} .safari-prob-all td.safari-picked[data-place='{{}}']"
    page.locator(picked_cell.format(other_place)).wait_for(state="attached", timeout=10_000)
    htmls.append(html_of(page, prob))
    # back to the best place, by mouse
    page.locator(f"{lab} .safari-table [data-key='{place_key}']").click()
    page.locator(picked_cell.format(place)).wait_for(state="attached", timeout=10_000)
    assert len(set(htmls)) == len(htmls), "the probability panel did not change after a place click"

    # 4. a guess, then Reveal: the tally gets its first row, the panel shows the last reveal
    page.locator(f"{lab} .safari-guess input").fill("0.2")
    texts.append(click_and_wait_change(page, widget_button(page, lab, "Reveal"), prob))
    page.locator(f"{lab} .safari-tally table.safari-tally-table tr").nth(1).wait_for(timeout=10_000)
    tally = text_of(page, f"{lab} .safari-tally")
    assert "0.20" in tally and exact.split(" ")[0] in tally, tally
    assert "Last reveal" in texts[-1], texts[-1]
    assert_status_ok(page, lab)
    assert len(set(texts)) == len(texts), "the probability text did not change after every step"
    return {"type": type_name, "place": place, "exact": exact, "status": status(page, lab)}


def safest_place(page) -> tuple[int, Fraction]:
    """The place with the highest P(safe), read under the face-down places on the table (first on ties)."""
    found = []
    slots = page.locator(f"{CH_LAB} .safari-table .st-slot:has(.st-under)")
    for i in range(slots.count()):
        slot = slots.nth(i)
        key = slot.locator("[data-key^='place:']").first.get_attribute("data-key")
        text = slot.locator(".st-under").inner_text()
        if "for sure" in text:
            p = Fraction(1)
        elif "not safe" in text:
            p = Fraction(0)
        else:
            m = re.match(r"\s*(\d+)/(\d+)", text)
            assert m, f"cannot read {text!r}"
            p = Fraction(int(m[1]), int(m[2]))
        found.append((int(key.split(":")[1]), p))
    assert found, "no P(safe) under the places"
    return max(found, key=lambda x: x[1])


def read_fraction(text: str) -> Fraction:
    m = re.match(r"\s*(\d+)(?:/(\d+))?", text)
    assert m, f"cannot read {text!r}"
    return Fraction(int(m[1]), int(m[2] or 1))


def decision_shot(page, name: str = "challenge-decision") -> str:
    """The decision moment as a learner sees it on a 1366x768 laptop: the decision box at the top."""
    old = page.viewport_size
    page.set_viewport_size({"width": 1366, "height": 768})
    try:
        current_notebook(page).locator(f"{CH_LAB} .safari-position").first.evaluate(
            "(el) => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        return str(screenshot(page, name))
    finally:
        page.set_viewport_size(old)


def play_challenge(page) -> dict:
    lab = CH_LAB
    bring_into_view(page, lab)
    decide = f"{lab} .safari-decide"
    places = f"{lab} .safari-table .st-selectable[data-key^='place:']"
    stop = page.locator(f"{lab} .safari-stop").first  # its text says how many cards: "Stop: archive 5"
    if page.locator(f"{lab} .st-remember-banner").count():  # the deal opens on a bot's failure
        next_until_my_turn(page, lab, "Next turn", f"{lab} table.safari-choice")
    # the choice: Identify or Challenge, each with its expected cards archived; nothing forced
    choice = {}
    for key in ("identify", "challenge"):
        cells = page.locator(f"{lab} table.safari-choice tr[data-choice='{key}'] td").all_inner_texts()
        choice[key] = read_fraction(cells[1])
    assert choice["challenge"] > choice["identify"], choice
    assert widget_button(page, lab, "Identify").is_enabled() and widget_button(page, lab, "Challenge").is_enabled()
    assert not stop.is_enabled() and page.locator(places).count() == 0
    texts = [text_of(page, decide)]
    texts.append(click_and_wait_change(page, widget_button(page, lab, "Challenge"), decide))
    page.locator(places).first.wait_for(timeout=10_000)
    # the panel is its own output: it may come a moment after the places (seen once in a full run: still the
    # choice's memory table)
    page.locator(f"{lab} .safari-prob .safari-p-safe").first.wait_for(timeout=10_000)
    assert "Chance the next reveal is safe" in text_of(page, f"{lab} .safari-prob")
    steps, decisions, shot = [], [], None
    for _ in range(20):
        if page.locator(places).count() == 0:
            break
        if page.locator(f"{lab} .safari-decision-now").count():
            assert stop.is_enabled()
            rule = text_of(page, f"{lab} .safari-rule")
            assert "cards archived if you stop now" in rule, rule
            verdict = "stop" if rule.rstrip(". ").endswith("stop") else "reveal on"
            if shot is None:
                shot = decision_shot(page)  # 4 safe: the rule says reveal on (a remembered place, P = 1)
            elif verdict == "stop":
                decision_shot(page, "challenge-decision-stop")  # 5 safe: 26/69 < 6/7
            decisions.append(verdict)
            n = int(re.search(r"Here n = (\d+)", rule)[1])
            assert stop.inner_text().strip() == f"Stop: archive {n}"
            if verdict == "stop":
                break
            # the decision box's own button reveals the safest place (a remembered safe one: P = 1)
            texts.append(click_and_wait_change(page, widget_button(page, lab, "Reveal one more"), decide))
            steps.append(("button", "1", status(page, lab).split(".")[0]))
            page.wait_for_timeout(150)
            continue
        place, p = safest_place(page)  # play like the optimal rule: the place most likely safe
        assert page.locator(f"{places}[data-key='place:{place}']").count() == 1
        texts.append(click_and_wait_change(page, page.locator(f"{places}[data-key='place:{place}']"), decide))
        steps.append((place, str(p), status(page, lab).split(".")[0]))
        assert_status_ok(page, lab)
        page.wait_for_timeout(150)  # let the table's redraw land before reading the next target
    assert steps, "no place was revealed"
    assert decisions == ["reveal on", "stop"], decisions  # 4 safe: a sure 5th (P = 1); 5 safe: 26/69 < 6/7
    assert shot, "the stop-or-continue moment never came"
    texts.append(click_and_wait_change(page, stop, decide))
    assert len(set(texts)) == len(texts), "the decision box did not change after every click"
    page.locator(f"{lab} .safari-summary table.safari-steps").wait_for(timeout=10_000)
    rows = page.locator(f"{lab} .safari-summary tr.safari-step")
    assert rows.count() == len(steps) + 1
    header = page.locator(f"{lab} .safari-summary table.safari-steps th").all_inner_texts()
    assert "n = cards archived if you stop now" in header, header
    assert page.locator(places).count() == 0
    assert widget_button(page, lab, "Next turn").is_enabled()
    return {"choice": {k: str(v) for k, v in choice.items()}, "steps": steps, "decisions": decisions,
            "status": status(page, lab), "shot": shot}


def test_identification_and_challenge_by_clicking(page, js_errors, lab_server):
    write_notebook(lab_server.root / "browser" / "labs-clicks.ipynb", CELLS)
    run = switch_and_run(page, lab_server, "browser/labs-clicks.ipynb", name="labs-start")
    assert run.ok, run.errors
    assert_clean(page, js_errors, run)
    nb = current_notebook(page)
    assert nb.locator(ID_LAB).count() == 1 and nb.locator(CH_LAB).count() == 1
    lab_shot(page, ID_LAB, "labs-identification-start")

    ident = play_identification(page)
    print(f"\nidentification: {ident}")
    lab_shot(page, ID_LAB, "labs-identification-revealed")

    chal = play_challenge(page)
    print(f"challenge: {chal}")
    lab_shot(page, CH_LAB, "labs-challenge-summary", scroll_to=".safari-table .st-unidentified", height=1400)

    # latency: place clicks alternate between two places (each changes the picked cell), in a fresh
    # identification: Next turn (bots play) -> Identify -> places
    latency_ident_setup(page)
    places = page.locator(f"{ID_LAB} .safari-table .st-selectable[data-key^='place:']")
    keys = [places.nth(i).get_attribute("data-key") for i in range(min(2, places.count()))]
    assert len(keys) == 2
    samples = []
    for i in range(30):
        sel = f"{ID_LAB} .safari-table .st-selectable[data-key='{keys[i % 2]}']"
        samples.append(click_latency_ms(page, sel, f"{ID_LAB} .safari-prob"))
        page.locator(f"{ID_LAB} .safari-prob-all td.safari-picked[data-place='{keys[i % 2].split(':')[1]}']").wait_for(
            state="attached")
        page.wait_for_timeout(30)  # the table redraw (a separate message) lands too
    toggles = []
    n_types = page.locator(f"{ID_LAB} .safari-types button").count()
    for i in range(20):
        sel = f"{ID_LAB} .safari-types button:nth-child({1 + (i + 1) % n_types})"
        toggles.append(click_latency_ms(page, sel, f"{ID_LAB} .safari-prob"))
        page.wait_for_timeout(30)
    place_stats, type_stats = latency_summary(samples), latency_summary(toggles)
    both = latency_summary(samples + toggles)
    print(f"click -> kernel -> DOM latency, table place clicks (ms): {place_stats}")
    print(f"click -> kernel -> DOM latency, clue-type toggles (ms):  {type_stats}")
    print(f"click -> kernel -> DOM latency, all (ms): {both}  [target: median < 100 ms]")
    assert both["max"] < SANITY_MS, both
    screenshot(page, "labs-after-latency")

    errors = kernel_eval(page, "print(repr((ident.errors, chal.errors, len(ident.predictions), len(chal.history))))")
    assert errors.strip() == "([], [], 1, 1)", errors
    assert_clean(page, js_errors)


def latency_ident_setup(page) -> None:
    lab = ID_LAB
    bring_into_view(page, lab)
    next_until_my_turn(page, lab, "Next turn", IDENTIFY_READY)  # past the learner's and the bots' failures
    identify = widget_button(page, lab, "Identify")
    click_and_wait_change(page, identify, f"{lab} .safari-prob")
    page.locator(f"{lab} .safari-table .st-selectable[data-key^='place:']").first.wait_for()
