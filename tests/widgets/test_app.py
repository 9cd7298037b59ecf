"""The classroom app's chooser opens every lab, with the chosen seed, without errors."""
import pytest

from safari_kit.widgets.app import LABS, LabChooser


@pytest.mark.parametrize("entry", LABS, ids=[f"{e.game}-{e.title}" for e in LABS])
def test_chooser_opens_every_lab(entry):
    chooser = LabChooser(seed=4, class_seed="on")
    lab = chooser.open(entry.game, entry.title, 7)
    assert chooser.errors == []
    assert lab is chooser.current and chooser.stage.children == (lab.layout,)
    assert lab.errors == []
    if entry.cls not in ("RulesTutorial", "RulesPage"):  # a scripted game, a page to read: no deal
        assert lab.seed == 7


def test_chooser_lists_the_labs_of_the_chosen_game():
    chooser = LabChooser()
    chooser.game.value = "Safari Knockout"
    assert [label for label, _ in chooser.lab.options] == ["Rules tutorial", "Knockout", "Rules of Safari Knockout",
                                                            "Simulation"]


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

    assert "in secret on the server" in LabChooser(fair=True, class_seed=None).intro.value
    monkeypatch.setattr(sys, "platform", "emscripten")  # JupyterLite: the learner's browser runs Python
    chooser = LabChooser(fair=True, class_seed="on")
    assert "in your browser" in chooser.intro.value and "on the server" not in chooser.intro.value
    # issue 19: the learner owns this kernel, so no page says "in secret" or "Fair deal", no class seed is offered
    assert chooser.shared.layout.display == "none" and chooser.class_seed_setting == "off"
    assert "not for contests" in chooser.intro.value
    for entry in LABS:
        lab = chooser.open(entry.game, entry.title)
        words = f"{chooser.intro.value} {lab.deal_note.value} {chooser.blurb.value}".lower()
        assert "in secret" not in words and "fair deal" not in words and "secret seed" not in words, entry
        if entry.cls not in ("RulesTutorial", "RulesPage"):
            assert "in your browser" in lab.deal_note.value, entry


def test_the_start_page_says_what_to_do_until_a_lab_is_opened():
    """Issue 17: the app opened on two rows of controls over an empty screen; one sentence says what to do."""
    chooser = LabChooser(fair=True, class_seed="off")
    assert chooser.stage.children == (chooser.start_hint,)
    text = chooser.start_hint.value
    assert "Pick a game" in text and "<b>Open lab</b>" in text and "opens here" in text
    # its words name the controls as the page shows them
    assert chooser.open_button.description == "Open lab" and "Rules tutorial" in [e.title for e in LABS]
    lab = chooser.open("Safari Knockout", "Knockout")
    assert chooser.stage.children == (lab.layout,) and chooser.start_hint not in chooser.stage.children


def test_the_apps_simulation_lab_keeps_the_apps_promise():
    """'Every lab shuffles its cards in secret': the Simulation lab in the app draws from its own secret seed,
    shows no Seed box, and no seed reaches the page (its tournaments say 'run k')."""
    import json

    import ipywidgets

    chooser = LabChooser(fair=True, class_seed="on")
    assert "shuffles its cards in secret" in chooser.intro.value
    one = chooser.open("Both games", "Simulation")
    two = chooser.open("Both games", "Simulation")
    assert one.secret and two.secret and one.seed != two.seed
    assert one.seed_box.layout.display == "none" and "secret seed" in one.deal_note.value
    seeds = {one.seed, two.seed, one.tournament_result.config["seed"], two.tournament_result.config["seed"]}
    widgets = list(ipywidgets.widgets.widget._instances.values())
    text = "\n".join(json.dumps(w.get_state(), default=repr) for w in widgets)
    assert all(str(s) not in text for s in seeds)
    assert "Run 1</b> of this line-up" in two.tour_summary.value
    chooser.shared.value = True                           # the teacher's shared class seed: said in the note
    three = chooser.open("Both games", "Simulation")
    assert three.seed == chooser.seed.value and f"Class seed {three.seed}" in three.deal_note.value


def test_new_players_are_sent_to_the_rules_tutorial_first():
    """Issue 27: a learner following the numbers met ALEX, TOM and Challenge unexplained. Each game's list
    opens on its Rules tutorial (what Open lab opens without another choice), and the first words on the
    empty stage say to start there."""
    from safari_kit.widgets.app import LabChooser
    from safari_kit.widgets.labs.tutorial import RulesTutorial

    chooser = LabChooser(fair=True)
    for game in ("Safari Witness", "Safari Knockout"):
        chooser.game.value = game
        assert chooser.entries()[chooser.lab.value].title == "Rules tutorial"
        assert "Start here" in chooser.blurb.value
    hint = chooser.start_hint.value
    assert hint.index("Start with the Rules tutorial") < hint.index("Pick a game")
    lab = chooser.open()
    assert isinstance(lab, RulesTutorial) and lab.script.game == "knockout" and chooser.errors == []


def test_the_list_of_labs_and_the_language_list_have_their_own_hooks():
    """The page's scripts and the browser tests find the list of labs by ``safari-lab-list`` (issue 28: it was
    "the dropdown that is not the Language list" in 40 places)."""
    app = LabChooser()
    assert "safari-lab-list" in app.lab._dom_classes
    assert "safari-lab-list" not in app.language_list._dom_classes
