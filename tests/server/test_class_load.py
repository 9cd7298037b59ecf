"""The class benchmark's 5-learner version (issue 19, "Load"): correctness only, never timings.

``tools/load_class.py`` with 5 raw learners (tests/server/class_learners.py:
the page's own protocol, each from its own loopback address) against a real
``safari-kit class`` serving the kit's app: they arrive within 5 s, open a lab
with a table (from the server's 5 ready labs), play it at a human pace for 24 s, and leave, one of them as a
tab that dies without the page's shutdown request. Checked: every learner got
its page with its app (the app cell's widget view in the page, the same
model the kernel names as the app: a page without it is white) and a
table, every action got a reply, no learner saw an error or a closed
socket, the pages' shutdown ended their kernels at once, and the culler ended
the abandoned one within the cull time (a short one for the test). The
figures it prints are not asserted: the machine is shared.

Recording is on (``--record``, issue 21): every learner joins with a nickname, and
the class database must hold exactly the records the pages' own results files hold
(what their kernels recorded): nothing lost, nothing doubled, nothing else.
"""
from __future__ import annotations

import asyncio

import pytest

from tools.load_class import one_run, parse_args

pytestmark = pytest.mark.slow

IDLE, INTERVAL = 8, 2


def test_five_learners_play_and_their_kernels_end():
    args = parse_args(["--learners", "5", "--minutes", "0.4", "--spread", "5", "--browsers", "0",
                       "--idle-seconds", str(IDLE), "--cull-interval", str(INTERVAL), "--ready-labs", "5",
                       "--record"])
    figures = asyncio.run(one_run(args, abusive=False))
    assert figures["errors"] == []
    # each page as a browser gets it: the app's widget view in it, the kernel's own app (issue 26: a page
    # served from a ready lab without its app was white; tests/server/class_learners.py, open_page)
    assert figures["pages_with_app"] == 5, figures
    assert figures["tables"] == figures["learners"] == 5
    assert figures["actions"] >= 5 * 3, figures  # about one every 3.5 s for 24 s each
    assert figures["no_reply"] == 0, figures
    # learner 2 of 5 left without the shutdown request; the four others' kernels ended with their pages
    # (the 5 ready labs, documented as the server's own, stay: the pool is topped up to 5)
    assert figures["learners_alive_after"] == 1, figures
    assert figures["gone_after"] is not None and figures["gone_after"] <= IDLE + INTERVAL + 5, figures
    records = figures["records"]
    assert records["joined"] == 5, records
    assert records["stored"] == records["in_pages"] > 0, records
    assert records["lost"] == records["extra"] == records["doubled"] == 0, records
