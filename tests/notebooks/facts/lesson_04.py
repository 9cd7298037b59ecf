"""Lesson 04 · Knockout: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Callable

from .common import _approx, _section
from .core import Fact, Given


def _ko():
    from safari_kit.knockout import KnockoutGame
    from safari_kit.probability import knockout as pk

    return KnockoutGame(players=4), pk


@lru_cache(maxsize=None)
def _k04() -> dict:
    """The Knockout numbers lesson 04 states, from the engine's rules and the probability module."""
    from safari_kit.knockout.rules import ROUNDS, cards_per_player
    from safari_kit.teaching import lesson_04

    game, pk = _ko()
    rounds = range(1, ROUNDS + 1)
    N, players = len(game.cards), game.players
    first = rounds[0]
    hand = cards_per_player(first)
    opponents = players - 1
    k = opponents * hand
    # round r deals c − r cards and has c − r turns (K2)
    (c,) = {cards_per_player(r) + r for r in rounds} | {pk.turns_in_round(r) + r for r in rounds}
    # a card's rank is (a constant) + the number of cards strictly higher
    offsets = set()
    for item in game.items:
        values = {card.id: card.value(item) for card in game.cards}
        for card in game.cards:
            higher = sum(1 for x in values.values() if x > values[card.id])
            offsets.add(pk.card_ranks(game, card.id)[item] - higher)
    (rank_offset,) = offsets
    # knowing only your own card, and knowing your hand (the lab's first position, seed 1)
    only_view = pk.KnockoutView(hand=("K12",), later=(hand,) * opponents)
    seen_card = N - len(pk.unseen_pool(game, only_view))
    lab_view = pk.view_of(game.new_initial_state(seed=1).observation(0))
    seen_hand = N - len(pk.unseen_pool(game, lab_view))
    assert seen_hand == len(lab_view.hand) == hand and lab_view.k == k
    spring, speed = "K12", "top_speed_kmh"
    H = pk.card_ranks(game, spring)[speed] - rank_offset
    only = pk.p_win_leading_card_only(game, spring, speed, k=k)
    count = pk.win_count(game, lab_view, spring, speed)
    lab = pk.p_win_leading(game, lab_view, spring, speed)
    assert count.higher == H == 1 and count.k == k and pk.best_play(game, lab_view).card == spring
    assert only.value == Fraction(N - seen_card - k, N - seen_card) and lab.value == count.value  # H = 1: (U − k)/U
    # following the Warthog with seat 0's hand of lesson_04.HAND_SEED: two players after you
    hand8 = pk.view_of(game.new_initial_state(seed=lesson_04.HAND_SEED).observation(0)).hand
    follow = pk.KnockoutView(hand=hand8, later=(hand, hand), trick=("K36",), item=speed)
    assert (lesson_04.FOLLOWED, lesson_04.FOLLOW_LATER_HANDS) == ("K36", (hand, hand))
    warthog = game.by_id["K36"].value(speed)
    slow = [pk.p_win_following(game, follow, x).value for x in hand8 if game.by_id[x].value(speed) <= warthog]
    (lost,) = set(slow)
    # the best lead of that hand, leading and following (as the lesson's table prints them, 3 decimals)
    best = pk.best_play(game, pk.view_of(game.new_initial_state(seed=lesson_04.HAND_SEED).observation(0)))
    assert best.action.item == speed and game.by_id[best.card].value(speed) > warthog
    best_follow = pk.p_win_following(game, follow, best.card).value
    assert best_follow > best.p.value
    # the Impala's biggest number and its rank on that item
    impala = game.by_id[lesson_04.LEAD_CARD]
    biggest = max(game.items, key=impala.value)
    assert biggest != lesson_04.best_item_answer()
    # the claims around the numbers: the Lion leading on weight is almost surely beaten; the third-fastest
    # animal is far from safe
    lion = pk.p_win_leading_card_only(game, "K23", "weight_kg", k=k).value
    ranked = sorted(game.cards, key=lambda x: -x.value(speed))
    third = pk.p_win_leading_card_only(game, ranked[2].id, speed, k=k).value
    assert lion < Fraction(1, 100) and third < Fraction(1, 2)
    pigeon_players = __import__("inspect").signature(lesson_04.pigeonhole_answer).parameters["players"].default
    # 04.lead-one-card: a game of LEAD_PLAYERS, round 1, so k = (LEAD_PLAYERS − 1) × hand
    lead_opponents = lesson_04.LEAD_PLAYERS - 1
    assert lesson_04.LEAD_K == lead_opponents * hand != k and len(lesson_04.FOLLOW_LATER) == 1
    impala_speed_rank = pk.card_ranks(game, lesson_04.LEAD_CARD)[lesson_04.LEAD_ITEM]
    return {
        "N": N, "players": players, "opponents": opponents, "first": first, "hand": hand, "k": k, "c": c,
        "rank_offset": rank_offset, "seen_card": seen_card, "U_card": N - seen_card, "seen_hand": seen_hand,
        "U_hand": N - seen_hand, "H": H, "only": only.value, "lab": lab.value,
        "U_follow": len(pk.unseen_pool(game, follow)), "trick": len(follow.trick), "k_follow": follow.k,
        "lost": lost, "lead_k": lesson_04.LEAD_K, "lead_players": lesson_04.LEAD_PLAYERS,
        "lead_opponents": lead_opponents, "impala_speed_rank": impala_speed_rank,
        "follow_later": lesson_04.FOLLOW_LATER[0],
        "pigeon_players": pigeon_players, "out": _pigeonhole_round(players),
        "pigeon": _pigeonhole_round(pigeon_players),
        "best_name": game.by_id[best.card].name.split()[-1], "best_lead": _approx(best.p.value, 3),
        "best_follow": _approx(best_follow, 3), "impala_value": f"{impala.value(biggest):g}",
        "impala_unit": biggest.rsplit("_", 1)[-1], "impala_item": biggest.split("_")[0],
        "impala_rank": pk.card_ranks(game, impala.id)[biggest],
    }


