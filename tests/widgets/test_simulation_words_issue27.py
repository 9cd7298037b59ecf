"""The Simulation lab's words for a 15-year-old (issue 27), driven from Python as the page drives it.

Checked, each failing on the lab before: the opening run says it is run 1, drawn by the lab, and the first
press says run 1 was the lab's; no pooled row while *Pool my runs* is unticked; the exact chance shows the
count first (14/74 before 7/37); when a tournament ends the status (and the live region) say so; no bot's code
name (``memory:0.25``, ``lastk:6``) is on the screen; SE, Wilson's interval, log scale and slope −1/2 are said
in plain words in the lab.
"""
from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("anywidget")

from safari_kit.widgets.labs.simulation import SimulationLab  # noqa: E402


def text(h: str) -> str:
    h = re.sub(r"</?(b|i|span|summary)\b[^>]*>", "", h)
    return html.unescape(" ".join(re.sub(r"<style.*?</style>|<[^>]+>", " ", h, flags=re.S).split()))


@pytest.fixture(scope="module")
def lab():
    return SimulationLab(tournament_game="witness")


def test_run_one_is_the_labs_and_the_first_press_says_so(lab):
    note = text(lab.summary.value)
    assert note.startswith("Run 1 with N = 1,000: the lab drew these 1,000 trials as it opened."), note
    assert "Press Simulate for run 2" in note
    lab.run_button.click()
    note = text(lab.summary.value)
    assert note.startswith("Run 2 with N = 1,000: your press of Simulate drew 1,000 new trials. "
                           "Run 1 was drawn by the lab as it opened."), note


def test_pooled_row_only_when_ticked_and_count_first(lab):
    lab.pool_box.value = False
    lab.run_button.click()
    assert "pooled" not in text(lab.summary.value).split("Tick")[0]
    lab.pool_box.value = True
    assert f"All {len(lab.history[lab.question.key])} runs pooled" in lab.summary.value
    lab.pool_box.value = False
    from safari_kit.widgets.labs.simulation_draws import count_words

    q = lab.question
    exact = text(lab.summary.value).split("Exact", 1)[1]
    head, words = count_words(q)
    assert head == "14/74 =" and exact.index("14/74") < exact.index("7/37"), exact
    assert words in exact


def test_plain_words_for_the_terms(lab):
    words = text(lab.summary.value)
    assert "SE, the standard error" in words
    pictures = text(lab.plot_out.value.split("</svg>")[-1])
    assert "log scale: each step to the right multiplies the trials by 10" in pictures
    assert "slope −1/2. So 100 times more trials make it 10 times smaller" in pictures
    heading = next(text(w.value) for w in lab.tabs.children[0].children
                   if isinstance(getattr(w, "value", None), str) and "95% intervals really" in w.value)
    assert "Wilson's interval is another way to draw a 95% interval. It always stays between 0 and 1." in heading
    first = words.index("SE")
    assert "standard error" in words[first:first + 30], words[first - 40:first + 40]  # said where first met


def test_the_tournament_says_it_ended_and_names_bots_plainly(lab):
    lab.run_tournament("witness", bots=["greedy", "memory:0.25", "lastk:6"], games=10)
    status, said = text(lab.status.value), lab.live.text
    assert status.startswith("The tournament is over: run 1, 10 games played."), status
    assert "Playing" not in said and "tournament is over" in said, said
    seen = " ".join([lab.tour_summary.value, lab.figures["tournament"], status]
                    + [label for box in lab.seat_boxes.children for label, _ in box.options])
    assert not re.search(r"\b(memory|lastk|highcard):", seen), re.findall(r"\b(?:memory|lastk):\S+", seen)
    assert "Bot that remembers a quarter of the cards it sees" in lab.tour_summary.value
