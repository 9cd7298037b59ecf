"""Every lab's turn is played without scrolling on a classroom laptop (1366x768).

One notebook holding every lab is opened in JupyterLab (left sidebar
collapsed, as :func:`open_notebook` does; one kernel for all) by :func:`turns`,
which then, lab after lab, scrolls the lab's top to the top of the notebook
once (what a teacher does when the class reaches the lab) and plays one whole
turn by clicking. A turn that fails is recorded with its lab, its message and a
screenshot (``test-artifacts/noscroll-failed-<lab>.png``) and the next lab is
played; ``test_a_whole_turn_without_scrolling[<lab>]`` fails on its own lab's
record only (a page error counts against the lab playing when it came, one
while the notebook opened against every lab). Before every click the control must lie
wholly inside the visible part of the notebook, and after the turn the
notebook must not have scrolled: the controls of each step sit beside the
cards. The numbers the step needs (the chances under the cards, the side
panel) are checked to be visible too. Screenshots:
``test-artifacts/noscroll-<lab>-<moment>.png``.

The same turn is played in the classroom app (Voilà), where the page itself
scrolls, with this file's :class:`Screen` and players, by the one visit of the
app at 1366x768 in tests/browser/test_a11y_axe.py
(``test_a_whole_turn_in_the_app_without_scrolling[<lab>]``, issue 28: that
page is visited once for axe, this check and the sideways check of
tests/browser/test_table_words_browser.py). Screenshots:
``test-artifacts/noscroll-app-<lab>-<moment>.png``.
"""
from __future__ import annotations

import contextlib
import traceback

import pytest

from tests.browser.helpers import screenshot, write_notebook
from tests.browser.lab_tab import lab_tab, switch_and_run  # noqa: F401 - lab_tab: the fixture

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1366, 768


def _cell(cls: str, args: str = "") -> str:
    return f"from safari_kit.widgets.labs import {cls}\nlab = {cls}({args})\nlab"


LABS = {
    "identification": (_cell("IdentificationLab", "seed=3"), ".safari-identification-lab"),
    "challenge": (_cell("ChallengeLab"), ".safari-challenge-lab"),
    "knockout": (_cell("KnockoutLab", "seed=1"), ".safari-knockout-lab"),
    "fullgame": (_cell("FullGameLab", "seed=1"), ".safari-fullgame-lab"),
    "tutorial": (_cell("RulesTutorial"), ".safari-tutorial"),
}




# ----------------------------------------------------------------------------- no scrolling
_SCROLLER = """(el) => {
    let p = el.parentElement;
    while (p && p !== document.body) {
        const s = getComputedStyle(p);
        if (/(auto|scroll)/.test(s.overflowY) && p.scrollHeight > p.clientHeight) return p;
        p = p.parentElement;
    }
    return document.scrollingElement;
}"""


class Screen:
    """The visible part of the page around one lab, and every scroll position above it."""

    def __init__(self, page, lab: str):
        self.page, self.lab = page, lab
        page.locator(lab).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        self.start = self.positions()
        self.clicks = 0

    def positions(self) -> list[int]:
        """scrollTop of every ancestor of the lab (0 for those that cannot scroll), and the page's scrollY."""
        return self.page.locator(self.lab).first.evaluate(
            """(el) => { const out = []; let p = el.parentElement;
                while (p) { out.push(Math.round(p.scrollTop)); p = p.parentElement; }
                out.push(Math.round(window.scrollY)); return out; }""")

    def visible_box(self) -> dict:
        """The part of the viewport where the lab can be seen (inside its scrolling container)."""
        return self.page.locator(self.lab).first.evaluate(
            f"""(el) => {{ const sc = ({_SCROLLER})(el);
                const r = sc === document.scrollingElement ? {{top: 0, bottom: innerHeight, left: 0, right: innerWidth}}
                        : sc.getBoundingClientRect();
                return {{top: Math.max(0, r.top), bottom: Math.min(innerHeight, r.bottom),
                         left: Math.max(0, r.left), right: Math.min(innerWidth, r.right)}}; }}""")

    def assert_visible(self, locator, what: str) -> None:
        locator.wait_for(state="visible", timeout=60_000)
        box, view = locator.bounding_box(), self.visible_box()
        assert box is not None, f"{what}: not drawn"
        inside = (box["y"] >= view["top"] - 1 and box["y"] + box["height"] <= view["bottom"] + 1
                  and box["x"] >= view["left"] - 1 and box["x"] + box["width"] <= view["right"] + 1)
        assert inside, f"{what} is outside the visible area without scrolling: {box} not in {view}"

    def click(self, locator, what: str, watch: str | None = None) -> None:
        """Click a control that must be visible; with ``watch``, wait until the kernel has changed it."""
        self.assert_visible(locator, what)
        before = self.page.locator(watch).first.inner_html() if watch else None
        locator.click()
        self.clicks += 1
        if watch:
            self.page.wait_for_function(
                "([sel, before]) => { const el = document.querySelector(sel); return el && el.innerHTML !== before; }",
                arg=[watch, before], timeout=30_000, polling=50)
        self.page.wait_for_timeout(150)

    def assert_not_scrolled(self, tolerance: int = 8) -> None:
        """Nothing scrolled by more than ``tolerance`` px: a browser clamps a scroll position by a pixel or two
        when content below shrinks, which no learner sees as scrolling."""
        now = self.positions()
        moved = len(now) != len(self.start) or any(abs(a - b) > tolerance for a, b in zip(now, self.start))
        assert not moved, f"the page scrolled during the turn: {self.start} -> {now}"


