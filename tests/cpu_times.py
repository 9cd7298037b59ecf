"""CPU seconds per test: ``pytest -p tests.cpu_times`` writes test-artifacts/cpu_times-<worker>.json.

Issue 28 asks to measure before making the suite faster. Wall seconds (``--durations``, the JUnit XML) say
how long a test took; on a 2-core machine running two pytest-xdist workers they do not say what it *costs*:
a test waiting for a page costs nothing, a test whose Chromium and kernels keep both cores busy slows the
other worker too. This plugin counts the processor time of the pytest process and everything it started
(servers, kernels, Chromium, ``make``), from setup to teardown of each test: the utime and stime of every
live process below this one, plus what each of them collected from children that have ended (cutime, cstime).
A process that ends unreaped with its parent (a server stopped with its launcher) takes its seconds with it:
the figures are a floor, good for comparing one run with the next.
Each xdist worker counts its own tree, so two workers do not count each other.

    make test PYTEST_ARGS="-p tests.cpu_times"
    python tools/suite_times.py --cpu test-artifacts/cpu_times-*.json
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
OUT = Path(__file__).resolve().parents[1] / "test-artifacts"


def _tree_ticks(root: int) -> dict[int, int]:
    """utime+stime+cutime+cstime of ``root`` and of every live process below it, in clock ticks, by pid."""
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
        ticks[pid] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    mine = {}
    for pid, t in ticks.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            mine[pid] = t
    return mine


def _spent(before: dict[int, int], after: dict[int, int]) -> int:
    """Ticks spent between two snapshots by the processes alive at the second (a process that ended is
    counted where its parent collected it, or not at all: a server killed with its launcher is lost; never
    negative, which subtracting two totals was when a test stopped a server that had run for a while)."""
    return sum(max(0, t - before.get(pid, 0)) for pid, t in after.items())


class CpuTimes:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        before = _tree_ticks(os.getpid())
        try:
            return (yield)
        finally:
            self.seconds[item.nodeid] = round(_spent(before, _tree_ticks(os.getpid())) / TICKS, 2)

    def pytest_sessionfinish(self, session):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        OUT.mkdir(exist_ok=True)
        path = OUT / f"cpu_times-{worker}.json"
        path.write_text(json.dumps(self.seconds, indent=0) + "\n", encoding="utf-8")


def pytest_configure(config):
    config.pluginmanager.register(CpuTimes(), "safari-cpu-times")
