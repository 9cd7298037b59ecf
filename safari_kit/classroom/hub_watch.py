"""A class service whose JupyterHub is gone stops (``safari-kit class --hub``, issue 29).

JupyterHub starts a managed service as its own child and stops it when the hub stops. A hub
that is killed (or that restarts a service while it is itself stopping: the tests saw it) leaves
the service running alone, orphaned: nobody can reach it (the hub's proxy is gone too), yet it
holds its labs' memory for ever. Two runs of the test suite each left one.

:class:`HubWatch` is a thread that looks, every few seconds, at two things:

* **the hub process** (the clean signal): when the service was started by a JupyterHub (its parent
  process runs ``jupyterhub``) and that parent is gone (the service's parent changed), it logs one
  line and ends the service the way the hub would (SIGTERM to itself: the labs are shut down and
  "Class server stopped." printed). A service started some other way (by hand, systemd, a Kubernetes
  Deployment: an external service of the hub) has no hub parent, and is not stopped by this;
* **the hub's API** (``JUPYTERHUB_API_URL``), every minute: when it does not answer, one line says so
  ("The hub at ... did not answer: ..."), and one line when it answers again. It never stops the
  service: a hub that restarts (an upgrade, a new config) comes back within minutes, and an external
  service must outlive that.

It is a thread, not a callback on the server's event loop, so it also works while the loop is busy
starting labs, and it needs nothing of JupyterHub.
"""
from __future__ import annotations

import os
import signal
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["HubWatch", "hub_parent", "api_problem", "DEFAULT_API_URL"]

#: JupyterHub's default API address, when the hub's environment does not name one
DEFAULT_API_URL = "http://127.0.0.1:8081/hub/api"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def hub_parent(ppid: int | None = None, cmdline: Callable[[int], str] = _cmdline) -> int | None:
    """The process id of the JupyterHub that started this process (its parent, when that runs ``jupyterhub``),
    else None (started by hand, by systemd, in a container).

    >>> hub_parent(42, lambda pid: "/usr/bin/python3 -m jupyterhub -f /etc/jupyterhub/jupyterhub_config.py")
    42
    >>> hub_parent(42, lambda pid: "-bash") is None
    True
    """
    ppid = os.getppid() if ppid is None else ppid
    return ppid if ppid > 1 and "jupyterhub" in cmdline(ppid) else None


def api_problem(api_url: str, timeout: float = 10.0) -> str | None:
    """Why the hub's API at ``api_url`` does not answer (a short phrase), or None when it answers.

    Any HTTP answer counts as an answer (the API's root needs no token); no answer, a refused
    connection or a timeout does not.
    """
    try:
        with urllib.request.urlopen(api_url.rstrip("/") + "/", timeout=timeout) as resp:  # noqa: S310 - the hub's
            resp.read(1024)
    except urllib.error.HTTPError:
        return None
    except (OSError, ValueError) as exc:  # URLError, refused, timeout, a bad address
        reason = getattr(exc, "reason", None) or exc
        return str(reason) or type(exc).__name__
    return None


class HubWatch(threading.Thread):
    """The watch of a ``--hub`` class service's hub (see the module's docstring)."""

    def __init__(self, environ: Mapping[str, str], log: Callable[[str], object], *, parent: int | None = None,
                 every: float = 5.0, api_every: float = 60.0,
                 stop: Callable[[], None] | None = None, getppid: Callable[[], int] = os.getppid,
                 problem: Callable[[str], str | None] = api_problem) -> None:
        super().__init__(name="safari-kit-hub-watch", daemon=True)
        self.api_url = environ.get("JUPYTERHUB_API_URL") or DEFAULT_API_URL
        self.parent = parent
        self.every, self.api_every = every, api_every
        self.log = log
        self._stop_service = stop or (lambda: os.kill(os.getpid(), signal.SIGTERM))
        self._getppid, self._problem = getppid, problem
        self._done = threading.Event()
        self.hub_down: str | None = None  # why the hub's API did not answer last time, None when it did

    def close(self) -> None:
        """Stop watching (the service is stopping anyway)."""
        self._done.set()

    def check_parent(self) -> bool:
        """Whether the hub that started the service is still its parent; when not, log it and stop the service."""
        if self.parent is None or self._getppid() == self.parent:
            return True
        self.log(f"The JupyterHub that started this class service (process {self.parent}) is gone: the service "
                 f"stops now, with its labs (a hub stops its services; this one was left running alone).")
        self._done.set()
        self._stop_service()
        return False

    def check_api(self) -> None:
        """Log once when the hub's API stops answering, and once when it answers again."""
        problem = self._problem(self.api_url)
        if problem is not None and self.hub_down is None:
            self.log(f"The hub at {self.api_url} did not answer: {problem}. Logins wait for it; the labs in use "
                     f"go on.")
        elif problem is None and self.hub_down is not None:
            self.log(f"The hub at {self.api_url} answers again.")
        self.hub_down = problem

    def run(self) -> None:
        since_api = self.api_every  # the first look at the API after one period
        while not self._done.wait(self.every):
            if not self.check_parent():
                return
            since_api -= self.every
            if since_api <= 0:
                since_api = self.api_every
                try:
                    self.check_api()
                except Exception as exc:  # noqa: BLE001 - the watch must never end the service by itself
                    self.log(f"The hub watch could not ask the hub: {type(exc).__name__}: {exc}")
