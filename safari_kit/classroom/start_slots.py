"""Labs starting at once (``--starting-at-once``): a start takes a slot, a page beyond them waits.

Starting a kernel and rendering its page are the costliest things the server does (a new Python
importing the kit, nbconvert's templates on the event loop): 30 at once made every learner's click wait.
A kernel start takes a slot, held until its page request is finished (the app notebook ran and the page
was rendered), the page connects its websocket, or :attr:`~StartSlotsMixin.start_slot_seconds` pass; a
further learner's page gets the waiting page ("Your lab is starting", :mod:`~safari_kit.classroom.ready_labs`),
which asks again by itself (a kernel asked for over REST waits in line). (Holding it until the websocket
only let a learner whose pages never connect keep the slots 30 s each: the class's open time went to 40 s.)
A ready lab (Voilà's preheated pool) holds its slot until its page has rendered: 30 started at once on a
busy laptop lost their pages' output (issue 26).
"""
from __future__ import annotations

import asyncio
from typing import Any

from traitlets import Float, Integer

from safari_kit.classroom.policy import KernelPolicy, preheated

__all__ = ["StartSlotsMixin"]


class StartSlotsMixin(KernelPolicy):
    """At most :attr:`max_starting` kernels starting at once; see the module's docstring."""

    max_starting = Integer(2, config=True, help="Kernels starting at once, their pages rendering (0: no cap); "
                                                "further pages get a page saying the lab is starting.")
    start_slot_seconds = Float(30.0, config=True, help="A starting kernel gives its slot back when its page "
                                                       "connects, or after this many seconds.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._slot_held: dict[str, tuple[asyncio.Semaphore, asyncio.TimerHandle]] = {}
        self._waiting = 0  # page requests waiting for a start slot (they count against max_kernels)

    def _start_slots(self) -> asyncio.Semaphore | None:
        """The semaphore of :attr:`max_starting`, made in the running loop (None: no cap)."""
        if self.max_starting <= 0:
            return None
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.max_starting))
        return self._slots[1]

    def _no_start_slot(self) -> bool:
        return self._slots is not None and self._slots[1].locked()

    def _starts_waiting(self) -> int:
        return super()._starts_waiting() + self._waiting

    def _release_slot(self, kernel_id: str) -> None:
        super()._release_slot(kernel_id)
        held = self._slot_held.pop(kernel_id, None)
        if held is not None:
            slots, timer = held
            timer.cancel()
            slots.release()

    def _release_when_finished(self, handler: Any, kernel_id: str) -> None:
        """Give the slot back when the page request that started the kernel ends (tornado's on_finish)."""
        finish = getattr(handler, "on_finish", None)
        if finish is None:
            return

        def on_finish() -> Any:
            self._release_slot(kernel_id)
            return finish()

        handler.on_finish = on_finish

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Wait for a slot, start the kernel, and hold the slot until its page is done (module docstring)."""
        slots = self._start_slots()
        if slots is None:
            return await super().start_kernel(*args, **kwargs)  # type: ignore[misc]  # a mixin
        self._waiting += 1
        try:
            await slots.acquire()
        finally:
            self._waiting -= 1
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)  # type: ignore[misc]  # a mixin
        except BaseException:
            slots.release()
            raise
        if self.start_slot_seconds <= 0:
            slots.release()
            return kernel_id
        timer = asyncio.get_running_loop().call_later(self.start_slot_seconds, self._release_slot, kernel_id)
        self._slot_held[kernel_id] = (slots, timer)
        if not preheated(kwargs):  # a ready lab gives its slot back when its page has rendered (ready_labs)
            self._release_when_finished(self._request_handler(), kernel_id)
        return kernel_id

    def websocket_opened(self, kernel_id: str, handler: Any) -> None:
        super().websocket_opened(kernel_id, handler)
        self._release_slot(kernel_id)  # its page has rendered and loaded: the next page may start

    def _kernel_gone(self, kernel_id: str) -> None:
        super()._kernel_gone(kernel_id)
        self._release_slot(kernel_id)
