"""Helpers for browser tests: JupyterLab in Debian's chromium, driven by Playwright.

Fixtures (tests/browser/conftest.py)
------------------------------------
``chromium_path``  path of Debian's chromium. Missing: skip on a laptop, fail when CI=true.
``lab_server``     session-scoped :class:`LabServer`: JupyterLab from the test venv on a
                   free 127.0.0.1 port with a random token, ``expose_app_in_browser`` on.
                   Its root (``lab_server.root``) is a temporary folder holding a copy of
                   ``notebooks/`` (as ``notebooks/``) and ``data/``; tests may write their
                   own notebooks there. Fresh settings/workspaces; no news/update popups.
                   ``lab_server.lab_url("notebooks/00-start-here.ipynb")`` is the page URL
                   (with ``?reset``: each page starts from an empty workspace, so only
                   the notebook you open is on screen). Kernels run the test venv's
                   Python; ``lab_server.log_tail()`` gives the server log.
``browser``        session-scoped Playwright ``Browser`` (headless chromium).
``js_errors``      list collecting the page's console errors and uncaught page errors
                   (strings; known-harmless messages in ``IGNORED_CONSOLE`` left out).
``page``           a new Playwright ``Page`` (1400x900) in the process's warm context (its HTTP
                   cache kept, its storage, cookies and pages reset after each test: conftest's
                   ``WarmContexts``), feeding ``js_errors``; on a failing test a screenshot is saved
                   as ``test-artifacts/<test name>-failure.png``. ``fresh_page``: the same in a
                   context of its own, for a test whose subject is a first visit or isolation.
``voila_app``      the app (``make app``) served by Voilà from a fresh copy; ``voila_app.url``.
                   One server per set of settings (environment) for the run, shared by the modules
                   that start it alike; each module starts with no kernel running and its kernels
                   are shut down at its end. A module that sets an environment variable in an
                   autouse module fixture first (test_face_up_browser.py) gets its own server.

Helpers (this module; ``from tests.browser.helpers import ...``)
----------------------------------------------------------------
``write_notebook(path, cells)``                 cells: code strings, or ("markdown", text).
``open_notebook(page, server, path)``           open a notebook, wait for its kernel idle,
                                                collapse the left sidebar.
``run_all_cells(page, timeout=120_000)``        ``notebook:run-all-cells`` via
                                                ``window.jupyterapp``, wait until done and
                                                the kernel is idle; -> :class:`RunResult`
                                                (``ok``, ``seconds``, ``errors`` = error
                                                outputs as "EName: value").
``open_and_run(page, server, path, name=None)`` both, then ``settle`` and a screenshot
                                                (``test-artifacts/<name>.png``); -> RunResult.
``settle(page)``                                wait until no widget output still says
                                                "Loading widget..." (rendered or failed).
``widget_views(page)``                          locator of the output nodes whose output is a
                                                widget view (``[data-safari-widget=<model id>]``).
``widget_errors(page)``                         widget failures as text: broken-widget icons
                                                (clicked open to read e.g. "Failed to load
                                                model class ... | Error: No version of module
                                                anywidget is registered") and texts such as
                                                "Error displaying widget: model not found".
``current_notebook(page)``                      locator of the notebook panel in front.
``output_texts(page)``                          inner text of every output, in order.
``assert_clean(page, js_errors, run=None)``     no cell error, no widget error, no JS error.
``screenshot(page, name)``                      ``test-artifacts/<name>.png`` (the viewport).
``click_latency_ms(page, click_selector, watch_selector, timeout_ms=5000)``
                                                click the first element matching
                                                ``click_selector`` in-page and time (ms,
                                                ``performance.now``) until the text or
                                                attributes under ``watch_selector`` change:
                                                the click -> kernel -> DOM round trip.
                                                Selectors are page-wide CSS (first match).
``latency_summary(samples)``                    {"n", "median", "p95", "max"} in ms.

Typical test::

    @pytest.mark.browser
    def test_lab(page, js_errors, lab_server):
        run = open_and_run(page, lab_server, "notebooks/02-identification.ipynb")
        assert_clean(page, js_errors, run)
        ms = [click_latency_ms(page, ".safari-place[data-legal]", ".safari-prob") for _ in range(30)]
        print(latency_summary(ms))
"""
from __future__ import annotations

