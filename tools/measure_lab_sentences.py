"""Issue 27 (part E): the learner sentences of the Knockout lab, the Simulation lab and the tutorial's quiz.

Prints how many sentences a learner meets at the moments a class meets them, how many are over 25 words,
and the longest: the Simulation lab opened, a press of Simulate, pooled, a round of intervals of 20 trials, a
tournament; the Knockout lab's first lead and a round's end by "Play to end of round" (seeds 1, 10, 17,
Variation 1); every quiz question of both Rules tutorials, asked and answered. A sentence ends at . ? ! or
at the end of a table cell, a paragraph or a list item.

Run: ``.venv/bin/python tools/measure_lab_sentences.py`` (``PYTHONPATH=<an old checkout>`` to measure that one).
"""
from __future__ import annotations

import html
import re

from safari_kit.widgets.labs.knockout import KnockoutLab
from safari_kit.widgets.labs.simulation import SimulationLab
from safari_kit.widgets.labs.tutorial import RulesTutorial


def sentences(h: str) -> list[str]:
    h = re.sub(r"<style.*?</style>|<svg.*?</svg>", " ", h, flags=re.S)
    h = re.sub(r"</(td|th|tr|p|div|li|table|summary)>", ". ", h)
    words = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", h).split()))
    return [s for s in re.split(r"(?<=[.?!])\s+", words) if s.strip(" .")]


def learner_words() -> list[str]:
    parts = []
    lab = SimulationLab(fair=True, tournament_game="witness")
    parts += [lab.about.value, lab.summary.value, lab.plot_out.value, lab.cov_summary.value, lab.deal_note.value,
              lab.status.value]
    lab.run_button.click()
    lab.pool_box.value = True
    lab.run_coverage(size=20)
    lab.run_tournament("witness", bots=["greedy", "memory:0.25", "lastk:6"], games=10)
    parts += [lab.summary.value, lab.cov_summary.value, lab.tour_summary.value, lab.status.value, lab.live.text]
    for seed in (1, 10, 17):
        ko = KnockoutLab(seed=seed, elimination=True)
        parts += [ko.prob.value, ko.status.value, ko.tally.value, ko.live.text]
        ko.end_round_button.click()
        parts += [ko.prob.value, ko.status.value, ko.live.text, ko.log.value, ko.tally.value]
    for game in ("witness", "knockout"):
        tutorial = RulesTutorial(game)
        for step in sorted(tutorial.questions):
            tutorial.go(step)
            parts += [tutorial.quiz_text.value, tutorial.status.value]
            tutorial.answer(0)
            parts += [tutorial.quiz_result.value, tutorial.status.value]
    return parts


def main() -> None:
    n = [len(s.split()) for part in learner_words() for s in sentences(part)]
    over = sum(x > 25 for x in n)
    print(f"{len(n)} sentences, {over} over 25 words ({100 * over / len(n):.1f} %), longest {max(n)} words")


if __name__ == "__main__":
    main()
