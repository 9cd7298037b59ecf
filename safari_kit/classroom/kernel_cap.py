"""The cap on live labs: a page beyond it gets a page saying the class server is full (``--max-labs``).

Labs being shut down for a newcomer (:mod:`~safari_kit.classroom.lab_holds`) no longer count; pages
waiting for a start slot (:mod:`~safari_kit.classroom.start_slots`) do, or 30 pages arriving at once
would all pass a cap of 20 while they wait. When full, a quiet lab may make room
(:meth:`~safari_kit.classroom.lab_holds.LabHoldsMixin._make_room_for`) before the page is refused.
"""
from __future__ import annotations

from typing import Any

from traitlets import Integer, Unicode

from safari_kit.classroom.policy import KernelPolicy
from safari_kit.classroom.page_words import refusal
from safari_kit.core.i18n import N_

__all__ = ["KernelCapMixin"]


class KernelCapMixin(KernelPolicy):
    """Live kernels at most (:attr:`max_kernels`); see the module's docstring."""

    max_kernels = Integer(80, config=True, help="Live kernels at most (0: no cap). A page beyond it gets "
                                                "a page saying the class server is full.")
    full_message = Unicode(N_(
        "The class server is full: it runs as many labs as it allows ({max_kernels}). Close a tab you no longer use, "
        "wait a minute, then reload this page. If it stays full, tell your teacher."),
        config=True, help="The page shown when the cap on live kernels is reached ({max_kernels}).")

    def _kernel_cap(self) -> int:
        return self.max_kernels

    def _kernels_held(self) -> int:
        """Every kernel this process has, whoever started it (a page, the ready labs): the live ones and those
        still starting (jupyter_client lists a kernel only once it has started)."""
        ids = set(self.list_kernel_ids())
        pending = getattr(self, "_pending_kernels", None) or {}
        ids.update(k for k, task in pending.items() if not task.done())
        return len(ids)

    def _check_cap(self, handler: Any) -> None:
        """Raise 503 with the learner's sentence when a new kernel would pass the cap (and no room is made)."""
        if self.max_kernels <= 0:
            return
        live = self._kernels_held() - self._leaving_count() + self._starts_waiting()
        if live >= self.max_kernels and not self._make_room_for(handler):
            self.log.warning("Kernel cap reached (%d live kernels): page refused", self.max_kernels)
            raise refusal(503, N_("Class server full"), self.full_message, handler, max_kernels=self.max_kernels)
