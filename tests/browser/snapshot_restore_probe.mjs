// Restore the app page's kernel snapshot in node through site-src/snapshot_loader.js, as the browser's kernel
// worker does, and print what Python then holds (tests/browser/test_site_snapshot.py).
// node restore_probe.mjs <jobs.json>; jobs.json: a list of jobs, each {pyodideMjs, indexURL, options, snapshotFile,
// filesFile, loader, probe}, run one after another in this one process (issue 28: a node start and Pyodide's module
// per job cost more than the restores), one line of JSON printed per job, in order.
// ``options``: the page's loadPyodideOptions (safariSnapshot included); the snapshot's URL is answered from
// ``snapshotFile`` (a fetch of it, as the worker makes; "" answers 404), a lesson's files bundle from ``filesFile``.
// Each restore is a Pyodide of its own (loadPyodide afresh): nothing of one job's Python is seen by the next.
import { readFileSync } from "node:fs";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
globalThis.self = globalThis;
const realFetch = globalThis.fetch;
let job = null;  // the job being run: what the fetch below answers
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
const { loadPyodide } = await import(jobs[0].pyodideMjs);
const warnings = [];
console.warn = (...args) => warnings.push(args.join(" "));
let failed = false;
for (job of jobs) {
  warnings.length = 0;
  delete globalThis.safariSnapshot;
  const loader = (0, eval)(readFileSync(job.loader, "utf8"));
  let pyodide;
  try {
    pyodide = await loader(loadPyodide, { indexURL: job.indexURL, stdout: () => {}, stderr: () => {}, ...job.options });
  } catch (e) {
    console.log(JSON.stringify({ error: String(e && e.message || e).slice(0, 2000), warnings }));
    failed = true;
    continue;
  }
  const state = globalThis.safariSnapshot;
  const later = state.loadLater ? await state.loadLater() : null;  // the browser: after the first cell
  const probe = pyodide.runPython(job.probe, { globals: pyodide.globals.get("dict")() });
  console.log(JSON.stringify({ restored: state.restored, reason: state.reason, later, files: state.files,
                                warnings: [...warnings], probe }));
}
process.exit(failed ? 3 : 0);
