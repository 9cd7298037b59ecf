"""What the static site's browser kernel loads at start, page by page (issue 18, items 3 and 5). Build time only.

Every visit of a page pays the whole Python start-up in the kernel's web worker: fetching and unpacking the
wheels the page's config names (``loadPyodideOptions.packages``), importing IPython and the kernel, running the
page. tools/profile_site_kernel.py showed where it went (2026-12, uncapped): compiling sources (no wheel held
bytecode: site-src/precompile.py fixes that), ``import IPython`` importing its terminal front end (prompt_toolkit
and IPython.terminal: half of IPython's import, used only by ``IPython.embed()`` in a terminal), and jedi
(completion: the app page never completes). So:

* the app page (Voici) gets its own, shorter list (``APP_STARTUP``): no micropip or piplite, no jedi, no
  prompt_toolkit, no sqlite3
  (IPython's history is off in this kernel), no numpy or pandas (online, safari_site loads those two in the
  background once the page is up: only the Simulation lab needs them);
* the lessons keep everything (``LESSON_STARTUP``: completion with jedi; online, numpy and pandas at start,
  since the kit's simulation modules import them where a cell's own imports do not show it);
* IPython's wheel is rewritten so ``IPython.embed`` imports the terminal front end on first use
  (``slim_ipython``); its lock entry no longer pulls jedi, prompt_toolkit, sqlite3 or matplotlib-inline
  (online, matplotlib-inline pulled matplotlib, pillow, fonttools, kiwisolver, contourpy);
* the kernel's own list of packages it installs with piplite when a page's list lacks them is cut to the ones
  every page has (``patch_kernel_js``): otherwise it would install jedi and sqlite3 anyway (and it spelled
  ``pyodide_kernel`` so that it never matched the lock's ``pyodide-kernel``: one needless piplite call); and a
  page whose list names no micropip (the app page: no cell, nothing to ``%pip install``) skips the package
  manager's set-up (micropip, piplite, packaging: their unpacking and import).
"""
from __future__ import annotations

import io
import json
import re
import sys
import zipfile
from pathlib import Path

