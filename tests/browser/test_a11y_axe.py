"""The classroom app (Voilà, ``make app``) at 1366x768, visited once for five checks (issue 28).

One page (:func:`app_tour`) opens the app, then every lab of the chooser in turn (both games' Identification,
Challenge, Full game, Rules tutorial, Knockout, the three Simulation entries) and makes, in each, the checks of
the five files that each opened the app at 1366x768 for themselves before issue 28 (six Voilà pages, six
kernels, the Challenge lab opened three times, Knockout five times and Identification three, for the same page
at the same size):

* axe-core (pinned, offline: tests/browser/a11y.py) finds no critical or serious violation in the kit's DOM
  (``.safari-app``): the chooser before any lab is opened, each lab just opened and, for the card-table labs,
  after each of up to 6 actions (the button to press now, else a card or place not pressed yet). Before the
  fixes axe found: the chooser's ``<select>`` with no accessible name (every lab), white text on the orange
  "Next turn" button (2.7:1) and on the "Named: ..." badge (2.6:1), the sliders' handles with no name (Full
  game, Simulation), white names on the Pals' heads (4.3:1, Knockout), grey "knowing nothing" text (4.47:1,
  Identification), the Simulation lab's tab labels (4.45:1). ``test_axe_app_chooser_and_every_lab``.
* a whole turn is played without scrolling in Identification, Challenge, Knockout and Full game
  (tests/browser/test_no_scroll.py's rules, its :class:`Screen` and its players, as in JupyterLab there).
  ``test_a_whole_turn_in_the_app_without_scrolling[<lab>]``.
* the Challenge lab has no sideways scrollbar, nor has the page (issue 17, tests/browser/test_table_words_browser.py
  makes the same check in JupyterLab). ``test_in_the_app_the_challenge_lab_scrolls_not_sideways``.
* colour vision (issue 20, tests/browser/vision.py): in Identification and Knockout nothing is said by colour
  alone (each face-up card names its colour, the cards to remember have a double frame and a banner, the Pals'
  names 4.5:1 on their hues, a Knockout turn's result in words), and the screenshots under simulated colour
  blindness. ``test_colour_vision_identification_and_knockout`` (it was tests/browser/test_a11y_vision.py's).
* less motion (issue 20): in Knockout, with ``prefers-reduced-motion: reduce`` the selectable cards do not pulse
  and nothing moves (no animation, no transition); with ``no-preference`` they pulse (so the check can fail).
  The page switches its media (``page.emulate_media``) and back, where it was two pages of their own.
  ``test_reduced_motion_stops_animation`` (it was tests/browser/test_a11y_touch.py's).

In each lab the checks run in this order: the lab is opened (the page scrolled to its top first); axe on the lab
just opened; the motion check (Knockout); the sideways check (Challenge); the whole turn; the colour-vision check
(Identification, Knockout: after the turn, as its test played one on a lab just opened); then axe's actions,
each followed by axe (the deals are secret: each run sees other states anyway). A check that fails is recorded
with its lab, its message and a screenshot (``test-artifacts/app-tour-<check>-<lab>.png``) and the tour goes on
to the next check and lab; each test then fails on its own checks' records only, naming the check and the lab.
Page errors are recorded with the check and lab that was running: a test fails on those of its own checks and of
opening its labs.

Elsewhere: the lessons (axe on every output of each learner's copy in JupyterLab:
tests/browser/test_learner_lessons_browser.py), the offline static site's app page (tests/browser/test_site_browser.py's
play test).
"""
from __future__ import annotations

import contextlib
import traceback
from dataclasses import dataclass, field

import pytest

