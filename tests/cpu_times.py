"""CPU seconds per test: ``pytest -p tests.cpu_times`` writes test-artifacts/cpu_times-<worker>.json.

Issue 28 asks to measure before making the suite faster. Wall seconds (``--durations``, the JUnit XML) say
how long a test took; on a 2-core machine running two pytest-xdist workers they do not say what it *costs*:
a test waiting for a page costs nothing, a test whose Chromium and kernels keep both cores busy slows the
other worker too. This plugin counts the processor time of the pytest process and everything it started
(servers, kernels, Chromium, ``make``), from setup to teardown of each test. Where it can (Linux, root, cgroup v1:
CI), the worker puts itself in a cpuacct cgroup of its own, which counts every process it starts, also those that
have ended. Elsewhere it adds up the utime and stime of the live processes below the worker, at the start and
the end of each test: a process that started and ended within a test is missed (a floor, not the figure).
Each xdist worker counts its own tree, so two workers do not count each other.

    make test PYTEST_ARGS="-p tests.cpu_times"
    python tools/suite_times.py --cpu test-artifacts/cpu_times-*.json
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
OUT = Path(__file__).resolve().parents[1] / "test-artifacts"


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def _own_cgroup() -> Path | None:
    """A cpuacct cgroup (Linux, cgroup v1, root) holding this process and everything it starts from now on:
    its ``cpuacct.usage`` counts the CPU of processes that have ended too. None where one cannot be made."""
    group = CPUACCT / f"safari-tests-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
        int((group / "cpuacct.usage").read_text())
    except (OSError, ValueError):
        return None
    return group


def _tree_ticks(root: int) -> dict[int, int]:
    """utime+stime of ``root`` and of every live process below it, in clock ticks, by pid."""
    parent, ticks = {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after "pid (comm) ": state ppid ...
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        ticks[pid] = int(fields[11]) + int(fields[12])  # utime stime
    mine = {}
    for pid, t in ticks.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            mine[pid] = t
    return mine


def _spent(before: dict[int, int], after: dict[int, int]) -> int:
    """Ticks spent between two snapshots by the processes alive at the second."""
    return sum(max(0, t - before.get(pid, 0)) for pid, t in after.items())


class CpuTimes:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.group = _own_cgroup()

    def _now(self):
        if self.group is not None:
            return int((self.group / "cpuacct.usage").read_text())
        return _tree_ticks(os.getpid())

    def _seconds(self, before, after) -> float:
        if self.group is not None:
            return (after - before) / 1e9
        return _spent(before, after) / TICKS

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        before = self._now()
        try:
            return (yield)
        finally:
            self.seconds[item.nodeid] = round(self._seconds(before, self._now()), 2)

    def pytest_sessionfinish(self, session):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        OUT.mkdir(exist_ok=True)
        path = OUT / f"cpu_times-{worker}.json"
        path.write_text(json.dumps(self.seconds, indent=0) + "\n", encoding="utf-8")
        if self.group is not None:  # an empty cgroup can go; one whose servers live on stays (harmless)
            with contextlib.suppress(OSError):
                (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
                self.group.rmdir()


def pytest_configure(config):
    config.pluginmanager.register(CpuTimes(), "safari-cpu-times")
