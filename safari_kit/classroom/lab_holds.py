"""Labs one learner may hold at once, and a full server's way to give a quiet page's lab to a newcomer.

A lab is a kernel (about 60 MB, a Python process); the class server runs at
most ``max_kernels``. Nothing else limited who held them: one learner with six
addresses (phone, laptop, hotspot) took all 12 labs of a small server in 13 s
and kept them with silent open pages, and 150 s later a classmate still got
"Class server full" (the idle culler never stops a lab whose page is open, so
that a learner reading a rule does not lose the lab). :class:`LabHoldsMixin`
(part of :class:`~safari_kit.classroom.kernels.ClassroomKernelManager`) adds:

* **a cap of labs held at once per browser** (:attr:`~LabHoldsMixin.labs_per_browser`,
  the owner cookie's user id) **and per address**
  (:attr:`~LabHoldsMixin.labs_per_address`; a school's hotspot may put a few
  learners behind one address, so it is larger). A page beyond a cap first
  takes back that browser's (or address's) lab whose page has gone (a tab closed
  without its unload request, a reload whose old page never said goodbye); if
  every such lab still has its page open, the new page is refused with a
  sentence ("close a tab you no longer use").
* **a reclaim when the server is full**: a newcomer's page takes the lab whose
  page has been silent longest (no message from it, no click), when that is
  more than :attr:`~LabHoldsMixin.reclaim_silent_seconds`; a lab of a browser
  or address holding more than its share goes first. Only a newcomer who holds
  no lab, from an address holding no quiet lab, takes one: otherwise a holder
  asking every few seconds took back its own quiet labs one by one and a
  classmate never got in. A reload whose old page left without a word takes
  back its own old lab first. The reclaimed page's
  connection is closed with :data:`CLOSE_RECLAIMED` and a sentence that says
  why (the kit's Voilà template shows it), then the lab is shut down. While the
  server has room, nothing is reclaimed: a learner reading quietly keeps the lab.

Addresses are kept in memory only, for the caps: never written to the log.
"""
from __future__ import annotations

import asyncio
import math
import time

from typing import Any

from traitlets import Float, Integer, Unicode

from safari_kit.classroom.owners import user_id_of
from safari_kit.classroom.page_sockets import PageSocketsMixin, close_reason
from safari_kit.classroom.page_words import refusal
from safari_kit.core.i18n import N_, _

__all__ = ["LabHoldsMixin", "CLOSE_RECLAIMED"]

#: websocket close code sent to a quiet page whose lab went to a newcomer while the server was full
CLOSE_RECLAIMED = 4004


def _address(handler) -> str | None:
    return getattr(getattr(handler, "request", None), "remote_ip", None) or None


