"""W9: the 8 Case Cards scored on crafted archives (inks by maximum matching)."""
import itertools

import pytest

from safari_kit.cards.model import ANIMALS, COLORS, TEXTURES, Mugshot
from safari_kit.cards.names import NAMES, matches
from safari_kit.witness import WitnessGame
from safari_kit.witness.cases import CASE_CARDS, case_points, distinct_names

_n = itertools.count()


def M(name="TAM", animal="Owl", texture="Wood", color="Teal"):
    return Mugshot(f"M{next(_n)}", animal, texture, color, name)


def pts(case, cards):
    return case_points(case, cards)[0]


def test_w9_there_are_eight_case_cards():
    assert len(CASE_CARDS) == 8 and len({c.key for c in CASE_CARDS}) == 8
    with pytest.raises(ValueError, match="unknown case card"):
        case_points("nope", [])


@pytest.mark.parametrize("kind,values", [("texture", TEXTURES), ("color", COLORS), ("animal", ANIMALS)])
def test_w9_choose_one_element_scores_the_best_choice(kind, values):
    a, b = values[0], values[3]
    cards = [M(**{kind: a}) for _ in range(3)] + [M(**{kind: b}) for _ in range(5)]
    assert pts(f"choose_{kind}", cards) == 2  # best is b: 5 // 2
    assert pts(f"choose_{kind}", cards[:3]) == 1
    assert pts(f"choose_{kind}", cards[:1]) == 0
    assert pts(f"choose_{kind}", []) == 0


def test_w9_choose_one_name_counts_matching_inks():
    cards = [M("TAM"), M("T?M"), M("??M"), M("?AM"), M("TOM")]
    assert pts("choose_name", cards) == 2  # TAM: clear + 3 inks = 4
    assert pts("choose_name", cards[:3]) == 1  # TAM: 3 cards
    assert pts("choose_name", [M("AL??"), M("?L??"), M("ALAN")]) == 1  # ALAN: 3
    assert pts("choose_name", [M("AL??"), M("?L??"), M("ALAN"), M("ALEX")]) == 1  # ALAN or ALEX: 3
    assert pts("choose_name", [M("AL??"), M("?L??"), M("ALAN"), M("ALAN")]) == 2  # ALAN: 4
    assert pts("choose_name", [M("KRIS"), M("??M")]) == 0  # an ink counts only toward a name it matches


@pytest.mark.parametrize("kind,values", [("texture", TEXTURES), ("color", COLORS), ("animal", ANIMALS)])
def test_w9_sets_of_five_different(kind, values):
    case = f"set_{kind}s"
    one_set = [M(**{kind: v}) for v in values]
    assert pts(case, one_set) == 2
    assert pts(case, one_set[:4]) == 0
    assert pts(case, one_set + one_set[:4]) == 2  # second set incomplete
    two_sets = one_set + [M(**{kind: v}) for v in values]
    assert pts(case, two_sets) == 5  # two disjoint sets: 5 in total
    assert pts(case, two_sets + one_set) == 5  # never more than 5
    assert pts(case, [M(**{kind: values[0]}) for _ in range(10)]) == 0


CLEAR5 = ["TAM", "TOM", "SAM", "KIM", "KRIS"]


@pytest.mark.parametrize("names,count,points", [
    (CLEAR5[:4], 4, 0),
    (CLEAR5, 5, 2),
    (CLEAR5 + ["ALAN"], 6, 3),
    (list(NAMES), 7, 4),
    (CLEAR5 + ["TAM", "TOM"], 5, 2),                       # repeats count once
    (["TAM", "TOM", "SAM", "KIM", "??M"], 4, 0),           # ??M can only be a name already there
    (["TAM", "TOM", "SAM", "KRIS", "??M"], 5, 2),          # ??M as KIM
    (CLEAR5 + ["??M"], 5, 2),
    (CLEAR5 + ["?L??"], 6, 3),                             # the rulebook FAQ: 5 names + ink = 6
    (CLEAR5 + ["AL??", "?L??"], 7, 4),                     # two inks, two different names
    (["AL??", "?L??", "ALAN"], 2, 0),
    (list(NAMES) + ["??M", "T?M", "?AM", "AL??", "?L??"], 7, 4),  # never more than 7
    (["??M", "T?M", "?AM", "AL??", "?L??"], 5, 2),        # inks alone: TAM/TOM/SAM + ALAN/ALEX
])
def test_w9_different_names(names, count, points):
    cards = [M(n) for n in names]
    n, assignment = distinct_names(cards)
    assert n == count
    assert pts("names", cards) == points
    by_id = {c.id: c for c in cards}
    assert len(set(assignment.values())) == len(assignment)  # no name counted twice
    clear = {c.name for c in cards if "?" not in c.name}
    for cid, name in assignment.items():
        assert matches(by_id[cid].name, name) and name not in clear


def greedy(cards):
    """A greedy ink assignment (each ink takes its first free name), to show W9 is not greedy."""
    taken = {c.name for c in cards if "?" not in c.name}
    for c in cards:
        if "?" in c.name:
            for n in NAMES:
                if n not in taken and matches(c.name, n):
                    taken.add(n)
                    break
    return len(taken)


def test_w9_inks_use_a_maximum_matching_not_a_greedy_guess():
    # clear TOM, KRIS, ALAN, ALEX; inks ??M, ?AM, T?M. Greedy: ??M->TAM, ?AM->SAM, T?M->nothing = 6.
    # Matching: ??M->KIM, ?AM->SAM, T?M->TAM = 7 names.
    cards = [M(n) for n in ("TOM", "KRIS", "ALAN", "ALEX", "??M", "?AM", "T?M")]
    assert greedy(cards) == 6
    n, assignment = distinct_names(cards)
    assert n == 7 and pts("names", cards) == 4
    assert sorted(assignment.values()) == ["KIM", "SAM", "TAM"]
    # the order of the cards does not matter
    for perm in itertools.permutations(cards):
        assert distinct_names(perm)[0] == 7


def test_w9_case_points_enter_the_scores_with_real_cards():
    game = WitnessGame(players=2, case_module=True)
    state = game.new_initial_state(seed=11)
    assert state.case_cards is not None and len(state.case_cards) == 2
    assert len(set(state.case_cards)) == 2  # dealt without replacement
    state.case_cards = ("set_animals", "choose_color")
    teal = [c for c in game.cards if c.color == "Teal"]
    animals = [next(c for c in game.cards if c.animal == a) for a in ANIMALS]
    state.archives = [[game.index[c.id] for c in animals], [game.index[c.id] for c in teal[:5]]]
    assert state.case_scores() == [2, 2]
    assert state.scores() == [7, 7]
    # observation: only one's own case card during play
    assert state.observation(0).case_card == "set_animals" and state.observation(0).case_cards is None
    assert "choose_color" not in str(state.observation(0).to_dict())


def test_w9_case_cards_are_dealt_from_the_seed():
    deals = {WitnessGame(players=7, case_module=True).new_initial_state(seed=s).case_cards for s in range(10)}
    assert len(deals) > 1
    assert all(len(set(d)) == 7 for d in deals)
    s1 = WitnessGame(players=3, case_module=True).new_initial_state(seed=5).case_cards
    assert s1 == WitnessGame(players=3, case_module=True).new_initial_state(seed=5).case_cards
