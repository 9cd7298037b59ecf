"""Lección 02 · Identificación: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T
from . import animal_es


def _memory_words(v: tuple) -> tuple:
    return animal_es(v[0], True), animal_es(v[1]), animal_es(v[2], True), *v[3:]


FACTS = (
    T("02", "see why a known clue card changes the chances (the answer is not {})",
      "ver por qué una carta pista conocida cambia las probabilidades (la respuesta no es {})"),
    T("02", "an Elephant with probability {}/{} = {}", "un elefante con probabilidad {}/{} = {}"),
    T("02", "{} cards are left, and one of the Elephants is not among them",
      "Quedan {} cartas, y uno de los elefantes no está entre ellas"),
    T("02", "TOM: {}/{} (the {} other TOMs, and the ink cards T?M and ??M)",
      "TOM: {}/{} (las otras {} TOM, y las cartas con tinta T?M y ??M)"),
    T("02", "KIM: {}/{} (the {} other KIMs, and ??M)", "KIM: {}/{} (las otras {} KIM, y ??M)"),
    T("02", "T?M: {}/{} (every TAM and TOM, and the other ink cards that could read TAM or TOM, ?AM and ??M)",
      "T?M: {}/{} (todas las TAM y TOM, y las otras cartas con tinta que pueden leerse TAM o TOM, ?AM y ??M)"),
    T("02", "You remember {} face-down cards, none an Elephant",
      "Recuerdas {} cartas boca abajo, y ninguna es un elefante"),
    T("02", "win {} cards with probability p, so E = {}p", "ganas {} cartas con probabilidad p, así que E = {}p"),
    T("02", "You win {} cards only if both identifications succeed: E = {}·P(both)",
      "Ganas {} cartas solo si las dos identificaciones aciertan: E = {}·P(las dos)"),
    T("02", "{} cards are unknown (all but the two clue cards) and {} of them are Elephants, so p₁ = {}/{}. "
            "Given that the first place held an Elephant, {} of the other {} are, so p₂ = {}/{}. "
            "P(both) = ({}·{})/({}·{}) = {} ≈ {}. That is a little less than the with-replacement guess "
            "({}/{})² ≈ {}",
      "Hay {} cartas desconocidas (todas menos las dos cartas pista) y {} de ellas son elefantes, así que "
      "p₁ = {}/{}. Si el primer lugar tenía un elefante, {} de las otras {} lo son, así que p₂ = {}/{}. "
      "P(las dos) = ({}·{})/({}·{}) = {} ≈ {}. Es un poco menos que la cuenta con reemplazo ({}/{})² ≈ {}"),
    T("02", '"{} animals, so {}"', '"{} animales, así que {}"'),
    T("02", "{} of the {} unseen cards share its animal", "{} de las {} cartas sin ver comparten su animal"),
    T("02", "a TAM shares a name with {} cards, a KRIS with {}, the ink ??M with {}",
      "una TAM comparte nombre con {} cartas, una KRIS con {}, la de tinta ??M con {}"),
    T("02", "({}/{} then {}/{} in the worked example)", "({}/{} y luego {}/{} en el ejemplo resuelto)"),
    T("02", "{} or {}/{} for the animal match (the clue card counted in the pool)",
      "{} o {}/{} para el acierto de animal (contar la carta pista entre las posibles)"),
    T("02", "{}/{} for the TAM name match (the ink cards forgotten and the clue card counted: forgetting only "
            "the ink cards gives {}/{}, counting only the clue card {}/{}); {}/{} for ??M (the other ink cards "
            "forgotten)",
      "{}/{} para el acierto de nombre de TAM (olvidar las cartas con tinta y contar la carta pista: olvidar "
      "solo las de tinta da {}/{}, contar solo la carta pista {}/{}); {}/{} para ??M (olvidar las otras cartas con "
      "tinta)"),
    T("02", "saw {} at one place (a sure match for the {} clue) and {} at another (a sure miss). "
            "Knowing nothing, every place shows the same {}/{}",
      "vio {} en un lugar (un acierto seguro para la pista {}) y {} en otro (un fallo seguro). "
      "Sin saber nada, todos los lugares dan el mismo {}/{}", _memory_words),
    T("02", "N is smaller when you remember more: {}/{} instead of {}/{}. That is because the {} remembered cards "
            "are not among the unknown ones. And {} of them is {}, so m drops too",
      "N es más pequeño cuando recuerdas más: {}/{} en vez de {}/{}. Es porque las {} cartas recordadas no están "
      "entre las desconocidas. Y {} de ellas es {}, así que m también baja",
      lambda v: (*v[:6], animal_es(v[6], True))),
    T("02", "multiplying two chances computed each alone, ({}/{})²",
      "multiplicar dos probabilidades calculadas cada una por separado, ({}/{})²"),
)

GIVEN: tuple[Given, ...] = (
    Given("02", "Un lugar recordado da 1 o 0", "a remembered card matches or it does not: certainty"),
)
