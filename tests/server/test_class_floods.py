"""Issue 26, "Holding labs and bandwidth": the class server against one learner who floods it or holds its labs.

Each server test runs the real ``safari-kit class`` on 127.0.0.1 (tests/server/class_server.py)
and plays the saboteur with raw HTTP and websocket clients, from loopback addresses of its
own (127.0.0.x) where the issue used several computers. The log filter and the wrong-key
counter are also tested alone, with a clock of their own (a minute is not waited for).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import signal
import tempfile
import time
import urllib.request

import pytest

from safari_kit.classroom.wrong_keys import WrongKeys
from safari_kit.classroom.request_log import ClassLogFilter, scrub_addresses

# ----------------------------------------------------------------------------- without a server
def _record(msg, *args, level=logging.WARNING, name="tornado.access"):
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_the_log_keeps_no_address_and_summarises_a_flood():
    now = [0.0]
    summaries = []
    log_filter = ClassLogFilter(window=60, lines=20, clock=lambda: now[0])
    log_filter._summarise = lambda name, left: summaries.append((name, dict(left)))  # type: ignore[method-assign]
    passed = [log_filter.filter(_record("%d %s %s (%s)", 403, "GET", "/teacher", f"10.0.{i // 250}.{i % 250}"))
              for i in range(9960)]
    assert sum(passed) == 20  # 9,960 refusals in a minute: 20 lines, not 9,960
    info = _record("Lab %s culled", "k1", level=logging.INFO, name="Voila")
    assert log_filter.filter(info)  # the server's own news is never held back
    now[0] = 61.0
    assert log_filter.filter(_record("%d %s %s", 404, "GET", "/api/kernels/1"))
    assert summaries == [("tornado.access", {"403 GET /teacher": 9940})]
    kept = _record("Refused %s (from %s)", "GET /api/kernels/1", "192.168.1.20")
    assert log_filter.filter(kept) and kept.getMessage() == "Refused GET /api/kernels/1 (from <address>)"
    running = _record("Voila is running at: http://192.168.1.20:8866/", level=logging.INFO, name="Voila")
    assert log_filter.filter(running) and "192.168.1.20" in running.getMessage()  # the teacher needs that one
    assert scrub_addresses("[::1]:8866 and ::ffff:10.0.0.1") == "[<address>]:8866 and <address>"


def test_wrong_keys_are_counted_per_address_and_for_everyone():
    now = [0.0]
    keys = WrongKeys(per_address=10, overall=100, clock=lambda: now[0])
    for _ in range(10):
        assert keys.may_try("10.0.0.1")
        keys.wrong("10.0.0.1")
    assert not keys.may_try("10.0.0.1") and keys.may_try("10.0.0.2")
    for i in range(90):
        keys.wrong(f"10.1.0.{i}")
    assert not keys.may_try("10.0.0.3")  # 100 wrong keys from everyone in the minute
    now[0] = 61.0
    assert keys.may_try("10.0.0.1") and keys.may_try("10.0.0.3")


# ----------------------------------------------------------------------------- the class server
pytest.importorskip("voila")

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

from tests.server.class_learners import RawLearner  # noqa: E402
from tests.server.class_server import (  # noqa: E402
    Learner, class_server, kernel_info_request, kernel_info_round_trip, page_shutdown, request, ws_open, ws_url,
)


def _open(server) -> Learner:
    learner = Learner(server)
    status, _ = learner.open_page()
    assert status == 200 and learner.kernel_id, server.log_text()[-2000:]
    return learner


def _warnings_with_addresses(log: str) -> list[str]:
    return [line for line in log.splitlines() if re.search(r"WARNING|ERROR|^\d{3} ", line)
            and re.search(r"\b127\.\d+\.\d+\.\d+\b|::1\b", line)]


async def _read_until_closed(ws, seconds: float = 15) -> tuple[int | None, str | None]:
    deadline = time.monotonic() + seconds
    with contextlib.suppress(asyncio.TimeoutError):
        while time.monotonic() < deadline:
            if await asyncio.wait_for(ws.read_message(), deadline - time.monotonic()) is None:
                break
    return ws.close_code, ws.close_reason


@pytest.fixture(scope="module")
def plain_server():
    """``plain_server()``: a class server with ``--labs-per-minute 0`` for the module, the same one for every test
    (issue 28: the flood's server and the restart's first one were two), a new one after a test stopped it."""
    with contextlib.ExitStack() as stack:
        live = []

        def get():
            if not live or live[-1].proc.poll() is not None:
                live.append(stack.enter_context(class_server("--labs-per-minute", "0")))
            return live[-1]

        yield get


def _stop(server) -> None:
    """Stop a class server as the end of its ``with class_server(...)`` block does (SIGTERM to its group)."""
    os.killpg(server.proc.pid, signal.SIGTERM)
    server.proc.wait(timeout=15)


@pytest.mark.slow
def test_six_websockets_of_one_page_share_the_labs_budget_and_only_three_stay_open(plain_server):
    """The issue's flood: 6 websockets on one lab, each under the old per-connection budget (19.8 MB / 10 s)."""
    server = plain_server()
    page = _open(server)

    async def flood():
        sockets = [await ws_open(server, page.kernel_id, page.cookie_header()) for _ in range(6)]
        oldest = await asyncio.gather(*(_read_until_closed(ws, 10) for ws in sockets[:3]))
        newest = sockets[3:]
        for ws in newest:
            await kernel_info_round_trip(ws)  # the 3 open ones answer
        big = json.loads(kernel_info_request())
        big["metadata"]["padding"] = "x" * (1000 * 1024)
        frame = json.dumps(big)
        with contextlib.suppress(Exception):  # 2 frames each: 2 MB a connection, 6 MB for the lab
            for _ in range(2):
                for ws in newest:
                    await ws.write_message(frame)
                    await asyncio.sleep(0.05)
        closed = await asyncio.gather(*(_read_until_closed(ws) for ws in newest))
        try:  # straight after: a new connection to the lab is refused for the window
            again = await ws_open(server, page.kernel_id, page.cookie_header())
            again.close()
            refused = None
        except HTTPClientError as exc:
            refused = exc.code
        return oldest, closed, refused

    oldest, closed, refused = asyncio.run(flood())
    assert [code for code, _ in oldest] == [4003] * 3
    assert "too many windows" in oldest[0][1]
    assert [code for code, _ in closed] == [4002] * 3, closed
    assert "more than 4.2 MB in 10 seconds" in closed[0][1]
    assert refused == 429
    log = server.log_text()
    # the refused websocket's error page renders (the kernel itself may log the padded message it rejects)
    assert "static_path" not in log and "Uncaught exception" not in log


