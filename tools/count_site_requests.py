"""How many requests a learner's visits to the built site make to its server, with and without cache headers.

    .venv/bin/python tools/count_site_requests.py site            # or .site-build/test-site, any built site

Serves the site on 127.0.0.1 twice, with ``python -m http.server``'s handler and with site/serve.py's
(site-src/serve_site.py: Cache-Control), and opens the app page twice in one browser profile (Debian's
chromium, headless), counting what reaches the server on each visit and how it was answered (200, 304).
Without Cache-Control the browser guesses how long a file stays fresh (a tenth of its age since Last-Modified),
so ``http.server``'s second-visit count depends on how old the site's files are; ``serve.py``'s does not.
The figures of docs/teachers.md ("Serving the site with cache headers") come from this script.
"""
from __future__ import annotations

import argparse
import collections
import functools
import http.server
import importlib.util
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP = "voici/render/notebooks/app.html"


def _serve_site():
    spec = importlib.util.spec_from_file_location("serve_site", REPO / "site-src" / "serve_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def visits(site: Path, base: type, chromium: str, timeout_s: float = 240) -> list[tuple[int, dict, float]]:
    """[(requests, {status: count}, seconds to the app)] for a first and a second visit."""
    from playwright.sync_api import sync_playwright

    counts: collections.Counter = collections.Counter()

    class Counting(base):  # type: ignore[misc, valid-type]
        def log_message(self, *args) -> None:
            pass

        def send_response(self, code, message=None) -> None:
            counts[int(code)] += 1
            super().send_response(code, message)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(site)))
    server.quiet = True  # serve_site's handler reads it
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{APP}"
    out = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context()
            for _ in range(2):
                counts.clear()
                page = context.new_page()
                t0 = time.perf_counter()
                page.goto(url, wait_until="domcontentloaded")
                page.locator(".safari-app .safari-lab-list select").wait_for(timeout=timeout_s * 1000)
                seconds = time.perf_counter() - t0
                page.wait_for_timeout(2000)  # late requests (widgets' state) count too
                out.append((sum(counts.values()), dict(sorted(counts.items())), seconds))
                page.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site", type=Path, help="a built site (make site OFFLINE=1)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args(argv)
    if not (args.site / APP).is_file():
        ap.error(f"{args.site} has no {APP}: build it with make site OFFLINE=1 SITE_OUT={args.site}")
    newest = max(p.stat().st_mtime for p in args.site.rglob("*") if p.is_file())
    print(f"{args.site}: files {(time.time() - newest) / 60:.0f} min old or older")
    for name, base in (("http.server", http.server.SimpleHTTPRequestHandler), ("serve.py", _serve_site().Handler)):
        for visit, (total, codes, seconds) in enumerate(visits(args.site.resolve(), base, args.chromium), 1):
            print(f"{name:12} visit {visit}: {total:4} requests reached the server {codes}; "
                  f"the app after {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
