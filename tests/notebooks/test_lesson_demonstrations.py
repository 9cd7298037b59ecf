"""Each lesson section that *demonstrates* something shows it, at the position the lesson uses (issue 17, part 3).

Two demonstrations once showed nothing: nb02 §4 "The value of memory" at a position where seat 0 remembered no
face-down place (both columns 6/31 everywhere), and nb04 §3 "leading versus following" with a hand whose every
cell was 0.0. The positions are now chosen by ``lesson_02.find_memory_position`` and
``lesson_04.find_hand_seed``; here the property each section's text claims is asserted for the committed
position, and the numbers are recomputed without the kit's probability code: from ``data/cards.csv`` (csv
module), the game's public log and true layout, by brute force over the unknown cards and by simulation. A new
dealer, bot or seed that empties a demonstration fails here.
"""
import csv
from fractions import Fraction
from itertools import permutations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from safari_kit.teaching import lesson_02, lesson_04

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX")  # rules, W2
TYPES = ("animal", "texture", "color", "name")  # one clue type each (seat 0 has no ALEX on top here)


def _cards(deck: str) -> dict[str, dict]:
    with open(ROOT / "data" / "cards.csv", newline="", encoding="utf-8") as f:
        return {row["id"]: row for row in csv.DictReader(f) if row["deck"] == deck}


def _lesson(prefix: str) -> str:
    return next((ROOT / "notebooks").glob(f"{prefix}-*.md")).read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- nb02 §4-§5: the value of memory
WITNESS = _cards("witness")


def _fits(pattern: str, name: str) -> bool:
    return len(pattern) == len(name) and all(p in ("?", n) for p, n in zip(pattern, name))


def _shares(a: str, b: str, kind: str) -> bool:
    """Cards ``a`` and ``b`` (ids) share an element of ``kind`` (names per W2: one name fits both)."""
    x, y = WITNESS[a], WITNESS[b]
    if kind == "name":
        return any(_fits(x["name"], n) and _fits(y["name"], n) for n in NAMES)
    return x[kind] == y[kind]


@pytest.fixture(scope="module")
def memory():
    game, state = lesson_02.memory_position()
    return game, state, lesson_02.memory_claims(game, state)


def _remembered_from_the_log(obs) -> dict[int, str]:
    """Seat 0's perfect memory, read off the public log: a card seen face up at a place stays known there
    until that place is dealt a new card or the card is archived."""
    known: dict[int, str] = {}
    for event in obs.log:
        kind = event["kind"]
        if kind == "fail":
            known.update({e["place"]: e["card"] for e in event["face_up"]})
        elif kind == "identify":
            known[event["place"]] = event["card"]
        elif kind == "deal":
            known.pop(event["place"], None)
        elif kind == "archive":
            known = {p: c for p, c in known.items() if c not in event["cards"]}
    return {p: c for p, c in known.items() if p in obs.available_places}


def test_the_lesson_plays_the_checked_position():
    text = _lesson("02")
    assert "lesson_02.memory_position()" in text
    assert "Memory(last_k=0)" in text  # "knowing nothing" as in memory_knowledge


def test_memory_section_shows_what_it_claims(memory):
    """Remembered places give 1 and 0; knowing nothing gives one fraction everywhere; with memory the unknown
    places are over fewer cards; reveal another beats identify with memory and loses without it."""
    _, _, claims = memory
    assert lesson_02.shows_the_value_of_memory(claims), claims
    assert claims["match"] and claims["miss"] and claims["unknown"]


