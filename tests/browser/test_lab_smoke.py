"""Smoke test of the browser harness: JupyterLab renders the kit's HTML and widgets.

A tiny notebook (written into the server's temporary root) imports safari_kit,
shows a Witness state through ``_repr_html_``, an ipywidgets Button wired to a
Label, and an inline anywidget whose clicks reach Python. The test runs all
cells in JupyterLab (headless Debian chromium), checks that everything renders
with no cell error, no widget error and no JS error, drives both widgets by
clicking (the click -> Python -> DOM round trip), and saves screenshots
``test-artifacts/lab-smoke.png`` and ``test-artifacts/lab-smoke-clicked.png``.

Both tests open their notebook in the process's one JupyterLab page (tests/browser/lab_tab.py; issue 28: the
page was loaded once per test).
"""
from __future__ import annotations

import json

import pytest

from tests.browser.helpers import (
    assert_clean, click_latency_ms, current_notebook, latency_summary, output_texts, screenshot,
    widget_errors, widget_views, write_notebook,
)
from tests.browser.lab_tab import lab_tab, switch_and_run, tab_page  # noqa: F401 - lab_tab: the fixture

pytestmark = pytest.mark.browser
#: the process's JupyterLab page, at conftest's ``page`` size, console errors counted as there
page = tab_page(1400, 900, console=True)

CELLS = [
    ("markdown", "# Harness smoke test"),
    "import safari_kit\n"
    "state = safari_kit.WitnessGame(players=3).new_initial_state(seed=42)\n"
    "state",
    "import ipywidgets as w\n"
    "button = w.Button(description='Smoke button')\n"
    "label = w.Label('clicks 0')\n"
    "label.add_class('smoke-label')\n"
    "clicks = 0\n"
    "def on_click(_):\n"
    "    global clicks\n"
    "    clicks += 1\n"
    "    label.value = f'clicks {clicks}'\n"
    "button.on_click(on_click)\n"
    "w.VBox([button, label])",
    "import anywidget, traitlets\n"
    "class Smoke(anywidget.AnyWidget):\n"
    "    _esm = '''\n"
    "    function render({ model, el }) {\n"
    "      const span = document.createElement('button');\n"
    "      span.className = 'smoke-anywidget';\n"
    "      const update = () => { span.textContent = 'anywidget count ' + model.get('count'); };\n"
    "      model.on('change:count', update); update();\n"
    "      span.addEventListener('click', () => { model.set('count', model.get('count') + 1); "
    "model.save_changes(); });\n"
    "      el.appendChild(span);\n"
    "    }\n"
    "    export default { render };\n"
    "    '''\n"
    "    count = traitlets.Int(0).tag(sync=True)\n"
    "seen = w.Label('python saw 0')\n"
    "seen.add_class('smoke-seen')\n"
    "smoke = Smoke()\n"
    "smoke.observe(lambda ch: setattr(seen, 'value', f'python saw {ch.new}'), names='count')\n"
    "w.VBox([smoke, seen])",
    "print('smoke ok', safari_kit.__version__)",
]


def test_lab_renders_kit_html_and_widgets(page, js_errors, lab_server):
    write_notebook(lab_server.root / "smoke" / "lab-smoke.ipynb", CELLS)
    run = switch_and_run(page, lab_server, "smoke/lab-smoke.ipynb", name="lab-smoke")
    assert run.ok, run.errors
    assert_clean(page, js_errors, run)

    # the Witness state's HTML table
    table = current_notebook(page).locator(".jp-RenderedHTMLCommon", has_text="Unidentified Area")
    assert table.count() == 1
    assert "Safari Witness (the public table" in table.inner_text()
    assert table.locator("table tr").count() >= 6
    assert any("smoke ok" in t for t in output_texts(page))

    # both widget outputs rendered, with real widget DOM inside
    assert widget_views(page).count() == 2
    button = page.locator(".widget-button", has_text="Smoke button")
    assert button.is_visible()
    anyw = page.locator("button.smoke-anywidget")
    assert anyw.is_visible() and anyw.inner_text() == "anywidget count 0"

    # ipywidgets: click -> on_click in the kernel -> Label updates in the page
    samples = [click_latency_ms(page, ".widget-button", ".smoke-label") for _ in range(5)]
    page.locator(".smoke-label", has_text="clicks 5").wait_for(timeout=10_000)
    print("\nButton click -> Label round trip (ms):", latency_summary(samples), [round(s, 1) for s in samples])

    # anywidget: JS sets a synced trait -> Python observer -> another widget updates
    anyw.click()
    page.locator("button.smoke-anywidget", has_text="anywidget count 1").wait_for(timeout=10_000)
    page.locator(".smoke-seen", has_text="python saw 1").wait_for(timeout=10_000)

    screenshot(page, "lab-smoke-clicked")
    assert_clean(page, js_errors)


NEGATIVE_CELLS = [
    # a view of a model that does not exist (what a saved notebook shows on reopen)
    "from IPython.display import display\n"
    "display({'application/vnd.jupyter.widget-view+json':\n"
    "         {'model_id': 'no-such-model', 'version_major': 2, 'version_minor': 0}}, raw=True)",
    # a widget whose front-end module the server lacks (like anywidget missing from
    # the server's environment)
    "import ipywidgets as w, traitlets\n"
    "class Orphan(w.DOMWidget):\n"
    "    _model_module = traitlets.Unicode('safari-no-such-module').tag(sync=True)\n"
    "    _model_module_version = traitlets.Unicode('1.0.0').tag(sync=True)\n"
    "    _model_name = traitlets.Unicode('OrphanModel').tag(sync=True)\n"
    "    _view_module = traitlets.Unicode('safari-no-such-module').tag(sync=True)\n"
    "    _view_module_version = traitlets.Unicode('1.0.0').tag(sync=True)\n"
    "    _view_name = traitlets.Unicode('OrphanView').tag(sync=True)\n"
    "Orphan()",
    "1 / 0",
]


def test_harness_reports_widget_cell_and_js_errors(page, js_errors, lab_server):
    """Control: the checks used by assert_clean really fire on broken output."""
    write_notebook(lab_server.root / "smoke" / "lab-broken.ipynb", NEGATIVE_CELLS)
    run = switch_and_run(page, lab_server, "smoke/lab-broken.ipynb", name="lab-smoke-broken")
    assert not run.ok and any(e.startswith("ZeroDivisionError") for e in run.errors), run
    errs = widget_errors(page)
    assert any("No version of module safari-no-such-module is registered" in e for e in errs), errs
    assert any("Error displaying widget" in e or "not found" in e.lower() for e in errs), errs
    page.evaluate("() => setTimeout(() => { throw new Error('harness-boom'); })")
    page.wait_for_timeout(200)
    assert any("harness-boom" in e for e in js_errors), js_errors
    with pytest.raises(AssertionError):
        assert_clean(page, js_errors, run)
    print("\ncollected:", json.dumps({"widget": errs, "js": js_errors}, indent=1))
    js_errors.clear()
