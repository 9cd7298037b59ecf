"""The app page's style sheets cut at build time (site-src/app_page_css.py, issue 31): no browser, a page like
Voici's (its theme: rules of JupyterLab's application, toolbar icons, rules the widgets need)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site-src"))

import app_page_css  # noqa: E402

ICON = "url(data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=)"
#: filler: rules of the file browser, which no Voici page builds (what makes the theme as big as JupyterLab's)
FILLER = "".join(f".jp-DirListing-item{i} {{\n  color: red;\n}}\n" for i in range(4000))
THEME = f"""
/* Copyright (c) Jupyter Development Team. */
:root {{
  --jp-icon-add: {ICON};
  --jp-icon-caret-down: {ICON};
  --jp-icon-used-by-a-widget: {ICON};
  --jp-icon-in-a-theme-script: {ICON};
  --jp-icon-contrast-color0: var(--md-grey-900);
  --jp-ui-font-size1: 13px;
}}
.jp-AddIcon {{
  background-image: var(--jp-icon-add);
}}
.jp-CaretDownIcon {{
  background-image: var(--jp-icon-caret-down);
}}
.jp-InThemeScriptIcon {{
  background-image: var(--jp-icon-in-a-theme-script);
}}
.widget-dropdown select {{ background-image: var(--jp-icon-used-by-a-widget); }}
.jp-OutputArea-output {{ overflow: auto; }}
.jp-DocumentSearch-overlay {{ position: absolute; }}
.jp-DirListing-content, .jp-OutputArea-child {{ display: flex; }}
.jp-Cell:not(.jp-DirListing) {{ padding: 2px; }}
@media print {{
  .lm-CommandPalette {{ display: none; }}
}}
@media (max-width: 760px) {{
  .jp-StatusBar-Item {{ display: none; }}
  .widget-button {{ width: 100%; }}
}}
@keyframes spin {{ from {{ transform: rotate(0deg); }} to {{ transform: rotate(360deg); }} }}
{FILLER}
"""
PAGE = ("<html><head><style>\n.spinner { animation: none; }\n</style>\n<style type=\"text/css\">%s</style></head>"
        "<body class=\"jp-Notebook\"><div id=\"rendered_cells\"></div></body></html>")


def _site(tmp_path: Path, theme: str = THEME) -> tuple[Path, Path]:
    site = tmp_path / "site"
    page = site / "voici" / "render" / "notebooks" / "app.html"
    page.parent.mkdir(parents=True)
    page.write_text(PAGE % theme)
    build = site / "voici" / "build"
    build.mkdir()
    # the caret is named by a widget's script; the other icon only by a script that defines it too (the theme's
    # own copy in Voici's bundle), which does not count
    (build / "widgets.js").write_text('const css = ".x select { background: var(--jp-icon-caret-down) }";')
    (build / "1259.js").write_text('const theme = ":root { --jp-icon-in-a-theme-script: url(x); } '
                                   '.y { background: var(--jp-icon-in-a-theme-script) }";')
    return site, page


def _style_sheet(html: str) -> str:
    return re.findall(r"<style[^>]*>(.*?)</style>", html, re.S)[1]


def test_rules_the_app_never_shows_go_and_the_rest_keep_their_order(tmp_path):
    site, page = _site(tmp_path)
    done = app_page_css.cut_app_page_css(page, site)
    html = page.read_text()
    css = _style_sheet(html)
    assert "jp-DirListing-item" not in css and ".jp-DocumentSearch" not in css and "lm-CommandPalette" not in css
    assert "@media print" not in css  # left empty
    assert "jp-StatusBar" not in css and "@media (max-width: 760px){.widget-button{width: 100%;}}" in css
    # a selector list with one selector the app may need is kept whole; :not(...) needs no such element
    assert ".jp-DirListing-content, .jp-OutputArea-child{display: flex;}" in css
    assert ".jp-Cell:not(.jp-DirListing){padding: 2px;}" in css
    assert "@keyframes spin" in css and "Copyright" not in css
    kept = [".jp-OutputArea-output", ".jp-DirListing-content", ".jp-Cell:not", "@media (max-width"]
    assert [css.index(k) for k in kept] == sorted(css.index(k) for k in kept)
    assert "animation: none" in html  # the other style sheets stay
    assert len(css) < len(THEME) / 10, len(css)
    assert done and "KB" in done[0]


def test_toolbar_icons_go_unless_a_rule_or_a_script_of_the_site_names_them(tmp_path):
    site, page = _site(tmp_path)
    app_page_css.cut_app_page_css(page, site)
    css = _style_sheet(page.read_text())
    assert "--jp-icon-add:" not in css and ".jp-AddIcon" not in css  # named only by its own icon class
    assert "--jp-icon-in-a-theme-script:" not in css and ".jp-InThemeScriptIcon" not in css
    assert "--jp-icon-caret-down:" in css and ".jp-CaretDownIcon" in css  # a widget's script names it
    assert "--jp-icon-used-by-a-widget:" in css and "var(--jp-icon-used-by-a-widget)" in css
    assert "--jp-icon-contrast-color0: var(--md-grey-900)" in css and "--jp-ui-font-size1: 13px" in css


def test_the_page_says_what_it_dropped_and_a_second_cut_changes_nothing(tmp_path):
    site, page = _site(tmp_path)
    app_page_css.cut_app_page_css(page, site)
    html = page.read_text()
    families = re.search(rf'<body {app_page_css.MARK}="([^"]*)"', html).group(1).split()
    assert families == list(app_page_css.UNUSED_FAMILIES)
    assert 'class="jp-Notebook"' in html
    assert app_page_css.cut_app_page_css(page, site) == ["app.html: its style sheets are cut already"]
    assert page.read_text() == html


@pytest.mark.parametrize("theme, words", [
    (".jp-Cell { padding: 2px; }", "no inline style sheet of 100000 bytes"),
    (".jp-Cell { padding: 2px; }\n" * 9000, "expected a cut of 25%"),
    (THEME + ".jp-Cell { padding: 2px;\n", "unbalanced braces"),
])
def test_a_page_not_like_voicis_stops_the_build_naming_it(tmp_path, theme, words):
    site, page = _site(tmp_path, theme)
    before = page.read_text()
    with pytest.raises(app_page_css.AppPageCssError, match=words) as info:
        app_page_css.cut_app_page_css(page, site)
    assert str(page) in str(info.value)
    assert page.read_text() == before  # nothing half-written
