"""Play whole games between bots: the one loop every tournament and benchmark uses."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from safari_kit.core.chance import Chance


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a tournament keeps of one game."""

    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int  # decisions taken in the game
    turns: int  # game turns (Witness turns, or Knockout turns played)


def play_game(game, bots: Sequence, seed: int, *, keep_state: bool = False):
    """Play one game from ``seed``; seat ``i`` is ``bots[i]``.

    The bots share one generator derived from the seed (the order of their
    draws is fixed by the game itself), so a game is a pure function of (game
    options, bots, seed), whatever process runs it; one generator per game
    instead of one per bot keeps a game's set-up cheap.
    Returns a :class:`GameResult` (and the final state when ``keep_state``).
    """
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for a {game.players}-player game")
    rng = Chance(seed).generator("bots")
    for seat, bot in enumerate(bots):
        bot.start(game, seat, rng)
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        bot = bots[seat]
        legal = state.legal_sequence() if hasattr(state, "legal_sequence") else state.legal_actions()
        obs = state.observation(seat) if bot.needs_observation else None
        state.apply(bot.choose(obs, legal))
        steps += 1
    result = GameResult(seed, tuple(state.returns()), tuple(state.winners()), steps, _turns(state))
    return (result, state) if keep_state else result


def _turns(state) -> int:
    """Whole-game turn count: Knockout's ``turns_played``; Witness's ``turn``."""
    played = getattr(state, "turns_played", None)
    return int(played if played is not None else state.turn)
