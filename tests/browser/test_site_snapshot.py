"""The app page's and the lessons' kernel restored from the memory snapshot (issue 31, item 1), offline site.

``make site OFFLINE=1`` (the shared ``offline_site`` build) makes the snapshot in node and names it in the app
page's settings and in the lessons' (the site's jupyter-lite.json; site-src/snapshot.py). What runs here:

* in chromium, the site served by its own ``serve.py`` handler (the snapshot goes gzip-compressed): the kernel
  worker says it restored the snapshot (``self.safariSnapshot``, set by site-src/snapshot_loader.js), and every
  lab of the chooser opens from that kernel and answers a click (Identification: a whole turn to its result);
  two visits deal apart;
* a copy of the site whose snapshot is damaged: the worker falls back to the usual start, the learner reads the
  same words (the chooser's text, each lab's buttons) as on the restored page, and no other sentence;
* the app page's style sheets, cut at build time to what the app shows (site-src/app_page_css.py): with every
  lab open, no element of the page needs a rule that was dropped; and with every lab open the page has started
  no MathJax (site-src/app_page_trim.py's skip_mathjax: not one of MathJax's scripts loaded);
* a lesson (JupyterLite) restored from the same snapshot: ``%pip install`` of a wheel the site serves and a
  completion that needs jedi work, two visits draw different numbers, and the damaged copy starts the lesson the
  usual way with the same words (no note, no dialog);
* in node, through the same loader (tests/browser/snapshot_restore_probe.mjs; each test's restores one after the
  other in one node process, each a Pyodide of its own, since issue 28): two restores draw different
  random numbers (and, without the reseeding, the same: the check can see it); a snapshot of another runtime
  build and a missing one start cold, and so do a lesson's cut-short file and failing restore; and a build whose
  Python holds a JS object it cannot save stops, naming it.

The browser visits are shared (issue 28): one restored visit opens and plays every lab and serves the
every-lab test, the style sheets' test, the first of the two visits and the damaged snapshot's comparison; a
second restored visit deals Knockout once more; the damaged copy is visited once. The lessons: one restored visit
(%pip, completion, the first draw), a second for the other draw, one of the damaged copy.
"""
from __future__ import annotations

import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.browser.site_fixtures import APP, FRIENDLY, REPO
from tests.browser.test_app_voila import app_errors, button
from tests.test_site_serve import precompress, serve_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SITE_SRC = REPO / "site-src"
PROBE = Path(__file__).with_name("snapshot_restore_probe.mjs")
#: each lab's root on the page (the Simulation lab needs numpy: offline it is one sentence, as on a cold start)
ROOTS = {"RulesTutorial": ".safari-tutorial", "IdentificationLab": ".safari-identification-lab",
         "ChallengeLab": ".safari-challenge-lab", "FullGameLab": ".safari-fullgame-lab", "RulesPage": ".safari-rules",
         "KnockoutLab": ".safari-knockout-lab", "SimulationLab": None}
ALL_ROOTS = ", ".join(f".safari-app {r}" for r in ROOTS.values() if r)
#: every piece of text the page shows outside the app (the start-up sentence, any note), read in one go
OUTSIDE_THE_APP = """() => [...document.querySelectorAll('body *')]
    .filter(e => !e.closest('.safari-app') && !e.querySelector('.safari-app') && !e.children.length
                 && e.offsetParent !== null && (e.innerText || '').trim())
    .map(e => e.innerText.trim())"""
STATE = ("() => self.safariSnapshot ? {restored: self.safariSnapshot.restored, reason: self.safariSnapshot.reason,"
         " firstCell: !!self.safariSnapshot.firstCell, files: self.safariSnapshot.files} : null")


def _serve(root: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(serve_site.Handler, directory=str(root)))
    server.quiet = True  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _snapshot_file(root: Path) -> Path:
    found = sorted(root.glob("static/snapshot-*/kernel.bin"))
    assert len(found) == 1, f"{root}: expected one snapshot, found {found}"
    return found[0]


@pytest.fixture(scope="module")
def served_site(offline_site):
    """The offline site served by serve.py's handler: the snapshot's .gz copy goes with Content-Encoding."""
    server, url = _serve(offline_site.root)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def damaged_site(offline_site, tmp_path_factory):
    """A copy of the site (hard links) whose snapshot has 64 bytes changed mid-file, and no gzip copy."""
    root = tmp_path_factory.mktemp("damaged") / "site"
    shutil.copytree(offline_site.root, root, copy_function=os.link)
    snap = _snapshot_file(root)
    data = bytearray(snap.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(b ^ 0x5A for b in data[middle:middle + 64])
    snap.unlink()  # a hard link: the shared build's file stays as it is
    snap.write_bytes(bytes(data))
    Path(f"{snap}.gz").unlink()
    server, url = _serve(root)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def snapshot_state(page) -> dict | None:
    """What the kernel worker's loader says (site-src/snapshot_loader.js), or None when no worker has one."""
    for worker in page.workers:
        try:
            state = worker.evaluate(STATE)
        except Exception:  # noqa: BLE001 - a worker that went away
            continue
        if state is not None:
            return state
    return None


def open_app(page, url: str) -> str:
    page.goto(url + APP, wait_until="domcontentloaded")
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=120_000)
    return page.locator(".safari-app").inner_text()


