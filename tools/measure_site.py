"""Measure the static site (`make site`): bytes and seconds to a playable lab, click latency in the browser kernel.

    make site OFFLINE=1 && .venv/bin/python tools/measure_site.py             # site/, 30 clicks, JupyterLab too
    .venv/bin/python tools/measure_site.py --site .site-build/test-site --clicks 60 --no-jupyterlab
    .venv/bin/python tools/measure_site.py --site /tmp/site-off --app-only --cpu-quota 0.25   # as root
    .venv/bin/python tools/measure_site.py --site /tmp/site-off --app-only --cpu-quota 0.25 --landing 20 --markdown

A benchmark, not a test: it prints figures and asserts nothing. It serves the built site on 127.0.0.1 the
documented way, with the handler of the site's ``serve.py`` (site-src/serve_site.py: its Cache-Control), or
with ``--plain-http-server`` with ``python -m http.server``'s (no Cache-Control: the browser then guesses from
the files' ages, so a fresh build and an old one differ), counting every response as a request (304s
included, by status: ``--list-requests`` lists a second visit's) and every byte of a body (pages, the Pyodide
runtime, the wheels, and whatever the kernel's web worker fetches), and drives Debian's headless chromium:

1. **the app page** (Voici, ``voici/render/notebooks/app.html``), twice in one browser profile: a **first
   visit** (cold cache) and a **second visit** (what the first left in the browser's cache and storage, as a
   learner who comes back). Each: seconds and bytes from opening the page until a lab is playable: the
   chooser shown, Identification opened, its cards on the table (kernel idle); and when the start-up sentence
   ("Starting Python in your browser ...") first showed. With ``--cpu-quota 0.25`` the two visits are
   measured again with the whole browser capped at a quarter of one core by a cgroup (tools/cpu_cap.py; needs
   root): a stand-in for a cheap Chromebook. DevTools' CPU throttle would not do: it slows the page's thread,
   not the kernel's web worker, where the Python start-up happens;
2. **a lesson** in JupyterLite (lesson 02): seconds and bytes until its kernel is idle;
3. **click -> updated chances** in the browser kernel: the Identification lab of tools/bench_click_latency.py
   (``IdentificationLab(seed=1)`` at the Identify step, a click on a face-down place until ``.safari-prob``
   changes) and the bare anywidget echo beside it, both inserted into the lesson;
4. the same two clicks in **JupyterLab** from this venv (tools/bench_click_latency.py, Nagle off: the kit's
   default), unless ``--no-jupyterlab``.

**Runs and figures** (issue 31): item 1 is measured ``--runs`` times (default 3; a new browser profile each run),
uncapped and (``--cpu-quota``) capped; each figure is printed per run and as the median and range of the runs
(``--markdown``: a table for the docs). The figures of a visit: seconds to the chooser; seconds from the
learner's first click on the chooser (pick the lab, Open lab) to the lab's cards on the table (the chooser is
read ``--think`` seconds first, 2 by default, not counted: what a lab built ahead while the learner reads is
for); to a playable lab (the two added); when the start-up sentence showed (measured in the page: the first
paint after the sentence was put in, with the navigation's timing and the render-blocking files, which say why
it comes when it comes; the page is opened without waiting for DOMContentLoaded, which came after Voici's whole
script and put the sentence seconds late); the browser's CPU seconds (a cgroup, capped or not: root) and the
bytes served. ``--landing SECONDS`` adds a visit through the landing page, read that long before "Play the
labs" (a site built with ``make site PRESTART=1`` starts the app while it is read: the click then shows the
prestarted frame), or with ``--landing-to lessons`` before "Open the lessons" (seconds to lesson 00's idle
kernel: what a prestart costs a learner who goes to the lessons). What else used the machine's CPU is printed
before and after each run: the machine is shared.

``--app-only`` measures item 1 only. Other hosts: every request the browser context makes to another host is
listed (there should be none offline). tools/profile_site_kernel.py says where the start-up's time goes.

After each app-page visit it also says how many KB of compiled WebAssembly Chrome kept in the profile (its
``Code Cache/wasm``): a next visit that finds none compiles Python's runtime again, about 1 CPU-s more. Chrome
writes it once it has made about 1 MB of fast code, at a quarter core near the moment the lab opens: so the
learner stays on the first visit's lab ``--stay`` seconds (20; not counted) before leaving, as a learner who
reads the lab does. With ``--stay 0`` (the protocol before session 17) 4 capped first visits in 7 kept none.

Before the runs it times tools/machine_speed.py's reference loops and prints them with the figures: the machine
is a new virtual machine at each session, and the same page took 3.7 CPU-s on one and 5.0 on another (session
16), so figures of two sessions compare only beside their machines' references.
"""
from __future__ import annotations

