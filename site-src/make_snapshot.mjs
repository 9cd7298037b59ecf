// Make the site's kernel snapshot (the app page's and the lessons') in node, at build time (site-src/snapshot.py
// says why and what). node make_snapshot.mjs <job.json>; job: {pyodideMjs, indexURL, lockFile, packages, imports,
// loader, afterRestore, out,
// prelude (optional: Python run first; tests/browser/test_site_snapshot.py makes Python hold a JS object with it),
// filesOut (optional: where to write the packages' files as one bundle, see below),
// firstOut, firstTops, firstPackages (optional: the app page's bundle, only the files under these top folders of
// site-packages, for these packages)}
// Writes <out> (the snapshot) and <out>.json ({bytes, checksum, buildId, files, bundle}); exits 1 with one line
// naming what failed (an object Python holds that cannot be saved, an import that fails, ...).
//
// The bundle (``filesOut``, the lessons': issue 31, session 9): every file and folder the packages' install wrote
// into site-packages, as Pyodide's loadPackage left them (the wheels' files and the INSTALLER files it adds),
// before any import. Format: a 4-byte little-endian header length, the header (JSON: {dirs: [path, ...], files:
// [[path, size], ...]}) and the files' bytes one after another. The browser's restore writes them with
// FS.writeFile (site-src/snapshot_loader.js) instead of unpacking some twenty wheels in Python: 2 CPU-s of the
// kernel worker on every lesson visit.
import { readFileSync, writeFileSync } from "node:fs";

function fail(message) {
  console.error(`make_snapshot: ${message}`);
  process.exit(1);
}

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(job.pyodideMjs);
const loader = (0, eval)(readFileSync(job.loader, "utf8"));
const started = Date.now();
let pyodide;
try {
  pyodide = await loadPyodide({ indexURL: job.indexURL, lockFileURL: job.lockFile, packages: job.packages,
                                _makeSnapshot: true, stdout: () => {}, stderr: (s) => console.error(s) });
} catch (e) {
  fail(`Pyodide did not start with the site's runtime ${job.indexURL}: ${e.message}`);
}

// the packages' files as the install left them (before any import: the browser's restore writes them where
// loadPackage would have unpacked them, and Python runs nothing before)
let bundle = null;
let firstBundle = null;
if (job.filesOut || job.firstOut) {
  const FS = pyodide.FS;
  const top = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  const dirs = [top];
  const files = [];
  const walk = (folder) => {
    for (const name of FS.readdir(folder).sort()) {
      if (name === "." || name === "..") continue;
      const path = `${folder}/${name}`;
      const mode = FS.stat(path).mode;
      if (FS.isDir(mode)) {
        dirs.push(path);
        walk(path);
      } else if (FS.isFile(mode)) {
        files.push([path, FS.readFile(path)]);
      } else {
        fail(`${path}: neither a file nor a folder in site-packages (a link?): the bundle cannot hold it`);
      }
    }
  };
  walk(top);
  // Pyodide's record of the loaded packages, by the lock's names (as its loadPackage sets it in the browser; the
  // start-up in node also lists some under their distributions' spellings, Pygments, safari_kit, ...)
  const lock = JSON.parse(readFileSync(job.lockFile, "utf8")).packages;
  const loaded = Object.fromEntries(Object.entries(pyodide.loadedPackages).filter(([name]) => name in lock));
  const write = (path, keep, names) => {
    const kept = files.filter(([p]) => keep(p));
    const header = new TextEncoder().encode(JSON.stringify({ dirs: dirs.filter(keep),
                                                             files: kept.map(([p, d]) => [p, d.length]) }));
    const size = 4 + header.length + kept.reduce((n, [, d]) => n + d.length, 0);
    const out = new Uint8Array(size);
    new DataView(out.buffer).setUint32(0, header.length, true);
    out.set(header, 4);
    let at = 4 + header.length;
    for (const [, data] of kept) {
      out.set(data, at);
      at += data.length;
    }
    writeFileSync(path, out);
    const mine = Object.fromEntries(Object.entries(loaded).filter(([name]) => !names || names.includes(name)));
    return { bytes: size, checksum: loader.checksum(out), count: kept.length, loaded: mine };
  };
  if (job.filesOut) bundle = write(job.filesOut, () => true, null);
  if (job.firstOut) {
    // the app page's own bundle (session 13): only the files of its first packages (the kit and safari_site,
    // job.firstTops: their wheels' top folders), written by its restore instead of Pyodide unpacking the wheels
    const tops = new Set(job.firstTops);
    const inFirst = (p) => p === top || tops.has(p.slice(top.length + 1).split("/")[0]);
    firstBundle = write(job.firstOut, inFirst, job.firstPackages);
    const missing = job.firstPackages.filter((name) => !(name in firstBundle.loaded));
    if (missing.length) fail(`the app page's files bundle: ${missing.join(", ")} not loaded in node`);
  }
}