def test_memory_values_by_brute_force(memory):
    game, state, claims = memory
    obs = state.observation(0)
    clue = obs.clue_area[0]
    animal = WITNESS[clue]["animal"]
    known = _remembered_from_the_log(obs)
    # what seat 0 remembers is true: those cards lie there
    for place, card in known.items():
        assert game.cards[state.card_at[place]].id == card
    match = sorted(p for p, c in known.items() if WITNESS[c]["animal"] == animal)
    miss = sorted(p for p, c in known.items() if WITNESS[c]["animal"] != animal)
    assert (match, miss) == (sorted(claims["match"]), sorted(claims["miss"]))
    assert sorted(set(obs.available_places) - set(known)) == sorted(claims["unknown"])
    # unknown cards: all but the face-up ones (clue area, archives), and, remembering, all but the remembered
    seen = set(obs.clue_area) | {c for archive in obs.archives for c in archive}
    nothing = [c for c in WITNESS if c not in seen]
    remember = [c for c in nothing if c not in known.values()]
    assert len(nothing) == obs.deck_count + len(obs.available_places)  # the deck and the face-down places
    m_nothing = sum(WITNESS[c]["animal"] == animal for c in nothing)
    m_remember = sum(WITNESS[c]["animal"] == animal for c in remember)
    assert (len(nothing), m_nothing, len(remember), m_remember) == (
        claims["n_nothing"], claims["m_nothing"], claims["n_remember"], claims["m_remember"])
    assert claims["p_nothing"] == Fraction(m_nothing, len(nothing))
    assert claims["p_unknown"] == Fraction(m_remember, len(remember))
    # the section's sentence: N and m drop by the remembered cards and the remembered Elephants
    assert len(nothing) - len(remember) == len(known) and m_nothing - m_remember == len(match)


def _p_one(pool: list[str], known: dict[int, str], clue: str, place: int, kind: str) -> Fraction:
    if place in known:
        return Fraction(int(_shares(known[place], clue, kind)))
    return Fraction(sum(_shares(c, clue, kind) for c in pool), len(pool))


def _p_both(pool: list[str], known: dict[int, str], places, c1: str, c2: str) -> Fraction:
    """The best plan for two clues (places and types chosen before revealing), by counting: at two unknown
    places the pair of cards is a uniform ordered pair of distinct pool cards."""
    n = len(pool)
    sets = {(c, k): {x for x in pool if _shares(x, c, k)} for c in (c1, c2) for k in TYPES}
    best = Fraction(0)
    for a, b in permutations(places, 2):
        for k1 in TYPES:
            for k2 in TYPES:
                if a in known or b in known:
                    p = _p_one(pool, known, c1, a, k1) * _p_one(pool, known, c2, b, k2)
                else:
                    s1, s2 = sets[(c1, k1)], sets[(c2, k2)]
                    p = Fraction(len(s1) * len(s2) - len(s1 & s2), n * (n - 1))
                best = max(best, p)
    return best


def test_identify_and_reveal_another_by_brute_force(memory):
    """§5 prints, for both ways of knowing, the best declaration's p, E = 2·p and E = 4·P(both); P(both) is
    recounted here over every possible second clue card X (uniform over the unknown cards)."""
    _, state, claims = memory
    obs = state.observation(0)
    assert not obs.alex
    clue = obs.clue_area[0]
    known = _remembered_from_the_log(obs)
    seen = set(obs.clue_area) | {c for archive in obs.archives for c in archive}
    nothing = [c for c in WITNESS if c not in seen]
    for label, mem in [("remembering", known), ("knowing nothing", {})]:
        pool = [c for c in nothing if c not in mem.values()]
        p = max(_p_one(pool, mem, clue, place, k) for place in obs.available_places for k in TYPES)
        assert claims["identify"][label] == 2 * p, label
        both = sum((_p_both([c for c in pool if c != x], mem, obs.available_places, clue, x) for x in pool),
                   Fraction(0)) / len(pool)
        assert claims["reveal"][label] == 4 * both, label
    assert claims["identify"]["remembering"] == 2  # a remembered Elephant: identify now is sure


# ----------------------------------------------------------------------------- nb04 §3: leading vs following
PALS = _cards("knockout")
SPEED = "top_speed_kmh"


def _speed(card: str) -> float:
    return float(PALS[card][SPEED])


def test_the_lesson_deals_the_checked_hand():
    text = _lesson("04")
    assert "seed=lesson_04.HAND_SEED" in text
    assert 'warthog = "K36"' in text and "later=(7, 7)" in text
    assert (lesson_04.FOLLOWED, lesson_04.FOLLOW_LATER_HANDS) == ("K36", (7, 7))


def test_following_section_shows_what_it_claims():
    """Cards no faster than the Warthog are at 0 following; every faster card's chance rises, visibly at the
    three decimals the table prints; the hand's best lead is on top speed."""
    claims = lesson_04.following_claims()
    assert lesson_04.shows_following(claims), claims
    assert any(r["follow_shown"] >= 0.1 for r in claims["rows"].values())  # not a table of zeros


