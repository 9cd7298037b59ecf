"""What the app page does not need, taken out of it at build time (issue 31, session 4: the page's own CPU).

On a slow laptop (a quarter of one core, tools/measure_site.py --cpu-quota 0.25) the app page's Python starts in
a few seconds from its memory snapshot; most of what is left is the page itself, on the same quarter core. The
profile of a second visit (tools/profile_site_page.py) showed, besides JupyterLite's and Voici's scripts:

* **Voilà's spinner**, turning at 60 frames a second under the start-up sentence for the whole wait: each
  frame is composited and drawn, some 0.1 CPU-second per second of waiting in headless Chromium at a quarter
  core (a still page: 0.02), almost half of what that laptop has. The app page's spinner is kept, still: the
  start-up sentence above it counts the seconds, which tells the learner the page is alive.
* **jupyterlab_pygments**, a labextension that only colours code: its script and style sheet were loaded and
  run at every visit, and the app page shows no code;
* **JupyterLab's theme**, 240 KB of inline CSS, mostly for parts of JupyterLab a Voici page never builds: cut to
  what the app can show (site-src/app_page_css.py, session 6).

Only the app page changes (``kernel_startup.APP_PAGE``); the lessons' pages are Voici's and JupyterLite's as
before. Each step fails the build loudly, naming the page and what it looked for, when Voici's page is not what
it expects.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from app_page_css import AppPageCssError, cut_css

CONFIG_DATA = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S)
#: labextensions the app page does not load: it shows no code, so nothing for a syntax colourer to do
APP_UNUSED_EXTENSIONS = ("jupyterlab_pygments",)
#: Voilà's spinner rule in its page template (the loading screen under the start-up sentence)
SPINNER_RULE = "animation: rotation 2s infinite linear;"
STILL_SPINNER = ("/* safari_kit (site-src/app_page_trim.py): still; a turning one cost a slow laptop a tenth of a "
                 "core while Python starts */ animation: none;")
MARK = "safari-trimmed"


class AppPageTrimError(ValueError):
    """The app page is not what the trim expects (Voici's template or config changed)."""


def trim_app_page(page: Path, unused=APP_UNUSED_EXTENSIONS, site: Path | None = None) -> list[str]:
    """Take out of the app page what it does not need (see the module's docstring). Returns what was done, one
    line each, for the build's log. Running it twice changes nothing more. ``site``: the built site (the page's
    folder three levels up, voici/render/notebooks/, when not given): its scripts are read by the style sheets'
    cut (site-src/app_page_css.py)."""
    html = page.read_text()
    if MARK in html:
        return [f"{page.name}: trimmed already"]
    done = []
    m = CONFIG_DATA.search(html)
    if not m:
        raise AppPageTrimError(f"{page}: no jupyter-config-data script (Voici's page changed?)")
    config = json.loads(m.group(2))
    exts = config.get("federated_extensions")
    if not isinstance(exts, list):
        raise AppPageTrimError(f"{page}: its config has no federated_extensions list")
    kept = [e for e in exts if e.get("name") not in unused]
    dropped = sorted({e.get("name") for e in exts} - {e.get("name") for e in kept})
    config["federated_extensions"] = kept
    config[MARK] = True
    html = html[:m.start(2)] + json.dumps(config).replace("</", "<\\/") + html[m.end(2):]
    done.append(f"labextensions not loaded: {', '.join(dropped) or 'none found'}")
    if html.count(SPINNER_RULE) != 1:
        raise AppPageTrimError(f"{page}: Voila's spinner rule {SPINNER_RULE!r} found {html.count(SPINNER_RULE)} "
                               "times, expected once (Voici's template changed?)")
    html = html.replace(SPINNER_RULE, STILL_SPINNER)
    done.append("Voila's spinner still (the start-up sentence counts the seconds)")
    if site is None:  # voici/render/notebooks/app.html in a built site; else a page on its own
        built = [p.name for p in page.parents][:3] == ["notebooks", "render", "voici"]
        site = page.parents[3] if built else page.parent
    try:
        html, cut = cut_css(html, page, site)
    except AppPageCssError as exc:
        raise AppPageTrimError(str(exc)) from exc
    page.write_text(html)
    return done + cut
