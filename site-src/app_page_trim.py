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
* **MathJax** (session 8): Voici starts JupyterLab's MathJax plugin on every page, and ipywidgets hands every
  control's description to it, so the chooser's first labels loaded and ran some 800 KB of MathJax's scripts
  (17 chunks) on every visit, to typeset no formula: the app shows none (no description, button or label of the
  kit holds ``$`` or ``\\(``). Voici's plugin list, shared by every Voici page, is patched to leave the plugin
  out where the page's config says ``safari_no_mathjax`` (``skip_mathjax``), and only the app page says it: the
  lessons' Voici pages keep MathJax. Without a typesetter ipywidgets puts a description in as plain text, which
  is what MathJax left of a description without a formula.

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
#: the app page's config option that leaves JupyterLab's MathJax plugin out (read by the patched Voici script)
NO_MATHJAX = "safari_no_mathjax"
#: Voici's shared modules, in voici.js: ``44109:()=>c("default","@jupyterlab/mathjax-extension",...``
MATHJAX_MODULE = re.compile(r'(\d+):\(\)=>\w+\("default","@jupyterlab/mathjax-extension"')
#: Voici's start-up (its main chunk) reads the page's federated extensions with this call
VOICI_MAIN = re.compile(r'(\w+)\.PageConfig\.getOption\("federated_extensions"\)')
MATHJAX_PATCHED = "/*safari_kit: no MathJax on the app page*/"


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
    config[NO_MATHJAX] = "1"  # the app shows no formula: Voici's patched start-up leaves MathJax out (skip_mathjax)
    html = html[:m.start(2)] + json.dumps(config).replace("</", "<\\/") + html[m.end(2):]
    done.append(f"labextensions not loaded: {', '.join(dropped) or 'none found'}")
    done.append("no MathJax (the app shows no formula; Voici's start-up patched by skip_mathjax)")
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


def skip_mathjax(voici_build: Path) -> str:
    """Patch Voici's start-up (in ``voici_build``, Voici's script folder) so that a page whose config says
    ``safari_no_mathjax`` starts without JupyterLab's MathJax plugin; other pages start as before. Returns the
    build log's line. Stops the build (AppPageTrimError) when Voici's scripts are not what it expects: the
    MathJax plugin's module not named once in voici.js, or not required once in Voici's start-up."""
    shared = voici_build / "voici.js"
    if not shared.is_file():
        raise AppPageTrimError(f"{shared}: no voici.js (Voici's build layout changed?)")
    ids = MATHJAX_MODULE.findall(shared.read_text())
    if len(ids) != 1:
        raise AppPageTrimError(f"{shared}: JupyterLab's MathJax plugin named {len(ids)} times in Voici's shared "
                               "modules, expected once (Voici changed?)")
    # Voici's start-up: the script that reads the page's federated extensions and requires the MathJax plugin's
    # module in its list of plugins (the tree page's and JupyterLite's own scripts read the extensions too)
    require = re.compile(rf"(?<![\w.$])(\w)\({ids[0]}\)(?=[,\]])")
    mains = []
    for f in sorted(voici_build.glob("*.js")):
        text = f.read_text(errors="replace")
        if MATHJAX_PATCHED in text:
            return f"{f.name}: MathJax left out already where the page says {NO_MATHJAX}"
        if VOICI_MAIN.search(text) and require.search(text):
            mains.append(f)
    if len(mains) != 1:
        raise AppPageTrimError(f"{voici_build}: {len(mains)} scripts start Voici with the MathJax plugin's module "
                               f"{ids[0]} in their list of plugins, expected one (Voici changed?)")
    main = mains[0]
    text = main.read_text()
    coreutils = VOICI_MAIN.search(text).group(1)
    found = require.findall(text)
    if len(found) != 1:
        raise AppPageTrimError(f"{main}: the MathJax plugin's module {ids[0]} required {len(found)} times in Voici's "
                               "start-up, expected once in its list of plugins (Voici changed?)")
    text = require.sub(lambda m: f'({MATHJAX_PATCHED}{coreutils}.PageConfig.getOption("{NO_MATHJAX}")?[]:'
                                 f'{m.group(1)}({ids[0]}))', text)
    main.write_text(text)
    return f"{main.name}: MathJax's plugin (module {ids[0]}) left out where the page says {NO_MATHJAX}"
