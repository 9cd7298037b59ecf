// Restore the app page's kernel snapshot in node through site-src/snapshot_loader.js, as the browser's kernel
// worker does, and print what Python then holds (tests/browser/test_site_snapshot.py).
// node restore_probe.mjs <job.json>; job: {pyodideMjs, indexURL, options, snapshotFile, loader, probe}
// ``options``: the app page's loadPyodideOptions (safariSnapshot included); the snapshot's URL is answered from
// ``snapshotFile`` (a fetch of it, as the worker makes; "" answers 404), a lesson's files bundle from ``filesFile``.
import { readFileSync } from "node:fs";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
globalThis.self = globalThis;
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  if (String(url) === job.options.safariSnapshotURL) {
    if (!job.snapshotFile) return new Response("not found", { status: 404 });
    return new Response(readFileSync(job.snapshotFile));
  }
  if (job.options.safariFilesURL && String(url) === job.options.safariFilesURL) {  // a lesson's files bundle
    if (!job.filesFile) return new Response("not found", { status: 404 });
    return new Response(readFileSync(job.filesFile));
  }
  return realFetch(url, init);
};
const { loadPyodide } = await import(job.pyodideMjs);
const loader = (0, eval)(readFileSync(job.loader, "utf8"));
const warnings = [];
console.warn = (...args) => warnings.push(args.join(" "));
let pyodide; try { pyodide = await loader(loadPyodide, { indexURL: job.indexURL, stdout: () => {}, stderr: () => {}, ...job.options }); } catch (e) { console.log(JSON.stringify({error: String(e && e.message || e).slice(0, 2000), warnings})); process.exit(3); }
const state = globalThis.safariSnapshot;
const later = state.loadLater ? await state.loadLater() : null;  // the browser: after the first cell
const probe = pyodide.runPython(job.probe, { globals: pyodide.globals.get("dict")() });
console.log(JSON.stringify({ restored: state.restored, reason: state.reason, later, files: state.files, warnings,
                              probe }));