if (job.prelude) pyodide.runPython(job.prelude);

// what the browser's kernel imports at start, and the app: imported now, kept in the snapshot. The names go in a
// namespace of their own, not the learner's (__main__); the folders and files the imports make (IPython's
// profile) are listed, since the snapshot holds no file
const found = pyodide.runPython(`
import importlib, json, os, sys
def _tree(tops=("/home", "/tmp")):
    seen = {}
    for top in tops:
        for folder, _dirs, files in os.walk(top):
            seen[folder] = None
            for name in files:
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    seen[path] = f.read()
    return seen
_before = _tree()
_failed = []
for _name in ${JSON.stringify(job.imports)}:
    try:
        importlib.import_module(_name)
    except Exception as exc:
        _failed.append(f"{_name}: {type(exc).__name__}: {exc}")
_after = _tree()
json.dumps({"failed": _failed, "files": [{"path": p, "dir": t is None, "text": t} for p, t in _after.items()
                                        if p not in _before]})
`, { globals: pyodide.globals.get("dict")() });
const { failed, files } = JSON.parse(found);
if (failed.length) fail(`the app's imports failed in node: ${failed.join("; ")}`);

// the snapshot holds no package's files, and the restore loads them again: Pyodide must not think them loaded
// (pyodide#5195, #6418)
for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];

// the JS objects Python holds: members of the Pyodide API (pyodide_js, loadPackagesFromImports; micropip, in the
// lessons' snapshot, also holds members of its _api: install, loadBinaryFile), saved by their path; anything else
// stops the build
const holders = [[[], pyodide], [["_api"], pyodide._api]];
let snapshot;
try {
  snapshot = pyodide.makeMemorySnapshot({
    serializer(obj) {
      if (obj === pyodide) return { pyodide: null, kind: typeof obj };
      for (const [path, holder] of holders) {
        for (const name of Object.getOwnPropertyNames(holder)) {
          let value;
          try { value = holder[name]; } catch { continue; }
          if (value === obj) {
            return path.length ? { pyodide: name, path: [...path, name], kind: typeof obj }
                               : { pyodide: name, kind: typeof obj };
          }
        }
      }
      const what = obj && obj.constructor ? obj.constructor.name : typeof obj;
      throw new Error(`Python holds a JavaScript object that cannot be saved: a ${what} (${String(obj).slice(0, 120)}); ` +
                      "site-src/make_snapshot.mjs knows only members of the Pyodide API and of its _api");
    },
  });
} catch (e) {
  fail(e.message);
}
const bytes = new Uint8Array(snapshot);
writeFileSync(job.out, bytes);
const buildId = pyodide._api.config.BUILD_ID;
// what the browser runs after a restore, run here once (on the live interpreter, after the snapshot): a mistake
// in it stops the build instead of every learner's start
try {
  pyodide.runPython(readFileSync(job.afterRestore, "utf8"), { globals: pyodide.globals.get("dict")() });
} catch (e) {
  fail(`${job.afterRestore} failed: ${e.message}`);
}
writeFileSync(job.out + ".json", JSON.stringify({ bytes: bytes.length, checksum: loader.checksum(bytes), buildId,
                                                  files, bundle, firstBundle,
                                                  seconds: (Date.now() - started) / 1000 }));
