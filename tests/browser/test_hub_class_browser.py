"""The class service on JupyterHub in Chromium (issue 29): the hub's login, OAuth, then one Identification turn.

A real hub (tests/hub/hubrun.py: the kit's shipped config, one class, a dummy login, configurable-http-proxy
on loopback): the learner opens the class's address, lands on the hub's login form, logs in, comes back
through the hub's OAuth to the app, and plays a turn of Identification through the hub's proxy (the lab's
websocket included). Screenshot: test-artifacts/issue29-hub-identification.png.
"""
from __future__ import annotations

import time

import pytest

from tests.browser.conftest import QUIET_MOTION
from tests.browser.test_app_voila import (
    button, click_and_wait_change, identification_result, open_lab, pick_best_declaration, shot,
)
from tests.hub.hubrun import PASSWORD, running_hub

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hub():
    with running_hub(classes=("7b",)) as running:
        yield running


def test_a_learner_logs_in_on_the_hub_and_plays_an_identification_turn(browser, hub):
    # no glowing cards (conftest.QUIET_MOTION): the test plays a turn, it does not look at motion
    context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=QUIET_MOTION)
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(hub.service_url("7b"), wait_until="domcontentloaded", timeout=60_000)
        assert "/hub/login" in page.url, page.url  # the hub's login first, never the app
        page.fill("input[name=username]", "lea")
        page.fill("input[name=password]", PASSWORD)
        page.click("input[type=submit], button[type=submit]")
        page.locator(".safari-app .safari-lab-list select").wait_for(timeout=120_000)
        assert page.url == hub.service_url("7b")
        print(f"\nlogin -> the app through the hub: {time.perf_counter() - start:.1f} s")

        open_lab(page, "Safari Witness", "Identification", ".safari-identification-lab")
        lab = ".safari-app .safari-identification-lab"
        prob = f"{lab} .safari-prob"
        for _ in range(12):  # the deal may open on a bot's turn: Next turn until ours
            if page.locator(f"{lab} button.safari-identify:not([disabled])").count():
                break
            click_and_wait_change(page, button(page.locator(lab), "Next turn"), f"{lab} .safari-table",
                                  timeout=60_000)
            page.wait_for_timeout(200)
        click_and_wait_change(page, button(page.locator(lab), "Identify"), prob)
        pick_best_declaration(page, lab)
        click_and_wait_change(page, button(page.locator(lab), "Reveal"), prob)
        result = identification_result(page, lab)
        assert "Match!" in result or "No match" in result, result
        shot(page, "issue29-hub-identification", lab)
    finally:
        context.close()
