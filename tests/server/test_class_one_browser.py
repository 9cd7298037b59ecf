"""Issue 26, with a real class server recording: two pages of one browser are one learner, and a second
browser cannot join under the same nickname (nor a look-alike of it).

At 9bdb9c7 every page's kernel made up a random learner id (a second tab was a new learner) and any
nickname was accepted any number of times. Now the class server writes each kernel's owner tag (an HMAC
of the browser's user id, never the cookie) beside the session's database, and the lab derives its learner
id from it (safari_kit.classroom.owner_tags, safari_kit.class_results.learner_tags).

Each page's notebook does what the chooser's Join button does: it joins under "Zed" (or, if that is taken,
"Amy") and records one guess.
"""
from __future__ import annotations

import asyncio
import html
import random
import stat
import tempfile
import time
from pathlib import Path

import pytest

from safari_kit.class_results.class_store import ResultStore
from tests.server.class_learners import RawLearner
from tests.server.class_server import Learner, class_server

pytestmark = pytest.mark.slow  # real class servers, about 25 s a test: `make test`, not the fast loop

SESSION = "one-browser-26"
NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "id": "c1",
               "source": ["from fractions import Fraction\n",
                          "from safari_kit.widgets.class_join import JoinPanel\n",
                          "panel = JoinPanel()\n",
                          "rec = panel.join('Zed') or JoinPanel().join('\\uff3aed') or JoinPanel().join('Amy')\n",
                          "rec.guess('identification', guess=Fraction(1, 5), exact=Fraction(7, 37), outcome=0, "
                          "chance_seen=False)\n",
                          "print('joined as', rec.nickname)\n"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                 "voila": {"template": "safari"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def wait_records(folder: Path, n: int, server) -> list:
    store = ResultStore(folder, SESSION, create=False)
    try:
        for _ in range(600):
            records = store.records()
            if len(records) >= n:
                return records
            time.sleep(0.1)
        raise AssertionError(f"{len(store.records())} records, expected {n}:\n{server.log_text()}")
    finally:
        store.close()


def test_two_pages_of_one_browser_are_one_learner_and_another_browser_cannot_take_the_nickname():
    from safari_kit.class_results.learner_tags import tags_folder  # here: the other test runs on 9bdb9c7's code too

    folder = Path(tempfile.mkdtemp(prefix="safari-one-browser-"))
    with class_server("--results", str(folder), "--session", SESSION, "--labs-per-minute", "0",
                      notebook=NOTEBOOK) as server:
        tags = tags_folder(folder / f"{SESSION}.sqlite3")
        browser = Learner(server)
        assert browser.open_page()[0] == 200
        first_kernel = browser.kernel_id
        assert browser.open_page()[0] == 200  # a second tab of the same browser (same cookies)
        assert browser.kernel_id != first_kernel
        one = wait_records(folder, 2, server)
        other = Learner(server)  # another browser
        assert other.open_page()[0] == 200
        records = wait_records(folder, 3, server)
        assert stat.S_IMODE(tags.stat().st_mode) == 0o700
        tag_text = (tags / first_kernel).read_text()
        assert (tags / browser.kernel_id).read_text() == tag_text  # one browser, one tag
        assert all(v not in tag_text for v in browser.cookies().values())  # the cookie itself is never written
    by_learner: dict[str, list] = {}
    for r in records:
        by_learner.setdefault(r.learner, []).append(r)
    assert len({r.learner for r in one}) == 1, one  # both pages of the browser: one learner
    zed = one[0].learner
    assert [(r.nickname, r.seq) for r in by_learner[zed]] == [("Zed", 1), ("Zed", 2)]
    others = [r for r in records if r.learner != zed]
    assert [r.nickname for r in others] == ["Amy"]  # neither Zed nor its full-width look-alike
    assert not tags.exists()  # removed when the server stopped


def _join_note(learner) -> str:
    found = learner.find(lambda s: "safari-join-note" in (s.get("_dom_classes") or ()))
    return learner.models[found[0]].get("value", "") if found else ""


async def _join(learner, nickname: str, expect: str) -> str:
    await learner.join(nickname)
    for _ in range(300):
        note = html.unescape(_join_note(learner))
        if expect in note:
            return note
        await asyncio.sleep(0.1)
    raise AssertionError(f"{learner.result.name}: {expect!r} not in {_join_note(learner)!r}")


async def _ready_lab_class(url: str) -> list[str]:
    rng = random.Random(26)
    zed = RawLearner(url, "127.0.0.1", "zed", rng)
    zed_tab = RawLearner(url, "127.0.0.1", "zed-tab", rng)
    other = RawLearner(url, "127.0.0.2", "other", rng)
    notes = []
    try:
        for learner in (zed, zed_tab, other):
            if learner is zed_tab:
                zed_tab.cookies = dict(zed.cookies)  # a second tab of Zed's browser: the same cookies
            assert await learner.open_page() == 200, learner.result.errors
            await learner.connect()
            if learner is zed:
                notes.append(await _join(zed, "Zed", "You joined as Zed"))
            elif learner is zed_tab:
                notes.append(await _join(zed_tab, "Amy", "This browser joined as Zed already"))
            else:
                notes.append(await _join(other, "ZED", "That nickname is taken in this class. Pick another."))
                notes.append(await _join(other, "Amy", "You joined as Amy"))
    finally:
        for learner in (zed, zed_tab, other):
            await learner.close()
    return notes


def test_with_ready_labs_the_join_button_knows_the_browser():
    """The app itself, its labs started before anyone came (--ready-labs): the owner is set when a page takes
    a ready lab, and the learner presses Join afterwards, as in a real class."""
    folder = Path(tempfile.mkdtemp(prefix="safari-one-browser-"))
    with class_server("--results", str(folder), "--session", "ready-26", "--labs-per-minute", "0",
                      "--ready-labs", "3", app=True) as server:
        notes = asyncio.run(_ready_lab_class(server.url))
        store = ResultStore(folder, "ready-26", create=False)
        try:
            con = store._connection()
            held = sorted(con.execute("SELECT nickname FROM learners").fetchall())
        finally:
            store.close()
    assert held == [("Amy",), ("Zed",)], (held, notes)
