"""New labs per computer per minute (``--labs-per-minute``): a page beyond it gets "wait a minute".

One learner opening pages in a loop slowed the whole class five times over (tools/load_class.py
--abusive): each start is a new Python importing the kit. Counted per network address in a sliding
minute, in memory only (never written to the log).
"""
from __future__ import annotations

import collections
import time
from typing import Any

from traitlets import Integer, Unicode

from safari_kit.classroom.policy import KernelPolicy
from safari_kit.classroom.page_words import refusal
from safari_kit.core.i18n import N_

__all__ = ["AddressRateMixin"]


class AddressRateMixin(KernelPolicy):
    """At most :attr:`new_kernels_per_minute` labs taken per address in any 60 seconds."""

    new_kernels_per_minute = Integer(4, config=True, help="New kernels per client (IP address) in any "
                                                           "60 seconds (0: no cap).")
    too_fast_message = Unicode(N_(
        "This computer opened {limit} labs in the last minute, the most the class server allows. "
        "Wait a minute, then reload this page."),
        config=True, help="The page shown when a client opens pages too fast ({limit}).")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._starts: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)

    def _rate_client(self, handler: Any) -> str:
        """Whose starts a page counts as: its network address (the hub's class service: its hub user)."""
        return handler.request.remote_ip or "?"

    def _check_page(self, handler: Any) -> None:
        """Raise 429 with the learner's sentence when this page's computer took labs too fast; else count it."""
        super()._check_page(handler)
        if handler is None or self.new_kernels_per_minute <= 0:
            return
        client = self._rate_client(handler)
        now = time.monotonic()
        starts = self._starts[client]
        while starts and now - starts[0] > 60:
            starts.popleft()
        if len(starts) >= self.new_kernels_per_minute:
            self.log.warning("A computer opened %d pages in a minute: page refused", len(starts))
            raise refusal(429, N_("Too many labs opened"), self.too_fast_message, handler,
                          limit=self.new_kernels_per_minute)
        starts.append(now)
