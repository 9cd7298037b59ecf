"""A whole turn of every lab with the keyboard alone (issue 20), in the classroom app (Voilà) in Chromium.

Nothing here clicks: every step is a key press (Tab / Shift+Tab, Enter / Space, the arrow keys). One Voilà
server and one page for the module; each test opens its lab from the app's chooser by keys (Tab to the
game's toggle, Enter; Tab to the lab list, arrow keys; Tab to Open lab, Enter), then plays:

* Identification: Identify, the arrow keys along the face-down places, Enter picks one, Reveal; focus then
  sits on Next turn (the one thing to press), never on the page's top.
* Challenge: Challenge, then the places by arrows + Enter (or Reveal one more) until the stop-or-continue
  decision (Stop offered), or the Challenge fails.
* Knockout: a card of the hand by arrows + Enter, a data item when leading, Play, Next turn, until the
  learner has led and followed.
* Full game: the device handed over ("I am player ..."), Identify, a place, the end of the turn.
* Rules tutorial: Next through the steps and Back.
* Simulation: the question list by arrows, Simulate, the result.

After every action the focus is inside the lab (``document.activeElement`` is never the body) and has a
visible ring (:focus-visible: an outline). Screenshots at 1366x768 of the ring on a place, on a hand card and
on a button: ``test-artifacts/a11y-focus-*.png``.

The screen reader's tests (tests/browser/screen_reader.py: names and sentences read from Chromium's
accessibility tree, Knockout's end of a round) need the same page: they are imported at the end of this file and
play on the module's page after the keyboard tests (issue 28: they were test_a11y_screen_reader.py, a page and a
kernel of their own).
"""
from __future__ import annotations

import re

import pytest

from tests.browser.app_pages import app_page_for
from tests.browser.keys import (assert_focus_kept, big_shot, button_named, focus, live_text,
                                open_lab_by_keys, tab_to, wait_focus, wait_said, wait_table_shows_reveal)

pytestmark = pytest.mark.browser

@pytest.fixture(scope="module")
def app_page(browser, voila_app):
    yield from app_page_for(browser, voila_app)


def test_identification_turn_by_keys(app_page):
    page = app_page
    lab = ".safari-identification-lab"
    open_lab_by_keys(page, "Safari Witness", "Identification", lab)
    page.locator(f"{lab} .safari-table .st-card").first.wait_for()
    for _ in range(12):  # a secret deal may open on a bot's failed turn: Next turn (by keys) until ours
        if page.locator(f"{lab} button.safari-identify:not([disabled])").count():
            break
        tab_to(page, button_named("Next turn"))
        before = live_text(page, lab)
        page.keyboard.press("Enter")
        wait_said(page, lab, before)
        assert_focus_kept(page, lab, "Next turn")
    f = tab_to(page, button_named("Identify"))
    assert f["ring"], f
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    assert "pick a clue type" in said.lower(), said
    f = wait_focus(page, lab, lambda f: (f.get("key") or "").startswith("place:"), "Identify")  # a place
    # the arrow keys walk the places; the name says the place, face down, and its chance in words
    first = f["key"]
    page.keyboard.press("ArrowRight")
    f = focus(page)
    assert f["key"] != first and f["key"].startswith("place:"), f
    assert re.fullmatch(r"Place \d+, face down, chance of an? \w+( \+ \w+)? match (\d+ of \d+|certain|none)",
                        f["label"]), f["label"]
    big_shot(page, "a11y-focus-place")
    place = int(f["key"].split(":")[1])
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    assert f"Place {place} picked" in said, said
    f = focus(page)
    assert f["key"] == f"place:{place}", f"the pick moved the focus: {f}"
    page.wait_for_function(f"() => document.querySelector(\"{lab} [data-key='place:{place}']\")"
                           ".getAttribute('aria-pressed') === 'true'")
    tab_to(page, button_named("Reveal"))
    big_shot(page, "a11y-focus-button")
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    assert said.startswith(f"Place {place}: "), said
    f = assert_focus_kept(page, lab, "Reveal")
    print(f"\nidentification: said {said!r}; focus then on {f.get('text') or f.get('label')!r}")
    assert not page.errors, page.errors


