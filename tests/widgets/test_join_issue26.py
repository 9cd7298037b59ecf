"""Issue 26, the join panel on a recording class server: one browser one learner, one nickname one learner,
a quota on the class's records, and the download made only when asked for.

At 9bdb9c7 every page was a new learner with a random id, look-alike nicknames all joined, a page could store
records as fast as it pressed Simulate, and every record re-sent the whole results file to the page.
"""
from __future__ import annotations

import uuid
from fractions import Fraction

import pytest

from safari_kit.class_results.class_learner import TAKEN, Quota
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.learner_tags import tags_folder
from safari_kit.class_results.results_file import parse_results
from safari_kit.widgets.class_join import JoinPanel, over_quota_words


def browser_kernel(store: ResultStore, tag: str) -> str:
    """A kernel handed to the browser whose tag is ``tag`` (as the class server writes it): its id."""
    folder = tags_folder(store.path)
    folder.mkdir(mode=0o700, exist_ok=True)
    kid = str(uuid.uuid4())
    (folder / kid).write_text(tag, encoding="ascii")
    return kid


TAG_A, TAG_B = "a" * 64, "b" * 64


def _guess(recorder, n=1):
    for _ in range(n):
        recorder.guess("identification", guess=Fraction(1, 5), exact=Fraction(7, 37), outcome=0,
                       chance_seen=False)


@pytest.fixture
def store(tmp_path):
    with ResultStore(tmp_path, "lesson") as s:
        yield s


def test_two_pages_of_one_browser_are_one_learner_under_one_nickname(store):
    first = JoinPanel(store, kernel_id=browser_kernel(store, TAG_A))
    second = JoinPanel(store, kernel_id=browser_kernel(store, TAG_A))
    one = first.join("Zed")
    two = second.join("Amy")  # the second tab of the same browser types another name
    assert one.learner == two.learner and two.nickname == "Zed"
    assert "This browser joined as Zed already" in second.note.value
    _guess(one, 2)
    _guess(two, 2)
    _guess(one)
    stored = store.records()
    assert len(stored) == 5 and {r.learner for r in stored} == {one.learner}
    assert sorted(r.seq for r in stored) == [1, 2, 3, 4, 5]


def test_another_browser_cannot_take_a_nickname_or_its_look_alikes(store):
    assert JoinPanel(store, kernel_id=browser_kernel(store, TAG_A)).join("Zed") is not None
    for name in ("zed", "  Zed  ", "\uff3a\uff45\uff44", "ZED"):
        other = JoinPanel(store, kernel_id=browser_kernel(store, TAG_B))
        assert other.join(name) is None and other.recorder is None, name
        assert TAKEN in other.note.value and not other.join_button.disabled
    for name in ("Z\u0435d", "Zed\u200b", "\u202edeZ"):
        other = JoinPanel(store, kernel_id=browser_kernel(store, TAG_B))
        assert other.join(name) is None, name
    assert JoinPanel(store, kernel_id=browser_kernel(store, TAG_B)).join("Amy") is not None


def test_without_a_tag_each_page_has_its_own_random_learner(store):
    one, two = JoinPanel(store).join("Zed"), JoinPanel(store).join("Amy")
    assert one.learner != two.learner
    assert JoinPanel(from_env=False).join("Zed").learner != JoinPanel(from_env=False).join("Zed").learner


def test_a_huge_nickname_is_dropped_and_the_refusal_is_short(store):
    panel = JoinPanel(store)
    panel.nickname.value = "Z" * 900_000  # sent by the page
    assert panel.nickname.value == ""
    assert panel.join("Z" * 900_000) is None and len(panel.note.value) < 300 and "too long" in panel.note.value


def test_records_over_the_quota_stay_in_the_download_and_the_learner_is_told_once(store):
    quota = Quota(burst=3, seconds_per_record=3600.0, cap=100)
    panel = JoinPanel(store, kernel_id=browser_kernel(store, TAG_A), quota=quota)
    rec = panel.join("Zed")
    _guess(rec, 3)
    assert store.count() == 3 and "Zed" in panel.note.value
    _guess(rec, 4)
    assert store.count() == 3 and len(rec.records) == 7 and panel.not_stored == 4
    assert over_quota_words(quota) in panel.note.value.replace("&#x27;", "'")
    assert "first 3 results" in over_quota_words(quota)
    # another page of the same browser shares the quota
    other = JoinPanel(store, kernel_id=browser_kernel(store, TAG_A), quota=quota).join("Zed")
    _guess(other)
    assert store.count() == 3


def test_the_download_is_sent_only_when_asked_and_once_per_press(store):
    panel = JoinPanel(store, kernel_id=browser_kernel(store, TAG_A))
    rec = panel.join("Zed")
    sent = []
    panel.download.widget.send = sent.append
    for _ in range(50):
        _guess(rec)
        panel.download.refresh(rec)  # what a lab does after each record: the count only
    assert sent == [] and panel.download.widget.count == 50
    panel.download._asked(panel.download.widget, {"ask": "file"}, [])
    panel.download._asked(panel.download.widget, {"ask": "file"}, [])  # a second press at once: not again
    panel.download._asked(panel.download.widget, {"ask": "anything else", "text": "x"}, [])
    assert len(sent) == 1 and parse_results(sent[0]["text"], sent[0]["name"]) == rec.records
