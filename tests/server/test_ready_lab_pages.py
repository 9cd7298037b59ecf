"""Which ready lab a page gets (issue 26), without kernels: only a lab whose page rendered whole, else the waiting page.

At 9bdb9c7 Voilà's claim handed out the oldest lab of the pool, rendered or
not, whole or not: on a busy laptop the page lacked the app cell's output and
stayed white. These tests drive :class:`~safari_kit.classroom.ready_labs.ReadyLabsMixin`
with made-up renders (nbclient's timings as a real render records them).
"""
from __future__ import annotations

import asyncio
import logging
import types

import nbformat
import pytest

pytest.importorskip("jupyter_server")

from tornado import web  # noqa: E402

from safari_kit.classroom.lab_pages import WAITING_MARKER, waiting_page, why_not_whole  # noqa: E402
from safari_kit.classroom.kernel_cap import KernelCapMixin  # noqa: E402
from safari_kit.classroom.owners import OwnersMixin  # noqa: E402
from safari_kit.classroom.ready_labs import ReadyLabsMixin, _nothing  # noqa: E402

FOOTER = "<script type=\"text/javascript\">\n  window.voila_finish();\n</script>"


def _cell(reply: bool, idle: bool):
    cell = nbformat.v4.new_code_cell("app")
    timings = {}
    if reply:
        timings["shell.execute_reply"] = "2026-12-05T12:00:01Z"
    if idle:
        timings["iopub.status.idle"] = "2026-12-05T12:00:02Z"
    cell.metadata["execution"] = timings
    return cell


def _render(cells, html=("<html>", "<body>", FOOTER)):
    """(done task, renderer) of a finished render with these executed cells."""
    nb = nbformat.v4.new_notebook(cells=list(cells))
    renderer = types.SimpleNamespace(stop_generator=False, executor=types.SimpleNamespace(nb=nb),
                                     rendered_cache=list(html))
    loop = asyncio.new_event_loop()
    try:
        task = loop.create_future()
        task.set_result((list(html), _nothing()))
    finally:
        loop.close()
    return task, renderer


def test_a_page_whose_app_cell_lost_its_output_is_not_whole():
    task, renderer = _render([_cell(reply=True, idle=False)])
    assert "cell 1" in why_not_whole(task, renderer, alive=True)
    task, renderer = _render([nbformat.v4.new_markdown_cell("# hi"), _cell(reply=True, idle=True)])
    assert why_not_whole(task, renderer, alive=True) is None
    assert "stopped" in why_not_whole(task, renderer, alive=False)
    task, renderer = _render([_cell(reply=True, idle=True)], html=("<html>", "<body>"))
    assert "does not end" in why_not_whole(task, renderer, alive=True)
    # a cell never run (an earlier cell failed: it fails the same way in every lab) does not count
    task, renderer = _render([_cell(reply=True, idle=True), _cell(reply=False, idle=False)])
    assert why_not_whole(task, renderer, alive=True) is None


def test_the_waiting_page_says_what_is_happening_and_asks_again_by_itself():
    page = waiting_page("Keep this page open <now>.", retry_seconds=3)
    assert "Your lab is starting" in page and "Keep this page open &lt;now&gt;." in page
    assert WAITING_MARKER in page and "location.reload" in page and 'http-equiv="refresh"' in page
    assert page.startswith("<!DOCTYPE html>")  # a whole page of its own


class _Pool(OwnersMixin, KernelCapMixin, ReadyLabsMixin):
    """The mixin (with the owners' policy and the cap) over Voilà's pool as a list of tasks, and the kernel
    manager's parts it relies on."""

    log = logging.getLogger("test-ready-labs")

    def __init__(self):
        super().__init__(ready_labs=3, spare_labs=1, pool_check_interval=0, max_kernels=80)
        self._pools, self.kernel_pools_config, self.fills, self.rate_checked = {"app.ipynb": []}, {}, [], 0
        self.notebook_data = {"app.ipynb": {"template": "safari"}}

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        self.fills.append((delay, notebook_name))

    def _request_handler(self):
        return types.SimpleNamespace(current_user=types.SimpleNamespace(username="browser-1"))

    def _check_page(self, handler):
        self.rate_checked += 1

    def owner_ids(self):
        return dict(self._owners)

    # the kernel manager's kernels, for the check of a finished render
    live: set = set()
    released: list = []
    stopped: list = []

    def __contains__(self, kernel_id):
        return kernel_id in self.live

    def get_kernel(self, kernel_id):
        async def is_alive():
            return True
        return types.SimpleNamespace(is_alive=is_alive)

    def _release_slot(self, kernel_id):
        self.released.append(kernel_id)

    async def shutdown_kernel(self, kernel_id, now=False):
        self.stopped.append(kernel_id)
        self.live.discard(kernel_id)

    def add(self, kernel_id: str, whole: bool | None):
        """A lab in the pool: rendered whole (True), rendered but not whole (False), still rendering (None)."""
        loop = asyncio.get_running_loop()
        task = loop.create_future()
        render = loop.create_future()
        if whole is not None:
            render.set_result((["<html>", FOOTER], _nothing()))
            if whole:
                self._whole.add(kernel_id)
        task.set_result({"kernel_id": kernel_id, "task": render,
                         "renderer": types.SimpleNamespace(stop_generator=False, rendered_cache=["<html>", FOOTER])})
        self._pools["app.ipynb"].append(task)


