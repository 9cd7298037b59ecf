"""Lesson 07 (rules tutorial): answers and hints of its quiz.

The questions are in notebooks/07-rules-tutorial.md; every answer is read from
the engine or from the tutorial's scripts.
"""
from __future__ import annotations

from safari_kit.core.i18n import N_
from safari_kit.teaching.exercises import Exercise, Hint, register

QUIZ_ROUND = 3  # 07.round3-cards: "how many cards does each player get in round 3?"


def _scripts():
    """The rules tutorial's scripts (plain engine code, no widgets: a plain ``pip install .`` is enough)."""
    from safari_kit.tutorial import tutorials

    return tutorials


def _round3_cards() -> int:
    from safari_kit.knockout.rules import cards_per_player

    return cards_per_player(QUIZ_ROUND)


def _tie_winner() -> int:
    """The seat that won the tutorial's first tie (K3), as the engine decided it."""
    scripts = _scripts()
    return scripts.tie_turns(scripts.knockout_script().states()[-1])[0]["winner"]


def _tie_second_player() -> int:
    scripts = _scripts()
    plays = scripts.tie_turns(scripts.knockout_script().states()[-1])[0]["plays"]
    return plays[1][0]


def _min_safe() -> int:
    from safari_kit.witness.state import MIN_SAFE

    return MIN_SAFE


def _refill_size() -> int:
    from safari_kit.witness.state import UNIDENTIFIED_SIZE

    return UNIDENTIFIED_SIZE


def _failed_new_places() -> int:
    """How many new places the tutorial's failed identification created (its clue cards, W4)."""
    state = _scripts().witness_script().states()[-1]
    fail = next(e for e, _, _ in state.log if e["kind"] == "fail")
    return len(fail["to_places"])


register(Exercise(
    "07.round3-cards", _round3_cards,
    hints=[Hint(lambda a: a == 3, N_("The round number is not the number of cards: round 1 deals 7.")),
           Hint(lambda a: a == 6, N_("6 is round 2. Each round deals one card fewer than the round before.")),
           Hint(lambda a: a == 7, N_("7 is round 1 only: each round deals one card fewer.")),
           Hint(lambda a: a == 4, N_("Round 1 deals 7 and round 2 deals 6: one card fewer each round, not 3 fewer."))],
    general_hint=N_("Round 1 deals 7 cards to each player, and each round deals one card fewer (ruling K2).")))

register(Exercise(
    "07.tie", _tie_winner,
    hints=[Hint(lambda a: a == _tie_second_player(),
                N_("That player played the second zebra. On equal values, does the earlier or the later card win?")),
           Hint(lambda a: a == 2, N_("Player 2's card was much slower: it never had a chance."))],
    general_hint=N_("Look at the order the cards were played in. Then read ruling K3 again: click K3 in the "
                   "Knockout tutorial, or read 'A turn' in the Rules of Safari Knockout.")))

register(Exercise(
    "07.safe-stop", _min_safe,
    hints=[Hint(lambda a: a == _min_safe() + 1, N_("Count only the revealed safe cards, not the challenged "
                                                  "clue card.")),
           Hint(lambda a: a < _min_safe(), N_("Fewer than that is not enough: look at the tutorial's Challenge.")),
           Hint(lambda a: a > _min_safe() + 1, N_("You may go on that long, but you are allowed to stop earlier."))],
    general_hint=N_("Step through the Witness tutorial's Challenge: when did 'you may stop' appear? (W5)")))

register(Exercise(
    "07.refill", _refill_size,
    hints=[Hint(lambda a: a == 5, N_("The clue card goes to the Clue Area, not the Unidentified Area.")),
           Hint(lambda a: a < 4, N_("Count the face-down cards at the very start of the Witness tutorial."))],
    general_hint=N_("A refill tops the area up to a fixed number of face-down cards. Count them at the first "
                   "step of the Witness tutorial, or click W6 there.")))

register(Exercise(
    "07.fail-places", _failed_new_places,
    hints=[Hint(lambda a: a == 4, N_("4 cards went face up, but the identified ones stayed at their own places.")),
           Hint(lambda a: a == 0, N_("The clue cards were not in the Unidentified Area before: they need places.")),
           Hint(lambda a: a == 1, N_("Both clue cards go back, the one that succeeded too."))],
    general_hint=N_("Which revealed cards already had a place, and which came from the Clue Area? (W4)")))