import argparse
import collections
import http.server
import importlib.util
import json
import shutil
import socketserver
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "site-src"))

import bench_click_latency as bench  # noqa: E402
import machine_speed  # noqa: E402
from cpu_cap import capped_chromium  # noqa: E402
from tests.browser.helpers import click_latency_ms, latency_summary, write_notebook  # noqa: E402
from tests.browser.site_fixtures import APP, FRIENDLY, KERNEL_IDLE, LESSON  # noqa: E402
from versioned_runtime import runtime_folder  # noqa: E402



# ----------------------------------------------------------------------------- a counting static server
class Counter:
    def __init__(self):
        self.bytes = 0
        self.requests = 0
        self.log: list[tuple[int, str]] = []  # (status, path) of every request since the last reset
        self.lock = threading.Lock()

    def reset(self):
        with self.lock:
            self.bytes, self.requests, self.log = 0, 0, []

    def statuses(self) -> dict[int, int]:
        with self.lock:
            return dict(sorted(collections.Counter(code for code, _ in self.log).items()))

    def add_bytes(self, n: int):
        with self.lock:
            self.bytes += n

    def add_request(self, code: int = 0, path: str = ""):
        with self.lock:
            self.requests += 1
            self.log.append((code, path))


def _serve_site():
    """site-src/serve_site.py (the site's ``serve.py``): the documented way to serve the site."""
    spec = importlib.util.spec_from_file_location("serve_site", REPO / "site-src" / "serve_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serve(root: Path, counter: Counter, plain: bool = False):
    """Serve ``root`` on 127.0.0.1 (a free port) with serve.py's handler (its Cache-Control), or with
    ``plain``, ``python -m http.server``'s (no Cache-Control: the browser guesses freshness from file ages),
    counting requests, statuses and body bytes."""
    base = http.server.SimpleHTTPRequestHandler if plain else _serve_site().Handler

    class Handler(base):  # type: ignore[misc, valid-type]
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def copyfile(self, source, outputfile):
            start = source.tell()
            super().copyfile(source, outputfile)
            counter.add_bytes(source.tell() - start)

        def log_request(self, code="-", size="-"):
            counter.add_request(int(code) if str(code).isdigit() else 0, self.path)

        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    server.quiet = True  # type: ignore[attr-defined]  # serve_site's handler reads it
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


# ----------------------------------------------------------------------------- the browser
def new_page(browser, outside: list[str]):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})  # a cold cache each time
    context.on("request", lambda r: outside.append(r.url)
               if not r.url.startswith(("http://127.0.0.1:", "data:", "blob:")) else None)
    page = context.new_page()
    page.set_default_timeout(600_000)
    return context, page


#: the app page's start-up sentence (site-src/starting.js)
STARTING = "Starting Python in your browser"
#: what the learner opens in every visit (the lab of the issue's figures)
GAME, LAB, LAB_ROOT = "Safari Witness", "Identification", ".safari-identification-lab"
CHOOSER = ".safari-app .safari-lab-list select"  # the list of labs (not the Language list, issue 30)

#: put in every page and frame before its own scripts: when the start-up sentence first showed (inserted, and
#: the first paint after it: render-blocking styles hold every paint), and the navigation's timing (a service
#: worker's start, the first byte of the page): why the sentence comes when it comes
PAGE_PROBE = """(() => {
  const m = window.__safariMeasure = {inserted: null, fcp: null};
  const obs = new MutationObserver(() => {
    const n = document.getElementById('safari-starting');
    if (n && m.inserted === null && (n.textContent || '').includes(%s)) {
      m.inserted = performance.now();
      obs.disconnect();
    }
  });
  obs.observe(document, {childList: true, subtree: true, characterData: true});
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries())
      if (e.name === 'first-contentful-paint' && m.fcp === null) m.fcp = e.startTime; })
      .observe({type: 'paint', buffered: true});
  } catch (e) { /* no paint timing */ }
})();""" % json.dumps(STARTING)

PROBE_READ = """() => {
  const m = window.__safariMeasure || {}, n = performance.getEntriesByType('navigation')[0] || {};
  const blocking = performance.getEntriesByType('resource').filter((r) => r.renderBlockingStatus === 'blocking');
  return {inserted: m.inserted, fcp: m.fcp, workerStart: n.workerStart || 0, responseStart: n.responseStart || 0,
          responseEnd: n.responseEnd || 0, domInteractive: n.domInteractive || 0,
          dcl: n.domContentLoadedEventEnd || 0, blocking: blocking.map((r) => r.name.split('/').pop()),
          blockingEnd: Math.max(0, ...blocking.map((r) => r.responseEnd))};
}"""


