"""The classroom app's chooser opens every lab, with the chosen seed, without errors."""
import pytest

from safari_kit.widgets.app import LABS, LabChooser


@pytest.mark.parametrize("entry", LABS, ids=[f"{e.game}-{e.title}" for e in LABS])
def test_chooser_opens_every_lab(entry):
    chooser = LabChooser(seed=4)
    lab = chooser.open(entry.game, entry.title, 7)
    assert chooser.errors == []
    assert lab is chooser.current and chooser.stage.children == (lab.layout,)
    assert lab.errors == []
    if entry.cls != "RulesTutorial":
        assert lab.seed == 7


def test_chooser_lists_the_labs_of_the_chosen_game():
    chooser = LabChooser()
    chooser.game.value = "Safari Knockout"
    assert [label for label, _ in chooser.lab.options] == ["Knockout", "Rules tutorial", "Simulation"]


def test_unknown_lab_is_a_clear_error():
    with pytest.raises(ValueError, match="no lab 'Poker'"):
        LabChooser().open("Safari Witness", "Poker")


def test_each_games_page_reaches_the_simulation_lab():
    chooser = LabChooser(fair=True, class_seed="off")
    for game in ("Safari Witness", "Safari Knockout"):
        titles = [e.title for e in chooser.entries(game)]
        assert "Simulation" in titles, (game, titles)
        lab = chooser.open(game=game, lab="Simulation")
        assert lab.game_box.value == ("witness" if game == "Safari Witness" else "knockout")


def test_one_seed_box_with_a_shared_class_seed():
    chooser = LabChooser(fair=True, class_seed=42)
    lab = chooser.open(game="Safari Witness", lab="Identification")
    assert chooser.seed.layout.display != "none" and chooser.seed.value == 42
    assert lab.seed == 42 and lab.seed_box.layout.display == "none" and "Class seed 42" in lab.deal_note.value


def test_the_words_say_where_the_cards_are_shuffled(monkeypatch):
    import sys

    assert "on the server" in LabChooser(fair=True, class_seed=None).intro.value
    monkeypatch.setattr(sys, "platform", "emscripten")  # JupyterLite: the learner's browser runs Python
    chooser = LabChooser(fair=True, class_seed=None)
    assert "in your browser" in chooser.intro.value and "server" not in chooser.intro.value
    lab = chooser.open(game="Safari Witness", lab="Identification")
    assert "in your browser" in lab.deal_note.value