def widget_button(scope, text: str):
    return scope.get_by_role("button", name=text, exact=True).first


def wait_enabled(page, locator, timeout: float = 60_000) -> None:
    locator.wait_for(timeout=timeout)
    for _ in range(int(timeout / 100)):
        if locator.is_enabled():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the button never became enabled")


def open_labs(page, server) -> None:
    """One notebook with every lab (one kernel start for all: the test stays quick)."""
    write_notebook(server.root / "noscroll.ipynb", [code for code, _ in LABS.values()])
    run = switch_and_run(page, server, "noscroll.ipynb", name="noscroll-run", timeout=180_000)
    assert run.ok, run.errors


# ----------------------------------------------------------------------------- the labs
def play_identification(page, scope, screen: Screen, name: str) -> None:
    identify = widget_button(scope, "Identify")
    nxt = widget_button(scope, "Next turn")
    for _ in range(12):  # the deal opens on a bot's failure (its cards face up): Next turn until it is ours
        if identify.is_enabled():
            break
        screen.click(nxt, "Next turn")
        page.wait_for_timeout(400)
    screenshot(page, f"{name}-start")
    screen.click(identify, "Identify")
    # Reveal before a place is picked is disabled, and looks it (faded, grey), as does Identify now
    reveal = widget_button(scope, "Reveal")
    for off in (reveal, identify):
        page.wait_for_function("(el) => el.disabled", arg=off.element_handle(), timeout=10_000)
        look = off.evaluate("(el) => { const s = getComputedStyle(el); return [s.opacity, s.filter, s.cursor]; }")
        assert float(look[0]) <= 0.5 and "grayscale" in look[1] and look[2] == "not-allowed", look
    color = scope.locator(".safari-types button", has_text="Color")
    screen.click(color, "the clue type Color")
    place = scope.locator(".safari-table .st-selectable[data-key^='place:']").first
    screen.click(place, "a face-down place")
    scope.locator(".safari-table .st-under").first.wait_for()
    screen.assert_visible(scope.locator(".safari-table .st-under").first, "the chance under a place")
    screen.assert_visible(scope.locator(".safari-prob").first, "the side panel of chances")
    guess = scope.locator(".safari-guess input")
    screen.assert_visible(guess, "the guess box")
    guess.fill("0.2")
    screenshot(page, f"{name}-picked")
    wait_enabled(page, reveal, 10_000)
    screen.click(reveal, "Reveal")
    scope.locator(".safari-prob", has_text="Last reveal").wait_for()
    screen.assert_visible(scope.locator(".safari-status").first, "the status line")
    if scope.locator(".safari-types button:not([disabled])").count():  # a match: identify the other clue card
        pass
    wait_enabled(page, nxt, 20_000)
    screenshot(page, f"{name}-revealed")
    screen.click(nxt, "Next turn")


def play_challenge(page, scope, screen: Screen, name: str) -> None:
    challenge = widget_button(scope, "Challenge")
    nxt = widget_button(scope, "Next turn")
    # the app deals a secret seed of the position's recipe: a bot's failed turn may lie face up first
    # (W4/W5, about half the deals); Next turn goes on to the learner's choice
    for _ in range(200):
        if challenge.is_enabled():
            break
        if nxt.is_enabled():
            screen.click(nxt, "Next turn", watch=f"{screen.lab} .safari-table")  # the kernel has moved on
        page.wait_for_timeout(100)
    screenshot(page, f"{name}-start")
    screen.click(challenge, "Challenge")
    reveal = widget_button(scope, "Reveal one more")
    stop = scope.locator("button.safari-stop")
    for step in range(12):
        for _ in range(100):  # the kernel's answer to the last click: a button to press, or the decision
            page.wait_for_timeout(100)
            if nxt.is_enabled() or reveal.is_enabled() or scope.locator(".safari-decision-now").count():
                break
        if nxt.is_enabled():
            break
        if step == 0:
            screen.assert_visible(scope.locator(".safari-table .st-under").first, "P(safe) under a place")
        if scope.locator(".safari-decision-now").count():
            screenshot(page, f"{name}-decision")
            screen.assert_visible(scope.locator(".safari-decide").first, "the stop-or-go box")
            screen.click(stop, "Stop")
            continue
        screen.click(reveal, "Reveal one more", watch=f"{screen.lab} .safari-table")
    wait_enabled(page, nxt, 20_000)
    screenshot(page, f"{name}-end")
    screen.click(nxt, "Next turn")


