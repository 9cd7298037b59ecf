"""Where the app page's CPU goes on a second visit, page and kernel worker both (issue 31, session 4).

    .venv/bin/python tools/profile_site_page.py --site /tmp/site-off --cpu-quota 0.25 [--top 15] [--save t.json]
    .venv/bin/python tools/profile_site_page.py --site /tmp/site-off --lesson     # a lesson page instead
    .venv/bin/python tools/profile_site_page.py --load t.json          # the figures of a saved trace again

``--lesson``: lesson 02 in JupyterLite (``lab/index.html?path=...``) until its kernel is idle, instead of the
app page until Identification's cards are on the table (issue 31, session 9).

A diagnostic, not a test. It serves a built site on 127.0.0.1 (the site's serve.py handler, as
tools/measure_site.py), makes a first visit of the app page in a new browser profile (not recorded), then
records a Chromium trace of the **second visit** (the same profile: cache and service worker) from opening
the page until Identification's cards are on the table (tools/measure_site.py's learner, ``--think`` 0).

The trace is Chromium's own (the DevTools protocol's ``Tracing`` domain, the timeline and the V8 sampling
profiler's categories): it covers every thread of the browser, so the kernel's web worker too, which a
``Profiler`` session on the page would miss. From it:

* each thread's **CPU-ms**: the thread time (``tdur``) of its top-level tasks;
* JavaScript **self time** by script and by function, from the sampling profiler's samples. Samples are
  wall-clock intervals: under a CPU cap a descheduled thread's wait lands in the sample before it, so each
  thread's sampled ms are scaled to its CPU-ms (the shares are the samples', the total the thread's);
* the renderer's own work (style, layout, paint, parsing style sheets and HTML, compiling) from the timeline's
  events, by their thread time (their own time: nested events of the same kinds are not counted twice).

Scripts are named by their file; a Voici/JupyterLite chunk (``1449.js``) by the npm packages whose sources it
holds (read from the chunk's webpack module paths where it keeps them).
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

import measure_site  # noqa: E402
from cpu_cap import capped_chromium  # noqa: E402
from tests.browser.site_fixtures import KERNEL_IDLE, LESSON  # noqa: E402

CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute",
              "disabled-by-default-v8.cpu_profiler", "blink", "loading", "blink.user_timing",
              # what V8 does with Pyodide's WebAssembly (compiling it on the renderer's thread pool: session 9)
              "v8.wasm", "disabled-by-default-v8.wasm.detailed"]
#: the timeline's events that are the renderer's own work (not JavaScript), by their thread time
RENDER_EVENTS = {"UpdateLayoutTree": "style (recalculate)", "Layout": "layout", "Paint": "paint",
                 "PrePaint": "pre-paint", "Layerize": "layerize", "ParseAuthorStyleSheet": "parse style sheets",
                 "ParseHTML": "parse HTML", "v8.compile": "compile JS", "V8.CompileCode": "compile JS",
                 "v8.compileModule": "compile JS", "wasm.CompileLazy": "compile wasm",
                 "v8.wasm.compiledModule": "compile wasm", "MajorGC": "GC", "MinorGC": "GC",
                 "V8.GC_SCAVENGER": "GC", "BlinkGC.AtomicPhase": "GC", "HitTest": "hit test",
                 "ScheduleStyleRecalculation": None, "IntersectionObserverController::computeIntersections":
                 "intersection observers", "FireAnimationFrame": None}


def lesson_to_idle(page, url: str, counter, cpu_seconds=lambda: None, _think: float = 0) -> dict:
    """One visit of lesson 02 in JupyterLite until its kernel is idle (tests/browser/site_fixtures.py's test)."""
    counter.reset()
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    page.goto(f"{url}lab/index.html?path={LESSON}", wait_until="commit")
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=600_000, polling=200)
    seconds, cpu = time.perf_counter() - t0, cpu_seconds()
    return {"seconds": seconds, "chooser_seconds": seconds, "bytes": counter.bytes,
            "cpu_seconds": None if cpu is None or cpu0 is None else cpu - cpu0}


def record(site: Path, quota: float | None, chromium: str, lesson: bool = False) -> list[dict]:
    """The trace events of the app page's (``lesson``: lesson 02's) second visit (a first visit made before, not
    recorded)."""
    visit = lesson_to_idle if lesson else measure_site.app_to_playable
    what = "an idle kernel" if lesson else "a playable lab"
    from playwright.sync_api import sync_playwright

    counter = measure_site.Counter()
    server, url = measure_site.serve(site, counter)
    profile = tempfile.mkdtemp(prefix="profile-site-page-")
    cap = capped_chromium(chromium, quota if quota else measure_site.UNCAPPED)
    exe, cpu_seconds = cap.__enter__()
    try:
        with sync_playwright() as pw:
            context = measure_site.learner_browser(pw, exe, profile)
            page = context.new_page()
            page.set_default_timeout(600_000)
            first = visit(page, url, counter, cpu_seconds, 0)
            page.close()
            print(f"first visit (not recorded): {first['seconds']:.1f} s to {what}, "
                  f"{first['cpu_seconds'] or 0:.1f} CPU-s", flush=True)
            page = context.new_page()
            page.set_default_timeout(600_000)
            second, events = traced(context, page, CATEGORIES, lambda: visit(page, url, counter, cpu_seconds, 0))
            context.close()
            print(f"second visit (recorded): {second['seconds']:.1f} s to {what} "
                  f"({second['chooser_seconds']:.1f} s to the chooser), {second['cpu_seconds'] or 0:.1f} CPU-s",
                  flush=True)
    finally:
        cap.__exit__(None, None, None)
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    return events


