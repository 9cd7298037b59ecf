"""Where a command's CPU goes, by kind of process: Chromium, Python, Node, the rest (issue 28, session 15).

    flock /tmp/safari-heavy.lock .venv/bin/python tools/process_cpu.py -- bash .ci/run     # as root
    .venv/bin/python tools/process_cpu.py --read /tmp/acct.bin                           # a file kept before

A benchmark, not a test: it prints figures and asserts nothing. It turns on Linux's process accounting (the
``acct`` system call: root, and a kernel with /proc/sys/kernel/acct), runs the command, turns it off, and reads
the records: one for every process of the machine that ended meanwhile, with its CPU time, written as it ends.
So it counts what tests/cpu_times.py misses where it cannot make a cgroup (processes that started and ended
between two looks), and it names the kind of process, which a cgroup does not. Other processes of the machine
that end during the run are counted too: run it alone (the heavy lock).

A record names a process by the name its last thread had (Chromium's processes end as ``ThreadPoolForeg``,
``HangWatcher``..., Python's as ``ZMQbg/Reaper``...): the kinds below group those names.
"""
from __future__ import annotations

import argparse
import collections
import ctypes
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

#: struct acct_v3 (linux/acct.h): flag, version, tty, exitcode, uid, gid, pid, ppid, btime, etime (float),
#: utime, stime, mem, io, rw, minflt, majflt, swaps (comp_t), comm[16]
RECORD = struct.Struct("<BBHIIIIIIf8H16s")
#: accounting ticks a second (AHZ)
AHZ = 100
KINDS = (
    ("Chromium", ("chromium", "chrome", "ThreadPool", "HangWatcher", "CrShutdownDetec", "sandbox_ipc_thr",
                  "DedicatedWorker", "Compositor", "ANGLE-GC", "Thread<", "ServiceWorker", "inotify_reader",
                  "PerfettoTrace", "Chrome_", "VizCompositor", "CrBrowserMain", "CrRendererMain")),
    ("Node (Playwright's drivers, the site's Pyodide builds)", ("node",)),
    ("Python (tests, kernels, servers, builds)", ("python", "ZMQbg", "jupyter", "safari-kit", "voici", "voila",
                                                  "pytest", "repo2docker", "mypy", "lint-imports")),
    ("uv and pip's installs", ("tokio-rt", "uv", "pip")),
)


def comp_t(value: int) -> int:
    """A comp_t (13-bit mantissa, 3-bit base-8 exponent) as an integer."""
    return (value & 0x1FFF) << (3 * (value >> 13))


def records(data: bytes) -> list[dict]:
    out = []
    for offset in range(0, len(data) - RECORD.size + 1, RECORD.size):
        f = RECORD.unpack_from(data, offset)
        if f[1] != 3:
            raise ValueError(f"accounting record at byte {offset}: version {f[1]}, expected 3 (acct_v3)")
        out.append({"pid": f[6], "ppid": f[7], "seconds": f[9] / AHZ,
                    "cpu": (comp_t(f[10]) + comp_t(f[11])) / AHZ,
                    "comm": f[18].split(b"\0")[0].decode(errors="replace")})
    return out


def kind(comm: str) -> str:
    for name, prefixes in KINDS:
        if comm.startswith(prefixes):
            return name
    return "the rest (make, git, sh, apt...)"


def report(recs: list[dict], top: int = 12) -> str:
    total = sum(r["cpu"] for r in recs)
    by_kind: collections.Counter = collections.Counter()
    for r in recs:
        by_kind[kind(r["comm"])] += r["cpu"]
    lines = [f"{len(recs)} processes ended, {total:.0f} CPU-s in all", "", "by kind:"]
    for name, cpu in by_kind.most_common():
        lines.append(f"  {cpu:8.1f} CPU-s  {100 * cpu / total if total else 0:5.1f} %  {name}")
    lines += ["", f"the {top} costliest processes (CPU-s, seconds alive, name, parent's name):"]
    names = {r["pid"]: r["comm"] for r in recs}
    for r in sorted(recs, key=lambda r: -r["cpu"])[:top]:
        lines.append(f"  {r['cpu']:8.1f} {r['seconds']:8.1f} s  {r['comm']} <- {names.get(r['ppid'], '?')}")
    return "\n".join(lines)


def accounting(path: str | None) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.acct(path.encode() if path else None) != 0:
        err = ctypes.get_errno()
        raise SystemExit(f"acct({path!r}) failed: {os.strerror(err)} (process accounting needs root and a kernel "
                         "with /proc/sys/kernel/acct)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--read", help="read a file of accounting records instead of running a command")
    ap.add_argument("--keep", help="keep the records in this file")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("command", nargs="*", help="the command to run (after --)")
    args = ap.parse_args(argv)
    if args.read:
        print(report(records(Path(args.read).read_bytes()), args.top))
        return 0
    if not args.command:
        ap.error("give a command after --, or --read FILE")
    if args.keep:
        path = args.keep
        Path(path).write_bytes(b"")
    else:
        with tempfile.NamedTemporaryFile(prefix="process-cpu-", suffix=".acct", delete=False) as f:
            path = f.name
    accounting(path)
    try:
        rc = subprocess.call(args.command)
    finally:
        accounting(None)
    print(report(records(Path(path).read_bytes()), args.top))
    if not args.keep:
        os.unlink(path)
    return rc


if __name__ == "__main__":
    sys.exit(main())
