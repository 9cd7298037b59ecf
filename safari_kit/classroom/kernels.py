"""The class server's kernel manager: who owns each kernel, and the limits on kernels.

``make class`` (:mod:`safari_kit.classroom.serve`) gives Voilà this class as
``VoilaConfiguration.multi_kernel_manager_class``, the documented hook for the
kernel manager (Voilà wraps it for its own needs, preheated pools included).
It is jupyter_server's ``AsyncMappingKernelManager`` plus:

* **an owner per kernel.** A kernel started while a learner's page is rendered
  belongs to the browser that asked for the page: its user id, a random value
  jupyter_server keeps in a signed, HttpOnly login cookie (see
  :mod:`safari_kit.classroom.owners`, which checks it on every kernel route). The
  request is found through jupyter_server's ``CallContext`` (the handler of the
  request in progress). A kernel started outside any page (Voilà's preheated
  pool) is claimed by the first browser that uses it: its id was only ever
  written into that browser's page.
* **a cap on live kernels** (:attr:`max_kernels`) and **on new kernels per
  client per minute** (:attr:`new_kernels_per_minute`, per IP address): a page
  request beyond either gets an HTTP error page with a sentence for the
  learner, never a traceback, and no kernel.
* **a cap on kernels starting at once** (:attr:`max_starting`): a kernel start
  takes a slot, held until its page request is finished (the app notebook ran
  and the page was rendered), the page connects its websocket, or
  :attr:`start_slot_seconds` pass; a further page gets the waiting page ("Your
  lab is starting", :mod:`~safari_kit.classroom.lab_pages`), which asks again by
  itself (a kernel asked for over REST waits in line). (Holding it
  until the websocket only let a learner whose pages never connect keep the
  slots 30 s each: the class's open time went to 40 s.) Starting a
  kernel and rendering its page are the costliest things the server does (a
  new Python importing the kit, nbconvert's templates on the event loop):
  30 at once made every learner's click wait, and one learner opening pages
  in a loop slowed the whole class ×5 (tools/load_class.py --abusive).
  A ready lab (Voilà's preheated pool) holds its slot until its page has rendered
  (:mod:`safari_kit.classroom.ready_labs`): 30 started at once on a busy laptop lost
  their pages' output (issue 26).
* **a memory cap per kernel** (:attr:`memory_limit_mb`): every
  :attr:`memory_check_interval` seconds each kernel's resident memory (its
  process and children) is read, from one scan of the process table in a
  worker thread; a kernel over the cap has its page's
  websockets closed with code :data:`CLOSE_MEMORY` and a sentence the page shows
  (the kit's Voilà template), then is shut down, so one runaway lab cannot take
  the machine's memory from the class.

Idle kernels are culled by jupyter_server's own culler (``cull_idle_timeout``,
``cull_interval``); the class settings keep ``cull_connected`` off, so a kernel
with an open page is never culled. A kernel no page has connected to yet is
not culled either until :attr:`unconnected_grace_seconds` have passed: on a
busy server a page can take longer to load than a short cull time, and the
culler would stop the kernel under a page still loading (its learner got a
dead lab). The grace of a preheated kernel starts when it leaves Voilà's pool
(Voilà's own ``cull_kernel_if_idle`` passes over kernels still in the pool).
"""
from __future__ import annotations

import asyncio
import collections
import os
import time
from collections.abc import Iterable

from jupyter_server.base.call_context import CallContext
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.ioloop import PeriodicCallback
from traitlets import Float, Integer, Unicode

from safari_kit.classroom import owner_tags
from safari_kit.classroom.lab_holds import CLOSE_RECLAIMED, LabHoldsMixin
from safari_kit.server.nodelay import NoDelayZMQChannelsWebsocketConnection
from safari_kit.classroom.page_sockets import (
    BUDGET_WINDOW, CLOSE_FLOOD, CLOSE_TOO_MANY_WINDOWS, PageSocketsMixin, frame_is_sane,
)
from safari_kit.classroom.ready_labs import ReadyLabsMixin

