"""The teacher's page of the class server (issue 21): ``safari-kit class --results FOLDER``.

One class server for the module, recording into a temporary folder; the test process
writes records into the same SQLite file (:class:`ResultStore`, as the labs' kernels
do) and reads the page as the teacher, a learner and a stranger would.
"""
from __future__ import annotations

import http.cookiejar
import re
import tempfile
import urllib.error
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

from safari_kit.class_results.class_export import csv_text
from safari_kit.class_results.class_records import Guess, SimulationRun
from safari_kit.class_results.class_store import ResultStore
from tests.server.class_server import Learner, class_server, request

SESSION = "t-2026"
AT = "2026-12-04T19:05:00+00:00"
#: the kernel records one Simulate run through the variable the server sets, as a lab will
NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "id": "c1",
               "source": ["from fractions import Fraction\n",
                          "from safari_kit.class_results.class_session import store_from_env\n",
                          "from safari_kit.class_results.recorder import Recorder\n",
                          "store = store_from_env()\n",
                          "rec = Recorder('Kern', sink=store.add)\n",
                          "rec.simulation_run(question='identify-animal', trials=50, successes=9, "
                          "exact=Fraction(7, 37))\n",
                          "print('recorded into', store.session)\n"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                 "voila": {"template": "safari"}},
    "nbformat": 4, "nbformat_minor": 5,
}


@pytest.fixture(scope="module")
def served():
    folder = Path(tempfile.mkdtemp(prefix="safari-results-"))
    with class_server("--results", str(folder), "--session", SESSION, notebook=NOTEBOOK) as server:
        store = ResultStore(folder, SESSION, create=False)  # the server made it before starting
        match = re.search(r"(http://127\.0\.0\.1:\d+/teacher\?token=([A-Za-z0-9_-]+))", server.log_text())
        assert match, server.log_text()
        yield server, store, match.group(1), match.group(2)
        store.close()


def teacher_opener():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)), jar


def get(opener, url: str) -> tuple[int, str, str]:
    try:
        with opener.open(url, timeout=60) as resp:
            return resp.status, resp.url, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, url, exc.read().decode(errors="replace")


def test_the_class_command_prints_the_teachers_address_and_the_session_file(served):
    server, store, address, _token = served
    log = server.log_text()
    assert f"Recording the class's results (session {SESSION}) in {store.path.resolve()}" in log
    assert address.startswith(server.url + "teacher?token=")


def test_the_printed_address_opens_the_page_with_the_records_in_the_store(served):
    server, store, address, _token = served
    store.add_many([
        SimulationRun(learner="Lann", nickname="Ann", lab="simulation", at=AT, seq=1, question="case-colors",
                      trials=400, successes=120, exact=Fraction(3, 10)),
        SimulationRun(learner="Lbo", nickname="<b>Bo</b>", lab="simulation", at=AT, seq=1, question="case-colors",
                      trials=600, successes=170, exact=Fraction(3, 10)),
        Guess(learner="Lbo", nickname="<b>Bo</b>", lab="identification", at=AT, seq=2, guess=Fraction(1, 4),
              exact=Fraction(3, 10), outcome=1)])
    opener, jar = teacher_opener()
    status, url, page = get(opener, address)
    assert status == 200 and url == server.url + "teacher"  # the token left the address bar
    assert [c.name for c in jar] == ["safari_kit_teacher"]
    assert "Case Card: 5 colors among 10 cards" in page and "290 of 1,000" in page  # 120 + 170 of 400 + 600
    assert "&lt;b&gt;Bo&lt;/b&gt;" in page and "<b>Bo</b>" not in page
    assert "0.2–0.3" in page  # the guess's calibration bin
    assert str(store.path.resolve()) in page
    status, _url, again = get(opener, server.url + "teacher")  # the refresh: the cookie alone
    assert status == 200 and "290 of 1,000" in again


def test_no_token_a_wrong_token_a_forged_cookie_or_a_learners_cookie_is_refused(served):
    server, _store, _address, token = served
    learner = Learner(server)
    assert learner.open_page()[0] == 200
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    for path, cookie in [("teacher", ""), (f"teacher?token={wrong}", ""), ("teacher?token=", ""),
                         ("teacher", learner.cookie_header()), ("teacher/results.csv", learner.cookie_header()),
                         ("teacher/results.csv", ""), (f"teacher/results.csv?token={wrong}", ""),
                         ("teacher", f"safari_kit_teacher=teacher:{SESSION}")]:
        status, body = request(server, path, cookie=cookie)
        assert status == 403, (path, cookie, status)
        assert "for the teacher" in body and token not in body and "token" not in body.lower()


def test_the_csv_download_is_the_stores_export_with_the_cookie_only(served):
    """The key in the CSV's address would land in the browser's downloads and history: the cookie only."""
    server, store, address, token = served
    status, text = request(server, f"teacher/results.csv?token={token}")
    assert status == 403 and token not in text
    opener, _jar = teacher_opener()
    assert get(opener, address)[0] == 200
    status, _url, text = get(opener, server.url + "teacher/results.csv")  # the page's link: the cookie
    assert status == 200 and text == csv_text(store.records())


def test_a_learners_page_never_holds_the_token_and_its_kernel_records_into_the_session(served):
    server, store, _address, token = served
    learner = Learner(server)
    status, page = learner.open_page()
    assert status == 200 and f"recorded into {SESSION}" in page
    # no way to the teacher's page (its address, its key); the word itself is fine ("ask your teacher")
    assert token not in page and "/teacher" not in page.lower() and "teacher's page" not in page.lower()
    assert any(r.nickname == "Kern" and r.trials == 50 for r in store.records())