def play_knockout(page, scope, screen: Screen, name: str) -> None:
    """Pick a card and a data item (the item first, as the learner of issue 17 did), press Play, read the
    result beside the table, press Next turn: every control and the result inside the visible area."""
    lab = screen.lab
    prob = f"{lab} .safari-prob-table"
    for _ in range(4):  # the app's secret deal may start with a follow: play it first, as below
        page.locator(f"{prob}[data-phase='lead'], {prob}[data-phase='follow']").first.wait_for(timeout=60_000)
        if page.locator(prob).first.get_attribute("data-phase") == "lead":
            break
        best = page.locator(prob).first.get_attribute("data-best-card")
        screen.click(scope.locator(f".safari-table .st-hand [data-key='card:\"{best}\"']"), "a card",
                     watch=f"{lab} .safari-status")
        screen.click(widget_button(scope, "Play"), "Play", watch=f"{lab} .safari-prob")
        page.locator(f"{prob}[data-phase='done']").wait_for()
        screen.click(widget_button(scope, "Next turn"), "Next turn", watch=f"{lab} .safari-prob")
    screenshot(page, f"{name}-start")
    screen.assert_visible(scope.locator(".safari-table .st-hand .st-under").first, "the chance under a card")
    screen.assert_visible(scope.locator(".safari-prob .safari-prob-table").first, "the table of chances")
    item = scope.locator(".safari-table .st-selectable[data-key^='item:']").first
    screen.click(item, "a data item", watch=f"{lab} .safari-status")
    card = scope.locator(".safari-table .st-hand .st-selectable[data-key^='card:']").first
    screen.click(card, "a card of the hand", watch=f"{lab} .safari-status")
    assert page.locator(prob).first.get_attribute("data-phase") == "lead", "a click only picks"
    screenshot(page, f"{name}-picked")
    screen.click(widget_button(scope, "Play"), "Play", watch=f"{lab} .safari-prob")
    page.locator(f"{prob}[data-phase='done']").wait_for()
    screen.assert_visible(scope.locator(".safari-ko-result").first, "the result of the turn, in words")
    screen.assert_visible(scope.locator(".safari-table .st-zone").nth(0), "the finished turn on the table")
    screenshot(page, f"{name}-played")
    screen.click(widget_button(scope, "Next turn"), "Next turn", watch=f"{lab} .safari-prob")
    page.locator(f"{prob}[data-phase='lead'], {prob}[data-phase='follow'], {prob}[data-phase='over']"
                 ).first.wait_for()


def play_fullgame(page, scope, screen: Screen, name: str) -> None:
    screenshot(page, f"{name}-start")
    table = scope.locator(".safari-table")
    clicked = []
    for _ in range(25):
        page.wait_for_timeout(300)
        targets = table.locator(".st-selectable")
        if not targets.count():
            break
        keys = [k for k in targets.evaluate_all("(ns) => ns.map((n) => n.dataset.key)")]
        # the turn: Identify, a clue type, a place, then archive / end the turn; a pause goes on
        order = ['button:"identify"', 'button:"type:animal"', "place:", 'button:"end_turn"', "card:", "button:"]
        fresh = [k for k in keys if k not in clicked or k.startswith(("card:", 'button:"end_turn"'))]
        pick = next((k for want in order for k in fresh if k.startswith(want)), (fresh or keys)[0])
        if clicked and pick.startswith("button:") and "go_on" in pick and len(clicked) > 2:
            break  # a bot's failure after our turn: our turn is over
        clicked.append(pick)
        if len(clicked) == 3:
            screenshot(page, f"{name}-mid")
        screen.click(table.locator(f".st-selectable[data-key='{pick}']").first, f"the table's {pick}")
        if "Player 0" not in (scope.locator(".safari-status").first.inner_text() or "") and len(clicked) > 3:
            break
    assert any(k.startswith("place:") for k in clicked), clicked
    screenshot(page, f"{name}-end")


def play_tutorial(page, scope, screen: Screen, name: str) -> None:
    """A step of the rules tutorial is read and left without scrolling: the words sit beside the table."""
    nxt = widget_button(scope, "Next")
    for k in range(6):
        screen.assert_visible(scope.locator(".safari-table").first, "the table")
        if k == 3:
            screenshot(page, f"{name}-step")
        screen.click(nxt, "Next", watch=f"{screen.lab} .safari-side")