#: seconds a learner reads the chooser before picking a lab (``--think``): not counted in the figures
THINK = 2.0
#: seconds a learner stays on the first visit's lab before leaving (``--stay``): not counted. A learner reads and
#: plays a lab for minutes; 15-20 s was enough for Chrome to write down its compiled runtime at a quarter core (19
#: of 19 first visits, against 3 of 7 that left the moment the lab was playable: session 17)
STAY = 20.0


def open_identification(root, think: float = THINK) -> dict:
    """What a learner does on the chooser: reads it for ``think`` seconds (not counted), then, as fast as the
    page lets them (no fixed pauses: messages reach the kernel in order), picks Safari Witness (already picked:
    a click sends nothing), picks Identification, presses Open lab; until its cards are on the table. ``root``:
    the page, or the landing page's frame of the app. Returns the seconds of each step (and the pause)."""
    from tests.browser.test_app_voila import button

    if think:
        time.sleep(think)
    t0 = time.perf_counter()
    app = root.locator(".safari-app")
    button(app.locator(".widget-toggle-buttons"), GAME).click()
    root.locator(CHOOSER).first.select_option(label=LAB)
    t1 = time.perf_counter()
    button(app, "Open lab").click()
    # the lab comes in seconds even at a quarter core: after 5 minutes it is not coming (the visit fails, its
    # screenshot is kept)
    root.locator(f".safari-app {LAB_ROOT} .safari-table .st-card").first.wait_for(timeout=300_000)
    t2 = time.perf_counter()
    return {"pick_seconds": t1 - t0, "open_seconds": t2 - t1, "think_seconds": think}


def _sentence(probe: dict) -> float | None:
    """Seconds from the navigation to the first paint that holds the start-up sentence."""
    if probe.get("inserted") is None:
        return None
    return max(probe["inserted"], probe.get("fcp") or 0) / 1000


def app_to_playable(page, url: str, counter: Counter, cpu_seconds=lambda: None, think: float = THINK) -> dict:
    """One visit of the app page in ``page``: seconds, bytes and requests until Identification is playable
    (and the browser's CPU seconds, where ``cpu_seconds`` counts them). The page is opened without waiting
    for anything (``commit``): a wait for DOMContentLoaded would put the sentence after Voici's whole script."""
    counter.reset()
    cpu0 = cpu_seconds()
    t0 = time.perf_counter()
    page.goto(url + APP, wait_until="commit")
    # textContent, not innerText: innerText makes the browser lay the page out at every poll (10 a second), which
    # at a quarter core slowed the very start it measures
    page.wait_for_function(f"() => document.querySelector({json.dumps(CHOOSER)}) || "
                           f"(document.body && document.body.textContent.includes({json.dumps(FRIENDLY)}))",
                           timeout=600_000, polling=100)
    ready = time.perf_counter() - t0
    probe = page.evaluate(PROBE_READ)
    steps: dict = {}
    if page.locator(".safari-app").count():
        steps = open_identification(page, think)
        what = "Identification lab playable (cards on the table)"
    else:
        what = "kernel ready, start-up check's sentence shown (the lab needs part 1: the kit imports numpy)"
    lab = steps.get("pick_seconds", 0) + steps.get("open_seconds", 0)  # the learner's clicks -> cards on the table
    cpu = cpu_seconds()
    return {"what": what, "seconds": ready + lab, "chooser_seconds": ready, "lab_seconds": lab, **steps,
            "cpu_seconds": None if cpu is None or cpu0 is None else cpu - cpu0,
            "sentence_seconds": _sentence(probe), "probe": probe, "bytes": counter.bytes,
            "requests": counter.requests, "statuses": counter.statuses(), "log": list(counter.log)}


#: the landing page's link to the app
PLAY = "Play the labs"


def landing_to_playable(page, url: str, counter: Counter, read: float, cpu_seconds=lambda: None,
                        think: float = THINK) -> dict:
    """A visit through the landing page: it is read for ``read`` seconds, then "Play the labs" is clicked:
    seconds from the click to the chooser and to a playable lab. Where the site starts the app while the
    landing page is read (a frame of the app page, shown on the click), the app is that frame; otherwise the
    click opens the app page."""
    counter.reset()
    cpu0 = cpu_seconds()
    page.goto(url + "index.html", wait_until="domcontentloaded")
    page.wait_for_timeout(read * 1000)
    prestarted = page.locator("iframe.safari-prestart").count() > 0
    t0 = time.perf_counter()
    page.get_by_role("link", name=PLAY).click()
    root = page
    if prestarted:
        page.wait_for_function("() => { const f = document.querySelector('iframe.safari-prestart');"
                               " return f && getComputedStyle(f).visibility === 'visible'; }", timeout=60_000)
        root = next(f for f in page.frames if f.url.endswith(APP))
    root.wait_for_function(f"() => document.querySelector({json.dumps(CHOOSER)})", timeout=600_000, polling=50)
    chooser = time.perf_counter() - t0
    steps = open_identification(root, think)
    seconds = chooser + steps["pick_seconds"] + steps["open_seconds"]
    cpu = cpu_seconds()
    return {"name": "via the landing page" + (" (app prestarted)" if prestarted else ""),
            "what": f"landing page read {read:g} s, then {PLAY}" + (" (prestarted frame)" if prestarted else ""),
            "prestarted": prestarted, "seconds": seconds, "chooser_seconds": chooser, "lab_seconds": seconds - chooser,
            **steps, "cpu_seconds": None if cpu is None or cpu0 is None else cpu - cpu0, "sentence_seconds": None,
            "bytes": counter.bytes, "requests": counter.requests, "statuses": counter.statuses(),
            "log": list(counter.log)}