__all__ = ["ClassroomKernelManager", "ClassroomConnectionMixin", "ClassroomWebsocketConnection", "CLOSE_MEMORY",
           "CLOSE_FLOOD", "CLOSE_TOO_MANY_WINDOWS", "CLOSE_RECLAIMED", "BUDGET_WINDOW",
           "kernel_memory_bytes", "kernel_pid", "process_trees_rss"]

#: websocket close code sent to a page whose kernel passed the memory cap (4000-4999: the application's own)
CLOSE_MEMORY = 4001
# CLOSE_FLOOD (4002, a lab's pages over their byte budget), CLOSE_TOO_MANY_WINDOWS (4003) and BUDGET_WINDOW:
# safari_kit.classroom.page_sockets; CLOSE_RECLAIMED (4004, a quiet lab given to a newcomer):
# safari_kit.classroom.lab_holds


def _process_table() -> dict[int, tuple[int, int]]:
    """``pid -> (parent pid, resident bytes)`` of every process, read in one scan of the process table.

    The memory check used to ask psutil for each kernel's children
    (``children(recursive=True)``), and each such call walks all of /proc: 30
    kernels meant 30 scans every few seconds, on the event loop.
    """
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with ipykernel
        return _proc_table()
    table = {}
    for proc in psutil.process_iter(["ppid", "memory_info"]):
        info = proc.info
        memory = info.get("memory_info")
        table[proc.pid] = (info.get("ppid") or 0, memory.rss if memory is not None else 0)
    return table


def _proc_table() -> dict[int, tuple[int, int]]:
    """:func:`_process_table` from /proc (Linux), without psutil."""
    table = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{name}/statm") as f:
                table[int(name)] = (ppid, int(f.read().split()[1]) * page)
        except (OSError, ValueError, IndexError):
            continue
    return table


def process_trees_rss(pids: Iterable[int]) -> dict[int, int]:
    """Resident bytes of each process in ``pids`` with all its descendants (0 for one that is gone), one scan."""
    table = _process_table()
    children: dict[int, list[int]] = collections.defaultdict(list)
    for pid, (ppid, _) in table.items():
        children[ppid].append(pid)
    totals = {}
    for root in pids:
        total, todo, seen = 0, [root] if root in table else [], set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            total += table[pid][1]
            todo.extend(children.get(pid, ()))
        totals[root] = total
    return totals


def kernel_pid(kernel) -> int | None:
    """The local process id of a kernel, or None when it has none (a remote provisioner, a kernel gone)."""
    provisioner = getattr(kernel, "provisioner", None)
    pid = getattr(provisioner, "pid", None)
    if pid is None:
        process = getattr(provisioner, "process", None) or getattr(kernel, "process", None)
        pid = getattr(process, "pid", None)
    return pid if isinstance(pid, int) else None


def kernel_memory_bytes(kernel) -> int:
    """Resident memory of a kernel's process tree, or 0 when its process is not a local one."""
    pid = kernel_pid(kernel)
    return 0 if pid is None else process_trees_rss([pid])[pid]