def test_following_values_by_counting_and_simulation():
    """Leading with the hand known: U = 57 − 7 unseen cards, the 21 in the opponents' hands must hold none of
    the H strictly faster ones (K3: a tie goes to the first card): C(U − H, 21)/C(U, 21). Following the
    Warthog: U = 57 − 7 − 1 and only the 14 cards still to come count. A simulation deals the 14 cards."""
    from safari_kit.knockout import KnockoutGame

    hand = KnockoutGame(players=4).new_initial_state(seed=lesson_04.HAND_SEED).observation(0).hand
    assert len(PALS) == 57 and len(hand) == 7 and "K36" not in hand
    claims = lesson_04.following_claims()
    rng = np.random.default_rng(17)
    for card in hand:
        lead_unseen = [c for c in PALS if c not in hand]
        follow_unseen = [c for c in lead_unseen if c != "K36"]
        faster = lambda pool: sum(_speed(c) > _speed(card) for c in pool)  # noqa: E731
        h = faster(lead_unseen)
        lead = Fraction(comb(len(lead_unseen) - h, 21), comb(len(lead_unseen), 21))
        if _speed(card) <= _speed("K36"):
            follow = Fraction(0)
        else:
            h = faster(follow_unseen)
            follow = Fraction(comb(len(follow_unseen) - h, 14), comb(len(follow_unseen), 14))
            # simulation: deal the 14 cards still to come from the 49 unseen
            beats = np.array([_speed(c) > _speed(card) for c in follow_unseen])
            draws = rng.random((40_000, len(follow_unseen))).argsort(axis=1)[:, :14]
            won = ~beats[draws].any(axis=1)
            se = max(np.sqrt(float(follow) * (1 - float(follow)) / len(won)), 1e-4)
            assert abs(won.mean() - float(follow)) < 5 * se, card
        row = claims["rows"][card]
        assert (row["lead"], row["follow"]) == (lead, follow), card


# ----------------------------------------------------------------------------- nb06 §4: the Learners toggles
def test_lesson_06_names_the_learners_toggles_the_lab_shows():
    """nb06 §4 tells a class at one screen to press the Player 1 and Player 2 toggles beside Learners: the lab
    of the cell shows those toggles, and pressing them makes every seat a learner's."""
    pytest.importorskip("ipywidgets")
    from safari_kit.widgets.labs.fullgame import FullGameLab

    text = " ".join(_lesson("06").split())
    assert "press the *Player 1* and *Player 2* toggles beside **Learners**" in text
    assert "FullGameLab(seed=3, players=3, case_module=True, advanced=True, humans=(0,), bots=\"greedy\")" in text
    lab = FullGameLab(seed=3, players=3, case_module=True, advanced=True, humans=(0,), bots="greedy")
    toggles = {t.description: t for t in lab.learner_picker.children}
    assert set(toggles) == {"Player 0", "Player 1", "Player 2"}
    toggles["Player 1"].value = toggles["Player 2"].value = True
    assert lab.learner_seats == (0, 1, 2)


# ----------------------------------------------------------------------------- controls: the property can fail
def test_the_positions_the_issue_found_fail_the_properties():
    """The positions the issue reported (seed 7 after turn 6: 6/31 everywhere, nothing remembered; hand seed
    2: a table of zeros) fail the checks above, so the checks can fail."""
    game, state = lesson_02.memory_position(seed=7, turns=6)
    old = lesson_02.memory_claims(game, state)
    assert old["p_nothing"] == old["p_unknown"] == Fraction(6, 31) and not old["match"] and not old["miss"]
    assert not lesson_02.shows_the_value_of_memory(old)
    zeros = lesson_04.following_claims(seed=2)
    assert all(r["follow_shown"] == r["lead_shown"] == 0 for r in zeros["rows"].values())
    assert not lesson_04.shows_following(zeros)


def test_the_committed_positions_are_the_searches_first():
    """MEMORY_SEED/MEMORY_TURNS and HAND_SEED are what their documented searches choose."""
    assert lesson_02.find_memory_position() == (lesson_02.MEMORY_SEED, lesson_02.MEMORY_TURNS)
    assert lesson_04.find_hand_seed() == lesson_04.HAND_SEED
