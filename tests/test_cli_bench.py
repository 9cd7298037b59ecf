"""``safari-kit bench``: every figure printed beside its target (speed itself is never asserted)."""
from __future__ import annotations

import json

from safari_kit.cli import main
from safari_kit.simulation.bench import MEASURES, TARGETS, Figure, format_table


def test_quick_prints_every_figure_with_its_target(capsys):
    assert main(["bench", "--quick"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["figure", "measured"] and "target" in lines[0]
    for key, (label, unit, target, kind) in TARGETS.items():
        row = next((ln for ln in lines if ln.startswith(label)), None)
        assert row is not None, f"no row for {key}"
        assert unit in row
        assert ("≥" in row or "≤" in row or "single digit" in row)
        assert any(s in row for s in ("meets", "misses", "n/a"))
    assert "figures meet their target" in out


def test_json_and_only(capsys):
    assert main(["bench", "--quick", "--json", "--only", "knockout_clone"]) == 0
    data = json.loads(capsys.readouterr().out)
    (fig,) = data["figures"]
    assert fig["key"] == "knockout_clone" and fig["value"] > 0 and fig["unit"] == "µs"
    assert fig["status"] in ("meets", "misses")


def test_unknown_figure_is_one_line_exit_2(capsys):
    assert main(["bench", "--only", "warp_speed"]) == 2
    err = capsys.readouterr().err.strip()
    assert "warp_speed" in err and len(err.splitlines()) == 1


def test_missing_code_prints_not_available():
    figs = [Figure("x", "a figure", "games/s", 10, "min"), Figure("y", "another", "µs", 5, "max", value=2.0)]
    table = format_table(figs)
    assert "n/a (not available)" in table and "meets" in table and "1 of 2" in table
    assert set(MEASURES) == set(TARGETS)
