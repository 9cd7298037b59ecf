"""What one lab's pages may send, and how many connections a lab may have open: per lab, not per connection.

A page talks to its lab over one kernel websocket. The class server caps what a
page sends (:attr:`PageSocketsMixin.page_bytes_per_window` in any
:data:`BUDGET_WINDOW` seconds): the server relays every frame to the kernel, and
one page sending frames at the 1 MiB size cap slowed every other learner's
clicks. That budget used to be kept per websocket, so one page that opened six
websockets on its own lab sent 19.8 MB per 10 s, six budgets' worth, and the
class's clicks went from 11 ms to a median of 148 ms (p95 517 ms). Two rules
close it (part of :class:`~safari_kit.classroom.kernels.ClassroomKernelManager`):

* **one budget per lab**: every websocket of a kernel spends the same budget;
  past it, every connection of that lab is closed with :data:`CLOSE_FLOOD` and
  a sentence, and for the rest of the window a new connection to it is refused
  before the websocket opens (the server does not even connect it to the kernel);
* **a few connections per lab** (:attr:`PageSocketsMixin.max_sockets_per_lab`):
  the app's page opens one; a page reconnecting after a network hiccup may
  briefly hold a second while the server has not yet noticed the first is dead.
  A new connection beyond the cap closes the *oldest* ones with
  :data:`CLOSE_TOO_MANY_WINDOWS` and a sentence (the newest is the one a learner
  is looking at).

The close codes are in 4000-4099: the kit's Voilà template shows their sentence
above the lab.
"""
from __future__ import annotations

import collections
import time

from tornado import web
from traitlets import Integer, Unicode

from safari_kit.classroom.policy import KernelPolicy
from safari_kit.core.i18n import N_, _

__all__ = ["PageSocketsMixin", "CLOSE_FLOOD", "CLOSE_TOO_MANY_WINDOWS", "BUDGET_WINDOW", "close_reason",
           "frame_is_sane"]

#: websocket close code sent to a page whose lab's pages sent more than the lab's budget of bytes
CLOSE_FLOOD = 4002
#: websocket close code sent to a lab's oldest connection when a new one passes the cap of connections per lab
CLOSE_TOO_MANY_WINDOWS = 4003
BUDGET_WINDOW = 10.0


def frame_is_sane(frame: str | bytes, v1: bool) -> bool:
    """Whether a binary frame's table of parts fits in the frame (a text frame is JSON: True).

    jupyter_server reads the table before anything else, and trusts it: a
    legacy binary frame starts with its number of parts (4 bytes, big-endian)
    and builds a struct format of that many items (``"I" * n``), a v1 frame
    (8 bytes, little-endian) a list of that many offsets. A frame of 4 bytes
    saying 2**31 parts stopped the server's event loop (a v1 frame read as a
    legacy one after its socket closed said 100,663,296 and held it 7.7 s).

    >>> frame_is_sane(bytes([6, 0, 0, 0, 0, 0, 0, 0]) + bytes(48) + b"shell", v1=True)
    True
    >>> frame_is_sane(bytes([127, 255, 255, 255]), v1=False), frame_is_sane(bytes([255] * 8), v1=True)
    (False, False)
    """
    if isinstance(frame, str):
        return True
    width = 8 if v1 else 4
    if len(frame) < width:
        return False
    parts = int.from_bytes(frame[:width], "little") if v1 else int.from_bytes(frame[:4], "big", signed=True)
    return (2 if v1 else 1) <= parts and width * (parts + 1) <= len(frame)


def close_reason(text: str) -> str:
    """``text`` cut to the 123 bytes a websocket close reason holds (120 here, whole characters only).

    >>> close_reason("é" * 100) == "é" * 60
    True
    """
    return text.encode()[:120].decode("utf-8", "ignore")


