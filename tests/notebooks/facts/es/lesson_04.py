"""Lección 04 · Knockout: each number of the Spanish text, tied to the English fact's computation."""
from __future__ import annotations

from ..core import Given
from . import Traduccion as T

#: the data items as the Spanish text names them (the English facts give "size", "weight" ...)
_ITEM_ES = {"weight": "peso", "size": "tamaño", "top": "velocidad máxima", "lifespan": "esperanza de vida"}


def _pal(english: str) -> str:
    """A Safari Pal as the Spanish text names it in a sentence ("el león"), from data/card-names.csv."""
    from safari_kit.core.i18n import language
    from safari_kit.presentation.card_words import pal_name

    with language("es"):
        return "el " + pal_name(english).lower()


FACTS = (
    T("04", "rank {} is the highest. In numbers, a card's rank is {} + the number of cards strictly higher",
      "puesto {} es el más alto. Con números, el puesto de una carta es {} + el número de cartas estrictamente "
      "más altas"),
    T("04", "the N = {} cards of the deck minus the cards you have seen",
      "las N = {} cartas del mazo menos las cartas que has visto"),
    T("04", "Then every other card is unseen: U = N − {} = {}. H is simply the number of cards above yours in "
            "the deck, so your card's rank is H + {}. In round {} of a {}-player game, your {} opponents hold "
            "{} × {} = {} cards, so k = {}.",
      "Entonces todas las demás cartas están sin ver: U = N − {} = {}. H es simplemente el número de cartas por "
      "encima de la tuya en el mazo, así que el puesto de tu carta es H + {}. En la ronda {} de una partida de {} "
      "jugadores, tus {} rivales tienen {} × {} = {} cartas, así que k = {}."),
    T("04", "With {} cards in your opponents' hands, one of them is almost surely there",
      "Con {} cartas en las manos de tus rivales, casi seguro que una de ellas está ahí"),
    T("04", "This time the game has {} players. You lead with the Impala (id ) and name top speed. You know only "
            "your own card. Your {} opponents hold {} cards each, {} in all.",
      "Esta vez la partida tiene {} jugadores. Empiezas con el impala (id ) y dices velocidad máxima. Solo conoces "
      "tu propia carta. Tus {} rivales tienen {} cartas cada uno, {} en total."),
    T("04", "find the Impala's rank on top speed, as for the Lion in section {}",
      "busca el puesto del impala en velocidad máxima, como con el león en la sección {}"),
    T("04", "Back to {} players (k = {})", "Volvemos a {} jugadores (k = {})"),
    T("04", "Even the third-fastest animal is far from safe with {} players",
      "Incluso el tercer animal más rápido está lejos de ser seguro con {} jugadores"),
    T("04", "In a real game you know your whole hand ({} cards). So the unseen pool is smaller: U = {} − {} = {}.",
      "En una partida de verdad conoces tu mano entera ({} cartas). Así que el grupo de cartas sin ver es más "
      "pequeño: U = {} − {} = {}."),
    T("04", "The Knockout lab (section {}) opens on this position ( )",
      "El laboratorio de Knockout (sección {}) se abre en esta posición ( )"),
    T("04", "You lead with the Springbok (id ) and name top speed. Only one card of the deck is faster, so H = {}, "
            "and k = {}.",
      "Empiezas con la gacela saltarina (id ) y dices velocidad máxima. Solo una carta del mazo es más rápida, así "
      "que H = {}, y k = {}."),
    T("04", "Knowing only the Springbok: U = N − {} = {}. So P = C({} − {}, {})/C({}, {}) = {} (= {} = {})",
      "Conociendo solo la gacela saltarina: U = N − {} = {}. Así que P = C({} − {}, {})/C({}, {}) = {} (= {} = {})"),
    T("04", "Counting your hand: your other {} cards are seen too, so U = {} − {} = {}. The faster card is not "
            "in your hand, so H = {} still. P = C({} − {}, {})/C({}, {}) = {} (= {}): the number the lab shows",
      "Contando tu mano: tus otras {} cartas también están vistas, así que U = {} − {} = {}. La carta más rápida no "
      "está en tu mano, así que H = {} sigue igual. P = C({} − {}, {})/C({}, {}) = {} (= {}): el número que enseña "
      "el laboratorio"),
    T("04", "With H = {} the count is simply (U − k)/U", "Con H = {} la cuenta es simplemente (U − k)/U"),
    T("04", "Your {} slow cards are not in their hands. So the faster card is more likely to be there: {} of {} "
            "rather than {} of {}",
      "Tus {} cartas lentas no están en sus manos. Así que es más probable que la carta más rápida esté ahí: {} de {} "
      "en vez de {} de {}"),
    T("04", "Two players ({} cards each) are still to play after you. You now know one more card, so "
            "U = {} − {} − {} = {}. Only the {} cards of the two players after you can still beat you, so k = {}.",
      "Después de ti todavía juegan dos jugadores ({} cartas cada uno). Ahora conoces una carta más, así que "
      "U = {} − {} − {} = {}. Solo las {} cartas de los dos jugadores de después pueden ganarte todavía, así que "
      "k = {}."),
    T("04", "Cards slower than the Warthog, or as fast, are at {}",
      "Las cartas más lentas que el facóquero, o igual de rápidas, están a {}"),
    T("04", "The best lead, the {}, goes from {} to {}. That is because only the {} cards still to come can beat "
            "it, instead of {}.",
      "La mejor forma de empezar, {}, pasa de {} a {}. Es porque solo pueden ganarle las {} cartas que faltan por "
      "jugar, en vez de {}.", lambda v: (_pal(v[0]), *v[1:])),
    T("04", "U is {} minus every card you have seen", "U es {} menos cada carta que has visto"),
    T("04", "the Impala's is its {}, {} {}, yet its rank on {} is only {} of {}",
      "el del impala es su {}, {} {}, pero su puesto en {} es solo el {} de {}",
      lambda v: (_ITEM_ES[v[0]], v[1], v[2], _ITEM_ES[v[3]], *v[4:])),
    T("04", "One player with {} cards plays after you", "Después de ti juega un jugador con {} cartas"),
    T("04", "Round r deals {} − r cards, so it has {} − r turns. Each turn has one winner, so at most {} − r "
            "players can win a turn",
      "La ronda r reparte {} − r cartas, así que tiene {} − r turnos. Cada turno tiene un ganador, así que como "
      "mucho {} − r jugadores pueden ganar un turno"),
    T("04", "With {} players and , after which round is at least one player certainly out",
      "Con {} jugadores y la , ¿después de qué ronda hay seguro al menos un jugador eliminado"),
    T("04", "games with {} players, with and without", "partidas con {} jugadores, con y sin"),
    T("04", "U counts the cards you have not seen: {} − {} = {} when you know only your card, {} − {} = {} when "
            "you know your hand",
      "U cuenta las cartas que no has visto: {} − {} = {} cuando solo conoces tu carta, {} − {} = {} cuando "
      "conoces tu mano"),
    T("04", "Elimination: round r has {} − r turns, so with {} players someone is certainly out after round {}",
      "Eliminación: la ronda r tiene {} − r turnos, así que con {} jugadores alguien queda eliminado seguro "
      "después de la ronda {}"),
    T("04", "Knowing only your card, U = N − {} = {}; the lab knows your hand, U = {} − {} = {} (and cards played "
            "this round are seen too). The Springbok step in section {} shows one position both ways",
      "Conociendo solo tu carta, U = N − {} = {}; el laboratorio conoce tu mano, U = {} − {} = {} (y las cartas "
      "jugadas en esta ronda también están vistas). El paso de la gacela saltarina de la sección {} enseña una "
      "posición de las dos formas"),
    T("04", "is set in a {}-player game (k = {})", "está en una partida de {} jugadores (k = {})"),
    T("04", "taking U = {}, C({}−H, k)/C({}, k) (forgetting that your own card is seen",
      "tomar U = {}, C({}−H, k)/C({}, k) (olvidar que tu propia carta está vista"),
    T("04", "taking H = the rank ({} for the Impala on top speed) instead of the rank − {}; keeping k = {} from "
            "the {}-player examples",
      "tomar H = el puesto ({} para el impala en velocidad máxima) en vez del puesto − {}; quedarse con k = {} de "
      "los ejemplos de {} jugadores"),
    T("04", "keeping U = {} (the other cards of your hand are seen too, U = {} − {} = {})",
      "quedarse con U = {} (las otras cartas de tu mano también están vistas, U = {} − {} = {})"),
    T("04", "Pigeonhole with {} players: answering round {} ({} turns for {} players: everyone could still win one)",
      "Palomar con {} jugadores: respondiendo ronda {} ({} turnos para {} jugadores: todos podrían ganar uno "
      "todavía)"),
)

GIVEN: tuple[Given, ...] = (
    Given("04", "el laboratorio se para en La ronda 1 ha terminado",
          "the Knockout lab's words at the end of a round (round 1 is the first it reaches)"),
    Given("04", "en 200 partidas entre jugadores al azar", "a sample size: enough turns to see a rare tie, and quick"),
    Given("04", "Simulemos 20.000", "a sample size: numpy plays them at once, and the bars are smooth"),
)