import site_languages

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: the lessons (JupyterLite): as before, with prompt_toolkit, sqlite3 and matplotlib-inline (the kernel's plot
#: backend) named: they are no longer IPython's dependencies
LESSON_STARTUP = ["micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide-kernel", "jedi", "prompt-toolkit",
                  "matplotlib-inline", "ipython", "ipywidgets", "anywidget", "safari-site", "safari-kit"]
#: online, the lessons also load these at start (the kit's simulation imports numpy and pandas inside)
LESSON_ONLINE = ["numpy", "pandas"]
#: the app page: the labs, nothing for completion, history or data frames
APP_STARTUP = ["ipykernel", "comm", "pyodide-kernel", "ipython", "ipywidgets", "anywidget", "safari-site",
               "safari-kit"]
#: precompiled (site-src/precompile.py): what these imports load (the kernel's start-up, the app; jedi: the
#: lessons' start-up), and all of the kit
WARM_IMPORTS = ["piplite.piplite", "pyodide_kernel", "safari_site", "jedi", "ipywidgets", "anywidget",
                "safari_kit.widgets.app", "safari_kit.widgets.labs"]
COMPILE_ALL = ["safari_kit", "safari_site"]
#: the app page of the site (Voici)
APP_PAGE = "voici/render/notebooks/app.html"

#: the app page's start-up sentence on a first visit (site-src/starting.js; later visits show this browser's own
#: last figure): seconds to the app on a first visit, uncapped, tools/measure_site.py on the build machine
FIRST_VISIT_SECONDS = 15
STARTING_JS = Path(__file__).resolve().parent / "starting.js"
#: the pages that say it: (localStorage key of this browser's last figure, what shows the page is ready, whether
#: the page says it only when opened on a notebook, first-visit seconds). A lesson is ready when its notebook's
#: kernel is idle (JupyterLab's execution indicator); a lesson's first visit, uncapped: 12.8 s to an idle kernel
#: (tests/browser/test_site_browser.py's lesson test on the build machine, 2026-12)
STARTING_PAGES = {
    "app": ("safari_kit.app_startup_seconds", ".safari-app", False, FIRST_VISIT_SECONDS),
    "lesson": ("safari_kit.lesson_startup_seconds", '.jp-Notebook-ExecutionIndicator[data-status="idle"]', True, 13),
}
#: the lessons' pages (JupyterLite's lab and notebook apps)
LESSON_PAGES = ("lab/index.html", "notebooks/index.html")
#: the languages the pages speak (issue 30): English and each language of the lessons (notebooks/es/)
LANGUAGES = site_languages.languages(Path(__file__).resolve().parents[1] / "notebooks")

FORCED = '["sqlite3","ipykernel","comm","pyodide_kernel","jedi","ipython"]'
FORCED_PATCH = '["ipykernel","comm","pyodide-kernel","ipython"]'

IPYTHON_EMBED = "from .terminal.embed import embed\n"
IPYTHON_EMBED_LAZY = ('def embed(*args, **kwargs):  # safari_kit site: the terminal front end on first use\n'
                      '    from .terminal.embed import embed as _embed\n'
                      '    return _embed(*args, **kwargs)\n')


def slim_ipython(wheel: Path, out: Path) -> Path:
    """IPython's wheel with ``embed`` imported on first use (everything else unchanged); returns the copy."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / wheel.name
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "IPython/__init__.py":
                text = data.decode()
                if IPYTHON_EMBED not in text:
                    sys.exit(f"{wheel.name}: {IPYTHON_EMBED.strip()!r} not found in IPython/__init__.py: "
                             "IPython changed? update site-src/kernel_startup.py")
                data = text.replace(IPYTHON_EMBED, IPYTHON_EMBED_LAZY).encode()
            zout.writestr(info, data)
    _fix_record(target)
    return target


def _fix_record(wheel: Path) -> None:
    """Rewrite the wheel's RECORD for its current files (hashes and sizes)."""
    import base64
    import csv
    import hashlib

    with zipfile.ZipFile(wheel) as zf:
        files = {i.filename: (i, zf.read(i)) for i in zf.infolist()}
    record = next(n for n in files if n.endswith(".dist-info/RECORD"))
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    for name, (_info, data) in files.items():
        if name == record:
            continue
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([name, f"sha256={digest}", len(data)])
    writer.writerow([record, "", ""])
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, (info, data) in files.items():
            zf.writestr(info, text.getvalue().encode() if name == record else data)


#: the worker's package manager set-up (micropip, piplite: what ``%pip install`` needs), skipped for a page whose
#: start-up list names no micropip: the app page has no cell to install anything from
PACKAGE_MANAGER = re.compile(r'(\w)=\((\w)\|\|\{\}\)\.packages\|\|\[\];\1\.includes\("micropip"\)\|\|')


def patch_kernel_js(text: str) -> str:
    """The kernel worker's bundle: the forced list cut (``FORCED``), no package manager where none is listed."""
    if FORCED not in text or not PACKAGE_MANAGER.search(text):
        sys.exit("the kernel worker's start-up code was not found (jupyterlite-pyodide-kernel changed?): "
                 "update site-src/kernel_startup.py")
    text = PACKAGE_MANAGER.sub(lambda m: f'{m.group(1)}=({m.group(2)}||{{}}).packages||[];'
                               f'if(!{m.group(1)}.includes("micropip"))return;{m.group(1)}.includes("micropip")||',
                               text)
    return text.replace(FORCED, FORCED_PATCH)


def set_page_packages(html_path: Path, packages: list[str]) -> None:
    """Give one rendered page (Voici writes the whole config into each) its own start-up package list."""
    html = html_path.read_text()
    m = re.search(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', html, re.S)
    if not m:
        sys.exit(f"{html_path}: no jupyter-config-data script to set the kernel's packages in")
    config = json.loads(m.group(2))
    options = config["litePluginSettings"][KERNEL_PLUGIN]["loadPyodideOptions"]
    options["packages"] = packages
    html_path.write_text(html[:m.start(2)] + json.dumps(config).replace("</", "<\\/") + html[m.end(2):])


def add_starting_note(page: Path, runtime_url: str | None, kind: str = "app") -> None:
    """The start-up sentence (site-src/starting.js) of page ``kind`` (STARTING_PAGES) first thing in the page's
    <body>, so it shows at the first paint (a script in <head> would wait for the body; DOMContentLoaded waits
    for Voici's bundle).
    ``runtime_url`` (online builds): the Python runtime the page checks it can reach."""
    key, ready, needs_notebook, first = STARTING_PAGES[kind]
    js = (STARTING_JS.read_text().replace("__FIRST_SECONDS__", str(first))
          .replace("__RUNTIME_URL__", json.dumps(runtime_url)).replace("__KEY__", json.dumps(key))
          .replace("__READY__", json.dumps(ready)).replace("__NEEDS_NOTEBOOK__", json.dumps(needs_notebook))
          .replace("__WORDS__", json.dumps(site_languages.starting_words(LANGUAGES)))
          .replace("__PAGE_LANGUAGE__", site_languages.resolve_js(LANGUAGES)))
    html = page.read_text()
    new = re.sub(r"<body([^>]*)>", lambda m: f"<body{m.group(1)}>\n<script>{js}</script>", html, count=1)
    if new == html:
        sys.exit(f"{page}: no <body> to put the start-up sentence in")
    page.write_text(new)
