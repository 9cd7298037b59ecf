"""Run Chromium capped at a fraction of one CPU core, web workers included (issue 18, item 3).

    with capped_chromium("/usr/bin/chromium", 0.25) as (exe, cpu_seconds):
        browser = playwright.chromium.launch(executable_path=exe, ...)
        ...; cpu_seconds()  # CPU time the browser's processes used so far (None where not counted)

Why a cgroup: the DevTools protocol's CPU throttle (``Emulation.setCPUThrottlingRate``) slows the page's main
thread only; the Pyodide kernel runs in a web worker, where the whole Python start-up happens, so that throttle
leaves the figure that matters untouched. A cgroup caps every process of the browser (renderer, its worker
threads, GPU and network processes) together, as a cheap laptop or Chromebook would.

How: a cgroup is made under the CPU controller (cgroup v2 ``cpu.max`` where the unified hierarchy has the cpu
controller, else cgroup v1 ``cpu.cfs_quota_us``), and Playwright launches a small shell wrapper that moves
itself into the cgroup and ``exec``s Chromium, so the browser and every child it forks start inside. Needs
root (or a delegated cgroup); the cgroup is removed afterwards. The CPU time the group used is counted too
(v2: ``cpu.stat``; v1: a twin group under the cpuacct controller): on a busy machine the capped browser may get
less than its quota, and the CPU seconds tell a change in the site from a change in the machine's load.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

PERIOD_US = 100_000


def _cpu_root() -> tuple[Path, str]:
    """(the folder to make the cgroup in, "v2" or "v1")."""
    controllers = Path("/sys/fs/cgroup/cgroup.controllers")
    if controllers.is_file() and "cpu" in controllers.read_text().split():
        return controllers.parent, "v2"
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v1 / "cpu.cfs_quota_us").is_file():
        return v1, "v1"
    raise RuntimeError("no CPU cgroup controller found (neither /sys/fs/cgroup/cgroup.controllers with cpu "
                       "nor /sys/fs/cgroup/cpu/cpu.cfs_quota_us): --cpu-quota needs cgroups")


@contextlib.contextmanager
def capped_chromium(chromium: str, quota: float) -> Iterator[tuple[str, Callable[[], float | None]]]:
    """(an executable path that starts ``chromium`` capped at ``quota`` of one core (0.25: a quarter), a function
    giving the CPU seconds its processes used so far)."""
    if not 0 < quota <= 64:
        raise ValueError(f"--cpu-quota {quota}: give a fraction of one core, e.g. 0.25")
    root, version = _cpu_root()
    name = f"safari-measure-{os.getpid()}"
    group = root / name
    try:
        group.mkdir()
    except PermissionError as exc:
        raise RuntimeError(f"cannot make the cgroup {group} (run as root): {exc}") from exc
    groups = [group]
    quota_us = max(1000, round(quota * PERIOD_US))
    if version == "v2":
        (group / "cpu.max").write_text(f"{quota_us} {PERIOD_US}")
        usage_file, scale = group / "cpu.stat", 1e-6
    else:
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(quota_us))
        acct = Path("/sys/fs/cgroup/cpuacct")
        usage_file, scale = acct / name / "cpuacct.usage", 1e-9
        if (acct / "cpuacct.usage").is_file():
            (acct / name).mkdir()
            groups.append(acct / name)

    def cpu_seconds() -> float | None:
        if not usage_file.is_file():
            return None
        text = usage_file.read_text()
        if version == "v2":
            return int(text.split("usage_usec")[1].split()[0]) * scale
        return int(text) * scale

    tmp = Path(tempfile.mkdtemp(prefix="capped-chromium-"))
    wrapper = tmp / "chromium"
    joins = "".join(f'echo $$ > "{g}/cgroup.procs" || exit 1\n' for g in groups)
    wrapper.write_text(f'#!/bin/sh\n{joins}exec "{chromium}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    try:
        yield str(wrapper), cpu_seconds
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        # the browser's processes leave the groups as they exit; wait a little for the last ones
        for g in groups:
            for _ in range(50):
                try:
                    g.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)
