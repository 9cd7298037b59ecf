/* The kernel from a memory snapshot (issue 31, item 1): put by site-src/snapshot.py, at build time, in place of the
   kernel worker's `loadPyodide(...)` call in every bundle of jupyterlite-pyodide-kernel (this whole file is one
   function expression: `(this)(loadPyodide, options)`).

   Pages whose kernel settings name no snapshot (the online build's) start as before. The app page's settings and
   the lessons' (jupyter-lite.json) carry `safariSnapshotURL` (the kernel made it absolute, as it does for every
   `...URL` key) and `safariSnapshot`: {bytes, checksum, buildId, first, later, files, afterRestore}. Then:
   1. the snapshot is fetched while Pyodide's wasm compiles (`_loadSnapshot` takes a promise), and checked: its
      length and checksum (a corrupted or truncated file), and Pyodide itself checks its magic number and BUILD_ID
      (a snapshot of another runtime build);
   2. Pyodide restores Python's memory (every module the app and the lessons import, already imported) and loads
      the files of `first` (on the app page the kit and safari_site: anywidget reads the cards' CSS and JavaScript
      from the kit's files, and the kernel's start imports safari_site.later; in a lesson every package's); the
      snapshot holds no files (pyodide#5195), so the other packages' files (`later`, the app page's) are loaded in
      the background some seconds after the page's first cell has run, and the folders IPython made (`files`)
      are made again;
   3. `afterRestore` (site-src/snapshot_after_restore.py) reseeds Python's random generators: every restore
      starts from the same memory, so without it every visit would draw the same numbers; and gives micropip the
      page's lock file address.
   A lesson's settings also name `bundle` ({bytes, checksum, loaded, packages}) and `safariFilesURL`: every
   package's files in one gzip file (site-src/make_snapshot.mjs), fetched with the snapshot, inflated here and
   written with FS.writeFile in place of step 2's unpacking of the wheels (some 2 CPU-s of Python on every
   visit); the app page's name a bundle of its first packages' files only (the kit, safari_site: session 13).
   Pyodide's `loadedPackages` get the build's entries, as its loadPackage would have set them. Where the
   bundle cannot be used (no DecompressionStream, missing, damaged) the wheels are unpacked as before.
   Whatever fails (no file, a bad one, another build, an error while restoring), Python starts the usual way:
   the learner sees the same page and the same sentence, only later. `self.safariSnapshot` tells what happened
   (tests/browser/test_site_snapshot.py reads it). site-src/make_snapshot.mjs computes the checksum with this
   file's own `checksum`. */
