"""Step-through labs built around the card table (ipywidgets).

Each lab takes a ``seed`` (the same seed puts the same position on every
screen) and is displayed by leaving it as the last expression of a cell.
The classes are imported lazily: a notebook pays only for the lab it uses.
"""
from importlib import import_module

from safari_kit.widgets.labs.base import Lab, Progress, count_html, count_lines, fraction_html, guarded

_LABS = {
    "IdentificationLab": "safari_kit.widgets.labs.identification",
    "ChallengeLab": "safari_kit.widgets.labs.challenge",
    "KnockoutLab": "safari_kit.widgets.labs.knockout",
    "FullGameLab": "safari_kit.widgets.labs.fullgame",
    "SimulationLab": "safari_kit.widgets.labs.simulation",
    "RulesTutorial": "safari_kit.widgets.labs.tutorial",
}

__all__ = ["Lab", "Progress", "count_html", "count_lines", "fraction_html", "guarded", *_LABS]


def __getattr__(name: str):
    if name in _LABS:
        value = getattr(import_module(_LABS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'safari_kit.widgets.labs' has no attribute {name!r}")
