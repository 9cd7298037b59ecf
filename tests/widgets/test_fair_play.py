"""Issue 9 (3): a classroom app no learner can cheat (fair mode: what LabChooser builds).

Drives the labs from Python through the same handlers the buttons call. Fair
mode: fresh secret seeds (two labs, or a Reset, never share a deal), the seed in
no widget's synced state, the Full game lab saving finished games only,
refusing Load mid-game and showing every "I am player N" press to the table.
Notebook mode (``seed=``) keeps its reproducible seeds.
"""
from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("anywidget")

import ipywidgets  # noqa: E402

from safari_kit.core import record_files as RF  # noqa: E402
from safari_kit.widgets.app import LABS, LabChooser  # noqa: E402
from safari_kit.widgets.labs.challenge import ChallengeLab  # noqa: E402
from safari_kit.widgets.labs.fullgame import FullGameLab  # noqa: E402
from safari_kit.widgets.labs.identification import IdentificationLab  # noqa: E402
from safari_kit.widgets.labs.knockout import KnockoutLab  # noqa: E402

SEEDED = [
    ("identification", lambda **kw: IdentificationLab(bot="random", **kw)),
    ("challenge", lambda **kw: ChallengeLab(bot="random", **kw)),
    ("knockout", lambda **kw: KnockoutLab(**kw)),
    ("fullgame", lambda **kw: FullGameLab(players=3, bots="random", **kw)),
]


@pytest.fixture
def records(tmp_path, monkeypatch):
    folder = tmp_path / "records"
    monkeypatch.setenv(RF.RECORDS_ENV, str(folder))
    return folder


def deal(lab):
    """What identifies a deal: the whole hidden state (Python only)."""
    return repr(lab.state.full_view()) if hasattr(lab.state, "full_view") else repr(lab.state.__getstate__()) \
        if hasattr(lab.state, "__getstate__") else repr([lab.state.hand(p) for p in range(lab.players)])


def synced_text() -> str:
    """Everything every live widget would send to the page."""
    parts = []
    for w in list(ipywidgets.widgets.widget._instances.values()):
        try:
            parts.append(json.dumps(w.get_state(), default=repr))
        except Exception:  # noqa: BLE001 - a closed widget
            continue
    return "\n".join(parts)


@pytest.mark.parametrize("name, make", SEEDED, ids=[n for n, _ in SEEDED])
def test_fair_labs_deal_fresh_secret_seeds(name, make):
    a, b = make(seed=None, fair=True), make(seed=None, fair=True)
    assert a.errors == [] and b.errors == []
    assert a.secret and a.seed != b.seed, "two tabs got the same seed"
    assert deal(a) != deal(b), "two tabs got the same deal"
    seeds = {a.seed, b.seed}
    first = deal(a)
    a.reset_button.click()
    assert a.seed not in seeds and deal(a) != first, "Reset brought back the same deal"
    seeds.add(a.seed)
    a.reset(5)  # an explicit seed is ignored in fair mode: still a fresh secret deal
    assert a.seed not in seeds | {5, 6}
    seeds.add(a.seed)
    a.seed_box.value = 123  # the box is hidden; a value sent anyway (devtools) is not used
    a.reset_button.click()
    assert a.seed not in seeds | {123}
    seeds.add(a.seed)
    a.seed_box.value = 0
    if name == "knockout":
        old = a.seed
        a.new_game_button.click()
        assert a.seed not in seeds and a.seed != old + 1
        seeds.add(a.seed)
        a.elimination_box.value = not a.elimination_box.value  # starts again: a fresh deal too
        assert a.seed not in seeds
        seeds.add(a.seed)
    if name == "fullgame":
        a.new_button.click()
        assert a.seed not in seeds
        seeds.add(a.seed)
    assert a.errors == []
    # the seed box is hidden and holds 0; no seed anywhere on the page
    assert a.seed_box.value == 0 and a.seed_box.layout.display == "none"
    assert "secret" in a.deal_note.value
    text = synced_text()
    for s in seeds:
        assert str(s) not in text, f"secret seed {s} is in a widget's synced state"
    bundle = a._repr_mimebundle_()
    assert all(str(s) not in bundle["text/plain"] for s in seeds)


@pytest.mark.parametrize("name, make", SEEDED, ids=[n for n, _ in SEEDED])
def test_notebook_mode_keeps_reproducible_seeds(name, make):
    a, b = make(seed=5), make(seed=5)
    assert a.seed == b.seed == 5 and deal(a) == deal(b) and not a.secret
    a.reset(6)
    assert a.seed == 6 and a.seed_box.value == 6 and a.seed_box.layout.display != "none"
    a.reset(5)
    assert deal(a) == deal(b)


@pytest.mark.parametrize("name, make", SEEDED, ids=[n for n, _ in SEEDED])
def test_shared_class_seed_is_visible_and_fixed(name, make):
    a, b = make(seed=42, fair=True), make(seed=42, fair=True)
    assert a.seed == b.seed == 42 and deal(a) == deal(b)
    assert a.seed_box.disabled and "Class seed 42" in a.deal_note.value
    # one Seed box on the page: the chooser's; the lab says its class seed in the note
    assert a.seed_box.layout.display == "none"
    a.seed_box.value = 7  # disabled on the page; a value sent anyway (devtools) changes nothing
    a.reset_button.click()
    assert a.seed == 42 and deal(a) == deal(b)


