"""Limits the server keeps whatever the page sends (issue 19: one learner must not degrade the class).

A widget's synced traits are the page's to set: a console line can send
``{"max": 1000000}`` and then ``{"value": 1000000}`` to a slider, a click to a
hidden or disabled button, or a megabyte into a text box. So a lab never
trusts a synced ``min``/``max``/``options`` or a ``disabled`` flag:

* :func:`bounded_int` clamps every number that sizes work (trials, intervals,
  games, players) to the server's own range where the work is done;
* :func:`pin_range` puts a slider's ``min``/``max`` back when the page changes
  them (so the slider the learner sees agrees with what the server does);
* :func:`limit_text` cuts a text box to its length limit as soon as a longer
  value arrives;
* :func:`low_priority` runs long work at a lower CPU priority, so that on a
  shared server the class's clicks go first (one learner pressing the
  Simulation lab's largest jobs again and again slowed everyone's clicks);
* :class:`Pacer` keeps a page's presses of a button at a human pace: a press
  that comes sooner than :data:`PRESS_GAP` after the last piece of work ended
  (or sooner than that work took) waits the rest of the gap, with the lab's
  buttons off, then runs (issue 26: 3 pages pressing Simulate as fast as the
  lab answered slowed everyone's clicks);
* :func:`wall_time_cap` is how long one piece of work may run in the app
  (``$SAFARI_KIT_WALL_TIME`` seconds, default 30; ``0`` for no cap); long work
  runs in steps that check it, and a Stop button, between steps
  (:class:`WorkStopped`).

>>> bounded_int(1_000_000, 20, 200, 100), bounded_int("x", 20, 200, 100), bounded_int(-5, 20, 200, 100)
(200, 100, 20)
"""
from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable

log = logging.getLogger("safari_kit.widgets")

WALL_TIME_ENV = "SAFARI_KIT_WALL_TIME"
DEFAULT_WALL_TIME = 30.0  # seconds of work one press may start in the app
TEXT_LIMIT = 200  # characters in a one-line text box (a record name, a guess)


class WorkStopped(Exception):
    """Raised between two steps of long work: Stop was pressed, or the wall-time cap was reached."""

    def __init__(self, reason: str, done: int = 0, total: int = 0):
        super().__init__(reason)
        self.reason, self.done, self.total = reason, done, total


LOW_PRIORITY = 10  # the niceness of long work (0 normal, 19 lowest)


@contextlib.contextmanager
def low_priority(niceness: int = LOW_PRIORITY):
    """Run the block with this thread at ``niceness`` (Linux sets it per thread), then put it back if allowed.

    A user other than root may lower its priority but not raise it again: there
    a thread that ran long work stays at the lower priority, which only matters
    when the machine is busy, and then it is the fair order (work yields to
    clicks). Elsewhere (no per-thread priority) nothing changes.
    """
    try:
        tid = threading.get_native_id()
        before = os.getpriority(os.PRIO_PROCESS, tid)
        if before < niceness:
            os.setpriority(os.PRIO_PROCESS, tid, niceness)
    except (AttributeError, OSError):
        yield
        return
    try:
        yield
    finally:
        if before < niceness:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, tid, before)


PRESS_GAP = 0.4  # seconds between two runs a page starts: about 2 a second, more than a learner reads
PRESS_GAP_MAX = 1.5  # the longest a press waits, however long the last run took


class Pacer:
    """At most one piece of page-started work at a time, with a gap after each: a press that comes too soon waits.

    Every message a run sends (a new chart, a summary) passes through the class
    server's one event loop on its way to the page, and every run takes CPU from
    the one machine; a page pressing as fast as the lab answers (a script, a
    held key) must not buy more of either than a learner who reads each run.
    The work a press starts begins at the earliest ``gap`` seconds after the
    last work ended, and never sooner than that work took (so a long run
    leaves as long a pause: at most half a core for one page), capped at
    ``gap_max``. A sooner press *waits* the rest (it is not dropped: a quick
    double-click gives two runs, the second a moment later); while it waits
    the kernel reads nothing else from that page, so a page that waits for
    each answer is slowed to this pace, and one that does not only queues
    work in its own lab. A learner pressing at a reading pace never waits.

    ``clock`` and ``sleep`` are for tests (count the waits, no real time).
    """

    def __init__(self, gap: float = PRESS_GAP, gap_max: float = PRESS_GAP_MAX,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):
        if not 0 <= gap <= gap_max:
            raise ValueError(f"Pacer: gap must be between 0 and gap_max ({gap_max!r}), got {gap!r}")
        self.gap, self.gap_max, self.clock, self.sleep = float(gap), float(gap_max), clock, sleep
        self.next_start = float("-inf")
        self.waits = 0  # presses that had to wait (for tests and the log)

    @contextlib.contextmanager
    def paced(self):
        """Wait until the next piece of work may start, run the block, then set when the one after may start."""
        wait = self.next_start - self.clock()
        if wait > 0:
            self.waits += 1
            self.sleep(min(wait, self.gap_max))
        start = self.clock()
        try:
            yield
        finally:
            end = self.clock()
            self.next_start = end + min(max(self.gap, end - start), self.gap_max)


def bounded_int(value, lo: int, hi: int, default: int) -> int:
    """``value`` as a whole number between ``lo`` and ``hi`` (``default`` when it is not a number at all)."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return int(default)
    return max(int(lo), min(int(hi), number))


def pin_range(slider, lo: int, hi: int) -> None:
    """Keep a slider's ``min`` and ``max`` at the server's ``lo`` and ``hi`` (a change from the page is undone)."""

    def put_back(change) -> None:
        want = lo if change["name"] == "min" else hi
        if change["new"] != want:
            log.warning("a page set %s=%r on %s; put back to %r", change["name"], change["new"],
                        getattr(slider, "description", "a slider"), want)
            with slider.hold_trait_notifications():
                slider.max, slider.min = hi, lo
            slider.value = bounded_int(slider.value, lo, hi, lo)

    slider.observe(put_back, names=["min", "max"])


def limit_text(box, limit: int = TEXT_LIMIT) -> None:
    """Cut a text box's value to ``limit`` characters whenever a longer one arrives (from the page or Python)."""

    def cut(change) -> None:
        new = change["new"]
        if isinstance(new, str) and len(new) > limit:
            box.value = new[:limit]

    box.observe(cut, names="value")


def wall_time_cap(fair: bool) -> float | None:
    """Seconds one piece of work may run: ``$SAFARI_KIT_WALL_TIME`` (default 30) in the app; None in a notebook
    (the learner's own kernel) unless the variable is set. ``0`` means no cap."""
    raw = os.environ.get(WALL_TIME_ENV, "").strip()
    if not raw:
        return DEFAULT_WALL_TIME if fair else None
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError(f"{WALL_TIME_ENV}={raw[:20]!r}: give seconds, e.g. 30 (0 for no cap)") from None
    return seconds if seconds > 0 else None


def in_kernel() -> bool:
    """True inside a Jupyter kernel (Voilà, JupyterLab): a button's long work can then run beside the kernel's
    message loop, so a Stop press is heard; elsewhere (tests, scripts) work runs to its end at once."""
    import sys

    if sys.platform == "emscripten":  # Pyodide: no threads; work runs to its end (the wall-time cap still holds)
        return False
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None
