"""Lección 06 · Casos y habilidades: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

FACTS = (
    T("06", "work out the chance of collecting a set of {} different colors",
      "calcular la probabilidad de reunir una serie de {} colores distintos"),
    T("06", 'The Case Card "set of colors" gives {} points for a Mugshot of each of the {} colors in your archive',
      'La Carta de caso "serie de colores" da {} puntos por un Mugshot de cada uno de los {} colores de tu archivo'),
    T("06", "What is the chance they show all {} colors? Each color is on {} of the {} cards",
      "¿Qué probabilidad hay de que salgan los {} colores? Cada color está en {} de las {} cartas"),
    T("06", "With exactly {} cards you need one of each color",
      "Con exactamente {} cartas necesitas una de cada color"),
    T("06", "But even {} cards miss a color quite often",
      "Pero incluso con {} cartas falta un color bastante a menudo"),
    T("06", "Add {} to that list and run the cell again", "Añade {} a esa lista y vuelve a ejecutar la celda"),
    T("06", "instead of adding {} to the list", "en vez de añadir {} a la lista"),
    T("06", "What is P({} random Mugshots show all {} colors)?",
      "¿Cuánto vale P({} Mugshots al azar enseñan los {} colores)?"),
    T("06", 'The "names" Case Card gives {}/{}/{} points for {}/{}/{} different names',
      'La Carta de caso "nombres" da {}/{}/{} puntos por {}/{}/{} nombres distintos'),
    T("06", "We play a short scripted game in Advanced Mode, with {} players: - Turn {}: Player {} fails an "
            "identification. So everybody sees a card X at place {}, and the clue card at a new place. - Turn {}: "
            "Player {} wins with a SAM name. With SAM, they shuffle those two known places: the two cards swap "
            "places, or not, like a coin flip nobody sees. - Turn {}: Player {} wins with a TOM name. With TOM, "
            "they look at place {} in secret",
      "Jugamos una partida corta con guion en Modo avanzado, con {} jugadores: - Turno {}: el jugador {} falla una "
      "identificación. Así todos ven una carta X en el lugar {}, y la carta pista en un lugar nuevo. - Turno {}: el "
      "jugador {} gana con un nombre SAM. Con SAM, baraja esos dos lugares conocidos: las dos cartas cambian de "
      "lugar, o no, como una moneda al aire que nadie ve. - Turno {}: el jugador {} gana con un nombre TOM. Con TOM, "
      "mira el lugar {} en secreto"),
    T("06", "{} bits = I know the card. - {} bit = a fair coin between two cards",
      "{} bits = sé cuál es la carta. - {} bit = una moneda justa entre dos cartas"),
    T("06", "(about {} for {} cards)", "(unos {} para {} cartas)"),
    T("06", "are uncertain again: {} bit of uncertainty each",
      "vuelven a ser inciertos: {} bit de incertidumbre cada uno"),
    T("06", "After TOM, place {} drops from about {} bits to {} for Player {} only: Player {} still knows nothing",
      "Después de TOM, el lugar {} baja de unos {} bits a {} solo para el jugador {}: el jugador {} sigue sin saber "
      "nada"),
    T("06", "what is the probability that place {} still holds X?",
      "qué probabilidad hay de que el lugar {} siga teniendo X?"),
    T("06", "P({} colors in {} cards)", "P({} colores en {} cartas)"),
    T("06", '("{} is double {}")', '("{} es el doble de {}")'),
    T("06", "Counting names greedily ({} instead of {} in the example)",
      "Contar los nombres con el método codicioso ({} en vez de {} en el ejemplo)"),
    T("06", "SAM swaps only with probability {}", "SAM solo intercambia con probabilidad {}"),
)

GIVEN: tuple[Given, ...] = (
    Given("06", "Eres el jugador 0 contra dos bots codiciosos", "the lab's learner seat (humans=(0,) in the cell)"),
    Given("06", "pulsa también los botones Jugador 1 y Jugador 2 al lado de Alumnos",
          "the lab's two bot seats (players=3, humans=(0,) in the cell): the Learners toggles are named Jugador 0, "
          "Jugador 1, … (FullGameLab._draw_learner_picker)"),
    Given("06", "cerca de 1", "a wrong answer: taking ten cards for a near certainty"),
    Given("06", '"SAM intercambia las cartas", así que P(X sigue en el lugar 2) = 0',
          "a wrong answer: believing that SAM always swaps (place 2: the exercise's place, tied above)"),
)
