"""``safari-kit simulate``: a summary table or JSON; every bad input one line on stderr and exit 2."""
from __future__ import annotations

import json

import pytest

from safari_kit.cli import main


def test_knockout_table(capsys):
    assert main(["simulate", "knockout", "--players", "3", "--games", "9", "--seed", "4", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Knockout tournament: 9 games, 3 players, seed 4" in out
    assert "win rate" in out and "95% CI" in out and "random#3" in out and "by seat" in out


def test_witness_json_with_options(capsys):
    argv = ["simulate", "witness", "--games", "6", "--seed", "1", "--workers", "1", "--case-module",
            "--advanced", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["config"]["options"] == {"case_module": True, "advanced": True}
    assert data["config"]["players"] == 3 and len(data["summary"]) == 3
    assert abs(sum(r["win_rate"] for r in data["summary"]) - 1) < 1e-9
    for r in data["summary"]:
        assert r["win_ci_low"] <= r["win_rate"] <= r["win_ci_high"]


def test_same_seed_same_output_whatever_the_workers(capsys):
    base = ["simulate", "knockout", "--players", "2", "--games", "12", "--seed", "9", "--chunk-size", "4", "--json"]
    assert main(base + ["--workers", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(base + ["--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one["summary"] == two["summary"] and one["turns"] == two["turns"]


def test_elimination_and_bots(capsys):
    assert main(["simulate", "knockout", "--players", "2", "--games", "4", "--elimination",
                 "--bots", "random", "--workers", "1"]) == 0
    assert "elimination" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["simulate", "poker"], "invalid choice"),
    (["simulate", "knockout", "--games", "0"], "--games"),
    (["simulate", "knockout", "--games", "ten"], "--games"),
    (["simulate", "knockout", "--players", "9"], "--players"),
    (["simulate", "witness", "--seed", "-2"], "--seed"),
    (["simulate", "knockout", "--workers", "0"], "--workers"),
    (["simulate", "knockout", "--bots", "random,dragon", "--workers", "1"], "unknown bot 'dragon'"),
    (["simulate", "knockout", "--bots", "memory:0.5", "--workers", "1"], "does not play knockout"),
    (["simulate", "witness", "--bots", "memory:1.5", "--workers", "1"], "from 0 to 1"),
    (["simulate", "witness", "--bots", "lastk:x", "--workers", "1"], "not a number"),
    (["simulate", "knockout", "--players", "2", "--bots", "random,random,random"], "at most one per seat"),
    (["simulate", "witness", "--elimination", "--workers", "1"], "Knockout option"),
    (["simulate", "knockout", "--case-module", "--workers", "1"], "Witness options"),
    (["simulate", "knockout", "--scheduler", "nonsense", "--games", "2"], "scheduler"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    if "--scheduler" in argv:
        pytest.importorskip("distributed")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
