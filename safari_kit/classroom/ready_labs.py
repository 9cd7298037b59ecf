"""Labs kept ready for a class: Voilà's preheated kernels, sized from the class and claimed by a browser.

Opening the app costs a new Python importing the kit and running the app
notebook, then nbconvert rendering the page on the server's one event loop:
about 1.5 CPU-seconds. Thirty learners arriving within ten seconds on a 2-core
laptop waited 6 s at the median and 13 s at the 95th percentile
(tools/load_class.py). Voilà can do that work before anyone comes
(``VoilaConfiguration.preheat_kernel``): a pool of kernels that have already
run the notebook and rendered the page, handed out at once. Voilà's pool on its
own does not fit a class:

* it refills to its full size after every claim, so a pool sized for 30 holds 60
  kernels once the class is in (4 GiB here) and starts 30 more while the class
  plays (every learner's click slowed);
* a page served from the pool skips the kernel manager's ``start_kernel``, so
  its browser was not recorded as the kernel's owner and the cap of new labs
  per computer did not apply.

:class:`ReadyLabsMixin` (part of
:class:`~safari_kit.classroom.kernels.ClassroomKernelManager`) sizes the pool
from the class instead: the server keeps :attr:`~ReadyLabsMixin.ready_labs`
labs started, in use or ready, and always at least
:attr:`~ReadyLabsMixin.spare_labs` ready for a latecomer or a reload, never
more kernels than the cap on live labs allows. A learner's page that takes a
ready lab is checked against the per-computer rate, and the lab belongs to
that browser from then on.

The first minute of a class (issue 26). Voilà started all 30 ready labs at
once and handed out the oldest whether or not its page had rendered. On a busy
2-core laptop 10-17 of the 30 renders lost the app cell's output (nbclient's
``Timeout waiting for IOPub output``) and every learner got a white page. Now:

* ready labs start in batches: a ready lab holds one of the kernel manager's
  start slots (``max_starting``) until its page has rendered, as a learner's own
  start does;
* a lab is handed out only once its page rendered whole
  (:func:`~safari_kit.classroom.lab_pages.why_not_whole`: every cell's output
  arrived, the page ends, the kernel is alive); one that did not is stopped and
  another started (after a growing pause when it happens again and again, so a
  notebook that never renders whole cannot keep the machine busy);
* a lab that cannot be made ready is shut down, not forgotten (issue 29: an orphaned ``--hub`` service had
  94 kernels after 27 minutes with one ready lab asked for). Voilà's pool drops a start that failed, but a
  kernel the start had already launched ran on; and Voilà's ``shutdown_kernel`` reads every pool task's
  result first, so a failed start left in the pool made the shutdown of a lab that did not render whole
  raise, and that lab ran on too. Each failure is one line in the log, and failures in a row make every
  refill wait (the periodic look every 10 s, a page finding the pool empty), not only the next one;
* a page asked for while no lab is whole yet gets the waiting page
  (:func:`~safari_kit.classroom.lab_pages.waiting_page`: "Your lab is starting",
  and it asks again by itself), never a white page; so does a page that would
  wait for a start slot with the pool empty;
* the teacher's terminal says how many labs are ready, and once
  "30 labs ready: the class can come in now."

Voilà's class is made from the kit's by ``voila_kernel_manager_factory`` (a
subclass); :meth:`~ReadyLabsMixin.__init_subclass__` replaces that subclass's
claim and wraps its pool start and pool size, so no installed file is changed.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import time
from typing import TYPE_CHECKING, Any

from jupyter_core.utils import ensure_async
from jupyter_server.base.call_context import CallContext
from tornado import web
from tornado.ioloop import PeriodicCallback
from traitlets import Float, Integer, Unicode

from safari_kit.classroom.lab_pages import waiting_page, why_not_whole
from safari_kit.classroom.page_words import request_language
from safari_kit.core.i18n import N_
from safari_kit.classroom.policy import KernelPolicy

__all__ = ["ReadyLabsMixin", "pool_target"]


def pool_target(ready: int, spare: int, in_use: int, cap: int) -> int:
    """How many ready labs the pool should hold: enough to make ``ready`` in all, at least ``spare``, under ``cap``.

    ``cap`` is the cap on live labs (0: none); ``ready`` 0 turns the pool off.

    >>> pool_target(30, 2, 0, 80)    # before the class comes: the whole class's labs
    30
    >>> pool_target(30, 2, 29, 80)   # the class is in: a couple for latecomers and reloads
    2
    >>> pool_target(30, 2, 79, 80)   # never past the cap on live labs
    1
    >>> pool_target(0, 2, 5, 80)     # no pool
    0
    """
    if ready <= 0:
        return 0
    target = max(spare, ready - in_use)
    if cap > 0:
        target = min(target, cap - in_use)
    return max(target, 0)


def _claiming(_voila_claim):
    """Replace Voilà's claim of a preheated kernel (``get_rendered_notebook``) by :meth:`ReadyLabsMixin._claim`.

    Voilà's own claim hands out the oldest lab of the pool whether or not its
    page has finished rendering, or rendered whole (issue 26: white pages).
    """

    @functools.wraps(_voila_claim)
    async def claim(self, notebook_name, *args, **kwargs):
        return await self._claim(notebook_name)

    setattr(claim, "_safari_claim", True)
    return claim


#: the kernels a ready lab's start (Voilà's ``_initialize``, in its own task) started so far
_LAB_KERNELS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("safari_lab_kernels", default=None)


def _watching(initialize):
    """Wrap Voilà's start of a pool kernel (``_initialize``): a start that fails leaves no kernel behind, and its
    page's render is checked when it ends."""

    @functools.wraps(initialize)
    async def watched(self, notebook_path, kernel_id=None, **kwargs):
        if kernel_id is not None:  # Voilà's restart_kernel passes the id of a lab in use
            return await initialize(self, notebook_path, kernel_id, **kwargs)
        started: list[str] = []
        token = _LAB_KERNELS.set(started)
        try:
            await self._know_notebook(notebook_path)
            content = await initialize(self, notebook_path, kernel_id, **kwargs)
        except BaseException as exc:
            await self._start_failed(started, exc)
            raise
        finally:
            _LAB_KERNELS.reset(token)
        content["task"].add_done_callback(functools.partial(self._render_ended, notebook_path, content))
        return content

    setattr(watched, "_safari_watch", True)
    return watched


