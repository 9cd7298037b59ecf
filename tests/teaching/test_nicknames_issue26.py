"""Issue 26: nicknames are cleaned, bounded first, and look-alikes collide in the class's database.

At 9bdb9c7 the same session accepted ``Zed``, ``zed``, ``"  Zed  "``, ``Zеd`` (Cyrillic е), ``Zed`` + a
zero-width space, a right-to-left override that displays "Zed" and full-width letters: six rows the teacher
could not tell apart; a 900 kB nickname came back whole inside the refusal; pages of one learner numbered
their records alone; nothing bounded how many records a learner stored.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from safari_kit.class_results.class_learner import (TAKEN, NicknameTaken, Quota, claim_nickname, next_seq,
                                                    take_quota)
from safari_kit.class_results.class_records import Guess, RecordError, check_who
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.nicknames import NicknameError, clean_nickname, nickname_key

LOOK_ALIKES = ["Zed", "zed", "  Zed  ", "Z\u0435d", "Zed\u200b", "\u202edeZ", "\uff3a\uff45\uff44", "ZED", "\u0396ed",
               "\u0396\u0435\u0501"]


def test_each_look_alike_of_zed_is_refused_or_has_zeds_key():
    for raw in LOOK_ALIKES:
        try:
            name = clean_nickname(raw)
        except NicknameError:
            continue
        assert nickname_key(name) == nickname_key("Zed"), raw


@pytest.mark.parametrize("raw, words", [
    ("Z\u0435d", "mixes letters of different alphabets"),
    ("Zed\u200b", "hidden or control character"),
    ("\u202edeZ", "hidden or control character"),
    ("Ze\u2066d", "hidden or control character"),
    ("Ze\u3164d", "hidden or control character"),
    ("two\nlines", "hidden or control character"),
    ("x" * 31, "too long"),
    ("", "Type a nickname first"),
    ("   ", "Type a nickname first"),
    (None, "Type a nickname"),
])
def test_a_nickname_that_cannot_be_used_is_refused_in_plain_words(raw, words):
    with pytest.raises(NicknameError, match=words):
        clean_nickname(raw)


def test_the_length_is_bounded_first_and_the_refusal_never_repeats_the_text():
    huge = "Z" * 900_000
    with pytest.raises(NicknameError) as info:
        clean_nickname(huge + "\u202e")
    assert "too long" in str(info.value) and len(str(info.value)) < 200
    with pytest.raises(RecordError) as rec_info:
        check_who("L1", huge)
    assert len(str(rec_info.value)) < 300


def test_names_are_trimmed_spaces_collapsed_and_wide_letters_made_plain():
    assert clean_nickname("  Amy \u3000  Lee ") == "Amy Lee"
    assert clean_nickname("\uff3a\uff45\uff44") == "Zed"
    assert clean_nickname("Zoë") == "Zoë" and clean_nickname("Юля") == "Юля"
    assert clean_nickname("さくら花") == "さくら花"


def test_a_record_never_carries_a_bidi_override_or_zero_width_nickname():
    for raw in ("\u202edeZ", "Zed\u200b", "Zed\u2028"):
        with pytest.raises(RecordError, match="nickname must not hold hidden"):
            Guess(learner="L1", nickname=raw, lab="identification", at="2026-11-16T09:05:00+00:00", seq=1,
                  guess=0.5, exact=Fraction(1, 2), outcome=1)


def test_one_key_one_learner_in_a_session(tmp_path):
    with ResultStore(tmp_path, "s") as store:
        assert claim_nickname(store, "Lzed", "Zed") == "Zed"
        for raw in LOOK_ALIKES:
            try:
                name = clean_nickname(raw)
            except NicknameError:
                continue
            with pytest.raises(NicknameTaken, match=TAKEN):
                claim_nickname(store, "Lother", name)
        # the same learner (another page of the same browser) holds its first name, whatever it types now
        assert claim_nickname(store, "Lzed", "Amy") == "Zed"
        assert claim_nickname(store, "Lamy", "Amy") == "Amy"


def test_the_pages_of_one_learner_share_record_numbers(tmp_path):
    with ResultStore(tmp_path, "s") as store:
        claim_nickname(store, "Lzed", "Zed")
        assert [next_seq(store, "Lzed") for _ in range(3)] == [1, 2, 3]


def test_the_quota_is_a_burst_then_a_rate_then_a_cap(tmp_path):
    now = [1000.0]
    quota = Quota(burst=5, seconds_per_record=2.0, cap=8)
    with ResultStore(tmp_path, "s") as store:
        claim_nickname(store, "Lzed", "Zed", quota=quota, clock=lambda: now[0])
        assert [take_quota(store, "Lzed", quota, lambda: now[0]) for _ in range(7)] == [True] * 5 + [False] * 2
        now[0] += 2.0
        assert take_quota(store, "Lzed", quota, lambda: now[0])
        assert not take_quota(store, "Lzed", quota, lambda: now[0])
        now[0] += 3600
        assert [take_quota(store, "Lzed", quota, lambda: now[0]) for _ in range(4)] == [True, True, False, False]


def test_wipe_removes_the_owner_tags_a_crashed_server_left(tmp_path):
    from safari_kit.class_results.class_store import wipe
    from safari_kit.class_results.learner_tags import tags_folder

    ResultStore(tmp_path, "s").close()
    tags = tags_folder(tmp_path / "s.sqlite3")
    tags.mkdir(mode=0o700)
    (tags / "1b2c3d4e-0000-4000-8000-123456789abc").write_text("a" * 64)
    assert tags in wipe(tmp_path, "s") and not tags.exists()


def test_admit_numbers_and_counts_the_quota_in_one_step(tmp_path):
    from safari_kit.class_results.class_learner import admit

    now = [0.0]
    quota = Quota(burst=2, seconds_per_record=10.0, cap=5)
    with ResultStore(tmp_path, "s") as store:
        claim_nickname(store, "Lzed", "Zed", quota=quota, clock=lambda: now[0])
        assert [admit(store, "Lzed", quota, lambda: now[0]) for _ in range(3)] == [(1, True), (2, True), (3, False)]
        assert next_seq(store, "Lzed") == 4
