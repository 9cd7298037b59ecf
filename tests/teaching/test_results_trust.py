"""Issue 26: the class's results cannot be faked or stopped through files: CSV cells never run as formulas (and read
back as typed), every number of a record is bounded before it costs anything, a learner id counts only with its
nickname, and one bad file never stops the class's pool (each failed on 9bdb9c7)."""
from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from safari_kit.cli import main
from safari_kit.class_results import class_export as X
from safari_kit.class_results import results_file as RF
from safari_kit.class_results.class_records import (Guess, QuizAnswer, RecordError, SimulationRun, check_who,
                                                    from_dict, to_dict)
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.class_tables import ClassResults, PoolError, pool, pool_files
from safari_kit.class_results.results_file import ResultsFileError, parse_results, read_results, results_text, \
    write_results
from tests.teaching.test_class_records import WHO, session

AT = WHO["at"]
FORMULAS = ['=HYPERLINK("//x.test","Zed")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1+2", "-2+3", " =1+1", "'=1+1",
            "\uff1d1+1"]


def sim(learner: str, nickname: str, seq: int, trials: int = 100, successes: int = 20, **change) -> SimulationRun:
    data = dict(learner=learner, nickname=nickname, lab="simulation", at=AT, seq=seq, question="identify-animal",
                trials=trials, successes=successes, exact=Fraction(7, 37)) | change
    return SimulationRun(**data)


