"""Issue 19, the widget side of a class server: what a crafted message from the page can no longer do.

Each test drives a lab the way a crafted comm message would (a click on a hidden button, a synced trait set
to a value the page's own controls never offer) and checks the server keeps its limits.
"""
from __future__ import annotations

import json

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
def test_a_crafted_press_never_opens_a_bots_seat():
    """Seed 3: the bot in seat 2 fails before any learner has played; its cards lie face up for all, and the
    hidden "I am player N" button, pressed by a crafted message, must not open seat 2 (its Case Card)."""
    lab = FullGameLab(seed=3, players=3, humans=(0, 1), bots="random", case_module=True)
    assert lab._pause == "bot_failed" and lab.viewer is None and lab.state.current_player == 2
    assert lab.pass_screen not in lab.game_area.children  # the button is not on the page
    lab.confirm_button.click()  # what {"method": "custom", "content": {"event": "click"}} does
    lab.confirm_player()
    assert lab.viewer is None and lab.table is None and lab.passes == []
    assert lab.errors == []
    lab.go_on()  # the learners play on: the next learner's pass screen, and only now does the press count
    assert lab.state.current_player in (0, 1) and lab.pass_screen in lab.game_area.children
    lab.confirm_button.click()
    assert lab.viewer == lab.state.current_player and lab.table is not None


def test_one_learner_cannot_take_the_bots_seat_while_its_failure_shows():
    """One learner against a bot (seed 0): the bot fails first; the learner's table shows its face-up cards.
    A crafted press of the (hidden) button must not turn the table to the bot's seat."""
    lab = FullGameLab(seed=0, players=2, humans=(0,), bots="random", case_module=True)
    assert lab._pause == "bot_failed" and lab.viewer == 0 and lab.state.current_player == 1
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