def test_chooser_is_fair_by_default(monkeypatch):
    monkeypatch.delenv("SAFARI_KIT_CLASS_SEED", raising=False)
    chooser = LabChooser(seed=3)
    assert chooser.fair and not chooser.shared.value and chooser.shared_seed is None
    assert chooser.seed.layout.display == "none"
    one = chooser.open("Safari Knockout", "Knockout")
    two = chooser.open()
    assert one.secret and two.secret and one.seed != two.seed and chooser.errors == []
    # issue 19: no Shared class seed box unless the server turns it on; a tick sent anyway changes nothing
    assert chooser.class_seed_setting == "off" and chooser.shared.layout.display == "none"
    chooser.shared.value = True
    assert chooser.shared_seed is None and chooser.open().secret
    monkeypatch.setenv("SAFARI_KIT_CLASS_SEED", "on")  # the teacher turns it on for the server
    chooser = LabChooser(seed=3)
    assert chooser.shared.layout.display != "none" and not chooser.shared.value
    assert "compute every card" in chooser.shared.tooltip
    chooser.shared.value = True
    assert chooser.seed.layout.display == ""
    three = chooser.open("Safari Witness", "Identification")  # (the list opens on the Rules tutorial: no deal)
    assert three.seed == 3 and not three.secret and three.fair
    assert "compute every card" in three.deal_note.value  # the lab says what a class seed gives away
    chooser.shared.value = False
    assert chooser.open().secret



def test_chooser_builds_every_lab_in_fair_mode(monkeypatch):
    import types

    import safari_kit.widgets.app as app

    calls = []
    fake = types.SimpleNamespace(**{e.cls: (lambda **kw: calls.append(kw)) for e in LABS})
    monkeypatch.setattr(app, "import_module", lambda _name: fake)
    for entry in LABS:
        entry.build(None, fair=True)
    expected = [{**dict(e.kwargs)} if e.cls == "RulesTutorial" else {"seed": None, "fair": True, **dict(e.kwargs)}
                for e in LABS]
    assert calls == expected


def test_class_seed_setting_on_the_server(monkeypatch):
    monkeypatch.setenv("SAFARI_KIT_CLASS_SEED", "off")
    chooser = LabChooser()
    assert chooser.shared.layout.display == "none" and chooser.seed.layout.display == "none"
    with pytest.raises(ValueError, match="switched off"):
        chooser.open("Safari Knockout", "Knockout", 7)
    chooser.shared.value = True  # hidden on the page; a value sent anyway (devtools) changes nothing
    chooser.seed.value = 5
    assert chooser.shared_seed is None and chooser.open("Safari Knockout", "Knockout").secret
    monkeypatch.setenv("SAFARI_KIT_CLASS_SEED", "42")
    chooser = LabChooser()
    assert chooser.shared.value and chooser.shared.disabled and chooser.seed.disabled
    assert chooser.open("Safari Knockout", "Knockout").seed == 42
    chooser.shared.value, chooser.seed.value = False, 5  # locked: values from the page change nothing
    assert chooser.open().seed == 42
    assert "class seed 42" in chooser.intro.value
    monkeypatch.setenv("SAFARI_KIT_CLASS_SEED", "banana")
    with pytest.raises(ValueError, match="SAFARI_KIT_CLASS_SEED"):
        LabChooser()
    assert not LabChooser(fair=False).open("Safari Knockout", "Knockout", 9).secret


# ----------------------------------------------------------------------------- Full game: records and passes
def learner_move(lab, rng=random.Random(0)):
    """One legal learner action, through the lab (the table's clicks end in the same ``_act``)."""
    lab._act(rng.choice(lab.state.legal_sequence()))


def finish(lab, rng=None, limit=5000):
    rng = rng or random.Random(1)
    for _ in range(limit):
        if lab.state.is_terminal():
            return
        if lab.viewer is None:
            lab.confirm_player()
        else:
            learner_move(lab, rng)
    raise AssertionError("the game did not end")


def test_save_is_refused_mid_game_and_allowed_once_over(records):
    lab = FullGameLab(seed=None, fair=True, players=2, humans=(0,), bots="random")
    assert not lab.state.is_terminal()
    assert lab.save_button.disabled and "once it is over" in lab.save_button.tooltip
    assert "unfinished game would show every face-down card" in lab.record_note.value
    assert lab.save_record("mid-game") is None
    assert "once the game is over" in lab.status.value
    lab.save_button.click()
    assert lab.record_box.value == "" and not records.exists(), "a record of an unfinished game was written"
    finish(lab)
    assert not lab.save_button.disabled
    lab.path_box.value = "our-game"
    lab.save_button.click()
    saved = list(records.glob("our-game-*.json"))  # issue 19: the server picks the end of the name
    assert lab.errors == [] and len(saved) == 1 and saved[0].name[:-5] == lab.path_box.value
    assert saved[0].name in lab.status.value
    assert json.loads(saved[0].read_text())["seed"] == lab.state.seed
    # the record box shows a finished game's record only
    assert json.loads(lab.record_box.value)["actions"]


