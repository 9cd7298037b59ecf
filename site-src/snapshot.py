"""The site's Python from a memory snapshot (issue 31, item 1): made at build time, restored in the browser by the
app page and by the lessons.

Why: on every visit the kernel started Python, unpacked some twenty wheels and imported IPython, the kernel,
ipywidgets, anywidget and the kit: most of the 25-31 s a learner waited for the app page at a quarter of a core on
a second visit. A Pyodide memory snapshot is Python's whole memory after those imports, saved once by the build (in
node, with the site's own runtime: site-src/make_snapshot.mjs). The browser's kernel worker hands it to
``loadPyodide`` (``_loadSnapshot``) and Python is where the build left it, without running a single import again.

One snapshot serves both kinds of page: it holds the app's imports and the lessons' (``LESSON_IMPORTS``: the
``%pip`` machinery, completion). Both are 36.3 MB of memory (the heap grows by whole pages): the lessons' imports
add 1 KB, and 1.7 MB to the gzip copy (9.8 -> 11.5 MB), where a second snapshot would be another 36 MB to make
and another 11.5 MB download for a learner who visits both. A lesson's visit costs the browser 1.4-1.8 CPU-s
less with it uncapped, and is ready 11-15 s sooner at a quarter core (tools/measure_lesson_start.py).

What it takes (Pyodide 0.29.0: the options are private, tied to the exact runtime build, its ``BUILD_ID``):

* **files**: a snapshot is memory only, no file. On the app page the restore loads the kit's and safari_site's
  files first (anywidget reads the cards' CSS and JavaScript from the kit's files; the kernel's start imports
  safari_site.later), the other packages' files in the background; a lesson writes every package's files with
  the restore (jedi reads its typeshed at the first completion, micropip parts of itself at the first ``%pip``),
  from one bundle (``files.bin.gz`` beside the snapshot, below). The restore also makes again the folders
  IPython made at import. Pyodide must not think the packages loaded when it saves (its ``loadedPackages``
  emptied: pyodide#5195, #6418), else the restore would skip them;
* **the lessons' files in one bundle** (session 9): unpacking the lessons' fourteen wheels (3,100 files, 1,800 of
  them jedi's typeshed) was Pyodide's ``loadPackage``, in Python, on every visit: some 2 CPU-s of the kernel
  worker's 2.7 (tools/profile_site_page.py --lesson). The build saves site-packages as node's install left it
  (make_snapshot.mjs: the same files, byte for byte, and Pyodide's ``loadedPackages``), gzip-compressed; the
  browser inflates it (``DecompressionStream``) and writes the files with ``FS.writeFile``. Where that fails (no
  DecompressionStream, a damaged or missing bundle) the restore unpacks the wheels as before;
* **the app page's first files in a bundle of their own** (session 13): ``files-app.bin.gz``, only the kit's and
  safari_site's files (cut from the same walk of site-packages), written the same way instead of unpacking
  their two wheels in Python at each visit (in node: Pyodide's ``loadPackage`` of the two 0.8 CPU-s, writing the
  bundle 0.1); the app page's other packages still come later from their wheels;
* **JS objects Python holds** (``pyodide_js``, ``loadPackagesFromImports``; micropip's ``install`` and
  ``loadBinaryFile`` of ``pyodide._api``): saved by their path on the Pyodide API, looked up on the new one at
  the restore; any other object stops the build, naming it;
* **chance**: every visit restores the same memory, so ``random``'s generator (and any other seeded at import)
  is reseeded after the restore, and micropip gets the page's lock file address (site-src/snapshot_after_restore.py);
* **the worker**: a function (site-src/snapshot_loader.js) replaces the kernel worker's ``loadPyodide(...)``
  call in jupyterlite-pyodide-kernel's bundles. It falls back to the usual start whenever the snapshot cannot be
  used (missing, damaged, another runtime build, an error while restoring), with no other word to the learner
  than the usual sentence.

The snapshot goes in a folder named by its content, ``static/snapshot-<hash>/kernel.bin`` (served
``immutable``: site-src/serve_site.py), with a gzip copy beside it (``kernel.bin.gz``: 36 MB -> 11.5 MB) for
servers that send precompressed files (serve.py does; nginx ``gzip_static on``; Apache: docs/teachers.md). The
app page names it in its own settings (Voici writes them into the page), the lessons in the site's
jupyter-lite.json. The build fails loudly, naming the file and what it looked for, when a pattern it patches is
missing.

The online build's pages load part of their packages from the CDN (traitlets, pygments, numpy, ...): node would
have to fetch them at build time, and the restore would mix the CDN's files with memory made from others, so
that build has no snapshot (it says so in its log); the offline build, whose every file is the site's own, has.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from versioned_runtime import folder_digest

SRC = Path(__file__).resolve().parent
MAKER = SRC / "make_snapshot.mjs"
LOADER = SRC / "snapshot_loader.js"
AFTER_RESTORE = SRC / "snapshot_after_restore.py"
#: the app page's kernel settings (Voici writes the whole config into the page)
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
CONFIG = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S)
#: the kernel worker's start of Python in jupyterlite-pyodide-kernel 0.7.0 (minified; the names change)
WORKER_CALL = re.compile(r"this\._pyodide=await (\w+)\("
                         r"(\{indexURL:\w+,stdout:.{0,400}?\.\.\.\w+\.loadPyodideOptions\})\)")
WORKER_PATTERN = "this._pyodide=await X({indexURL:..., ...e.loadPyodideOptions})"
#: Pyodide's private snapshot options, looked for in its loader (pyodide.js) before anything is patched
PYODIDE_OPTIONS = ("_loadSnapshot", "_snapshotDeserializer", "BUILD_ID")
#: the snapshot's folder and file names; the lessons' packages' files (gzip-compressed: the browser inflates it
#: itself, so every server sends it small, with or without gzip_static)
FOLDER, FILE, BUNDLE = "static/snapshot", "kernel.bin", "files.bin.gz"
#: the app page's own files bundle: only its first packages' files (the kit and safari_site), session 13
APP_BUNDLE = "files-app.bin.gz"
#: imported by the first lab built (tools: tests/browser/snapshot_restore_probe.mjs with sys.modules before/after)
FIRST_LAB_IMPORTS = ["csv", "difflib", "encodings.utf_8_sig", "importlib.readers", "importlib.resources.readers",
                     "importlib.resources._adapters", "safari_kit.cards.load",
                     "safari_kit.cards.validate", "safari_kit.cards.html", "safari_kit.simulation.witness_bots",
                     "safari_kit.simulation.knockout_bots", "safari_kit.tutorial.tutorials",
                     "safari_kit.tutorial.tutorial_quiz", "safari_kit.tutorial.learner_rules.html"]
#: imported before the snapshot is made: the kernel's start, the app page's cell, and the labs it opens
IMPORTS = ["pyodide_kernel", "safari_site", "ipywidgets", "anywidget", "safari_kit.widgets.app",
           "safari_kit.widgets.labs", "safari_kit.widgets.labs.identification", "safari_kit.widgets.labs.knockout",
           "safari_kit.widgets.labs.challenge", "safari_kit.widgets.labs.fullgame",
           "safari_kit.widgets.labs.tutorial", "safari_kit.widgets.rules_page",
           # what the first lab of each kind imports as it is built (the cards' files, the bots, the tutorials'
           # texts): imported after a restore, they were read and compiled again, which made the first lab slower
           # after a restore than after a cold start (0.24-0.44 s against 0.10 s in node, uncapped; issue 31)
           *FIRST_LAB_IMPORTS]
#: what a lesson's kernel imports at start beyond the app's: the package manager of ``%pip`` (micropip; piplite,
#: set up by the kernel worker) and completion (jedi, with parso). The same snapshot serves both pages (issue 31):
#: these add 1 KB to its 36 MB (1.7 MB to its gzip copy), a second snapshot would be 36 MB more to build and to
#: download for a learner who visits both
LESSON_IMPORTS = ["micropip", "piplite.piplite", "jedi"]
#: loaded with the restore, before the kernel starts: the rest of the app page's packages follow in the background
FIRST = ["safari-kit", "safari-site"]
#: the lessons' config (JupyterLite's lab and notebook pages read it; Voici's app page has its own copy)
LESSON_CONFIG = "jupyter-lite.json"


class SnapshotError(ValueError):
    """The snapshot cannot be made: the build stops with this message."""


class PatternMissing(SnapshotError):
    """Code the build patches (jupyterlite-pyodide-kernel's worker, Pyodide's loader) is not where it was."""


class SnapshotFailed(SnapshotError):
    """node could not make the snapshot (an import failed, Python holds a JS object that cannot be saved)."""


def patch_worker(text: str, where: str) -> str:
    """A kernel worker bundle with its ``loadPyodide(...)`` call going through site-src/snapshot_loader.js."""
    loader = LOADER.read_text()
    new, count = WORKER_CALL.subn(lambda m: f"this._pyodide=await ({loader})({m.group(1)},{m.group(2)})", text)
    if not count:
        raise PatternMissing(f"{where}: the kernel worker's start of Python ({WORKER_PATTERN}) was not found: "
                             "jupyterlite-pyodide-kernel changed? update WORKER_CALL in site-src/snapshot.py")
    return new


def patch_workers(out: Path) -> int:
    """Patch every bundle of the Pyodide kernel's extension that starts Python; returns how many calls."""
    folder = out / "extensions" / "@jupyterlite" / "pyodide-kernel-extension"
    patched = 0
    for js in sorted(folder.rglob("*.js")):
        text = js.read_text(errors="surrogateescape")
        if "loadPyodideOptions" in text and "this._pyodide=await" in text:
            js.write_text(patch_worker(text, str(js.relative_to(out))), errors="surrogateescape")
            patched += len(WORKER_CALL.findall(text))
    if not patched:
        raise PatternMissing(f"{folder.relative_to(out)}: no bundle with the kernel worker's start of Python "
                             f"({WORKER_PATTERN}): jupyterlite-pyodide-kernel changed?")
    return patched


