"""The static site's landing page links the learners' rules pages under their own heading, not as lessons.

Issue 27: the rules of each game, one page each with card pictures, in the site as in the lessons and the app.
The pages are the learners' copies in the site's notebooks/ folder (every notebooks/*.ipynb is staged:
tests/test_site_contents.py); here, the landing page names them "Rules of Safari Witness" / "... Knockout",
opens them in JupyterLite, and keeps them out of the numbered lessons' list.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def build_site():
    if str(REPO / "site-src") not in sys.path:
        sys.path.insert(0, str(REPO / "site-src"))
    spec = importlib.util.spec_from_file_location("build_site_rules", REPO / "site-src" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_landing_page_links_the_rules_pages_apart_from_the_lessons(build_site, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    contents = build_site.stage(tmp_path / "lite")
    assert (contents / "notebooks" / "rules-safari-witness.ipynb").is_file()
    build_site.landing_page(out, contents)
    page = (out / "index.html").read_text()
    rules, lessons = page.split("<h2>The lessons</h2>")
    assert "The rules of the games" in rules and "{{" not in page
    for name, title in (("rules-safari-witness", "Rules of Safari Witness"),
                        ("rules-safari-knockout", "Rules of Safari Knockout")):
        assert f'<a href="./lab/index.html?path=notebooks/{name}.ipynb">{title}</a>' in rules
        assert name not in lessons
    assert rules.index("Safari Witness</a>") < rules.index("Safari Knockout</a>")
    assert "path=notebooks/00-start-here.ipynb" in lessons
