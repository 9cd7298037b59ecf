"""Run inside the site's Pyodide (site-src/precompile.mjs): compile the archives /work/jobs.json lists.

Each job: /work/in/<name> -> /work/out/<name>, the same archive with unchecked hash-based .pyc files added
(site-src/precompile.py says why and where they go) for the modules worth it: every module of the packages
named in "all" (the kit), and every other module that importing the "warm" modules (what the kernel and the
app import at start) imports here. The rest stay sources only: compiled, the standard library zip and pygments'
hundreds of lexers would more than double the site's download for modules a start-up never imports.
"""
import base64
import csv
import hashlib
import importlib.util
import io
import json
import sys
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

SITE_PACKAGES = f"/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages/"
STDLIB = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/"
TAG = sys.implementation.cache_tag


def compiled(source: bytes, path: str) -> bytes | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            code = compile(source, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def pyc_name(name: str, kind: str) -> str:
    if kind == "stdlib":
        return name[:-3] + ".pyc"
    folder, _, module = name.rpartition("/")
    return f"{folder}/__pycache__/{module[:-3]}.{TAG}.pyc" if folder else f"__pycache__/{module[:-3]}.{TAG}.pyc"


def record_row(name: str, data: bytes) -> list:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", len(data)]


def rewrite(src: str, dst: str, kind: str) -> tuple[int, int]:
    prefix = STDLIB if kind == "stdlib" else SITE_PACKAGES
    added, failed = {}, 0
    with zipfile.ZipFile(src) as zin:
        infos = zin.infolist()
        names = {i.filename for i in infos}
        for info in infos:
            if not info.filename.endswith(".py") or ".dist-info/" in info.filename:
                continue
            target = pyc_name(info.filename, kind)
            if target in names or not (info.filename.startswith(ALL) or prefix + info.filename in WANTED):
                continue
            pyc = compiled(zin.read(info), prefix + info.filename)
            if pyc is None:
                failed += 1
            else:
                added[target] = pyc
        record = next((n for n in names if n.endswith(".dist-info/RECORD")), None)
        with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in infos:
                data = zin.read(info)
                if info.filename == record:
                    rows = [r for r in csv.reader(io.StringIO(data.decode())) if r]
                    rows[-1:-1] = [record_row(n, d) for n, d in added.items()]
                    text = io.StringIO()
                    csv.writer(text, lineterminator="\n").writerows(rows)
                    data = text.getvalue().encode()
                zout.writestr(info, data)
            for name, data in added.items():
                zout.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data,
                              compress_type=zipfile.ZIP_DEFLATED)
    return len(added), failed


def imported_files(spec: dict) -> set[str]:
    """Install the jobs' wheels here, import the warm modules; the files of every module then loaded."""
    for job in spec["jobs"]:
        if job["kind"] == "wheel":
            with zipfile.ZipFile(f"/work/in/{job['name']}") as zf:
                zf.extractall(SITE_PACKAGES)
    out, err = sys.stdout, sys.stderr
    for name in spec["warm"]:
        try:
            __import__(name)
        except Exception as exc:  # noqa: BLE001 - a module that needs the browser: its imports so far count
            print(f"warm import {name}: {type(exc).__name__}: {exc}", file=err)
        finally:
            sys.stdout, sys.stderr = out, err  # the kernel's import swaps them for its own streams
    return {getattr(m, "__file__", None) or "" for m in list(sys.modules.values())}


spec = json.load(open("/work/jobs.json"))
WANTED = imported_files(spec)
ALL = tuple(f"{name}/" for name in spec["all"])

for job in spec["jobs"]:
    n, bad = rewrite(f"/work/in/{job['name']}", f"/work/out/{job['name']}", job["kind"])
    print(f"{job['name']}: {n} modules compiled" + (f", {bad} left as source" if bad else ""))
