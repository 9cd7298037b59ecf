// Runs site-src/precompile_in_pyodide.py in the site's own Pyodide under node (site-src/precompile.py says why).
// node precompile.mjs <pyodide.mjs> <work folder: jobs.json, in/, out/> <precompile_in_pyodide.py>
import { readFileSync } from "node:fs";
import { dirname } from "node:path";

const [pyodideMjs, work, script] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideMjs);
const py = await loadPyodide({ indexURL: dirname(pyodideMjs) + "/" });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/work");
py.runPython(readFileSync(script, "utf8"));
