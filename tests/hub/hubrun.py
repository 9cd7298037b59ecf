"""A real JupyterHub on 127.0.0.1 for the tests of ``safari-kit class --hub`` (issue 29), and hub users' browsers.

:func:`running_hub` starts ``jupyterhub`` with a test config that loads the kit's shipped config
(``safari_kit/classroom/hub_config/jupyterhub_config.py``: its classes, services, roles and groups) and
changes only what a test must: loopback ports, a dummy login (any user, one password), who is in which
group, a results folder and a database in a temporary folder, and small classes (one ready lab).
The hub's proxy is configurable-http-proxy from npm (``.ci/run`` installs it as root; the Makefile into
``.venv/chp`` on a laptop): without it the tests skip on a laptop and fail when ``CI=true``.

:class:`HubUser` is one browser of one hub user: it logs in on the hub's form and follows the OAuth
redirects to a class service, as a browser does.
"""
from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import quick_server_env

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "safari_kit" / "classroom" / "hub_config" / "jupyterhub_config.py"
IN_CI = os.environ.get("CI", "").lower() == "true"
PASSWORD = "class-pass"
#: who is in which group in the tests: learners of 7b and 8c, the teachers' group of 7b; "head" is the hub's admin
GROUPS = {"7b": ["lea", "max"], "teachers-7b": ["ms-ada"], "8c": ["ole"]}
ADMINS = ["head"]
#: seconds for the hub and its class services to answer (18-29 s here; CI machines can be several times slower)
START_TIMEOUT = 240


def proxy_command() -> str:
    """configurable-http-proxy's path: on PATH (CI installs it globally) or the Makefile's ``.venv/chp``."""
    found = shutil.which("configurable-http-proxy")
    local = REPO / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
    return found or (str(local) if local.exists() else "")


def need_hub() -> str:
    """The proxy's path, or skip (fail when CI=true) without JupyterHub or configurable-http-proxy."""
    missing = []
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        missing.append("jupyterhub (pip install -e '.[test]')")
    chp = proxy_command()
    if not chp:
        missing.append("configurable-http-proxy (make test installs it into .venv/chp; CI: npm install -g)")
    if missing:
        what = "the hub tests need " + " and ".join(missing)
        if IN_CI:
            pytest.fail(what + " (CI=true: the hub tests must run in CI)")
        pytest.skip(what)
    return chp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


TEST_CONFIG = '''
# the tests' hub: the kit's shipped config, then loopback, a dummy login and the tests' groups
load_subconfig({shipped!r})
c.JupyterHub.bind_url = "http://127.0.0.1:{port}/"
c.JupyterHub.public_url = "http://127.0.0.1:{port}/"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = "sqlite:///{folder}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/cookie_secret"
c.JupyterHub.pid_file = "{folder}/hub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allow_all = True
c.Authenticator.admin_users = set({admins!r})
c.JupyterHub.log_level = "INFO"
keep = {classes!r}
ports = {service_ports!r}
c.JupyterHub.services = [s for s in c.JupyterHub.services if s["name"] in keep]
c.JupyterHub.load_roles = [r for r in c.JupyterHub.load_roles if r["name"] in ["class-" + k for k in keep]]
for service in c.JupyterHub.services:
    service["url"] = "http://127.0.0.1:%d" % ports[service["name"]]
    service["command"] = service["command"] + {options!r}
groups = {groups!r}
c.JupyterHub.load_groups = {{g: {{"users": groups.get(g, [])}} for g in c.JupyterHub.load_groups
                             if g.split("-")[-1] in keep}}
'''


@dataclass
class Hub:
    url: str            # the hub's public address, http://127.0.0.1:PORT/
    proc: subprocess.Popen
    log: Path           # the hub's and its services' output
    folder: Path
    classes: list[str]
    results: Path = field(init=False)

    def __post_init__(self):
        self.results = self.folder / "results"

    def service_url(self, name: str) -> str:
        return f"{self.url}services/{name}/"

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def service_pid(self, name: str) -> int | None:
        """The process id of the class service ``name`` (a child of the hub)."""
        import psutil

        for child in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                cmd = child.cmdline()
            except psutil.Error:
                continue
            if "--hub" in cmd and any(part.endswith(f"results/{name}") for part in cmd):
                return child.pid
        return None