def test_challenge_to_the_decision_by_keys(app_page):
    """Challenge turns by keys until one reaches the stop-or-continue decision (about half do: a secret deal,
    so up to 10 turns). Each reveal is a place said to be "safe for sure" (walked to with the arrow keys,
    picked with Enter), else the Reveal one more button (the place most likely safe)."""
    page = app_page
    lab = ".safari-challenge-lab"
    open_lab_by_keys(page, "Safari Witness", "Challenge", lab)
    page.locator(f"{lab} .safari-table .st-card").first.wait_for()
    said, decided = "", False

    def press_and_hear(key: str = "Enter") -> str:
        before = live_text(page, lab)
        page.keyboard.press(key)
        return wait_said(page, lab, before)

    for _turn in range(10):
        for _ in range(12):  # Next turn (by keys) until the learner chooses
            if page.locator(f"{lab} button.safari-challenge:not([disabled])").count():
                break
            tab_to(page, button_named("Next turn"))
            press_and_hear()
            assert_focus_kept(page, lab, "Next turn")
        tab_to(page, lambda f: f.get("tag") == "BUTTON" and f.get("text") == "Challenge" and not f["disabled"])
        press_and_hear()
        # the sentence and the table with its places come in separate messages: the lab moves focus to a place
        # when the table is drawn (safari_kit/widgets/live.py's focus_to), on a busy machine after the sentence
        wait_focus(page, lab, lambda f: (f.get("key") or "").startswith("place:"), "Challenge")
        for reveal in range(12):
            f = focus(page)
            by_place = (f.get("key") or "").startswith("place:")
            if by_place:  # walk the row: a place said to be safe for sure, else (first reveal) the next place
                n = page.locator(f"{lab} .safari-table .st-selectable[data-key^='place:']").count()
                for _ in range(n):
                    if f["label"].endswith(", safe for sure"):
                        break
                    page.keyboard.press("ArrowRight")
                    f = focus(page)
                assert re.fullmatch(r"Place \d+, face down, (safe for sure|not safe for sure|chance it is safe "
                                    r"\d+ of \d+)", f["label"]), f["label"]
                by_place = f["label"].endswith(", safe for sure")
            if by_place:
                place = int(f["key"].split(":")[1])
                said = press_and_hear()
                assert said.startswith(f"Place {place}: "), said
            else:
                tab_to(page, button_named("Reveal one more"))
                said = press_and_hear()
                assert said.startswith("Place "), said
            if "Not safe" in said:
                assert "challenge fails" in said, said
                assert_focus_kept(page, lab, "an unsafe reveal")
                break
            assert re.search(r"Safe: \d+ safe so far", said), said
            wait_table_shows_reveal(page, lab, said)  # the table comes after the sentence, in its own message
            f = assert_focus_kept(page, lab, "a safe reveal")
            if by_place:
                assert (f.get("key") or "").startswith("place:"), f"focus left the places after a safe reveal: {f}"
            if "You may Stop now" in said or "press Stop" in said:  # the stop-or-continue decision
                page.locator(f"{lab} button.safari-stop:not([disabled])").wait_for()
                decided = True
                break
        if decided:
            break
    assert decided, f"no Challenge reached the decision in 10 turns; last said {said!r}"
    tab_to(page, lambda f: f.get("tag") == "BUTTON" and f.get("text", "").startswith("Stop"))
    big_shot(page, "a11y-focus-challenge-stop")
    said = press_and_hear()
    assert said.startswith("You stopped and archived"), said
    f = wait_focus(page, lab, button_named("Next turn"), "Stop")  # on Next turn, once Stop is disabled
    print(f"\nchallenge: said {said!r}; focus then on {f.get('text') or f.get('label')!r}")
    assert not page.errors, page.errors


def test_knockout_lead_and_follow_by_keys(app_page):
    page = app_page
    lab = ".safari-knockout-lab"
    open_lab_by_keys(page, "Safari Knockout", "Knockout", lab)
    table = f"{lab} .safari-prob-table"
    done = set()
    for _ in range(12):
        page.locator(f"{table}[data-phase='lead'], {table}[data-phase='follow']").first.wait_for(timeout=30_000)
        phase = page.locator(table).get_attribute("data-phase")
        # Tab into the hand: one tab stop; the arrow keys walk the cards
        f = tab_to(page, lambda f: (f.get("key") or "").startswith("card:"))
        first = f["key"]
        page.keyboard.press("ArrowRight")
        f = focus(page)
        assert f["key"].startswith("card:") and f["key"] != first, f
        if not done:
            big_shot(page, "a11y-focus-hand")
        before = live_text(page, lab)
        page.keyboard.press("Enter")
        said = wait_said(page, lab, before)
        assert "picked" in said, said
        assert focus(page)["key"] == f["key"], "the pick moved the focus"
        if phase == "lead":
            f = tab_to(page, lambda f: (f.get("key") or "").startswith("item:"), shift=True)
            before = live_text(page, lab)
            page.keyboard.press("Enter")
            said = wait_said(page, lab, before)
            assert "press Play" in said, said
        tab_to(page, button_named("Play"))
        before = live_text(page, lab)
        page.keyboard.press("Enter")
        said = wait_said(page, lab, before)
        page.locator(f"{table}[data-phase='done'], {table}[data-phase='over']").first.wait_for(timeout=30_000)
        result = page.locator(f"{lab} .safari-ko-result").inner_text().strip()
        assert said.startswith(result), (said, result)  # the sentence said is the result written beside the table
        f = wait_focus(page, lab, button_named("Next turn"), "Play")
        done.add(phase)
        print(f"\nknockout {phase}: said {said!r}")
        if done == {"lead", "follow"}:
            break
        before = live_text(page, lab)
        page.keyboard.press("Enter")  # Next turn
        wait_said(page, lab, before)
        assert_focus_kept(page, lab, "Next turn")
    assert done == {"lead", "follow"}, done
    assert not page.errors, page.errors


