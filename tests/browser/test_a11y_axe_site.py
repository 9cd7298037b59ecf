"""axe-core finds no critical or serious violation on the offline static site's app page (Voici, Python in
the browser), scoped to ``.safari-app``: the chooser, Identification and Knockout.

Apart from tests/browser/test_a11y_axe.py because it uses the static site's build (``offline_site``): every
test of the site's build runs on one pytest-xdist worker (tests/conftest.py, ``SHARED_PATH_FILES``).
"""
from __future__ import annotations

import pytest

from tests.browser.a11y import describe, failing, run_axe
from tests.browser.site_fixtures import APP
from tests.browser.test_a11y_axe import APP_LABS, APP_ROOT, choose

pytestmark = pytest.mark.browser


def test_axe_static_site_app_page(site_page, js_errors, offline_site):
    page = site_page
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(offline_site.url + APP, wait_until="domcontentloaded", timeout=120_000)
    page.locator(f"{APP_ROOT} .widget-dropdown:not(.safari-language) select").wait_for(timeout=180_000)
    found = {"chooser": run_axe(page, APP_ROOT)}
    choose(page, "Safari Witness", "Identification", APP_LABS[0][2])
    found["Identification"] = run_axe(page, APP_ROOT)
    choose(page, "Safari Knockout", "Knockout", APP_LABS[5][2])
    found["Knockout"] = run_axe(page, APP_ROOT)
    for where, violations in found.items():
        print(f"\nsite {where}: {describe(violations)}")
    bad = {where: describe(failing(v)) for where, v in found.items() if failing(v)}
    assert not bad, "\n".join(f"{where}:\n{text}" for where, text in bad.items())
