"""Lesson 04 (Knockout: ranks, order statistics, elimination): answers and hints of its exercises.

The questions are in notebooks/04-knockout.md. Every answer is computed with
:mod:`safari_kit.probability.knockout` on the shipped deck; the hints' wrong
values are the common mistakes (with replacement, forgetting one's own card,
following = leading). The symbols are the lesson's and the Knockout lab's:
U unseen cards (57 − the cards you have seen), H of them higher, k cards held by
the players after you, P = C(U − H, k) / C(U, k).
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from safari_kit.core.i18n import N_, _
from safari_kit.teaching.exercises import Exercise, Hint, register

# the situations the notebook describes (04-knockout.ipynb)
# 04.lead-one-card is set in a 3-player game (2 opponents with 7 cards each, k = 14): the lesson's tables print
# every chance at k = 7, 21 and 42, and at k = 21 the Impala's answer was printed right under the exercise.
LEAD_CARD, LEAD_ITEM, LEAD_PLAYERS, LEAD_K = "K10", "top_speed_kmh", 3, 14
FOLLOW_HAND = ("K10", "K20", "K30")                                 # Impala, Klipspringer, African Wild Dog
FOLLOW_TRICK, FOLLOW_ITEM, FOLLOW_LATER = ("K36",), "top_speed_kmh", (3,)   # the Warthog led; one player after you


@lru_cache(maxsize=1)
def _deck():
    from safari_kit.cards.load import load_cards

    return load_cards().knockout


def _lead_h() -> int:
    from safari_kit.probability.knockout import card_ranks

    return card_ranks(_deck(), LEAD_CARD)[LEAD_ITEM] - 1


def lead_answer() -> Fraction:
    from safari_kit.probability.knockout import p_win_leading_card_only

    return p_win_leading_card_only(_deck(), LEAD_CARD, LEAD_ITEM, LEAD_K).value


def follow_view():
    from safari_kit.probability.knockout import KnockoutView

    return KnockoutView(hand=FOLLOW_HAND, later=FOLLOW_LATER, trick=FOLLOW_TRICK, item=FOLLOW_ITEM)


def follow_answer() -> Fraction:
    from safari_kit.probability.knockout import p_win_following

    return p_win_following(_deck(), follow_view(), LEAD_CARD).value


def best_item_answer() -> str:
    from safari_kit.probability.knockout import card_ranks

    ranks = card_ranks(_deck(), LEAD_CARD)
    return min(ranks, key=ranks.get)


def pigeonhole_answer(players: int = 6) -> int:
    from safari_kit.probability.knockout import pigeonhole_out

    return next(r for r in range(1, 8) if pigeonhole_out(players, r) > 0)


_ITEM_WORDS = {"weight_kg": ("weight",), "size_cm": ("size", "length", "height"),
               "top_speed_kmh": ("top speed", "speed", "top_speed"), "lifespan_years": ("lifespan", "life span", "age")}


def _plain_words(text: str) -> str:
    """Lower case, no accents, single spaces, without a unit in brackets: "Velocidad máxima (km/h)" and
    "velocidad maxima" read alike."""
    import re
    import unicodedata

    text = unicodedata.normalize("NFKD", text.replace("_", " ").casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(re.sub(r"\([^)]*\)", " ", text).split())


def _same_item(answer, expected) -> bool:
    """Is ``answer`` a name of the data item ``expected``: its column, an English word for it, or its name in
    the learner's language as the labs write it (the catalogue's "Top speed", "Velocidad máxima")."""
    from safari_kit.presentation.table_words import ITEM_LABELS, ITEM_SHORT

    if not isinstance(answer, str):
        return False
    text = _plain_words(answer)
    names = {expected, *_ITEM_WORDS[expected], ITEM_SHORT[expected], ITEM_LABELS[expected]}
    return text in {_plain_words(name) for name in names}


def _with_replacement(N: int, H: int, k: int) -> Fraction:
    return Fraction(N - 1 - H, N - 1) ** k


def _lead(U: int, H: int, k: int) -> Fraction:
    return Fraction(math.comb(U - H, k), math.comb(U, k))


def _follow_counts() -> tuple[int, int, int]:
    """(U, H, k) of 04.follow: the unseen cards, the unseen cards faster than the Impala, the cards to come."""
    from safari_kit.probability.knockout import unseen_pool

    deck, view = _deck(), follow_view()
    unseen = unseen_pool(deck, view)
    value = {card.id: card.value(FOLLOW_ITEM) for card in deck}
    H = sum(1 for c in unseen if value[getattr(c, "id", c)] > value[LEAD_CARD])
    return len(unseen), H, view.k


register(Exercise(
    "04.lead-one-card",
    lead_answer,
    hints=[Hint(lambda a: abs(float(a) - float(_with_replacement(len(_deck()), _lead_h(), LEAD_K))) < 0.0005,
                N_("That treats each opponent card as a fresh draw from the whole deck. But cards are dealt "
                  "without putting them back. Count whole hands instead: C(U − H, 14) / C(U, 14).")),
           Hint(lambda a: abs(float(a) - float(_lead(len(_deck()), _lead_h(), LEAD_K))) < 0.0005,
                N_("Your own card cannot be in an opponent's hand: you have seen it. So U = 57 − 1 = 56 "
                  "unseen cards, not 57.")),
           Hint(lambda a: abs(float(a) - float(_lead(len(_deck()) - 1, _lead_h() + 1, LEAD_K))) < 0.0005,
                N_("H is the number of cards faster than the Impala. That is its rank minus 1: the rank "
                  "counts the Impala's own place too.")),
           Hint(lambda a: abs(float(a) - float(_lead(len(_deck()) - 1, _lead_h(), 21))) < 0.0005,
                N_("That is the chance in a 4-player game, with k = 21. Here there are 3 players: your 2 "
                  "opponents hold 14 cards, so k = 14.")),
           Hint(lambda a: abs(float(a) - float(Fraction(len(_deck()) - 1 - _lead_h(), len(_deck()) - 1))) < 0.0005,
                N_("That is the chance for ONE opponent card. All 14 cards must miss the faster ones.")),
           Hint(lambda a: a == 0 or a == 1, N_("Some animals are faster than the Impala, but they may not be "
                                              "in play."))],
    general_hint=N_("Find H, the number of cards faster than the Impala: its rank on top speed minus 1. You "
                   "have seen only your own card, so U = 57 − 1 = 56, and k = 14. Then P = C(56 − H, 14) / "
                   "C(56, 14): copy the Lion's cell and change the card, the item and k.")))

def _best_item_hint() -> str:
    """The best-item exercise's hint, naming two data items as the labs write them in the learner's language
    (a Spanish learner read "weight" and "top speed" in English here). Its examples are the lesson's own, weight
    and lifespan: neither is the answer (the hint once gave "top speed", the Impala's best item)."""
    from safari_kit.presentation.table_words import ITEM_SHORT

    return _('Answer with an item\'s name in quotes, such as "{weight}" or "{lifespan}". To see the Impala\'s '
             "ranks, copy the Lion's cell of section 1 and put K10 in place of K23.").format(
        weight=ITEM_SHORT["weight_kg"], lifespan=ITEM_SHORT["lifespan_years"])


register(Exercise(
    "04.best-item", best_item_answer, compare=_same_item,
    hints=[Hint(lambda a: _same_item(a, "size_cm"),
                N_("Size is the Impala's biggest number, but many animals are bigger. Compare its ranks, not "
                  "its numbers: rank 1 is the best.")),
           Hint(lambda a: _same_item(a, "weight_kg") or _same_item(a, "lifespan_years"),
                N_("Compare the Impala's rank on each item. Copy the Lion's cell of section 1 and put the "
                  "Impala's id, K10, in place of K23. The smallest rank is the best."))],
    general_hint=_best_item_hint))

register(Exercise(
    "04.follow",
    follow_answer,
    hints=[Hint(lambda a: abs(float(a) - float(lead_answer())) < 0.005,
                N_("That is the leading chance of the exercise before. Now you know the cards played, and "
                  "only ONE player (3 cards) is still to play.")),
           Hint(lambda a: abs(float(a) - float(_lead(_follow_counts()[0] + 3, _follow_counts()[1], 3))) < 0.0005,
                N_("U counts the cards you have NOT seen. You have seen your 3 cards and the Warthog: U = 57 "
                  "− 3 − 1.")),
           Hint(lambda a: abs(float(a) - float(_lead(_follow_counts()[0] + 1, _follow_counts()[1], 3))) < 0.0005,
                N_("You have seen the Warthog too: it is on the table. Take it out of U as well.")),
           Hint(lambda a: abs(float(a) - float(_lead(_follow_counts()[0], _follow_counts()[1] + 1, 3))) < 0.0005,
                N_("H counts only the cards strictly faster than the Impala: its rank minus 1. A card as fast "
                  "as the Impala, played after it, does not beat it.")),
           Hint(lambda a: a == 1, N_("You beat the Warthog, but the player after you may still hold a faster card.")),
           Hint(lambda a: a == 0, N_("The Warthog is slower than the Impala, so you beat the card already played."))],
    # U = 56 or 54 (a card seen left in U) gives 0.8935 or 0.8910 against 0.8890: closer than the usual 0.005
    tolerance=0.0015,
    general_hint=N_("U = 57 − your 3 cards − the Warthog. H = the unseen cards faster than the Impala (the "
                   "top-speed table of section 2 lists the fastest cards). k = 3 cards after you. Then P = "
                   "C(U − H, k) / C(U, k): copy the Lion's cell and change U, H and k.")))

register(Exercise(
    "04.pigeonhole",
    pigeonhole_answer,
    hints=[Hint(lambda a: a == pigeonhole_answer() - 1,
                N_("Round 2 has 8 − 2 = 6 turns: each of the 6 players could win one of them.")),
           Hint(lambda a: a == pigeonhole_answer(4), N_("That is the answer for 4 players. With 6 players "
                                                       "there are more players than turns sooner.")),
           Hint(lambda a: a == 1, N_("Round 1 has 7 turns for 6 players: everyone could win one."))],
    general_hint=N_("Round r has 8 − r turns, each won by one player: when is 8 − r smaller than 6?")))


# ----------------------------------------------------------------------------- §3: leading versus following
# Seat 0's hand in "Your whole hand: leading versus following" (4 players, round 1). Chosen by
# find_hand_seed(): the first seed whose hand shows what the section says (following_claims), so a new
# dealer cannot silently turn the table into zeros again (tests/notebooks/test_lesson_demonstrations.py).
HAND_SEED = 6
FOLLOWED, FOLLOW_LATER_HANDS = "K36", (7, 7)  # the Common Warthog led on top speed; two players of 7 cards after you


def hand_view(seed: int = HAND_SEED):
    """Seat 0's KnockoutView at the first lead of the 4-player game dealt from ``seed``."""
    from safari_kit.knockout import KnockoutGame
    from safari_kit.probability.knockout import view_of

    return view_of(KnockoutGame(players=4).new_initial_state(seed=seed).observation(0))


def following_claims(seed: int = HAND_SEED, digits: int = 3) -> dict:
    """Each card of the hand: its speed, P(win) leading on top speed and following the Warthog (exact), and
    both rounded as the lesson prints them. ``slower``: cards no faster than the Warthog; ``faster``: the
    others; ``best``: the hand's best lead (card, item)."""
    from safari_kit.knockout import KnockoutGame
    from safari_kit.probability import knockout as pk

    game = KnockoutGame(players=4)
    view = hand_view(seed)
    follow = pk.KnockoutView(hand=view.hand, later=FOLLOW_LATER_HANDS, trick=(FOLLOWED,), item=FOLLOW_ITEM)
    warthog = game.by_id[FOLLOWED].value(FOLLOW_ITEM)
    rows = {}
    for card in view.hand:
        lead = pk.p_win_leading(game, view, card, FOLLOW_ITEM).value
        after = pk.p_win_following(game, follow, card).value
        rows[card] = {"speed": game.by_id[card].value(FOLLOW_ITEM), "lead": lead, "follow": after,
                      "lead_shown": round(float(lead), digits), "follow_shown": round(float(after), digits)}
    best = pk.best_play(game, view)
    return {"rows": rows, "warthog": warthog, "in_hand": FOLLOWED in view.hand,
            "slower": [c for c, r in rows.items() if r["speed"] <= warthog],
            "faster": [c for c, r in rows.items() if r["speed"] > warthog],
            "best": (best.card, best.action.item)}


def shows_following(claims: dict) -> bool:
    """The property §3 needs: the Warthog is not in the hand; some cards are no faster (their chance
    following is 0) and at least three are faster; every faster card's chance following is higher than
    leading, visibly so at the printed precision; and the hand's best lead names top speed, so the table
    compares the lead you would make with following."""
    rows = claims["rows"]
    return (not claims["in_hand"] and bool(claims["slower"]) and len(claims["faster"]) >= 3
            and all(rows[c]["follow"] == 0 for c in claims["slower"])
            and all(rows[c]["follow_shown"] > rows[c]["lead_shown"] for c in claims["faster"])
            and claims["best"][1] == FOLLOW_ITEM)


def find_hand_seed(seeds=range(1, 400)) -> int | None:
    """The first seed whose hand shows leading versus following (how HAND_SEED was chosen)."""
    return next((s for s in seeds if shows_following(following_claims(s))), None)
