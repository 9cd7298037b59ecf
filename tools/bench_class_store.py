"""How fast the class store takes records from many writers at once, and whether it loses or doubles any.

PROCS processes of THREADS threads each (one learner per thread) write PER records each, every
record sent twice (a page retrying); prints records per second and the slowest single write,
then checks the database holds each record exactly once (issue 21).

Run:  .venv/bin/python tools/bench_class_store.py [--procs 6] [--threads 5] [--per 40]
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from safari_kit.class_results.class_records import SimulationRun, now  # noqa: E402
from safari_kit.class_results.class_store import ResultStore  # noqa: E402


def _process(folder: str, proc: int, threads: int, per: int, out) -> None:
    store = ResultStore(folder, "bench")
    worst = [0.0]

    def learner(t: int) -> None:
        for seq in range(1, per + 1):
            r = SimulationRun(learner=f"p{proc}t{t}", nickname=f"N{proc}{t}", lab="simulation", at=now(), seq=seq,
                              question="identify-animal", trials=100, successes=seq % 50, exact=Fraction(7, 37))
            for _ in range(2):
                t0 = time.perf_counter()
                store.add(r)
                worst[0] = max(worst[0], time.perf_counter() - t0)

    ts = [threading.Thread(target=learner, args=(t,)) for t in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.put(worst[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=6)
    ap.add_argument("--threads", type=int, default=5)
    ap.add_argument("--per", type=int, default=40)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        ResultStore(folder, "bench")
        ctx = multiprocessing.get_context("fork")
        out = ctx.Queue()
        t0 = time.perf_counter()
        ps = [ctx.Process(target=_process, args=(folder, p, a.threads, a.per, out)) for p in range(a.procs)]
        for p in ps:
            p.start()
        worst = max(out.get() for _ in ps)
        for p in ps:
            p.join()
        elapsed = time.perf_counter() - t0
        records = ResultStore(folder, "bench").records()
        keys = {(r.learner, r.seq) for r in records}
        sent = a.procs * a.threads * a.per
        print(f"{a.procs * a.threads} writers ({a.procs} processes x {a.threads} threads), {sent} records each sent "
              f"twice: {2 * sent / elapsed:.0f} writes/s, slowest write {1000 * worst:.0f} ms, "
              f"stored {len(records)} ({len(keys)} distinct)")
        ok = len(records) == len(keys) == sent
        print("nothing lost, nothing doubled" if ok else "MISMATCH")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
