"""The class server's kernel manager without kernels: owners, the caps at start, the memory reading and cap."""
from __future__ import annotations

import asyncio
import os
import types

import pytest

pytest.importorskip("jupyter_server")

from tornado import web  # noqa: E402

from safari_kit.server.kernels import CLOSE_MEMORY, ClassroomKernelManager, kernel_memory_bytes  # noqa: E402


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
    monkeypatch.setattr("safari_kit.server.kernels.time.monotonic", lambda: now[0])
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
