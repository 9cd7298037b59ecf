"""The learners' rules of a game as one page in the app: "Rules of Safari Witness" in the chooser's Lab list.

Why in the app: a learner who plays in the classroom app (Voilà, or the static site's Voici app) never opens a
notebook, and the Rules tutorial shows one rule at a time; this page is the whole game on one screen, in the
same words and with the same card pictures as the lessons' page ``notebooks/rules-safari-witness.ipynb``
(both rendered from one source: :mod:`safari_kit.tutorial.learner_rules`). The pictures are ``data:`` images,
so Voilà needs to serve no file. Nothing to deal and nothing to record: the chooser's seed is accepted and
ignored, and :meth:`use_recorder` keeps nothing.

>>> page = RulesPage("knockout")
>>> "Rules of Safari Knockout" in page.html.value and page.html.value.count("<img ") == 3
True
"""
from __future__ import annotations

import ipywidgets as W

from safari_kit.tutorial import learner_rules


class RulesPage:
    """One game's learners' rules, as HTML with the card pictures, for the app's stage."""

    def __init__(self, game: str = "witness", seed: int | None = None, fair: bool = False):
        if game not in learner_rules.GAMES:
            raise ValueError(f"no rules page for game {game!r}: choose one of {', '.join(learner_rules.GAMES)}")
        self.game = game
        self.errors: list[str] = []
        self.deal_note = W.HTML("")  # what a lab says about its deal: a page deals nothing
        self.html = W.HTML(learner_rules.page_html(game))
        self.layout = W.VBox([self.html])
        self.layout.add_class("safari-rules")
        self.layout.layout.padding = "4px 12px"

    def use_recorder(self, *_args, **_kwargs) -> None:
        """A page to read: nothing a learner does here is recorded."""

    def _repr_mimebundle_(self, **kwargs):
        data = self.layout._repr_mimebundle_(**kwargs)
        return data[0] if isinstance(data, tuple) else data
