"""What the Identification and Challenge labs say agrees with the lessons, the position shown and the game
(issue 17): the reveal-another note says what lesson 02 says, "Why this position" is only shown when it is
true, the emphasised Challenge button is the optimal rule's, and every failure says what the revealed card
shared (or did not share) with the clue, read from the game, never naming a hidden card."""
from __future__ import annotations

import html
import itertools
import re

import pytest

pytest.importorskip("anywidget")

from safari_kit.cards.names import matches  # noqa: E402
from safari_kit.presentation import narration as N  # noqa: E402
from safari_kit.probability import witness as PW  # noqa: E402
from safari_kit.probability.knowledge import Knowledge  # noqa: E402
from safari_kit.simulation import challenge_positions as CP  # noqa: E402
from safari_kit.widgets.labs.challenge import ChallengeLab  # noqa: E402
from safari_kit.widgets.labs.identification import IdentificationLab  # noqa: E402
from safari_kit.witness import WitnessGame  # noqa: E402
from safari_kit.witness import actions as A  # noqa: E402
from tests.widgets.test_labs_witness import (  # noqa: E402
    assert_no_leak, click_place, scripted_challenge, through_failures,
)

TYPES = ("animal", "texture", "color")


def text(widget) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.value))


# ----------------------------------------------------------------------------- the words, checked independently
def names_shared(a: str, b: str) -> set[str]:
    """Names fitting both patterns, from the name list and the letters (not the game's tables)."""
    from safari_kit.cards.names import NAMES

    return {n for n in NAMES if matches(a, n) and matches(b, n)}


def test_shared_and_missing_words_agree_with_the_cards_themselves():
    game = WitnessGame(players=2)
    cards = game.cards
    for clue, card in itertools.permutations(cards[::3], 2):
        said = N.shared_words(game, clue.id, card.id)
        for t in TYPES:
            same = getattr(clue, t) == getattr(card, t)
            assert (f"the {t} ({getattr(clue, t)})" in said) == same, (clue.id, card.id, t)
        names = names_shared(clue.name, card.name)
        assert any(w.startswith(("the name", "a name")) for w in said) == bool(names)
        for n in names:
            assert n in said[-1]
        unsafe = bool(said)
        assert unsafe == (game.index[card.id] in game.unsafe[game.index[clue.id]])
        if unsafe:
            assert N.unsafe_words(game, clue.id, card.id).startswith(N.card_words(card))
        else:
            with pytest.raises(ValueError):
                N.unsafe_words(game, clue.id, card.id)
        for types in [(t,) for t in (*TYPES, "name")] + [("animal", "name"), ("color", "texture")]:
            hit = any(getattr(clue, t) == getattr(card, t) for t in types if t != "name") or (
                "name" in types and bool(names))
            if hit:
                with pytest.raises(ValueError):
                    N.no_match_words(game, clue.id, card.id, types)
                continue
            words = N.no_match_words(game, clue.id, card.id, types)
            assert words.startswith(N.card_words(card) + ": ")
            for t in types:
                if t == "name":
                    assert f"no name fits both {card.name} and the clue's {clue.name}" in words
                else:
                    assert f"{getattr(clue, t)}, the clue's {t}" in words


def test_card_words_read_well():
    game = WitnessGame(players=2)
    orange = next(c for c in game.cards if c.color == "Orange")
    assert N.card_words(orange).startswith(f"an Orange {orange.animal} (")
    elephant = next(c for c in game.cards if c.animal == "Elephant" and c.color == "Pink")
    assert N.card_words(elephant) == f"a Pink Elephant ({elephant.texture}, named {elephant.name})"


# ----------------------------------------------------------------------------- item 1: Identification lab
def test_identification_reveal_another_note_agrees_with_lesson_02():
    for seed in range(1, 40):
        lab = IdentificationLab(seed=seed, players=3)
        if lab.my_turn and lab.state.phase == "choose" and lab.state.is_legal(A.RevealAnother()):
            break
    panel = text(lab.prob)
    assert "Reveal another is worth it when P(both succeed) > p/2" in panel
    assert "P(both) = p₁·p₂" in panel and "given that the first succeeded" in panel
    assert "not the two chances multiplied as if each were alone" in panel
    assert "is not p1·p2" not in panel  # the old note contradicted lesson 02 §5
    # issue 27: the buttons sit beside the table, or below it in a narrow notebook: the line names no place
    assert "below" not in lab.table.message and "beside" not in lab.table.message


