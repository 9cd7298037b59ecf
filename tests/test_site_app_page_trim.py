"""The app page's trim at build time (site-src/app_page_trim.py, issue 31): no browser, a page like Voici's."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site-src"))

import app_page_trim  # noqa: E402

CONFIG = {"federated_extensions": [{"name": "@jupyterlite/pyodide-kernel-extension", "load": "a.js"},
                                   {"name": "anywidget", "load": "b.js"},
                                   {"name": "jupyterlab_pygments", "load": "c.js", "style": "./style"}],
          "notebookPath": "notebooks/app.ipynb"}
#: JupyterLab's theme, as big as the real one, mostly rules of parts of JupyterLab no Voici page builds
THEME = "<style>" + "".join(f".jp-DirListing-item{i} {{ color: red; }}\n" for i in range(4000)) + "</style>"
PAGE = ("<html><head><style>\n    .spinner {\n      animation: rotation 2s infinite linear;\n    }\n</style>" + THEME
        + '</head><body><script id="jupyter-config-data" type="application/json">%s</script></body></html>')


def _config(html: str) -> dict:
    return json.loads(re.search(r'type="application/json">(.*?)</script>', html, re.S).group(1))


def test_the_app_page_loads_no_code_colourer_and_its_spinner_stands_still(tmp_path):
    page = tmp_path / "app.html"
    page.write_text(PAGE % json.dumps(CONFIG))
    done = app_page_trim.trim_app_page(page)
    html = page.read_text()
    names = [e["name"] for e in _config(html)["federated_extensions"]]
    assert names == ["@jupyterlite/pyodide-kernel-extension", "anywidget"], names
    assert "animation: none;" in html and "infinite linear" not in html
    assert _config(html)["notebookPath"] == "notebooks/app.ipynb"  # the rest of the config as it was
    assert any("jupyterlab_pygments" in line for line in done), done
    # JupyterLab's theme cut to what the app shows (site-src/app_page_css.py; tests/test_site_app_page_css.py)
    assert "jp-DirListing-item" not in html and "data-safari-css-dropped" in html
    assert any("inline style sheets" in line for line in done), done
    assert app_page_trim.trim_app_page(page) == ["app.html: trimmed already"] and page.read_text() == html


@pytest.mark.parametrize("page_text, words", [
    ("<html><body>no config</body></html>", "no jupyter-config-data"),
    (PAGE.replace("infinite linear", "infinite ease") % json.dumps(CONFIG), "spinner rule"),
    (PAGE % json.dumps({"notebookPath": "x"}), "no federated_extensions"),
    (PAGE.replace(THEME, "") % json.dumps(CONFIG), "no inline style sheet"),
])
def test_a_page_not_like_voicis_stops_the_build_naming_page_and_what_is_missing(tmp_path, page_text, words):
    page = tmp_path / "app.html"
    page.write_text(page_text)
    with pytest.raises(app_page_trim.AppPageTrimError, match=words) as info:
        app_page_trim.trim_app_page(page)
    assert str(page) in str(info.value)
    assert page.read_text() == page_text  # nothing half-written
