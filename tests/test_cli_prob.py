"""``safari-kit prob``: exact answers (fractions) from the command line; bad input: one line, exit 2."""
from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

from safari_kit.cli import main


def _json(capsys, argv):
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_challenge_after_three_safe(capsys):
    assert main(["prob", "challenge", "--card", "W05", "--safe", "3"]) == 0
    out = capsys.readouterr().out
    assert "P(next reveal safe)" in out and "P(4 safe in a row" in out and "advice: continue" in out
    d = _json(capsys, ["prob", "challenge", "--card", "w05", "--safe", "3"])
    S, N = d["safe_cards"], d["unknown_cards"]
    assert N == 74
    assert Fraction(d["p_next_safe"]) == Fraction(S - 3, N - 3)
    assert Fraction(d["p_4_in_a_row"]) == Fraction(comb(S, 4), comb(N, 4))
    # one place left: reveal it (archive 5 if safe) or fail
    assert Fraction(d["expected_archive"]["optimal"]) == Fraction(S - 3, N - 3) * 5
    assert d["expected_archive"]["stop_now"] is None


def test_challenge_stop_rule_with_more_places(capsys):
    d = _json(capsys, ["prob", "challenge", "--card", "W05", "--safe", "5", "--places", "8"])
    a, n = d["safe_left"], d["unknown_left"]
    assert Fraction(a, n) <= Fraction(6, 7) and d["advice"].startswith("stop")
    assert Fraction(d["expected_archive"]["optimal"]) == 6 == Fraction(d["expected_archive"]["stop_now"])


def test_identify_knowing_nothing(capsys):
    assert main(["prob", "identify", "--card", "W05"]) == 0
    out = capsys.readouterr().out
    assert "animal" in out and "with ALEX" in out and "<- best" in out
    d = _json(capsys, ["prob", "identify", "--card", "W05"])
    assert Fraction(d["p_match"]["animal"]) == Fraction(14, 74)
    assert set(d["p_match"]) >= {"animal", "texture", "color", "name", "animal+texture"}
    for key, p in d["p_match"].items():
        assert Fraction(p) == Fraction(d["matching"][key], 74)


def test_knockout_lead(capsys):
    assert main(["prob", "knockout", "--card", "K03", "--item", "weight_kg", "--opponents", "3", "--cards", "7"]) == 0
    out = capsys.readouterr().out
    assert "P(win leading)" in out and "C(57 − 1 − " in out
    d = _json(capsys, ["prob", "knockout", "--card", "K03"])
    assert set(d["p_win_leading"]) == {"weight_kg", "size_cm", "top_speed_kmh", "lifespan_years"}
    assert d["k"] == 21 and d["best_item"] in d["p_win_leading"]


@pytest.mark.parametrize("argv, message", [
    (["prob"], "required"),
    (["prob", "odds"], "invalid choice"),
    (["prob", "challenge"], "--card"),
    (["prob", "challenge", "--card", "W99"], "unknown Safari Witness card id 'W99'"),
    (["prob", "challenge", "--card", "K03"], "unknown Safari Witness card id"),
    (["prob", "challenge", "--card", "W05", "--safe", "-1"], "--safe"),
    (["prob", "challenge", "--card", "W05", "--safe", "three"], "--safe"),
    (["prob", "challenge", "--card", "W05", "--safe", "5"], "only 4 face-down places"),
    (["prob", "identify", "--card", ""], "unknown Safari Witness card id"),
    (["prob", "knockout", "--card", "W05"], "unknown Safari Knockout card id"),
    (["prob", "knockout", "--card", "K03", "--item", "height"], "unknown data item 'height'"),
    (["prob", "knockout", "--card", "K03", "--opponents", "0"], "--opponents"),
    (["prob", "knockout", "--card", "K03", "--cards", "8"], "--cards"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