from safari_kit.widgets.app import LABS
from tests.browser import vision
from tests.browser.a11y import describe, failing, run_axe
from tests.browser.conftest import QUIET_MOTION
from tests.browser.helpers import screenshot
from tests.browser.test_app_voila import button
from tests.browser.test_no_scroll import PLAY, Screen
from tests.browser.test_table_words_browser import SCROLLBARS

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
#: the labs where a whole turn is played without scrolling: (game, lab) -> (test_no_scroll's player, the lab's root)
TURNS = {
    ("Safari Witness", "Identification"): ("identification", ".safari-identification-lab"),
    ("Safari Witness", "Challenge"): ("challenge", ".safari-challenge-lab"),
    ("Safari Knockout", "Knockout"): ("knockout", ".safari-knockout-lab"),
    ("Safari Witness", "Full game"): ("fullgame", ".safari-fullgame-lab"),
}
SIDEWAYS = ("Safari Witness", "Challenge")
#: the labs of the colour-vision checks (tests/browser/vision.py), and the lab of the motion check
VISION = {("Safari Witness", "Identification"): vision.identification, ("Safari Knockout", "Knockout"): vision.knockout}
MOTION_LAB = ("Safari Knockout", "Knockout")
WIDTH, HEIGHT = 1366, 768


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


# ----------------------------------------------------------------------------- the tour
@dataclass
class AppTour:
    """What the one visit found. ``failed[(check, lab)]``: how a check failed in a lab (its message, the last
    frames of its traceback, the screenshot); ``done``: the (check, lab) that ran to their end; ``errors``: the
    page's uncaught errors as (check, lab, error), the check running when each came; ``axe``: axe's violations
    by where they were seen (the chooser, a lab just opened, a lab after an action)."""
    axe: dict[str, list[dict]] = field(default_factory=dict)
    failed: dict[tuple[str, str], str] = field(default_factory=dict)
    done: set[tuple[str, str]] = field(default_factory=set)
    errors: list[tuple[str, str, str]] = field(default_factory=list)
    motion: dict[str, dict] = field(default_factory=dict)
    now: tuple[str, str] = ("open", "the chooser")

    def __repr__(self) -> str:  # what pytest prints of the fixture beside a failure: short
        return f"AppTour({len(self.done)} checks passed, {len(self.failed)} failed, {len(self.errors)} page errors)"

    @contextlib.contextmanager
    def check(self, page, check: str, lab: str):
        """Run one check of one lab: a failure is recorded (not raised) so the tour goes on."""
        self.now = (check, lab)
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - an assertion or a wait that timed out: recorded for its test
            frames = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3))
            try:
                shot = screenshot(page, f"app-tour-{check}-{lab}")
            except Exception:  # noqa: BLE001 - the page may be gone
                shot = "(no screenshot)"
            self.failed[(check, lab)] = f"{type(exc).__name__}: {exc}\n{frames}screenshot: {shot}"
        else:
            self.done.add((check, lab))

    def problems(self, check: str, labs: list[str], opening: bool = True) -> list[str]:
        """What went wrong for ``check`` in ``labs``: the lab did not open, the check failed or did not run, a page
        error came while the check ran (or while the lab opened: ``opening``). Empty: the check passed in every
        lab."""
        out = []
        for lab in labs:
            if ("open", lab) in self.failed:
                if opening:
                    out.append(f"[{check}] {lab}: the lab did not open, so nothing was checked:\n"
                               f"{self.failed[('open', lab)]}")
            elif (check, lab) in self.failed:
                out.append(f"[{check}] {lab}: {self.failed[(check, lab)]}")
            elif (check, lab) not in self.done:
                out.append(f"[{check}] {lab}: the check did not run")
            whens = ("open", check) if opening else (check,)
            out += [f"[{check}] {lab}: page error while {when}: {error}"
                    for when, where, error in self.errors if where == lab and when in whens]
        return out


def lab_name(game: str, lab: str) -> str:
    return f"{game} / {lab}"


