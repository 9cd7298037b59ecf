"""Bytes sent to a flooding page, and records its learner stores, when a joined page presses Simulate in a loop.

    .venv/bin/python tools/measure_record_flood.py                      # this checkout
    .venv/bin/python tools/measure_record_flood.py --presses 460 --pages 3
    .venv/bin/python tools/measure_record_flood.py --tree /tmp/old-h4   # another checkout (git worktree of 9bdb9c7)

A measurement, not a test (it prints figures, asserts nothing; the tests are
tests/widgets/test_join_issue26.py). In one Python process, without a server or
a browser: a class session's store in a temporary folder (as ``safari-kit class
--results`` makes it), ``--pages`` chooser pages of ONE browser (with this
checkout's owner tags: one learner; the old code has no tags, so each page is a
learner of its own) join the class experiment, open the Simulation lab and
press Simulate ``--presses`` times each, as fast as the lab answers. Every
message the kernel would send to the page (ipywidgets comm messages) is
counted in bytes (its JSON and binary buffers). Printed: per page, the bytes
sent to it while flooding and how many of them belong to the "Download my
results" widget; the records the class database holds; the records the pages
keep for their downloads; the time taken (in-process, no network: a lower bound
of the real rate).

Issue 26 (seen at 9bdb9c7 with a real server): 3 pages pressing Simulate for
45 s stored 1,393 records (31 a second) and every record re-sent the page's whole
results file as a data: URI, 49 MB to each page.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presses", type=int, default=460, help="Simulate presses per page (issue 26: 1,393 / 3)")
    ap.add_argument("--pages", type=int, default=3, help="pages of one browser, pressing in turn")
    ap.add_argument("--tree", default="", help="a checkout to measure instead of this one")
    args = ap.parse_args(argv)
    tree = Path(args.tree).resolve() if args.tree else Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(tree))
    os.environ.pop("SAFARI_KIT_RESULTS", None)

    import comm
    from comm.base_comm import BaseComm

    sent: dict[str, int] = {}

    class CountingComm(BaseComm):
        """A comm that counts what it would send to the page, per comm id."""

        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            size = len(json.dumps(data or {}, default=str)) + sum(len(memoryview(b)) for b in (buffers or []))
            sent[self.comm_id] = sent.get(self.comm_id, 0) + size

    comm.create_comm = lambda **kw: CountingComm(**kw)

    import safari_kit
    from safari_kit.class_results.class_session import RESULTS_ENV, results_location
    from safari_kit.class_results.class_store import ResultStore
    from safari_kit.widgets.app import LabChooser

    assert Path(safari_kit.__file__).resolve().is_relative_to(tree), safari_kit.__file__
    folder = Path(tempfile.mkdtemp(prefix="safari-flood-"))
    store = ResultStore(folder, "flood")
    os.environ[RESULTS_ENV] = results_location(folder, "flood")
    tag = uuid.uuid4().hex * 2  # one browser's tag (this checkout reads it; the old code has none)
    try:
        from safari_kit.class_results.learner_tags import tags_folder
    except ImportError:
        tags_folder = None
    if tags_folder is not None:
        tags_folder(store.path).mkdir(mode=0o700)

    pages = []
    for _ in range(args.pages):
        kernel = str(uuid.uuid4())
        if tags_folder is not None:
            (tags_folder(store.path) / kernel).write_text(tag)
        chooser = LabChooser()
        if hasattr(chooser.join, "kernel_id"):
            chooser.join.kernel_id = kernel
        chooser.join.join("Zed")
        lab = chooser.open("Both games", "Simulation")
        download = chooser.join.download.widget
        pages.append((chooser, lab, download))

    before = dict(sent)
    start = time.perf_counter()
    for _ in range(args.presses):
        for _chooser, lab, _download in pages:
            lab.run()
    seconds = time.perf_counter() - start
    delta = {k: v - before.get(k, 0) for k, v in sent.items()}
    total = sum(delta.values())
    download_bytes = sum(delta.get(d.comm.comm_id, 0) for _c, _l, d in pages)
    kept = sum(len(c.join.recorder.records) for c, _l, _d in pages)
    print(f"tree {tree}")
    print(f"{args.pages} page(s) x {args.presses} Simulate presses in {seconds:.1f} s (in-process)")
    print(f"bytes sent to each page while flooding: {total / args.pages / 1e6:.2f} MB "
          f"(the download widget's: {download_bytes / args.pages / 1e6:.2f} MB)")
    print(f"records kept in the pages for their downloads: {kept}; in the class database: {store.count()}")
    learners = {r.learner for r in store.records()}
    print(f"learners in the class database: {len(learners)}")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
