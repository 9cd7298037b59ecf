"""Keyboard helpers for the accessibility browser tests (issue 20): press keys, read where the focus is.

The app's page comes from tests/browser/app_pages.py (``app_page_for``); ``open_lab_by_keys`` chooses a lab by
keys; ``tab_to`` presses Tab until the focus is on the wanted control; ``focus`` describes the focused
element (its text, ``data-key``, accessible name, whether it shows a ring); ``assert_focus_kept`` checks that an
action left the focus in its lab, on an enabled control, with a visible ring; ``wait_focus`` waits until the lab
has moved the focus where it should, then checks the same; ``wait_said`` waits for the lab's live region to say a
new sentence.
"""
from __future__ import annotations

import re
import time

from tests.browser.helpers import screenshot

FOCUS_JS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {body: true};
  const cs = getComputedStyle(a);
  const lab = a.closest('.safari-lab');
  return {body: false, tag: a.tagName, text: (a.innerText || a.value || '').trim().slice(0, 60),
          key: a.getAttribute('data-key'), label: a.getAttribute('aria-label') || '',
          cls: a.className && a.className.baseVal === undefined ? a.className : '',
          ring: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2,
          lab: lab ? [...lab.classList] : [],
          disabled: !!a.disabled, language: !!a.closest('.safari-language')};
}"""


def focus(page) -> dict:
    return page.evaluate(FOCUS_JS)


def tab_to(page, want, shift: bool = False, limit: int = 80) -> dict:
    """Press Tab (Shift+Tab) until the focused element satisfies ``want(focus) -> bool``; the focus info."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if shift else "Tab")
        f = focus(page)
        if not f["body"] and want(f):
            return f
        seen.append(f.get("text") or f.get("label") or f.get("tag"))
    raise AssertionError(f"Tab never reached the control; focus went through: {seen}")


def button_named(text: str):
    return lambda f: f.get("tag") == "BUTTON" and f.get("text") == text and not f.get("disabled")


def live_text(page, lab: str) -> str:
    return page.locator(f"{lab} .safari-live").inner_text()


def wait_said(page, lab: str, before: str, timeout: float = 30_000) -> str:
    """Wait until the lab's live region says a new sentence; return it."""
    page.wait_for_function(
        "([sel, before]) => { const el = document.querySelector(sel); const t = el && el.textContent.trim();"
        " return t && t !== before; }", arg=[f"{lab} .safari-live", before], timeout=timeout, polling=50)
    return live_text(page, lab)


REVEALED_JS = """([lab, key]) => ![...document.querySelectorAll(`${lab} .safari-table [data-key="${key}"]`)]
    .some(el => (el.getAttribute('aria-label') || '').includes('face down'))"""


def wait_table_shows_reveal(page, lab: str, said: str, timeout: float = 10_000) -> None:
    """After "Place N: ..." is said: wait until the table no longer draws place N face down.

    The sentence and the redrawn table come in two messages (on a busy machine seconds apart). A key or tap read
    from the old drawing can land on the place just revealed: no new sentence then, and the test waits in vain.
    """
    m = re.match(r"Place (\d+):", said)
    if m:
        page.wait_for_function(REVEALED_JS, arg=[lab, f"place:{m.group(1)}"], timeout=timeout, polling=50)


def settle(page, ms: int = 250) -> None:
    page.wait_for_timeout(ms)


def assert_focus_kept(page, lab: str, what: str) -> dict:
    """After an action: focus is inside the lab (not lost to the page's top) and shows a ring."""
    deadline = time.monotonic() + 5
    f = focus(page)
    while (f["body"] or f.get("disabled")) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        f = focus(page)
    assert not f["body"], f"focus lost to the page after {what}"
    assert not f.get("disabled"), f"focus left on a disabled control after {what}: {f}"
    assert lab.lstrip(".") in f["lab"], f"focus left the lab after {what}: {f}"
    assert f["ring"], f"no visible focus ring after {what}: {f}"
    return f


def wait_focus(page, lab: str, want, what: str, seconds: float = 10) -> dict:
    """After an action: wait until the focused control satisfies ``want(focus) -> bool``, then check it as
    :func:`assert_focus_kept` does; the focus info. The sentence comes first; the message that disables the control
    pressed (so the lab moves focus on) can come seconds later on a busy machine (issue 28: focus still on the
    enabled Stop button when the sentence was read)."""
    deadline = time.monotonic() + seconds
    f = focus(page)
    while not (not f["body"] and want(f)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        f = focus(page)
    f = assert_focus_kept(page, lab, what)
    assert want(f), f"after {what} focus is not where it should be after {seconds:.0f} s: {f}"
    return f


def big_shot(page, name: str):
    old = page.viewport_size
    page.set_viewport_size({"width": 1366, "height": 768})
    try:
        page.wait_for_timeout(200)
        return screenshot(page, name)
    finally:
        page.set_viewport_size(old)


# ----------------------------------------------------------------------------- the app's chooser, by keys
def open_lab_by_keys(page, game: str, lab: str, root: str) -> None:
    """The chooser by keys: the game's toggle button, the lab in the list (arrow keys), Open lab."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.locator("body").focus()
    tab_to(page, lambda f: f.get("tag") == "BUTTON" and f.get("text") == game)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([game]) => [...document.querySelectorAll('.safari-app .widget-toggle-buttons button')]"
        ".some(b => b.innerText.trim() === game && b.classList.contains('mod-active'))", arg=[game])
    page.wait_for_function(
        "([lab]) => [...document.querySelectorAll('.safari-app .safari-lab-list select option')]"
        ".some(o => o.textContent.replace(/\\s+/g, ' ').trim() === lab)", arg=[lab])
    # past the chooser's Language list (issue 30): a learner tabs on to the Lab list
    tab_to(page, lambda f: f.get("tag") == "SELECT" and not f.get("language"))
    select = page.locator(".safari-app .safari-lab-list select").first
    # from the top of the list: an earlier test may have left the list further down than the lab (the
    # Rules tutorial is first in each game's list since issue 27, and ArrowDown never goes back up)
    if select.evaluate("(s) => s.options[s.selectedIndex] && s.options[s.selectedIndex].text"
                       ".replace(/\\s+/g, ' ').trim()") != lab:
        page.keyboard.press("Home")
        settle(page, 100)
    for _ in range(12):
        if select.evaluate("(s) => s.options[s.selectedIndex] && s.options[s.selectedIndex].text"
                           ".replace(/\\s+/g, ' ').trim()") == lab:
            break
        page.keyboard.press("ArrowDown")
        settle(page, 100)
    else:
        raise AssertionError(f"the arrow keys never chose {lab!r} in the list")
    settle(page, 300)  # the kernel has the choice before Open lab
    tab_to(page, button_named("Open lab"))
    page.keyboard.press("Enter")
    page.locator(f".safari-app {root} .safari-live").wait_for(state="attached", timeout=60_000)
    settle(page, 500)


