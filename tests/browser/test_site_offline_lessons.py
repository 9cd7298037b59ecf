"""Offline, lessons 03 and 04 run to the end with "Run all" (issue 18, item 2), in the built offline site.

The offline site has no numpy, pandas or matplotlib. Before issue 18, lesson 03's first cell imported the
kit's numpy simulator and lesson 04's first cell matplotlib: the one sentence was shown for that cell, every
later cell failed with a ``NameError`` traceback, and "Run all" stopped at the first failure. Now the site's
kernel start-up (site-src/safari_site) shows one sentence for a cell that needs those packages and reports no
error, and the lessons keep such parts in cells of their own. For each lesson this test opens the learners'
copy in JupyterLite (both lessons in one page since issue 28, each with a kernel of its own), runs "Run all"
and checks:

* the run reaches the end: every code cell has an execution count;
* no cell has an error output, and no output shows a traceback;
* the cells that need numpy (the Monte Carlo cells, 04's plots and tables) show the sentence, once each, and
  the exact parts show their numbers.

tests/test_offline_lessons.py checks every lesson the same way without a browser. Uses the session-scoped
offline site of tests/browser/site_fixtures.py (built once per run).
"""
from __future__ import annotations

import time

import pytest

from tests.browser.helpers import screenshot
from tests.browser.site_fixtures import FRIENDLY, KERNEL_IDLE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: lesson -> (code that shows the sentence offline, text an exact cell prints offline)
LESSONS = {
    "notebooks/03-challenge.ipynb": (["streak_estimate(S, N, places", "simulate_streaks(S - known"],
                                     ["best play:", "-> stop", "safe place(s): P(reach 4 safe) ="]),
    "notebooks/04-knockout.ipynb": (["import numpy as np", "simulate_knockout(20_000", "ranks = pd.DataFrame"],
                                    ["Lion: weight", "Best lead:", "decided by the tie rule", "Best first play:"]),
}

CELLS = """() => window.jupyterapp.shell.currentWidget.model.sharedModel.cells
                 .filter(c => c.cell_type === 'code').map(c => c.toJSON())"""


def _text(output: dict) -> str:
    if output.get("output_type") == "stream":
        text = output.get("text", "")
    elif output.get("output_type") == "error":
        text = "\n".join(output.get("traceback", []))
    else:
        text = output.get("data", {}).get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def test_offline_lessons_run_to_the_end_with_one_sentence_per_numpy_cell(site_page, js_errors, offline_site):
    """Lessons 03 and 04, one after the other in one page (issue 28: one load of the site's JupyterLab, not two;
    each lesson has a kernel of its own, 03's shut down before 04 opens)."""
    page = site_page
    page.set_viewport_size({"width": 1366, "height": 768})
    first, second = LESSONS
    page.goto(f"{offline_site.url}lab/index.html?path={first}", wait_until="domcontentloaded")
    _run_all_and_check(page, first)
    page.evaluate("""async (path) => {
        const w = window.jupyterapp.shell.currentWidget;
        await w.sessionContext.shutdown();
        w.dispose();
        await window.jupyterapp.commands.execute('docmanager:open', {path});
    }""", second)
    _run_all_and_check(page, second)
    assert not page.outside, f"requests to other hosts: {page.outside}"


def _run_all_and_check(page, lesson: str) -> None:
    """``lesson`` opening in the page: its kernel idle, Run all, then every check of the module's docstring."""
    t0 = time.perf_counter()
    page.wait_for_function(KERNEL_IDLE, arg=lesson, timeout=120_000, polling=200)
    started = time.perf_counter() - t0
    page.evaluate("""() => {
        window.__safariRun = null;
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(
            (ok) => { window.__safariRun = {ok: ok !== false}; },
            (err) => { window.__safariRun = {ok: false, error: String(err)}; });
    }""")
    page.wait_for_function("""() => {
        if (!window.__safariRun) return false;
        const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        return k && k.status === 'idle';
    }""", timeout=240_000, polling=200)
    print(f"\n{lesson}: kernel idle {started:.1f} s, Run all {time.perf_counter() - t0 - started:.1f} s")
    cells = page.evaluate(CELLS)
    source = ["".join(c["source"]) for c in cells]
    texts = ["\n".join(_text(o) for o in c.get("outputs", [])) for c in cells]

    not_run = [s.splitlines()[0] for s, c in zip(source, cells) if c.get("execution_count") is None]
    assert not not_run, f"{lesson}: Run all stopped before these cells: {not_run}"
    assert page.evaluate("() => window.__safariRun.ok"), (lesson, page.evaluate("() => window.__safariRun"))
    errors = [(s.splitlines()[0], o.get("ename"), o.get("evalue")) for s, c in zip(source, cells)
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, (lesson, errors)
    shown = [s.splitlines()[0] for s, t in zip(source, texts) if "Traceback" in t or "Error" in t]
    assert not shown, f"{lesson}: outputs with a traceback or an error: {shown}"

    numpy_cells, exact_texts = LESSONS[lesson]
    for code in numpy_cells:
        at = [i for i, s in enumerate(source) if code in s]
        assert len(at) == 1, (lesson, code, at)
        assert texts[at[0]].count(FRIENDLY) == 1, (lesson, code, texts[at[0]])
    assert all(t.count(FRIENDLY) <= 1 for t in texts), lesson
    everything = "\n".join(texts)
    missing = [t for t in exact_texts if t not in everything]
    assert not missing, f"{lesson}: exact parts that did not print: {missing}"

    # what a learner sees: the first numpy cell, its sentence, and the exact cell after it
    first = next(i for i, t in enumerate(texts) if FRIENDLY in t)
    page.evaluate("""(i) => { const w = window.jupyterapp.shell.currentWidget;
                              w.content.activeCellIndex = i; w.content.scrollToItem(i, 'start'); }""",
                  _cell_index(page, first))
    page.wait_for_timeout(500)
    screenshot(page, f"issue18-offline-{lesson.split('/')[1].split('.')[0]}")


def _cell_index(page, code_index: int) -> int:
    """The notebook index (markdown cells counted) of the ``code_index``-th code cell."""
    return page.evaluate("""(n) => { const cells = window.jupyterapp.shell.currentWidget.model.sharedModel.cells;
        let k = -1; for (let i = 0; i < cells.length; i++) if (cells[i].cell_type === 'code' && ++k === n) return i;
        return 0; }""", code_index)