def _pigeonhole_round(players: int) -> int:
    """The first round after which someone is certainly out with Variation 1 (K5)."""
    from safari_kit.knockout.rules import ROUNDS

    _, pk = _ko()
    return next(r for r in range(1, ROUNDS + 1) if pk.pigeonhole_out(players, r) > 0)


def _wrong_pigeonhole() -> tuple:
    """Lesson 04's wrong answer: the round before, where the turns still suffice for every player."""
    _, pk = _ko()
    n = _k04()["pigeon_players"]
    r = _k04()["pigeon"] - 1
    assert pk.turns_in_round(r) >= n
    return n, r, pk.turns_in_round(r), n


def _f4(*keys: str) -> Callable[[], tuple]:
    return lambda: tuple(_k04()[key] for key in keys)


def _springbok_card() -> tuple:
    d = _k04()
    U, k, H = d["U_card"], d["k"], d["H"]
    return (d["seen_card"], U, U, H, k, U, k, f"{U - k}/{U}", d["only"], _approx(d["only"], 3))


def _springbok_hand() -> tuple:
    d = _k04()
    U, k, H = d["U_hand"], d["k"], d["H"]
    return (d["hand"] - d["seen_card"], d["N"], d["seen_hand"], U, H, U, H, k, U, k, f"{U - k}/{U}",
            _approx(d["lab"], 2))



