"""Case Card goals (W9): exact probabilities vs inclusion–exclusion, brute force and simulation."""
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from safari_kit.probability import cases as C
from safari_kit.probability.knowledge import Knowledge
from safari_kit.witness.cases import case_points, distinct_names
from safari_kit.witness.game import WitnessGame


@pytest.fixture(scope="module")
def game():
    return WitnessGame(players=3, case_module=True)


def _split(seed, n_archive, n_pool, total=75):
    rng = np.random.default_rng(seed)
    order = rng.permutation(total).tolist()
    return order[:n_archive], order[n_archive:n_archive + n_pool]


@pytest.mark.parametrize("kind", ["color", "animal", "texture"])
def test_set_matches_inclusion_exclusion_and_brute_force(game, kind):
    for seed in range(4):
        archive, pool = _split(seed, 3, 14)
        for m in (0, 3, 5, 7):
            exact = C.p_complete_set(kind, archive, pool, m, game=game)
            assert exact == C.p_complete_set_inclusion_exclusion(kind, archive, pool, m, game=game)
            cards = [game.cards[i] for i in archive]
            hits = sum(1 for draw in combinations(pool, m)
                       if case_points(f"set_{kind}s", cards + [game.cards[i] for i in draw])[0] >= 2)
            assert exact.value == Fraction(hits, len(list(combinations(pool, m))))


def test_two_sets_brute_force(game):
    archive, pool = _split(9, 5, 13)
    for m in (6, 8):
        exact = C.p_complete_set("color", archive, pool, m, sets=2, game=game)
        cards = [game.cards[i] for i in archive]
        draws = list(combinations(pool, m))
        hits = sum(1 for d in draws if case_points("set_colors", cards + [game.cards[i] for i in d])[0] == 5)
        assert exact.value == Fraction(hits, len(draws))


def test_names_brute_force_with_inks(game):
    inks = [i for i, c in enumerate(game.cards) if c.ink]
    for seed in range(3):
        archive, pool = _split(seed + 20, 2, 11)
        pool = sorted(set(pool) | set(inks[seed:seed + 3]) - set(archive))
        cards = [game.cards[i] for i in archive]
        for m, target in ((4, 5), (6, 5), (6, 6)):
            exact = C.p_names(archive, pool, m, target, game=game)
            draws = list(combinations(pool, m))
            hits = sum(1 for d in draws if distinct_names(cards + [game.cards[i] for i in d])[0] >= target)
            assert exact.value == Fraction(hits, len(draws))


def test_estimates_agree(game):
    archive, pool = _split(5, 4, 60)
    for kind in ("color", "animal"):
        exact = C.p_complete_set(kind, archive, pool, 6, game=game)
        assert C.mc_complete_set(kind, archive, pool, 6, n=20000, rng=1, game=game).within(exact)
    exact = C.p_complete_set("texture", archive, pool, 12, sets=2, game=game)
    assert C.mc_complete_set("texture", archive, pool, 12, sets=2, n=20000, rng=2, game=game).within(exact)
    exact = C.p_names(archive, pool, 5, 5, game=game)
    assert C.mc_names(archive, pool, 5, 5, n=3000, rng=3, game=game).within(exact)


def test_case_goal_for_the_player(game):
    st = game.new_initial_state(seed=8)
    obs = st.observation(0)
    kn = Knowledge.from_observation(obs, game=game)
    p = C.case_goal_probability(kn, "set_colors", 5)
    assert p.value == C.p_complete_set_inclusion_exclusion("color", [], sorted(kn.pool), 5, game=game).value
    assert C.case_goal_probability(kn, "names", 5).value > 0
    assert C.case_goal_probability(kn, "choose_name", 5) is None
    assert C.p_complete_set("color", [], sorted(kn.pool), 4, game=game).value == 0
