"""The class server's kernel manager: jupyter_server's, with one mixin per policy.

``make class`` (:mod:`safari_kit.classroom.serve`) gives Voilà :class:`ClassroomKernelManager` as
``VoilaConfiguration.multi_kernel_manager_class``, the documented hook for the kernel manager (Voilà
wraps it for its own needs, preheated pools included). It is jupyter_server's
``AsyncMappingKernelManager`` plus, each in its own module and mixin (the hooks they share:
:mod:`~safari_kit.classroom.policy`):

* **an owner per kernel** (:class:`~safari_kit.classroom.owners.OwnersMixin`): a kernel started while a
  learner's page is rendered belongs to the browser that asked for the page, whose user id is a random
  value in jupyter_server's signed, HttpOnly login cookie; the identity provider
  (:class:`~safari_kit.classroom.owners.KernelOwnerIdentityProvider`) checks it on every kernel route;
* **a cap on live kernels** (:mod:`~safari_kit.classroom.kernel_cap`) and **on new kernels per address
  per minute** (:mod:`~safari_kit.classroom.address_rate`): a page beyond either gets an HTTP error page
  with a sentence for the learner, never a traceback, and no kernel;
* **labs held per browser and per address**, and a full server's reclaim of a quiet lab
  (:mod:`~safari_kit.classroom.lab_holds`);
* **a cap on kernels starting at once** (:mod:`~safari_kit.classroom.start_slots`);
* **a cull grace** for a kernel whose page has not connected yet (:mod:`~safari_kit.classroom.cull_grace`);
* **one byte budget and a cap of connections per lab** (:mod:`~safari_kit.classroom.page_sockets`);
* **a memory cap per kernel** (:mod:`~safari_kit.classroom.memory_cap`);
* **ready labs**, handed out only whole (:mod:`~safari_kit.classroom.ready_labs`);
* **a quiet stop** for a kernel still starting when the server stops (its own kernel manager class,
  :mod:`~safari_kit.classroom.quiet_stop`).

:meth:`ClassroomKernelManager.start_kernel` is the one place that orders them for a learner's page: the
waiting page when every start slot is taken, the cap (a full server may reclaim a quiet lab), the page's
own caps (labs held, then the rate), the start slot, the start, then the hand-out (owner, grace, hold).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import default

from safari_kit.classroom.address_rate import AddressRateMixin
from safari_kit.classroom.cull_grace import CullGraceMixin
from safari_kit.classroom.kernel_cap import KernelCapMixin
from safari_kit.classroom.lab_holds import CLOSE_RECLAIMED, LabHoldsMixin
from safari_kit.classroom.memory_cap import (
    CLOSE_MEMORY, MemoryCapMixin, kernel_memory_bytes, kernel_pid, process_trees_rss,
)
from safari_kit.classroom.owners import OwnersMixin
from safari_kit.classroom.page_sockets import (
    BUDGET_WINDOW, CLOSE_FLOOD, CLOSE_TOO_MANY_WINDOWS, PageSocketsMixin, frame_is_sane,
)
from safari_kit.classroom.policy import preheated
from safari_kit.classroom.ready_labs import ReadyLabsMixin
from safari_kit.classroom.start_slots import StartSlotsMixin
from safari_kit.server.nodelay import NoDelayZMQChannelsWebsocketConnection

__all__ = ["ClassroomKernelManager", "ClassroomConnectionMixin", "ClassroomWebsocketConnection", "CLOSE_MEMORY",
           "CLOSE_FLOOD", "CLOSE_TOO_MANY_WINDOWS", "CLOSE_RECLAIMED", "BUDGET_WINDOW",
           "kernel_memory_bytes", "kernel_pid", "process_trees_rss"]


# The ignore below (misc): jupyter_client types its async managers' shutdown_kernel, shutdown_all and start_kernel
# as the synchronous MultiKernelManager's (the async ones are assigned as class attributes); the policies' are
# async, as the running ones are.
class ClassroomKernelManager(OwnersMixin, KernelCapMixin, LabHoldsMixin, AddressRateMixin,  # type: ignore[misc]
                             StartSlotsMixin, CullGraceMixin, PageSocketsMixin, MemoryCapMixin, ReadyLabsMixin,
                             AsyncMappingKernelManager):
    """Kernels with owners and limits: one mixin per policy (see the module's docstring).

    The order matters where two policies answer the same hook: labs held are checked before the
    rate counts a page (:class:`LabHoldsMixin` before :class:`AddressRateMixin`).
    """

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self) -> str:
        return "safari_kit.classroom.quiet_stop.QuietStopKernelManager"

    def _check_rate(self, handler: Any) -> None:
        """The page's own caps: labs held by its browser and address (lab_holds), then its address's rate."""
        self._check_page(handler)

    def _check_limits(self, handler: Any) -> None:
        """Raise an HTTP error with the learner's sentence when a new kernel would pass a cap."""
        self._check_cap(handler)
        self._check_page(handler)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]  # (see above the class)
        handler = self._request_handler()
        # Voila's preheated pool refills while a page is served (that page's request is in the call context),
        # but the new kernel is for the next learner: it stays unowned until its first user claims it, and it
        # is not that page's computer's start (the claim counted it already)
        pool = preheated(kwargs)
        if not pool:  # every start slot taken: a learner's page gets the waiting page, not a white one
            self._page_waits_for_a_start_slot(handler)
        self._check_limits(None if pool else handler)
        kernel_id = await super().start_kernel(*args, **kwargs)  # the start slot (start_slots), then the start
        if not pool:  # a preheated kernel is handed out (owner, grace) when a page claims it (ready_labs)
            self._handed_out(kernel_id, handler)
        self._start_memory_watch()
        self._start_pool_keeper()
        return kernel_id


