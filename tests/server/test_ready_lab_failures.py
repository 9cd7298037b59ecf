"""Issue 29 (an orphaned ``--hub`` class service had 94 kernels after 27 minutes, with ``--ready-labs 1``): a ready
lab whose start fails leaves no kernel behind, failures in a row back off however often the pool is looked at, and
the cap on live labs counts every kernel the process has, those still starting too.

Unit tests: the ready labs' mixin and the cap over a fake kernel manager (no kernel, no server).
"""
from __future__ import annotations

import asyncio
import logging
import types

import pytest
from tornado import web

from safari_kit.classroom.kernel_cap import KernelCapMixin
from safari_kit.classroom.ready_labs import ReadyLabsMixin, _watching


class _Kernels:
    """The kernel manager's part the policies use: kernels are names in a set."""

    log = logging.getLogger("test-ready-lab-failures")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.live: set[str] = set()
        self.stopped: list[str] = []
        self.started = 0

    def list_kernel_ids(self):
        return list(self.live)

    def __contains__(self, kernel_id):
        return kernel_id in self.live

    async def start_kernel(self, **kwargs):
        self.started += 1
        kernel_id = f"k{self.started}"
        self.live.add(kernel_id)
        return kernel_id

    async def shutdown_kernel(self, kernel_id, now=False):
        self.stopped.append(kernel_id)
        self.live.discard(kernel_id)


class _Pool(ReadyLabsMixin, _Kernels):
    """The ready labs over Voilà's pool as a list of tasks; ``fill_if_needed`` records the delays it was given."""

    def __init__(self):
        super().__init__(ready_labs=1, spare_labs=0, pool_check_interval=0)
        self._pools, self.kernel_pools_config, self.fills = {"app.ipynb": []}, {}, []
        self.notebook_data = {"app.ipynb": {"template": "safari"}}

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        self.fills.append(delay)


async def _start_then_fail(km, notebook_path, kernel_id=None, **kwargs):
    """Voilà's start of a ready lab that fails after its kernel started (e.g. the hub's API does not answer)."""
    await km.start_kernel(kernel_name="python3")
    raise ConnectionRefusedError("The hub at http://127.0.0.1:8081/hub/api did not answer")


def test_a_ready_lab_whose_start_fails_after_its_kernel_started_leaves_no_kernel(caplog):
    async def scenario():
        km = _Pool()
        start = _watching(_start_then_fail)
        for _ in range(5):  # Voilà's pool tasks, one after another (the periodic look, pages finding it empty)
            with pytest.raises(ConnectionRefusedError):
                await start(km, "app.ipynb")
        return km

    with caplog.at_level(logging.WARNING, "test-ready-lab-failures"):
        km = asyncio.run(scenario())
    assert km.started == 5 and km.live == set(), f"kernels left running: {sorted(km.live)}"
    assert km.stopped == ["k1", "k2", "k3", "k4", "k5"]
    assert "A ready lab could not be started (ConnectionRefusedError: The hub at http://127.0.0.1:8081/hub/api " \
           "did not answer): its kernel k1 is shut down" in caplog.text


def test_failures_in_a_row_make_every_refill_wait_however_often_it_is_asked():
    async def scenario():
        km = _Pool()
        start = _watching(_start_then_fail)
        for _ in range(5):
            with pytest.raises(ConnectionRefusedError):
                await start(km, "app.ipynb")
        km._refill("app.ipynb", delay=0)  # the periodic look asks at once
        km._refill("app.ipynb", delay=0)
        return km.fills

    delays = asyncio.run(scenario())
    assert len(delays) == 2 and all(d > 7 for d in delays), delays  # the 5th failure in a row: 8 s


class _Capped(KernelCapMixin, _Kernels):
    def __init__(self):
        super().__init__(max_kernels=3)
        self._pending_kernels: dict = {}


def test_the_cap_counts_kernels_still_starting():
    async def scenario():
        km = _Capped()
        km.live = {"a", "b"}
        km._check_cap(None)  # 2 of 3: room
        km._pending_kernels["c"] = asyncio.get_running_loop().create_future()  # a kernel starting
        with pytest.raises(web.HTTPError) as refused:
            km._check_cap(None)
        assert refused.value.status_code == 503
        km._pending_kernels["c"].set_result(None)  # its start ended (here: it failed; a live one is listed)
        km._check_cap(types.SimpleNamespace())

    asyncio.run(scenario())


class _VoilaPool(_Pool):
    """Voilà's ``shutdown_kernel``: it reads the result of every finished task of the pool first."""

    async def shutdown_kernel(self, kernel_id, now=False):
        for pool in self._pools.values():
            for i, task in enumerate(pool):
                if task.done() and task.result().get("kernel_id") == kernel_id:  # a failed start's task raises here
                    pool.pop(i)
                    break
        await super().shutdown_kernel(kernel_id, now=now)


def test_a_lab_that_did_not_render_whole_is_shut_down_even_beside_a_failed_start(caplog):
    from tests.server.test_ready_lab_pages import _cell, _render

    async def scenario():
        km = _VoilaPool()
        failed = asyncio.get_running_loop().create_future()
        failed.set_exception(RuntimeError("Kernel didn't respond in 60 seconds"))  # another lab's start failed
        km._pools["app.ipynb"].append(failed)
        km.live = {"lost"}
        task, renderer = _render([_cell(reply=True, idle=False)])
        await km._check_render("app.ipynb", {"kernel_id": "lost", "renderer": renderer}, task)
        return km

    with caplog.at_level(logging.WARNING, "test-ready-lab-failures"):
        km = asyncio.run(scenario())
    assert km.stopped == ["lost"] and km.live == set(), "the lab that did not render whole was left running"
    assert km._pools["app.ipynb"] == []
