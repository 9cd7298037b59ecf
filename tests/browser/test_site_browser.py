"""The offline static site (``make site OFFLINE=1``) in headless Debian chromium, served on 127.0.0.1.

The site is built once per run (conftest: ``offline_site``) and every page's requests are listened to on the
browser context, web workers included (the Pyodide kernel runs in one): any request to another host fails the
test. What runs:

* the build itself: a Pyodide lock of local files only (sha256 checked), ``disablePyPIFallback``, no source
  map, no page that names another host;
* a lesson in JupyterLite: it says that Python is starting until its kernel is idle (issue 18: the words are
  tests/browser/test_site_startup.py's, one visit for both since issue 28), the kernel starts, the lesson is
  not marked changed (its kernelspec is the site kernel's), an ipywidgets slider and an anywidget render, and a
  click on the anywidget reaches Python and comes back; a cell that imports numpy shows the start-up check's
  one sentence, no traceback;
* the app page (Voici: the labs without code): it says that Python is starting from its first seconds and the
  next visit says this browser's own time (test_site_startup's words, the same visit since issue 28), its
  kernel starts from the site's own runtime, the page shows the app with no traceback, and it plays one
  Identification turn and one Knockout trick by clicking (one page for both since issue 28);
* where schools put the site (issue 18): reached over plain http by a school-network name (no secure
  context: no service worker) the app page plays an Identification turn and a lesson's kernel reads the
  cards; opened as a file, every page says in one sentence how to open it;
* what the site serves to learners (issue 17): JupyterLite's files/, its contents index (api/contents) and
  Voici's rendered pages hold the student copies, answer-free (the leak detector finds nothing), and no
  teacher's copy (those go in only with ``make site TEACHER=1``).
"""
from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path

import pytest

