"""Lesson 02 · Identification: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .common import _animals, _approx, _count, _deck, _n_witness, _others, _owl, _per_element, _tam, _w
from .core import Fact, Given


def _name_match(name: str) -> int:
    return _w().match_count(_deck().first_named(name), "name")


def _worked_reveal_another() -> tuple:
    """Lesson 02 §5: fresh table, clue the TAM Elephant, second clue another Elephant, animal declared twice."""
    unknown = _n_witness() - 2
    hits = _w().match_count(_tam(), "animal") - 1
    p1, p2 = Fraction(hits, unknown), Fraction(hits - 1, unknown - 1)
    return (unknown, hits, hits, unknown, hits - 1, unknown - 1, hits - 1, unknown - 1,
            hits, hits - 1, unknown, unknown - 1, p1 * p2, _approx(p1 * p2, 4), hits, unknown, _approx(p1 * p1, 4))


def _name_mistakes_02() -> tuple:
    """Lesson 02's wrong answers for the name matches, counted here from the card names (W2): the TAM clue's
    other TAMs (ink forgotten), those and the clue card, all sharers and the clue card; for ??M the clear
    names alone."""
    from safari_kit.cards.names import is_ink, shared_names

    def sharers(name: str, ink: bool) -> int:
        clue = _deck().first_named(name)
        return _count(lambda c: c.id != clue and bool(shared_names(c.name, name)) and (ink or not is_ink(c.name)))

    n = _others()
    tam_clear, tam_all = sharers("TAM", False), sharers("TAM", True)
    return tam_clear + 1, n, tam_clear, n, tam_all + 1, n, sharers("??M", False), n


@lru_cache(maxsize=None)
def _k02() -> dict:
    """Lesson 02 §4: seat 0's position (lesson_02.memory_position), what it remembers and the animal chances."""
    from safari_kit.teaching import lesson_02 as L

    game, state = L.memory_position()
    claims = L.memory_claims(game, state)
    assert L.shows_the_value_of_memory(claims)
    remember, _ = L.memory_knowledge(game, state)
    (match,), (miss,) = claims["match"], claims["miss"]
    remembered = len(remember.known)
    matches = len(claims["match"])
    # the remembered cards leave the unknown ones; the remembered Elephant takes one m with it
    assert claims["n_remember"] == claims["n_nothing"] - remembered
    assert claims["m_remember"] == claims["m_nothing"] - matches
    return {"clue": claims["clue"].animal, "match": game.cards[remember.known[match]].animal,
            "miss": game.cards[remember.known[miss]].animal, "remembered": remembered, "matches": matches,
            **{k: claims[k] for k in ("m_nothing", "n_nothing", "m_remember", "n_remember")}}


def _a(noun: str) -> str:
    """'an Elephant', 'a Bear'."""
    return ("an " if noun[:1].upper() in "AEIOU" else "a ") + noun



FACTS: tuple[Fact, ...] = (
    Fact("02", "see why a known clue card changes the chances (the answer is not {})", lambda: (_owl(),)),
    Fact("02", "an Elephant with probability {}/{} = {}",
         lambda: (_per_element(), _n_witness(), Fraction(_per_element(), _n_witness()))),
    Fact("02", "{} cards are left, and one of the Elephants is not among them", lambda: (_others(),)),
    Fact("02", "TOM: {}/{} (the {} other TOMs, and the ink cards T?M and ??M)",
         lambda: (_name_match("TOM"), _others(), _count(lambda c: c.name == "TOM") - 1)),
    Fact("02", "KIM: {}/{} (the {} other KIMs, and ??M)",
         lambda: (_name_match("KIM"), _others(), _count(lambda c: c.name == "KIM") - 1)),
    Fact("02", "T?M: {}/{} (every TAM and TOM, and the other ink cards that could read TAM or TOM, ?AM and ??M)",
         lambda: (_name_match("T?M"), _others())),
    Fact("02", "You remember {} face-down cards, none an Elephant", lambda: (3,)),
    Fact("02", "win {} cards with probability p, so E = {}p", lambda: (2, 2)),
    Fact("02", "You win {} cards only if both identifications succeed: E = {}·P(both)", lambda: (4, 4)),
    Fact("02", "{} cards are unknown (all but the two clue cards) and {} of them are Elephants, so p₁ = {}/{}. "
               "Given that the first place held an Elephant, {} of the other {} are, so p₂ = {}/{}. "
               "P(both) = ({}·{})/({}·{}) = {} ≈ {}. That is a little less than the with-replacement guess "
               "({}/{})² ≈ {}",
         lambda: _worked_reveal_another()),
    Fact("02", '"{} animals, so {}"', lambda: (_animals(), _owl())),
    Fact("02", "{} of the {} unseen cards share its animal", lambda: (_w().match_count(_tam(), "animal"), _others())),
    Fact("02", "a TAM shares a name with {} cards, a KRIS with {}, the ink ??M with {}",
         lambda: (_name_match("TAM"), _name_match("KRIS"), _name_match("??M"))),
    Fact("02", "({}/{} then {}/{} in the worked example)",
         lambda: _worked_reveal_another()[2:4] + _worked_reveal_another()[6:8]),
    Fact("02", "{} or {}/{} for the animal match (the clue card counted in the pool)",
         lambda: (_owl(), _per_element(), _others())),
    Fact("02", "{}/{} for the TAM name match (the ink cards forgotten and the clue card counted: forgetting only "
               "the ink cards gives {}/{}, counting only the clue card {}/{}); {}/{} for ??M (the other ink cards "
               "forgotten)", lambda: _name_mistakes_02()),
    Fact("02", "saw {} at one place (a sure match for the {} clue) and {} at another (a sure miss). "
               "Knowing nothing, every place shows the same {}/{}",
         lambda: (_a(_k02()["match"]), _k02()["clue"], _a(_k02()["miss"]), _k02()["m_nothing"], _k02()["n_nothing"])),

    Fact("02", "N is smaller when you remember more: {}/{} instead of {}/{}. That is because the {} remembered cards "
               "are not among the unknown ones. And {} of them is {}, so m drops too",
         lambda: (_k02()["m_remember"], _k02()["n_remember"], _k02()["m_nothing"], _k02()["n_nothing"],
                  _k02()["remembered"], _k02()["matches"], _a(_k02()["clue"]))),
    Fact("02", "multiplying two chances computed each alone, ({}/{})²", lambda: _worked_reveal_another()[2:4]),
)

GIVEN: tuple[Given, ...] = (
    Given("02", "A remembered place gives 1 or 0", "a remembered card matches or it does not: certainty"),
)
