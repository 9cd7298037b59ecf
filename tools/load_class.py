"""Play a class against the class server on loopback and report how it held (issue 19, "Load").

    .venv/bin/python tools/load_class.py                          # 30 learners, 3 minutes, 2 Chromium pages
    .venv/bin/python tools/load_class.py --learners 60 --minutes 1 --browsers 0
    .venv/bin/python tools/load_class.py --abusive                # a class, then the same class + one abuser
    .venv/bin/python tools/load_class.py --url http://127.0.0.1:8866/ --server-pid 1234   # a running server
    .venv/bin/python tools/load_class.py --ready-labs 0            # no ready labs: each page starts its kernel
    .venv/bin/python tools/load_class.py --abusive --abuse frames    # one kind of abuse only (frames, jobs, pages)
    .venv/bin/python tools/load_class.py --abusive-only --abuse jobs # that run alone (compare with a plain run)
    .venv/bin/python tools/load_class.py --record                  # recording on: the database checked (issue 21)

A benchmark, not a test: it prints figures and asserts nothing (its 5-learner
version, tests/server/test_class_load.py, checks correctness only). Targets of
issue 19 on a 2-core machine, N = 30 arriving within 10 s: open -> first table
p95 <= 5 s; action -> reply p95 <= 100 ms; total memory <= 3 GiB; kernels back
to 0 within the cull time after all leave; with one abusive learner the
others' action -> reply p95 at most 1.5x. N = 60: all get a table within 30 s.

It starts ``safari-kit class`` (the kit's app, the documented settings, on
127.0.0.1 and a free port; ``--idle-seconds`` and ``--cull-interval`` are the
server's cull settings for the run, ``--ready-labs`` its ready labs, as
documented: 30; the run waits until they are ready, as a teacher starts the
server before the lesson; ``--server-arg`` passes any other option) unless
``--url`` names a running server. Learners (tests/server/class_learners.py)
are raw websocket clients speaking the page's protocol, each from its own
loopback address (127.0.0.x: a computer of the class); they arrive within
``--spread`` seconds, open a lab with a table at once, play it at a human pace
(a click every 2-5 s), a fifth of them switch to the Simulation lab half way,
then all leave: two in three with the page's unload shutdown, the others as
tabs that die without it (only the server's culler ends their kernels).
``--browsers K`` real Chromium pages (tools/class_browsers.py) play alongside.

Reported: open -> first table and action -> reply (median, p95, max; table
labs and the Simulation lab apart), the server's and kernels' memory (the sum
of resident memory of the server process and all its children, psutil; PSS
too, which counts shared pages once), CPU (the server's process tree, and the
whole machine), and kernels alive after the learners leave and how long until
the culler ends them. ``--abusive`` runs the class twice on fresh servers,
without and with one abusive learner (one computer: frames just under the
server's cap, the Simulation lab's largest jobs with its sliders forced up,
and new pages as fast as the server allows), and compares the others' p95.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import psutil  # noqa: E402

from safari_kit.classroom.settings import ClassSettings  # noqa: E402
from tests.server.class_learners import SIMULATION, RawLearner, leave, play_learner  # noqa: E402

GiB = 1024 ** 3


def summary(seconds: list[float], unit: str = "ms") -> str:
    s = sorted(seconds)
    if not s:
        return "n=0"
    k, digits = (1000, 0) if unit == "ms" else (1, 2)
    top = s[min(len(s) - 1, max(0, round(0.95 * len(s)) - 1))]
    return (f"n={len(s)}  median {statistics.median(s) * k:.{digits}f}  p95 {top * k:.{digits}f}  "
            f"max {s[-1] * k:.{digits}f} {unit}")


def p95(seconds: list[float]) -> float | None:
    s = sorted(seconds)
    return s[min(len(s) - 1, max(0, round(0.95 * len(s)) - 1))] if s else None


# ----------------------------------------------------------------------------- the server's processes
class Monitor:
    """Memory, CPU and kernels of the server's process tree, read every ``interval`` seconds."""

    def __init__(self, pid: int | None, interval: float = 2.0):
        self.pid, self.interval = pid, interval
        self.samples: list[dict] = []
        self._cpu: dict[int, float] = {}
        self._task: asyncio.Task | None = None

    def tree(self) -> list[psutil.Process]:
        try:
            root = psutil.Process(self.pid)
            return [root, *root.children(recursive=True)]
        except psutil.Error:
            return []

    def kernels(self) -> int:
        n = 0
        for p in self.tree()[1:]:
            with contextlib.suppress(psutil.Error):
                n += any("ipykernel" in part for part in p.cmdline())
        return n

    def sample(self, pss: bool = False) -> dict:
        rss = pss_sum = cpu = 0.0
        kernels = 0
        for p in self.tree():
            with contextlib.suppress(psutil.Error):
                rss += p.memory_info().rss
                if pss:
                    pss_sum += p.memory_full_info().pss
                t = p.cpu_times()
                used = t.user + t.system
                cpu += used - self._cpu.get(p.pid, 0.0)
                self._cpu[p.pid] = used
                kernels += p.pid != self.pid and any("ipykernel" in part for part in p.cmdline())
        s = {"t": time.monotonic(), "rss": rss, "pss": pss_sum or None, "cpu_s": cpu, "kernels": kernels,
             "machine_cpu": psutil.cpu_percent(), "load": os.getloadavg()[0]}
        self.samples.append(s)
        return s

    async def run(self) -> None:
        self.sample()
        i = 0
        while True:
            await asyncio.sleep(self.interval)
            i += 1
            await asyncio.get_running_loop().run_in_executor(None, self.sample, i % 5 == 0)

    def start(self):
        if self.pid:
            self._task = asyncio.ensure_future(self.run())

    def stop(self):
        if self._task:
            self._task.cancel()

    def report(self, t0: float, t1: float) -> dict:
        window = [s for s in self.samples if t0 <= s["t"] <= t1]
        if len(window) < 2:
            return {}
        secs = window[-1]["t"] - window[0]["t"]
        cpu_s = sum(s["cpu_s"] for s in window[1:])
        peak = max(window, key=lambda s: s["rss"])
        pss = [s["pss"] for s in window if s["pss"]]
        return {"peak_rss": peak["rss"], "peak_rss_kernels": peak["kernels"], "peak_pss": max(pss) if pss else None,
                "cpu_percent": 100 * cpu_s / secs, "peak_cpu_percent": max(100 * s["cpu_s"] / self.interval
                                                                            for s in window[1:]),
                "machine_cpu_percent": statistics.mean(s["machine_cpu"] for s in window[1:]),
                "load": max(s["load"] for s in window), "max_kernels": max(s["kernels"] for s in window)}