# ----------------------------------------------------------------------------- item 3: failure messages
def failing_declaration(state):
    return next(a for a in state.legal_actions()
                if not any(state.card_at[a.place] in state.game.shares[t][state.game.index[a.clue]]
                           for t in a.types))


def test_identification_failure_says_which_clue_value_the_card_lacks():
    lab = IdentificationLab(seed=4, players=3)
    lab.identify_button.click()
    miss = failing_declaration(lab.state)
    clue = lab.game.cards[lab.game.index[miss.clue]]
    lab.type_buttons.value = miss.types
    click_place(lab, miss.place)
    lab.reveal_button.click()
    card = lab.game.cards[lab.game.index[lab.predictions[-1].card]]
    status = text(lab.status)
    assert f"No match: place {miss.place} held {N.card_words(card)}: " in status
    for t in miss.types:
        if t == "name":
            assert f"no name fits both {card.name} and the clue's {clue.name}" in status
        else:
            assert getattr(card, t) != getattr(clue, t)
            value = getattr(clue, t)
            assert f"not {'an' if value[0] in 'AEIOU' else 'a'} {value}" in status if t == "animal" else (
                f"not {value}, the clue's {t}" in status)
    assert "Last reveal" in lab.prob.value and "the clue&#x27;s" in lab.prob.value
    assert_no_leak(lab)
    assert lab.errors == []


def test_identification_success_says_what_was_shared():
    for seed in range(1, 60):
        lab = IdentificationLab(seed=seed, players=3)
        if not (lab.my_turn and lab.state.phase == "choose"):
            continue
        lab.identify_button.click()
        state = lab.state
        hit = next((a for a in state.legal_actions() if len(a.types) == 1 and a.types[0] != "name"
                    and state.card_at[a.place] in state.game.shares[a.types[0]][state.game.index[a.clue]]), None)
        if hit is None:
            continue
        lab.type_buttons.value = hit.types
        click_place(lab, hit.place)
        lab.reveal_button.click()
        clue = lab.game.cards[lab.game.index[hit.clue]]
        t = hit.types[0]
        assert f"it shares the {t} ({getattr(clue, t)}) with the clue" in text(lab.status)
        return
    pytest.fail("no seed offered a matching declaration")


def test_challenge_failure_says_what_the_card_shares_with_the_challenged_card():
    pos, order = scripted_challenge(1)
    lab = ChallengeLab(position=pos, deck_order=order)
    challenged = lab.game.cards[lab.state.clue[0]]
    lab.challenge_button.click()
    while lab.in_challenge:
        click_place(lab, lab.state.face_down_places()[0])
    event = [e for e in lab.state.observation(lab.learner).log if e["kind"] == "challenge_reveal"][-1]
    assert not event["safe"]
    card = lab.game.cards[lab.game.index[event["card"]]]
    status = text(lab.status)
    assert f"Not safe: place {event['place']} held {N.card_words(card)}: it shares " in status
    said = False
    for t in TYPES:
        if getattr(card, t) == getattr(challenged, t):
            assert f"the {t} ({getattr(card, t)})" in status
            said = True
    for n in names_shared(card.name, challenged.name):
        assert n in status
        said = True
    assert said
    assert_no_leak(lab)
    assert lab.errors == []


def test_challenge_lab_identify_failure_and_bot_failures_are_explained():
    explained_bot = explained_own = 0
    for key in ("stop-or-go", "identify-sure", "fresh"):
        lab = ChallengeLab(position=key)
        for _turn in range(25):
            while lab.state.phase == "face_up" and lab.state.current_player != lab.learner:
                log = lab.state.observation(lab.learner).log
                last = [e for e in log if e["kind"] in ("identify", "challenge_reveal")][-1]
                assert "failed." in text(lab.decide)
                assert N.card_words(lab.game.cards[lab.game.index[last["card"]]]) in text(lab.decide)
                assert ("the clue's" in text(lab.decide)) or ("it shares" in text(lab.decide))
                explained_bot += 1
                lab.next_button.click()
            if lab.state.is_terminal():
                break
            lab.identify_button.click()
            if lab.history[-1]["archived"] == 0:
                assert "the clue's" in text(lab.status) or "no name fits" in text(lab.status)
                explained_own += 1
            assert_no_leak(lab)
            lab.next_button.click()
        assert lab.errors == []
    assert explained_bot >= 3 and explained_own >= 1