#: the landing page's link to the lessons, and the lesson it opens
LESSONS_LINK, FIRST_LESSON = "Open the lessons", "notebooks/00-start-here.ipynb"


def landing_to_lesson(page, url: str, counter: Counter, read: float, cpu_seconds=lambda: None) -> dict:
    """A visit through the landing page to the lessons (what a site that starts the app on its landing page costs
    a learner who goes to the lessons): read for ``read`` seconds, then "Open the lessons": seconds from the click
    to the lesson's idle kernel (in ``seconds``)."""
    counter.reset()
    cpu0 = cpu_seconds()
    page.goto(url + "index.html", wait_until="domcontentloaded")
    page.wait_for_timeout(read * 1000)
    prestarted = page.locator("iframe.safari-prestart").count() > 0
    t0 = time.perf_counter()
    page.get_by_role("link", name=LESSONS_LINK).click()
    page.wait_for_function(KERNEL_IDLE, arg=FIRST_LESSON, timeout=600_000, polling=100)
    seconds = time.perf_counter() - t0
    cpu = cpu_seconds()
    return {"name": "landing page, then lesson 00" + (" (app prestarted)" if prestarted else ""),
            "what": f"landing page read {read:g} s, then {LESSONS_LINK}" + (" (prestarted frame)" if prestarted
                                                                            else ""),
            "prestarted": prestarted, "seconds": seconds, "chooser_seconds": None, "sentence_seconds": None,
            "cpu_seconds": None if cpu is None or cpu0 is None else cpu - cpu0, "bytes": counter.bytes,
            "requests": counter.requests, "statuses": counter.statuses(), "log": list(counter.log)}


def compiled_runtime_kb(profile: str) -> int:
    """KB in the profile's WebAssembly code cache: Chrome's compiled copy of Python's runtime, which a next visit
    loads instead of compiling again (0: it kept none; at a quarter core 2 first visits in 5 kept none, issue 31,
    session 15, and the next visit took about 1 CPU-s more)."""
    folder = Path(profile) / "Default" / "Code Cache" / "wasm"
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) // 1024 if folder.is_dir() else 0


def learner_browser(pw, exe: str, profile: str):
    """A learner's browser: headless ``exe`` on the profile folder ``profile`` (its cache, storage and service
    worker stay for the next visit), 1400x1000, the page probe put in every page."""
    context = pw.chromium.launch_persistent_context(profile, executable_path=exe, headless=True,
                                                    args=bench.CHROMIUM_ARGS, viewport={"width": 1400, "height": 1000})
    context.add_init_script(PAGE_PROBE)
    return context