def traced(context, page, categories: list[str], action):
    """``action()`` while Chromium records a trace of ``categories`` (every thread of the browser, the kernel's
    web worker too): returns what ``action`` returned and the trace's events."""
    cdp = context.new_cdp_session(page)
    done: dict = {}
    cdp.on("Tracing.tracingComplete", lambda ev: done.update(ev))
    cdp.send("Tracing.start", {"transferMode": "ReturnAsStream",
                               "traceConfig": {"includedCategories": categories, "recordMode": "recordContinuously"}})
    result = action()
    cdp.send("Tracing.end")
    deadline = time.time() + 300
    while "stream" not in done and time.time() < deadline:
        page.wait_for_timeout(200)
    chunks: list[str] = []
    while True:
        part = cdp.send("IO.read", {"handle": done["stream"], "size": 4 << 20})
        chunks.append(part["data"])
        if part.get("eof"):
            break
    cdp.send("IO.close", {"handle": done["stream"]})
    data = json.loads("".join(chunks))
    return result, (data["traceEvents"] if isinstance(data, dict) else data)


def thread_names(events: list[dict]) -> dict[tuple, str]:
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    return names


def thread_cpu(events: list[dict]) -> dict[tuple, float]:
    """CPU-ms per thread: the thread time of its top-level tasks (outermost complete events)."""
    spans: dict[tuple, list[tuple[float, float, float]]] = collections.defaultdict(list)
    for e in events:
        top = e.get("cat", "").startswith(("toplevel", "disabled-by-default-devtools"))
        if e.get("ph") == "X" and "tdur" in e and top:
            spans[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e.get("dur", 0), e["tdur"] / 1000))
    out = {}
    for key, items in spans.items():
        items.sort()
        total, end = 0.0, -1.0
        for start, stop, cpu in items:
            if start >= end:  # outermost only
                total += cpu
                end = stop
        out[key] = total
    return out


def render_work(events: list[dict]) -> dict[tuple, collections.Counter]:
    """The renderer's own work per thread (thread-ms), outermost events of the kinds in RENDER_EVENTS."""
    per: dict[tuple, list] = collections.defaultdict(list)
    for e in events:
        label = RENDER_EVENTS.get(e.get("name", ""))
        if label and e.get("ph") == "X" and "tdur" in e:
            per[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e.get("dur", 0), e["tdur"] / 1000, label))
    out: dict[tuple, collections.Counter] = {}
    for key, items in per.items():
        items.sort()
        c: collections.Counter = collections.Counter()
        end = -1.0
        for start, stop, ms, label in items:
            if start >= end:
                c[label] += ms
                end = stop
        out[key] = c
    return out


def samples(events: list[dict]) -> dict[tuple, tuple[dict, collections.Counter]]:
    """Per thread: (node id -> call frame, node id -> sampled self ms) from the sampling profiler's chunks."""
    profiles: dict[tuple, dict] = {}
    for e in events:
        if e.get("name") == "Profile":
            profiles[(e["pid"], e["id"])] = {"tid": e["tid"], "nodes": {}, "samples": [], "deltas": []}
        elif e.get("name") == "ProfileChunk":
            p = profiles.setdefault((e["pid"], e["id"]), {"tid": e["tid"], "nodes": {}, "samples": [], "deltas": []})
            data = e["args"]["data"]
            prof = data.get("cpuProfile", {})
            for n in prof.get("nodes", []):
                p["nodes"][n["id"]] = n["callFrame"]
            p["samples"] += prof.get("samples", [])
            p["deltas"] += data.get("timeDeltas", [])
    out: dict[tuple, tuple[dict, collections.Counter]] = {}
    for (pid, _), p in profiles.items():
        key = (pid, p["tid"])
        nodes, selfms = out.setdefault(key, ({}, collections.Counter()))
        nodes.update(p["nodes"])
        s, d = p["samples"], p["deltas"]
        for i, node in enumerate(s):
            if i + 1 < len(d):
                selfms[node] += max(d[i + 1], 0) / 1000
    return out