def test_identification_lab_explains_bot_failures():
    explained = 0
    for seed in range(1, 5):
        lab = IdentificationLab(seed=seed, players=3, bot="random")
        for _ in range(8):
            if lab.state.is_terminal():
                break
            if lab.my_turn and lab.state.phase == "choose":
                lab.identify_button.click()
                lab.type_buttons.value = lab.type_buttons.options[0][1]
                while lab.my_turn and lab.state.phase == "identify":
                    click_place(lab, lab.state.available_places()[0])
                    lab.reveal_button.click()
            lab.next_button.click()
            while lab.state.phase == "face_up" and not lab.my_turn:
                status = text(lab.status)
                assert re.search(r"Player \d failed\. Player \d (declared .* and found|revealed place)", status)
                explained += 1
                lab.next_button.click()
        assert lab.errors == []
    assert explained >= 3


# ----------------------------------------------------------------------------- item 2: Challenge lab
def test_why_this_position_only_while_it_is_true():
    lab = ChallengeLab()
    pos = lab.start_position
    assert "Why this position" in lab.why.value and html.escape(pos.why) in lab.why.value
    lab.identify_button.click()  # the first turn is over: the sentence no longer describes the table
    lab.next_button.click()
    through_failures(lab, lab.next_button)
    assert lab.choosing
    assert "Why this position" not in lab.why.value and html.escape(pos.why) not in lab.why.value
    f = CP.facts(lab.state, lab.learner)
    kn = Knowledge.from_observation(lab.state.observation(lab.learner), game=lab.game)
    assert f["face_down"] == len(lab.state.face_down_places()) and f["remembered"] == len(kn.known)
    said = text(lab.why)
    assert (f"{f['face_down']} face-down places; you remember {f['remembered']} of them "
            f"({f['remembered_safe']} safe for your clue)") in said
    assert f"turn {lab.state.turn}" in said
    lab.reset(lab.start_position.seed)  # a new start: the sentence is true again
    assert html.escape(pos.why) in lab.why.value


def test_why_is_not_claimed_when_the_position_does_not_hold_it():
    lab = ChallengeLab(position="stop-or-go", players=4)  # another number of players: another deal
    assert "Why this position" not in lab.why.value
    through_failures(lab, lab.next_button)
    assert lab.choosing and "Why this position" not in lab.why.value
    f = CP.facts(lab.state, lab.learner)
    assert f"{f['face_down']} face-down places; you remember {f['remembered']} of them" in lab.why.value


def test_the_emphasised_button_follows_the_optimal_rule():
    seen = set()
    for key, seed in (("stop-or-go", None), ("close-call", None), ("stop-or-go", 7), ("fresh", None)):
        lab = ChallengeLab(position=key, seed=seed)
        for _turn in range(6):
            through_failures(lab, lab.next_button)
            if lab.state.is_terminal() or not lab.choosing:
                break
            assert lab.reveal_button.button_style == "" and lab.stop_button.button_style == ""  # not in a challenge
            lab.challenge_button.click()
            while lab.in_challenge:
                kn = Knowledge.from_observation(lab.state.observation(lab.learner), game=lab.game)
                rule = PW.challenge_decision(kn)[0]
                pos = PW.challenge_position(kn)
                # the n/(n+1) rule, computed here from the counts: reveal on while P(next safe) > n/(n+1)
                s = pos["s"]
                if pos["safe_places"]:
                    mine = "reveal"
                elif s < 4 and (pos["unknown_places"] or pos["other_places"]):
                    mine = "reveal"
                elif pos["unknown_places"] and pos["n"] and pos["a"] * (2 + s) > (1 + s) * pos["n"]:
                    mine = "reveal"
                else:
                    mine = "stop"
                assert rule == mine
                can_stop = not lab.stop_button.disabled
                assert (lab.reveal_button.button_style == "warning") == (rule == "reveal")
                assert (lab.stop_button.button_style == "success") == (rule == "stop" and can_stop)
                seen.add((rule, can_stop))
                if rule == "stop":
                    lab.stop_button.click()
                else:
                    lab.reveal_button.click()
            assert lab.reveal_button.button_style == "" and lab.stop_button.button_style == ""
            lab.next_button.click()
        assert lab.errors == []
    assert ("stop", True) in seen and ("reveal", True) in seen and ("reveal", False) in seen
