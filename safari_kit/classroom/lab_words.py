"""The words the labs show, for the teacher's page: lab names as the chooser lists them, the Simulation lab's
questions as its dropdown words them (issue 26: the page said "identify animal", "challenge 4", "knockout").

The records hold only keys (``lab="identification"``, ``question="challenge-4"``); the words live with the
labs (:data:`safari_kit.widgets.app.LABS`, :func:`safari_kit.widgets.labs.simulation_draws.questions`), in
the widgets layer that the teacher's page (``safari_kit.teaching``) may not import. This module sits above
both and reads them from there, once per server (the Simulation lab's questions take about half a second to
build), so a lab renamed or a question reworded shows on the page with no second copy of its words.
"""
from __future__ import annotations

import functools
import importlib
from collections import Counter

from safari_kit.class_results.teacher_page import LabWords
from safari_kit.core.i18n import SOURCE_LANGUAGE, language

__all__ = ["lab_words"]


@functools.lru_cache(maxsize=1)
def lab_words() -> LabWords:
    """The labs' own words: ``labs`` record lab -> the chooser's title (with its game where one title names
    labs of two games, as "Rules tutorial"), ``questions`` Simulation question key -> its label."""
    with language(SOURCE_LANGUAGE):  # the teacher's page is English, whatever the class's language (--lang)
        return _lab_words()


def _lab_words() -> LabWords:
    from safari_kit.widgets.app import LABS
    from safari_kit.widgets.labs.simulation_draws import DEFAULT_SEED, questions

    keyed: dict[str, list] = {}
    for entry in LABS:
        options = dict(entry.kwargs)
        if "game" in options:  # the Rules tutorial: its record lab is per game (RulesTutorial.__init__)
            key = f"tutorial-{options['game']}"
        else:
            key = getattr(getattr(importlib.import_module(entry.module), entry.cls), "record_lab", "")
        if key and key != "lab":  # "lab": the base class's default, a lab that records nothing
            keyed.setdefault(key, []).append(entry)
    titles = Counter(entries[0].title for entries in keyed.values())
    labs = {key: entries[0].title + (f" ({entries[0].game})" if titles[entries[0].title] > 1 else "")
            for key, entries in keyed.items()}
    return LabWords(labs=labs, questions={k: q.label for k, q in questions(DEFAULT_SEED).items()})
