"""A class through JupyterHub (issue 29, "Load through the hub"): hub users log in and play one class service.

    flock /tmp/safari-heavy.lock .venv/bin/python tools/load_hub.py                 # 30 users within 10 s, 2 min
    flock /tmp/safari-heavy.lock .venv/bin/python tools/load_hub.py --learners 8 --minutes 1 --ready-labs 10

A benchmark, not a test: it prints figures and asserts nothing. Targets of issue 29 on a 2-core machine:
30 hub users logging in within 10 s; open -> first table p95 <= 5 s; action -> reply p95 <= 100 ms; memory.

It starts a real hub on loopback as the tests do (tests/hub/hubrun.py: the kit's shipped
``jupyterhub_config.py`` with one class, 7b; a dummy login; configurable-http-proxy from npm), with the
class service's ready labs as documented (``--ready-labs``, default 30) and waits until they are ready, as
a teacher starts the hub before the lesson. Each learner (tools/load_class.py's raw websocket learners,
tests/server/class_learners.py, each from its own loopback address) then, within ``--spread`` seconds:
logs in on the hub's form, follows the OAuth redirects to the class service (the service's own login
cookie), opens the app's page through the hub's proxy, opens a table lab, and plays it at a human pace
for ``--minutes``; then all leave (the page's unload shutdown).

Reported: login (form + OAuth) seconds, open -> first table (the page's GET to the table: as
tools/load_class.py), login -> table, action -> reply, the memory of the class service (its process and
its labs) and of the whole hub (hub, proxy, service, labs), CPU.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402

from tests.hub.hubrun import PASSWORD, running_hub  # noqa: E402
from tests.server.class_learners import RawLearner, leave, play_learner  # noqa: E402
from tools.load_class import GiB, Monitor, summary  # noqa: E402


async def hub_login(learner: RawLearner, hub_url: str, name: str) -> float:
    """The hub's login form, then the OAuth redirects to the class service, as a browser follows them; the
    learner's cookies (hub's and service's) end in ``learner.cookies``. Returns the seconds it took."""
    start = time.perf_counter()

    async def fetch(url: str, **kw):
        req = HTTPRequest(url, network_interface=learner.ip, follow_redirects=False, connect_timeout=120,
                          request_timeout=120, headers={"Cookie": learner.cookie_header(), **kw.pop("headers", {})},
                          **kw)
        resp = await AsyncHTTPClient().fetch(req, raise_error=False)
        for line in resp.headers.get_list("Set-Cookie"):
            cookie, _, rest = line.partition("=")
            value = rest.split(";", 1)[0]
            if value in ("", '""'):
                learner.cookies.pop(cookie.strip(), None)
            else:
                learner.cookies[cookie.strip()] = value
        return resp

    form = await fetch(hub_url + "hub/login")
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.body.decode(errors="replace"))
    body = urllib.parse.urlencode({"username": name, "password": PASSWORD, **({"_xsrf": xsrf.group(1)} if xsrf
                                                                                else {})})
    resp = await fetch(hub_url + "hub/login?next=%2Fhub%2Fhome", method="POST", body=body)
    if resp.code not in (302, 303):
        raise RuntimeError(f"the hub's login answered {resp.code}")
    url = learner.url  # the class service: its OAuth redirects until its page would be served
    for _ in range(8):
        resp = await fetch(url)
        if resp.code not in (301, 302, 303):
            break
        url = urllib.parse.urljoin(url, resp.headers["Location"])
        if url.rstrip("/") == learner.url.rstrip("/"):
            break  # back at the class's page with the service's cookie: the learner opens it next
    return time.perf_counter() - start


async def one_learner(learner: RawLearner, hub_url: str, name: str, delay: float, seconds: float) -> dict:
    await asyncio.sleep(delay)
    t0 = time.perf_counter()
    try:
        login = await hub_login(learner, hub_url, name)
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
        learner.result.errors.append(f"login: {type(exc).__name__}: {exc}")
        return {"login": None, "to_table": None}
    result = await play_learner(learner, 0, seconds)
    to_table = (login + result.table_seconds) if result.table_seconds is not None else None
    return {"login": login, "to_table": to_table, "since_start": time.perf_counter() - t0}