@pytest.mark.slow
def test_one_learner_from_several_addresses_cannot_keep_a_full_server_from_a_classmate():
    """3 labs, all taken from 3 addresses by pages that then stay silent: past --reclaim-after, a classmate gets
    in, and the page whose lab was reclaimed says why."""
    with class_server("--max-labs", "3", "--reclaim-after", "3", "--labs-per-minute", "0") as server:

        async def play():
            rng = random.Random(26)
            holders = [RawLearner(server.url, f"127.0.0.{2 + i}", f"holder{i}", rng) for i in range(3)]
            for h in holders:
                assert await h.open_page() == 200, (h.result.errors, server.log_text()[-3000:])
                await h.connect()
            for h in holders:  # each page speaks now: opening three took seconds on a busy machine, and a lab
                await h.send("kernel_info_request", {})  # silent for 3 s by then would go to the classmate
            await asyncio.sleep(0.3)
            classmate = RawLearner(server.url, "127.0.0.9", "classmate", rng)
            at_once = await classmate.open_page()
            await asyncio.sleep(3.5)  # the holders' pages stay silent
            later = await classmate.open_page()
            await asyncio.sleep(1.0)
            codes = [(h.closed_code, h.ws.close_reason if h.ws else None) for h in holders]
            for h in holders:
                await h.close()
            return at_once, later, codes

        at_once, later, codes = asyncio.run(play())
        assert at_once == 503  # every lab's page spoke less than 3 s ago: full, as before
        assert later == 200, server.log_text()[-3000:]
        reclaimed = [c for c in codes if c[0] == 4004]
        assert len(reclaimed) == 1 and "went to a classmate" in reclaimed[0][1]
        assert not _warnings_with_addresses(server.log_text())


