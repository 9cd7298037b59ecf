"""Fixtures for browser tests (JupyterLab + Debian's chromium + Playwright).

See tests/browser/helpers.py for the fixtures' and helpers' API. Never call
``playwright install``: the browser is Debian's chromium (``.ci/run`` installs it).
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser.helpers import IGNORED_CONSOLE, shot_on_failure
from tests.conftest import quick_server_env

REPO = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
CHROMIUM_ARGS += os.environ.get("SAFARI_TEST_CHROMIUM_ARGS", "").split()  # for measuring a flag's cost

#: how often (ms) a ``wait_for_function`` given no ``polling`` checks its condition. Playwright's default,
#: "raf", checks on every animation frame, and asking for frames keeps Chromium drawing 60 frames a second for
#: as long as the wait lasts; a busy machine makes waits longer, so that cost grows with the load (issue 28:
#: the four a11y files, 78.6 -> 70.0 CPU-s at 100 ms). 50 ms still sees a state that lasts a twentieth of a
#: second. SAFARI_TEST_POLLING=0 keeps Playwright's default (to measure).
WAIT_POLLING_MS = int(os.environ.get("SAFARI_TEST_POLLING", "50"))


def _poll_on_a_timer() -> None:
    from playwright.sync_api import Frame, Page

    for cls in (Page, Frame):
        original = cls.wait_for_function
        if getattr(original, "_safari_timer", False):
            continue

        def wait_for_function(self, expression, *, arg=None, timeout=None, polling=None, _original=original):
            return _original(self, expression, arg=arg, timeout=timeout,
                             polling=WAIT_POLLING_MS if polling is None else polling)

        wait_for_function._safari_timer = True
        cls.wait_for_function = wait_for_function


if WAIT_POLLING_MS:
    _poll_on_a_timer()

#: the motion a page of a test that does not look at motion asks for (``browser.new_context(reduced_motion=...)``).
#: table.css makes every selectable card glow (a box-shadow animation, never still): Chromium draws such a page 60
#: times a second for as long as it is open, 0.26 CPU-s a second for 12 glowing cards idle, 0.005 with ``reduce``
#: (issue 28: tools/motion_cost.py, a page of table.css and 12 cards, 15 s each, twice). ``reduce`` stops the glow
#: and the cards' lift on hover (transforms and box-shadows: no layout, no colour axe reads). Used by the tests that
#: check layout, words or axe (test_a11y_axe's tour, test_no_scroll, test_table_words_browser, the learners'
#: lessons); a test of motion itself sets its own (test_a11y_touch). SAFARI_TEST_MOTION=no-preference: the default.
QUIET_MOTION = os.environ.get("SAFARI_TEST_MOTION", "reduce")
STARTUP_TIMEOUT = 60


def _missing(what: str):
    if IN_CI:
        pytest.fail(f"{what} (CI=true: browser tests must run in CI)")
    pytest.skip(what)


#: Debian's chromium comes in two packages built from one source: ``chromium`` (the browser, whose
#: ``--headless`` is the whole browser without a window; the tests' browser) and ``chromium-headless-shell``
#: (the same Blink and V8 without the browser's own layers; what Playwright runs for headless tests by default).
#: The shell cost 4-23 % less CPU for the same page (issue 28, ``tools/browser_cost.py`` on the shared host,
#: two runs in turn: a JupyterLab notebook page 9.9 -> 8.3 CPU-s, the static site's app page 9.6 -> 8.7, a
#: lesson in JupyterLite 28.1 -> 26.2): ``SAFARI_TEST_BROWSER=chromium-headless-shell`` runs the tests in it (an
#: experiment, not yet a whole suite run: the default stays the browser).
BROWSERS = ("chromium", "chromium-headless-shell")


def find_chromium(prefer: str | None = None) -> str | None:
    """The path of Debian's chromium, else of its headless shell (``prefer``: one of BROWSERS first)."""
    names = BROWSERS if not prefer else (prefer, *[b for b in BROWSERS if b != prefer])
    for name in names:
        path = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium(os.environ.get("SAFARI_TEST_BROWSER") or None)
    if not path:
        _missing("Debian's chromium is not installed (apt-get install chromium; never `playwright install`)")
    return path


