"""Issue 26: a guess records whether the exact chance was on screen before it (``Guess.chance_seen``).

True: the learner saw the exact chance first; False: it was hidden; None: not known (files written before
the field). The field goes through every way a record travels: plain JSON, the results file, the CSV export
and the class's database; an older line without it reads as None.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from safari_kit.class_results.class_export import COLUMNS, csv_text, parse_csv
from safari_kit.class_results.class_records import Guess, RecordError, from_dict, to_dict
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.results_file import parse_results, results_text

WHO = {"learner": "k3f9", "nickname": "Zed", "lab": "identification", "at": "2026-11-16T09:05:00+00:00"}


def guesses() -> list[Guess]:
    return [Guess(**WHO, seq=i + 1, guess=Fraction(1, 4), exact=Fraction(7, 37), outcome=0, chance_seen=seen)
            for i, seen in enumerate((True, False, None))]


def test_chance_seen_round_trips_through_json_results_file_csv_and_store(tmp_path):
    recs = guesses()
    assert [r.chance_seen for r in recs] == [True, False, None]
    assert [to_dict(r)["chance_seen"] for r in recs] == [True, False, None]
    assert [from_dict(json.loads(json.dumps(to_dict(r)))) for r in recs] == recs
    assert parse_results(results_text(recs), "f") == recs
    assert "chance_seen" in COLUMNS
    assert parse_csv(csv_text(recs)) == recs
    with ResultStore(tmp_path, "s1") as store:
        store.add_many(recs)
        assert store.records("guess") == recs


def test_an_older_line_without_the_field_reads_as_not_known():
    data = to_dict(guesses()[0])
    del data["chance_seen"]
    assert from_dict(data).chance_seen is None


@pytest.mark.parametrize("value", [1, "yes", 0.0])
def test_a_bad_chance_seen_is_named(value):
    with pytest.raises(RecordError, match="chance_seen must be true, false or empty"):
        Guess(**WHO, seq=1, guess=0.5, exact=Fraction(1, 2), outcome=1, chance_seen=value)
