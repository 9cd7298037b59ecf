"""The class server's cap on kernels starting at once (ClassroomKernelManager.max_starting), without kernels.

A start holds its slot until its page connects (the render is done) or a few
seconds pass; 30 pages at once, or one learner opening pages in a loop, made
every other learner's click wait (tools/load_class.py, issue 19).
"""
from __future__ import annotations

import asyncio
import collections
import types
import pytest

pytest.importorskip("jupyter_server")

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from tornado import web  # noqa: E402

from safari_kit.classroom.kernels import ClassroomKernelManager  # noqa: E402


class _Manager(ClassroomKernelManager):
    """Starts no process: the parent's start_kernel hands out ids and counts the starts in progress."""

    live: list = []

    def _start_memory_watch(self):
        pass

    def list_kernel_ids(self):
        return list(self.live)


@pytest.fixture
def km(tmp_path, monkeypatch):
    counter = iter(range(1000))

    async def fake_start(self, *args, **kwargs):
        await asyncio.sleep(0.01)
        kid = f"k{next(counter)}"
        self.live.append(kid)
        return kid

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", fake_start)
    monkeypatch.setattr(_Manager, "_request_handler", staticmethod(lambda: None))
    km = _Manager(connection_dir=str(tmp_path), new_kernels_per_minute=0, max_kernels=0, max_starting=2)
    km.live = []
    return km


class _Page:
    def close(self, code, reason):
        pass


def _page():
    return _Page()


def test_a_third_page_waits_until_a_started_page_connects(km):
    async def scenario():
        first = await asyncio.gather(km.start_kernel(), km.start_kernel())
        third = asyncio.ensure_future(km.start_kernel())
        await asyncio.sleep(0.1)
        assert not third.done()  # two pages still rendering: the third waits in line
        km.websocket_opened(first[0], _page())  # the first page has loaded
        assert await asyncio.wait_for(third, 1) == "k2"

    asyncio.run(scenario())


def test_a_slot_comes_back_when_its_page_request_finishes(km, monkeypatch):
    """A page that never connects (a learner's script fetching pages) must not keep its slot."""
    finished = []
    request = types.SimpleNamespace(on_finish=lambda: finished.append("tornado's own"),
                                    request=types.SimpleNamespace(remote_ip="10.0.0.7"), current_user=None)
    monkeypatch.setattr(_Manager, "_request_handler", staticmethod(lambda: request))

    async def scenario():
        await asyncio.gather(km.start_kernel(), km.start_kernel())
        third = asyncio.ensure_future(km.start_kernel())
        await asyncio.sleep(0.1)
        assert not third.done()
        request.on_finish()  # the page was sent (tornado calls on_finish); here: both pages at once
        await asyncio.wait_for(third, 1)
        assert "tornado's own" in finished

    asyncio.run(scenario())


def test_a_ready_lab_keeps_its_slot_until_its_page_rendered_and_a_slot_comes_back_after_its_time(km):
    """A ready lab (Voilà's preheated kernel) used to give its slot back as soon as its process ran: 30 of them
    rendered at once on a busy laptop and lost their pages' output (issue 26)."""
    km.start_slot_seconds = 0.2

    async def scenario():
        lab = await km.start_kernel(env={"VOILA_PREHEAT": "True"})
        await km.start_kernel()
        third = asyncio.ensure_future(km.start_kernel())
        await asyncio.sleep(0.05)
        assert not third.done()  # the ready lab is still rendering its page: it holds its slot
        km._release_slot(lab)  # its render ended (safari_kit.classroom.ready_labs)
        await asyncio.wait_for(third, 1)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await asyncio.wait_for(km.start_kernel(), 2)  # no page ever connected: a slot came back by itself
        assert loop.time() - t0 >= 0.1

    asyncio.run(scenario())


def test_pages_waiting_in_line_count_against_the_cap_on_live_labs(km):
    km.max_kernels = 3

    async def scenario():
        await asyncio.gather(km.start_kernel(), km.start_kernel())
        waiting = asyncio.ensure_future(km.start_kernel())
        await asyncio.sleep(0.05)
        assert len(km.live) == 2 and not waiting.done()
        with pytest.raises(web.HTTPError) as full:
            await km.start_kernel()  # 2 live + 1 waiting = the cap of 3
        assert full.value.status_code == 503
        waiting.cancel()

    asyncio.run(scenario())


def test_a_learner_page_that_would_wait_for_a_start_slot_gets_the_waiting_page(km, monkeypatch):
    """Voilà starts a page's kernel before it sends a byte: a page in line for a slot stayed white (issue 26).
    Now it gets the waiting page at once (it asks again by itself); nothing counts against its computer."""
    class _VoilaPage:  # what the kit looks for: Voilà's page handler, nothing written yet
        _headers_written = False
        request = types.SimpleNamespace(remote_ip="10.0.0.9")
        current_user = None

        def get_generator(self):
            pass

    page = _VoilaPage()
    km.new_kernels_per_minute = 4

    async def scenario():
        await asyncio.gather(km.start_kernel(), km.start_kernel())  # two labs rendering: both slots taken
        monkeypatch.setattr(_Manager, "_request_handler", staticmethod(lambda: page))
        with pytest.raises(web.Finish) as told:
            await asyncio.wait_for(km.start_kernel(), 2)  # at once, not after waiting in line
        words = told.value.args[0]
        assert "Your lab is starting" in words and "Keep this page open" in words
        assert len(km.live) == 2 and km._starts["10.0.0.9"] == collections.deque()  # no lab, no start counted
        km._release_slot("k0")  # a page rendered: the next one starts
        assert await asyncio.wait_for(km.start_kernel(), 1) == "k2"

    asyncio.run(scenario())