FACTS: tuple[Fact, ...] = (
    Fact("04", "rank {} is the highest. In numbers, a card's rank is {} + the number of cards strictly higher",
         _f4("rank_offset", "rank_offset")),
    Fact("04", "the N = {} cards of the deck minus the cards you have seen", _f4("N")),
    Fact("04", "Then every other card is unseen: U = N − {} = {}. H is simply the number of cards above yours in "
               "the deck, so your card's rank is H + {}. In round {} of a {}-player game, your {} opponents hold "
               "{} × {} = {} cards, so k = {}.",
         _f4("seen_card", "U_card", "rank_offset", "first", "players", "opponents", "opponents", "hand", "k", "k")),
    Fact("04", "With {} cards in your opponents' hands, one of them is almost surely there", _f4("k")),
    Fact("04", "This time the game has {} players. You lead with the Impala (id ) and name top speed. You know only "
               "your own card. Your {} opponents hold {} cards each, {} in all.",
         _f4("lead_players", "lead_opponents", "hand", "lead_k")),
    Fact("04", "find the Impala's rank on top speed, as for the Lion in section {}",
         lambda: (_section("04", "Ranks"),)),
    Fact("04", "Back to {} players (k = {})", _f4("players", "k")),
    Fact("04", "Even the third-fastest animal is far from safe with {} players", _f4("players")),
    Fact("04", "In a real game you know your whole hand ({} cards). So the unseen pool is smaller: U = {} − {} = {}.",
         _f4("hand", "N", "seen_hand", "U_hand")),
    Fact("04", "The Knockout lab (section {}) opens on this position ( )",
         lambda: (_section("04", "The Knockout lab"),)),
    Fact("04", "You lead with the Springbok (id ) and name top speed. Only one card of the deck is faster, so H = {}, "
               "and k = {}.", lambda: (_k04()["H"], _k04()["k"])),
    Fact("04", "Knowing only the Springbok: U = N − {} = {}. So P = C({} − {}, {})/C({}, {}) = {} (= {} = {})",
         _springbok_card),
    Fact("04", "Counting your hand: your other {} cards are seen too, so U = {} − {} = {}. The faster card is not "
               "in your hand, so H = {} still. P = C({} − {}, {})/C({}, {}) = {} (= {}): the number the lab shows",
         _springbok_hand),
    Fact("04", "With H = {} the count is simply (U − k)/U", _f4("H")),
    Fact("04", "Your {} slow cards are not in their hands. So the faster card is more likely to be there: {} of {} "
               "rather than {} of {}",
         lambda: (_k04()["hand"] - _k04()["seen_card"],) + _f4("k", "U_hand", "k", "U_card")()),
    Fact("04", "Two players ({} cards each) are still to play after you. You now know one more card, so "
               "U = {} − {} − {} = {}. Only the {} cards of the two players after you can still beat you, so k = {}.",
         _f4("hand", "N", "hand", "trick", "U_follow", "k_follow", "k_follow")),
    Fact("04", "Cards slower than the Warthog, or as fast, are at {}", _f4("lost")),
    Fact("04", "The best lead, the {}, goes from {} to {}. That is because only the {} cards still to come can beat "
               "it, instead of {}.", _f4("best_name", "best_lead", "best_follow", "k_follow", "k")),
    Fact("04", "U is {} minus every card you have seen", _f4("N")),
    Fact("04", "the Impala's is its {}, {} {}, yet its rank on {} is only {} of {}",
         _f4("impala_item", "impala_value", "impala_unit", "impala_item", "impala_rank", "N")),
    Fact("04", "One player with {} cards plays after you", _f4("follow_later")),
    Fact("04", "Round r deals {} − r cards, so it has {} − r turns. Each turn has one winner, so at most {} − r "
               "players can win a turn", _f4("c", "c", "c")),
    Fact("04", "With {} players and , after which round is at least one player certainly out",
         _f4("pigeon_players")),
    Fact("04", "games with {} players, with and without", _f4("players")),
    Fact("04", "U counts the cards you have not seen: {} − {} = {} when you know only your card, {} − {} = {} when "
               "you know your hand",
         _f4("N", "seen_card", "U_card", "N", "seen_hand", "U_hand")),
    Fact("04", "Elimination: round r has {} − r turns, so with {} players someone is certainly out after round {}",
         _f4("c", "players", "out")),
    Fact("04", "Knowing only your card, U = N − {} = {}; the lab knows your hand, U = {} − {} = {} (and cards played "
               "this round are seen too). The Springbok step in section {} shows one position both ways",
         lambda: _f4("seen_card", "U_card", "N", "seen_hand", "U_hand")() + (_section("04", "Your whole hand"),)),
    Fact("04", "is set in a {}-player game (k = {})", _f4("lead_players", "lead_k")),
    Fact("04", "taking U = {}, C({}−H, k)/C({}, k) (forgetting that your own card is seen", _f4("N", "N", "N")),
    Fact("04", "taking H = the rank ({} for the Impala on top speed) instead of the rank − {}; keeping k = {} from "
               "the {}-player examples", _f4("impala_speed_rank", "rank_offset", "k", "players")),
    Fact("04", "keeping U = {} (the other cards of your hand are seen too, U = {} − {} = {})",
         _f4("U_card", "N", "seen_hand", "U_hand")),
    Fact("04", "Pigeonhole with {} players: answering round {} ({} turns for {} players: everyone could still win one)",
         _wrong_pigeonhole),
)

GIVEN: tuple[Given, ...] = (
    Given("04", "the lab stops on Round 1 is over", "the Knockout lab's words at the end of a round (round 1 is the "
                                                    "first it reaches)"),
    Given("04", "in 200 games between random players", "a sample size: enough turns to see a rare tie, and quick"),
    Given("04", "Let's simulate 20,000", "a sample size: numpy plays them at once, and the bars are smooth"),
)