def open_any_lab(page, entry) -> str | None:
    """Open ``entry`` (an app LabEntry) from the chooser; returns its root selector (None: the Simulation lab's
    offline sentence was shown instead)."""
    from safari_kit.widgets.app import LABS

    app = page.locator(".safari-app")
    button(app.locator(".widget-toggle-buttons"), entry.game).click()
    titles = [e.title for e in LABS if e.game == entry.game]
    page.wait_for_function(
        "([titles]) => { const s = document.querySelector('.safari-app .safari-lab-list select');"
        " const now = s ? [...s.options].map(o => o.textContent.replace(/\\s+/g, ' ').trim()) : [];"
        " return JSON.stringify(now) === JSON.stringify(titles); }", arg=[titles])
    page.evaluate("(sel) => document.querySelectorAll(sel).forEach(e => { e.dataset.oldLab = '1'; })", ALL_ROOTS)
    app.locator(".safari-lab-list select").first.select_option(index=titles.index(entry.title))
    page.wait_for_timeout(200)  # the kernel has the choice before Open lab
    button(app, "Open lab").click()
    root = ROOTS[entry.cls]
    if root is None:
        page.wait_for_function("(words) => { const t = document.querySelector('.safari-app').innerText;"
                               " return t.includes(words) && !t.includes('Opening Simulation'); }",
                               arg=FRIENDLY, timeout=60_000)
        return None
    page.locator(f".safari-app {root}:not([data-old-lab])").first.wait_for(timeout=60_000)
    page.wait_for_timeout(300)
    return f".safari-app {root}:not([data-old-lab])"


def buttons_of(page, root: str) -> list[str]:
    """The button labels a learner sees in a lab (what must not change with the snapshot)."""
    return sorted(page.locator(f"{root} button:visible").all_inner_texts())


def click_something(page, root: str, entry) -> None:
    """The lab answers: its first enabled button (not Save, Load or Download) is clicked and the lab changes."""
    candidates = page.locator(f"{root} button:visible:not([disabled])")
    for i in range(candidates.count()):
        target = candidates.nth(i)
        if target.inner_text().strip() in ("", "Save", "Load", "Download my results"):
            continue
        before = page.locator(root).first.inner_html()
        target.click()
        page.wait_for_function("([sel, before]) => { const el = document.querySelector(sel);"
                               " return el && el.innerHTML !== before; }", arg=[root, before], timeout=30_000)
        return
    assert entry.cls == "RulesPage", f"{entry.title}: no button to click"
    page.wait_for_function(f"() => [...document.querySelectorAll('{root} img')].some(i => i.complete && "
                           "i.naturalWidth > 0)", timeout=30_000)


#: what the app page's style sheets no longer style (site-src/app_page_css.py): elements of these families, or
#: with a toolbar icon's class, on the page would be drawn without their rules
CSS_DROPPED = """() => {
    const families = (document.body.getAttribute('data-safari-css-dropped') || '').split(' ').filter(Boolean);
    const found = [];
    for (const el of document.querySelectorAll('[class]')) {
        for (const c of el.classList) {
            if (families.some(f => c === f || c.startsWith(f + '-')) || /^jp-[A-Za-z0-9]+Icon$/.test(c)) found.push(c);
        }
    }
    return {families: families.length, found: [...new Set(found)]};
}"""


#: the names of the scripts the page has loaded (webpack's chunks among them)
SCRIPTS_LOADED = ("() => performance.getEntriesByType('resource').filter(r => r.initiatorType === 'script')"
                  ".map(r => r.name.split('?')[0].split('/').pop())")


