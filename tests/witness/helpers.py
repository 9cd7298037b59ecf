"""Helpers to script Safari Witness positions with real (or tiny custom) decks."""
from __future__ import annotations

import pytest

from safari_kit.cards import load_cards
from safari_kit.cards.model import Mugshot
from safari_kit.core.errors import IllegalActionError
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A

CARDS = load_cards().witness
BY_ID = {c.id: c for c in CARDS}
ALL_IDS = frozenset(BY_ID)


def find(**attrs) -> list[str]:
    """Ids of real cards whose attributes equal ``attrs`` (e.g. animal="Owl", name="TAM")."""
    return [c.id for c in CARDS if all(getattr(c, k) == v for k, v in attrs.items())]


def one(**attrs) -> str:
    ids = find(**attrs)
    assert ids, attrs
    return ids[0]


def shares_any(a: str, b: str) -> bool:
    """Do two real cards share any element (names per W2)?"""
    x, y = BY_ID[a], BY_ID[b]
    return (x.animal == y.animal or x.texture == y.texture or x.color == y.color
            or bool(x.possible_names & y.possible_names))


def safe_for(challenged: str, n: int, exclude=()) -> list[str]:
    """n real cards that share no element with ``challenged`` (W5 safe)."""
    out = [c.id for c in CARDS if c.id != challenged and c.id not in exclude and not shares_any(challenged, c.id)]
    assert len(out) >= n
    return out[:n]


def start(places, clues=(), players=3, seed=0, cards=None, **options):
    """A state with ``places`` at Unidentified places 1.. and ``clues`` dealt next; seat 0 starts."""
    game = WitnessGame(players=players, first_player=0, cards=cards, **options)
    return game.new_initial_state(seed=seed, deck_order=list(places) + list(clues))


def custom_deck(n, animal=None, name=None, prefix="C") -> tuple[Mugshot, ...]:
    """n made-up Mugshots. Unless fixed, every element is unique, so no two cards share anything."""
    return tuple(Mugshot(f"{prefix}{i:02d}", animal or f"animal{i}", f"texture{i}", f"color{i}",
                         name or f"X{i}") for i in range(n))


def view_places(state) -> dict[int, tuple[str, bool]]:
    return {p: (cid, up) for p, cid, up in state.full_view()["unidentified"]}


def archive_ids(state, player) -> list[str]:
    return state.full_view()["archives"][player]


def declare_succeeds(state, action) -> bool:
    game = state.game
    clue = game.index[action.clue]
    target = state.card_at[action.place]
    return any(target in game.shares[t][clue] for t in action.types)


def pick_declare(state, success: bool):
    for a in state.legal_actions():
        if isinstance(a, A.Declare) and declare_succeeds(state, a) == success:
            return a
    return None


def fail_turn(state):
    """Play the current player's turn as a failed identification (needs a failing choice), then turn the cards down."""
    assert state.phase == "choose"
    state.apply(A.Identify())
    a = pick_declare(state, success=False)
    assert a is not None, "no failing identification available"
    state.apply(a)
    assert state.phase == "face_up"
    state.apply(A.TurnFaceDown())


def archive_top(state, top: str) -> None:
    """Archive what was won with ``top`` on top and the other cards in reveal order (W4, ArchiveCard by card)."""
    assert state.phase == "archive", state.phase
    for card in [c for c in state.full_view()["won"] if c != top]:
        if state.phase == "archive" and len(state.full_view()["won"]) > 1:
            state.apply(A.ArchiveCard(card))
    if state.phase == "archive":
        state.apply(A.ArchiveCard(top))


def failed_then_next(state, next_player: int) -> dict:
    """After a failure (W4/W5): the revealed cards lie face up in every observation, then go face down.

    Returns ``{place: card id}`` of what lay face up, so a test can check it.
    """
    assert state.phase == "face_up", state.phase
    failer = state.current
    shown = {p: cid for p, cid, up in state.full_view()["unidentified"] if up}
    assert shown, "a failure shows at least the card that failed"
    for seat in range(state.players):
        obs = state.observation(seat)
        assert obs.phase == "face_up" and obs.current_player == failer
        assert {p: cid for p, cid in obs.unidentified if cid is not None} == shown
    state.apply(A.TurnFaceDown())
    assert state.phase in ("choose", "over")
    if state.phase == "choose":
        assert state.current == next_player
        for seat in range(state.players):
            assert all(cid is None for _, cid in state.observation(seat).unidentified)
    return shown


def face_down(state) -> None:
    """Go on after a failure: the player who failed turns the face-up cards face down (W4)."""
    assert state.phase == "face_up", state.phase
    state.apply(A.TurnFaceDown())


def assert_illegal(state, action, *words):
    """``action`` raises IllegalActionError naming it and a reason, and changes nothing."""
    before = state.full_view()
    legal_before = state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    err = info.value
    msg = str(err)
    assert type(action).__name__ in msg, msg
    assert err.action == action if _hashable(action) else True
    assert err.reason and len(err.reason) > 10, msg
    for w in words:
        assert w.lower() in msg.lower(), (w, msg)
    assert state.full_view() == before
    assert state.legal_actions() == legal_before
    return msg


def _hashable(x) -> bool:
    try:
        hash(x)
        return True
    except TypeError:
        return False


def public_ids(view: dict) -> set[str]:
    """Card ids every player sees in a full view: Clue Area, won cards, archives, face-up places."""
    out = set(view["clue"]) | set(view["won"]) | set(view["resolved"])
    for archive in view["archives"]:
        out |= set(archive)
    out |= {cid for _, cid, up in view["unidentified"] if up}
    if view["challenged"]:
        out.add(view["challenged"])
    return out


def location_multiset(state) -> list[int]:
    """Every card index by location; 'won' counts only once cards left the table (archive phase)."""
    cards = list(state.deck) + [state.card_at[p] for p in state.places] + list(state.clue)
    for archive in state.archives:
        cards += archive
    if state.phase == "archive":
        cards += state.won + state.stacking
    return cards
