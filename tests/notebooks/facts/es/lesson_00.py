"""Lección 00 · Empieza aquí: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

FACTS = (
    T("00", 'a memory and deduction game with {} "Mugshot" cards',
      'un juego de memoria y deducción con {} cartas "Mugshot"'),
    T("00", "After {} safe ones you may stop", "Tras {} seguras puedes parar"),
    T("00", "someone has {} Mugshots or the deck runs out", "alguien tiene {} Mugshots o se acaba el mazo"),
    T("00", "There are {} rounds. Round 1 deals {} cards to each player, round 2 deals {}, and so on",
      "Hay {} rondas. En la ronda 1 se reparten {} cartas a cada jugador, en la ronda 2 se reparten {}, "
      "y así sucesivamente"),
    T("00", "most points after {} rounds wins", "más puntos al final de las {} rondas"),
)

GIVEN: tuple[Given, ...] = (
)