def app_visits(pw, exe: str, url: str, counter: Counter, outside: list[str], cpu_seconds=lambda: None,
               landing: float | None = None, think: float = THINK, to: str = "app", stay: float = STAY) -> list[dict]:
    """A first visit (a new browser profile: empty cache) and a second one (the same profile: its disk cache,
    storage and service worker, as a learner who comes back); with ``landing``, a third one through the landing
    page, read for that many seconds. A profile on disk, not an incognito context: the in-memory cache of those
    keeps no file as big as the 8.6 MB wasm runtime, nor its compiled code.

    The learner stays ``stay`` seconds on the first visit's lab before leaving (its CPU seconds are counted apart,
    ``stay_cpu_seconds``): Chrome writes its compiled copy of Python's runtime only once it has made about 1 MB
    of fast code, which at a quarter core is near the moment the lab opens, so a learner who leaves at that very
    moment often leaves none, and the second visit compiles the runtime again (issue 31, session 17)."""
    profile = tempfile.mkdtemp(prefix="measure-site-profile-")
    try:
        context = learner_browser(pw, exe, profile)
        context.on("request", lambda r: outside.append(r.url)
                   if not r.url.startswith(("http://127.0.0.1:", "data:", "blob:")) else None)
        visits = []
        for i in range(2):
            page = context.new_page()
            page.set_default_timeout(600_000)
            try:
                visits.append(app_to_playable(page, url, counter, cpu_seconds, think))
            except Exception:
                _what_the_page_showed(page)
                raise
            if i == 0 and stay > 0:
                cpu0 = cpu_seconds()
                page.wait_for_timeout(stay * 1000)
                cpu = cpu_seconds()
                visits[-1]["stay_seconds"] = stay
                visits[-1]["stay_cpu_seconds"] = None if cpu is None or cpu0 is None else cpu - cpu0
            page.close()
            visits[-1]["wasm_cache_kb"] = compiled_runtime_kb(profile)
        if landing is not None:
            page = context.new_page()
            page.set_default_timeout(600_000)
            visits.append(landing_to_lesson(page, url, counter, landing, cpu_seconds) if to == "lessons" else
                          landing_to_playable(page, url, counter, landing, cpu_seconds, think))
            page.close()
        context.close()
        return visits
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _what_the_page_showed(page) -> None:
    """A visit that failed (a lab that never showed its cards): the page's screenshot and words, to see why."""
    shot = Path(tempfile.gettempdir()) / f"measure-site-failure-{int(time.time())}.png"
    try:
        page.screenshot(path=str(shot), timeout=30_000)
        words = page.evaluate("() => (document.body && document.body.innerText || '').slice(0, 1500)")
        print(f"the visit failed; screenshot {shot}; the page said:\n{words}", flush=True)
    except Exception as exc:  # noqa: BLE001 - the page may be gone
        print(f"the visit failed; no screenshot ({exc})", flush=True)


#: ``capped_chromium`` with this many cores caps nothing on this machine: the browser's CPU seconds are counted
UNCAPPED = 64.0


def counted_app_visits(chromium: str, quota: float | None, url: str, counter: Counter, outside: list[str],
                       landing: float | None = None, think: float = THINK, to: str = "app",
                       stay: float = STAY) -> list[dict]:
    """The visits in a browser capped at ``quota`` of one core (a cgroup: the worker is capped too); with
    ``quota`` None, uncapped, its CPU seconds counted where a cgroup can be made (root), else not counted."""
    from playwright.sync_api import sync_playwright

    try:
        cap = capped_chromium(chromium, UNCAPPED if quota is None else quota)
        exe, cpu_seconds = cap.__enter__()
    except RuntimeError:
        if quota is not None:
            raise
        cap, exe, cpu_seconds = None, chromium, (lambda: None)
    try:
        with sync_playwright() as pw:
            return app_visits(pw, exe, url, counter, outside, cpu_seconds, landing, think, to, stay)
    finally:
        if cap is not None:
            cap.__exit__(None, None, None)


def lesson_and_clicks(browser, url: str, counter: Counter, outside: list[str], clicks: int) -> dict:
    context, page = new_page(browser, outside)
    counter.reset()
    t0 = time.perf_counter()
    page.goto(f"{url}lab/index.html?path={LESSON}", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=180_000, polling=100)
    result: dict = {"seconds": time.perf_counter() - t0, "bytes": counter.bytes, "requests": counter.requests}

    def run_first_cell(code: str) -> list[str]:
        page.evaluate("""(code) => {
            const w = window.jupyterapp.shell.currentWidget;
            w.model.sharedModel.insertCell(0, {cell_type: 'code', source: code});
            w.content.activeCellIndex = 0;
            window.__siteRun = null;
            window.jupyterapp.commands.execute('notebook:run-cell').then(() => { window.__siteRun = true; });
        }""", code)
        page.wait_for_function("""() => window.__siteRun && window.jupyterapp.shell.currentWidget
                                  .sessionContext.session.kernel.status === 'idle'""", timeout=180_000)
        return page.evaluate("""() => window.jupyterapp.shell.currentWidget.model.sharedModel.cells[0].toJSON()
            .outputs.map(o => o.output_type === 'error' ? 'error: ' + o.ename + ': ' + o.evalue
                         : (o.text || (o.data && o.data['text/plain']) || ''))""")

    echo_out = run_first_cell(bench.ECHO)
    page.locator(".bare-btn").first.wait_for(timeout=60_000)
    lab_out = run_first_cell(bench.SETUP)
    has_lab = page.locator(bench.PLACES).count() > 0
    result["lab_note"] = "" if has_lab else f"lab not available: {' '.join(lab_out)[:200]}"
    page.wait_for_timeout(500)
    lab_ms, bare_ms = [], []
    keys = []
    if has_lab:
        places = page.locator(bench.PLACES)
        keys = [places.nth(i).get_attribute("data-key") for i in range(min(2, places.count()))]
    warm = 5
    for i in range(clicks + warm):
        if keys:
            sel = f"{bench.LAB} .safari-table .st-selectable[data-key='{keys[i % len(keys)]}']"
            ms = click_latency_ms(page, sel, f"{bench.LAB} .safari-prob", timeout_ms=10_000)
            page.wait_for_timeout(60)
            if i >= warm:
                lab_ms.append(ms)
        bms = click_latency_ms(page, ".bare-btn", ".bare-echo", timeout_ms=10_000)
        page.wait_for_timeout(60)
        if i >= warm:
            bare_ms.append(bms)
    result.update(lab=lab_ms, bare=bare_ms, echo_out=echo_out)
    context.close()
    return result


