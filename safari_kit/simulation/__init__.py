"""Bots, whole-game simulation, tournaments and batch simulators."""
from safari_kit.simulation.bots import Bot, RandomBot
from safari_kit.simulation.play import GameResult, play_game

__all__ = ["Bot", "RandomBot", "GameResult", "play_game"]
