"""Illegal actions leave the state exactly as it was; records replay; options are validated."""
from __future__ import annotations

import json

import pytest

from safari_kit.core.errors import IllegalActionError, RecordError
from safari_kit.knockout import KnockoutGame, Play, load
from tests.knockout.helpers import make_cards, small_game, snapshot

CARDS = make_cards(49)
IDS = [c.id for c in CARDS]


@pytest.fixture
def state():
    s = small_game(players=3).new_initial_state(deals=[IDS] * 7)
    return s


def _illegal(state, action, match):
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=match) as info:
        state.apply(action)
    assert info.value.action == action and info.value.reason
    assert snapshot(state) == before


def test_illegal_card_not_in_hand(state):
    assert "C02" in state.hands[1]
    _illegal(state, Play("C02", "weight_kg"), "not in the hand of player 0")
    _illegal(state, Play("Z99", "weight_kg"), "no card 'Z99'")


def test_illegal_not_naming_an_item_when_leading(state):
    _illegal(state, Play("C01"), "leads this turn and must name a data item")


def test_illegal_naming_an_item_when_following(state):
    state.apply(Play("C01", "weight_kg"))
    _illegal(state, Play("C02", "weight_kg"), "only the lead names a data item")
    _illegal(state, Play("C01"), "not in the hand")           # already played


def test_illegal_item_not_in_play():
    s = small_game(players=2, items=("weight_kg", "lifespan_years")).new_initial_state(deals=[IDS] * 7)
    _illegal(s, Play("C01", "size_cm"), "not in play in this game")
    _illegal(s, Play("C01", "wingspan"), "unknown data item")
    _illegal(s, "C01", "not a Knockout action")


def test_illegal_after_the_end():
    s = small_game(players=2).new_initial_state(seed=3)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    _illegal(s, Play("C01", "weight_kg"), "game is over")
    _illegal(s, Play("C01"), "game is over")


def test_equal_actions_from_records_are_accepted(state):
    other = state.clone()
    state.apply(state.legal_actions()[3])
    a = other.legal_actions()[3]
    other.apply(Play.from_dict(json.loads(json.dumps(a.to_dict()))))
    assert state == other and state.history == other.history


def test_legal_actions_are_interned(state):
    assert state.legal_actions()[0] is state.clone().legal_actions()[0]
    assert state.game.interned(Play("C01", "weight_kg")) is state.legal_actions()[0]


def test_clone_is_independent(state):
    c = state.clone()
    c.apply(c.legal_actions()[0])
    assert state.history == () and len(c.history) == 1 and state != c


# ---------------------------------------------------------------- options
@pytest.mark.parametrize("kw, match", [
    ({"players": 1}, "2 to 7 players"), ({"players": 8}, "2 to 7 players"), ({"players": "4"}, "integer"),
    ({"items": ()}, "at least one"), ({"items": ("speed",)}, "unknown data item"),
    ({"items": ("size_cm", "size_cm")}, "twice"), ({"elimination": 1}, "True or False"),
    ({"first_dealer": -1}, "first_dealer"),
])
def test_options_are_validated(kw, match):
    with pytest.raises(ValueError, match=match):
        small_game(**kw)


def test_too_few_cards():
    with pytest.raises(ValueError, match="at least 28 cards"):
        KnockoutGame(players=4, cards=make_cards(27))
    with pytest.raises(ValueError, match="unique"):
        KnockoutGame(players=2, cards=make_cards(20) + make_cards(1))


def test_bad_deals():
    game = small_game(players=2)
    with pytest.raises(ValueError, match="7 deck orders"):
        game.new_initial_state(deals=[IDS] * 6)
    with pytest.raises(ValueError, match="unknown card"):
        game.new_initial_state(deals=[IDS + ["nope"]] * 7)
    with pytest.raises(ValueError, match="repeated"):
        game.new_initial_state(deals=[IDS + ["C01"]] * 7)
    with pytest.raises(ValueError, match="need at least 14"):
        game.new_initial_state(deals=[IDS[:13]] + [IDS] * 6)


def test_seed_must_be_valid():
    with pytest.raises(ValueError, match="seed"):
        small_game().new_initial_state(seed=-1)


# ---------------------------------------------------------------- records
def _played(game, seed, steps=None):
    s = game.new_initial_state(seed=seed)
    k = 0
    while not s.is_terminal() and (steps is None or k < steps):
        legal = s.legal_actions()
        s.apply(legal[(k * 7 + seed) % len(legal)])
        k += 1
    return s


def test_record_replays_identically(tmp_path):
    game = KnockoutGame(players=4, elimination=True)        # the shipped deck
    s = _played(game, 5)
    rec = s.to_record()
    assert rec["game"] == "knockout" and rec["seed"] == 5 and rec["setup"]["cards"] is None
    assert KnockoutGame.replay(json.loads(json.dumps(rec))) == s
    path = tmp_path / "g.json"
    s.save(path)
    again = load(str(path))
    assert again == s and again.to_record() == rec


def test_record_of_custom_deck_and_deals_is_self_contained():
    game = small_game(players=3, items=("size_cm",), first_dealer=0)
    s = game.new_initial_state(deals=[list(reversed(IDS))] * 7)
    for _ in range(10):
        s.apply(s.legal_actions()[-1])
    rec = json.loads(json.dumps(s.to_record()))
    assert rec["setup"]["deals"][0] == list(reversed(IDS))
    back = KnockoutGame.replay(rec)                          # no cards passed: they are in the record
    assert back == s and back.game.options == game.options


def test_corrupt_records_name_the_problem():
    game = small_game(players=2)
    s = _played(game, 1, steps=12)
    rec = s.to_record()
    bad = json.loads(json.dumps(rec))
    bad["actions"][5]["card"] = bad["actions"][4]["card"]    # a card already played
    with pytest.raises(RecordError, match=r"action #5 .* illegal on replay"):
        KnockoutGame.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["actions"][2] = {"type": "Draw"}
    with pytest.raises(RecordError, match="action #2: unknown type"):
        KnockoutGame.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["options"]["players"] = 9
    with pytest.raises(RecordError, match="options"):
        KnockoutGame.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["options"]["colour"] = "red"
    with pytest.raises(RecordError, match="unknown option"):
        KnockoutGame.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["game"] = "witness"
    with pytest.raises(RecordError, match="expected 'knockout'"):
        KnockoutGame.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["setup"]["cards"] = None                             # would replay on the shipped deck
    with pytest.raises(RecordError, match="different deck"):
        KnockoutGame.replay(bad)
    with pytest.raises(RecordError, match="truncated|not valid JSON"):
        KnockoutGame.replay(json.dumps(rec)[:-20])


# ---------------------------------------------------------------- views
def test_observation_and_html(state):
    obs = state.observation(0)
    d = obs.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["hand"] == list(state.hands[0]) and d["hand_sizes"] == [7, 7, 7]
    assert obs.leading and obs.my_turn
    with pytest.raises(ValueError):
        state.observation(3)
    html = state._repr_html_()
    assert "Animal 1 (C01)" in html and "C02" not in html     # only the player to act's hand
    assert "Safari Knockout" in obs._repr_html_()
    assert json.loads(json.dumps(state.full_view()))["hands"][1][0] == "C02"