import json
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
WIDGET_ERROR_TEXTS = (
    "Error displaying widget",
    "No version of module anywidget is registered",
    "No version of module",  # "... X is registered": the server lacks X's labextension
    "Failed to load model class",
    "Could not create a view",
    "Error creating widget",
    "Model not found",
)
# Console messages that are not the kit's fault (regexes).
IGNORED_CONSOLE = (
    r"favicon\.ico",
)


@dataclass
class RunResult:
    ok: bool
    seconds: float
    errors: list[str] = field(default_factory=list)


def write_notebook(path: Path, cells) -> Path:
    """Write a notebook (nbformat 4, python3 kernel). cells: code strings or (kind, source)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for cell in cells:
        kind, src = ("code", cell) if isinstance(cell, str) else cell
        nb.cells.append(nbformat.v4.new_code_cell(src) if kind == "code" else nbformat.v4.new_markdown_cell(src))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


_PANEL = "window.jupyterapp && window.jupyterapp.shell.currentWidget"


def open_notebook(page, server, path: str, timeout: float = 90_000) -> None:
    """Open ``path`` (relative to the server root) in JupyterLab; wait for an idle kernel."""
    page.goto(server.lab_url(path), wait_until="domcontentloaded", timeout=timeout)
    _wait_for_idle_kernel(page, path, timeout)


def switch_notebook(page, server, path: str, timeout: float = 90_000) -> None:
    """Open ``path`` in the JupyterLab this page shows already, without loading JupyterLab again (its start
    costs Chromium a few CPU-seconds each time: issue 28); the notebooks open before are closed first and their
    kernels shut down, unsaved changes dropped. A page not showing JupyterLab yet: :func:`open_notebook`."""
    in_lab = page.url.startswith(server.url) and page.evaluate("() => !!(window.jupyterapp && window.jupyterapp.shell)")
    if not in_lab:
        return open_notebook(page, server, path, timeout)
    page.evaluate("""async (path) => {
        const app = window.jupyterapp;
        for (const w of Array.from(app.shell.widgets('main'))) {
            if (w.sessionContext) { try { await w.sessionContext.shutdown(); } catch (e) { /* gone already */ } }
            if (w.context && w.context.model) w.context.model.dirty = false;
            w.dispose();
        }
        await app.commands.execute('docmanager:open', {path});
    }""", path)
    _wait_for_idle_kernel(page, path, timeout)


def _wait_for_idle_kernel(page, path: str, timeout: float) -> None:
    page.wait_for_function(
        f"""(path) => {{
            const w = {_PANEL};
            if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
            const k = w.sessionContext.session && w.sessionContext.session.kernel;
            return !!(w.context.isReady && k && k.status === 'idle' && k.connectionStatus === 'connected');
        }}""",
        arg=path, timeout=timeout, polling=100,
    )
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # more notebook per screenshot


def run_all_cells(page, timeout: float = 120_000) -> RunResult:
    """Run every cell of the current notebook through the app's command registry."""
    t0 = time.perf_counter()
    page.evaluate("""() => {
        window.__safariRun = null;
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(
            (ok) => { window.__safariRun = {ok: ok !== false}; },
            (err) => { window.__safariRun = {ok: false, error: String(err)}; });
    }""")
    page.wait_for_function(
        f"""() => {{
            if (!window.__safariRun) return false;
            const w = {_PANEL};
            const k = w.sessionContext.session && w.sessionContext.session.kernel;
            const busy = w.content.widgets.some(c => c.model.type === 'code' &&
                c.promptNode && c.promptNode.textContent.includes('*'));
            return k && k.status === 'idle' && !busy;
        }}""",
        timeout=timeout, polling=100,
    )
    outcome = page.evaluate("() => window.__safariRun")
    errors = page.evaluate(f"""() => {{
        const w = {_PANEL};
        const out = [];
        for (const c of w.content.widgets) {{
            if (c.model.type !== 'code') continue;
            for (const o of c.model.outputs.toJSON())
                if (o.output_type === 'error') out.push(o.ename + ': ' + o.evalue);
        }}
        return out;
    }}""")
    if outcome.get("error"):
        errors.insert(0, outcome["error"])
    return RunResult(ok=bool(outcome.get("ok")) and not errors, seconds=time.perf_counter() - t0, errors=errors)


