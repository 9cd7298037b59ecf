"""Lección 07 · Tutorial de reglas: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

FACTS = (
    T("07", "The deck is small: {} cards, always in the same order",
      "El mazo es pequeño: {} cartas, siempre en el mismo orden"),
    T("07", "You knew four more because everybody saw them when Player {} failed",
      "Otras cuatro las conocías porque todos las vieron cuando falló el jugador {}"),
    T("07", "in this {}-card deck it could only be one card", "en este mazo de {} cartas solo podía ser una carta"),
    T("07", "In a full {}-card deck it would have been the real gamble",
      "En un mazo completo de {} cartas habría sido la verdadera apuesta"),
    T("07", "(round r deals {} − r cards)", "(la ronda r reparte {} − r cartas)"),
    T("07", "how many cards does each player get in round {}?", "¿cuántas cartas recibe cada jugador en la ronda {}?"),
    T("07", "Answer with the player's number: {}, {} or {}.", "Responde con el número del jugador: {}, {} o {}."),
    T("07", "Player {} failed an identification with two clue cards",
      "El jugador {} falló una identificación con dos cartas pista"),
    T("07", "round r has only {} − r turns", "la ronda r solo tiene {} − r turnos"),
    T("07", "round {} deals {} cards (confusing the round number with the hand size) or {}",
      "la ronda {} reparte {} cartas (confundir el número de la ronda con el tamaño de la mano) o {}"),
    T("07", "{} safe reveals (counting the challenged card)", "{} revelaciones seguras (contar la carta desafiada)"),
    T("07", "{} new places after the failure (the identified cards keep their own places)",
      "{} lugares nuevos después del fallo (las cartas identificadas conservan sus lugares)"),
    T("07", "discuss what Player {} does not know (the TOM look)",
      "comentad lo que el jugador {} no sabe (la mirada de TOM)"),
)

GIVEN: tuple[Given, ...] = (
)