async def run(args, hub) -> None:
    url = hub.service_url("7b")
    rng = random.Random(args.seed)
    learners = [RawLearner(url, f"127.0.0.{10 + i}", f"learner-{i}", random.Random(rng.random()))
                for i in range(args.learners)]
    service = Monitor(hub.service_pid("7b"))
    whole = Monitor(hub.proc.pid)
    idle_service, idle_whole = service.sample(pss=True), whole.sample(pss=True)
    print(f"hub {hub.url}, class service 7b ({' '.join(args.options)}): idle: service + {idle_service['kernels']} "
          f"labs {idle_service['rss'] / 2**20:.0f} MiB RSS; the whole hub {idle_whole['rss'] / 2**20:.0f} MiB RSS; "
          f"load average {os.getloadavg()}")
    service.start()
    whole.start()
    t0 = time.monotonic()
    outs = await asyncio.gather(*(one_learner(lr, hub.url, f"learner{i}", rng.uniform(0, args.spread),
                                              args.minutes * 60) for i, lr in enumerate(learners)))
    t1 = time.monotonic()
    await asyncio.gather(*(leave(lr, True) for lr in learners))
    service.stop()
    whole.stop()
    res = [lr.result for lr in learners]
    logins = [o["login"] for o in outs if o["login"] is not None]
    tables = [r.table_seconds for r in res if r.table_seconds is not None]
    to_table = [o["to_table"] for o in outs if o["to_table"] is not None]
    replies = [s.seconds for r in res for s in r.samples if s.kind in ("table", "button", "toggle")]
    got = [x for x in replies if x is not None]
    print(f"\n== {len(res)} hub users arriving within {args.spread:g} s, {args.minutes:g} min of play, through the "
          f"hub's proxy")
    print(f"  logged in (form + OAuth):       {len(logins)}/{len(res)}; {summary(logins, 's')}")
    print(f"  learners with a table:          {len(tables)}/{len(res)}")
    print(f"  open -> first table:            {summary(tables, 's')}")
    print(f"  login -> first table:           {summary(to_table, 's')}")
    print(f"  action -> reply, table labs:    {summary(got)}; no reply: {len(replies) - len(got)}")
    for label, monitor in (("class service + labs", service), ("whole hub (hub, proxy, service, labs)", whole)):
        m = monitor.report(t0, t1)
        if m:
            pss = f", PSS {m['peak_pss'] / GiB:.2f} GiB" if m["peak_pss"] else ""
            print(f"  memory, {label}: peak RSS {m['peak_rss'] / GiB:.2f} GiB with {m['peak_rss_kernels']} labs{pss}; "
                  f"CPU mean {m['cpu_percent']:.0f} %, peak {m['peak_cpu_percent']:.0f} %")
    errors = [f"{r.name}: {e}" for r in res for e in r.errors]
    for e in errors[:15]:
        print(f"  ! {e}")
    if len(errors) > 15:
        print(f"  ! ... and {len(errors) - 15} more")


def wait_for_ready_labs(hub, n: int, timeout: float) -> float | None:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if f"{n} labs ready: the class can come in now" in hub.log_text():
            return time.monotonic() - start
        time.sleep(1)
    return None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--learners", type=int, default=30)
    p.add_argument("--spread", type=float, default=10.0, help="seconds within which the learners log in")
    p.add_argument("--minutes", type=float, default=2.0)
    p.add_argument("--ready-labs", type=int, default=30)
    p.add_argument("--seed", type=int, default=29)
    args = p.parse_args(argv)
    args.options = ["--ready-labs", str(args.ready_labs)]
    groups = {"7b": [f"learner{i}" for i in range(args.learners)]}
    start = time.monotonic()
    with running_hub(classes=("7b",), options=tuple(args.options), groups=groups) as hub:
        print(f"hub up in {time.monotonic() - start:.0f} s")
        if args.ready_labs:
            ready = wait_for_ready_labs(hub, args.ready_labs, 600)
            print(f"{args.ready_labs} ready labs " + (f"ready {ready:.0f} s later" if ready else "NOT ready"))
        asyncio.run(run(args, hub))
    return 0


if __name__ == "__main__":
    sys.exit(main())
