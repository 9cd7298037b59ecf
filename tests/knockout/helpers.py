"""Helpers for scripting Knockout games: made-up cards, scripted deals, a turn driver, snapshots."""
from __future__ import annotations

import copy

from safari_kit.cards.model import SafariPal
from safari_kit.knockout import KnockoutGame, KnockoutState, Play


def make_cards(n: int = 49) -> tuple[SafariPal, ...]:
    """Cards C01..Cnn whose every data item equals their number: a higher number always wins."""
    return tuple(SafariPal(f"C{i:02d}", f"Animal {i}", float(i), float(i), float(i), float(i))
                 for i in range(1, n + 1))


def cid(i: int) -> str:
    return f"C{i:02d}"


def interleave(hands_in_deal_order, all_ids) -> list[str]:
    """A deck order that deals these hands one card at a time (first list = first player dealt)."""
    h = len(hands_in_deal_order[0])
    assert all(len(x) == h for x in hands_in_deal_order)
    order = [hand[k] for k in range(h) for hand in hands_in_deal_order]
    return order + [c for c in all_ids if c not in order]


def scripted_deals(rounds: dict, all_ids) -> list[list[str]]:
    """``rounds[r]`` = hands in deal order for round r; other rounds use the deck in id order."""
    return [interleave(rounds[r], all_ids) if r in rounds else list(all_ids) for r in range(1, 8)]


def number(card_id: str) -> int:
    return int(card_id[1:])


def play_turn(state: KnockoutState, winner: int, item: str | None = None) -> None:
    """Play one whole turn: ``winner`` plays its highest card, everyone else its lowest (make_cards decks)."""
    item = item or state.game.items[0]
    first = True
    while True:
        seat = state.current_player
        hand = sorted(state.hand(seat), key=number)
        card = hand[-1] if seat == winner else hand[0]
        state.apply(Play(card, item if first else None))
        first = False
        if state.trick == () :
            return


def snapshot(state: KnockoutState) -> dict:
    """Every slot of the state (deep-copied, the game by identity), plus the full view and record."""
    slots = {name: (getattr(state, name) if name == "game" else copy.deepcopy(getattr(state, name)))
             for name in KnockoutState.__slots__}
    return {"slots": slots, "view": state.full_view(), "record": state.to_record(),
            "legal": state.legal_actions()}


def random_play(state: KnockoutState, choices, check=None, limit: int = 10_000) -> int:
    """Play legal actions picked by ``choices`` (ints, reused cyclically) until the end; return steps."""
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a live state must have a legal action"
        pick = choices[steps % len(choices)] if choices else 0
        state.apply(legal[pick % len(legal)])
        steps += 1
        if check is not None:
            check(state)
        assert steps < limit
    return steps


def small_game(**kw) -> KnockoutGame:
    kw.setdefault("cards", make_cards(49))
    return KnockoutGame(**kw)