@dataclass
class LabServer:
    url: str          # http://127.0.0.1:PORT
    token: str
    root: Path        # the server's root_dir (a temporary folder)
    log: Path         # the server's stdout+stderr
    proc: subprocess.Popen

    def lab_url(self, path: str = "") -> str:
        # ?reset: a fresh workspace, so tabs opened by earlier tests are not restored
        if path:
            return f"{self.url}/lab/tree/{path}?reset&token={self.token}"
        return f"{self.url}/lab?reset&token={self.token}"

    def api(self, endpoint: str, timeout: float = 5):
        req = urllib.request.Request(f"{self.url}/api/{endpoint}", headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.read()

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (server + kernels), then SIGKILL if needed."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    try:  # kernels left behind, or a stuck server
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _start(root: Path, home: Path) -> LabServer:
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.exists():
        _missing("jupyter is not installed in the test venv (pip install -e '.[lab,test]')")
    token = secrets.token_hex(24)
    port = _free_port()
    log = home / f"jupyter-lab-{port}.log"
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH"}}
    env.update(
        JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), IPYTHONDIR=str(home / "ipython"),
        PYTHONNOUSERSITE="1",
    )
    env = quick_server_env(env)
    # No "official Jupyter news?" toast over the screenshots, no update check.
    notif = home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notif.parent.mkdir(parents=True, exist_ok=True)
    notif.write_text('{"fetchNews": "false", "checkForUpdates": false}')
    cmd = [str(jupyter), "lab", "--allow-root", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
           f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           # a safety net if pytest dies without cleaning up: idle kernels and an
           # idle server end themselves
           "--MappingKernelManager.cull_idle_timeout=900", "--MappingKernelManager.cull_interval=60",
           "--ServerApp.shutdown_no_activity_timeout=1200"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    server = LabServer(url=f"http://127.0.0.1:{port}", token=token, root=root, log=log, proc=proc)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with rc={proc.returncode}:\n{server.log_tail()}")
        try:
            server.api("status", timeout=2)
            return server
        except OSError:
            pass
        if time.monotonic() > deadline:
            _stop(proc)
            raise TimeoutError(f"jupyter lab not ready after {STARTUP_TIMEOUT} s:\n{server.log_tail()}")
        time.sleep(0.2)


@contextlib.contextmanager
def serve_copy(prefix: str, label: str, start):
    """Run a server on a temporary copy of notebooks/, data/ and voila.json, then stop it and remove the copy.

    ``start(root, home)`` starts the server (retried when the free port was taken
    between probe and bind); a copy means autosave and outputs never touch the
    committed notebooks.
    """
    home = Path(tempfile.mkdtemp(prefix=prefix))
    root = home / "root"
    root.mkdir()
    if (REPO / "notebooks").is_dir():
        shutil.copytree(REPO / "notebooks", root / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    else:
        (root / "notebooks").mkdir()
    if (REPO / "data").is_dir():
        shutil.copytree(REPO / "data", root / "data")
    if (REPO / "voila.json").is_file():  # Voila's settings, read from the folder it starts in
        shutil.copy(REPO / "voila.json", root / "voila.json")
    server = None
    try:
        for attempt in range(3):
            try:
                server = start(root, home)
                break
            except RuntimeError as exc:
                if attempt == 2 or "address already in use" not in str(exc).lower():
                    pytest.fail(str(exc), pytrace=False)
            except TimeoutError as exc:
                pytest.fail(str(exc), pytrace=False)
        yield server
    finally:
        if server is not None:
            _stop(server.proc)
            if server.proc.returncode not in (0, -signal.SIGTERM, None):
                print(f"\n{label} ended with rc={server.proc.returncode}; log tail:\n{server.log_tail(20)}")
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def lab_server(chromium_path):
    with serve_copy("safari-lab-", "jupyter lab", _start) as server:
        yield server


@pytest.fixture(scope="session")
def browser(chromium_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (it is in the test extra)")
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


@pytest.fixture
def js_errors() -> list[str]:
    return []


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep


def watch_errors(page, sink, console: bool = True) -> None:
    """The page's uncaught errors (and with ``console``, its ``console.error`` messages less IGNORED_CONSOLE) into
    the list ``sink()`` returns at the time (a function: a page shared by tests sends each test's to its own)."""
    ignored = [re.compile(p) for p in IGNORED_CONSOLE]

    def on_console(msg):
        if msg.type == "error" and sink() is not None:
            loc = msg.location or {}
            where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc.get("url") else ""
            if not any(rx.search(msg.text + where) for rx in ignored):
                sink().append(f"console.error: {msg.text}{where}")

    def on_error(exc):
        if sink() is not None:
            sink().append(f"pageerror: {exc}")

    if console:
        page.on("console", on_console)
    page.on("pageerror", on_error)


# ----------------------------------------------------------------------------- warm contexts (issue 28)
#: Chromium keeps its HTTP cache and V8's code cache per browser context. A page of JupyterLab loaded in a new
#: context cost Chromium 5.4-5.9 CPU-s, loaded again in the same context 2.1-2.9 (the app on Voilà: 4.3 -> 3.9;
#: tools/warm_context_cost.py). So the tests whose subject is not a first visit share one context per process (a
#: pytest-xdist worker) per set of the options only a context can have (locale, has_touch, ...): each test gets a
#: page of its own (its viewport and motion set on the page), closed after it, and what a test may leave behind
#: in the context is cleared (:meth:`WarmContexts.reset`). A test about a first visit, cookies, storage or several
#: learners uses ``fresh_page`` or a context of its own. Nine files that moved (rules_pages, tutorial_rulings,
#: app_start_and_simulation, witness_labs_issue27, lab_smoke, knockout_flow, app_voila, tutorial_quiz,
#: a11y_keyboard) in one ``-n0 -p tests.cpu_times`` process, before -> after, two pairs run in turn on the shared
#: host: 144 -> 133 and 146 -> 151 CPU-s: the saving (about 3 CPU-s a warm JupyterLab load) is within the noise
#: of a run of this size.

#: cookies a reset keeps: Jupyter's login (``username-<host>-<port>``) and ``_xsrf``: the JupyterLab page that
#: tests/browser/lab_tab.py keeps open in the warm context needs them for every request (its page config has no
#: token). Cookies are per host, not per port: every other cookie of 127.0.0.1 goes after each test.
KEPT_COOKIES = re.compile(r"^(_xsrf|username-.*)$")
#: what a reset clears for each origin a test's pages visited (the HTTP cache stays: it is the point)
CLEARED_STORAGE = "local_storage,indexeddb,websql,service_workers,cache_storage,file_systems"


def _origin(url: str) -> str | None:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


class WarmContexts:
    """The process's warm contexts of one browser (:func:`warm_contexts_of`)."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts: dict[tuple, object] = {}
        self.resident: set = set()  # pages that outlive a test (lab_tab's page, a module's page): a reset keeps them

    def context(self, **options):
        """The warm context for ``options`` (only what a page cannot set: ``locale``, ``has_touch``...)."""
        key = tuple(sorted(options.items()))
        if key not in self.contexts:  # a page it opens itself (not new_page): 1366x768, less motion
            ctx = self.browser.new_context(**{"viewport": {"width": 1366, "height": 768},
                                              "reduced_motion": QUIET_MOTION, **options})
            ctx.on("close", lambda _ctx, key=key: self.contexts.pop(key, None))
            self.contexts[key] = ctx
        return self.contexts[key]

    def new_page(self, viewport: dict, reduced_motion: str = "no-preference", resident: bool = False, **options):
        """A new page in the warm context for ``options``, at ``viewport``, asking for ``reduced_motion``.
        ``resident``: it outlives the test (close it with :meth:`release`)."""
        page = self.context(**options).new_page()
        page._safari_origins = set()
        page.on("framenavigated", lambda frame: page._safari_origins.add(_origin(frame.url)))
        page.set_viewport_size(viewport)
        page.emulate_media(reduced_motion=reduced_motion)
        page.set_default_timeout(60_000)
        if resident:
            self.resident.add(page)
        return page

    def release(self, page) -> None:
        """The end of a resident page: closed, and its context reset."""
        self.resident.discard(page)
        self.reset(page)

    def reset(self, page) -> None:
        """After a test whose page is ``page``: every page of its context but the resident ones closed; for each
        origin they visited, local storage, IndexedDB, service workers and Cache Storage cleared; cookies but
        KEPT_COOKIES cleared; permissions, routes, offline mode and extra headers back to none. On any failure
        the context is closed (the next test gets a new one). What a reset cannot undo (``add_init_script``,
        ``expose_binding``, listeners on the context): a test that needs them uses a context of its own."""
        ctx = page.context
        try:
            pages = [p for p in ctx.pages if p not in self.resident]
            origins = set(getattr(page, "_safari_origins", set()))
            for p in pages:
                origins |= getattr(p, "_safari_origins", set()) | {_origin(p.url)}
            origins.discard(None)
            if origins:
                if not pages:  # the test closed its page: one to speak to the browser through
                    pages.append(ctx.new_page())
                cdp = ctx.new_cdp_session(pages[0])
                for origin in sorted(origins):
                    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": CLEARED_STORAGE})
                cdp.detach()
            for p in pages:
                p.close()
            kept = [c for c in ctx.cookies() if KEPT_COOKIES.match(c["name"])]
            ctx.clear_cookies()
            if kept:
                ctx.add_cookies(kept)
            ctx.clear_permissions()
            ctx.unroute_all(behavior="ignoreErrors")
            ctx.set_offline(False)
            ctx.set_extra_http_headers({})
        except Exception:  # noqa: BLE001 - a context that broke: the next test gets a new one
            with contextlib.suppress(Exception):
                ctx.close()

    @contextlib.contextmanager
    def page_for(self, request, js_errors: list[str], viewport: dict, reduced_motion: str = "no-preference",
                 console: bool = True, **options):
        """A test's page in the warm context (:meth:`new_page`), its errors to ``js_errors``; a failing test leaves
        ``test-artifacts/<test name>-failure.png``; then :meth:`reset`."""
        page = self.new_page(viewport, reduced_motion, **options)
        watch_errors(page, lambda: js_errors, console=console)
        try:
            yield page
        finally:
            shot_on_failure(page, request)
            self.reset(page)

    def close(self) -> None:
        for ctx in list(self.contexts.values()):
            with contextlib.suppress(Exception):
                ctx.close()
        self.contexts.clear()
        self.resident.clear()


_WARM: dict[int, WarmContexts] = {}


def warm_contexts_of(browser) -> WarmContexts:
    """The :class:`WarmContexts` of ``browser`` (the process's ``browser`` fixture: one per pytest process)."""
    warm = _WARM.get(id(browser))
    if warm is None or warm.browser is not browser:
        warm = _WARM[id(browser)] = WarmContexts(browser)
    return warm


@pytest.fixture(scope="session")
def warm_contexts(browser) -> WarmContexts:
    """The process's warm contexts (:class:`WarmContexts`); ``warm_contexts.page_for(request, js_errors, viewport)``."""
    warm = warm_contexts_of(browser)
    yield warm
    warm.close()
    _WARM.pop(id(browser), None)


@pytest.fixture
def page(warm_contexts, js_errors, request):
    """A new page (1400x900) in the process's warm context, feeding ``js_errors``; closed and the context reset after
    the test. For a test about a first visit, cookies or storage: ``fresh_page``."""
    with warm_contexts.page_for(request, js_errors, {"width": 1400, "height": 900}) as pg:
        yield pg


@pytest.fixture
def fresh_page(browser, js_errors, request):
    """A page (1400x900) in a context of its own (nothing cached, no cookie, no storage), feeding ``js_errors``."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    watch_errors(pg, lambda: js_errors)
    try:
        yield pg
    finally:
        shot_on_failure(pg, request)
        context.close()


# ----------------------------------------------------------------------------- the Voilà app
VOILA_STARTUP_TIMEOUT = 60


class VoilaServer:
    def __init__(self, url: str, log: Path, proc: subprocess.Popen):
        self.url, self.log, self.proc = url, log, proc

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"


def _start_voila(root: Path, home: Path) -> VoilaServer:
    voila = Path(sys.executable).parent / "voila"
    if not voila.exists():
        _missing("voila is not installed in the test venv (it is in the lab extra)")
    port = _free_port()
    log = home / f"voila-{port}.log"
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH"}}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"), PYTHONNOUSERSITE="1")
    env = quick_server_env(env)
    cmd = [str(voila), "notebooks/app.ipynb", "--no-browser", f"--port={port}", "--Voila.port_retries=0",
           "--Voila.ip=127.0.0.1", "--show_tracebacks=True"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    server = VoilaServer(f"http://127.0.0.1:{port}/", log, proc)
    deadline = time.monotonic() + VOILA_STARTUP_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited with rc={proc.returncode}:\n{server.log_tail()}")
        try:
            # /voila/static answers without starting a kernel (the page itself would start one)
            with urllib.request.urlopen(f"{server.url}api/kernels", timeout=2) as resp:
                if resp.status < 500:
                    return server
        except urllib.error.HTTPError as exc:
            if exc.code < 500:
                return server
        except OSError:
            pass
        if time.monotonic() > deadline:
            _stop(proc)
            raise TimeoutError(f"voila not ready after {VOILA_STARTUP_TIMEOUT} s:\n{server.log_tail()}")
        time.sleep(0.2)


def _voila_settings() -> tuple:
    """What a Voilà started now would be started with: its environment (the kit reads settings such as
    ``SAFARI_KIT_CLASS_SEED`` from it), less pytest's own per-test variables."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if not k.startswith("PYTEST_")))


def _voila_kernels(server: VoilaServer) -> list[str]:
    """The kernels the server runs now, read off its log (Voilà serving one notebook has no kernel list)."""
    running: dict[str, None] = {}
    for line in server.log.read_text(errors="replace").splitlines() if server.log.exists() else []:
        if m := re.search(r"Kernel started: ([0-9a-f-]{36})", line):
            running[m.group(1)] = None
        elif m := re.search(r"Kernel shutdown: ([0-9a-f-]{36})", line):
            running.pop(m.group(1), None)
    return list(running)


def _shut_voila_kernels(server: VoilaServer) -> None:
    """Shut down every kernel the module's pages left, as a server of its own would at the module's end:
    the request the page's unload handler sends (``POST voila/api/shutdown/<id>``, a closed Playwright
    page never sends it)."""
    xsrf = secrets.token_hex(16)
    for kernel_id in _voila_kernels(server):
        req = urllib.request.Request(f"{server.url}voila/api/shutdown/{kernel_id}", method="POST",
                                     data=urllib.parse.urlencode({"_xsrf": xsrf}).encode(),
                                     headers={"Cookie": f"_xsrf={xsrf}"})
        with contextlib.suppress(OSError):
            urllib.request.urlopen(req, timeout=30).close()


@pytest.fixture(scope="session")
def voila_servers(chromium_path):
    """``voila_servers(settings)``: one Voilà (``make app``, from one fresh copy) per set of settings for the
    whole run, started on first use (issue 28: a Voilà per module was started 13 times a run)."""
    servers: dict[tuple, VoilaServer] = {}
    with contextlib.ExitStack() as stack:
        def get(settings: tuple) -> VoilaServer:
            if settings not in servers:
                servers[settings] = stack.enter_context(serve_copy("safari-voila-", "voila", _start_voila))
            return servers[settings]

        yield get


@pytest.fixture(scope="module")
def voila_app(voila_servers):
    """The classroom app (``make app``) served by Voilà from a fresh copy of the kit's notebooks and data.

    Modules that start it with the same settings (environment) share one server for the run; a module
    that changes a setting first (e.g. an autouse fixture setting ``SAFARI_KIT_CLASS_SEED``) gets a server
    of its own. Each module starts with no kernel running, and the kernels its pages started are shut
    down at its end, as a server of its own would: no module sees another's kernels. Files a test writes
    into ``server_root(voila_app)`` stay for the run (tests compare the files before and after).
    """
    server = voila_servers(_voila_settings())
    _shut_voila_kernels(server)
    left = _voila_kernels(server)
    if left:  # the shutdown is awaited before the reply, so the log names it by now
        pytest.fail(f"voila still runs the kernels {left} of an earlier module:\n{server.log_tail()}", pytrace=False)
    try:
        yield server
    finally:
        _shut_voila_kernels(server)


# the static site's fixtures (issue 13): offline_site, online_site, site_page; they use this file's browser fixtures
from tests.browser.site_fixtures import offline_site, online_site, site_page  # noqa: E402,F401
