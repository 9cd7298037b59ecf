"""The bot players at the other seats of a lab's game: each sees only its own observation.

Labs (and the rules tutorial's tests) use :class:`BotSeats` to let the bots play
until the learner's turn, pausing after a failed turn so the learner can see
the cards lying face up (W4/W5).
"""
from __future__ import annotations

from safari_kit.core.chance import Chance
from safari_kit.simulation.registry import make_bot
from safari_kit.witness.rules import Phase

MAX_BOT_ACTIONS = 20_000


class BotSeats:
    """The other seats, played by bots from :mod:`safari_kit.simulation.registry` (spec like ``"greedy"``)."""

    def __init__(self, game, learner: int, spec: str, seed: int):
        self.learner = learner
        self.bots = {}
        for p in range(game.players):
            if p != learner:
                bot = make_bot("witness", spec)
                bot.start(game, p, Chance(seed).generator("seat", p))
                self.bots[p] = bot

    def play_one(self, state) -> None:
        p = state.current_player
        bot = self.bots[p]
        obs = state.observation(p) if getattr(bot, "needs_observation", True) else None
        state.apply(bot.choose(obs, state.legal_sequence()))

    def play_until_learner(self, state, stop=None, show_failures: bool = True) -> int:
        """Let the bots act until it is the learner's turn (or the game ends); returns how many actions.

        With ``show_failures`` the bots also pause right after one of them fails
        (phase ``face_up``, W4/W5): the revealed cards lie face up on the
        learner's table until the next call, whose first action turns them down.
        """
        n = 0
        while not state.is_terminal() and state.current_player != self.learner:
            if stop is not None and stop(state):
                break
            if show_failures and n > 0 and state.phase == Phase.FACE_UP:
                break
            self.play_one(state)
            n += 1
            if n > MAX_BOT_ACTIONS:  # pragma: no cover - a bot that never ends its turn
                raise RuntimeError("the bots did not hand the turn back")
        return n
