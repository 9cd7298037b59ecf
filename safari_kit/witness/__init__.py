"""Safari Witness rules: game, state, actions, observation, Case Cards (W1–W11)."""
from safari_kit.witness.actions import *  # noqa: F401,F403
from safari_kit.witness.actions import ACTION_TYPES
from safari_kit.witness.game import WitnessGame, WitnessOptions
from safari_kit.witness.observation import WitnessObservation
from safari_kit.witness.state import WitnessState


def load(record, cards=None) -> WitnessState:
    """Replay a saved Witness game record (dict, JSON text or path) to its state."""
    return WitnessGame.replay(record, cards=cards)


__all__ = ["WitnessGame", "WitnessOptions", "WitnessState", "WitnessObservation", "ACTION_TYPES", "load"]
