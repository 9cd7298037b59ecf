"""The Knockout and Simulation labs' words for a 15-year-old (issue 27): no sentence over 25 words.

Everything the labs write for a learner at the moments a class meets them (the Knockout lab's first lead and
its hint, a round's end by "Play to end of round", the turn log and tally; the Simulation lab's question, run
summary, pictures' words, a round of intervals, a tournament, the status lines and what a screen reader is
told) is split into sentences at . ? ! : ; (a table cell or list item ends one too), and each is counted.
"""
from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("anywidget")

from safari_kit.widgets.labs.knockout import KnockoutLab  # noqa: E402
from safari_kit.widgets.labs.simulation import SimulationLab  # noqa: E402

LIMIT = 25


def sentences(h: str) -> list[str]:
    h = re.sub(r"<style.*?</style>|<svg.*?</svg>", " ", h, flags=re.S)
    h = re.sub(r"</(td|th|tr|p|div|li|table|summary)>", ". ", h)
    words = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", h).split()))
    return [s for s in re.split(r"(?<=[.?!:;])\s+", words) if s.strip(" .")]


def long_ones(parts: list[str]) -> list[tuple[int, str]]:
    return [(len(s.split()), s) for p in parts for s in sentences(p) if len(s.split()) > LIMIT]


@pytest.mark.parametrize("seed", [1, 10])
def test_knockout_lab_sentences_are_short(seed):
    lab = KnockoutLab(seed=seed, elimination=True)
    parts = [lab.prob.value, lab.status.value, lab.tally.value, lab.log.value, lab.live.text]
    lab.end_round_button.click()
    parts += [lab.prob.value, lab.status.value, lab.live.text, lab.log.value, lab.tally.value,
              lab.table.view.get("message") or "", lab.table.view.get("phase_words") or ""]
    assert long_ones(parts) == []


def test_simulation_lab_sentences_are_short():
    from safari_kit.widgets.labs.simulation import INTERVAL_WORDS

    lab = SimulationLab(fair=True, tournament_game="witness")
    parts = [lab.about.value, lab.summary.value, lab.plot_out.value, lab.cov_summary.value, lab.deal_note.value,
             lab.status.value, INTERVAL_WORDS]
    lab.run_button.click()
    lab.pool_box.value = True
    lab.run_coverage(size=20)
    lab.run_tournament("witness", bots=["greedy", "memory:0.25", "lastk:6"], games=10)
    parts += [lab.summary.value, lab.cov_summary.value, lab.tour_summary.value, lab.status.value, lab.live.text]
    for q in lab._questions.values():
        parts.append(q.about)
    assert long_ones(parts) == []
