"""Run ``make lab`` the way a teacher does, on a throw-away git clone of the kit's tracked files.

Used by tests/notebooks/test_save_round_trip.py (the contents API, as JupyterLab saves) and
tests/browser/test_lab_copies_browser.py (what the page shows). The clone holds exactly the
files git tracks (committed or not, as they are in the working tree now), committed in a fresh
repository, so ``git status`` there says whether serving the lessons changed a tracked file.
``make lab`` itself runs, with this venv (``VENV=...`` and ``-o`` its install stamp, so nothing
is installed) and ``LAB_ARGS`` for a loopback port, a token and no browser window.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)  # the test venv (.venv): make uses it as it is


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def tracked_clone(dest: Path) -> Path:
    """Copy every tracked file of the kit into ``dest`` and commit them there; -> dest."""
    files = git(REPO, "ls-files", "-z").split("\0")
    for name in filter(None, files):
        src = REPO / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "-c", "user.name=test", "-c", "user.email=test@localhost", "commit", "-qm", "kit")
    return dest


def changed_tracked(root: Path) -> list[str]:
    """``git status`` lines of tracked files that changed (untracked files are fine: the copies)."""
    return [line for line in git(root, "status", "--porcelain").splitlines() if not line.startswith("??")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class MakeLab:
    url: str
    token: str
    root: Path
    proc: subprocess.Popen
    log: Path

    def api(self, method: str, endpoint: str, body: dict | None = None, timeout: float = 30):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.url}/api/{endpoint}", data=data, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
            return json.loads(raw) if raw else None

    def lab_url(self, path: str) -> str:
        return f"{self.url}/lab/tree/{path}?reset&token={self.token}"

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def start_make_lab(root: Path, home: Path, old_way: bool = False) -> MakeLab:
    """Start ``make lab`` in ``root`` on a free loopback port; wait until the server answers.

    ``old_way``: instead, serve ``notebooks/`` itself with jupytext's pairing, as ``make lab``
    did before (the control that shows the round-trip test can fail)."""
    token = secrets.token_hex(24)
    port = _free_port()
    log = home / f"make-lab-{port}.log"
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH"}}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), IPYTHONDIR=str(home / "ipython"),
               PYTHONNOUSERSITE="1")
    lab_args = (f"--no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port={port} --ServerApp.port_retries=0 "
                f"--IdentityProvider.token={token} --LabApp.expose_app_in_browser=True "
                "--MappingKernelManager.cull_idle_timeout=600 --ServerApp.shutdown_no_activity_timeout=900")
    if old_way:
        cmd = [str(VENV / "bin" / "jupyter"), "lab", "notebooks/", "--allow-root", *lab_args.split()]
    else:
        cmd = ["make", "-s", f"VENV={VENV}", "-o", f"{VENV}/.installed", "lab", f"LAB_ARGS={lab_args}"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    server = MakeLab(f"http://127.0.0.1:{port}", token, root, proc, log)
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{cmd[0]} exited with rc={proc.returncode}:\n{server.log_tail()}")
        try:
            server.api("GET", "status", timeout=2)
            return server
        except (OSError, urllib.error.HTTPError):
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise TimeoutError(f"{cmd[0]}: no server after 90 s:\n{server.log_tail()}")
        time.sleep(0.3)
