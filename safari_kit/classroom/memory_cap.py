"""A memory cap per lab (``--memory-mb``): a lab over it is stopped, and its page says so.

Every :attr:`~MemoryCapMixin.memory_check_interval` seconds each kernel's resident memory (its process and
children) is read, from one scan of the process table in a worker thread; a kernel over the cap has its
page's websockets closed with code :data:`CLOSE_MEMORY` and a sentence the page shows (the kit's Voilà
template), then is shut down, so one runaway lab cannot take the machine's memory from the class.
"""
from __future__ import annotations

import asyncio
import collections
import os
from collections.abc import Iterable
from typing import Any

from tornado.ioloop import PeriodicCallback
from traitlets import Float, Integer, Unicode

from safari_kit.classroom.policy import KernelPolicy
from safari_kit.core.i18n import N_, _

__all__ = ["MemoryCapMixin", "CLOSE_MEMORY", "kernel_memory_bytes", "kernel_pid", "process_trees_rss"]

#: websocket close code sent to a page whose kernel passed the memory cap (4000-4999: the application's own)
CLOSE_MEMORY = 4001


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
    for pid, (ppid, _rss) in table.items():
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


class MemoryCapMixin(KernelPolicy):
    """Kernels over :attr:`memory_limit_mb` are stopped, their pages told why (module docstring)."""

    memory_limit_mb = Integer(512, config=True, help="Resident memory of one kernel, in MB (0: no cap); "
                                                     "a kernel over it is shut down and its page says so.")
    memory_check_interval = Float(5.0, config=True, help="Seconds between two readings of kernels' memory.")
    memory_message = Unicode(N_(
        "This lab used more than {limit_mb} MB of the server's memory, so the server stopped it."),
        config=True, help="What the page says when its kernel is stopped for memory ({limit_mb}); "
                          "at most 120 bytes (a websocket close reason).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sockets: dict[str, set[Any]] = collections.defaultdict(set)  # kernel id -> its pages' websockets
        self._memory_callback: PeriodicCallback | None = None

    def websocket_opened(self, kernel_id: str, handler: Any) -> None:
        super().websocket_opened(kernel_id, handler)
        self._sockets[kernel_id].add(handler)

    def websocket_closed(self, kernel_id: str, handler: Any) -> None:
        super().websocket_closed(kernel_id, handler)
        self._sockets.get(kernel_id, set()).discard(handler)

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self._sockets.pop(kernel_id, None)

    def _close_websockets(self, kernel_id: str, code: int, reason: str) -> None:
        for handler in list(self._sockets.get(kernel_id, ())):
            try:
                handler.close(code, reason)
            except Exception:  # noqa: BLE001 - an already closed socket
                self.log.debug("could not close a websocket of %s", kernel_id, exc_info=True)

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
                reason = _(self.memory_message).format(limit_mb=self.memory_limit_mb).encode()[:120].decode(
                    "utf-8", "ignore")
                self._close_websockets(kid, CLOSE_MEMORY, reason)
        if over:
            await asyncio.gather(*(self.shutdown_kernel(kid, now=True) for kid in over), return_exceptions=True)
        return over
