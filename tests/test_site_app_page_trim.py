"""The app page's trim at build time (site-src/app_page_trim.py, issue 31): no browser, a page like Voici's."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
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


#: Voici's script folder as the build finds it (voici 0.10.0, minified): the shared modules in voici.js, the
#: start-up's list of plugins (MathJax's module among them), the tree page's start-up that reads the extensions too
VOICI_JS = ('var s={35328:()=>c("default","@voila-dashboards/voila",!1,[2,0,5,5]),'
            '44109:()=>c("default","@jupyterlab/mathjax-extension",!1,[1,4,5,0],(()=>x.e(926)))};')
START_UP = ('window.addEventListener("load",(async function(){const e=[n(51757).default,n(44222),n(24777),n(44109),'
            'n(55085),o.themesManagerPlugin,j],t=[];const l=JSON.parse(i.PageConfig.getOption("federated_extensions"))'
            '}));')
TREE = 'const l=JSON.parse(i.PageConfig.getOption("federated_extensions")),e=[n(51757),n(12)];'


def _voici_build(folder: Path, start_up: str = START_UP) -> Path:
    folder.mkdir()
    (folder / "voici.js").write_text(VOICI_JS)
    (folder / "5981.js").write_text(start_up)
    (folder / "8608.js").write_text(TREE)
    return folder


def test_the_app_page_starts_voici_without_mathjax_and_the_other_pages_with_it(tmp_path):
    """Issue 31 (session 8): Voici started JupyterLab's MathJax plugin on the app page, and ipywidgets handed every
    description to it: some 800 KB of MathJax's scripts ran on every visit, for no formula. Voici's start-up
    leaves the plugin out where the page's config says so, and only the app page's config says so."""
    page = tmp_path / "app.html"
    page.write_text(PAGE % json.dumps(CONFIG))
    app_page_trim.trim_app_page(page)
    assert _config(page.read_text())[app_page_trim.NO_MATHJAX] == "1"
    build = _voici_build(tmp_path / "build")
    line = app_page_trim.skip_mathjax(build)
    assert "44109" in line and "5981.js" in line
    start_up = (build / "5981.js").read_text()
    # the plugin list holds an empty list where the page says so, else the plugin as before
    assert '?[]:n(44109)),n(55085)' in start_up and 'i.PageConfig.getOption("safari_no_mathjax")' in start_up
    assert start_up.count("n(44109)") == 1 and (build / "8608.js").read_text() == TREE
    if shutil.which("node"):  # the patched start-up still parses, and starts the plugins the page asks for
        listed = start_up.replace(",t=[];", ",t=[];console.log(JSON.stringify(e.flat().map((x)=>x.default||x)"
                                            ".filter((x)=>x!=='other')));")
        for option, plugins in (("1", ["services", "theme"]), ("", ["services", "mathjax", "theme"])):
            probe = ("const i={PageConfig:{getOption:(k)=>k==='safari_no_mathjax'?'%s':'[]'}};"
                     "const n=(k)=>k===44109?'mathjax':k===51757?{default:'services'}:'other';"
                     "const o={themesManagerPlugin:'theme'},j=[];let go;"
                     "const window={addEventListener:(_,f)=>{go=f;}};%s;go();" % (option, listed))
            out = subprocess.run(["node", "-e", probe], capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr
            assert json.loads(out.stdout) == plugins
    assert "already" in app_page_trim.skip_mathjax(build) and (build / "5981.js").read_text() == start_up


@pytest.mark.parametrize("start_up, words", [
    (START_UP.replace("n(44109),", ""), "expected one"),
    (START_UP.replace("n(44109),", "n(44109),n(44109),"), "required 2 times"),
])
def test_voicis_start_up_not_as_expected_stops_the_build(tmp_path, start_up, words):
    build = _voici_build(tmp_path / "build", start_up)
    with pytest.raises(app_page_trim.AppPageTrimError, match=words):
        app_page_trim.skip_mathjax(build)
    assert (build / "5981.js").read_text() == start_up
