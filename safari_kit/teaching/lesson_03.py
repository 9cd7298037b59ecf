"""Lesson 03 (the Challenge): answers and hints of its exercises (streaks without replacement,
optimal stopping).

The questions are in notebooks/03-challenge.md. Every answer is computed from the
deck with :mod:`safari_kit.probability.witness`. The running example is a
Challenge with the TAM Elephant (the first clear TAM).
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

from safari_kit.teaching import deck
from safari_kit.core.i18n import N_
from safari_kit.teaching.exercises import Exercise, Hint, register


def _w():
    from safari_kit.probability import witness as W

    return W


def _tam() -> str:
    return deck.first_named("TAM")


def _n() -> int:
    return len(deck.witness()) - 1


def _safe() -> int:
    return _w().safe_count(_tam())


def share_mistakes() -> dict[str, int]:
    """What the right count and each common mistake give for the cards sharing an element with the TAM
    Elephant (inclusion–exclusion), and for its safe cards; the hints fire on exactly these counts
    (tests/notebooks/test_lesson_hints.py recounts them from the card data).

    ``singles``: |A| + |T| + |C|; ``pairs``: |A∩T| + |A∩C| + |T∩C|; ``no overlap``: the singles alone;
    ``overlap added``: the pairs added instead of subtracted; ``overlap twice``: subtracted twice;
    ``names forgotten``: the others minus the sharers (the safe count without the names).
    """
    W, tam = _w(), _tam()
    a, t, c = (W.match_count(tam, k) for k in ("animal", "texture", "color"))
    pairs = sum(x + y - W.match_count(tam, (kx, ky)) for (kx, x), (ky, y) in
                ((("animal", a), ("texture", t)), (("animal", a), ("color", c)), (("texture", t), ("color", c))))
    singles = a + t + c
    share = W.shared_element_count(tam)
    return {"right": share, "singles": singles, "pairs": pairs, "no overlap": singles,
            "overlap added": singles + pairs, "overlap twice": singles - 2 * pairs,
            "safe": _safe(), "names forgotten": _n() - share}


def _share_is(*kinds: str):
    return lambda a: any(a == share_mistakes()[k] for k in kinds)


register(Exercise(
    "03.share-any", lambda: _w().shared_element_count(_tam()),
    hints=[Hint(_share_is("no overlap"), N_("14 + 14 + 14 counts some cards twice: those sharing two elements "
                                           "(inclusion–exclusion).")),
           Hint(_share_is("overlap added"), N_("Subtract the cards counted twice (animal & texture, animal & "
                                              "color, texture & color), don't add them.")),
           Hint(_share_is("overlap twice"), N_("Each card sharing two elements was counted twice: subtract it "
                                              "once, not twice."))],
    general_hint="|A ∪ T ∪ C| = |A| + |T| + |C| − |A∩T| − |A∩C| − |T∩C| + |A∩T∩C|."))

def name_cards() -> list:
    """The other cards whose name could be TAM (W2), in deck order: lesson 03 prints them for 03.safe."""
    from safari_kit.cards.names import shared_names

    tam = _tam()
    return [c for c in deck.witness() if c.id != tam and shared_names(c.name, "TAM")]


def safe_mistakes() -> dict[str, int]:
    """What the right safe count and each common mistake give for the TAM Elephant (74 other cards).

    The catch (issue 27): some of the cards that could share the name already share the animal, the texture
    or the color, so they are among the sharers already. ``names counted twice``: 74 − sharers − every name
    card (the natural wrong answer); ``ink forgotten``: the ink name cards left in; ``ink forgotten, names
    counted twice``: both; ``names forgotten``: 74 − sharers; ``clue taken away``: one card too many taken
    away; ``unsafe``: the cards that are not safe.
    """
    from safari_kit.cards.names import is_ink

    W, tam = _w(), _tam()
    me = next(c for c in deck.witness() if c.id == tam)
    share = W.shared_element_count(tam)

    def shares_element(c) -> bool:
        return c.animal == me.animal or c.texture == me.texture or c.color == me.color

    names = name_cards()
    only = [c for c in names if not shares_element(c)]
    clear = [c for c in names if not is_ink(c.name)]
    clear_only = [c for c in only if not is_ink(c.name)]
    n = _n()
    return {"right": n - share - len(only), "names forgotten": n - share, "names counted twice": n - share - len(names),
            "ink forgotten": n - share - len(clear_only), "ink forgotten, names counted twice": n - share - len(clear),
            "clue taken away": n - share - len(only) - 1, "unsafe": share + len(only), "share": share,
            "name cards": len(names), "name cards sharing nothing else": len(only)}


def _safe_is(kind: str):
    return lambda a: a == safe_mistakes()[kind]


register(Exercise(
    "03.safe", _safe,
    hints=[Hint(_safe_is("names counted twice"),
                N_("Some of the name cards in the list also share the animal, the texture or the color. You "
                  "took those away once already. Take away only the name cards that share nothing else.")),
           Hint(_safe_is("ink forgotten, names counted twice"),
                N_("Two things. An ink card that could read TAM is not safe either. And some name cards share "
                  "the animal, texture or color too: you took those away once already.")),
           Hint(_safe_is("ink forgotten"),
                N_("Look at the ink cards in the list too. An ink card that could read TAM is not safe, "
                  "unless you already took it away.")),
           Hint(_safe_is("clue taken away"),
                N_("One card too many is gone. The 74 cards already leave out the challenged card itself.")),
           Hint(_safe_is("names forgotten"),
                N_("You left out the names. Another TAM, or an ink card that could read TAM, is not safe "
                  "either. Use the list of name cards above.")),
           Hint(_safe_is("share"), N_("That is the number of cards that share an element: the safe ones are "
                                     "the others.")),
           Hint(_safe_is("unsafe"), N_("That counts the cards that are NOT safe. The safe ones are all the others."))],
    general_hint=N_("Start from the 74 other cards. Take away the cards that share the animal, texture or "
                   "color. Then take away the name cards in the list that share nothing else.")))


def _four_safe() -> Fraction:
    return Fraction(comb(_safe(), 4), comb(_n(), 4))


register(Exercise(
    "03.four-safe", _four_safe,
    tolerance=0.0005,
    hints=[Hint(lambda a: abs(float(a) - (_safe() / _n()) ** 4) < 5e-4,
                N_("(S/74)^4 draws WITH replacement. A revealed card is gone: the second draw is from 73 cards.")),
           Hint(lambda a: float(a) > 0.2, N_("Four safe cards in a row is rarer than one: multiply the chances."))],
    general_hint="S/74 · (S−1)/73 · (S−2)/72 · (S−3)/71 = C(S,4)/C(74,4)."))

register(Exercise(
    "03.threshold", lambda: Fraction(1 + 6, 2 + 6),
    hints=[Hint(lambda a: a == Fraction(6, 7), N_("Stopping archives n = 7 cards (the challenged card too): "
                                                 "compare p·8 with 7.")),
           Hint(lambda a: a == Fraction(1, 2), N_("Going on risks all 7 cards to win one: you need much more "
                                                 "than 1/2."))],
    general_hint=N_("One more reveal: p·(n+1) on average against n for sure. Solve p·(n+1) > n.")))


def _memory_streak() -> Fraction:
    # two remembered safe places: revealed first, sure; then 2 more from the unknown cards
    s, n = _safe() - 2, _n() - 2
    return Fraction(comb(s, 2), comb(n, 2))


register(Exercise(
    "03.memory-streak", _memory_streak,
    hints=[Hint(lambda a: a == _four_safe(), N_("That is knowing nothing: the 2 remembered reveals are sure.")),
           Hint(lambda a: a == Fraction(comb(_safe(), 2), comb(_n(), 2)),
                N_("The 2 remembered safe cards are not unknown any more: S and N both drop by 2."))],
    general_hint=N_("Reveal the remembered places first (sure), then 2 more from the unknown cards: "
                   "C(S',2)/C(N',2).")))
