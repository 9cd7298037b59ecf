"""The Knockout lab's words moved to :mod:`safari_kit.presentation.knockout_text` (issue 28: the lab's widget-free
flow, :mod:`safari_kit.presentation.knockout_flow`, writes them too, and nothing there may import the widgets).
This module re-exports them, so ``from safari_kit.widgets.labs.knockout_text import result_sentence`` still works.
"""
from safari_kit.presentation.knockout_text import *  # noqa: F403 - the same names, from their new home
from safari_kit.presentation.knockout_text import __all__  # noqa: F401
