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
    assert [label for label, _ in chooser.lab.options] == ["Knockout", "Rules tutorial"]


def test_unknown_lab_is_a_clear_error():
    with pytest.raises(ValueError, match="no lab 'Poker'"):
        LabChooser().open("Safari Witness", "Poker")
