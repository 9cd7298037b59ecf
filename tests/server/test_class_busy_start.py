"""The first minute of a class on a busy laptop: no learner's page is handed out without its app (issue 26).

Seen at 9bdb9c7: ``make class`` (30 ready labs, the default) on a busy 2-core
machine started all 30 at once; 10-17 of their renders lost the app cell's
output (``Timeout waiting for IOPub output``), and every learner who came in
while they started got a white page (the app cell without its widget view).
Here the machine is kept busy (CPU burners at nice 19), the server is started
as the docs say with its default ready labs, and learners arrive while the labs
start, as a class does when the teacher starts the server and says "go": every
page must be whole (the app's widget view in the page, the kernel's own app,
its kernel alive), after the waiting page if it came too early. Correctness
only: tools/bench_class_first_minute.py prints the times.
"""
from __future__ import annotations

import asyncio
import os

import pytest

pytest.importorskip("voila")

from safari_kit.classroom.settings import ClassSettings  # noqa: E402
from tests.server.first_minute import app_server, arrive, busy_machine, close_all, page_faults  # noqa: E402

pytestmark = pytest.mark.slow

#: seconds after the server listens at which learners ask for their page (the pool is still starting)
ARRIVALS = [0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0]


def burners_cpu_seconds(procs) -> float:
    """The CPU seconds the burners have used so far (issue 28: tests/cpu_times.py counts them with the test; at
    nice 19 they take only what the machine leaves idle, so in a full suite run they cost next to nothing)."""
    ticks = 0
    for p in procs:
        try:  # Linux's /proc; elsewhere the figure is not known
            with open(f"/proc/{p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def test_pages_opened_while_the_default_ready_labs_start_on_a_busy_machine_are_whole():
    assert ClassSettings().ready_labs >= 30  # the documented default: the case that broke
    with busy_machine(3) as burners, app_server() as srv:
        async def scenario():
            learners = await arrive(srv, ARRIVALS)
            faults = [f for lr in learners for f in page_faults(lr)]
            statuses = {}
            for lr in learners:  # every lab alive: its owner asks for it
                if lr.kernel_id:
                    statuses[lr.result.name] = (await lr.fetch(f"api/kernels/{lr.kernel_id}")).code
            await close_all(learners)
            return learners, faults, statuses

        learners, faults, statuses = asyncio.run(scenario())
        print(f"\nthe 3 burners: {burners_cpu_seconds(burners):.1f} CPU-s (nice 19: idle time)")
        log = srv.log_text()
        assert not faults, "\n".join(faults) + "\n" + log[-4000:]
        assert set(statuses.values()) == {200}, statuses
        assert len({lr.kernel_id for lr in learners}) == len(learners)  # a lab each
        # the learners came while the labs were starting: some saw the waiting page first, none a white page
        assert sum(lr.result.waiting_pages for lr in learners) > 0, log[-3000:]
        assert "Timeout waiting for IOPub output" not in log or "did not render whole" in log
