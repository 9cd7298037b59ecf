"""What a screen reader is told (issue 20): the sentence after a reveal, the names of the places, the live region.

The sentences are checked against the engine's own log (the viewer's observation): the place and the card a
sentence names are the ones the log event records, and a face-down place's name never carries its card.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from safari_kit.presentation.narration import card_label
from safari_kit.presentation.spoken import (challenge_sentence, chance_words, count_words, identify_sentence,
                                            place_name, remember_words)
from safari_kit.widgets.labs.challenge import ChallengeLab
from safari_kit.widgets.labs.identification import IdentificationLab
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A


def test_count_words_says_the_count_first_and_refuses_a_wrong_count():
    assert count_words(Fraction(7, 37), (14, 74)) == "14 of 74"
    assert chance_words(("animal", "color"), (3, 74)) == "chance of an Animal + Color match 3 of 74"
    assert chance_words(("texture",), None, Fraction(1)) == "chance of a Texture match certain"
    with pytest.raises(ValueError, match="does not give"):
        count_words(Fraction(1, 3), (14, 74))


def test_place_names():
    assert place_name(3) == "Place 3, face down"
    assert place_name(4, card_words="Pink Owl, Wood, named KIM") == "Place 4, face up: Pink Owl, Wood, named KIM"
    assert remember_words(1).startswith("Remember it:") and remember_words(3).startswith("Remember them: these 3")


def _declare_until(state, want_success: bool, viewer: int = 0):
    """Play the learner's declarations (first type, first place) on fresh deals until one succeeds/fails."""
    for seed in range(1, 200):
        state = WitnessGame(players=2).new_initial_state(seed=seed)
        if state.current_player != viewer or state.phase != "choose":
            continue
        state.apply(A.Identify())
        clue = state.card_id(state.clue[0])
        n = len(state.log)
        state.apply(A.Declare(clue, state.type_choices()[0], state.available_places()[0]))
        event = next(e for e, *_ in state.log[n:] if e["kind"] == "identify")
        if bool(event["success"]) == want_success:
            return state, event
    raise AssertionError("no such deal in 200 seeds")


def test_a_failed_declaration_is_said_from_the_log():
    state, event = _declare_until(None, want_success=False)
    said = identify_sentence(state.game, event, state, 0)
    # the viewer's own observation log holds the same event, with the same card: nothing the log does not say
    seen = [e for e in state.observation(0).log if e.get("kind") == "identify"][-1]
    assert seen["card"] == event["card"] and seen["place"] == event["place"]
    assert said.startswith(f"Place {seen['place']}: {card_label(state.game, seen['card'])}. No match: your turn ends.")
    assert "Remember" in said and "face down when the next turn begins" in said
    with pytest.raises(ValueError, match="not a declaration"):
        identify_sentence(state.game, {"kind": "clue"}, state, 0)


def test_a_match_is_said_with_what_it_shares():
    state, event = _declare_until(None, want_success=True)
    said = identify_sentence(state.game, event, state, 0)
    assert said.startswith(f"Place {event['place']}: {card_label(state.game, event['card'])}. Match")
    assert "it shares the " in said or said.endswith("Match.")


def test_identification_lab_says_one_sentence_per_action_and_never_a_hidden_card():
    lab = IdentificationLab(seed=4, players=3)
    game = lab.game
    assert lab.my_turn and lab.state.phase == "choose"
    n = lab.live.n
    lab.identify_button.click()
    assert lab.live.n == n + 1 and "pick a clue type" in lab.live.text
    assert lab.table.live_message is False  # the lab speaks; the table's message line is not a second voice
    # the names of the face-down places: their number and the public chance, no card of the deck
    words = lab.table.note_words
    assert words and all(re.fullmatch(r"chance of an? [A-Za-z +]+ match (\d+ of \d+|certain|none)", w)
                         for w in words.values()), words
    shown = set(lab.table.view.get("cards", {}))
    seen_labels = {card_label(game, c) for c in shown}
    synced = repr(lab.table.get_state()) + repr(lab.live.get_state())
    for card in game.cards:
        if card.id in shown:
            continue
        assert f"'{card.id}'" not in synced, f"the page holds the hidden card {card.id}"
        label = card_label(game, card.id)
        assert label in seen_labels or label not in synced, f"the page names the hidden card {card.id}: {label}"
    place = lab.state.available_places()[0]
    lab.table.click = {"kind": "place", "id": place, "seq": 1}
    assert lab.live.text.startswith(f"Place {place} picked")
    n = lab.live.n
    lab.reveal_button.click()
    assert lab.live.n == n + 1, "a reveal must be said exactly once"
    event = [e for e in lab.state.observation(lab.learner).log if e.get("kind") == "identify"][-1]
    assert lab.live.text.startswith(f"Place {place}: {card_label(game, event['card'])}.")
    assert f"at place {place}: {card_label(game, event['card'])}" in "\n".join(lab.lines)  # the lab's log says so too


def test_challenge_lab_says_each_reveal():
    lab = ChallengeLab()
    lab.challenge_button.click()
    for _ in range(12):
        if not lab.in_challenge:
            break
        place = lab.safest_place()
        n_log = len(lab.state.log)
        lab.reveal_button.click()
        event = next(e for e, *_ in lab.state.log[n_log:] if e["kind"] == "challenge_reveal")
        said = lab.live.text
        assert said.startswith(f"Place {place}: {card_label(lab.game, event['card'])}."), said
        if event["safe"]:
            assert re.search(r"Safe: \d+ safe so far\.", said), said
            if lab.state.is_legal(A.StopChallenge()):
                break
        else:
            assert "Not safe" in said and "challenge fails" in said and "Remember" in said, said
            assert said == challenge_sentence(lab.game, event, lab.state, lab.learner) + " Press Next turn."
            break