class ClassroomConnectionMixin:
    """Mix into a kernel websocket connection class: tell the kernel manager which pages are connected.

    :meth:`ClassroomKernelManager.check_memory` closes them, with a sentence, before it stops their kernel.
    """

    if TYPE_CHECKING:  # jupyter_server's kernel websocket connection, which this is mixed into
        kernel_id: str
        websocket_handler: Any

    async def prepare(self):
        """Before the websocket opens: refuse a new connection to a lab whose pages just sent too much."""
        km: Any = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "page_socket_may_open"):
            km.page_socket_may_open(self.kernel_id)
        prepare = getattr(super(), "prepare", None)
        if prepare is not None:
            await prepare()

    def connect(self):
        km: Any = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "websocket_opened"):
            km.websocket_opened(self.kernel_id, self.websocket_handler)
        if hasattr(km, "page_socket_opened"):  # the cap of connections per lab (page_sockets)
            km.page_socket_opened(self.kernel_id, self.websocket_handler)
        return super().connect()  # type: ignore[misc]

    def handle_incoming_message(self, incoming_msg):
        """Relay a page's message to its kernel, unless the lab's pages passed their budget of bytes (then drop it).

        The budget is the lab's, shared by all its connections (page_sockets); a message also tells the
        kernel manager the page is not silent (lab_holds).
        """
        km: Any = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "allow_incoming"):
            if not km.allow_incoming(self.kernel_id, self.websocket_handler, len(incoming_msg)):
                return None
        try:  # a frame still queued when the server closed the socket: jupyter_server would read it as legacy
            v1 = self.websocket_handler.selected_subprotocol == "v1.kernel.websocket.jupyter.org"
        except Exception:  # noqa: BLE001 - the socket is closed
            return None
        if not frame_is_sane(incoming_msg, v1):  # its table of parts would stop the server (page_sockets)
            return None
        if hasattr(km, "page_heard"):
            km.page_heard(self.kernel_id)
        return super().handle_incoming_message(incoming_msg)  # type: ignore[misc]

    def disconnect(self):
        km: Any = getattr(self, "multi_kernel_manager", None)
        if hasattr(km, "websocket_closed"):
            km.websocket_closed(self.kernel_id, self.websocket_handler)
        if hasattr(km, "page_socket_closed"):
            km.page_socket_closed(self.kernel_id, self.websocket_handler)
        return super().disconnect()  # type: ignore[misc]


class ClassroomWebsocketConnection(ClassroomConnectionMixin, NoDelayZMQChannelsWebsocketConnection):
    """The class server's kernel websocket connection: TCP_NODELAY, and known to the kernel manager."""
