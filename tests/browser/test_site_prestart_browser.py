"""Issue 31, item 3: the landing page of a ``make site PRESTART=1`` build starts the app while it is read.

The offline site of the run (``offline_site``) is built without the option; its landing page with the option is
the same page with ``data-safari-prestart="on"`` (tests/test_site_prestart.py: the only difference), served in
its place here by the browser context's route. In headless Debian chromium:

* while the landing page is read the app page loads in a frame that no learner can reach: invisible, out of the
  tab order (Tab goes through the whole landing page and never into it), and out of the accessibility tree
  (Chromium's own tree, read over the DevTools protocol: every node of the frame is ignored) although the app
  in it has drawn its chooser;
* "Play the labs" pressed with the keyboard shows the app: the chooser is there, the focus is in the app, the
  landing page is now the one out of the tab order and the accessibility tree, the app's controls are in it;
  the app plays (Identification opens);
* the back button comes back to the landing page (the focus on "Play the labs", the frame hidden again) and
  forward shows the same app again (not a new start);
* without the option, the landing page starts nothing: no frame, no request for the app page or the Python
  runtime; "Play the labs" opens the app page.
"""
from __future__ import annotations

import time

import pytest

from tests.browser.helpers import screenshot
from tests.browser.site_fixtures import APP

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHOOSER = ".safari-app .safari-lab-list select"
FRAME = "iframe.safari-prestart"


def with_prestart(page, site) -> None:
    """Serve the site's landing page as PRESTART=1 builds it."""
    built = (site.root / "index.html").read_text()
    assert 'data-safari-prestart="off"' in built
    page.context.route(f"{site.url}index.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=built.replace('data-safari-prestart="off"',
                                                                 'data-safari-prestart="on"')))


def ax_nodes(page, frame_url_end: str | None) -> list[dict]:
    """Chromium's accessibility tree of the page (``frame_url_end`` None) or of its frame whose URL ends so."""
    cdp = page.context.new_cdp_session(page)
    try:
        params = {}
        if frame_url_end is not None:
            tree = cdp.send("Page.getFrameTree")["frameTree"]
            frames = [c["frame"] for c in tree.get("childFrames", []) if c["frame"]["url"].endswith(frame_url_end)]
            assert frames, tree
            params["frameId"] = frames[0]["id"]
        return cdp.send("Accessibility.getFullAXTree", params)["nodes"]
    finally:
        cdp.detach()


def reachable(nodes: list[dict]) -> set[str]:
    """The names of the buttons, links and lists a screen reader reaches (nodes not ignored)."""
    return {n.get("name", {}).get("value", "") for n in nodes
            if not n.get("ignored") and n.get("role", {}).get("value") in ("button", "link", "combobox", "ListBox")}


def tab_stops(page, count: int) -> list[str]:
    """Where Tab goes, ``count`` times from the top: the focused element of the top page each time."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    stops = []
    for _ in range(count):
        page.keyboard.press("Tab")
        stops.append(page.evaluate("() => { const e = document.activeElement;"
                                   " return e ? e.tagName + (e.id ? '#' + e.id : '') + ':' + "
                                   "(e.textContent || '').trim().slice(0, 30) : ''; }"))
    return stops


def test_the_landing_page_starts_the_app_out_of_reach_and_play_shows_it(site_page, js_errors, offline_site):
    page = site_page
    with_prestart(page, offline_site)
    t0 = time.perf_counter()
    page.goto(offline_site.url + "index.html", wait_until="domcontentloaded")
    frame_el = page.locator(FRAME)
    frame_el.wait_for(state="attached", timeout=10_000)
    app = page.frame_locator(FRAME)
    app.locator(CHOOSER).wait_for(state="attached", timeout=120_000)  # drawn in the hidden frame
    print(f"\nthe app's chooser drawn in the hidden frame {time.perf_counter() - t0:.1f} s after the landing page")
    # out of reach: invisible, inert, hidden from screen readers, not a tab stop
    assert frame_el.evaluate("(f) => [getComputedStyle(f).visibility, f.hasAttribute('inert'),"
                             " f.getAttribute('aria-hidden'), f.tabIndex]") == ["hidden", True, "true", -1]
    links = page.locator("#safari-landing a").count()
    stops = tab_stops(page, links + 3)
    assert not [s for s in stops if s.startswith("IFRAME")], stops
    assert any(s.startswith("A#safari-play") for s in stops), stops
    assert not reachable(ax_nodes(page, APP)), "the hidden app is in the accessibility tree"
    assert "Play the labs" in reachable(ax_nodes(page, None))
    screenshot(page, "issue31-prestart-landing")

    # "Play the labs" with the keyboard
    page.locator("#safari-play").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => getComputedStyle(document.querySelector({FRAME!r})).visibility === 'visible'",
                           timeout=5_000)
    assert page.url.endswith("index.html#labs")
    assert page.evaluate("() => document.activeElement.tagName") == "IFRAME"
    assert app.locator(CHOOSER).is_visible()
    assert page.evaluate("() => [document.getElementById('safari-landing').hasAttribute('inert'),"
                         " getComputedStyle(document.getElementById('safari-landing')).display]") == [True, "none"]
    for _ in range(6):  # Tab goes into the app's own controls, never back to the landing page
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.tagName") == "IFRAME"
        if app.locator(".safari-app :focus").count():
            break
    assert app.locator(".safari-app :focus").count() == 1, "Tab did not reach the app's controls"
    names = reachable(ax_nodes(page, APP))
    assert "Open lab" in names and "Play the labs" not in reachable(ax_nodes(page, None)), names
    screenshot(page, "issue31-prestart-app")
    frame = next(f for f in page.frames if f.url.endswith(APP))
    marker = frame.evaluate("() => (window.__prestartMark = Math.random())")

    # the back button: the landing page again; forward: the same app (no new start)
    page.go_back()
    page.wait_for_function(f"() => getComputedStyle(document.querySelector({FRAME!r})).visibility === 'hidden'",
                           timeout=5_000)
    assert page.evaluate("() => document.activeElement.id") == "safari-play"
    assert not page.url.endswith("#labs") and page.locator("#safari-play").is_visible()
    assert not reachable(ax_nodes(page, APP))
    page.go_forward()
    page.wait_for_function(f"() => getComputedStyle(document.querySelector({FRAME!r})).visibility === 'visible'",
                           timeout=5_000)
    frame = next(f for f in page.frames if f.url.endswith(APP))
    assert frame.evaluate("() => window.__prestartMark") == marker

    # and it plays
    from tests.browser.test_app_voila import open_lab

    open_lab(frame, "Safari Witness", "Identification", ".safari-identification-lab")
    assert frame.locator(".safari-app .safari-identification-lab .safari-table .st-card").count()
    assert not page.outside, f"requests to other hosts: {page.outside}"
    assert not js_errors, js_errors


def test_without_the_option_the_landing_page_starts_nothing(site_page, js_errors, offline_site):
    page = site_page
    asked: list[str] = []
    page.context.on("request", lambda r: asked.append(r.url))
    page.goto(offline_site.url + "index.html", wait_until="domcontentloaded")
    page.wait_for_timeout(2_000)
    assert page.locator(FRAME).count() == 0
    assert not [u for u in asked if u.endswith(APP) or "/static/pyodide" in u], asked
    page.locator("#safari-play").click()
    page.wait_for_url(f"**/{APP}", timeout=10_000)
    assert not js_errors, js_errors
