"""Issue 26: a wipe refuses while the class server holds the session, and the server stops cleanly.

At 9bdb9c7 ``safari-kit results wipe`` deleted the files under a running server (which
kept showing and writing the records into the deleted file), and Ctrl+C or SIGTERM after
the teacher's page had been opened ended in a traceback (``ResultStore.close()`` closing
connections of the page's worker threads) with exit code 1. Each test runs a real class
server with ``--results``, opens the teacher's page and a learner's page (its kernel opens
the session's store, as a lab does), then stops it as a teacher would.
"""
from __future__ import annotations

import html
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from safari_kit.class_results.class_store import ResultStore, session_files
from tests.server.class_server import Learner, class_server, request
from tests.server.test_teacher_page import NOTEBOOK, get, teacher_opener

pytestmark = pytest.mark.slow  # real class servers, about 20 s a test: `make test`, not the fast loop

SESSION = "wipe-26"


def wipe(folder: Path) -> subprocess.CompletedProcess:
    """``safari-kit results wipe FOLDER SESSION`` as the teacher types it."""
    return subprocess.run([sys.executable, "-m", "safari_kit", "results", "wipe", str(folder), SESSION],
                          capture_output=True, text=True, timeout=60)


def open_everything(server, folder: Path) -> str:
    """The teacher's page opened (its worker thread opens a connection) and one learner's kernel recording;
    returns the page."""
    address = re.search(r"(http://127\.0\.0\.1:\d+/teacher\?token=[A-Za-z0-9_-]+)", server.log_text()).group(1)
    opener, _jar = teacher_opener()
    assert get(opener, address)[0] == 200
    learner = Learner(server)
    assert learner.open_page()[0] == 200
    store = ResultStore(folder, SESSION, create=False)
    try:
        for _ in range(600):  # the learner's kernel runs the notebook's cell: it records one run
            if store.count():
                break
            time.sleep(0.1)
        assert store.count() == 1, server.log_text()
    finally:
        store.close()
    status, _url, page = get(opener, server.url + "teacher")
    assert status == 200
    return page


def stop(server, how: str) -> str:
    """Stop as the teacher does: Ctrl+C in the terminal (SIGINT to the whole foreground group) or SIGTERM."""
    if how == "ctrl-c":
        os.killpg(server.proc.pid, signal.SIGINT)
    else:
        os.kill(server.proc.pid, signal.SIGTERM)
    assert server.proc.wait(timeout=60) == 0, server.log_text()
    return server.log_text()


def test_wipe_refuses_while_the_server_runs_and_wipes_once_it_has_stopped():
    folder = Path(tempfile.mkdtemp(prefix="safari-wipe-"))
    with class_server("--results", str(folder), "--session", SESSION, notebook=NOTEBOOK) as server:
        page = open_everything(server, folder)
        files = sorted(session_files(folder, SESSION))
        refused = wipe(folder)
        assert refused.returncode == 2, refused
        assert "still running" in refused.stderr and "stop it first (Ctrl+C in its window)" in refused.stderr
        assert sorted(session_files(folder, SESSION)) == files  # nothing was deleted
        assert request(server, "")[0] == 200  # the server is unharmed
        stop(server, "ctrl-c")
    # the teacher's page's own command, typed into another terminal (no .venv/bin on its PATH)
    command = html.unescape(re.search(r"then wipe the session with <code>(.*?)</code>", page).group(1))
    done = subprocess.run(["/bin/sh", "-c", command], cwd=tempfile.mkdtemp(), capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, (command, done)
    assert "deleted" in done.stdout and not session_files(folder, SESSION)
    assert not list(folder.iterdir())  # the lock file went with the server


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_after_the_teachers_page_ends_with_exit_0_and_one_line(how):
    folder = Path(tempfile.mkdtemp(prefix="safari-stop-"))
    with class_server("--results", str(folder), "--session", SESSION, notebook=NOTEBOOK) as server:
        open_everything(server, folder)
        log = stop(server, how)
    after = log.split("Voilà is running at")[-1]
    assert "Traceback" not in log and "Error" not in after, log
    assert log.rstrip().splitlines()[-1] == (f"Class server stopped. The session's records stay in "
                                             f"{(folder / (SESSION + '.sqlite3')).resolve()} until you wipe them.")
