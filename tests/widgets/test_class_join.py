"""Joining the class experiment in the chooser (issue 21): optional, said before, fixed once joined.

The labs' own records are tested beside each lab (tests/widgets/test_lab_recording_*.py); here: the chooser's
nickname step, what the page says is kept, where records go, and the download link.
"""
from __future__ import annotations

import html
from fractions import Fraction

import pytest

from safari_kit.class_results.class_session import RESULTS_ENV, results_location
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.results_file import parse_results
from safari_kit.widgets.app import LabChooser
from safari_kit.widgets.class_join import JoinPanel, what_is_kept


def _guess(lab):
    lab.record("guess", guess=Fraction(1, 5), exact=Fraction(7, 37), outcome=0, context="test")


def test_nothing_is_recorded_until_the_learner_joins(monkeypatch):
    monkeypatch.delenv(RESULTS_ENV, raising=False)
    chooser = LabChooser()
    lab = chooser.open("Safari Witness", "Identification")
    _guess(lab)
    assert lab.recorder is None and lab.results_download.widget.layout.display == "none"
    assert lab.results_download.file() is None and not lab.errors


def test_the_page_says_what_is_kept_before_joining(monkeypatch):
    monkeypatch.delenv(RESULTS_ENV, raising=False)
    chooser = LabChooser()
    said = chooser.start_hint.value + chooser.join.note.value
    assert what_is_kept(False).split(",")[0] in said and "Nothing leaves this page" in said
    assert "need not join" in said


def test_joining_records_in_the_open_lab_and_every_lab_opened_later(monkeypatch):
    monkeypatch.delenv(RESULTS_ENV, raising=False)
    chooser = LabChooser()
    first = chooser.open("Safari Witness", "Identification")
    assert chooser.join.join("  Zed ") is not None
    assert first.recorder is chooser.join.recorder and chooser.join.nickname.disabled
    _guess(first)
    second = chooser.open("Safari Knockout", "Knockout")
    assert second.recorder is chooser.join.recorder
    _guess(second)
    records = chooser.join.recorder.records
    assert [(r.nickname, r.seq) for r in records] == [("Zed", 1), ("Zed", 2)]
    assert "You joined as Zed" in chooser.join.note.value


def test_the_nickname_is_fixed_once_joined_whatever_the_page_sends(monkeypatch):
    monkeypatch.delenv(RESULTS_ENV, raising=False)
    panel = JoinPanel(from_env=False)
    rec = panel.join("Ann")
    panel.nickname.value = "Bob"  # a crafted message from the page
    assert panel.join(panel.nickname.value) is rec and rec.nickname == "Ann" and panel.nickname.value == "Ann"


@pytest.mark.parametrize("name, said", [("", "Type a nickname first"), ("x" * 31, "too long"),
                                        ("two\nlines", "hidden or control character")])
def test_a_nickname_the_records_refuse_is_named_and_nobody_joins(name, said):
    panel = JoinPanel(from_env=False)
    assert panel.join(name) is None and panel.recorder is None
    assert said in panel.note.value and not panel.join_button.disabled


def test_the_download_holds_the_learners_own_records_as_a_results_file(monkeypatch):
    monkeypatch.delenv(RESULTS_ENV, raising=False)
    chooser = LabChooser()
    chooser.join.join("Zed")
    lab = chooser.open("Safari Witness", "Identification")
    _guess(lab)
    download = lab.results_download
    assert download.widget.layout.display == "" and download.widget.count == 1
    sent = []
    download.widget.send = sent.append  # what goes to the page: only when the learner presses the button
    download._asked(download.widget, {"ask": "file"}, [])
    name, data = sent[0]["name"], sent[0]["text"]
    assert name == chooser.join.recorder.file_name()
    assert parse_results(data, name) == chooser.join.recorder.records


def test_on_a_recording_class_server_records_go_to_the_class_store(tmp_path, monkeypatch):
    with ResultStore(tmp_path, "lesson") as store:
        monkeypatch.setenv(RESULTS_ENV, results_location(tmp_path, "lesson"))
        chooser = LabChooser()
        assert chooser.join.recording and "class server keeps" in chooser.start_hint.value
        chooser.join.join("Ann")
        lab = chooser.open("Safari Witness", "Identification")
        _guess(lab)
        _guess(lab)
        assert [(r.nickname, r.seq, r.lab) for r in store.records()] == [("Ann", 1, "identification"),
                                                                          ("Ann", 2, "identification")]
        chooser.join.store.close()


def test_what_is_kept_is_said_in_short_sentences(monkeypatch):
    """Issue 27: the join row's "What is kept about you?" was one 60-word sentence. Now every sentence of it,
    and of the chooser's start text around it, is at most 25 words, and it still names every kind of record
    and what is not kept."""
    import re

    from safari_kit.authoring.learner_words import count_words, split_sentences

    monkeypatch.delenv(RESULTS_ENV, raising=False)
    chooser = LabChooser()
    start = re.sub(r"<[^>]+>", " ", chooser.start_hint.value)
    for text in (what_is_kept(True), what_is_kept(False), html.unescape(start)):
        long = [s for s in split_sentences(" ".join(text.split())) if count_words(s) > 25]
        assert not long, long
    for recording in (True, False):
        said = what_is_kept(recording)
        for kind in ("Simulate run", "guess", "stop-or-go", "Knockout card", "quiz answer", "lab and the time",
                     "need not join"):
            assert kind in said, (recording, kind)
    assert "no name, no address" in what_is_kept(True)
