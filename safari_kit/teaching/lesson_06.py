"""Lesson 06 (cases and abilities): answers and hints of its exercises (the questions are in
notebooks/06-cases-and-abilities.md), and the scripted positions the notebook studies.

* :func:`greedy_names`: the *wrong* way to count names (each ink card takes the
  first free name it matches), to compare with the rules' maximum matching
  :func:`safari_kit.witness.cases.distinct_names`.
* :func:`names_example`: cards on which greedy loses a name.
* :func:`scripted_tom_sam`: a scripted Advanced game in which Player 1 uses SAM
  on two known places and Player 0 then uses TOM; returns the states at each
  step so the notebook can ask :class:`~safari_kit.probability.knowledge.Knowledge`
  what each player knows.
* :func:`entropy_bits`: the uncertainty (Shannon entropy, in bits) of a
  place, from ``Knowledge.card_probabilities``.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from safari_kit.core.i18n import N_
from safari_kit.teaching.exercises import Exercise, Hint, register

__all__ = ["greedy_names", "names_example", "scripted_tom_sam", "entropy_bits", "place_entropy", "distinct_count"]


def _deck():
    from safari_kit.cards.load import load_cards

    return load_cards().witness


def greedy_names(cards) -> tuple[int, dict]:
    """Count names greedily: clear names first, then each ink card (in the given order) takes the
    first name (TAM, TOM, SAM, ...) it matches that nobody has yet. Not the rule (W9): a lesson's foil."""
    from safari_kit.cards.names import NAMES, is_ink, matches

    cards = list(cards)
    taken = {c.name for c in cards if not is_ink(c.name)}
    assignment = {}
    for c in cards:
        if is_ink(c.name):
            for name in NAMES:
                if name not in taken and matches(c.name, name):
                    taken.add(name)
                    assignment[c.id] = name
                    break
    return min(7, len(taken)), assignment


def names_example():
    """An archive where greedy counting loses a name: clear SAM, KIM, KRIS, ALAN and the inks T?M, ?AM."""
    deck = _deck()
    out = []
    for name in ("SAM", "KIM", "KRIS", "ALAN"):
        out.append(next(c for c in deck if c.name == name))
    for ink in ("T?M", "?AM"):
        out.append(next(c for c in deck if c.name == ink))
    return out


def entropy_bits(dist) -> float:
    """Shannon entropy in bits of a {outcome: probability} dict (0 for a certainty)."""
    return float(sum(-float(p) * math.log2(float(p)) for p in dist.values() if p))


def place_entropy(kn, place: int) -> float:
    """How uncertain ``place`` is for the player of knowledge ``kn``, in bits."""
    return entropy_bits(kn.card_probabilities(place))


def _pick(deck, pred, used):
    card = next(c for c in deck if c.id not in used and pred(c))
    used.add(card.id)
    return card


@lru_cache(maxsize=8)
def _script(seed: int):
    from safari_kit.witness import WitnessGame
    from safari_kit.witness import actions as A

    deck = _deck()
    used: set = set()
    s1 = _pick(deck, lambda c: c.name == "SAM", used)  # place 1
    c1 = _pick(deck, lambda c: c.name in ("KIM", "KRIS", "ALAN"), used)  # turn 1 clue
    x = _pick(deck, lambda c: c.animal != c1.animal and c.name in ("KIM", "KRIS", "ALAN"), used)  # place 2
    t1 = _pick(deck, lambda c: c.name == "TOM", used)  # place 3
    y = _pick(deck, lambda c: c.name in ("KIM", "KRIS", "ALAN"), used)  # place 4
    s2 = _pick(deck, lambda c: c.name == "SAM", used)  # turn 2 clue
    t2 = _pick(deck, lambda c: c.name == "TOM", used)  # turn 3 clue
    order = [s1.id, x.id, t1.id, y.id, c1.id, s2.id, t2.id]
    game = WitnessGame(players=2, advanced=True, first_player=0)
    state = game.new_initial_state(seed=seed, deck_order=order)
    steps = {"start": state.clone()}
    # turn 1, Player 0: an animal identification at place 2 fails: X and the clue stay face up
    state.apply(A.Identify())
    state.apply(A.Declare(c1.id, ("animal",), 2))
    steps["after_fail"] = state.clone()  # phase face_up: everyone sees X and the clue (W4)
    state.apply(A.TurnFaceDown())
    # turn 2, Player 1: SAM clue, name identification with the SAM card at place 1 succeeds
    state.apply(A.Identify())
    state.apply(A.Declare(s2.id, ("name",), 1))
    state.apply(A.ArchiveCard(s1.id))  # the SAM clue goes on last, on top
    steps["before_sam"] = state.clone()
    fail_place = next(p for p in state.places if state.card_id(state.card_at[p]) == c1.id)
    state.apply(A.UseSam(2, fail_place))
    steps["after_sam"] = state.clone()
    # turn 3, Player 0: TOM clue, name identification with the TOM card at place 3; then TOM at place 4
    state.apply(A.Identify())
    state.apply(A.Declare(t2.id, ("name",), 3))
    state.apply(A.ArchiveCard(t1.id))  # the TOM clue goes on last, on top
    steps["before_tom"] = state.clone()
    state.apply(A.UseTom(4))
    steps["after_tom"] = state.clone()
    cards = {"X": x.id, "clue1": c1.id, "sam_place": fail_place}
    return game, steps, cards