(function () {
"use strict";

/* FNV-1a over the file's 32-bit words: 30 MB in some 20 ms; a damaged byte changes it (crypto.subtle, the
   alternative, exists only in secure contexts, and a school's plain-http address is none) */
function checksum(bytes) {
  var copy = bytes.byteOffset % 4 ? new Uint8Array(bytes) : bytes;
  var words = new Uint32Array(copy.buffer, copy.byteOffset, copy.length >>> 2);
  var h = 0x811c9dc5 | 0;
  for (var i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 16777619);
  for (var j = words.length * 4; j < copy.length; j++) h = Math.imul(h ^ copy[j], 16777619);
  return (h >>> 0).toString(16);
}

/* the kernel's shell (in the snapshot, made by pyodide_kernel at import) calls loadLater after its first cell */
var AFTER_FIRST_CELL = [
  "def _safari_after_first_cell(*_args):",
  "    import js, pyodide_kernel",
  "    pyodide_kernel.ipython_shell.events.unregister('post_run_cell', _safari_after_first_cell)",
  "    js.safariSnapshot.firstCellDone()",
  "import pyodide_kernel",
  "pyodide_kernel.ipython_shell.events.register('post_run_cell', _safari_after_first_cell)",
].join("\n");
/* the other packages' files are unpacked this long after the page's first cell (the chooser drawn, the learner
   picking a lab: unpacked at once they slowed opening the first lab by a second at a quarter core), or after
   LATER_MS at the latest. Python needs them only for what the snapshot did not import (rare: a traceback's
   source lines, a lexer, package metadata). Unpacking them in Python also does the learner's next visit a service:
   it runs enough of Python's runtime hot for Chrome to optimise it past its 1 MB mark and keep the compiled copy
   (docs/teachers.md, session 17). Written from a bundle instead (tried in session 18: 0.4 CPU-s less while the
   learner reads the first lab), 1 first visit of 6 left a copy (6 of 6 with the unpacking), and the second visits
   took 15.1, 17.3 and 12.9 s at a quarter core against 12.8, 12.7 and 11.4 s: keep the unpacking, or bring a
   warm-up with the bundle */
var AFTER_CELL_MS = 15000;
var LATER_MS = 30000;

function safariLoadPyodide(loadPyodide, options) {
  var settings = options.safariSnapshot;
  var url = options.safariSnapshotURL;
  var filesURL = options.safariFilesURL;
  delete options.safariSnapshot;
  delete options.safariSnapshotURL;
  delete options.safariFilesURL;
  var state = { restored: false, reason: "no snapshot for this page", later: null, files: null };
  self.safariSnapshot = state;
  if (!settings || !url) return loadPyodide(options);

  function cold(why) {
    state.reason = why;
    console.warn("safari_kit: starting Python without its saved copy (" + why + ")");
    return loadPyodide(options);
  }

  function fetchSnapshot() {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error("the saved copy " + url + ": HTTP " + response.status);
      return response.arrayBuffer();
    }).then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      if (bytes.length !== settings.bytes) {
        throw new Error("the saved copy has " + bytes.length + " bytes, expected " + settings.bytes);
      }
      if (checksum(bytes) !== settings.checksum) {
        throw new Error("the saved copy's checksum differs: a damaged file");
      }
      return bytes;
    });
  }

  /* the packages' files in one bundle (a lesson's, or the app page's first packages'): its bytes, inflated here (any server sends the .gz as it
     is; one that says Content-Encoding: gzip has the browser inflate it first) and checked */
  function fetchFiles() {
    return fetch(filesURL).then(function (response) {
      if (!response.ok) throw new Error("the files " + filesURL + ": HTTP " + response.status);
      return response.arrayBuffer();
    }).then(function (buffer) {
      var head = new Uint8Array(buffer, 0, Math.min(2, buffer.byteLength));
      if (head[0] !== 0x1f || head[1] !== 0x8b) return buffer;
      if (typeof DecompressionStream === "undefined") throw new Error("no DecompressionStream in this browser");
      return new Response(new Blob([buffer]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    }).then(function (buffer) {
      var bytes = new Uint8Array(buffer);
      if (bytes.length !== settings.bundle.bytes) {
        throw new Error("the files have " + bytes.length + " bytes, expected " + settings.bundle.bytes);
      }
      if (checksum(bytes) !== settings.bundle.checksum) throw new Error("the files' checksum differs");
      return bytes;
    });
  }

  /* write the bundle's folders and files (make_snapshot.mjs wrote them in this order: a folder before what it
     holds); the files keep the bundle's memory (canOwn: no copy) */
  function writeFiles(pyodide, bytes) {
    var length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
    var header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
    var at = 4 + length;
    header.dirs.forEach(function (path) { pyodide.FS.mkdirTree(path); });
    header.files.forEach(function (entry) {
      pyodide.FS.writeFile(entry[0], bytes.subarray(at, at + entry[1]), { canOwn: true });
      at += entry[1];
    });
    if (at !== bytes.length) throw new Error("the files' bundle ends at " + at + " of " + bytes.length + " bytes");
    var loaded = settings.bundle.loaded;
    Object.keys(loaded).forEach(function (name) { pyodide.loadedPackages[name] = loaded[name]; });
    return header.files.length;
  }

  // the JS objects Python held when the snapshot was made (site-src/make_snapshot.mjs, serializer): members of
  // the Pyodide API or of its _api (micropip's install, loadBinaryFile), looked up on the new one when first used
  // (it exists only once loadPyodide returns)
  var api = { pyodide: null };
  function owner(path) {  // the object the member sits on (the API, or its _api)
    if (!api.pyodide) throw new Error("pyodide." + path.join(".") + " used before the restore ended");
    var found = api.pyodide;
    for (var i = 0; i < path.length - 1; i++) found = found[path[i]];
    return found;
  }
  function member(path) {
    return path.length ? owner(path)[path[path.length - 1]] : owner(path);
  }
  function deserialize(saved) {
    if (!saved || !("pyodide" in saved)) throw new Error("an unknown saved object " + JSON.stringify(saved));
    var path = saved.path || (saved.pyodide === null ? [] : [saved.pyodide]);
    if (saved.kind === "function") {
      return new Proxy(function () {}, {
        apply: function (_t, _this, args) { return member(path).apply(owner(path), args); },
        get: function (_t, key) { return member(path)[key]; },
      });
    }
    return new Proxy({}, {
      get: function (_t, key) { return member(path)[key]; },
      set: function (_t, key, value) { member(path)[key] = value; return true; },
      has: function (_t, key) { return key in member(path); },
      ownKeys: function () { return Reflect.ownKeys(member(path)); },
      getOwnPropertyDescriptor: function (_t, key) {
        var d = Reflect.getOwnPropertyDescriptor(member(path), key);
        if (d) d.configurable = true;
        return d;
      },
    });
  }

  var snapshot = fetchSnapshot();
  snapshot.catch(function () {});  // read below; a failure means a cold start, not an unhandled rejection
  var files = settings.bundle && filesURL ? fetchFiles() : null;
  if (files) files.catch(function () {});  // read after the restore; a failure means the wheels
  var restoring = Object.assign({}, options, {
    packages: settings.first,
    _loadSnapshot: snapshot,
    _snapshotDeserializer: deserialize,
  });
  return loadPyodide(restoring).then(function (pyodide) {
    return packageFiles(pyodide).then(function () { return restored(pyodide); }).catch(function (e) {
      return cold("after the restore: " + String(e && e.message || e));
    });
  }, function (e) {
    return snapshot.then(function () { return cold(String(e && e.message || e)); },
                         function (e2) { return cold(String(e2 && e2.message || e2)); });
  });

  /* the bundle's packages' files (a lesson's, the app page's first): from the bundle, else the wheels; without a
     bundle for this page, `first` came with the restore */
  function packageFiles(pyodide) {
    if (!settings.bundle) return Promise.resolve();
    if (!files) return pyodide.loadPackage(settings.bundle.packages, { messageCallback: function () {} });
    return files.then(function (bytes) {
      state.files = writeFiles(pyodide, bytes);
      var namespace = pyodide.globals.get("dict")();
      pyodide.runPython("import importlib\nimportlib.invalidate_caches()", { globals: namespace });
      namespace.destroy();
    }, function (e) {
      state.files = "wheels (" + String(e && e.message || e) + ")";
      return pyodide.loadPackage(settings.bundle.packages, { messageCallback: function () {} });
    });
  }

  function restored(pyodide) {
    api.pyodide = pyodide;
    settings.files.forEach(function (f) {
      if (f.dir) pyodide.FS.mkdirTree(f.path);
      else pyodide.FS.writeFile(f.path, f.text);
    });
    var namespace = pyodide.globals.get("dict")();  // not the learner's namespace
    pyodide.runPython(settings.afterRestore, { globals: namespace });
    namespace.destroy();
    // the other packages' files: a while after the page's first cell has run, so that their unpacking does not
    // slow the start or the first lab (AFTER_CELL_MS); at the latest after LATER_MS
    state.firstCell = false;
    state.firstCellDone = function () {
      state.firstCell = true;
      var t = setTimeout(state.loadLater, AFTER_CELL_MS);
      if (t && t.unref) t.unref();
    };
    state.loadLater = function () {
      if (!state.later) {
        state.later = pyodide.loadPackage(settings.later, { messageCallback: function () {} }).then(
          function () { return true; },
          function (e) { console.warn("safari_kit: " + e); return false; });
      }
      return state.later;
    };
    var hook = pyodide.globals.get("dict")();
    pyodide.runPython(AFTER_FIRST_CELL, { globals: hook });
    hook.destroy();
    var timer = setTimeout(state.loadLater, LATER_MS);
    if (timer && timer.unref) timer.unref();  // node (the build's and the tests' checks) need not wait for it
    state.restored = true;
    state.reason = null;
    return pyodide;
  }
}

safariLoadPyodide.checksum = checksum;
return safariLoadPyodide;
})()
