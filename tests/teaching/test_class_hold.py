"""Issue 26: the session's lock file. A wipe refuses while a live process holds the session (the class
server, or a lab's kernel that opened the store), and a lock file left by a process that died (kill -9)
never blocks a wipe: the operating system's lock, not the file, says who is alive."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from safari_kit.class_results.class_hold import SessionInUse, hold, hold_path
from safari_kit.class_results.class_session import RESULTS_ENV, results_location
from safari_kit.class_results.class_store import ResultStore, session_files, wipe

REPO = Path(__file__).resolve().parents[2]


def holder(code: str, env: dict | None = None) -> subprocess.Popen:
    """A process that runs ``code`` (which holds the session), says "held" and waits to be killed."""
    script = textwrap.dedent(code) + "\nprint('held', flush=True)\nimport time\ntime.sleep(120)\n"
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, **(env or {})})
    assert proc.stdout.readline().strip() == "held"
    return proc


def kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)


def test_a_living_server_blocks_the_wipe_and_a_killed_ones_lock_file_does_not(tmp_path):
    ResultStore(tmp_path, "s1").close()
    server = holder(f"from safari_kit.class_results.class_hold import hold\nh = hold({str(tmp_path)!r}, 's1')")
    try:
        assert hold_path(tmp_path, "s1").read_text().strip() == str(server.pid)
        with pytest.raises(SessionInUse, match=rf"still running with session 's1' \(process {server.pid}\): stop it "
                                               r"first \(Ctrl\+C in its window\), then wipe"):
            wipe(tmp_path, "s1")
        assert session_files(tmp_path, "s1")  # nothing deleted
    finally:
        kill(server)  # a crash: the lock file stays behind
    assert hold_path(tmp_path, "s1").exists()
    gone = wipe(tmp_path, "s1")
    assert hold_path(tmp_path, "s1") in gone and not list(tmp_path.iterdir())


def test_a_labs_kernel_that_opened_the_store_blocks_the_wipe_even_after_its_server_died(tmp_path):
    ResultStore(tmp_path, "s1").close()
    server = holder(f"from safari_kit.class_results.class_hold import hold\nh = hold({str(tmp_path)!r}, 's1')")
    lab = holder("from safari_kit.class_results.class_session import store_from_env\nstore = store_from_env()\n"
                 "store.count()", env={RESULTS_ENV: results_location(tmp_path, "s1")})
    try:
        kill(server)
        with pytest.raises(SessionInUse, match="a lab of the class server still has session 's1' open"):
            wipe(tmp_path, "s1")
    finally:
        kill(lab)
    assert wipe(tmp_path, "s1") and not list(tmp_path.iterdir())


def test_two_holders_at_once_and_the_last_one_out_deletes_the_lock_file(tmp_path):
    first, second = hold(tmp_path, "s1"), hold(tmp_path, "s1", writer=False)
    assert first.held and second.held
    first.release()
    assert hold_path(tmp_path, "s1").exists()  # the second still holds it
    second.release()
    assert not hold_path(tmp_path, "s1").exists()
    assert not hold(tmp_path, "s1", writer=False).held  # a lab without a class server holds nothing