def scripted_tom_sam(seed: int = 6):
    """(game, {step name: state}, {"X": id, "clue1": id, "sam_place": place}) of the scripted game.

    Steps: ``start``, ``after_fail`` (X seen at place 2, clue 1 face up at a new place),
    ``before_sam``/``after_sam`` (Player 1's SAM on place 2 and that place),
    ``before_tom``/``after_tom`` (Player 0's TOM on place 4).
    """
    game, steps, cards = _script(seed)
    return game, {k: v.clone() for k, v in steps.items()}, dict(cards)


def _knowledge(step: str, player: int, seed: int = 6):
    from safari_kit.probability.knowledge import Knowledge

    game, steps, _ = _script(seed)
    return Knowledge.from_observation(steps[step].observation(player), game=game)


def _p_x_still_at_2() -> Fraction:
    _, _, cards = _script(6)
    kn = _knowledge("after_sam", 0)
    x = kn.game.index[cards["X"]]
    return Fraction(kn.place_dist(2).get(x, 0))


def _p_colors_10() -> Fraction:
    from safari_kit.probability.cases import p_complete_set

    return p_complete_set("color", [], list(_deck()), 10).value


register(Exercise(
    "06.colors-10", _p_colors_10,
    hints=[Hint(lambda a: float(a) > 0.9,
                N_("Ten cards is only two of each color on average: missing one color is common.")),
           Hint(lambda a: float(a) < 0.3, N_("Too small: each color is on 15 of the 75 cards, so a given "
                                            "color is missed by 10 cards only about a tenth of the time.")),
           Hint(lambda a: abs(float(a) - float(_with_replacement(10))) < 0.005,
                N_("That treats each card as a fresh draw with a 1 in 5 chance for each color. But the 10 "
                  "cards are all different: no card is put back. Use the kit's exact count."))],
    tolerance=0.01,
    general_hint=N_("Add 10 to the list of numbers of cards in the first cell of section 1, (5, 8, 15, 20), "
                   "and run that cell again.")))

register(Exercise(
    "06.names", lambda: distinct_count(names_example()),
    hints=[Hint(lambda a: a == greedy_names(names_example())[0],
                N_("That is the greedy count. Could T?M take a different name so that ?AM gets one too?")),
           Hint(lambda a: a == 7, N_("Only names that the cards can actually show count.")),
           Hint(lambda a: a == _clear_names(), N_("That counts only the clear names. Each ink card can add "
                                                 "one name too, if a name it fits is still free.")),
           Hint(lambda a: a == _clear_names() + 2 * _inks(), N_("Each ink card counts as ONE name, not as "
                                                               "every name it could be."))],
    general_hint=N_("Each ink card adds one name it matches, and no name counts twice.")))

register(Exercise(
    "06.sam", _p_x_still_at_2,
    hints=[Hint(lambda a: a == 1, N_("SAM swaps the two cards with probability 1/2 and nobody learns whether "
                                    "it did.")),
           Hint(lambda a: a == 0, N_("SAM does not always swap: it is a coin flip nobody sees."))],
    general_hint=N_("Look at place 2 after SAM in the printout: 1 bit means a fair coin between two cards.")))


def _with_replacement(m: int) -> Fraction:
    """P(all 5 colors among m draws *with* replacement, each color 1/5): the common mistake (inclusion–exclusion)."""
    from math import comb

    return sum((-1) ** j * comb(5, j) * Fraction(5 - j, 5) ** m for j in range(6))


def _clear_names() -> int:
    return len({c.name for c in names_example() if "?" not in c.name})


def _inks() -> int:
    return sum(1 for c in names_example() if "?" in c.name)


def distinct_count(cards) -> int:
    from safari_kit.witness.cases import distinct_names

    return distinct_names(cards)[0]