def jupyterlab_clicks(clicks: int, chromium: str) -> dict:
    home = Path(tempfile.mkdtemp(prefix="measure-site-lab-"))
    root = home / "root"
    write_notebook(root / "bench.ipynb", [bench.SETUP, bench.ECHO])
    proc, url, _log = bench.start_lab(root, home, nagle=False)
    try:
        return bench.measure(url, clicks, chromium)
    finally:
        bench.stop(proc)
        shutil.rmtree(home, ignore_errors=True)


def row(name: str, samples: list[float]) -> str:
    s = latency_summary(samples)
    if not s["n"]:
        return f"  {name:52s} (not measured)"
    return f"  {name:52s} n={s['n']:3d}  median {s['median']:6.1f}  p95 {s['p95']:6.1f}  max {s['max']:6.1f} ms"


VISITS = ("first visit", "second visit", "via the landing page")


def visit_name(v: dict, i: int) -> str:
    return v.get("name") or VISITS[i]


def visit_rows(visits: list[dict], where: str) -> str:
    lines = []
    for i, v in enumerate(visits):
        name = visit_name(v, i)
        shown = f"{v['sentence_seconds']:.1f} s" if v.get("sentence_seconds") is not None else "never"
        cpu = f", {v['cpu_seconds']:.1f} CPU s" if v.get("cpu_seconds") is not None else ""
        steps = (f"; chooser -> lab {v['lab_seconds']:.1f} s (picking {v['pick_seconds']:.1f} s, Open lab -> cards "
                 f"{v['open_seconds']:.1f} s)") if "open_seconds" in v else ""
        probe = v.get("probe") or {}
        nav = (f"; page's first byte at {probe['responseStart'] / 1000:.1f} s"
               + (f" (service worker started at {probe['workerStart'] / 1000:.1f} s)" if probe["workerStart"] else "")
               + (f", the sentence in the page at {probe['inserted'] / 1000:.1f} s" if probe.get("inserted") else "")
               + (f", render-blocking files ({', '.join(probe['blocking'])}) in at {probe['blockingEnd'] / 1000:.1f} s"
                  if probe.get("blocking") else "")
               + (f", first paint {probe['fcp'] / 1000:.1f} s" if probe.get("fcp") else "")) if probe else ""
        chooser = (f"chooser at {v['chooser_seconds']:.1f} s, start-up sentence at {shown}"
                   if v.get("chooser_seconds") is not None else "the seconds: from the click to the kernel's idle")
        stayed = (f"; the learner stayed {v['stay_seconds']:g} s on the lab"
                  + (f" ({v['stay_cpu_seconds']:.1f} CPU-s, not counted)" if v.get("stay_cpu_seconds") is not None
                     else "") if v.get("stay_seconds") else "")
        kept = (f"; Chrome's compiled runtime after it: {v['wasm_cache_kb']} KB"
                + (" (none kept: the next visit compiles it again)" if not v["wasm_cache_kb"] else "")
                if "wasm_cache_kb" in v else "")
        lines.append(f"  {where:>18s}, {name}: {v['seconds']:5.1f} s to playable{cpu}, {v['bytes'] / 1e6:5.1f} MB in "
                     f"{v['requests']:3d} requests {v['statuses']} ({chooser}{nav}{steps}{stayed}{kept})")
    return "\n".join(lines)


#: the figures summarised over the runs: (key of a visit, its name in the table, unit)
FIGURES = (("seconds", "to a playable lab", "s"), ("chooser_seconds", "to the chooser", "s"),
           ("lab_seconds", "lab picked -> cards on the table", "s"),
           ("sentence_seconds", "start-up sentence shown", "s"),
           ("cpu_seconds", "CPU", "CPU-s"), ("bytes", "downloaded", "MB"))


def spread(values: list[float | None]) -> str:
    """``median (min-max)`` of the runs' values, or ``-`` where none was measured."""
    xs = [x for x in values if x is not None]
    if not xs:
        return "-"
    med, lo, hi = statistics.median(xs), min(xs), max(xs)
    digits = 1
    return f"{med:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})" if len(xs) > 1 else f"{med:.{digits}f}"


