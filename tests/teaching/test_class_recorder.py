"""The learner session's recorder the labs call (issue 21): numbering, the sink, the download."""
from __future__ import annotations

import threading
from fractions import Fraction

import pytest

from safari_kit.class_results.class_records import RecordError
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.class_tables import ClassResults, pool
from safari_kit.class_results.recorder import Recorder, new_learner_id
from safari_kit.class_results.results_file import parse_results


def test_records_are_numbered_without_gaps_or_repeats_across_threads(tmp_path):
    store = ResultStore(tmp_path, "7b")
    rec = Recorder("Zed", sink=store.add)

    def press(k: int) -> None:
        for i in range(25):
            rec.simulation_run(question="identify-animal", trials=10, successes=(k + i) % 11, exact=Fraction(7, 37))

    threads = [threading.Thread(target=press, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.seq for r in rec.records) == list(range(1, 201))
    assert store.records() == sorted(rec.records, key=lambda r: r.seq)
    assert ClassResults.from_store(store) == pool(rec.records)


def test_a_refused_record_stays_in_the_download():
    sent = []

    def flaky(record):
        if record.seq == 2:
            raise OSError("the class server is gone")
        sent.append(record)

    rec = Recorder("Zed", learner="L1", sink=flaky)
    rec.guess("identification", guess=0.2, exact=Fraction(7, 37), outcome=0, context="animal")
    with pytest.raises(OSError):
        rec.knockout_play(chance=Fraction(18, 35), outcome=1)
    rec.quiz_answer(question="w-q1", answer="B", correct=1)
    assert [r.seq for r in sent] == [1, 3]
    assert parse_results(rec.results_text()) == rec.records and len(rec.records) == 3
    assert rec.file_name() == "Zed-L1.safari-results.jsonl"


def test_a_bad_nickname_fails_on_joining_and_a_bad_field_uses_no_number():
    with pytest.raises(RecordError, match="nickname must be a text of 1 to 30 characters"):
        Recorder("")
    rec = Recorder("Zed")
    with pytest.raises(RecordError, match="choice must be one of stop, continue, got 'go'"):
        rec.challenge_decision(challenge=1, safe_so_far=4, p_next=Fraction(1, 2), stop_value=5,
                               continue_value=Fraction(9, 2), rule="stop", choice="go")
    assert rec.records == [] and rec.results_text() == ""
    assert rec.challenge_decision(challenge=1, safe_so_far=4, p_next=Fraction(1, 2), stop_value=5,
                                  continue_value=Fraction(9, 2), rule="stop", choice="stop", result=5).seq == 1


def test_learner_ids_are_random_and_valid():
    ids = {new_learner_id() for _ in range(100)}
    assert len(ids) == 100
    for learner in ids:
        Recorder("Zed", learner=learner)
