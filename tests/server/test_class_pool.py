"""The class server with Voilà's preheated pool: a kernel the pool starts belongs to nobody until its first user.

The pool refills while a page is being served, so that page's request is in
jupyter_server's call context when the new kernel starts; recording its user as
the owner gave the next learner a kernel owned by someone else (the page's
websocket got 403: seen in tools/load_class.py --pool, issue 19).
"""
from __future__ import annotations

import asyncio
import types

import pytest

pytest.importorskip("jupyter_server")

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402

from safari_kit.classroom.kernels import ClassroomKernelManager  # noqa: E402


class _Manager(ClassroomKernelManager):
    """Starts no process: the parent's start_kernel hands out ids."""

    def _start_memory_watch(self):
        pass


@pytest.fixture
def km(tmp_path, monkeypatch):
    ids = iter(["k1", "k2"])

    async def fake_start(self, *args, **kwargs):
        return next(ids)

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", fake_start)
    km = _Manager(connection_dir=str(tmp_path), new_kernels_per_minute=0, max_kernels=0)
    page = types.SimpleNamespace(request=types.SimpleNamespace(remote_ip="10.0.0.7"),
                                 current_user=types.SimpleNamespace(username="alice"))
    monkeypatch.setattr(_Manager, "_request_handler", staticmethod(lambda: page))
    return km


def test_a_kernel_started_for_a_page_is_its_users(km):
    kid = asyncio.run(km.start_kernel(env={"VOILA_PREHEAT": "False"}))
    assert km.owner_of(kid) == "alice"


def test_a_pool_kernel_started_while_a_page_is_served_has_no_owner(km):
    kid = asyncio.run(km.start_kernel(env={"VOILA_PREHEAT": "True"}))
    assert km.owner_of(kid) is None