def test_full_game_turn_by_keys(app_page):
    page = app_page
    lab = ".safari-fullgame-lab"
    open_lab_by_keys(page, "Safari Witness", "Full game", lab)
    page.locator(f"{lab} .safari-table .st-card").first.wait_for()
    for _ in range(12):  # the lab opens on the learner's turn (issue 27); a bot's failure would show "Next turn"
        if page.locator(f"{lab} .safari-table button[data-key='button:\"identify\"']").count():
            break
        tab_to(page, lambda f: f.get("tag") == "BUTTON" and "Next turn" in f.get("text", ""))
        before = live_text(page, lab)
        page.keyboard.press("Enter")
        wait_said(page, lab, before)
        assert_focus_kept(page, lab, "Next turn")
    tab_to(page, button_named("Identify"))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    wait_said(page, lab, before)
    f = wait_focus(page, lab, lambda f: bool(f.get("key")), "Identify")  # still on the table
    # a clue type: a button of the table (the first is picked when only one clue card is left)
    tab_to(page, lambda f: (f.get("key") or "").startswith('button:"type:'))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    wait_said(page, lab, before)
    assert_focus_kept(page, lab, "a clue type")
    f = tab_to(page, lambda f: (f.get("key") or "").startswith("place:"), shift=True)
    assert re.fullmatch(r"Place \d+, face down", f["label"]), f["label"]
    page.keyboard.press("End")
    f = focus(page)
    place = int(f["key"].split(":")[1])
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    assert said.startswith(f"Place {place}: "), said
    f = assert_focus_kept(page, lab, "a declaration")
    print(f"\nfull game: said {said!r}; focus then on {f.get('text') or f.get('label')!r}")
    assert not page.errors, page.errors


def test_rules_tutorial_by_keys(app_page):
    page = app_page
    lab = ".safari-tutorial"
    open_lab_by_keys(page, "Safari Witness", "Rules tutorial", lab)
    page.locator(f"{lab} .safari-table").first.wait_for()
    counter = lambda: page.locator(f"{lab}").inner_text()  # noqa: E731
    tab_to(page, button_named("Next"))
    for k in (2, 3, 4):
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelector('{lab}').innerText.includes('Step {k} of')")
        wait_focus(page, lab, button_named("Next"), "Next")
        page.wait_for_function(f"() => document.querySelector('{lab} .safari-live').textContent"
                               f".startsWith('Step {k} of')")  # the step is said: its title and words
    tab_to(page, button_named("Back"), shift=True)
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.querySelector('{lab}').innerText.includes('Step 3 of')")
    assert_focus_kept(page, lab, "Back")
    assert "Step 3 of" in counter()
    assert not page.errors, page.errors


def test_simulation_by_keys(app_page):
    page = app_page
    lab = ".safari-simulation-lab"
    open_lab_by_keys(page, "Both games", "Simulation", lab)
    page.locator(f"{lab} .safari-sim-plot").first.wait_for(timeout=60_000)
    tab_to(page, lambda f: f.get("tag") == "SELECT")  # the question
    before = live_text(page, lab)
    page.keyboard.press("ArrowDown")
    said = wait_said(page, lab, before)
    tab_to(page, button_named("Simulate"))
    before = live_text(page, lab)
    page.keyboard.press("Enter")
    said = wait_said(page, lab, before)
    wait_focus(page, lab, button_named("Simulate"), "Simulate")  # back on Simulate when its run is over
    print(f"\nsimulation: said {said!r}")
    assert not page.errors, page.errors


# the screen reader's tests (tests/browser/screen_reader.py), on this module's page (issue 28): imported last,
# so they run after the keyboard tests
from tests.browser.screen_reader import test_identification_names_and_sentence  # noqa: E402,F401
from tests.browser.screen_reader import test_knockout_names_and_sentence  # noqa: E402,F401
from tests.browser.screen_reader import test_full_game_sentences_for_archiving_and_the_bots_turns  # noqa: E402,F401,E501
from tests.browser.screen_reader import test_round_one_over_waits_for_next_round  # noqa: E402,F401