def open_in_tour(page, game: str, lab: str, ready: str) -> None:
    """:func:`choose` from the top of the page, then wait until the lab open before has left the page (``ready``
    may match it: the two tutorials and the Simulation labs share their selectors)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    old = page.locator(f"{APP_ROOT} .safari-lab").first
    old = old.element_handle() if old.count() else None
    choose(page, game, lab, ready)
    if old is not None:
        page.wait_for_function("(el) => !el.isConnected", arg=old, timeout=60_000)
        page.locator(f"{APP_ROOT} {ready}").first.wait_for(timeout=120_000)


def no_sideways_scroll(page) -> None:
    """The Challenge lab just opened: no element of it scrolls sideways, nor does the page (issue 17)."""
    scope = page.locator(".safari-app .safari-challenge-lab").first
    scope.locator(".safari-why").wait_for()
    bars = scope.evaluate(SCROLLBARS)
    page_bar = page.evaluate("() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth")
    scope.locator(".safari-side").evaluate("(el) => el.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(300)
    screenshot(page, "issue17-app-challenge-why")
    assert bars == [], bars
    assert page_bar <= 0, f"the app page scrolls sideways by {page_bar} px"


def whole_turn(page, name: str, root: str) -> None:
    """test_no_scroll's whole turn in the lab just opened: every control inside the visible area before its click,
    and nothing scrolled after the turn."""
    sel = f"{APP_ROOT} {root}"
    screen = Screen(page, sel)
    PLAY[name](page, page.locator(sel).first, screen, f"noscroll-app-{name}")
    screen.assert_not_scrolled()
    assert screen.clicks >= 2, name
    assert "Something went wrong" not in page.locator(sel).first.inner_text(), name


MOTION = """(el) => { const s = getComputedStyle(el);
    return {animation: s.animationName, transition: s.transitionDuration}; }"""


def motion_stops(page, tour: AppTour) -> None:
    """The lab just opened: a selectable card pulses with ``prefers-reduced-motion: no-preference`` and nothing of
    it moves with ``reduce`` (the page's media switched to each, then back to the tour's)."""
    card = page.locator(f"{APP_ROOT} .safari-table .st-card.st-selectable").first
    card.wait_for(timeout=30_000)
    try:
        for motion in ("no-preference", "reduce"):
            page.emulate_media(reduced_motion=motion)
            tour.motion[motion] = card.evaluate(MOTION)
    finally:
        page.emulate_media(reduced_motion=QUIET_MOTION)
    seen = tour.motion
    assert seen["no-preference"]["animation"] != "none", seen  # the pulse is there to be stopped
    assert seen["reduce"] == {"animation": "none", "transition": "0s"}, seen


@pytest.fixture(scope="module")
def app_tour(browser, voila_app):
    """The one visit of the app at 1366x768; -> :class:`AppTour`."""
    tour = AppTour()
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, reduced_motion=QUIET_MOTION)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda exc: tour.errors.append((*tour.now, f"pageerror: {exc}")))
    try:
        page.goto(voila_app.url, wait_until="domcontentloaded", timeout=90_000)
        page.locator(f"{APP_ROOT} .safari-lab-list select").wait_for(timeout=90_000)
        with tour.check(page, "axe", "the chooser"):
            tour.axe["chooser"] = run_axe(page, APP_ROOT)
        for game, lab, ready in APP_LABS:
            where = lab_name(game, lab)
            with tour.check(page, "open", where):
                open_in_tour(page, game, lab, ready)
            if ("open", where) in tour.failed:
                continue
            with tour.check(page, "axe", where):  # just opened: before any other check touches it
                tour.axe[where] = run_axe(page, APP_ROOT)
            if (game, lab) == MOTION_LAB:
                with tour.check(page, "motion", where):
                    motion_stops(page, tour)
            if (game, lab) == SIDEWAYS:
                with tour.check(page, "sideways", where):
                    no_sideways_scroll(page)
            if (game, lab) in TURNS:
                with tour.check(page, "turn", where):
                    whole_turn(page, *TURNS[(game, lab)])
            if (game, lab) in VISION:
                with tour.check(page, "vision", where):
                    VISION[(game, lab)](page)
            if ".st-card" in ready:
                with tour.check(page, "axe actions", where):
                    pressed: set[str] = set()
                    for step in range(ACTIONS):
                        what = one_action(page, pressed)
                        tour.axe[f"{where}, action {step + 1}: {what}"] = run_axe(page, APP_ROOT)
        tour.now = ("end", "")
        yield tour
    finally:
        context.close()


def test_axe_app_chooser_and_every_lab(app_tour):
    for where, violations in app_tour.axe.items():
        print(f"\n{where}: {len(failing(violations))} critical/serious, {len(violations)} in all\n"
              f"{describe(violations)}")
    labs = [lab_name(game, lab) for game, lab, _ in APP_LABS]
    card_labs = [lab_name(game, lab) for game, lab, ready in APP_LABS if ".st-card" in ready]
    problems = app_tour.problems("axe", ["the chooser", *labs])
    problems += app_tour.problems("axe actions", card_labs, opening=False)  # an opening is reported once, above
    problems += [f"page error after the tour: {error}" for when, _, error in app_tour.errors if when == "end"]
    assert not problems, "\n".join(problems)
    bad = {where: describe(failing(v)) for where, v in app_tour.axe.items() if failing(v)}
    assert not bad, "\n".join(f"{where}:\n{text}" for where, text in bad.items())


@pytest.mark.parametrize("lab", [lab_name(*key) for key in TURNS], ids=[name for name, _ in TURNS.values()])
def test_a_whole_turn_in_the_app_without_scrolling(app_tour, lab):
    problems = app_tour.problems("turn", [lab])
    assert not problems, "\n".join(problems)


def test_in_the_app_the_challenge_lab_scrolls_not_sideways(app_tour):
    """The classroom app (Voilà) at 1366x768: the Challenge lab, its own secret deal."""
    problems = app_tour.problems("sideways", [lab_name(*SIDEWAYS)])
    assert not problems, "\n".join(problems)


def test_colour_vision_identification_and_knockout(app_tour, browser):
    """Colour vision (issue 20) in the app at 1366x768: Identification and Knockout (tests/browser/vision.py, in the
    tour), then the strip of the five card colours (a page of its own)."""
    problems = app_tour.problems("vision", [lab_name(*key) for key in VISION])
    assert not problems, "\n".join(problems)
    vision.colour_strip(browser)


def test_reduced_motion_stops_animation(app_tour):
    """Less motion (issue 20): the Knockout lab's selectable cards pulse, unless the page asks for less motion."""
    print(f"\n{app_tour.motion}")
    problems = app_tour.problems("motion", [lab_name(*MOTION_LAB)])
    assert not problems, "\n".join(problems)


