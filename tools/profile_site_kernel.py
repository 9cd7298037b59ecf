"""Where the static site's Python start-up goes: the browser kernel's phases, timed (issue 18, item 3).

    .venv/bin/python tools/profile_site_kernel.py --site /tmp/site-off [--cpu-quota 0.25] [--top 25]

A diagnostic, not a test. It serves a built site (``make site OFFLINE=1``) on 127.0.0.1 and, in headless
Chromium (capped with a cgroup when ``--cpu-quota`` is given: tools/cpu_cap.py), repeats what the JupyterLite
kernel's worker does at start-up, on the page's own thread, phase by phase:

1. ``loadPyodide`` with no package: the wasm runtime and the standard library;
2. ``loadPackage`` of the packages the app page's config makes the kernel load at start
   (``loadPyodideOptions``, in the config Voici writes into the page): fetching and unpacking their wheels;
3. ``import piplite.piplite``, ``import pyodide_kernel`` (IPython and what it pulls in), ``import safari_site``:
   the kernel's own start-up;
4. the app page's notebook: ``from safari_kit.widgets.app import LabChooser`` and ``LabChooser(seed=1)``.

Then the modules whose import took longest (cProfile of phases 3 and 4, ``<module>`` entries, cumulative),
and the packages unpacked but never imported by those phases.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

import measure_site  # noqa: E402
from cpu_cap import capped_chromium  # noqa: E402

PHASES_JS = """async ([runtime, packages]) => {
    const out = [];
    let t = performance.now();
    const mark = (name) => { const now = performance.now(); out.push([name, (now - t) / 1000]); t = now; };
    const py = await loadPyodide({indexURL: runtime, lockFileURL: runtime + 'pyodide-lock.json'});
    mark('loadPyodide (runtime, standard library)');
    await py.loadPackage(packages);
    mark('loadPackage: ' + packages.length + ' start-up packages (fetch, unpack)');
    py.runPython('import cProfile, sys; __prof = cProfile.Profile(); __before = set(sys.modules)');
    const steps = [
        ['import piplite.piplite', 'import piplite.piplite'],
        ['import pyodide_kernel (IPython, ...)', 'import pyodide_kernel'],
        ['import safari_site', 'import safari_site'],
        ['import safari_kit.widgets.app', 'from safari_kit.widgets.app import LabChooser'],
        ['LabChooser(seed=1)', 'app = LabChooser(seed=1)'],
    ];
    for (const [name, code] of steps) {
        try {
            await py.runPythonAsync('__prof.enable()\\n' + code + '\\n__prof.disable()');
            mark(name);
        } catch (e) {
            py.runPython('__prof.disable()');
            mark(name + ' FAILED: ' + String(e.message).trim().split('\\n').slice(-1)[0]);
        }
    }
    const report = py.runPython(`
import io, pstats, json, importlib.metadata as md
s = pstats.Stats(__prof)
mods = sorted(((v[3], k[0]) for k, v in s.stats.items() if k[2] == '<module>'), reverse=True)
top = {}
for t, f in mods:
    top.setdefault(f, t)
loaded = set(sys.modules)
unused = []
for dist in md.distributions():
    names = (dist.read_text('top_level.txt') or '').split() or [dist.metadata['Name'].replace('-', '_').lower()]
    if not any(n in loaded for n in names):
        unused.append(dist.metadata['Name'])
json.dumps({'top': sorted(top.items(), key=lambda x: -x[1])[:80], 'unused': sorted(unused),
            'modules': len(loaded)})
`);
    return {phases: out, report: JSON.parse(report)};
}"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(REPO / "site"))
    ap.add_argument("--cpu-quota", type=float, default=None, help="cap the browser at this share of one core")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    site = Path(args.site)
    page = (site / "voici/render/notebooks/app.html").read_text()  # Voici writes the page's whole config in it
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                  page, re.S).group(1))
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    packages = kernel["loadPyodideOptions"]["packages"]
    chromium = shutil.which("chromium") or "/usr/bin/chromium"

    from playwright.sync_api import sync_playwright

    counter = measure_site.Counter()
    server, url = measure_site.serve(site, counter)
    cap = capped_chromium(chromium, args.cpu_quota) if args.cpu_quota else None
    try:
        exe = cap.__enter__()[0] if cap else chromium
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, headless=True,
                                         args=measure_site.bench.CHROMIUM_ARGS)
            page = browser.new_page()
            page.set_default_timeout(600_000)
            page.goto(url + "index.html")
            runtime = f"{url}static/{measure_site.runtime_folder(site).name}/"  # static/pyodide-<hash>/
            page.add_script_tag(url=runtime + "pyodide.js")
            result = page.evaluate(PHASES_JS, [runtime, packages])
            browser.close()
    finally:
        if cap:
            cap.__exit__(None, None, None)
        server.shutdown()
    where = f"capped at {args.cpu_quota} core" if args.cpu_quota else "uncapped"
    print(f"\nThe site's kernel start-up, phase by phase ({where}, page thread, {site}):")
    total = 0.0
    for name, seconds in result["phases"]:
        total += seconds
        print(f"  {seconds:7.2f} s  {name}")
    print(f"  {total:7.2f} s  in all; {counter.bytes / 1e6:.1f} MB in {counter.requests} requests")
    print(f"\nslowest module imports (cumulative, profiled: slower than unprofiled), of "
          f"{result['report']['modules']} modules:")
    for path, seconds in result["report"]["top"][:args.top]:
        print(f"  {seconds:7.3f} s  {path}")
    print(f"\ninstalled, never imported by the start-up and the app: {', '.join(result['report']['unused'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
