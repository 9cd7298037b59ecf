"""Each policy of the class server's kernel manager alone, on jupyter_server's plain kernel manager (issue 28).

``ClassroomKernelManager`` is composed of one mixin per policy (safari_kit.classroom.kernels); these tests mix
each one into ``AsyncMappingKernelManager`` by itself, with the kernels as a list of ids (no process is
started), so a policy is known to work without the others. The composed manager's own tests (the policies
together, in the order a page meets them) are in test_class_kernels.py and test_class_starts.py.
"""
from __future__ import annotations

import asyncio
import os
import types

import pytest

pytest.importorskip("jupyter_server")

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from tornado import web  # noqa: E402

from safari_kit.classroom.address_rate import AddressRateMixin  # noqa: E402
from safari_kit.classroom.cull_grace import CullGraceMixin  # noqa: E402
from safari_kit.classroom.kernel_cap import KernelCapMixin  # noqa: E402
from safari_kit.classroom.kernels import ClassroomKernelManager  # noqa: E402
from safari_kit.classroom.lab_holds import LabHoldsMixin  # noqa: E402
from safari_kit.classroom.memory_cap import CLOSE_MEMORY, MemoryCapMixin  # noqa: E402
from safari_kit.classroom.owners import OwnersMixin  # noqa: E402
from safari_kit.classroom.page_sockets import CLOSE_FLOOD, PageSocketsMixin  # noqa: E402
from safari_kit.classroom.policy import KernelPolicy  # noqa: E402
from safari_kit.classroom.ready_labs import ReadyLabsMixin  # noqa: E402
from safari_kit.classroom.start_slots import StartSlotsMixin  # noqa: E402


def alone(mixin, tmp_path, **traits):
    """``mixin`` on the plain kernel manager, over a list of kernel ids."""

    class Manager(mixin, AsyncMappingKernelManager):
        live: list = []

        def list_kernel_ids(self):
            return list(self.live)

        def __contains__(self, kernel_id):
            return kernel_id in self.live

    km = Manager(connection_dir=str(tmp_path), **traits)
    km.live = []
    return km


def page(user="alice", ip="10.0.0.7"):
    return types.SimpleNamespace(current_user=types.SimpleNamespace(username=user),
                                 request=types.SimpleNamespace(remote_ip=ip))


class Socket:
    def __init__(self):
        self.closed = []

    def close(self, code, reason):
        self.closed.append((code, reason))


def shut_down(km, kernel_id):
    """The plain manager's shutdown of a kernel, without a process: the policy forgets it."""
    km.live.remove(kernel_id)
    km._kernel_gone(kernel_id)


def test_every_policy_is_one_mixin_of_the_composed_manager():
    policies = [OwnersMixin, KernelCapMixin, AddressRateMixin, StartSlotsMixin, CullGraceMixin, PageSocketsMixin,
                LabHoldsMixin, MemoryCapMixin, ReadyLabsMixin]
    mro = ClassroomKernelManager.__mro__
    assert all(p in mro for p in policies) and mro.count(KernelPolicy) == 1
    # the base's hooks end every chain, right before jupyter_server's kernel manager
    assert mro.index(KernelPolicy) < mro.index(AsyncMappingKernelManager)
    assert all(issubclass(p, KernelPolicy) for p in policies)


def test_owners_alone(tmp_path):
    km = alone(OwnersMixin, tmp_path)
    km.live = ["k1", "pool"]
    km._handed_out("k1", page("alice"))
    assert km.owner_of("k1") == "alice" and km.owned_by("k1", "alice") and not km.owned_by("k1", "bob")
    assert km.owned_by("pool", "bob") and not km.owned_by("pool", "alice")  # a ready lab: its first user claims it
    assert not km.owned_by("gone", "alice") and not km.owned_by("k1", None)
    shut_down(km, "k1")
    assert km.owner_of("k1") is None


def test_the_cap_alone(tmp_path):
    km = alone(KernelCapMixin, tmp_path, max_kernels=2)
    km.live = ["a"]
    km._check_cap(page())
    km.live = ["a", "b"]
    with pytest.raises(web.HTTPError) as full:
        km._check_cap(page())
    assert full.value.status_code == 503 and "The class server is full" in full.value.log_message
    km.max_kernels = 0
    km._check_cap(page())


def test_the_rate_per_address_alone(tmp_path):
    km = alone(AddressRateMixin, tmp_path, new_kernels_per_minute=2)
    km._check_page(page(ip="10.0.0.1"))
    km._check_page(page(ip="10.0.0.1"))
    with pytest.raises(web.HTTPError) as too_fast:
        km._check_page(page(ip="10.0.0.1"))
    assert too_fast.value.status_code == 429 and "2 labs in the last minute" in too_fast.value.log_message
    km._check_page(page(ip="10.0.0.2"))  # another computer
    km._check_page(None)  # no page (Voilà's pool): not counted


