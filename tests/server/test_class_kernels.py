"""The class server's kernel manager without kernels: owners, the caps at start, the memory reading and cap."""
from __future__ import annotations

import asyncio
import os
import types

import pytest

pytest.importorskip("jupyter_server")

from tornado import web  # noqa: E402

from safari_kit.classroom.kernels import CLOSE_MEMORY, ClassroomKernelManager, kernel_memory_bytes  # noqa: E402


def _handler(ip="10.0.0.7"):
    return types.SimpleNamespace(request=types.SimpleNamespace(remote_ip=ip))


class _Manager(ClassroomKernelManager):
    """The class's own logic over a list of kernel ids (the parent's kernel bookkeeping is not exercised)."""

    _live: list = []

    def list_kernel_ids(self):
        return list(self._live)

    def __contains__(self, kernel_id):
        return kernel_id in self._live


class _Page:
    selected_subprotocol = "v1.kernel.websocket.jupyter.org"

    def __init__(self):
        self.closed = []

    def close(self, code, reason):
        self.closed.append((code, reason))


@pytest.fixture
def km(tmp_path):
    return _Manager(connection_dir=str(tmp_path))


def test_a_kernel_without_owner_is_claimed_by_its_first_user_only(km):
    km._live = ["k1", "k2"]
    km._owners["k1"] = "alice"
    assert km.owned_by("k1", "alice") and not km.owned_by("k1", "bob")
    assert km.owned_by("k2", "bob") and not km.owned_by("k2", "alice")  # a preheated kernel: first use claims it
    assert not km.owned_by("gone", "alice") and not km.owned_by("k1", None)


def test_the_caps_at_start(km):
    km.max_kernels, km.new_kernels_per_minute = 2, 3
    km._live = ["a"]
    for _ in range(3):
        km._check_limits(_handler())
    with pytest.raises(web.HTTPError) as too_fast:
        km._check_limits(_handler())
    assert too_fast.value.status_code == 429 and "3 labs in the last minute" in too_fast.value.log_message
    km._check_limits(_handler("10.0.0.8"))  # another computer is not slowed down
    km._live = ["a", "b"]
    with pytest.raises(web.HTTPError) as full:
        km._check_limits(_handler("10.0.0.9"))
    assert full.value.status_code == 503 and "class server is full" in full.value.log_message
    km.max_kernels = km.new_kernels_per_minute = 0  # 0: no cap
    km._live = ["k"] * 500
    for _ in range(20):
        km._check_limits(_handler())


def test_memory_reading_and_the_cap_closes_the_pages_then_shuts_the_kernel(km):
    me = types.SimpleNamespace(provisioner=types.SimpleNamespace(pid=os.getpid()))
    assert kernel_memory_bytes(me) > 10_000_000  # this Python process
    assert kernel_memory_bytes(types.SimpleNamespace(provisioner=None)) == 0
    km._live = ["big"]
    km.get_kernel = lambda kid: me
    shut, page = [], _Page()
    closed = page.closed
    km.websocket_opened("big", page)

    async def shutdown(kid, **kw):
        shut.append(kid)

    km.shutdown_kernel = shutdown
    km.memory_limit_mb = 100_000
    assert asyncio.run(km.check_memory()) == [] and not closed
    km.memory_limit_mb = 5
    assert asyncio.run(km.check_memory()) == ["big"] and shut == ["big"]
    assert closed == [(CLOSE_MEMORY, "This lab used more than 5 MB of the server's memory, so the server stopped it.")]
    assert len(closed[0][1].encode()) <= 120


