"""Measure per-learner JupyterHub servers for the lessons (issue 29) on loopback: login -> the learner's
JupyterLab on their own copies -> the classroom app rendered by Voilà, and the memory each learner's server
takes. Prints a Markdown table.

    flock /tmp/safari-heavy.lock .venv/bin/python tools/measure_hub_lessons.py [--learners 3] [--culler]

A real JupyterHub (``jupyterhub`` from PyPI) with configurable-http-proxy (npm: on PATH or the Makefile's
``.venv/chp``), a dummy login, and the kit's ``hub_config/lessons_servers.py`` as a school would load it, with
``SimpleLocalProcessSpawner`` (every learner runs as this user: a test machine only). The learners log in at
the same moment, one thread each, as browsers do: the hub's login form, the spawn, the OAuth redirects.

* **login -> lessons**: from the login form's POST to JupyterLab's page on ``lessons/00-start-here.ipynb``
  (the server started, its start step copied the lessons);
* **-> app rendered**: then Voilà's page of the learner's copy of the app (``lessons/app.ipynb``): a kernel
  started and the app's cell run (the page's HTML is complete; a browser then draws the chooser);
* **memory**: the learner's server and its kernels (unique set size, psutil), with the app's kernel running.

``--culler`` then restarts nothing but waits for the idle culler with ``--max-age 60``: every server is stopped
about a minute after it started, even with a kernel running (the reason for ``--max-age``).
"""
from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LESSONS_SERVERS = REPO / "safari_kit" / "classroom" / "hub_config" / "lessons_servers.py"
PASSWORD = "lessons-pass"
LOG = Path(tempfile.gettempdir()) / "safari-hub-lessons.log"

