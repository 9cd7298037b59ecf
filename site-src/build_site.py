"""Build the static site (`make site`, `make site OFFLINE=1`): JupyterLite + Voici + the Pyodide kernel.

    .site-build/venv/bin/python site-src/build_site.py [--offline] [--teacher] [--out site]

Run by the Makefile with the build venv (site-src/requirements.txt). What it does:

1. builds the kit's wheel (``pip wheel --no-deps .``), a tiny ``safari_site`` wheel (the kernel's start-up
   check, site-src/safari_site) and an empty ``sqlite3`` stand-in (offline: Pyodide's sqlite3 is a wasm package
   found nowhere but the online distribution; IPython runs without its history database);
2. downloads the pinned pure-Python wheels of site-src/browser-wheels.txt from PyPI, and (offline) the Pyodide
   core runtime from npm (``npm pack pyodide@0.29.0``) and Font Awesome (both builds: Voici's pages link it);
   everything is cached in .site-build/ (git-ignored);
3. stages the contents and runs ``voici build`` with the lab, notebooks, tree and voici apps, without source
   maps. The learners' pages are the **student copies** (``make student``: no worked solutions, no teacher
   notes), in ``notebooks/``, with data/cards.csv. The teacher's copies (solutions and notes in) go in only
   with ``--teacher`` (``make site TEACHER=1``), in a folder of their own, ``teacher/``, listed apart on the
   landing page: such a site is for the teacher, not for the class. The build refuses to finish if a page
   for learners holds a solution cell or a teacher section;
4. writes the site's Pyodide lock, ``static/pyodide/pyodide-lock.json``: offline, only the wheels the site
   holds (sha256 and file names rewritten, every other entry dropped) next to the npm core runtime; online,
   the standard distribution's lock with absolute URLs plus the site's own wheels. The kernel loads the kit
   at start-up (``loadPyodideOptions.packages``): ``import safari_kit`` works with no install step;
5. makes every page local (Font Awesome copied in, the Mermaid loader dropped), writes the landing page and
   checks that no page, config or lock names another host (offline: no CDN URL at all outside JS bundles);
6. makes the site work where schools put it (issue 18): every notebook carries the metadata the site's kernel
   writes on opening (kernelspec ``python``, its language_info), so opening a lesson changes nothing; a patch
   of JupyterLite's service-worker manager (SW_UNSUPPORTED) lets the app page start over plain http by a
   network name, where browsers allow no service worker (and the app page starts none anywhere: SW_OFF_OPTION,
   issue 31); and every page opened as a file (``file://``, where
   nothing can run) says in one sentence how to open the site (site-src/no-server.js); Voici's rendered
   lessons open the docs they link to in JupyterLite (every link of the site resolves:
   tests/browser/test_site_links.py); labextensions of the build venv that fail in the site are left out
   (UNWANTED_EXTENSIONS); ``serve.py`` (site-src/serve_site.py) goes in the site: ``python3 site/serve.py``
   serves it with cache headers (docs/teachers.md, "Serving the site with cache headers");
7. names the runtime's folder by its content, ``static/pyodide-<hash>/`` (site-src/versioned_runtime.py), so a
   browser keeps the runtime without asking on every visit, and a new kit or lock gets a new folder.
8. saves the app page's Python as a memory snapshot that its kernel restores instead of starting Python afresh
   (site-src/snapshot.py, issue 31; the offline build only).
"""
from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import app_chunks
import kernel_startup
import site_languages
import snapshot
from app_page_trim import AppPageTrimError, skip_mathjax, trim_app_page
from precompile import precompile
from precompress import precompress
from trim_wheels import trim_wheel
from versioned_runtime import VOICI_BUILD, runtime_folder, version_runtime, version_voici_build

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "site-src"
PYODIDE_VERSION = "0.29.0"
FONTAWESOME_VERSION = "5.15.4"
CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
CORE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
#: what the kernel loads from the lock at start-up, in one go (the kernel then skips its own piplite installs);
#: the app page has its own, shorter list (site-src/kernel_startup.py)
STARTUP = kernel_startup.LESSON_STARTUP
#: the kernel's own wheels, shipped by jupyterlite-pyodide-kernel in its piplite index
KERNEL_WHEELS = {"piplite": [], "ipykernel": [], "pyodide-kernel": []}
START_UP_LINE = '"import pyodide_kernel"'
START_UP_PATCH = ('"import pyodide_kernel\\ntry:\\n    import safari_site\\n    import safari_site.later\\n'
                  '    import safari_site.page_language\\n    safari_site.page_language.apply()\\n'
                  'except ImportError:\\n    pass"')
#: JupyterLite's service-worker manager (0.7.6, also upstream main) never settles its ``ready`` promise where
#: the browser offers no service worker: a page reached over plain http by a network name (not a secure context:
#: only https, localhost and 127.0.0.1 are). Voici awaits that promise before it runs the page's notebook, so the
#: app page sat on "Running ..." for ever. The patch resolves it with no registration: Voici goes on, the manager's
#: ``enabled`` stays false (it is ``registration !== null``), so the kernel starts without the synced drive (the
#: kit reads its cards from its own wheel, so no lab and no lesson needs it). Rejected (as a failed registration
#: is), Voici's start-up caught it and logged ``console.error(undefined)``: the only awaiter of ``ready`` is
#: Voici's ``try { await ready } catch (e) { console.error(e) }``, the kernel reads ``enabled``
SW_UNSUPPORTED = 'else console.warn("ServiceWorkers not supported in this browser")}'
SW_PATCH = ('else console.warn("ServiceWorkers not supported in this browser"),'
            'this._ready.resolve(void 0)}')
#: JupyterLite's service-worker manager (0.7.6) writes the version that registered its worker into localStorage
#: (``<worker's address>-version``) only when a page the worker already controls starts. A first visit registers
#: the worker (no page is controlled yet), so the key is first missing on the learner's second visit, which takes
#: the worker for an old site's: it unregisters every worker (2 s of waiting at full speed), then registers and
#: installs a new one. Every learner's second visit of the app page took 4.1-4.6 s instead of 2.1-2.6 (the third
#: and later ones were not hit: tools/measure_site.py's "second visit" was). The patch writes the key as the
#: worker registers, so only a site built with another JupyterLite version finds a stale worker to replace.
SW_REGISTERED = re.compile(r'(\w+)=await (\w+)\.register\((\w+)\),(?=console\.info\("JupyterLite ServiceWorker was '
                           r'succ?essfully registered"\))')
SW_VERSION = re.compile(r'const (\w+)=`\$\{\w+\}-version`,(\w+)=localStorage\.getItem\(\1\);'
                        r'if\(\2&&\2!==(\w+)\|\|!\2\)\{console\.info\("New version, unregistering')
#: the registration and the key written after it (``\3``: the worker's address; VERSION: the manager's variable)
SW_REGISTERED_PATCH = (r'\1=await \2.register(\3),'
                       r'(()=>{try{localStorage.setItem(`${\3}-version`,VERSION)}catch(e){}})(),')
