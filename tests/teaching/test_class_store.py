"""The class session's database (issue 21): idempotent inserts, many writers at once, versions, export, wipe."""
from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from fractions import Fraction

import pytest

from safari_kit.cli import main
from safari_kit.class_results import class_export as X
from safari_kit.class_results.class_records import Guess, SimulationRun
from safari_kit.class_results.class_store import SCHEMA_VERSION, ResultStore, StoreError, session_files, sessions, wipe
from safari_kit.class_results.results_file import write_results
from tests.teaching.test_class_records import session


def run(learner: str, seq: int, successes: int = 3) -> SimulationRun:
    return SimulationRun(learner=learner, nickname=f"N{learner}", lab="simulation", at="2026-11-16T09:05:00+00:00",
                         seq=seq, question="identify-animal", trials=10, successes=successes, exact=Fraction(7, 37))


def test_a_record_sent_twice_is_stored_once_and_a_different_one_is_refused(tmp_path):
    store = ResultStore(tmp_path, "7b")
    assert store.add(run("a", 1)) is True
    assert store.add(run("a", 1)) is False  # a retried request, a reloaded page
    with pytest.raises(StoreError, match="learner 'a' already has a different record number 1"):
        store.add_many([run("a", 2), run("a", 1, successes=4)])
    assert store.records() == [run("a", 1)]  # the refused batch stored nothing, run a/2 included
    assert store.add_many(session()) == 5
    assert store.records(kind="guess") == [session()[1]]
    assert store.records() == sorted([run("a", 1), *session()], key=lambda r: (r.learner, r.seq))