async def learners_kernels_alive(learners) -> int:
    """How many of the learners' kernels still live, each asked by its owner (``GET /api/kernels/<id>``)."""
    async def alive(learner) -> bool:
        if not learner.kernel_id:
            return False
        resp = await learner.fetch(f"api/kernels/{learner.kernel_id}")
        return resp.code == 200

    return sum(await asyncio.gather(*(alive(lr) for lr in learners)))


async def wait_for_ready_labs(srv, timeout: float) -> float | None:
    """Seconds until the ready labs are ready (None: not within ``timeout``).

    The server says so in its terminal once every ready lab's page has rendered
    whole: "30 labs ready: the class can come in now." (issue 26); a teacher
    waits for that line.
    """
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if "labs ready: the class can come in now" in srv.log_text():
            return time.monotonic() - t0
        await asyncio.sleep(0.5)
    return None


# ----------------------------------------------------------------------------- the abusive learner
async def abuse(url: str, seconds: float, cap_bytes: int, seed: int,
                kinds: tuple[str, ...] = ("jobs", "frames", "pages")) -> dict:
    """One computer (127.0.0.250): frames at the cap, the largest jobs, and new pages as fast as allowed."""
    ip, rng, out = "127.0.0.250", random.Random(seed), {"frames": 0, "jobs": 0, "pages": {}, "errors": []}
    end = time.perf_counter() + seconds

    async def jobs():
        me = RawLearner(url, ip, "abuser-jobs", rng)
        if await me.open_page() != 200:
            out["errors"].append(f"jobs page {me.result.status}")
            return
        await me.connect()
        await me.open_lab(*SIMULATION)
        await asyncio.sleep(1)
        stage = me.chooser_parts()["stage"]
        for cid in me.shown(stage):
            s = me.models[cid]
            if s.get("_model_name") in ("IntSliderModel", "FloatSliderModel"):
                await me.update(cid, {"max": 10 ** 6}, None)
                await me.update(cid, {"value": 10 ** 6}, None)
            elif s.get("_model_name") == "SelectionSliderModel":
                await me.update(cid, {"index": len(s.get("_options_labels") or [1]) - 1}, None)
        runs = [cid for cid in me.shown(stage) if me.models[cid].get("_model_name") == "ButtonModel"
                and me.models[cid].get("description") in ("Simulate", "Run the intervals", "Run tournament")]
        while time.perf_counter() < end and runs and me.closed_code is None:
            for cid in runs:
                await me.press(cid, None)
                out["jobs"] += 1
                await asyncio.sleep(0.5)
        await me.close()

    async def frames():
        me = RawLearner(url, ip, "abuser-frames", rng)
        if await me.open_page() != 200:
            out["errors"].append(f"frames page {me.result.status}")
            return
        await me.connect()
        await me.open_lab("Safari Witness", "Identification")
        await asyncio.sleep(1)
        texts = [cid for cid in me.shown(me.chooser_parts()["stage"]) if me.models[cid].get("_model_name")
                 == "TextModel"] or [me.chooser_parts()["lab"]]
        big = "7" * (cap_bytes - 4096)
        while time.perf_counter() < end and me.closed_code is None:
            await me.update(texts[0], {"value": big}, None)
            out["frames"] += 1
            await asyncio.sleep(0.25)
        if me.closed_code is not None:
            out["errors"].append(f"frames socket closed by the server ({me.closed_code})")
        await me.close()

    async def pages():
        while time.perf_counter() < end:
            me = RawLearner(url, ip, "abuser-page", rng)
            code = await me.open_page()
            out["pages"][code] = out["pages"].get(code, 0) + 1
            await asyncio.sleep(1)

    await asyncio.gather(*(part() for part in (jobs, frames, pages) if part.__name__ in kinds))
    return out


