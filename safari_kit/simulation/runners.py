"""Run a list of independent tasks serially, on a local process pool, or on a Dask cluster.

Every runner takes a top-level function ``func`` and a list of picklable
``tasks`` and returns ``[func(t) for t in tasks]`` **in task order**, whatever
order the workers finish in. Tournaments make each task a fixed chunk of games
with its own seed, so the results never depend on which runner, or how many
workers, did the work.

- :func:`run_serial`: in this process (what ``workers=1`` means).
- :func:`run_processes`: a :class:`concurrent.futures.ProcessPoolExecutor`
  (``workers`` processes, default ``os.cpu_count()``), started with the
  ``"spawn"`` method by default: safe inside Jupyter and the same on every OS.
  ``func`` must therefore be importable by name (defined at module top level).
- :func:`run_dask`: a ``dask.distributed`` cluster, given a scheduler address
  (``"tcp://10.0.0.5:8786"``) or a ``distributed.Client``. Dask is an
  optional extra: ``pip install "safari_kit[dask]"``; its workers need
  safari_kit installed too.

``progress(done, total)`` (optional) is called in this process after each
finished task, with the running sum and the total of ``weights`` (by default
one per task; tournaments pass games per chunk), e.g. to drive a notebook
progress bar.

>>> run_serial(abs, [-1, 2, -3])
[1, 2, 3]
"""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

DASK_HINT = 'Dask is an optional extra: pip install "safari_kit[dask]"'

Progress = Callable[[int, int], Any]


def _weights(tasks: Sequence, weights: Sequence[int] | None) -> list[int]:
    if weights is None:
        return [1] * len(tasks)
    weights = [int(w) for w in weights]
    if len(weights) != len(tasks):
        raise ValueError(f"{len(weights)} weights for {len(tasks)} tasks")
    return weights


def default_workers() -> int:
    """All local cores (``os.cpu_count()``, at least 1)."""
    return max(1, os.cpu_count() or 1)


def check_workers(workers) -> int | None:
    """``None`` (all cores) or a positive integer; anything else raises ValueError."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1 (or None for all {default_workers()} cores), "
                         f"got {workers!r}")
    return workers


def run_serial(func: Callable, tasks: Sequence, *, progress: Progress | None = None,
               weights: Sequence[int] | None = None) -> list:
    """``[func(t) for t in tasks]`` in this process."""
    w = _weights(tasks, weights)
    total, done, out = sum(w), 0, []
    for task, wt in zip(tasks, w):
        out.append(func(task))
        done += wt
        if progress is not None:
            progress(done, total)
    return out


def run_processes(func: Callable, tasks: Sequence, *, workers: int | None = None,
                  progress: Progress | None = None, weights: Sequence[int] | None = None,
                  mp_context: str | None = "spawn") -> list:
    """``[func(t) for t in tasks]`` on a local process pool of ``workers`` processes."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    workers = check_workers(workers) or default_workers()
    tasks = list(tasks)
    w = _weights(tasks, weights)
    if not tasks:
        return []
    workers = min(workers, len(tasks))
    ctx = multiprocessing.get_context(mp_context) if mp_context else None
    total, done = sum(w), 0
    out: list = [None] * len(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        pending = {pool.submit(func, t): k for k, t in enumerate(tasks)}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    k = pending.pop(fut)
                    out[k] = fut.result()
                    done += w[k]
                    if progress is not None:
                        progress(done, total)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    return out


def dask_client(scheduler):
    """(client, owned): a ``distributed.Client`` for an address, or the given client itself."""
    try:
        import distributed
    except ImportError:
        raise ImportError(f"running on a Dask cluster needs dask.distributed, which is not installed. "
                          f"{DASK_HINT}") from None
    if isinstance(scheduler, distributed.Client):
        return scheduler, False
    if isinstance(scheduler, str):
        try:
            return distributed.Client(scheduler, timeout="10s"), True
        except (OSError, TimeoutError, ValueError) as exc:
            raise OSError(f"cannot connect to the Dask scheduler at {scheduler!r}: {exc}") from None
    if hasattr(scheduler, "scheduler_address"):  # a LocalCluster or any cluster object
        return distributed.Client(scheduler), True
    raise ValueError(f"scheduler must be an address such as 'tcp://host:8786', a distributed.Client "
                     f"or a cluster, got {scheduler!r}")


def run_dask(func: Callable, tasks: Sequence, *, scheduler, progress: Progress | None = None,
             weights: Sequence[int] | None = None) -> list:
    """``[func(t) for t in tasks]`` on a Dask cluster (an address, a Client or a cluster)."""
    client, owned = dask_client(scheduler)
    import distributed

    tasks = list(tasks)
    w = _weights(tasks, weights)
    total, done = sum(w), 0
    out: list = [None] * len(tasks)
    try:
        futures = [client.submit(func, t, pure=False) for t in tasks]
        index = {f.key: k for k, f in enumerate(futures)}
        for fut in distributed.as_completed(futures):
            k = index[fut.key]
            out[k] = fut.result()
            done += w[k]
            if progress is not None:
                progress(done, total)
    finally:
        if owned:
            client.close()
    return out


def run(func: Callable, tasks: Sequence, *, workers: int | None = None, scheduler=None,
        progress: Progress | None = None, weights: Sequence[int] | None = None) -> list:
    """Pick a runner: Dask when ``scheduler`` is given; else serial for ``workers == 1``
    (or a single task); else a process pool of ``workers`` (default: all cores)."""
    workers = check_workers(workers)
    if scheduler is not None:
        return run_dask(func, tasks, scheduler=scheduler, progress=progress, weights=weights)
    n = workers or default_workers()
    if n == 1 or len(tasks) <= 1:
        return run_serial(func, tasks, progress=progress, weights=weights)
    return run_processes(func, tasks, workers=n, progress=progress, weights=weights)


__all__ = ["run", "run_serial", "run_processes", "run_dask", "dask_client", "default_workers",
           "check_workers", "DASK_HINT"]
