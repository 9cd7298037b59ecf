"""Where a class session's records go (issue 21): the variable the kernels read, the session's name, and
``safari-kit class --results`` refusing bad input before it serves anything."""
from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from safari_kit.cli import main
from safari_kit.classroom.serve import run, serve
from safari_kit.classroom.settings import ClassSettings
from safari_kit.class_results.class_records import SimulationRun
from safari_kit.class_results.class_session import RESULTS_ENV, results_location, session_name, store_from_env
from safari_kit.class_results.class_store import ResultStore, StoreError


def test_recording_is_off_without_the_variable():
    assert store_from_env({}) is None and store_from_env({RESULTS_ENV: ""}) is None


def test_a_kernel_opens_the_servers_store_through_the_variable(tmp_path):
    with ResultStore(tmp_path, "2026-12-04-1905") as server_side:
        env = {RESULTS_ENV: results_location(tmp_path, "2026-12-04-1905")}
        kernel_side = store_from_env(env)
        assert kernel_side is not None and kernel_side.path == server_side.path.resolve()
        kernel_side.add(SimulationRun(learner="L1", nickname="Ann", lab="simulation", at="2026-12-04T19:06:00+00:00",
                                      seq=1, question="identify-animal", trials=10, successes=2,
                                      exact=Fraction(7, 37)))
        assert [r.nickname for r in server_side.records()] == ["Ann"]
        kernel_side.close()


@pytest.mark.parametrize("value", ["nowhere.txt", "/tmp/does-not-exist-safari/x.sqlite3"])
def test_a_wrong_variable_names_itself(value):
    with pytest.raises(StoreError, match=RESULTS_ENV if value.endswith(".txt") else "does not exist"):
        store_from_env({RESULTS_ENV: value})


def test_the_default_session_name_is_the_start_to_the_minute():
    assert session_name(dt.datetime(2026, 1, 2, 3, 4, 59)) == "2026-01-02-0304"


def test_class_settings_refuse_a_results_folder_that_is_not_text():
    with pytest.raises(ValueError, match="results must be text"):
        ClassSettings(results=3)  # type: ignore[arg-type]


def test_the_plain_launch_refuses_to_record_without_the_teacher_page(tmp_path):
    with pytest.raises(ValueError, match="teacher's page"):
        serve(str(tmp_path / "app.ipynb"), ClassSettings(results=str(tmp_path)))


def test_the_class_servers_run_records_by_itself(tmp_path):
    """issue 28: one package; its run sets up the recording itself (it refused --results unless the teacher's
    page's package called it)."""
    afile = tmp_path / "notes.txt"
    afile.write_text("x")
    with pytest.raises(OSError, match="is a file, not a folder"):
        run(str(tmp_path / "app.ipynb"), ClassSettings(results=str(afile)))


def test_the_class_command_refuses_a_file_as_results_folder_and_a_bad_session(tmp_path, capsys):
    nb = tmp_path / "app.ipynb"
    nb.write_text("{}")
    afile = tmp_path / "notes.txt"
    afile.write_text("x")
    assert main(["class", str(nb), "--results", str(afile), "--port", "1"]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["class", str(nb), "--results", str(tmp_path / "r"), "--session", "../x", "--port", "1"]) == 2
    assert "a session name is 1 to 64 letters" in capsys.readouterr().err