def watched_page(browser, context=None):
    """A new page at 1400x900 and what it saw: its page errors, the kit's console lines and every request that
    left the site (``seen``: errors, console, outside_requests). It asks for reduced motion
    (tests/browser/conftest.py's ``QUIET_MOTION``: the selectable cards' glow is drawn 60 times a second; no test
    here looks at motion). ``context``: a page in that browser context (a learner's next visit), else in a new
    one."""
    from tests.browser.conftest import QUIET_MOTION
    from tests.browser.site_fixtures import LOCAL

    if context is None:
        context = browser.new_context(viewport={"width": 1400, "height": 900}, reduced_motion=QUIET_MOTION)
        context.add_init_script("performance.setResourceTimingBufferSize(5000)")  # all its scripts (SCRIPTS_LOADED)
    seen: dict = {"errors": [], "console": [], "outside_requests": []}
    context.on("request", lambda req: seen["outside_requests"].append(req.url)
               if not req.url.startswith(LOCAL) else None)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda exc: seen["errors"].append(f"pageerror: {exc}"))
    page.on("console", lambda m: seen["console"].append(m.text)
            if "safari_kit" in m.text or "ServiceWorker" in m.text or "service worker" in m.text else None)
    # the kernel's worker too: its loader's lines and its errors (what a start that never ends said, issue 31)
    page.on("worker", lambda worker: worker.on("console", lambda m: seen["console"].append(f"worker: {m.text}")
                                               if "safari_kit" in m.text or m.type == "error" else None))
    return context, page, seen


def app_visit(browser, url: str, play: bool, keep: bool = False) -> dict:
    """One visit of the app page in a fresh browser context: every lab of the chooser opened, the buttons a
    learner sees in each (read as it opens), Knockout's deal; with ``play`` each lab also answers a click and a
    turn of Identification is played. Shared by the tests below (a visit costs a restore, or a cold start, and
    seven labs): what they assert is read here. ``keep``: the context stays open (``seen["context"]``: its
    cache, storage and service worker for a learner's next visit; the caller closes it)."""
    from safari_kit.widgets.app import LABS
    from tests.browser.helpers import screenshot
    from tests.browser.test_site_browser import _play_identification_turn

    context, page, seen = watched_page(browser)
    seen["labs"], seen["url"] = {}, url
    try:
        t0 = time.perf_counter()
        seen["chooser"] = open_app(page, url)
        seen["chooser_seconds"] = time.perf_counter() - t0
        state = snapshot_state(page)
        if play and state is not None and state["restored"]:
            # the page's cell has run: the other packages' files follow a little later (site-src/snapshot_loader.js)
            deadline = time.monotonic() + 15
            while not state["firstCell"] and time.monotonic() < deadline:
                page.wait_for_timeout(200)
                state = snapshot_state(page)
        seen["state"] = state
        for entry in LABS:
            root = open_any_lab(page, entry)
            seen["labs"][(entry.game, entry.title)] = buttons_of(page, root) if root else FRIENDLY
            if entry.cls == "KnockoutLab":
                seen["deal"] = page.locator(f"{root} .safari-table").inner_text()
            if play and root is not None:
                click_something(page, root, entry)
        seen["outside"] = page.evaluate(OUTSIDE_THE_APP)
        seen["css_dropped"] = page.evaluate(CSS_DROPPED)
        seen["scripts"] = page.evaluate(SCRIPTS_LOADED)
        if play:
            _play_identification_turn(page)
        seen["app_errors"] = app_errors(page)
        seen["seconds"] = time.perf_counter() - t0
    except Exception:
        print(f"\nscreenshot: {screenshot(page, 'snapshot-visit-failure')}")
        print(f"the loader's state: {snapshot_state(page)}\npage errors: {seen['errors']}\nconsole, page and worker:",
              *seen["console"], sep="\n  ")
        raise
    finally:
        if keep:
            page.close()
            seen["context"] = context
        else:
            context.close()
    return seen


@pytest.fixture(scope="module")
def restored_visit(browser, served_site) -> dict:
    """The restored app page, every lab opened and played (issue 28: one visit for three tests); its browser
    context stays for the learner's second visit (test_two_visits_never_deal_alike)."""
    visit = app_visit(browser, served_site, play=True, keep=True)
    print(f"\napp page from the snapshot: chooser in {visit['chooser_seconds']:.1f} s, every lab opened and "
          f"answered a click: {visit['seconds']:.1f} s")
    try:
        yield visit
    finally:
        visit["context"].close()


def test_every_lab_opens_and_plays_from_the_restored_kernel(restored_visit):
    from safari_kit.widgets.app import LABS

    visit = restored_visit
    state = visit["state"]
    assert state is not None and state["restored"] is True and state["reason"] is None, state
    assert state["firstCell"] is True, state
    # the kit's and safari_site's files written from the app page's own bundle, not unpacked from their wheels
    assert isinstance(state["files"], int) and state["files"] > 400, state
    assert set(visit["labs"]) == {(e.game, e.title) for e in LABS}
    assert not visit["app_errors"], visit["app_errors"]
    assert not visit["outside_requests"], f"requests to other hosts: {visit['outside_requests']}"
    assert not visit["errors"], visit["errors"]