class ClassroomKernelManager(LabHoldsMixin, PageSocketsMixin, ReadyLabsMixin, AsyncMappingKernelManager):
    """Kernels with owners and limits (see the module's docstring; labs held per learner and the reclaim of a
    quiet lab when full: :mod:`~safari_kit.classroom.lab_holds`; one byte budget and a cap of connections per lab:
    :mod:`~safari_kit.classroom.page_sockets`)."""

    max_kernels = Integer(80, config=True, help="Live kernels at most (0: no cap). A page beyond it gets "
                                                "a page saying the class server is full.")
    new_kernels_per_minute = Integer(4, config=True, help="New kernels per client (IP address) in any "
                                                           "60 seconds (0: no cap).")
    memory_limit_mb = Integer(512, config=True, help="Resident memory of one kernel, in MB (0: no cap); "
                                                     "a kernel over it is shut down and its page says so.")
    memory_check_interval = Float(5.0, config=True, help="Seconds between two readings of kernels' memory.")
    max_starting = Integer(2, config=True, help="Kernels starting at once, their pages rendering (0: no cap); "
                                                "further pages get a page saying the lab is starting.")
    start_slot_seconds = Float(30.0, config=True, help="A starting kernel gives its slot back when its page "
                                                       "connects, or after this many seconds.")
    unconnected_grace_seconds = Float(
        120.0, config=True, help="A kernel no page has connected to yet is not culled before this many seconds "
                                 "(its page may still be loading).")
    full_message = Unicode(
        "The class server is full: it runs as many labs as it allows ({max_kernels}). Close a tab you no longer use, "
        "wait a minute, then reload this page. If it stays full, tell your teacher.",
        config=True, help="The page shown when the cap on live kernels is reached ({max_kernels}).")
    too_fast_message = Unicode(
        "This computer opened {limit} labs in the last minute, the most the class server allows. "
        "Wait a minute, then reload this page.",
        config=True, help="The page shown when a client opens pages too fast ({limit}).")
    memory_message = Unicode(
        "This lab used more than {limit_mb} MB of the server's memory, so the server stopped it.",
        config=True, help="What the page says when its kernel is stopped for memory ({limit_mb}); "
                          "at most 120 bytes (a websocket close reason).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._owners: dict[str, str] = {}
        self._sockets: dict[str, set] = collections.defaultdict(set)
        self._starts: dict[str, collections.deque] = collections.defaultdict(collections.deque)
        self._memory_callback: PeriodicCallback | None = None
        self._connected_once: set[str] = set()
        self._grace_from: dict[str, float] = {}  # kernel id -> when it started (or left the pool), monotonic
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._slot_held: dict[str, tuple[asyncio.Semaphore, asyncio.TimerHandle]] = {}
        self._waiting = 0  # page requests waiting for a start slot (they count against max_kernels)
        self._in_use: set[str] = set()  # kernels a page has (the others are Voilà's pool's: ready_labs)
        self._pool_keeper: PeriodicCallback | None = None

    # ------------------------------------------------------------------ owners
    def owner_of(self, kernel_id: str) -> str | None:
        return self._owners.get(kernel_id)

    def owned_by(self, kernel_id: str, user_id: str | None) -> bool:
        """Whether ``user_id`` owns ``kernel_id``; a live kernel nobody owns yet is claimed by its first user."""
        if not user_id or kernel_id not in self:
            return False
        if kernel_id not in self._owners:
            self.log.info("Kernel %s had no owner (a preheated kernel): its first user claims it", kernel_id)
            self._owners[kernel_id] = user_id
            owner_tags.tag(kernel_id, user_id)  # issue 26: the lab learns its browser's tag (recording only)
        return self._owners[kernel_id] == user_id

    @staticmethod
    def _request_handler():
        """The request handler whose call started this one (jupyter_server's CallContext), if any."""
        return CallContext.get(CallContext.JUPYTER_HANDLER)

    # ------------------------------------------------------------------ limits at start
    def _check_limits(self, handler) -> None:
        """Raise an HTTP error with the learner's sentence when a new kernel would pass a cap."""
        if (self.max_kernels > 0 and len(self.list_kernel_ids()) - self.reclaiming_count() + self._waiting
                >= self.max_kernels and not self._reclaim_for_newcomer(handler)):
            self.log.warning("Kernel cap reached (%d live kernels): page refused", self.max_kernels)
            raise web.HTTPError(503, reason="Class server full",
                                log_message=self.full_message.format(max_kernels=self.max_kernels))
        self._check_rate(handler)

    def _check_rate(self, handler) -> None:
        """Raise an HTTP error with the learner's sentence when this page's computer opened labs too fast
        (or its browser or computer holds as many labs as allowed: lab_holds)."""
        if handler is not None:
            self._check_holds(handler)
        if handler is None or self.new_kernels_per_minute <= 0:
            return
        client = handler.request.remote_ip or "?"
        now = time.monotonic()
        starts = self._starts[client]
        while starts and now - starts[0] > 60:
            starts.popleft()
        if len(starts) >= self.new_kernels_per_minute:
            self.log.warning("A computer opened %d pages in a minute: page refused", len(starts))
            raise web.HTTPError(429, reason="Too many labs opened",
                                log_message=self.too_fast_message.format(limit=self.new_kernels_per_minute))
        starts.append(now)

    # ------------------------------------------------------------------ kernels starting at once
    def _start_slots(self) -> asyncio.Semaphore | None:
        """The semaphore of :attr:`max_starting`, made in the running loop (None: no cap)."""
        if self.max_starting <= 0:
            return None
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.max_starting))
        return self._slots[1]

    def _release_slot(self, kernel_id: str) -> None:
        held = self._slot_held.pop(kernel_id, None)
        if held is not None:
            slots, timer = held
            timer.cancel()
            slots.release()

    def _release_when_finished(self, handler, kernel_id: str) -> None:
        """Give the slot back when the page request that started the kernel ends (tornado's on_finish)."""
        finish = getattr(handler, "on_finish", None)
        if finish is None:
            return

        def on_finish():
            self._release_slot(kernel_id)
            return finish()

        handler.on_finish = on_finish

    async def start_kernel(self, *args, **kwargs):
        handler = self._request_handler()
        # Voila's preheated pool refills while a page is served (that page's request is in the call context),
        # but the new kernel is for the next learner: it stays unowned until its first user claims it, and it
        # is not that page's computer's start (the claim counted it already)
        preheated = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        if not preheated:  # every start slot taken: a learner's page gets the waiting page, not a white one
            self._page_waits_for_a_start_slot(handler)
        self._check_limits(None if preheated else handler)
        slots = self._start_slots()
        if slots is not None:
            self._waiting += 1
            try:
                await slots.acquire()
            finally:
                self._waiting -= 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        except BaseException:
            if slots is not None:
                slots.release()
            raise
        if slots is not None:
            if self.start_slot_seconds <= 0:
                slots.release()
            else:
                timer = asyncio.get_running_loop().call_later(self.start_slot_seconds, self._release_slot, kernel_id)
                self._slot_held[kernel_id] = (slots, timer)
                if not preheated:  # a ready lab gives its slot back when its page has rendered (ready_labs)
                    self._release_when_finished(handler, kernel_id)
        if not preheated:  # a preheated kernel is handed out (owner, grace) when a page claims it (ready_labs)
            self._handed_out(kernel_id, handler)
        self._start_memory_watch()
        self._start_pool_keeper()
        return kernel_id

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        try:
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            if kernel_id not in self:
                self._owners.pop(kernel_id, None)
                self._sockets.pop(kernel_id, None)
                self._connected_once.discard(kernel_id)
                self._grace_from.pop(kernel_id, None)
                self._in_use.discard(kernel_id)
                self._release_slot(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id):
        """jupyter_server's culler, but never for a kernel whose page may still be loading (module docstring)."""
        if kernel_id not in self._connected_once:
            since = self._grace_from.setdefault(kernel_id, time.monotonic())
            if time.monotonic() - since < self.unconnected_grace_seconds:
                self.log.debug("Kernel %s: no page connected yet, not culled during the grace", kernel_id)
                return None
        return await super().cull_kernel_if_idle(kernel_id)

    # ------------------------------------------------------------------ pages' websockets
    def websocket_opened(self, kernel_id: str, handler) -> None:
        self._sockets[kernel_id].add(handler)
        self._connected_once.add(kernel_id)
        self._release_slot(kernel_id)  # its page has rendered and loaded: the next page may start

    def websocket_closed(self, kernel_id: str, handler) -> None:
        self._sockets.get(kernel_id, set()).discard(handler)

    def _close_websockets(self, kernel_id: str, code: int, reason: str) -> None:
        for handler in list(self._sockets.get(kernel_id, ())):
            try:
                handler.close(code, reason)
            except Exception:  # noqa: BLE001 - an already closed socket
                self.log.debug("could not close a websocket of %s", kernel_id, exc_info=True)

    # ------------------------------------------------------------------ memory
    def _start_memory_watch(self) -> None:
        if self._memory_callback is None and self.memory_limit_mb > 0 and self.memory_check_interval > 0:
            self._memory_callback = PeriodicCallback(self.check_memory, 1000 * self.memory_check_interval)
            self._memory_callback.start()
            self.log.info("Kernels over %d MB are stopped (checked every %g s)",
                          self.memory_limit_mb, self.memory_check_interval)

    def _kernel_pids(self, kernel_ids: Iterable[str]) -> dict[str, int]:
        pids = {}
        for kid in kernel_ids:
            if kid in self:
                pid = kernel_pid(self.get_kernel(kid))
                if pid is not None:
                    pids[kid] = pid
        return pids

    def memory_by_kernel(self) -> dict[str, int]:
        """Resident bytes of each live kernel (one process scan)."""
        pids = self._kernel_pids(self.list_kernel_ids())
        rss = process_trees_rss(pids.values())
        return {kid: rss[pid] for kid, pid in pids.items()}

    async def check_memory(self, kernel_ids: Iterable[str] | None = None) -> list[str]:
        """Stop every kernel over :attr:`memory_limit_mb`; return the ids stopped.

        One scan of the process table per check, in a worker thread: the scan
        reads /proc for every process on the machine, and the event loop serves
        every learner's clicks meanwhile.
        """
        if self.memory_limit_mb <= 0:
            return []
        limit = self.memory_limit_mb * 1_000_000
        pids = self._kernel_pids(list(kernel_ids if kernel_ids is not None else self.list_kernel_ids()))
        if not pids:
            return []
        rss_by_pid = await asyncio.to_thread(process_trees_rss, list(pids.values()))
        over = []
        for kid, pid in pids.items():
            rss = rss_by_pid.get(pid, 0)
            if rss > limit and kid in self:
                over.append(kid)
                self.log.warning("Kernel %s uses %.0f MB, over the %d MB cap: stopping it",
                                 kid, rss / 1e6, self.memory_limit_mb)
                reason = self.memory_message.format(limit_mb=self.memory_limit_mb).encode()[:120].decode(
                    "utf-8", "ignore")
                self._close_websockets(kid, CLOSE_MEMORY, reason)
        if over:
            await asyncio.gather(*(self.shutdown_kernel(kid, now=True) for kid in over), return_exceptions=True)
        return over