def text_cells(text: str) -> list[str]:
    """Every cell of a CSV export whose column holds text (not a count or a fraction)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    texts = {"kind", "learner", "nickname", "lab", "at", "question", "context", "rule", "choice", "item", "answer"}
    return [v for row in rows for k, v in row.items() if k in texts and v]


def runs_as_formula(cell: str) -> bool:
    return cell[:1] in "=+-@\t\r" or cell.lstrip(" ")[:1] in "=+-@\uff1d"


# ---------------------------------------------------------------------------------------------- CSV formulas
def test_no_text_cell_of_the_export_starts_a_formula_and_every_one_reads_back_as_typed():
    recs = [sim(f"L{i}", nick, 1) for i, nick in enumerate(FORMULAS)]
    recs += [Guess(learner="-L9", nickname="Zed", lab="simulation", at=AT, seq=1, guess=Fraction(1, 2),
                   exact=Fraction(7, 37), outcome=1, context="=1+1"),
             QuizAnswer(learner="L8", nickname="Amy", lab="tutorial", at=AT, seq=1, question="w-q1", answer="@x",
                        correct=0)]
    text = X.csv_text(recs)
    cells = text_cells(text)
    assert [c for c in cells if runs_as_formula(c)] == []  # 9bdb9c7: the nicknames went out raw
    assert "'=HYPERLINK(\"\"//x.test\"\",\"\"Zed\"\")" in text and ",'-L9," in text
    assert X.parse_csv(text) == recs  # the kit reads back the nickname typed, not the quoted one
    assert "100,20,7/37" in text  # numbers stay numbers: no quote in front


@pytest.mark.parametrize("cell", ["=1", "+1", "-1", "@1", "\t=1", "\r=1", "\n=1", "\0x", "  =1", "'=1", "''@1",
                                  "\uff1dA1", "\uff20A1"])
def test_formula_safe_quotes_every_formula_start_and_reads_back_exactly(cell):
    safe = X.formula_safe(cell)
    assert safe.startswith("'") and X.from_formula_safe(safe) == cell
    for plain in ("Zed", "'Zed", "'", "", "7/37", " Zed"):
        assert X.formula_safe(plain) == plain and X.from_formula_safe(plain) == plain


def test_the_pooled_and_exported_csv_files_are_quoted_too(tmp_path, capsys):
    files = tmp_path / "files"
    files.mkdir()
    write_results(files / "a.safari-results.jsonl", [sim("L1", FORMULAS[0], 1)])
    assert main(["results", "pool", str(files), "--csv", str(tmp_path / "pool.csv")]) == 0
    store = ResultStore(tmp_path, "s1")
    store.add(sim("L2", FORMULAS[1], 1))
    assert main(["results", "export", str(tmp_path), "s1", "--csv", str(tmp_path / "export.csv")]) == 0
    capsys.readouterr()
    assert main(["results", "pool", str(files)]) == 0
    printed = capsys.readouterr().out
    for text in ((tmp_path / "pool.csv").read_text(), (tmp_path / "export.csv").read_text(), printed):
        assert [c for c in text_cells(text) if runs_as_formula(c)] == []
    assert X.read_csv(tmp_path / "pool.csv")[0].nickname == FORMULAS[0]
    assert ClassResults.from_csv(tmp_path / "export.csv").records[0].nickname == FORMULAS[1]


def _accepted(nickname: str) -> bool:
    try:
        check_who("L1", nickname)
    except RecordError:
        return False
    return True


texts = st.text(st.characters(codec="utf-8"), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(nickname=texts.filter(_accepted), context=st.text(st.characters(codec="utf-8", min_codepoint=32), max_size=40),
       lead=st.sampled_from(["", "=", "+", "-", "@", " =", "'", "''=", "\u2028", "\x85"]))
def test_any_text_a_record_holds_round_trips_through_the_csv_and_the_results_file(nickname, context, lead):
    context = (lead + context)[:200]
    rec = Guess(learner="L1", nickname=nickname, lab="simulation", at=AT, seq=1, guess=Fraction(1, 3),
                exact=Fraction(7, 37), outcome=1, context=context)
    text = X.csv_text([rec])
    assert X.parse_csv(text) == [rec]
    assert [c for c in text_cells(text) if runs_as_formula(c)] == []
    assert parse_results(results_text([rec])) == [rec]


# ------------------------------------------------------------------------------ the results file, read back
def test_a_text_holding_a_line_separator_round_trips_through_the_results_file(tmp_path):
    rec = Guess(learner="L1", nickname="Zed", lab="simulation", at=AT, seq=1, guess=Fraction(1, 3),
                exact=Fraction(7, 37), outcome=1, context="one\u2028two\u2029three\x85four")
    path = write_results(tmp_path / "z.safari-results.jsonl", [rec])
    raw = path.read_text(encoding="utf-8")
    assert not {"\u2028", "\u2029", "\x85"} & set(raw)  # written as JSON escapes: any JSON-lines reader reads it
    assert read_results(path) == [rec]  # 9bdb9c7: "line 2: not JSON"
    old = "\n".join(json.dumps(d, ensure_ascii=False) for d in (
        {"format": RF.FORMAT, "version": 1, "learner": "L1", "nickname": "Zed"}, to_dict(rec))) + "\r\n"
    assert "\u2028" in old and parse_results(old, "old.jsonl") == [rec]  # an older kit's file (raw U+2028) too


def _file_with(tmp_path, old: str, new: str, name: str = "f.safari-results.jsonl"):
    text = results_text([sim("L1", "Zed", 1)])
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize("exact", ["1e-61", "1e-200", "1/" + "7" * 80, "1e-20000000", "1e-300000000",
                                   "1" * 150 + "/" + "3" * 150, "0." + "1" * 200])
def test_a_chance_of_a_huge_exponent_or_length_is_refused_at_once_naming_file_line_and_field(tmp_path, exact):
    path = _file_with(tmp_path, '"exact": "7/37"', f'"exact": "{exact}"')
    with pytest.raises(ResultsFileError) as info:  # 9bdb9c7: accepted, or 23 CPU-s to 290+ s inside Fraction()
        read_results(path)
    msg = str(info.value)
    assert f"{path}: line 2: exact" in msg and len(msg) < 300, msg


def test_the_same_bounded_parser_reads_the_csv_export_and_lesson_05s_class_file(tmp_path):
    text = X.csv_text([sim("L1", "Zed", 1)])
    for exact in ("1e-61", "1e-300000000"):
        path = tmp_path / "class.csv"
        path.write_text(text.replace(",7/37,", f",{exact},"))
        with pytest.raises(X.ExportError, match="class.csv: line 2: exact: the exponent must be between -60"):
            ClassResults.from_csv(path)
    path.write_text(text.replace(",100,20,", f",100,{'9' * 5000},"))
    with pytest.raises(X.ExportError) as info:
        ClassResults.from_csv(path)
    assert "class.csv: line 2: successes must be a whole number of at most 30 digits" in str(info.value)
    assert len(str(info.value)) < 300  # 9bdb9c7 printed the 5,000 digits back


def test_a_5000_digit_number_names_file_and_line(tmp_path):
    path = _file_with(tmp_path, '"successes": 20', f'"successes": {"9" * 5000}')
    with pytest.raises(ResultsFileError, match=r"f.safari-results.jsonl: line 2: expected a whole number of at most "
                                               r"30 digits, got one of 5,000 digits"):
        read_results(path)  # 9bdb9c7: a bare ValueError from int() naming no file or line


@pytest.mark.parametrize("line", ["[" * 5000, '{"a": ' * 3000, '"' + "x" * 20_001 + '"'])
def test_a_deep_or_long_line_names_file_and_line(tmp_path, line):
    assert RF.MAX_LINE == 20_000
    path = tmp_path / "f.safari-results.jsonl"
    path.write_text(results_text([sim("L1", "Zed", 1)]) + line + "\n")
    with pytest.raises(ResultsFileError, match=r"f.safari-results.jsonl: line 3: "):
        read_results(path)  # 9bdb9c7: RecursionError, a traceback


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(RF, "MAX_BYTES", 500)
    path = write_results(tmp_path / "f.safari-results.jsonl", [sim("L1", "Zed", k) for k in range(1, 9)])
    with pytest.raises(ResultsFileError, match=r"f.safari-results.jsonl: \d[\d,]* bytes, more than a results file "
                                               r"holds \(at most 500\)"):
        read_results(path)


@pytest.mark.parametrize("field, value, words", [
    ("trials", 10**15, "trials must be at most 100,000, got 1000000000000000"),
    ("seq", 10**12, "seq must be at most 1,000,000"),
    ("run", 10**12, "run must be at most 1,000,000"),
    ("seed", 2**63, "seed must be at most 9,223,372,036,854,775,807"),
    ("trials", 10**5000, "got a whole number of about 5,001 digits"),
], ids=["trials", "seq", "run", "seed", "5000-digits"])
def test_every_count_of_a_record_is_bounded(field, value, words):
    data = to_dict(sim("L1", "Zed", 1)) | {field: value}  # successes: at most trials, as before
    with pytest.raises(RecordError) as info:  # 9bdb9c7: accepted (trials 10**15 set the class's estimate to 0.0)
        from_dict(data)
    assert words in str(info.value)


@pytest.mark.parametrize("field, value", [("challenge", 10**9), ("safe_so_far", 10**9), ("result", 10**9),
                                          ("stop_value", "1e-300000000"), ("continue_value", 10**9)])
def test_every_number_of_a_challenge_decision_is_bounded(field, value):
    """Every number of a record is bounded: counts, and exact values given as Fractions (a sum of thousands of
    distinct 300-digit denominators took 27 s of the Brier table)."""
    with pytest.raises(RecordError, match="exact: a number of at most about 77 digits"):
        from_dict(to_dict(session()[1]) | {"exact": Fraction(1, 10**100)})
    data = to_dict(session()[2]) | {field: value}
    with pytest.raises(RecordError, match=field):
        from_dict(data)


# ------------------------------------------------------------------------------------------ the pool
def _write(folder, name, records):
    return write_results(folder / name, records)


def test_a_record_of_huge_trials_is_left_out_naming_file_and_line_and_the_class_still_pools(tmp_path):
    _write(tmp_path, "Zed-L1.safari-results.jsonl", [sim("L1", "Zed", 1, 100, 20)])
    _write(tmp_path, "Amy-L2.safari-results.jsonl", [sim("L2", "Amy", 1, 300, 60)])
    _file_with(tmp_path, '"trials": 100', '"trials": 1000000000000000', "Mal-L3.safari-results.jsonl")
    results = pool_files(tmp_path, warn=False)
    assert results.pooled()["identify-animal", Fraction(7, 37)] == (80, 400)  # 9bdb9c7: (80, 10**15 + 400)
    [note] = results.notes
    assert note.skipped and "Mal-L3.safari-results.jsonl: line 2: trials must be at most 100,000" in str(note)


def test_a_file_with_a_classmates_id_is_not_credited_to_the_classmate(tmp_path):
    """The learner id is in every file's name: a made-up file under a classmate's id is left out, with the
    classmate's own, naming both files (nobody can tell which is real); the rest of the class is pooled."""
    _write(tmp_path, "Zed-L1.safari-results.jsonl", [sim("L1", "Zed", 1, 100, 20), sim("L1", "Zed", 2, 100, 21)])
    _write(tmp_path, "Amy-L2.safari-results.jsonl", [sim("L2", "Amy", 1, 300, 60)])
    _write(tmp_path, "Mal-L1.safari-results.jsonl", [sim("L1", "Mal", 1, 100, 100)])
    results = pool_files(tmp_path, warn=False)  # 9bdb9c7: PoolError, the whole class's pool refused
    assert {r.learner for r in results.records} == {"L2"}
    [note] = results.notes
    assert ("left out learner id 'L1': it appears under two nicknames, 'Mal' (Mal-L1.safari-results.jsonl line 2) "
            "and 'Zed' (Zed-L1.safari-results.jsonl line 2)") in str(note)
    # the same nickname, numbers the real file does not have: not a later download, so not merged silently
    (tmp_path / "Mal-L1.safari-results.jsonl").unlink()
    _write(tmp_path, "Zed-L1-copy.safari-results.jsonl", [sim("L1", "Zed", 900, 100_000, 0)])
    results = pool_files(tmp_path, warn=False)  # 9bdb9c7: credited to Zed
    assert {r.learner for r in results.records} == {"L2"}
    [note] = results.notes
    assert "neither is a later download of the other (record number 900 is only in Zed-L1-copy" in str(note)
    with pytest.warns(UserWarning, match="left out learner id 'L1'"):
        pool_files(tmp_path)  # a notebook shows what was left out