class PageSocketsMixin(KernelPolicy):
    """One byte budget and a cap of connections per lab (see the module's docstring).

    The kernel websocket connection (:class:`~safari_kit.classroom.kernels.ClassroomConnectionMixin`)
    calls :meth:`page_socket_may_open` before the websocket opens, :meth:`page_socket_opened`
    and :meth:`page_socket_closed` around it, and :meth:`allow_incoming` for every frame.
    """

    page_bytes_per_window = Integer(
        4 * 1024 * 1024, config=True,
        help=f"Bytes one lab's pages may send in any {BUDGET_WINDOW:g} seconds, all their connections together "
             f"(0: no cap); past it the lab's connections are closed with a sentence.")
    max_sockets_per_lab = Integer(
        3, config=True, help="Kernel websockets open at once on one lab (0: no cap); a new one beyond it closes "
                             "the oldest, with a sentence.")
    flood_message = Unicode(N_(
        "This page sent more than {limit_mb:.1f} MB in {window:g} seconds, more than the class server allows, "
        "so the server closed its connection."),
        config=True, help="What the page says when it passes page_bytes_per_window ({limit_mb}, {window}); "
                          "at most 120 bytes.")
    too_many_windows_message = Unicode(N_(
        "This lab was opened in too many windows at once, so the server closed this one."),
        config=True, help="What an older window of a lab says when a newer one passes max_sockets_per_lab; "
                          "at most 120 bytes.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._page_budgets: dict[str, collections.deque] = {}  # kernel id -> (when, bytes) of recent frames
        self._page_sockets: dict[str, dict] = {}  # kernel id -> its connections' handlers, oldest first
        self._flooding_until: dict[str, float] = {}  # kernel id -> monotonic time its pages may connect again

    # ------------------------------------------------------------------ connections
    def page_socket_may_open(self, kernel_id: str) -> None:
        """Raise 429 for a new connection to a lab whose pages passed the budget in this window."""
        until = self._flooding_until.get(kernel_id)
        if until is None:
            return
        if time.monotonic() < until:
            raise web.HTTPError(429, reason="Page sent too much")
        del self._flooding_until[kernel_id]

    def page_socket_opened(self, kernel_id: str, handler) -> None:
        sockets = self._page_sockets.setdefault(kernel_id, {})
        sockets[handler] = None
        if self.max_sockets_per_lab <= 0:
            return
        extra = len(sockets) - self.max_sockets_per_lab
        if extra > 0:
            self.log.warning(
                "Lab %s has %d connections open, over the cap of %d: the oldest are closed",
                kernel_id, len(sockets), self.max_sockets_per_lab)
            for old in list(sockets)[:extra]:
                sockets.pop(old, None)
                self._close_page_socket(kernel_id, old, CLOSE_TOO_MANY_WINDOWS,
                                        _(self.too_many_windows_message))

    def page_socket_closed(self, kernel_id: str, handler) -> None:
        sockets = self._page_sockets.get(kernel_id)
        if sockets is not None:
            sockets.pop(handler, None)
            if not sockets:
                del self._page_sockets[kernel_id]

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self.page_sockets_forget(kernel_id)

    def page_sockets_forget(self, kernel_id: str) -> None:
        """The lab is gone: drop what was kept about its pages."""
        self._page_budgets.pop(kernel_id, None)
        self._page_sockets.pop(kernel_id, None)
        self._flooding_until.pop(kernel_id, None)

    def _close_page_socket(self, kernel_id: str, handler, code: int, text: str) -> None:
        try:
            handler.close(code, close_reason(text))
        except Exception:  # noqa: BLE001 - an already closed socket
            self.log.debug("could not close a websocket of %s", kernel_id, exc_info=True)

    # ------------------------------------------------------------------ the budget
    def allow_incoming(self, kernel_id: str, handler, size: int) -> bool:
        """Whether a page of ``kernel_id`` may send ``size`` more bytes; else close all the lab's connections.

        The budget is the lab's: all its connections spend it together. A page's
        own messages are a few hundred bytes; a record is at most a frame.
        """
        if self.page_bytes_per_window <= 0:
            return True
        now = time.monotonic()
        budget = self._page_budgets.setdefault(kernel_id, collections.deque())
        while budget and now - budget[0][0] > BUDGET_WINDOW:
            budget.popleft()
        if kernel_id in self._flooding_until and now < self._flooding_until[kernel_id]:
            self._close_page_socket(kernel_id, handler, CLOSE_FLOOD, self._flood_text())
            return False
        budget.append((now, size))
        if sum(n for _, n in budget) <= self.page_bytes_per_window:
            return True
        self.log.warning(
            "The pages of lab %s sent more than %d bytes in %g s: its connections are closed",
            kernel_id, self.page_bytes_per_window, BUDGET_WINDOW)
        self._flooding_until[kernel_id] = now + BUDGET_WINDOW
        for page in [handler, *(h for h in self._page_sockets.get(kernel_id, {}) if h is not handler)]:
            self._close_page_socket(kernel_id, page, CLOSE_FLOOD, self._flood_text())
        return False

    def _flood_text(self) -> str:
        return _(self.flood_message).format(limit_mb=self.page_bytes_per_window / 1e6, window=BUDGET_WINDOW)
