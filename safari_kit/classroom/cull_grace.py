"""A lab no page has connected to yet is not culled before a grace (``unconnected_grace_seconds``).

Idle kernels are culled by jupyter_server's own culler (``cull_idle_timeout``, ``cull_interval``); the class
settings keep ``cull_connected`` off, so a kernel with an open page is never culled. But on a busy server a
page can take longer to load than a short cull time, and the culler stopped the kernel under a page still
loading (its learner got a dead lab). The grace of a preheated kernel starts when it leaves Voilà's pool
(Voilà's own ``cull_kernel_if_idle`` passes over kernels still in the pool).
"""
from __future__ import annotations

import time
from typing import Any

from traitlets import Float

from safari_kit.classroom.policy import KernelPolicy

__all__ = ["CullGraceMixin"]


class CullGraceMixin(KernelPolicy):
    """jupyter_server's culler, but never for a kernel whose page may still be loading (module docstring)."""

    unconnected_grace_seconds = Float(
        120.0, config=True, help="A kernel no page has connected to yet is not culled before this many seconds "
                                 "(its page may still be loading).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._grace_from: dict[str, float] = {}  # kernel id -> when it started (or left the pool), monotonic

    def _page_load_grace(self) -> float:
        return self.unconnected_grace_seconds

    async def cull_kernel_if_idle(self, kernel_id: str) -> Any:
        if kernel_id not in self._connected_once:
            since = self._grace_from.setdefault(kernel_id, time.monotonic())
            if time.monotonic() - since < self.unconnected_grace_seconds:
                self.log.debug("Kernel %s: no page connected yet, not culled during the grace",
                               kernel_id)
                return None
        return await super().cull_kernel_if_idle(kernel_id)  # type: ignore[misc]

    def _handed_out(self, kernel_id: str, handler: Any) -> None:
        super()._handed_out(kernel_id, handler)
        self._grace_from[kernel_id] = time.monotonic()

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self._grace_from.pop(kernel_id, None)