_TAG_WIDGETS = f"""() => {{
    // Mark the DOM node of every output whose model holds a widget view, so
    // tests can find widget outputs whatever the widget draws (ipywidgets
    // adds .jupyter-widgets, an anywidget's element has no class of its own).
    const w = {_PANEL};
    let n = 0;
    for (const c of (w && w.content ? w.content.widgets : [])) {{
        if (c.model.type !== 'code' || !c.outputArea) continue;
        c.model.outputs.toJSON().forEach((o, i) => {{
            const child = c.outputArea.widgets[i];
            if (!child || !o.data || !o.data['{WIDGET_MIME}']) return;
            const node = child.node.querySelector('.jp-OutputArea-output') || child.node;
            node.setAttribute('data-safari-widget', o.data['{WIDGET_MIME}'].model_id);
            n += 1;
        }});
    }}
    return n;
}}"""


def settle(page, timeout: float = 30_000) -> None:
    """Wait until every widget output has rendered something (or shows an error)."""
    page.evaluate(_TAG_WIDGETS)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-safari-widget]')]
                   .every(el => el.textContent.trim() !== 'Loading widget...' &&
                                (el.children.length > 0 || el.textContent.trim().length > 0))""",
        timeout=timeout, polling=100,
    )
    page.wait_for_timeout(300)  # let late CSS/layout land before screenshots


def widget_views(page):
    """Locator of the output nodes showing a widget view (data-safari-widget=<model id>)."""
    page.evaluate(_TAG_WIDGETS)
    return current_notebook(page).locator("[data-safari-widget]")


def current_notebook(page):
    """Locator of the notebook panel in front (other tabs may be open)."""
    node_id = page.evaluate(f"() => {{ const w = {_PANEL}; "
                            "if (!w.node.id) w.node.id = 'safari-' + Date.now(); return w.node.id; }")
    return page.locator(f'[id="{node_id}"]')


def output_texts(page) -> list[str]:
    return current_notebook(page).locator(".jp-Cell .jp-OutputArea-output").all_inner_texts()


def widget_errors(page) -> list[str]:
    """Widget failures on the page, as text.

    ipywidgets 8 draws a model that failed to load (e.g. "No version of module
    anywidget is registered" when the server's environment lacks anywidget) as
    a broken-page icon whose message shows only once clicked: each icon is
    clicked to read it. Text such as "Error displaying widget: model not found"
    (a saved view whose model is gone) is read from the notebook.
    """
    errors = []
    nb = current_notebook(page)
    icons = nb.locator(".jupyter-widgets-error-widget.icon-error")
    for _ in range(50):
        if icons.count() == 0:
            break
        try:
            icons.first.click(timeout=2_000)
        except Exception:  # not clickable: report what we have
            errors.append("widget error (icon, message not readable)")
            break
    for text in nb.locator(".jupyter-widgets-error-widget").all_inner_texts():
        lines = [ln.strip() for ln in text.splitlines()
                 if ln.strip() and not ln.strip().startswith(("at ", "[Open Browser Console"))]
        errors.append(" | ".join(lines) or "widget error")
    for line in nb.locator(".jp-Notebook").inner_text().splitlines():
        if any(marker in line for marker in WIDGET_ERROR_TEXTS) and not any(line.strip() in e for e in errors):
            errors.append(line.strip())
    return errors


def capture(page, path: Path) -> Path:
    """The page's viewport as a PNG at ``path``, for a person to look at (not compared by any test).

    Playwright's ``page.screenshot`` with ``caret="initial"``: by default Playwright first adds, then removes, a
    style sheet that hides the text caret, and each is a style recalculation of the whole page: 0.07-0.09 CPU-s a
    shot instead of 0.11-0.15, the same PNG (issue 28, session 12; some 330 shots a run). The DevTools protocol's
    ``Page.captureScreenshot`` with ``optimizeForSpeed`` from a session of the test's own was cheaper still
    (0.035), but the one fresh-clone run with it had the keyboard's and the touch screen's Challenge tests fail
    (a place that no key or tap reached), both on pages whose viewport a test had changed around a screenshot:
    not used. ``tools/screenshot_cost.py`` measures each way."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), caret="initial")
    return path


def screenshot(page, name: str) -> Path:
    """``test-artifacts/<name>.png``: the page's viewport (:func:`capture`)."""
    return capture(page, ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png")


def shot_on_failure(page, request) -> None:
    """A screenshot named after the test when its call failed (the page may be gone: then nothing)."""
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        try:
            print(f"\nscreenshot: {screenshot(page, request.node.name + '-failure')}")
        except Exception:  # noqa: BLE001 - the page may be gone
            pass


def open_and_run(page, server, path: str, name: str | None = None, timeout: float = 120_000) -> RunResult:
    open_notebook(page, server, path, timeout=timeout)
    run = run_all_cells(page, timeout=timeout)
    settle(page)
    screenshot(page, name or Path(path).stem)
    return run


def assert_clean(page, js_errors: list[str], run: RunResult | None = None) -> None:
    problems = []
    if run is not None and run.errors:
        problems.append("cell errors: " + json.dumps(run.errors, indent=1))
    werr = widget_errors(page)
    if werr:
        problems.append("widget errors: " + json.dumps(werr, indent=1))
    if js_errors:
        problems.append("JS errors: " + json.dumps(js_errors, indent=1))
    assert not problems, "\n".join(problems)


def click_latency_ms(page, click_selector: str, watch_selector: str, timeout_ms: float = 5000) -> float:
    """In-page time from a click to the first DOM change under ``watch_selector``."""
    return page.evaluate(
        """async ([clickSel, watchSel, timeoutMs]) => {
            const target = document.querySelector(clickSel);
            const watch = document.querySelector(watchSel);
            if (!target) throw new Error('nothing matches ' + clickSel);
            if (!watch) throw new Error('nothing matches ' + watchSel);
            return await new Promise((resolve, reject) => {
                const obs = new MutationObserver(() => {
                    obs.disconnect(); clearTimeout(timer); resolve(performance.now() - t0);
                });
                obs.observe(watch, {subtree: true, childList: true, characterData: true, attributes: true});
                const timer = setTimeout(() => {
                    obs.disconnect(); reject(new Error('no change within ' + timeoutMs + ' ms'));
                }, timeoutMs);
                const t0 = performance.now();
                target.click();
            });
        }""",
        [click_selector, watch_selector, timeout_ms],
    )


def latency_summary(samples) -> dict:
    s = sorted(samples)
    if not s:
        return {"n": 0}
    p95 = s[min(len(s) - 1, max(0, round(0.95 * len(s)) - 1))]
    return {"n": len(s), "median": round(statistics.median(s), 1), "p95": round(p95, 1), "max": round(s[-1], 1)}


#: a wait for the element ``sel`` to show a new ``data-step`` (the lab redrew after a click)
WAIT_STEP = "([sel, step]) => { const t = document.querySelector(sel); return t && t.dataset.step !== step; }"


def play_best_knockout_turn(page, lab: str, play) -> str:
    """One Knockout turn as the lab advises: its best card and, when leading, its best data item (the probability
    table's ``data-best-card`` / ``data-best-item``), then ``play`` (the Play button's locator, in the page's
    language). A click picks, Play plays; returns once the finished turn is shown, with the turn's phase
    ("lead" or "follow")."""
    table = f"{lab} .safari-prob-table"
    page.locator(f"{table}[data-phase='lead'], {table}[data-phase='follow']").first.wait_for(timeout=60_000)
    phase, step = page.locator(table).get_attribute("data-phase"), page.locator(table).get_attribute("data-step")
    card, item = (page.locator(table).get_attribute("data-best-card"),
                  page.locator(table).get_attribute("data-best-item"))
    page.locator(f"{lab} .safari-table .st-selectable[data-key='card:\"{card}\"']").click()
    page.wait_for_function(WAIT_STEP, arg=[table, step], timeout=30_000, polling=20)
    if phase == "lead":
        step = page.locator(table).get_attribute("data-step")
        page.locator(f"{lab} .safari-table .st-selectable[data-key='item:\"{item}\"']").click()
        page.wait_for_function(WAIT_STEP, arg=[table, step], timeout=30_000, polling=20)
    play.click()
    page.locator(f"{table}[data-phase='done'], {table}[data-phase='over']").first.wait_for(timeout=30_000)
    return phase
