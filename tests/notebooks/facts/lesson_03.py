"""Lesson 03 · Challenge: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .common import _approx, _others, _rules, _safe, _section, _tam, _w
from .core import Fact, Given


@lru_cache(maxsize=None)
def _inclusion_exclusion() -> tuple[int, int, int, int, int, int, int]:
    W, tam = _w(), _tam()
    a, t, c = (W.match_count(tam, k) for k in ("animal", "texture", "color"))
    at = a + t - W.match_count(tam, ("animal", "texture"))
    ac = a + c - W.match_count(tam, ("animal", "color"))
    tc = t + c - W.match_count(tam, ("texture", "color"))
    return a, t, c, at, ac, tc, W.shared_element_count(tam)


def _position_facts(key: str) -> dict:
    from safari_kit.simulation import challenge_positions as cp

    pos = cp.position(key)
    game, state, seats = cp.reach(pos)
    cp.to_decision(state, seats, pos.learner)
    return cp.facts(state, pos.learner)


def _p_next_nothing_remembered() -> Fraction:
    """P(next safe) after 4 safe reveals with nothing remembered (lesson 03 §3, 8 places): (S − 4)/(N − 4).
    Not "a fresh table": that has only 4 face-down places, so no fifth reveal."""
    s = _rules()["min_safe"]
    return Fraction(_safe() - s, _others() - s)


def _wrong_shared_counts() -> tuple[int, int]:
    """14+14+14 with the overlaps not subtracted, and subtracted twice."""
    a, t, c, at, ac, tc, _ = _inclusion_exclusion()
    return a + t + c, a + t + c - 2 * (at + ac + tc)


def _stop_or_go_decision() -> tuple:
    """Lesson 03's default lab position: reveal the remembered safe places, then stop (a/n < n/(n+1))."""
    f = _position_facts("stop-or-go")
    known = f["remembered_safe"]
    a, n = f["safe_unknown"], f["unknown_cards"]
    s = known  # safe reveals after the remembered places
    assert not _w().one_step_continue(s, a, n)
    return known, 1 + s, f"{a}/{n}", Fraction(1 + s, 2 + s)



def _min() -> int:
    return _rules()["min_safe"]


FACTS: tuple[Fact, ...] = (
    Fact("03", "After {} safe reveals you may stop and archive the challenged card", lambda: (_min(),)),
    Fact("03", "work out the chance of {} safe cards in a row", lambda: (_min(),)),
    Fact("03", "For example, P({} safe) is the chance that {} reveals in a row are safe", lambda: (_min(), _min())),
    Fact("03", "Out of the other cards, {} cards share the animal, {} the texture, {} the color",
         lambda: _inclusion_exclusion()[:3]),
    Fact("03", "adding {} + {} + {} counts them twice", lambda: _inclusion_exclusion()[:3]),
    Fact("03", "How many of the other {} cards share an element", lambda: (_others(),)),
    Fact("03", "How many of the other {} cards are safe?", lambda: (_others(),)),
    Fact("03", "the number of unknown cards N = {}. The first reveal is safe with chance S/{}. That card is then "
               "gone, so the second is safe with chance (S−{})/{}, and so on. Multiply the four chances: that "
               "gives P({} safe). A short way to write it is C(S,{})/C({},{}). Here C(S,{}) means \"the number of "
               "ways to choose {} cards out of S\"",
         lambda: (_others(), _others(), 1, _others() - 1, _min(), _min(), _others(), _min(), _min(), _min())),
    Fact("03", "The guess (S/{})^{} pretends each card is put back", lambda: (_others(), _min())),
    Fact("03", "P(the first {} reveals are safe)", lambda: (_min(),)),
    Fact("03", "and {} if it is not", lambda: (0,)),
    Fact("03", "After {} safe reveals you would win {} cards, so you need p > {}",
         lambda: (_min(), _min() + 1, Fraction(_min() + 1, _min() + 2))),
    Fact("03", "on a table with {} face-down places", lambda: (8,)),
    Fact("03", "With nothing remembered, P(next safe) ≈ {} after {} safe reveals is far below {}",
         lambda: (_approx(_p_next_nothing_remembered(), 2), _min(), Fraction(5, 6))),
    Fact("03", "(P = {}): see section {}", lambda: (1, _section("03", "A challenge as a memory play"))),
    Fact("03", "With {} safe reveals ({} cards if you stop)", lambda: (6, 7)),
    Fact("03", "Say you remember {} safe places. Then S and N both drop by {}, and you need only {} more unknown "
               "reveals to reach {}", lambda: (2, 2, 4 - 2, 4)),
    Fact("03", "You remember {} places holding safe cards. P(reaching {} safe reveals)?", lambda: (2, 4)),
    Fact("03", "For Identify that is {} × P(match) for the best clue type", lambda: (2,)),
    Fact("03", "the best-play value from section {}", lambda: (_section("03", "Optimal stopping"),)),
    Fact("03", "a Challenge on a fresh table is worth about {} cards",
         lambda: (_approx(_w().challenge_dp(0, _safe(), _others(), 4), 2),)),
    Fact("03", "After {} safe reveals, while a face-down place is left", lambda: (_min(),)),
    Fact("03", "A remembered safe place is a sure reveal (P = {})", lambda: (1,)),
    Fact("03", "you remember {} safe places, so you reach the decision for sure",
         lambda: (_position_facts("stop-or-go")["remembered_safe"],)),
    Fact("03", "so P({} safe) is the small chance of section {}", lambda: (4, _section("03", "Four in a row"))),
    Fact("03", "a sure identification ({} cards) against a Challenge worth {} ≈ {}",
         lambda: (_position_facts("close-call")["identify"], _position_facts("close-call")["challenge"],
                  _approx(_position_facts("close-call")["challenge"], 2))),
    Fact("03", "a failure {}", lambda: (0,)),
    Fact("03", "(S/{})⁴ for four safe reveals", lambda: (_others(),)),
    Fact("03", 'the rule says "stop at {}"', lambda: (_min(),)),
    Fact("03", "(reveal the {} remembered places, then stop at {}; on the notebook's deal {} < {})",
         lambda: _stop_or_go_decision()),
    Fact("03", "{} or {} for the shared count", lambda: _wrong_shared_counts()),
    Fact("03", "comparing P(next safe) with {}/{} instead of", lambda: (1, 2)),
    Fact("03", "continuing past {} is right", lambda: (_min(),)),
)

GIVEN: tuple[Given, ...] = (
)
