"""Every number a lesson's prose states, tied to the kit's computation: :mod:`.core` reads and checks,
``lesson_NN.py`` holds each lesson's facts (moved out of the wheel from ``safari_kit/teaching/facts.py``)."""
from .core import Fact, Given, check_text, facts_of, prose, render_value

__all__ = ["Fact", "Given", "check_text", "facts_of", "prose", "render_value"]
