"""The class server's ready labs (``--ready-labs``, Voilà's preheated kernels sized from the class; issue 19).

A page served from the pool skipped the kernel manager's start, so Voilà's pool
alone gave a kernel no owner and no per-computer limit, and refilled to its full
size after every claim (60 kernels for a class of 30). A page that comes before
any lab is ready gets the waiting page, and the teacher's terminal says once when
the class can come in (issue 26). Each test runs the real command on 127.0.0.1
with the one-button notebook.
"""
from __future__ import annotations

import asyncio
import time

import psutil
import pytest

pytest.importorskip("voila")

from tornado.httpclient import HTTPClientError  # noqa: E402

from tests.server.class_server import (  # noqa: E402
    Learner, class_server, kernel_info_round_trip, kernel_status, page_shutdown, request, ws_open,
)

pytestmark = pytest.mark.slow


def _kernels(server) -> int:
    """Kernel processes of the server (its children running ipykernel)."""
    return sum("ipykernel" in " ".join(p.cmdline()) for p in psutil.Process(server.proc.pid).children(recursive=True))


def _wait(predicate, timeout: float, what: str, server) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}\n{server.log_text()[-3000:]}")
        time.sleep(0.25)


READY = "labs ready: the class can come in now."


def _open_through_waiting(learner, timeout: float = 90):
    """Open the page as a browser does: a waiting page ("Your lab is starting") asks again by itself."""
    deadline = time.monotonic() + timeout
    while True:
        status, body = learner.open_page()
        if status != 200 or "Your lab is starting" not in body or time.monotonic() > deadline:
            return status, body
        time.sleep(1)


def test_ready_labs_open_at_once_belong_to_their_browser_and_the_pool_shrinks_as_the_class_comes_in():
    with class_server("--ready-labs", "3", "--spare-labs", "1", "--labs-per-minute", "0") as srv:
        early = Learner(srv)
        status, page = early.open_page()  # before any lab is ready: the waiting page, no lab (issue 26)
        if READY not in srv.log_text():
            assert status == 200 and "Your lab is starting" in page and early.kernel_id is None, page[:2000]
        _wait(lambda: READY in srv.log_text(), 90, "3 ready labs", srv)
        assert _kernels(srv) == 3
        log = srv.log_text()
        # the teacher's terminal says it once; the served notebook is trusted (no warning per lab, issue 26)
        assert log.count("3 " + READY) == 1 and "is not trusted" not in log, log[-3000:]
        first, second, other = Learner(srv), Learner(srv), Learner(srv)
        assert first.open_page()[0] == 200 and first.kernel_id
        assert srv.log_text().count("Using pre-heated kernel") == 1  # served from the pool
        assert second.open_page()[0] == 200 and second.kernel_id != first.kernel_id

        # the lab belongs to the browser whose page took it: another browser is refused everywhere
        assert kernel_status(srv, first) == 200
        assert request(srv, f"api/kernels/{first.kernel_id}", cookie=other.cookie_header())[0] == 403

        async def sockets():
            ws = await ws_open(srv, first.kernel_id, first.cookie_header())
            await kernel_info_round_trip(ws)
            ws.close()
            with pytest.raises(HTTPClientError) as refused:
                await ws_open(srv, first.kernel_id, second.cookie_header())
            return refused.value.code

        assert asyncio.run(sockets()) == 403
        forged = page_shutdown(srv, first, xsrf="T", cookie="_xsrf=T")
        assert forged[0] == 403 and kernel_status(srv, first) == 200

        # 2 in use, 3 ready in all, 1 spare: the pool holds 1, not Voilà's 3 (no 5 kernels)
        time.sleep(4)  # Voilà refills 2 s after a claim
        assert _kernels(srv) == 3, srv.log_text()[-3000:]
        assert other.open_page()[0] == 200  # the pool's last: 3 in use, then 1 spare is started
        _wait(lambda: _kernels(srv) == 4, 60, "3 in use + 1 spare", srv)
        time.sleep(3)
        assert _kernels(srv) == 4

        # labs given back: the pool is topped up to 3 in all again (its periodic look, 10 s)
        for learner in (first, second, other):
            assert page_shutdown(srv, learner)[0] == 204
        _wait(lambda: _kernels(srv) == 3, 40, "back to 3 ready labs", srv)


def test_a_ready_lab_counts_against_the_labs_one_computer_may_open_per_minute():
    with class_server("--ready-labs", "2", "--spare-labs", "2", "--labs-per-minute", "2") as srv:
        _wait(lambda: READY in srv.log_text(), 90, "2 ready labs", srv)
        learner = Learner(srv)
        for _ in range(2):
            assert learner.open_page()[0] == 200
            assert page_shutdown(srv, learner)[0] == 204
        status, body = _open_through_waiting(learner)  # the pool refills: the page waits, then is refused
        assert status == 429, srv.log_text()[-2000:]
        assert "opened 2 labs in the last minute" in body and "Traceback" not in body


def test_a_class_server_under_a_path_as_behind_the_schools_reverse_proxy():
    """``--base-url /7b/``: the page, its kernel's websocket and its shutdown all live under the path."""
    with class_server("--base-url", "/7b/") as srv:
        assert "http://127.0.0.1" in srv.log_text() and ":" + srv.url.rsplit(":", 1)[1].rstrip("/") + "/7b/" in \
            srv.log_text()
        srv.url += "7b/"
        learner = Learner(srv)
        assert learner.open_page()[0] == 200 and learner.kernel_id

        async def socket():
            ws = await ws_open(srv, learner.kernel_id, learner.cookie_header())
            await kernel_info_round_trip(ws)
            ws.close()

        asyncio.run(socket())
        assert kernel_status(srv, learner) == 200
        assert page_shutdown(srv, learner)[0] == 204
