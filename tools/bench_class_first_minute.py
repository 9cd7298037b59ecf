"""The first minute of a class on a busy laptop (issue 26): 30 learners arrive while the ready labs start.

    flock /tmp/safari-heavy.lock .venv/bin/python tools/bench_class_first_minute.py
    flock /tmp/safari-heavy.lock .venv/bin/python tools/bench_class_first_minute.py --spread 20 --burners 2
    flock /tmp/safari-heavy.lock .venv/bin/python tools/bench_class_first_minute.py --repo /tmp/old   # older code

A benchmark, not a test: it prints figures and asserts nothing (its small
version is tests/browser/test_class_first_minute_browser.py). As a teacher does it: the
machine is busy (``--burners`` CPU burners at nice 19: a browser, a projector),
``safari-kit class`` is started on the kit's app with its documented settings
(30 ready labs), and the class comes in at once: ``--learners`` raw learners
(tests/server/class_learners.py, each from its own loopback address) ask for
their page within ``--spread`` seconds of the server listening, follow the
waiting page as a browser does, connect, open a lab with a table and leave.

Reported: pages whole (the app's widget view in the page and the kernel's own
app) of all pages; waiting pages seen; open -> page and open -> first table
(median, p95, max, from the first GET, waiting included); when the terminal
said "labs ready: the class can come in now" (seconds from the start); the
renders that lost output (``Timeout waiting for IOPub output``) and the labs
stopped for it. ``--repo`` runs the server from another checkout (e.g. 9bdb9c7
in a git worktree) to compare.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.server.class_learners import TABLE_LABS, RawLearner, leave, play_learner  # noqa: E402
from tests.server.first_minute import app_server, busy_machine, page_faults  # noqa: E402
from tools.load_class import summary  # noqa: E402


async def first_minute(srv, args) -> dict:
    rng = random.Random(args.seed)
    learners = [RawLearner(srv.url, f"127.0.0.{20 + i}", f"learner-{i}", random.Random(rng.random()))
                for i in range(args.learners)]
    delays = sorted(rng.uniform(0, args.spread) for _ in learners)

    async def watch() -> None:
        while True:
            srv.watch_ready()
            await asyncio.sleep(0.25)

    watcher = asyncio.ensure_future(watch())
    t0 = time.monotonic()
    results = await asyncio.gather(*(play_learner(lr, d, 0.0, lab=TABLE_LABS[i % len(TABLE_LABS)])
                                     for i, (lr, d) in enumerate(zip(learners, delays, strict=True))))
    arrived_in = time.monotonic() - t0
    deadline = time.monotonic() + args.ready_timeout
    while srv.ready_after() is None and time.monotonic() < deadline:  # the terminal's line, if not yet
        await asyncio.sleep(0.5)
    watcher.cancel()
    faults = [f for lr in learners for f in page_faults(lr)]
    await asyncio.gather(*(leave(lr, True) for lr in learners))
    log = srv.log_text()
    return {"results": results, "faults": faults, "arrived_in": arrived_in, "ready_after": srv.ready_after(),
            "iopub_timeouts": log.count("Timeout waiting for IOPub output"),
            "not_whole": log.count("did not render whole"), "not_trusted": log.count("is not trusted")}


def report(out: dict, args) -> dict:
    res = out["results"]
    whole = sum(r.status == 200 and r.app_model is not None and not any("widget" in e for e in r.errors) for r in res)
    pages = [r.page_seconds for r in res if r.page_seconds is not None and r.app_model]
    tables = [r.table_seconds for r in res if r.table_seconds is not None]
    ready = out["ready_after"]
    print(f"\n== first minute: {len(res)} learners arriving within {args.spread:g} s of the server listening, "
          f"{args.burners} CPU burners at nice 19, server {' '.join(args.server_arg) or 'with its defaults'}"
          f"{'' if args.repo == str(REPO) else ' from ' + args.repo}")
    print(f"  every page whole:               {whole}/{len(res)} pages with their app "
          f"({sum(r.waiting_pages for r in res)} waiting pages before them, "
          f"{sum(bool(r.waiting_pages) for r in res)} learners waited)")
    print(f"  open -> page with the app:      {summary(pages, 's')}")
    print(f"  open -> first table:            {summary(tables, 's')}")
    print("  'labs ready: the class can come in now': "
          + (f"{ready:.0f} s after the start" if ready is not None else "not printed"))
    print(f"  renders that lost output:       {out['iopub_timeouts']} (IOPub timeouts), {out['not_whole']} labs "
          f"stopped for it; 'not trusted' warnings: {out['not_trusted']}")
    for f in out["faults"][:10]:
        print(f"  ! {f}")
    if len(out["faults"]) > 10:
        print(f"  ! ... and {len(out['faults']) - 10} more")
    s_tables = sorted(tables)
    p95 = s_tables[min(len(s_tables) - 1, max(0, round(0.95 * len(s_tables)) - 1))] if s_tables else None
    return {"learners": len(res), "whole": whole, "waiting_pages": sum(r.waiting_pages for r in res),
            "p95_table": p95, "max_table": s_tables[-1] if s_tables else None, "ready_after": ready,
            "iopub_timeouts": out["iopub_timeouts"], "not_whole": out["not_whole"], "faults": out["faults"]}


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--spread", type=float, default=10, help="learners arrive within this many seconds")
    ap.add_argument("--burners", type=int, default=3, help="CPU burners at nice 19 (a busy laptop)")
    ap.add_argument("--server-arg", action="append", default=[], help="an option for safari-kit class")
    ap.add_argument("--repo", default=str(REPO), help="the checkout whose server runs (default: this one)")
    ap.add_argument("--ready-timeout", type=float, default=180, help="seconds to wait for the 'labs ready' line")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the figures here")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    print(f"load average before: {os.getloadavg()}; {os.cpu_count()} CPUs")
    with busy_machine(args.burners), app_server(*args.server_arg, repo=Path(args.repo)) as srv:
        figures = report(asyncio.run(first_minute(srv, args)), args)
    print(f"load average after: {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
