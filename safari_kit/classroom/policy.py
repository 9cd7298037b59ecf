"""What every policy of the class server's kernel manager shares: the hooks it calls, each a no-op here.

:class:`~safari_kit.classroom.kernels.ClassroomKernelManager` is jupyter_server's
``AsyncMappingKernelManager`` with one mixin per policy (owners, the cap on live
labs, the rate per address, start slots, the cull grace, labs held per browser,
the pages' byte budget, memory, ready labs), the way Voilà composes its own
behaviour onto whatever kernel manager class it is given. The policies talk to
each other only through these hooks, each mixin adding its part and calling
``super()``; with :class:`KernelPolicy` last before the kernel manager in the
class's order, every hook ends here. So each mixin also runs alone on a plain
kernel manager (``class M(OwnersMixin, AsyncMappingKernelManager)``), which is
how its unit test runs it (tests/server/test_class_policies.py).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from jupyter_server.base.call_context import CallContext
from traitlets import HasTraits

__all__ = ["KernelPolicy", "request_handler", "preheated"]


def request_handler() -> Any:
    """The request handler whose call started this one (jupyter_server's CallContext), if any."""
    return CallContext.get(CallContext.JUPYTER_HANDLER)


def preheated(kwargs: dict[str, Any]) -> bool:
    """Whether a ``start_kernel`` call is Voilà's preheated pool filling up (not a learner's page)."""
    return (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"


class KernelPolicy(HasTraits):
    """The hooks (no-ops here) that the policies add to, and the one fact every page's connection reports:
    which kernels a page has connected to (see the module's docstring)."""

    if TYPE_CHECKING:  # what each policy uses of the kernel manager it is mixed into
        log: logging.Logger

        def list_kernel_ids(self) -> list[str]: ...

        def get_kernel(self, kernel_id: str) -> Any: ...

        def __contains__(self, kernel_id: str) -> bool: ...

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._connected_once: set[str] = set()  # kernels a page has connected to, at least once

    @staticmethod
    def _request_handler() -> Any:
        """The request handler whose call started this one (tests replace it)."""
        return request_handler()

    def _check_page(self, handler: Any) -> None:
        """Before a learner's page takes a lab: raise ``tornado.web.HTTPError`` with the learner's sentence to
        refuse it."""

    def _kernel_cap(self) -> int:
        """Live labs at most (0: no cap)."""
        return 0

    def _starts_waiting(self) -> int:
        """Pages waiting for a start slot (they count against the cap on live labs)."""
        return 0

    def _leaving_count(self) -> int:
        """Labs being shut down for a newcomer (the cap no longer counts them)."""
        return 0

    def _make_room_for(self, handler: Any) -> bool:
        """The server is full: whether a lab was freed for this page's learner."""
        return False

    def _page_load_grace(self) -> float:
        """Seconds a page may take to load and connect before its lab counts as abandoned."""
        return 120.0

    def _no_start_slot(self) -> bool:
        """Whether every start slot is taken now."""
        return False

    def _release_slot(self, kernel_id: str) -> None:
        """The lab's start is over (its page rendered or connected): its start slot is free."""

    def _handed_out(self, kernel_id: str, handler: Any) -> None:
        """A page has this kernel now (started for it, or taken from the ready labs)."""

    def websocket_opened(self, kernel_id: str, handler: Any) -> None:
        """A page's kernel websocket opened (the connection class calls it)."""
        self._connected_once.add(kernel_id)

    def websocket_closed(self, kernel_id: str, handler: Any) -> None:
        """A page's kernel websocket closed."""

    def _kernel_gone(self, kernel_id: str) -> None:
        """The kernel is shut down: forget what was kept about it."""
        self._connected_once.discard(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[misc]
        finally:
            if kernel_id not in self:
                self._kernel_gone(kernel_id)
