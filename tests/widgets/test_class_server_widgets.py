"""Issue 19, the widget side of a class server: what a crafted message from the page can no longer do.

Each test drives a lab the way a crafted comm message would (a click on a hidden button, a synced trait set
to a value the page's own controls never offer) and checks the server keeps its limits.
"""
from __future__ import annotations

import json
import os
import threading

import pytest

pytest.importorskip("anywidget")

from safari_kit.core import record_files as RF  # noqa: E402
from safari_kit.widgets.labs.fullgame import FullGameLab  # noqa: E402


@pytest.fixture
def records(tmp_path, monkeypatch):
    folder = tmp_path / "records"
    monkeypatch.setenv(RF.RECORDS_ENV, str(folder))
    monkeypatch.setattr(RF, "_saved_here", 0)
    return folder


def finished_lab(seed=None):
    lab = FullGameLab(seed=seed, fair=True, players=2, humans=(), bots="random")  # bots only: over at once
    assert lab.state.is_terminal()
    return lab


# ----------------------------------------------------------------------------- hot-seat
def play_to_a_bots_failure(lab, limit: int = 600) -> bool:
    """Play the learners' seats (their first legal move each time, through the lab as clicks do) until a bot's
    failed turn pauses the game. Issue 27: a game opens on a learner's turn, so a bot's failure comes later."""
    for _ in range(limit):
        if lab._pause == "bot_failed":
            return True
        if lab.state.is_terminal():
            return False
        if lab._pause is not None:
            lab.go_on()
        elif lab.viewer != lab.state.current_player:
            lab.confirm_player()
        else:
            lab._act(lab.state.legal_actions()[0])
    return False


def test_a_crafted_press_never_opens_a_bots_seat():
    """A bot fails while a learner's table is open; its cards lie face up for all, and the hidden "I am player
    N" button, pressed by a crafted message, must not open the bot's seat (its Case Card)."""
    lab = FullGameLab(seed=3, players=3, humans=(0, 1), bots="random", case_module=True)
    assert lab._pause is None and lab.state.current_player in (0, 1)  # the game opens on a learner's turn
    assert play_to_a_bots_failure(lab)
    bot, viewer, passes = lab.state.current_player, lab.viewer, list(lab.passes)
    assert bot == 2 and viewer in (0, 1)
    assert lab.pass_screen not in lab.game_area.children  # the button is not on the page
    lab.confirm_button.click()  # what {"method": "custom", "content": {"event": "click"}} does
    lab.confirm_player()
    assert lab.viewer == viewer and lab.table.viewer == viewer and lab.passes == passes
    assert lab.errors == []
    lab.go_on()  # the learners play on: the next learner's pass screen (or table), and only now a press counts
    assert lab.state.current_player in (0, 1) or lab.state.is_terminal()


def test_one_learner_cannot_take_the_bots_seat_while_its_failure_shows():
    """One learner against a bot: when the bot fails, the learner's table shows its face-up cards.
    A crafted press of the (hidden) button must not turn the table to the bot's seat."""
    lab = FullGameLab(seed=0, players=2, humans=(0,), bots="random", case_module=True)
    assert lab._pause is None and lab.viewer == 0 and lab.state.current_player == 0
    assert play_to_a_bots_failure(lab)
    assert lab.viewer == 0 and lab.state.current_player == 1
    lab.confirm_button.click()
    assert lab.viewer == 0 and lab.table.viewer == 0 and lab.passes == [] and lab.errors == []


def test_device_passes_keep_the_whole_story():
    """13 repeat presses pushed 'the table was opened' out of the 12-line list: repeats fold into one line."""
    lab = FullGameLab(seed=None, fair=True, players=2, humans=(0, 1))
    seat = lab.state.current_player
    lab.confirm_player()
    for _ in range(13):
        lab.confirm_player()
    assert len(lab.passes) == 14
    text = lab.pass_log.value
    assert f"Player {seat}: the table was opened" in text
    assert "pressed again 13 times" in text and text.count("<li>") == 2
    # many openings: the first stays, the lines between are counted, never silently dropped
    for turn in range(30):
        lab.passes.append({"game": 1, "turn": 100 + turn, "seat": turn % 2, "repeat": False, "time": "10:00:00"})
    lab._update_pass_log()
    text = lab.pass_log.value
    assert f"Player {seat}: the table was opened" in text and "turn 129" in text and "more lines" in text


