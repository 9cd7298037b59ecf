"""Records: save -> load replays to an identical state; bad records raise RecordError."""
import json
import random

import pytest

from safari_kit.core.errors import RecordError
from safari_kit.witness import WitnessGame, load
from safari_kit.witness import actions as A

from .helpers import archive_top, start


def random_game(seed, players=4, steps=None, **options):
    state = WitnessGame(players=players, **options).new_initial_state(seed=seed)
    rnd = random.Random(seed)
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        state.apply(rnd.choice(state.legal_actions()))
        n += 1
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_save_load_replays_a_whole_game_with_case_module_and_advanced_mode(seed, tmp_path):
    state = random_game(seed, case_module=True, advanced=True)
    assert state.is_terminal()
    path = tmp_path / "game.json"
    text = state.save(path)
    for source in (path, str(path), text, json.loads(text), state.to_record()):
        again = load(source)
        assert again == state
        assert again.scores() == state.scores() and again.winners() == state.winners()
        for p in range(state.players):
            assert again.observation(p) == state.observation(p)


def test_save_load_mid_game_and_with_a_deck_order():
    state = start(["W23", "W64", "W66", "W70"], ["W16"], advanced=True)
    state.apply(A.Identify())
    state.apply(A.Declare("W16", ("animal",), 1))
    again = load(state.save())
    assert again == state and again.phase == "archive"
    archive_top(again, "W16")
    archive_top(state, "W16")
    assert again == state


def test_same_seed_same_actions_same_game():
    a = random_game(7, steps=60, advanced=True, case_module=True)
    b = WitnessGame(players=4, advanced=True, case_module=True).new_initial_state(seed=7)
    for action in a.history:
        b.apply(action)
    assert a == b


def good_record():
    return random_game(5, steps=30, advanced=True).to_record()


@pytest.mark.parametrize("mutate,words", [
    (lambda t: "{not json at all", "not valid JSON"),
    (lambda t: t[: len(t) // 2], "not valid JSON"),
    (lambda t: t.rstrip()[:-1], "truncated"),
    (lambda t: t.replace('"version": 3', '"version": 99'), "version"),
    (lambda t: t.replace('"game": "witness"', '"game": "knockout"'), "knockout"),
    (lambda t: t.replace('"format": "safari-kit-game-record"', '"format": "other"'), "format"),
])
def test_bad_record_text_raises_record_error(mutate, words):
    text = json.dumps(good_record(), indent=1)
    with pytest.raises(RecordError, match=words):
        load(mutate(text))


def test_record_with_an_illegal_action_raises_record_error():
    doc = good_record()
    doc["actions"].insert(3, {"type": "StopChallenge"})
    with pytest.raises(RecordError, match=r"action #3 .*does not replay"):
        load(doc)


@pytest.mark.parametrize("bad_action", [
    {"type": "Fly"},
    {"type": "Declare", "clue": "W01"},
    {"type": "UseTom", "place": {"a": 1}},
    {"type": "Declare", "clue": "W01", "types": [["animal"]], "place": 1},
])
def test_record_with_a_malformed_action_raises_record_error(bad_action):
    doc = good_record()
    doc["actions"].insert(0, bad_action)
    with pytest.raises(RecordError, match="action #0"):
        load(doc)


@pytest.mark.parametrize("patch", [
    {"seed": -1}, {"seed": "x"}, {"options": "x"}, {"actions": {}},
    {"options": {"players": 9}}, {"setup": {"deck_order": ["W01", "W01"]}}, {"setup": 5},
])
def test_record_with_bad_fields_raises_record_error(patch):
    doc = good_record()
    doc.update(patch)
    with pytest.raises(RecordError):
        load(doc)


def test_missing_field_and_missing_file(tmp_path):
    doc = good_record()
    del doc["actions"]
    with pytest.raises(RecordError, match="missing"):
        load(doc)
    with pytest.raises(RecordError, match="no such file"):
        load(tmp_path / "nope.json")
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]")
    with pytest.raises(RecordError, match="JSON object"):
        load(listing)
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("this is not a record")
    with pytest.raises(RecordError, match="not valid JSON"):
        load(corrupt)


@pytest.mark.parametrize("version", [1, 2])
def test_numpy_dealt_records_are_refused_naming_their_version(version):
    """Versions 1 and 2 were dealt by numpy's generator: the same seed deals other cards now (issue 13)."""
    doc = {**WitnessGame(players=3).new_initial_state(seed=4).to_record(), "version": version}
    with pytest.raises(RecordError, match=f"this record is version {version}, .*numpy.* replays version 3 only"):
        load(doc)
    text = json.dumps(doc)
    with pytest.raises(RecordError, match=f"version {version}"):
        load(text)


def test_records_are_version_3_and_replay():
    state = WitnessGame(players=3).new_initial_state(seed=4)
    rnd = random.Random(4)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(rnd.choice(state.legal_actions()))
    doc = state.to_record()
    assert doc["version"] == 3
    assert load(doc) == state


def test_archive_top_is_not_an_action():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    doc = {**state.to_record(), "actions": [{"type": "ArchiveTop", "top": "W16"}]}
    with pytest.raises(RecordError, match="unknown type 'ArchiveTop'"):
        load(doc)