def _sizing(get_pool_size):
    """Wrap Voilà's pool size, which its page handler reads to choose between a ready lab and a new kernel."""

    @functools.wraps(get_pool_size)
    def size(self, notebook_name):
        n = get_pool_size(self, notebook_name)
        if n == 0 and self._preheating() and self._no_start_slot():
            return 1  # no ready lab and every start slot taken: the page is told to wait (_claim)
        return n

    setattr(size, "_safari_size", True)
    return size


def _outside_any_page(fn, *args, **kwargs):
    """Call ``fn`` as if no page's request were in progress (jupyter_server's CallContext without a handler).

    Kernels started from here (the pool's refills) belong to the pool, not to
    the computer whose page happened to trigger the refill: its per-computer
    rate must not count them.
    """
    def run():
        CallContext.set(CallContext.JUPYTER_HANDLER, None)
        return fn(*args, **kwargs)

    return contextvars.copy_context().run(run)


async def _nothing():
    """An async generator that yields nothing: the rest of a page that is already whole."""
    return
    yield  # pragma: no cover


class ReadyLabsMixin(KernelPolicy):
    """The pool of ready labs (see the module's docstring); mixed into the class server's kernel manager.

    It keeps ``_in_use`` (the kernels a page has: claimed from the pool or
    started for it; the others are the pool's). It asks the other policies
    through the hooks of :class:`~safari_kit.classroom.policy.KernelPolicy`: the
    page's caps (``_check_page``), the start slots (``_no_start_slot``,
    ``_release_slot``), the cap on live labs (``_kernel_cap``); a lab handed
    out goes through ``_handed_out`` (owner, grace, hold).
    """

    ready_labs = Integer(0, config=True, help="Labs the server keeps started, in use or ready, so that a learner's "
                                              "page opens at once (0: no pool). Size it to the class.")
    spare_labs = Integer(2, config=True, help="Ready labs kept however many are in use (latecomers, reloads).")
    pool_check_interval = Float(10.0, config=True, help="Seconds between two looks at the pool's size.")
    waiting_message = Unicode(N_(
        "The class is arriving together, so this can take up to a minute. Keep this page open: "
        "your lab opens here by itself."),
        config=True, help="What a learner's page says while no ready lab is whole yet (under 'Your lab is "
                          "starting').")
    waiting_retry_seconds = Float(2.0, config=True, help="A waiting page asks again after about this many seconds.")

    if TYPE_CHECKING:  # Voilà's preheating kernel manager (voila.voila_kernel_manager), which subclasses this one
        _pools: dict[str, list[asyncio.Task]]
        notebook_data: dict[str, dict[str, Any]]
        kernel_pools_config: dict[str, dict[str, Any]]

        def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                           **kwargs: Any) -> None: ...

        def _notebook_renderer_factory(self, notebook_path: str) -> Any: ...

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._whole: set[str] = set()  # ready labs whose page rendered whole, not handed out yet
        self._made_ready = 0  # ready labs whose page rendered whole since the start
        self._announced = False
        self._failed_in_a_row = 0
        self._retry_at = 0.0  # monotonic time before which no ready lab is started (after failures in a row)
        self._knowing: asyncio.Future | None = None
        self.waiting_pages_served = 0
        self._stopping = False
        self._in_use: set[str] = set()  # kernels a page has (the others are Voilà's pool's)
        self._pool_keeper: PeriodicCallback | None = None

    async def shutdown_all(self, *args, **kwargs):
        """The server stops: a ready lab whose render ends now is neither checked nor replaced."""
        self._stopping = True
        if self._pool_keeper is not None:
            self._pool_keeper.stop()
        return await super().shutdown_all(*args, **kwargs)  # type: ignore[misc]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        wrappers = {"get_rendered_notebook": ("_safari_claim", _claiming), "_initialize": ("_safari_watch", _watching),
                    "get_pool_size": ("_safari_size", _sizing)}
        if "get_rendered_notebook" not in cls.__dict__:  # not Voilà's preheating subclass
            return
        for name, (mark, wrap) in wrappers.items():
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, mark, False):
                setattr(cls, name, wrap(method))

    def _preheating(self) -> bool:
        return self.ready_labs > 0 and hasattr(self, "fill_if_needed") and hasattr(self, "kernel_pools_config")

    # ------------------------------------------------------------------ the pool's size
    def _size_pool(self, in_use: int | None = None) -> int:
        """Set Voilà's pool size (``kernel_pools_config``) for ``in_use`` labs in use; return it."""
        if not self._preheating():
            return 0
        in_use = len(self._in_use) if in_use is None else in_use
        target = pool_target(self.ready_labs, self.spare_labs, in_use, self._kernel_cap())
        config = dict(self.kernel_pools_config.get("default", {}))
        if config.get("pool_size") != target:
            config["pool_size"] = target
            self.kernel_pools_config = {"default": config}
        return target

    def _drop_failed(self, pool: list) -> None:
        """Take out of ``pool`` the labs whose start failed (:meth:`_start_failed` shut their kernel down)."""
        for task in [t for t in pool if t.done() and (t.cancelled() or t.exception() is not None)]:
            pool.remove(task)

    def _refill(self, notebook_name: str, delay: float | None = None) -> None:
        """Start labs until the pool holds its size again (Voilà's fill), outside any page's request.

        After failures in a row the next start waits (:meth:`_failed_once`), however often this is called: by
        the periodic look, a page finding the pool empty, a lab handed out.
        """
        if self._stopping:
            return
        self._size_pool()
        self._drop_failed(self._pools.setdefault(notebook_name, []))
        wait = self._retry_at - time.monotonic()
        if wait > 0:
            delay = max(delay if delay is not None else getattr(self, "fill_delay", 1.0), wait)
        _outside_any_page(self.fill_if_needed, delay=delay, notebook_name=notebook_name)

    def _failed_once(self) -> float:
        """One more ready lab failed: the seconds to wait before the next start (0, 0, then 1, 2, 4 ... 60)."""
        self._failed_in_a_row += 1
        delay = 0 if self._failed_in_a_row <= 2 else min(60, 2 ** (self._failed_in_a_row - 2))
        self._retry_at = time.monotonic() + delay
        return delay

    async def _start_failed(self, started: list[str], exc: BaseException) -> None:
        """A ready lab's start failed: shut down the kernel it had started (the pool forgets the lab, so nothing
        else would), say what failed in one line, and wait longer before the next start."""
        for kernel_id in started:
            await self._shut_lab(kernel_id)
        if isinstance(exc, asyncio.CancelledError) or self._stopping:
            return
        delay = self._failed_once()
        what = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
        self.log.warning("A ready lab could not be started (%s)%s; another is started%s", what,
                         f": its kernel {', '.join(started)} is shut down" if started else "",
                         f" in {delay} s" if delay else "")

    async def _shut_lab(self, kernel_id: str) -> None:
        """Shut down a ready lab's kernel now; say so when it cannot be (it would run on, uncounted by the pool)."""
        for pool in self._pools.values():  # Voilà's shutdown_kernel reads every pool task's result: a failed
            self._drop_failed(pool)  # task there raised, and the kernel was never shut down
        if kernel_id not in self and kernel_id not in getattr(self, "_pending_kernels", {}):
            return
        try:
            await self.shutdown_kernel(kernel_id, now=True)
        except Exception as exc:  # noqa: BLE001 - said in the log; the periodic look tries again
            self.log.warning("A ready lab's kernel %s could not be shut down (%s: %s)", kernel_id,
                             type(exc).__name__, exc)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Start a kernel; when a ready lab's start asked for it, remember it there (:func:`_watching`)."""
        kernel_id: str = await super().start_kernel(*args, **kwargs)  # type: ignore[misc]  # a mixin
        started = _LAB_KERNELS.get()
        if started is not None:
            started.append(kernel_id)
        return kernel_id

    def _keep_pool(self) -> None:
        """Top the pool up when labs were given back (culled, shut) or a start failed: the periodic look."""
        if not self._preheating():
            return
        self._in_use.intersection_update(self.list_kernel_ids())
        self._whole.intersection_update(self.list_kernel_ids())
        for name in list(self._pools):
            self._refill(name, delay=0)

    def _start_pool_keeper(self) -> None:
        if self._preheating() and self._pool_keeper is None and self.pool_check_interval > 0:
            self._pool_keeper = PeriodicCallback(self._keep_pool, 1000 * self.pool_check_interval)
            self._pool_keeper.start()

    # ------------------------------------------------------------------ a ready lab's page
    async def _know_notebook(self, notebook_path: str) -> None:
        """Tell Voilà's page handler at once that this notebook has ready labs (its ``notebook_data``).

        Voilà writes it only once a pool kernel has started: a page asked for in
        the first seconds started a kernel of its own, in line behind the whole
        pool's starts, on a white page.
        """
        if notebook_path in self.notebook_data:
            return
        if self._knowing is None:
            self._knowing = asyncio.ensure_future(self._read_notebook(notebook_path))
        with contextlib.suppress(Exception):  # Voilà's own start says what is wrong with the notebook
            await asyncio.shield(self._knowing)

    async def _read_notebook(self, notebook_path: str) -> None:
        renderer = self._notebook_renderer_factory(notebook_path)
        await renderer.initialize()
        self.notebook_data.setdefault(renderer.notebook_path, {
            "notebook": renderer.notebook, "template": renderer.template_name, "theme": renderer.theme,
            "kernel_name": renderer.notebook.metadata.kernelspec.name, "kernel_ids": set()})

    def _render_ended(self, notebook_name: str, content: dict, task: asyncio.Task) -> None:
        _outside_any_page(asyncio.ensure_future, self._check_render(notebook_name, content, task))

    async def _check_render(self, notebook_name: str, content: dict, task: asyncio.Task) -> None:
        """A ready lab's page has rendered: keep it if whole, else stop it and start another (module docstring)."""
        kernel_id = content["kernel_id"]
        self._release_slot(kernel_id)  # the next lab may start
        if self._stopping:
            return
        try:
            alive = kernel_id in self and bool(await ensure_async(self.get_kernel(kernel_id).is_alive()))
        except Exception:  # noqa: BLE001 - a kernel gone meanwhile
            alive = False
        why = why_not_whole(task, content["renderer"], alive)
        if why is None:
            self._whole.add(kernel_id)
            self._failed_in_a_row, self._retry_at = 0, 0.0
            self._count_ready()
            return
        delay = self._failed_once()
        self.log.warning("A ready lab's page did not render whole (%s): it is stopped, and another lab is started%s",
                         why, f" in {delay} s" if delay else "")
        await self._shut_lab(kernel_id)  # leaves Voilà's pool
        self._refill(notebook_name, delay=delay)

    def _count_ready(self) -> None:
        """Say in the teacher's terminal how the labs are getting ready, and once when the class can come in."""
        self._made_ready += 1
        target = pool_target(self.ready_labs, self.spare_labs, 0, self._kernel_cap())
        if self._announced:
            return
        if self._made_ready >= target:
            self._announced = True
            print(f"{target} labs ready: the class can come in now.", flush=True)
        elif self._made_ready == 1 or self._made_ready % 10 == 0:
            print(f"{self._made_ready} of {target} labs ready ...", flush=True)

    def _lab_ready(self, task: asyncio.Task) -> bool:
        return (task.done() and not task.cancelled() and task.exception() is None
                and task.result()["kernel_id"] in self._whole)

    # ------------------------------------------------------------------ a page takes a lab
    async def _claim(self, notebook_name: str):
        """A learner's page asks for a ready lab: hand out one whose page rendered whole, else the waiting page.

        Returns what Voilà's ``get_rendered_notebook`` returns: the render task,
        the rendered HTML snippets, the kernel id. The lab's per-computer rate is
        checked before it leaves the pool; it belongs to the page's browser after.
        """
        if notebook_name is None:
            raise NameError("Notebook name must be provided!")
        handler = self._request_handler()
        pool = self._pools.setdefault(notebook_name, [])
        self._drop_failed(pool)
        ready = next((task for task in pool if self._lab_ready(task)), None)
        if ready is None:
            if not pool:
                self._refill(notebook_name, delay=0)
            return self._waiting_page(handler)
        self._check_page(handler)
        pool.remove(ready)
        content = ready.result()
        kernel_id, renderer = content["kernel_id"], content["renderer"]
        renderer.stop_generator = True
        self._whole.discard(kernel_id)
        self.log.info("Using pre-heated kernel: %s for %s", kernel_id, notebook_name)
        self._handed_out(kernel_id, handler)
        self._refill(notebook_name)  # Voilà's fill delay: the pool's size for one more lab in use
        return content["task"], renderer.rendered_cache, kernel_id

    def _waiting_page(self, handler=None):
        """(render task, snippets, kernel id) of the waiting page: Voilà's handler sends it as the whole page."""
        self.waiting_pages_served += 1
        page = waiting_page(self.waiting_message, self.waiting_retry_seconds, request_language(handler))
        done = asyncio.get_running_loop().create_future()
        done.set_result(([page], _nothing()))
        return done, [page], None

    def _page_waits_for_a_start_slot(self, handler) -> None:
        """Answer a learner's page with the waiting page (tornado's ``Finish``) when every start slot is taken.

        Voilà starts a page's kernel before it sends a byte of the page: a page
        waiting in line for a start slot stayed white (issue 26). It asks again
        by itself; nothing is counted against its computer. Only Voilà's page
        requests get it (a REST request for a kernel waits in line as before).
        """
        if handler is None or not hasattr(handler, "get_generator") or getattr(handler, "_headers_written", True):
            return
        if not self._no_start_slot():
            return
        self.waiting_pages_served += 1
        raise web.Finish(waiting_page(self.waiting_message, self.waiting_retry_seconds, request_language(handler)))

    def _handed_out(self, kernel_id: str, handler) -> None:
        """A page has this kernel now: it is in use (the other policies: its owner, its grace, its hold)."""
        super()._handed_out(kernel_id, handler)
        self._in_use.add(kernel_id)
        self._start_pool_keeper()

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self._in_use.discard(kernel_id)
