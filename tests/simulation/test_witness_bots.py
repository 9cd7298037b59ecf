"""Witness bots: legal actions only, observation only, finished games, greedy beats random."""
import pytest

from safari_kit.simulation.bots import Bot, RandomBot
from safari_kit.simulation.play import play_game
from safari_kit.simulation.witness_bots import GreedyWitnessBot, MemoryWitnessBot
from safari_kit.witness.game import WitnessGame
from safari_kit.witness.observation import WitnessObservation


class _Checked:
    """Wraps a bot: checks it gets an observation (never the state) and returns a legal action."""

    def __init__(self, bot):
        self.bot, self.name, self.needs_observation, self.calls = bot, bot.name, True, 0

    def start(self, game, player, rng):
        self.bot.start(game, player, rng)

    def choose(self, observation, legal):
        assert isinstance(observation, WitnessObservation)
        action = self.bot.choose(observation, list(legal))
        assert action in legal
        self.calls += 1
        return action


@pytest.mark.parametrize("advanced", [False, True])
def test_bots_play_legal_and_finish(advanced):
    game = WitnessGame(players=3, advanced=advanced, case_module=True)
    for seed in range(6):
        bots = [_Checked(GreedyWitnessBot()), _Checked(MemoryWitnessBot(remember_prob=0.4)),
                _Checked(MemoryWitnessBot(last_k=2))]
        result, state = play_game(game, bots, seed, keep_state=True)
        assert state.is_terminal() and result.winners
        assert all(b.calls > 0 for b in bots)
        assert all(b.bot.fallbacks == 0 for b in bots)


def test_protocol_and_no_state_access():
    bot = GreedyWitnessBot()
    assert isinstance(bot, Bot) and bot.needs_observation
    with pytest.raises(ValueError):
        bot.choose(None, [])


def test_memory_bot_is_deterministic():
    game = WitnessGame(players=2)
    a = play_game(game, [MemoryWitnessBot(remember_prob=0.5), GreedyWitnessBot()], 5)
    b = play_game(game, [MemoryWitnessBot(remember_prob=0.5), GreedyWitnessBot()], 5)
    assert a == b


def test_greedy_beats_random_in_win_rate():
    game = WitnessGame(players=3)
    n, wins = 200, 0
    for seed in range(n):
        seat = seed % 3
        bots = [RandomBot(), RandomBot(), RandomBot()]
        bots[seat] = GreedyWitnessBot()
        result = play_game(game, bots, seed)
        wins += seat in result.winners
    # a random seat wins about 1/3; require a clear margin (this can fail)
    assert wins / n > 0.6, wins / n