def test_no_element_of_the_app_needs_a_style_rule_the_build_dropped(restored_visit):
    """site-src/app_page_css.py cut JupyterLab's theme to what the app shows: with every lab open and played, no
    element of the page belongs to a family whose rules were dropped, nor shows a toolbar icon."""
    dropped = restored_visit["css_dropped"]
    assert dropped["families"] > 10, "the app page does not say which style families it dropped"
    assert dropped["found"] == [], dropped


def test_the_app_page_starts_no_mathjax(restored_visit, offline_site):
    """Issue 31 (session 8): Voici started JupyterLab's MathJax on the app page and ipywidgets handed it every
    description: some 800 KB of MathJax's scripts on every visit, for no formula. With every lab open and played,
    none of MathJax's start-up scripts (its loader, and the chunk that loads its parts) was loaded; the page did
    load Voici's chunks (so the check sees them)."""
    build = next(offline_site.root.glob("voici/build-*"))
    mathjax = sorted(f.name for f in build.glob("*.js")
                     if any(m in f.read_text(errors="replace") for m in ("MathJax.loader", "mathjax.asyncLoad")))
    assert mathjax, f"{build}: no MathJax loader among Voici's scripts (Voici changed? the check sees nothing)"
    loaded = restored_visit["scripts"]
    assert "voici.js" in loaded and sum(name.endswith(".js") for name in loaded) > 5, loaded
    assert not set(mathjax) & set(loaded), f"MathJax's scripts loaded: {sorted(set(mathjax) & set(loaded))}"


def test_the_app_page_gets_voicis_pieces_in_one_file(restored_visit, site_src_path):
    """Session 18 (site-src/app_chunks.py): the pieces of Voici's scripts the app page needs come in one file
    before voici.js; a visit that opens and plays every lab asks for no piece on its own (one that does is
    missing from PIECES: its number is named here)."""
    import re

    import app_chunks

    loaded = restored_visit["scripts"]
    alone = sorted(int(name[:-3]) for name in loaded if re.fullmatch(r"\d+\.js", name))
    assert not alone, f"pieces of Voici's scripts asked for on their own: {alone}: add them to PIECES"
    assert app_chunks.FILE in loaded and loaded.index(app_chunks.FILE) < loaded.index("voici.js"), loaded


#: what the app page's console says as it starts no service worker (site-src/build_site.py, SW_OFF_SAID)
NO_SERVICE_WORKER = "this page needs no service worker"


def test_two_visits_never_deal_alike(restored_visit):
    """Every restore starts from the same memory: the deals still differ (fresh seeds, random reseeded). The second
    visit is the same learner's, in the same browser (its cache and storage). Neither visit starts a service
    worker (issue 31, session 18: the app page needs none, and every request went through it; site-src/
    build_site.py, SW_OFF_OPTION): the console says so, and the browser has none registered after both."""
    from safari_kit.widgets.app import LABS

    page = restored_visit["context"].new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if "ServiceWorker" in m.text or "service worker" in m.text
            else None)
    try:
        open_app(page, restored_visit["url"])
        root = open_any_lab(page, next(e for e in LABS if e.cls == "KnockoutLab"))
        second = page.locator(f"{root} .safari-table").inner_text()
        state = snapshot_state(page)
        workers = page.evaluate("async () => [(await navigator.serviceWorker.getRegistrations()).length, "
                                "navigator.serviceWorker.controller]")
    finally:
        page.close()
    states = [restored_visit["state"], state]
    assert [(s["restored"], s["reason"]) for s in states] == [(True, None)] * 2, states
    assert restored_visit["deal"] != second, (restored_visit["deal"], second)
    for lines in (restored_visit["console"], said):
        assert any(NO_SERVICE_WORKER in line for line in lines), lines
        assert not [line for line in lines if "egister" in line or "not supported" in line], lines
    assert workers == [0, None], workers


def test_a_damaged_snapshot_starts_python_the_usual_way_with_the_same_words(browser, restored_visit, damaged_site):
    """No other sentence to the learner: the chooser's words and every lab's buttons as on a restored page."""
    restored, damaged = restored_visit, app_visit(browser, damaged_site, play=False)
    assert restored["state"]["restored"] is True and restored["state"]["reason"] is None
    assert damaged["state"]["restored"] is False and "checksum" in damaged["state"]["reason"], damaged["state"]
    assert any("starting Python without its saved copy" in s for s in damaged["console"]), damaged["console"]
    assert damaged["chooser"] == restored["chooser"]
    assert damaged["labs"] == restored["labs"]
    assert damaged["outside"] == restored["outside"], (damaged["outside"], restored["outside"])
    assert not damaged["errors"], damaged["errors"]