@pytest.mark.slow
def test_a_learner_opens_four_pages_in_a_minute_while_the_pool_refills():
    """--labs-per-minute 4 means 4 pages: Voilà's refills (in the page's call context) are not the learner's."""
    with class_server("--ready-labs", "2", "--spare-labs", "1", "--labs-per-minute", "4") as server:
        deadline = time.monotonic() + 60
        while "Kernel started" not in server.log_text() and time.monotonic() < deadline:
            time.sleep(0.5)
        learner = Learner(server)
        statuses, labs = [], 0
        while labs < 4 and len(statuses) < 20:
            status, _ = learner.open_page()
            statuses.append(status)
            if status != 200:
                break
            if learner.kernel_id:
                labs += 1
                page_shutdown(server, learner)  # each reload closes the last lab
            else:  # a page saying its lab is starting (the pool is refilling): it reloads itself
                time.sleep(2)
        assert labs == 4 and 429 not in statuses, (statuses, server.log_text()[-3000:])


@pytest.fixture(scope="module")
def teacher_server():
    folder = tempfile.mkdtemp(prefix="safari-results-")
    with class_server("--results", folder, "--labs-per-minute", "0") as server:
        match = re.search(r"/teacher\?token=([A-Za-z0-9_-]+)", server.log_text())
        assert match, server.log_text()
        yield server, match.group(1)


async def _get_from(ip: str, url: str) -> int:
    req = HTTPRequest(url, network_interface=ip, follow_redirects=False, request_timeout=30)
    return (await AsyncHTTPClient().fetch(req, raise_error=False)).code


@pytest.mark.slow
def test_a_flood_of_wrong_teacher_keys_is_limited_and_does_not_bury_the_teachers_address(teacher_server):
    server, token = teacher_server
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    before = server.log_text()

    async def flood():
        from_one = [await _get_from("127.0.0.3", f"{server.url}teacher?token={wrong}") for _ in range(10)]
        from_one += await asyncio.gather(*(_get_from("127.0.0.3", f"{server.url}teacher?token={wrong}")
                                           for _ in range(20)))  # each answered after 2 s: at once
        many = await asyncio.gather(*(_get_from(f"127.0.1.{i}", f"{server.url}teacher?token={wrong}")
                                      for i in range(1, 121)))
        right_from_flooder = await _get_from("127.0.0.3", f"{server.url}teacher?token={token}")
        return from_one, many, right_from_flooder

    from_one, many, right_from_flooder = asyncio.run(flood())
    assert from_one == [403] * 10 + [429] * 20  # 10 wrong keys from one address in a minute, then "wait a minute"
    assert many.count(429) >= 120 - 90  # 100 wrong keys from everyone in a minute: then every key waits
    assert right_from_flooder == 429
    time.sleep(0.5)
    new_lines = server.log_text()[len(before):].splitlines()
    # 20 lines a minute per logger, then one summary (twice that if the filter's minute turned during the flood)
    assert len([line for line in new_lines if "/teacher" in line]) <= 42, new_lines[:60]
    assert token not in server.log_text().replace(f"teacher?token={token}", "")  # only the printed address
    assert not _warnings_with_addresses(server.log_text())


@pytest.mark.slow
def test_an_old_page_reconnecting_after_a_restart_is_answered_without_a_traceback(teacher_server, plain_server):
    """A page of a server that was stopped reconnects to the new one: its kernel is unknown (404), refused
    politely: the websocket's error page used to raise 'static_path' (32 tracebacks in the issue)."""
    server, _token = teacher_server
    before_restart = plain_server()
    old = _open(before_restart)
    cookie = old.cookie_header()
    _stop(before_restart)

    async def reconnect():
        codes = []
        for _ in range(3):
            req = HTTPRequest(ws_url(server, old.kernel_id), headers={"Cookie": cookie})
            try:
                (await websocket_connect(req)).close()
                codes.append(101)
            except HTTPClientError as exc:
                codes.append(exc.code)
        return codes

    codes = asyncio.run(reconnect())
    assert len(codes) == 3 and set(codes) <= {403, 404}
    assert request(server, f"api/kernels/{old.kernel_id}", cookie=cookie)[0] in (403, 404)
    time.sleep(0.5)
    log = server.log_text()
    assert "Traceback" not in log and "static_path" not in log, log[-3000:]
    with urllib.request.urlopen(server.url, timeout=120) as resp:  # and the server serves pages as before
        assert resp.status == 200
