"""The first minute of a class on a busy laptop (issue 26): a busy machine, the server started as the docs say,
and learners arriving while its ready labs start.

Used by ``tests/browser/test_class_first_minute_browser.py`` (a few learners and a Chromium page, correctness
only) and ``tools/bench_class_first_minute.py`` (30 learners, figures).

* :func:`busy_machine` keeps the machine busy with CPU burners at the lowest
  priority (``nice 19``), as a school laptop runs a browser and a projector
  beside the server; they are stopped when the block ends.
* :func:`app_server` starts ``safari-kit class`` on the kit's app exactly as
  ``make class`` does (its default ready labs, unless told otherwise), on
  127.0.0.1 and a free port, and returns as soon as it listens: the class comes
  in right away. The server runs this checkout's code (``PYTHONPATH``), so the
  same test can be run against an older checkout to see it fail there.
* :func:`arrive` lets learners (tests/server/class_learners.py, raw clients
  from their own loopback addresses) open their page at the given moments and
  connect to their lab; :func:`page_faults` says what is wrong with each page.
"""
from __future__ import annotations

import asyncio
import contextlib
import http.client
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.server.class_learners import RawLearner
from tests.server.class_server import PORT_ATTEMPTS, _end

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 90
BURNER = "import os\nos.nice(19)\nwhile True:\n    pass\n"


@contextlib.contextmanager
def busy_machine(burners: int = 3):
    """``burners`` processes each spinning a core at nice 19, stopped (killed) when the block ends."""
    procs = [subprocess.Popen([sys.executable, "-c", BURNER], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for _ in range(burners)]
    try:
        yield procs
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                p.kill()
        for p in procs:
            p.wait(timeout=10)


class AppServer:
    def __init__(self, url: str, proc: subprocess.Popen, log: Path, started: float):
        self.url, self.proc, self.log, self.started = url, proc, log, started

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def ready_after(self) -> float | None:
        """Seconds from the start to the terminal's "labs ready: the class can come in now" (None: not yet)."""
        return self._ready_at - self.started if getattr(self, "_ready_at", None) else None

    def watch_ready(self) -> None:
        if getattr(self, "_ready_at", None) is None and "labs ready: the class can come in now" in self.log_text():
            self._ready_at = time.monotonic()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serving(server: AppServer) -> bool:
    """Wait until ``server`` serves (True), or says that another process has its port, or something that is not
    HTTP answers there (False: the process is ended). Raises when it stops for another reason or never serves."""
    proc = server.proc
    while True:
        if proc.poll() is not None:
            if "in use" in server.log_text().lower():
                return False
            raise RuntimeError(f"safari-kit class exited with rc={proc.returncode}:\n{server.log_text()}")
        try:  # a static file: answers without taking a lab
            with urllib.request.urlopen(f"{server.url}voila/static/voila.js", timeout=5):
                return True
        except urllib.error.HTTPError:
            return True
        except http.client.HTTPException:  # not HTTP: a kernel's ZMQ socket has the port
            _end(proc)
            return False
        except OSError:
            pass
        if time.monotonic() - server.started > STARTUP_TIMEOUT:
            _end(proc)
            raise TimeoutError(f"safari-kit class not listening after {STARTUP_TIMEOUT} s:\n{server.log_text()}")
        time.sleep(0.2)


@contextlib.contextmanager
def app_server(*options: str, repo: Path = REPO):
    """``safari-kit class notebooks/app.ipynb`` with ``options``: yields once it listens.

    ``repo``: the checkout whose code the server runs (another one: to compare with older code).
    """
    home = Path(tempfile.mkdtemp(prefix="safari-first-minute-"))
    (home / "notebooks").mkdir()
    shutil.copy(REPO / "notebooks" / "app.ipynb", home / "notebooks" / "app.ipynb")
    shutil.copytree(REPO / "data", home / "data")
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH"}}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "jdata"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"), PYTHONNOUSERSITE="1",
               PYTHONPATH=str(repo))
    proc = None
    try:
        # a free port may be taken before the server binds it (another test's kernel): tried again on a new one
        # (tests/server/class_server.py's PORT_ATTEMPTS); ``started`` is the attempt that serves
        for attempt in range(1, PORT_ATTEMPTS + 1):
            port, log = _free_port(), home / f"server-{attempt}.log"
            cmd = [sys.executable, "-m", "safari_kit", "class", str(home / "notebooks" / "app.ipynb"), "--ip",
                   "127.0.0.1", "--port", str(port), *options]
            started = time.monotonic()
            with open(log, "wb") as out:
                proc = subprocess.Popen(cmd, cwd=home, env=env, stdout=out, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
            server = AppServer(f"http://127.0.0.1:{port}/", proc, log, started)
            if _serving(server):
                break
        else:
            raise RuntimeError(f"safari-kit class found its port taken {PORT_ATTEMPTS} times:\n{server.log_text()}")
        yield server
    finally:
        if proc is not None:
            _end(proc, seconds=20)
        shutil.rmtree(home, ignore_errors=True)


async def arrive(server: AppServer, delays: list[float], seed: int = 1) -> list[RawLearner]:
    """One learner per delay (seconds after now) opens the page, through the waiting pages, and connects."""
    rng = random.Random(seed)
    learners = [RawLearner(server.url, f"127.0.0.{20 + i}", f"learner-{i}", random.Random(rng.random()))
                for i in range(len(delays))]

    async def one(learner: RawLearner, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            if await learner.open_page() == 200 and learner.kernel_id:
                await learner.connect()
        except Exception as exc:  # noqa: BLE001 - reported by page_faults
            learner.result.errors.append(f"{type(exc).__name__}: {exc}")

    async def watch() -> None:
        while True:
            server.watch_ready()
            await asyncio.sleep(0.5)

    watcher = asyncio.ensure_future(watch())
    try:
        await asyncio.gather(*(one(lr, d) for lr, d in zip(learners, delays, strict=True)))
    finally:
        watcher.cancel()
    return learners


def page_faults(learner: RawLearner) -> list[str]:
    """What is wrong with a learner's page: not the app's page, no app in it, not the kernel's own app."""
    r = learner.result
    faults = list(r.errors)
    if r.status != 200:
        faults.append(f"page answered {r.status}")
    elif not learner.kernel_id:
        faults.append("page without a kernel id")
    elif not r.app_model:
        faults.append("page without its app (no widget view in the app cell's output)")
    elif learner.ws is not None and learner.root() != r.app_model:
        faults.append(f"the page shows widget {r.app_model}, its kernel's app is {learner.root()}")
    return [f"{r.name}: {f}" for f in dict.fromkeys(faults)]


async def close_all(learners: list[RawLearner]) -> None:
    for learner in learners:
        await learner.close()
