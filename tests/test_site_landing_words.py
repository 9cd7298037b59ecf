"""The static site's landing page sends new players to the Rules tutorial and says which lessons need the
online site (issue 27), built by site-src/build_site.py's ``landing_page`` without a full site build.

The lessons that need the online site are the ones tests/test_offline_lessons.py runs as ONLINE (their subject is
pandas and numpy, which the offline build lacks: site-src/kernel_startup.py's LESSON_ONLINE), so the page and
the offline test cannot drift apart.
"""
from __future__ import annotations

import re

from tests.test_offline_lessons import ONLINE
from tests.test_site_contents import build_site  # noqa: F401 - the fixture


def _page(build_site, tmp_path) -> str:  # noqa: F811
    out = tmp_path / "site"
    out.mkdir()
    contents = build_site.stage(tmp_path / "lite")
    build_site.landing_page(out, contents)
    return (out / "index.html").read_text()


def test_new_players_are_sent_to_the_rules_tutorial_first(build_site, tmp_path):  # noqa: F811
    page = _page(build_site, tmp_path)
    start = page.index("New to the games? Start with the Rules tutorial.")
    assert start < page.index("Play the labs") and start < page.index("Open the lessons")
    assert "path=notebooks/07-rules-tutorial.ipynb" in page[start:page.index("Play the labs")]
    assert re.search(r"07-rules-tutorial</a> <small><b>new to the games\? start here", page)


def test_the_page_says_which_lessons_need_the_online_site(build_site, tmp_path):  # noqa: F811
    import sys

    sys.path.insert(0, str(build_site.SRC))
    from kernel_startup import LESSON_ONLINE

    page = _page(build_site, tmp_path)
    numbers = sorted(name[:2] for name in ONLINE)
    assert numbers == ["01", "05"] and sorted(LESSON_ONLINE) == ["numpy", "pandas"]
    assert "Lessons 01 and 05 need the online site.</b> They use pandas and numpy" in page
    marked = sorted(m for m in re.findall(r"(\d\d)-[\w-]+</a> <small>needs the online site \(pandas and numpy\)",
                                          page))
    assert marked == numbers