class ClassroomConnectionMixin:
    """Mix into a kernel websocket connection class: tell the kernel manager which pages are connected.

    :meth:`ClassroomKernelManager.check_memory` closes them, with a sentence, before it stops their kernel.
    """

    async def prepare(self):
        """Before the websocket opens: refuse a new connection to a lab whose pages just sent too much."""
        km = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "page_socket_may_open"):
            km.page_socket_may_open(self.kernel_id)  # type: ignore[attr-defined]
        prepare = getattr(super(), "prepare", None)
        if prepare is not None:
            await prepare()

    def connect(self):
        km = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "websocket_opened"):
            km.websocket_opened(self.kernel_id, self.websocket_handler)  # type: ignore[attr-defined]
        if hasattr(km, "page_socket_opened"):  # the cap of connections per lab (page_sockets)
            km.page_socket_opened(self.kernel_id, self.websocket_handler)  # type: ignore[attr-defined]
        return super().connect()  # type: ignore[misc]

    def handle_incoming_message(self, incoming_msg):
        """Relay a page's message to its kernel, unless the lab's pages passed their budget of bytes (then drop it).

        The budget is the lab's, shared by all its connections (page_sockets); a message also tells the
        kernel manager the page is not silent (lab_holds).
        """
        km = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "allow_incoming"):
            if not km.allow_incoming(self.kernel_id, self.websocket_handler,  # type: ignore[attr-defined]
                                     len(incoming_msg)):
                return None
        try:  # a frame still queued when the server closed the socket: jupyter_server would read it as legacy
            v1 = self.websocket_handler.selected_subprotocol == "v1.kernel.websocket.jupyter.org"  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - the socket is closed
            return None
        if not frame_is_sane(incoming_msg, v1):  # its table of parts would stop the server (page_sockets)
            return None
        if hasattr(km, "page_heard"):
            km.page_heard(self.kernel_id)  # type: ignore[attr-defined]
        return super().handle_incoming_message(incoming_msg)  # type: ignore[misc]

    def disconnect(self):
        km = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "websocket_closed"):
            km.websocket_closed(self.kernel_id, self.websocket_handler)  # type: ignore[attr-defined]
        if hasattr(km, "page_socket_closed"):
            km.page_socket_closed(self.kernel_id, self.websocket_handler)  # type: ignore[attr-defined]
        return super().disconnect()  # type: ignore[misc]


class ClassroomWebsocketConnection(ClassroomConnectionMixin, NoDelayZMQChannelsWebsocketConnection):
    """The class server's kernel websocket connection: TCP_NODELAY, and known to the kernel manager."""
