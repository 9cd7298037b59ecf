"""How many wrong teacher's keys the class server checks: per address, and for everyone, in any minute.

The teacher's key is 192 random bits: guessing it is hopeless, and nothing in
the page's timing tells how close a guess was. What a flood of guesses did do
was cost the server a request each and, before the class log was capped, a
warning line each (9,960 wrong keys in 15 s printed 21,855 lines and pushed the
teacher's address out of the terminal). :class:`WrongKeys` counts wrong keys in
a sliding :data:`WINDOW`:

* **per address**: past :attr:`WrongKeys.per_address`, that address's key tries
  are answered "wait a minute" without being checked, for the rest of the window;
* **for everyone**: past :attr:`WrongKeys.overall`, every key try is answered
  so, for the rest of the window (many addresses at once). A teacher already on
  the page keeps it: the page and its CSV need the teacher's cookie, not the key.

A key try refused so is answered after :data:`SLOW_ANSWER_SECONDS` (at most
:attr:`WrongKeys.max_waiting` such answers wait at once): a flooder that waits
for its answers slows down to a few tries a second.

Addresses are kept in memory for a minute, never written anywhere.
"""
from __future__ import annotations

import collections
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["WrongKeys", "WINDOW", "SLOW_ANSWER_SECONDS"]

WINDOW = 60.0
SLOW_ANSWER_SECONDS = 2.0


@dataclass
class WrongKeys:
    """Wrong keys per address and overall in the last :data:`WINDOW` seconds (module docstring)."""

    per_address: int = 10
    overall: int = 100
    clock: Callable[[], float] = time.monotonic
    max_waiting: int = 200
    waiting: int = 0  # refused key tries waiting for their slow answer
    _by_address: dict[str, collections.deque] = field(default_factory=dict)
    _all: collections.deque = field(default_factory=collections.deque)

    def _now(self) -> float:
        return self.clock()

    def _drop_old(self, times: collections.deque, now: float) -> None:
        while times and now - times[0] > WINDOW:
            times.popleft()

    def may_try(self, address: str | None) -> bool:
        """Whether a key from ``address`` is checked now (False: too many wrong keys in the last minute)."""
        now = self._now()
        self._drop_old(self._all, now)
        if self.overall > 0 and len(self._all) >= self.overall:
            return False
        mine = self._by_address.get(address or "?")
        if mine is None:
            return True
        self._drop_old(mine, now)
        if not mine:
            del self._by_address[address or "?"]
            return True
        return self.per_address <= 0 or len(mine) < self.per_address

    def wrong(self, address: str | None) -> None:
        """Count a wrong key from ``address``."""
        now = self._now()
        self._all.append(now)
        self._by_address.setdefault(address or "?", collections.deque()).append(now)
        if len(self._by_address) > 10_000:  # many addresses: forget the oldest quiet ones
            for key in [k for k, v in self._by_address.items() if not v or now - v[-1] > WINDOW]:
                del self._by_address[key]

    def wrong_in_window(self) -> int:
        self._drop_old(self._all, self._now())
        return len(self._all)