class HubUser:
    """One hub user's browser: a cookie jar, the hub's login form, the OAuth redirects followed."""

    def __init__(self, hub: Hub, name: str):
        self.hub, self.name = hub, name
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, url: str, timeout: float = 120) -> tuple[int, str, str]:
        """GET ``url`` following redirects: (status, body, final address)."""
        try:
            with self.opener.open(url, timeout=timeout) as resp:
                return resp.status, resp.read().decode(errors="replace"), resp.geturl()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace"), exc.geturl()

    def log_in(self) -> None:
        """The hub's login form (its _xsrf field), as a browser fills it in."""
        status, body, _ = self.get(self.hub.url + "hub/login")
        assert status == 200, body[:500]
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', body)
        form = {"username": self.name, "password": PASSWORD, **({"_xsrf": xsrf.group(1)} if xsrf else {})}
        # next: the hub's home page (its default would start this user's own server)
        req = urllib.request.Request(self.hub.url + "hub/login?next=%2Fhub%2Fhome",
                                     data=urllib.parse.urlencode(form).encode())
        with self.opener.open(req, timeout=60) as resp:
            assert resp.status == 200, resp.status

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def wait_for_services(hub: Hub, deadline: float) -> None:
    """Until every class service answers through the proxy (a redirect to the hub's login, not the hub's 503)."""
    waiting = set(hub.classes)
    while waiting:
        if hub.proc.poll() is not None:
            raise RuntimeError("the hub stopped:\n" + hub.log_text()[-4000:])
        for name in sorted(waiting):
            req = urllib.request.Request(hub.service_url(name))
            opener = urllib.request.build_opener(_NoRedirect)
            try:
                opener.open(req, timeout=5)
            except urllib.error.HTTPError as exc:  # the service's own redirect to the hub's OAuth (the hub's
                # redirect of a path it has no route for goes to /hub/services/...)
                if exc.code in (302, 303) and "oauth2/authorize" in (exc.headers.get("Location") or ""):
                    waiting.discard(name)
            except OSError:
                pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"class services {sorted(waiting)} did not answer:\n" + hub.log_text()[-4000:])
        time.sleep(0.5)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@contextlib.contextmanager
def running_hub(classes: tuple[str, ...] = ("7b", "8c"), options: tuple[str, ...] = ("--ready-labs", "1",
                                                                                   "--spare-labs", "0"),
                groups: dict[str, list[str]] | None = None):
    """A hub serving the shipped config's ``classes``, each service with ``options`` added, its users in ``groups``
    (default :data:`GROUPS`); stopped at the end."""
    chp = need_hub()
    folder = Path(tempfile.mkdtemp(prefix="safari-kit-hub-"))
    port = free_port()
    config = folder / "test_config.py"
    config.write_text(TEST_CONFIG.format(
        shipped=str(SHIPPED), port=port, hub_port=free_port(), api_port=free_port(), chp=chp, folder=folder,
        password=PASSWORD, admins=ADMINS, classes=list(classes), service_ports={n: free_port() for n in classes},
        options=list(options), groups=GROUPS if groups is None else groups))
    log = folder / "hub.log"
    env = {**os.environ, "SAFARI_KIT_HUB_RESULTS": str(folder / "results"), "CONFIGPROXY_AUTH_TOKEN": "t" * 32,
           "SAFARI_KIT_APP": str(REPO / "notebooks" / "app.ipynb")}
    env.pop("JUPYTERHUB_SERVICE_URL", None)
    env = quick_server_env(env)  # the hub and its learners' servers (PYTHONPATH is in the spawner's env_keep)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=folder, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{port}/", proc, log, folder, list(classes))
    try:
        wait_for_services(hub, time.monotonic() + START_TIMEOUT)
        yield hub
    finally:
        stop(hub)
        shutil.rmtree(folder, ignore_errors=True)


def stop(hub: Hub, timeout: float = 15) -> None:
    """SIGTERM to the hub (it stops its services and proxy), then the whole process group if it lingers."""
    if hub.proc.poll() is None:
        hub.proc.send_signal(signal.SIGTERM)
        try:
            hub.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(hub.proc.pid, signal.SIGKILL)
    hub.proc.wait(10)
    # JupyterHub starts its proxy in a session of its own (a proxy outlives a hub restart) and writes its pid
    # here; a hub that did not stop it (killed, or slow on a loaded machine) would leave it running for ever
    with contextlib.suppress(OSError, ValueError):
        pid = int((hub.folder / "jupyterhub-proxy.pid").read_text().strip())
        if "configurable-http-proxy" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            os.kill(pid, signal.SIGKILL)
    # and the class services it started: JupyterHub restarts a managed service that ended (a test SIGTERMs one),
    # and a service restarted late outlived the hub, orphaned, with its kernels (two runs of the suite left one
    # each, the first with 94 kernels after 27 minutes): every process naming this hub's folder, and its children
    _kill_trees_naming(str(hub.folder))


def _kill_trees_naming(text: str) -> None:
    """SIGKILL every process whose command line holds ``text``, and every process below it."""
    parent, cmd = {}, {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{entry.name}/stat").read_text()
                parent[int(entry.name)] = int(stat[stat.rfind(")") + 2:].split()[1])
                cmd[int(entry.name)] = Path(f"/proc/{entry.name}/cmdline").read_bytes().decode(errors="replace")
    doomed = {pid for pid, line in cmd.items() if text in line and pid != os.getpid()}
    grew = True
    while grew:
        below = {pid for pid, ppid in parent.items() if ppid in doomed} - doomed
        doomed |= below
        grew = bool(below)
    for pid in doomed:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
