"""Labs kept ready for a class: Voilà's preheated kernels, sized from the class and claimed by a browser.

Opening the app costs a new Python importing the kit and running the app
notebook, then nbconvert rendering the page on the server's one event loop:
about 1.5 CPU-seconds. Thirty learners arriving within ten seconds on a 2-core
laptop waited 6 s at the median and 13 s at the 95th percentile
(tools/load_class.py). Voilà can do that work before anyone comes
(``VoilaConfiguration.preheat_kernel``): a pool of kernels that have already
run the notebook and rendered the page, handed out at once. Voilà's pool on its
own does not fit a class:

* it refills to its full size after every claim, so a pool sized for 30 holds 60
  kernels once the class is in (4 GiB here) and starts 30 more while the class
  plays (every learner's click slowed);
* a page served from the pool skips the kernel manager's ``start_kernel``, so
  its browser was not recorded as the kernel's owner and the cap of new labs
  per computer did not apply.

:class:`ReadyLabsMixin` (part of
:class:`~safari_kit.server.kernels.ClassroomKernelManager`) sizes the pool
from the class instead: the server keeps :attr:`~ReadyLabsMixin.ready_labs`
labs started, in use or ready, and always at least
:attr:`~ReadyLabsMixin.spare_labs` ready for a latecomer or a reload, never
more kernels than the cap on live labs allows. A learner's page that takes a
ready lab is checked against the per-computer rate, and the lab belongs to
that browser from then on. Voilà's class is made from the kit's by
``voila_kernel_manager_factory`` (a subclass); :meth:`~ReadyLabsMixin.__init_subclass__`
wraps that subclass's claim, so no installed file is changed.
"""
from __future__ import annotations

import functools
import time

from tornado.ioloop import PeriodicCallback
from traitlets import Float, HasTraits, Integer

from safari_kit.server import owner_tags

__all__ = ["ReadyLabsMixin", "pool_target"]


def pool_target(ready: int, spare: int, in_use: int, cap: int) -> int:
    """How many ready labs the pool should hold: enough to make ``ready`` in all, at least ``spare``, under ``cap``.

    ``cap`` is the cap on live labs (0: none); ``ready`` 0 turns the pool off.

    >>> pool_target(30, 2, 0, 80)    # before the class comes: the whole class's labs
    30
    >>> pool_target(30, 2, 29, 80)   # the class is in: a couple for latecomers and reloads
    2
    >>> pool_target(30, 2, 79, 80)   # never past the cap on live labs
    1
    >>> pool_target(0, 2, 5, 80)     # no pool
    0
    """
    if ready <= 0:
        return 0
    target = max(spare, ready - in_use)
    if cap > 0:
        target = min(target, cap - in_use)
    return max(target, 0)


def _claiming(get_rendered_notebook):
    """Wrap Voilà's claim of a preheated kernel: rate per computer before, pool size and owner around it."""

    @functools.wraps(get_rendered_notebook)
    async def claim(self, notebook_name, *args, **kwargs):
        handler = self._request_handler()
        self._check_rate(handler)
        # Voilà refills the pool right after it pops a kernel, from kernel_pools_config: size it for after this claim
        self._size_pool(in_use=len(self._in_use) + 1)
        render_task, rendered_cache, kernel_id = await get_rendered_notebook(self, notebook_name, *args, **kwargs)
        self._handed_out(kernel_id, handler)
        return render_task, rendered_cache, kernel_id

    claim._safari_claim = True  # type: ignore[attr-defined]
    return claim


class ReadyLabsMixin(HasTraits):
    """The pool of ready labs (see the module's docstring); mixed into the class server's kernel manager.

    The kernel manager sets ``_in_use`` (the kernels a page has: claimed from
    the pool or started for it; the others are the pool's) and
    ``_pool_keeper`` in its ``__init__``, and provides ``_check_rate``,
    ``_owners``, ``_grace_from`` and ``max_kernels``.
    """

    _in_use: set[str]
    _pool_keeper: PeriodicCallback | None

    ready_labs = Integer(0, config=True, help="Labs the server keeps started, in use or ready, so that a learner's "
                                              "page opens at once (0: no pool). Size it to the class.")
    spare_labs = Integer(2, config=True, help="Ready labs kept however many are in use (latecomers, reloads).")
    pool_check_interval = Float(10.0, config=True, help="Seconds between two looks at the pool's size.")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        claim = cls.__dict__.get("get_rendered_notebook")
        if claim is not None and not getattr(claim, "_safari_claim", False):  # Voilà's preheating subclass
            cls.get_rendered_notebook = _claiming(claim)

    def _preheating(self) -> bool:
        return self.ready_labs > 0 and hasattr(self, "fill_if_needed") and hasattr(self, "kernel_pools_config")

    def _size_pool(self, in_use: int | None = None) -> int:
        """Set Voilà's pool size (``kernel_pools_config``) for ``in_use`` labs in use; return it."""
        if not self._preheating():
            return 0
        in_use = len(self._in_use) if in_use is None else in_use
        target = pool_target(self.ready_labs, self.spare_labs, in_use, self.max_kernels)  # type: ignore[attr-defined]
        config = dict(self.kernel_pools_config.get("default", {}))  # type: ignore[attr-defined]
        if config.get("pool_size") != target:
            config["pool_size"] = target
            self.kernel_pools_config = {"default": config}
        return target

    def _keep_pool(self) -> None:
        """Top the pool up when labs were given back (culled, shut) or a start failed: the periodic look."""
        if not self._preheating():
            return
        self._in_use.intersection_update(self.list_kernel_ids())  # type: ignore[attr-defined]
        target = self._size_pool()
        for name in list(self._pools):  # type: ignore[attr-defined]
            if self.get_pool_size(name) < target:  # type: ignore[attr-defined]
                self.fill_if_needed(delay=0, notebook_name=name)  # type: ignore[attr-defined]

    def _start_pool_keeper(self) -> None:
        if self._preheating() and self._pool_keeper is None and self.pool_check_interval > 0:
            self._pool_keeper = PeriodicCallback(self._keep_pool, 1000 * self.pool_check_interval)
            self._pool_keeper.start()

    def _handed_out(self, kernel_id: str, handler) -> None:
        """A page has this kernel now: it is in use, belongs to the page's browser, and its cull grace starts."""
        self._in_use.add(kernel_id)
        user_id = getattr(getattr(handler, "current_user", None), "username", None)
        if user_id:
            self._owners[kernel_id] = user_id  # type: ignore[attr-defined]
            owner_tags.tag(kernel_id, user_id)  # issue 26: the lab learns its browser's tag (recording only)
        self._grace_from[kernel_id] = time.monotonic()  # type: ignore[attr-defined]
        self._start_pool_keeper()
