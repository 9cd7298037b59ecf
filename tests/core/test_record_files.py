"""Issue 9 (4): the records folder. Bare names only; nothing outside the folder is ever read, written or reported on."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from safari_kit.core import record_files as RF
from safari_kit.core.record_files import (MAX_RECORD_BYTES, RecordFileError, RecordNameError, list_record_files,
                                          load_record_file, read_record_file, record_name, records_folder,
                                          write_record_file)

RECORD = {"format": "safari-kit-game-record", "version": 3, "game": "witness", "options": {}, "seed": 1,
          "setup": None, "actions": []}

BAD_NAMES = [
    "../../x.json", "../x", "..", "..json", ".json", "", " ", "a b.json", "/tmp/x.json", "/etc/passwd",
    "C:\\x.json", "sub/x.json", "x\\y.json", "x\0.json", "x.json\0", "x.JSON", "x.txt", "x.json.json",
    "app.ipynb", "x.json/", "ünïcode.json", "x\n.json", "x.json\n", "~/x.json", "$HOME", "-" * 65 + ".json",
    ".hidden.json", "x..json",
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A records folder inside a sandbox, with a neighbour folder outside it to watch."""
    sandbox = tmp_path / "sandbox"
    (sandbox / "outside").mkdir(parents=True)
    (sandbox / "outside" / "secret.json").write_text(json.dumps(RECORD))
    rec = sandbox / "records"
    monkeypatch.setenv(RF.RECORDS_ENV, str(rec))
    return rec


def snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): (p.is_symlink(), p.read_bytes() if p.is_file() and not p.is_symlink() else None)
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_are_refused_with_one_clear_message_and_nothing_is_written(folder, name):
    before = snapshot(folder.parent)
    with pytest.raises(RecordNameError) as e_write:
        write_record_file(name, json.dumps(RECORD))
    with pytest.raises(RecordNameError) as e_read:
        read_record_file(name)
    with pytest.raises(RecordNameError):
        load_record_file(name)
    msg = str(e_write.value)
    assert str(e_read.value) == msg
    assert "is not a record name" in msg and "letters" in msg and ".json" in msg
    assert snapshot(folder.parent) == before, "something was written"
    assert not folder.exists(), "even the records folder is not made for a refused name"


def test_existence_probing_gets_the_same_answer(folder):
    """/etc/passwd (exists) and /no/such/file (does not) are refused alike: the message depends on the name only."""
    answers = {}
    for name in ["/etc/passwd", "/no/such/file", "../outside/secret.json", "../outside/missing.json",
                 "../../../../etc/hostname", "../../../../etc/no-such-file"]:
        with pytest.raises(RecordNameError) as exc:
            read_record_file(name)
        answers[name] = str(exc.value).replace(repr(name), "NAME")
    assert len(set(answers.values())) == 1, answers
    # a missing record inside the folder: one message, the same whatever exists elsewhere
    with pytest.raises(RecordFileError, match="there is no record named 'passwd.json' in the records folder"):
        read_record_file("passwd")


def test_good_names():
    assert record_name("my-game") == "my-game.json"
    assert record_name("Game_2.json") == "Game_2.json"
    assert record_name("a" * 64) == "a" * 64 + ".json"
    with pytest.raises(RecordNameError):
        record_name("a" * 65)
    with pytest.raises(RecordNameError):
        record_name(None)


def test_round_trip_stays_in_the_folder(folder):
    path = write_record_file("my-game", json.dumps(RECORD))
    assert path == folder.resolve() / "my-game.json" and path.parent == folder.resolve()
    assert load_record_file("my-game.json") == RECORD
    assert list_record_files() == ["my-game.json"]


def test_default_folder_is_records_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(RF.RECORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert records_folder() == (tmp_path / "records").resolve()
    write_record_file("x", "{}")
    assert (tmp_path / "records" / "x.json").read_text() == "{}\n"


def test_never_overwrites(folder):
    write_record_file("game", json.dumps(RECORD))
    before = (folder / "game.json").read_bytes()
    with pytest.raises(RecordFileError, match="already exists.*never overwritten"):
        write_record_file("game", "{}")
    assert (folder / "game.json").read_bytes() == before


def test_huge_file_is_refused(folder):
    folder.mkdir()
    (folder / "huge.json").write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordFileError, match="too big for a game record"):
        read_record_file("huge")
    with pytest.raises(RecordFileError, match="at most 1,000,000 bytes"):
        write_record_file("big", "x" * (MAX_RECORD_BYTES + 1))
    assert not (folder / "big.json").exists()


@pytest.mark.parametrize("content, match", [
    (b"{not json", "not valid JSON at line 1"),
    (b"", "not valid JSON"),
    (b"[1, 2]", "a game record is a JSON object, not list"),
    (b"/etc/passwd", "not valid JSON"),  # a file naming another path is never followed
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply|not valid JSON"),
])
def test_malformed_files_give_clear_errors(folder, content, match):
    folder.mkdir()
    (folder / "bad.json").write_bytes(content)
    with pytest.raises(RecordFileError, match=match):
        load_record_file("bad")


def test_links_are_refused_even_to_real_files(folder):
    folder.mkdir()
    outside = folder.parent / "outside" / "secret.json"
    (folder / "link.json").symlink_to(outside)
    (folder / "dangling.json").symlink_to(folder.parent / "outside" / "nothing.json")
    (folder / "inner.json").symlink_to(folder / "link.json")
    for name in ("link", "dangling", "inner"):
        with pytest.raises(RecordFileError, match="is a link, not a record file") as exc:
            read_record_file(name)
        assert "secret" not in str(exc.value) and "outside" not in str(exc.value)
    before = outside.read_bytes()
    with pytest.raises(RecordFileError, match="already exists"):
        write_record_file("link", "{}")  # never written through a link
    with pytest.raises(RecordFileError, match="already exists"):
        write_record_file("dangling", "{}")
    assert outside.read_bytes() == before and not (folder.parent / "outside" / "nothing.json").exists()
    assert list_record_files() == []


def test_folder_and_fifo_are_not_records(folder):
    folder.mkdir()
    (folder / "dir.json").mkdir()
    with pytest.raises(RecordFileError, match="not a plain file|cannot read"):
        read_record_file("dir")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.json")
        with pytest.raises(RecordFileError, match="not a plain file"):
            read_record_file("pipe")  # does not hang