def test_a_page_gets_a_lab_whose_page_rendered_whole_never_one_still_rendering_or_broken():
    async def scenario():
        km = _Pool()
        km.add("rendering", None)
        km.add("broken", False)
        km.add("whole", True)
        task, snippets, kernel_id = await km._claim("app.ipynb")
        assert kernel_id == "whole" and "".join(snippets).endswith(FOOTER)
        assert km.owner_ids() == {"whole": "browser-1"} and km._in_use == {"whole"} and km.rate_checked == 1
        assert [t.result()["kernel_id"] for t in km._pools["app.ipynb"]] == ["rendering", "broken"]
        assert km.fills  # the pool is topped up for the next learner

        # no lab is whole yet: the waiting page, a whole page of its own; no lab taken, nothing counted
        task, snippets, kernel_id = await km._claim("app.ipynb")
        assert kernel_id is None and WAITING_MARKER in "".join(snippets) and km.rate_checked == 1
        rendered, rest = await task
        assert rendered == snippets and [x async for x in rest] == []
        assert km.waiting_pages_served == 1 and km._in_use == {"whole"}

    asyncio.run(scenario())


def test_a_refused_page_takes_no_lab():
    async def scenario():
        km = _Pool()
        km.add("whole", True)

        def refuse(handler):
            raise web.HTTPError(429)

        km._check_page = refuse
        with pytest.raises(web.HTTPError):
            await km._claim("app.ipynb")
        assert len(km._pools["app.ipynb"]) == 1 and not km._in_use

    asyncio.run(scenario())


def test_the_teacher_is_told_once_when_the_class_can_come_in(capsys):
    km = _Pool()
    for _ in range(5):
        km._count_ready()
    out = capsys.readouterr().out
    assert out.count("3 labs ready: the class can come in now.") == 1
    assert "1 of 3 labs ready" in out and out.count("labs ready") == 2
    km.max_kernels = 2  # fewer labs allowed than asked for: the line says how many there are
    km._made_ready, km._announced = 0, False
    km._count_ready()
    km._count_ready()
    assert "2 labs ready: the class can come in now." in capsys.readouterr().out


def test_a_lab_whose_page_did_not_render_whole_is_stopped_and_another_started(caplog):
    async def scenario():
        km = _Pool()
        km.live, km.released, km.stopped = {"lost", "fine"}, [], []
        lost, lost_renderer = _render([_cell(reply=True, idle=False)])
        await km._check_render("app.ipynb", {"kernel_id": "lost", "renderer": lost_renderer}, lost)
        assert km.stopped == ["lost"] and km.released == ["lost"] and km.fills == [(0, "app.ipynb")]
        assert "lost" not in km._whole and km._made_ready == 0
        fine, fine_renderer = _render([_cell(reply=True, idle=True)])
        await km._check_render("app.ipynb", {"kernel_id": "fine", "renderer": fine_renderer}, fine)
        assert km._whole == {"fine"} and km.stopped == ["lost"] and km._made_ready == 1

    with caplog.at_level(logging.WARNING, "test-ready-labs"):
        asyncio.run(scenario())
    assert "did not render whole (cell 1 ran but not all its output arrived" in caplog.text


def test_a_notebook_that_never_renders_whole_is_retried_ever_more_slowly():
    async def scenario():
        km = _Pool()
        km.released, km.stopped = [], []
        for i in range(6):
            km.live = {f"k{i}"}
            task, renderer = _render([_cell(reply=True, idle=False)])
            await km._check_render("app.ipynb", {"kernel_id": f"k{i}", "renderer": renderer}, task)
        return [delay for delay, _ in km.fills]

    assert asyncio.run(scenario()) == [0, 0, 2, 4, 8, 16]


def test_a_lab_whose_render_failed_is_not_whole():
    """Probably last session's flake (a page 200 in 0.00 s from a ready lab, without a kernel id): a ready lab
    whose render had failed before its kernel started (a busy machine) was handed out, the page's head only."""
    loop = asyncio.new_event_loop()
    try:
        task = loop.create_future()
        task.set_exception(RuntimeError("Kernel didn't respond in 60 seconds"))
    finally:
        loop.close()
    renderer = types.SimpleNamespace(stop_generator=False)
    assert "render failed (RuntimeError: Kernel didn't respond" in why_not_whole(task, renderer, alive=True)


def test_a_learner_page_without_its_app_is_told_apart():
    """What the load test and the busy-start test check in each page (tests/server/class_learners.py)."""
    from tests.server.class_learners import page_app_model

    white = ('<div class="jp-Cell jp-CodeCell jp-mod-noOutputs jp-mod-noInput"></div>'
             '<script id="jupyter-config-data" type="application/json">{"kernelId": "0f3c"}</script>')
    whole = white + ('<script type="application/vnd.voila.cell-output+json">\n    {"data": {"application/vnd.jupyter.'
                     'widget-view+json": {"model_id": "5258abc", "version_major": 2}}, "output_type": '
                     '"execute_result"}\n  </script>')
    assert page_app_model(white) is None and page_app_model(whole) == "5258abc"
