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


def test_challenge_no_place_left_before_4_must_stop_and_archive(capsys):
    """Issue 9: --safe 3 --places 3. No face-down place is left, so W5 makes the player stop
    and archive the challenged card and the 3 revealed ones (4), though 4 safe reveals are out of reach."""
    assert main(["prob", "challenge", "--card", "W05", "--safe", "3", "--places", "3"]) == 0
    out = capsys.readouterr().out
    assert "not allowed" not in out and "fails" not in out
    assert "stop now      : 4" in out and "optimal play  : 4 " in out and "advice: stop" in out
    d = _json(capsys, ["prob", "challenge", "--card", "W05", "--safe", "3", "--places", "3"])
    ea = d["expected_archive"]
    assert Fraction(ea["stop_now"]) == Fraction(ea["optimal"]) == 4
    assert ea["continue"] is None and d["p_next_safe"] is None
    assert Fraction(d["p_reach_4_from_here"]) == 0 and Fraction(d["p_4_in_a_row"]) == 0


def _probability_layer(card, k, F):
    """What the probability layer says for a Challenge of ``card`` after k safe reveals of F places."""
    from safari_kit.probability import witness as W

    S, N = W.safe_count(card), 74
    a, n, f = S - k, N - k, F - k
    stop, cont = W.stop_vs_continue_counts(k, a, n, f)
    return {"stop": stop, "cont": cont, "best": W.challenge_dp(k, a, n, f),
            "reach": W.p_streak_counts(a, n, max(0, W.MIN_SAFE - k), places=f),
            "from_start": W.challenge_dp(0, S, N, F), "a": a, "n": n, "f": f}


def _check_against_probability_layer(d, card, k, F):
    want = _probability_layer(card, k, F)
    ea = d["expected_archive"]
    got_stop = None if ea["stop_now"] is None else Fraction(ea["stop_now"])
    got_cont = None if ea["continue"] is None else Fraction(ea["continue"])
    assert got_stop == want["stop"] and got_cont == want["cont"], (card, k, F)
    assert Fraction(ea["optimal"]) == want["best"] == max(v for v in (want["stop"], want["cont"]) if v is not None)
    assert Fraction(ea["optimal_from_start"]) == want["from_start"]
    assert Fraction(d["p_reach_4_from_here"]) == want["reach"]
    # W5: stopping is allowed after 4 safe reveals, and forced when no face-down place is left
    assert (got_stop is not None) == (k >= 4 or want["f"] == 0)
    assert (got_cont is None) == (want["f"] == 0)
    # the advice follows the values: continue exactly when revealing is worth more (or stopping is not allowed)
    advise_continue = got_cont is not None and (got_stop is None or got_cont > got_stop)
    assert d["advice"].startswith("continue" if advise_continue else "stop"), (card, k, F, d["advice"])


@pytest.mark.parametrize("card, k, F", [
    ("W05", 3, 3), ("W05", 0, 1), ("W05", 1, 1), ("W05", 2, 4), ("W05", 3, 4), ("W05", 4, 4),
    ("W05", 4, 9), ("W05", 5, 8), ("W05", 0, 20), ("W05", 19, 20), ("W71", 2, 2), ("W71", 6, 12),
])
def test_challenge_cli_matches_probability_layer(capsys, card, k, F):
    argv = ["prob", "challenge", "--card", card, "--safe", str(k), "--places", str(F)]
    _check_against_probability_layer(_json(capsys, argv), card, k, F)
    assert main(argv) == 0
    out = capsys.readouterr().out
    want = _probability_layer(card, k, F)
    stop_line = next(line for line in out.splitlines() if line.strip().startswith("stop now"))
    assert ("not allowed" in stop_line) == (want["stop"] is None)


def test_challenge_cli_matches_probability_layer_for_every_safe_and_places(capsys):
    from safari_kit.probability import witness as W

    S = W.safe_count("W05")
    for F in range(1, 21):
        for k in range(0, min(F, S) + 1):
            d = _json(capsys, ["prob", "challenge", "--card", "W05", "--safe", str(k), "--places", str(F)])
            _check_against_probability_layer(d, "W05", k, F)


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
    (["prob", "challenge", "--card", "W05", "--safe", "33", "--places", "20"], "only 20 face-down places"),
    (["prob", "challenge", "--card", "W01", "--safe", "17", "--places", "20"], "only 16 cards are safe for W01"),
    (["prob", "challenge", "--card", "W05", "--places", "0"], "--places"),
    (["prob", "challenge", "--card", "W05", "--places", "-2"], "--places"),
    (["prob", "challenge", "--card", "W05", "--safe", ""], "--safe"),
    (["prob", "challenge", "--card", " "], "unknown Safari Witness card id"),
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