def test_only_the_records_fields_are_stored(tmp_path):
    store = ResultStore(tmp_path, "7b")
    store.add_many(session())
    con = sqlite3.connect(store.path)
    tables = {r[0]: r[1] for r in con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")}
    assert set(tables) == {"schema_version", "records"}
    columns = [r[1] for r in con.execute("PRAGMA table_info(records)")]
    assert columns == ["learner", "seq", "kind", "nickname", "lab", "at", "fields"]
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    con.close()


def test_a_newer_schema_or_a_foreign_database_is_refused(tmp_path):
    store = ResultStore(tmp_path, "7b")
    con = sqlite3.connect(store.path)
    con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}, this kit knows version "
                                         f"{SCHEMA_VERSION}: update safari-kit"):
        ResultStore(tmp_path, "7b")
    con = sqlite3.connect(tmp_path / "other.sqlite3")
    con.execute("CREATE TABLE marks (pupil TEXT)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=r"not a results store \(tables \['marks'\]\)"):
        ResultStore(tmp_path, "other")
    (tmp_path / "junk.sqlite3").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a results database"):
        ResultStore(tmp_path, "junk")


def test_session_names_and_folders_are_checked(tmp_path):
    with pytest.raises(StoreError, match=r"session name .* got '\.\./x'"):
        ResultStore(tmp_path, "../x")
    with pytest.raises(StoreError, match="does not exist: create it first"):
        ResultStore(tmp_path / "nope", "7b")
    with pytest.raises(StoreError, match=r"no session '7c' in .* \(sessions there: none\)"):
        ResultStore(tmp_path, "7c", create=False)


def test_wipe_deletes_the_database_with_its_wal_and_shm_files(tmp_path):
    store = ResultStore(tmp_path, "7b")
    store.add(run("a", 1))
    ResultStore(tmp_path, "7c").add(run("b", 1))
    reader = sqlite3.connect(store.path)  # an open reader keeps the -wal and -shm files in place
    reader.execute("SELECT COUNT(*) FROM records").fetchone()
    assert {p.name for p in session_files(tmp_path, "7b")} >= {"7b.sqlite3", "7b.sqlite3-wal", "7b.sqlite3-shm"}
    reader.close()
    store.close()
    (tmp_path / "7b.sqlite3-wal").touch()
    (tmp_path / "7b.sqlite3-shm").touch()
    gone = wipe(tmp_path, "7b")
    assert {p.name for p in gone} == {"7b.sqlite3", "7b.sqlite3-wal", "7b.sqlite3-shm"}
    assert session_files(tmp_path, "7b") == [] and sessions(tmp_path) == ["7c"]


def _writer(folder: str, proc: int, threads: int, per: int) -> None:
    """One process of the load test: ``threads`` learners writing ``per`` records each, every record twice
    (the second time in a batch with the next one, as a page retrying after a dropped answer would)."""
    store = ResultStore(folder, "load")

    def learner(t: int) -> None:
        name = f"p{proc}t{t}"
        for seq in range(1, per + 1):
            store.add(run(name, seq, successes=seq % 11))
            store.add_many([run(name, seq, successes=seq % 11)])

    workers = [threading.Thread(target=learner, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def test_thirty_writers_in_six_processes_lose_nothing_and_double_nothing(tmp_path):
    procs, threads, per = 6, 5, 20
    ResultStore(tmp_path, "load")  # (each process would create it too; here the test waits less)
    ctx = multiprocessing.get_context("spawn")  # no fork of a test process that may hold threads
    ps = [ctx.Process(target=_writer, args=(str(tmp_path), p, threads, per)) for p in range(procs)]
    for p in ps:
        p.start()
    for p in ps:
        p.join(120)
    assert [p.exitcode for p in ps] == [0] * procs
    records = ResultStore(tmp_path, "load").records()
    keys = [(r.learner, r.seq) for r in records]
    expected = {(f"p{p}t{t}", s) for p in range(procs) for t in range(threads) for s in range(1, per + 1)}
    assert len(keys) == len(set(keys)) == procs * threads * per
    assert set(keys) == expected
    assert all(r.successes == r.seq % 11 for r in records)


def test_csv_export_reads_back_to_the_same_records_and_parquet_says_what_it_needs(tmp_path):
    recs = session()
    path = X.write_csv(tmp_path / "out.csv", recs, header="made by a test")
    assert path.read_text(encoding="utf-8").startswith("# made by a test\nkind,learner,nickname,lab,at,seq,")
    assert X.read_csv(path) == recs
    df = X.frame(recs)
    assert df.loc[1, "guess"] == 0.2 and df.loc[1, "guess_fraction"] == Fraction(1, 5)
    if X.parquet_engine() is None:
        with pytest.raises(X.ExportError, match="Parquet needs pyarrow or fastparquet, and neither is installed"):
            X.write_parquet(tmp_path / "out.parquet", recs)
    else:  # pragma: no cover - not in the kit's environment
        assert X.write_parquet(tmp_path / "out.parquet", recs).exists()


def test_a_bad_csv_export_names_line_and_field(tmp_path):
    text = X.csv_text(session())
    lines = text.splitlines()
    lines[2] = lines[2].replace(",0.2,", ",x,").replace(",1/5,", ",1/0,")
    with pytest.raises(X.ExportError, match=r"f.csv: line 3: guess must be a probability between 0 and 1, "
                                            r"got '1/0'"):
        X.parse_csv("\n".join(lines) + "\n", "f.csv")
    lines = text.splitlines()
    lines[1] = lines[1].replace(",simulation,", ",simulation,", 1).replace("identify-animal,100,21",
                                                                        "identify-animal,100,2x")
    with pytest.raises(X.ExportError, match="f.csv: line 2: successes must be a whole number, got '2x'"):
        X.parse_csv("\n".join(lines) + "\n", "f.csv")
    with pytest.raises(X.ExportError, match="unknown column ip"):
        X.parse_csv(text.replace("kind,", "ip,kind,", 1), "f.csv")


def test_the_command_exports_pools_and_wipes(tmp_path, capsys):
    store = ResultStore(tmp_path, "7b")
    store.add_many(session())
    assert main(["results", "export", str(tmp_path), "7b", "--csv", str(tmp_path / "7b.csv")]) == 0
    assert X.read_csv(tmp_path / "7b.csv") == session()
    assert main(["results", "export", str(tmp_path), "7c"]) == 2
    assert "no session '7c'" in capsys.readouterr().err
    files = tmp_path / "files"
    files.mkdir()
    write_results(files / "zed.safari-results.jsonl", session())
    other = Guess(learner="amy1", nickname="Amy", lab="simulation", at="2026-11-16T09:06:00+00:00", seq=1,
                  guess=Fraction(1, 2), exact=Fraction(7, 37), outcome=0)
    write_results(files / "amy.safari-results.jsonl", [other])
    capsys.readouterr()
    assert main(["results", "pool", str(files)]) == 0
    assert X.parse_csv(capsys.readouterr().out) == [other, *session()]
    assert main(["results", "wipe", str(tmp_path), "7b"]) == 0
    assert "deleted" in capsys.readouterr().out and not (tmp_path / "7b.sqlite3").exists()
    assert main(["results", "wipe", str(tmp_path), "7b"]) == 0
    assert "nothing to wipe" in capsys.readouterr().out


def _create_and_add(folder: str, proc: int) -> None:
    ResultStore(folder, "fresh").add(run(f"p{proc}", 1))


def test_processes_that_create_the_same_new_session_at_once_make_one_schema(tmp_path):
    ctx = multiprocessing.get_context("spawn")  # no fork of a test process that may hold threads
    ps = [ctx.Process(target=_create_and_add, args=(str(tmp_path), p)) for p in range(8)]
    for p in ps:
        p.start()
    for p in ps:
        p.join(60)
    assert [p.exitcode for p in ps] == [0] * 8
    assert len(ResultStore(tmp_path, "fresh").records()) == 8
    con = sqlite3.connect(tmp_path / "fresh.sqlite3")
    assert con.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    con.close()
