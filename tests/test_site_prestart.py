"""Issue 31, item 3: ``make site PRESTART=1`` builds a landing page that starts the app while it is read; without
it the landing page starts nothing (site-src/build_site.py's ``landing_page``, without a full site build).

What the page does with the option (a hidden frame, shown on "Play the labs", the keyboard, screen readers and
the back button) is checked in a browser: tests/browser/test_site_prestart_browser.py.
"""
from __future__ import annotations

import re

from tests.test_site_contents import build_site  # noqa: F401 - the fixture


def test_the_option_switches_the_landing_pages_prestart_on(build_site, tmp_path):  # noqa: F811
    contents = build_site.stage(tmp_path / "lite")
    pages = {}
    for prestart in (False, True):
        out = tmp_path / f"site-{prestart}"
        out.mkdir()
        build_site.landing_page(out, contents, prestart=prestart)
        pages[prestart] = (out / "index.html").read_text()
    assert '<html lang="en" data-safari-prestart="off">' in pages[False]
    assert '<html lang="en" data-safari-prestart="on">' in pages[True]
    assert pages[True].replace('data-safari-prestart="on"', 'data-safari-prestart="off"') == pages[False]
    assert "{{" not in pages[True], re.findall(r"\{\{.*?\}\}", pages[True])
    # the page's script starts the frame only with the option on, and "Play the labs" stays a plain link
    assert 'getAttribute("data-safari-prestart") !== "on") return;' in pages[True]
    assert '<a class="big" id="safari-play" href="./voici/render/notebooks/app.html">Play the labs</a>' in pages[True]


def test_make_site_passes_the_option():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    assert "$(if $(filter 1 yes true,$(PRESTART)),--prestart,)" in makefile