def test_a_failed_check_is_reported_by_its_own_test_only():
    """The tour's records (no browser): a check that fails in one lab is reported for that check and that lab, with
    its message; a lab that did not open is reported by every check of it; page errors go to the check that ran."""
    tour = AppTour()
    with tour.check(None, "open", "A"):
        pass
    with tour.check(None, "turn", "A"):
        raise AssertionError("the Play button is outside the visible area")
    with tour.check(None, "axe", "A"):
        tour.errors.append((*tour.now, "pageerror: boom"))
    with tour.check(None, "open", "B"):
        raise TimeoutError("no table")
    turn = tour.problems("turn", ["A"])
    assert len(turn) == 1 and turn[0].startswith("[turn] A: AssertionError: the Play button is outside"), turn
    assert "(no screenshot)" in turn[0]  # no page here: the record says so instead of failing
    assert tour.problems("axe", ["A"]) == ["[axe] A: page error while axe: pageerror: boom"]
    assert tour.problems("sideways", ["A"]) == ["[sideways] A: the check did not run"]
    assert [p.split(":")[0] for p in tour.problems("axe", ["B"])] == ["[axe] B"]
    assert "did not open" in tour.problems("axe", ["B"])[0] and "no table" in tour.problems("axe", ["B"])[0]
    assert tour.problems("axe actions", ["B"], opening=False) == []
