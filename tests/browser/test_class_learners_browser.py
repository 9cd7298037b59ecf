"""Issue 26 in Chromium, on a recording class server (the kit's app, loopback, 1366x768):

* a learner joins as Zed; another browser typing ``zed`` is told "That nickname is taken in this class. Pick
  another." and is not joined; a second tab of Zed's browser typing another name joins as Zed;
* the joined learner's Identification lab hides the exact chances until the guess (the panel says why),
  and shows the exact chance with the reveal's result;
* "Download my results" is a button: pressed, it really downloads the learner's results file (Chromium's
  download), which holds the guess with ``chance_seen`` False; it is reachable by Tab and named by its text.

Screenshots (looked at): test-artifacts/issue26-joined.png, issue26-join-taken.png (the second browser refused),
issue26-join-second-tab.png, issue26-guess-first.png (the lab before the guess), issue26-after-reveal.png.

One visit (the module's ``tour``: one server, Zed's browser and another) makes every check; each test asserts on
its own steps (tests/browser/class_tour.py).
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from safari_kit.class_results.results_file import parse_results
from tests.browser.class_tour import ClassTour
from tests.browser.conftest import QUIET_MOTION
from tests.browser.helpers import screenshot
from tests.browser.test_a11y_axe import APP_ROOT, choose
from tests.browser.test_app_voila import button
from tests.server.class_server import class_server

pytestmark = pytest.mark.browser

ID_LAB = f"{APP_ROOT} .safari-identification-lab"
TAKEN = "That nickname is taken in this class. Pick another."


def open_app(context, url: str):
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(url, wait_until="domcontentloaded", timeout=120_000)
    page.locator(f"{APP_ROOT} .safari-lab-list select").wait_for(timeout=120_000)
    return page


def type_and_join(page, nickname: str, expect: str) -> None:
    page.locator(f"{APP_ROOT} .safari-join-row input[type='text']").fill(nickname)
    page.wait_for_timeout(200)  # the box sends its value on blur: the button's click follows it
    button(page.locator(APP_ROOT), "Join the class experiment").click()
    page.locator(f"{APP_ROOT} .safari-join-note", has_text=expect).wait_for(timeout=20_000)


def guess_with_chance_hidden(page, guess: str = "0.2", before_guess=None) -> str:
    """In the open Identification lab of a joined learner: Identify, pick a face-down place, type ``guess``
    and Reveal, checking no exact chance is on the page before; returns the panel's text after the reveal.
    ``before_guess``: called with the place picked, the chances hidden, before the guess is typed."""
    for _ in range(12):  # the deal may open on a bot's failure, or the bots play first
        if page.locator(f"{ID_LAB} button.safari-identify:not([disabled])").count():
            break
        button(page.locator(ID_LAB), "Next turn").click()
        page.wait_for_timeout(500)
    button(page.locator(ID_LAB), "Identify").click()
    place = page.locator(f"{ID_LAB} .safari-table .st-selectable[data-key^='place:']").first
    place.wait_for(timeout=20_000)
    place.click()
    page.locator(f"{ID_LAB} .safari-status", has_text="picked").wait_for(timeout=20_000)
    panel = page.locator(f"{ID_LAB} .safari-prob")
    assert "hidden until you guess" in panel.inner_text(), panel.inner_text()
    assert page.locator(f"{ID_LAB} .safari-prob-table").count() == 0  # no table of every chance
    assert not re.search(r"P = |Best declaration", panel.inner_text())
    assert page.locator(f"{ID_LAB} .safari-table .st-under").count() == 0  # no chance under the places
    if before_guess is not None:
        before_guess()
    page.locator(f"{ID_LAB} .safari-guess input").fill(guess)
    page.wait_for_timeout(200)
    button(page.locator(ID_LAB), "Reveal").click()
    page.locator(f"{ID_LAB} .safari-prob", has_text="The exact chance was").wait_for(timeout=20_000)
    return panel.inner_text()


def download_results(page) -> tuple[str, str]:
    """Press "Download my results" and take Chromium's download: (file name, text)."""
    link = page.locator(f"{APP_ROOT} .safari-results-download button.safari-download-link").first
    link.wait_for(timeout=20_000)
    with page.expect_download(timeout=20_000) as info:
        link.click()
    download = info.value
    return download.suggested_filename, Path(download.path()).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tour(browser):
    """The one visit of a recording class server (issue 28: one server, two browsers, three pages and two kernels
    for both tests; the screenshot test had a server, a browser and a kernel of its own for a page Zed's shows too).
    -> :class:`~tests.browser.class_tour.ClassTour`."""
    tour = ClassTour()
    folder = Path(tempfile.mkdtemp(prefix="safari-class26-"))
    with class_server("--results", str(folder), "--session", "class26", "--labs-per-minute", "0",
                      app=True) as srv:
        contexts = []
        try:
            # no glowing cards: the tests look at words, downloads and a still screenshot (conftest.QUIET_MOTION)
            zed_browser = browser.new_context(viewport={"width": 1366, "height": 768}, accept_downloads=True,
                                              reduced_motion=QUIET_MOTION)
            other_browser = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=QUIET_MOTION)
            contexts += [zed_browser, other_browser]
            zed = open_app(zed_browser, srv.url)

            def zed_joins():
                type_and_join(zed, "Zed", "You joined as Zed")
                screenshot(zed, "issue26-joined")

            def the_nickname_is_taken():
                other = open_app(other_browser, srv.url)
                type_and_join(other, "zed", TAKEN)
                assert not other.locator(f"{APP_ROOT} .safari-join-row input[type='text']").is_disabled()
                screenshot(other, "issue26-join-taken")
                type_and_join(other, "Amy", "You joined as Amy")

            def a_second_tab_is_zed_already():
                second_tab = open_app(zed_browser, srv.url)
                try:
                    type_and_join(second_tab, "Bob", "This browser joined as Zed already")
                    screenshot(second_tab, "issue26-join-second-tab")
                finally:
                    second_tab.close()

            def before_the_guess():  # the panel with a place picked, the chances hidden (test_the_lab_before...)
                panel = zed.locator(f"{ID_LAB} .safari-prob")
                panel.scroll_into_view_if_needed()
                screenshot(zed, "issue26-guess-first")
                return panel.inner_text()

            def the_guess_comes_first():
                choose(zed, "Safari Witness", "Identification", ".safari-identification-lab .safari-table .st-card")
                zed.locator(f"{ID_LAB} .safari-prob").scroll_into_view_if_needed()
                after = guess_with_chance_hidden(
                    zed, before_guess=lambda: tour.run("the lab before the guess", before_the_guess, page=zed))
                assert "Last reveal" in after
                screenshot(zed, "issue26-after-reveal")

            def the_download_button():
                name, text = download_results(zed)
                records = parse_results(text, name)
                guesses = [r for r in records if r.kind == "guess"]
                assert len(guesses) == 1 and guesses[0].chance_seen is False and guesses[0].nickname == "Zed"
                assert name.startswith("Zed-") and name.endswith(".safari-results.jsonl")
                # the button is a real button: reached by Tab, named by its text
                link = zed.locator(f"{APP_ROOT} .safari-results-download button.safari-download-link").first
                assert link.evaluate("el => el.tabIndex") == 0 and link.inner_text().strip() == "Download my results"
                # nothing of the file is in the page until it is asked for (no data: URI re-sent after each record)
                assert zed.locator(f"{APP_ROOT} a[href^='data:']").count() == 0

            tour.run("Zed joins", zed_joins, page=zed)
            tour.run("another browser typing zed is refused", the_nickname_is_taken, needs=("Zed joins",))
            tour.run("a second tab of Zed's browser is Zed", a_second_tab_is_zed_already, needs=("Zed joins",))
            tour.run("the guess comes first", the_guess_comes_first, page=zed, needs=("Zed joins",))
            tour.run("Download my results", the_download_button, page=zed, needs=("the guess comes first",))
        finally:
            for context in contexts:
                context.close()
    return tour


def test_one_nickname_one_browser_guess_first_and_the_download_button(tour):
    tour.assert_passed("Zed joins", "another browser typing zed is refused", "a second tab of Zed's browser is Zed",
                       "the guess comes first", "Download my results")


def test_the_lab_before_the_guess_at_1366x768(tour):
    """A screenshot of a joined learner's Identification lab with a place picked and the chances hidden
    (test-artifacts/issue26-guess-first.png; issue26-joined.png: the chooser just after joining)."""
    problems = tour.problems("Zed joins", "the lab before the guess")
    if "the lab before the guess" not in tour.failed and "the guess comes first" in tour.failed:
        problems.append(f"[the guess comes first] {tour.failed['the guess comes first']}")
    assert not problems, "\n".join(problems)
    assert "hidden until you guess" in tour.values["the lab before the guess"]
