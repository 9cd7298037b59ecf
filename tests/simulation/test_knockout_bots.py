"""Knockout bots: legal actions only, games finish, greedy beats random (a test that can fail)."""
from __future__ import annotations

import numpy as np
import pytest

from safari_kit.knockout import KnockoutGame
from safari_kit.probability.knockout import best_play, p_win_following, p_win_leading, view_of
from safari_kit.simulation import RandomBot, play_game
from safari_kit.simulation.knockout_bots import GreedyKnockoutBot, HighCardBot


class Checked:
    """Wraps a bot: every choice must be one of the legal actions; the observation is the seat's own."""

    def __init__(self, bot):
        self.bot, self.name, self.needs_observation = bot, bot.name, True
        self.choices = 0

    def start(self, game, player, rng):
        self.player = player
        self.bot.start(game, player, rng)

    def choose(self, observation, legal):
        assert observation.player == self.player and observation.my_turn
        action = self.bot.choose(observation if self.bot.needs_observation else None, legal)
        assert action in legal
        self.choices += 1
        return action


@pytest.mark.parametrize("elimination", [False, True])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_bots_play_only_legal_actions_and_games_finish(players, elimination):
    game = KnockoutGame(players=players, elimination=elimination)
    makers = [GreedyKnockoutBot, lambda: HighCardBot("random"), lambda: HighCardBot("best"), RandomBot]
    for seed in range(3):
        bots = [Checked(makers[(i + seed) % len(makers)]()) for i in range(players)]
        result, state = play_game(game, bots, seed, keep_state=True)
        assert state.is_terminal()
        assert sum(b.choices for b in bots) == result.actions


def test_greedy_plays_the_best_exact_option():
    game = KnockoutGame(players=4)
    bot = GreedyKnockoutBot()
    bot.start(game, 0, np.random.default_rng(0))
    state = game.new_initial_state(4)
    for _ in range(30):
        obs = state.observation(state.current_player)
        bot.player = state.current_player
        action = bot.choose(obs, state.legal_actions())
        best = best_play(game, obs)
        view = view_of(obs)
        p = (p_win_leading(game, view, action.card, action.item) if view.leading
             else p_win_following(game, view, action.card))
        assert p == best.p and p.value == max(o.p.value for o in best.table)
        state.apply(action)


def test_greedy_beats_random_in_four_player_games():
    game = KnockoutGame(players=4)
    greedy_wins = random_wins = 0
    n = 200
    for seed in range(n):
        seat = seed % 4                          # greedy sits in every seat in turn
        bots = [RandomBot() for _ in range(4)]
        bots[seat] = GreedyKnockoutBot()
        result = play_game(game, bots, seed)
        greedy_wins += seat in result.winners
        random_wins += sum(s in result.winners for s in range(4) if s != seat) / 3
    # a random seat wins (ties shared) about 28% of games; greedy far more
    assert greedy_wins / n > random_wins / n + 0.2, (greedy_wins, random_wins)