class LabHoldsMixin(PageSocketsMixin):
    """Caps of labs held per browser and per address; reclaim of a quiet lab when full (module docstring).

    It builds on the pages' connections (:class:`~safari_kit.classroom.page_sockets.PageSocketsMixin`: a lab
    whose page has gone has none). The kernel manager calls :meth:`_check_page` before a page takes a lab,
    :meth:`_make_room_for` when it is full, and :meth:`page_heard` for every message of a page.
    """

    labs_per_browser = Integer(3, config=True, help="Labs one browser may hold at once (0: no cap).")
    labs_per_address = Integer(6, config=True, help="Labs one network address may hold at once (0: no cap); "
                                                    "a hotspot may put a few learners behind one address.")
    reclaim_silent_seconds = Float(
        150.0, config=True, help="When the server is full, a newcomer's page takes the lab whose page has sent "
                                 "nothing for the longest time beyond this many seconds (0: never).")
    browser_cap_message = Unicode(N_(
        "This browser already has {limit} labs open, the most the class server allows for one learner. "
        "Close a tab you no longer use, then reload this page."),
        config=True, help="The page shown beyond labs_per_browser ({limit}).")
    address_cap_message = Unicode(N_(
        "This computer already has {limit} labs open, the most the class server allows for one computer. "
        "Close a tab you no longer use, then reload this page. If several of you share one connection "
        "(a phone hotspot), tell your teacher."),
        config=True, help="The page shown beyond labs_per_address ({limit}).")
    reclaimed_message = Unicode(N_(
        "The class server was full and this page had been quiet for minutes, so its lab went to a classmate."),
        config=True, help="What a page says when its lab is given to a newcomer; at most 120 bytes.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._holder_address: dict[str, str] = {}  # kernel id -> the address of the page that took it
        self._holder_browser: dict[str, str] = {}  # kernel id -> the browser (user id) of the page that took it
        self._heard: dict[str, float] = {}  # kernel id -> last message from its pages (monotonic)
        self._reclaiming: set[str] = set()  # labs being shut down for a newcomer (they no longer count)
        self._reclaim_tasks: set[asyncio.Future] = set()

    # ------------------------------------------------------------------ what is held
    def _handed_out(self, kernel_id: str, handler: Any) -> None:
        super()._handed_out(kernel_id, handler)
        address, browser = _address(handler), user_id_of(handler)
        if address:
            self._holder_address[kernel_id] = address
        if browser:
            self._holder_browser[kernel_id] = browser
        self._heard[kernel_id] = time.monotonic()  # held from now on (held_labs)

    def page_heard(self, kernel_id: str) -> None:
        """A page of ``kernel_id`` sent a message: it is not silent."""
        self._heard[kernel_id] = time.monotonic()

    def held_labs(self) -> list[str]:
        """Kernels a page has taken, alive and not being reclaimed."""
        live = set(self.list_kernel_ids())
        return [k for k in self._heard if k in live and k not in self._reclaiming]

    def _leaving_count(self) -> int:
        return super()._leaving_count() + self.reclaiming_count()

    def reclaiming_count(self) -> int:
        """Labs being shut down for a newcomer: the cap on live labs no longer counts them."""
        live = set(self.list_kernel_ids())
        return len(self._reclaiming & live)

    def silent_seconds(self, kernel_id: str, now: float | None = None) -> float:
        """Seconds since a page of ``kernel_id`` last sent anything (or since a page took it)."""
        now = time.monotonic() if now is None else now
        since = self._heard.get(kernel_id, 0.0)
        return now - since if since else math.inf

    def _page_gone(self, kernel_id: str, now: float) -> bool:
        """No page is connected to it: its page closed (or never came, past the grace for loading)."""
        if self._page_sockets.get(kernel_id):
            return False
        if kernel_id in self._connected_once:
            return True
        return self.silent_seconds(kernel_id, now) > self._page_load_grace()

    # ------------------------------------------------------------------ caps per browser and address
    def _check_page(self, handler: Any) -> None:
        """Before a page takes a lab: take back a gone page's lab at a cap, else refuse with a sentence; then the
        other policies' checks (the rate counts only a page these caps let through)."""
        if handler is not None:
            self._check_holds(handler)
        super()._check_page(handler)

    def _check_holds(self, handler: Any) -> None:
        now = time.monotonic()
        held = self.held_labs()
        for cap, key, holder, message in (
                (self.labs_per_browser, user_id_of(handler), self._holder_browser, self.browser_cap_message),
                (self.labs_per_address, _address(handler), self._holder_address, self.address_cap_message)):
            if cap <= 0 or key is None:
                continue
            mine = [k for k in held if holder.get(k) == key]
            if len(mine) < cap:
                continue
            gone = sorted((k for k in mine if self._page_gone(k, now)), key=lambda k: -self.silent_seconds(k, now))
            if len(mine) - len(gone) < cap:
                for kid in gone[:len(mine) - cap + 1]:
                    self._reclaim(kid, "its page has gone and the same learner opened a new one")
                    held.remove(kid)
                continue
            which = "browser" if holder is self._holder_browser else "computer"
            self.log.warning("A %s holding %d labs asked for another: page refused", which, len(mine))
            raise refusal(429, N_("Too many labs held"), message, handler, limit=cap)

    # ------------------------------------------------------------------ a full server
    def _make_room_for(self, handler: Any) -> bool:
        return self._reclaim_for_newcomer(handler) or super()._make_room_for(handler)

    def _reclaim_for_newcomer(self, handler: Any) -> bool:
        """The server is full: give a newcomer the quietest lab past :attr:`reclaim_silent_seconds`, if any."""
        if handler is None or self.reclaim_silent_seconds <= 0:
            return False
        now = time.monotonic()
        held = self.held_labs()
        user, address = user_id_of(handler), _address(handler)
        own_gone = [k for k in held if user and self._holder_browser.get(k) == user and self._page_gone(k, now)]
        if own_gone:  # a reload whose old page left without a word: its own old lab makes the room
            self._reclaim(max(own_gone, key=lambda k: self.silent_seconds(k, now)), "its page has gone and the "
                          "same learner opened a new one")
            return True
        quiet = [k for k in held if self.silent_seconds(k, now) >= self.reclaim_silent_seconds]
        if not quiet:
            return False
        # a learner who holds a lab, or whose computer holds a quiet one, does not take a lab from another: a
        # holder asking every 2 s took back its own quiet labs one by one and a classmate never got in
        if user and any(self._holder_browser.get(k) == user for k in held):
            return False
        if address and any(self._holder_address.get(k) == address for k in quiet):
            return False
        by_address: dict[str | None, int] = {}
        by_browser: dict[str | None, int] = {}
        for k in held:
            a, b = self._holder_address.get(k), self._holder_browser.get(k)
            by_address[a] = by_address.get(a, 0) + 1
            by_browser[b] = by_browser.get(b, 0) + 1
        share = len(held) / max(1, len(by_address))  # an address's fair share of the labs held

        def order(k: str):
            more_than_share = (by_address[self._holder_address.get(k)] > share
                               or by_browser[self._holder_browser.get(k)] > 1)
            return (self._page_gone(k, now), more_than_share, self.silent_seconds(k, now), k)

        victim = max(quiet, key=order)
        silent = self.silent_seconds(victim, now)
        self._reclaim(victim, f"the server is full and its page was silent for {silent:.0f} s")
        return True

    def _reclaim(self, kernel_id: str, why: str) -> None:
        """Close the lab's pages with :data:`CLOSE_RECLAIMED` and its sentence, then shut it down."""
        self.log.warning("Lab %s goes to a newcomer: %s", kernel_id, why)
        self._reclaiming.add(kernel_id)
        for page in list(self._page_sockets.get(kernel_id, ())):
            try:
                page.close(CLOSE_RECLAIMED, close_reason(_(self.reclaimed_message)))
            except Exception:  # noqa: BLE001 - an already closed socket
                self.log.debug("could not close a websocket of %s", kernel_id, exc_info=True)
        task = asyncio.ensure_future(self.shutdown_kernel(kernel_id, now=True))
        self._reclaim_tasks.add(task)

        def done(task: asyncio.Future) -> None:
            self._reclaim_tasks.discard(task)
            self._reclaiming.discard(kernel_id)  # shut down, or (a failed shutdown) counted again
            if not task.cancelled() and task.exception() is not None:
                self.log.warning("Lab %s could not be shut down: %s", kernel_id, task.exception())

        task.add_done_callback(done)

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self._holder_address.pop(kernel_id, None)
        self._holder_browser.pop(kernel_id, None)
        self._heard.pop(kernel_id, None)
        self._reclaiming.discard(kernel_id)
