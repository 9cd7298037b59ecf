"""Lesson 06 · Cases and abilities: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Callable

from .common import _deck, _n_witness, _per_element
from .core import Fact, Given


def _case_points(case: str, cards) -> int:
    from safari_kit.witness.cases import case_points

    return case_points(case, cards)[0]


@lru_cache(maxsize=None)
def _k06() -> dict:
    """Lesson 06's numbers: the Case Cards' scores (case_points on archives built from the deck), the set
    chances (probability.cases), the names example and the scripted TOM/SAM game (lesson_06)."""
    from safari_kit.cards.names import is_ink
    from safari_kit.probability.cases import p_complete_set
    from safari_kit.teaching import lesson_06 as L
    from safari_kit.witness.cases import distinct_names

    deck = list(_deck().witness())
    colors = sorted({c.color for c in deck})
    one_each = [next(c for c in deck if c.color == col) for col in colors]
    set_points = _case_points("set_colors", one_each)
    assert _case_points("set_colors", one_each[:-1]) == 0
    # names: the fewest different names that score, and the points for each count up to all of them
    by_name: dict = {}
    for c in deck:
        if not is_ink(c.name):
            by_name.setdefault(c.name, c)
    clear = list(by_name.values())
    scores = {n: _case_points("names", clear[:n]) for n in range(1, len(clear) + 1)}
    scoring = [n for n, pts in scores.items() if pts]
    m = 10
    p_m = p_complete_set("color", [], deck, m).value
    assert p_m == L._p_colors_10() and 1 - p_m > Fraction(1, 4)  # "miss a color quite often"
    p_few = p_complete_set("color", [], deck, len(colors)).value
    assert p_few < Fraction(1, 20)  # "that is rare"
    # the scripted game
    game, steps, cards = L._script(6)
    log = [e for e, _, _ in steps["after_tom"].log]
    fail = next(e for e in log if e["kind"] == "fail")
    failed = next(e for e in log if e["kind"] == "identify" and not e["success"])
    sam = next(e for e in log if e["kind"] == "sam")
    sam_turn = next(e for e in log if e["kind"] == "identify" and e["turn"] == sam["turn"])
    tom = next(e for e in log if e["kind"] == "tom")
    tom_turn = next(e for e in log if e["kind"] == "identify" and e["turn"] == tom["turn"])
    x_place = failed["place"]
    assert failed["card"] == cards["X"] and x_place in sam["places"] and len(fail["face_up"]) == 2
    (other,) = set(range(game.players)) - {tom["player"]}
    before = L._knowledge("before_tom", tom["player"])
    candidates = sum(1 for q in before.card_probabilities(tom["place"]).values() if q)
    after_sam = L.place_entropy(L._knowledge("after_sam", sam["player"]), x_place)
    assert after_sam == L.place_entropy(L._knowledge("after_sam", fail["player"]), x_place)
    assert L.place_entropy(L._knowledge("after_tom", other), tom["place"]) > 6 - 0.5
    p_still = L._p_x_still_at_2()
    greedy = L.greedy_names(L.names_example())[0]
    return {
        "colors": len(colors), "set_points": set_points, "m": m, "names_points": [scores[n] for n in scoring],
        "names_counts": scoring, "players": game.players, "fail_turn": failed["turn"], "fail_player": failed["player"],
        "x_place": x_place, "sam_turn": sam_turn["turn"], "sam_player": sam["player"], "tom_turn": tom_turn["turn"],
        "tom_player": tom["player"], "tom_place": tom["place"], "other": other,
        "sure": L.entropy_bits({0: Fraction(1)}), "coin": L.entropy_bits({0: Fraction(1, 2), 1: Fraction(1, 2)}),
        "bits_before": round(L.place_entropy(before, tom["place"])), "candidates": round(candidates, -1),
        "after_sam": after_sam, "after_tom": L.place_entropy(L._knowledge("after_tom", tom["player"]), tom["place"]),
        "p_still": p_still, "greedy": greedy, "best": distinct_names(L.names_example())[0],
    }


def _f6(*keys: str) -> Callable[[], tuple]:
    return lambda: tuple(_k06()[key] for key in keys)


def _g(x: float) -> str:
    return f"{x:g}"



FACTS: tuple[Fact, ...] = (
    Fact("06", "work out the chance of collecting a set of {} different colors", _f6("colors")),
    Fact("06", 'The Case Card "set of colors" gives {} points for a Mugshot of each of the {} colors in your archive',
         _f6("set_points", "colors")),
    Fact("06", "What is the chance they show all {} colors? Each color is on {} of the {} cards",
         lambda: (_k06()["colors"], _per_element(), _n_witness())),
    Fact("06", "With exactly {} cards you need one of each color", _f6("colors")),
    Fact("06", "But even {} cards miss a color quite often", _f6("m")),
    Fact("06", "Add {} to that list and run the cell again", _f6("m")),
    Fact("06", "instead of adding {} to the list", _f6("m")),
    Fact("06", "What is P({} random Mugshots show all {} colors)?", _f6("m", "colors")),
    Fact("06", 'The "names" Case Card gives {}/{}/{} points for {}/{}/{} different names',
         lambda: (*_k06()["names_points"], *_k06()["names_counts"])),
    Fact("06", "We play a short scripted game in Advanced Mode, with {} players: - Turn {}: Player {} fails an "
               "identification. So everybody sees a card X at place {}, and the clue card at a new place. - Turn {}: "
               "Player {} wins with a SAM name. With SAM, they shuffle those two known places: the two cards swap "
               "places, or not, like a coin flip nobody sees. - Turn {}: Player {} wins with a TOM name. With TOM, "
               "they look at place {} in secret",
         _f6("players", "fail_turn", "fail_player", "x_place", "sam_turn", "sam_player", "tom_turn", "tom_player",
             "tom_place")),
    Fact("06", "{} bits = I know the card. - {} bit = a fair coin between two cards",
         lambda: (_g(_k06()["sure"]), _g(_k06()["coin"]))),
    Fact("06", "(about {} for {} cards)", _f6("bits_before", "candidates")),
    Fact("06", "are uncertain again: {} bit of uncertainty each", lambda: (_g(_k06()["after_sam"]),)),
    Fact("06", "After TOM, place {} drops from about {} bits to {} for Player {} only: Player {} still knows nothing",
         lambda: (_k06()["tom_place"], _k06()["bits_before"], _g(_k06()["after_tom"]), _k06()["tom_player"],
                  _k06()["other"])),
    Fact("06", "what is the probability that place {} still holds X?", _f6("x_place")),
    Fact("06", "P({} colors in {} cards)", _f6("colors", "m")),
    Fact("06", '("{} is double {}")', lambda: (_k06()["m"], _k06()["m"] // 2) if _k06()["m"] % 2 == 0 else ()),
    Fact("06", "Counting names greedily ({} instead of {} in the example)", _f6("greedy", "best")),
    Fact("06", "SAM swaps only with probability {}", lambda: (1 - _k06()["p_still"],)),
)

GIVEN: tuple[Given, ...] = (
    Given("06", "You are Player 0 against two greedy bots", "the lab's learner seat (humans=(0,) in the cell)"),
    Given("06", "press the Player 1 and Player 2 toggles beside Learners",
          "the lab's two bot seats (players=3, humans=(0,) in the cell): the Learners toggles are named Player 0, "
          "Player 1, … (FullGameLab._draw_learner_picker)"),
    Given("06", "close to 1", "a wrong answer: taking ten cards for a near certainty"),
    Given("06", '"SAM swaps the cards", so P(X still at place 2) = 0',
          "a wrong answer: believing that SAM always swaps (place 2: the exercise's place, tied above)"),
)
