"""W11: player counts, seat order, the starting player."""
import pytest

from safari_kit.witness import WitnessGame

from .helpers import fail_turn, custom_deck


@pytest.mark.parametrize("n", range(2, 8))
def test_w11_two_to_seven_players(n):
    state = WitnessGame(players=n).new_initial_state(seed=1)
    assert state.players == n and len(state.archives) == n
    assert 0 <= state.current_player < n


@pytest.mark.parametrize("bad", [0, 1, 8, -3, "3", 3.0, True, None])
def test_w11_bad_player_counts_raise(bad):
    with pytest.raises(ValueError, match="players"):
        WitnessGame(players=bad)


@pytest.mark.parametrize("bad", [-1, 3, "0", 1.0])
def test_w11_bad_first_player_raises(bad):
    with pytest.raises(ValueError, match="first_player"):
        WitnessGame(players=3, first_player=bad)


def test_w11_turns_go_clockwise_from_the_first_player():
    state = WitnessGame(players=5, first_player=3, cards=custom_deck(20)).new_initial_state(seed=2)
    seats = []
    for _ in range(7):
        seats.append(state.current_player)
        fail_turn(state)
    assert seats == [3, 4, 0, 1, 2, 3, 4]


def test_w11_first_player_comes_from_the_seed_when_not_given():
    firsts = {}
    for seed in range(40):
        s = WitnessGame(players=4).new_initial_state(seed=seed)
        assert s.first_player == s.current_player
        assert WitnessGame(players=4).new_initial_state(seed=seed).first_player == s.first_player
        firsts[seed] = s.first_player
    assert set(firsts.values()) == {0, 1, 2, 3}
    assert WitnessGame(players=4, first_player=2).new_initial_state(seed=0).first_player == 2


def test_w11_deck_order_is_validated():
    game = WitnessGame(players=2)
    with pytest.raises(ValueError, match="unknown card id"):
        game.new_initial_state(seed=0, deck_order=["W01", "ZZZ"])
    with pytest.raises(ValueError, match="twice"):
        game.new_initial_state(seed=0, deck_order=["W01", "W01"])
    with pytest.raises(ValueError):
        WitnessGame(players=2, cards=custom_deck(7))