def test_a_session_downloaded_twice_counts_once_and_says_so(tmp_path):
    recs = [sim("L1", "Zed", k) for k in (1, 2, 3)]
    _write(tmp_path, "Zed-L1.safari-results.jsonl", recs[:2])
    _write(tmp_path, "Zed-L1 (1).safari-results.jsonl", recs)
    results = pool_files(tmp_path, warn=False)
    assert results.records == tuple(recs)
    [note] = results.notes  # 9bdb9c7 merged them without a word
    assert not note.skipped and "Zed-L1.safari-results.jsonl holds records of learner id 'L1' (Zed) that are also " \
                                "in Zed-L1 (1).safari-results.jsonl" in str(note)


def test_a_csv_with_one_id_under_two_nicknames_leaves_that_id_out_naming_the_lines(tmp_path):
    path = X.write_csv(tmp_path / "class.csv", [sim("L1", "Zed", 1), sim("L1", "Mal", 2), sim("L2", "Amy", 1)])
    results = ClassResults.from_csv(path)
    assert {r.learner for r in results.records} == {"L2"}  # 9bdb9c7: Mal's run counted as Zed's
    assert f"'Zed' ({path} line 2) and 'Mal' ({path} line 3)" in str(results.notes[0])
    assert pool([sim("L1", "Zed", 1), sim("L1", "Zed", 1, successes=3)]).records == ()


