"""Run ``safari-kit class`` (the class server) on 127.0.0.1 for a test, and act as learners' browsers against it.

A :class:`Learner` is one browser: its own cookie jar (the owner cookie and
``_xsrf`` the page gets), the page it opened and the kernel id written in it.
Raw HTTP and websocket requests (tornado's clients) stand for a curious learner's
console or a second laptop.
"""
from __future__ import annotations

import asyncio
import contextlib
import http.client
import http.cookiejar
import json
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
import uuid
from pathlib import Path

from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
STARTUP_TIMEOUT = 60

#: a notebook with one widget button; pressing it makes its kernel hold about 300 MB (the memory cap's test)
TINY_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "id": "c1",
               "source": ["import ipywidgets as w\n", "hog = []\n",
                          "b = w.Button(description='Use memory')\n",
                          "b.on_click(lambda _: hog.append(b'x' * 300_000_000))\n", "b"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                 "voila": {"template": "safari"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ClassServer:
    def __init__(self, url: str, proc: subprocess.Popen, log: Path):
        self.url, self.proc, self.log = url, proc, log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def as_from_a_terminal() -> None:
    """In the child before it runs the server: Ctrl+C and SIGTERM handled as in a teacher's terminal.

    A child inherits its parent's ignored signals and blocked-signal mask, and the pytest-xdist worker that
    starts it may have either from an earlier test (in a run of the whole suite, Ctrl+C reached a server
    started there only after 60 s, when the test's cleanup sent SIGTERM)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


#: free ports tried in turn: between ``free_port()`` and the server's bind, a kernel of another test (pytest-xdist
#: worker) may bind the same port for one of its ZMQ sockets (a fresh clone's run: the poll below read ZMQ's
#: greeting, "BadStatusLine", while the server, which does not move to another port, was stopping on it)
PORT_ATTEMPTS = 3


def _start(home: Path, nb: Path, options: tuple, env: dict, attempt: int):
    """Start ``safari-kit class`` on a free port and wait until it serves: (proc, ClassServer), or (proc, None)
    when another process had the port (the server stopped saying so, or something else answered there)."""
    port = free_port()
    log = home / f"server-{attempt}.log"
    cmd = [sys.executable, "-m", "safari_kit", "class", str(nb), "--ip", "127.0.0.1", "--port", str(port), *options]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=home, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=as_from_a_terminal)
    server = ClassServer(f"http://127.0.0.1:{port}/", proc, log)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        if proc.poll() is not None:
            if "in use" in server.log_text().lower():
                return proc, None
            raise RuntimeError(f"safari-kit class exited with rc={proc.returncode}:\n{server.log_text()}")
        try:  # a static file: answers without starting a kernel
            with urllib.request.urlopen(f"{server.url}voila/static/voila.js", timeout=2):
                return proc, server
        except urllib.error.HTTPError:
            return proc, server
        except http.client.HTTPException:  # not HTTP: another program has the port (a kernel's ZMQ socket)
            _end(proc)
            return proc, None
        except OSError:
            pass
        if time.monotonic() > deadline:
            _end(proc)
            raise TimeoutError(f"safari-kit class not ready after {STARTUP_TIMEOUT} s:\n{server.log_text()}")
        time.sleep(0.2)


def _end(proc: subprocess.Popen, seconds: float = 15) -> None:
    """A server's end: SIGTERM to its process group, ``seconds`` to stop, then SIGKILL."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


@contextlib.contextmanager
def class_server(*options: str, notebook: dict | None = None, app: bool = False):
    """``safari-kit class`` on 127.0.0.1 with ``options``, serving the tiny notebook (or ``notebook``).

    ``app=True``: the kit's own app, from a copy of notebooks/app.ipynb and data/ (as ``make class``).
    No ready labs unless ``options`` ask for them (``--ready-labs N``): a test
    starts only the kernels it uses.
    """
    home = Path(tempfile.mkdtemp(prefix="safari-class-"))
    if app:
        (home / "notebooks").mkdir()
        shutil.copy(REPO / "notebooks" / "app.ipynb", home / "notebooks" / "app.ipynb")
        shutil.copytree(REPO / "data", home / "data")
        nb = home / "notebooks" / "app.ipynb"
    else:
        nb = home / "app.ipynb"
        nb.write_text(json.dumps(notebook or TINY_NOTEBOOK))
    env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH"}}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"), PYTHONNOUSERSITE="1")
    if "--ready-labs" not in options:
        options = (*options, "--ready-labs", "0")
    proc = None
    try:
        for attempt in range(1, PORT_ATTEMPTS + 1):
            proc, server = _start(home, nb, options, env, attempt)
            if server is not None:
                break
            if attempt == PORT_ATTEMPTS:
                raise RuntimeError(f"safari-kit class found its port taken {PORT_ATTEMPTS} times:\n"
                                   f"{(home / f'server-{attempt}.log').read_text(errors='replace')}")
        yield server
    finally:
        if proc is not None:
            _end(proc)
        shutil.rmtree(home, ignore_errors=True)