from tests.browser.helpers import current_notebook, play_best_knockout_turn, screenshot
from tests.browser.test_app_voila import (
    app_errors, button, click_and_wait_change, identification_result, open_lab, pick_best_declaration,
)
from tests.browser.a11y import describe, failing, run_axe
from tests.test_site_versioned import vr
from tests.browser.site_fixtures import (  # noqa: F401 - the two *_fixture: school_browser, school_page
    APP, FRIENDLY, KERNEL_IDLE, LESSON, NO_SERVER, REPO, school_browser_fixture, school_page_fixture,
    school_url,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGETS = '''\
import ipywidgets as W, anywidget, traitlets

class Echo(anywidget.AnyWidget):
    _esm = """export default { render({ model, el }) {
        const b = document.createElement("button"); b.className = "site-echo-btn"; b.textContent = "echo";
        const out = document.createElement("span"); out.className = "site-echo"; out.textContent = "0";
        b.onclick = () => { model.set("ping", model.get("ping") + 1); model.save_changes(); };
        model.on("change:pong", () => { out.textContent = String(model.get("pong")); });
        el.append(b, out); } }"""
    ping = traitlets.Int(0).tag(sync=True)
    pong = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("ping")
    def _echo(self, change):
        self.pong = change["new"] * 10

W.VBox([W.IntSlider(value=7, description="site slider"), Echo()])
'''


def test_offline_build_is_self_contained(offline_site):
    root = offline_site.root
    print(f"\nmake site OFFLINE=1: {offline_site.build_seconds:.0f} s")
    runtime = vr.runtime_folder(root)
    assert vr.VERSIONED.match(runtime.name) and runtime.name == f"pyodide-{vr.folder_digest(runtime)}", runtime
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    for name, entry in lock["packages"].items():
        path = runtime / entry["file_name"]
        assert path.is_file(), f"lock entry {name}: no local file {entry['file_name']}"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], f"{name}: sha256 differs"
    for needed in ("micropip", "ipython", "ipywidgets", "anywidget", "safari-kit", "safari-site", "pyodide-kernel"):
        assert needed in lock["packages"], needed
    config = json.loads((root / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["pyodideUrl"] == f"./static/{runtime.name}/pyodide.js"
    assert not list(root.rglob("*.map")), "source maps left in the offline site"
    for page in root.rglob("*.html"):
        text = page.read_text()
        assert 'href="https://' not in text and 'src="https://' not in text and "cdnjs" not in text, page
    assert (root / "files" / "data" / "cards.csv").is_file()
    assert (root / "files" / "notebooks" / "app.ipynb").is_file()


def _cells(nb: dict) -> list[tuple[str, str]]:
    return [(c["cell_type"], "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for c in nb["cells"]]


def _answer_free(nb: dict, name: str) -> list[str]:
    """What in a served notebook gives answers away: the leak detector's finds, solution or teacher cells."""
    from safari_kit.authoring.answer_leaks import find_leaks
    from safari_kit.authoring.student import TEACHER_ONLY

    found = [str(leak) for leak in find_leaks(nb, name, recaps=True)]
    for kind, source in _cells(nb):
        if kind == "markdown" and TEACHER_ONLY.search(source):
            found.append(f"{name}: teacher-only text {TEACHER_ONLY.search(source).group(0)!r}")
    found += [f"{name}: a cell tagged {c['metadata']['tags']}" for c in nb["cells"]
              if {"solution", "teacher"} & set(c.get("metadata", {}).get("tags", []))]
    return found


def test_the_site_serves_learners_the_answer_free_student_copies(offline_site, tmp_path):
    """files/, the contents index and Voici's pages hold exactly the student copies, none with an answer."""
    from safari_kit.authoring.student import write_student_copies

    root = offline_site.root
    assert json.loads((root / "BUILD.json").read_text())["teacher"] is False
    # every language's lessons (notebooks/es/, issue 30), keyed by their path under notebooks/
    students = {p.relative_to(tmp_path).as_posix(): json.loads(p.read_text())
                for p, _ in write_student_copies(REPO / "notebooks", tmp_path, languages=True)}
    served = {p.relative_to(root / "files").as_posix(): p for p in (root / "files").rglob("*.ipynb")}
    assert set(served) == {f"notebooks/{name}" for name in students}, sorted(served)   # no teacher/ folder
    problems = []
    for rel, path in served.items():
        nb = json.loads(path.read_text())
        assert _cells(nb) == _cells(students[rel.removeprefix("notebooks/")]), f"{rel} is not the student copy"
        problems += _answer_free(nb, Path(rel).name)
    # the contents index (what JupyterLite's file browser lists), and any content it carries
    index = {p.relative_to(root / "api" / "contents").as_posix(): json.loads(p.read_text())
             for p in (root / "api" / "contents").rglob("all.json")}
    assert sorted(e["name"] for e in index["all.json"]["content"]) == ["data", "docs", "notebooks"]
    listed = {e["path"] for d in index.values() for e in d["content"] if e["path"].endswith(".ipynb")}
    assert listed == set(served)
    for d in index.values():
        for e in d["content"]:
            if isinstance(e.get("content"), dict) and e["path"].endswith(".ipynb"):
                problems += _answer_free(e["content"], e["name"])
    # Voici's pages carry their notebook (notebookSrc in the page's config)
    pages = list((root / "voici" / "render").rglob("*.html"))
    assert {p.relative_to(root / "voici" / "render").with_suffix(".ipynb").as_posix() for p in pages} == set(served)
    config = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
    for page in pages:
        nb = json.loads(config.search(page.read_text()).group(1))["notebookSrc"]
        rel = page.relative_to(root / "voici" / "render" / "notebooks").with_suffix(".ipynb").as_posix()
        assert _cells(nb) == _cells(students[rel]), page
        problems += _answer_free(nb, page.with_suffix(".ipynb").name)
    assert not problems, "\n".join(problems)


DIRTY = """() => {
    const w = window.jupyterapp.shell.currentWidget;
    return {model: w.context.model.dirty, marks: document.querySelectorAll('.jp-mod-dirty').length};
}"""


def test_lesson_says_python_is_starting_then_its_kernel_and_widgets_work_offline(site_page, js_errors,
                                                                                 offline_site):
    """Lesson 02's page says that Python is starting until the lesson's kernel is idle (issue 18, items 3 and 5:
    tests/browser/test_site_startup.py's words and figures), the kernel starts offline, the lesson is not marked
    changed, widgets render and answer, a numpy cell shows one sentence; and the lab's page opened on no notebook
    says nothing (no kernel starts there). One visit of the lesson since issue 28 (they were two tests, one
    Python start each)."""
    from tests.browser.test_site_startup import _note, _open_until_the_sentence

    page = site_page
    t0 = time.perf_counter()
    _open_until_the_sentence(page, f"{offline_site.url}lab/index.html?path={LESSON}", "issue18-lesson-starting")
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=120_000, polling=200)
    print(f"\nlesson: kernel idle {time.perf_counter() - t0:.1f} s after opening the page")
    page.wait_for_function("() => !document.getElementById('safari-starting')", timeout=5_000)
    stored = float(page.evaluate("() => localStorage.getItem('safari_kit.lesson_startup_seconds')"))
    assert 1 < stored < 120, stored
    # no unsaved-changes mark on open (item 4): the lesson carries the site kernel's kernelspec
    page.wait_for_timeout(3000)          # the kernel's info (language_info) lands after idle
    served = json.loads((offline_site.root / "files" / LESSON).read_text())["metadata"]
    model = page.evaluate("() => window.jupyterapp.shell.currentWidget.model.toJSON().metadata")
    assert model["kernelspec"] == served["kernelspec"] and model["language_info"] == served["language_info"], model
    assert page.evaluate(DIRTY) == {"model": False, "marks": 0}
    page.evaluate("""(code) => {
        const w = window.jupyterapp.shell.currentWidget;
        w.model.sharedModel.insertCell(0, {cell_type: 'code', source: code});
        w.content.activeCellIndex = 0;
        return window.jupyterapp.commands.execute('notebook:run-cell');
    }""", WIDGETS)
    page.locator(".widget-slider").first.wait_for(timeout=60_000)
    # control: that edit (a cell more) is marked, so the check above can see a change
    page.wait_for_function("() => document.querySelectorAll('.jp-mod-dirty').length > 0", timeout=10_000)
    assert page.evaluate(DIRTY)["model"] is True
    page.locator(".site-echo-btn").click()
    page.wait_for_function("() => document.querySelector('.site-echo').textContent === '10'", timeout=30_000)
    screenshot(page, "site-lesson-widgets")
    errors = page.evaluate("""() => window.jupyterapp.shell.currentWidget.model.sharedModel.cells[0]
                              .toJSON().outputs.filter(o => o.output_type === 'error').map(o => o.ename)""")
    assert not errors, errors
    # a cell that needs numpy: one sentence, no traceback
    page.evaluate("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        w.model.sharedModel.insertCell(0, {cell_type: 'code', source: 'import numpy as np'});
        w.content.activeCellIndex = 0;
        return window.jupyterapp.commands.execute('notebook:run-cell');
    }""")
    first_output = current_notebook(page).locator(".jp-Cell").first.locator(".jp-OutputArea-output")
    first_output.first.wait_for(timeout=30_000)
    text = first_output.first.inner_text()
    assert FRIENDLY in text and "Traceback" not in text and "File " not in text, text
    assert not page.outside, f"requests to other hosts: {page.outside}"

    page.goto(f"{offline_site.url}lab/index.html", wait_until="domcontentloaded")  # no notebook: no kernel
    page.wait_for_timeout(1_500)
    assert _note(page) == "", _note(page)
    assert not js_errors, js_errors


def test_app_page_says_python_is_starting_then_plays_identification_and_knockout_offline(site_page, js_errors,
                                                                                         offline_site):
    """The app page says that Python is starting from its first seconds and the app replaces the sentence; the
    next visit says this browser's own time (issue 18, items 3 and 5; issue 31: no code colourer, a still
    spinner, the sentence changed only when its words change: tests/browser/test_site_startup.py's words and
    figures). The page starts its kernel offline, with no traceback and no request to another host, and the kit
    plays without numpy (issue 13, part 1): one Identification turn and one Knockout trick. axe-core finds no
    critical or serious violation in the app (the chooser, Identification after a turn, Knockout just opened; it
    was tests/browser/test_a11y_axe_site.py, a page of its own, until issue 28). One visit since issue 28: the
    start-up sentence's test (test_site_startup) had a visit of its own, a Python start more.

    The learner joins the class experiment first (issue 21, no class server): the page keeps their records
    and offers them as a file (Download my results), sending nothing anywhere."""
    from tests.browser.test_class_experiment_browser import join, page_records
    from tests.browser.test_site_startup import COUNT_CHANGES, KEY, STARTING, _note, _open_until_the_sentence
    from tests.browser.test_site_startup import _wait_for_the_sentence

    from tests.browser.conftest import QUIET_MOTION

    page = site_page
    page.set_viewport_size({"width": 1366, "height": 768})  # a school laptop, for axe's look too
    page.emulate_media(reduced_motion="no-preference")  # the spinner as most learners have it (quiet below)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.add_init_script(COUNT_CHANGES)
    t0 = time.perf_counter()
    shown, first = _open_until_the_sentence(page, offline_site.url + APP, "issue18-app-starting")
    spinner = page.evaluate("() => { const s = document.querySelector('#loading .spinner');"
                            " return s && getComputedStyle(s).animationName; }")
    assert spinner == "none", spinner
    page.emulate_media(reduced_motion=QUIET_MOTION)  # no card glows while the labs play (site_fixtures)
    n0, w0 = page.evaluate("() => [window.__sentenceChanges, performance.now()]")
    page.wait_for_timeout(2_000)
    n1, w1 = page.evaluate("() => [window.__sentenceChanges, performance.now()]")
    still_starting = page.evaluate("() => !!document.getElementById('safari-starting')")
    page.wait_for_function(
        f"() => document.querySelector('.safari-app') || document.body.innerText.includes({json.dumps(FRIENDLY)})",
        timeout=120_000, polling=200)
    print(f"\napp page: kernel ready and the app shown in {time.perf_counter() - t0:.1f} s")
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and "from safari_kit" not in body, body[:2000]
    assert page.locator(".safari-app").count(), body[:2000]  # the kit plays without numpy: the app, no sentence
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=120_000)
    assert not [u for u in requests if "jupyterlab_pygments" in u], requests
    if still_starting:  # the words change once a second: at most one change a second, not four
        assert n1 - n0 <= (w1 - w0) / 1000 + 1, (n1 - n0, w1 - w0)
    print(f"\nsentence changed {n1 - n0} times in {(w1 - w0) / 1000:.1f} s (still starting: {still_starting})")
    page.wait_for_function("() => !document.getElementById('safari-starting')", timeout=5_000)
    stored = float(page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})"))
    print(f"\nsentence after {shown:.1f} s: {first!r}; the app after {stored:.1f} s (stored)")
    assert 1 < stored < 120, stored
    screenshot(page, "site-app")
    assert "Nothing leaves this page unless you download it" in page.locator(".safari-app").inner_text()
    axe = {"chooser": run_axe(page, ".safari-app")}
    join(page, "Zed")

    _play_identification_turn(page, joined=True)
    axe["Identification, a turn played"] = run_axe(page, ".safari-app")
    # issue 19: the learner owns this kernel (Python in the browser): no page says "in secret" or "Fair deal",
    # and no Shared class seed box is offered
    words = page.locator(".safari-app").inner_text()
    assert "in secret" not in words and "Fair deal" not in words and "in your browser" in words, words[:600]
    assert not page.locator(".safari-app .safari-shared-seed").is_visible()

    open_lab(page, "Safari Knockout", "Knockout", ".safari-knockout-lab")
    axe["Knockout"] = run_axe(page, ".safari-app")
    lab = ".safari-app .safari-knockout-lab"
    for _ in range(8):  # play until the learner has led once (following first if the deal starts that way)
        if play_best_knockout_turn(page, lab, button(page.locator(lab), "Play")) == "lead":
            break
        button(page.locator(lab), "Next turn").click()
    page.locator(f"{lab} .safari-ko-log", has_text="Round 1, turn").wait_for(timeout=30_000)
    screenshot(page, "site-app-knockout")
    records = page_records(page)  # the learner's file, made in the page: the trick led is in it
    assert {r.nickname for r in records} == {"Zed"} and any(r.kind == "knockout-play" for r in records), records
    assert not app_errors(page), app_errors(page)
    assert not page.outside, f"requests to other hosts: {page.outside}"
    assert not js_errors, js_errors
    for where, violations in axe.items():
        print(f"\nsite {where}: {describe(violations)}")
    bad = {where: describe(failing(v)) for where, v in axe.items() if failing(v)}
    assert not bad, "\n".join(f"axe on the site's app page, {where}:\n{text}" for where, text in bad.items())

    # the next visit in this browser announces this browser's own figure (what it is for: the visit ends at the
    # sentence, issue 28: the app's start after it, 6-7 CPU-s, is the first visit's, checked above)
    page.evaluate(f"() => localStorage.setItem({json.dumps(KEY)}, '47.2')")
    page.goto(offline_site.url + APP, wait_until="commit")
    _wait_for_the_sentence(page)
    assert STARTING.match(_note(page)).group(1) == "45", _note(page)  # 47.2 s: "about 45 s"
    assert not page.outside, page.outside
    assert not js_errors, js_errors


def _play_identification_turn(page, joined: bool = False) -> None:
    """On the app page: open the Identification lab and play one turn of ours to its result.

    ``joined``: the learner joined the class experiment, so the lab hides every exact chance until the
    guess (issue 26): the turn is a typed guess at a face-down place, then Reveal."""
    open_lab(page, "Safari Witness", "Identification", ".safari-identification-lab")
    lab = ".safari-app .safari-identification-lab"
    if joined:
        from tests.browser.test_class_learners_browser import guess_with_chance_hidden

        guess_with_chance_hidden(page)
        result = identification_result(page, lab)
        assert "Match!" in result or "No match" in result, result
        return
    prob = f"{lab} .safari-prob"
    for _ in range(12):  # a bot's failed turn may come first: Next turn until ours
        if page.locator(f"{lab} button.safari-identify:not([disabled])").count():
            break
        click_and_wait_change(page, button(page.locator(lab), "Next turn"), f"{lab} .safari-table", timeout=60_000)
    click_and_wait_change(page, button(page.locator(lab), "Identify"), prob)
    pick_best_declaration(page, lab)
    click_and_wait_change(page, button(page.locator(lab), "Reveal"), prob)
    result = identification_result(page, lab)
    assert "Match!" in result or "No match" in result, result


NOT_SECURE = "() => [window.isSecureContext, !!navigator.serviceWorker, typeof SharedArrayBuffer]"


def test_app_page_plays_on_a_school_network_name(school_page, js_errors, offline_site):
    """Over plain http by a network name (item 1): no service worker, yet the app starts and plays."""
    page = school_page
    console_errors: list[str] = []  # the service-worker patch once made Voici log console.error(undefined) here
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    t0 = time.perf_counter()
    page.goto(school_url(offline_site) + APP, wait_until="domcontentloaded")
    # the condition itself (the test would prove nothing on a secure page): no secure context, no service worker
    assert page.evaluate(NOT_SECURE) == [False, False, "undefined"]
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=120_000)
    print(f"\napp page at {school_url(offline_site)}: the app shown in {time.perf_counter() - t0:.1f} s")
    _play_identification_turn(page)
    screenshot(page, "site-school-network-app")
    assert not console_errors, console_errors
    assert not app_errors(page), app_errors(page)
    assert not page.outside, f"requests to other hosts: {page.outside}"
    assert not js_errors, js_errors


def test_lesson_on_a_school_network_name_reads_the_cards(school_page, js_errors, offline_site):
    """A lesson's kernel there has no synced drive; the kit reads its cards from its own wheel."""
    page = school_page
    page.goto(f"{school_url(offline_site)}lab/index.html?path={LESSON}", wait_until="domcontentloaded")
    assert page.evaluate(NOT_SECURE)[:2] == [False, False]
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=120_000, polling=200)
    page.evaluate("""(code) => {
        const w = window.jupyterapp.shell.currentWidget;
        w.model.sharedModel.insertCell(0, {cell_type: 'code', source: code});
        w.content.activeCellIndex = 0;
        return window.jupyterapp.commands.execute('notebook:run-cell');
    }""", "from safari_kit.cards.load import load_cards\nc = load_cards()\nprint(len(c.witness), len(c.knockout))")
    output = current_notebook(page).locator(".jp-Cell").first.locator(".jp-OutputArea-output").first
    output.wait_for(timeout=60_000)
    from safari_kit.cards.load import load_cards

    cards = load_cards()
    assert output.inner_text().strip() == f"{len(cards.witness)} {len(cards.knockout)}"
    assert not page.outside, f"requests to other hosts: {page.outside}"
    assert not js_errors, js_errors


@pytest.mark.parametrize("path", ["index.html", APP, f"lab/index.html?path={LESSON}"])
def test_a_page_opened_as_a_file_says_how_to_open_the_site(site_page, offline_site, path):
    """file:// (the folder double-clicked on a USB stick) runs nothing: one sentence within a few seconds."""
    page = site_page
    page.goto((offline_site.root / path.split("?")[0]).as_uri() + ("?" + path.split("?")[1] if "?" in path else ""),
              wait_until="domcontentloaded")
    note = page.locator(".safari-no-server")
    note.wait_for(timeout=10_000)
    assert NO_SERVER in note.inner_text() and "http://localhost:8000/" in note.inner_text()
    assert note.is_visible()
    screenshot(page, f"site-file-url-{path.split('/')[0].split('.')[0]}")


def test_a_lessons_link_to_the_rules_opens_them_with_their_pictures(site_page, js_errors, offline_site):
    """Lesson 00's link to the learners' rules page (issue 27; it linked docs/rules.md, the developers' page):
    the site ships the page beside the lessons, its card pictures inside it."""
    page = site_page
    lesson = "notebooks/00-start-here.ipynb"
    page.goto(f"{offline_site.url}lab/index.html?path={lesson}", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_IDLE, arg=lesson, timeout=120_000, polling=200)
    link = current_notebook(page).locator("a", has_text="Rules of Safari Witness").first
    link.wait_for(timeout=120_000)
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_function("""() => {
        const tab = [...document.querySelectorAll('.lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel')]
            .some(t => t.textContent.trim() === 'rules-safari-witness.ipynb');
        const imgs = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown img')];
        return tab && imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);
    }""", timeout=60_000)
    text = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first.inner_text()
    assert "Rules of Safari Witness" in text, text[:300]
    screenshot(page, "site-rules-from-lesson")
    assert page.request.get(offline_site.url + "favicon.ico").ok
    assert not page.outside, f"requests to other hosts: {page.outside}"
