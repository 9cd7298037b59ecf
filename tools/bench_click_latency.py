"""Click latency in a real browser: the Identification lab next to a bare anywidget, Nagle on and off.

    .venv/bin/python tools/bench_click_latency.py                 # both modes, 60 clicks each
    .venv/bin/python tools/bench_click_latency.py --clicks 100 --modes off
    .venv/bin/python tools/bench_click_latency.py --no-browser    # only the kernel's share (cProfile)

A benchmark, not a test: it prints figures and asserts nothing (targets, issue 12:
lab click -> updated chances median <= 30 ms, p95 <= 60 ms).

For each mode it starts JupyterLab from this venv (a scratch Jupyter config,
``--allow-root`` when root) and Debian's headless chromium, opens one notebook
holding the Identification lab (``IdentificationLab(seed=1)``, brought to the
learner's Identify step with its own buttons) and a tiny anywidget echo, then
times in the page (``performance.now``, ``click_latency_ms`` of
tests/browser/helpers.py) from a click to the first DOM change:

* **lab**: a click on a face-down place (``.st-selectable[data-key^='place:']``,
  two places in turn) until the chances panel (``.safari-prob``) changes: the
  anywidget table's ``click`` -> kernel (the lab's handler) -> the panel's HTML;
* **bare**: a click on the echo widget's button until its text changes: the
  same anywidget -> kernel -> anywidget trip with no work in the kernel.

Modes: **off** (the kit's default: ``safari_kit.server`` sets TCP_NODELAY on the
kernel websocket) and **on** (the extension disabled with
``--ServerApp.jpserver_extensions=safari_kit.server=False``: Nagle's algorithm on,
as jupyter_server leaves it). The server log says which mode ran.

Then (``--profile``, default on) the Python work of one table click, in this
process, without a browser: ``lab.table.click = {"kind": "place", "id": p,
"seq": n}`` timed and profiled with cProfile (top functions by cumulative time).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.helpers import click_latency_ms, latency_summary, write_notebook  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
LAB = ".safari-identification-lab"
PLACES = f"{LAB} .safari-table .st-selectable[data-key^='place:']"

SETUP = """\
from safari_kit.widgets.labs import IdentificationLab
lab = IdentificationLab(seed=1)
for _ in range(30):  # the learner's Identify step, with the lab's own buttons
    if lab.my_turn and lab.state.phase == "identify":
        break
    if lab.my_turn and lab.state.phase == "choose":
        lab.identify_button.click()
    else:
        lab.next_button.click()
assert lab.my_turn and lab.state.phase == "identify", (lab.state.phase, lab.errors)
lab
"""

ECHO = """\
import anywidget, traitlets

class Echo(anywidget.AnyWidget):
    _esm = '''
    export default { render({ model, el }) {
        const b = document.createElement("button"); b.className = "bare-btn"; b.textContent = "echo";
        const out = document.createElement("span"); out.className = "bare-echo"; out.textContent = "0";
        b.onclick = () => { model.set("ping", model.get("ping") + 1); model.save_changes(); };
        model.on("change:pong", () => { out.textContent = String(model.get("pong")); });
        el.append(b, out);
    } };'''
    ping = traitlets.Int(0).tag(sync=True)
    pong = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("ping")
    def _echo(self, change):
        self.pong = change["new"]

