"""Card data: the two decks' values, name patterns, the CSV schema, validation and loading."""
from safari_kit.cards.load import Cards, default_cards_path, load_cards
from safari_kit.cards.model import Mugshot, SafariPal
from safari_kit.cards.validate import Problem, check_player_count
from safari_kit.core.errors import CardDataError

__all__ = ["Cards", "CardDataError", "Mugshot", "Problem", "SafariPal",
           "check_player_count", "default_cards_path", "load_cards"]