def summary(runs: dict[str, list[list[dict]]]) -> list[tuple[str, str, str, str]]:
    """(where, visit, figure, median (range)) for every figure of every visit measured."""
    rows = []
    for where, visit_runs in runs.items():
        for i in range(len(VISITS)):
            per_run = [vs[i] for vs in visit_runs if len(vs) > i]
            if not per_run:
                continue
            name = visit_name(per_run[0], i)
            for key, label, unit in FIGURES:
                scale = 1e-6 if key == "bytes" else 1
                values = [None if v.get(key) is None else v[key] * scale for v in per_run]
                if any(x is not None for x in values):
                    rows.append((where, name, f"{label} ({unit})", spread(values)))
    return rows


def markdown(runs: dict[str, list[list[dict]]], n: int) -> str:
    """The figures as a Markdown table: one row a visit, one column a figure (median and range of ``n`` runs)."""
    head = "| Browser | Visit | " + " | ".join(f"{label} ({unit})" for _k, label, unit in FIGURES) + " |"
    lines = [head, "|" + "---|" * (len(FIGURES) + 2)]
    for where, visit_runs in runs.items():
        for i in range(len(VISITS)):
            per_run = [vs[i] for vs in visit_runs if len(vs) > i]
            if not per_run:
                continue
            name = visit_name(per_run[0], i)
            cells = []
            for key, _label, _unit in FIGURES:
                scale = 1e-6 if key == "bytes" else 1
                cells.append(spread([None if v.get(key) is None else v[key] * scale for v in per_run]))
            lines.append(f"| {where} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + f"\n\nMedian (range) of {n} run{'s' if n > 1 else ''}; the seconds a learner reads " \
        "the chooser before picking a lab are not counted."


def _cpu_ticks() -> dict[int, tuple[str, int]]:
    ticks = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        ticks[int(stat.parent.name)] = (name, int(fields[11]) + int(fields[12]))
    return ticks


def machine_load(window: float = 1.0) -> str:
    """The machine's load average and what else used its CPU over ``window`` seconds (by process name): a shared
    machine's figures depend on it."""
    import os

    before = _cpu_ticks()
    time.sleep(window)
    after = _cpu_ticks()
    hz = os.sysconf("SC_CLK_TCK")
    used: collections.Counter = collections.Counter()
    for pid, (name, t) in after.items():
        if pid in before and pid != os.getpid():
            used[name] += (t - before[pid][1]) / hz / window
    busy = ", ".join(f"{name} {share:.0%}" for name, share in used.most_common(4) if share >= 0.05) or "nothing"
    return f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; CPU over {window:g} s: {busy}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(REPO / "site"), help="a built site (make site [OFFLINE=1])")
    ap.add_argument("--clicks", type=int, default=30, help="timed clicks of each kind (after 5 warm-up)")
    ap.add_argument("--no-jupyterlab", dest="jupyterlab", action="store_false")
    ap.add_argument("--app-only", action="store_true", help="only the app page's visits (no lesson, no clicks)")
    ap.add_argument("--runs", type=int, default=3, help="the app page's visits this many times (median and range)")
    ap.add_argument("--landing", type=float, default=None, metavar="SECONDS",
                    help="also a visit through the landing page, read this many seconds before Play the labs")
    ap.add_argument("--landing-to", choices=("app", "lessons"), default="app",
                    help="where the landing page's visit goes: Play the labs (app) or Open the lessons (lessons: "
                         "seconds from the click to lesson 00's idle kernel, in the 'to a playable lab' column)")
    ap.add_argument("--think", type=float, default=THINK, metavar="SECONDS",
                    help="seconds a learner reads the chooser before picking a lab (not counted; 0: at once)")
    ap.add_argument("--stay", type=float, default=STAY, metavar="SECONDS",
                    help=f"seconds a learner stays on the first visit's lab before leaving (not counted; default "
                         f"{STAY:g}: reads it; 0: leaves the moment it is playable, as before session 17)")
    ap.add_argument("--cpu-quota", type=float, default=None, metavar="CORES",
                    help="also measure the app page's visits with the browser capped at this share of one core "
                         "(0.25: a quarter; a cgroup, needs root)")
    ap.add_argument("--capped-only", action="store_true",
                    help="with --cpu-quota: measure only the capped browser (half the time)")
    ap.add_argument("--markdown", action="store_true", help="also print the app's figures as a Markdown table")
    ap.add_argument("--plain-http-server", action="store_true",
                    help="serve with `python -m http.server`'s handler (no Cache-Control) instead of the site's "
                         "serve.py (site-src/serve_site.py: the documented way, and the reported figures)")
    ap.add_argument("--list-requests", action="store_true",
                    help="list every request of each second visit with its status (what a return visit asks)")
    args = ap.parse_args(argv)
    site = Path(args.site)
    if not (site / "jupyter-lite.json").is_file():
        print(f"no site in {site}: run `make site OFFLINE=1` (or `make site`) first")
        return 1
    if args.runs < 1:
        print(f"--runs {args.runs}: give at least 1")
        return 1
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        print("Debian's chromium is needed (apt-get install chromium)")
        return 1
    build = json.loads((site / "BUILD.json").read_text()) if (site / "BUILD.json").is_file() else {}
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    runtime_dir = runtime_folder(site)
    runtime = sum(p.stat().st_size for p in runtime_dir.glob("*") if p.is_file())

    counter, outside = Counter(), []
    if args.capped_only and not args.cpu_quota:
        print("--capped-only needs --cpu-quota")
        return 1
    runs: dict[str, list[list[dict]]] = {} if args.capped_only else {"uncapped": []}
    capped_name = f"capped at {args.cpu_quota:g} core" if args.cpu_quota else None
    if capped_name:
        runs[capped_name] = []
    loads = [machine_load()]
    speed = machine_speed.reference()  # before the runs, the machine idle: a faster core makes faster figures
    server, url = serve(site, counter, plain=args.plain_http_server)
    lesson = None
    try:
        for i in range(args.runs):
            if not args.capped_only:
                runs["uncapped"].append(counted_app_visits(chromium, None, url, counter, outside, args.landing,
                                                           args.think, args.landing_to, args.stay))
            if capped_name:
                runs[capped_name].append(counted_app_visits(chromium, args.cpu_quota, url, counter, outside,
                                                            args.landing, args.think, args.landing_to,
                                                            args.stay))
            loads.append(machine_load())
            print(f"run {i + 1} of {args.runs} done", flush=True)
        if not args.app_only:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, headless=True, args=bench.CHROMIUM_ARGS)
                lesson = lesson_and_clicks(browser, url, counter, outside, args.clicks)
                browser.close()
    finally:
        server.shutdown()
    lab = (jupyterlab_clicks(args.clicks, chromium) if args.jupyterlab and not args.app_only
           else {"lab": [], "bare": []})

    mode = "offline" if build.get("offline") else "online runtime"
    if args.list_requests:
        for where, visit_runs in runs.items():
            for code, path in (visit_runs[0][1]["log"] if len(visit_runs[0]) > 1 else []):
                print(f"  {where} second visit: {code} {path}")
    print(f"\nThe static site {site} ({mode}, Pyodide {build.get('pyodide', '?')}): {total / 1e6:.1f} MB on disk, "
          f"of which static/{runtime_dir.name}/ {runtime / 1e6:.1f} MB")
    served = "python -m http.server (no Cache-Control)" if args.plain_http_server else "the site's serve.py"
    what = next(iter(runs.values()))[0][0]["what"]
    print(f"\nThe app page -> {what}, headless chromium on this machine, served by {served}; "
          f"the chooser read {args.think:g} s before a lab is picked (not counted), the first visit's lab "
          f"{args.stay:g} s before the learner leaves (not counted):")
    for i in range(args.runs):
        print(f"run {i + 1}:")
        for where, visit_runs in runs.items():
            print(visit_rows(visit_runs[i], where))
    print(f"\nMedian (range) of {args.runs} runs:")
    for where, name, figure, value in summary(runs):
        print(f"  {where:>18s}, {name:>20s}: {figure:32s} {value}")
    print("\nThe machine while measuring (before, after each run):\n  " + "\n  ".join(loads))
    print(f"  {speed}")
    if args.markdown:
        print("\n" + markdown(runs, args.runs))
        print(f"The machine: {speed}.")
    if lesson is None:
        print(f"\nrequests to other hosts: {len(outside)}" + (f": {sorted(set(outside))[:10]}" if outside else ""))
        return 0
    print(f"\nlesson 02 in JupyterLite, cold cache -> kernel idle: {lesson['seconds']:.1f} s, "
          f"{lesson['bytes'] / 1e6:.1f} MB in {lesson['requests']} requests")
    print(f"\nClick -> kernel -> DOM round trips ({args.clicks} clicks each):")
    print(row("browser kernel: lab place click -> chances", lesson["lab"]))
    if lesson["lab_note"]:
        print(f"    ({lesson['lab_note']})")
    print(row("browser kernel: bare anywidget echo", lesson["bare"]))
    if args.jupyterlab:
        print(row("JupyterLab (Nagle off): lab place click -> chances", lab["lab"]))
        print(row("JupyterLab (Nagle off): bare anywidget echo", lab["bare"]))
        if lesson["lab"] and lab["lab"]:
            print(f"  browser kernel - JupyterLab (lab medians): "
                  f"{statistics.median(lesson['lab']) - statistics.median(lab['lab']):+.1f} ms")
    print(f"\nrequests to other hosts: {len(outside)}" + (f": {sorted(set(outside))[:10]}" if outside else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
