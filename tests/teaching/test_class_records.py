"""The class experiment's records and the results file a lab offers as a download (issue 21)."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from safari_kit.class_results.class_records import (KINDS, ChallengeDecision, Guess, KnockoutPlay, QuizAnswer,
                                                    RecordError, SimulationRun, as_chance, from_dict, to_dict)
from safari_kit.class_results.results_file import (ResultsFileError, file_name, parse_results, read_results,
                                                   results_text, write_results)

WHO = {"learner": "k3f9", "nickname": "Zed", "at": "2026-11-16T09:05:00+00:00"}


def session() -> list:
    """One learner's session: a record of every kind."""
    return [
        SimulationRun(**WHO, lab="simulation", seq=1, question="identify-animal", trials=100, successes=21,
                      exact=Fraction(7, 37), seed=28),
        Guess(**WHO, lab="simulation", seq=2, guess=0.2, exact=Fraction(7, 37), outcome=1, context="animal"),
        ChallengeDecision(**WHO, lab="challenge", seq=3, challenge=1, safe_so_far=5, p_next=Fraction(26, 69),
                          stop_value=Fraction(6), continue_value=Fraction(182, 69), rule="stop", choice="continue",
                          result=0),
        KnockoutPlay(**WHO, lab="knockout", seq=4, chance=Fraction(18, 35), outcome=0, best=Fraction(18, 35),
                     item="weight_kg"),
        QuizAnswer(**WHO, lab="tutorial", seq=5, question="w-q1", answer="B", correct=True),
    ]


def test_every_kind_round_trips_through_plain_json():
    recs = session()
    assert {r.kind for r in recs} == set(KINDS)
    for r in recs:
        data = json.loads(json.dumps(to_dict(r)))
        assert from_dict(data) == r
    assert to_dict(recs[1])["guess"] == "1/5"  # a float guess is kept as its decimal digits, exactly
    assert recs[4].correct == 1 and recs[2].n_if_stop == 6 and recs[2].threshold == Fraction(6, 7)


@pytest.mark.parametrize("kind, change, words", [
    (0, {"successes": 101}, "successes must be at most trials (100), got 101"),
    (0, {"trials": 0}, "trials must be a whole number >= 1, got 0"),
    (0, {"exact": "7/0"}, "exact must be a probability between 0 and 1, got '7/0'"),
    (1, {"guess": 1.5}, "guess must be between 0 and 1, got 1.5"),
    (1, {"guess": float("nan")}, "guess must be a probability between 0 and 1, got nan"),
    (1, {"outcome": 2}, "outcome must be 0 or 1, got 2"),
    (1, {"context": "two\nlines"}, "context must not hold control characters"),
    (2, {"choice": "reveal"}, "choice must be one of stop, continue, got 'reveal'"),
    (2, {"stop_value": -1}, "stop_value must be a number of cards >= 0 or None, got -1"),
    (3, {"best": True}, "best must be a probability between 0 and 1, got True"),
    (4, {"question": ""}, "question must be a text of 1 to 60 characters, got ''"),
    (4, {"nickname": "x" * 31}, "nickname must be a text of 1 to 30 characters"),
    (4, {"learner": "a b"}, "learner must be 1 to 64 letters, digits, '-' or '_', got 'a b'"),
    (4, {"at": "yesterday"}, "at must be a time in ISO 8601 with its UTC offset"),
    (4, {"at": "2026-11-16T09:05:00"}, "at must be a time in ISO 8601 with its UTC offset"),
    (4, {"seq": 0}, "seq must be a whole number >= 1, got 0"),
])
def test_a_bad_field_is_named_with_its_value(kind, change, words):
    data = to_dict(session()[kind]) | change
    with pytest.raises(RecordError) as info:
        from_dict(data)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_from_dict_names_missing_and_unknown_fields():
    data = to_dict(session()[0])
    with pytest.raises(RecordError, match="needs the field trials"):
        from_dict({k: v for k, v in data.items() if k != "trials"})
    with pytest.raises(RecordError, match="has no field ip"):
        from_dict(data | {"ip": "10.0.0.7"})  # nothing beyond the record's fields is accepted
    with pytest.raises(RecordError, match="kind must be one of"):
        from_dict(data | {"kind": "keystroke"})


def test_as_chance_reads_fractions_floats_and_texts_exactly():
    assert as_chance("7/37") == Fraction(7, 37)
    assert as_chance(0.1) == Fraction(1, 10)
    assert as_chance(" 0.25 ") == Fraction(1, 4)
    assert as_chance(1) == 1


def test_results_file_round_trip(tmp_path):
    recs = session()
    path = write_results(tmp_path / file_name(recs), list(reversed(recs)))
    assert path.name == "Zed-k3f9.safari-results.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {"format": "safari-kit-results", "version": 1, "learner": "k3f9",
                                    "nickname": "Zed"}
    assert read_results(path) == recs  # by seq, every record, exactly


def _text_with(line_no: int, new: str) -> str:
    lines = results_text(session()).splitlines()
    lines[line_no - 1] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("line_no, new, words", [
    (1, '{"format": "something-else", "version": 1}', "f.jsonl: line 1: field format: expected 'safari-kit-results'"),
    (1, '{"format": "safari-kit-results", "version": 2, "learner": "k3f9", "nickname": "Zed"}',
     "f.jsonl: line 1: field version: the file is version 2, this kit reads up to version 1"),
    (3, '{"kind": "guess", ', "f.jsonl: line 3: not JSON"),
    (4, "", "f.jsonl: line 4: empty line between records"),
])
def test_a_bad_results_file_names_file_line_and_field(line_no, new, words):
    with pytest.raises(ResultsFileError) as info:
        parse_results(_text_with(line_no, new), "f.jsonl")
    assert words in str(info.value)


def test_a_results_file_line_of_another_learner_or_a_repeated_seq_is_refused_not_dropped():
    text = results_text(session())
    other = to_dict(session()[1]) | {"learner": "zz99"}
    with pytest.raises(ResultsFileError, match=r"line 7: field learner: 'zz99' is not the header's 'k3f9'"):
        parse_results(text + json.dumps(other) + "\n", "f.jsonl")
    again = to_dict(session()[1]) | {"guess": "1/3"}
    with pytest.raises(ResultsFileError, match="line 7: field seq: 2 already on line 3"):
        parse_results(text + json.dumps(again) + "\n", "f.jsonl")
    bad = to_dict(session()[1]) | {"seq": 9, "outcome": 3}
    with pytest.raises(ResultsFileError, match="line 7: outcome must be 0 or 1, got 3"):
        parse_results(text + json.dumps(bad) + "\n", "f.jsonl")
    assert len(parse_results(text + "\n\n", "f.jsonl")) == 5  # blank lines at the end only: fine


def test_a_results_file_holds_one_learner():
    recs = session()
    stranger = Guess(learner="zz99", nickname="Amy", lab="simulation", at=WHO["at"], seq=1, guess=0.5,
                     exact=Fraction(1, 2), outcome=1)
    with pytest.raises(ResultsFileError, match="one learner's session"):
        results_text([*recs, stranger])
    with pytest.raises(ResultsFileError, match="at least one record"):
        results_text([])