def check_pyodide(loader_js: Path) -> None:
    """Pyodide's loader still reads the private snapshot options (they are tied to its version)."""
    text = loader_js.read_text(errors="surrogateescape")
    missing = [name for name in PYODIDE_OPTIONS if name not in text]
    if missing:
        raise PatternMissing(f"{loader_js}: Pyodide's loader has no {', '.join(missing)}: this Pyodide cannot "
                             "restore a snapshot the way site-src/snapshot_loader.js does")


def run_node(job: dict, work: Path) -> dict:
    """Run site-src/make_snapshot.mjs; returns what it wrote beside the snapshot (size, checksum, build id,
    files)."""
    if not shutil.which("node"):
        raise SnapshotFailed("making the app page's snapshot needs node (apt-get install nodejs)")
    (work / "job.json").write_text(json.dumps(job))
    proc = subprocess.run(["node", str(MAKER), str(work / "job.json")], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode or not Path(job["out"] + ".json").is_file():
        raise SnapshotFailed(f"node {MAKER.name} failed (rc={proc.returncode}): {proc.stdout.strip()[-3000:]}")
    return json.loads(Path(job["out"] + ".json").read_text())


def app_packages(page: Path) -> list[str]:
    """The app page's start-up packages (site-src/kernel_startup.py set them in its config)."""
    return list(_plugin(_config(page))["loadPyodideOptions"]["packages"])


def _config(page: Path) -> dict:
    m = CONFIG.search(page.read_text())
    if not m:
        raise PatternMissing(f"{page}: no jupyter-config-data script (Voici's page changed?)")
    return json.loads(m.group(2))


def _plugin(config: dict) -> dict:
    return config["litePluginSettings"][KERNEL_PLUGIN]


def set_page_snapshot(page: Path, url: str, settings: dict, files_url: str | None = None) -> None:
    """Name the snapshot (and ``files_url``, its bundle of the first packages' files) in the app page's kernel
    settings (only that page restores it)."""
    html = page.read_text()
    m = CONFIG.search(html)
    if not m:
        raise PatternMissing(f"{page}: no jupyter-config-data script (Voici's page changed?)")
    config = json.loads(m.group(2))
    options = _plugin(config)["loadPyodideOptions"]
    options["safariSnapshotURL"] = url  # a ...URL key: the kernel makes it absolute, as lockFileURL
    options["safariSnapshot"] = settings
    if files_url:
        options["safariFilesURL"] = files_url  # a ...URL key: the kernel makes it absolute
    page.write_text(html[:m.start(2)] + json.dumps(config).replace("</", "<\\/") + html[m.end(2):])


def lesson_packages(config: Path) -> list[str]:
    """The lessons' start-up packages (site-src/kernel_startup.py's LESSON_STARTUP, in the site's config)."""
    return list(_plugin(json.loads(config.read_text())["jupyter-config-data"])["loadPyodideOptions"]["packages"])


def set_lessons_snapshot(config: Path, url: str, settings: dict, files_url: str | None = None) -> None:
    """Name the snapshot (and ``files_url``, its bundle of the packages' files) in the lessons' kernel settings
    (the site's jupyter-lite.json, read by JupyterLite's pages; Voici's app page has its own settings in its
    HTML)."""
    data = json.loads(config.read_text())
    options = _plugin(data["jupyter-config-data"])["loadPyodideOptions"]
    options["safariSnapshotURL"] = url
    options["safariSnapshot"] = settings
    if files_url:
        options["safariFilesURL"] = files_url  # a ...URL key: the kernel makes it absolute
    config.write_text(json.dumps(data, indent=2))


def closure(lock: dict, names: list[str]) -> list[str]:
    """``names`` and every package they depend on (the lock's spelling), sorted."""
    packages = lock["packages"]
    seen: set[str] = set()
    todo = [re.sub(r"[-_.]+", "-", n).lower() for n in names]
    while todo:
        name = todo.pop()
        if name in seen or name not in packages:
            continue
        seen.add(name)
        todo += packages[name].get("depends", [])
    return sorted(seen)


def remote_packages(lock: dict, names: list[str]) -> list[str]:
    """The packages of ``names`` (with their dependencies) whose file the site does not hold (a CDN URL)."""
    return [n for n in closure(lock, names) if "://" in lock["packages"][n]["file_name"]]


#: ``SAFARI_SITE_LESSON_SNAPSHOT=0 make site OFFLINE=1``: the snapshot for the app page only, as before issue 31's
#: lesson part (to measure what the lessons' restore saves: tools/measure_lesson_start.py)
LESSONS_ENV = "SAFARI_SITE_LESSON_SNAPSHOT"


def build(out: Path, runtime: Path, pyodide_npm: Path, app_page: Path, lessons: bool | None = None) -> str:
    """Make the kernel snapshot into ``out/static/snapshot-<hash>/``, name it in the app page's settings and
    (``lessons``) in the lessons' (``out/jupyter-lite.json``), and patch the kernel worker. ``runtime``: the site's
    (versioned) runtime folder; ``pyodide_npm``: the npm package of the same Pyodide (its pyodide.mjs runs in
    node). Returns a line for the build's log. Raises SnapshotError."""
    check_pyodide(pyodide_npm / "pyodide.js")
    if lessons is None:
        lessons = os.environ.get(LESSONS_ENV, "1") != "0"
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    app = app_packages(app_page)
    lesson = lesson_packages(out / LESSON_CONFIG) if lessons else []
    packages = lesson + [p for p in app if p not in lesson]
    remote = remote_packages(lock, packages)
    if remote:  # the online build: node would fetch them from the CDN, which a build machine may not reach
        return (f"no snapshot for the app page and the lessons: they load {len(remote)} packages from the CDN "
                f"({', '.join(remote[:4])}, ...); the offline build (make site OFFLINE=1) serves them itself and has "
                "one")
    # the runtime's own core files where the site has them (offline: its precompiled standard library),
    # else npm's (online: the CDN's copy, the same files)
    index = runtime if (runtime / "python_stdlib.zip").is_file() else pyodide_npm
    work = Path(tempfile.mkdtemp(prefix="site-snapshot-"))
    try:
        target = work / FILE
        job = {"pyodideMjs": str(pyodide_npm / "pyodide.mjs"), "indexURL": f"{index}/",
               "lockFile": str(runtime / "pyodide-lock.json"), "packages": packages,
               "imports": IMPORTS + (LESSON_IMPORTS if lessons else []), "loader": str(LOADER),
               "afterRestore": str(AFTER_RESTORE), "out": str(target)}
        if lessons:
            job["filesOut"] = str(work / "files.bin")
        first = [p for p in FIRST if p in app]
        job.update(firstOut=str(work / "files-app.bin"), firstTops=wheel_tops(runtime, lock, first),
                   firstPackages=first)
        info = run_node(job, work)
        folder = work / "folder"
        folder.mkdir()
        shutil.move(str(target), folder / FILE)
        gzip_copy(folder / FILE, folder / f"{FILE}.gz")
        if lessons:
            gzip_copy(work / "files.bin", folder / BUNDLE)
        gzip_copy(work / "files-app.bin", folder / APP_BUNDLE)
        name = f"{FOLDER}-{folder_digest(folder)}"
        shutil.rmtree(out / name, ignore_errors=True)
        shutil.move(str(folder), out / name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    common = {"bytes": info["bytes"], "checksum": info["checksum"], "buildId": info["buildId"],
              "files": info["files"], "afterRestore": AFTER_RESTORE.read_text()}
    url = f"./{name}/{FILE}"  # relative to the site's root, as lockFileURL
    set_page_snapshot(app_page, url, {**common, **app_files(first, [p for p in app if p not in FIRST],
                                                            info.get("firstBundle"))}, f"./{name}/{APP_BUNDLE}")
    pages = "the app page"
    if lessons:
        # every package's files with the restore, none later: jedi reads its typeshed at the first completion,
        # micropip imports parts of itself at the first %pip, IPython colours a traceback with a lexer, any of
        # them maybe right after the kernel is ready, as on a cold start
        set_lessons_snapshot(out / LESSON_CONFIG, url, {**common, **lesson_files(lesson, info["bundle"])},
                             f"./{name}/{BUNDLE}")
        pages += " and the lessons"
    calls = patch_workers(out)
    gz = (out / name / f"{FILE}.gz").stat().st_size
    files = (f"; the app page's {info['firstBundle']['count']} first package files in {APP_BUNDLE} "
             f"({(out / name / APP_BUNDLE).stat().st_size / 1e6:.1f} MB)")
    if lessons:
        files += (f"; the lessons' {info['bundle']['count']} package files in {BUNDLE} "
                 f"({(out / name / BUNDLE).stat().st_size / 1e6:.1f} MB)")
    return (f"kernel snapshot for {pages}: {name}/{FILE} {info['bytes'] / 1e6:.1f} MB ({gz / 1e6:.1f} MB gzip), "
            f"made in {info['seconds']:.1f} s; {calls} worker calls restore it{files}")


def gzip_copy(source: Path, target: Path) -> None:
    """A reproducible gzip copy (no time stamp in it: the folder is named by its content)."""
    with open(source, "rb") as src, gzip.GzipFile(target, "wb", 6, mtime=0) as dst:
        shutil.copyfileobj(src, dst, 1 << 20)


def wheel_tops(runtime: Path, lock: dict, packages: list[str]) -> list[str]:
    """The top folders (and top-level modules) of these packages' wheels in the site's runtime: what their install
    writes into site-packages, so what the app page's bundle holds."""
    tops: set[str] = set()
    for name in packages:
        with zipfile.ZipFile(runtime / lock["packages"][name]["file_name"]) as wheel:
            tops.update(n.split("/", 1)[0] for n in wheel.namelist())
    return sorted(tops)


def app_files(first: list[str], later: list[str], bundle: dict | None) -> dict:
    """How the app page's restore gets the files of its first packages (the kit, safari_site): from its own bundle,
    written by the worker, not unpacked from the wheels in Python (session 13: in node 0.8 -> 0.1 CPU-s); the
    wheels (``bundle["packages"]``) remain for a browser that cannot read it. The other packages come later from
    their wheels, as before."""
    if not bundle:
        return {"first": first, "later": later}
    return {"first": [], "later": later, "bundle": {"bytes": bundle["bytes"], "checksum": bundle["checksum"],
                                                    "loaded": bundle["loaded"], "packages": first}}


def lesson_files(lesson: list[str], bundle: dict | None) -> dict:
    """How a lesson's restore gets its packages' files: ``first`` (loaded with the restore by Pyodide, from the
    wheels) is empty and ``bundle`` names them all in one file written by the worker (make_snapshot.mjs); the
    wheels (``bundle["packages"]``) remain for a browser that cannot read it. Without a bundle, the wheels as
    before. Raises SnapshotFailed when the bundle misses a package the lessons load (it must hold them all)."""
    if not bundle:
        return {"first": lesson, "later": []}
    missing = [p for p in lesson if re.sub(r"[-_.]+", "-", p).lower() not in bundle["loaded"]]
    if missing:
        raise SnapshotFailed(f"the lessons' files bundle lacks {', '.join(missing)}: make_snapshot.mjs loaded "
                             f"{', '.join(sorted(bundle['loaded']))}")
    return {"first": [], "later": [], "bundle": {"bytes": bundle["bytes"], "checksum": bundle["checksum"],
                                                 "loaded": bundle["loaded"], "packages": lesson}}
