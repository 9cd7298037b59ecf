"""Safari Knockout (rulings K1–K5): the rules engine.

>>> from safari_kit.knockout import KnockoutGame, Play
>>> game = KnockoutGame(players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.apply(state.legal_actions()[0])
>>> state.current_player
1
"""
from safari_kit.cards.model import DATA_ITEMS
from safari_kit.knockout.actions import Play
from safari_kit.knockout.game import KnockoutGame, KnockoutOptions, load
from safari_kit.knockout.rules import ROUNDS, Phase, cards_per_player
from safari_kit.knockout.observation import KnockoutObservation
from safari_kit.knockout.state import KnockoutState

__all__ = ["DATA_ITEMS", "KnockoutGame", "KnockoutObservation", "KnockoutOptions", "KnockoutState", "Phase", "Play",
           "ROUNDS", "cards_per_player", "load"]
