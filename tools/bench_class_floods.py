"""The victim's clicks under each flood of issue 26 ("Holding labs and bandwidth", the record flood), on loopback.

    flock /tmp/safari-heavy.lock .venv/bin/python tools/bench_class_floods.py
    flock /tmp/safari-heavy.lock .venv/bin/python tools/bench_class_floods.py --seconds 20 --only sockets,keys
    flock /tmp/safari-heavy.lock .venv/bin/python tools/bench_class_floods.py --tree /tmp/old-h2   # another checkout

A benchmark, not a test: it prints figures and asserts nothing (the tests are
tests/server/test_class_floods.py). It starts ``safari-kit class`` with the kit's
app on 127.0.0.1 (``--results`` a temporary folder, ``--max-labs``, the documented
defaults otherwise, or the code of ``--tree``: a checkout such as a ``git worktree``
of 9bdb9c7, whose server then runs with only the options it knows). A few *victim*
learners (tests/server/class_learners.py, each from its own 127.0.0.x) open the
Identification lab and click at a human pace the whole run; each phase lasts
``--seconds``:

* ``baseline``: the victims alone;
* ``sockets``: one page opens 6 websockets on its own lab (its own page's 7th) and sends
  a text box's update just under the 1 MiB size cap on each every ``--socket-gap`` seconds (3: each connection under
  the old per-connection budget, 20 MB per 10 s in all, as in the issue; 0: flat out),
  reconnecting whenever the server closes one;
* ``holding``: one learner from 6 addresses (127.0.0.60-65, a new browser each page)
  takes every lab it can, connects, and stays silent; a classmate asks for a page every
  5 s until one opens (how long; the phase lasts until then, at most ``--hold-max``);
* ``keys``: wrong teacher's keys from 20 addresses as fast as the server answers;
* ``records``: 3 joined pages press Simulate in the Simulation lab as fast as it answers.

Printed per phase: the victims' click -> reply median and p95 (and their ratio to the
baseline; issue 26's target: p95 <= 1.5x), and what the flood did: bytes the flooding
page sent and was sent, statuses, log lines, records.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402

from tests.server.class_learners import SIMULATION, RawLearner, encode_v1, message  # noqa: E402
from tests.server.class_server import free_port  # noqa: E402

PHASES = ("baseline", "sockets", "holding", "keys", "records")
NEW_OPTIONS = ("--reclaim-after", "--labs-per-browser", "--labs-per-address", "--sockets-per-lab")


# ----------------------------------------------------------------------------- the server
class ServerFiles:
    """What a flood reads of the server: its log and its results folder (a flood runs in a process of its own)."""

    def __init__(self, log: Path, results: Path):
        self.log, self.results = log, results

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def records(self) -> int:
        db = self.results / "bench.sqlite3"
        if not db.exists():
            return 0
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
            return con.execute("select count(*) from records").fetchone()[0]


class Server(ServerFiles):
    def __init__(self, tree: Path, max_labs: int, ready_labs: int, extra: list[str]):
        self.home = Path(tempfile.mkdtemp(prefix="safari-floods-"))
        (self.home / "notebooks").mkdir()
        shutil.copy(tree / "notebooks" / "app.ipynb", self.home / "notebooks" / "app.ipynb")
        shutil.copytree(tree / "data", self.home / "data")
        self.results = self.home / "results"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = self.home / "server.log"
        env = {k: v for k, v in os.environ.items() if k not in {"JUPYTER_PATH", "JUPYTER_CONFIG_PATH"}}
        env.update(JUPYTER_CONFIG_DIR=str(self.home / "config"), JUPYTER_DATA_DIR=str(self.home / "jdata"),
                   JUPYTER_RUNTIME_DIR=str(self.home / "runtime"), IPYTHONDIR=str(self.home / "ipython"),
                   PYTHONNOUSERSITE="1", PYTHONPATH=str(tree))
        cmd = [sys.executable, "-m", "safari_kit", "class", str(self.home / "notebooks" / "app.ipynb"),
               "--ip", "127.0.0.1", "--port", str(self.port), "--results", str(self.results), "--session", "bench",
               "--max-labs", str(max_labs), "--ready-labs", str(ready_labs), *extra]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(cmd, cwd=self.home, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)

    def wait(self, ready_labs: int, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the class server exited:\n{self.log_text()[-3000:]}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.url}voila/static/voila.js", timeout=2).close()
                if ready_labs == 0 or "labs ready" in self.log_text() or \
                        self.log_text().count("Kernel started") >= ready_labs:
                    return
            time.sleep(0.5)
        raise TimeoutError(f"the class server was not ready in {timeout} s:\n{self.log_text()[-3000:]}")

    def token(self) -> str:
        found = re.search(r"/teacher\?token=([A-Za-z0-9_-]+)", self.log_text())
        return found.group(1) if found else ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
        shutil.rmtree(self.home, ignore_errors=True)


class CountingLearner(RawLearner):
    """A raw learner that counts the bytes the server sends it and the frames it sends."""

    received = 0
    sent = 0

    async def _read(self) -> None:
        while True:
            frame = await self.ws.read_message()
            if frame is None:
                self.closed_code = self.ws.close_code
                for entry in self.pending.values():
                    if not entry["done"].done():
                        entry["done"].set_result(None)
                return
            self.received += len(frame)
            if isinstance(frame, str):
                continue
            from tests.server.class_learners import decode_v1

            self._on_message(*decode_v1(frame))


# ----------------------------------------------------------------------------- the victims
class Victims:
    """Learners clicking at a human pace the whole run; each click's reply time is kept with the phase it fell in."""

    def __init__(self, url: str, n: int, pace: tuple[float, float], seed: int):
        rng = random.Random(seed)
        self.learners = [RawLearner(url, f"127.0.0.{10 + i}", f"victim{i}", random.Random(rng.random()))
                         for i in range(n)]
        self.pace, self.phase = pace, "setup"
        self.samples: dict[str, list[float]] = {}
        self.lost: dict[str, int] = {}
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        for lr in self.learners:
            if await lr.open_page() != 200 or not lr.kernel_id:
                raise RuntimeError(f"a victim's page answered {lr.result.status}: {lr.result.errors}")
            await lr.connect()
            await lr.open_lab("Safari Witness", "Identification")
            await asyncio.wait_for(lr.table_event.wait(), 60)
        self.tasks = [asyncio.ensure_future(self._click(lr)) for lr in self.learners]

    async def _click(self, lr: RawLearner) -> None:
        while lr.closed_code is None:
            await asyncio.sleep(lr.rng.uniform(*self.pace))
            phase, before = self.phase, len(lr.result.samples)
            await lr.act()
            for s in lr.result.samples[before:]:
                if s.seconds is None:
                    self.lost[phase] = self.lost.get(phase, 0) + 1
                else:
                    self.samples.setdefault(phase, []).append(s.seconds)

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        for lr in self.learners:
            await lr.close()