bad_lines = st.sampled_from([
    ('"trials": 100', '"trials": 1000000000000000'), ('"exact": "7/37"', '"exact": "1e-200"'),
    ('"successes": 20', '"successes": ' + "9" * 5000), ('"nickname": "Zed"}', '"nickname": "Zed"'),
    ('"learner": "L', '"learner": "other'), ('"seq": 1', '"seq": 0'), ('"kind": "simulation-run"', '"kind": 5'),
    ("safari-kit-results", "something-else"), ('"exact": "7/37"', '"exact": ' + "[" * 3000),
])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(learners=st.integers(1, 5), bad=bad_lines, where=st.integers(0, 5))
def test_one_bad_file_never_stops_the_others(tmp_path_factory, learners, bad, where):
    folder = tmp_path_factory.mktemp("class")
    good = [sim(f"L{i}", f"N{i}", 1, 100, i) for i in range(learners)]
    for rec in good:
        _write(folder, f"N-{rec.learner}.safari-results.jsonl", [rec])
    text = results_text([sim("Lbad", "Zed", 1)])
    (folder / f"{where}-bad.safari-results.jsonl").write_text(text.replace(*bad, 1))
    results = pool_files(folder, warn=False)  # 9bdb9c7: the bad file's error refused every file
    assert list(results.records) == good
    [note] = [n for n in results.notes if n.skipped]
    assert f"{where}-bad.safari-results.jsonl" in str(note) and len(str(note)) < 400


# ----------------------------------------------------------------------------------------- the command
def test_the_pool_command_skips_bad_files_with_a_line_each_and_pools_the_rest(tmp_path, capsys):
    _write(tmp_path, "Amy-L2.safari-results.jsonl", [sim("L2", "Amy", 1, 300, 60)])
    _file_with(tmp_path, '"trials": 100', '"trials": 1000000000000000', "Mal-L3.safari-results.jsonl")
    _file_with(tmp_path, '"exact": "7/37"', '"exact": "1e-300000000"', "Exp-L4.safari-results.jsonl")
    (tmp_path / "Deep-L5.safari-results.jsonl").write_text("[" * 10000 + "\n")
    assert main(["results", "pool", str(tmp_path)]) == 0  # 9bdb9c7: 2, nothing pooled (or a traceback)
    out, err = capsys.readouterr()
    assert X.parse_csv(out) == [sim("L2", "Amy", 1, 300, 60)]
    assert "Traceback" not in err
    lines = err.splitlines()
    assert [line.split(".safari-results.jsonl")[0].rsplit("/", 1)[-1] for line in lines[:3]] == \
        ["Deep-L5", "Exp-L4", "Mal-L3"]
    assert lines[-1] == "safari-kit results pool: 1 record pooled; 3 files or learners left out (each said above)"
    (tmp_path / "Amy-L2.safari-results.jsonl").unlink()
    assert main(["results", "pool", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "every file was left out" in err and "Traceback" not in err


def test_the_export_command_names_the_database_and_record_of_a_bad_field(tmp_path, capsys):
    import sqlite3

    ResultStore(tmp_path, "s1").add(sim("L1", "Zed", 1))
    con = sqlite3.connect(tmp_path / "s1.sqlite3")
    con.execute("""UPDATE records SET fields = json_set(fields, '$.trials', 1000000000000000)""")
    con.commit()
    con.close()
    assert main(["results", "export", str(tmp_path), "s1"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 's1.sqlite3'}: the record of learner 'L1' number 1: trials must be at most 100,000" in err
    with pytest.raises(PoolError, match="no results files"):
        pool_files(tmp_path)
