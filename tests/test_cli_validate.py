"""``safari-kit validate``: exit 0 with a summary, or exit 2 with every problem, never a traceback."""
from __future__ import annotations

import subprocess
import sys

import pytest

from safari_kit.cli import COMMANDS, main


def run(capsys, *argv):
    code = main(["validate", *map(str, argv)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_good_file(capsys, card_csv):
    path = card_csv()
    code, out, err = run(capsys, path)
    assert code == 0 and err == ""
    assert out.strip() == f"{path}: OK \u2014 75 witness cards (W1 balanced), 49 knockout cards"


def test_default_file(capsys):
    code, out, _ = run(capsys)
    assert code == 0 and "cards.csv: OK" in out


def test_bad_file_prints_every_problem(capsys, card_csv, witness_lines, knockout_lines):
    w, k = witness_lines, knockout_lines()
    fields = w[15].split(",")
    fields[5] = "Purple"
    w[15] = ",".join(fields)
    k[0] = k[0].replace("11.5", "heavy")
    code, out, err = run(capsys, card_csv(w, k))
    assert code == 2 and out == ""
    assert "2 problem(s) in card data" in err
    assert "cards.csv:17: column 'color': 'Purple' is not valid" in err
    assert "cards.csv:77: column 'weight_kg': 'heavy' is not a number; expected a number of kg" in err


def test_lenient(capsys, card_csv, witness_lines, knockout_lines):
    path = card_csv(witness_lines[:10], knockout_lines(5))
    assert run(capsys, path)[0] == 2
    code, out, _ = run(capsys, path, "--lenient")
    assert code == 0
    assert "10 witness cards (not W1 balanced), 5 knockout cards" in out


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / "missing.csv",
    lambda tmp: tmp,
    lambda tmp: (tmp / "b.csv", (tmp / "b.csv").write_bytes(b"\x00\x01\x02"))[0],
    lambda tmp: (tmp / "l.csv", (tmp / "l.csv").write_bytes(b"id,deck\n\xff\xfe"))[0],
    lambda tmp: (tmp / "e.csv", (tmp / "e.csv").write_bytes(b""))[0],
])
def test_bad_input_never_tracebacks(capsys, tmp_path, make):
    code, out, err = run(capsys, make(tmp_path))
    assert code == 2 and out == "" and "problem(s) in card data" in err


def test_usage_errors_return_2(capsys):
    assert main([]) == 2
    assert main(["no-such-command"]) == 2
    assert main(["validate", "--help"]) == 0
    capsys.readouterr()


def test_subcommands_are_a_registry():
    assert "validate" in COMMANDS and callable(COMMANDS["validate"])


def test_python_dash_m(repo_root):
    proc = subprocess.run([sys.executable, "-m", "safari_kit", "validate", "data/cards.csv"],
                          cwd=repo_root, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("data/cards.csv: OK")