def test_start_slots_alone(tmp_path, monkeypatch):
    started = []

    async def parent_start(self, *args, **kwargs):
        await asyncio.sleep(0.01)
        kid = f"k{len(started)}"
        started.append(kid)
        self.live.append(kid)
        return kid

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", parent_start)
    km = alone(StartSlotsMixin, tmp_path, max_starting=1)
    monkeypatch.setattr(type(km), "_request_handler", staticmethod(lambda: None))

    async def scenario():
        first = await km.start_kernel()
        assert km._no_start_slot()  # its page has not connected yet: the slot is held
        second = asyncio.ensure_future(km.start_kernel())
        await asyncio.sleep(0.05)
        assert not second.done() and km._starts_waiting() == 1
        km.websocket_opened(first, Socket())  # the first page connected: the next start goes on
        assert await second == "k1" and km._starts_waiting() == 0
        shut_down(km, "k1")  # a lab gone gives its slot back
        assert not km._no_start_slot()

    asyncio.run(scenario())


def test_the_cull_grace_alone(tmp_path, monkeypatch):
    culled = []

    async def parent_cull(self, kernel_id):
        culled.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "cull_kernel_if_idle", parent_cull)
    now = [1000.0]
    monkeypatch.setattr("safari_kit.classroom.cull_grace.time.monotonic", lambda: now[0])
    km = alone(CullGraceMixin, tmp_path, unconnected_grace_seconds=120)
    km.live = ["k"]
    km._handed_out("k", page())
    now[0] += 100
    asyncio.run(km.cull_kernel_if_idle("k"))
    assert culled == []  # its page may still be loading
    now[0] += 30
    asyncio.run(km.cull_kernel_if_idle("k"))
    assert culled == ["k"]
    km.websocket_opened("k2", Socket())  # a connected page: jupyter_server's culler decides at once
    asyncio.run(km.cull_kernel_if_idle("k2"))
    assert culled == ["k", "k2"]


def test_the_byte_budget_alone(tmp_path):
    km = alone(PageSocketsMixin, tmp_path, page_bytes_per_window=100_000, max_sockets_per_lab=3)
    a, b = Socket(), Socket()
    km.page_socket_opened("k", a)
    km.page_socket_opened("k", b)
    assert km.allow_incoming("k", a, 60_000)
    assert not km.allow_incoming("k", b, 60_000)  # the lab's budget, shared by its pages
    assert [c for c, _ in a.closed] == [CLOSE_FLOOD] and [c for c, _ in b.closed] == [CLOSE_FLOOD]
    with pytest.raises(web.HTTPError):
        km.page_socket_may_open("k")
    km._kernel_gone("k")
    km.page_socket_may_open("k")


def test_labs_held_alone(tmp_path):
    km = alone(LabHoldsMixin, tmp_path, labs_per_browser=1, labs_per_address=0)
    km.live = ["a"]
    km._handed_out("a", page("alice"))
    km.page_socket_opened("a", Socket())
    with pytest.raises(web.HTTPError) as held:
        km._check_page(page("alice", ip="10.0.0.99"))
    assert held.value.status_code == 429 and "already has 1 labs open" in held.value.log_message
    km._check_page(page("bob"))


def test_the_memory_cap_alone(tmp_path):
    km = alone(MemoryCapMixin, tmp_path, memory_limit_mb=5)
    km.live = ["big"]
    me = types.SimpleNamespace(provisioner=types.SimpleNamespace(pid=os.getpid()))
    km.get_kernel = lambda kid: me
    shut, socket = [], Socket()
    km.websocket_opened("big", socket)

    async def shutdown(kid, **kw):
        shut.append(kid)

    km.shutdown_kernel = shutdown
    assert asyncio.run(km.check_memory()) == ["big"] and shut == ["big"]
    assert socket.closed[0][0] == CLOSE_MEMORY


def test_the_composed_manager_checks_labs_held_before_it_counts_the_rate(tmp_path):
    """A page refused for the labs its browser holds is not counted as a start of its computer."""
    km = ClassroomKernelManager(connection_dir=str(tmp_path), labs_per_browser=1, new_kernels_per_minute=1)
    km._heard["a"] = 1.0
    km._holder_browser["a"] = "alice"
    km.list_kernel_ids = lambda: ["a"]
    km.page_socket_opened("a", Socket())
    with pytest.raises(web.HTTPError) as held:
        km._check_rate(page("alice", ip="10.0.0.5"))
    assert "already has 1 labs open" in held.value.log_message
    km._check_rate(page("bob", ip="10.0.0.5"))  # the same computer's first counted start