def test_load_is_refused_mid_game_and_unfinished_records_never_load(records, tmp_path):
    done = FullGameLab(seed=None, fair=True, players=2, humans=(), bots="random")
    assert done.state.is_terminal()
    done.save_record("finished")
    finished = done.path_box.value  # the name the app chose (issue 19: finished-<5 letters>)
    assert finished.startswith("finished-")
    unfinished = FullGameLab(seed=11, players=2, humans=(0,), bots="random")  # notebook mode may save mid-game
    learner_move(unfinished)
    unfinished.save_record("unfinished")

    lab = FullGameLab(seed=None, fair=True, players=2, humans=(0,), bots="random")
    learner_move(lab)
    assert lab.in_progress
    before = repr(lab.state.full_view())
    for source in (finished, (records / f"{finished}.json").read_text()):
        lab.load_record(source)
        assert "refused while a game is in progress" in lab.status.value
        assert repr(lab.state.full_view()) == before
    lab.path_box.value = finished
    lab.load_button.click()
    assert repr(lab.state.full_view()) == before and lab.errors == []

    fresh = FullGameLab(seed=None, fair=True, players=2, humans=(0,), bots="random")
    assert not fresh.in_progress  # nobody has moved yet: loading a finished game abandons nothing
    mine = repr(fresh.state.full_view())
    fresh.load_record("unfinished")
    assert "unfinished game" in fresh.status.value and "finished games only" in fresh.status.value
    assert repr(fresh.state.full_view()) == mine and fresh.state.seed == fresh.seed
    fresh.load_record(finished)
    assert fresh.state.is_terminal() and fresh.state.seed == done.state.seed and fresh.errors == []
    assert fresh.seed_box.value == 0, "a loaded record's seed is not put in the (hidden) seed box"


@pytest.mark.parametrize("name", ["../../x.json", "/tmp/x.json", "app.ipynb", "..json", "a/b", "x\0y"])
def test_full_game_file_box_refuses_bad_names(records, tmp_path, name):
    lab = FullGameLab(seed=None, fair=True, players=2, humans=(), bots="random")
    lab.path_box.value = name
    lab.save_button.click()
    assert "Not saved:" in lab.status.value and "is not a record name" in lab.status.value
    assert "letters" in lab.status.value and "Something went wrong" not in lab.status.value
    lab.load_button.click()
    assert "Not loaded:" in lab.status.value and "is not a record name" in lab.status.value
    assert lab.errors == [], "a refused name is the learner's to fix, not a crash"
    assert lab.save_record(name) is None  # the Python API keeps the error in lab.errors
    assert "is not a record name" in lab.errors[-1]
    assert not records.exists() and not (tmp_path / "x.json").exists()


def test_notebook_mode_save_and_load_use_the_records_folder(records):
    lab = FullGameLab(seed=9, players=2, humans=(0,), bots="random")
    learner_move(lab)
    text = lab.save_record("mid")
    assert (records / "mid.json").read_text() == text + "\n" and json.loads(text)["seed"] == 9
    before = repr(lab.state.full_view())
    lab.reset(9)
    lab.load_record("mid.json")
    assert repr(lab.state.full_view()) == before and lab.errors == []
    lab.save_record("mid")  # never overwritten
    assert "already exists" in lab.errors[-1]


def test_every_device_pass_is_recorded_and_shown_to_the_table(records):
    lab = FullGameLab(seed=None, fair=True, players=2, humans=(0, 1))
    assert lab.viewer is None and lab.game_area.children == (lab.pass_screen,)
    assert "none yet" in lab.pass_log.value and "Device passes" in lab.pass_label.value
    first = lab.state.current_player
    lab.confirm_player()
    lab.confirm_player()  # a second press is recorded too
    assert [(p["game"], p["seat"], p["repeat"]) for p in lab.passes] == [(1, first, False), (1, first, True)]
    assert lab.passes[0]["turn"] == lab.state.turn
    assert f"Player {first}: the table was opened" in lab.pass_log.value and "pressed again" in lab.pass_log.value
    rng = random.Random(4)
    while lab.viewer is not None and not lab.state.is_terminal():
        learner_move(lab, rng)
    assert lab.viewer is None, "the device is passed to Player 1"
    turn, second = lab.state.turn, lab.state.current_player
    assert second != first
    lab.confirm_player()
    assert lab.passes[-1]["seat"] == second and lab.passes[-1]["turn"] == turn
    assert f"turn {turn}: Player {second}: the table was opened" in lab.pass_log.value
    # neither Load nor New game hides it
    lab.load_record("anything")
    assert "refused while a game is in progress" in lab.status.value
    n = len(lab.passes)
    lab.new_button.click()
    assert len(lab.passes) == n and f"Player {second}: the table was opened" in lab.pass_log.value
    # the pass log is outside the game area: visible on the pass screen too
    assert lab.pass_log in lab.side_column.children and lab.pass_log not in lab.game_area.children