CONFIG = '''
c.JupyterHub.bind_url = "http://127.0.0.1:{port}/"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.JupyterHub.db_url = "sqlite:///{folder}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/cookie_secret"
c.JupyterHub.pid_file = "{folder}/hub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allow_all = True
load_subconfig({lessons!r})
# this machine's user is root on the test machines here: jupyter_server refuses root without --allow-root
# ("Running as root is not recommended"; the first run's servers never answered the hub)
if {as_root!r}:
    c.Spawner.args = ["--allow-root"]
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proxy_command() -> str:
    local = REPO / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
    found = shutil.which("configurable-http-proxy") or (str(local) if local.exists() else "")
    if not found:
        sys.exit("configurable-http-proxy not found: npm install -g configurable-http-proxy (or make test's .venv/chp)")
    return found


class Learner:
    """One browser: a cookie jar, the hub's login form, redirects followed."""

    def __init__(self, hub: str, name: str):
        self.hub, self.name = hub, name
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.figures: dict[str, float] = {}
        self.error = ""

    def get(self, url: str, timeout: float = 180) -> tuple[int, str]:
        try:
            with self.opener.open(url, timeout=timeout) as resp:
                return resp.status, resp.read().decode(errors="replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")

    def run(self) -> None:
        try:
            _status, body = self.get(self.hub + "hub/login")
            xsrf = re.search(r'name="_xsrf" value="([^"]+)"', body)
            form = {"username": self.name, "password": PASSWORD, **({"_xsrf": xsrf.group(1)} if xsrf else {})}
            start = time.perf_counter()
            req = urllib.request.Request(self.hub + "hub/login?next=", data=urllib.parse.urlencode(form).encode())
            with self.opener.open(req, timeout=180) as resp:  # -> /hub/ -> spawn -> spawn-pending
                resp.read()
            lesson = f"{self.hub}user/{self.name}/lab/tree/lessons/00-start-here.ipynb"
            deadline = start + 180
            while True:
                status, body = self.get(lesson)
                if status == 200 and "jupyter-config-data" in body and "/user/" in body:
                    break
                if time.perf_counter() > deadline:
                    raise TimeoutError(f"{self.name}: JupyterLab not ready: {status} {_page_text(body)}")
                time.sleep(0.25)
            self.figures["lessons"] = time.perf_counter() - start
            status, body = self.get(f"{self.hub}user/{self.name}/voila/render/lessons/app.ipynb")
            if status != 200 or "application/vnd.jupyter.widget-view+json" not in body:
                raise RuntimeError(f"{self.name}: the app did not render: {status} {body[:300]}")
            self.figures["app"] = time.perf_counter() - start
        except Exception as exc:  # noqa: BLE001 - reported in the table
            self.error = f"{type(exc).__name__}: {exc}"


def _page_text(body: str) -> str:
    """An error page's own words (its title and message), not its HTML head."""
    text = re.sub(r"(?s)<(script|style)[^>]*>.*?</\1>", " ", body)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(text.split())[:300]


def server_memory_mb(name: str) -> float:
    """Unique memory of the learner's server process and its kernels (found by their JUPYTERHUB_USER)."""
    import psutil

    total = 0
    for proc in psutil.process_iter(["pid"]):
        try:
            if proc.environ().get("JUPYTERHUB_USER") != name or proc.parent() is None:
                continue
            if proc.parent().environ().get("JUPYTERHUB_USER") == name:
                continue  # a kernel: counted with its server below
            total += proc.memory_full_info().uss
            total += sum(child.memory_full_info().uss for child in proc.children(recursive=True))
        except psutil.Error:
            continue
    return total / 2**20


def servers_running(hub: str, token: str) -> dict[str, bool]:
    req = urllib.request.Request(hub + "hub/api/users?state=active",
                                 headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        users = json.loads(resp.read())
    return {u["name"]: bool(u.get("servers")) for u in users}


@contextlib.contextmanager
def running_hub(folder: Path, env: dict[str, str], extra: str = ""):
    port = free_port()
    config = folder / "jupyterhub_config.py"
    config.write_text(CONFIG.format(port=port, hub_port=free_port(), api_port=free_port(), chp=proxy_command(),
                                    folder=folder, password=PASSWORD, lessons=str(LESSONS_SERVERS),
                                    as_root=os.geteuid() == 0) + extra)
    log = (folder / "hub.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=folder,
                            env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    hub = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError("the hub stopped:\n" + (folder / "hub.log").read_text()[-3000:])
            try:
                with urllib.request.urlopen(hub + "hub/api", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError("the hub did not answer:\n" + (folder / "hub.log").read_text()[-3000:])
                time.sleep(0.3)
        yield hub
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=3, help="learners logging in at once (default 3)")
    parser.add_argument("--culler", action="store_true", help="then wait for the culler's --max-age (about 90 s)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="safari-hub-lessons-"))
    homes = folder / "homes"
    homes.mkdir()
    token = os.urandom(16).hex()
    env = {"SAFARI_KIT_HUB_SPAWNER": "simple", "SAFARI_KIT_HUB_HOMES": f"{homes}/{{username}}",
           "SAFARI_KIT_CULL_TIMEOUT": "3600", "SAFARI_KIT_CULL_MAX_AGE": "60" if args.culler else "28800"}
    # an admin token for reading who has a server (the culler's check), as a service with one role
    extra = (f'\nc.JupyterHub.services.append({{"name": "measure", "api_token": {token!r}}})'
             '\nc.JupyterHub.load_roles.append({"name": "measure", '
             '"scopes": ["list:users", "read:users", "read:servers"], "services": ["measure"]})\n')
    try:
        with running_hub(folder, env, extra) as hub:
            learners = [Learner(hub, f"learner{i}") for i in range(args.learners)]
            threads = [threading.Thread(target=lr.run) for lr in learners]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            time.sleep(2)  # the app's kernel settles after its cell ran
            print(f"\n{args.learners} learners logging in at once, SimpleLocalProcessSpawner, loopback, "
                  f"{os.cpu_count()} cores\n")
            print("| learner | login -> lessons (s) | login -> app rendered (s) | memory (MB) | lessons copied |")
            print("|---|---|---|---|---|")
            for lr in learners:
                copied = len(list((homes / lr.name / "lessons").glob("*.ipynb")))
                if lr.error:
                    print(f"| {lr.name} | failed: {lr.error[:80]} | | | {copied} |")
                    continue
                print(f"| {lr.name} | {lr.figures['lessons']:.1f} | {lr.figures['app']:.1f} | "
                      f"{server_memory_mb(lr.name):.0f} | {copied} |")
            done = [lr for lr in learners if not lr.error]
            if done:
                print(f"\nmedian: login -> lessons {statistics.median(lr.figures['lessons'] for lr in done):.1f} s, "
                      f"-> app {statistics.median(lr.figures['app'] for lr in done):.1f} s")
            if args.culler:
                print(f"\nservers running before the culler's wait: {servers_running(hub, token)}")
                start = time.monotonic()
                while any(servers_running(hub, token).values()) and time.monotonic() - start < 240:
                    time.sleep(2)
                left = [n for n, running in servers_running(hub, token).items() if running]
                print(f"\nculler (--max-age 60, --timeout 3600, app kernels running): "
                      f"{'all servers stopped' if not left else 'still running: ' + ', '.join(left)} "
                      f"{time.monotonic() - start:.0f} s after the measurement")
    finally:
        if (folder / "hub.log").exists():  # the hub's and the learners' servers' output, for a failure's reason
            shutil.copyfile(folder / "hub.log", LOG)
            print(f"\nthe hub's log: {LOG}")
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