# ----------------------------------------------------------------------------- the lessons (JupyterLite)
#: a lesson's kernel, through JupyterLab's kernel API (what a cell does, without changing the notebook): the
#: printed text and errors of ``code``
RUN = """async (code) => {
    const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = k.requestExecute({code, store_history: false});
    const out = [];
    future.onIOPub = (m) => {
        if (m.header.msg_type === 'stream') out.push(m.content.text);
        if (m.header.msg_type === 'error') out.push('ERROR ' + m.content.ename + ': ' + m.content.evalue);
    };
    const reply = await future.done;
    return {status: reply.content.status, out: out.join('')};
}"""
#: what Tab completion offers at the end of ``code`` (the kernel's complete_request)
COMPLETE = """async (code) => {
    const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const reply = await k.requestComplete({code, cursor_pos: code.length});
    return reply.content.matches;
}"""
#: random's own generator and a deal by the kit (a fresh seed): what a learner's cells draw
DRAW = ("import json, random\nfrom safari_kit.core.chance import fresh_seed\n"
        "print(json.dumps({'random': random.random(), 'hand': random.sample(range(75), 7), 'seed': fresh_seed()}))")
#: what the lesson's page shows a learner besides the lesson: the start-up note, dialogs, notifications
LESSON_WORDS = """() => ({
    note: (document.getElementById('safari-starting') || {}).innerText || null,
    dialogs: [...document.querySelectorAll('.jp-Dialog')].map(d => d.innerText.trim()),
    toasts: [...document.querySelectorAll('.Toastify__toast')].map(d => d.innerText.trim()),
    notebook: window.jupyterapp.shell.currentWidget.node.querySelector('.jp-Notebook').innerText,
})"""


def lesson_visit(browser, url: str, tools: bool, context=None) -> dict:
    """One visit of lesson 02 in a fresh browser context until its kernel is idle: what the loader says, what
    the page shows besides the lesson, a draw of random numbers; with ``tools``, ``%pip install`` of a package the
    site serves (piplite, micropip and Pyodide's install, which the snapshot holds by name) and a completion
    that needs jedi's inference (a name assigned in the same, unrun code). ``context``: the visit is a page of
    that browser context (the learner's next visit: its cache, storage and service worker), left open; else a
    new context, closed after (``seen["context"]`` either way)."""
    from tests.browser.site_fixtures import KERNEL_IDLE, LESSON

    keep = context is not None
    context, page, seen = watched_page(browser, context)
    seen["context"] = context
    try:
        t0 = time.perf_counter()
        page.goto(f"{url}lab/index.html?path={LESSON}", wait_until="domcontentloaded")
        page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=120_000, polling=200)
        seen["idle_seconds"] = time.perf_counter() - t0
        page.wait_for_function("() => !document.getElementById('safari-starting')", timeout=10_000)
        seen["state"] = snapshot_state(page)
        seen["words"] = page.evaluate(LESSON_WORDS)
        draw = page.evaluate(RUN, DRAW)
        assert draw["status"] == "ok", draw
        seen["draw"] = json.loads(draw["out"])
        if tools:
            seen["pip"] = page.evaluate(RUN, "%pip install widgetsnbextension")
            seen["import"] = page.evaluate(RUN, "import widgetsnbextension\nprint(widgetsnbextension.__name__)")
            seen["complete"] = page.evaluate(COMPLETE, "word = 'safari'\nword.upp")
    finally:
        page.close() if keep else context.close()
    return seen


@pytest.fixture(scope="module")
def restored_lesson(browser, served_site) -> dict:
    """Lesson 02 from the snapshot; its browser context stays open for the learner's second visit
    (test_two_lesson_visits_never_draw_alike)."""
    from tests.browser.conftest import QUIET_MOTION

    context = browser.new_context(viewport={"width": 1400, "height": 900}, reduced_motion=QUIET_MOTION)
    try:
        visit = lesson_visit(browser, served_site, tools=True, context=context)
        print(f"\nlesson from the snapshot: kernel idle in {visit['idle_seconds']:.1f} s")
        yield visit
    finally:
        context.close()


