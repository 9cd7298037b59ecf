"""Issue 26: in the class's rows one learner weighs as one learner, and only guesses made with the exact chance
hidden count. At 9bdb9c7 one page that guessed "1" 351 times with the chance on screen moved the class's Brier
row from 0.212 to 0.781; the class row was the mean over all guesses pooled."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from safari_kit.class_results.class_records import Guess, KnockoutPlay
from safari_kit.class_results.class_tables import calibration_bin, pool

AT = "2026-11-16T09:05:00+00:00"
chances = st.fractions(0, 1, max_denominator=20)


def guess(learner: str, seq: int, g, exact, outcome: int, seen: bool | None = None) -> Guess:
    return Guess(learner=learner, nickname=learner.title(), lab="identification", at=AT, seq=seq, guess=g,
                 exact=exact, outcome=outcome, chance_seen=seen)


guesses = st.lists(st.tuples(st.sampled_from(["ann", "bo", "cy", "dee"]), chances, chances, st.integers(0, 1),
                             st.sampled_from([None, False, True])), min_size=1, max_size=40)


def class_of(parts) -> list[Guess]:
    return [guess(who, seq, g, e, o, seen) for seq, (who, g, e, o, seen) in enumerate(parts, start=1)]


@settings(max_examples=80, deadline=None)
@given(guesses)
def test_the_class_brier_is_the_mean_of_the_learners_own_scores_over_hidden_chance_guesses(parts):
    recs = class_of(parts)
    mine: dict[str, list[Guess]] = defaultdict(list)
    for g in recs:
        if g.chance_seen is not True:  # a guess with the chance on screen is a copy: left out
            mine[g.learner].append(g)
    scores = pool(recs).brier_scores()
    if not mine:
        assert scores == {}
        return
    own = {k: sum((g.guess - g.outcome) ** 2 for g in gs) / len(gs) for k, gs in mine.items()}
    assert {k: v[1] for k, v in scores.items() if k is not None} == own
    assert scores[None][1] == sum(own.values()) / len(own)
    assert scores[None][0] == sum(len(gs) for gs in mine.values())
    counts = pool(recs).guess_counts()
    assert counts == {"recorded": len(recs), "counted": sum(len(gs) for gs in mine.values()),
                      "chance_seen": sum(g.chance_seen is True for g in recs),
                      "unknown": sum(g.chance_seen is None for g in recs)}


@settings(max_examples=80, deadline=None)
@given(guesses)
def test_calibration_weighs_each_learner_as_one(parts):
    recs = class_of(parts)
    kept = [g for g in recs if g.chance_seen is not True]
    table = pool(recs).calibration()
    if not kept:
        assert table.empty
        return
    n = defaultdict(int)
    for g in kept:
        n[g.learner] += 1
    assert table.weight.sum() == pytest.approx(len(n))  # each learner adds 1 in all
    for row in table.itertuples():
        here = [g for g in kept if f"{calibration_bin(g.guess) / 10:.2g}" == row.bin.split("–")[0]]
        w = sum(Fraction(1, n[g.learner]) for g in here)
        assert row.guesses == len(here) and row.learners == len({g.learner for g in here})
        assert row.weight == pytest.approx(float(w))
        assert row.share_happened == pytest.approx(float(sum(Fraction(1, n[g.learner]) * g.outcome for g in here) / w))
        assert row.mean_guess == pytest.approx(float(sum(Fraction(1, n[g.learner]) * g.guess for g in here) / w))


def test_one_page_copying_the_shown_chance_351_times_moves_the_class_row_by_one_learner_at_most():
    """The issue's flood: 351 guesses of "1" made with the chance on screen, then the same unmarked (an older
    kit's file): left out, then weighing as one learner of the class."""
    honest = [guess(who, k, Fraction(1, 5), Fraction(7, 37), k % 2, seen=False)
              for who in ("ann", "bo", "cy") for k in range(1, 5)]
    before = pool(honest).brier_scores()[None][1]
    seen = [guess("zed", k, 1, Fraction(7, 37), 0, seen=True) for k in range(1, 352)]
    assert pool(honest + seen).brier_scores()[None][1] == before
    assert "zed" not in set(pool(honest + seen).brier().learner)
    unknown = [guess("zed", k, 1, Fraction(7, 37), 0) for k in range(1, 352)]
    after = pool(honest + unknown).brier_scores()[None][1]
    assert after == (3 * before + 1) / 4  # Zed's own score is 1: one learner of four


def test_the_knockout_table_counts_each_learners_plays_and_the_class_as_the_mean_of_learners():
    def play(who, seq, chance, best, won):
        return KnockoutPlay(learner=who, nickname=who.title(), lab="knockout", at=AT, seq=seq, chance=chance,
                            best=best, outcome=won, item="speed")

    recs = [play("ann", 1, Fraction(1, 2), Fraction(1, 2), 1), play("ann", 2, Fraction(1, 4), Fraction(3, 4), 0),
            play("ann", 3, Fraction(3, 4), None, 1), play("bo", 1, Fraction(1, 3), Fraction(2, 3), 0)]
    table = pool(recs).knockout()
    assert list(table.nickname) == ["Ann", "Bo", "the class"]
    ann, bo, cls = (table.iloc[i] for i in range(3))
    assert (ann.plays, ann.with_best, ann.best_share, ann.won, ann.won_share) == (3, 2, 0.5, 2, pytest.approx(2 / 3))
    assert ann.mean_chance == pytest.approx(0.5)
    assert (bo.plays, bo.best_share, bo.won_share) == (1, 0.0, 0.0)
    assert (cls.plays, cls.won) == (4, 2)
    assert cls.best_share == pytest.approx(0.25) and cls.won_share == pytest.approx(1 / 3)
    assert cls.mean_chance == pytest.approx((0.5 + 1 / 3) / 2)
    assert pool([]).knockout().empty