class Learner:
    """One browser: a cookie jar, and the kernel of the page it opened."""

    def __init__(self, server: ClassServer):
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.kernel_id: str | None = None

    def open_page(self) -> tuple[int, str]:
        """GET the app page as a browser does; returns (status, body) and keeps the kernel id."""
        try:
            with self.opener.open(self.server.url, timeout=120) as resp:
                status, body = resp.status, resp.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")
        match = re.search(r'"kernelId":\s*"([0-9a-f-]+)"', body)
        self.kernel_id = match.group(1) if match else None
        return status, body

    def cookies(self) -> dict[str, str]:
        return {c.name: c.value for c in self.jar}

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies().items())


def request(server: ClassServer, path: str, *, method: str = "GET", cookie: str = "", headers=None,
            data: bytes | None = None) -> tuple[int, str]:
    req = urllib.request.Request(server.url + path.lstrip("/"), method=method, data=data,
                                 headers={**({"Cookie": cookie} if cookie else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def kernel_status(server: ClassServer, learner: Learner) -> int:
    """The owner's ``GET /api/kernels/<id>``: 200 while the kernel lives, 404 once it is gone."""
    return request(server, f"api/kernels/{learner.kernel_id}", cookie=learner.cookie_header())[0]


def page_shutdown(server: ClassServer, learner: Learner, xsrf: str | None = None, cookie: str | None = None):
    """``POST /voila/api/shutdown/<id>`` as the page's unload handler sends it (form field ``_xsrf``)."""
    xsrf = learner.cookies().get("_xsrf", "") if xsrf is None else xsrf
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n{xsrf}\r\n"
            f"--{boundary}--\r\n").encode()
    return request(server, f"voila/api/shutdown/{learner.kernel_id}", method="POST",
                   cookie=learner.cookie_header() if cookie is None else cookie,
                   headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}, data=body)


def ws_url(server: ClassServer, kernel_id: str) -> str:
    return server.url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}"


async def ws_open(server: ClassServer, kernel_id: str, cookie: str = ""):
    """Open a kernel websocket (legacy JSON protocol); raises tornado's HTTPClientError when refused."""
    req = HTTPRequest(ws_url(server, kernel_id), headers={"Cookie": cookie} if cookie else {})
    return await asyncio.wait_for(websocket_connect(req, max_message_size=64 * 1024 * 1024), 30)


def kernel_info_request() -> str:
    msg_id = uuid.uuid4().hex
    return json.dumps({"header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "t",
                                  "session": uuid.uuid4().hex, "date": "", "version": "5.3"},
                       "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell", "buffers": []})


async def kernel_info_round_trip(ws, timeout: float = 30) -> float:
    """Send a kernel_info_request and wait for its reply; return the seconds it took."""
    request_text = kernel_info_request()
    msg_id = json.loads(request_text)["header"]["msg_id"]
    start = time.perf_counter()
    await ws.write_message(request_text)
    deadline = start + timeout
    while time.perf_counter() < deadline:
        frame = await asyncio.wait_for(ws.read_message(), deadline - time.perf_counter())
        if frame is None:
            raise ConnectionError("the websocket closed")
        if isinstance(frame, str):
            msg = json.loads(frame)
            if msg.get("parent_header", {}).get("msg_id") == msg_id and msg["header"]["msg_type"] == \
                    "kernel_info_reply":
                return time.perf_counter() - start
    raise TimeoutError("no kernel_info_reply")
