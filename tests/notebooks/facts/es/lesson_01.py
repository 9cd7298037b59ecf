"""Lección 01 · Conoce las cartas: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

FACTS = (
    T("01", "Safari Witness uses {} Mugshots", "Safari Witness usa {} Mugshots"),
    T("01", "Safari Knockout uses {} Safari Pals", "Safari Knockout usa {} Safari Pals"),
    T("01", "Shuffle the {} Mugshots and draw one", "Baraja los {} Mugshots y saca uno"),
    T("01", "How many of the {} Mugshots could carry the name TAM?",
      "¿Cuántos de los {} Mugshots podrían llevar el nombre TAM?"),
    T("01", "a balanced design: {} of each element, the same number in every pair cell",
      "un diseño equilibrado: {} de cada elemento, el mismo número en cada casilla de pares"),
    T("01", 'P(Owl) = {} (dividing by the Owls instead of the deck) or "{} because {} animals"',
      'P(búho) = {} (dividir entre los búhos en vez de entre el mazo) o "{} porque hay {} animales"'),
    T("01", "P(Owl and Pink) = {} + {} (adding for AND), or {}/{} (dividing by the Owls",
      "P(búho y rosa) = {} + {} (sumar para un Y), o {}/{} (dividir entre los búhos"),
    T("01", "TAM count {}: forgetting the ink cards; {} or {}: missing two or one of the {} ink patterns that "
            "could read TAM (??M, T?M, ?AM; {} + {} = {})",
      "Cuenta de TAM {}: olvidar las cartas con tinta; {} o {}: dejarse dos o uno de los {} patrones de tinta que "
      "pueden leerse TAM (??M, T?M, ?AM; {} + {} = {})"),
)

GIVEN: tuple[Given, ...] = (
    Given("01", "(1, 10, 100, 1000 kg)", "powers of ten, the meaning of a log scale"),
    Given("01", "un número de −1 a 1", "the range of a correlation, by definition"),
    Given("01", "Cerca de 1: cuando uno sube, el otro también sube. Cerca de 0: no hay relación en línea recta",
          "what a correlation's values mean, by definition"),
    Given("01", "lo responde: (1000) = 3, porque 1000 es diez por diez por diez", "log10(1000) = 3, arithmetic"),
    Given("01", "(o con puestos: 1.º, 2.º, 3.º …)", "the names of ranks"),
)