def chunk_packages(site: Path) -> dict[str, str]:
    """A chunk file's name -> the npm packages its webpack module paths name (most first), where it keeps them."""
    names = {}
    for f in list(site.glob("voici/build-*/*.js")) + list(site.glob("extensions/**/static/*.js")):
        text = f.read_text(errors="replace")
        found = collections.Counter(re.findall(r"node_modules/((?:@[\w.-]+/)?[\w.-]+)/", text))
        if not found:
            found = collections.Counter(re.findall(r"\"((?:@jupyter[\w-]*|@lumino|@voila-dashboards)/[\w.-]+)\"",
                                                   text))
        if found:
            names[f.name] = ", ".join(p for p, _ in found.most_common(3))
    return names


def script_name(url: str, packages: dict[str, str]) -> str:
    if not url:
        return ""
    tail = url.split("?")[0].rstrip("/").split("/")[-1]
    if url.startswith("http") and "/voici/render/" in url:
        return "the app page's inline scripts"
    pkg = packages.get(tail)
    return f"{tail} ({pkg})" if pkg else tail


def report(events: list[dict], site: Path | None, top: int) -> str:
    names, cpu, render, prof = thread_names(events), thread_cpu(events), render_work(events), samples(events)
    packages = chunk_packages(site) if site else {}
    lines = ["Threads (CPU-ms: the thread time of their top-level tasks):"]
    for key, ms in sorted(cpu.items(), key=lambda kv: -kv[1])[:12]:
        lines.append(f"  {ms:8.0f}  {names.get(key, '?')} {key}")
    total_cpu = sum(cpu.values())
    lines.append(f"  {total_cpu:8.0f}  all threads")
    by_script: collections.Counter = collections.Counter()
    by_func: collections.Counter = collections.Counter()
    for key, (nodes, selfms) in prof.items():
        sampled = sum(ms for n, ms in selfms.items() if nodes.get(n, {}).get("functionName") != "(idle)")
        scale = cpu.get(key, 0) / sampled if sampled else 0
        where = "worker" if "Worker" in names.get(key, "") else names.get(key, "?")
        for n, ms in selfms.items():
            frame = nodes.get(n, {})
            fn = frame.get("functionName") or "(anonymous)"
            if fn == "(idle)":
                continue
            script = script_name(frame.get("url", ""), packages) or fn
            by_script[(where, script)] += ms * scale
            by_func[(where, script, fn, frame.get("lineNumber", -1))] += ms * scale
    lines.append("\nJavaScript self time by script (CPU-ms, each thread's samples scaled to its CPU-ms):")
    for (where, script), ms in by_script.most_common(top):
        lines.append(f"  {ms:8.0f}  [{where}] {script}")
    lines.append("\nBy function:")
    for (where, script, fn, line), ms in by_func.most_common(top):
        lines.append(f"  {ms:8.0f}  [{where}] {fn} ({script}:{line + 1})")
    lines.append("\nWhat the busiest thread-pool threads ran (thread-ms by event name, nested events counted in each):")
    pool: dict[tuple, collections.Counter] = collections.defaultdict(collections.Counter)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e.get("ph") == "X" and "tdur" in e and names.get(key, "").startswith("ThreadPool") \
                and e.get("name") not in ("ThreadPool_RunTask", "RunTask", "ThreadControllerImpl::RunTask"):
            pool[key][e["name"]] += e["tdur"] / 1000
    for key, ms in sorted(cpu.items(), key=lambda kv: -kv[1]):
        if names.get(key, "").startswith("ThreadPool") and ms >= 200:
            lines.append(f"  {names[key]} {key} {ms:.0f}: " + ", ".join(f"{n} {v:.0f}"
                                                                         for n, v in pool[key].most_common(5)))
    lines.append("\nThe renderer's own work (thread-ms, outermost events; JavaScript's '(program)' above includes it):")
    for key, c in render.items():
        if sum(c.values()) < 50:
            continue
        lines.append(f"  {names.get(key, '?')} {key}: " + ", ".join(f"{k} {v:.0f}" for k, v in c.most_common()))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(REPO / "site"))
    ap.add_argument("--cpu-quota", type=float, default=None, metavar="CORES")
    ap.add_argument("--lesson", action="store_true", help="lesson 02 to an idle kernel, not the app page")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--save", default=None, help="write the trace's events here (JSON)")
    ap.add_argument("--load", default=None, help="read a saved trace instead of recording one")
    args = ap.parse_args(argv)
    site = Path(args.site)
    if args.load:
        events = json.loads(Path(args.load).read_text())
    else:
        if not (site / "jupyter-lite.json").is_file():
            print(f"no site in {site}: run `make site OFFLINE=1` first")
            return 1
        chromium = shutil.which("chromium") or "/usr/bin/chromium"
        events = record(site, args.cpu_quota, chromium, args.lesson)
        if args.save:
            Path(args.save).write_text(json.dumps(events))
    print(report(events, site if site.is_dir() else None, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