#: the app page starts no service worker (issue 31, session 18). JupyterLite's worker serves a page's kernel the
#: synced drive (the browser's copy of the site's files) and ``input()``; the app page uses neither (the kit reads
#: its cards from its own files, no lab asks for typed input), and on a school's plain-http address it never has
#: one. Where it did have one, every request of the page and of its kernel went through the worker, and the first
#: visit installed it: at a quarter core a second visit took 14.1 s with it, 12.8 s without (medians of 6 runs
#: in turn; 4.1 against 3.7 CPU-s; uncapped 2.2 against 1.9 s); first visits moved within the noise. The page's
#: config says ``"safariServiceWorker": "off"`` (set_app_page_service_worker); the patched manager then registers
#: no worker and says so in the console (not "not supported"). The lessons keep theirs (their kernels use the
#: drive); a browser where a lesson registered it still sends the app page's requests through it, as before.
SW_OFF_OPTION = "safariServiceWorker"
SW_INITIALIZE = re.compile(r"async _initialize\((\w+)\)\{const\{serviceWorker:(\w+)\}=navigator;")
SW_PAGE_CONFIG = re.compile(r'(\w+)\.PageConfig\.getOption\("enableServiceWorkerCache"\)')
SW_OFF_SAID = "safari_kit: this page needs no service worker; it starts none"
#: JupyterLite's heartbeat (0.7.6; upstream jupyterlite#2025, open) fetches ``/api/service-worker-heartbeat`` at the
#: origin's root and its service worker answers only that root path. On a site under a sub-path (a school's
#: ``/safari/``, a GitHub Pages project) the ping leaves the service worker's scope: the school's server gets a
#: request outside the site (a 404) and the keep-alive stops. The patches send it to the service worker's scope,
#: where the worker answers it (tests/browser/test_site_subpath.py watches every request of a sub-path site).
HEARTBEAT_FETCH = 'fetch("/api/service-worker-heartbeat")'
HEARTBEAT_FETCH_PATCH = ('fetch(new URL("api/service-worker-heartbeat",'
                         '(await navigator.serviceWorker.getRegistration()||{scope:location.href}).scope))')
HEARTBEAT_ANSWER = re.compile(r'"/api/service-worker-heartbeat"===(\w+)\.pathname')
HEARTBEAT_ANSWER_PATCH = r'\1.pathname===new URL("api/service-worker-heartbeat",self.registration.scope).pathname'
#: JupyterLite's ``?path=`` (0.7.6, the router's tree command) opens the file once the app has *started*; the layout
#: the learner had is put back later, when the app is *restored*, and that puts back only the tabs it saved: a tab
#: opened before it is taken off the page. A learner who had a lesson open and followed a lesson's rules link
#: (``lab/index.html?path=docs/rules.md``) could get the lesson back and no rules (rules.md selected in the file
#: browser, no tab): seen once in a full test run (tests/browser/test_site_subpath.py). The patch opens the file
#: once the layout is back, and one task later: the default viewers (rules.md as Markdown Preview, not as text in the
#: editor) are set from the settings in a ``Promise.all([settings, restored]).then`` that runs a few microtasks after a
#: plain ``restored.then`` (seen once in a full run: rules.md opened in the editor).
#: The pattern starts with its literal part: Python's ``re`` then jumps from one ``.started`` to the next. Begun with
#: ``(\w+)`` (the object's name), it tried every letter of the site's 24 MB of JavaScript: 18 CPU-s a build.
OPEN_PATH = re.compile(r'\.started(?=\.then\(\(async\(\)=>\{var \w+;const \w+=\w+\.PageConfig'
                       r'\.getOption\("notebookPage"\))')
OPEN_PATH_PATCH = ".restored.then(()=>new Promise((r)=>setTimeout(r)))"
#: anywidget's front end (0.11.0, the same in upstream main: ``Runtime`` in packages/anywidget/src/widget.js) gives
#: each widget model 2 s of wall time from its creation to load and bind its ESM; past that its ``ready`` rejects for
#: good ("[anywidget] Failed to initialize model."), and the model, which waits on ``ready`` for every message,
#: never takes the kernel's updates: a lab's card table stayed empty. A slow laptop (a quarter of a core) or a busy
#: one is often busy for 2 s as the app's widgets arrive (tests/browser/test_site_slow_laptop.py: CPU throttled).
#: The patch gives it 5 minutes: a slow start is no longer fatal, and a widget whose ESM never loads still says so
#: (its views show the load's error at once, as before). The pattern starts with its literal (cheap to search).
ANYWIDGET_TIMEOUT = re.compile(r'AbortSignal\.timeout\(2000\)(?=\.addEventListener\("abort",\s*'
                               r'(?:function\s*\(\)|\(\)\s*=>)\s*\{\s*\w+\.reject\(new Error\('
                               r'"\[anywidget\] Failed to initialize model\."\)\))')
ANYWIDGET_TIMEOUT_PATCH = "AbortSignal.timeout(300000)"
ANYWIDGET_FAILED = "[anywidget] Failed to initialize model."
#: labextensions of the build venv that the site must not load: jupytext (there to read the lesson texts) brings
#: its JupyterLab extension, built for JupyterLab 4.6+, which fails in JupyterLite's 4.5 and Voici (a console
#: error on every page: "The getter for the shared module is not a function ... @jupyterlab/docmanager")
UNWANTED_EXTENSIONS = ("jupyterlab-jupytext",)
CONFIG_DATA = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S)
#: the kernel's log line for that case blames private browsing; on a plain-http network name the cause is another
NOT_SYNCED = ("For full functionality, try using a regular browser tab instead of private/incognito mode, "
              "especially in Firefox where this is a known limitation.")
NOT_SYNCED_PATCH = ("This happens where the browser offers no service worker (plain http to a network name, or a "
                    "private window): Python does not see the site's files; the kit's lessons and labs do not need "
                    "them.")
#: every page: opened as a file (``file://``, a site folder double-clicked on a USB stick) nothing can run (the
#: browser refuses the kernel's web worker): say so at once, instead of a page that spins
NO_SERVER = SRC / "no-server.js"
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", re.I)


