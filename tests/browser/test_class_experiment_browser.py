"""The class as one experiment, in Chromium (issue 21): three learners and the teacher on one class server.

``safari-kit class --results FOLDER`` (the kit's app, loopback). Three learner pages, each its own browser
(own cookies), join under a nickname and press Simulate in the Simulation lab (1, 2 and 3 times); Ann also
reveals with a typed guess in the Identification lab. Then:

* the class database holds exactly the records the three pages hold in their own "Download my results"
  files (decoded from the page), nothing else;
* the teacher's page (opened with the printed address) shows, per question and exact chance, pooled
  successes and trials equal to the sums of the learners' runs, computed here from the pages' files,
  and the guess in the calibration table and Ann's Brier row;
* a learner's browser asking for the teacher's page or the class's CSV, with or without a made-up
  token, gets 403 and no record.

Screenshots (1366x768, looked at): test-artifacts/issue21-join.png (the chooser after joining, with a
lab and its download link), issue21-teacher-live.png (the teacher's page of this class).
"""
from __future__ import annotations

import re
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest

from safari_kit.class_results.class_records import SimulationRun, to_dict
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.results_file import parse_results
from tests.browser.conftest import QUIET_MOTION
from tests.browser.helpers import screenshot
from tests.browser.test_a11y_axe import APP_ROOT, choose
from tests.browser.test_app_voila import button
from tests.browser.test_class_learners_browser import download_results, guess_with_chance_hidden
from tests.server.class_server import class_server, request

pytestmark = pytest.mark.browser

SIM_READY = ".safari-lab .safari-sim-round"
PRESSES = {"Ann": 1, "Bob": 2, "Cy": 3}


def join(page, nickname: str) -> None:
    """Type the nickname and press Join, as a learner does."""
    page.locator(f"{APP_ROOT} .safari-join-row input[type='text']").fill(nickname)
    page.wait_for_timeout(200)  # the box sends its value on blur/Enter: the button's click follows it
    button(page.locator(APP_ROOT), "Join the class experiment").click()
    page.locator(f"{APP_ROOT} .safari-join-note", has_text=f"You joined as {nickname}").wait_for(timeout=20_000)


def simulate(page, times: int) -> None:
    """Press Simulate ``times`` times, each time until the new run is shown and the button is back."""
    sim = f"{APP_ROOT} .safari-simulation-lab"
    for _ in range(times):
        before = page.locator(f"{sim} .safari-sim-run").first.inner_text()
        button(page.locator(sim), "Simulate").click()
        page.wait_for_function(
            "([sel, before]) => { const el = document.querySelector(sel + ' .safari-sim-run');"
            " const b = [...document.querySelectorAll(sel + ' button')].find(x => x.innerText.trim() === 'Simulate');"
            " return el && el.innerText !== before && b && !b.disabled; }", arg=[sim, before], timeout=30_000)


def page_records(page) -> list:
    """The page's own results file: the records its kernel made, as "Download my results" downloads them
    (issue 26: a button that makes the file when pressed)."""
    name, text = download_results(page)
    return parse_results(text, name)


def _key(record) -> str:
    return repr(sorted(to_dict(record).items()))


def test_three_learners_pool_their_runs_on_the_teachers_page(browser):
    folder = Path(tempfile.mkdtemp(prefix="safari-class3-"))
    with class_server("--results", str(folder), "--session", "class3", "--labs-per-minute", "0",
                      app=True) as srv:
        teacher_address = re.search(r"http://127\.0\.0\.1:\d+/teacher\?token=\S+", srv.log_text()).group(0)
        contexts, pages = [], {}
        try:
            for nickname, presses in PRESSES.items():
                # no glowing cards (conftest.QUIET_MOTION): the test reads words and records, not motion
                context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=QUIET_MOTION)
                contexts.append(context)
                page = context.new_page()
                page.set_default_timeout(60_000)
                page.goto(srv.url, wait_until="domcontentloaded", timeout=120_000)
                page.locator(f"{APP_ROOT} .safari-lab-list select").wait_for(timeout=120_000)
                join(page, nickname)
                choose(page, "Both games", "Simulation", SIM_READY)
                simulate(page, presses)
                pages[nickname] = page
            ann = pages["Ann"]
            choose(ann, "Safari Witness", "Identification", ".safari-identification-lab .safari-table .st-card")
            played = {"status": guess_with_chance_hidden(ann)}  # issue 26: a joined learner guesses first
            screenshot(ann, "issue21-join")

            held = {nick: page_records(page) for nick, page in pages.items()}
            runs = {nick: [r for r in recs if isinstance(r, SimulationRun)] for nick, recs in held.items()}
            # the opening run of the lab is the learner's too: one run more than the presses
            assert {n: len(r) for n, r in runs.items()} == {n: k + 1 for n, k in PRESSES.items()}, runs
            guesses = [r for r in held["Ann"] if r.kind == "guess"]
            assert len(guesses) == 1 and float(guesses[0].guess) == 0.2, held["Ann"]
            assert not any(r.kind == "guess" for n in ("Bob", "Cy") for r in held[n])

            with ResultStore(folder, "class3", create=False) as store:
                stored = store.records()
            assert sorted(map(_key, stored)) == sorted(_key(r) for recs in held.values() for r in recs)

            sums: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
            for recs in runs.values():
                for r in recs:
                    sums[(r.question, r.exact)][0] += r.successes
                    sums[(r.question, r.exact)][1] += r.trials

            teacher = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
            contexts.append(teacher)
            tp = teacher.new_page()
            tp.goto(teacher_address)
            section = tp.locator("section", has=tp.get_by_role("heading", name=re.compile("Simulation lab")))
            cells = [c.strip() for c in section.locator("td:nth-child(2)").all_inner_texts()]
            assert sorted(cells) == sorted(f"{s:,} of {t:,}" for s, t in sums.values()), (cells, dict(sums))
            calibration = tp.locator("section", has=tp.get_by_role("heading", name=re.compile("calibration")))
            assert [int(c) for c in calibration.locator("td:nth-child(2)").all_inner_texts()] == [1]
            brier = tp.locator("section", has=tp.get_by_role("heading", name=re.compile("Brier")))
            assert "Ann" in brier.inner_text() and "Bob" not in brier.inner_text()
            where = tp.locator("section", has=tp.get_by_role("heading", name=re.compile("Who is in which lab")))
            assert all(n in where.inner_text() for n in PRESSES), where.inner_text()
            screenshot(tp, "issue21-teacher-live")

            # a learner's browser: the teacher's page and the class's records are refused
            cookie = "; ".join(f"{c['name']}={c['value']}" for c in contexts[1].cookies())
            for path in ("teacher", "teacher/results.csv", "teacher?token=guess", "teacher/results.csv?token=x"):
                status, body = request(srv, path, cookie=cookie)[:2]
                assert status == 403, (path, status)
                assert "Bob" not in str(body) and "simulation-run" not in str(body), path
            assert played["status"]
        finally:
            for context in contexts:
                context.close()