def test_a_lesson_starts_from_the_snapshot_with_pip_and_completion(restored_lesson):
    visit = restored_lesson
    state = dict(visit["state"])
    # the packages' files came from the lessons' bundle (thousands of files), not from unpacking the wheels
    assert isinstance(state.pop("files"), int) and visit["state"]["files"] > 1000, visit["state"]
    assert state == {"restored": True, "reason": None, "firstCell": False}, visit["state"]
    assert not any("without its saved copy" in s for s in visit["console"]), visit["console"]
    assert visit["pip"]["status"] == "ok" and "ERROR" not in visit["pip"]["out"], visit["pip"]
    assert visit["import"] == {"status": "ok", "out": "widgetsnbextension\n"}, visit["import"]
    assert "upper" in visit["complete"], visit["complete"]
    assert not visit["outside_requests"], visit["outside_requests"]
    assert not visit["errors"], visit["errors"]


def test_two_lesson_visits_never_draw_alike(browser, served_site, restored_lesson):
    """The same memory on every visit: random's generator is reseeded after the restore (without it, both visits
    would draw the same numbers: the node control below shows it). The second visit is the same learner's, in the
    same browser: the service worker the first visit registered is kept, not unregistered and registered again.
    JupyterLite (0.7.6) kept the version of its worker only from a second visit on, so that visit took the worker
    for an old site's and waited on the unregistering: 4.1-4.6 s instead of 2.1-2.6 on the app page, before it
    started none (site-src/build_site.py, SW_REGISTERED)."""
    second = lesson_visit(browser, served_site, tools=False, context=restored_lesson["context"])
    assert any("Registering new JupyterLite ServiceWorker" in line for line in restored_lesson["console"]), \
        restored_lesson["console"]
    assert "JupyterLite ServiceWorker was already registered" in second["console"], second["console"]
    assert not [line for line in second["console"] if "unregistering" in line or "Registering new" in line], \
        second["console"]
    assert second["state"]["restored"] is True, second["state"]
    first = restored_lesson["draw"]
    for key in ("random", "hand", "seed"):
        assert first[key] != second["draw"][key], (key, first, second["draw"])


def test_a_damaged_snapshot_starts_a_lesson_the_usual_way_with_the_same_words(browser, restored_lesson,
                                                                               damaged_site):
    damaged = lesson_visit(browser, damaged_site, tools=False)
    assert damaged["state"]["restored"] is False and "checksum" in damaged["state"]["reason"], damaged["state"]
    assert any("starting Python without its saved copy" in s for s in damaged["console"]), damaged["console"]
    assert damaged["words"] == restored_lesson["words"], (damaged["words"], restored_lesson["words"])
    assert damaged["words"]["note"] is None and not damaged["words"]["dialogs"], damaged["words"]
    assert not damaged["errors"], damaged["errors"]


# ----------------------------------------------------------------------------- in node, through the same loader
PROBE_PY = """
import json, random, sys
json.dumps({"random": random.random(), "app": "safari_kit.widgets.app" in sys.modules})
"""


def _app_options(root: Path) -> dict:
    import re

    html = (root / APP).read_text()
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html,
                                  re.S).group(1))
    return config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]


def _lesson_options(root: Path) -> dict:
    config = json.loads((root / "jupyter-lite.json").read_text())["jupyter-config-data"]
    return config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]


def probe_job(root: Path, snapshot_file: str | None, page: str = "app", files_file: str | None = "site",
              code: str = PROBE_PY, **settings) -> dict:
    """A job for the probe: start the app page's kernel (``page="lesson"``: a lesson's) in node through
    site-src/snapshot_loader.js, then run ``code``. ``files_file``: the lessons' files bundle answered ("site":
    the site's own, None: 404)."""
    from snapshot import APP_BUNDLE
    from versioned_runtime import runtime_folder

    runtime = runtime_folder(root)
    options = _app_options(root) if page == "app" else _lesson_options(root)
    options["lockFileURL"] = str(runtime / "pyodide-lock.json")
    options["safariSnapshotURL"] = "http://127.0.0.1:9/kernel.bin"  # answered by the probe from the file
    options["safariSnapshot"].update(settings)
    if "safariFilesURL" in options:
        options["safariFilesURL"] = "http://127.0.0.1:9/files.bin.gz"
        if files_file == "site":  # the page's own bundle: the lessons' packages, or the app page's first ones
            files_file = str(_snapshot_file(root).parent / ("files.bin.gz" if page == "lesson" else APP_BUNDLE))
    npm = REPO / ".site-build" / "npm" / "pyodide-0.29.0" / "package"
    return {"pyodideMjs": str(npm / "pyodide.mjs"), "indexURL": f"{runtime}/", "options": options,
            "snapshotFile": snapshot_file or "", "filesFile": files_file or "",
            "loader": str(SITE_SRC / "snapshot_loader.js"), "probe": code}


