"""Labs built before they are asked for, so "Open lab" shows one at once (issue 31, item 2).

In the static site Python runs in the learner's browser, and on a slow laptop (a quarter of a core) building a
lab and sending its widgets to the page took seconds after every "Open lab". The chooser
(:class:`~safari_kit.widgets.app.LabChooser`) therefore keeps a few labs **ready**: built, their widgets already
known to the page, not shown. "Open lab" then only puts a ready lab on the stage.

When labs are made ready:

* once the page has drawn the chooser (:class:`ShownSignal` tells Python when the browser is idle after drawing,
  so the chooser itself is not slowed): the lab chosen in the list (a game's Rules tutorial) and the game's first
  lab that deals cards (Identification, Knockout);
* when the learner picks another game or lab: that lab, after a short pause (a learner going through the list
  with the arrow keys does not build every lab on the way);
* one lab at a time, one turn of the kernel's event loop each, so a click that arrives meanwhile waits for one
  lab at most.

What does not change: a ready lab is used only for the lab and the seed it was built for (``key``); in fair mode
with no class seed that seed is None and the lab drew its own fresh secret seed when it was built, so two tabs
never share a deal, and a lab is used once (opening the same lab again builds a new one, with a new deal). A lab
that cannot be built ahead (the Simulation lab: it runs trials as it opens, and needs numpy) is built on "Open
lab" as before. Labs left unopened when the shelf is full are closed (their widgets leave the page).

Where: the static site only by default (``LabChooser(ready=None)``: Python in the browser). On a class server
every learner's kernel would build labs nobody opened, and the server's kernels build a lab in tens of
milliseconds anyway; ``SAFARI_KIT_READY_LABS=on`` / ``off`` overrides the default (for tests and benchmarks).
"""
from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from collections.abc import Callable, Hashable
from typing import Any

import anywidget
import ipywidgets as W
import traitlets

log = logging.getLogger("safari_kit.widgets")

READY_ENV = "SAFARI_KIT_READY_LABS"
#: labs never built ahead: they run work as they open (the Simulation lab's first run), or cost nothing to build
NEVER_AHEAD = frozenset({"SimulationLab"})
#: how many labs are kept ready at most (each is some 70 widgets in the kernel and in the page)
SHELF = 3
#: seconds between a learner's pick and the build of that lab (arrow keys through the list build nothing)
PICK_PAUSE = 0.4


def ready_by_default(setting: bool | None = None) -> bool:
    """Whether labs are built ahead: ``setting`` if given, else ``$SAFARI_KIT_READY_LABS`` (on/off), else only
    where Python runs in the learner's browser (the static site)."""
    if setting is not None:
        return bool(setting)
    raw = os.environ.get(READY_ENV, "").strip().lower()
    if raw in ("on", "1", "yes", "true"):
        return True
    if raw in ("off", "0", "no", "false"):
        return False
    return sys.platform == "emscripten"


def call_later(delay: float, fn: Callable[[], Any]):
    """``fn`` after ``delay`` seconds on the kernel's event loop (ipykernel's, or Pyodide's web loop); None
    where no loop runs (plain Python: nothing is built ahead there unless asked)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        if sys.platform != "emscripten":
            return None
        loop = asyncio.get_event_loop()
    return loop.call_later(delay, fn)


_SHOWN_ESM = """
export default {
  render({ model, el }) {
    el.style.display = "none";
    // once the browser is idle after drawing the chooser: Python may build labs then without slowing it
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 50));
    idle(() => model.send({ shown: true }), { timeout: 3000 });
  },
};
"""


class ShownSignal(anywidget.AnyWidget):
    """Draws nothing; tells Python once the page has drawn the chooser and the browser is idle."""

    _esm = _SHOWN_ESM
    shown = traitlets.Bool(False)

    def __init__(self, on_shown: Callable[[], Any]):
        super().__init__(layout=W.Layout(display="none"))
        self._on_shown = on_shown
        self.on_msg(self._message)

    def _message(self, _widget, content, _buffers) -> None:
        if self.shown or not isinstance(content, dict) or content.get("shown") is not True:
            return  # trust nothing the page sends: once, and only this message
        self.shown = True
        self._on_shown()


def widget_tree(root: W.Widget) -> list[W.Widget]:
    """``root`` and every widget under it (box children, layouts, styles): what closing a lab closes."""
    seen: dict[int, W.Widget] = {}
    todo = [root]
    while todo:
        w = todo.pop()
        if not isinstance(w, W.Widget) or id(w) in seen:
            continue
        seen[id(w)] = w
        todo += list(getattr(w, "children", ()) or ())
        todo += [getattr(w, name, None) for name in ("layout", "style")]
    return list(seen.values())


class ReadyLabs:
    """The shelf of labs built ahead, by key (what the lab is and the seed it was built with)."""

    def __init__(self, build: Callable[[Hashable], Any],
                 schedule: Callable[[float, Callable[[], Any]], Any] = call_later, size: int = SHELF):
        self._build = build
        self._schedule = schedule
        self.size = size
        self.labs: dict[Hashable, Any] = {}   # oldest first
        self._queue: list[Hashable] = []
        self._pending = None                  # the scheduled handle of the next build
        self.errors: list[str] = []
        self.built = 0                        # labs built ahead (tests, benchmarks)
        self.used = 0                         # of them, opened

    def take(self, key: Hashable):
        """The ready lab for ``key`` (taken off the shelf: used once), or None."""
        lab = self.labs.pop(key, None)
        if lab is not None:
            self.used += 1
        return lab

    def want(self, keys: list[Hashable], delay: float = 0.0) -> None:
        """Build the labs of ``keys`` (in order) that are not ready yet, one an event-loop turn, after ``delay``;
        replaces what was waiting to be built."""
        self._queue = [k for k in dict.fromkeys(keys) if k not in self.labs]
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._queue:
            self._pending = self._schedule(delay, self._next)

    def _next(self) -> None:
        self._pending = None
        if not self._queue:
            return
        key = self._queue.pop(0)
        if key not in self.labs:
            self.build_now(key)
        if self._queue:
            self._pending = self._schedule(0, self._next)

    def build_now(self, key: Hashable) -> None:
        """Build the lab of ``key`` now and keep it (the oldest ready lab is closed if the shelf is full)."""
        try:
            lab = self._build(key)
        except Exception as exc:  # noqa: BLE001 - a lab built ahead must never break the chooser: "Open lab" builds it
            self.errors.append(f"{type(exc).__name__}: {exc}")
            log.info("lab %s not built ahead:\n%s", key, traceback.format_exc())
            return
        if lab is None:
            return
        self.built += 1
        self.labs[key] = lab
        while len(self.labs) > self.size:
            old = next(iter(self.labs))
            close_lab(self.labs.pop(old))

    def clear(self) -> None:
        for key in list(self.labs):
            close_lab(self.labs.pop(key))
        self.want([])


def close_lab(lab) -> None:
    """Close a lab that was never shown: its widgets leave the kernel and the page."""
    for w in widget_tree(lab.layout):
        w.close()