echo = Echo()
echo
"""


# ----------------------------------------------------------------------------- the server
def start_lab(root: Path, home: Path, nagle: bool) -> tuple[subprocess.Popen, str, Path]:
    import secrets
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH"}}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), IPYTHONDIR=str(home / "ipython"))
    notif = home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notif.parent.mkdir(parents=True, exist_ok=True)
    notif.write_text('{"fetchNews": "false", "checkForUpdates": false}')
    cmd = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    if nagle:
        cmd.append("--ServerApp.jpserver_extensions=safari_kit.server=False")
    log = home / f"lab-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited:\n{log.read_text()[-3000:]}")
        try:
            req = urllib.request.Request(f"{url}/api/status", headers={"Authorization": f"token {token}"})
            urllib.request.urlopen(req, timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    return proc, f"{url}/lab/tree/bench.ipynb?reset&token={token}", log


def stop(proc: subprocess.Popen) -> None:
    import signal

    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


# ----------------------------------------------------------------------------- the page
def measure(url: str, clicks: int, chromium: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url, wait_until="domcontentloaded", timeout=90_000)
        page.wait_for_function(
            """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                       const k = w && w.sessionContext && w.sessionContext.session
                                 && w.sessionContext.session.kernel;
                       return !!(w && w.context && w.context.isReady && k && k.status === 'idle'
                                 && k.connectionStatus === 'connected'); }""", timeout=90_000, polling=100)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.locator(PLACES).first.wait_for(timeout=120_000)
        page.locator(".bare-btn").first.wait_for(timeout=60_000)
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                               ".status === 'idle'", timeout=60_000, polling=100)
        page.wait_for_timeout(500)
        places = page.locator(PLACES)
        keys = [places.nth(i).get_attribute("data-key") for i in range(min(2, places.count()))]
        lab_ms, bare_ms = [], []
        warm = 5
        for i in range(clicks + warm):  # interleaved, so both see the same machine load
            sel = f"{LAB} .safari-table .st-selectable[data-key='{keys[i % len(keys)]}']"
            ms = click_latency_ms(page, sel, f"{LAB} .safari-prob")
            page.wait_for_timeout(60)  # the table's redraw (its own message) lands too
            bms = click_latency_ms(page, ".bare-btn", ".bare-echo")
            page.wait_for_timeout(60)
            if i >= warm:
                lab_ms.append(ms)
                bare_ms.append(bms)
        browser.close()
    return {"lab": lab_ms, "bare": bare_ms}


# ----------------------------------------------------------------------------- the kernel's share
def profile_clicks(clicks: int, top: int) -> None:
    from safari_kit.widgets.labs import IdentificationLab

    ns: dict = {}
    exec(compile(SETUP.rsplit("\nlab\n", 1)[0], "<setup>", "exec"), ns)
    lab = ns["lab"]
    places = [t["id"] for t in lab.table.selectable if t["kind"] == "place"][:2]
    seq = [1000]

    def click(i):
        seq[0] += 1
        lab.table.click = {"kind": "place", "id": places[i % len(places)], "seq": seq[0]}

    for i in range(5):
        click(i)
    import ipywidgets

    sent: list = []
    real_send = ipywidgets.Widget._send

    def counting_send(self, msg, buffers=None):
        classes = [c for c in getattr(self, "_dom_classes", ()) if c.startswith("safari")]
        sent.append((type(self).__name__ + (f"(.{classes[0]})" if classes else ""), sorted(msg.get("state", {})),
                     len(str(msg.get("state", "")))))
        return real_send(self, msg, buffers)

    ipywidgets.Widget._send = counting_send
    try:
        click(5)
    finally:
        ipywidgets.Widget._send = real_send
    times = []
    for i in range(clicks):
        t0 = time.perf_counter()
        click(i)
        times.append(1000 * (time.perf_counter() - t0))
    prof = cProfile.Profile()
    prof.enable()
    for i in range(clicks):
        click(i)
    prof.disable()
    assert not lab.errors, lab.errors
    s = sorted(times)
    print(f"\nPython work per table click (IdentificationLab(seed=1), place clicks, {clicks} clicks, in-process): "
          f"median {statistics.median(s):.2f} ms, p95 {s[int(0.95 * (len(s) - 1))]:.2f} ms, max {s[-1]:.2f} ms")
    print(f"comm messages the kernel sends per place click: {len(sent)}: "
          + "; ".join(f"{name} {'/'.join(keys)} ({size:,} chars)" for name, keys, size in sent))
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative")
    stats.print_stats(top)
    body = out.getvalue()
    print("cProfile (cumulative, per all profiled clicks; divide by", clicks, "for one click):")
    print("\n".join(line for line in body.splitlines()[body.splitlines().index("") + 1:] if line.strip()))
    _ = IdentificationLab


# ----------------------------------------------------------------------------- main
def row(name: str, samples: list[float]) -> str:
    s = latency_summary(samples)
    if not s["n"]:
        return f"  {name:34s} n=0"
    return f"  {name:34s} n={s['n']:3d}  median {s['median']:6.1f}  p95 {s['p95']:6.1f}  max {s['max']:6.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=60, help="timed clicks of each kind per mode (after 5 warm-up)")
    ap.add_argument("--modes", default="off,on", help="Nagle modes to run: off (the kit's default), on, or both")
    ap.add_argument("--no-browser", dest="browser", action="store_false", help="only the in-process profile")
    ap.add_argument("--no-profile", dest="profile", action="store_false")
    ap.add_argument("--top", type=int, default=25, help="cProfile lines to print")
    args = ap.parse_args(argv)

    results = {}
    if args.browser:
        chromium = shutil.which("chromium") or "/usr/bin/chromium"
        if not Path(chromium).exists():
            print("Debian's chromium is needed (apt-get install chromium)")
            return 1
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            home = Path(tempfile.mkdtemp(prefix="bench-latency-"))
            root = home / "root"
            write_notebook(root / "bench.ipynb", [SETUP, ECHO])
            proc, url, log = start_lab(root, home, nagle=(mode == "on"))
            try:
                t0 = time.perf_counter()
                results[mode] = measure(url, args.clicks, chromium)
                secs = time.perf_counter() - t0
            finally:
                stop(proc)
            applied = "TCP_NODELAY on kernel websockets" in log.read_text(errors="replace")
            results[mode]["note"] = (f"safari_kit.server {'loaded (TCP_NODELAY)' if applied else 'not loaded'}; "
                                     f"{secs:.0f} s")
            shutil.rmtree(home, ignore_errors=True)
        print("\nClick -> kernel -> DOM round trips (ms), in headless chromium, JupyterLab from this venv")
        print("targets: lab click -> updated chances median <= 30 ms, p95 <= 60 ms")
        for mode, r in results.items():
            label = "Nagle off (the kit's default)" if mode == "off" else "Nagle on (jupyter_server's default)"
            print(f"{label}: {r['note']}")
            print(row("lab: place click -> .safari-prob", r["lab"]))
            print(row("bare anywidget echo", r["bare"]))
            kernel_extra = statistics.median(r["lab"]) - statistics.median(r["bare"])
            print(f"  {'lab - bare (medians)':34s} {kernel_extra:+.1f} ms")
    if args.profile:
        profile_clicks(max(20, min(args.clicks, 200)), args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
