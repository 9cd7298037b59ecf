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
    (lambda t: t.replace('"version": 2', '"version": 99'), "version"),
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


def as_version_1(state) -> dict:
    """The record a version-1 safari_kit would have written for ``state``'s game.

    Version 1 turned failed cards face down at once (no TurnFaceDown) and archived with
    ArchiveTop(top), the other cards in reveal order; ``state`` must have archived that way.
    """
    doc = state.to_record()
    replay = WitnessGame.from_options(doc["options"]).new_initial_state(seed=doc["seed"])
    out, run = [], False
    for item in doc["actions"]:
        action = A.ACTION_TYPES[item["type"]].from_dict({k: v for k, v in item.items() if k != "type"})
        replay.apply(action)
        if item["type"] == "TurnFaceDown":
            continue
        if item["type"] == "ArchiveCard":
            run = True
            if replay.phase != "archive":  # the group is on the archive: its last card is the top
                top = [e for e, _, _ in replay.log if e["kind"] == "archive"][-1]["cards"][-1]
                out.append({"type": "ArchiveTop", "top": top})
                run = False
            continue
        out.append(item)
    assert not run
    return {**doc, "version": 1, "actions": out}


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_version_1_records_still_replay(seed):
    """Records written before TurnFaceDown and ArchiveCard existed replay to the same game."""
    state = WitnessGame(players=3, advanced=True, case_module=True).new_initial_state(seed=seed)
    rnd = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        # version 1 kept the reveal order below the chosen top: archive in reveal order
        state.apply(legal[0] if state.phase == "archive" else rnd.choice(legal))
    old = as_version_1(state)
    assert old["actions"] != state.to_record()["actions"]
    assert any(a["type"] == "ArchiveTop" for a in old["actions"])
    again = load(old)
    assert again.full_view()["archives"] == state.full_view()["archives"]
    assert again.scores() == state.scores() and again.is_terminal()


def test_version_1_record_with_an_unknown_top_is_refused():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    doc = {**state.to_record(), "version": 1,
           "actions": [{"type": "Identify"}, {"type": "Declare", "clue": "W16", "types": ["animal"], "place": 1},
                       {"type": "ArchiveTop", "top": "W70"}]}
    with pytest.raises(RecordError, match="action #2.*W70"):
        load(doc)


def test_version_2_records_refuse_archive_top():
    state = start(["W23", "W64", "W66", "W70"], ["W16"])
    doc = {**state.to_record(), "actions": [{"type": "ArchiveTop", "top": "W16"}]}
    with pytest.raises(RecordError, match="unknown type 'ArchiveTop'"):
        load(doc)
