"""Lección 03 · El desafío: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

FACTS = (
    T("03", "After {} safe reveals you may stop and archive the challenged card",
      "Tras {} revelaciones seguras puedes parar y archivar la carta desafiada"),
    T("03", "work out the chance of {} safe cards in a row", "calcular la probabilidad de {} cartas seguras seguidas"),
    T("03", "For example, P({} safe) is the chance that {} reveals in a row are safe",
      "Por ejemplo, P({} seguras) es la probabilidad de que {} revelaciones seguidas sean seguras"),
    T("03", "Out of the other cards, {} cards share the animal, {} the texture, {} the color",
      "De las otras cartas, {} cartas comparten el animal, {} la textura y {} el color"),
    T("03", "adding {} + {} + {} counts them twice", "sumar {} + {} + {} las cuenta dos veces"),
    T("03", "How many of the other {} cards share an element", "¿Cuántas de las otras {} cartas comparten un elemento"),
    T("03", "How many of the other {} cards are safe?", "¿Cuántas de las otras {} cartas son seguras?"),
    T("03", "the number of unknown cards N = {}. The first reveal is safe with chance S/{}. That card is then "
            "gone, so the second is safe with chance (S−{})/{}, and so on. Multiply the four chances: that "
            "gives P({} safe). A short way to write it is C(S,{})/C({},{}). Here C(S,{}) means \"the number of "
            "ways to choose {} cards out of S\"",
      "N = {} al número de cartas desconocidas. La primera revelación es segura con probabilidad S/{}. Esa carta "
      "ya no está, así que la segunda es segura con probabilidad (S−{})/{}, y así sucesivamente. Multiplica las "
      "cuatro probabilidades: eso da P({} seguras). Una forma corta de escribirlo es C(S,{})/C({},{}). Aquí C(S,{}) "
      "significa \"el número de formas de elegir {} cartas entre S\""),
    T("03", "The guess (S/{})^{} pretends each card is put back",
      "La cuenta (S/{})^{} hace como si cada carta se devolviera"),
    T("03", "P(the first {} reveals are safe)", "P(las {} primeras revelaciones son seguras)"),
    T("03", "and {} if it is not", "y {} si no lo es"),
    T("03", "After {} safe reveals you would win {} cards, so you need p > {}",
      "Tras {} revelaciones seguras ganarías {} cartas, así que necesitas p > {}"),
    T("03", "on a table with {} face-down places", "en una mesa con {} lugares boca abajo"),
    T("03", "With nothing remembered, P(next safe) ≈ {} after {} safe reveals is far below {}",
      "Sin recordar nada, P(la siguiente es segura) ≈ {} tras {} revelaciones seguras queda muy por debajo de {}"),
    T("03", "(P = {}): see section {}", "(P = {}): mira la sección {}"),
    T("03", "With {} safe reveals ({} cards if you stop)", "Con {} revelaciones seguras ({} cartas si paras)"),
    T("03", "Say you remember {} safe places. Then S and N both drop by {}, and you need only {} more unknown "
            "reveals to reach {}",
      "Imagina que recuerdas {} lugares seguros. Entonces S y N bajan los dos en {}, y solo necesitas {} "
      "revelaciones desconocidas más para llegar a {}"),
    T("03", "You remember {} places holding safe cards. P(reaching {} safe reveals)?",
      "Recuerdas {} lugares con cartas seguras. ¿P(llegar a {} revelaciones seguras)?"),
    T("03", "For Identify that is {} × P(match) for the best clue type",
      "Para Identificar es {} × P(acierto) con el mejor tipo de pista"),
    T("03", "the best-play value from section {}", "el valor de la mejor jugada de la sección {}"),
    T("03", "a Challenge on a fresh table is worth about {} cards", "un desafío en una mesa nueva vale unas {} cartas"),
    T("03", "After {} safe reveals, while a face-down place is left",
      "Tras {} revelaciones seguras, mientras quede un lugar boca abajo"),
    T("03", "A remembered safe place is a sure reveal (P = {})",
      "Un lugar seguro recordado es una revelación sin riesgo (P = {})"),
    T("03", "you remember {} safe places, so you reach the decision for sure",
      "recuerdas {} lugares seguros, así que llegas a la decisión sin riesgo"),
    T("03", "so P({} safe) is the small chance of section {}",
      "así que P({} seguras) es la pequeña probabilidad de la sección {}"),
    T("03", "a sure identification ({} cards) against a Challenge worth {} ≈ {}",
      "una identificación segura ({} cartas) frente a un desafío que vale {} ≈ {}"),
    T("03", "a failure {}", "un fallo {}"),
    T("03", "(S/{})⁴ for four safe reveals", "(S/{})⁴ para cuatro revelaciones seguras"),
    T("03", 'the rule says "stop at {}"', 'la regla dice "parar en {}"'),
    T("03", "(reveal the {} remembered places, then stop at {}; on the notebook's deal {} < {})",
      "(revela los {} lugares recordados y para en {}; en el reparto del cuaderno {} < {})"),
    T("03", "{} or {} for the shared count", "{} o {} para la cuenta de compartidas"),
    T("03", "comparing P(next safe) with {}/{} instead of",
      "comparar P(la siguiente es segura) con {}/{} en vez de"),
    T("03", "continuing past {} is right", "seguir después de {} sea lo correcto"),
)

GIVEN: tuple[Given, ...] = (
)