# ----------------------------------------------------------------------------- records
def test_learners_cannot_squat_names_and_reserved_names_are_refused(records):
    for name in ("app", "app.json", "CON", "con.json", "Nul", "COM1", "lpt9.json"):
        with pytest.raises(RF.RecordNameError):
            RF.record_name(name)
    lab = finished_lab()
    lab.path_box.value = "app"
    lab.save_button.click()
    assert "Not saved" in lab.status.value and not records.exists()
    # the teacher's lesson3.json cannot be taken before the teacher puts it there: the app picks the name's end
    lab.path_box.value = "lesson3"
    lab.save_button.click()
    saved = [p.name for p in records.iterdir()]
    assert len(saved) == 1 and saved[0] != "lesson3.json" and saved[0].startswith("lesson3-")
    other = finished_lab()
    other.path_box.value = "lesson3"
    other.save_button.click()
    assert len(list(records.iterdir())) == 2 and other.errors == []  # nobody is blocked by the first


def test_the_records_quota_is_enforced_with_a_clear_message(records, monkeypatch):
    monkeypatch.setenv("SAFARI_KIT_RECORDS_PER_LEARNER", "3")
    lab = finished_lab()
    for _ in range(3):
        lab.path_box.value = "g"
        lab.save_button.click()
        assert lab.errors == [] and "Record saved as g-" in lab.status.value
    lab.path_box.value = "g"
    lab.save_button.click()
    assert "Not saved" in lab.status.value and "the most one learner may (3)" in lab.status.value
    assert len(list(records.iterdir())) == 3 and json.loads(lab.record_box.value)["actions"]  # still there to copy
    monkeypatch.setattr(RF, "_saved_here", 0)
    monkeypatch.setenv("SAFARI_KIT_RECORDS_MAX_FILES", "3")  # the folder: 3 records at most
    lab.path_box.value = "h"
    lab.save_button.click()
    assert "records folder is full" in lab.status.value and len(list(records.iterdir())) == 3
    monkeypatch.setenv("SAFARI_KIT_RECORDS_MAX_FILES", "100")
    monkeypatch.setenv("SAFARI_KIT_RECORDS_MAX_BYTES", "100")  # and bytes
    lab.save_button.click()
    assert "records folder is full" in lab.status.value and "bytes" in lab.status.value
    assert lab.errors == [] and len(list(records.iterdir())) == 3


def test_a_record_with_a_huge_seed_is_refused_cleanly(records):
    """A 5,000-digit seed gave "Something went wrong … Exceeds the limit (4300 digits)"."""
    lab = finished_lab()
    record = json.loads(lab.state.save())
    text = json.dumps(record).replace(f'"seed": {record["seed"]}', '"seed": ' + "7" * 5000)
    fresh = FullGameLab(seed=None, fair=True, players=2, humans=(0,), bots="random")
    fresh.record_box.value = text
    fresh.load_button.click()
    status = fresh.status.value
    assert "Not loaded" in status and "Something went wrong" not in status and "4300" not in status
    assert "777" not in status and fresh.errors == []
    # a record that parses but does not replay: refused without quoting its content
    record["actions"] = [{"type": "Declare", "clue": "SECRET-TEXT-FROM-THE-FILE"}]
    fresh.record_box.value = json.dumps(record)
    fresh.load_button.click()
    status = fresh.status.value
    assert "Not loaded" in status and "SECRET-TEXT" not in status and fresh.errors == []
    with pytest.raises(RF.RecordFileError, match="not a game record"):
        RF.parse_record_text('{"seed": ' + "1" * 5000 + "}")


