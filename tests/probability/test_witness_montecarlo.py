"""Every exact Witness answer agrees with its Monte Carlo twin within 4 standard errors,
on positions reached by random play of the real engine (several memories)."""
import numpy as np
import pytest

from safari_kit.probability import witness as W
from safari_kit.probability.knowledge import KnowledgeTracker, Memory
from safari_kit.witness.game import WitnessGame

MEMORIES = (Memory(), Memory(remember_prob=0.5, seed=3), Memory(last_k=3))


def _positions(n_games=20, per_game=3, phases=("choose",)):
    game = WitnessGame(players=3, advanced=True)
    out = []
    for seed in range(n_games):
        st = game.new_initial_state(seed=100 + seed)
        rng = np.random.default_rng(seed)
        tracker = KnowledgeTracker(game, 0)
        taken, step = 0, 0
        while not st.is_terminal() and taken < per_game:
            if st.phase in phases and step > 20 * (taken + 1):
                obs = st.observation(st.current)
                out.append(tracker.knowledge(obs, MEMORIES[len(out) % len(MEMORIES)]))
                taken += 1
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
            step += 1
    return out


@pytest.fixture(scope="module")
def positions():
    pos = _positions(per_game=5)  # enough turns that some SAM shuffles have mixed places
    assert len(pos) >= 40
    assert any(kn.known for kn in pos) and any(kn.mixed for kn in pos)
    return pos


def test_identification_estimates(positions):
    for i, kn in enumerate(positions):
        clue = kn.clue[0]
        for place in kn.available[:3]:
            types = W.ALEX_TYPES[(i + place) % len(W.ALEX_TYPES)]
            exact = W.p_match(kn, clue, place, types)
            est = W.mc_p_match(kn, clue, place, types, n=4000, rng=i * 31 + place)
            assert est.within(exact), (kn, place, types, exact, est)


def test_two_clue_estimates(positions):
    for i, kn in enumerate(positions[:8]):
        exact = W.reveal_another_value(kn)
        est = W.mc_two_clues(kn, n=3000, rng=i)
        assert est.within(exact), (kn, exact, est)


def test_challenge_estimates(positions):
    for i, kn in enumerate(positions):
        for k in (1, 2, 4):
            exact = W.p_streak(kn, k)
            assert W.mc_p_streak(kn, k, n=4000, rng=i * 7 + k).within(exact)
        exact = W.challenge_value(kn)
        est = W.mc_challenge_value(kn, n=4000, rng=i)
        assert est.within(exact), (kn, exact, est)


def test_mid_challenge_positions():
    pos = _positions(n_games=12, per_game=1, phases=("challenge",))
    assert pos
    for i, kn in enumerate(pos):
        exact = W.challenge_value(kn)
        assert W.mc_challenge_value(kn, n=4000, rng=i).within(exact)
        stop, cont = W.stop_vs_continue(kn)
        assert stop is not None or cont is not None


def test_sample_worlds_respects_knowledge(positions):
    for kn in positions[:6]:
        places, deck = W.sample_worlds(kn, 500, rng=1)
        for p, c in kn.known.items():
            assert (places[p] == c).all()
        for p in kn.unknown_places:
            assert set(places[p].tolist()) <= set(kn.pool)
        cards = np.stack([places[p] for p in kn.face_down] + [deck[:, i] for i in range(deck.shape[1])], axis=1)
        for row in cards[:50]:
            assert len(set(row.tolist())) == len(row)  # no card in two spots
