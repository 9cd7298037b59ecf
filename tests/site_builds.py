"""The static site's two test builds, made once per test run however many pytest-xdist workers ask (issue 28).

``make site OFFLINE=1`` into ``.site-build/test-site`` and ``make site`` into ``.site-build/test-site-online``
share ``.site-build/``'s caches (the build venv, the wheels, the npm packs), so two builds must never run at
once, and a run must build each once: the offline build takes minutes on a fresh clone. ``build_once`` takes an
exclusive lock on ``.site-build/test-builds.lock`` (``fcntl.flock``: held by an open file, so it works between
processes and between threads) and, under it, builds unless a stamp beside the build says this run already did.

So the site's test files need not share one worker any more: tests/test_site_build.py builds both sites as the
run's first unit of work (tests/conftest.py), and every file that serves a build (``offline_site``,
``online_site``) finds it made, or waits on the lock while it is being made. A file run on its own builds for
itself. ``make test`` runs this file as a script first, beside the venv's install (the Makefile): both builds
under the run id it also gives the tests (``SAFARI_TEST_SITE_RUN``), so the tests find them made. The builds are
only read after: a test that changes a file copies the site first (hard links, each
changed file unlinked before it is written).
"""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILDS = REPO / ".site-build"
OFFLINE_DIR = BUILDS / "test-site"
ONLINE_DIR = BUILDS / "test-site-online"
LOCK = BUILDS / "test-builds.lock"

#: the run id ``make test`` gives this script and its pytest run: the builds it made first are this run's
EARLY_RUN = "SAFARI_TEST_SITE_RUN"
#: this process's run id when pytest-xdist gives none (one process, one run)
_OWN_RUN = uuid.uuid4().hex


class SiteBuildError(RuntimeError):
    """``make site`` failed: its exit status and the end of what it printed."""


def run_id(config) -> str:
    """The run's id: ``make test``'s (``SAFARI_TEST_SITE_RUN``: it built the sites as it started), else the one
    every pytest-xdist worker of this run shares (its ``testrunuid``), else this process's own."""
    early = os.environ.get(EARLY_RUN, "").strip()
    if early:
        return early
    workerinput = getattr(config, "workerinput", None)
    return workerinput["testrunuid"] if workerinput else _OWN_RUN


@contextmanager
def one_build_at_a_time(lock: Path = LOCK) -> Iterator[None]:
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def _stamp(out: Path) -> Path:
    return out.with_name(out.name + ".built.json")


def build_once(out: Path, build: Callable[[Path], None], run: str, *, lock: Path = LOCK) -> float:
    """Build into ``out`` with ``build(out)`` unless run ``run`` already did; the seconds the build took.

    The stamp goes after a successful build and names the run, so a later run (its code changed) builds again,
    and a failed build is tried again by the next worker that asks (each then fails with the build's output).
    """
    stamp = _stamp(out)
    with one_build_at_a_time(lock):
        try:
            made = json.loads(stamp.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            made = {}
        if made.get("run") == run and out.is_dir():
            return float(made["seconds"])
        stamp.unlink(missing_ok=True)
        t0 = time.perf_counter()
        build(out)
        seconds = time.perf_counter() - t0
        stamp.write_text(json.dumps({"run": run, "seconds": round(seconds, 1)}), encoding="utf-8")
        return seconds


def make_site(*args: str) -> Callable[[Path], None]:
    """``make site <args> SITE_OUT=<out>`` as a build for ``build_once``; raises SiteBuildError when it fails."""
    def build(out: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
        proc = subprocess.run(["make", "--no-print-directory", "site", *args, f"SITE_OUT={out}"], cwd=REPO,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode:
            name = " ".join(["make site", *args])
            raise SiteBuildError(f"{name} failed (rc={proc.returncode}):\n{proc.stdout[-4000:]}")
    return build


def build_offline(config) -> float:
    return build_once(OFFLINE_DIR, make_site("OFFLINE=1"), run_id(config))


def build_online(config) -> float:
    return build_once(ONLINE_DIR, make_site(), run_id(config))


def main() -> int:
    """``make test`` runs this file first, beside the venv's install: both builds under its run id (the Makefile)."""
    run = os.environ.get(EARLY_RUN, "").strip()
    if not run:
        print(f"{EARLY_RUN} is not set: the tests would not take these builds for their run's", file=sys.stderr)
        return 2
    for args, out in ((("OFFLINE=1",), OFFLINE_DIR), ((), ONLINE_DIR)):
        name = " ".join(["make site", *args])
        try:
            seconds = build_once(out, make_site(*args), run)
        except SiteBuildError as exc:  # the site's tests build it again and fail with this output
            print(exc, flush=True)
            return 1
        print(f"{name} into {out.relative_to(REPO)}: {seconds:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