# ----------------------------------------------------------------------------- values that size work
def crafted(widget, **state):
    """What a comm message from the page does: {"method": "update", "state": {...}} to the widget's model."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def crafted_click(button):
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []})


def test_the_simulation_lab_never_trusts_a_synced_max():
    """{"max": 1000000} then {"value": 1000000} to the Intervals slider, then Run the intervals: an hour of work."""
    from safari_kit.widgets.labs.simulation import SimulationLab

    lab = SimulationLab(seed=None, fair=True, run_tournament=False)
    crafted(lab.cov_count, max=1_000_000)
    crafted(lab.cov_count, value=1_000_000)
    assert (lab.cov_count.max, lab.cov_count.value) == (200, 200)
    crafted(lab.cov_count, min=0, max=10**9, value=10**9)  # in one message
    assert (lab.cov_count.min, lab.cov_count.max) == (20, 200) and lab.cov_count.value <= 200
    crafted_click(lab.cov_button)
    assert lab.coverage["total"] <= 200 and lab.errors == []
    crafted(lab.players_slider, max=100)
    crafted(lab.players_slider, value=100)
    assert lab.players_slider.value == 5 and len(lab.seat_boxes.children) == 5
    crafted(lab.games_slider, index=10**6)  # not an offered number of games: refused by the slider itself
    assert lab.games_slider.value in (10, 20, 30, 50, 100, 200, 500)


def test_the_full_game_lab_never_trusts_a_synced_max():
    lab = FullGameLab(seed=None, fair=True, players=3, humans=(0,), bots="random")
    crafted(lab.players_box, max=1_000_000)
    crafted(lab.players_box, value=1_000_000)  # would build a million seat toggles, then a million-seat game
    assert lab.players_box.value == 7 and len(lab.learner_picker.children) == 7
    crafted_click(lab.new_button)
    assert lab.state.players == 7 and lab.errors == []


def test_text_boxes_have_a_length_limit():
    from safari_kit.widgets.labs.identification import IdentificationLab

    lab = FullGameLab(seed=None, fair=True, players=2, humans=(), bots="random")
    crafted(lab.path_box, value="x" * 100_000)
    assert len(lab.path_box.value) == 80
    crafted(lab.record_box, value="{" * 2_000_000)
    assert len(lab.record_box.value) == 1_000_000
    ident = IdentificationLab(seed=None, fair=True, bot="random")
    crafted(ident.guess_box, value="1/" + "7" * 5000)
    assert len(ident.guess_box.value) == 40


def test_a_crafted_click_on_the_table_is_refused_without_being_echoed():
    lab = FullGameLab(seed=None, fair=True, players=2, humans=(0,), bots="random")
    for click in ({"kind": "place", "id": "Z" * 10_000, "seq": 10**6}, {"kind": "K" * 1000, "id": 1, "seq": 10**6 + 1},
                  {"kind": "place", "id": [1, 2], "seq": 10**6 + 2}, {"kind": "place", "id": 1, "seq": "x" * 100}):
        crafted(lab.table, click=click)
        assert lab.table.message == "That click could not be read; please click again."
    assert lab.errors == [] and lab.table.last_error is None


# ----------------------------------------------------------------------------- long work: Stop and a wall-time cap
def slow_lab(monkeypatch, cap: str | None = None):
    from safari_kit.widgets.labs.simulation import SimulationLab

    if cap is not None:
        monkeypatch.setenv("SAFARI_KIT_WALL_TIME", cap)
    lab = SimulationLab(seed=None, fair=True, run_tournament=False, tournament_game="witness")
    lab.games_slider.value = 500  # the largest tournament the page offers (about a minute on 2 cores)
    return lab


def test_stop_ends_a_tournament_between_steps_and_the_page_says_so(monkeypatch):
    lab = slow_lab(monkeypatch)
    steps = []
    real = lab.progress.update

    def press_stop_after_the_first_step(done, total):
        real(done, total)
        steps.append(done)
        assert not lab.stop_button.disabled  # Stop is on while games are played
        if done == 10:
            crafted_click(lab.stop_button)

    lab.progress.update = press_stop_after_the_first_step
    assert lab.run_tournament() is None
    assert steps == [0, 10] and lab.tournament_result is None and lab.errors == []
    assert "Stopped after 10 of 500 games: you pressed Stop" in lab.status.value
    assert "Stopped after 10 of 500 games" in lab.tour_summary.value and lab.stop_button.disabled
    assert not lab.tour_button.disabled and not lab.reset_button.disabled
    lab.progress.update = real
    lab.games_slider.value = 10
    assert lab.run_tournament() is not None and lab.tournament_run == 1  # the stopped run was not counted


def test_the_wall_time_cap_ends_a_tournament_in_the_app(monkeypatch):
    import time

    lab = slow_lab(monkeypatch, cap="0.5")
    t0 = time.monotonic()
    lab.tour_button.click()
    seconds = time.monotonic() - t0
    assert lab.tournament_result is None and lab.errors == []
    assert "may take at most 0.5 seconds on this server" in lab.status.value
    assert seconds < 15, seconds  # one step of 10 games past the cap, not 500 games
    monkeypatch.delenv("SAFARI_KIT_WALL_TIME")
    from safari_kit.widgets.labs.limits import wall_time_cap

    assert wall_time_cap(True) == 30 and wall_time_cap(False) is None  # the app's default; a notebook: none


def test_a_click_plays_beside_the_message_loop_so_stop_is_heard(monkeypatch):
    """In a kernel a click's tournament runs in a thread: messages (Stop, crafted clicks) are handled meanwhile.
    Every other action is refused until it ends (a click on a disabled button still reaches the server)."""
    import time

    import safari_kit.widgets.labs.simulation as S

    monkeypatch.setattr(S, "in_kernel", lambda: True)
    lab = slow_lab(monkeypatch)
    crafted_click(lab.tour_button)
    assert lab._job is not None and lab.tour_button.disabled and lab.reset_button.disabled
    deadline = time.monotonic() + 30
    while lab.progress.bar.value < 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    for button in (lab.tour_button, lab.reset_button, lab.cov_button, lab.run_button):
        crafted_click(button)  # disabled on the page; sent anyway
        assert "Games are being played" in lab.status.value
    crafted_click(lab.stop_button)
    job = lab._job
    if job is not None:
        job.join(30)
    assert lab._job is None and lab.tournament_result is None and lab.errors == []
    assert "you pressed Stop" in lab.status.value and not lab.tour_button.disabled


# ----------------------------------------------------------------------------- errors: no traceback, no server path
def test_a_labs_error_shows_no_server_path(monkeypatch):
    lab = finished_lab()

    def broken():
        raise FileNotFoundError(2, "No such file or directory", "/srv/school/safari/notebooks/records/x.json")

    monkeypatch.setattr(lab.state, "save", broken)
    lab.save_record()
    status = lab.status.value
    assert "Something went wrong (FileNotFoundError" in status and "/srv" not in status and "records/x" not in status
    assert "Traceback" not in status and lab.errors  # the details are kept for Python (and the server's log)
    table = FullGameLab(seed=None, fair=True, players=2, humans=(0,), bots="random").table
    table._report(OSError(13, "Permission denied", "/home/teacher/.local/secret"), "handling a click")
    assert "/home" not in table.message and "Permission denied" in table.message


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="per-thread priority is Linux's")
def test_long_work_runs_at_low_priority(monkeypatch):
    """The Simulation lab's Simulate runs at niceness 10 (one learner's largest jobs slowed the class's clicks)."""
    from safari_kit.widgets.labs import simulation
    from safari_kit.widgets.labs.simulation import SimulationLab

    seen, befores = [], []
    real = simulation.running_estimate

    def spy(*args, **kwargs):
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return real(*args, **kwargs)

    monkeypatch.setattr(simulation, "running_estimate", spy)

    def in_a_thread():  # its own thread: the test process's priority is left alone
        lab = SimulationLab(seed=3)
        seen.clear()
        befores.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        lab.run()

    t = threading.Thread(target=in_a_thread)
    t.start()
    t.join()
    assert seen and set(seen) == {max(10, befores[0])}, (seen, befores)