def run_probes(tmp_path: Path, jobs: list[dict]) -> list[dict]:
    """The jobs, one after another in one node process (tests/browser/snapshot_restore_probe.mjs: each restore
    a Pyodide of its own; issue 28: one node start, not one a job): what Python then held, job by job."""
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    proc = subprocess.run(["node", str(PROBE), str(tmp_path / "jobs.json")], capture_output=True, text=True,
                          timeout=150 * len(jobs))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    results = [json.loads(line) for line in proc.stdout.strip().splitlines()[-len(jobs):]]
    assert len(results) == len(jobs), proc.stdout[-2000:]
    for result in results:
        result["probe"] = json.loads(result["probe"])
    return results


@pytest.fixture(scope="module")
def site_src_path():
    import sys

    sys.path.insert(0, str(SITE_SRC))
    yield
    sys.path.remove(str(SITE_SRC))


def test_in_node_two_restores_draw_different_numbers(offline_site, tmp_path, site_src_path):
    snap = str(_snapshot_file(offline_site.root))
    root = offline_site.root
    first, second, *control = run_probes(tmp_path, [probe_job(root, snap), probe_job(root, snap),
                                                    probe_job(root, snap, afterRestore=""),
                                                    probe_job(root, snap, afterRestore="", files_file=None)])
    for run in (first, second):
        assert run["restored"] is True and run["later"] is True and run["probe"]["app"] is True, run
        assert isinstance(run["files"], int) and run["files"] > 400, run  # the app page's own bundle
    assert first["probe"]["random"] != second["probe"]["random"]
    # the control: without the reseeding both restores draw the same number (what every visit would deal)
    same = [run["probe"]["random"] for run in control]
    assert same[0] == same[1]
    # the second control's page found no bundle of its first files (404): it unpacked the kit's wheel and runs
    assert "404" in control[1]["files"] and control[1]["restored"] is True and control[1]["probe"]["app"] is True


def test_in_node_a_missing_or_foreign_snapshot_starts_cold(offline_site, tmp_path, site_src_path):
    root = offline_site.root
    # another runtime build's snapshot (its BUILD_ID, bytes 16-48 of the header, differs), with a matching
    # length and checksum: Pyodide refuses it, the kernel starts cold
    data = bytearray(_snapshot_file(offline_site.root).read_bytes())
    data[16:48] = bytes(32)
    foreign = tmp_path / "foreign.bin"
    foreign.write_bytes(bytes(data))
    check = subprocess.run(["node", "-e", "const f = eval(require('fs').readFileSync(process.argv[1], 'utf8'));"
                            "console.log(f.checksum(new Uint8Array(require('fs').readFileSync(process.argv[2]))))",
                            str(SITE_SRC / "snapshot_loader.js"), str(foreign)], capture_output=True, text=True)
    missing, run = run_probes(tmp_path, [probe_job(root, None), probe_job(root, str(foreign),
                                                                         checksum=check.stdout.strip(),
                                                                         bytes=len(data))])
    assert missing["restored"] is False and "404" in missing["reason"] and missing["probe"]["app"] is False
    assert run["restored"] is False and "build id" in run["reason"], run
    assert run["warnings"] and run["probe"]["app"] is False


def test_in_node_a_lessons_kernel_starts_cold_when_its_snapshot_is_cut_short_or_fails(offline_site, tmp_path,
                                                                                       site_src_path):
    """The lessons' guards (the loader is the app page's): a truncated file (its size is checked first) and an
    error while restoring start Python the usual way, with the lessons' packages."""
    snap = _snapshot_file(offline_site.root)
    short = tmp_path / "short.bin"
    short.write_bytes(snap.read_bytes()[:1 << 20])
    cut, failing = run_probes(tmp_path, [
        probe_job(offline_site.root, str(short), page="lesson"),
        probe_job(offline_site.root, str(snap), page="lesson", afterRestore="raise RuntimeError('x')")])
    assert cut["restored"] is False and "expected" in cut["reason"] and cut["probe"]["app"] is False, cut
    assert failing["restored"] is False and "after the restore" in failing["reason"], failing
    assert failing["warnings"] and failing["probe"]["app"] is False


LESSON_PY = """
import json, sys
import jedi
from importlib.metadata import version
typeshed = jedi.__file__.rsplit("/", 1)[0] + "/third_party/typeshed/stdlib/3/builtins.pyi"
with open(typeshed) as f:
    stub = f.read()
import pyodide_js
json.dumps({"app": "micropip" in sys.modules, "jedi": version("jedi"), "stub": len(stub),
            "loaded": sorted(pyodide_js.loadedPackages.object_keys())})
"""


