"""Moved to :mod:`safari_kit.classroom` (issue 28): ``run`` to ``serve`` (it records when the settings name a
results folder), ``ClassroomVoila`` and ``teacher_url`` to ``recording``. This old path warns, and goes in a later
release."""
from safari_kit.server._moved import forward

__getattr__ = forward(__name__)