# ----------------------------------------------------------------------------- one class
async def run_class(url: str, args, monitor: Monitor, abusive: bool) -> dict:
    rng = random.Random(args.seed)
    seconds = args.minutes * 60
    learners = [RawLearner(url, f"127.0.0.{10 + i}", f"learner-{i}", random.Random(rng.random()))
                for i in range(args.learners)]
    browsers = None
    if args.browsers:
        browsers = subprocess.Popen([sys.executable, str(REPO / "tools" / "class_browsers.py"), url, "--pages",
                                     str(args.browsers), "--seconds", str(seconds), "--spread", str(args.spread),
                                     "--seed", str(args.seed)], stdout=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    tasks = [play_learner(lr, rng.uniform(0, args.spread), seconds, switch_to_simulation=(i % 5 == 4),
                          nickname=f"learner{i}" if args.record else "")
             for i, lr in enumerate(learners)]
    abuser = asyncio.ensure_future(abuse(url, seconds, args.max_message_kib * 1024, args.seed,
                                                    tuple(args.abuse.split(",")))) if abusive else None
    results = await asyncio.gather(*tasks)
    abuse_out = await abuser if abuser else None
    browser_out = []
    if browsers is not None:
        text, _ = await asyncio.get_running_loop().run_in_executor(None, browsers.communicate)
        browser_out = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    t_played = time.monotonic()
    await asyncio.gather(*(leave(lr, i % 3 != 2) for i, lr in enumerate(learners)))
    t_left = time.monotonic()
    alive_after = learners_alive = None
    gone_after = None
    if monitor.pid:
        await asyncio.sleep(2)
        alive_after = monitor.kernels()
        learners_alive = await learners_kernels_alive(learners)
        limit = args.idle_seconds + args.cull_interval + 60
        # every learner's own kernel gone (its owner asks: 404), and no more kernels than the ready labs,
        # which stay for the next class (safari_kit.server.ready_labs)
        while time.monotonic() - t_left < limit:
            if monitor.kernels() <= args.ready_labs and not await learners_kernels_alive(learners):
                gone_after = time.monotonic() - t_left
                break
            await asyncio.sleep(1)
    return {"results": results, "browsers": browser_out, "abuse": abuse_out, "alive_after": alive_after,
            "learners_alive_after": learners_alive,
            "gone_after": gone_after, "machine": monitor.report(t0, t_played), "t": (t0, t_played, t_left)}


def report(label: str, out: dict, args) -> dict:
    res = out["results"]
    tables = [r.table_seconds for r in res if r.table_seconds is not None]
    with_app = sum(r.status == 200 and r.app_model is not None for r in res)
    pages = [r.page_seconds for r in res if r.page_seconds is not None]
    lab_actions = [s.seconds for r in res for s in r.samples if s.kind in ("table", "button", "toggle")]
    sim_actions = [s.seconds for r in res for s in r.samples if s.kind == "simulation"]
    chooser = [s.seconds for r in res for s in r.samples if s.kind == "chooser"]
    replied = [x for x in lab_actions if x is not None]
    b_tables = [b["table_seconds"] for b in out["browsers"] if b["table_seconds"] is not None]
    b_replies = [x / 1000 for b in out["browsers"] for x in b["replies_ms"]]
    print(f"\n== {label}: {len(res)} raw learners + {len(out['browsers'])} Chromium pages, arriving within "
          f"{args.spread:g} s, {args.minutes:g} min of play")
    print(f"  learners with a table:          {len(tables)}/{len(res)} raw, {len(b_tables)}/{len(out['browsers'])} "
          f"Chromium")
    print(f"  pages with their app:           {with_app}/{len(res)} (the app's widget view in the page; "
          f"{sum(r.waiting_pages for r in res)} waiting pages before them)")
    print(f"  GET page (kernel + notebook):   {summary(pages, 's')}")
    print(f"  open -> first table (raw):      {summary(tables, 's')}")
    print(f"  open -> first table (Chromium): {summary(b_tables, 's')}")
    print(f"  action -> reply, table labs:    {summary(replied)}; no reply: {len(lab_actions) - len(replied)}")
    print(f"  action -> reply, Simulation:    {summary([x for x in sim_actions if x is not None])}; no reply: "
          f"{sum(x is None for x in sim_actions)}")
    print(f"  chooser -> reply:               {summary([x for x in chooser if x is not None])}")
    print(f"  action -> reply (Chromium):     {summary(b_replies)}; sent {sum(b['sent'] for b in out['browsers'])}")
    m = out["machine"]
    if m:
        pss = f", PSS {m['peak_pss'] / GiB:.2f} GiB" if m["peak_pss"] else ""
        print(f"  memory (server + kernels):      peak RSS {m['peak_rss'] / GiB:.2f} GiB with {m['peak_rss_kernels']} "
              f"kernels{pss}")
        print(f"  CPU (server + kernels):         mean {m['cpu_percent']:.0f} %, peak {m['peak_cpu_percent']:.0f} % "
              f"(of 100 % per core); whole machine mean {m['machine_cpu_percent']:.0f} %, load average up to "
              f"{m['load']:.1f}; kernels at most {m['max_kernels']}")
    if out["alive_after"] is not None:
        gone = f"{out['gone_after']:.0f} s" if out["gone_after"] is not None else "not within the wait"
        pool = f" (the ready labs: {args.ready_labs})" if args.ready_labs else ""
        print(f"  after leaving:                  {out['alive_after']} kernels alive 2 s later{pool}, "
              f"{out['learners_alive_after']} of them learners' "
              f"({sum(r.left_with_shutdown is False for r in res)} tabs left without the shutdown request); "
              f"every learner's kernel gone, {args.ready_labs} kernels in all, after {gone} "
              f"(cull: idle {args.idle_seconds} s, "
              f"checked every {args.cull_interval} s)")
    errors = [f"{r.name} ({r.lab}): {e}" for r in res for e in r.errors] + \
             [f"chromium: {e}" for b in out["browsers"] for e in b["errors"]]
    if out["abuse"]:
        print(f"  abusive learner:                {out['abuse']}")
    for e in errors[:15]:
        print(f"  ! {e}")
    if len(errors) > 15:
        print(f"  ! ... and {len(errors) - 15} more")
    return {"tables": len(tables), "learners": len(res), "pages_with_app": with_app,
            "p95_action": p95(replied), "p95_table": p95(tables),
            "errors": errors, "no_reply": len(lab_actions) - len(replied), "actions": len(lab_actions),
            "alive_after": out["alive_after"],
            "learners_alive_after": out["learners_alive_after"], "gone_after": out["gone_after"], "machine": m}


def check_records(folder: str, session: str, results: list) -> dict:
    """The class database against what the pages hold (issue 21): every learner's page keeps its own results
    file (the records its kernel made, the Download my results link); the database must hold exactly those,
    each once: nothing lost, nothing doubled, nothing of anyone else."""
    from collections import Counter

    from safari_kit.class_results.class_records import to_dict
    from safari_kit.class_results.class_store import ResultStore
    from safari_kit.class_results.results_file import parse_results

    def key(r) -> str:
        return json.dumps(to_dict(r), sort_keys=True, default=str)

    pages = [rec for r in results if r.results_text for rec in parse_results(r.results_text, r.name)]
    with ResultStore(folder, session, create=False) as store:
        stored = store.records()
    in_db, in_pages = Counter(map(key, stored)), Counter(map(key, pages))
    kinds = Counter(r.kind for r in stored)
    out = {"stored": len(stored), "in_pages": len(pages), "kinds": dict(kinds),
           "lost": sum((in_pages - in_db).values()), "extra": sum((in_db - in_pages).values()),
           "doubled": sum(n - 1 for n in Counter((r.learner, r.seq) for r in stored).values() if n > 1),
           "joined": sum(bool(r.nickname) for r in results), "with_records": sum(bool(r.results_text) for r in results)}
    print(f"  class records (--record):       {out['stored']} in the database, {out['in_pages']} in the "
          f"{out['with_records']} pages' own results files ({out['joined']} joined); lost {out['lost']}, "
          f"not from a page {out['extra']}, doubled {out['doubled']}; by kind {dict(kinds)}")
    return out


async def one_run(args, abusive: bool) -> dict:
    from tests.server.class_server import class_server

    label = "with one abusive learner" if abusive else "the class"
    if args.url:
        monitor = Monitor(args.server_pid)
        monitor.start()
        try:
            out = await run_class(args.url, args, monitor, abusive)
        finally:
            monitor.stop()
        return report(label, out, args)
    options = ["--idle-seconds", str(args.idle_seconds), "--cull-interval", str(args.cull_interval),
               "--max-message-kib", str(args.max_message_kib), "--ready-labs", str(args.ready_labs),
               *args.server_arg]
    folder = ""
    if args.record:  # issue 21: recording on, into a fresh folder; checked against the pages afterwards
        import tempfile

        folder = tempfile.mkdtemp(prefix="safari-load-results-")
        options += ["--results", folder, "--session", "load"]
    with class_server(*options, app=True) as srv:
        pool = ""
        if args.ready_labs:  # a teacher starts the server before the lesson: the ready labs are ready
            ready = await wait_for_ready_labs(srv, 300)
            pool = f", {args.ready_labs} ready labs ready after {ready:.0f} s" if ready else ", ready labs NOT ready"
        monitor = Monitor(srv.proc.pid)
        idle = monitor.sample(pss=True)
        print(f"server {srv.url} ({' '.join(options)}{pool}): idle {idle['rss'] / 2**20:.0f} MiB RSS with "
              f"{idle['kernels']} kernels; load average {os.getloadavg()}")
        monitor.start()
        try:
            out = await run_class(srv.url, args, monitor, abusive)
        finally:
            monitor.stop()
        figures = report(label, out, args)
        if folder:
            figures["records"] = check_records(folder, "load", out["results"])
        return figures


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--minutes", type=float, default=3)
    ap.add_argument("--spread", type=float, default=10, help="learners arrive within this many seconds")
    ap.add_argument("--browsers", type=int, default=2, help="real Chromium pages beside the raw learners")
    ap.add_argument("--abusive", action="store_true", help="run twice: without and with one abusive learner")
    ap.add_argument("--abusive-only", action="store_true",
                    help="only the run with the abusive learner (to compare with an earlier run's figures)")
    ap.add_argument("--abuse", default="jobs,frames,pages", help="what the abusive learner does (any of these)")
    ap.add_argument("--idle-seconds", type=int, default=600, help="the server's cull time (documented: 600)")
    ap.add_argument("--cull-interval", type=int, default=60, help="the server's cull check (documented: 60)")
    ap.add_argument("--max-message-kib", type=int, default=1024, help="the server's frame cap (documented: 1024)")
    ap.add_argument("--server-arg", action="append", default=[], help="another option for safari-kit class")
    ap.add_argument("--ready-labs", type=int, default=ClassSettings().ready_labs,
                    help="the server's ready labs (documented: %(default)s; 0: each page starts its kernel)")
    ap.add_argument("--record", action="store_true",
                    help="issue 21: record the class's results (--results in a temporary folder); every learner "
                         "joins with a nickname, and the database is checked against the pages' own results files")
    ap.add_argument("--url", help="a running class server (its figures need --server-pid)")
    ap.add_argument("--server-pid", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the figures here")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    print(f"load average before: {os.getloadavg()}; {os.cpu_count()} CPUs")
    figures = {} if args.abusive_only else {"class": asyncio.run(one_run(args, False))}
    if args.abusive_only:
        figures["abusive"] = asyncio.run(one_run(args, True))
    elif args.abusive:
        figures["abusive"] = asyncio.run(one_run(args, True))
        a, b = figures["class"]["p95_action"], figures["abusive"]["p95_action"]
        if a and b:
            print(f"\nothers' action -> reply p95: {a * 1000:.0f} ms without, {b * 1000:.0f} ms with the abusive "
                  f"learner (x{b / a:.2f}; target <= x1.5)")
    print(f"load average after: {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
