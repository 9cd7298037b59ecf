"""Runners: the same list of results, in task order, serially, on processes or on Dask."""
from __future__ import annotations

import math
import sys

import pytest

from safari_kit.simulation import runners
from safari_kit.simulation.runners import check_workers, run, run_processes, run_serial


def test_serial_keeps_order_and_reports_progress_by_weight():
    calls = []
    out = run_serial(math.factorial, [3, 1, 4], progress=lambda d, t: calls.append((d, t)), weights=[2, 1, 5])
    assert out == [6, 1, 24]
    assert calls == [(2, 8), (3, 8), (8, 8)]
    with pytest.raises(ValueError, match="weights"):
        run_serial(abs, [1, 2], weights=[1])


def test_process_pool_keeps_task_order():
    calls = []
    tasks = list(range(12))
    out = run_processes(math.factorial, tasks, workers=2, progress=lambda d, t: calls.append((d, t)))
    assert out == [math.factorial(t) for t in tasks]
    assert calls[-1] == (12, 12) and [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert run_processes(abs, [], workers=2) == []


def test_run_picks_serial_for_one_worker_or_one_task(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("no process pool expected")
    monkeypatch.setattr(runners, "run_processes", boom)
    assert run(abs, [-1, -2], workers=1) == [1, 2]
    assert run(abs, [-5]) == [5]


def test_workers_must_be_positive_whole_numbers():
    assert check_workers(None) is None and check_workers(3) == 3
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="workers"):
            check_workers(bad)


def test_dask_local_cluster_keeps_task_order():
    distributed = pytest.importorskip("distributed")
    calls = []
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        out = run(math.factorial, list(range(10)), scheduler=client, progress=lambda d, t: calls.append(d))
        assert not client.status == "closed"  # a given client is left open
    assert out == [math.factorial(t) for t in range(10)]
    assert sorted(calls) == list(range(1, 11))


def test_missing_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ImportError, match=r"pip install \"safari_kit\[dask\]\""):
        run(abs, [1], scheduler="tcp://127.0.0.1:8786")


def test_bad_scheduler_argument():
    pytest.importorskip("distributed")
    with pytest.raises(ValueError, match="scheduler must be"):
        run(abs, [1], scheduler=42)