PLAY = {"identification": play_identification, "challenge": play_challenge, "knockout": play_knockout,
        "fullgame": play_fullgame, "tutorial": play_tutorial}


class Turns(list):
    """What :func:`turns` found: ``failed[lab]`` (how the turn failed: message, last frames, screenshot), ``done``
    (the labs whose turn was played to its end) and, as the list itself, the page's errors as (lab, error), the lab
    being played when each came ("open": while the notebook opened). The list is the page's ``js_errors`` sink."""

    def __init__(self):
        super().__init__()
        self.failed: dict[str, str] = {}
        self.done: set[str] = set()
        self.now = "open"

    def append(self, error) -> None:  # the page's error handler: the lab now
        super().append((self.now, error))

    def __repr__(self) -> str:  # what pytest prints of the fixture beside a failure: short
        return f"Turns({sorted(self.done)} played, {sorted(self.failed)} failed, {len(self)} page errors)"

    @contextlib.contextmanager
    def playing(self, page, lab: str):
        """Play one lab's turn: a failure is recorded (not raised) so the next lab is played."""
        self.now = lab
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - an assertion or a wait that timed out: recorded for its test
            frames = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3))
            try:
                shot = screenshot(page, f"noscroll-failed-{lab}")
            except Exception:  # noqa: BLE001 - the page may be gone
                shot = "(no screenshot)"
            self.failed[lab] = f"{type(exc).__name__}: {exc}\n{frames}screenshot: {shot}"
        else:
            self.done.add(lab)

    def problems(self, lab: str) -> list[str]:
        """Why ``lab``'s turn did not pass: the notebook did not open, the turn failed or was not played, a page
        error while the notebook opened or while the turn was played. Empty: it passed."""
        out = []
        if "open" in self.failed:
            out.append(f"the notebook of the labs did not open, no turn was played:\n{self.failed['open']}")
        elif lab in self.failed:
            out.append(f"{lab}: {self.failed[lab]}")
        elif lab not in self.done:
            out.append(f"{lab}: the turn was not played")
        return out + [f"{lab}: page error while {when}: {error}" for when, error in self if when in ("open", lab)]


def play_turn(page, name: str, sel: str) -> None:
    """One whole turn of the lab ``name`` (its root ``sel``): every control inside the visible area before its
    click, nothing scrolled after it, no "Something went wrong"."""
    screen = Screen(page, sel)
    PLAY[name](page, page.locator(sel).first, screen, f"noscroll-{name}")
    screen.assert_not_scrolled()
    assert screen.clicks >= 2, name
    status = page.locator(f"{sel} .safari-status").first.inner_text()
    assert "Something went wrong" not in status, (name, status)


@pytest.fixture(scope="module")
def turns(lab_tab, lab_server, request):  # noqa: F811
    """The notebook of every lab opened once at 1366x768 in the process's one JupyterLab page (issue 28: the test
    loaded JupyterLab itself), then a whole turn played in each lab in turn; -> :class:`Turns`."""
    record = Turns()
    with lab_tab.for_test(request, record, WIDTH, HEIGHT) as page:
        with record.playing(page, "open"):
            open_labs(page, lab_server)
        if "open" not in record.failed:
            for name, (_code, sel) in LABS.items():
                with record.playing(page, name):
                    play_turn(page, name, sel)
        record.now = "end"
        yield record


@pytest.mark.parametrize("lab", list(LABS))
def test_a_whole_turn_without_scrolling(turns, lab):
    problems = turns.problems(lab)
    assert not problems, "\n".join(problems)


def test_a_failed_turn_is_reported_by_its_own_lab_only():
    """The record (no browser): a turn that fails is reported for its lab only, with its message; a page error for
    the lab being played; a notebook that did not open for every lab."""
    record = Turns()
    with record.playing(None, "open"):
        pass
    with record.playing(None, "knockout"):
        raise AssertionError("Play is outside the visible area")
    with record.playing(None, "challenge"):
        record.append("pageerror: boom")
    with record.playing(None, "tutorial"):
        pass
    knockout = record.problems("knockout")
    assert len(knockout) == 1 and knockout[0].startswith("knockout: AssertionError: Play is outside"), knockout
    assert "(no screenshot)" in knockout[0]
    assert record.problems("challenge") == ["challenge: page error while challenge: pageerror: boom"]
    assert record.problems("tutorial") == []
    assert record.problems("fullgame") == ["fullgame: the turn was not played"]
    broken = Turns()
    with broken.playing(None, "open"):
        raise TimeoutError("no kernel")
    assert "did not open" in broken.problems("tutorial")[0] and "no kernel" in broken.problems("tutorial")[0]