def log(msg: str) -> None:
    print(f"[site] {msg}", flush=True)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], **kw) -> None:
    log(" ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kw)


# ----------------------------------------------------------------------------- wheels
def wheel_from_folder(package: Path, name: str, version: str, out: Path) -> Path:
    """A py3-none-any wheel of one pure package folder (no build backend needed)."""
    files = {f"{package.name}/{p.relative_to(package).as_posix()}": p.read_bytes()
             for p in sorted(package.rglob("*.py"))}
    return write_wheel(out, name, version, files)


def write_wheel(out: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    dist = f"{name}-{version}.dist-info"
    files = dict(files)
    files[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{dist}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: safari_kit site-src\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n")
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([path, f"sha256={digest}", len(data)])
    writer.writerow([f"{dist}/RECORD", "", ""])
    files[f"{dist}/RECORD"] = record.getvalue().encode()
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for arc, data in files.items():
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return path


def wheel_meta(path: Path) -> tuple[str, str, list[str]]:
    """(name, version, top-level import names) of a wheel."""
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        text = zf.read(meta).decode()
    name = re.search(r"^Name: (.+)$", text, re.M).group(1).strip()
    version = re.search(r"^Version: (.+)$", text, re.M).group(1).strip()
    tops = sorted({n.split("/")[0].removesuffix(".py") for n in names
                   if not n.split("/")[0].endswith((".dist-info", ".data")) and (n.endswith(".py") or "/" in n)})
    return name, version, tops


def read_wheel_list(offline: bool) -> list[tuple[str, list[str]]]:
    rows = []
    for line in (SRC / "browser-wheels.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        parts = line.split()
        req, mode = parts[0], parts[1]
        deps = [canonical(d) for d in parts[2].split(",")] if len(parts) > 2 else []
        if mode == "online" or offline:
            rows.append((req, deps))
    return rows


def download_wheels(rows, cache: Path, py: str) -> dict[str, Path]:
    cache.mkdir(parents=True, exist_ok=True)
    reqs = [r for r, _ in rows]
    have = {canonical(p.name.split("-")[0]) + "==" + p.name.split("-")[1]: p for p in cache.glob("*.whl")}
    missing = [r for r in reqs if canonical(r.split("==")[0]) + "==" + r.split("==")[1] not in have]
    if missing:
        run([py, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "--python-version", "3.13",
             "--implementation", "py", "--abi", "none", "--platform", "any", "-d", str(cache), *missing])
    found = {}
    for r in reqs:
        name, version = r.split("==")
        matches = [p for p in cache.glob("*.whl")
                   if canonical(p.name.split("-")[0]) == canonical(name) and p.name.split("-")[1] == version]
        if not matches or not matches[0].name.endswith("-none-any.whl"):
            sys.exit(f"no pure-Python wheel for {r} in {cache}")
        found[canonical(name)] = matches[0]
    return found


def npm_package(spec: str, cache: Path) -> Path:
    """``npm pack`` once into the cache; returns the unpacked folder."""
    cache.mkdir(parents=True, exist_ok=True)
    folder = cache / re.sub(r"[^A-Za-z0-9.]+", "-", spec)
    if not (folder / "package" / "package.json").exists():
        run(["npm", "pack", "--silent", "--pack-destination", str(cache), spec], cwd=cache, stdout=subprocess.PIPE)
        stem = spec.lstrip("@").replace("/", "-").replace("@", "-")
        tgz = cache / f"{stem}.tgz"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        with tarfile.open(tgz) as tar:
            tar.extractall(folder, filter="data")
    return folder / "package"


# ----------------------------------------------------------------------------- the build
#: the folders of the site's contents: the learners' lessons, and (--teacher only) the teacher's copies
LEARNERS, TEACHER = "notebooks", "teacher"
#: the kit's docs that lessons link to (the same two ``make lab`` copies beside the lessons)
LINKED_DOCS = ("rules.md", "data.md")


def _student_module():
    """safari_kit.authoring.student from this checkout (the build venv does not install the kit; the module
    needs the standard library and jupytext only)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from safari_kit.authoring import student

    return student


def stage(lite: Path, teacher: bool = False, lessons: Path = REPO / "notebooks") -> Path:
    """The site's contents in ``lite/contents``: student copies of ``lessons`` in notebooks/, the card data
    in data/, and with ``teacher`` the teacher's copies in teacher/. Returns the contents folder."""
    student = _student_module()
    shutil.rmtree(lite, ignore_errors=True)
    contents = lite / "contents"
    (contents / "data").mkdir(parents=True)
    try:
        student.write_student_copies(lessons, contents / LEARNERS, languages=True)  # notebooks/es/ too
    except (OSError, ValueError) as exc:
        sys.exit(f"student copies: {exc}")
    if teacher:
        (contents / TEACHER).mkdir()
        for nb in sorted(lessons.glob("*.ipynb")):
            copy = student.read_lesson(nb)
            (contents / TEACHER / nb.name).write_text(json.dumps(copy, indent=1, ensure_ascii=False) + "\n",
                                                      encoding="utf-8")
    shutil.copy(REPO / "data" / "cards.csv", contents / "data" / "cards.csv")
    # the docs the lessons link to (``../docs/rules.md`` from notebooks/), with their pictures: those links
    # open in JupyterLite (as Markdown Preview: site-src/jupyter-lite.json) instead of a missing file
    (contents / "docs").mkdir()
    for name in LINKED_DOCS:
        shutil.copy(REPO / "docs" / name, contents / "docs" / name)
    shutil.copytree(REPO / "docs" / "img", contents / "docs" / "img")
    return contents


#: what the kit's wheel and the site's contents are made from (pyproject.toml's wheel target: the package, the
#: data, docs and lessons it force-includes; the README is its description); the code that stages the contents
#: (build_site.py, the student copies' in safari_kit) and the build venv's pins (jupytext) are in it too
SOURCES = ("pyproject.toml", "README.md", "safari_kit", "data", "docs", "notebooks", "site-src/build_site.py",
           "site-src/requirements.txt")


def sources_digest(repo: Path = REPO) -> str:
    """A digest of every file of SOURCES (path and bytes; bytecode caches left out): equal digests, equal kit
    wheel and contents."""
    h = hashlib.sha256()
    for top in SOURCES:
        path = repo / top
        files = [path] if path.is_file() else sorted(
            p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and ".ipynb_checkpoints" not in p.parts)
        for f in files:
            data = f.read_bytes()
            h.update(f"{f.relative_to(repo).as_posix()}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def stage_once(lite: Path, cache: Path, teacher: bool = False) -> Path:
    """``stage``, or a copy of the contents the last build staged from the same sources (the offline and online
    builds of a test run stage the same contents: the student copies are 3 CPU-s, issue 28)."""
    kept = cache / "contents"
    key = f"{sources_digest()} teacher={teacher}"
    if (kept / "SOURCES").is_file() and (kept / "SOURCES").read_text() == key:
        shutil.rmtree(lite, ignore_errors=True)
        shutil.copytree(kept / "contents", lite / "contents")
        log("contents: the student copies staged by the last build, from these same sources")
        return lite / "contents"
    contents = stage(lite, teacher=teacher)
    new = cache / "contents.new"
    shutil.rmtree(new, ignore_errors=True)
    shutil.copytree(contents, new / "contents")
    (new / "SOURCES").write_text(key)
    shutil.rmtree(kept, ignore_errors=True)
    new.rename(kept)
    return contents


#: ``voici build``'s arguments (run in the lite folder): part of what the reuse of its output is keyed on
VOICI_ARGS = ("--contents", "contents", "--no-sourcemaps", "--apps", "lab", "--apps", "notebooks", "--apps", "tree",
              "--apps", "voici")


class VoiciReuseError(Exception):
    """The last ``voici build``'s output is not as ``reuse_voici_output`` expects it (Voici changed?)."""


def voici_build(bindir: Path, lite: Path, out: Path, cache: Path, settings: dict) -> None:
    """``voici build`` of ``lite`` into ``out``, or a copy of the last build's output when everything it read but
    the kernel's settings (and ``out``'s own name) was the same (``voici_key``): the offline and online builds of
    a test run differ only there (7-8 CPU-s, issue 28). The copy gets this build's settings and name written in
    where Voici writes them (``reuse_voici_output``), so it is the output a fresh ``voici build`` gives, byte for
    byte, but the contents' time stamps. Kept in ``cache/voici``."""
    kept = cache / "voici"
    key = voici_key(lite, bindir, out)
    if key and (kept / "BUILD.json").is_file():
        last = json.loads((kept / "BUILD.json").read_text())
        if last["key"] == key:
            shutil.copytree(kept / "out", out)
            try:
                pages = reuse_voici_output(out, last["settings"], settings, last["name"], out.name)
            except VoiciReuseError as exc:
                shutil.rmtree(kept, ignore_errors=True)
                sys.exit(f"voici build: the last build's output cannot be reused: {exc}. It is deleted: build "
                         "again, and update reuse_voici_output (site-src/build_site.py) to the new Voici")
            log(f"voici build: the last build's output (the same inputs), with this build's kernel settings in "
                f"jupyter-lite.json and {pages} Voici pages")
            return
    run([str(bindir / "voici"), "build", "--lite-dir", str(lite), "--output-dir", str(out), *VOICI_ARGS],
        cwd=lite, stdout=subprocess.DEVNULL)
    shutil.rmtree(kept, ignore_errors=True)
    if not key:
        return
    new = cache / "voici.new"
    shutil.rmtree(new, ignore_errors=True)
    shutil.copytree(out, new / "out")
    (new / "BUILD.json").write_text(json.dumps({"key": key, "settings": settings, "name": out.name}))
    new.rename(kept)


def voici_key(lite: Path, bindir: Path, out: Path) -> str:
    """A digest of everything ``voici build`` reads but the kernel's settings: the lite folder (its config without
    the kernel's settings), the build venv (its packages, its share/jupyter), the command, the Jupyter
    environment variables, the folders. ``out``'s name is left out (``reuse_voici_output`` writes it): "" (do
    not reuse) when the name is not a plain one."""
    if not re.fullmatch(r"[A-Za-z0-9._-]+", out.name) or len(out.parts) < 3:
        return ""
    venv = bindir.parent
    site_packages = sorted(p.name for p in venv.glob("lib/python*/site-packages/*.dist-info"))
    jupyter = sorted(p for p in (venv / "share" / "jupyter").rglob("*") if p.is_file())
    h = hashlib.sha256(json.dumps([str(bindir), str(lite), str(out.parent), VOICI_ARGS, site_packages,
                                   sorted((k, v) for k, v in os.environ.items() if k.startswith("JUPYTER"))]).encode())
    for f in jupyter:
        st = f.stat()
        h.update(f"{f.relative_to(venv).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    for f in sorted(p for p in lite.rglob("*") if p.is_file()):
        data = f.read_bytes()
        if f == lite / "jupyter-lite.json":
            config = json.loads(data)
            config["jupyter-config-data"].get("litePluginSettings", {}).pop(KERNEL_PLUGIN, None)
            data = json.dumps(config, sort_keys=True).encode()
        h.update(f"{f.relative_to(lite).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def relative_urls(config: dict, prefix: str) -> dict:
    """A copy of ``config`` with its ``./`` URLs made relative to a page ``prefix`` deep, as Voici does for the
    config of each of its pages (voici_core.tree_exporter.patch_relative_urls, voici 0.10)."""
    config = json.loads(json.dumps(config))
    _relative_urls(config, prefix)
    return config


def _relative_urls(config: dict, prefix: str) -> None:
    for key, value in config.items():
        if key in ("licensesUrl", "themesUrl", "federated_extensions"):
            continue
        if isinstance(value, dict):
            _relative_urls(value, prefix)
        elif key.endswith("Url") and isinstance(value, str) and value.startswith("./"):
            config[key] = prefix + value[2:]
        elif key.endswith("Urls") and isinstance(value, list):
            config[key] = [prefix + v[2:] if v.startswith("./") else v for v in value]


def _same(a, b) -> bool:  # JSON-equal, types too (True is not 1)
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def voici_pages(out: Path) -> list[Path]:
    """The pages Voici renders with the site's config in them: its tree pages and its notebooks."""
    return sorted(p for top in ("render", "tree") for p in (out / "voici" / top).rglob("*.html"))


def reuse_voici_output(out: Path, old: dict, new: dict, old_name: str, new_name: str) -> int:
    """Turn ``voici build``'s output ``out``, made with the kernel's settings ``old`` into a folder named
    ``old_name``, into what it gives with ``new`` into one named ``new_name``: the settings in jupyter-lite.json
    and in the config of every Voici page (made relative to the page as Voici makes them, written as its
    template writes them), and the top tree page's title. Every file is checked to be as Voici writes it first:
    raises VoiciReuseError otherwise (a page without its config, settings not where they should be). Returns
    how many pages."""
    # Voici's templates write the config with ``| tojson``: jinja2's, with its default policy (sorted keys)
    from jinja2.utils import htmlsafe_json_dumps

    path = out / "jupyter-lite.json"
    text = path.read_text()
    data = json.loads(text)
    if json.dumps(data, indent=2, sort_keys=True) != text:
        raise VoiciReuseError("jupyter-lite.json is not written as JupyterLite writes it")
    plugins = data["jupyter-config-data"].get("litePluginSettings", {})
    plugin = plugins.get(KERNEL_PLUGIN)
    if plugin is None or not _same({k: plugin.get(k) for k in old}, old):
        raise VoiciReuseError("jupyter-lite.json does not hold the kernel's settings of the last build")
    new_plugin = {**{k: v for k, v in plugin.items() if k not in old}, **new}
    plugins[KERNEL_PLUGIN] = new_plugin
    path.write_text(json.dumps(data, indent=2, sort_keys=True))
    pages = voici_pages(out)
    if not pages:
        raise VoiciReuseError("no Voici page in voici/render or voici/tree")
    for page in pages:
        where = page.relative_to(out).as_posix()
        text = page.read_text()
        found = list(CONFIG_DATA.finditer(text))
        if len(found) != 1:
            raise VoiciReuseError(f"{where}: {len(found)} configs (jupyter-config-data), not one")
        raw = found[0].group(2)
        config = json.loads(raw)
        if str(htmlsafe_json_dumps(config, sort_keys=True)) != raw.strip():
            raise VoiciReuseError(f"{where}: the config is not written as Voici's template writes it")
        prefix = config.get("baseUrl", "")
        page_plugins = config.get("litePluginSettings", {})
        if not re.fullmatch(r"(\.\./)+", prefix) or not _same(page_plugins.get(KERNEL_PLUGIN),
                                                               relative_urls(plugin, prefix)):
            raise VoiciReuseError(f"{where}: the config does not hold the kernel's settings of the last build")
        page_plugins[KERNEL_PLUGIN] = relative_urls(new_plugin, prefix)
        lead, trail = raw[:len(raw) - len(raw.lstrip())], raw[len(raw.rstrip()):]
        written = str(htmlsafe_json_dumps(config, sort_keys=True))
        text = text[:found[0].start(2)] + lead + written + trail + text[found[0].end(2):]
        if page == out / "voici" / "tree" / "index.html" and old_name != new_name:
            # its title: the last two parts of the output's files/ (VoiciTreeExporter.generate_page_title)
            title = re.compile(r"(<title>\s*)" + re.escape(f"{old_name}/files/") + r"(\s*</title>)")
            text, n = title.subn(lambda m: m.group(1) + f"{new_name}/files/" + m.group(2), text)
            if n != 1:
                raise VoiciReuseError(f"{where}: its title is not {old_name}/files/")
        page.write_text(text)
    return len(pages)


def _js_object(literal: str) -> dict:
    """A minified JS object literal of plain names, strings and numbers, as a dict."""
    return json.loads(re.sub(r"([{,])([A-Za-z_$][\w$]*):", r'\1"\2":', literal))


def kernel_metadata(lite_ext: Path) -> dict:
    """The notebook metadata the site's kernel writes when a notebook opens (its kernelspec and language_info),
    read from the Pyodide kernel's own bundle. Lessons that already carry it open unchanged: no unsaved-changes
    mark, no autosaved copy pinned in the learner's browser, so a republished lesson reaches every learner who
    did not edit it (issue 18, item 4)."""
    text = "\n".join(js.read_text(errors="replace") for js in sorted((lite_ext / "static").glob("*.js")))
    spec = re.search(r'spec:\{(name:"[^"]+",display_name:"[^"]+",language:"[^"]+")', text)
    info = re.search(r"language_info:(\{codemirror_mode:\{[^{}]*\}[^{}]*\})", text)
    if not spec or not info:
        sys.exit(f"the Pyodide kernel's kernelspec or language_info was not found in {lite_ext}: did it change?")
    return {"kernelspec": _js_object("{" + spec.group(1) + "}"), "language_info": _js_object(info.group(1))}


def set_kernel_metadata(contents: Path, metadata: dict) -> int:
    """Give every notebook of the site's contents the site kernel's metadata; returns how many."""
    count = 0
    for nb_path in sorted(contents.rglob("*.ipynb")):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        nb.setdefault("metadata", {}).update(metadata)
        nb_path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        count += 1
    return count


def teacher_only_cells(notebook: dict) -> list[str]:
    """What in a notebook is for the teacher only: cells tagged solution or teacher, teacher headings."""
    student = _student_module()
    found = []
    for i, cell in enumerate(notebook.get("cells", [])):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & {student.SOLUTION_TAG, student.TEACHER_TAG}:
            found.append(f"cell {i + 1} tagged {sorted(tags)}")
        text = "".join(cell["source"]) if isinstance(cell.get("source"), list) else cell.get("source", "")
        if cell.get("cell_type") == "markdown" and student.TEACHER_ONLY.search(student._without_code(text)):
            found.append(f"cell {i + 1}: {student.TEACHER_ONLY.search(student._without_code(text)).group(0)!r}")
    return found


def check_learner_pages(out: Path, teacher: bool) -> None:
    """Every notebook the site serves outside teacher/ is a student copy; teacher/ exists only if asked for."""
    bad = []
    for nb in (out / "files").rglob("*.ipynb"):
        rel = nb.relative_to(out / "files")
        if rel.parts[0] == TEACHER:
            if not teacher:
                bad.append(f"{rel}: teacher's copies in a site built without --teacher")
            continue
        bad += [f"{rel} {what}" for what in teacher_only_cells(json.loads(nb.read_text(encoding="utf-8")))]
    if bad:
        sys.exit("the learners' pages give answers away:\n  " + "\n  ".join(bad[:20]))


def lock_entry(name: str, path: Path, depends: list[str], file_name: str | None = None) -> dict:
    dist, version, tops = wheel_meta(path)
    return {"name": canonical(name), "version": version, "file_name": file_name or path.name,
            "install_dir": "site", "sha256": sha256(path), "package_type": "package",
            "imports": tops, "depends": depends, "unvendored_tests": False}


def write_runtime(out: Path, offline: bool, cache: Path, py: str, lite_ext: Path) -> None:
    pyodide = npm_package(f"pyodide@{PYODIDE_VERSION}", cache / "npm")
    npm_lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    target = out / "static" / "pyodide"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    wheels: dict[str, tuple[Path, list[str]]] = {}

    rows = read_wheel_list(offline)
    for (req, deps), (name, path) in zip(rows, download_wheels(rows, cache / "wheels", py).items()):
        wheels[name] = (path, deps)
    pypi_dir = lite_ext / "static" / "pypi"
    for name, deps in KERNEL_WHEELS.items():
        match = [p for p in pypi_dir.glob("*.whl") if canonical(p.name.split("-")[0]) == name]
        wheels[name] = (match[0], deps)
    gen = cache / "generated"
    shutil.rmtree(gen, ignore_errors=True)
    wheels["safari-site"] = (wheel_from_folder(SRC / "safari_site", "safari_site", "1.0", gen), [])
    if offline:
        wheels["sqlite3"] = (write_wheel(gen, "sqlite3", "0.0.0", {}), [])
    # the kit's wheel (hatchling builds it reproducibly): built once for both builds of a test run, again when a
    # source changes (sources_digest; `pip wheel` in its isolated env is 2 CPU-s, issue 28)
    kit_dir = cache / "kit"
    digest = sources_digest()
    if (kit_dir / "SOURCES").is_file() and (kit_dir / "SOURCES").read_text() == digest \
            and len(list(kit_dir.glob("safari_kit-*.whl"))) == 1:
        log(f"the kit's wheel: {next(kit_dir.glob('safari_kit-*.whl')).name}, built from these same sources")
    else:
        shutil.rmtree(kit_dir, ignore_errors=True)
        run([py, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(kit_dir), str(REPO)])
        (kit_dir / "SOURCES").write_text(digest)
    # the kit's play path needs only the standard library (issue 13): numpy and pandas are no dependency of its
    # lock entry, so the app page never loads them at start; online the lessons name them in their start-up list
    # and safari_site loads them in the app page's background (the Simulation lab); offline the sentence explains
    wheels["safari-kit"] = (next(kit_dir.glob("safari_kit-*.whl")), [])
    # IPython without its terminal front end at import, then every wheel (and offline the standard library)
    # precompiled for the site's Pyodide (site-src/kernel_startup.py, site-src/precompile.py: issue 18, item 3)
    work = Path(tempfile.mkdtemp(prefix="site-precompile-"))  # not in the cache: builds may run side by side
    ipython, deps = wheels["ipython"]
    wheels["ipython"] = (kernel_startup.slim_ipython(ipython, work / "slim"), deps)
    # without what the kernel never reads (pygments' other lexers, anywidget's bundled JavaScript, tests):
    # unpacked file by file on every visit (site-src/trim_wheels.py)
    files = size = 0
    for name, (path, deps) in list(wheels.items()):
        trimmed, n, b = trim_wheel(path, name, work / "trim")
        wheels[name] = (trimmed, deps)
        files, size = files + n, size + b
    log(f"wheels trimmed: {files} files the kernel never reads ({size / 1e6:.1f} MB unpacked)")
    jobs = [(path, work / "pyc" / path.name, "wheel") for path, _ in wheels.values()]
    stdlib = work / "pyc" / "python_stdlib.zip"
    if offline:
        jobs.append((pyodide / "python_stdlib.zip", stdlib, "stdlib"))
    report = precompile(jobs, pyodide, work / "node", kernel_startup.WARM_IMPORTS, kernel_startup.COMPILE_ALL)
    compiled = sum(int(n) for n in re.findall(r": (\d+) modules compiled", report))
    log(f"precompiled for the site's Pyodide: {compiled} modules")
    wheels = {name: (work / "pyc" / path.name, deps) for name, (path, deps) in wheels.items()}

    packages = {} if offline else {
        name: {**entry, "file_name": CDN + entry["file_name"]} for name, entry in npm_lock["packages"].items()}
    for name, (path, deps) in wheels.items():
        shutil.copy(path, target / path.name)
        packages[name] = lock_entry(name, path, deps)
    if offline:
        for name in CORE_FILES:
            shutil.copy(stdlib if name == "python_stdlib.zip" else pyodide / name, target / name)
        missing = {d for e in packages.values() for d in e["depends"] if d not in packages}
        if missing:
            sys.exit(f"offline lock: dependencies without a local wheel: {sorted(missing)}")
    shutil.rmtree(work, ignore_errors=True)
    lock = {"info": npm_lock["info"], "packages": dict(sorted(packages.items()))}
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
    log(f"lock: {len(wheels)} local wheels, {len(packages)} entries ({'offline' if offline else 'online'})")



def runtime_settings(offline: bool) -> dict:
    """The kernel's settings: Voici writes them into every page it renders, so they go in before the build."""
    options: dict = {"packages": STARTUP + ([] if offline else kernel_startup.LESSON_ONLINE),
                     "lockFileURL": "./static/pyodide/pyodide-lock.json"}
    settings: dict = {"loadPyodideOptions": options}
    if offline:
        settings.update(pyodideUrl="./static/pyodide/pyodide.js", disablePyPIFallback=True)
    return settings


def patch_config(out: Path, settings: dict) -> None:
    path = out / "jupyter-lite.json"
    config = json.loads(path.read_text())
    data = config["jupyter-config-data"]
    plugin = data.setdefault("litePluginSettings", {}).setdefault(KERNEL_PLUGIN, {})
    plugin.update(settings)
    data["appName"] = "safari_kit"
    path.write_text(json.dumps(config, indent=2))


def patch_kernel_startup(out: Path) -> None:
    patched = 0
    for js in (out / "extensions").rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        if START_UP_LINE in text:
            js.write_text(kernel_startup.patch_kernel_js(text.replace(START_UP_LINE, START_UP_PATCH)),
                          errors="surrogateescape")
            patched += 1
    if not patched:
        sys.exit(f"the kernel's start-up line {START_UP_LINE} was not found: jupyterlite-pyodide-kernel changed?")
    log(f"kernel start-up: `import safari_site` added in {patched} files")


def patch_service_worker(out: Path) -> None:
    """Settle the service-worker manager's ``ready`` where no service worker exists (see SW_UNSUPPORTED)."""
    patched = messages = 0
    for js in out.rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        new = text.replace(SW_UNSUPPORTED, SW_PATCH).replace(NOT_SYNCED, NOT_SYNCED_PATCH)
        if new != text:
            patched += text.count(SW_UNSUPPORTED)
            messages += text.count(NOT_SYNCED)
            js.write_text(new, errors="surrogateescape")
    if not patched or not messages:
        sys.exit("the service-worker manager's code was not found (jupyterlite-core or the Pyodide kernel changed?): "
                 "check whether its `ready` now settles without a service worker, then update build_site.py")
    log(f"service worker: `ready` settles without one in {patched} bundles")


def patch_service_worker_off(out: Path) -> None:
    """Let a page's config switch JupyterLite's service worker off (see SW_OFF_OPTION); after patch_service_worker,
    whose settled ``ready`` it relies on. Stops the build, naming the file, where the manager's code moved."""
    patched = 0
    for js in out.rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        if "async _initialize(" not in text or SW_PATCH not in text:
            continue
        start, config = SW_INITIALIZE.search(text), SW_PAGE_CONFIG.search(text)
        if not start or not config:
            sys.exit(f"{js}: the service-worker manager's start or its PageConfig was not found (jupyterlite-core "
                     "changed?): update SW_INITIALIZE or SW_PAGE_CONFIG in build_site.py")
        arg, worker = start.groups()
        off = f'"off"==={config.group(1)}.PageConfig.getOption("{SW_OFF_OPTION}")'
        text = (text[:start.start()] + f"async _initialize({arg}){{const{{serviceWorker:{worker}}}={off}?"
                f"{{serviceWorker:null}}:navigator;" + text[start.end():])
        # null: switched off by the page (said as such); undefined: the browser has none (JupyterLite's warning)
        said = SW_PATCH.replace('else console.warn(', f'else null==={worker}?console.info("{SW_OFF_SAID}"):'
                                                     'console.warn(')
        js.write_text(text.replace(SW_PATCH, said, 1), errors="surrogateescape")
        patched += 1
    if not patched:
        sys.exit("the service-worker manager's code was not found (jupyterlite-core changed?): the app page would "
                 "start a service worker again; update patch_service_worker_off in build_site.py")
    log(f"service worker: a page's config can switch it off in {patched} bundles")


def set_app_page_service_worker(page: Path) -> None:
    """The app page's config switches the service worker off (see SW_OFF_OPTION)."""
    html = page.read_text()
    m = CONFIG_DATA.search(html)
    if not m:
        sys.exit(f"{page}: no jupyter-config-data script to switch the service worker off in")
    config = json.loads(m.group(2))
    config[SW_OFF_OPTION] = "off"
    page.write_text(html[:m.start(2)] + json.dumps(config).replace("</", "<\\/") + html[m.end(2):])


def patch_service_worker_version(out: Path) -> None:
    """Keep the version that registered the service worker from the first visit on (see SW_REGISTERED)."""
    patched = 0
    for js in out.rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        if "JupyterLite ServiceWorker was" not in text:
            continue
        version = SW_VERSION.search(text)
        if not version:
            sys.exit(f"{js}: the service-worker manager's version check was not found (jupyterlite-core changed?): "
                     "check whether it now keeps the version when it registers, then update build_site.py")
        new, n = SW_REGISTERED.subn(SW_REGISTERED_PATCH.replace("VERSION", version.group(3)), text)
        if n != 1:
            sys.exit(f"{js}: the service worker's registration was found {n} times, not once (jupyterlite-core "
                     "changed?): update SW_REGISTERED in build_site.py")
        js.write_text(new, errors="surrogateescape")
        patched += 1
    if not patched:
        sys.exit("the service-worker manager's registration was not found (jupyterlite-core changed?): check whether "
                 "a second visit still unregisters the worker, then update or drop patch_service_worker_version")
    log(f"service worker: its version kept from the first visit in {patched} bundles")


def patch_heartbeat(out: Path) -> None:
    """Keep the service worker's heartbeat inside the site's own path (see HEARTBEAT_FETCH)."""
    pings = answers = 0
    for js in out.rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        new, answered = HEARTBEAT_ANSWER.subn(HEARTBEAT_ANSWER_PATCH, text.replace(HEARTBEAT_FETCH,
                                                                                 HEARTBEAT_FETCH_PATCH))
        if new != text:
            pings += text.count(HEARTBEAT_FETCH)
            answers += answered
            js.write_text(new, errors="surrogateescape")
    if not pings or not answers:
        sys.exit(f"the service worker's heartbeat was not found ({pings} pings, {answers} answers): jupyterlite-core "
                 "changed? If it now pings under the base URL, drop patch_heartbeat from build_site.py")
    log(f"service worker heartbeat: sent within the site in {pings} bundles, answered there in {answers}")


def patch_open_path(out: Path) -> None:
    """Open a ``?path=`` file after the learner's layout is back, not before (see OPEN_PATH)."""
    patched = 0
    for js in out.rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        new, n = OPEN_PATH.subn(OPEN_PATH_PATCH, text)
        if n:
            patched += n
            js.write_text(new, errors="surrogateescape")
    if not patched:
        sys.exit("JupyterLite's ?path= opener was not found (jupyterlite-core changed?): check whether it now waits "
                 "for the restored layout, then update or drop patch_open_path in build_site.py")
    log(f"?path=: the file opens after the learner's layout and the default viewers are back ({patched} bundles)")


def patch_anywidget_timeout(out: Path) -> None:
    """Give anywidget's models 5 minutes, not 2 s, to load their ESM (see ANYWIDGET_TIMEOUT)."""
    patched, missed = 0, []
    for js in (out / "extensions").rglob("*.js"):
        text = js.read_text(errors="surrogateescape")
        if ANYWIDGET_FAILED not in text:
            continue
        new, n = ANYWIDGET_TIMEOUT.subn(ANYWIDGET_TIMEOUT_PATCH, text)
        if n:
            patched += n
            js.write_text(new, errors="surrogateescape")
        else:
            missed.append(str(js.relative_to(out)))
    if not patched or missed:
        sys.exit(f"anywidget's 2-second model timeout was not found ({patched} patched; not in {missed}): anywidget "
                 "changed? Check how long its Runtime now waits for a widget's ESM, then update or drop "
                 "patch_anywidget_timeout in build_site.py")
    log(f"anywidget: a model may take 5 minutes, not 2 s, to load its ESM ({patched} bundles)")


VOICI_PAGES = "voici/render"
DOC_HREF = re.compile(r'(<a\b[^>]*\bhref=")([^"#:?]+)(#[^"]*)?"')


def link_docs_from_voici_pages(out: Path) -> int:
    """Voici's rendered lessons link a doc as the lesson does (``../docs/rules.md``), but from
    ``voici/render/notebooks/``, where no doc is: point such links to JupyterLite, which shows the doc (as
    Markdown Preview) from the drive. Links to another lesson are Voici's own (``01-meet-the-cards.html``).
    Returns how many links were changed (tests/browser/test_site_links.py checks every link of the site)."""
    changed = 0
    render = out / VOICI_PAGES
    for page in render.rglob("*.html"):
        folder = page.relative_to(render).parent        # the notebook's folder in the drive
        up = "../" * (len(page.relative_to(out).parts) - 1)

        def to_lab(m: re.Match) -> str:
            nonlocal changed
            target = Path(os.path.normpath(folder / m.group(2))).as_posix()
            if m.group(2).endswith(".html") or target.startswith("..") or not (out / "files" / target).is_file():
                return m.group(0)
            changed += 1
            return f'{m.group(1)}{up}lab/index.html?path={target}{m.group(3) or ""}"'

        text = page.read_text()
        new = DOC_HREF.sub(to_lab, text)
        if new != text:
            page.write_text(new)
    return changed


def drop_extensions(out: Path, names=UNWANTED_EXTENSIONS) -> int:
    """Take labextensions out of the built site: their folders, and their entries in every page's config (the
    root jupyter-lite.json, and the config Voici writes into each of its pages). Returns the entries dropped."""
    dropped = 0

    def without(config: dict) -> dict:
        nonlocal dropped
        exts = config.get("federated_extensions")
        if isinstance(exts, list):
            kept = [e for e in exts if e.get("name") not in names]
            dropped += len(exts) - len(kept)
            config["federated_extensions"] = kept
        return config

    for path in out.rglob("jupyter-lite.json"):
        data = json.loads(path.read_text())
        before = dropped
        without(data.get("jupyter-config-data", {}))
        if dropped != before:
            path.write_text(json.dumps(data, indent=2))
    for page in (out / "voici").rglob("*.html"):
        text = page.read_text()
        new = CONFIG_DATA.sub(lambda m: m.group(1) + json.dumps(without(json.loads(m.group(2)))).replace("</", "<\\/")
                              + m.group(3), text)
        if new != text:
            page.write_text(new)
    schemas = out / "build" / "schemas" / "all_federated.json"
    if schemas.is_file():
        plugins = json.loads(schemas.read_text())
        schemas.write_text(json.dumps([p for p in plugins if p.get("id", "").split(":")[0] not in names]))
    for name in names:
        shutil.rmtree(out / "extensions" / name, ignore_errors=True)
    return dropped


def guard_file_urls(out: Path) -> None:
    """Every page says in one sentence that it must be served over http when it is opened as a file."""
    script = f"<script>{NO_SERVER.read_text().strip()}</script>"
    for html in out.rglob("*.html"):
        text = html.read_text()
        if "safari-no-server" in text:
            continue
        new = re.sub(r"<head([^>]*)>", lambda m: f"<head{m.group(1)}>\n{script}", text, count=1)
        if new == text:
            sys.exit(f"{html.relative_to(out)}: no <head> to put the file:// sentence in")
        html.write_text(new)


def localize_pages(out: Path, cache: Path) -> None:
    fa = npm_package(f"@fortawesome/fontawesome-free@{FONTAWESOME_VERSION}", cache / "npm")
    dest = out / "static" / "fontawesome"
    shutil.rmtree(dest, ignore_errors=True)
    (dest / "css").mkdir(parents=True)
    for name in ("all.min.css", "v4-shims.min.css"):
        shutil.copy(fa / "css" / name, dest / "css" / name)
    shutil.copytree(fa / "webfonts", dest / "webfonts", ignore=shutil.ignore_patterns("*.eot", "*.svg", "*.ttf"))
    script = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*?</script>", re.S)
    for html in out.rglob("*.html"):
        text = html.read_text()
        depth = len(html.relative_to(out).parts) - 1
        up = "../" * depth
        new = re.sub(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@[^/]+/css/",
                     f"{up}static/fontawesome/css/", text)
        new = re.sub(r"<link[^>]*font-awesome@4[^>]*>",  # the tree page's Font Awesome 4: version 5 and its shims
                     f'<link rel="stylesheet" href="{up}static/fontawesome/css/all.min.css">'
                     f'<link rel="stylesheet" href="{up}static/fontawesome/css/v4-shims.min.css">', new)
        new = script.sub(lambda m: "" if "cdnjs.cloudflare.com" in m.group(0) else m.group(0), new)
        if new != text:
            html.write_text(new)


def link_favicon(out: Path) -> int:
    """Give every page of the site without an icon link one to the site's own favicon.ico (relative): a page
    without one makes the browser ask the server's root for /favicon.ico, outside the site when it is
    published under a school's sub-path (/school/safari/). Returns the pages changed."""
    skip = {"static", "extensions", "build"}
    changed = 0
    for page in out.rglob("*.html"):
        rel = page.relative_to(out)
        if skip & set(rel.parts[:-1]):
            continue
        text = page.read_text()
        if re.search(r"<link[^>]*rel=[\"']?(?:shortcut )?icon", text) or "</head>" not in text:
            continue
        up = "../" * (len(rel.parts) - 1)
        page.write_text(text.replace("</head>", f'<link rel="icon" href="{up}favicon.ico"></head>', 1))
        changed += 1
    return changed


def landing_page(out: Path, contents: Path, teacher: bool = False, prestart: bool = False) -> None:
    """The landing page: the lessons (student copies), and with ``teacher`` the teacher's copies, apart; with
    ``prestart`` (``make site PRESTART=1``) it starts the app in a hidden frame while it is read (index.html)."""
    section = ""
    if teacher:
        items = "\n".join(f'      <li><a href="./lab/index.html?path={TEACHER}/{nb.name}">{nb.stem}</a></li>'
                          for nb in sorted((contents / TEACHER).glob("[0-9]*.ipynb")))
        section = ("  <h2>For the teacher: lessons with worked solutions and teacher notes</h2>\n"
                   "  <p><small>This site was built with <code>make site TEACHER=1</code>: keep it for yourself. "
                   "Give the class a site built without it.</small></p>\n"
                   f"  <ul class=\"teacher\">\n{items}\n  </ul>")
    # one block a language, the words from the kit's catalogue (site-src/site_languages.py, issue 30)
    site_languages.landing_page(out, contents, section, prestart, LEARNERS)


def check_local(out: Path, offline: bool) -> None:
    """No page, config or lock may name another host (offline: neither may the lock)."""
    bad = []
    for html in out.rglob("*.html"):
        for m in EXTERNAL.finditer(html.read_text()):
            bad.append(f"{html.relative_to(out)}: {m.group(0)}")
    config = (out / "jupyter-lite.json").read_text()
    if "://" in config:
        bad.append("jupyter-lite.json names a URL")
    lock = (runtime_folder(out) / "pyodide-lock.json").read_text()
    if offline and "://" in lock:
        bad.append("pyodide-lock.json names a URL")
    maps = list(out.rglob("*.map"))
    if offline and maps:
        bad.append(f"{len(maps)} source maps left, e.g. {maps[0]}")
    if bad:
        sys.exit("external references left in the site:\n  " + "\n  ".join(bad[:20]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--offline", action="store_true", help="the npm core runtime and local wheels only")
    ap.add_argument("--teacher", action="store_true",
                    help="also the teacher's copies (worked solutions, teacher notes) in teacher/: not for the class")
    ap.add_argument("--prestart", action="store_true",
                    help="the landing page starts the app while it is read (for a class that goes to the app)")
    ap.add_argument("--out", default=str(REPO / "site"))
    ap.add_argument("--cache", default=str(REPO / ".site-build"))
    args = ap.parse_args(argv)
    out, cache = Path(args.out).resolve(), Path(args.cache).resolve()
    py = sys.executable
    bindir = Path(py).parent
    lite = cache / "lite"
    lite_ext = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension"
    contents = stage_once(lite, cache, teacher=args.teacher)
    metadata = kernel_metadata(lite_ext)
    log(f"kernel metadata {metadata['kernelspec']['name']!r} in {set_kernel_metadata(contents, metadata)} notebooks")
    settings = runtime_settings(args.offline)
    config = json.loads((SRC / "jupyter-lite.json").read_text())
    config["jupyter-config-data"].setdefault("litePluginSettings", {})[KERNEL_PLUGIN] = settings
    (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=2))
    shutil.rmtree(out, ignore_errors=True)
    voici_build(bindir, lite, out, cache, settings)
    write_runtime(out, args.offline, cache, py, lite_ext)
    patch_config(out, settings)
    patch_kernel_startup(out)
    kernel_startup.set_page_packages(out / kernel_startup.APP_PAGE, kernel_startup.APP_STARTUP)
    set_app_page_service_worker(out / kernel_startup.APP_PAGE)
    kernel_startup.add_starting_note(out / kernel_startup.APP_PAGE, None if args.offline else CDN + "pyodide.js")
    try:  # what the app page does not need (site-src/app_page_trim.py)
        log("app page: " + "; ".join(trim_app_page(out / kernel_startup.APP_PAGE)))
        log("Voici's start-up: " + skip_mathjax(out / VOICI_BUILD))  # before its folder is named by its content
    except AppPageTrimError as exc:
        sys.exit(f"the app page's trim: {exc}")
    for page in kernel_startup.LESSON_PAGES:
        kernel_startup.add_starting_note(out / page, None if args.offline else CDN + "pyodide.js", "lesson")
    localize_pages(out, cache)
    landing_page(out, contents, teacher=args.teacher, prestart=args.prestart)
    shutil.copy(out / "lab" / "favicon.ico", out / "favicon.ico")  # browsers ask every site for /favicon.ico
    log(f"{link_favicon(out)} pages link the site's favicon.ico (none asks the server's root for one)")
    shutil.copy(SRC / "serve_site.py", out / "serve.py")  # `python3 site/serve.py`: served with cache headers
    patch_service_worker(out)
    patch_service_worker_off(out)
    patch_service_worker_version(out)
    patch_heartbeat(out)
    patch_open_path(out)
    patch_anywidget_timeout(out)
    log(f"labextensions left out: {', '.join(UNWANTED_EXTENSIONS)} ({drop_extensions(out)} config entries)")
    guard_file_urls(out)
    log(f"Voici's pages: {link_docs_from_voici_pages(out)} links to docs point to JupyterLite")
    for m in out.rglob("*.map"):
        m.unlink()
    runtime = version_runtime(out)
    try:  # the app page's pieces of Voici's scripts in one file, once every patch of them is done (issue 31)
        log("app page: " + app_chunks.bundle(out / VOICI_BUILD, out / kernel_startup.APP_PAGE))
    except app_chunks.AppPiecesError as exc:
        sys.exit(f"the app page's scripts: {exc}")
    log(f"runtime in {runtime}/, Voici's scripts in {version_voici_build(out)}/: named by their "
        "content, kept by browsers without asking")
    try:  # the app page's Python from a memory snapshot (site-src/snapshot.py)
        log(snapshot.build(out, out / runtime, npm_package(f"pyodide@{PYODIDE_VERSION}", cache / "npm"),
                           out / kernel_startup.APP_PAGE))
    except snapshot.SnapshotError as exc:
        sys.exit(f"the app page's snapshot: {exc}")
    try:  # the app page and JupyterLab in the learner's language (site-src/site_languages.py, issue 30)
        log(site_languages.stage_pages(out, contents, out / kernel_startup.APP_PAGE))
    except site_languages.SiteLanguageError as exc:
        sys.exit(f"the site's languages: {exc}")
    (out / "BUILD.json").write_text(json.dumps({"offline": args.offline, "teacher": args.teacher,
                                                "prestart": args.prestart, "pyodide": PYODIDE_VERSION}, indent=1))
    # gzip copies for servers that send them (serve.py, nginx's gzip_static): site-src/precompress.py, issue 31
    files, raw, packed = precompress(out)
    log(f"gzip copies of {files} scripts, pages and the runtime: {raw / 1e6:.1f} MB -> {packed / 1e6:.1f} MB")
    check_local(out, args.offline)
    check_learner_pages(out, args.teacher)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    if args.teacher:
        log(f"with the teacher's copies in {TEACHER}/ (worked solutions, teacher notes): not a site for the class")
    log(f"{out} ready ({'offline' if args.offline else 'online runtime'}): {size / 1e6:.1f} MB; "
        f"serve it with `python3 {out.name}/serve.py` (cache headers; --bind 0.0.0.0 for the class)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