def test_a_kernel_whose_page_has_not_connected_is_culled_only_after_the_grace(km, monkeypatch):
    """A short cull time must not stop a kernel under a page still loading on a busy server."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    asked = []

    async def parent_cull(self, kernel_id):
        asked.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "cull_kernel_if_idle", parent_cull)
    km.unconnected_grace_seconds = 120
    now = [1000.0]
    monkeypatch.setattr("safari_kit.classroom.cull_grace.time.monotonic", lambda: now[0])
    ids = iter(["loading", "open"])

    async def parent_start(self, *args, **kwargs):
        return next(ids)

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", parent_start)
    monkeypatch.setattr(km, "_start_memory_watch", lambda: None)
    km.new_kernels_per_minute = 0
    for _ in range(2):
        asyncio.run(km.start_kernel())
    km.websocket_opened("open", _Page())
    for kid in ("loading", "open"):
        asyncio.run(km.cull_kernel_if_idle(kid))
    assert asked == ["open"]  # only the kernel a page has connected to is left to jupyter_server's idle rules
    now[0] += 119
    for kid in ("loading", "pool"):  # "pool": a preheated kernel the culler sees out of Voila's pool now
        asyncio.run(km.cull_kernel_if_idle(kid))
    assert asked == ["open"]
    now[0] += 2  # past the grace: a page that never came
    for kid in ("loading", "pool"):
        asyncio.run(km.cull_kernel_if_idle(kid))
    assert asked == ["open", "loading"]  # the pool kernel's grace started when the culler first saw it
    now[0] += 120
    asyncio.run(km.cull_kernel_if_idle("pool"))
    assert asked == ["open", "loading", "pool"]


def test_the_memory_check_scans_the_processes_once_per_check_off_the_event_loop(km, monkeypatch):
    """30 kernels used to mean 30 scans of /proc (psutil's children(recursive=True)) on the event loop."""
    import subprocess
    import sys
    import threading

    import psutil

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        scans, children_calls, real_iter, real_children = [], [], psutil.process_iter, psutil.Process.children

        def counting_iter(*args, **kwargs):
            scans.append(threading.get_ident())
            return real_iter(*args, **kwargs)

        def counting_children(self, *args, **kwargs):
            children_calls.append(self.pid)
            return real_children(self, *args, **kwargs)

        monkeypatch.setattr(psutil, "process_iter", counting_iter)
        monkeypatch.setattr(psutil.Process, "children", counting_children)
        kernels = {kid: types.SimpleNamespace(provisioner=types.SimpleNamespace(pid=pid))
                   for kid, pid in (("me", os.getpid()), ("child", child.pid), ("gone", 2 ** 22 + 1))}
        km._live = list(kernels)
        km.get_kernel = kernels.__getitem__
        km.memory_limit_mb = 100_000
        assert asyncio.run(km.check_memory()) == []
        assert len(scans) == 1 and not children_calls
        assert scans[0] != threading.get_ident()  # the scan ran in a worker thread
        mine = km.memory_by_kernel()
        assert mine["gone"] == 0 and mine["child"] > 1_000_000
        assert mine["me"] >= psutil.Process().memory_info().rss + mine["child"] // 2  # the child counts in my tree
    finally:
        child.kill()
        child.wait()


# ----------------------------------------------------------------------------- issue 26: floods and held labs
class _Wire:
    """The parent of the connection mixin: counts what reaches the kernel."""

    relayed = 0

    def __init__(self, km, kernel_id, page):
        self.multi_kernel_manager, self.kernel_id, self.websocket_handler = km, kernel_id, page

    def connect(self):
        return None

    def handle_incoming_message(self, msg):
        _Wire.relayed += len(msg)

    def disconnect(self):
        return None


def _connection(km, kernel_id="k"):
    from safari_kit.classroom.kernels import ClassroomConnectionMixin

    class Connection(ClassroomConnectionMixin, _Wire):
        pass

    page = _Page()
    conn = Connection(km, kernel_id, page)
    conn.connect()
    return conn, page


def test_the_byte_budget_is_the_labs_all_its_connections_together(km):
    """One page opened 6 websockets on its own lab and sent 6 budgets' worth: the budget is per lab now."""
    km._live = ["k"]
    km.max_sockets_per_lab = 0  # this test: the budget alone
    _Wire.relayed = 0
    connections = [_connection(km) for _ in range(6)]
    frame = "x" * (1000 * 1024)
    for _ in range(2):  # 2 frames a connection: 2 MB each, under a per-connection budget; 12 MB for the lab
        for conn, _page in connections:
            conn.handle_incoming_message(frame)
    assert 4 * len(frame) <= _Wire.relayed <= km.page_bytes_per_window  # 4 frames fit in the lab's 4 MiB
    codes = {code for _conn, page in connections for code, _reason in page.closed}
    assert codes == {4002}
    assert all(page.closed for _conn, page in connections)  # every connection of the lab is closed
    with pytest.raises(web.HTTPError) as refused:  # and a new one is refused until the window has passed
        km.page_socket_may_open("k")
    assert refused.value.status_code == 429
    km.page_socket_may_open("other lab")  # another lab is not concerned


def test_a_lab_keeps_3_connections_a_fourth_closes_the_oldest_with_a_sentence(km):
    km._live = ["k"]
    pages = [_connection(km)[1] for _ in range(4)]
    assert pages[0].closed == [(4003, "This lab was opened in too many windows at once, so the server closed this "
                                      "one.")]
    assert not any(p.closed for p in pages[1:])


class _User:
    def __init__(self, name):
        self.username = name


def _page_request(user, ip):
    return types.SimpleNamespace(current_user=_User(user), request=types.SimpleNamespace(remote_ip=ip))


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr("safari_kit.classroom.lab_holds.time.monotonic", lambda: now[0])
    monkeypatch.setattr("safari_kit.classroom.cull_grace.time.monotonic", lambda: now[0])
    return now


def _hand_out(km, kid, user, ip):
    km._live.append(kid)
    km._handed_out(kid, _page_request(user, ip))


def test_labs_held_at_once_per_browser_and_per_address(km, clock):
    """One learner from several addresses took every lab: caps per browser and per address (lab_holds)."""
    km._live = []
    km.new_kernels_per_minute = 0
    for i in range(3):
        _hand_out(km, f"a{i}", "alice", f"10.0.0.{i}")
        km.page_socket_opened(f"a{i}", _Page())
    with pytest.raises(web.HTTPError) as browser:
        km._check_rate(_page_request("alice", "10.0.0.9"))
    assert browser.value.status_code == 429 and "This browser already has 3 labs" in browser.value.log_message
    for i in range(6):
        _hand_out(km, f"h{i}", f"hotspot{i}", "10.0.0.50")
        km.page_socket_opened(f"h{i}", _Page())
    with pytest.raises(web.HTTPError) as address:
        km._check_rate(_page_request("hotspot9", "10.0.0.50"))
    assert "This computer already has 6 labs" in address.value.log_message
    km._check_rate(_page_request("bob", "10.0.0.60"))  # someone else is not concerned

    async def a_gone_page_gives_its_lab_back():
        shut = []

        async def shutdown(kid, **kw):
            shut.append(kid)
            km._live.remove(kid)

        km.shutdown_kernel = shutdown
        km._connected_once.add("a1")
        km.page_socket_closed("a1", next(iter(km._page_sockets["a1"])))  # a tab closed without its unload request
        km._check_rate(_page_request("alice", "10.0.0.9"))  # alice's new page: her gone page's lab is taken back
        await asyncio.sleep(0)
        return shut

    assert asyncio.run(a_gone_page_gives_its_lab_back()) == ["a1"]


def test_a_full_server_gives_the_quietest_lab_to_a_newcomer_never_while_it_has_room(km, clock):
    km.max_kernels, km.new_kernels_per_minute, km.reclaim_silent_seconds = 4, 0, 150
    km._live = []
    pages = {}
    for kid, user, ip in (("m1", "mallory1", "10.0.0.2"), ("m2", "mallory2", "10.0.0.2"),
                          ("m3", "mallory3", "10.0.0.3"), ("reader", "rita", "10.0.0.4")):
        _hand_out(km, kid, user, ip)
        pages[kid] = _Page()
        km.page_socket_opened(kid, pages[kid])
    km._live.remove("m3")  # room for one more: a quiet reader keeps the lab however long
    clock[0] += 1000
    km._check_limits(_page_request("newcomer", "10.0.0.9"))
    assert not any(p.closed for p in pages.values())
    km._live.append("m3")
    clock[0] += 100
    km.page_heard("m1")  # m1's page sent a click 0 s ago; the others 1100 s ago

    async def newcomer():
        shut = []

        async def shutdown(kid, **kw):
            shut.append(kid)
            km._live.remove(kid)

        km.shutdown_kernel = shutdown
        km._check_limits(_page_request("newcomer", "10.0.0.9"))
        await asyncio.sleep(0)
        return shut

    assert asyncio.run(newcomer()) == ["m2"]  # quiet, and its address holds more than its share
    assert pages["m2"].closed == [(4004, "The class server was full and this page had been quiet for minutes, "
                                         "so its lab went to a classmate.")]
    _hand_out(km, "newcomer's", "newcomer", "10.0.0.9")
    for kid in ("m1", "m3", "reader"):
        km.page_heard(kid)
    with pytest.raises(web.HTTPError) as full:  # every page spoke within the threshold: full, as before
        km._check_limits(_page_request("late", "10.0.0.10"))
    assert full.value.status_code == 503


def test_a_pool_refill_is_not_the_learners_start(km, monkeypatch):
    """Voila's pool refills while a learner's page is served; the refill is not that computer's new lab."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    ids = iter(f"k{i}" for i in range(100))

    async def parent_start(self, *args, **kwargs):
        return next(ids)

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", parent_start)
    monkeypatch.setattr(km, "_start_memory_watch", lambda: None)
    km._live, km.new_kernels_per_minute, km.max_starting = [], 2, 0
    page = _page_request("alice", "10.0.0.7")
    km._request_handler = lambda: page
    for _ in range(2):  # two pages of alice's, each followed by the pool's refills in its call context
        asyncio.run(km.start_kernel())
        for _ in range(2):
            asyncio.run(km.start_kernel(env={"VOILA_PREHEAT": "True"}))
    with pytest.raises(web.HTTPError) as too_fast:  # her third page in the minute is the one refused
        asyncio.run(km.start_kernel())
    assert too_fast.value.status_code == 429


def test_a_frame_whose_table_of_parts_does_not_fit_never_reaches_jupyter_server(km):
    """jupyter_server builds a struct format of the frame's claimed number of parts ("I" * n): 4 bytes saying
    2**31 stopped the server; a frame still queued when its socket closed is read as legacy binary (7.7 s)."""
    km._live = ["k"]
    _Wire.relayed = 0
    conn, page = _connection(km)
    conn.handle_incoming_message(bytes([127, 255, 255, 255]) + bytes(8))
    conn.handle_incoming_message(bytes([255] * 8) + bytes(64))
    assert _Wire.relayed == 0
    frame = bytes([3, 0, 0, 0, 0, 0, 0, 0]) + (32).to_bytes(8, "little") + (37).to_bytes(8, "little") \
        + (39).to_bytes(8, "little") + b"shell{}"
    conn.handle_incoming_message(frame)
    assert _Wire.relayed == len(frame)  # a well-formed v1 frame passes

    class Closed(_Page):
        @property
        def selected_subprotocol(self):
            raise AttributeError("the websocket is closed")

    conn.websocket_handler = Closed()
    conn.handle_incoming_message(frame)
    assert _Wire.relayed == len(frame)  # dropped: the socket is closed


def test_a_holder_asking_again_does_not_recycle_its_own_quiet_labs(km, clock):
    """Full server, the holder's address holds quiet labs: its new pages get 'full'; a classmate gets the lab."""
    km.max_kernels, km.new_kernels_per_minute, km.reclaim_silent_seconds = 3, 0, 150
    km._live = []
    for i in range(3):
        _hand_out(km, f"h{i}", f"holder{i}", "10.0.0.2")
        km.page_socket_opened(f"h{i}", _Page())
    clock[0] += 1000

    async def asks(user, ip):
        async def shutdown(kid, **kw):
            km._live.remove(kid)

        km.shutdown_kernel = shutdown
        km._check_limits(_page_request(user, ip))
        await asyncio.sleep(0)

    with pytest.raises(web.HTTPError) as full:
        asyncio.run(asks("holder9", "10.0.0.2"))
    assert full.value.status_code == 503
    asyncio.run(asks("classmate", "10.0.0.9"))
    assert len(km._live) == 2  # one of the holder's quiet labs went to the classmate