def test_in_node_a_lesson_gets_its_packages_files_from_the_bundle_or_else_the_wheels(offline_site, tmp_path,
                                                                                   site_src_path):
    """Session 9: a lesson's restore writes its packages' files from one bundle (not the wheels, unpacked in Python
    on every visit); the files a lesson reads later (jedi's typeshed at the first completion, the packages'
    metadata) are there, and Pyodide counts the packages loaded. A damaged or missing bundle: the wheels, the same
    files."""
    snap = str(_snapshot_file(offline_site.root))
    bundle = (_snapshot_file(offline_site.root).parent / "files.bin.gz").read_bytes()
    damaged = tmp_path / "damaged.bin.gz"
    damaged.write_bytes(gzip.compress(gzip.decompress(bundle)[:-10] + bytes(10)))
    runs = dict(zip(("bundle", "missing", "damaged"), run_probes(tmp_path, [
        probe_job(offline_site.root, snap, page="lesson", code=LESSON_PY),
        probe_job(offline_site.root, snap, page="lesson", files_file=None, code=LESSON_PY),
        probe_job(offline_site.root, snap, page="lesson", files_file=str(damaged), code=LESSON_PY)])))
    assert isinstance(runs["bundle"]["files"], int) and runs["bundle"]["files"] > 1000, runs["bundle"]
    assert "404" in runs["missing"]["files"] and "checksum" in runs["damaged"]["files"], runs
    for run in runs.values():
        assert run["restored"] is True and run["reason"] is None, run
        assert run["probe"]["app"] is True and run["probe"]["stub"] > 10_000, run
        assert "jedi" in run["probe"]["loaded"] and "safari-kit" in run["probe"]["loaded"], run
    assert runs["bundle"]["probe"] == runs["missing"]["probe"] == runs["damaged"]["probe"]


def test_a_js_object_python_cannot_save_stops_the_build(offline_site, tmp_path, site_src_path):
    import snapshot
    from versioned_runtime import runtime_folder

    runtime = runtime_folder(offline_site.root)
    npm = REPO / ".site-build" / "npm" / "pyodide-0.29.0" / "package"
    job = {"pyodideMjs": str(npm / "pyodide.mjs"), "indexURL": f"{runtime}/",
           "lockFile": str(runtime / "pyodide-lock.json"), "packages": ["safari-kit"], "imports": ["safari_kit"],
           "loader": str(snapshot.LOADER),
           "afterRestore": str(snapshot.AFTER_RESTORE), "out": str(tmp_path / "x.bin"),
           "prelude": "import js, builtins\nbuiltins._held = js.Map.new()"}
    with pytest.raises(snapshot.SnapshotFailed, match="cannot be saved: a Map"):
        snapshot.run_node(job, tmp_path)


def test_the_snapshot_is_served_compressed(offline_site, served_site):
    import urllib.request

    snap = _snapshot_file(offline_site.root)
    url = served_site + snap.relative_to(offline_site.root).as_posix()
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "gzip"}), timeout=30) as r:
        body = r.read()
        assert r.headers["Content-Encoding"] == "gzip" and r.headers["Cache-Control"] == serve_site.IMMUTABLE
    assert len(body) < snap.stat().st_size / 2 and gzip.decompress(body) == snap.read_bytes()


def test_the_runtime_scripts_and_pages_are_served_compressed(offline_site, served_site):
    """site-src/precompress.py (issue 31: a first visit over a school network): every script, style sheet, page,
    SVG and the WebAssembly runtime of the built site that gzip shrinks has a ``.gz`` copy that inflates to it,
    and serve.py sends the runtime and the app page compressed, with their own types."""
    import urllib.request

    root = offline_site.root
    missing, wrong = [], []
    for path in sorted(p for p in root.rglob("*") if p.name.endswith(precompress.SUFFIXES) and p.is_file()):
        copy = Path(f"{path}.gz")
        if not copy.is_file():
            if path.stat().st_size >= precompress.MIN_BYTES and \
                    len(precompress.gzip_bytes(path.read_bytes())) <= precompress.MAX_RATIO * path.stat().st_size:
                missing.append(path.relative_to(root).as_posix())
        elif gzip.decompress(copy.read_bytes()) != path.read_bytes():
            wrong.append(path.relative_to(root).as_posix())
    assert not missing and not wrong, f"no gzip copy: {missing[:5]}; a copy of other content: {wrong[:5]}"
    wasm = next(root.glob("static/pyodide-*/pyodide.asm.wasm"))
    for path, kind in ((wasm, "application/wasm"), (root / APP, "text/html")):
        url = served_site + path.relative_to(root).as_posix()
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "gzip"}), timeout=30) as r:
            body = r.read()
            assert r.headers["Content-Encoding"] == "gzip" and r.headers["Content-Type"] == kind, (url, r.headers)
        assert len(body) < path.stat().st_size / 2 and gzip.decompress(body) == path.read_bytes()