def stats(seconds: list[float]) -> tuple[int, float | None, float | None]:
    s = sorted(seconds)
    if not s:
        return 0, None, None
    return len(s), statistics.median(s), s[min(len(s) - 1, max(0, round(0.95 * len(s)) - 1))]


# ----------------------------------------------------------------------------- the floods
async def flood_sockets(url: str, seconds: float, gap: float) -> dict:
    """One page, 6 websockets on its lab, a frame just under 1 MiB on each every ``gap`` seconds (3 s: each
    connection stays under the old per-connection budget, 6 of them send 20 MB per 10 s, the issue's flood;
    0: as fast as they go); reconnect when closed. ``sent`` counts the bytes written, accepted or not."""
    rng = random.Random(6)
    first = CountingLearner(url, "127.0.0.50", "flooder", rng)
    if await _page(first) != 200 or not first.kernel_id:
        return {"error": f"flooder's page answered {first.result.status}"}
    print("GO", flush=True)
    out = {"sent": 0, "received": 0, "closes": {}, "reconnects": 0, "refused_connects": 0}
    # what the flood sends: a widget update of a text box just under the 1 MiB frame cap, as a page would send
    # it (the kernel applies it and echoes it back to every connection of the lab: tools/load_class.py's frames)
    await first.connect()
    await first.open_lab("Safari Witness", "Identification")
    await asyncio.sleep(1)
    texts = [cid for cid in first.shown(first.chooser_parts()["stage"])
             if first.models[cid].get("_model_name") == "TextModel"] or [first.chooser_parts()["lab"]]
    value = "7" * (1000 * 1024)

    def frame() -> bytes:  # a new message id each time: the kernel refuses a message it has seen
        return encode_v1("shell", message("comm_msg", {"comm_id": texts[0], "data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}}, first.session))

    end = time.perf_counter() + seconds
    socks: list[CountingLearner] = []

    async def one(i: int) -> None:
        while time.perf_counter() < end:
            me = CountingLearner(url, "127.0.0.50", f"socket{i}", rng)
            me.cookies, me.kernel_id = dict(first.cookies), first.kernel_id
            socks.append(me)
            try:
                me.ws = await asyncio.wait_for(_ws(me), 30)
            except Exception:  # noqa: BLE001 - refused (429 while the lab is over its budget)
                out["refused_connects"] += 1
                await asyncio.sleep(0.5)
                continue
            me.reader = asyncio.ensure_future(me._read())
            out["reconnects"] += 1
            while time.perf_counter() < end and me.closed_code is None:
                try:
                    data = frame()
                    await me.ws.write_message(data, binary=True)
                    out["sent"] += len(data)
                except Exception:  # noqa: BLE001 - closed under us
                    break
                await asyncio.sleep(gap)
            code = me.closed_code if me.closed_code is not None else "open"
            out["closes"][str(code)] = out["closes"].get(str(code), 0) + 1
            await me.close()
            await asyncio.sleep(0.2)

    await asyncio.gather(*(one(i) for i in range(6)))
    out["received"] = first.received + sum(s.received for s in socks)
    await first.close()
    out["reconnects"] -= 6
    return out


async def _ws(me: RawLearner):
    from tornado.websocket import websocket_connect

    from tests.server.class_learners import PROTOCOL

    ws_url = me.url.replace("http://", "ws://") + f"api/kernels/{me.kernel_id}/channels?session_id={me.session}"
    req = HTTPRequest(ws_url, network_interface=me.ip, headers={"Cookie": me.cookie_header()})
    return await websocket_connect(req, subprotocols=[PROTOCOL], max_message_size=64 * 1024 * 1024)


async def flood_holding(url: str, seconds: float, hold_max: float) -> dict:
    """One learner from 6 addresses takes and holds labs (silent); a classmate asks every 5 s until it gets one."""
    rng = random.Random(12)
    held: list[RawLearner] = []
    statuses: dict[str, int] = {}
    t0 = time.perf_counter()
    stop = asyncio.Event()

    full = asyncio.Event()

    async def take() -> None:
        i = 0
        while not stop.is_set():
            me = RawLearner(url, f"127.0.0.{60 + i % 6}", f"holder{i}", rng)
            i += 1
            code = await _page(me)
            statuses[str(code)] = statuses.get(str(code), 0) + 1
            if code == 200 and me.kernel_id:
                with contextlib.suppress(Exception):
                    await me.connect()  # then silent
                held.append(me)
            elif statuses.get("503", 0) >= 2:
                full.set()
            await asyncio.sleep(0.3 if code == 200 else 2.0)

    taker = asyncio.ensure_future(take())
    with contextlib.suppress(asyncio.TimeoutError):  # it takes what it can first
        await asyncio.wait_for(full.wait(), 120)
    print("GO", flush=True)
    full_at = time.perf_counter()
    classmate_in, tries = None, 0
    while time.perf_counter() - full_at < max(seconds, hold_max):
        classmate = RawLearner(url, "127.0.0.70", f"classmate{tries}", rng)
        tries += 1
        code = await _page(classmate)
        if code == 200 and classmate.kernel_id:
            classmate_in = time.perf_counter() - full_at
            await classmate.shutdown()
            break
        await asyncio.sleep(5)
    stop.set()
    await taker
    alive_held = sum(1 for h in held if h.closed_code is None)
    reclaimed = sum(1 for h in held if h.closed_code == 4004)
    for h in held:
        with contextlib.suppress(Exception):
            await h.shutdown()
        await h.close()
    return {"pages_taken": len(held), "still_held_at_end": alive_held, "reclaimed": reclaimed,
            "holder_statuses": statuses, "server_full_after_s": round(full_at - t0, 1),
            "classmate_in_after_full_s": classmate_in and round(classmate_in, 1), "classmate_tries": tries}


async def _page(me: RawLearner) -> int:
    """Open the app page as a browser does: a page saying its lab is starting asks again by itself."""
    for _ in range(30):
        code = await me.open_page()
        if code != 200 or me.kernel_id:
            return code
        await asyncio.sleep(2)
    return code


async def flood_keys(url: str, token: str, seconds: float, server: ServerFiles) -> dict:
    wrong = (token[:-1] + ("A" if token[-1:] != "A" else "B")) if token else "x" * 32
    statuses: dict[str, int] = {}
    before = len(server.log_text().splitlines())
    end = time.perf_counter() + seconds
    client = AsyncHTTPClient()
    print("GO", flush=True)

    async def one(i: int) -> None:
        while time.perf_counter() < end:
            req = HTTPRequest(f"{url}teacher?token={wrong}", network_interface=f"127.0.2.{1 + i}",
                              follow_redirects=False, request_timeout=30)
            resp = await client.fetch(req, raise_error=False)
            statuses[str(resp.code)] = statuses.get(str(resp.code), 0) + 1

    await asyncio.gather(*(one(i) for i in range(20)))
    await asyncio.sleep(1)
    lines = server.log_text().splitlines()
    right = await client.fetch(HTTPRequest(f"{url}teacher?token={token}", network_interface="127.0.0.99",
                                           follow_redirects=False), raise_error=False)
    return {"requests": sum(statuses.values()), "statuses": statuses, "log_lines_added": len(lines) - before,
            "teacher_address_line_from_the_end": _from_end(lines, "teacher?token="),
            "right_key_from_another_address": right.code}


def _from_end(lines: list[str], text: str) -> int | None:
    for i, line in enumerate(reversed(lines)):
        if text in line:
            return i
    return None


async def flood_records(url: str, seconds: float, server: ServerFiles) -> dict:
    """3 joined pages press Simulate as fast as the lab answers; bytes each page is sent."""
    rng = random.Random(21)
    pages = [CountingLearner(url, f"127.0.0.{80 + i}", f"recorder{i}", rng) for i in range(3)]
    for i, p in enumerate(pages):
        if await _page(p) != 200 or not p.kernel_id:
            return {"error": f"a recording page answered {p.result.status}"}
        await p.connect()
        await p.join(f"Flood{i}")
        await p.open_lab(*SIMULATION)
        await asyncio.sleep(1.0)
    before = server.records()
    for p in pages:
        p.received = 0
    print("GO", flush=True)
    end = time.perf_counter() + seconds
    presses = [0, 0, 0]

    async def press(i: int, p: CountingLearner) -> None:
        stage = p.chooser_parts()["stage"]
        runs = [cid for cid in p.shown(stage) if p.models[cid].get("_model_name") == "ButtonModel"
                and p.models[cid].get("description") == "Simulate"]
        while runs and time.perf_counter() < end and p.closed_code is None:
            await p.press(runs[0], None)
            presses[i] += 1

    await asyncio.gather(*(press(i, p) for i, p in enumerate(pages)))
    await asyncio.sleep(1)
    out = {"presses": sum(presses), "records_added": server.records() - before,
           "bytes_to_each_page": [p.received for p in pages],
           "closed": [p.closed_code for p in pages]}
    for p in pages:
        with contextlib.suppress(Exception):
            await p.shutdown()
        await p.close()
    return out


# ----------------------------------------------------------------------------- the run
async def run(args) -> dict:
    tree = Path(args.tree).resolve()
    extra = list(args.server_arg)
    new_code = (tree / "safari_kit" / "server" / "lab_holds.py").exists()
    if not new_code:
        extra = [a for a in extra if a.split("=")[0] not in NEW_OPTIONS]
    server = Server(tree, args.max_labs, args.ready_labs, extra)
    figures: dict = {"tree": str(tree), "commit": _commit(tree), "phases": {}}
    try:
        await asyncio.get_running_loop().run_in_executor(None, server.wait, args.ready_labs)
        victims = Victims(server.url, args.victims, (args.pace_min, args.pace_max), args.seed)
        await victims.start()
        for phase in PHASES:
            if phase not in args.only:
                continue
            t0 = time.perf_counter()
            if phase == "baseline":
                victims.phase = phase
                await asyncio.sleep(args.seconds)
                flood: dict = {}
            else:  # the flooder in a process of its own: its event loop is not the victims'
                flood = await run_flood(phase, server, args, victims)
            flood["seconds"] = round(time.perf_counter() - t0, 1)
            victims.phase = f"after {phase}"
            figures["phases"][phase] = flood
            report_phase(phase, victims, flood)
            await asyncio.sleep(args.pause)
        figures["victims"] = {p: dict(zip(("n", "median", "p95"), stats(s), strict=True))
                              for p, s in victims.samples.items()}
        figures["victims_lost"] = victims.lost
        await victims.stop()
    finally:
        figures["server_warnings"] = sum("WARNING" in line for line in server.log_text().splitlines())
        figures["tracebacks"] = server.log_text().count("Traceback")
        server.stop()
    return figures


async def run_flood(phase: str, server: Server, args, victims: Victims) -> dict:
    """Run one flood in a child process; the victims' clicks count for it from the child's "GO" (its setup done)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--flood", phase, "--url", server.url,
           "--seconds", str(args.seconds), "--hold-max", str(args.hold_max), "--token", server.token(),
           "--socket-gap", str(args.socket_gap),
           "--log", str(server.log), "--results-folder", str(server.results)]
    child = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE)
    assert child.stdout is not None
    result: dict = {"error": "the flood printed nothing"}
    while True:
        line = await child.stdout.readline()
        if not line:
            break
        text = line.decode().strip()
        if text == "GO":
            victims.phase = phase
        elif text.startswith("{"):
            result = json.loads(text)
    await child.wait()
    return result


async def one_flood(args) -> dict:
    files = ServerFiles(Path(args.log), Path(args.results_folder))
    if args.flood == "sockets":
        return await flood_sockets(args.url, args.seconds, args.socket_gap)
    if args.flood == "holding":
        return await flood_holding(args.url, args.seconds, args.hold_max)
    if args.flood == "keys":
        return await flood_keys(args.url, args.token, args.seconds, files)
    return await flood_records(args.url, args.seconds, files)


def _commit(tree: Path) -> str:
    with contextlib.suppress(Exception):
        return subprocess.run(["git", "-C", str(tree), "log", "--oneline", "-1"], capture_output=True, text=True,
                              check=True).stdout.strip()
    return "?"


def report_phase(phase: str, victims: Victims, flood: dict) -> None:
    base = stats(victims.samples.get("baseline", []))
    n, med, p95 = stats(victims.samples.get(phase, []))
    line = f"{phase:9s} victims' click -> reply: n={n}"
    if med is not None and p95 is not None:
        line += f"  median {med * 1000:.0f} ms  p95 {p95 * 1000:.0f} ms"
        if phase != "baseline" and base[1] and base[2]:
            line += f"  (x{med / base[1]:.2f} / x{p95 / base[2]:.2f} of the baseline)"
    lost = victims.lost.get(phase)
    if lost:
        line += f"  {lost} clicks without a reply in 30 s"
    print(line, flush=True)
    if flood:
        print("          " + json.dumps(flood), flush=True)


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=str(REPO), help="the checkout whose server runs (default: this one)")
    ap.add_argument("--seconds", type=float, default=30, help="each phase's length")
    ap.add_argument("--hold-max", type=float, default=200, help="the holding phase lasts at most this long, waiting "
                                                                 "for the classmate to get in")
    ap.add_argument("--pause", type=float, default=5, help="seconds between phases")
    ap.add_argument("--socket-gap", type=float, default=3.0,
                    help="seconds between two frames on each of the 6 sockets (3: the issue's 20 MB per 10 s; "
                         "0: flat out)")
    ap.add_argument("--victims", type=int, default=5)
    ap.add_argument("--pace-min", type=float, default=1.0)
    ap.add_argument("--pace-max", type=float, default=2.5)
    ap.add_argument("--max-labs", type=int, default=14, help="the server's --max-labs (a small server)")
    ap.add_argument("--ready-labs", type=int, default=6)
    ap.add_argument("--only", default=",".join(PHASES), help=f"phases to run (of {','.join(PHASES)})")
    ap.add_argument("--server-arg", action="append", default=[], help="another option for safari-kit class")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--json", help="write the figures here")
    for inner in ("--flood", "--url", "--token", "--log", "--results-folder"):  # a flood's own process
        ap.add_argument(inner, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.only = tuple(p.strip() for p in args.only.split(",") if p.strip())
    if "baseline" not in args.only:
        args.only = ("baseline", *args.only)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.flood:
        print(json.dumps(asyncio.run(one_flood(args))), flush=True)
        return 0
    print(f"bench_class_floods: {' '.join(sys.argv)}", flush=True)
    figures = asyncio.run(run(args))
    print(f"server: {figures['commit']}; warnings in its log: {figures['server_warnings']}, "
          f"tracebacks: {figures['tracebacks']}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
