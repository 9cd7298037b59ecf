"""When Chrome writes down its compiled copy of Python's runtime on a first visit of the app page (issue 31).

    .venv/bin/python tools/wasm_cache_probe.py --site .site-build/test-site --cpu-quota 0.25 --runs 4   # root

A diagnostic, not a test. Each run opens the app page in a new browser profile (capped as tools/cpu_cap.py
caps it; ``--cpu-quota 64`` caps nothing), records Chromium's trace of the visit until Identification is
playable and ``--linger`` seconds more, then prints: the KB in the profile's ``Code Cache/wasm`` (0: the next
visit compiles the runtime again, about 1 CPU-s), how many optimising compiles of the runtime's functions the
visit made and when the last one ended, and when V8 said the module could be written down
(``wasm.CompilationChunkFinished``, ``v8.wasm.cachedModule``). Session 16 found the copy written only while
the optimiser was still compiling (V8's 1 MB "hard threshold"), never by its 2-second rule; see docs/teachers.md.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

import measure_site  # noqa: E402
from cpu_cap import capped_chromium  # noqa: E402
from profile_site_page import traced  # noqa: E402

CATEGORIES = ["disabled-by-default-devtools.timeline", "v8.wasm", "disabled-by-default-v8.wasm.detailed"]
#: the trace events that say V8 had a module to write down, and that Blink wrote it
CACHING = ("wasm.CompilationChunkFinished", "v8.wasm.compiledModule", "v8.wasm.cachedModule")


def traced_first_visit(url: str, counter, quota: float, linger: float, chromium: str) -> tuple[dict, list, int]:
    """One first visit in a new profile: the visit's figures, its trace events, and the KB Chrome kept."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="wasm-cache-probe-")
    cap = capped_chromium(chromium, quota)
    exe, cpu_seconds = cap.__enter__()
    try:
        with sync_playwright() as pw:
            context = measure_site.learner_browser(pw, exe, profile)
            page = context.new_page()
            page.set_default_timeout(600_000)

            def visit_and_linger() -> dict:
                visit = measure_site.app_to_playable(page, url, counter, cpu_seconds, 0)
                page.wait_for_timeout(linger * 1000)
                return visit

            visit, events = traced(context, page, CATEGORIES, visit_and_linger)
            page.close()
            context.close()
        kept = measure_site.compiled_runtime_kb(profile)
    finally:
        cap.__exit__(None, None, None)
        shutil.rmtree(profile, ignore_errors=True)
    return visit, events, kept


def describe(visit: dict, events: list, kept: int) -> str:
    start = min(e["ts"] for e in events if e.get("ts"))

    def at(e: dict, end: bool = False) -> float:
        return (e["ts"] + (e.get("dur", 0) if end else 0) - start) / 1e6

    compiles = [e for e in events if e.get("name") == "wasm.TopTierCompilation"]
    last = max((at(e, True) for e in compiles), default=0.0)
    caching = sorted({f"{e['name']} at {at(e):.1f} s" for e in events if e.get("name") in CACHING})
    return (f"playable at {visit['seconds']:.1f} s ({visit['cpu_seconds'] or 0:.1f} CPU-s); compiled runtime kept: "
            f"{kept} KB; {len(compiles)} optimising compiles, the last ending at {last:.1f} s (trace time); "
            f"{'; '.join(caching) if caching else 'V8 never offered the module to be written down'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(REPO / "site"), help="a built site (make site [OFFLINE=1])")
    ap.add_argument("--cpu-quota", type=float, default=0.25, metavar="CORES",
                    help="cap the browser at this share of one core (a cgroup, root; 64: no cap)")
    ap.add_argument("--runs", type=int, default=4, help="first visits, each in a new profile")
    ap.add_argument("--linger", type=float, default=8.0, metavar="SECONDS",
                    help="seconds the page stays open after the lab is playable, still traced")
    args = ap.parse_args(argv)
    site = Path(args.site)
    if not (site / "jupyter-lite.json").is_file():
        print(f"no site in {site}: run `make site OFFLINE=1` (or `make site`) first")
        return 1
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    counter = measure_site.Counter()
    server, url = measure_site.serve(site, counter)
    try:
        for run in range(args.runs):
            visit, events, kept = traced_first_visit(url, counter, args.cpu_quota, args.linger, chromium)
            print(f"run {run + 1}: {describe(visit, events, kept)}", flush=True)
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
