"""The classroom app: a chooser page (which game, which lab, which seed) that opens a lab.

Served without code cells by Voilà (``make app``, or Binder's
``urlpath=voila/render/notebooks/app.ipynb``); it also works in a notebook.
Each lab is made by its own class in :mod:`safari_kit.widgets.labs`; the
chooser only builds the chosen one with the chosen seed.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import import_module

import ipywidgets as W

from safari_kit.widgets.labs.base import Lab, guarded


@dataclass(frozen=True)
class LabEntry:
    game: str
    title: str
    module: str
    cls: str
    blurb: str
    kwargs: tuple = ()

    def build(self, seed: int) -> Lab:
        factory = getattr(import_module(self.module), self.cls)
        kwargs = dict(self.kwargs)
        if self.cls == "RulesTutorial":
            lab = factory(**kwargs)
            return lab
        return factory(seed=seed, **kwargs)


LABS = (
    LabEntry("Safari Witness", "Identification", "safari_kit.widgets.labs.identification", "IdentificationLab",
             "Pick a clue type and a place: see the exact chance first, then guess and check."),
    LabEntry("Safari Witness", "Challenge", "safari_kit.widgets.labs.challenge", "ChallengeLab",
             "Reveal cards one at a time: when should you stop?"),
    LabEntry("Safari Witness", "Full game", "safari_kit.widgets.labs.fullgame", "FullGameLab",
             "A whole game against bots, or hot-seat with friends."),
    LabEntry("Safari Witness", "Rules tutorial", "safari_kit.widgets.labs.tutorial", "RulesTutorial",
             "A scripted game, every rule explained as it happens.", (("game", "witness"),)),
    LabEntry("Safari Knockout", "Knockout", "safari_kit.widgets.labs.knockout", "KnockoutLab",
             "Play one seat against bots, with the chance of winning each turn."),
    LabEntry("Safari Knockout", "Rules tutorial", "safari_kit.widgets.labs.tutorial", "RulesTutorial",
             "A scripted game, every rule explained as it happens.", (("game", "knockout"),)),
    LabEntry("Both games", "Simulation", "safari_kit.widgets.labs.simulation", "SimulationLab",
             "Watch a simulation converge on the exact answer; run tournaments of bots."),
)


class LabChooser:
    """Which game, which lab, which seed: then the lab opens below the chooser."""

    def __init__(self, seed: int = 1):
        self.errors: list[str] = []
        games = sorted({e.game for e in LABS}, key=[e.game for e in LABS].index)
        self.game = W.ToggleButtons(options=games, value=games[0], description="Game")
        self.lab = W.Dropdown(description="Lab")
        self.seed = W.IntText(value=seed, description="Seed", layout=W.Layout(width="180px"))
        self.open_button = W.Button(description="Open lab", button_style="primary")
        self.blurb = W.HTML()
        self.stage = W.VBox()
        self.current: Lab | None = None
        self.game.observe(self._on_game, names="value")
        self.lab.observe(self._on_lab, names="value")
        self.open_button.add_class("safari-open")
        self.open_button.on_click(lambda _b: self.open())
        self.header = W.HTML("<h2 style='margin:4px 0'>Safari Kit</h2>"
                             "<p>Choose a game and a lab. Everyone in the class who types the same seed "
                             "sees the same cards.</p>")
        self.widget = W.VBox([self.header, self.game, W.HBox([self.lab, self.seed, self.open_button]),
                              self.blurb, self.stage])
        self.widget.add_class("safari-app")
        self._on_game({"new": self.game.value})

    def entries(self, game: str | None = None) -> list[LabEntry]:
        game = self.game.value if game is None else game
        return [e for e in LABS if e.game == game]

    def _on_game(self, change) -> None:
        entries = self.entries(change["new"])
        self.lab.options = [(e.title, i) for i, e in enumerate(entries)]
        self.lab.value = 0
        self._on_lab(None)

    def _on_lab(self, _change) -> None:
        entries = self.entries()
        if self.lab.value is not None and self.lab.value < len(entries):
            self.blurb.value = f"<i>{html.escape(entries[self.lab.value].blurb)}</i>"

    def open(self, game: str | None = None, lab: str | None = None, seed: int | None = None) -> Lab | None:
        """Open a lab (by default the one chosen in the widgets); returns it."""
        if game is not None:
            self.game.value = game
        if lab is not None:
            titles = [e.title for e in self.entries()]
            if lab not in titles:
                raise ValueError(f"no lab {lab!r} for {self.game.value}; choose one of {titles}")
            self.lab.value = titles.index(lab)
        if seed is not None:
            self.seed.value = int(seed)
        return self._open()

    @guarded
    def _open(self) -> Lab:
        entry = self.entries()[self.lab.value]
        self.stage.children = [W.HTML(f"<p>Opening {html.escape(entry.title)}…</p>")]
        self.current = entry.build(int(self.seed.value))
        self.stage.children = [self.current.layout]
        return self.current

    def show_status(self, text: str, kind: str = "info") -> None:
        self.stage.children = [W.HTML(f"<p style='color:#a00'>{html.escape(text)}</p>")]

    def _repr_mimebundle_(self, **kwargs):
        data = self.widget._repr_mimebundle_(**kwargs)
        return data[0] if isinstance(data, tuple) else data
